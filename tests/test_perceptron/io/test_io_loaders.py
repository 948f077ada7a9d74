"""Loaders: exact numbers, label sets, header rule, sniffing, and located errors."""

from __future__ import annotations

import io
import json
import re
import time
import zipfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.loaders import from_arrays, load, parse_csv, parse_dat, parse_json
from perceptron.numbers import MAX_TOKEN

F = Fraction


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def error(call, *args, **kwargs) -> DataError:  # type: ignore[no-untyped-def]
    with pytest.raises(DataError) as info:
        call(*args, **kwargs)
    return info.value


# ---- CSV ---------------------------------------------------------------------------------------


def test_csv_label_last_decimals_exact(tmp_path: Path) -> None:
    data = load(write(tmp_path, "d.csv", "0.1,1/3,1\n-2,3e-2,-1\n"))
    assert data.X == ((F(1, 10), F(1, 3)), (F(-2), F(3, 100)))
    assert data.y == (1, -1) and data.name == "d.csv"


def test_csv_header_rule_and_label_column(tmp_path: Path) -> None:
    text = "# a comment\nlabel, a, b\n\n0, 1, 2\n1, \"3\", 4\n"
    data = load(write(tmp_path, "h.csv", text), label_column="label")
    assert data.X == ((F(1), F(2)), (F(3), F(4))) and data.y == (-1, 1)
    by_index = load(write(tmp_path, "i.csv", text), label_column=0)
    assert (by_index.X, by_index.y) == (data.X, data.y)
    first = parse_csv("1,2,3\n-1,5,6\n", label_column=-3)
    assert first.y == (1, -1) and first.X == ((F(2), F(3)), (F(5), F(6)))
    assert error(parse_csv, "a,b\n1,2\n", label_column="c").problem.startswith("no column")
    assert "outside" in error(parse_csv, "1,2\n", label_column=5).problem


def test_csv_delimiters(tmp_path: Path) -> None:
    assert parse_csv("1 2 1\n3 4 -1\n").X == ((F(1), F(2)), (F(3), F(4)))
    assert parse_csv("1;2;1\n3;4;0\n").y == (1, -1)
    assert load(write(tmp_path, "t.tsv", "1\t2\t1\n")).X == ((F(1), F(2)),)


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("1,2,1\n3,4\n", 2, 3, "ragged"),
    ("1,2,1\n3,4,1,5\n", 2, 4, "ragged"),
    ("1,2,1\n3,x,1\n", 2, 2, "not a number"),
    ("1,2,1\n3,nan,1\n", 2, 2, "finite"),
    ("1,2,1\n3,-inf,1\n", 2, 2, "finite"),
    ("1,2,1\n3,4,2\n", 2, 3, "label 2"),
    ("1,2,-1\n3,4,0\n", 2, 3, "label 0"),
    ("1,2,0\n3,4,1/2\n", 2, 3, "label 1/2"),
    ("1,,1\n", 1, 2, "empty cell"),
    # trial item 16: a number beyond exact reach was "not a number"
    ("1,2,1\n1e999999999,1,1\n", 2, 1, "exponent out of range in '1e999999999'"),
    ("1,2,1\n1,-2.5E-999999999,1\n", 2, 2, "exponent out of range"),
])
def test_csv_errors_name_file_line_column(tmp_path: Path, text: str, line: int, column: int,
                                          words: str) -> None:
    path = write(tmp_path, "bad.csv", text)
    exc = error(load, path)
    assert (exc.source, exc.line, exc.column) == (str(path), line, column)
    assert words in exc.problem
    assert str(exc).startswith(f"{path}:{line}:{column}: ")


