"""Time the default audit: the whole command, and its symbolic and numeric halves apart.

Issue 30's first target: the default `novikoff audit` in at most a quarter of the time of the
version before the speed work, with the same verdicts and instance counts. This script
measures, each in a fresh process (imports counted alike):

- the command as a user runs it, `python -m verify audit --json --jobs N`: wall seconds,
  CPU-seconds of it and its worker processes (`RUSAGE_CHILDREN`, user + system), the
  largest resident set of any of them, and the verdict and instance counts of its JSON;
- the two halves, serially in one process after the plan is made (`verify.audit.job`): the
  symbolic half (every step of every proof, from the certificate store, kernel-checked) and
  the numeric half (every campaign shard), CPU-seconds and wall seconds each.

With `--user-proof` it times instead the issue-27 promise: a user's proof file the size of
canonical-online (a copy of it: the same campaign) audited through `novikoff audit FILE`
against `novikoff audit --only canonical-online`, alternating the two `--repeat` times.

It compares them with the figures the README recorded for the version before the speed work
(`BEFORE`, commit 0671f21: 47.0 s wall on an idle 2-core machine, 90.5 CPU-seconds). Timings
vary run to run on shared machines: read the ratios, run it `--repeat` times. It prints
figures only; it never asserts on time.

    python benchmarks/audit.py [--jobs N] [--repeat N] [--budget default|small] [--tiny]
                               [--user-proof]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The README's figures for the default audit before issue 30 (commit 0671f21, 2026-11-26).
BEFORE = {"wall": 47.0, "cpu": 90.5}
HALVES = """
import json, sys, time
from verify.audit.job import _admitted, _plan, _shard_verdicts, _symbolic, _tasks, targets
from verify.audit.membership import MEMBERSHIP
from verify.numeric.shards import merge
budget, ids = sys.argv[1], sys.argv[2:]
from proofs.library import PROOFS
plan = _plan(_admitted(targets(ids or list(PROOFS)), []), budget, 0, None)
figures = {}
wall, cpu = time.perf_counter(), time.process_time()
result = merge([_shard_verdicts(plan.checks, task) for task in _tasks(plan)])
figures["numeric"] = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                      "instances": sum(v.instances for (check, _), v in result.verdicts.items()
                                       if not check.endswith(MEMBERSHIP))}  # steps' own
wall, cpu = time.perf_counter(), time.process_time()
steps = sum(len(_symbolic(proof, None)) for proof in plan.proofs.values())
figures["symbolic"] = {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                       "steps": steps}
print(json.dumps(figures))
"""


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def command(jobs: int, budget: str, ids: list[str]) -> dict[str, float | int | str]:
    """The audit as a user runs it: wall, CPU of it and its workers, peak memory, counts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "verify", "audit", "--json", "--jobs",
                           str(jobs), "--budget", budget, *ids], capture_output=True,
                          text=True, env=_environment(), cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"audit exited {done.returncode}: {done.stderr.strip()[-500:]}")
    report = json.loads(done.stdout)
    statuses: dict[str, int] = {}
    instances = 0
    for proof in report["proofs"]:
        for step in proof["steps"]:
            status = step["symbolic"]["status"]
            statuses[status] = statuses.get(status, 0) + 1
            instances += (step.get("numeric") or {}).get("instances", 0)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "peak_mb": after.ru_maxrss / 1024,
            "verdicts": ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())),
            "instances": instances}


def halves(budget: str, ids: list[str]) -> dict[str, dict[str, float]]:
    """The symbolic and numeric halves, serially in one fresh process."""
    done = subprocess.run([sys.executable, "-c", HALVES, budget, *ids], capture_output=True,
                          text=True, env=_environment(), cwd=ROOT, check=True)
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def timed(arguments: list[str]) -> float:
    """Wall-clock seconds of one `novikoff` run (python -m verify), which must exit 0."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "verify", *arguments], cwd=ROOT, check=True,
                   env=_environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def user_proof(budget: str, repeat: int, jobs: int) -> None:
    """A copy of canonical-online audited as a user's file against `--only` (issue 27)."""
    common = ["--budget", budget, "--jobs", str(jobs)]
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "my-canonical-online.toml"
        shutil.copy(ROOT / "proofs" / "library" / "canonical-online.toml", copy)
        builtin, user = [], []
        for _ in range(repeat):
            builtin.append(timed(["audit", "--only", "canonical-online", *common]))
            user.append(timed(["audit", str(copy), *common]))
    for name, times in (("--only canonical-online", builtin), ("user file (a copy)", user)):
        print(f"{name:<26} median {statistics.median(times):6.2f} s  "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)})")


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--budget", default="default", choices=("small", "default", "large"))
    parser.add_argument("--tiny", action="store_true",
                        help="one small proof at the small budget, once (a smoke test)")
    parser.add_argument("--user-proof", action="store_true",
                        help="time a user's copy of canonical-online against --only (issue 27)")
    args = parser.parse_args(argv)
    if args.user_proof:
        user_proof("small" if args.tiny else args.budget, 1 if args.tiny else args.repeat,
                   args.jobs)
        return
    ids = ["nonseparable-freund-schapire"] if args.tiny else []
    budget = "small" if args.tiny else args.budget
    runs = []
    for index in range(1 if args.tiny else args.repeat):
        runs.append(found := command(args.jobs, budget, ids))
        print(f"run {index + 1}: {found['wall']:.1f} s wall, {found['cpu']:.1f} CPU-s, "
              f"peak {found['peak_mb']:.0f} MB; {found['verdicts']}; "
              f"{_thousands(int(found['instances']))} instances")
    split = halves(budget, ids)
    print(f"symbolic half (serial, one process): {split['symbolic']['cpu']:.1f} CPU-s, "
          f"{split['symbolic']['wall']:.1f} s wall, {split['symbolic']['steps']} steps")
    print(f"numeric half (serial, one process): {split['numeric']['cpu']:.1f} CPU-s, "
          f"{split['numeric']['wall']:.1f} s wall, "
          f"{_thousands(int(split['numeric']['instances']))} instances")
    same = all(r["instances"] == split["numeric"]["instances"] for r in runs)
    print(f"same instance count serially and with {args.jobs} jobs: {'yes' if same else 'NO'}")
    wall = statistics.median(float(r["wall"]) for r in runs)
    cpu = statistics.median(float(r["cpu"]) for r in runs)
    if ids or budget != "default":  # the README's figures are of the default audit only
        print(f"this selection, median of {len(runs)}: {wall:.1f} s wall, {cpu:.1f} CPU-s")
        return
    print(f"the default audit, median of {len(runs)}: {wall:.1f} s wall, {cpu:.1f} CPU-s; "
          f"ratio to the version before the speed work (README, 0671f21): wall "
          f"{wall / BEFORE['wall']:.2f}, CPU {cpu / BEFORE['cpu']:.2f} (target: wall <= 0.25, "
          f"at most 10 s)")


if __name__ == "__main__":
    main()
