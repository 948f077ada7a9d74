"""What every loader shares: resource limits, reading and decoding a file, one number or
label from a cell, each problem a `DataError` with its location (rules: `perceptron.io.loaders`)."""

from __future__ import annotations

import difflib
import numbers
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import BinaryIO

from perceptron.dataset import ScaledSize, counted_size, scaled_size
from perceptron.errors import DataError
from perceptron.numbers import approximate, as_text, digit_count, parse_exact

_NONFINITE = re.compile(r"^[+-]?(nan|inf|infinity)$", re.IGNORECASE)
#: A cell that looks like a number (even a malformed one such as `1/0` or `1.2.3`): a row with
#: one is data, never a header.
_NUMERIC_LOOKING = re.compile(r"^\s*\(?[+-]?(\d|\.\d|(nan|inf)\b)", re.IGNORECASE)  # any
# digit, `٣` too: a row of them is data (refused by `parse_exact`), never a header
#: A `.dat` count: ASCII digits only (`str.isdigit` also accepts `²`, which `int` refuses).
_COUNT = re.compile(r"[0-9]+")
_BLANK = object()

#: Default cap on the numbers in one file (features and labels).
MAX_CELLS = 5_000_000
#: Bytes a file may take per number it may hold (`Limits.max_bytes`): ample for real data
#: (a CSV cell of 20 digits takes 21), and a bound on what is read before parsing.
BYTES_PER_CELL = 64
#: Default cap on the bits of the scaled integers, per byte of input ...
SCALED_BITS_PER_BYTE = 64
#: ... and never below this many bits (small files with a few large numbers stay readable).
MIN_SCALED_BITS = 1 << 24
#: The largest `--max-cells` and `--max-scaled-bits` the command line takes: far past any
#: machine (10^12 cells allow 64 TB of file; 10^15 bits are 125 TB), so a larger value is a
#: slip, refused in one line rather than carried into sizes and messages.
MOST_CELLS = 10**12
MOST_SCALED_BITS = 10**15


@dataclass(frozen=True)
class Limits:
    """Resource limits of the loaders, against hostile files (see the module docstring).

    `max_scaled_bits=None` means `SCALED_BITS_PER_BYTE` bits per byte of the input, at least
    `MIN_SCALED_BITS`; `max_bytes=None` means `BYTES_PER_CELL` bytes per cell of
    `max_cells` (so `--max-cells` raises both).
    """

    max_cells: int = MAX_CELLS
    max_scaled_bits: int | None = None
    max_bytes: int | None = None

    @property
    def bytes(self) -> int:
        """The most bytes read from one input (the rest is never read: `_read_bytes`)."""
        return self.max_bytes if self.max_bytes is not None else BYTES_PER_CELL * self.max_cells

    def scaled_bits(self, input_bytes: int) -> int:
        """The cap on the bits of the scaled integers of an input of `input_bytes` bytes."""
        if self.max_scaled_bits is not None:
            return self.max_scaled_bits
        return max(MIN_SCALED_BITS, SCALED_BITS_PER_BYTE * input_bytes)

    def check_cells(self, cells: int, source: str) -> None:
        """Refuse more than `max_cells` numbers, before they are converted."""
        if cells > self.max_cells:
            raise DataError(f"{_count(cells)} numbers, more than the limit of {self.max_cells} "
                            "(raise it with --max-cells, or Limits(max_cells=...))",
                            source=source)

    def check_scaled(self, X: Sequence[Sequence[Fraction]], input_bytes: int,
                     source: str) -> None:
        """Refuse data whose integer form (cells times the common denominator) is too big."""
        limit = self.scaled_bits(input_bytes)
        self._refuse(scaled_size(X, limit), limit, source)

    def check_counted(self, counted: Sequence[tuple[Fraction, int]], input_bytes: int,
                      source: str) -> None:
        """`check_scaled` of cells given as (distinct value, count), first appearance first."""
        limit = self.scaled_bits(input_bytes)
        self._refuse(counted_size(counted, limit), limit, source)

    @staticmethod
    def _refuse(size: ScaledSize, limit: int, source: str) -> None:
        if size.exceeded:
            raise DataError(
                f"the examples scaled to integers by their common denominator (of "
                f"{size.scale_bits}+ bits) would take {size.total_bits}+ bits, more than the "
                f"limit of {limit} (raise it with --max-scaled-bits, or "
                "Limits(max_scaled_bits=...))", source=source)


DEFAULT_LIMITS = Limits()


def _count(n: int) -> str:
    """A count for a message: exact up to 40 digits, else its order of magnitude."""
    return str(n) if n < 10**40 else f"about 10^{digit_count(n) - 1}"


