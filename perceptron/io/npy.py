"""numpy arrays (`.npy`, `.npz`, and arrays in memory), each float its exact binary value;
pickled object arrays are refused (the rules are in `perceptron.io.loaders`)."""

from __future__ import annotations

import io
import lzma
import re
import tokenize
import warnings
import zipfile
import zlib
from fractions import Fraction
from math import prod
from pathlib import Path

import numpy as np

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.common import Limits, _cell, _count, _label_index, _labels
from perceptron.numbers import MAX_TOKEN, exact


def from_arrays(X: object, y: object, *, name: str = "arrays") -> Dataset:
    """A dataset from array-likes: `X` 2-D (n, d), `y` 1-D labels. Float entries are taken
    as their exact binary values; NaN and infinities are refused (row and column named as
    line and column); so are masked entries of a numpy masked array (missing values)."""
    _refuse_masked(X, name, "")
    _refuse_masked(y, name, "label: ")
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


def _refuse_masked(a: object, source: str, what: str) -> None:
    """Refuse a masked array with a masked entry: `np.asarray` drops the mask and keeps the
    value under it, so a value its owner marked missing was read as data, the run made on
    other data than the caller's (red team 35 F3)."""
    if not np.ma.isMaskedArray(a):
        return
    mask = np.ma.getmaskarray(a)
    if not mask.any():
        return
    at = [int(v) + 1 for v in np.argwhere(mask)[0]] if mask.ndim <= 2 else []
    line, column = [*at, None, None][:2]
    raise DataError(f"{what}a masked (missing) value is no number", source=source,
                    line=line, column=column)


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
            try:
                f = cache.get(key)
            except TypeError:  # an unhashable cell (a list in an object array): no number
                # (red team 35: it was "unhashable type: 'list'", from the cache)
                f = _array_cell(v, source, i, j)
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
    try:
        y = _labels([row[label] for row in rows], source, label + 1)
    except DataError as error:  # nc35 K10: X.npy saved apart from y.npy read its last
        # feature as labels, and the message did not say where a .npy keeps them
        where = "its last column" if label_column is None else f"column {label + 1}"
        raise DataError(f"{error.problem} (a .npy file is one array, examples and labels, "
                        f"the labels in {where}; examples and labels saved apart go in one "
                        "`.npz`: numpy.savez(FILE, X=X, y=y))", source=error.source,
                        line=error.line, column=error.column) from None
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
        raise DataError(f"{what}not a readable numpy file: {_header_fault(exc)}",
                        source=source) from None
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
    if dtype.itemsize == 0:  # '<U0', '|S0': numpy cannot even build such an array from bytes
        raise DataError(f"{what}cells of dtype {dtype} hold 0 bytes, no number",
                        source=source)
    if len(shape) > 2:  # no loader reads more axes; past numpy's 64 a reshape raised
        raise DataError(f"{what}an array of {len(shape)} axes is no table of examples (at most "
                        f"2: rows and columns)", source=source)
    limits.check_cells(prod(shape), source)
    if any(n > limits.max_cells for n in shape):  # with a 0 beside it, no cell is counted:
        # shape (10**23, 0) passed check_cells, then numpy's reshape raised (red team 35 F1)
        raise DataError(f"{what}the header declares shape {_shape(shape)}: an axis longer than "
                        f"the limit of {limits.max_cells} numbers (raise it with --max-cells, "
                        "or Limits(max_cells=...))", source=source)
    count = prod(shape)
    data = stream.read(count * dtype.itemsize)
    if len(data) != count * dtype.itemsize:
        raise DataError(f"{what}truncated: the header declares shape {shape} of {dtype} "
                        f"({count * dtype.itemsize} bytes), the file holds {len(data)}",
                        source=source)
    if stream.read(1):  # rows past the declared shape would be dropped without a word
        raise DataError(f"{what}the header declares shape {shape} of {dtype} "
                        f"({count * dtype.itemsize} bytes), the file holds more",
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
        for key, what in (("X", "examples"), ("y", "labels")):
            twins = sorted(n for n in archive.namelist()
                           if n.removesuffix(".npy").lower() == key.lower())
            if len(twins) > 1:  # red team 16: `y` beside `Y` was read, `Y` ignored, silently
                raise DataError(f"holds both {' and '.join(map(repr, twins))}: which are the "
                                f"{what} is ambiguous; keep one, named {key!r}", source=source)
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


def _shape(shape: tuple[int, ...]) -> str:
    """A declared shape for a message, each axis as a count (`about 10^22` past 40 digits)."""
    return "(" + ", ".join(map(_count, shape)) + ("," if len(shape) == 1 else "") + ")"


#: numpy's message for a `.npy` header past its cap (`max_header_size`, read by `_max_header`):
#: a table of numbers has a header of a hundred bytes or so.
_HEADER_SIZE = re.compile(r"Header info length \((\d+)\) is large")


def _header_fault(exc: BaseException) -> str:
    """What is wrong with a `.npy` header, from numpy's exception: its own words, but for an
    overlong header, where numpy advises its `max_header_size` and `allow_pickle=True`,
    options no novikoff command or loader takes (red team 35 F2: the advice was printed,
    cut at 200 characters mid-sentence)."""
    long = _HEADER_SIZE.search(str(exc))
    if long:
        return (f"its header is {long.group(1)} bytes long, longer than numpy reads safely "
                f"({_max_header()} bytes); the header of a table of numbers is a hundred "
                "bytes or so")
    return _short(exc)


def _max_header() -> int:
    """numpy's default `max_header_size` (10000 from numpy 1.24 on)."""
    return int(getattr(np.lib.format, "_MAX_HEADER_SIZE", 10000))


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__