@pytest.mark.parametrize("label_column", [None, 0])
def test_csv_hands_the_run_the_integer_form_it_would_build(label_column: int | None) -> None:
    """The CSV loader remembers the integer form from its distinct cells (issue 30.3: a
    10^6-column file); it must be the form built from the dataset's own cells."""
    from perceptron.algorithms import fast
    from perceptron.dataset import Dataset

    text = "1/2,-3,0.25,1\n-1/2,7,0.25,-1\n2,-3,1e3,1\n"
    if label_column == 0:
        text = "\n".join(",".join([r.split(",")[-1], *r.split(",")[:-1]])
                         for r in text.splitlines())
    data = parse_csv(text, label_column=label_column)
    remembered = fast.integer_form(data)
    rebuilt = fast.integer_form(Dataset(data.X, data.y, data.name))  # a new object: built
    assert remembered.scale == rebuilt.scale and remembered.max_abs == rebuilt.max_abs
    assert np.array_equal(remembered.rows, rebuilt.rows)
    assert np.array_equal(remembered.y, rebuilt.y)


def test_csv_empty_header_only_and_single_column(tmp_path: Path) -> None:
    assert "no examples" in error(load, write(tmp_path, "e.csv", "")).problem
    assert "no examples" in error(load, write(tmp_path, "e2.csv", "\n\n# x\n")).problem
    assert "only a header" in error(load, write(tmp_path, "h.csv", "a,b\n")).problem
    assert "at least one feature" in error(parse_csv, "1\n-1\n").problem


def test_token_length_is_bounded() -> None:
    long = "1" * (MAX_TOKEN + 1)
    exc = error(parse_csv, f"1,1\n{long},1\n")
    assert exc.line == 2 and "too long" in exc.problem
    assert parse_csv(f"{'1' * MAX_TOKEN},1\n").X[0][0] == int("1" * MAX_TOKEN)


# ---- JSON --------------------------------------------------------------------------------------


def test_json_numbers_exact(tmp_path: Path) -> None:
    text = json.dumps({"X": [[0.1, "1/3"], [2, "-2 % 7"]], "y": [1, 0]})
    data = load(write(tmp_path, "d.json", text))
    assert data.X == ((F(1, 10), F(1, 3)), (F(2), F(-2, 7))) and data.y == (1, -1)
    assert parse_json('{"X": [[1e-3, 2.50]], "y": [-1]}').X == ((F(1, 1000), F(5, 2)),)


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ('{"X": [[1, 2],\n  [NaN, 1]], "y": [1, 1]}', 2, 4, "finite"),
    ('{"X": [[1, 2],\n  [1]], "y": [1, 1]}', 2, 3, "ragged"),
    ('{"X": [[1, "x"]], "y": [1]}', 1, 12, "not a number"),
    ('{"X": [[1, true]], "y": [1]}', 1, 12, "not a number"),
    ('{"X": [[1, 2]],\n "y": [3]}', 2, 8, "label 3"),
    ('{"X": [[1, 2]], "y": [1, 1]}', 1, 22, "2 labels for 1 examples"),
    ('{"X": [[1, 2]], "y": [1]', 1, 25, "invalid JSON"),
    ('{"X": [], "y": []}', 1, 7, "no examples"),
    ('[1, 2]', 1, 1, "object"),
])
def test_json_errors_are_located(text: str, line: int, column: int, words: str) -> None:
    exc = error(parse_json, text, source="f.json")
    assert words in exc.problem, exc
    assert (exc.line, exc.column) == (line, column), exc


def test_json_missing_key_and_huge_integer() -> None:
    assert "missing key 'y'" in error(parse_json, '{"X": [[1]]}').problem
    exc = error(parse_json, '{"X": [[' + "9" * (MAX_TOKEN + 1) + ']], "y": [1]}')
    assert "too long" in exc.problem and exc.line == 1


@pytest.mark.parametrize("text", [
    '{"X": [[1, 1]], "y": [1], "y": [-1]}',
    '{"X": [[1, 1]], "X": [[2, 2]], "y": [1]}',
    '{"X": [[1, 1]], "y": [1], "note": {"a": 1, "a": 2}}',
])
def test_json_a_key_named_twice_is_refused(text: str) -> None:
    """Red team 16: `{"y": [1], "y": [-1]}` was read with the last value, silently (Python's
    `json`); which one the writer meant cannot be told, so the file is refused in one line."""
    exc = error(parse_json, text, source="f.json")
    assert "appears twice" in exc.problem, exc


# ---- numpy ---------------------------------------------------------------------------------------


