"""Loading labelled data exactly: CSV, JSON, numpy arrays and the Coq benchmark's `.dat` format.

Every number becomes an exact `Fraction` (`perceptron.numbers`): decimals are exact (`0.1` is
1/10), a binary float (numpy arrays) is its exact binary value, NaN and infinities are refused.
Every problem with a file is a `DataError` naming the file, and the line and column where one
applies (for JSON: the line and column of the offending value; for arrays: row and column).

**Labels** (all formats): either {-1, +1} or {0, 1}, 0 meaning -1. A file's label set is fixed
by its first label that is not +1; a label from the other set later is an error. Any number
equal to -1, 0 or 1 is a label (`1.0` is 1); anything else is an error.

**CSV** (`.csv`, `.tsv`, or text that is neither JSON nor `.dat`): one example per line, the
label in the LAST column unless `label_column` says otherwise (an index, negative from the end,
or a header name). The delimiter is `,` for `.csv`, a tab for `.tsv`, else the first of `,`,
`;`, tab found in the first row, else runs of whitespace. Double quotes around a cell are
allowed. Blank lines and lines starting with `#` are skipped. **Header rule:** the first row
is a header exactly when at least one of its cells is non-empty and none looks like a number
(an optional sign, then a digit, `.` and a digit, or `nan`/`inf`): `1/0,1` is a data row
with an error, never a header dropped silently. Every later row must be all numbers.

**JSON** (`.json`, or text starting with `{`): `{"X": [[...], ...], "y": [...]}`; numbers as
JSON numbers (parsed from their decimal text, never through a binary float) or as strings such
as `"1/3"`, `"-2 % 7"`, `"0.25"`.

**numpy** (`.npy`: a 2-D array, label column last unless `label_column`; `.npz`: arrays `X`
and `y`), and `from_arrays(X, y)` for arrays in memory. Pickled object arrays are refused.

**`.dat`** (the benchmark of the Coq-verified perceptron, `.dat` or sniffed: the first two
lines are single integers): the number of vectors, the number of features, then per vector its
0/1 label and its features, one number per line, written `p % q`, `p/q`, a decimal or an
integer. The benchmark prepends a constant 1 as a bias feature: that is the run's `bias`
option (`Conventions(bias=True)`, bias last), not the loader's job.

**Hostile files** (`Limits`): a number is at most `numbers.MAX_TOKEN` characters; declared
counts are checked against the contents and never used to allocate anything before the values
are read; parsing is linear in the input. A file may hold at most `Limits.max_cells` numbers
(numpy files: checked from the array headers, before anything is decompressed or converted),
and the integer form the runs compute (every cell times the common denominator) may take at
most `Limits.max_scaled_bits` bits, by default `SCALED_BITS_PER_BYTE` bits per byte of input
(at least `MIN_SCALED_BITS`): a few cells `1/q` with large distinct `q` would otherwise turn
every other cell into an integer of the size of their product. Each limit is refused in one
line that names it and the option that raises it (`--max-cells`, `--max-scaled-bits`).
"""

from __future__ import annotations

import csv
import io
import json
import lzma
import os
import re
import sys
import tokenize
import warnings
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from pathlib import Path

import numpy as np

from perceptron.dataset import Dataset, ScaledSize, counted_size, scaled_size
from perceptron.errors import DataError
from perceptron.numbers import MAX_TOKEN, approximate, as_text, digit_count, exact, parse_exact

#: File types `load` knows, by extension; anything else is sniffed from the contents.
FORMATS = {".csv": "csv", ".tsv": "csv", ".json": "json", ".npy": "npy", ".npz": "npz",
           ".dat": "dat"}
# LIBSVM / svmlight files: read by perceptron.svmlight (which builds on this module's rules).
FORMATS.update(dict.fromkeys((".svm", ".svmlight", ".libsvm"), "svmlight"))

_NONFINITE = re.compile(r"^[+-]?(nan|inf|infinity)$", re.IGNORECASE)
#: A cell that looks like a number (even a malformed one such as `1/0` or `1.2.3`): a row with
#: one is data, never a header.
_NUMERIC_LOOKING = re.compile(r"^\s*\(?[+-]?(\d|\.\d|(nan|inf)\b)", re.IGNORECASE)
#: A `.dat` count: ASCII digits only (`str.isdigit` also accepts `²`, which `int` refuses).
_COUNT = re.compile(r"[0-9]+")
_BLANK = object()

