"""A user's proof file audited through `novikoff audit FILE` against the built-in path.

The issue-27 promise: auditing a user's proof the size of canonical-online with its default
campaign takes no longer than `novikoff audit --only canonical-online`. Both are timed here
as the command line runs them (a fresh process each, so the import time counts alike), the
user's file being a copy of the built-in one (the same campaign, so the same work is asked
of both), alternating the two `--repeat` times. Prints measured figures only (no asserts on
time). Run: `python benchmarks/user_proof.py [--budget small|default] [--repeat N] [--jobs N]`.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(arguments: list[str]) -> float:
    """Wall-clock seconds of one `novikoff` run (python -m verify), which must exit 0."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "verify", *arguments], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="default")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    common = ["--budget", args.budget, "--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "my-canonical-online.toml"
        shutil.copy(ROOT / "proofs" / "library" / "canonical-online.toml", copy)
        builtin, user = [], []
        for _ in range(args.repeat):
            builtin.append(timed(["audit", "--only", "canonical-online", *common]))
            user.append(timed(["audit", str(copy), *common]))
    for name, times in (("--only canonical-online", builtin), ("user file (a copy)", user)):
        print(f"{name:<26} median {statistics.median(times):6.2f} s  "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)})")


if __name__ == "__main__":
    main()
