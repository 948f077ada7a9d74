"""`linear_point` (verify/search/counterexamples.py): a point of linear hypotheses from one
LP, and what the vacuity check makes of it (issue 30: long chains of lemmas, fresh names)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import Fact, Judgement, gram
from verify.proof_checker import check_proof
from verify.search.counterexamples import linear_point
from verify.search.work import DEFAULT_BUDGET

x = sympy.symbols("x0:6")
y = sympy.Symbol("y")
ABSURD = Fact(sympy.Integer(-1), ">=")


def judgement(*facts: Fact) -> Judgement:
    return Judgement(facts, ABSURD, ("u", "w"), tuple(sorted(s.name for s in (*x, y))))


def test_a_chain_needing_large_values_gets_a_point_the_kernel_accepts() -> None:
    # x_k >= x_{k-1} + 1 from x_0 >= 0 (x_5 >= 5: beyond the screen's small values), with a
    # strict fact and an equality
    chain = [Fact(x[0], ">=")] + [Fact(x[k] - x[k - 1] - 1, ">=") for k in range(1, 6)]
    facts = (*chain, Fact(y - x[5] - Fraction(1, 3), ">"), Fact(2 * y - 3 * x[1] - 20, "=="))
    point = linear_point(judgement(*facts), DEFAULT_BUDGET)
    assert point is not None
    kernel.check_counterexample(judgement(*facts), point)
    assert set(point.scalars) == {s.name for s in (*x, y)} and set(point.vectors) == {"u", "w"}


def test_no_point_for_what_is_not_linear_in_scalars_or_not_satisfiable() -> None:
    assert linear_point(judgement(Fact(x[0] * x[1] - 1, ">=")), DEFAULT_BUDGET) is None
    assert linear_point(judgement(Fact(gram("u", "w") - 1, ">=")), DEFAULT_BUDGET) is None
    assert linear_point(judgement(Fact(x[0] - 1, ">="), Fact(-x[0], ">=")), DEFAULT_BUDGET) is None
    assert linear_point(judgement(Fact(x[0], ">"), Fact(-x[0], ">=")), DEFAULT_BUDGET) is None
    assert linear_point(judgement(), DEFAULT_BUDGET) is None


CHAIN = """
title = "a chain over fresh names, and a vacuous step"
scalars = ["a", "b", "c", "d"]
[[step]]
id = "s0"
given = ["a >= 0"]
claim = "a >= 0"
[[step]]
id = "s1"
given = ["b >= a + 7"]
uses = ["s0"]
claim = "b >= 7"
[[step]]
id = "s2"
given = ["c >= b + 7"]
uses = ["s0", "s1"]
claim = "c >= 14"
[[step]]
id = "vacuous"
given = ["d >= c + 1", "d <= 10"]
uses = ["s2"]
claim = "d >= 15"
"""


def test_linear_hypotheses_are_not_vacuous_and_contradictory_ones_still_are() -> None:
    """The LP's point only ever says "not vacuous": d >= c + 1 >= 15 and d <= 10 contradict,
    and the step is still proved VACUOUS by a kernel-checked certificate."""
    report = check_proof(parse_proof(CHAIN.encode(), "chain.toml"), store=None)
    assert [s.status for s in report.steps] == ["proved"] * 4
    assert [s.vacuous for s in report.steps] == [False, False, False, True]
    assert all(s.satisfied is not None for s in report.steps[:3])
    assert report.steps[3].satisfied is None and report.steps[3].vacuity is not None


LINEAR_REFUTATIONS = {  # (hypotheses, claim) false only beyond the screen's small rationals
    "a bound no value passes": ((), Fact(100000 - x[0], ">=")),  # R2 <= 100000
    "a strict bound": ((Fact(x[0] - 5000, ">="),), Fact(6000 - x[0], ">")),
    "an equality above its floor": ((Fact(x[0] - 1000, ">="),), Fact(x[0] - 1000, "==")),
    "an equality below its ceiling": ((Fact(-1000 - x[0], ">="),), Fact(x[0] + 1000, "==")),
}


def test_a_linear_claim_false_beyond_small_values_is_refuted_by_one_lp() -> None:
    """Red team 7: `R2 <= 100000` stayed unknown (the screen tries small rationals only);
    the LP finds a point where the hypotheses hold and the claim fails, which the kernel
    checks, and the prover reports it as refuted."""
    from verify.prover import decide
    from verify.search.counterexamples import linear_counterexample

    for hypotheses, claim in LINEAR_REFUTATIONS.values():
        stated = Judgement(hypotheses, claim, ("u", "w"),
                           tuple(sorted(s.name for s in (*x, y))))
        point = linear_counterexample(stated, DEFAULT_BUDGET)
        assert point is not None
        kernel.check_counterexample(stated, point)
        verdict = decide(stated)
        assert verdict.status == "refuted" and verdict.counterexample is not None
    true = Judgement((Fact(x[0] - 100000, ">="),), Fact(x[0] - 99999, ">="), (), ("x0",))
    assert linear_counterexample(true, DEFAULT_BUDGET) is None
    assert decide(true).status == "proved"
    gram_claim = Judgement((), Fact(100000 - gram("u", "w"), ">="), ("u", "w"), ())
    assert linear_counterexample(gram_claim, DEFAULT_BUDGET) is None  # not linear in scalars


def test_a_coefficient_beyond_float_range_gets_an_exact_point_and_no_exception() -> None:
    """CI at 32c940a: `t >= 1e400 |- t >= 1e399`, proved since the exact LP, then asked the
    vacuity check's LP for a point of `t >= 1e400`, and SciPy raised (`b_ub must not contain
    values inf`): a traceback from `novikoff check`. Such an LP is now solved exactly."""
    huge = sympy.Integer(10) ** 400
    point = linear_point(judgement(Fact(x[0] - huge, ">=")), DEFAULT_BUDGET)
    assert point is not None and point.scalars["x0"] >= 10**400
    point = linear_point(judgement(Fact(huge * x[0] - 1, ">")), DEFAULT_BUDGET)
    assert point is not None and point.scalars["x0"] * 10**400 > 1
    infeasible = (Fact(x[0] - huge, ">="), Fact(huge - 1 - x[0], ">="))
    assert linear_point(judgement(*infeasible), DEFAULT_BUDGET) is None


@pytest.mark.parametrize(("given", "claim", "point"), [
    ("a >= 1e20", "a <= 1e17", 10**20),
    ("a >= 1e20", "a*1e-17 < 1", 10**20),
    ("a >= 0", "a*1e30 <= 1/2", Fraction(1, 10**30)),
    ("a >= 1e20", "a + 1 > a*1.00000000000000001", 10**20),
])
def test_a_false_linear_step_with_wide_constants_is_refuted_exactly(
        given: str, claim: str, point: Fraction) -> None:
    """Red team 26 R2: HiGHS takes |b| >= 1e20 for infinite ("Model error") and cannot see
    1e30 beside 1, so these false steps stayed unknown with "a hint or a case split may help";
    an LP with a coefficient outside 2**-20 .. 2**20 is solved over QQ (phase one of the exact
    simplex, strict facts homogenised), and the kernel checks the point."""
    extra = ', "a <= 1e-30"' if given == "a >= 0" else ""
    text = (f'title = "wide"\nscalars = ["a"]\n[[step]]\nid = "s"\ngiven = ["{given}"{extra}]\n'
            f'claim = "{claim}"\n')
    report = check_proof(parse_proof(text.encode(), "wide.toml"), store=None)
    [step] = report.steps
    assert step.status == "refuted" and "one LP" in step.message, step.message
    assert step.counterexample is not None and step.counterexample.scalars["a"] == point


def test_a_point_with_a_large_denominator_is_kept_exact_not_rounded_away() -> None:
    """Red team 26, R2: `0 <= a <= 1e-6 |- 1e6*a <= 1/2` is false at a = 1e-6, which the LP
    finds; rounding it to a denominator of at most 10 000 gave a = 0, which the kernel
    rejected, and the step was left unknown with "a hint or a case split may help"."""
    from verify.prover import decide
    from verify.search.counterexamples import linear_counterexample

    million = sympy.Integer(10) ** 6
    stated = Judgement((Fact(x[0], ">="), Fact(1 / million - x[0], ">=")),
                       Fact(sympy.Rational(1, 2) - million * x[0], ">="), (), ("x0",))
    point = linear_counterexample(stated, DEFAULT_BUDGET)
    assert point is not None and point.scalars["x0"] == Fraction(1, 10**6)
    kernel.check_counterexample(stated, point)
    assert decide(stated).status == "refuted"
