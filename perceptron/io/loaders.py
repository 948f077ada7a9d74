"""Loading labelled data exactly: CSV, JSON, numpy arrays and the Coq benchmark's `.dat` format.

`load` picks a format by extension, else by sniffing the contents; each format is its own
module of `perceptron.io` (`csv`, `json`, `npy`, `dat`, `svmlight`), on the shared rules of
`common` (limits, cells, labels). The rules, for every format:

Every number becomes an exact `Fraction` (`perceptron.numbers`): decimals are exact (`0.1` is
1/10), a binary float (numpy arrays) is its exact binary value, NaN and infinities are refused.
Every problem with a file is a `DataError` naming the file, and the line and column where one
applies (for JSON: the line and column of the offending value; for arrays: row and column).

**Labels** (all formats): either {-1, +1} or {0, 1}, 0 meaning -1. A file's label set is fixed
by its first label that is not +1; a label from the other set later is an error. Any number
equal to -1, 0 or 1 is a label (`1.0` is 1); anything else is an error.

**CSV** (`.csv`, `.tsv`, or text that is neither JSON nor `.dat`): one example per line, the
label in the LAST column unless `label_column` says otherwise (an index, negative from the end,
or a header name, which must name one column only). The delimiter is `,` for `.csv`, a tab
for `.tsv`, else the first of `,`, `;`, tab found in the first row, else runs of whitespace.
Double quotes around a cell are allowed. Blank lines and lines starting with `#` are skipped.
**Header rule:** the first row
is a header exactly when at least one of its cells is non-empty and none looks like a number
(an optional sign, then a digit, `.` and a digit, or `nan`/`inf`): `1/0,1` is a data row
with an error, never a header dropped silently. Every later row must be all numbers.

**JSON** (`.json`, or text starting with `{`): `{"X": [[...], ...], "y": [...]}`; numbers as
JSON numbers (parsed from their decimal text, never through a binary float) or as strings such
as `"1/3"`, `"-2 % 7"`, `"0.25"`; an object that names a key twice is refused (which value
was meant cannot be told).

**numpy** (`.npy`: a 2-D array, label column last unless `label_column`; `.npz`: arrays `X`
and `y`), and `from_arrays(X, y)` for arrays in memory. Pickled object arrays are refused.

**`.dat`** (the benchmark of the Coq-verified perceptron, `.dat` or sniffed: the first two
lines are single integers): the number of vectors, the number of features, then per vector its
0/1 label and its features, one number per line, written `p % q`, `p/q`, a decimal or an
integer. The benchmark prepends a constant 1 as a bias feature: that is the run's `bias`
option (`Conventions(bias=True)`, bias last), not the loader's job.

**Hostile files** (`Limits`): only a regular file is read (a device, a named pipe, a socket or
a directory is refused before anything is read; standard input is `-`), and at most
`Limits.bytes` of it (`BYTES_PER_CELL` per number `max_cells` allows, unless `max_bytes`
says otherwise), whatever its size; a number is at most `numbers.MAX_TOKEN` characters; declared
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

import os
import sys
from pathlib import Path

from perceptron.dataset import Dataset
from perceptron.errors import DataError, printable
from perceptron.io.common import (
    _COUNT,
    DEFAULT_LIMITS,
    MAX_CELLS,
    MIN_SCALED_BITS,
    SCALED_BITS_PER_BYTE,
    Limits,
    _decode,
    _is_number,
    _read_bytes,
    read_stream,
)
from perceptron.io.csv import load_csv, parse_csv
from perceptron.io.dat import load_dat, parse_dat
from perceptron.io.json import load_json, parse_json
from perceptron.io.npy import _load_numpy, from_arrays
from perceptron.io.svmlight import looks_like_svmlight, parse_svmlight

__all__ = [
    "DEFAULT_LIMITS",
    "FORMATS",
    "MAX_CELLS",
    "MIN_SCALED_BITS",
    "SCALED_BITS_PER_BYTE",
    "Limits",
    "from_arrays",
    "load",
    "load_csv",
    "load_dat",
    "load_json",
    "parse_csv",
    "parse_dat",
    "parse_json",
]

#: File types `load` knows, by extension; anything else is sniffed from the contents.
FORMATS = {".csv": "csv", ".tsv": "csv", ".json": "json", ".npy": "npy", ".npz": "npz",
           ".dat": "dat"}
# LIBSVM / svmlight files: read by perceptron.io.svmlight (on the rules of perceptron.io.common).
FORMATS.update(dict.fromkeys((".svm", ".svmlight", ".libsvm"), "svmlight"))


#: Extensions of plain text whose format is sniffed (CSV unless the contents say otherwise).
SNIFFED = ("", ".txt", ".text", ".data")
#: The formats `load` reads, as a user's error line names them.
READABLE = ("CSV (.csv, .txt), TSV (.tsv), JSON (.json), numpy (.npy, .npz), "
            "LIBSVM (.svm, .svmlight, .libsvm), .dat")


def load(path: str | os.PathLike[str], *, label_column: int | str | None = None,
         limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a dataset, choosing the format by extension, else by sniffing the contents.

    The path `-` reads standard input.

    Sniffing (deterministic): numpy's magic bytes -> `.npy`; a zip archive -> `.npz`; text
    whose first non-blank character is `{` -> JSON; text whose first two non-blank lines are
    single non-negative integers and whose third is a single number -> `.dat`; lines of
    `label index:value ...` -> LIBSVM/svmlight (`perceptron.io.svmlight`); else CSV.
    """
    p = Path(path)
    source = str(path)
    if source == "-":  # standard input (the command line's `-`): the format is sniffed
        p, source = Path(), "<stdin>"
        raw = read_stream(sys.stdin.buffer, source, limits)
    else:
        raw = _read_bytes(p, source, limits)
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
        if label_column is not None:
            raise DataError("label_column does not apply to svmlight files (the label comes "
                            "first on each line)", source=source)
        return parse_svmlight(text, source=source, limits=limits)
    delimiter = "\t" if p.suffix.lower() == ".tsv" else "," if p.suffix.lower() == ".csv" else None
    try:
        return parse_csv(text, source=source, label_column=label_column, delimiter=delimiter,
                         limits=limits)
    except DataError as error:
        suffix = p.suffix.lower()
        if suffix in FORMATS or suffix in SNIFFED:
            raise
        raise DataError(f"the {printable(p.suffix)} format is not read; readable: {READABLE} "
                        f"(as CSV text this file fails: {error.problem})", source=source,
                        line=error.line, column=error.column) from None


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
    return "svmlight" if looks_like_svmlight(head) else "csv"
