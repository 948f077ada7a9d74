"""Deliberately wrong certificates and counterexamples: the kernel must reject each, saying why.

Each row is one wrong input and the phrase its one-line reason must contain. Most rows take a
valid hand-written certificate from `tests/cases/certificates.py` and break exactly one thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest
import sympy
from cases.certificates import (
    CANCEL,
    CAUCHY_SCHWARZ,
    COMBINATION,
    COMBINATION_CERT,
    LOWER_BOUND,
    LOWER_BOUND_CERT,
    NORM_GROWTH,
    NORM_GROWTH_CERT,
    OPTIMAL_STEP,
    PARALLELOGRAM,
    STRICT_SUM,
    STRICT_SUM_CERT,
    TRIANGLE_SQUARED,
    UNIT_IDENTITY,
    UNIT_IDENTITY_CERT,
    P,
    is_valid,
    step,
)

from proofs.language.terms import Vec, gram, scalar
from verify.kernel import (
    Certificate,
    Counterexample,
    Fact,
    GramMinor,
    Judgement,
    KernelError,
    NormSquare,
    Product,
    Square,
    check_certificate,
    check_counterexample,
)

ONE = Fraction(1)
a, b, c, d = (Vec.named(n) for n in "abcd")
x, y = scalar("x"), scalar("y")
HALF_ = sympy.Rational(1, 2)
OPT = OPTIMAL_STEP.s("a*dot(v, v) + dot(w, v)")  # the right square for the optimal step


@dataclass(frozen=True)
class Wrong:
    id: str
    judgement: object
    certificate: object
    reason: str


def products(*ps: object) -> Certificate:
    return Certificate(tuple(ps))  # type: ignore[arg-type]


def square(weight: object, poly: object) -> Certificate:
    return products(P(1, (), (Square(weight, poly),)))  # type: ignore[arg-type]


def with_sigma(*entries: object) -> Certificate:
    return products(P(1, (), entries))


SX = step([], "x**2 >= 0", scalars="x")  # proved by Square(1, x)
XY = step(["x == y"], "x >= y", scalars="x y")  # proved by linear (0, 1)
GT = step(["x >= 0"], "x > 0", scalars="x")  # false: needs a strict term it cannot have


def _float_vector() -> Vec:
    """A Vec holding a float, built behind the constructor's back (it refuses floats)."""
    v = Vec.named("a")
    v._terms = {"a": sympy.Float(0.5)}  # type: ignore[attr-defined]
    return v


def _bad_kind() -> Fact:
    f = Fact(x, ">=")
    object.__setattr__(f, "kind", "<=")
    return f


