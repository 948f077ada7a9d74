"""The built-in proofs' ids and files, apart from the loader: the proof-file parser reads it
to resolve a `uses` of a built-in step (`proofs.imports`) without importing the library that
imports the parser."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

CANONICAL: tuple[str, ...] = ("canonical-online", "canonical-batch")
"""The proofs the audit requires to be verified (exit 0 only when both are)."""

VARIANTS: tuple[str, ...] = (
    "canonical-online-w0",
    "canonical-online-eta",
    "canonical-online-bias",
    "canonical-online-normalised",
    "canonical-online-kernel",
)
"""Variants of the online proof: nonzero w0, learning rate, bias, normalised data, kernel."""

SOURCES: tuple[str, ...] = (
    "chan-batch",
    "joeyonng-online",
    "ng-cs229",
    "telgarsky-online",
    "virtue-online",
)
"""The five source documents' proofs, encoded as written (findings are reported, not fixed)."""

RESULTS: tuple[str, ...] = (
    "margin-perceptron",
    "tightness-orthonormal",
    "nonseparable-freund-schapire",
    "separable-converges",
    "cycling-inseparable",
    "averaged-voted",
    "tightness-every-margin",
    "voted-freund-schapire",
    "finite-sums",
    "online-history",
)
"""Published results beyond the five sources, each checked on runs of its own algorithm
where it is about runs (`finite-sums` holds laws of every finite sum, three of its steps
checked on batch runs, whose dataset's families its families are bound to;
`online-history` the iterate as the sum of its updates, on the online runs' history)."""

PROOFS: dict[str, Path] = {
    **{name: HERE / f"{name}.toml" for name in (*CANONICAL, *VARIANTS, *RESULTS)},
    **{name: HERE / "seeds" / f"{name}.toml" for name in SOURCES},
}
"""Built-in proof id -> proof file."""
