"""A `.dat` load hands the engine the integer form it built from its distinct lines
(`perceptron.fast.remember_integer_form`): it must be the form `integer_form` builds from the
Fractions themselves, and the size check from counts must be the one from the cells."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron.algorithms import fast
from perceptron.dataset import scaled_size
from perceptron.io.dat import parse_dat

CELLS = st.sampled_from(["1", "0", "-1", "1 % 3", "-2 % 6", "7/4", "0.25", "-9", "5 % 250",
                         "123456789123456789123 % 7", " 1"])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.data())
def test_remembered_form_is_the_computed_form(n: int, d: int, data: st.DataObject) -> None:
    lines = [str(n), str(d)]
    for _ in range(n):
        lines.append(data.draw(st.sampled_from(["0", "1"])))
        lines.extend(data.draw(CELLS) for _ in range(d))
    loaded = parse_dat("\n".join(lines) + "\n")
    remembered = fast.integer_form(loaded)
    fast._FORMS.clear()
    computed = fast.integer_form(loaded)
    assert remembered is not computed
    assert (remembered.scale, remembered.max_abs, remembered.rows.dtype) == (
        computed.scale, computed.max_abs, computed.rows.dtype)
    assert np.array_equal(remembered.rows, computed.rows)
    assert np.array_equal(remembered.y, computed.y)


def test_counted_size_is_the_cells_size() -> None:
    text = "3\n2\n1\n1 % 3\n1\n0\n5 % 7\n1 % 3\n1\n-2\n2 % 9\n"
    data = parse_dat(text)
    from perceptron.dataset import counted_size

    cells = [v for x in data.X for v in x]
    distinct = list(dict.fromkeys(cells))
    counted = [(v, cells.count(v)) for v in distinct]
    for limit in (None, 1, 10, 40):
        assert counted_size(counted, limit) == scaled_size(data.X, limit)
