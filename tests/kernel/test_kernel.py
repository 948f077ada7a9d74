"""The trusted kernel accepts hand-written certificates of true steps and exact counterexamples.

Deliberately wrong certificates are in `test_kernel_rejects.py`; the shared table of cases is
`tests/cases/certificates.py`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
import sympy
from cases.certificates import (
    CASES,
    HALF,
    NORM_GROWTH,
    NORM_GROWTH_CERT,
    TRIANGLE_SQUARED,
    TRIANGLE_SQUARED_CEX,
    Case,
    P,
    is_valid,
    step,
)
from hypothesis import assume, given
from hypothesis import strategies as st

from proofs.language.terms import Vec, gram, gram_determinant, scalar
from verify.kernel import (
    Certificate,
    Counterexample,
    Fact,
    GramMinor,
    Judgement,
    KernelError,
    NormSquare,
    Square,
    check_certificate,
    check_counterexample,
)

IDS = [case.id for case in CASES]



@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_hand_written_certificate_is_accepted(case: Case) -> None:
    assert check_certificate(case.judgement, case.certificate) is None


def test_residual_names_what_is_missing() -> None:
    # Dropping the linear term leaves exactly -(-<x,x>)*(y**2 - 1) unexplained.
    wrong = replace(NORM_GROWTH_CERT, linear=())
    with pytest.raises(KernelError, match="identity fails") as caught:
        check_certificate(NORM_GROWTH.judgement, wrong)
    residual = sympy.sympify(str(caught.value).split(" = ", 1)[1].replace("<x,x>", "XX"))
    x_x, y = sympy.Symbol("XX"), scalar("y")
    assert sympy.expand(residual - (-x_x * (y**2 - 1))) == 0


def test_extra_symbols_in_the_certificate_are_allowed_when_they_cancel() -> None:
    # h0: x - y == 0 |- x - y >= 0 via (1 + z)*h0 + (-z)*h0: z is not in the judgement.
    s = step(["x == y"], "x >= y", scalars="x y")
    z = scalar("z")
    ok = Certificate(products=(), linear=((0, 1 + z), (0, -z)))
    check_certificate(s.judgement, ok)
    # An extra vector c contributes |c|**2 with weight 0: harmless, and accepted.
    zero_weight = Certificate(
        products=(P(0, (), (NormSquare(Fraction(0), Vec.named("c")),)),),
        linear=((0, sympy.Integer(1)),),
    )
    check_certificate(s.judgement, zero_weight)
    # ... but the identity must hold in the extra variables too.
    bad = Certificate(products=(), linear=((0, 1 + z),))
    with pytest.raises(KernelError, match="identity fails"):
        check_certificate(s.judgement, bad)


def test_equality_claim_with_strict_multiplier() -> None:
    # t > 0, t*x == t*y |- x == y: sound since t > 0 and t*(x - y) == 0 force x == y.
    s = step(["t > 0", "t*x == t*y"], "x == y", scalars="t x y")
    check_certificate(s.judgement, Certificate((), ((1, sympy.Integer(1)),), (0,)))


def test_exact_inputs_may_be_python_ints_and_fractions() -> None:
    # Weights, coefficients and polynomials given as int / Fraction are exact, hence fine.
    s = step(["x == 1"], "3*x/2 >= 1/2", scalars="x")
    # 3x/2 - 1/2 = 3/2*(x - 1) + 1 = q*h0 + 1 * (1)**2 * 1
    check_certificate(
        s.judgement,
        Certificate((P(1, (), (Square(1, 1),)),), ((0, Fraction(3, 2)),)),
    )


def test_strict_constant_term_without_hypotheses() -> None:
    # x >= 0 |- x + 1 > 0: the empty product with coefficient 1 is the constant 1 > 0.
    s = step(["x >= 0"], "x + 1 > 0", scalars="x")
    check_certificate(s.judgement, Certificate((P(1, (0,)), P(1))))


def test_no_symbols_at_all() -> None:
    s = Judgement((), Fact(sympy.Integer(1), ">"))
    check_certificate(s, Certificate((P(1),)))
    check_counterexample(Judgement((), Fact(sympy.Integer(-1), ">=")), Counterexample({}, {}))


def test_long_residuals_are_truncated() -> None:
    s = step([], "x >= 0", scalars="x")
    big = Square(Fraction(1), sympy.expand(sum(scalar(f"v{i}") for i in range(30))))
    with pytest.raises(KernelError, match=r"\.\.\.$"):
        check_certificate(s.judgement, Certificate((P(1, (), (big,)),)))


def test_gram_minor_of_one_vector_is_its_squared_norm() -> None:
    s = step([], "norm2(a - 2*b) >= 0", "a b")
    for entry in (
        GramMinor(Fraction(1), (s.v("a - 2*b"),)),
        NormSquare(Fraction(1), s.v("a - 2*b")),
    ):
        check_certificate(s.judgement, Certificate((P(1, (), (entry,)),)))


# -- counterexamples ----------------------------------------------------------------------------


def test_counterexample_for_the_squared_triangle_inequality() -> None:
    # |a+b|**2 = 4 > 2 = |a|**2 + |b|**2 at a = b = (1,).
    check_counterexample(TRIANGLE_SQUARED.judgement, TRIANGLE_SQUARED_CEX)


NORM_GROWTH_CLAIM = "dot(w + y*x, w + y*x) <= dot(w, w) + R**2"


def test_counterexample_with_hypotheses_and_scalars() -> None:
    # Drop "y*dot(w, x) <= 0" from norm growth: w = x = (1, 0), y = 1, R = 1 gives 4 <= 2.
    s = step(["y**2 == 1", "dot(x, x) <= R**2"], NORM_GROWTH_CLAIM, "w x", "y R")
    one, zero = Fraction(1), Fraction(0)
    cex = Counterexample({"y": 1, "R": one}, {"w": (one, zero), "x": [one, zero]})
    check_counterexample(s.judgement, cex)


@pytest.mark.parametrize(
    ("claim", "value"),
    [("x > 0", 0), ("x == 0", 1), ("x >= 0", -1)],
)
def test_counterexample_violates_each_kind_of_claim(claim: str, value: int) -> None:
    s = step(["x <= 1"], claim, scalars="x")
    check_counterexample(s.judgement, Counterexample({"x": Fraction(value)}, {}))


def test_counterexample_may_assign_unused_names() -> None:
    cex = Counterexample({"unused": Fraction(7)}, {**TRIANGLE_SQUARED_CEX.vectors, "c": (1,)})
    check_counterexample(TRIANGLE_SQUARED.judgement, cex)


# -- properties ---------------------------------------------------------------------------------

SYMBOLS = (scalar("x"), scalar("y"), gram("a", "b"))
small = st.fractions(min_value=-5, max_value=5, max_denominator=6)
nonzero = small.filter(lambda c: c != 0)


@st.composite
def polynomials(draw: st.DrawFn) -> sympy.Expr:
    """A random polynomial of degree <= 3 in x, y, <a,b> with small rational coefficients."""
    terms = draw(st.lists(st.tuples(small, st.lists(st.sampled_from(SYMBOLS), max_size=3))))
    return sum(
        (sympy.Rational(c.numerator, c.denominator) * sympy.Mul(*m) for c, m in terms),
        sympy.Integer(0),
    )


def judge(expr: sympy.Expr, kind: str = ">=", hyps: tuple[Fact, ...] = ()) -> Judgement:
    return Judgement(hyps, Fact(expr, kind), ("a", "b"), ("x", "y"))


@given(polynomials())
def test_a_square_proves_its_expansion(p: sympy.Expr) -> None:
    cert = Certificate((P(1, (), (Square(Fraction(1), p),)),))
    check_certificate(judge(p**2), cert)
    check_certificate(judge(sympy.expand(p**2)), cert)


@given(polynomials(), nonzero)
def test_a_square_never_proves_a_shifted_square(p: sympy.Expr, c: Fraction) -> None:
    cert = Certificate((P(1, (), (Square(Fraction(1), p),)),))
    shift = sympy.Rational(c.numerator, c.denominator)
    assert not is_valid(judge(p**2 - shift), cert)
    # p**2 + c**2 > 0 needs the strictly positive constant c**2 as its own term.
    strict = judge(p**2 + shift**2, ">")
    assert not is_valid(strict, cert)
    check_certificate(strict, Certificate((*cert.products, P(c**2))))


@given(st.lists(st.tuples(small.map(abs), polynomials()), min_size=1, max_size=4), st.data())
def test_perturbing_a_weight_of_a_sum_of_squares_is_rejected(
    parts: list[tuple[Fraction, sympy.Expr]], data: st.DataObject
) -> None:
    target = sympy.expand(sum((w * p**2 for w, p in parts), sympy.Integer(0)))
    cert = Certificate((P(1, (), tuple(Square(w, p) for w, p in parts)),))
    check_certificate(judge(target), cert)
    k = data.draw(st.integers(0, len(parts) - 1))
    assume(sympy.expand(parts[k][1]) != 0)
    delta = data.draw(nonzero.filter(lambda d: parts[k][0] + d >= 0))
    sigma = list(cert.products[0].sigma)
    sigma[k] = Square(parts[k][0] + delta, parts[k][1])
    assert not is_valid(judge(target), Certificate((P(1, (), tuple(sigma)),)))


@given(st.sampled_from(CASES), nonzero, st.data())
def test_perturbing_a_hand_written_certificate_is_rejected(
    case: Case, delta: Fraction, data: st.DataObject
) -> None:
    """Every term of a hand-written certificate is a nonzero polynomial: changing the
    coefficient of one by delta != 0 changes the right-hand side, so the identity fails."""
    cert = case.certificate
    slots = [("product", k) for k in range(len(cert.products))]
    slots += [("linear", j) for j in range(len(cert.linear))]
    where, k = data.draw(st.sampled_from(slots))
    if where == "product":
        products = list(cert.products)
        products[k] = replace(products[k], coeff=abs(products[k].coeff + delta))
        assume(products[k].coeff != cert.products[k].coeff)
        wrong = replace(cert, products=tuple(products))
    else:
        linear = list(cert.linear)
        linear[k] = (
            linear[k][0],
            linear[k][1] + sympy.Rational(delta.numerator, delta.denominator),
        )
        wrong = replace(cert, linear=tuple(linear))
    assert not is_valid(case.judgement, wrong)


vectors_in_abc = st.dictionaries(st.sampled_from("abc"), small.filter(bool), min_size=1).map(
    lambda d: Vec({name: sympy.Rational(c.numerator, c.denominator) for name, c in d.items()})
)


@given(st.lists(vectors_in_abc, min_size=1, max_size=3), nonzero)
def test_kernel_gram_minors_agree_with_terms_gram_determinant(vs: list[Vec], c: Fraction) -> None:
    minor = gram_determinant(vs)
    cert = Certificate((P(1, (), (GramMinor(Fraction(1), tuple(vs)),)),))
    check_certificate(judge(minor), cert)
    assert not is_valid(judge(minor + sympy.Rational(c.numerator, c.denominator)), cert)


coordinates = st.integers(1, 3).flatmap(
    lambda d: st.fixed_dictionaries(
        {name: st.tuples(*[small] * d) for name in ("a", "b", "c", "u", "v", "w", "x")}
    )
)


@given(st.sampled_from(CASES), st.dictionaries(st.sampled_from("xytgRas"), small), coordinates)
def test_a_proved_step_has_no_counterexample(
    case: Case, scalars: dict[str, Fraction], vectors: dict[str, tuple[Fraction, ...]]
) -> None:
    """Consistency of the two halves: never both proved and refuted."""
    cex = Counterexample({name: scalars.get(name, HALF) for name in "xytgRas"}, vectors)
    with pytest.raises(KernelError, match=r"fails at|holds at"):
        check_counterexample(case.judgement, cex)


@given(st.tuples(small), st.tuples(small))
def test_triangle_counterexample_iff_positive_inner_product(
    a: tuple[Fraction], b: tuple[Fraction]
) -> None:
    # |a+b|**2 <= |a|**2 + |b|**2 fails exactly when 2<a,b> > 0.
    cex = Counterexample({}, {"a": a, "b": b})
    assert (a[0] * b[0] > 0) == _accepted(TRIANGLE_SQUARED.judgement, cex)


def _accepted(judgement: Judgement, cex: Counterexample) -> bool:
    try:
        check_counterexample(judgement, cex)
    except KernelError:
        return False
    return True
