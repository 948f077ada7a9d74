"""The shared table of proof steps with expected verdicts (pysmt `examples.py` style).

The prover's tests, the search-budget tests, the numeric checks and `benchmarks/prover.py`
loop over `CASES`. A step is written in the
proof-file language (docs/design.md §5). Expected verdicts:

* `proved`: true, and the prover must find a certificate the kernel accepts;
* `refuted`: false with a small rational counterexample, which must be found and re-checked;
* `not-proved`: false (or unprovable as stated) without an easy counterexample; the prover may
  say refuted or unknown, never proved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import sympy

from cases import judgement
from proofs.language.expressions import Names, parse_scalar, parse_vector
from proofs.language.terms import Vec
from verify.kernel import Judgement

Expected = Literal["proved", "refuted", "not-proved"]


@dataclass(frozen=True)
class Case:
    """One step: declarations, hypotheses, claim, expected verdict, optional hints."""

    id: str
    vectors: tuple[str, ...]
    scalars: tuple[str, ...]
    given: tuple[str, ...]
    claim: str
    expected: Expected
    hints: tuple[str, ...] = ()
    note: str = ""

    @property
    def names(self) -> Names:
        return Names(vectors=frozenset(self.vectors), scalars=frozenset(self.scalars))


def judgement_of(case: Case) -> Judgement:
    """The judgement of a case: each relation normalised to `gap (kind) 0`."""
    return judgement(case.given, case.claim, case.names, case.vectors, case.scalars)


def hints_of(case: Case) -> tuple[sympy.Expr | Vec, ...]:
    """The hints of a case: vector hints as `Vec`, the others as scalar expressions."""
    out: list[sympy.Expr | Vec] = []
    for text in case.hints:
        try:
            vector: Vec = parse_vector(text, case.names)
        except ValueError:
            out.append(parse_scalar(text, case.names))
        else:
            out.append(vector)
    return tuple(out)


NORM_GIVEN = ("y**2 == 1", "y*dot(w, x) <= 0", "dot(x, x) <= R**2")
LOWER_GIVEN = ("dot(u, u) == 1", "dot(w, u) >= t*g", "t >= 0", "g > 0")
COMBO_GIVEN = ("t > 0", "g > 0", "t**2*g**2 <= dot(w, w)", "dot(w, w) <= t*R**2")
OPTIMAL = "dot(v, v)*dot(w + a*v, w + a*v) >= dot(v, v)*dot(w, w) - dot(w, v)**2"
NORM_STEP_GIVEN = ("dot(w, w) <= t*R**2", "y*dot(w, x) <= 0", "y**2 == 1", "dot(x, x) <= R**2")
LOWER_STEP_GIVEN = ("dot(w, u) >= t*g", "y*dot(x, u) >= g")
BATCH = "norm2(th + a*xb - ts) == norm2(th - ts) + 2*a*dot(th - ts, xb) + a**2*norm2(xb)"
MARGIN_GIVEN = ("g > 0", "y*dot(x, u) >= g", "dot(u, u) == 1", "y**2 == 1", "dot(x, x) <= R**2")
GRAM3 = (
    "dot(a, a)*dot(b, b)*dot(c, c) + 2*dot(a, b)*dot(b, c)*dot(a, c) - dot(a, a)*dot(b, c)**2"
    " - dot(b, b)*dot(a, c)**2 - dot(c, c)*dot(a, b)**2 >= 0"
)

WX, WU, AB = ("w", "x"), ("u", "w"), ("a", "b")

CASES: tuple[Case, ...] = (
    # -- true steps ---------------------------------------------------------------------------
    Case(
        "norm-growth",
        WX,
        ("y", "R"),
        NORM_GIVEN,
        "dot(w + y*x, w + y*x) <= dot(w, w) + R**2",
        "proved",
    ),
    Case("cauchy-schwarz", AB, (), (), "dot(a, b)**2 <= dot(a, a)*dot(b, b)", "proved"),
    # a square of a scalar times a square the pools hold (`scaled squares`): each was unknown
    Case("scaled-norm-square", WX, ("c",), (), "c**2*norm2(w - x) >= 0", "proved",
         note="|c*w - c*x|^2"),
    Case("scaled-vector-norm", WX, ("c",), (), "norm2(c*w - c*x) >= 0", "proved"),
    Case("scaled-cauchy-schwarz", AB, ("c",), (),
         "c**2*dot(a, b)**2 <= c**2*dot(a, a)*dot(b, b)", "proved",
         note="the Gram minor of (c*a, b)"),
    Case("scaled-square-and-hypothesis", WX, ("c", "R"), ("norm2(x) <= R**2",),
         "c**2*norm2(w - x) + c**2*R**2 >= c**2*norm2(x)", "proved",
         note="a scaled square plus c**2 times a hypothesis"),
    Case("cancel-positive-factor", (), ("a", "b", "c"), ("c > 0", "c*a == c*b"), "a == b",
         "proved", note="issue 16: an equality with a multiplier (c > 0 cancels)"),
    Case("cancel-nonzero-square", (), ("a", "b", "c"), ("c**2 > 0", "c*a == c*b"), "a == b",
         "proved", note="the multiplier c**2: c*(c*a - c*b) = c**2*(a - b)"),
    Case("cancel-without-positivity", (), ("a", "b", "c"), ("c*a == c*b",), "a == b",
         "refuted", note="c = 0 cancels nothing"),
    Case("power-substitution", (), ("a", "b"), ("a == b",), "a**3 == b**3", "proved"),
    Case("lower-bound", WU, ("t", "g"), LOWER_GIVEN, "dot(w, w) >= t**2*g**2", "proved"),
    Case(
        "combination",
        ("w",),
        ("t", "g", "R"),
        COMBO_GIVEN,
        "t*g**2 <= R**2",
        "proved",
        note="needs the multiplier t",
    ),
    Case(
        "optimal-step",
        ("v", "w"),
        ("a",),
        (),
        OPTIMAL,
        "proved",
        note="the square (a*<v,v> + <w,v>)**2",
    ),
    Case(
        "unit-identity",
        WU,
        (),
        ("dot(w, w) == 1", "dot(u, u) == 1"),
        "1/2*norm2(w - u) == 1 - dot(w, u)",
        "proved",
    ),
    Case(
        "lower-bound-step",
        ("w", "x", "u"),
        ("y", "t", "g"),
        LOWER_STEP_GIVEN,
        "dot(w + y*x, u) >= (t + 1)*g",
        "proved",
    ),
    Case(
        "norm-step",
        WX,
        ("y", "t", "R"),
        NORM_STEP_GIVEN,
        "dot(w + y*x, w + y*x) <= (t + 1)*R**2",
        "proved",
    ),
    Case(
        "rate-norm-step",
        WX,
        ("y", "t", "R", "eta"),
        (
            "eta > 0",
            "dot(w, w) <= t*eta**2*R**2",
            "y*dot(w, x) <= 0",
            "y**2 == 1",
            "dot(x, x) <= R**2",
        ),
        "norm2(w + eta*y*x) <= (t + 1)*eta**2*R**2",
        "proved",
        note="learning rate eta",
    ),
    Case(
        "rate-lower-bound-step",
        ("w", "x", "u"),
        ("y", "t", "g", "eta"),
        ("eta > 0", "dot(w, u) >= t*eta*g", "y*dot(x, u) >= g"),
        "dot(w + eta*y*x, u) >= (t + 1)*eta*g",
        "proved",
    ),
    Case(
        "w0-lower-bound-step",
        ("w", "w0", "x", "u"),
        ("y", "t", "g"),
        ("dot(w, u) >= dot(w0, u) + t*g", "y*dot(x, u) >= g"),
        "dot(w + y*x, u) >= dot(w0, u) + (t + 1)*g",
        "proved",
        note="nonzero initial w0",
    ),
    Case(
        "w0-norm-step",
        ("w", "w0", "x"),
        ("y", "t", "R"),
        ("dot(w, w) <= dot(w0, w0) + t*R**2", *NORM_STEP_GIVEN[1:]),
        "norm2(w + y*x) <= dot(w0, w0) + (t + 1)*R**2",
        "proved",
    ),
    Case("batch-expansion", ("th", "xb", "ts"), ("a",), (), BATCH, "proved"),
    Case(
        "strict-norm-growth",
        WX,
        ("y", "R"),
        ("y**2 == 1", "y*dot(w, x) < 0", "dot(x, x) <= R**2"),
        "norm2(w + y*x) < dot(w, w) + R**2",
        "proved",
        note="update rule y<w,x> < 0",
    ),
    Case(
        "combination-without-g",
        ("w",),
        ("t", "g", "R"),
        ("t > 0", "t**2*g**2 <= dot(w, w)", "dot(w, w) <= t*R**2"),
        "t*g**2 <= R**2",
        "proved",
        note="g > 0 is not needed",
    ),
    Case("am-gm-vectors", AB, (), (), "dot(a, b) <= 1/2*(dot(a, a) + dot(b, b))", "proved"),
    Case("am-gm-scalars", (), ("a", "b"), (), "a**2 + b**2 >= 2*a*b", "proved"),
    Case("square-plus-one", (), ("s",), (), "s**2 + 1 > 0", "proved"),
    Case(
        "margin-below-radius",
        ("x", "u"),
        ("y", "g", "R"),
        MARGIN_GIVEN,
        "g**2 <= R**2",
        "proved",
        note="g <= y<x,u> <= |x| |u| <= R",
    ),
    Case("positive-step", ("v",), ("a",), ("a > 0", "dot(v, v) > 0"), "a*dot(v, v) > 0", "proved"),
    Case("gram-3", ("a", "b", "c"), (), (), GRAM3, "proved"),
    Case(
        "parallelogram",
        AB,
        (),
        (),
        "norm2(a + b) + norm2(a - b) == 2*norm2(a) + 2*norm2(b)",
        "proved",
    ),
    Case("triangle-squared", AB, (), (), "norm2(a + b) <= 2*norm2(a) + 2*norm2(b)", "proved"),
    Case(
        "lower-bound-hinted",
        WU,
        ("s",),
        ("dot(u, u) == 1", "dot(w, u) >= s", "s >= 0"),
        "dot(w, w) >= s**2",
        "proved",
        hints=("w - s*u",),
    ),
    # -- false steps --------------------------------------------------------------------------
    Case("scaled-norm-square-positive", WX, ("c",), (), "c**2*norm2(w - x) > 0", "refuted",
         note="c = 0, or w = x"),
    Case("scaled-norm-square-unscaled", WX, ("c",), (), "norm2(c*w - x) >= c**2", "refuted"),
    Case(
        "norm-growth-no-R",
        WX,
        ("y", "R"),
        NORM_GIVEN,
        "dot(w + y*x, w + y*x) <= dot(w, w)",
        "refuted",
        note="dropped R**2",
    ),
    Case(
        "norm-growth-reversed",
        WX,
        ("y", "R"),
        NORM_GIVEN,
        "dot(w + y*x, w + y*x) >= dot(w, w) + R**2",
        "refuted",
    ),
    Case(
        "norm-growth-no-label",
        WX,
        ("y", "R"),
        NORM_GIVEN[1:],
        "dot(w + y*x, w + y*x) <= dot(w, w) + R**2",
        "refuted",
        note="missing y**2 == 1",
    ),
    Case(
        "strict-norm-growth-weak",
        WX,
        ("y", "R"),
        NORM_GIVEN,
        "norm2(w + y*x) < dot(w, w) + R**2",
        "refuted",
        note="strict version of a tight bound",
    ),
    Case(
        "cauchy-schwarz-reversed",
        AB,
        (),
        (),
        "dot(a, b)**2 >= dot(a, a)*dot(b, b)",
        "refuted",
        note="needs dimension 2",
    ),
    Case("cauchy-schwarz-strict", AB, (), (), "dot(a, b)**2 < dot(a, a)*dot(b, b)", "refuted"),
    Case(
        "lower-bound-no-g",
        WU,
        ("t", "g"),
        LOWER_GIVEN[:3],
        "dot(w, w) >= t**2*g**2",
        "refuted",
        note="missing g > 0",
    ),
    Case(
        "lower-bound-no-t",
        WU,
        ("t", "g"),
        (*LOWER_GIVEN[:2], LOWER_GIVEN[3]),
        "dot(w, w) >= t**2*g**2",
        "refuted",
        note="missing t >= 0",
    ),
    Case(
        "lower-bound-no-unit",
        WU,
        ("t", "g"),
        LOWER_GIVEN[1:],
        "dot(w, w) >= t**2*g**2",
        "refuted",
        note="missing dot(u, u) == 1",
    ),
    Case("combination-strict", ("w",), ("t", "g", "R"), COMBO_GIVEN, "t*g**2 < R**2", "refuted"),
    Case("combination-reversed", ("w",), ("t", "g", "R"), COMBO_GIVEN, "t*g**2 >= R**2", "refuted"),
    Case(
        "optimal-step-dropped",
        ("v", "w"),
        ("a",),
        (),
        "dot(v, v)*dot(w + a*v, w + a*v) >= dot(v, v)*dot(w, w)",
        "refuted",
    ),
    Case("optimal-step-strict", ("v", "w"), ("a",), (), OPTIMAL.replace(">=", ">"), "refuted"),
    Case(
        "unit-identity-wrong",
        WU,
        (),
        ("dot(w, w) == 1", "dot(u, u) == 1"),
        "1/2*norm2(w - u) == 2 - dot(w, u)",
        "refuted",
    ),
    Case(
        "unit-identity-one-unit",
        WU,
        (),
        ("dot(w, w) == 1",),
        "1/2*norm2(w - u) == 1 - dot(w, u)",
        "refuted",
        note="u not unit",
    ),
    Case("triangle-no-factor", AB, (), (), "norm2(a + b) <= norm2(a) + norm2(b)", "refuted"),
    Case(
        "norm-step-no-R",
        WX,
        ("y", "t", "R"),
        NORM_STEP_GIVEN,
        "dot(w + y*x, w + y*x) <= t*R**2",
        "refuted",
    ),
    Case(
        "lower-bound-step-too-strong",
        ("w", "x", "u"),
        ("y", "t", "g"),
        (*LOWER_STEP_GIVEN, "g > 0"),
        "dot(w + y*x, u) >= (t + 2)*g",
        "refuted",
    ),
    Case(
        "batch-expansion-sign",
        ("th", "xb", "ts"),
        ("a",),
        (),
        BATCH.replace("+ 2*a", "- 2*a"),
        "refuted",
    ),
    Case(
        "rate-norm-step-eta",
        WX,
        ("y", "t", "R", "eta"),
        (
            "eta > 0",
            "dot(w, w) <= t*eta*R**2",
            "y*dot(w, x) <= 0",
            "y**2 == 1",
            "dot(x, x) <= R**2",
        ),
        "norm2(w + eta*y*x) <= (t + 1)*eta*R**2",
        "refuted",
        note="eta instead of eta**2",
    ),
    Case(
        "margin-no-unit",
        ("x", "u"),
        ("y", "g", "R"),
        tuple(g for g in MARGIN_GIVEN if g != "dot(u, u) == 1"),
        "g**2 <= R**2",
        "refuted",
    ),
    Case(
        "parallelogram-wrong",
        AB,
        (),
        (),
        "norm2(a + b) + norm2(a - b) == norm2(a) + norm2(b)",
        "refuted",
    ),
    Case("positive-step-no-vector", ("v",), ("a",), ("a > 0",), "a*dot(v, v) > 0", "refuted"),
    Case(
        "irrational-only",
        (),
        ("s",),
        ("s**2 == 2",),
        "s >= 0",
        "not-proved",
        note="false at s = -sqrt(2), but no rational point satisfies the hypothesis",
    ),
    # issue 28, item 2: monomials of any degree are atoms of linear reasoning
    Case("atom-degree-five", (), ("x", "a"), ("x <= a**5", "a**5 <= 1"), "x <= 1", "proved"),
    Case(
        "atom-learning-rate",
        (),
        ("x", "y", "eta", "t", "g"),
        ("x <= eta**2*t**2*g**2", "eta**2*t**2*g**2 <= 2*y"),
        "x <= 2*y",
        "proved",
        note="a squared margin times a squared learning rate: degree six, one atom",
    ),
    Case("atom-equality", (), ("x", "a"), ("x == a**5 + 1",), "x - a**5 >= 1", "proved"),
    # issue 28, item 1: Gram matrices that are not diagonally dominant (HOL Light sos.ml)
    Case("sdp-dense-quartic", (), ("x", "y"), (),
         "4*x**4 + 4*x**3*y - 7*x**2*y**2 - 2*x*y**3 + 10*y**4 >= 0", "proved"),
    Case("sdp-shifted-square", (), ("x",), (),
         "100*((2*x - 2)**2 + (x**3 - 8*x - 2)**2) - 588 >= 0", "proved"),
    Case("sdp-discriminant", (), ("a", "b", "c", "x"), ("a*x**2 + b*x + c == 0",),
         "b**2 - 4*a*c >= 0", "proved", note="an equality multiplier of degree one"),
    Case("sdp-strict", (), ("x", "y", "z"), (),
         "x**4 + y**4 + z**4 - 4*x*y*z + x + y + z + 3 > 0", "proved"),
    # gaps33: alpha_k's optimality with the step size cleared, no hint (a - alpha)*d
    Case("step-size-optimal-cleared", ("ts", "d"), ("alpha", "a"),
         ("alpha*norm2(d) == dot(ts, d)",),
         "-2*a*dot(ts, d) + a**2*norm2(d) >= -2*alpha*dot(ts, d) + alpha**2*norm2(d)",
         "proved", note="|(a - alpha)*d|^2 + 2*(a - alpha) times the equality"),
    Case("step-size-optimal-distance", ("th", "ts", "d"), ("alpha", "a"),
         ("alpha*norm2(d) == dot(ts - th, d)",),
         "norm2(th + a*d - ts) >= norm2(th + alpha*d - ts)", "proved"),
    Case("step-size-optimal-doubled", ("th", "ts", "d"), ("alpha", "a"),
         ("alpha*norm2(d) == 2*dot(ts - th, d)",),
         "norm2(th + a*d - ts) >= norm2(th + alpha*d - ts)", "refuted",
         note="twice the optimal step"),
)


ROOTS = """
title = "roots"
scalars = ["a", "n"]

