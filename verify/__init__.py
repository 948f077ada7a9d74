"""Judgement: the trusted kernel, certificate search, instance checks, reports and the CLI."""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: The public API for test suites (docs/api.md), loaded on first use so that importing a
#: `verify` module (the CLI, say) does not load it.
_API = ("check_run", "check_implementation", "check_margin_implementation",
        "check_batch_implementation", "sklearn_fit", "Fitted", "TheoryReport", "BatchReport",
        "ImplementationReport", "ScenarioOutcome", "MarginReport", "CheckOutcome", "Violation",
        "separable_data", "seeded_separable", "labelled_vectors", "audit_proofs")


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(import_module("verify.api"), name)
    raise AttributeError(f"module 'verify' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])


__all__ = list(_API)
