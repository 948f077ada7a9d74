"""The Coq perceptron benchmark's `.dat` format (the rules are in `perceptron.io.loaders`)."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import numpy as np

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.common import (
    _BLANK,
    _COUNT,
    DEFAULT_LIMITS,
    Limits,
    _cell,
    _count,
    _decode,
    _Labels,
    _read_bytes,
)
from perceptron.numbers import MAX_TOKEN


def load_dat(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a `.dat` file of the Coq perceptron benchmark (see the module docstring)."""
    source = str(path)
    return parse_dat(_decode(_read_bytes(Path(path), source, limits), source), source=source,
                     limits=limits)


def parse_dat(text: str, *, source: str = "<dat>", limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Parse `.dat` text: count, features, then label and features per vector, one per line."""
    if not text.strip():
        raise DataError("no examples: the file is empty", source=source)
    lines = text.rstrip().split("\n")
    if len(lines) == 1 and "\r" in lines[0]:  # read as one line, refused for its first number
        raise DataError("CR-only line endings (old Mac); convert to LF", source=source, line=1)
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
    from perceptron.algorithms.fast import remember_integer_form

    remember_integer_form(data, parsed, cells)  # type: ignore[arg-type]
    return data


def _dat_count(line: int, text: str, what: str, source: str) -> int:
    if not _COUNT.fullmatch(text) or len(text) > MAX_TOKEN:
        raise DataError(f"the {what} must be a non-negative integer, not {text[:40]!r}",
                        source=source, line=line, column=1)
    return int(text)
