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


# -- gaps35: the seeds' proof steps as students and lecturers write them ----------------------
SEEDS35 = """
title = "seed steps as students write them (gaps35)"
vectors = ["w", "x", "u", "th", "ts", "xb", "th0", "w1", "w2", "x1", "x2", "x3", "z", "wa", "v"]
scalars = ["y", "R", "D", "g", "t", "k", "a", "b", "eta", "m", "c1", "c2", "y1", "y2", "y3",
           "K11", "K12", "K22", "K13", "K23", "K33", "f", "I", "R2", "A", "B", "n", "T", "c",
           "nw", "nth", "nu", "nts", "sk", "st", "sm", "h", "d", "L", "hl"]

[define]
nw = "norm(w)"
nth = "norm(th)"
nu = "norm(u)"
nts = "norm(ts)"
sk = "sqrt(k)"
st = "sqrt(t)"
sm = "sqrt(m)"
h = "max(0, -y*dot(w, x))"
d = "max(0, g - y*dot(u, x))"
L = "max(0, -y*dot(w, x))"
hl = "max(0, 1 - y*dot(w, x))"

[[step]]
id = "j-inner-update"
given = ["y*dot(x, u) >= g"]
claim = "dot(w + y*x, u) >= dot(w, u) + g"

[[step]]
id = "j-inner-update-twin"
given = ["y*dot(x, u) >= g"]
claim = "dot(w + y*x, u) >= dot(w, u) + 2*g"

[[step]]
id = "j-norm-expanded"
given = ["y**2 == 1", "norm2(x) == R**2"]
claim = "norm2(w + y*x) == norm2(w) + 2*y*dot(x, w) + R**2"

[[step]]
id = "j-norm-expanded-twin"
given = ["y**2 == 1", "norm2(x) == R**2"]
claim = "norm2(w + y*x) == norm2(w) - 2*y*dot(x, w) + R**2"

[[step]]
id = "j-norm-strict"
given = ["y**2 == 1", "norm2(x) <= R**2", "y*dot(x, w) < 0"]
claim = "norm2(w + y*x) < norm2(w) + R**2"

[[step]]
id = "j-cauchy-norm"
given = ["norm2(u) == 1", "dot(w, u) >= t*g", "t >= 0", "g > 0"]
claim = "nw >= t*g"

[[step]]
id = "j-cauchy-norm-twin"
given = ["norm2(u) <= 4", "dot(w, u) >= t*g", "t >= 0", "g > 0"]
claim = "nw >= t*g"

[[step]]
id = "j-final"
given = ["t*R**2 >= t**2*g**2", "g > 0", "t >= 0"]
claim = "t <= R**2/g**2"

[[step]]
id = "j-final-twin"
given = ["t*R**2 >= t**2*g**2", "g > 0", "t >= 0"]
claim = "t <= R**2/g"

# ---- seed 002 (CS229) ------------------------------------------------------------------

[[step]]
id = "c-mistake-norm"
given = ["dot(x, th)*y <= 0", "norm2(x) <= D**2", "y**2 == 1"]
claim = "norm2(th + y*x) <= norm2(th) + D**2"

[[step]]
id = "c-mistake-norm-sum"
given = ["y**2 == 1"]
claim = "norm2(th + y*x) == norm2(th) + norm2(x) + 2*y*dot(x, th)"

[[step]]
id = "c-mistake-norm-sum-twin"
given = ["y**2 == 1"]
claim = "norm2(th + y*x) == norm2(th) + norm2(x) + y*dot(x, th)"

[[step]]
id = "c-final-root"
given = ["sk*D >= nth", "nth >= dot(th, u)", "dot(th, u) >= k*g", "g > 0", "k >= 0"]
claim = "k <= (D/g)**2"

[[step]]
id = "c-final-root-twin"
given = ["sk*D >= nth", "nth >= dot(th, u)", "dot(th, u) >= k*g", "g > 0", "k >= 0"]
claim = "k <= D/g"

[[step]]
id = "c-final-squares"
given = ["nth**2 <= k*D**2", "nth >= k*g", "g > 0", "k >= 0"]
claim = "k <= (D/g)**2"

# ---- seed 003 (Telgarsky) --------------------------------------------------------------

[[step]]
id = "t-potential"
given = ["norm2(u) == 1", "nw > 0"]
claim = "1/2*norm2(w/nw - u) == 1 - dot(w/nw, u)"

[[step]]
id = "t-potential-twin"
given = ["norm2(u) == 1", "nw > 0"]
claim = "1/2*norm2(w/nw - u) == 1 - dot(w, u)"

[[step]]
id = "t-indicator"
given = ["I**2 == I", "I*dot(w, x*y) <= 0", "norm2(x*y) <= 1"]
claim = "norm2(w + I*x*y) <= norm2(w) + I"

[[step]]
id = "t-indicator-twin"
given = ["I**2 == I", "I*dot(w, x*y) <= 0", "norm2(x*y) <= 1"]
claim = "norm2(w + I*x*y) <= norm2(w)"

[[step]]
id = "t-final"
given = ["g*m <= dot(w, u)", "dot(w, u) <= nw", "nw**2 <= m", "g > 0"]
claim = "m <= 1/g**2"

[[step]]
id = "t-final-twin"
given = ["g*m <= dot(w, u)", "dot(w, u) <= nw", "nw**2 <= m", "g > 0"]
claim = "m <= 1/g"

[[step]]
id = "t-relu-subgradient"
given = ["y*dot(w, x) <= 0"]
claim = "h == -y*dot(w, x)"

# ---- seed 000 (Chan, batch with alpha_k) -----------------------------------------------

[[step]]
id = "b-expand-grouped"
given = []
claim = "norm2((th - ts) + a*xb) == norm2(th - ts) + 2*a*dot(th - ts, xb) + a**2*norm2(xb)"

[[step]]
id = "b-drop-mistakes"
given = ["dot(th, xb) <= 0", "a >= 0"]
claim = "norm2(th + a*xb - ts) <= norm2(th - ts) - 2*a*dot(ts, xb) + a**2*norm2(xb)"

[[step]]
id = "b-drop-mistakes-twin"
given = ["dot(th, xb) <= 0"]
claim = "norm2(th + a*xb - ts) <= norm2(th - ts) - 2*a*dot(ts, xb) + a**2*norm2(xb)"

[[step]]
id = "b-factored"
given = []
claim = "-2*a*dot(ts, xb) + a**2*norm2(xb) == a*(-2*dot(ts, xb) + a*norm2(xb))"

[[step]]
id = "b-negative-if"
given = ["a > 0", "norm2(xb) > 0", "a < 2*dot(ts, xb)/norm2(xb)"]
claim = "-2*a*dot(ts, xb) + a**2*norm2(xb) < 0"

[[step]]
id = "b-negative-if-twin"
given = ["a > 0", "norm2(xb) > 0", "a < 4*dot(ts, xb)/norm2(xb)"]
claim = "-2*a*dot(ts, xb) + a**2*norm2(xb) < 0"

[[step]]
id = "b-optimal-value"
given = ["a == dot(ts, xb)/norm2(xb)", "norm2(xb) > 0"]
claim = "-2*a*dot(ts, xb) + a**2*norm2(xb) == -dot(ts, xb)**2/norm2(xb)"

[[step]]
id = "b-optimal-value-twin"
given = ["a == dot(ts, xb)/norm2(xb)", "norm2(xb) > 0"]
claim = "-2*a*dot(ts, xb) + a**2*norm2(xb) == -2*dot(ts, xb)**2/norm2(xb)"

[[step]]
id = "b-ratio-radius"
given = ["dot(ts, xb) >= m*g", "m >= 1", "g > 0", "norm2(xb) <= m**2*R**2"]
claim = "dot(ts, xb)**2/norm2(xb) >= g**2/R**2"

[[step]]
id = "b-final"
given = ["k*g**2/R**2 < norm2(ts)", "g > 0", "R > 0"]
claim = "k < norm2(ts)*R**2/g**2"

[[step]]
id = "b-final-twin"
given = ["k*g**2/R**2 < norm2(ts)", "g > 0", "R > 0"]
claim = "k < norm2(ts)*R/g**2"

[[step]]
id = "b-zero-start"
given = ["norm2(th0) == 0"]
claim = "norm2(th0 - ts) == norm2(ts)"

[[step]]
id = "b-zero-start-twin"
given = ["norm2(th0) == 0"]
claim = "norm2(th0 - ts) == norm2(ts) + 1"

[[step]]
id = "b-scale-invariance"
given = ["a > 0", "dot(w, x) + b > 0"]
claim = "dot(a*w, x) + a*b > 0"

[[step]]
id = "b-scale-invariance-twin"
given = ["a >= 0", "dot(w, x) + b > 0"]
claim = "dot(a*w, x) + a*b > 0"

# ---- seed 004 (10-607) -----------------------------------------------------------------

[[step]]
id = "v-label-square"
given = ["y**2 == 1", "norm2(x) <= R**2"]
claim = "y**2*norm2(x) <= R**2"

[[step]]
id = "v-final-root"
given = ["k*g <= sk*R", "g > 0", "R > 0", "k >= 0"]
claim = "k <= (R/g)**2"

[[step]]
id = "v-final-root-twin"
given = ["k*g <= sk*R", "g > 0", "R > 0", "k >= 0"]
claim = "k <= R/g"

# ---- margin perceptron (beta), learning rate, voted/averaged, kernel ---------------------

[[step]]
id = "p-margin-norm"
given = ["y*dot(w, x) <= b", "y**2 == 1", "norm2(x) <= R**2"]
claim = "norm2(w + y*x) <= norm2(w) + 2*b + R**2"

[[step]]
id = "p-margin-norm-twin"
given = ["y*dot(w, x) <= b", "y**2 == 1", "norm2(x) <= R**2"]
claim = "norm2(w + y*x) <= norm2(w) + b + R**2"

[[step]]
id = "p-margin-bound"
given = ["t*g <= nw", "nw**2 <= t*(R**2 + 2*b)", "g > 0", "t >= 0", "b >= 0"]
claim = "t <= (R**2 + 2*b)/g**2"

[[step]]
id = "p-margin-bound-twin"
given = ["t*g <= nw", "nw**2 <= t*(R**2 + 2*b)", "g > 0", "t >= 0", "b >= 0"]
claim = "t <= (R**2 + b)/g**2"

[[step]]
id = "p-rate-invariance"
given = ["eta > 0", "y*dot(w, x) <= 0"]
claim = "y*dot(eta*w, x) <= 0"

[[step]]
id = "p-averaged-margin"
given = ["dot(w1, u) >= c1", "dot(w2, u) >= c2"]
claim = "dot((w1 + w2)/2, u) >= (c1 + c2)/2"

[[step]]
id = "p-averaged-convex"
given = []
claim = "norm2((w1 + w2)/2) <= (norm2(w1) + norm2(w2))/2"

[[step]]
id = "p-averaged-convex-twin"
given = []
claim = "norm2(w1 + w2) <= norm2(w1) + norm2(w2)"

[[step]]
id = "p-voted"
given = ["c1 >= 0", "c2 >= 0", "c1 + c2 > 0", "y*dot(w1, x) > 0", "y*dot(w2, x) > 0"]
claim = "y*dot(c1*w1 + c2*w2, x) > 0"

[[step]]
id = "p-voted-twin"
given = ["c1 >= 0", "c2 >= 0", "y*dot(w1, x) > 0", "y*dot(w2, x) > 0"]
claim = "y*dot(c1*w1 + c2*w2, x) > 0"

[[step]]
id = "p-kernel-score"
given = ["K13 == dot(x1, x3)", "K23 == dot(x2, x3)"]
claim = "dot(y1*x1 + y2*x2, x3) == y1*K13 + y2*K23"

[[step]]
id = "p-kernel-growth"
given = ["f == y1*K13 + y2*K23", "K13 == dot(x1, x3)", "K23 == dot(x2, x3)",
         "y3*f <= 0", "y3**2 == 1", "dot(x3, x3) <= R**2"]
claim = "norm2(y1*x1 + y2*x2 + y3*x3) <= norm2(y1*x1 + y2*x2) + R**2"

[[step]]
id = "p-kernel-growth-twin"
given = ["f == y1*K13 + y2*K23", "K13 == dot(x1, x3)", "K23 == dot(x2, x3)",
         "y3*f <= 0", "dot(x3, x3) <= R**2"]
claim = "norm2(y1*x1 + y2*x2 + y3*x3) <= norm2(y1*x1 + y2*x2) + R**2"

[[step]]
id = "p-kernel-gram"
given = ["K11 == dot(x1, x1)", "K12 == dot(x1, x2)", "K22 == dot(x2, x2)"]
claim = "K12**2 <= K11*K22"

[[step]]
id = "p-kernel-gram-twin"
given = ["K11 == dot(x1, x1)", "K12 == dot(x1, x2)", "K22 == dot(x2, x2)"]
claim = "K12 <= K11*K22"

[[step]]
id = "h-cosine"
given = ["norm2(u) == 1", "nw > 0"]
claim = "dot(w, u)/nw <= 1"

[[step]]
id = "h-cosine-twin"
given = ["norm2(u) == 1", "nw > 0"]
claim = "dot(w, u)/nw < 1"

[[step]]
id = "h-cosine-general"
given = ["nw > 0", "nu > 0"]
claim = "dot(w, u)/(nw*nu) <= 1"

[[step]]
id = "h-batch-division"
given = ["a == dot(ts, xb)/norm2(xb)", "dot(th, xb) <= 0", "dot(ts, xb) >= m*g", "m >= 1", "g > 0"]
claim = "norm2(th + a*xb - ts) <= norm2(th - ts) - dot(ts, xb)**2/norm2(xb)"

[[step]]
id = "h-batch-division-twin"
given = ["a == dot(ts, xb)/norm2(xb)", "dot(th, xb) <= 0", "norm2(xb) > 0"]
claim = "norm2(th + a*xb - ts) <= norm2(th - ts) - dot(ts, xb)**2/norm2(xb)"

[[step]]
id = "h-rate-norm"
given = ["eta > 0", "y*dot(w, x) <= 0", "y**2 == 1", "norm2(x) <= R**2"]
claim = "norm2(w + eta*y*x) <= norm2(w) + eta**2*R**2"

[[step]]
id = "h-rate-bound"
given = ["eta > 0", "t*eta*g <= nw", "nw**2 <= t*eta**2*R**2", "g > 0", "t >= 0"]
claim = "t <= R**2/g**2"

[[step]]
id = "h-rate-bound-twin"
given = ["eta > 0", "t*eta*g <= nw", "nw**2 <= t*eta*R**2", "g > 0", "t >= 0"]
claim = "t <= R**2/g**2"

[[step]]
id = "h-nonunit-bound"
given = ["dot(w, ts) >= t*g", "norm2(w) <= t*R**2", "g > 0", "t >= 0"]
claim = "t <= norm2(ts)*R**2/g**2"

[[step]]
id = "h-nonunit-bound-twin"
given = ["dot(w, ts) >= t*g", "norm2(w) <= t*R**2", "g > 0", "t >= 0"]
claim = "t <= R**2/g**2"

[[step]]
id = "h-nonunit-norm"
given = ["dot(w, ts) >= t*g", "norm2(w) <= t*R**2", "g > 0", "t >= 0"]
claim = "t <= nts**2*R**2/g**2"

[[step]]
id = "h-sqrt-divided"
given = ["k*g <= sk*R", "g > 0", "R > 0"]
claim = "sk <= R/g"

[[step]]
id = "h-sqrt-divided-twin"
given = ["k*g <= sk*R", "g > 0", "R > 0"]
claim = "sk < R/g"

[[step]]
id = "h-a-b-bound"
given = ["A*k <= nth", "nth <= B*sk", "A > 0", "k >= 0"]
claim = "k <= (B/A)**2"

[[step]]
id = "h-a-b-bound-twin"
given = ["A*k <= nth", "nth <= B*sk", "A > 0", "k >= 0"]
claim = "k <= B/A"

[[step]]
id = "h-telgarsky-root"
given = ["g*m <= dot(w, u)", "dot(w, u) <= nw", "nw <= sm", "g > 0"]
claim = "m <= 1/g**2"

[[step]]
id = "h-telgarsky-root-twin"
given = ["g*m <= dot(w, u)", "dot(w, u) <= nw", "nw <= sm", "g > 0"]
claim = "m <= 1/g"

[[step]]
id = "h-root-norm-square"
given = ["nth <= sk*D", "D > 0"]
claim = "norm2(th) <= k*D**2"

[[step]]
id = "h-root-norm-square-any-d"
given = ["nth <= sk*D"]
claim = "norm2(th) <= k*D**2"

[[step]]
id = "h-cs-chain"
given = ["norm2(u) == 1", "dot(th, u) >= k*g", "norm2(th) <= k*D**2", "g > 0", "k >= 0", "D >= 0"]
claim = "k*g <= sk*D"

[[step]]
id = "h-cs-chain-twin"
given = ["norm2(u) == 1", "dot(th, u) >= k*g", "norm2(th) <= k*D**2", "g > 0", "k >= 0", "D >= 0"]
claim = "k*g <= sk*D/2"

[[step]]
id = "h-margin-beta-rate"
given = ["y*dot(w, x) <= b", "y**2 == 1", "norm2(x) <= R**2", "eta > 0"]
claim = "norm2(w + eta*y*x) <= norm2(w) + 2*eta*b + eta**2*R**2"

[[step]]
id = "h-margin-beta-rate-twin"
given = ["y*dot(w, x) <= b", "y**2 == 1", "norm2(x) <= R**2", "eta > 0"]
claim = "norm2(w + eta*y*x) <= norm2(w) + eta*b + eta**2*R**2"

[[step]]
id = "h-strict-final"
given = ["t*g < nw", "nw**2 <= t*R**2", "g > 0", "t > 0"]
claim = "t < R**2/g**2"

[[step]]
id = "h-strict-final-twin"
given = ["t*g <= nw", "nw**2 <= t*R**2", "g > 0", "t > 0"]
claim = "t < R**2/g**2"

[[step]]
id = "h-projection"
given = ["norm2(u) == 1"]
claim = "norm2(w - dot(w, u)*u) == norm2(w) - dot(w, u)**2"

[[step]]
id = "h-projection-twin"
given = []
claim = "norm2(w - dot(w, u)*u) == norm2(w) - dot(w, u)**2"

[[step]]
id = "r-root-of-square-bound"
given = ["nth**2 <= k*D**2", "D >= 0"]
claim = "nth <= sk*D"

[[step]]
id = "r-root-of-square-bound-twin"
given = ["nth**2 <= k*D**2"]
claim = "nth <= sk*D"

[[step]]
id = "r-root-norm2"
given = ["norm2(th) <= k*D**2", "D >= 0"]
claim = "nth <= sk*D"

[[step]]
id = "r-root-norm2-twin"
given = ["norm2(th) <= k*D**2", "D >= 0"]
claim = "nth <= k*D"

[[step]]
id = "r-both-sides"
given = ["t**2*g**2 <= t*R**2", "t >= 0", "g > 0", "R > 0"]
claim = "t*g <= st*R"

[[step]]
id = "r-both-sides-twin"
given = ["t**2*g**2 <= t*R**2", "t >= 0", "g > 0", "R > 0"]
claim = "t*g <= t*R"

[[step]]
id = "r-norm-lower"
given = ["dot(w, u) >= t*g", "norm2(u) == 1", "t >= 0", "g > 0"]
claim = "norm2(w) >= t**2*g**2"

[[step]]
id = "r-geometric-margin"
given = ["y*dot(w, x) >= g*nw", "nw > 0"]
claim = "y*dot(w, x)/nw >= g"

[[step]]
id = "r-geometric-margin-twin"
given = ["y*dot(w, x) >= g*nw", "nw > 0"]
claim = "y*dot(w, x)/nw > g"

[[step]]
id = "r-projection-orthogonal"
given = ["norm2(u) == 1"]
claim = "dot(x - dot(x, u)*u, u) == 0"

[[step]]
id = "r-projection-orthogonal-twin"
given = []
claim = "dot(x - dot(x, u)*u, u) == 0"

[[step]]
id = "r-deviation"
given = []
claim = "y*dot(u, x) + d >= g"

[[step]]
id = "r-deviation-twin"
given = []
claim = "y*dot(u, x) >= g - d/2"

[[step]]
id = "r-loss-active"
given = ["y*dot(w, x) < 0"]
claim = "L == -y*dot(w, x)"

[[step]]
id = "r-loss-inactive"
given = ["y*dot(w, x) > 0"]
claim = "L == 0"

[[step]]
id = "r-loss-inactive-twin"
given = ["y*dot(w, x) > 0"]
claim = "L > 0"

[[step]]
id = "r-hinge-above-perceptron"
given = []
claim = "hl >= L"

[[step]]
id = "r-hinge-above-perceptron-twin"
given = []
claim = "hl <= L"

[[step]]
id = "r-hinge-bound"
given = []
claim = "hl <= L + 1"

[[step]]
id = "r-sign-unchanged"
given = ["a > 0"]
claim = "(a*dot(w, x) + a*b)*(dot(w, x) + b) >= 0"

[[step]]
id = "r-sign-unchanged-twin"
given = []
claim = "(a*dot(w, x) + a*b)*(dot(w, x) + b) >= 0"

[[step]]
id = "r-rate-twin-runs"
given = ["norm2(w2 - eta*w1) == 0"]
claim = "dot(w2, x) == eta*dot(w1, x)"

[[step]]
id = "r-rate-twin-runs-twin"
given = ["norm2(w2 - eta*w1) == 0"]
claim = "dot(w2, x) == dot(w1, x)"

[[step]]
id = "r-rate-same-sign"
given = ["norm2(w2 - eta*w1) == 0", "eta > 0", "y*dot(w1, x) <= 0"]
claim = "y*dot(w2, x) <= 0"

[[step]]
id = "r-rate-same-sign-twin"
given = ["norm2(w2 - eta*w1) == 0", "y*dot(w1, x) <= 0"]
claim = "y*dot(w2, x) <= 0"

[[step]]
id = "n-eta-beta-bound"
given = ["t*eta*g <= nw", "nw**2 <= t*(eta**2*R**2 + 2*eta*b)", "g > 0", "eta > 0",
         "t >= 0", "b >= 0"]
claim = "t <= (R**2 + 2*b/eta)/g**2"

[[step]]
id = "n-eta-beta-bound-twin"
given = ["t*eta*g <= nw", "nw**2 <= t*(eta**2*R**2 + 2*eta*b)", "g > 0", "eta > 0",
         "t >= 0", "b >= 0"]
claim = "t <= (R**2 + 2*b)/g**2"

[[step]]
id = "n-averaged-divided"
given = ["dot(wa, u) >= T*g", "T > 0"]
claim = "dot(wa/T, u) >= g"

[[step]]
id = "n-averaged-divided-twin"
given = ["dot(wa, u) >= T*g"]
claim = "dot(wa/T, u) >= g"

[[step]]
id = "n-unit-normalised"
given = ["dot(v, u) >= g*nw", "nw > 0", "norm2(u) == 1"]
claim = "dot(v, u/1) >= g*nw"

[[step]]
id = "n-normalise-separator"
given = ["y*dot(x, v) >= g", "norm2(v) == n**2", "n > 0"]
claim = "y*dot(x, v/n) >= g/n"

[[step]]
id = "n-normalise-separator-twin"
given = ["y*dot(x, v) >= g", "norm2(v) == n**2"]
claim = "y*dot(x, v/n) >= g/n"

[[step]]
id = "n-normalised-unit"
given = ["norm2(v) == n**2", "n > 0"]
claim = "norm2(v/n) == 1"

[[step]]
id = "n-margin-scaled"
given = ["y*dot(x, v) >= g", "c > 0"]
claim = "y*dot(x, c*v) >= c*g"

[[step]]
id = "n-strict-mistake-growth"
given = ["y*dot(w, x) < 0", "y**2 == 1", "norm2(x) <= R**2", "eta > 0"]
claim = "norm2(w + eta*y*x) < norm2(w) + eta**2*R**2"

[[step]]
id = "n-strict-mistake-growth-twin"
given = ["y*dot(w, x) < 0", "y**2 == 1", "norm2(x) <= R**2"]
claim = "norm2(w + eta*y*x) < norm2(w) + eta**2*R**2"

[[step]]
id = "n-bias-augmented"
given = ["norm2(x) <= R**2"]
claim = "norm2(x) + 1 <= R**2 + 1"

[[step]]
id = "n-bias-radius"
given = ["norm2(x) <= R**2", "a**2 <= 1"]
claim = "norm2(x) + a**2 <= R**2 + 1"

[[step]]
id = "n-bias-cauchy"
given = []
claim = "(dot(w, x) + b*a)**2 <= (norm2(w) + b**2)*(norm2(x) + a**2)"

[[step]]
id = "n-bias-cauchy-twin"
given = []
claim = "(dot(w, x) + b*a)**2 <= norm2(w)*norm2(x) + b**2*a**2"
"""
"""Each proof step of the five source documents (../shared/seeds/) written as a user would,
no hints, in natural forms (expanded and factored, with divisions, norms and roots by their
definitions, strict and non-strict, the margin beta, the batch perceptron's alpha_k, the
kernel, voted and averaged perceptrons), each beside a false twin (a sign flipped, a factor
dropped). Ids: `j-` seed 001 (joeyonng), `c-` 002 (CS229), `t-` 003 (Telgarsky), `b-` 000
(Chan, batch), `v-` 004 (10-607), `p-` the perceptron's variants, `h-` and `r-` harder forms
of the same steps, `n-` normalising, averaging, a bias. Looped over by
tests/test_verify/search/students/test_students_seed_steps.py with `SEEDS35_EXPECTED`."""