N, NC = NORM_GROWTH.judgement, NORM_GROWTH_CERT
WRONG: tuple[Wrong, ...] = (
    # -- coefficients and weights: exact, nonnegative -----------------------------------------
    Wrong(
        "negative-weight", OPTIMAL_STEP.judgement, square(Fraction(-1), OPT), "weight is negative"
    ),
    Wrong(
        "negative-coefficient",
        N,
        replace(NC, products=(P(1, (2,)), P(-2, (1,)))),
        "coefficient is negative",
    ),
    Wrong(
        "float-coefficient", N, replace(NC, products=(P(1, (2,)), Product(2.0, (1,)))), "not float"
    ),  # type: ignore[arg-type]
    Wrong("float-half-weight", OPTIMAL_STEP.judgement, square(0.5, OPT), "not float"),
    Wrong("bool-weight", SX.judgement, square(True, x), "not bool"),
    Wrong(
        "bool-coefficient", SX.judgement, products(Product(True, (), (Square(ONE, x),))), "not bool"
    ),  # type: ignore[arg-type]
    Wrong("sympy-rational-weight", SX.judgement, square(sympy.Rational(2, 3), x), "not Rational"),
    Wrong(
        "sympy-float-in-square",
        OPTIMAL_STEP.judgement,
        square(ONE, sympy.Float(1.0) * OPT),
        "float",
    ),
    Wrong(
        "sympy-float-in-linear",
        UNIT_IDENTITY.judgement,
        replace(UNIT_IDENTITY_CERT, linear=((0, sympy.Float(0.5)), (1, sympy.Float(0.5)))),
        "float 0.5",
    ),
    Wrong("python-float-in-linear", XY.judgement, Certificate((), ((0, 1.0),)), "not float"),  # type: ignore[arg-type]
    Wrong(
        "float-in-vector",
        PARALLELOGRAM.judgement,
        with_sigma(NormSquare(ONE, _float_vector())),
        "float",
    ),
    # -- hypothesis indices: in range, and each kind in its role -------------------------------
    Wrong(
        "index-out-of-range",
        N,
        replace(NC, products=(P(1, (3,)), P(2, (1,)))),
        "index 3 out of range",
    ),
    Wrong(
        "negative-index",
        N,
        replace(NC, products=(P(1, (-1,)), P(2, (1,)))),
        "index -1 out of range",
    ),
    Wrong("bool-index", N, replace(NC, products=(P(1, (True,)),)), "index True is not an int"),
    Wrong("string-index", N, replace(NC, linear=(("0", x),)), "index '0' is not an int"),
    Wrong(
        "equality-in-product",
        N,
        replace(NC, products=(*NC.products, P(0, (0,)))),
        "is not '>=' or '>'",
    ),
    Wrong("inequality-as-equality", N, replace(NC, linear=((1, x),)), "is not '=='"),
    Wrong(
        "multiplier-non-strict",
        COMBINATION.judgement,
        replace(COMBINATION_CERT, multiplier=(2,)),
        "multiplier 0: hypothesis 2",
    ),
    Wrong(
        "multiplier-equality",
        LOWER_BOUND.judgement,
        replace(LOWER_BOUND_CERT, multiplier=(0,)),
        "is not '>'",
    ),
    Wrong(
        "multiplier-out-of-range",
        COMBINATION.judgement,
        replace(COMBINATION_CERT, multiplier=(4,)),
        "out of range",
    ),
    # -- the identity ---------------------------------------------------------------------------
    Wrong("missing-term", N, replace(NC, products=(P(1, (2,)),)), "identity fails"),
    Wrong("missing-linear-term", N, replace(NC, linear=()), "identity fails"),
    Wrong(
        "missing-multiplier",
        COMBINATION.judgement,
        replace(COMBINATION_CERT, multiplier=()),
        "identity fails",
    ),
    Wrong(
        "wrong-multiplier",
        COMBINATION.judgement,
        replace(COMBINATION_CERT, multiplier=(1,)),
        "identity fails",
    ),
    Wrong(
        "wrong-square",
        OPTIMAL_STEP.judgement,
        square(ONE, OPTIMAL_STEP.s("a*dot(v, v) - dot(w, v)")),
        "identity fails",
    ),
    Wrong(
        "wrong-norm-square",
        PARALLELOGRAM.judgement,
        with_sigma(NormSquare(ONE, a + b)),
        "identity fails",
    ),
    Wrong(
        "wrong-gram-minor",
        CAUCHY_SCHWARZ.judgement,
        with_sigma(GramMinor(ONE, (a, a + b, b))),
        "identity fails",
    ),
    Wrong(
        "certificate-reused",
        LOWER_BOUND.judgement.__class__(
            LOWER_BOUND.judgement.hypotheses, Fact(LOWER_BOUND.s("dot(w, w) - t*g"), ">=")
        ),
        LOWER_BOUND_CERT,
        "identity fails",
    ),
    Wrong(
        "extra-symbol-not-cancelling",
        XY.judgement,
        Certificate((), ((0, 1 + scalar("z")),)),
        "identity fails",
    ),
    # -- Gram minors: 1..3 explicit vectors ------------------------------------------------------
    Wrong(
        "gram-minor-4-vectors",
        CAUCHY_SCHWARZ.judgement,
        with_sigma(GramMinor(ONE, (a, b, c, d))),
        "GramMinor of 4 vectors",
    ),
    Wrong(
        "gram-minor-0-vectors",
        CAUCHY_SCHWARZ.judgement,
        with_sigma(GramMinor(ONE, ())),
        "GramMinor of 0 vectors",
    ),
    Wrong(
        "gram-minor-of-polynomial",
        CAUCHY_SCHWARZ.judgement,
        with_sigma(GramMinor(ONE, (gram("a", "b"),))),
        "must be a Vec",
    ),  # type: ignore[arg-type]
    Wrong(
        "vector-name-not-identifier",
        PARALLELOGRAM.judgement,
        with_sigma(NormSquare(ONE, Vec({"a,b": 1}))),
        "not an identifier",
    ),
    # -- strict and equality claims --------------------------------------------------------------
    Wrong(
        "strict-without-positive-term",
        STRICT_SUM.judgement,
        products(P(1, (0,), (Square(ONE, sympy.Integer(1)),)), *STRICT_SUM_CERT.products[1:]),
        "strict claim without",
    ),
    Wrong(
        "strict-term-non-strict-hypothesis",
        GT.judgement,
        products(P(1, (0,))),
        "strict claim without",
    ),
    Wrong(
        "strict-term-zero-coefficient",
        step([], "0 > 0").judgement,
        products(P(0)),
        "strict claim without",
    ),
    Wrong(
        "equality-claim-with-product",
        UNIT_IDENTITY.judgement,
        replace(UNIT_IDENTITY_CERT, products=(P(0),)),
        "equality claim takes no product",
    ),
    Wrong(
        "equality-claim-from-inequality",
        CANCEL.judgement.__class__((Fact(x - y, ">="),), Fact(x - y, "==")),
        products(P(1, (0,))),
        "equality claim takes no product",
    ),
    # -- polynomials only -----------------------------------------------------------------------
    Wrong(
        "division-in-linear",
        UNIT_IDENTITY.judgement,
        replace(UNIT_IDENTITY_CERT, linear=((0, 1 / gram("w", "w")), (1, HALF_))),
        "linear 0 polynomial is not a polynomial",
    ),
    Wrong("square-root", SX.judgement, square(ONE, sympy.sqrt(x) * x), "not a polynomial"),
    Wrong("function", SX.judgement, square(ONE, sympy.exp(x)), "not a polynomial"),
    Wrong("infinity", SX.judgement, square(ONE, sympy.oo), "not a polynomial"),
    Wrong("huge-exponent", SX.judgement, square(ONE, x**65), "not a polynomial"),
    Wrong(
        "non-polynomial-hypothesis",
        Judgement((Fact(x / y, ">="),), Fact(x**2, ">=")),
        square(ONE, x),
        "hypothesis 0 is not a polynomial",
    ),
    Wrong(
        "non-polynomial-claim",
        Judgement((), Fact(sympy.Abs(x), ">=")),
        square(ONE, x),
        "claim is not a polynomial",
    ),
    Wrong(
        "symbol-with-assumptions",
        SX.judgement,
        square(ONE, sympy.Symbol("x", positive=True)),
        "not a plain symbol",
    ),
    Wrong("dummy-symbol", SX.judgement, square(ONE, sympy.Dummy("x")), "not a plain symbol"),
    Wrong(
        "string-polynomial", SX.judgement, square(ONE, "x"), "must be a SymPy expression, not str"
    ),
    # -- malformed structure -------------------------------------------------------------------
    Wrong("not-a-certificate", SX.judgement, "Square(1, x)", "expected a Certificate"),
    Wrong("not-a-judgement", "x**2 >= 0", square(ONE, x), "expected a Judgement"),
    Wrong(
        "hypothesis-not-a-fact", Judgement((x,), Fact(x**2, ">=")), square(ONE, x), "malformed fact"
    ),  # type: ignore[arg-type]
    Wrong(
        "bad-kind", Judgement((_bad_kind(),), Fact(x**2, ">=")), square(ONE, x), "malformed fact"
    ),
    Wrong(
        "hypotheses-not-a-tuple",
        Judgement({Fact(x, ">=")}, Fact(x**2, ">=")),
        square(ONE, x),
        "must be a tuple, not set",
    ),  # type: ignore[arg-type]
    Wrong(
        "products-not-a-tuple",
        SX.judgement,
        Certificate(p for p in [P(1)]),
        "must be a tuple, not generator",
    ),  # type: ignore[arg-type]
    Wrong(
        "product-not-a-product",
        SX.judgement,
        products(Square(ONE, x)),
        "product 0 must be a Product",
    ),
    Wrong("sigma-entry-unknown", SX.judgement, with_sigma(x**2), "is not a sigma entry"),
    Wrong(  # regression: a Square's label once leaked into the next entry's ("... polynomial
        # sigma 1"), so the reason named a place that does not exist
        "second-sigma-entry-named",
        SX.judgement,
        with_sigma(Square(ONE, x), Square(-ONE, x)),
        "product 0 sigma 1 weight is negative",
    ),
    Wrong("linear-not-a-pair", XY.judgement, Certificate((), ((0, 1, 2),)), "must be a pair"),  # type: ignore[arg-type]
)


