"""`satisfying_point` (verify/search/counterexamples.py): a point of nonlinear hypotheses, with
Gram terms, families and finite sums, by greedy repair of small values, which the kernel
accepts; none for contradictory hypotheses; and what the vacuity check makes of it (issue
30: satisfiable hypotheses were searched again at every audit, with nothing to store)."""

from __future__ import annotations

import pytest
import sympy
from cases.sums import total, x, y

from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import Fact, Judgement, gram
from verify.kernel.atoms import family
from verify.proof_checker import check_proof
from verify.search.counterexamples import satisfying_point
from verify.search.work import DEFAULT_BUDGET, SearchBudget

ABSURD = Fact(sympy.Integer(-1), ">=")
far, m1, T, mus, N, kb, R2, ys, k, delta = sympy.symbols("far m1 T mus N kb R2 ys k delta")
u1, u2, g, mx, j, R, gamma, t = sympy.symbols("u1 u2 g mx j R gamma t")
wb_xs, ws_xs, xs_xs = gram("wb", "xs"), gram("ws", "xs"), gram("xs", "xs")
IX = sympy.Symbol("i")  # a sum's index, as written


def m(i: object) -> sympy.Symbol:
    return family("m", sympy.sympify(i))


def ind(i: object) -> sympy.Symbol:
    return family("ind", sympy.sympify(i))


def facts(*given: tuple[sympy.Expr, str]) -> tuple[Fact, ...]:
    return tuple(Fact(sympy.expand(e), kind) for e, kind in given)


def judgement(given: tuple[Fact, ...]) -> Judgement:
    scalars = {s.name for f in given for s in f.expr.free_symbols if s.name.isidentifier()}
    return Judgement(given, ABSURD, ("ts", "th", "u", "w", "wb", "ws", "xs"),
                     tuple(sorted(scalars)))


# chan-batch's examples counted where they are misclassified, within the radius, labelled +-1
# and with margin gamma (its `sum(j in 1..N where ...: 1)`)
FILTERS = ((-gram("th", x(IX)) * y(IX), ">="), (R**2 - gram(x(IX), x(IX)), ">="),
           (y(IX)**2 - 1, "=="), (gram("ts", x(IX)) * y(IX) - gamma, ">="))
COUNT = total(1, N, sympy.Integer(1), FILTERS, IX)
TS_SUM = total(1, N, gram("ts", x(IX)) * y(IX), FILTERS, IX)
MARKED = ((1 - gram(x(IX), x(IX)), ">="), (gram("u", x(IX)) - gamma, ">="), (ind(IX), ">"))