[[step]]
id = "root"
given = ["a >= 0", "n >= 0", "n**2 <= a**2"]
claim = "n <= a"

[[step]]
id = "root-strict"
given = ["a >= 0", "n >= 0", "n**2 < a**2"]
claim = "n < a"
"""
"""Taking a square root, as a proof file: true steps that only the refutation form proves
(their negated claims contradict the hypotheses); the checker's and the Coq export's tests
share them, and add their own steps below them."""

EQUALITIES = """
title = "equalities"
scalars = ["x", "y", "z"]

[[step]]
id = "chain"
given = ["x <= 3*y", "y <= 2*z", "x >= 6*z"]
claim = "x == 3*y"

[[step]]
id = "sum-of-squares-zero"
given = ["x*x + y*y == 0"]
claim = "x == 0"

[[step]]
id = "sum-of-squares-nonpositive"
given = ["x*x + y*y <= 0"]
claim = "y == 0"
"""
"""Equalities that are no combination of the equalities among their hypotheses (Mathlib's
linarith.lean lines 145, 455 and 458): proved by antisymmetry, from certificates of `g >= 0`
and `-g >= 0` (directly for the chain, in refutation form for the squares); the checker's,
the renderers' and the Coq export's tests share them."""


UNSTATED = """
title = "unstated facts"
vectors = ["th", "ts", "d", "w", "u"]
scalars = ["alpha", "a", "mk", "g", "R2", "R", "t", "nw"]