def test_arrays_floats_are_their_binary_values() -> None:
    data = from_arrays(np.array([[0.1, 2.0], [-1.5, 3.0]]), np.array([1.0, 0.0]))
    assert data.X[0][0] == F(0.1) != F(1, 10)
    assert data.y == (1, -1)
    ints = from_arrays([[1, 2]], [-1])
    assert ints.X == ((F(1), F(2)),)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_arrays_refuse_nonfinite(bad: float) -> None:
    exc = error(from_arrays, np.array([[1.0, 2.0], [3.0, bad]]), np.array([1, -1]))
    assert (exc.line, exc.column) == (2, 2) and "finite" in exc.problem


def test_arrays_shapes_and_dtypes() -> None:
    assert "2-dimensional" in error(from_arrays, np.zeros(3), np.ones(3)).problem
    assert "one label per example" in error(from_arrays, np.zeros((2, 2)), np.ones(3)).problem
    assert "boolean" in error(from_arrays, np.zeros((2, 2), dtype=bool), [1, 1]).problem
    assert "label 2" in error(from_arrays, np.zeros((2, 2)), [1, 2]).problem


def test_npy_and_npz_files(tmp_path: Path) -> None:
    path = tmp_path / "d.npy"
    np.save(path, np.array([[1.0, 0.5, -1.0], [0.0, -1.0, 1.0]]))
    data = load(path)
    assert data.X == ((F(1), F(1, 2)), (F(0), F(-1))) and data.y == (-1, 1)
    first = load(path, label_column=0)
    assert first.X == ((F(1, 2), F(-1)), (F(-1), F(1))) and first.y == (1, -1)
    z = tmp_path / "d.npz"
    np.savez(z, X=np.array([[1, 2], [3, 4]]), y=np.array([0, 1]))
    assert load(z).y == (-1, 1)
    other = tmp_path / "o.npz"
    np.savez(other, A=np.zeros(2))
    assert "'X' and 'y'" in error(load, other).problem
    nan = tmp_path / "nan.npy"
    np.save(nan, np.array([[1.0, np.nan, 1.0]]))
    exc = error(load, nan)
    assert (exc.source, exc.line, exc.column) == (str(nan), 1, 2)
    pickled = tmp_path / "p.npy"
    np.save(pickled, np.array([[F(1), 1]], dtype=object), allow_pickle=True)
    assert "numpy" in error(load, pickled).problem


def test_npy_bytes_past_the_declared_shape_are_refused(tmp_path: Path) -> None:
    """Red team 16: a header declaring fewer rows than the file holds was read as those rows,
    the rest dropped without a word; a file shorter than its header says was refused already."""
    full = tmp_path / "full.npy"
    np.save(full, np.array([[1, 1], [2, -1], [3, 1]], dtype=np.int64))
    raw = full.read_bytes()
    lying = tmp_path / "lying.npy"
    lying.write_bytes(raw.replace(b"(3, 2)", b"(2, 2)", 1))
    assert "the file holds more" in error(load, lying).problem
    short = tmp_path / "short.npy"
    short.write_bytes(raw[:-8])
    assert "truncated" in error(load, short).problem
    archive = tmp_path / "lying.npz"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("X.npy", raw.replace(b"(3, 2)", b"(2, 2)", 1))
        buffer = io.BytesIO()
        np.save(buffer, np.array([1, -1]))
        z.writestr("y.npy", buffer.getvalue())
    assert "the file holds more" in error(load, archive).problem


