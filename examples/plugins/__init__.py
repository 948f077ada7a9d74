"""Users' own algorithms for `novikoff audit --algorithm` (docs/proof-files.md)."""
