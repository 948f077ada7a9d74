"""Numeric judgement: proof steps evaluated exactly on many instances (`instances`), the
campaigns that draw those instances from adversarial runs (`campaign`) and their sizes
(`budgets`).

The names of the former `verify.numeric` module are re-exported here, so
`from verify.numeric import CompiledJudgement, InstanceBatch, Shrinker` keeps working. They
are loaded on first use: `instances` imports SymPy (about a second), which a command that
only reads `verify.numeric.budgets` (every CLI command builds the audit's parser) never needs.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: `verify.numeric.instances.__all__` (a test keeps the two equal).
__all__ = [
    "Column", "CompiledJudgement", "CompiledPolynomial", "Instance", "InstanceBatch",
    "NumericVerdict", "Origin", "Provenance", "Shrinker", "VectorColumn", "check",
    "gram_column", "satisfying",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module("verify.numeric.instances"), name)
    raise AttributeError(f"module 'verify.numeric' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
