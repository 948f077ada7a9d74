"""The proof model: case splits, induction, chaining and division, without the prover."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from proofs.division import admit, clear, denominators, divisors, required
from proofs.errors import ProofFileError
from proofs.expressions import ExpressionError, Names, Relation, parse_relation, parse_scalar
from proofs.step import CaseSplit, Chain, Direct, Induction, Proof, Step, substitute
from proofs.terms import Vec, dot, gram, scalar

VECTORS = ("w", "x")
SCALARS = ("t", "y", "R", "eta")
NAMES = Names(vectors=frozenset(VECTORS), scalars=frozenset(SCALARS))
RATIONALS = st.fractions(min_value=-20, max_value=20, max_denominator=12)


def rel(text: str) -> Relation:
    return parse_relation(text, NAMES)


def proof(*steps: Step) -> Proof:
    return Proof("T", VECTORS, SCALARS, steps)


def holds(relation: Relation, values: dict[sympy.Symbol, Fraction]) -> bool:
    """Exact truth of `relation` at rational values of its symbols."""
    point = {s: sympy.Rational(v.numerator, v.denominator) for s, v in values.items()}
    value = relation.lhs.xreplace(point) - relation.rhs.xreplace(point)
    assert value.is_Rational
    gap = Fraction(int(value.p), int(value.q))
    return {"<=": gap <= 0, "<": gap < 0, ">=": gap >= 0, ">": gap > 0, "==": gap == 0}[
        relation.op
    ]


# -- case split ---------------------------------------------------------------------------


@given(value=RATIONALS, zero_case=st.booleans())
def test_case_split_cases_are_exhaustive_and_exclusive(value: Fraction, zero_case: bool) -> None:
    split = CaseSplit(parse_scalar("y*R - 1", NAMES), "y*R - 1", zero_case)
    point = {scalar("y"): value, scalar("R"): Fraction(1)}
    assert sum(holds(case, point) for case in split.cases()) == 1


def test_case_split_goals_add_one_case_each() -> None:
    hypotheses = (rel("t >= 0"),)
    split = CaseSplit(scalar("y"), "y")
    goals = split.goals(hypotheses, rel("y**2 >= 0"))
    assert [g.label for g in goals] == ["case y > 0", "case y == 0", "case y < 0"]
    assert all(g.decisive and g.hypotheses[:-1] == hypotheses for g in goals)
    assert [g.hypotheses[-1].op for g in goals] == [">", "==", "<"]
    assert [c.op for c in CaseSplit(scalar("y"), zero_case=False).cases()] == [">=", "<"]


# -- induction ----------------------------------------------------------------------------

UPDATE = Induction(
    variable="t",
    base={"w": Vec()},
    step={"w": Vec({"w": 1, "x": scalar("eta") * scalar("y")})},
    hypotheses=(rel("y*dot(w, x) <= 0"),),
)


def test_induction_substitutes_inside_gram_symbols() -> None:
    invariant = rel("dot(w, w) <= t*R**2")
    after = UPDATE.substitute(invariant, at_base=False)
    moved = Vec({"w": 1, "x": scalar("eta") * scalar("y")})
    assert sympy.expand(after.lhs - dot(moved, moved)) == 0
    assert sympy.expand(after.rhs - (scalar("t") + 1) * scalar("R") ** 2) == 0
    base = UPDATE.substitute(invariant, at_base=True)
    assert (sympy.expand(base.lhs), sympy.expand(base.rhs)) == (0, 0)
    assert "t := t + 1" in after.text and "w := " in after.text


def test_substitution_is_simultaneous() -> None:
    t, w, x = scalar("t"), Vec.named("w"), Vec.named("x")
    expr = gram("w", "w") + 2 * gram("w", "x") + t
    swapped = substitute(expr, {t: t + 1}, {"w": x, "x": w})
    assert sympy.expand(swapped - (gram("x", "x") + 2 * gram("w", "x") + t + 1)) == 0


def test_induction_goals_are_base_and_step() -> None:
    hypotheses = (rel("R >= 0"),)
    invariant = rel("dot(w, w) <= t*R**2")
    base, step = UPDATE.goals(hypotheses, invariant)
    assert (base.label, base.decisive, base.hypotheses) == ("base", True, hypotheses)
    assert (step.label, step.decisive) == ("step", False)
    assert [h.text for h in step.hypotheses] == [
        "R >= 0", "t >= 0", "dot(w, w) <= t*R**2", "y*dot(w, x) <= 0",
    ]
    assert step.claim == UPDATE.substitute(invariant, at_base=False)


def test_induction_refuses_hypotheses_about_the_iteration() -> None:
    step = Step("inv", (rel("dot(w, x) <= 0"),), rel("dot(w, w) >= 0"), rule=UPDATE)
    with pytest.raises(ProofFileError, match=r"step inv: .*mentions the iteration"):
        proof(step)
    bad_variable = Induction("w", {}, {})
    with pytest.raises(ProofFileError, match="'w' is not a declared scalar"):
        proof(Step("inv", (), rel("t >= 0"), rule=bad_variable))
    stray = Induction("t", {"w": Vec.named("z")}, {})
    with pytest.raises(ProofFileError, match="undeclared vector"):
        proof(Step("inv", (), rel("t >= 0"), rule=stray))


# -- chaining -----------------------------------------------------------------------------


def test_chain_adds_used_claims_in_order() -> None:
    first = Step("a", (rel("y >= 1"),), rel("y**2 >= 1"))
    second = Step("b", (), rel("y >= 0"))
    third = Step("c", (rel("t >= 0"),), rel("t*y**2 >= t"), uses=("b", "a"))
    built = proof(first, second, third)
    # each used claim comes with the hypotheses it was proved under
    expected = (second.claim, rel("y >= 1"), first.claim)
    assert Chain(("b", "a")).hypotheses({"a": first, "b": second}) == expected
    (goal,) = built.goals(third)
    assert goal.hypotheses == (rel("t >= 0"), *expected)
    assert isinstance(third.rule, Direct)


@pytest.mark.parametrize(
    ("steps", "problem"),
    [
        ((Step("a", (), rel("y >= 0")), Step("a", (), rel("y >= 0"))), "step a: id is used"),
        ((Step("a", (), rel("y >= 0"), uses=("b",)), Step("b", (), rel("y >= 0"))), "later step"),
        ((Step("a", (), Relation(scalar("q"), ">=", sympy.Integer(0), "q >= 0")),), "undeclared q"),
        ((Step("a", (), Relation(gram("w", "z"), ">=", sympy.Integer(0), "?")),), "undeclared"),
        ((Step("a", (), rel("y >= 0"), hints=(Vec.named("z"),)),), "undeclared vectors"),
        ((Step("a", (), rel("y >= 0"), hints=(scalar("q"),)),), "undeclared q"),
        ((Step("a", (), rel("y >= 0"), rule=CaseSplit(1 / scalar("y"))),), "must not divide"),
        ((), "at least one step"),
    ],
)
def test_proof_structure_errors(steps: tuple[Step, ...], problem: str) -> None:
    with pytest.raises(ProofFileError, match=problem):
        proof(*steps)


def test_step_limits() -> None:
    with pytest.raises(ProofFileError, match="must match"):
        Step("Bad_Id", (), rel("y >= 0"))
    with pytest.raises(ProofFileError, match="51 hypotheses"):
        Step("a", (rel("y >= 0"),) * 51, rel("y >= 0"))
    with pytest.raises(ProofFileError, match="21 hints"):
        Step("a", (), rel("y >= 0"), hints=(scalar("y"),) * 21)
    with pytest.raises(ProofFileError, match="more than once"):
        Step("a", (), rel("y >= 0"), uses=("b", "b"))
    step = Step("a", (rel("y >= 0"),), rel("y >= 0"))
    assert proof(step).statement(step) == "y >= 0 |- y >= 0"


# -- division -----------------------------------------------------------------------------


def test_denominators_and_divisors() -> None:
    relation = rel("dot(w, x)/(t*y) >= 1/y**2")
    assert denominators(sympy.Tuple(relation.lhs, relation.rhs)) == (scalar("t"), scalar("y") ** 2)
    assert divisors(relation, NAMES) == (scalar("t") * scalar("y"), scalar("y") ** 2)
    assert required(relation, NAMES) == (scalar("t"), scalar("y") ** 2)


def test_cancelled_division_still_needs_its_denominator() -> None:
    """SymPy turns `dot(w, x)/dot(w, x)` into 1; the source text still divides by it."""
    relation = rel("dot(w, x)/dot(w, x) == 1")
    assert (relation.lhs, relation.rhs) == (1, 1)
    assert required(relation, NAMES) == (gram("w", "x"),)
    admission = admit((), relation, NAMES)
    assert [c.text for c in admission.conditions] == ["<w,x> > 0"]


def test_nested_division_is_refused() -> None:
    with pytest.raises(ExpressionError, match="division inside the denominator"):
        required(rel("1/(1 + 1/y) >= 0"), NAMES)


def test_relation_built_in_code_uses_its_sympy_form() -> None:
    t = scalar("t")
    relation = Relation(1 / t, ">", sympy.Integer(0), "reciprocal of t is positive")
    assert divisors(relation, NAMES) == ()
    assert required(relation, NAMES) == (t,)


@given(t=RATIONALS, y=RATIONALS, g=RATIONALS)
def test_clearing_multiplies_both_sides_by_the_denominators(
    t: Fraction, y: Fraction, g: Fraction
) -> None:
    relation = rel("dot(w, x)/(t*y) + 1/2 >= (y + 1)/y**2")
    cleared = clear(relation)
    assert not denominators(sympy.Tuple(cleared.lhs, cleared.rhs))
    factor = scalar("t") * scalar("y") ** 2
    point = {scalar("t"): t, scalar("y"): y, gram("w", "x"): g}
    if t != 0 and y != 0:
        exact = {s: sympy.Rational(v.numerator, v.denominator) for s, v in point.items()}
        for side, original in ((cleared.lhs, relation.lhs), (cleared.rhs, relation.rhs)):
            assert side.xreplace(exact) == (original * factor).xreplace(exact)


def test_admission_clears_divided_hypotheses_and_claim() -> None:
    hypotheses = (rel("t > 0"), rel("dot(w, w)/t <= R"))
    admission = admit(hypotheses, rel("dot(w, w) <= R*t"), NAMES)
    assert admission.context == (rel("t > 0"),)
    assert [c.text for c in admission.conditions] == ["t > 0"]
    assert admission.hypotheses[:2] == (rel("t > 0"), admission.conditions[0])
    cleared = admission.hypotheses[2]
    assert (cleared.lhs, cleared.rhs) == (gram("w", "w"), scalar("R") * scalar("t"))
    assert admission.claim == rel("dot(w, w) <= R*t")


def test_proof_goals_end_with_non_decisive_side_conditions() -> None:
    step = Step("d", (rel("t > 0"),), rel("dot(w, w)/t >= 0"))
    goals = proof(step).goals(step)
    assert [(g.label, g.decisive) for g in goals] == [("main", True), ("denominator t > 0", False)]
    assert goals[1].hypotheses == (rel("t > 0"),)
