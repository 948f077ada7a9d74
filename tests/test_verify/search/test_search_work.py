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

from verify.kernel import Certificate, Fact, Judgement, check_certificate
from verify.prover import decide
from verify.search import sos
from verify.search.lp import Term, build_lp
from verify.search.polynomials import Context
from verify.search.strategies import Strategy
from verify.search.work import BUDGETS, DEFAULT_BUDGET, SearchBudget, Work
from verify.verdict import Verdict

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