#: What `_read_bytes` calls a file that is not a regular one, by its `stat` test.
_NOT_REGULAR = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def _read_bytes(p: Path, source: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The bytes of a data file: a regular file only, at most `limits.bytes` of it.

    A device (`/dev/zero`, `/dev/urandom`: endless), a named pipe (which may never be written,
    and blocks whoever opens it), a socket or a directory is refused without reading it: it
    is opened without blocking and looked at first (`fstat` of the file opened, so what is
    read is what was looked at). Standard input, the one stream a user means to pipe data
    through, is `-` (`read_stream`), bounded the same way. So a stranger's proof file that
    names such a path costs one line, never memory or time.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise DataError("no such file", source=source) from None
    except IsADirectoryError:
        raise DataError("is a directory, not a data file", source=source) from None
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", source=source) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise DataError("is a directory, not a data file", source=source)
        kind = next((what for test, what in _NOT_REGULAR if test(mode)), "not a file")
        raise DataError(f"is {kind}, not a regular file: a data file is read from a file, "
                        "or from standard input as -", source=source)
    with open(fd, "rb", closefd=True) as handle:
        try:
            return _bounded(_read_at_most(handle, limits.bytes + 1), source, limits)
        except OSError as exc:
            raise DataError(f"cannot read: {exc.strerror or exc}", source=source) from None


def read_stream(stream: BinaryIO, source: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The bytes of a stream (standard input), at most `limits.bytes` of them."""
    return _bounded(_read_at_most(stream, limits.bytes + 1), source, limits)


#: Bytes asked of a file at a time by `_read_at_most`.
READ_CHUNK = 1 << 20


def _read_at_most(handle: BinaryIO, most: int) -> bytes:
    """At most `most` bytes of `handle`, read a chunk at a time until the end or `most`.

    Never `handle.read(most)`: that asks for a buffer of `most` bytes up front, so a large
    limit (`--max-cells 1000000000` allows 64 GB) was a MemoryError before a byte was read,
    and one past a C size an OverflowError. Memory follows what the file holds instead.
    """
    chunks: list[bytes] = []
    left = most
    while left > 0:
        chunk = handle.read(min(READ_CHUNK, left))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _bounded(raw: bytes, source: str, limits: Limits) -> bytes:
    """`raw`, read as `limits.bytes + 1` bytes at most: refused when it is over the limit."""
    if len(raw) > limits.bytes:
        raise DataError(f"more than {limits.bytes} bytes, the most a file of {limits.max_cells} "
                        f"numbers may take here ({BYTES_PER_CELL} bytes a number; raise it with "
                        "--max-cells, or Limits(max_bytes=...)); the rest was not read",
                        source=source)
    return raw


def _decode(raw: bytes, source: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw[: exc.start].decode("utf-8", errors="replace")
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
        raise DataError("not UTF-8 text", source=source, line=line, column=column) from None


def _is_number(text: str) -> bool:
    try:
        parse_exact(text)
    except DataError:
        return False
    return True


def _cell(text: str, source: str, line: int | None, column: int | None) -> Fraction:
    """One number from a file, with its location in any error."""
    stripped = text.strip()
    if not stripped:
        raise DataError("empty cell", source=source, line=line, column=column)
    if _NONFINITE.match(stripped):
        raise DataError(f"{stripped!r} is not a finite number (NaN and infinities are refused)",
                        source=source, line=line, column=column)
    try:
        return parse_exact(stripped)
    except DataError as exc:
        raise DataError(exc.problem, source=source, line=line, column=column) from None


class _Labels:
    """Labels {-1, +1} or {0, 1}, fixed by the first label that is not +1."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.kind: str | None = None
        self.first: tuple[int | None, int | None] = (None, None)

    def add(self, value: Fraction, line: int | None, column: int | None) -> int:
        """The label as -1/+1, checking it belongs to the file's label set."""
        if value == 1:
            return 1
        if value == -1 or value == 0:
            kind = "-1/+1" if value == -1 else "0/1"
            if self.kind is None:
                self.kind, self.first = kind, (line, column)
            elif kind != self.kind:
                where = f"line {self.first[0]}" if self.first[0] is not None else "earlier"
                raise DataError(
                    f"label {value} but the labels are {self.kind} (set by the label at "
                    f"{where}); use either -1/+1 or 0/1", source=self.source, line=line,
                    column=column)
            return -1
        shown = as_text(value) if len(as_text(value)) <= 40 else f"~{approximate(value)}"
        raise DataError(f"label {shown} is not one of -1/+1 or 0/1", source=self.source,
                        line=line, column=column)


def _labels(values: Sequence[Fraction], source: str, column: int | None = None) -> list[int]:
    labels = _Labels(source)
    return [labels.add(v, i + 1, column) for i, v in enumerate(values)]

def _listed(names: Sequence[str], shown: int = 6) -> str:
    """A header's column names, the first `shown` of them (each cut at 40 characters)."""
    text = ", ".join(repr(n[:40]) for n in names[:shown])
    return text + (f" and {len(names) - shown} more" if len(names) > shown else "")


def _label_index(label_column: int | str | None, width: int, header: list[str] | None,
                 source: str, line: int) -> int:
    if label_column is None:
        return width - 1
    if not isinstance(label_column, str):
        # red team 35 F6: `True` read the column 1 and `False` column 0 as labels, silently;
        # `1.0` was "list indices must be integers or slices, not float"
        if isinstance(label_column, bool) or not isinstance(label_column, numbers.Integral):
            # (numpy's bool_ is no Integral)
            raise TypeError(f"label_column is a column index (an int) or a header name (a "
                            f"str), not {type(label_column).__name__} {label_column!r:.40}")
        label_column = int(label_column)
    if isinstance(label_column, str):
        if header is None or label_column not in header:
            close = difflib.get_close_matches(  # the first columns only: a header may be wide
                label_column[:40], (header or [])[:200], n=1, cutoff=0.6)
            raise DataError(f"no column named {label_column[:40]!r}"
                            + (" (the file has no header row)" if header is None else
                               f" (did you mean {close[0][:40]!r}?)" if close else
                               f" (its header names {_listed(header)})"),
                            source=source, line=line)
        named = [i for i, name in enumerate(header) if name == label_column]
        if len(named) > 1:  # the first was taken silently once: which one is meant?
            listed = ", ".join(map(str, named[:-1])) + f" and {named[-1]}"
            raise DataError(f"{len(named)} columns are named {label_column[:40]!r} (columns "
                            f"{listed}, counting from 0): give the label column by its "
                            "index", source=source, line=line)
        return named[0]
    index = label_column + width if label_column < 0 else label_column
    if not 0 <= index < width:
        raise DataError(f"label column {label_column} is outside the {width} columns",
                        source=source, line=line)
    return index