@pytest.mark.parametrize(("members", "twins"), [
    ({"X.npy": [[1, 0], [0, 1]], "y.npy": [1, -1], "Y.npy": [-1, 1]}, "'Y.npy' and 'y.npy'"),
    ({"X.npy": [[1, 0], [0, 1]], "x.npy": [[0, 1], [1, 0]], "y.npy": [1, -1]},
     "'X.npy' and 'x.npy'"),
    ({"X.npy": [[1, 0], [0, 1]], "y.npy": [1, -1], "y": [-1, 1]}, "'y' and 'y.npy'"),
])
def test_npz_with_two_arrays_for_the_labels_or_examples_is_refused(
        tmp_path: Path, members: dict[str, list[object]], twins: str) -> None:
    """Red team 16: an `.npz` holding `y` and `Y` was read with `y`, `Y` ignored without a
    word (likewise `x` beside `X`, and a member `y` beside `y.npy`, of which `y.npy` was
    read); which the writer meant cannot be told, so the file is refused in one line.
    Other arrays (`meta`) are still ignored: they name nothing the loader reads."""
    archive = tmp_path / "two.npz"
    with zipfile.ZipFile(archive, "w") as z:
        for name, value in members.items():
            buffer = io.BytesIO()
            np.save(buffer, np.array(value))
            z.writestr(name, buffer.getvalue())  # the member's name as written
    exc = error(load, archive)
    assert f"holds both {twins}: which are the" in exc.problem, exc
    assert "ambiguous; keep one, named" in exc.problem
    fine = tmp_path / "fine.npz"
    np.savez(fine, X=np.array([[1, 0], [0, 1]]), y=np.array([1, -1]), meta=np.array([0]))
    assert load(fine).y == (1, -1)


@pytest.mark.parametrize("text", [
    '{"X": [[1, 1]], "y": [1], "Y": [-1]}',
    '{"X": [[1, 1]], "x": [[2, 2]], "y": [1]}',
])
def test_json_with_two_keys_for_the_labels_or_examples_is_refused(text: str) -> None:
    """Red team 16's `.npz` case in JSON: `Y` beside `y` was ignored, silently."""
    exc = error(parse_json, text, source="f.json")
    assert "holds both" in exc.problem and "ambiguous; keep one, named" in exc.problem, exc


# ---- .dat ----------------------------------------------------------------------------------------

DESCRIPTION_EXAMPLE = "3\n4\n1\n0\n-1/3\n14\n-3%7\n1\n1.3\n0\n1\n0\n0\n1\n2\n3/2\n4\n"


def test_dat_format_of_the_benchmark(tmp_path: Path) -> None:
    data = load(write(tmp_path, "x.dat", DESCRIPTION_EXAMPLE))
    assert data.X == ((F(0), F(-1, 3), F(14), F(-3, 7)), (F(13, 10), F(0), F(1), F(0)),
                      (F(1), F(2), F(3, 2), F(4)))
    assert data.y == (1, 1, -1)
    spaced = DESCRIPTION_EXAMPLE.replace("-3%7", "  -3 % 7 ").replace("\n1.3\n", "\n\n1.3\n")
    assert parse_dat(spaced) == parse_dat(DESCRIPTION_EXAMPLE)


@pytest.mark.parametrize(("text", "line", "words"), [
    ("3\n4\n1\n0\n", 4, "incomplete"),
    (DESCRIPTION_EXAMPLE + "5\n", 18, "extra value"),
    (DESCRIPTION_EXAMPLE.replace("14\n", "x14\n"), 6, "not a number"),
    (DESCRIPTION_EXAMPLE.replace("-3%7", "3/0"), 7, "zero denominator"),
    (DESCRIPTION_EXAMPLE.replace("\n0\n0\n1\n2", "\n0\n2\n1\n2"), 13, "label 2"),
    ("3.5\n4\n", 1, "integer"),
    ("0\n4\n", 1, "no examples"),
    ("2\n0\n1\n1\n", 2, "0 features"),
    ("7\n", 1, "starts with"),
    ("3\n4\n1\nnan\n", 4, "finite"),
    # red team 21 F5: CR-only lines were one line, "starts with the number of vectors"
    ("2\r2\r1\r1\r0\r0\r0\r1\r", 1, "CR-only line endings (old Mac); convert to LF"),
])
def test_dat_errors_are_located(text: str, line: int, words: str) -> None:
    exc = error(parse_dat, text, source="x.dat")
    assert words in exc.problem and exc.line == line, exc


def test_dat_huge_declared_counts_fail_fast() -> None:
    start = time.perf_counter()
    exc = error(parse_dat, f"{10**30}\n{10**30}\n1\n0.5\n")
    assert "incomplete" in exc.problem
    assert time.perf_counter() - start < 1