SEEDS35_SUMS = """
title = "seed steps with sums, as students write them (gaps35)"
vectors = ["x", "u", "th", "ts", "z", "w"]
scalars = ["y", "R2", "g", "b", "eta", "n", "N", "T", "K", "c", "i", "I"]
naturals = ["n", "N", "T"]
indexed = ["x", "y", "K", "w", "c", "I"]

[sets]
M = { index = "j", range = "1..N", where = ["y[j]**2 == 1", "y[j]*dot(th, x[j]) <= 0"] }
G = { index = "j", range = "1..N", where = ["y[j]*dot(ts, x[j]) >= g"] }
B = { index = "j", range = "1..N", where = ["y[j]*dot(ts, x[j]) >= g", "norm2(x[j]) <= R2"] }
W = { index = "k", range = "1..T", where = ["dot(w[k], u) >= g*k"] }
Q = { index = "j", range = "1..N", where = ["K[j] == dot(x[j], z)"] }
P = { index = "j", range = "1..N", where = ["c[j] >= 0", "dot(w[j], u) >= g"] }

[sets.Mk]
index = "j"
range = "1..N"
where = ["y[j]**2 == 1", "y[j]*dot(th, x[j]) <= 0", "norm2(x[j]) <= R2",
         "y[j]*dot(ts, x[j]) >= g"]

[[step]]
id = "s-kernel-score"
claim = "dot(sum(i in 1..n, y[i]*x[i]), z) == sum(i in 1..n, y[i]*dot(x[i], z))"

[[step]]
id = "s-kernel-score-twin"
claim = "dot(sum(i in 1..n, y[i]*x[i]), z) == sum(i in 1..n, dot(x[i], z))"

[[step]]
id = "s-batch-mistakes"
claim = "dot(th, sum(j in M, y[j]*x[j])) <= 0"

[[step]]
id = "s-batch-mistakes-twin"
claim = "dot(th, sum(j in M, y[j]*x[j])) < 0"

[[step]]
id = "s-margin-range"
given = ["g > 0"]
claim = "sum(j in G, 1) <= N"

[[step]]
id = "s-margin-sum"
claim = "dot(ts, sum(j in G, y[j]*x[j])) >= g*sum(j in G, 1)"

[[step]]
id = "s-margin-sum-written"
claim = "sum(j in G, y[j]*dot(ts, x[j])) >= sum(j in G, g)"

[[step]]
id = "s-margin-sum-rate"
given = ["eta > 0"]
claim = "dot(ts, sum(j in G, eta*y[j]*x[j])) >= eta*g*sum(j in G, 1)"

[[step]]
id = "s-margin-sum-rate-twin"
claim = "dot(ts, sum(j in G, eta*y[j]*x[j])) >= eta*g*sum(j in G, 1)"

[[step]]
id = "s-margin-sum-twin"
claim = "dot(ts, sum(j in G, y[j]*x[j])) >= 2*g*sum(j in G, 1)"

[[step]]
id = "s-radius-sum"
claim = "sum(j in B, norm2(x[j])) <= R2*sum(j in B, 1)"

[[step]]
id = "s-radius-sum-twin"
claim = "sum(j in B, norm2(x[j])) <= R2"

[[step]]
id = "s-averaged-progress"
claim = "dot(sum(k in W, w[k]), u) >= g*sum(k in W, k)"

[[step]]
id = "s-averaged-progress-twin"
claim = "dot(sum(k in W, w[k]), u) >= g*sum(k in W, k + 1)"

[[step]]
id = "s-kernel-gram"
claim = "sum(j in Q, y[j]*K[j]) == dot(sum(j in Q, y[j]*x[j]), z)"

[[step]]
id = "s-kernel-gram-twin"
claim = "sum(j in Q, K[j]) == dot(sum(j in Q, y[j]*x[j]), z)"

[[step]]
id = "s-voted-sum"
claim = "dot(sum(j in P, c[j]*w[j]), u) >= g*sum(j in P, c[j])"

[[step]]
id = "s-voted-sum-twin"
claim = "dot(sum(j in P, c[j]*w[j]), u) >= g*sum(j in P, 1)"

[[step]]
id = "s-range-sum"
given = ["g > 0"]
claim = "sum(j in 1..N, g) == N*g"

[[step]]
id = "s-range-sum-twin"
claim = "sum(j in 1..N, g) == (N + 1)*g"

[[step]]
id = "m-batch-norm"
claim = "norm2(sum(j in Mk, y[j]*x[j])) <= sum(j in Mk, 1)**2*R2"

[[step]]
id = "m-ratio-sums"
given = ["sum(j in Mk, 1) >= 1", "R2 > 0"]
claim = "sum(j in Mk, g)**2/sum(j in Mk, R2) == sum(j in Mk, 1)*g**2/R2"

[[step]]
id = "m-ratio-sums-twin"
given = ["sum(j in Mk, 1) >= 1", "R2 > 0"]
claim = "sum(j in Mk, g)**2/sum(j in Mk, R2) == g**2/R2"

[[step]]
id = "m-indicator-count"
given = ["I[1]**2 == I[1]", "I[2]**2 == I[2]"]
claim = "sum(i in 1..2, I[i]) <= 2"

[[step]]
id = "m-margin-count"
given = ["g > 0"]
claim = "dot(ts, sum(j in Mk, y[j]*x[j]))**2 >= g**2*sum(j in Mk, 1)**2"

[[step]]
id = "m-margin-count-twin"
claim = "dot(ts, sum(j in Mk, y[j]*x[j]))**2 >= g**2*sum(j in Mk, 1)**2"

[[step]]
id = "m-mistake-sum-nonpositive"
claim = "sum(j in Mk, y[j]*dot(th, x[j])) <= 0"

[[step]]
id = "m-radius-from-batch"
claim = "sum(j in Mk, y[j]**2*norm2(x[j])) <= R2*sum(j in Mk, 1)"
"""
"""The seeds' steps with finite sums (Chan's mistakes' set M_k, Telgarsky's |M_t|, the kernel
perceptron's score, the averaged and voted perceptrons' sums), each beside a false twin."""