[define]
nw = "norm(w)"

[[step]]
id = "batch-cleared"
given = ["alpha*norm2(d) == dot(ts, d)", "dot(th, d) <= 0", "dot(ts, d) >= g", "g > 0"]
claim = "norm2(th + alpha*d - ts) <= norm2(th - ts) - alpha*dot(ts, d)"

[[step]]
id = "batch-cleared-any-margin"
given = ["alpha*norm2(d) == dot(ts, d)", "dot(th, d) <= 0", "dot(ts, d) >= g"]
claim = "norm2(th + alpha*d - ts) <= norm2(th - ts) - alpha*dot(ts, d)"

[[step]]
id = "batch-radius"
given = ["alpha*norm2(d) == dot(ts, d)",
         "dot(th, d) <= 0",
         "dot(ts, d) >= g",
         "g > 0",
         "norm2(d) <= R2"]
claim = "R2*norm2(th + alpha*d - ts) <= R2*norm2(th - ts) - g**2"

[[step]]
id = "batch-radius-doubled"
given = ["alpha*norm2(d) == dot(ts, d)",
         "dot(th, d) <= 0",
         "dot(ts, d) >= g",
         "g > 0",
         "norm2(d) <= R2"]
claim = "R2*norm2(th + alpha*d - ts) <= R2*norm2(th - ts) - 2*g**2"

