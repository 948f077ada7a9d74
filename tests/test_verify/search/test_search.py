"""The untrusted search pieces: normal form, exact re-solve, LDL^T squares, shrinking."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from proofs.language.expressions import ExpressionError, Names, parse_relation
from verify.kernel import (
    Counterexample,
    Fact,
    Judgement,
    Product,
    check_certificate,
    check_counterexample,
)
from verify.proof_checker import fact_of
from verify.prover import decide
from verify.search.counterexamples import CounterexampleSearch
from verify.search.polynomials import Context
from verify.search.products import hypothesis_products, multipliers
from verify.search.rationalize import exact_solution
from verify.search.shrinking import simpler_values
from verify.search.sos import ldlt_squares

NAMES = Names(vectors=frozenset({"w", "x"}), scalars=frozenset({"a", "b", "t"}))
a, b, t = sympy.symbols("a b t")


@pytest.mark.parametrize(
    ("text", "expr", "kind"),
    [
        ("a <= b", b - a, ">="),
        ("a < b", b - a, ">"),
        ("a >= b", a - b, ">="),
        ("a > b", a - b, ">"),
        ("a == b", a - b, "=="),
        ("a/2 <= (a + b)/4", b / 4 - a / 4, ">="),
    ],
)
def test_fact_of_orients_the_gap(text: str, expr: sympy.Expr, kind: str) -> None:
    assert fact_of(parse_relation(text, NAMES)) == Fact(sympy.expand(expr), kind)


def test_fact_of_refuses_symbolic_denominators() -> None:
    with pytest.raises(ExpressionError, match="divides"):
        fact_of(parse_relation("a/t <= 1", NAMES))  # the division rule of a step clears it


def _context(*hyps: Fact, claim: Fact) -> Context:
    """A context whose ring has a, b and t (the ring has only the names mentioned: the
    names are given as hints so that a test can build polynomials in all three)."""
    return Context(Judgement(hyps, claim, (), ("a", "b", "t")), hints=(a, b, t))


def test_exact_solution_solves_and_detects_inconsistency() -> None:
    ctx = _context(claim=Fact(a, ">="))
    x, y = ctx.poly(a), ctx.poly(b)
    assert exact_solution([x, y, x + y], 2 * x + 3 * y, None) == [2, 3, 0]
    guess = [Fraction(0), Fraction(0), Fraction(1)]
    assert exact_solution([x, y, x + y], 2 * x + 3 * y, guess) == [1, 2, 1]
    assert exact_solution([x], y, None) is None


def test_ldlt_squares_exact_or_nothing() -> None:
    ctx = _context(claim=Fact(a, ">="))
    squares = ldlt_squares(ctx, ctx.poly((a - 2 * b) ** 2 + 3 * b**2))
    assert squares is not None
    total = sum((s.weight * s.poly**2 for s in squares), sympy.Integer(0))
    assert sympy.expand(total - (a - 2 * b) ** 2 - 3 * b**2) == 0
    assert ldlt_squares(ctx, ctx.poly(a**2 - 3 * a * b + b**2)) is None  # indefinite
    assert ldlt_squares(ctx, ctx.poly(a * b)) is None  # no diagonal
    assert ldlt_squares(ctx, ctx.poly(a**2 + a)) is None  # `a` not from the half basis


def test_products_and_multipliers_enumerate_with_repetition() -> None:
    ctx = _context(Fact(a, ">"), Fact(b, ">="), Fact(t - 1, "=="), claim=Fact(a, ">="))
    products = hypothesis_products(ctx, 2, 2)
    assert [p.hyps for p in products] == [(), (0,), (1,), (0, 0), (0, 1), (1, 1)]
    assert [p.strict for p in products] == [True, True, False, True, False, False]
    assert multipliers(ctx) == [(), (0,), (0, 0)]


def test_simpler_values_are_strictly_simpler() -> None:
    value = Fraction(7, 3)
    candidates = list(simpler_values(value))
    assert candidates[0] == 0 and Fraction(2) in candidates
    assert all(abs(c.numerator) + c.denominator < 10 for c in candidates)
    assert list(simpler_values(Fraction(0))) == []


def test_shrink_drops_dimensions_and_simplifies() -> None:
    relation = parse_relation("dot(w, x) <= dot(w, w)", NAMES)
    judgement = Judgement((), fact_of(relation), ("w", "x"), ())
    search = CounterexampleSearch(Context(judgement))
    w = (Fraction(5, 3), Fraction(7, 2), Fraction(0))
    big = Counterexample({}, {"w": w, "x": (Fraction(9), Fraction(4), Fraction(-1))})
    assert search.refutes(big)
    small = search.shrink(big)
    check_counterexample(judgement, small)
    assert {len(v) for v in small.vectors.values()} == {1}
    assert small == Counterexample({}, {"w": (Fraction(1),), "x": (Fraction(2),)})


linear_forms = st.lists(st.integers(-3, 3), min_size=3, max_size=3).filter(any)


@given(st.lists(linear_forms, min_size=1, max_size=2), st.integers(0, 2))
def test_sums_of_squares_are_proved(forms: list[list[int]], shift: int) -> None:
    """`sum l_i**2 + shift >= 0` for integer linear forms `l_i` in a, b, t."""
    gap = sum((sympy.expand((p * a + q * b + r * t) ** 2) for p, q, r in forms), shift)
    judgement = Judgement((), Fact(sympy.expand(gap), ">="), (), ("a", "b", "t"))
    result = decide(judgement)
    assert result.status == "proved", result.message
    check_certificate(judgement, result.certificate)


@given(linear_forms, st.integers(1, 3))
def test_negated_squares_are_refuted(form: list[int], shift: int) -> None:
    """`-(l**2) - shift >= 0` is false everywhere; any point refutes it."""
    p, q, r = form
    judgement = Judgement((), Fact(sympy.expand(-((p * a + q * b + r * t) ** 2) - shift), ">="),
                          (), ("a", "b", "t"))
    result = decide(judgement)
    assert result.status == "refuted"
    check_counterexample(judgement, result.counterexample)
    assert set(result.counterexample.scalars.values()) == {0}


def test_strict_claim_certificate_has_a_strict_term() -> None:
    judgement = Judgement((Fact(a, ">"), Fact(b, ">=")), Fact(2 * a + b, ">"), (), ("a", "b"))
    result = decide(judgement)
    assert result.status == "proved"
    assert Product(Fraction(2), (0,), ()) in result.certificate.products


def test_the_screen_proposes_no_point_that_values_a_member_or_a_sum() -> None:
    """Regression: the screen valued a family member (`y[1]`), a sum or a Gram symbol of
    members as a plain name, a point the kernel refuses and the prover had to drop; it now
    proposes none there (the concrete sets of `verify.search.sums.worlds` refute such a
    step), and still finds one where every generator is a name (`a`)."""
    from verify.kernel.atoms import family, finite_sum, vector_name
    from verify.search.work import DEFAULT_BUDGET, Work

    j = sympy.Symbol("j")
    member = family("y", sympy.Integer(1))
    total = finite_sum(j, sympy.Integer(1), sympy.Symbol("n"), [], family("y", j))
    square = sympy.Symbol(f"<{vector_name('x', sympy.Integer(1))},"
                          f"{vector_name('x', sympy.Integer(1))}>")
    for claim in (member, total, -square, sympy.Symbol("a")):
        judgement = Judgement((), Fact(sympy.expand(claim), ">="), (), ("a", "n"))
        found = CounterexampleSearch(Context(judgement)).search(Work(DEFAULT_BUDGET))
        if claim == sympy.Symbol("a"):
            assert found == Counterexample({"a": Fraction(-1)}, {})
            check_counterexample(judgement, found)
        else:
            assert found is None, claim
