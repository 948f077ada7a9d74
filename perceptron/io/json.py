"""JSON files `{"X": [[...]], "y": [...]}`, numbers read from their decimal text, never through
a binary float (the rules are in `perceptron.io.loaders`)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.common import DEFAULT_LIMITS, Limits, _decode, _Labels, _read_bytes
from perceptron.numbers import MAX_TOKEN, exact, parse_exact


class _FloatText(str):
    """A JSON number literal with a fraction or exponent, kept as its text."""


class _Constant(str):
    """A non-standard JSON constant (NaN, Infinity, -Infinity)."""


class _DuplicateKey(ValueError):
    """An object that names a key twice: Python's `json` would keep the last value silently,
    so `{"y": [1], "y": [-1]}` would be read as whichever the writer put second."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object, refused when it names a key twice (`_DuplicateKey`)."""
    doc: dict[str, object] = {}
    for key, value in pairs:
        if key in doc:
            raise _DuplicateKey(key)
        doc[key] = value
    return doc


def _json_int(text: str) -> int | _FloatText:
    if len(text) > MAX_TOKEN:
        return _FloatText(text)  # reported, with its place, by _cell
    return int(text)


def load_json(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Load a JSON file `{"X": [[...]], "y": [...]}`."""
    source = str(path)
    return parse_json(_decode(_read_bytes(Path(path), source, limits), source), source=source,
                      limits=limits)


def parse_json(text: str, *, source: str = "<json>", limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """Parse JSON text `{"X": [[...]], "y": [...]}` exactly (see the module docstring)."""
    try:
        doc = json.loads(text, parse_float=_FloatText, parse_int=_json_int,
                         parse_constant=_Constant, object_pairs_hook=_object)
    except _DuplicateKey as exc:
        raise DataError(f"invalid JSON: the key {exc.key!r} appears twice in one object "
                        "(which value is meant cannot be told)", source=source) from None
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
    for key, what in (("X", "examples"), ("y", "labels")):
        if len(twins := sorted(k for k in doc if k.lower() == key.lower())) > 1:
            # red team 16: `Y` beside `y` was ignored, silently
            raise fail(f"holds both {' and '.join(map(repr, twins))}: which are the {what} is "
                       f"ambiguous; keep one, named {key!r}", [])
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
