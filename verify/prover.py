"""`decide`: untrusted search plus the trusted kernel, giving a `Verdict` for one judgement.

Order of work: a quick counterexample screen in dimension 1 (milliseconds, catches most
false steps), then the certificate strategies cheapest first, then the full counterexample
search. The clock is checked between strategies and LP rounds; whatever the search claims,
only `kernel.check_certificate` makes a step proved and only `kernel.check_counterexample`
makes it refuted.
"""

from __future__ import annotations

from collections.abc import Sequence
from time import perf_counter

import sympy

from verify.kernel import Judgement
from proofs.terms import Vec
from verify import kernel
from verify.kernel import Certificate, Counterexample
from verify.search.counterexamples import CounterexampleSearch
from verify.search.polynomials import Context
from verify.search.strategies import STRATEGIES
from verify.verdict import Verdict

QUICK_SHARE = 0.1  # of the time limit, for the dimension-1 screen before the certificates


def decide(
    judgement: Judgement,
    *,
    hints: Sequence[sympy.Expr | Vec] = (),
    time_limit: float = 5.0,
) -> Verdict:
    """Prove or refute `judgement` within `time_limit` seconds, or say what was tried."""
    start = perf_counter()
    deadline = start + time_limit
    ctx = Context(judgement, hints)
    counterexamples = CounterexampleSearch(ctx)
    notes: list[str] = []

    def refuted(cex: Counterexample, how: str) -> Verdict | None:
        try:
            kernel.check_counterexample(judgement, cex)
        except kernel.KernelError as error:
            notes.append(f"kernel rejected a counterexample ({how}): {error}")
            return None
        return Verdict("refuted", None, cex, f"counterexample ({how})", perf_counter() - start)

    quick = counterexamples.search(min(deadline, start + QUICK_SHARE * time_limit), quick=True)
    if quick is not None and (verdict := refuted(quick, "dimension-1 screen")) is not None:
        return verdict
    for strategy in STRATEGIES:
        if perf_counter() > deadline:
            notes.append(f"time limit {time_limit:g}s reached before {strategy.name}")
            break
        if not strategy.applies(ctx):
            continue
        for certificate in strategy.candidates(ctx, deadline):
            if (verdict := _proved(judgement, certificate, strategy.name, start, notes)):
                return verdict
        notes.append(f"{strategy.name}: no certificate")
    found = counterexamples.search(deadline)
    if found is not None and (verdict := refuted(found, "search in dimensions 1-3")) is not None:
        return verdict
    notes.append("no counterexample among small rationals in dimensions 1-3")
    return Verdict("unknown", None, None, "; ".join(notes), perf_counter() - start)


def _proved(
    judgement: Judgement, certificate: Certificate, how: str, start: float, notes: list[str]
) -> Verdict | None:
    """A proved verdict if the kernel accepts `certificate`, else None (noting why)."""
    try:
        kernel.check_certificate(judgement, certificate)
    except kernel.KernelError as error:
        notes.append(f"kernel rejected a candidate from {how}: {error}")
        return None
    return Verdict("proved", certificate, None, f"certificate by {how}", perf_counter() - start)
