"""One module per `novikoff` subcommand; each exposes `register(subparsers)`.

A subcommand's handler takes the parsed arguments and returns the exit code. Argument types
shared by several subcommands live here, so a bad value reads the same everywhere.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(what: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer count of `what` in `[low, high]`, else a one-line error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number of {what}"
            ) from None
        if value < low or (high is not None and value > high):
            allowed = f"at least {low}" if high is None else f"between {low} and {high}"
            raise argparse.ArgumentTypeError(f"{what} must be {allowed}, not {value}")
        return value

    return parse
