"""Steps whose constants lie beyond float range or span it (`verify.search.lp.equilibrate`).

A true step must not come back unknown because a float overflowed or underflowed: a small
LP with a wide coefficient is solved exactly (`verify.search.lp.exact_point`), a larger one scaled
by powers of two (exact) and its point un-scaled exactly. Each true step has a false
twin, which must never be proved. The verdicts are the prover's, and every certificate is
re-checked here by the kernel.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from cases.steps import Case, judgement_of
from hypothesis import given
from hypothesis import strategies as st

from verify.kernel import check_certificate
from verify.prover import decide
from verify.search import lp
from verify.search.lp import SCALINGS, equilibrate, exact_point
from verify.search.polynomials import Context
from verify.search.products import hypothesis_products
from verify.search.work import DEFAULT_BUDGET, Work

S = ("x", "y", "a", "b")
NORM = "norm2(w + y*x) <= norm2(w) + {}*norm2(x)"
NORM_GIVEN = ("y*dot(w, x) <= 0", "y**2 == 1")

# (id, given, claim, true claim?) over the scalars S; `norm` rows over vectors w, x
WIDE: tuple[tuple[str, tuple[str, ...], str, bool], ...] = (
    ("huge-lower", ("x >= 1e400",), "x >= 1e399", True),
    ("huge-lower-false", ("x >= 1e399",), "x >= 1e400", False),
    ("tiny-double", ("x >= 1e-400",), "2*x >= 1e-400", True),
    ("tiny-double-false", ("x >= 1e-400",), "x >= 2*1e-400", False),
    ("sum-huge", ("x >= 1e300", "y >= 1e300"), "x + y >= 2*1e300", True),
    ("sum-huge-false", ("x >= 1e300", "y >= 1e300"), "x + y >= 3*1e300", False),
    ("mixed-scale", ("x >= 1e-300", "y >= 1e300"), "x + y >= 1e300 + 1e-300", True),
    ("mixed-scale-false", ("x >= 1e-300", "y >= 1e300"), "x + y >= 1e300 + 2*1e-300", False),
    ("huge-coeff", ("x >= 1", "y >= 1"), "1e400*x + y >= 1e400 + 1", True),
    ("huge-coeff-false", ("x >= 1", "y >= 1"), "1e400*x + y >= 1e400 + 2", False),
    ("strict-huge", ("x > 1e400",), "x > 1e399", True),
    ("strict-huge-false", ("x >= 1e400",), "x > 1e400", False),
    ("chain-huge", ("x >= 1e400*y", "y >= 1e-400"), "x >= 1", True),
    ("chain-huge-false", ("x >= 1e400*y", "y >= 1e-400"), "x >= 2", False),
    ("product-tiny", ("a >= 1e-300", "b >= 1e-300"), "a*b >= 1e-600", True),
    ("product-tiny-false", ("a >= 1e-300", "b >= 1e-300"), "a*b >= 1e-599", False),
    ("interval-huge", ("x <= 1e400", "x >= 0"), "x*x <= 1e400*x", True),
    ("interval-huge-false", ("x <= 1e400", "x >= 0"), "x*x <= 1e399*x", False),
    ("square-huge", (), "x**2 + 1e400 >= 2*1e200*x", True),
    ("square-huge-false", (), "x**2 + 1e400 >= 3*1e200*x", False),
    ("moderate-1e20", ("x >= 1e20",), "x >= 1e19", True),
    ("moderate-1e20-false", ("x >= 1e19",), "x >= 1e20", False),
    ("product-huge", ("a >= 0", "b >= 1e300"), "a*b + b >= 1e300", True),
    ("product-huge-false", ("a >= 0", "b >= 1e300"), "a*b + b >= 1e301", False),
    ("norm-huge", NORM_GIVEN, NORM.format("1e500"), True),
    ("norm-huge-false", NORM_GIVEN, NORM.format("1e-500"), False),
)
def case(given_facts: tuple[str, ...], claim: str) -> Case:
    """A step over the scalars S, or over `y` and the vectors w, x for a `norm2` claim."""
    if "norm2" in claim:
        return Case("wide", ("w", "x"), ("y",), given_facts, claim, "proved")
    return Case("wide", (), S, given_facts, claim, "proved")


@pytest.mark.parametrize(("given_facts", "claim", "true"), [row[1:] for row in WIDE],
                         ids=[row[0] for row in WIDE])
def test_wide_true_step_is_proved_and_false_twin_never(
    given_facts: tuple[str, ...], claim: str, true: bool
) -> None:
    judgement = judgement_of(case(given_facts, claim))
    result = decide(judgement)
    if true:
        assert result.status == "proved", result.message
        check_certificate(judgement, result.certificate)
    else:
        assert result.status != "proved"


def power_of_two(k: int) -> str:
    """`2**k` in the proof language (exponents are at most 16): `65536**b * 2**a`."""
    b, a = divmod(abs(k), 16)
    text = f"(65536**{b}*2**{a})"
    return text if k >= 0 else f"(1/{text})"


SCALES = st.one_of(
    st.integers(-400, 400).map(lambda k: f"1e{k}"),
    st.integers(-256, 256).map(power_of_two),
)
BASE = (
    (("x >= 3*{F}", "y >= 2*{F}"), "2*x + y >= 8*{F}"),
    (("x >= 1", "y >= 1"), "{F}*x + y >= {F} + 1"),
    (("x >= {F}*y", "y >= 1"), "x >= {F}"),
    (("x > {F}",), "3*x > 2*{F}"),
)


@pytest.mark.parametrize("base", range(len(BASE)))
@given(scale=SCALES)
def test_scaling_a_proved_linear_step_keeps_it_proved(base: int, scale: str) -> None:
    """Each base step is proved unscaled; its constants times 2**k or 10**k stay proved."""
    facts, claim = BASE[base]
    judgement = judgement_of(case(tuple(f.format(F=scale) for f in facts),
                                  claim.format(F=scale)))
    result = decide(judgement)
    assert result.status == "proved", (scale, result.message)
    check_certificate(judgement, result.certificate)


def test_equilibrate_centres_a_scalable_matrix() -> None:
    """Entries `2**(i - j)` (a rank-one exponent pattern) scale to exactly 1 under both."""
    entries = [(i, j, 900 * i - 700 * j) for i in range(3) for j in range(3)]
    for scaling in SCALINGS:
        rows, cols = equilibrate(entries, 3, 3, scaling)
        assert {e + rows[i] + cols[j] for i, j, e in entries} == {0}, scaling


def test_a_wide_lp_too_large_to_solve_exactly_is_scaled(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the exact LP off, the scaled float LPs alone prove the wide steps they can."""
    monkeypatch.setattr(lp, "EXACT_LP_ENTRIES", 0)
    for given_facts, claim in ((("x >= 1e400",), "x >= 1e399"),
                               (("x >= 1e-400",), "2*x >= 1e-400"),
                               (("a >= 1e-300", "b >= 1e-300"), "a*b >= 1e-600")):
        judgement = judgement_of(case(given_facts, claim))
        result = decide(judgement)
        assert result.status == "proved", (claim, result.message)
        check_certificate(judgement, result.certificate)


def test_exact_lp_says_infeasible_exactly() -> None:
    """`x >= 1e-400 |- x >= 2e-400` has no linear certificate: False, not None."""
    judgement = judgement_of(case(("x >= 1e-400",), "x >= 2*1e-400"))
    ctx = Context(judgement, (), Work(DEFAULT_BUDGET))
    terms = hypothesis_products(ctx, 1, 1)
    assert exact_point(ctx.gap, terms, [], strict=False, work=ctx.work) is False
    one = judgement_of(case(("x >= 1e-400",), "2*x >= 1e-400"))
    ctx = Context(one, (), Work(DEFAULT_BUDGET))
    found = exact_point(ctx.gap, hypothesis_products(ctx, 1, 1), [], strict=False,
                        work=ctx.work)
    assert found == ([Fraction(1, 10**400), Fraction(2)], [])  # 1e-400 * 1 + 2 * (x - 1e-400)