[[step]]
id = "radius-positive"
given = ["dot(ts, d) >= mk*g", "mk >= 1", "g > 0", "norm2(d) <= mk**2*R2"]
claim = "R2 > 0"

[[step]]
id = "radius-positive-no-mistake"
given = ["dot(ts, d) >= mk*g", "mk >= 0", "g > 0", "norm2(d) <= mk**2*R2"]
claim = "R2 > 0"

[[step]]
id = "batch-division"
given = ["alpha == dot(ts, d)/norm2(d)",
         "dot(th, d) <= 0",
         "dot(ts, d) >= mk*g",
         "mk >= 1",
         "g > 0",
         "norm2(d) <= mk**2*R2"]
claim = "norm2(th + alpha*d - ts) <= norm2(th - ts) - g**2/R2"

[[step]]
id = "decrease-ratio"
given = ["dot(ts, d) >= mk*g", "mk >= 1", "g > 0", "norm2(d) <= mk**2*R2"]
claim = "dot(ts, d)**2/norm2(d) >= g**2/R2"

[[step]]
id = "decrease-ratio-mk"
given = ["dot(ts, d) >= mk*g", "mk >= 1", "g > 0", "norm2(d) <= mk**2*R2"]
claim = "dot(ts, d)**2/norm2(d) >= mk*g**2/R2"

