"""CSV files, read exactly (the rules are in `perceptron.io.loaders`)."""

from __future__ import annotations

import csv
import os
import re
from collections import Counter
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
    text = _decode(_read_bytes(Path(path), source, limits), source)
    return parse_csv(text, source=source, label_column=label_column, delimiter=delimiter,
                     limits=limits)


#: Header names that say a column holds the labels (`_with_label_hint`).
LABEL_NAMES = ("y", "label", "labels", "target", "class")


def _with_label_hint(error: DataError, header: list[str] | None, label: int,
                     label_column: int | str | None) -> DataError:
    """`error`, a bad label read from the default (last) column, told of a header column
    named as labels are (newcomer 26: `y,a,b` read `b` as the label, 'label 2 is not one of
    -1/+1 or 0/1', with no word of the column `y`); any other error as it is."""
    if label_column is not None or header is None or not error.problem.startswith("label "):
        return error
    named = [n for i, n in enumerate(header) if i != label and n.lower() in LABEL_NAMES]
    if not named:
        return error
    return DataError(f"{error.problem} (the labels are read from the last column, "
                     f"{header[label][:40]!r}; the header names a column {named[0]!r}: "
                     f"--label-column {named[0]})", source=error.source, line=error.line,
                     column=error.column)


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
                        f"column{_delimiter_hint(dict(content)[rows[0][0]], delimiter)}",
                        source=source,
                        line=rows[0][0])
    counts: Counter[str] = Counter()
    for no, cells in rows:
        if len(cells) != width:
            raise DataError(f"ragged row: {len(cells)} columns, expected {width}", source=source,
                            line=no, column=min(len(cells), width) + 1)
        counts.update(cells)
        counts[cells[label]] -= 1  # a label is no cell of X
    cache = _distinct(counts, rows, source)
    labels = _Labels(source)
    X: list[tuple[Fraction, ...]] = []
    y: list[int] = []
    try:
        for no, cells in rows:  # one comprehension per row: a wide file is a few long rows
            values = [cache[cell] for cell in cells]
            y.append(labels.add(values.pop(label), no, label + 1))
            X.append(tuple(values))
    except DataError as error:
        raise _with_label_hint(error, header, label, label_column) from None
    limits.check_counted([(cache[cell], count) for cell, count in counts.items() if count],
                         len(text), source)
    data = Dataset(tuple(X), tuple(y), Path(source).name)
    _remember(data, cache, rows, label)
    return data


def _delimiter_hint(line: str, delimiter: str | None) -> str:
    """Why a one-column file may be one: its first example's `line` holds `;` or a tab while
    the cells are split at another delimiter (a `.csv` file's is `,`, a `.tsv` file's a tab;
    newcomer 19's `;`-separated `.csv` file was said to have 1 column, no more)."""
    found = [name for c, name in ((";", "';'"), ("\t", "a tab"))
             if c in line and c != delimiter]
    if not found:
        return ""
    split = {",": "','", "\t": "a tab", ";": "';'"}.get(delimiter or "", "whitespace")
    return (f" (its line holds {' and '.join(found)}, but its cells are split at {split}: "
            "a .csv file's delimiter is ',', a .tsv file's a tab; write that delimiter, or "
            "name the file .txt to have ',', ';' or a tab found in its first row)")


def _remember(data: Dataset, cache: dict[str, Fraction], rows: list[tuple[int, list[str]]],
              label: int) -> None:
    """Hand the run its integer form from the distinct cells (`remember_integer_form`): their
    codes come from a C-level map over each row, not a pass over every cell's Fraction."""
    import numpy as np

    from perceptron.algorithms.fast import remember_integer_form

    slot = {cell: k for k, cell in enumerate(cache)}
    codes = np.empty((len(rows), len(rows[0][1])), dtype=np.int64)
    for i, (_no, cells) in enumerate(rows):
        codes[i] = np.fromiter(map(slot.__getitem__, cells), dtype=np.int64, count=len(cells))
    remember_integer_form(data, list(cache.values()), np.delete(codes, label, axis=1))


def _distinct(counts: Counter[str], rows: list[tuple[int, list[str]]], source: str
              ) -> dict[str, Fraction]:
    """Each distinct cell text parsed once (a file of 10^6 cells has a few hundred distinct
    ones), so that the work per cell is a dictionary lookup in a comprehension. A text that
    is no number is looked for again, in order, so that the error names its first place."""
    try:
        return {cell: _cell(cell, source, None, None) for cell in counts}
    except DataError:
        for no, cells in rows:
            for col, cell in enumerate(cells):
                _cell(cell, source, no, col + 1)
        raise


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

