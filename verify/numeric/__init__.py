"""Numeric judgement: proof steps evaluated exactly on many instances (`instances`), the
campaigns that draw those instances from runs (`campaign`) and their sizes (`budgets`).

What a run offers (its quantities, row sets and exact columns) is the floor below,
`verify.runs`; this package only evaluates and campaigns, asking the run kinds' registry.

The evaluation names are re-exported here (`from verify.numeric import CompiledJudgement,
Shrinker`). They are loaded on first use: `instances` imports SymPy (about a second), which
a command that only reads `verify.numeric.budgets` (every CLI command builds the audit's
parser) never needs.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: `verify.numeric.instances.__all__` (a test keeps the two equal).
__all__ = ["CompiledJudgement", "CompiledPolynomial", "NumericVerdict", "Shrinker", "check",
           "satisfying"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module("verify.numeric.instances"), name)
    raise AttributeError(f"module 'verify.numeric' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