[[step]]
id = "mistake-bound"
given = ["norm2(u) == 1", "dot(w, u) >= t*g", "t >= 0", "g > 0", "norm2(w) <= t*R**2"]
claim = "t*g**2 <= R**2"

[[step]]
id = "mistake-bound-halved"
given = ["norm2(u) == 1", "dot(w, u) >= t*g", "t >= 0", "g > 0", "norm2(w) <= t*R**2"]
claim = "2*t*g**2 <= R**2"

[[step]]
id = "mistake-bound-division"
given = ["norm2(u) == 1", "dot(w, u) >= t*g", "t >= 0", "g > 0", "norm2(w) <= t*R**2"]
claim = "t <= R**2/g**2"

[[step]]
id = "mistake-bound-norm"
given = ["t*g <= nw", "norm2(w) <= t*R**2", "g > 0", "t >= 0"]
claim = "t <= R**2/g**2"

[[step]]
id = "step-size-optimal"
given = ["alpha*norm2(d) == dot(ts, d)"]
claim = "-2*a*dot(ts, d) + a**2*norm2(d) >= -2*alpha*dot(ts, d) + alpha**2*norm2(d)"

[[step]]
id = "step-size-optimal-distance"
given = ["alpha*norm2(d) == dot(ts - th, d)"]
claim = "norm2(th + a*d - ts) >= norm2(th + alpha*d - ts)"

