"""What the `novikoff` subcommands share: argument types, reading a proof, `UsageError`.

Each subcommand is one module of `verify.cli` exposing `register(subparsers)`; a handler takes
the parsed arguments and returns the exit code. Argument types shared by several subcommands
live here, so a bad value reads the same everywhere.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from proofs.step import Proof


class UsageError(ValueError):
    """A bad combination of command-line arguments."""


def whole_number(what: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer count of `what` in `[low, high]`, else a one-line error."""

    def parse(text: str) -> int:
        value = integer(text, f"a whole number of {what}")
        if value < low or (high is not None and value > high):
            allowed = f"at least {low}" if high is None else f"between {low} and {high}"
            raise argparse.ArgumentTypeError(f"{what} must be {allowed}, not {_clipped(value)}")
        return value

    return parse


#: An integer on the command line: ASCII digits only (`int` also takes `٣` and `１`).
_INTEGER = re.compile(r"[+-]?[0-9]+")
#: Digits of an integer option's value echoed in an error; the rest is counted.
_ECHOED_DIGITS = 40


def integer(text: str, what: str = "an integer") -> int:
    """An integer option's value: optional sign and ASCII digits, else an argparse error
    saying so (digits of other scripts are refused, as in proof files and data files)."""
    if not _INTEGER.fullmatch(text.strip()):
        shown = text if len(text) <= _ECHOED_DIGITS else f"{text[:_ECHOED_DIGITS]}..."
        ascii_only = (" (ASCII digits 0-9 only)"
                      if any(c.isdigit() and not c.isascii() for c in text) else "")
        raise argparse.ArgumentTypeError(f"{shown!r} is not {what}{ascii_only}")
    stripped = text.strip()
    if len(stripped) > 4000:  # past Python's int-from-text limit; far past any bound here
        raise argparse.ArgumentTypeError(
            f"{stripped[:_ECHOED_DIGITS]}... ({len(stripped)} characters) is too long for "
            f"{what}")
    return int(stripped)


def _clipped(value: int) -> str:
    """`value` for an error line: exact up to `_ECHOED_DIGITS` digits, else its size."""
    text = str(value)
    return text if len(text) <= _ECHOED_DIGITS else f"a number of {len(text.lstrip('-'))} digits"


def label_column(text: str) -> int | str:
    """An argparse type for `--label-column`: an integer is a column index (negative from
    the end), anything else a header name.

    One parser for every command, so that `--label-column 0` means column 0 everywhere (it
    once reached the loader of `novikoff bound` as the header name "0"). An index is written
    in ASCII digits, as every integer option's (`integer`): `٠` was read as column 0 and
    `1_0` as column 10 by `int` (red team 19 F8); digits of another script alone are
    refused, and `1_0` is a header name.
    """
    if _INTEGER.fullmatch(text.strip()):
        return integer(text, "a column index")
    if text.strip().lstrip("+-").isdigit():  # digits of another script: no header either
        return integer(text, "a column index")  # refused, saying ASCII digits only
    return text


#: Name shown for standard input in messages and reports.
STDIN = "<stdin>"


def read_proof(name: str) -> tuple[str, Proof]:
    """A proof named on the command line: `-` (stdin), a file, or a built-in proof id.

    A file of that name wins over a built-in id, so a user's `canonical-online` file in the
    current directory is never shadowed. Returns the name to show and the parsed proof.
    """
    from proofs.errors import ProofFileError
    from proofs.library import load_named
    from proofs.proof_file import MAX_BYTES, parse_proof
    from verify.proof_checker import with_refusals

    try:
        if name == "-":  # bounded like a file: parse_proof refuses more than MAX_BYTES
            return STDIN, parse_proof(sys.stdin.buffer.read(MAX_BYTES + 1), STDIN)
        return name, load_named(name)
    except ProofFileError as error:  # with the rules' refusals of the steps that were read
        raise with_refusals(error) from None


def made_folder(directory: Path, option: str) -> None:
    """`directory` made (with its parents) unless it is one already: an output folder an
    option names (`--counterexamples DIR`, `--coq DIR`). A path that exists and is not a
    folder, or one that cannot be made, is a usage error naming the option."""
    if directory.exists() and not directory.is_dir():
        raise UsageError(f"{option} {directory}: not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{option} {directory}: cannot create it ({error.strerror})"
                         ) from None


def print_notes(proof: Proof) -> None:
    """The declarations an earlier-language file left out and `proofs.earlier` inferred, one
    line each on stderr, after the command's output (bad input stays one line: its error)."""
    for note in proof.notes:
        print(f"novikoff: {note}", file=sys.stderr)


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """`--max-cells` and `--max-scaled-bits`: the loaders' limits against hostile data files
    (`perceptron.io.loaders.Limits`), named by the error a file over them gets."""
    from perceptron.io.common import (
        BYTES_PER_CELL,
        MAX_CELLS,
        MIN_SCALED_BITS,
        MOST_CELLS,
        MOST_SCALED_BITS,
        SCALED_BITS_PER_BYTE,
    )

    parser.add_argument("--max-cells", type=whole_number("cells", 1, MOST_CELLS),
                        default=MAX_CELLS, metavar="N",
                        help=f"refuse data files with more than N numbers, or of more than "
                        f"{BYTES_PER_CELL} N bytes (default {MAX_CELLS}, at most 10^12)")
    parser.add_argument("--max-scaled-bits", type=whole_number("bits", 1, MOST_SCALED_BITS),
                        default=None, metavar="N",
                        help="refuse data whose integer form (every number times the common "
                        f"denominator) would take more than N bits (default "
                        f"{SCALED_BITS_PER_BYTE} per byte of the file, at least "
                        f"{MIN_SCALED_BITS}; at most 10^15)")


def limits(args: argparse.Namespace) -> Any:
    """The `perceptron.io.loaders.Limits` of the parsed `--max-cells`/`--max-scaled-bits`."""
    from perceptron.io.loaders import Limits

    return Limits(max_cells=args.max_cells, max_scaled_bits=args.max_scaled_bits)


def given_kinds(names: list[str]) -> list[str]:
    """Register the run kinds of `--run-kind` (a user's code runs from here on: she asked for
    it); one line per kind that cannot be loaded, and the audit goes on without it (its
    proofs are then refused as naming a kind nobody registered)."""
    from verify.runs import UnknownRunKind, entry_point

    refused = []
    for name in dict.fromkeys(names):
        try:
            entry_point(name)
        except (UnknownRunKind, ValueError) as error:  # not installed, not a kind, a clash
            refused.append(f"--run-kind {name}: {' '.join(str(error).split())}"[:300])
        except Exception as error:  # the user's code, whatever it raises: one line
            text = " ".join(str(error).split())
            refused.append(f"--run-kind {name}: cannot be loaded: {type(error).__name__}: "
                           f"{text}"[:300])
    return refused
