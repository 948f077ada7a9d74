"""The counterexample search at the claim's critical points (`critical_search`).

Red team 23 F1: `(a - 100)**2 >= 1`, `(n - 7)**2 >= 1` (n natural) and `(a - 7)**2 + (b -
3)**2 >= 1/4` fail at a point off the screen's grid of small rationals, were `unknown`, and
their advice pointed at proving them ("a hint or a case split may help"). True claims and a
claim false only between naturals are never refuted by it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from cases import judgement
from hypothesis import given
from hypothesis import strategies as st

from proofs.language.expressions import Names
from verify.kernel import check_counterexample
from verify.prover import decide
from verify.search.counterexamples import CounterexampleSearch
from verify.search.polynomials import Context
from verify.search.work import DEFAULT_BUDGET, Work

SCALARS = ("a", "b", "n")
NAMES = Names(vectors=frozenset(), scalars=frozenset(SCALARS))

#: (hypotheses, claim, a counterexample's values or None: never refuted)
CASES = [
    ((), "(a - 100)**2 >= 1", {"a": 100}),
    (("n >= 0",), "(n - 7)**2 >= 1", {"n": 7}),
    ((), "(a - 7)**2 + (b - 3)**2 >= 1/4", {"a": 7, "b": 3}),
    ((), "(a - 1000)**2 + (b + 1000)**2 > 0", {"a": 1000, "b": -1000}),
    ((), "(4*a - 1)**2*(a - 50)**2 + a >= 1", {"a": Fraction(1, 4)}),  # the root 1/4
    ((), "(a - 100)**2 >= 0", None),  # true
    ((), "(a - 7)**2 + (b - 3)**2 + 1/4 > 0", None),
    (("a >= 200",), "(a - 100)**2 >= 1", None),  # its hypothesis keeps it away
]


@pytest.mark.parametrize(("given_", "claim", "values"), CASES)
def test_a_claim_failing_far_from_the_grid_is_refuted_there(
        given_: tuple[str, ...], claim: str, values: dict | None) -> None:
    step = judgement(given_, claim, NAMES, (), SCALARS)
    verdict = decide(step)
    if values is None:  # true: proved, and the critical points refute nothing
        search = CounterexampleSearch(Context(step, (), Work(DEFAULT_BUDGET)))
        assert search.critical_search(Work(DEFAULT_BUDGET)) is None
        assert verdict.status == "proved", verdict.message
        return
    assert verdict.status == "refuted", verdict.message
    check_counterexample(step, verdict.counterexample)
    assert {n: verdict.counterexample.scalars[n] for n in values} == values


@given(st.lists(st.tuples(st.integers(-300, 300), st.integers(1, 5)), min_size=1,
                max_size=3), st.integers(1, 50))
def test_a_sum_of_squares_plus_a_constant_is_never_refuted(
        centres: list[tuple[int, int]], constant: int) -> None:
    """A true claim: the search may propose, the exact check refuses every point."""
    names = ("a", "b", "n")[:len(centres)]
    claim = " + ".join(f"{k}*({x} - {c})**2" for (c, k), x in zip(centres, names,
                                                                     strict=False))
    step = judgement((), f"{claim} + {constant} > {constant - 1}", NAMES, (), SCALARS)
    search = CounterexampleSearch(Context(step, (), Work(DEFAULT_BUDGET)))
    assert search.critical_search(Work(DEFAULT_BUDGET)) is None


def test_vectors_and_equalities_are_left_to_the_other_searches() -> None:
    names = Names(vectors=frozenset({"w"}), scalars=frozenset(SCALARS))
    for claim in ("dot(w, w) >= 1", "(a - 100)**2 == 1"):
        step = judgement((), claim, names, ("w",), SCALARS)
        search = CounterexampleSearch(Context(step, (), Work(DEFAULT_BUDGET)))
        assert search.critical_search(Work(DEFAULT_BUDGET)) is None