[[step]]
id = "step-size-optimal-doubled"
given = ["alpha*norm2(d) == 2*dot(ts - th, d)"]
claim = "norm2(th + a*d - ts) >= norm2(th + alpha*d - ts)"
"""
"""True steps as students write them, each leaning on a fact it does not state (gaps33):
alpha_k >= 0 and norm2(d) > 0 from the step size cleared of its denominator, R2 > 0 from
norm2(d) > 0, the case t == 0 of a mistake bound divided by t, alpha_k's optimality without
the hint (a - alpha)*d; each true one was unknown at the default budget before the checker
found sign facts (`verify.search.lemmas.signs`), split on a scalar a hypothesis says is
>= 0, and scaled a norm by a difference; beside each, a false twin. Looped over by
tests/test_verify/search/lemmas/test_lemmas_signs.py with `UNSTATED_EXPECTED`."""

UNSTATED_EXPECTED: dict[str, Expected] = {
    "batch-cleared": "proved",
    "batch-cleared-any-margin": "refuted",  # g may be negative, alpha too
    "batch-radius": "proved",
    "batch-radius-doubled": "refuted",
    "radius-positive": "proved",
    "radius-positive-no-mistake": "refuted",  # mk = 0, d = 0, R2 = 0
    "batch-division": "proved",
    "decrease-ratio": "proved",
    "decrease-ratio-mk": "refuted",  # the seed's |M_k| gamma^2/R2 (canonical-batch)
    "mistake-bound": "proved",
    "mistake-bound-halved": "refuted",
    "mistake-bound-division": "proved",
    "mistake-bound-norm": "proved",
    "step-size-optimal": "proved",
    "step-size-optimal-distance": "proved",
    "step-size-optimal-doubled": "refuted",
}


RUNS = """
title = "margin perceptron norm growth"
vectors = ["w", "x"]
scalars = ["y", "t", "R", "beta", "eta"]
naturals = ["t"]

