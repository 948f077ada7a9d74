"""`perceptron/io/npy.py`: numpy arrays a stranger writes (red team 35), each refused in one
`DataError` before numpy is asked to build them, never a numpy exception."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from perceptron.errors import DataError
from perceptron.io.loaders import load


def npy(header: str, data: bytes = b"", version: int = 1) -> bytes:
    """`.npy` bytes with the header dictionary `header` as written, padded as numpy pads."""
    prefix = 10 if version == 1 else 12
    text = header + " " * (64 - (len(header) + prefix + 1) % 64) + "\n"
    size = struct.pack("<H" if version == 1 else "<I", len(text))
    return b"\x93NUMPY" + bytes([version, 0]) + size + text.encode("latin1") + data


def refused(tmp_path: Path, raw: bytes, name: str = "d.npy") -> str:
    path = tmp_path / name
    path.write_bytes(raw)
    with pytest.raises(DataError) as info:
        load(path)
    return info.value.problem


@pytest.mark.parametrize(("shape", "fortran", "words"), [
    ("(99999999999999999999999, 0)", False, "an axis longer than the limit of 5000000"),
    ("(0, 99999999999999999999999)", False, "an axis longer than the limit of 5000000"),
    ("(0, 3, 99999999999999999999999)", True, "an array of 3 axes is no table of examples"),
    ("(" + "1, " * 70 + "0)", False, "an array of 71 axes is no table of examples"),
])
def test_a_zero_size_array_numpy_cannot_shape_is_one_line(tmp_path: Path, shape: str,
                                                          fortran: bool, words: str) -> None:
    """Red team 35 F1: a header declaring an array of no cell passed the cell limit (0 cells),
    then numpy's reshape raised `ValueError: Maximum allowed dimension exceeded` (an axis past
    2^63, or more than 64 axes): a traceback, exit 1, from `run`, `bound` and `audit --data`."""
    header = f"{{'descr': '<f8', 'fortran_order': {fortran}, 'shape': {shape}, }}"
    assert words in refused(tmp_path, npy(header))


@pytest.mark.parametrize("descr", ["<U0", "|S0"])
def test_cells_of_no_byte_are_one_line(tmp_path: Path, descr: str) -> None:
    """Red team 35 F1: a dtype of itemsize 0 made numpy's frombuffer raise `ValueError:
    itemsize cannot be zero in type`, in a `.npy` file (traceback) and in a `.npz` member."""
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': (2, 3), }}"
    assert refused(tmp_path, npy(header)) == f"cells of dtype {descr} hold 0 bytes, no number"
    buffer = io.BytesIO()
    np.save(buffer, np.array([1.0, -1.0]))
    with zipfile.ZipFile(tmp_path / "d.npz", "w") as archive:
        archive.writestr("X.npy", npy(header))
        archive.writestr("y.npy", buffer.getvalue())
    assert refused(tmp_path, (tmp_path / "d.npz").read_bytes(), "e.npz") == (
        f"array 'X': cells of dtype {descr} hold 0 bytes, no number")


def test_an_overlong_header_is_said_without_numpy_advice(tmp_path: Path) -> None:
    """Red team 35 F2: numpy's refusal of a header past 10000 bytes advises `max_header_size`
    and `allow_pickle=True`, options no novikoff command takes; it was printed as the reason,
    cut mid-sentence at 200 characters."""
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }" + " " * 20000
    data = np.array([[1.0, 2, 1], [-1, -2, -1]]).tobytes()
    problem = refused(tmp_path, npy(header, data, version=2))
    assert problem.startswith("not a readable numpy file: its header is 20084 bytes long, "
                              "longer than numpy reads safely (10000 bytes)")
    assert "allow_pickle" not in problem and "max_header_size" not in problem


def test_a_two_axis_array_in_the_limits_still_loads(tmp_path: Path) -> None:
    """The refusals above leave every readable table as it was: C and Fortran order."""
    table = np.array([[1.0, 2, 1], [-1, -2, -1], [3, 1, 1]])
    for order in ("C", "F"):
        path = tmp_path / f"{order}.npy"
        np.save(path, np.asarray(table, order=order))
        data = load(path)
        assert [list(map(int, x)) for x in data.X] == [[1, 2], [-1, -2], [3, 1]]
        assert data.y == (1, -1, 1)


def test_a_masked_entry_is_refused_not_read_under_its_mask() -> None:
    """Red team 35 F3: `np.asarray` drops a masked array's mask, so `from_arrays`, and every
    API taking `(X, y)` through `as_dataset` (check_run's data among them), read a value its
    owner marked missing as the number under the mask: the run was made on other data."""
    from perceptron.io.inputs import as_dataset
    from perceptron.io.loaders import from_arrays

    X = np.ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[False, False], [False, True]])
    for call in (lambda: from_arrays(X, [1, -1]), lambda: as_dataset((X, [1, -1]))):
        with pytest.raises(DataError) as info:
            call()
        assert (info.value.problem, info.value.line, info.value.column) == (
            "a masked (missing) value is no number", 2, 2)
    with pytest.raises(DataError) as label:
        from_arrays([[1, 2], [3, 4]], np.ma.masked_array([1, -1], mask=[False, True]))
    assert (label.value.problem, label.value.line) == (
        "label: a masked (missing) value is no number", 2)
    unmasked = np.ma.masked_array([[1.0, 2.0], [3.0, 4.0]])  # nothing masked: the numbers
    assert as_dataset((unmasked, [1, -1])).X == ((1, 2), (3, 4))


def test_an_unhashable_cell_of_an_object_array_is_no_number() -> None:
    """Red team 35: a list inside an object array was `TypeError: unhashable type: 'list'`
    from the loader's cache of distinct cells; it is a cell that is no number, placed."""
    from perceptron.io.loaders import from_arrays

    with pytest.raises(DataError) as info:
        from_arrays(np.array([[1, [2]]], dtype=object), [1])
    assert (info.value.problem, info.value.line, info.value.column) == (
        "list value [2] is not a number", 1, 2)
