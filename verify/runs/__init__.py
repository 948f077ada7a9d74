"""The run wing (docs/design.md §1): what a run offers to a proof, beyond the built-in engines.

Today: users' own online algorithms as plug-ins (`verify.runs.plugin`), run by the campaign
exactly as the built-in algorithms are, and only when the user names them on the command line
(`novikoff audit --algorithm NAME=MODULE:FUNCTION`) or through the API
(`verify.audit_proofs(..., algorithms=...)`); a proof file alone never runs code.

This package sits below `verify.numeric` (the campaign reads it, it never reads the campaign).
"""
