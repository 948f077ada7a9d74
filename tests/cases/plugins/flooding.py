"""A correct plug-in whose module prints 900 001 bytes when it is loaded (its top level runs
in the audit's own process): to descriptor 1, through `print` and to `sys.stderr`."""

from __future__ import annotations

import os
import sys

from cases.plugins.hostile import perceptron

os.write(1, b"y" * 300_000)
print("z" * 300_000)
sys.stderr.write("w" * 300_000)

__all__ = ["perceptron"]
