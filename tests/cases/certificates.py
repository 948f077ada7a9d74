"""The shared table of kernel cases: true steps with hand-written certificates, looped over by
the kernel tests and `benchmarks/kernel.py`.

One table of true steps, each with a certificate written by hand; the algebra that makes the
identity hold is in the comment above each entry. Judgements are written in the proof-file
language (`proofs.language.expressions`) and normalised to `expr (kind) 0` facts by
`cases.judgement`.
This module holds data only (no tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from cases import judgement
from proofs.language.expressions import Names, parse_scalar, parse_vector
from proofs.language.terms import Vec, gram_determinant
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
)

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class Step:
    """A judgement together with the names it is written in."""

    names: Names
    judgement: Judgement

    def s(self, text: str) -> sympy.Expr:
        """A scalar polynomial in this step's names."""
        return parse_scalar(text, self.names)

    def v(self, text: str) -> Vec:
        """A vector expression in this step's names."""
        return parse_vector(text, self.names)


def step(given: list[str], claim: str, vectors: str = "", scalars: str = "") -> Step:
    """A judgement `given |- claim` over the declared vectors and scalars."""
    names = Names(frozenset(vectors.split()), frozenset(scalars.split()))
    return Step(names, judgement(given, claim, names, sorted(names.vectors),
                                 sorted(names.scalars)))


def P(coeff: int | Fraction, hyps: tuple[int, ...] = (), sigma: tuple = ()) -> Product:
    """Shorthand for a product term."""
    return Product(Fraction(coeff), hyps, sigma)


@dataclass(frozen=True)
class Case:
    id: str
    step: Step
    certificate: Certificate

    @property
    def judgement(self) -> Judgement:
        return self.step.judgement


# 1. Perceptron norm growth. h0: y**2 - 1 == 0, h1: -y<w,x> >= 0, h2: R**2 - <x,x> >= 0.
#    gap = <w,w> + R**2 - (<w,w> + 2y<w,x> + y**2<x,x>) = R**2 - 2y<w,x> - y**2<x,x>
#        = (R**2 - <x,x>) + 2(-y<w,x>) - <x,x>(y**2 - 1) = h2 + 2*h1 + (-<x,x>)*h0.
NORM_GROWTH = step(
    ["y**2 == 1", "y*dot(w, x) <= 0", "dot(x, x) <= R**2"],
    "dot(w + y*x, w + y*x) <= dot(w, w) + R**2",
    "w x",
    "y R",
)
NORM_GROWTH_CERT = Certificate(
    products=(P(1, (2,)), P(2, (1,))),
    linear=((0, NORM_GROWTH.s("-dot(x, x)")),),
)

# 2. Cauchy–Schwarz: <a,a><b,b> - <a,b>**2 = det Gram(a, b).
CAUCHY_SCHWARZ = step([], "dot(a, b)**2 <= dot(a, a)*dot(b, b)", "a b")
CAUCHY_SCHWARZ_CERT = Certificate(
    products=(P(1, (), (GramMinor(Fraction(1), (Vec.named("a"), Vec.named("b"))),)),)
)

# 3. Lower bound. h0: <u,u> - 1 == 0, h1: <w,u> - tg >= 0, h2: t >= 0, h3: g > 0.
#    det Gram(w,u) = <w,w><u,u> - <w,u>**2
#    h1*h1         = <w,u>**2 - 2tg<w,u> + t**2g**2
#    2*h1*h2*h3    = 2tg<w,u> - 2t**2g**2
#    sum           = <w,w><u,u> - t**2g**2;  + (-<w,w>)*h0 = <w,w> - t**2g**2 = gap.
LOWER_BOUND = step(
    ["dot(u, u) == 1", "dot(w, u) >= t*g", "t >= 0", "g > 0"],
    "dot(w, w) >= t**2*g**2",
    "u w",
    "t g",
)
LOWER_BOUND_CERT = Certificate(
    products=(
        P(1, (), (GramMinor(Fraction(1), (Vec.named("w"), Vec.named("u"))),)),
        P(1, (1, 1)),
        P(2, (1, 2, 3)),
    ),
    linear=((0, LOWER_BOUND.s("-dot(w, w)")),),
)

# 4. Combination. h0: t > 0, h1: g > 0, h2: <w,w> - t**2g**2 >= 0, h3: tR**2 - <w,w> >= 0.
#    m = t (h0):  t*(R**2 - tg**2) = tR**2 - t**2g**2 = h3 + h2.
COMBINATION = step(
    ["t > 0", "g > 0", "t**2*g**2 <= dot(w, w)", "dot(w, w) <= t*R**2"],
    "t*g**2 <= R**2",
    "w",
    "t g R",
)
COMBINATION_CERT = Certificate(products=(P(1, (2,)), P(1, (3,))), multiplier=(0,))

# 5. Optimal step. <v,v>(<w,w> + 2a<w,v> + a**2<v,v>) - <v,v><w,w> + <w,v>**2
#    = a**2<v,v>**2 + 2a<v,v><w,v> + <w,v>**2 = (a<v,v> + <w,v>)**2.
OPTIMAL_STEP = step(
    [],
    "dot(v, v)*dot(w + a*v, w + a*v) >= dot(v, v)*dot(w, w) - dot(w, v)**2",
    "v w",
    "a",
)
OPTIMAL_STEP_CERT = Certificate(
    products=(P(1, (), (Square(Fraction(1), OPTIMAL_STEP.s("a*dot(v, v) + dot(w, v)")),)),)
)