# ---- load: sniffing and files --------------------------------------------------------------------


def test_sniffing_without_extension(tmp_path: Path) -> None:
    assert load(write(tmp_path, "a", DESCRIPTION_EXAMPLE)).n == 3
    assert load(write(tmp_path, "b", '{"X": [[1]], "y": [1]}')).n == 1
    assert load(write(tmp_path, "c", "1,2,1\n")).n == 1
    np.save(tmp_path / "d.npy", np.ones((2, 3)))
    (tmp_path / "d.npy").rename(tmp_path / "d")
    assert load(tmp_path / "d").n == 2


def test_file_problems(tmp_path: Path) -> None:
    missing = tmp_path / "nope.csv"
    exc = error(load, missing)
    assert exc.source == str(missing) and "no such file" in exc.problem
    assert "directory" in error(load, tmp_path).problem
    exc = error(load, write(tmp_path, "l.csv", b"1,2,1\n1,\xff,1\n"))
    assert "UTF-8" in exc.problem and exc.line == 2
    assert "does not apply" in error(load, write(tmp_path, "j.json", "{}"),
                                     label_column=0).problem


def test_a_header_line_quoted_in_an_error_shows_control_characters_escaped(
        tmp_path: Path) -> None:
    """Red team 28 F7: `# u = 1, 1\\x1b[2K...` was quoted raw in `its line ...: not a
    number`, so a data file (a stranger's proof may name one) wrote terminal escapes into
    the audit's error line; it is quoted as `_shown` quotes a line that looks like a header."""
    from perceptron.io.header import header

    path = write(tmp_path, "e.csv", "# u = 1, 1\x1b[2K\x1b[8m\n1,2,1\n2,1,-1\n")
    with pytest.raises(DataError) as caught:
        header(str(path), load(str(path)))
    message = str(caught.value)
    assert "\x1b" not in message and "\\x1b[2K" in message


@pytest.mark.parametrize(("labels", "said"), [
    ([1.5, -1], "label 1.5 of example 0 is not -1 or +1"),
    ([1, 0.5], "label 0.5 of example 1 is not -1 or +1"),
    ([True, -1], "label True of example 0: boolean True is not a number"),
])
def test_dataset_of_reads_labels_exactly(labels: list[object], said: str) -> None:
    """Red team 33 F8: `Dataset.of` (the API's way in, check_run's `(X, y)` pairs) read
    labels with `int()`, so 1.5 was the label 1, 0.5 "label 0", True the label 1; and a
    Dataset given float labels kept them, making its run's arithmetic float. Labels are
    read exactly: -1 or +1 as any exact number (1.0, "+1", numpy's ints), stored as ints."""
    with pytest.raises(DataError, match=re.escape(said)):
        Dataset.of([[1, 0], [0, 1]], labels)
    data = Dataset.of([[1, 0], [0, 1]], [1.0, np.int8(-1)])
    assert data.y == (1, -1) and {type(v) for v in data.y} == {int}
    assert Dataset(data.X, (1.0, -1.0)).y == (1, -1)  # type: ignore[arg-type]


@pytest.mark.parametrize("column", [True, False, np.bool_(True), 1.0, [0]])
def test_a_label_column_that_is_no_index_nor_name_is_a_type_error(tmp_path: Path,
                                                                  column: object) -> None:
    """Red team 35 F6: `load(path, label_column=True)` read column 1 as the labels and
    `False` column 0, silently, as `int` subclasses; `1.0` was "list indices must be integers
    or slices, not float" and `[0]` "'<' not supported between instances of 'list' and
    'int'". A numpy integer is an index."""
    csv = write(tmp_path, "d.csv", "1,2,1\n-1,-2,-1\n")
    np.save(tmp_path / "d.npy", np.array([[1, 2, 1], [-1, -2, -1]]))
    for path in (csv, tmp_path / "d.npy"):
        with pytest.raises(TypeError, match=r"^label_column is a column index \(an int\) or a "
                                            r"header name \(a str\), not "):
            load(path, label_column=column)  # type: ignore[arg-type]
        assert load(path, label_column=np.int64(-1)).y == (1, -1)