SEEDS35_INDUCTIONS = """
title = "seed steps, inductions"
vectors = ["w", "x", "u", "th", "ts", "s", "w0"]
scalars = ["y", "R", "g", "t", "k", "b", "eta", "I", "c", "D"]
naturals = ["t", "k"]

[[step]]
id = "i-eta-norm"
claim = "norm2(w) <= t*eta**2*R**2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2", "eta > 0"]
constants = ["R", "eta"]

[[step]]
id = "i-eta-norm-twin"
claim = "norm2(w) <= t*eta*R**2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2", "eta > 0"]
constants = ["R", "eta"]

[[step]]
id = "i-margin-norm"
claim = "norm2(w) <= t*(2*b + R**2)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= b", "norm2(x) <= R**2"]
constants = ["R", "b"]

[[step]]
id = "i-w0-norm"
claim = "norm2(w) <= norm2(w0) + t*R**2"
[step.induction]
variable = "t"
base = { w = "w0" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]
constants = ["R", "w0"]

[[step]]
id = "i-progress-from-w0"
claim = "dot(w, u) >= dot(w0, u) + t*g"
[step.induction]
variable = "t"
base = { w = "w0" }
step = { w = "w + y*x" }
given = ["y*dot(x, u) >= g"]
constants = ["u", "g", "w0"]

[[step]]
id = "i-indicator-norm"
claim = "norm2(w) <= c"
[step.induction]
variable = "t"
base = { w = "0*w", c = "0" }
step = { w = "w + I*y*x", c = "c + I" }
given = ["I**2 == I", "I*y*dot(w, x) <= 0", "norm2(y*x) <= 1"]
constants = []

[[step]]
id = "i-indicator-norm-twin"
claim = "norm2(w) <= c/2"
[step.induction]
variable = "t"
base = { w = "0*w", c = "0" }
step = { w = "w + I*y*x", c = "c + I" }
given = ["I**2 == I", "I*y*dot(w, x) <= 0", "norm2(y*x) <= 1"]
constants = []

[[step]]
id = "i-batch-distance"
claim = "norm2(th - ts) <= norm2(ts) - k*D"
[step.induction]
variable = "k"
base = { th = "0*th" }
step = { th = "th + eta*s" }
given = ["eta*norm2(s) == dot(ts, s)", "dot(th, s) <= 0", "dot(ts, s)**2 >= D*norm2(s)",
         "norm2(s) > 0"]
constants = ["ts", "D"]
"""
"""The seeds' "by a straightforward inductive argument", as an induction a student writes
(a learning rate, a margin beta, a start w0, Telgarsky's indicator), each beside a twin."""

