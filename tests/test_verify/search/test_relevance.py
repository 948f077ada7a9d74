"""A step's search depends only on the step (issue 28, item 4): names it never uses, and
hypotheses about only those names, change neither its verdict nor the work it is charged."""

from __future__ import annotations

import sympy
from cases.padding import padded
from cases.steps import CASES, Case, hints_of, judgement_of
from hypothesis import given
from hypothesis import strategies as st

from verify.kernel import Fact, Judgement
from verify.prover import decide
from verify.relevance import parts
from verify.search.polynomials import Context

PROVED = [c for c in CASES if c.expected == "proved"]


def _padded(case: Case, count: int, first: bool) -> Judgement:
    """The case's judgement in a bigger file (`cases.padding`)."""
    return padded(judgement_of(case), count, first)


@given(st.sampled_from(PROVED), st.integers(0, 5), st.booleans())
def test_unused_names_and_hypotheses_keep_a_proved_verdict(case: Case, count: int,
                                                            first: bool) -> None:
    verdict = decide(_padded(case, count, first), hints=hints_of(case))
    assert verdict.status == "proved", (case.id, verdict.message)


def test_declared_but_unused_names_leave_the_ring_alone() -> None:
    case = next(c for c in CASES if c.id == "cancel-positive-factor")
    alone, padded = judgement_of(case), _padded(case, 0, False)
    assert Context(alone).symbols == Context(padded).symbols


def test_the_part_searched_keeps_only_hypotheses_linked_to_the_claim() -> None:
    case = next(c for c in CASES if c.id == "cancel-positive-factor")
    (part,) = parts(_padded(case, 3, True))
    assert part.kept == (3, 4)  # the case's own two hypotheses, after three unrelated ones
    assert part.judgement.scalars == ("a", "b", "c")  # declared order, unused ones left out


def test_a_claim_without_names_is_searched_per_part() -> None:
    x, z = sympy.symbols("x zz0")
    absurd = Judgement((Fact(x, ">"), Fact(-x, ">"), Fact(z - 1, ">=")),
                       Fact(sympy.Integer(0), ">"), (), ("x", "zz0"))
    assert [p.kept for p in parts(absurd)] == [(0, 1), (2,)]
    verdict = decide(absurd)
    assert verdict.status == "proved"
    assert {i for p in verdict.certificate.products for i in p.hyps} <= {0, 1}


def test_a_counterexample_gives_every_declared_name_a_value() -> None:
    x = sympy.Symbol("x")
    verdict = decide(Judgement((), Fact(x - 1, ">="), ("v",), ("x", "n")))
    assert verdict.status == "refuted"
    assert set(verdict.counterexample.scalars) == {"x", "n"}
    assert set(verdict.counterexample.vectors) == {"v"}
