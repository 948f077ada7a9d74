"""Columns are charged before they are expanded (red team 16 F1).

A Gram determinant used to be charged its terms after it was built, so the determinant of
dependent vectors, identically 0, was charged nothing however long its expansion took: four
multiples of one vector hint (`k*(a0 + ... + a19)*(v0 + ... + v3)`) made a Cauchy–Schwarz
step that the search proves in a second end by the clock (`time cap`), and the audit, which
has no clock, run past ten minutes. Now each column is charged a bound on its terms known
before expanding it (`Context.gram_size`, `Context.product_size`), so the work budget stops
the search, and Gram minors of evidently dependent vectors are not built at all.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import sympy
from cases.steps import Case, hints_of, judgement_of

from proofs.language.terms import Vec
from verify.kernel import check_certificate
from verify.prover import decide
from verify.search import sos
from verify.search.polynomials import Context
from verify.search.products import hypothesis_products
from verify.search.work import BUDGETS, DEFAULT_BUDGET, Exhausted, Work
from verify.verdict import Stop

SUM20 = " + ".join(f"a{i}" for i in range(20))
SCALARS20 = tuple(f"a{i}" for i in range(20))


def cauchy_schwarz(vectors: tuple[str, ...], scalars: tuple[str, ...], hints: tuple[str, ...],
                   claim: str = "dot(v0, v1)**2 <= norm2(v0)*norm2(v1)") -> Case:
    """Cauchy–Schwarz with the red team's hints (their `g0`/`g2`/`g3` files)."""
    return Case("cs-hints", vectors, scalars, (), claim, "proved", hints)


# g2: four multiples of one hint over four vectors (was `unknown` by the time cap)
G2 = cauchy_schwarz(("v0", "v1", "v2", "v3"), SCALARS20,
                    tuple(f"{k}*({SUM20})*(v0 + v1 + v2 + v3)" for k in range(1, 5)))
# g3, with 20 scalars where the red team had 40: three multiples of one vector name
G3 = cauchy_schwarz(("u", "v"), SCALARS20, tuple(f"{k}*({SUM20})*v" for k in range(1, 4)),
                    claim="dot(u, v)**2 <= norm2(u)*norm2(v)")
G0 = replace(G2, hints=())


def _stops(verdict_stops: tuple[Stop, ...]) -> set[str]:
    return {stop.kind for stop in verdict_stops}


def test_cauchy_schwarz_without_hints_is_still_proved_at_the_small_budget() -> None:
    judgement = judgement_of(G0)
    verdict = decide(judgement, budget=BUDGETS["small"])
    assert verdict.status == "proved"
    check_certificate(judgement, verdict.certificate)


def test_multiples_of_one_hint_stop_on_the_budget_not_the_clock() -> None:
    """g2 at the small budget: the pairs `(v_i, hint)` (each a 6 400-term entry) are
    charged before they are built, and exhaust the term budget; the guard (a defence only)
    is never what stops it."""
    verdict = decide(judgement_of(G2), hints=hints_of(G2), budget=BUDGETS["small"],
                     guard=3600.0)
    assert verdict.status == "unknown"
    assert "time-cap" not in _stops(verdict.stops)
    assert "exhausted" in _stops(verdict.stops)
    assert f"hypothesis products: term budget {BUDGETS['small'].terms} exhausted" \
        in verdict.message


def test_multiples_of_one_vector_are_left_out_and_the_step_is_proved() -> None:
    """g3: every hint is a multiple of `v`, so every minor with two of them, or with `v` and
    one, is identically 0 and not built; `<u,u><v,v> - <u,v>**2` is, and proves the step."""
    judgement, hints = judgement_of(G3), hints_of(G3)
    verdict = decide(judgement, hints=hints, budget=BUDGETS["small"], guard=3600.0)
    assert verdict.status == "proved"
    check_certificate(judgement, verdict.certificate)
    ctx = Context(judgement, hints, Work(DEFAULT_BUDGET))
    built = [term.sigma[0].vectors for term in sos.gram_minors(ctx, 8)]
    u, v = Vec.named("u"), Vec.named("v")
    assert built == [(u, v), *((u, h) for h in ctx.vector_hints)]


def _built_minors(ctx: Context, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Vec, ...]]:
    """The combinations whose Gram determinant `ctx` expands (recorded as it does)."""
    built: list[tuple[Vec, ...]] = []
    expand = ctx.gram_det

    def recording(vectors: tuple[Vec, ...]) -> object:
        built.append(tuple(vectors))
        return expand(vectors)

    monkeypatch.setattr(ctx, "gram_det", recording)
    return built


