"""Time the audit's symbolic half with the certificate store against the search alone.

Each round runs, in fresh processes (so that neither warms the other's caches), every step
of the built-in proofs as the audit does (`verify.audit.job._symbolic`, serially): once
answered from the store (kernel checks only), once searched (`search=True`), alternating
which goes first. Per mode: CPU-seconds of the checking alone (imports excluded), and the
verdict counts, which must be the same. A script that prints figures; it never asserts on
time.

    python benchmarks/store.py [--rounds N] [--tiny]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import json, sys, time
from proofs.library import PROOFS, load_builtin
from verify.audit.job import _symbolic
search, chosen = sys.argv[1] == "search", sys.argv[2:] or list(PROOFS)
proofs = [load_builtin(p) for p in chosen]
wall, cpu = time.perf_counter(), time.process_time()
counts = {}
recalled = searched = 0
for proof in proofs:
    for report in _symbolic(proof, None, search=search):
        counts[report.status] = counts.get(report.status, 0) + 1
        recalled, searched = recalled + report.recalled, searched + len(report.searched)
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "counts": counts, "recalled": recalled, "searched": searched}))
"""


def run(mode: str, proofs: list[str]) -> dict[str, object]:
    """One child process's figures for `mode` ("store" or "search")."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, mode, *proofs], capture_output=True,
                          text=True, env=env, check=True)
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> None:
    """Interleaved rounds; the median CPU-seconds per mode and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tiny", action="store_true", help="one proof, one round (smoke)")
    args = parser.parse_args(argv)
    proofs = ["margin-perceptron"] if args.tiny else []
    rounds = 1 if args.tiny else args.rounds
    figures: dict[str, list[dict[str, object]]] = {"store": [], "search": []}
    for index in range(rounds):
        order = ("store", "search") if index % 2 == 0 else ("search", "store")
        for mode in order:
            figures[mode].append(found := run(mode, proofs))
            print(f"round {index + 1} {mode:6}: {found['cpu']:.2f} CPU-s, "
                  f"{found['wall']:.2f} s wall, {found['recalled']} from the store, "
                  f"{found['searched']} searched, {found['counts']}")
    cpu = {m: statistics.median(float(f["cpu"]) for f in runs)  # type: ignore[arg-type]
           for m, runs in figures.items()}
    same = all(f["counts"] == figures["search"][0]["counts"] for r in figures.values() for f in r)
    print(f"same verdicts with and without the store: {'yes' if same else 'NO'}")
    print(f"symbolic half, median CPU-seconds: store {cpu['store']:.2f}, search "
          f"{cpu['search']:.2f}; ratio store/search {cpu['store'] / cpu['search']:.2f}")


if __name__ == "__main__":
    main()
