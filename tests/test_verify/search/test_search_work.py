"""Verdicts bounded by work, not time (issue 12 item 5): repeatable, blind to the clock.

The prover's budgets count work (columns, terms, LP size and iterations, points), so the same
judgement must get the same verdict, certificate and counterexample however slow the machine
is. The clock may only enter through the optional `guard`, and then the verdict says so.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import fields, replace

import pytest
import sympy
from cases.steps import CASES, Case, hints_of, judgement_of
from sympy.polys.rings import PolyElement

from proofs.language.terms import Vec
from verify.kernel import Certificate, Fact, Judgement, check_certificate
from verify.prover import decide
from verify.search import sos
from verify.search.lp import Term, build_lp
from verify.search.polynomials import Context
from verify.search.products import hypothesis_products
from verify.search.strategies import Strategy
from verify.search.work import BUDGETS, DEFAULT_BUDGET, Exhausted, SearchBudget, Work
from verify.verdict import Stop, Verdict

# every expected verdict, certificates of each strategy, counterexamples in 1 and 2 dimensions
SAMPLE = [c for i, c in enumerate(CASES) if i % 3 == 0 or c.expected == "not-proved"]
SAMPLE += [c for c in CASES if c.id in {"lower-bound", "cauchy-schwarz-reversed"}]


def evidence(verdict: Verdict) -> tuple[object, ...]:
    """Everything a verdict says except the time it took."""
    return (verdict.status, verdict.certificate, verdict.counterexample, verdict.message)


def case(case_id: str) -> Case:
    return next(c for c in CASES if c.id == case_id)


def test_sample_covers_every_expected_verdict() -> None:
    assert {c.expected for c in SAMPLE} == {"proved", "refuted", "not-proved"}


def test_same_verdicts_when_run_twice_and_with_or_without_a_guard() -> None:
    first = [evidence(decide(judgement_of(c), hints=hints_of(c))) for c in SAMPLE]
    again = [evidence(decide(judgement_of(c), hints=hints_of(c))) for c in SAMPLE]
    guarded = [evidence(decide(judgement_of(c), hints=hints_of(c), guard=3600.0))
               for c in SAMPLE]
    assert first == again == guarded
    assert {e[0] for e in first} == {"proved", "refuted", "unknown"}


class _SlowClock:
    """A clock that jumps an hour forward at every reading: a machine slowed to a crawl."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += 3600.0
        return self.now


def _slow_down(monkeypatch: pytest.MonkeyPatch) -> _SlowClock:
    clock = _SlowClock()
    for where in (time, "verify.prover", "verify.search.work"):
        for name in ("perf_counter", "monotonic"):
            if isinstance(where, str):
                monkeypatch.setattr(f"{where}.{name}", clock, raising=False)
            else:
                monkeypatch.setattr(where, name, clock)
    return clock


def test_a_slow_clock_changes_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = [evidence(decide(judgement_of(c), hints=hints_of(c))) for c in SAMPLE]
    clock = _slow_down(monkeypatch)
    slowed = [decide(judgement_of(c), hints=hints_of(c)) for c in SAMPLE]
    assert clock.readings > 0  # the clock did run (for the verdicts' `seconds`)
    assert [evidence(v) for v in slowed] == expected