def test_a_minor_over_the_budget_is_refused_before_it_is_expanded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a term budget below the first pair's `gram_size`, nothing is expanded."""
    judgement, hints = judgement_of(G2), hints_of(G2)
    ctx = Context(judgement, hints)
    pool = sos.vector_pool(ctx)
    sizes = [ctx.gram_size(pair) for pair in [(pool[0], pool[4]), (pool[0], pool[1])]]
    assert sizes == [2 * 6400, 2]  # `<h,h>`: 16 pairs of 20-term coefficients
    sos._SHARED.clear()
    ctx = Context(judgement, hints, Work(replace(DEFAULT_BUDGET, terms=13)))
    built = _built_minors(ctx, monkeypatch)
    with pytest.raises(Exhausted, match="term budget 13 exhausted"):
        sos.gram_minors(ctx, 8)
    # `v0` with each other name (2 terms each) fits; `v0` with the first hint is refused
    assert built == [(pool[0], pool[j]) for j in range(1, 4)]
    assert ctx.work.used["terms"] == 2 * 3 + 2 * 6400


def test_each_minor_is_charged_its_bound_before_it_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At each expansion the terms charged already include that column's `gram_size`, which
    bounds the terms it has (a determinant that cancels pays for its expansion all the
    same)."""
    a, b, c = (Vec.named(n) for n in "abc")
    hint = Vec({"a": sympy.Symbol("s"), "b": 1})
    case = Case("minors", ("a", "b", "c"), ("s",), (), "dot(a, c)**2 <= norm2(a)*norm2(c)",
                "proved", ("s*a + b",))
    sos._SHARED.clear()
    ctx = Context(judgement_of(case), hints_of(case), Work(DEFAULT_BUDGET))
    seen: list[tuple[int, int, int]] = []
    expand = ctx.gram_det

    def recording(vectors: tuple[Vec, ...]) -> object:
        before = ctx.work.used["terms"]
        poly = expand(vectors)
        seen.append((before, ctx.gram_size(vectors), len(poly)))
        return poly

    monkeypatch.setattr(ctx, "gram_det", recording)
    sos.gram_minors(ctx, 8)
    assert sos.vector_pool(ctx) == [a, b, c, hint]
    assert len(seen) == 9  # six pairs of four, and the triples but (a, b, hint) (a plane)
    charged = 0
    for before, size, terms in seen:
        charged += size
        assert before == charged  # this column's bound was charged before it was built
        assert terms <= size


def test_dependent_combinations_are_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """A zero vector, a multiple of a name by a polynomial, a rational multiple of a hint,
    and three vectors with rational coefficients in the span of two: each such Gram minor
    is identically 0, so it is not built; independent ones still are."""
    s = sympy.Symbol("s")
    case = Case("dependent", ("a", "b"), ("s",), (), "norm2(a) >= 0", "proved",
                ("s*(a + b)", "2*s*(a + b)", "s**2*a", "a - b"))
    sos._SHARED.clear()
    ctx = Context(judgement_of(case), hints_of(case), Work(DEFAULT_BUDGET))
    built = _built_minors(ctx, monkeypatch)
    sos.gram_minors(ctx, 8)
    a, b = Vec.named("a"), Vec.named("b")
    hs, h2s, hsa, diff = (Vec({"a": s, "b": s}), Vec({"a": 2 * s, "b": 2 * s}),
                          Vec({"a": s**2}), Vec({"a": 1, "b": -1}))
    assert sos.vector_pool(ctx) == [a, b, hs, h2s, hsa, diff]
    # every triple lies in the plane of a and b: only pairs are built
    assert built == [(a, b), (a, hs), (a, h2s), (a, diff), (b, hs), (b, h2s), (b, hsa),
                     (b, diff), (hs, hsa), (hs, diff), (h2s, hsa), (h2s, diff), (hsa, diff)]
    expand = Context(judgement_of(case), hints_of(case)).gram_det
    assert all(expand(pair) for pair in built)  # none of the built ones is identically 0
    assert not any(expand(combo) for combo in [(a, hsa), (hs, h2s), (a, b, hs)])  # these are


def test_a_large_hypothesis_product_is_refused_before_it_is_expanded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`hypothesis_products` charges a product its factors' term counts multiplied before
    building it: with the budget below that, the product is never expanded."""
    scalars = tuple(f"x{i}" for i in range(30))
    total = " + ".join(scalars)
    case = Case("products", (), scalars, (f"{total} >= 0", f"{total} - 1 >= 0"),
                f"({total})**2 >= 0", "proved")
    ctx = Context(judgement_of(case), (), Work(replace(DEFAULT_BUDGET, terms=200)))
    assert ctx.product_size((0, 1)) == 30 * 31
    expanded: list[tuple[int, ...]] = []
    product = ctx.hyp_product

    def recording(hyps: tuple[int, ...]) -> object:
        expanded.append(tuple(hyps))
        return product(hyps)

    monkeypatch.setattr(ctx, "hyp_product", recording)
    with pytest.raises(Exhausted, match="term budget 200 exhausted"):
        hypothesis_products(ctx, 2, 4)
    assert expanded == [(), (0,), (1,)]  # 1, and each hypothesis: 1 + 30 + 31 terms
