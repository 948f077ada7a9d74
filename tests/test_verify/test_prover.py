"""The prover over THE shared case table: true steps proved, false steps never proved.

Every verdict's evidence is re-checked here by the kernel itself, independently of the
prover's own call, so a prover that skipped the kernel would fail these tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest
from cases.steps import CASES, Case, hints_of, judgement_of

from verify.kernel import (
    Certificate,
    Counterexample,
    Fact,
    Judgement,
    check_certificate,
    check_counterexample,
)
from verify.prover import decide
from verify.search.counterexamples import CounterexampleSearch
from verify.search.polynomials import Context
from verify.search.strategies import Strategy
from verify.verdict import Verdict

TRUE = [c for c in CASES if c.expected == "proved"]
FALSE = [c for c in CASES if c.expected != "proved"]
REFUTED = [c for c in CASES if c.expected == "refuted"]
NEEDS_TWO_DIMENSIONS = {"cauchy-schwarz-reversed"}

_VERDICTS: dict[str, Verdict] = {}


def verdict(case: Case) -> Verdict:
    """Decide each case once per test session (the prover is deterministic)."""
    if case.id not in _VERDICTS:
        _VERDICTS[case.id] = decide(judgement_of(case), hints=hints_of(case))
    return _VERDICTS[case.id]


def test_table_is_large_and_ids_are_unique() -> None:
    assert len(CASES) >= 30
    assert len({c.id for c in CASES}) == len(CASES)
    assert len(TRUE) >= 15 and len(REFUTED) >= 15


@pytest.mark.parametrize("case", TRUE, ids=lambda c: c.id)
def test_true_step_is_proved_with_a_kernel_checked_certificate(case: Case) -> None:
    result = verdict(case)
    assert result.status == "proved", result.message
    assert result.counterexample is None
    check_certificate(judgement_of(case), result.certificate)


@pytest.mark.parametrize("case", FALSE, ids=lambda c: c.id)
def test_false_step_is_never_proved(case: Case) -> None:
    result = verdict(case)
    assert result.status != "proved"
    assert result.certificate is None
    if case.expected == "refuted":
        assert result.status == "refuted", result.message
    if result.status == "unknown":
        assert "no certificate" in result.message


@pytest.mark.parametrize("case", REFUTED, ids=lambda c: c.id)
def test_counterexample_is_kernel_checked_and_shrunk(case: Case) -> None:
    cex = verdict(case).counterexample
    assert cex is not None
    judgement = judgement_of(case)
    check_counterexample(judgement, cex)
    dimensions = {len(v) for v in cex.vectors.values()}
    assert dimensions <= ({2} if case.id in NEEDS_TWO_DIMENSIONS else {1})
    values = [*cex.scalars.values(), *(x for v in cex.vectors.values() for x in v)]
    assert all(abs(x.numerator) <= 3 and x.denominator <= 2 for x in values)
    assert CounterexampleSearch(Context(judgement)).shrink(cex) == cex  # a fixpoint


def test_proved_verdict_reports_how_and_time() -> None:
    result = verdict(next(c for c in CASES if c.id == "norm-growth"))
    assert result.message.startswith("certificate by ")
    assert 0 <= result.seconds < 5


def test_guard_that_fires_means_unknown_saying_time_cap() -> None:
    case = next(c for c in CASES if c.id == "lower-bound")
    result = decide(judgement_of(case), guard=0.0)
    assert result.status == "unknown"
    assert result.message.startswith("time cap")


class _Bogus(Strategy):
    """A lying search: claims an empty certificate proves anything."""

    name = "bogus"

    def applies(self, ctx: Context) -> bool:
        return True

    def candidates(self, ctx: Context) -> Iterator[Certificate]:
        yield Certificate(products=())


def test_only_the_kernel_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("verify.prover.STRATEGIES", (_Bogus(),))
    case = next(c for c in CASES if c.id == "irrational-only")
    result = decide(judgement_of(case))
    assert result.status == "unknown"
    assert "kernel rejected a candidate from bogus" in result.message


def test_wrong_counterexample_is_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    zero = Fraction(0)
    not_a_counterexample = Counterexample({"y": zero, "R": zero}, {"w": (zero,), "x": (zero,)})
    monkeypatch.setattr(
        CounterexampleSearch, "search",
        lambda self, work, quick=False, shrink=True: not_a_counterexample,
    )
    monkeypatch.setattr(CounterexampleSearch, "solved_search",  # the other screen, too
                        lambda self, work: not_a_counterexample)
    monkeypatch.setattr("verify.prover.STRATEGIES", ())
    case = next(c for c in CASES if c.id == "norm-growth-no-R")
    result = decide(judgement_of(case))
    assert result.status == "unknown"
    assert "kernel rejected a counterexample" in result.message


def test_verdict_evidence_matches_status() -> None:
    with pytest.raises(ValueError):
        Verdict("proved", None, None, "", 0.0)
    with pytest.raises(ValueError):
        Verdict("unknown", Certificate(products=()), None, "", 0.0)
    with pytest.raises(ValueError):
        Verdict("refuted", None, None, "", 0.0)


def test_hypotheses_can_be_contradictory() -> None:
    import sympy

    t = sympy.Symbol("t")
    judgement = Judgement((Fact(t, ">"), Fact(-t, ">=")), Fact(t - 5, ">="), (), ("t",))
    result = decide(judgement)
    assert result.status == "proved"
    check_certificate(judgement, result.certificate)
