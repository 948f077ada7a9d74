"""Formats a Python user brings (issue 17): LIBSVM/svmlight files read exactly, and a pandas
`to_csv` index column refused instead of silently becoming a feature.

The svmlight reader is cross-checked against scikit-learn's `load_svmlight_file`: the same
matrix, ours exact (`0.1` is 1/10) where theirs is the nearest float.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.errors import DataError
from perceptron.io.common import MAX_CELLS, Limits
from perceptron.io.loaders import load, parse_csv
from perceptron.io.svmlight import looks_like_svmlight, parse_svmlight

F = Fraction


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- svmlight ----------------------------------------------------------------------------------

SAMPLE = "+1 1:0.1 3:2.5e-1 # a comment\n-1 2:-1/3 qid:7\n\n# a comment line\n-1 3:1e2\n"


def test_svmlight_is_exact_and_one_based() -> None:
    data = parse_svmlight(SAMPLE)
    assert data.y == (1, -1, -1)
    assert data.X == ((F(1, 10), F(0), F(1, 4)), (F(0), F(-1, 3), F(0)), (F(0), F(0), F(100)))


def test_zero_one_labels_and_width_from_the_largest_index() -> None:
    data = parse_svmlight("1 5:1\n0 1:2\n")
    assert data.y == (1, -1) and data.d == 5
    assert data.X[0] == (0, 0, 0, 0, 1) and data.X[1] == (2, 0, 0, 0, 0)


@pytest.mark.parametrize("name", ["a1a", "data.svm", "data.libsvm", "data.svmlight", "x.txt"])
def test_load_finds_svmlight_by_extension_or_contents(tmp_path: Path, name: str) -> None:
    assert load(write(tmp_path, name, SAMPLE)).X == parse_svmlight(SAMPLE).X


def test_svmlight_agrees_with_scikit_learn(tmp_path: Path) -> None:
    sklearn_datasets = pytest.importorskip("sklearn.datasets")
    path = write(tmp_path, "s.svm", "1 1:0.1 4:3\n-1 2:0.7 3:-2.25\n1 4:1e-3\n")
    X, y = sklearn_datasets.load_svmlight_file(path)
    ours = load(path)
    assert [float(v) for row in ours.X for v in row] == X.toarray().ravel().tolist()
    assert list(ours.y) == y.astype(int).tolist()


@pytest.mark.parametrize(("text", "words", "where"), [
    ("1 0:1\n", "indices start at 1", ":1:3"),
    ("1 2:1 1:1\n", "indices must increase", ":1:7"),
    ("1 2:1 2:3\n", "indices must increase", ":1:7"),
    ("1 1:nan\n", "not a finite number", ":1:5"),
    ("1 1:inf\n", "not a finite number", ":1:5"),
    ("1 1:\n", "expected index:value", ":1:3"),
    ("1 a\n", "expected index:value", ":1:3"),
    ("1 x1:1\n", "not a positive integer", ":1:3"),
    ("2 1:1\n", "label 2 is not one of", ":1:1"),
    ("1 1:1\n0 1:1\n-1 1:1\n", "labels are 0/1", ":3:1"),
    ("1:1 2:2\n", "starts with its label", ":1:1"),
    ("# nothing\n\n", "no examples", ""),
])
def test_svmlight_errors_name_line_and_column(text: str, words: str, where: str) -> None:
    with pytest.raises(DataError) as caught:
        parse_svmlight(text, source="f.svm")
    message = str(caught.value)
    assert words in message and message.startswith(f"f.svm{where}:"), message


def test_svmlight_refuses_a_huge_dense_form_before_allocating() -> None:
    with pytest.raises(DataError, match="more than the limit of"):
        parse_svmlight(f"1 {MAX_CELLS + 1}:1\n")


def test_svmlight_honours_the_limits_of_every_format(tmp_path: Path) -> None:
    """Regression (issue 26.8): --max-cells and --max-scaled-bits did not reach svmlight files
    (200 dense cells loaded under --max-cells 50; 1e300 under --max-scaled-bits 100)."""
    wide = write(tmp_path, "w.svm", "".join(f"1 {k + 1}:1 20:1\n" for k in range(10)))
    assert load(wide).n == 10
    with pytest.raises(DataError, match="200 numbers, more than the limit of 50"):
        load(wide, limits=Limits(max_cells=50))
    huge = write(tmp_path, "h.svm", "1 1:1e300 2:1e-300\n-1 1:1\n")
    with pytest.raises(DataError, match="limit of 100"):
        load(huge, limits=Limits(max_scaled_bits=100))
    assert load(huge).d == 2


def test_label_column_does_not_apply(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="label comes first"):
        load(write(tmp_path, "d.svm", SAMPLE), label_column=0)


@pytest.mark.parametrize(("head", "expected"), [
    (SAMPLE, True),
    ("1 1:2\n", True),
    ("-1 qid:3 4:0.5\n", True),
    ("1 2 3\n4 5 6\n", False),  # whitespace-separated table
    ("1\n2\n", False),  # a column of numbers
    ("a,b,c\n1,2,1\n", False),
    ("1,12:30,1\n", False),
    ("1 1:2\nlabel,x\n", False),
])
def test_sniffing(head: str, expected: bool) -> None:
    assert looks_like_svmlight(head) is expected


ROWS = st.lists(
    st.tuples(st.sampled_from([-1, 1]),
              st.dictionaries(st.integers(1, 8),
                              st.fractions(min_value=-100, max_value=100, max_denominator=50)
                              .filter(bool), max_size=5)),
    min_size=1, max_size=8).filter(lambda rows: any(pairs for _, pairs in rows))


@given(ROWS)
def test_svmlight_round_trip(rows: list[tuple[int, dict[int, Fraction]]]) -> None:
    lines = [f"{label:+d} " + " ".join(f"{i}:{v}" for i, v in sorted(pairs.items()))
             for label, pairs in rows]
    data = parse_svmlight("\n".join(lines))
    width = max(i for _, pairs in rows for i in pairs)
    assert data.d == width and list(data.y) == [label for label, _ in rows]
    for x, (_, pairs) in zip(data.X, rows, strict=True):
        assert x == tuple(pairs.get(i + 1, F(0)) for i in range(width))


# -- a pandas index column ---------------------------------------------------------------------


@pytest.mark.parametrize("header", ["", "Unnamed: 0"])
def test_an_unnamed_range_index_is_refused(header: str) -> None:
    text = f"{header},a,b,label\n0,1.5,2,1\n1,-1,0.5,-1\n2,3,1,1\n"
    with pytest.raises(DataError) as caught:
        parse_csv(text, source="df.csv")
    message = str(caught.value)
    assert message.startswith("df.csv:1:1:") and "to_csv(index=False)" in message
    assert "\n" not in message


@pytest.mark.parametrize("text", [
    "id,a,label\n0,1,1\n1,2,-1\n",  # a named column is the user's
    ",a,label\n0,1,1\n2,2,-1\n",  # not 0, 1, 2, ...
    ",a,label\n1,1,1\n2,2,-1\n",  # starts at 1
    "0,1,1\n1,2,-1\n",  # no header: nothing says it is an index
])
def test_other_first_columns_are_features(text: str) -> None:
    assert parse_csv(text).d == 2


def test_a_real_pandas_file(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1.5, 2.0, -1.0], "b": [0.1, 3.0, -2.0], "y": [1, 1, -1]})
    frame.to_csv(tmp_path / "with-index.csv")
    with pytest.raises(DataError, match="index"):
        load(tmp_path / "with-index.csv")
    frame.to_csv(tmp_path / "plain.csv", index=False)
    data = load(tmp_path / "plain.csv")
    assert data.X[0] == (F(3, 2), F(1, 10)) and data.y == (1, 1, -1)
    assert np.array_equal(np.array(data.X, dtype=float), frame[["a", "b"]].to_numpy())


@pytest.mark.skipif(np.finfo(np.longdouble).nmant <= 52, reason="long double is float64 here")
def test_a_long_double_npy_is_read_exactly(tmp_path: Path) -> None:
    """Red team 33 F3: a float128 (long double) cell went through float(), so 1 + 2**-60
    was read as 1: the run was of other data than the file, though floats are documented
    as read as their exact binary values. Infinities are still refused."""
    one = np.longdouble(1) + np.longdouble(2) ** -60
    np.save(tmp_path / "ld.npy", np.array([[one, 1], [-3, -1]], dtype=np.longdouble))
    assert load(tmp_path / "ld.npy").X[0] == (Fraction(2**60 + 1, 2**60),)
    np.save(tmp_path / "inf.npy", np.array([[np.longdouble("inf"), 1]], dtype=np.longdouble))
    with pytest.raises(DataError, match="not a finite number"):
        load(tmp_path / "inf.npy")
