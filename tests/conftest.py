"""Shared test configuration: bounded, derandomized hypothesis profiles, and the small
audit every audit, report and handout test reads."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from verify.audit.job import Audit

settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
# The bounded, reproducible profile is the default, so the README's test command is CI's.
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def small_audit() -> Audit:
    """Every built-in proof with the small campaign (seed 3), made once per test process:
    the audit, report and handout tests read it (three modules each made their own)."""
    from verify.audit.job import run_audit

    return run_audit(budget="small", seed=3)