SEEDS35_EXPECTED: dict[str, Expected] = {
    "j-inner-update": "proved",
    "j-inner-update-twin": "refuted",
    "j-norm-expanded": "proved",
    "j-norm-expanded-twin": "refuted",
    "j-norm-strict": "proved",
    "j-cauchy-norm": "proved",
    "j-cauchy-norm-twin": "refuted",
    "j-final": "proved",
    "j-final-twin": "refuted",
    "c-mistake-norm": "proved",
    "c-mistake-norm-sum": "proved",
    "c-mistake-norm-sum-twin": "refuted",
    "c-final-root": "proved",
    "c-final-root-twin": "refuted",
    "c-final-squares": "proved",
    "t-potential": "proved",
    "t-potential-twin": "refuted",
    "t-indicator": "proved",
    "t-indicator-twin": "refuted",
    "t-final": "proved",
    "t-final-twin": "refuted",
    "t-relu-subgradient": "proved",
    "b-expand-grouped": "proved",
    "b-drop-mistakes": "proved",
    "b-drop-mistakes-twin": "refuted",
    "b-factored": "proved",
    "b-negative-if": "proved",
    "b-negative-if-twin": "refuted",
    "b-optimal-value": "proved",
    "b-optimal-value-twin": "refuted",
    "b-ratio-radius": "proved",
    "b-final": "proved",
    "b-final-twin": "refuted",
    "b-zero-start": "proved",
    "b-zero-start-twin": "refuted",
    "b-scale-invariance": "proved",
    "b-scale-invariance-twin": "refuted",
    "v-label-square": "proved",
    "v-final-root": "proved",
    "v-final-root-twin": "refuted",
    "p-margin-norm": "proved",
    "p-margin-norm-twin": "refuted",
    "p-margin-bound": "proved",
    "p-margin-bound-twin": "refuted",
    "p-rate-invariance": "proved",
    "p-averaged-margin": "proved",
    "p-averaged-convex": "proved",
    "p-averaged-convex-twin": "refuted",
    "p-voted": "proved",
    "p-voted-twin": "refuted",
    "p-kernel-score": "proved",
    "p-kernel-growth": "proved",
    "p-kernel-growth-twin": "refuted",
    "p-kernel-gram": "proved",
    "p-kernel-gram-twin": "refuted",
    "h-cosine": "proved",
    "h-cosine-twin": "refuted",
    "h-cosine-general": "proved",
    "h-batch-division": "proved",
    "h-batch-division-twin": "refuted",
    "h-rate-norm": "proved",
    "h-rate-bound": "proved",
    "h-rate-bound-twin": "refuted",
    "h-nonunit-bound": "proved",
    "h-nonunit-bound-twin": "refuted",
    "h-nonunit-norm": "proved",
    "h-sqrt-divided": "proved",
    "h-sqrt-divided-twin": "refuted",
    "h-a-b-bound": "proved",
    "h-a-b-bound-twin": "refuted",
    "h-telgarsky-root": "proved",
    "h-telgarsky-root-twin": "refuted",
    "h-root-norm-square": "proved",
    "h-root-norm-square-any-d": "proved",
    "h-cs-chain": "proved",
    "h-cs-chain-twin": "refuted",
    "h-margin-beta-rate": "proved",
    "h-margin-beta-rate-twin": "refuted",
    "h-strict-final": "proved",
    "h-strict-final-twin": "refuted",
    "h-projection": "proved",
    "h-projection-twin": "refuted",
    "r-root-of-square-bound": "proved",
    "r-root-of-square-bound-twin": "refuted",
    "r-root-norm2": "proved",
    "r-root-norm2-twin": "refuted",
    "r-both-sides": "proved",
    "r-both-sides-twin": "refuted",
    "r-norm-lower": "proved",
    "r-geometric-margin": "proved",
    "r-geometric-margin-twin": "refuted",
    "r-projection-orthogonal": "proved",
    "r-projection-orthogonal-twin": "refuted",
    "r-deviation": "proved",
    "r-deviation-twin": "refuted",
    "r-loss-active": "proved",
    "r-loss-inactive": "proved",
    "r-loss-inactive-twin": "refuted",
    "r-hinge-above-perceptron": "proved",
    "r-hinge-above-perceptron-twin": "refuted",
    "r-hinge-bound": "proved",
    "r-sign-unchanged": "proved",
    "r-sign-unchanged-twin": "refuted",
    "r-rate-twin-runs": "proved",
    "r-rate-twin-runs-twin": "refuted",
    "r-rate-same-sign-twin": "refuted",
    "n-eta-beta-bound": "proved",
    "n-eta-beta-bound-twin": "refuted",
    "n-averaged-divided": "proved",
    "n-averaged-divided-twin": "not-proved",
    "n-unit-normalised": "proved",
    "n-normalise-separator": "proved",
    "n-normalise-separator-twin": "not-proved",
    "n-normalised-unit": "proved",
    "n-margin-scaled": "proved",
    "n-strict-mistake-growth": "proved",
    "n-strict-mistake-growth-twin": "refuted",
    "n-bias-augmented": "proved",
    "n-bias-radius": "proved",
    "n-bias-cauchy": "proved",
    "n-bias-cauchy-twin": "refuted",
    "s-kernel-score": "proved",
    "s-kernel-score-twin": "refuted",
    "s-batch-mistakes": "proved",
    "s-batch-mistakes-twin": "refuted",
    "s-margin-sum": "proved",
    "s-margin-sum-written": "proved",
    "s-margin-sum-rate": "proved",
    "s-margin-sum-rate-twin": "refuted",
    "s-margin-sum-twin": "refuted",
    "s-radius-sum": "proved",
    "s-radius-sum-twin": "refuted",
    "s-averaged-progress": "proved",
    "s-averaged-progress-twin": "refuted",
    "s-kernel-gram": "proved",
    "s-kernel-gram-twin": "refuted",
    "s-voted-sum": "proved",
    "s-voted-sum-twin": "refuted",
    "s-range-sum": "proved",
    "s-range-sum-twin": "refuted",
    "m-ratio-sums": "proved",
    "m-ratio-sums-twin": "refuted",
    "m-indicator-count": "proved",
    "m-margin-count": "proved",
    "m-margin-count-twin": "refuted",
    "m-mistake-sum-nonpositive": "proved",
    "m-radius-from-batch": "proved",
    "i-eta-norm": "proved",
    "i-eta-norm-twin": "refuted",
    "i-margin-norm": "proved",
    "i-w0-norm": "proved",
    "i-progress-from-w0": "proved",
    "i-indicator-norm": "proved",
    "i-indicator-norm-twin": "refuted",
    "i-batch-distance": "refuted",
}
"""The verdict each step of `SEEDS35`, `SEEDS35_SUMS` and `SEEDS35_INDUCTIONS` gets at the
default budget (gaps35); `not-proved` for a false twin left unknown (its counterexample divides
by zero, so it is no point of the statement as written)."""

SEEDS35_OPEN: dict[str, str] = {
    "r-rate-same-sign": "needs y**2 times the Gram minor of (w2 - eta*w1, x); no pool has it",
    "s-margin-range": "a filtered count below its range's: no sum rule compares two sets",
    "m-batch-norm": "the triangle inequality over a set: a double sum no lemma about one member "
                    "gives (finite-sums proves it with its cross terms written)",
}
"""True steps of the seeds still unknown at the default budget, and why: never refuted."""
