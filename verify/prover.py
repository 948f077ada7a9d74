"""`decide`: untrusted search plus the trusted kernel, giving a `Verdict` for one judgement.

Order of work: a quick counterexample screen in dimension 1 (catches most false steps), then
the certificate strategies cheapest first, then the full counterexample search, one LP, and a
screen with the hypotheses' equalities solved for a name (`CounterexampleSearch.solved_search`:
defined roots), and for scalars only the claim's critical points (`critical_search`). Every
loop is
bounded by a work budget (`verify.search.work.SearchBudget`), never by the clock, so the same
judgement gets the same verdict on any machine under any load. The optional `guard` is a
wall-clock cap against hostile input only: when it fires the verdict is unknown with a message
starting `time cap`. Whatever the search claims, only `kernel.check_certificate` makes a step
proved and only `kernel.check_counterexample` makes it refuted.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from time import perf_counter

import sympy

from proofs.language.terms import Vec
from verify import kernel
from verify.kernel import Certificate, Counterexample, Judgement, atoms
from verify.relevance import Part, parts
from verify.search.counterexamples import CounterexampleSearch, linear_counterexample
from verify.search.polynomials import Context
from verify.search.strategies import BEFORE_SDP, STRATEGIES, Strategy, missing_factor
from verify.search.work import DEFAULT_BUDGET, Exhausted, SearchBudget, TimeCap, Work
from verify.verdict import Stop, Verdict


def decide(
    judgement: Judgement,
    *,
    hints: Sequence[sympy.Expr | Vec] = (),
    budget: SearchBudget = DEFAULT_BUDGET,
    guard: float | None = None,
    time_limit: float | None = None,
    shrink: bool = True,
    quick: bool = False,
) -> Verdict:
    """Prove or refute `judgement` within `budget`, or say what was tried and what ran out.

    `guard` (seconds) is a wall-clock cap against hostile input; None (the default) means none,
    and then the clock is never read while deciding. `time_limit` is accepted only so that
    callers written for the old clock-bounded search keep working: it is ignored, because a
    verdict must not depend on the time it took (pass `guard` for a cap). `shrink=False`
    leaves a counterexample as found: for callers that only ask whether one exists (the
    vacuity check), shrinking it (often most of the search's time) buys nothing. `quick`
    runs the certificate strategies before the SDP only (`BEFORE_SDP`), with no counterexample
    search and no advice: a first pass for a caller with another form of the same question to
    try before the costly rest (`proof_checker._antisymmetry`); unknown when it finds none.
    """
    del time_limit  # compatibility only; see the docstring
    start = perf_counter()
    work = Work(budget, guard)
    notes: list[str] = []
    stops: list[Stop] = []  # what `notes` say stopped the search, as kinds (`Stop`)
    try:
        if quick:
            verdict = _certified(judgement, hints, work, notes, start, stops, BEFORE_SDP)
            if verdict is None:
                return Verdict("unknown", None, None, "; ".join(notes), _since(start))
        else:
            verdict = _search(judgement, hints, work, notes, start, shrink, stops)
    except TimeCap as cap:
        return Verdict("unknown", None, None, "; ".join([str(cap), *notes]), _since(start),
                       stops=(*stops, Stop("time-cap")))
    if verdict is not None:
        return verdict
    return Verdict("unknown", None, None, "; ".join([*notes, *work.notes]), _since(start),
                   stops=(*stops, *work.stops, *_factor(judgement, hints, work)))


def _factor(judgement: Judgement, hints: Sequence[sympy.Expr | Vec], work: Work
            ) -> tuple[Stop, ...]:
    """The `factor` stop of an unknown judgement (`missing_factor`: a positive factor that
    clears the claim once some scalars are known > 0, checked by the kernel), on a count of
    its own (the whole budget: its LP is the size of the search's own, and at most
    `MAX_FACTOR_TRIALS` rounds of it are tried); none when there is none or its count runs
    out."""
    try:
        found = missing_factor(judgement, hints, work.fork())
    except (Exhausted, TimeCap):
        return ()
    return () if found is None else (found,)


def _search(
    judgement: Judgement,
    hints: Sequence[sympy.Expr | Vec],
    work: Work,
    notes: list[str],
    start: float,
    shrink: bool,
    stops: list[Stop],
) -> Verdict | None:
    """The proved or refuted verdict, or None with `notes` saying what was tried (and
    `stops` what stopped it short)."""
    ctx = Context(judgement, hints, work)
    counterexamples = CounterexampleSearch(ctx)

    def refuted(how: str, quick: bool) -> Verdict | None:
        try:
            cex = counterexamples.search(work, quick=quick, shrink=shrink)
        except Exhausted as exhausted:
            notes.append(f"counterexample search ({how}): {exhausted}")
            stops.append(Stop("exhausted"))
            return None
        return checked(cex, how)

    def checked(cex: Counterexample | None, how: str) -> Verdict | None:
        if cex is None:
            return None
        if not all(atoms.IDENT.fullmatch(n) for n in (*cex.scalars, *cex.vectors)):
            return None  # it values a member or a sum as a name: untrusted output, dropped
        cex = _padded(judgement, cex)
        try:
            kernel.check_counterexample(judgement, cex)
        except kernel.KernelError as error:
            notes.append(f"kernel rejected a counterexample ({how}): {error}")
            return None
        return Verdict("refuted", None, cex, f"counterexample ({how})", _since(start))

    if (verdict := refuted("dimension-1 screen", quick=True)) is not None:
        return verdict
    if verdict := _certified(judgement, hints, work, notes, start, stops, STRATEGIES):
        return verdict
    if (verdict := refuted("search in dimensions 1-3", quick=False)) is not None:
        return verdict
    if (verdict := checked(linear_counterexample(judgement, work.budget), "one LP")) is not None:
        return verdict
    # the last searches, each on a count of its own that the budget may run out: the
    # hypotheses' equalities solved for a name, then the claim's critical points (scalars)
    for search, named, how in (
            (counterexamples.solved_search, "equalities solved", "equalities solved"),
            (counterexamples.critical_search, "critical points",
             "at a critical point of the claim")):
        try:
            found = search(work)
        except Exhausted as exhausted:
            notes.append(f"counterexample search ({named}): {exhausted}")
            stops.append(Stop("exhausted"))
            found = None
        if (verdict := checked(found, how)) is not None:
            return verdict
    notes.append("no counterexample among small rationals in dimensions 1-3")
    return None


def _certified(judgement: Judgement, hints: Sequence[sympy.Expr | Vec], work: Work,
               notes: list[str], start: float, stops: list[Stop],
               strategies: Sequence[Strategy]) -> Verdict | None:
    """A proved verdict from `strategies` on the judgement's parts (`verify.relevance`), or
    None (noting why)."""
    found = parts(judgement, hints)
    for number, part in enumerate(found):
        # each part on its own count: its verdict cannot depend on the others (relevance.py)
        part_work = work.fork()
        where = f"part {number + 1} of {len(found)}: " if len(found) > 1 else ""
        if verdict := _certify(judgement, part, Context(part.judgement, hints, part_work),
                               start, notes, where, stops, strategies):
            return verdict
        notes.extend(f"{where}{note}" for note in part_work.notes)
        stops.extend(part_work.stops)
    return None


def _certify(judgement: Judgement, part: Part, ctx: Context, start: float, notes: list[str],
             where: str, stops: list[Stop], strategies: Sequence[Strategy]) -> Verdict | None:
    """`strategies`, cheapest first, on one part: a proved verdict or None (noting why,
    and in `stops` what stopped it short)."""
    for strategy in strategies:
        if not strategy.applies(ctx):
            continue
        try:
            for certificate in strategy.candidates(ctx):
                if verdict := _proved(judgement, part.lift(certificate), strategy.name, start,
                                      notes):
                    return verdict
        except Exhausted as exhausted:
            # the budgets are shared, so the later (costlier) strategies would run out too
            notes.append(f"{where}{strategy.name}: {exhausted}")
            stops.append(Stop("exhausted"))
            break
        except OverflowError:  # its float LP cannot hold a coefficient such as 1e400
            notes.append(f"{where}{strategy.name}: a coefficient beyond float range (the "
                         "LP's floats)")
            continue
        notes.append(f"{where}{strategy.name}: no certificate")
    return None


def _padded(judgement: Judgement, cex: Counterexample) -> Counterexample:
    """`cex` with the declared names the judgement does not mention set to 0 (the search
    values only the names it sees; a statement may still list the others, e.g. naturals)."""
    scalars = {**{name: Fraction(0) for name in judgement.scalars}, **cex.scalars}
    size = len(next(iter(cex.vectors.values()), (Fraction(0),)))
    vectors = {**{name: (Fraction(0),) * size for name in judgement.vectors}, **cex.vectors}
    return Counterexample(scalars, vectors)


def _proved(
    judgement: Judgement, certificate: Certificate, how: str, start: float, notes: list[str]
) -> Verdict | None:
    """A proved verdict if the kernel accepts `certificate`, else None (noting why)."""
    try:
        kernel.check_certificate(judgement, certificate)
    except kernel.KernelError as error:
        notes.append(f"kernel rejected a candidate from {how}: {error}")
        return None
    return Verdict("proved", certificate, None, f"certificate by {how}", _since(start))


def _since(start: float) -> float:
    """Seconds since `start`: reported in the verdict, never used to decide it."""
    return perf_counter() - start