#: Default cap on the numbers in one file (features and labels).
MAX_CELLS = 5_000_000
#: Default cap on the bits of the scaled integers, per byte of input ...
SCALED_BITS_PER_BYTE = 64
#: ... and never below this many bits (small files with a few large numbers stay readable).
MIN_SCALED_BITS = 1 << 24


@dataclass(frozen=True)
class Limits:
    """Resource limits of the loaders, against hostile files (see the module docstring).

    `max_scaled_bits=None` means `SCALED_BITS_PER_BYTE` bits per byte of the input, at least
    `MIN_SCALED_BITS`.
    """

    max_cells: int = MAX_CELLS
    max_scaled_bits: int | None = None

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


def load(path: str | os.PathLike[str], *, label_column: int | str | None = None,
         limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a dataset, choosing the format by extension, else by sniffing the contents.

    The path `-` reads standard input.

    Sniffing (deterministic): numpy's magic bytes -> `.npy`; a zip archive -> `.npz`; text
    whose first non-blank character is `{` -> JSON; text whose first two non-blank lines are
    single non-negative integers and whose third is a single number -> `.dat`; lines of
    `label index:value ...` -> LIBSVM/svmlight (`perceptron.svmlight`); else CSV.
    """
    p = Path(path)
    source = str(path)
    if source == "-":  # standard input (the command line's `-`): the format is sniffed
        p, source, raw = Path(), "<stdin>", sys.stdin.buffer.read()
    else:
        raw = _read_bytes(p, source)
    kind = FORMATS.get(p.suffix.lower())
    if not raw.strip():
        raise DataError("no examples: the file is empty", source=source)
    if kind is None:
        kind = _sniff(raw)
    if kind == "npy" or kind == "npz":
        if label_column is not None and kind == "npz":
            raise DataError("label_column does not apply to .npz files (arrays X and y)",
                            source=source)
        return _load_numpy(raw, source, kind, label_column, limits)
    text = _decode(raw, source)
    if kind == "json":
        if label_column is not None:
            raise DataError("label_column does not apply to JSON files", source=source)
        return parse_json(text, source=source, limits=limits)
    if kind == "dat":
        if label_column is not None:
            raise DataError("label_column does not apply to .dat files", source=source)
        return parse_dat(text, source=source, limits=limits)
    if kind == "svmlight":
        from perceptron.svmlight import parse_svmlight

        if label_column is not None:
            raise DataError("label_column does not apply to svmlight files (the label comes "
                            "first on each line)", source=source)
        return parse_svmlight(text, source=source)
    delimiter = "\t" if p.suffix.lower() == ".tsv" else "," if p.suffix.lower() == ".csv" else None
    return parse_csv(text, source=source, label_column=label_column, delimiter=delimiter,
                     limits=limits)


def _read_bytes(p: Path, source: str) -> bytes:
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise DataError("no such file", source=source) from None
    except IsADirectoryError:
        raise DataError("is a directory, not a data file", source=source) from None
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", source=source) from None


def _decode(raw: bytes, source: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw[: exc.start].decode("utf-8", errors="replace")
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
        raise DataError("not UTF-8 text", source=source, line=line, column=column) from None


def _sniff(raw: bytes) -> str:
    if raw.startswith(b"\x93NUMPY"):
        return "npy"
    if raw.startswith(b"PK\x03\x04"):
        return "npz"
    head = raw[:4096].decode("utf-8", errors="replace")
    stripped = head.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{"):
        return "json"
    lines = [line.strip() for line in head.splitlines() if line.strip()][:3]
    if (len(lines) == 3 and _COUNT.fullmatch(lines[0]) and _COUNT.fullmatch(lines[1])
            and _is_number(lines[2])):
        return "dat"
    from perceptron.svmlight import looks_like_svmlight

    return "svmlight" if looks_like_svmlight(head) else "csv"


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


# ---- CSV -----------------------------------------------------------------------------------


def load_csv(path: str | os.PathLike[str], *, label_column: int | str | None = None,
             delimiter: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a CSV file (see the module docstring for the rules)."""
    source = str(path)
    text = _decode(_read_bytes(Path(path), source), source)
    return parse_csv(text, source=source, label_column=label_column, delimiter=delimiter,
                     limits=limits)


def parse_csv(text: str, *, source: str = "<csv>", label_column: int | str | None = None,
              delimiter: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Parse CSV text: one example per row, a label column (default: the last)."""
    lines = text.splitlines()
    content = [(no, line) for no, line in enumerate(lines, 1)
               if line.strip() and not line.lstrip().startswith("#")]
    if not content:
        raise DataError("no examples: the file has no data rows", source=source)
    if delimiter is None:
        first = content[0][1]
        delimiter = next((c for c in (",", ";", "\t") if c in first), None)
    if delimiter is None:
        rows = [(no, line.split()) for no, line in content]
    else:
        reader = csv.reader([line for _, line in content], delimiter=delimiter,
                            skipinitialspace=True, strict=True)
        rows = []
        try:
            for cells in reader:
                if reader.line_num != len(rows) + 1:  # a quoted cell ran over a line break
                    no, line = content[len(rows)]
                    raise DataError("malformed CSV: a quoted cell is not closed on its line",
                                    source=source, line=no, column=line.find('"') + 1)
                rows.append((content[len(rows)][0], cells))
        except csv.Error as exc:
            # The row being read started on the line after the last complete row.
            raise DataError(f"malformed CSV: {exc}", source=source,
                            line=content[min(len(rows), len(content) - 1)][0]) from None
    header: list[str] | None = None
    first_no, first_cells = rows[0]
    if _is_header(first_cells):
        header = [c.strip() for c in first_cells]
        rows = rows[1:]
        if not rows:
            raise DataError("no examples: only a header row", source=source, line=first_no)
    if header is not None:
        _refuse_index_column(header, rows, source, first_no)
    width = len(header) if header is not None else len(rows[0][1])
    limits.check_cells(len(rows) * width, source)
    label = _label_index(label_column, width, header, source, first_no)
    if width < 2:
        raise DataError(f"each row needs a label and at least one feature; found {width} "
                        "column", source=source, line=rows[0][0])
    cache: dict[str, Fraction] = {}
    labels = _Labels(source)
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    for no, cells in rows:
        if len(cells) != width:
            raise DataError(f"ragged row: {len(cells)} columns, expected {width}", source=source,
                            line=no, column=min(len(cells), width) + 1)
        values = []
        for col, cell in enumerate(cells):
            v = cache.get(cell)
            if v is None:
                v = cache[cell] = _cell(cell, source, no, col + 1)
            values.append(v)
        y.append(labels.add(values.pop(label), no, label + 1))
        X.append(tuple(values))
    limits.check_scaled(X, len(text), source)
    return Dataset(tuple(X), tuple(y), Path(source).name)


_PANDAS_UNNAMED = re.compile(r"^(Unnamed: \d+)?$")


def _refuse_index_column(header: list[str], rows: list[tuple[int, list[str]]], source: str,
                         line: int) -> None:
    """Refuse a pandas index written by `DataFrame.to_csv()`: a first column with an empty
    (or `Unnamed: 0`) header whose cells are 0, 1, 2, ... in order.

    Read as a feature it would silently change the data (and the margin, and the bound), and
    there is no telling which columns the user meant: one line says what to do instead.
    """
    if len(header) < 3 or not _PANDAS_UNNAMED.match(header[0]):
        return
    if all(len(cells) > 0 and cells[0].strip() == str(i) for i, (_, cells) in enumerate(rows)):
        raise DataError("the first column is an unnamed 0, 1, 2, ... index (as pandas' to_csv "
                        "writes it), not a feature: save with to_csv(index=False), or name "
                        "the column in the header to keep it", source=source, line=line,
                        column=1)


def _is_header(cells: Sequence[str]) -> bool:
    """A header row has a non-empty cell and no cell that looks like a number: `1/0,1` is a
    data row with an error in it, not a header to drop silently."""
    return (any(c.strip() for c in cells)
            and not any(_NUMERIC_LOOKING.match(c) for c in cells))


def _label_index(label_column: int | str | None, width: int, header: list[str] | None,
                 source: str, line: int) -> int:
    if label_column is None:
        return width - 1
    if isinstance(label_column, str):
        if header is None or label_column not in header:
            raise DataError(f"no column named {label_column!r}"
                            + (" (the file has no header row)" if header is None else ""),
                            source=source, line=line)
        return header.index(label_column)
    index = label_column + width if label_column < 0 else label_column
    if not 0 <= index < width:
        raise DataError(f"label column {label_column} is outside the {width} columns",
                        source=source, line=line)
    return index


# ---- JSON ----------------------------------------------------------------------------------


class _FloatText(str):
    """A JSON number literal with a fraction or exponent, kept as its text."""


class _Constant(str):
    """A non-standard JSON constant (NaN, Infinity, -Infinity)."""


def _json_int(text: str) -> int | _FloatText:
    if len(text) > MAX_TOKEN:
        return _FloatText(text)  # reported, with its place, by _cell
    return int(text)


def load_json(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a JSON file `{"X": [[...]], "y": [...]}`."""
    source = str(path)
    return parse_json(_decode(_read_bytes(Path(path), source), source), source=source,
                      limits=limits)


def parse_json(text: str, *, source: str = "<json>", limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Parse JSON text `{"X": [[...]], "y": [...]}` exactly (see the module docstring)."""
    try:
        doc = json.loads(text, parse_float=_FloatText, parse_int=_json_int,
                         parse_constant=_Constant)
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", source=source, line=exc.lineno,
                        column=exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise DataError(f"invalid JSON: {exc}", source=source) from None

    def fail(problem: str, path: Sequence[str | int]) -> DataError:
        line, column = _json_position(text, path)
        name = "".join(f"[{p}]" if isinstance(p, int) else p for p in path)
        return DataError(f"{name}: {problem}" if name else problem, source=source, line=line,
                         column=column)

    if not isinstance(doc, dict):
        raise fail("the document must be an object with keys \"X\" and \"y\"", [])
    for key in ("X", "y"):
        if key not in doc:
            raise fail(f"missing key {key!r}", [])
        if not isinstance(doc[key], list):
            raise fail("must be a list", [key])
    X_raw, y_raw = doc["X"], doc["y"]
    if not X_raw:
        raise fail("no examples", ["X"])
    if len(X_raw) != len(y_raw):
        raise fail(f"{len(y_raw)} labels for {len(X_raw)} examples", ["y"])
    first = X_raw[0]
    limits.check_cells(len(X_raw) * ((len(first) if isinstance(first, list) else 1) + 1), source)
    width: int | None = None
    cache: dict[object, Fraction] = {}
    labels = _Labels(source)

    def number(value: object, path: list[str | int]) -> Fraction:
        key = (type(value), value)
        hit = cache.get(key)
        if hit is not None:
            return hit
        if isinstance(value, _Constant):
            raise fail(f"{value} is not a finite number (NaN and infinities are refused)", path)
        if isinstance(value, bool) or value is None or isinstance(value, list | dict):
            raise fail(f"not a number: {json.dumps(value)[:40]}", path)
        try:
            result = parse_exact(value) if isinstance(value, str) else exact(value)
        except DataError as exc:
            raise fail(exc.problem, path) from None
        cache[key] = result
        return result

    X: list[tuple[Fraction, ...]] = []
    for i, row in enumerate(X_raw):
        if not isinstance(row, list):
            raise fail("each example must be a list of numbers", ["X", i])
        if width is None:
            width = len(row)
            if width == 0:
                raise fail("an example needs at least one feature", ["X", i])
        elif len(row) != width:
            raise fail(f"ragged row: {len(row)} values, expected {width}", ["X", i])
        X.append(tuple(number(v, ["X", i, j]) for j, v in enumerate(row)))
    y: list[int] = []
    for i, v in enumerate(y_raw):
        try:
            y.append(labels.add(number(v, ["y", i]), None, None))
        except DataError as exc:
            if exc.line is not None:
                raise
            raise fail(exc.problem, ["y", i]) from None
    limits.check_scaled(X, len(text), source)
    return Dataset(tuple(X), tuple(y), Path(source).name)


def _json_position(text: str, path: Sequence[str | int]) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the value at `path` in JSON text; (None, None) if the
    walk fails. Only used to report errors, so it re-reads the text."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"[ \t\n\r]*")

    def skip(pos: int) -> int:
        return ws.match(text, pos).end()  # type: ignore[union-attr]

    try:
        pos = skip(0)
        for key in path:
            if isinstance(key, str):
                if text[pos] != "{":
                    return None, None
                pos, found = skip(pos + 1), None
                while text[pos] != "}":
                    name, pos = json.decoder.scanstring(text, pos + 1)
                    pos = skip(skip(pos) + 1)
                    if name == key:
                        found = pos
                    _, pos = decoder.raw_decode(text, pos)
                    pos = skip(pos)
                    if text[pos] == ",":
                        pos = skip(pos + 1)
                if found is None:
                    return None, None
                pos = found
            else:
                if text[pos] != "[":
                    return None, None
                pos = skip(pos + 1)
                for _ in range(key):
                    _, pos = decoder.raw_decode(text, pos)
                    pos = skip(skip(pos) + 1)
    except (ValueError, IndexError, RecursionError):
        return None, None
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


# ---- numpy ---------------------------------------------------------------------------------


def from_arrays(X: object, y: object, *, name: str = "arrays") -> Dataset:
    """A dataset from array-likes: `X` 2-D (n, d), `y` 1-D labels. Float entries are taken
    as their exact binary values; NaN and infinities are refused (row and column named as
    line and column)."""
    Xa = np.asarray(X)
    ya = np.asarray(y)
    if Xa.ndim != 2:
        raise DataError(f"X must be 2-dimensional, not of shape {Xa.shape}", source=name)
    if Xa.shape[0] == 0:
        raise DataError("no examples", source=name)
    if Xa.shape[1] == 0:
        raise DataError("examples need at least one feature", source=name)
    if ya.ndim != 1 or ya.shape[0] != Xa.shape[0]:
        raise DataError(f"y must have one label per example: shape {ya.shape} for "
                        f"{Xa.shape[0]} examples", source=name)
    rows = _exact_matrix(Xa, name)
    try:
        labels = [row[0] for row in _exact_matrix(ya.reshape(-1, 1), name)]
    except DataError as exc:
        raise DataError(f"label: {exc.problem}", source=name, line=exc.line) from None
    return Dataset(tuple(rows), tuple(_labels(labels, name)), name)


def _labels(values: Sequence[Fraction], source: str, column: int | None = None) -> list[int]:
    labels = _Labels(source)
    return [labels.add(v, i + 1, column) for i, v in enumerate(values)]


def _exact_matrix(a: np.ndarray, source: str) -> list[tuple[Fraction, ...]]:
    """Rows of exact Fractions from a 2-D array (row i, column j reported as line i+1,
    column j+1)."""
    kind = a.dtype.kind
    if kind == "b":
        raise DataError("boolean arrays are not numbers", source=source)
    if kind == "c":
        raise DataError("complex arrays are not real numbers", source=source)
    if kind == "f":
        bad = ~np.isfinite(a)
        if bad.any():
            i, j = (int(v) for v in np.argwhere(bad)[0])
            raise DataError(f"{a[i, j]} is not a finite number (NaN and infinities are "
                            "refused)", source=source, line=i + 1, column=j + 1)
    elif kind not in "iuOUS":
        raise DataError(f"arrays of dtype {a.dtype} are not numbers", source=source)
    cache: dict[tuple[type, object], Fraction] = {}
    out = []
    for i, row in enumerate(a.tolist()):
        values = []
        for j, v in enumerate(row):
            key = (type(v), v)
            f = cache.get(key)
            if f is None:
                f = cache[key] = _array_cell(v, source, i, j)
            values.append(f)
        out.append(tuple(values))
    return out


def _array_cell(v: object, source: str, i: int, j: int) -> Fraction:
    if isinstance(v, str):
        return _cell(v, source, i + 1, j + 1)
    try:
        return exact(v)
    except DataError as exc:
        raise DataError(exc.problem, source=source, line=i + 1, column=j + 1) from None


def _load_numpy(raw: bytes, source: str, kind: str, label_column: int | str | None,
                limits: Limits) -> Dataset:
    name = Path(source).name
    if kind == "npz":
        X, y = _npz_arrays(raw, source, limits)
        data = from_arrays(X, y, name=source)
        limits.check_scaled(data.X, len(raw), source)
        return Dataset(data.X, data.y, name)
    a = _npy_array(io.BytesIO(raw), source, limits, "")
    if a.ndim != 2 or a.shape[1] < 2 or a.shape[0] == 0:
        raise DataError(f"a .npy file must hold a 2-D array of examples with a label column and "
                        f"at least one feature, not shape {a.shape}", source=source)
    if isinstance(label_column, str):
        raise DataError("a .npy array has no column names", source=source)
    label = _label_index(label_column, a.shape[1], None, source, 1)
    rows = _exact_matrix(a, source)
    y = _labels([row[label] for row in rows], source, label + 1)
    X = tuple(row[:label] + row[label + 1:] for row in rows)
    limits.check_scaled(X, len(raw), source)
    return Dataset(X, tuple(y), name)


#: What numpy's header parser (tokenize, then ast.literal_eval) may raise on a mangled header.
_HEADER_ERRORS: tuple[type[BaseException], ...] = (
    ValueError, OSError, EOFError, SyntaxError, TypeError, KeyError, AttributeError,
    RecursionError, MemoryError, tokenize.TokenError, zipfile.BadZipFile, zlib.error,
    lzma.LZMAError)

#: Longest string cell of a numpy array of strings, in bytes (a number is at most MAX_TOKEN
#: characters of 4 bytes).
_MAX_ITEMSIZE = 4 * MAX_TOKEN


def _npy_array(stream: io.BufferedIOBase | io.BytesIO | zipfile.ZipExtFile, source: str,
               limits: Limits, member: str) -> np.ndarray:
    """One array from `.npy` bytes, its shape and dtype read (and capped) from the header
    before any data is read: a few kilobytes of compressed zeros may declare 10**8 cells."""
    what = f"array {member!r}: " if member else ""
    fmt = np.lib.format
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy warns on Python 2 headers: one line only
            version = fmt.read_magic(stream)
            if version == (1, 0):
                shape, fortran, dtype = fmt.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, fortran, dtype = fmt.read_array_header_2_0(stream)
            else:
                raise ValueError(f"unsupported .npy format version {version}")
    except _HEADER_ERRORS as exc:
        raise DataError(f"{what}not a readable numpy file: {_short(exc)}", source=source) from None
    if not all(isinstance(n, int) and n >= 0 for n in shape):
        raise DataError(f"{what}not a readable numpy file: shape {shape!r}", source=source)
    if dtype.hasobject:
        raise DataError(f"{what}numpy object arrays are refused (loading them would unpickle code)",
                        source=source)
    if dtype.kind == "V" or dtype.fields is not None or dtype.subdtype is not None:
        raise DataError(f"{what}arrays of dtype {dtype} are not numbers", source=source)
    if dtype.itemsize > _MAX_ITEMSIZE:
        raise DataError(f"{what}cells of {dtype.itemsize} bytes are too long for numbers",
                        source=source)
    limits.check_cells(prod(shape), source)
    count = prod(shape)
    data = stream.read(count * dtype.itemsize)
    if len(data) != count * dtype.itemsize:
        raise DataError(f"{what}truncated: the header declares shape {shape} of {dtype} "
                        f"({count * dtype.itemsize} bytes), the file holds {len(data)}",
                        source=source)
    array = np.frombuffer(data, dtype=dtype, count=count)
    order = "F" if fortran else "C"
    return array.reshape(shape[::-1]).transpose() if order == "F" else array.reshape(shape)


def _npz_arrays(raw: bytes, source: str, limits: Limits) -> tuple[np.ndarray, np.ndarray]:
    """Arrays `X` and `y` of a `.npz` archive, each header checked before decompressing."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise DataError(f"not a readable .npz file: {_short(exc)}", source=source) from None
    with archive:
        names = [n.removesuffix(".npy") for n in archive.namelist()]
        if "X" not in names or "y" not in names:
            shown = ", ".join(sorted(names)[:10]) or "none"
            raise DataError(f"a .npz file needs arrays 'X' and 'y'; it has {shown}",
                            source=source)
        arrays = []
        for key in ("X", "y"):
            member = key + ".npy" if key + ".npy" in archive.namelist() else key
            try:
                with archive.open(member) as stream:
                    arrays.append(_npy_array(stream, source, limits, key))
            except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError,
                    RuntimeError, zlib.error, lzma.LZMAError) as exc:
                if isinstance(exc, DataError):
                    raise
                raise DataError(f"array {key!r}: not readable: {_short(exc)}",
                                source=source) from None
    X, y = arrays
    limits.check_cells(int(X.size) + int(y.size), source)
    return X, y


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


# ---- .dat (the Coq perceptron benchmark) ---------------------------------------------------


def load_dat(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a `.dat` file of the Coq perceptron benchmark (see the module docstring)."""
    source = str(path)
    return parse_dat(_decode(_read_bytes(Path(path), source), source), source=source,
                     limits=limits)


def parse_dat(text: str, *, source: str = "<dat>", limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Parse `.dat` text: count, features, then label and features per vector, one per line."""
    if not text.strip():
        raise DataError("no examples: the file is empty", source=source)
    lines = text.rstrip().split("\n")
    header: list[tuple[int, str]] = []
    for no, raw in enumerate(lines, 1):
        if raw.strip():
            header.append((no, raw.strip()))
            if len(header) == 2:
                break
    if len(header) < 2:
        raise DataError("a .dat file starts with the number of vectors and the number of "
                        "features, one per line", source=source, line=len(lines))
    n = _dat_count(*header[0], "number of vectors", source)
    d = _dat_count(*header[1], "number of features", source)
    if n == 0:
        raise DataError("no examples: the file declares 0 vectors", source=source,
                        line=header[0][0])
    if d == 0:
        raise DataError("the file declares 0 features", source=source, line=header[1][0])
    # One number per line. Real files repeat few distinct lines: parse each distinct line once,
    # in order of first appearance (so the first bad one is the file's first bad line), then
    # map every line through the table (a C-level loop). Linear in the input.
    start = header[1][0] + 1
    body = lines[start - 1:]
    limits.check_cells(len(body), source)
    table: dict[str, object] = {}
    blank = False
    for raw in dict.fromkeys(body):
        stripped = raw.strip()
        if not stripped:
            table[raw] = _BLANK
            blank = True
            continue
        try:
            table[raw] = _cell(stripped, source, None, None)
        except DataError as exc:
            column = len(raw) - len(raw.lstrip()) + 1
            raise DataError(exc.problem, source=source, line=body.index(raw) + start,
                            column=column) from None
    line_of: list[int] | None = None
    codes: np.ndarray | None = None
    if blank:
        values: list[object] = list(map(table.__getitem__, body))
        line_of = [start + k for k, v in enumerate(values) if v is not _BLANK]
        values = [v for v in values if v is not _BLANK]
    else:  # each line's number in `table` (kept for the integer form), values gathered by it
        slot = dict(zip(table, range(len(table)), strict=True))
        codes = np.fromiter(map(slot.__getitem__, body), dtype=np.int64, count=len(body))
        distinct = np.empty(len(table), dtype=object)
        distinct[:] = list(table.values())
        values = distinct[codes].tolist()

    def line(k: int) -> int:
        return line_of[k] if line_of is not None else start + k

    expected = n * (d + 1)
    if len(values) < expected:
        have = len(values)
        raise DataError(
            f"declares {_count(n)} vectors of {_count(d)} features ({_count(expected)} numbers "
            f"with the labels) but "
            f"holds {have}: vector {have // (d + 1) + 1} is incomplete", source=source,
            line=len(lines))
    if len(values) > expected:
        raise DataError(f"extra value after the {_count(n)} declared vectors", source=source,
                        line=line(expected))
    labels = _Labels(source)
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    for k in range(0, expected, d + 1):
        y.append(labels.add(values[k], line(k), 1))  # type: ignore[arg-type]
        X.append(tuple(values[k + 1: k + 1 + d]))  # type: ignore[arg-type]
    if codes is None:  # blank lines: lines and cells differ, so count cells the general way
        limits.check_scaled(X, len(text), source)
        return Dataset(tuple(X), tuple(y), Path(source).name)
    # Each cell is the parsed value of its line: count and convert the distinct lines once
    # (by their codes), not each of the n*d cells (`remember_integer_form`).
    parsed = list(table.values())
    cells = codes.reshape(n, d + 1)[:, 1:]
    flat = cells.reshape(-1)
    first = np.full(len(parsed), len(flat), dtype=np.int64)
    np.minimum.at(first, flat, np.arange(len(flat), dtype=np.int64))
    counts = np.bincount(flat, minlength=len(parsed)).tolist()
    order = [k for k in np.argsort(first, kind="stable").tolist() if counts[k]]
    limits.check_counted([(parsed[k], counts[k]) for k in order],  # type: ignore[misc]
                         len(text), source)
    data = Dataset(tuple(X), tuple(y), Path(source).name)
    from perceptron.fast import remember_integer_form

    remember_integer_form(data, parsed, cells)  # type: ignore[arg-type]
    return data


def _dat_count(line: int, text: str, what: str, source: str) -> int:
    if not _COUNT.fullmatch(text) or len(text) > MAX_TOKEN:
        raise DataError(f"the {what} must be a non-negative integer, not {text[:40]!r}",
                        source=source, line=line, column=1)
    return int(text)
