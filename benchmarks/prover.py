"""Time the prover on THE shared case table (`tests/cases/steps.py`).

Per case: the verdict, the wall time of `decide` (target < 0.5 s for true steps, < 2 s for
refutations) and the median time of the kernel's own re-check of the evidence (target < 5 ms).
A script that prints figures; it never asserts on time.

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

from verify.kernel import Judgement, check_certificate, check_counterexample
from verify.prover import decide
from verify.verdict import Verdict

PROVE_BUDGET_S = 0.5
REFUTE_BUDGET_S = 2.0
KERNEL_BUDGET_MS = 5.0


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
    print(f"{'case':32} {'expected':10} {'verdict':8} {'decide s':>9} {'/budget':>8} "
          f"{'kernel ms':>10} {'/5ms':>6}")
    worst_prove = worst_refute = worst_kernel = 0.0
    for case in cases:
        judgement = judgement_of(case)
        verdict = decide(judgement, hints=hints_of(case), time_limit=args.time_limit)
        budget = PROVE_BUDGET_S if verdict.status == "proved" else REFUTE_BUDGET_S
        kernel_ms = float("nan")
        if verdict.status != "unknown":
            kernel_ms = median_ms(_recheck(judgement, verdict), args.runs)
            if verdict.status == "proved":
                worst_prove = max(worst_prove, verdict.seconds)
            else:
                worst_refute = max(worst_refute, verdict.seconds)
        if kernel_ms == kernel_ms:
            worst_kernel = max(worst_kernel, kernel_ms)
        print(f"{case.id:32} {case.expected:10} {verdict.status:8} {verdict.seconds:9.3f} "
              f"{verdict.seconds / budget:8.2f} {kernel_ms:10.2f} "
              f"{kernel_ms / KERNEL_BUDGET_MS:6.2f}")
    print(f"worst prove {worst_prove:.3f} s (budget {PROVE_BUDGET_S} s), "
          f"worst refute {worst_refute:.3f} s (budget {REFUTE_BUDGET_S} s), "
          f"worst kernel check {worst_kernel:.2f} ms (budget {KERNEL_BUDGET_MS} ms)")


if __name__ == "__main__":
    main()