def test_the_guard_is_the_only_way_the_clock_gets_in(monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_down(monkeypatch)
    verdict = decide(judgement_of(case("lower-bound")), guard=60.0)
    assert verdict.status == "unknown"
    assert verdict.message.startswith("time cap reached during ")


def test_time_limit_is_accepted_and_ignored() -> None:
    """Compatibility with callers of the clock-bounded prover: no limit decides anything."""
    judgement = judgement_of(case("lower-bound"))
    assert evidence(decide(judgement, time_limit=0.0)) == evidence(decide(judgement))


# -- budgets -----------------------------------------------------------------------------------


def test_candidate_budget_exhausted_is_named() -> None:
    verdict = decide(judgement_of(case("lower-bound")), budget=replace(DEFAULT_BUDGET,
                                                                       candidates=10))
    assert verdict.status == "unknown"
    assert "candidate budget 10 exhausted" in verdict.message


def test_term_budget_exhausted_is_named() -> None:
    verdict = decide(judgement_of(case("lower-bound")), budget=replace(DEFAULT_BUDGET, terms=20))
    assert verdict.status == "unknown"
    assert "term budget 20 exhausted" in verdict.message


def test_point_budget_exhausted_is_named() -> None:
    """One point cannot refute `cauchy-schwarz-reversed` (it needs two dimensions)."""
    verdict = decide(judgement_of(case("cauchy-schwarz-reversed")),
                     budget=replace(DEFAULT_BUDGET, points=1))
    assert verdict.status == "unknown"
    assert "point budget 1 exhausted" in verdict.message


def test_lp_over_the_size_budget_is_not_attempted() -> None:
    verdict = decide(judgement_of(case("lower-bound")), budget=replace(DEFAULT_BUDGET,
                                                                       lp_rows=3))
    assert verdict.status == "unknown"
    assert "over the LP size budget 3 x " in verdict.message


def _lp_needing_iterations() -> tuple[PolyElement, list[Term]]:
    """A feasible LP that HiGHS's presolve does not finish: 29 simplex iterations."""
    a, b, c = sympy.symbols("a b c")
    ctx = Context(Judgement((), Fact(a + b + c, ">="), (), ("a", "b", "c")))
    x, y, z = ctx.gens
    polys = [(p * x + q * y + r * z + i % 3 - 1) ** 2
             for i, (p, q, r) in enumerate(itertools.product(range(-2, 3), repeat=3))]
    target = sum(polys[5:40:3], ctx.ring.zero) + 7
    return target, [Term((), p) for p in polys if p]


def test_lp_iteration_budget_stops_the_solver_and_says_so() -> None:
    target, terms = _lp_needing_iterations()
    enough = Work(DEFAULT_BUDGET)
    lp = build_lp(target, terms, [], strict=False, work=enough)
    assert lp is not None and lp.solve(enough) is not None
    assert enough.used["lp_iterations"] > 1 and enough.notes == []
    starved = Work(replace(DEFAULT_BUDGET, lp_iterations=1))
    lp = build_lp(target, terms, [], strict=False, work=starved)
    assert lp is not None and lp.solve(starved) is None
    assert starved.notes == ["LP iteration budget 1 exhausted"]


def test_lp_is_deterministic() -> None:
    target, terms = _lp_needing_iterations()
    points = []
    for _ in range(3):
        work = Work(DEFAULT_BUDGET)
        lp = build_lp(target, terms, [], strict=False, work=work)
        assert lp is not None
        points.append(lp.solve(work))
    assert all(p is not None for p in points)
    for weights, free, scale, exponents in points[1:]:
        assert weights.tobytes() == points[0][0].tobytes()  # bit for bit
        assert free.tobytes() == points[0][1].tobytes() and scale == points[0][2]
        assert exponents == points[0][3] == (0,) * (len(terms) + 1)  # not wide: unscaled


def test_exhausted_candidates_end_the_certificate_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The budgets are shared: once one runs out the costlier strategies are not started."""

    class Counting(Strategy):
        name = "counting"
        calls = 0

        def applies(self, ctx: Context) -> bool:
            return True

        def candidates(self, ctx: Context) -> Iterator[Certificate]:
            Counting.calls += 1
            ctx.work.charge("candidates", 5)
            yield from ()

    monkeypatch.setattr("verify.prover.STRATEGIES", (Counting(), Counting(), Counting()))
    verdict = decide(judgement_of(case("irrational-only")),
                     budget=replace(DEFAULT_BUDGET, candidates=7))
    assert Counting.calls == 2
    assert "counting: candidate budget 7 exhausted" in verdict.message


def test_the_default_budget_leaves_room_on_a_hard_table_step() -> None:
    """`lower-bound` needs weighted squares; half the default budget still proves it."""
    judgement = judgement_of(case("lower-bound"))
    verdict = decide(judgement, budget=DEFAULT_BUDGET.scaled(0.5))
    assert verdict.status == "proved"
    check_certificate(judgement, verdict.certificate)


def test_scaled_budgets() -> None:
    doubled = DEFAULT_BUDGET.scaled(2)
    for field in fields(SearchBudget):
        assert getattr(doubled, field.name) == 2 * getattr(DEFAULT_BUDGET, field.name)
    assert DEFAULT_BUDGET.scaled(1e-9) == SearchBudget(1, 1, 1, 1, 1, 1, 1, 1)
    small, default, large = BUDGETS["small"], BUDGETS["default"], BUDGETS["large"]
    assert default == DEFAULT_BUDGET
    for field in fields(SearchBudget):
        # a count of 1 at the default (sdp_multipliers: the claim itself) cannot shrink
        floor = getattr(default, field.name) == 1
        assert getattr(small, field.name) < getattr(default, field.name) or floor
        assert getattr(default, field.name) < getattr(large, field.name)


@pytest.mark.parametrize("factor", [0, -1, float("nan"), float("inf"), "2"])
def test_bad_scale_factor_is_refused(factor: object) -> None:
    with pytest.raises(ValueError, match="budget factor"):
        DEFAULT_BUDGET.scaled(factor)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, -5, 1.5, True])
def test_bad_budget_count_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="positive integer"):
        replace(DEFAULT_BUDGET, points=value)


def test_shared_squares_charge_the_same_work_as_building_them() -> None:
    """A judgement charged less because an earlier one built its squares would make verdicts
    depend on the order of decisions; the shared lists replay their charges item by item."""
    judgement = judgement_of(case("lower-bound"))
    sos._SHARED.clear()
    used = []
    for _ in range(2):  # the first builds the shared lists, the second reuses them
        ctx = Context(judgement)
        columns = [*sos.norm_squares(ctx, 4), *sos.gram_minors(ctx, 4),
                   *sos.dsos_squares(ctx, ctx.gap)]
        used.append((dict(ctx.work.used), [t.poly for t in columns]))
    assert used[0] == used[1]
    assert used[0][0]["candidates"] > 0


def test_squares_expand_as_the_kernel_does() -> None:
    """The norm and DSOS squares are expanded as monomial dicts; their SymPy squares, built
    only for a certificate, must expand to the same polynomial."""
    ctx = Context(judgement_of(case("lower-bound")))
    columns = [*sos.norm_squares(ctx, 4), *sos.dsos_squares(ctx, ctx.gap)]
    assert len(columns) > 20
    for term in columns:
        (square,) = term.sigma
        assert ctx.sos(square) == term.poly


# ---- columns charged before they are expanded (red team 16 F1) ------------------------------
# Columns are charged before they are expanded (red team 16 F1).
#
# A Gram determinant used to be charged its terms after it was built, so the determinant of
# dependent vectors, identically 0, was charged nothing however long its expansion took: four
# multiples of one vector hint (`k*(a0 + ... + a19)*(v0 + ... + v3)`) made a Cauchy–Schwarz
# step that the search proves in a second end by the clock (`time cap`), and the audit, which
# has no clock, run past ten minutes. Now each column is charged a bound on its terms known
# before expanding it (`Context.gram_size`, `Context.product_size`), so the work budget stops
# the search, and Gram minors of evidently dependent vectors are not built at all.

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


def test_one_lp_solve_is_handed_the_seconds_left_of_the_time_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (closing note of 2026-11-28: `--time-limit` could be overshot by an LP,
    whose solver was not handed the clock as an SDP's is): the LP solver is handed the
    seconds left of the guard, and its running out is the time cap, said as such. None are
    left here (no clock decides the test): a step the LP proves without a cap is unknown,
    saying the time cap stopped an LP; without a guard nothing changes."""
    monkeypatch.setattr(Work, "seconds_left", lambda self: None if self.guard is None else 0.0)
    (case,) = [c for c in CASES if c.id == "strict-norm-growth"]
    j = judgement_of(case)
    capped = decide(j, guard=3600.0)
    assert capped.status == "unknown" and "time cap reached during an LP" in capped.message
    assert any(stop.kind == "time-cap" for stop in capped.stops)
    assert decide(j).status == "proved"
