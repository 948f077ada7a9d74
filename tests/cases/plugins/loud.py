"""A correct plug-in whose module prints when it is loaded (its top level runs in the
audit's own process), through Python and straight to file descriptor 1."""

from __future__ import annotations

import os

from cases.plugins.hostile import perceptron

print("TOPLEVEL PRINT")
os.write(1, b"TOPLEVEL RAW\n")

__all__ = ["perceptron"]
