"""CSV files, read exactly (the rules are in `perceptron.io.loaders`)."""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.common import (
    _NUMERIC_LOOKING,
    DEFAULT_LIMITS,
    Limits,
    _cell,
    _decode,
    _label_index,
    _Labels,
    _read_bytes,
)


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

