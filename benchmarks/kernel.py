"""Time the trusted kernel on the hand-written certificates of `tests/cases/certificates.py`.

Prints, per case, the median wall time of `check_certificate` over many runs (after one
warm-up, which also fills the ring cache) and its ratio to the 5 ms budget of issue 3.
A script that prints figures; it never asserts on time.

    python benchmarks/kernel.py [--runs N] [--tiny]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cases.certificates import CASES

from verify.kernel import check_certificate
from verify.kernel.algebra import polynomial_ring

BUDGET_MS = 5.0


def median_ms(case: object, runs: int) -> float:
    """Median of `runs` timed kernel checks of one case, in milliseconds."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        check_certificate(case.judgement, case.certificate)
        samples.append(time.perf_counter() - start)
    return 1000 * statistics.median(samples)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--tiny", action="store_true", help="two runs per case (a smoke run)")
    args = parser.parse_args(argv)
    runs = 2 if args.tiny else args.runs
    print(f"{'case':<18} {'cold ms':>8} {'median ms':>10} {'of 5 ms':>8}")
    worst = 0.0
    for case in CASES:
        polynomial_ring.cache_clear()
        start = time.perf_counter()
        check_certificate(case.judgement, case.certificate)
        cold = 1000 * (time.perf_counter() - start)
        ms = median_ms(case, runs)
        worst = max(worst, ms)
        print(f"{case.id:<18} {cold:>8.3f} {ms:>10.3f} {ms / BUDGET_MS:>8.1%}")
    print(f"worst median {worst:.3f} ms = {worst / BUDGET_MS:.1%} of the {BUDGET_MS:.0f} ms budget")


if __name__ == "__main__":
    main()
