"""Time the prover on THE shared case table (`tests/cases/steps.py`), against a naive search.

Per case: the verdict and wall time of `decide`, and of the peer measured in the same run on
the same judgement under the same work budget: a naive search that skips the prover's order
of work (no dimension-1 counterexample screen, no cheap strategies first) and hands the
largest LP, every column at once (`WeightedSquares`; equality claims: the exact linear solve),
to the kernel, then searches counterexamples in full. The ratio prover/naive is printed per
case and over the table, with the verdicts side by side, and the median time of the kernel's
own re-check of the evidence. A script that prints figures; it never asserts on time.

    python benchmarks/prover.py [--runs N] [--time-limit S] [--tiny]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cases.steps import CASES, hints_of, judgement_of

from verify.kernel import Judgement, KernelError, check_certificate, check_counterexample
from verify.prover import decide
from verify.search.counterexamples import CounterexampleSearch
from verify.search.polynomials import Context
from verify.search.strategies import EqualityClaim, WeightedSquares
from verify.search.work import DEFAULT_BUDGET, Exhausted, Work
from verify.verdict import Verdict


def naive(judgement: Judgement, hints: Sequence[object]) -> tuple[str, float]:
    """The peer: every LP column at once, then the full counterexample search (same budget,
    same kernel); returns its verdict and wall time."""
    start = time.perf_counter()
    work = Work(DEFAULT_BUDGET)
    ctx = Context(judgement, hints, work)  # type: ignore[arg-type]
    strategy = EqualityClaim() if judgement.claim.kind == "==" else WeightedSquares()
    try:
        for certificate in strategy.candidates(ctx):
            try:
                check_certificate(judgement, certificate)
                return "proved", time.perf_counter() - start
            except KernelError:
                continue
    except (Exhausted, OverflowError):
        pass
    try:
        found = CounterexampleSearch(ctx).search(work, quick=False)
    except Exhausted:
        found = None
    if found is not None:
        try:
            check_counterexample(judgement, found)
            return "refuted", time.perf_counter() - start
        except KernelError:
            pass
    return "unknown", time.perf_counter() - start


def median_ms(check: Callable[[], None], runs: int) -> float:
    """Median wall time of `runs` calls, in milliseconds (after one warm-up call)."""
    check()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        check()
        samples.append(time.perf_counter() - start)
    return 1000 * statistics.median(samples)


def _recheck(judgement: Judgement, verdict: Verdict) -> Callable[[], None]:
    """The kernel's re-check of a verdict's evidence, as a thunk to time."""
    if verdict.certificate is not None:
        certificate = verdict.certificate
        return lambda: check_certificate(judgement, certificate)
    counterexample = verdict.counterexample
    return lambda: check_counterexample(judgement, counterexample)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="kernel re-checks per case")
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--tiny", action="store_true",
                        help="the first three cases, two re-checks each (a smoke run)")
    args = parser.parse_args(argv)
    cases = CASES[:3] if args.tiny else CASES
    if args.tiny:
        args.runs = 2
    print(f"{'case':32} {'expected':10} {'verdict':8} {'decide s':>9} {'naive':8} "
          f"{'naive s':>8} {'ratio':>7} {'kernel ms':>10}")
    ours_total = naive_total = 0.0
    worst_prove = worst_refute = worst_kernel = 0.0
    for case in cases:
        judgement = judgement_of(case)
        verdict = decide(judgement, hints=hints_of(case), time_limit=args.time_limit)
        peer, peer_s = naive(judgement, hints_of(case))
        ours_total, naive_total = ours_total + verdict.seconds, naive_total + peer_s
        kernel_ms = float("nan")
        if verdict.status != "unknown":
            kernel_ms = median_ms(_recheck(judgement, verdict), args.runs)
            worst_kernel = max(worst_kernel, kernel_ms)
            if verdict.status == "proved":
                worst_prove = max(worst_prove, verdict.seconds)
            else:
                worst_refute = max(worst_refute, verdict.seconds)
        print(f"{case.id:32} {case.expected:10} {verdict.status:8} {verdict.seconds:9.3f} "
              f"{peer:8} {peer_s:8.3f} {verdict.seconds / peer_s:6.2f}x {kernel_ms:10.2f}")
    print(f"worst prove {worst_prove:.3f} s, worst refute {worst_refute:.3f} s, "
          f"worst kernel check {worst_kernel:.2f} ms")
    print(f"ratio prover/naive search over the {len(cases)} cases: {ours_total:.2f} s / "
          f"{naive_total:.2f} s = {ours_total / naive_total:.2f}x")

if __name__ == "__main__":
    main()
