"""The dimension-1 screen in plain Python (`_screen_in_python`, issue 30's start-up) is NumPy's
screen float for float: every fact's value at every point bit for bit (overflows, `inf`,
`nan` and signed zeros included), hence the same candidates in the same order and the same
counterexample or none, on the shared step table and on random facts."""

from __future__ import annotations

import math
import struct

import pytest
from cases import judgement
from cases.steps import CASES, judgement_of
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.language.expressions import Names
from verify.kernel import Judgement
from verify.search.counterexamples import (
    PYTHON_POINTS,
    SMALL_GRID,
    CounterexampleSearch,
    _quick_batches,
)
from verify.search.polynomials import Context


def _bits(value: float) -> bytes:
    """The float's bytes: `nan` equals `nan`, `-0.0` differs from `0.0`."""
    return struct.pack("<d", value)


def _agree(j: Judgement) -> None:
    """Both screens of `j`'s quick points, at every size the budget may cut them to."""
    import numpy as np

    search = CounterexampleSearch(Context(j))
    n = len(search.scalars) + len(search.vectors)
    assert len(SMALL_GRID) ** n <= PYTHON_POINTS
    if n == 0:
        return  # no names: `search` evaluates its one point exactly, no screen
    num, den, x = _quick_batches(n)[0]
    total = num.shape[1]
    # the values, as `_screen` makes its generators and `_Poly.floats` its sums
    arrays = {}
    for i, name in search.gens.items():
        if isinstance(name, str):
            arrays[i] = x[search.scalars.index(name)]
        else:
            a, b = (x[len(search.scalars) + search.vectors.index(v)] for v in name)
            arrays[i] = sum((a * b,), np.zeros(total))
    values = [fact.floats(arrays, total) for fact in search.facts]
    for p in range(total):
        gens = [0.0] * (max(search.gens, default=-1) + 1)
        for i in search.gens:
            gens[i] = float(arrays[i][p])
        for fact, floats in zip(search.facts, values, strict=True):
            assert _bits(fact.float_at(gens)) == _bits(float(floats[p]))
    for size in sorted({1, total // 2 or 1, total}):
        expected = search._screen(num[:, :size], den[:, :size], x[:, :size], 1)
        memo = search._screen(num[:, :size], den[:, :size], x[:, :size], 1, (x, size))
        assert search._screen_in_python(n, size) == expected == memo


SMALL = [case for case in CASES if len(SMALL_GRID) ** (len(case.scalars) + len(case.vectors))
         <= PYTHON_POINTS]


def test_the_table_has_small_steps_of_each_verdict() -> None:
    assert {case.expected for case in SMALL} == {"proved", "refuted", "not-proved"}


@pytest.mark.parametrize("case", SMALL, ids=[case.id for case in SMALL])
def test_the_python_screen_is_numpys_on_the_step_table(case: object) -> None:
    _agree(judgement_of(case))  # type: ignore[arg-type]


COEFFICIENTS = st.sampled_from(["1", "-1", "2", "3", "1/3", "-7/10", "1e300", "-1e300", "1e400",
                                "1e-320", "1e-400", "1/10**9", "0"])
EXPONENTS = st.sampled_from([0, 1, 2, 3, 4, 7, 16])
NAMES = Names(vectors=frozenset({"u", "v"}), scalars=frozenset({"a", "b"}))
ATOMS = ("a", "b", "dot(u, v)", "dot(u, u)")


@st.composite
def polynomials(draw: st.DrawFn, atoms: tuple[str, ...]) -> str:
    terms = []
    for _ in range(draw(st.integers(1, 4))):
        factors, total = [f"({draw(COEFFICIENTS)})"], 0
        for atom in atoms:
            e = draw(EXPONENTS)
            if e and total + e * (1 + atom.startswith("dot")) <= 32:  # the language's bound
                factors.append(f"({atom})**{e}")
                total += e * (1 + atom.startswith("dot"))
        terms.append("*".join(factors))
    return " + ".join(terms)


@st.composite
def judgements(draw: st.DrawFn) -> Judgement:
    """Facts over `a`, `b` and `u`, `v` in dimension 1 (at most `PYTHON_POINTS`, four
    coordinates), of every kind."""
    used = draw(st.sampled_from([("a",), ("a", "b"), ("a", "dot(u, u)"), ("b", "dot(u, v)"),
                                 ("a", "b", "dot(u, v)")]))
    relations = st.sampled_from([">=", ">", "==", "<=", "<"])
    given_ = [f"{draw(polynomials(used))} {draw(relations)} {draw(polynomials(used))}"
              for _ in range(draw(st.integers(0, 2)))]
    claim = f"{draw(polynomials(used))} {draw(relations)} 0"
    vectors = tuple(v for v in ("u", "v") if any(v in atom for atom in used))
    scalars = tuple(s for s in ("a", "b") if s in used)
    return judgement(given_, claim, NAMES, vectors, scalars)


@settings(max_examples=60, deadline=None)
@given(judgements())
def test_the_python_screen_is_numpys_on_random_facts(j: Judgement) -> None:
    """Coefficients beyond float range and below it, terms that overflow (1e300 * 4**16), thirds
    (no exact float): the same floats, bit for bit, and the same counterexample."""
    _agree(j)


def test_an_overflowing_power_is_numpys_infinity() -> None:
    """Python's `**` raises where NumPy's gives an infinity of the power's sign."""
    import numpy as np

    from verify.search.counterexamples import _power

    with np.errstate(all="ignore"):
        for x in (-2.0, 2.0, -4.0, 0.0, 1.0, -1.0):
            for e in (1, 2, 3, 1023, 1024, 1025):
                assert _bits(_power(x, e)) == _bits(float((np.array([x]) ** e)[0])), (x, e)
    assert _power(-2.0, 1025) == -math.inf and _power(-2.0, 1024) == math.inf