@pytest.mark.parametrize("wrong", WRONG, ids=[w.id for w in WRONG])
def test_wrong_certificate_is_rejected_with_its_reason(wrong: Wrong) -> None:
    with pytest.raises(KernelError, match=re.escape(wrong.reason)) as caught:
        check_certificate(wrong.judgement, wrong.certificate)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)  # one-line reasons
    assert not is_valid(wrong.judgement, wrong.certificate)  # type: ignore[arg-type]


def test_every_reject_row_has_a_unique_id() -> None:
    assert len({w.id for w in WRONG}) == len(WRONG) >= 15


# -- counterexamples ----------------------------------------------------------------------------

T = TRIANGLE_SQUARED.judgement  # |a+b|**2 <= |a|**2 + |b|**2, false at a = b = (1,)
BOUNDED = step(["x <= 1"], "x**2 <= 1", scalars="x")  # true for x in [-1, 1] only


def cex(scalars: object = None, **vectors: object) -> Counterexample:
    return Counterexample(scalars if scalars is not None else {}, vectors)  # type: ignore[arg-type]


WRONG_CEX: tuple[Wrong, ...] = (
    Wrong("violates-hypothesis", BOUNDED.judgement, cex({"x": Fraction(2)}), "hypothesis 0"),
    Wrong("satisfies-claim", T, cex(a=(ONE,), b=(-ONE,)), "holds at the counterexample"),
    Wrong(
        "satisfies-claim-boundary", T, cex(a=(ONE, 0), b=(0, ONE)), "holds at the counterexample"
    ),
    Wrong(
        "mismatched-dimensions", T, cex(a=(ONE,), b=(ONE, ONE)), "one dimension >= 1, got [1, 2]"
    ),
    Wrong("zero-dimensional", T, cex(a=(), b=()), "got [0]"),
    Wrong("missing-vector", T, cex(a=(ONE,)), "vector b (in <a,b>) is not assigned"),
    Wrong("missing-scalar", BOUNDED.judgement, cex({"y": ONE}), "scalar x is not assigned"),
    Wrong(
        "float-scalar",
        BOUNDED.judgement,
        cex({"x": 2.0}),
        "scalar x must be an int or Fraction, not float",
    ),
    Wrong("bool-scalar", BOUNDED.judgement, cex({"x": True}), "not bool"),
    Wrong(
        "float-coordinate",
        T,
        cex(a=(1.0,), b=(ONE,)),
        "vector a[0] must be an int or Fraction, not float",
    ),
    Wrong("coordinates-not-a-tuple", T, cex(a={ONE}, b=(ONE,)), "must be a tuple, not set"),
    Wrong("scalars-not-a-dict", BOUNDED.judgement, cex([("x", ONE)]), "must be dicts"),
    Wrong("not-a-counterexample", T, {"a": (1,), "b": (1,)}, "expected a Counterexample"),
    Wrong("not-a-judgement", "x**2 <= 1", cex({"x": 2}), "expected a Judgement"),
    Wrong(
        "non-polynomial-claim",
        Judgement((), Fact(1 / x, ">")),
        cex({"x": -ONE}),
        "claim is not a polynomial",
    ),
    Wrong(
        "float-in-judgement",
        Judgement((), Fact(sympy.Float(0.5) - x, ">=")),
        cex({"x": ONE}),
        "float 0.5",
    ),
)


@pytest.mark.parametrize("wrong", WRONG_CEX, ids=[w.id for w in WRONG_CEX])
def test_wrong_counterexample_is_rejected_with_its_reason(wrong: Wrong) -> None:
    with pytest.raises(KernelError, match=re.escape(wrong.reason)):
        check_counterexample(wrong.judgement, wrong.certificate)  # type: ignore[arg-type]
