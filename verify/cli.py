"""The `novikoff` command line: subcommands, and one-line errors with exit code 2."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from perceptron.errors import DataError
from proofs.errors import ProofFileError

#: Subcommand modules under verify/commands, in the order `--help` lists them.
COMMANDS: tuple[str, ...] = ("audit", "run", "check", "bound", "explain")

#: Errors that mean "bad input": reported in one line, exit code 2.
USER_ERRORS: tuple[type[BaseException], ...] = (
    DataError,
    ProofFileError,
    OSError,
    UnicodeDecodeError,
)


class UsageError(ValueError):
    """A bad combination of command-line arguments."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other bad input
        self.exit(2, f"novikoff: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser with every registered subcommand."""
    parser = _Parser(
        prog="novikoff",
        description="Prove and test the perceptron convergence theory, exactly.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"verify.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `novikoff` script; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except (*USER_ERRORS, UsageError) as exc:
        print(f"novikoff: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("novikoff: interrupted", file=sys.stderr)
        return 130


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split()) or type(exc).__name__