SATISFIABLE = {
    # cycling-inseparable's far-update, with epoch-step's extra facts: m1 in {0, 1}, a label
    # ys with ys**2 == 1, mus fixed by an equality, products of names with Gram terms, and
    # k - kb - m1 >= 0, which m1 := 1 breaks until k := 1 repairs it
    "far-update": facts(
        (far, ">="), (m1**2 - m1, "=="), (-wb_xs * m1 * ys + wb_xs * ys + m1, ">"),
        (-T * far - far * mus, ">="), (N - kb, ">="), (-3 * N * R2 + R2 + 2 * T, ">="),
        (N - 2, ">="), (R2, ">="), (-ws_xs * ys + mus, "=="), (ys**2 - 1, "=="),
        (-gram("wb", "wb") + 2 * gram("wb", "ws") - gram("ws", "ws") + R2 * kb**2 + R2 * kb,
         ">="), (R2 - xs_xs, ">="), (k - kb - m1, ">="), (N - k, ">="), (delta, ">"),
        (-mus, ">=")),
    # cycling-inseparable's nonconvergence-margin: a rational point of the unit circle
    "circle": facts((u1, ">"), (u2, ">"), (u1**2 + u2**2 - 1, "==")),
    # telgarsky's correct-max and misclassified-max: a family member times a name
    "correct-max": facts((g * y(j), ">"), (g * y(j) + mx, ">="), (mx, ">="),
                         (g * mx * y(j) + mx**2, "==")),
    "misclassified-max": facts((-g * y(j), ">"), (g * y(j) + mx, ">="), (mx, ">="),
                               (g * mx * y(j) + mx**2, "==")),
    # chan-batch's member-*: a member of families of vectors and labels, within 1..N
    "member": facts((N, ">="), (j - 1, ">="), (N - j, ">="), (y(j)**2 - 1, "=="),
                    (-gram("th", x(j)) * y(j), ">="), (gram("ts", x(j)) * y(j) - gamma, ">="),
                    (R**2 - gram(x(j), x(j)), ">=")),
    # chan-batch's appendix-ratio-*: a sum with four filters that must count a member
    "filtered-sum": facts((N, ">="), (gamma, ">"), (R, ">"), (COUNT, ">"),
                          (R**2 * COUNT, ">"), (TS_SUM - gamma * COUNT, ">=")),
    # chan-batch's appendix-induction-step: sums of a family of scalars to k and k + 1
    "family-sums": facts(
        (k, ">="), (gamma, ">"), (R, ">"),
        (R**2 * g - R**2 * mx - gamma**2 * total(1, k, m(IX), (), IX), ">"),
        (-R**2 * t + R**2 * mx - gamma**2 * m(k + 1), ">="),
        (-m(k + 1) + total(1, k + 1, m(IX), (), IX) - total(1, k, m(IX), (), IX), "==")),
    # telgarsky's norm-sum-as-written: an indicator family ind[t + 1] in {0, 1}
    "indicator": facts(
        (t, ">="), (total(1, t, sympy.Integer(1), MARKED, IX) - gram("w", "w"), ">="),
        (ind(t + 1)**2 - ind(t + 1), "=="), (ind(t + 1), ">="),
        (-gram("w", x(t + 1)) * ind(t + 1), ">="), (gram("u", x(t + 1)) - gamma, ">=")),
}


@pytest.mark.parametrize("name", sorted(SATISFIABLE))
def test_each_kind_of_hypotheses_gets_a_point_the_kernel_accepts(name: str) -> None:
    found = judgement(SATISFIABLE[name])
    point = satisfying_point(found, DEFAULT_BUDGET)
    assert point is not None
    kernel.check_counterexample(found, point)  # every hypothesis holds (and -1 >= 0 fails)


CONTRADICTORY = {
    "circle beyond 1": facts((u1 - 2, ">="), (u1**2 + u2**2 - 1, "==")),
    "two signs": facts((y(j)**2 - 1, "=="), (y(j)**2 - 4, "==")),
    "count above N": facts((N, ">="), (COUNT - N - 1, ">=")),
    "indicator": facts((ind(t)**2 - ind(t), "=="), (ind(t) - 2, ">=")),
}


@pytest.mark.parametrize("name", sorted(CONTRADICTORY))
def test_contradictory_hypotheses_get_no_point(name: str) -> None:
    assert satisfying_point(judgement(CONTRADICTORY[name]), DEFAULT_BUDGET) is None


def test_the_search_stops_at_its_point_budget() -> None:
    """Counted in points, never seconds: a budget of 5 points cannot reach the circle's
    (3/5, 4/5), which the default budget reaches."""
    tiny = SearchBudget(**{**DEFAULT_BUDGET.__dict__, "points": 5})
    assert satisfying_point(judgement(SATISFIABLE["circle"]), tiny) is None


STEPS = """
title = "a nonlinear step that can hold, and one that cannot"
scalars = ["u1", "u2"]
[[step]]
id = "circle"
given = ["u1 > 0", "u2 > 0", "u1*u1 + u2*u2 == 1"]
claim = "u1 <= 1"
[[step]]
id = "vacuous"
given = ["u1*u1 + u2*u2 == 1", "u1 >= 2"]
claim = "u1 >= 1"
"""


def test_a_satisfiable_nonlinear_step_has_a_point_and_a_contradictory_one_is_vacuous() -> None:
    report = check_proof(parse_proof(STEPS.encode(), "circle.toml"), store=None)
    assert [s.status for s in report.steps] == ["proved", "proved"]
    assert [s.vacuous for s in report.steps] == [False, True]
    assert report.steps[0].satisfied is not None and report.steps[0].vacuity is None
    assert report.steps[1].satisfied is None and report.steps[1].vacuity is not None