[[step]]
id = "margin-norm"
claim = "norm2(w) <= t*(2*beta + R**2)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R**2", "beta >= 0"]
constants = ["R", "beta"]

[[step]]
id = "margin-norm-without-2"
claim = "norm2(w) <= t*(beta + R**2)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R**2", "beta >= 0"]
constants = ["R", "beta"]

[[step]]
id = "margin-norm-rate"
claim = "norm2(w) <= t*eta*(2*beta + eta*R**2)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R**2", "beta >= 0", "eta > 0"]
constants = ["R", "beta", "eta"]

[[step]]
id = "margin-norm-rate-without-2"
claim = "norm2(w) <= t*eta*(beta + eta*R**2)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R**2", "beta >= 0", "eta > 0"]
constants = ["R", "beta", "eta"]
"""
"""The margin perceptron's norm growth (update on `y<w, x> <= beta`: each update adds at most
`2*beta + R**2` to `norm2(w)`), as an induction, and its twin without the factor 2 (newcomer
34 N5): false, refuted only by a run whose examples change (from 0: two updates on x = 1 reach
w = 2, then x = 1/2 has `y<w, x> = beta` and `norm2(w)` grows past `3*(beta + R**2)`); the
step case's point, replayed alone from 0, never breaks it. With a step size eta the same
holds, but the search's point has t = 1/2, from which no walk starts: left unknown, never
proved. Looped over by tests/test_verify/test_proof_checker_structure.py with `RUNS_EXPECTED`."""

RUNS_EXPECTED: dict[str, Expected] = {
    "margin-norm": "proved",
    "margin-norm-without-2": "refuted",
    "margin-norm-rate": "proved",
    "margin-norm-rate-without-2": "not-proved",
}
