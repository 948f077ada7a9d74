"""Campaign throughput: exact inequality instances checked per second, and a full campaign.

Prints measured figures only (no asserts on time). Run: `python benchmarks/campaign.py
[--tiny]` (`--tiny`: toy sizes, the test suite's smoke run).
(1) vectorised evaluation of the canonical steps on ~10^6 prepared int64 rows;
(2) a full canonical campaign over the sources generated, tight and adversary (seeds printed);
(3) the time to refute the norm-growth step without its R2 term and shrink the counterexample.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.numeric.campaign import (
    SMALL,
    Runner,
    adversary,
    canonical_checks,
    engine_runner,
    evaluate_only,
    generated,
    run_campaign,
    tight,
    wrong_norm_growth,
)
from verify.numeric.instances import CompiledJudgement, InstanceBatch, Shrinker
from verify.vocabulary import Binding, rows


def _runner() -> tuple[Runner, str]:
    try:
        import perceptron.algorithms.online  # noqa: F401
    except ImportError:
        sys.path.insert(0, "tests/test_verify/numeric")
        from test_numeric_campaign import reference_run

        return reference_run, "reference loop (engine not installed)"
    return engine_runner, "perceptron.algorithms.online.run_online"


def prepared_batches(runner: Runner, target_rows: int, bindings: Sequence[Binding],
                     count: int = 400) -> dict[Binding, InstanceBatch]:
    """Rows of small planted runs for every binding the checks use, repeated up to
    `target_rows` per binding (all int64)."""
    parts: dict[Binding, list[InstanceBatch]] = {binding: [] for binding in bindings}
    for scenario in generated(seed=1, count=count):
        run = runner(scenario)
        for binding, bucket in parts.items():
            batch = rows(run, binding, scenario.origin)
            if len(batch) and batch.magnitude() < SMALL:
                bucket.append(batch)
    out = {}
    for binding, bucket in parts.items():
        once = InstanceBatch.concat(bucket)
        copies = max(1, target_rows // len(once))
        out[binding] = InstanceBatch.concat([once] * copies)
    return out


@dataclass(frozen=True)
class Size:
    """How much each part of the benchmark does."""

    rows: int = 1_000_000
    planted: int = 400
    generated: int = 3500
    tight: int = 2600
    adversary_bounds: int = 30
    sweeps: int = 23


FULL = Size()
TINY = Size(rows=2000, planted=10, generated=5, tight=5, adversary_bounds=3, sweeps=1)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiny", action="store_true", help="toy sizes (a smoke run)")
    size = TINY if parser.parse_args(argv).tiny else FULL
    runner, runner_name = _runner()
    print(f"runner: {runner_name}")
    checks = canonical_checks()
    batches = prepared_batches(runner, size.rows, sorted({c.binding for c in checks}),
                               size.planted)
    assert all(c.num.dtype == np.int64 for b in batches.values() for c in b.scalars.values())
    instances, seconds = evaluate_only(checks, batches)
    print(f"(1) vectorised: {instances} exact instances of {len(checks)} steps in "
          f"{seconds:.3f} s = {instances / seconds:,.0f} instances/s "
          f"(ratio to the 10^6/s target: {instances / seconds / 1e6:.2f})")

    sources = {"generated": generated(seed=20_000, count=size.generated),
               "tight": tight(seed=30_000, count=size.tight),
               "adversary": adversary(seed=40_000, bounds=range(1, size.adversary_bounds + 1),
                                      sweeps=size.sweeps)}
    print("(2) full canonical campaign, seeds: generated 20000.., tight 30000.., "
          "adversary 40000..")
    result = run_campaign(checks, sources, runner=runner)
    for line in result.lines():
        print("   ", line)
    print(f"    {result.instances} instances, {result.runs} runs; total {result.total_seconds:.2f}"
          f" s, of which evaluation {result.evaluation_seconds:.2f} s "
          f"({result.rate:,.0f} instances/s incl. batching)")

    wrong = wrong_norm_growth()
    t0 = time.perf_counter()
    refuted = run_campaign([wrong], {"tight": tight(seed=8, count=20)}, runner=runner)
    verdict = refuted.verdicts[(wrong.name, "tight")]
    shrunk = Shrinker(CompiledJudgement.compile(wrong.judgement)).shrink(verdict.counterexample)
    elapsed = time.perf_counter() - t0
    print(f"(3) wrong step '{wrong.name}': {verdict.status}, {verdict.violations} violations; "
          f"shrunk to {shrunk} in {elapsed:.3f} s")


if __name__ == "__main__":
    main()