# 6. Unit vectors. h0: <w,w> - 1 == 0, h1: <u,u> - 1 == 0.
#    gap = (<w,w> - 2<u,w> + <u,u>)/2 - 1 + <u,w> = h0/2 + h1/2.
UNIT_IDENTITY = step(["dot(w, w) == 1", "dot(u, u) == 1"], "norm2(w - u)/2 == 1 - dot(w, u)", "u w")
UNIT_IDENTITY_CERT = Certificate(
    products=(), linear=((0, sympy.Rational(1, 2)), (1, sympy.Rational(1, 2)))
)

# 7a. Strict product: h0: g > 0, h1: t > 0;  t*g = 1 * h0 * h1, a strictly positive term.
STRICT_PRODUCT = step(["g > 0", "t > 0"], "t*g > 0", scalars="t g")
STRICT_PRODUCT_CERT = Certificate(products=(P(1, (0, 1)),))

# 7b. Strict sum: h0: x > 0;  x + y**2 = h0 (strictly positive) + y**2 (a square).
STRICT_SUM = step(["x > 0"], "x + y**2 > 0", scalars="x y")
STRICT_SUM_CERT = Certificate(
    products=(P(1, (0,)), P(1, (), (Square(Fraction(1), STRICT_SUM.s("y")),)))
)

# 8. Parallelogram bound: 2<a,a> + 2<b,b> - |a+b|**2 = |a-b|**2, a NormSquare.
PARALLELOGRAM = step([], "norm2(a + b) <= 2*norm2(a) + 2*norm2(b)", "a b")
PARALLELOGRAM_CERT = Certificate(
    products=(P(1, (), (NormSquare(Fraction(1), PARALLELOGRAM.v("a - b")),)),)
)

# 9. Equality with a multiplier. h0: t > 0, h1: t*x - t*y == 0;  t*(x - y) = 1 * h1.
CANCEL = step(["t > 0", "t*x == t*y"], "x == y", scalars="t x y")
CANCEL_CERT = Certificate(products=(), linear=((1, sympy.Integer(1)),), multiplier=(0,))

# 10. Ex falso: h0: x - 1 >= 0, h1: -x >= 0 (inconsistent);  -1 = h0 + h1.
EX_FALSO = step(["x >= 1", "x <= 0"], "0 >= 1", scalars="x")
EX_FALSO_CERT = Certificate(products=(P(1, (0,)), P(1, (1,))))

# 11. Gram minor of three combined vectors, weighted, times a hypothesis, plus a square:
#     h0: s >= 0;  claim s*det Gram(a+b, c, a-c)*3/2 + (s-1)**2/4 >= 0, verbatim.
_G3 = Names(frozenset({"a", "b", "c"}), frozenset({"s"}))
_G3_VECTORS = tuple(parse_vector(text, _G3) for text in ("a + b", "c", "a - c"))
_S = parse_scalar("s", _G3)
GRAM3 = Step(
    _G3,
    Judgement(
        (Fact(_S, ">="),),
        Fact(
            sympy.expand(
                sympy.Rational(3, 2) * _S * gram_determinant(_G3_VECTORS)
                + sympy.Rational(1, 4) * (_S - 1) ** 2
            ),
            ">=",
        ),
        ("a", "b", "c"),
        ("s",),
    ),
)
GRAM3_CERT = Certificate(
    products=(
        P(Fraction(3, 2), (0,), (GramMinor(Fraction(1), _G3_VECTORS),)),
        P(1, (), (Square(Fraction(1, 4), _S - 1),)),
    )
)

# 12. Repeated strict hypothesis and a strict constant: h0: x > 0;  x**2 + 1 = h0*h0 + 1.
SQUARE_PLUS_ONE = step(["x > 0"], "x**2 + 1 > 0", scalars="x")
SQUARE_PLUS_ONE_CERT = Certificate(products=(P(1, (0, 0)), P(1)))

CASES: tuple[Case, ...] = (
    Case("norm-growth", NORM_GROWTH, NORM_GROWTH_CERT),
    Case("cauchy-schwarz", CAUCHY_SCHWARZ, CAUCHY_SCHWARZ_CERT),
    Case("lower-bound", LOWER_BOUND, LOWER_BOUND_CERT),
    Case("combination", COMBINATION, COMBINATION_CERT),
    Case("optimal-step", OPTIMAL_STEP, OPTIMAL_STEP_CERT),
    Case("unit-identity", UNIT_IDENTITY, UNIT_IDENTITY_CERT),
    Case("strict-product", STRICT_PRODUCT, STRICT_PRODUCT_CERT),
    Case("strict-sum", STRICT_SUM, STRICT_SUM_CERT),
    Case("parallelogram", PARALLELOGRAM, PARALLELOGRAM_CERT),
    Case("cancel", CANCEL, CANCEL_CERT),
    Case("ex-falso", EX_FALSO, EX_FALSO_CERT),
    Case("gram3", GRAM3, GRAM3_CERT),
    Case("square-plus-one", SQUARE_PLUS_ONE, SQUARE_PLUS_ONE_CERT),
)

# The false step `|a+b|**2 <= |a|**2 + |b|**2` and a counterexample: a = b = (1,) gives 4 <= 2.
TRIANGLE_SQUARED = step([], "norm2(a + b) <= norm2(a) + norm2(b)", "a b")
TRIANGLE_SQUARED_CEX = Counterexample(
    scalars={}, vectors={"a": (Fraction(1),), "b": (Fraction(1),)}
)


def is_valid(judgement: Judgement, certificate: Certificate) -> bool:
    """Whether the kernel accepts `certificate` (tests of wrong certificates want a yes/no)."""
    try:
        check_certificate(judgement, certificate)
    except KernelError:
        return False
    return True
