"""LIBSVM / svmlight files, read exactly: `label index:value index:value ... # comment`.

The sparse text format of LIBSVM, SVMlight and scikit-learn's `load_svmlight_file`, the form
most public classification benchmarks are distributed in. One example per line:

- the **label** first: -1/+1 or 0/1 (0 meaning -1), with the rules of every other format
  (`perceptron.io.loaders`: a file's label set is fixed by its first label that is not +1);
- then `index:value` pairs, **indices 1-based** (LIBSVM's convention) and strictly increasing
  on a line; a feature that is not listed is 0;
- values are exact: `0.1` is 1/10, `1e-3` is 1/1000, `p/q` is accepted too; NaN and
  infinities are refused with their line and column;
- `qid:N` (the query id of ranking data) is ignored, as `load_svmlight_file` does by default;
  `#` starts a comment; blank lines are skipped.

The number of features is the largest index in the file. The dataset is dense, so a file
whose dense form would exceed `Limits.max_cells` numbers (`--max-cells`) is refused before
anything is allocated, and one whose integer form is too large (`--max-scaled-bits`) after,
as in every other format (`perceptron.io.common.Limits`).

`perceptron.io.loaders.load` reads these files by extension (`.svm`, `.svmlight`, `.libsvm`)
or when the first lines look like this format (`looks_like_svmlight`): LIBSVM benchmark
files often have no extension at all (`a1a`, `heart_scale`).
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from pathlib import Path

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.common import DEFAULT_LIMITS, Limits, _cell, _decode, _Labels, _read_bytes

#: Extensions read as svmlight without sniffing.
EXTENSIONS = (".svm", ".svmlight", ".libsvm")

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_LINE = re.compile(rf"^\s*{_NUMBER}(?:\s+(?:qid|\d+):\S+)*\s*(?:#.*)?$", re.ASCII)
_PAIR = re.compile(r"\s+(?:qid|\d+):", re.ASCII)


def looks_like_svmlight(head: str) -> bool:
    """Whether the first (up to five) content lines of `head` are svmlight lines, at least
    one with an `index:value` pair (so a one-column file of numbers is not svmlight)."""
    lines = head.splitlines()
    if len(head) >= 4096 and lines:
        lines = lines[:-1]  # the last line of a truncated head may be cut short
    content = [line for line in lines if line.strip() and not line.lstrip().startswith("#")][:5]
    return (bool(content) and all(_LINE.match(line) for line in content)
            and any(_PAIR.search(line.split("#", 1)[0]) for line in content))


def load_svmlight(path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a LIBSVM / svmlight file (see the module docstring)."""
    source = str(path)
    return parse_svmlight(_decode(_read_bytes(Path(path), source, limits), source), source=source,
                          limits=limits)


def parse_svmlight(text: str, *, source: str = "<svmlight>",
                   limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Parse svmlight text exactly (see the module docstring); errors name line and column."""
    labels = _Labels(source)
    y: list[int] = []
    sparse: list[list[tuple[int, Fraction]]] = []
    width = 0
    cache: dict[str, Fraction] = {}
    for no, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0]
        tokens = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", body)]
        if not tokens:
            continue
        column, label_text = tokens[0]
        if ":" in label_text:
            raise DataError(f"a line starts with its label, not with {label_text[:40]!r}",
                            source=source, line=no, column=column)
        y.append(labels.add(_cell(label_text, source, no, column), no, column))
        pairs: list[tuple[int, Fraction]] = []
        last = 0
        for column, token in tokens[1:]:
            name, colon, value = token.partition(":")
            if not colon or not value:
                raise DataError(f"expected index:value, not {token[:40]!r}", source=source,
                                line=no, column=column)
            if name == "qid":
                continue
            if not (name.isascii() and name.isdigit()) or len(name) > 12:
                raise DataError(f"feature index {name[:40]!r} is not a positive integer",
                                source=source, line=no, column=column)
            index = int(name)
            if index == 0:
                raise DataError("feature index 0: LIBSVM indices start at 1", source=source,
                                line=no, column=column)
            if index <= last:
                raise DataError(f"feature index {index} after {last}: indices must increase "
                                "along a line", source=source, line=no, column=column)
            last = index
            number = cache.get(value)
            if number is None:
                number = cache[value] = _cell(value, source, no, column + len(name) + 1)
            if number:
                pairs.append((index, number))
        width = max(width, last)
        sparse.append(pairs)
    if not sparse:
        raise DataError("no examples: the file has no data lines", source=source)
    if width == 0:
        raise DataError("no features: no line has an index:value pair", source=source)
    limits.check_cells(len(sparse) * width, source)  # the dense form, before it is built
    zero = Fraction(0)
    X = []
    for pairs in sparse:
        row = [zero] * width
        for index, number in pairs:
            row[index - 1] = number
        X.append(tuple(row))
    limits.check_scaled(X, len(text), source)
    return Dataset(tuple(X), tuple(y), Path(source).name)
