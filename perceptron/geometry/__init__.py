"""Exact data geometry, in layers: linear algebra (`linear`) -> separability -> the maximum
margin -> the Novikoff bound. Each layer imports only the ones before it.

The names of the former `perceptron.geometry` module are re-exported here, so
`from perceptron.geometry import radius2` keeps working.
"""

from typing import Any

from perceptron.geometry import linear
from perceptron.geometry.linear import *  # noqa: F403

__all__ = [*linear.__all__, "novikoff_bound"]  # noqa: F405


def __getattr__(name: str) -> Any:
    """`novikoff_bound`, loaded on first use: it needs the maximum-margin solver."""
    if name == "novikoff_bound":
        from perceptron.geometry.bound import novikoff_bound

        return novikoff_bound
    raise AttributeError(f"module 'perceptron.geometry' has no attribute {name!r}")
