"""Shared test configuration: bounded, derandomized hypothesis profiles."""

import os

from hypothesis import HealthCheck, settings

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
