"""How the costs grow: proof length, number of examples, dimension (issue 30, item 3).

Three families, each timed at growing sizes, with the exponent of the fitted power law (the
slope of log time against log size, least squares):

- `proof`: a proof file of N steps, each using every earlier step (`uses`, the worst case of
  chains: step k carries the claims and hypotheses of all k earlier steps), checked as
  `novikoff check` does (the certificate store consulted, none of these steps in it, so every
  judgement is searched). Two shapes: `shared` (every step about the same three names, the
  shape of a long proof) and `fresh` (a new scalar per step, each bounded by the previous
  one: the hypotheses a step carries grow in names too; a file declares at most 100 names,
  so N <= 100). Timed inside a fresh process per N (imports excluded: wall and CPU seconds),
  and the whole process; on a shared machine the CPU-seconds are the steadier figure.
- `run` and `bound`: `novikoff run` / `novikoff bound` on a CSV of n examples x d integer
  features in [-9, 9] (labelled by the sign of the first, so separable), growing n at d = 10
  and growing d at n = 4; whole processes, as a user waits for them.
- `startup`: the fixed cost before any of that grows (issue 30, item 5, target 0.5 s wall):
  `novikoff --version`, `novikoff list` and `novikoff check` of a one-step file, whole
  processes off a terminal, the commands interleaved round by round (`--repeat` rounds after
  a warm-up round that writes the bytecode caches an installed package has; the children
  write them even under PYTHONDONTWRITEBYTECODE). Two one-step files, neither in the
  certificate store: `a**2 + b**2 >= 2*a*b` (a sum of squares, no LP) and
  `examples/norm-growth.toml` (a linear combination found by SciPy's LP). Per command: the
  best and median wall time, the least CPU-seconds (steadier on a shared machine) and the
  heavy libraries it loads; read them against three floors, also whole processes: the bare
  interpreter, `import sympy` and its first addition (what a step searched without an LP or
  an SDP needs: the kernel's algebra; SymPy loads `sympy.tensor` and `sympy.combinatorics`
  at its first addition), and `import sympy, numpy, scipy.optimize` (the LP).

`--against DIR` times another checkout (say the version before this work, `git worktree add
DIR COMMIT`) in the same run, alternating the two, and prints the ratio per size; `--repeat
R` keeps the least of R runs. A script that prints figures; it never asserts on time. Run:

    python benchmarks/scaling.py [--part proof|run|bound|startup|all] [--shape shared|fresh]
        [--sizes 25,50,...] [--against DIR] [--repeat R] [--tiny]
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROOF_SIZES = (25, 50, 100, 150, 300)
EXAMPLES = (1_000, 10_000, 100_000)  # n at d = 10
DIMENSIONS = (1_000, 10_000, 100_000, 1_000_000)  # d at n = 4
CHILD = """
import json, sys, time
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof
import verify.prover  # the search's imports (SciPy), made at the first search: not timed
proof = parse_proof(open(sys.argv[1], "rb").read(), sys.argv[1])
start, cpu = time.perf_counter(), time.process_time()
report = check_proof(proof)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
counts = {}
for step in report.steps:
    counts[step.status] = counts.get(step.status, 0) + 1
print(json.dumps({"seconds": seconds, "cpu": cpu, "counts": counts}))
"""


STARTUP_TARGET = 0.5  # seconds of wall time (issue 30)
ONE_STEP = """title = "One step"
scalars = ["a", "b"]

[[step]]
id = "two-squares"
claim = "a**2 + b**2 >= 2*a*b"
"""
HEAVY = ("numpy", "sympy", "scipy", "rich", "jinja2", "matplotlib", "numba")
LOADED = ("import atexit, runpy, sys; heavy = set(sys.argv[1].split(',')); atexit.register("
          "lambda: print('LOADED', sorted({m.split('.')[0] for m in sys.modules} & heavy), "
          "file=sys.stderr)); sys.argv = sys.argv[1:]; runpy.run_module('verify', "
          "run_name='__main__')")


def chain(n: int, shape: str = "shared") -> str:
    """A proof file of `n` steps, step k using steps 0..k-1 (see the module docstring).

    `shared`: step 0 assumes <w,u> >= 0 and y >= 1; step k assumes y >= 1 and claims
    <w,u> + (k+1) y >= k+1 (from step k-1's claim and y >= 1). `fresh`: step 0 assumes
    x0 >= 0; step k assumes x_k >= x_{k-1} + 1 and claims x_k >= k."""
    if shape == "shared":
        head = ['vectors = ["w", "u"]', 'scalars = ["y"]']
        given = ['"dot(w, u) >= 0", "y >= 1"'] + ['"y >= 1"'] * (n - 1)
        claims = [f"dot(w, u) + {k + 1}*y >= {k + 1}" for k in range(n)]
    else:
        head = ["scalars = [" + ", ".join(f'"x{k}"' for k in range(n)) + "]"]
        given = ['"x0 >= 0"'] + [f'"x{k} >= x{k - 1} + 1"' for k in range(1, n)]
        claims = [f"x{k} >= {k}" for k in range(n)]
    lines = [f'title = "a chain of {n} steps, each using every earlier one ({shape})"', *head]
    for k in range(n):
        uses = ", ".join(f'"s{j}"' for j in range(k))
        lines += ["", "[[step]]", f'id = "s{k}"', f"given = [{given[k]}]",
                  f'claim = "{claims[k]}"', f"uses = [{uses}]"]
    return "\n".join(lines) + "\n"


def dataset(n: int, d: int, seed: int = 20261126) -> str:
    """A CSV of `n` examples of `d` integer features in [-9, 9], the label (last column) the
    sign of the first feature (never 0), so the data are separable."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        x = [rng.randint(-9, 9) for _ in range(d)]
        x[0] = x[0] or 1
        rows.append(",".join(map(str, x)) + ("," + ("1" if x[0] > 0 else "-1")))
    return "\n".join(rows) + "\n"


def fit(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """The exponent b of seconds ~ a * size**b, by least squares on the logarithms."""
    xs, ys = [math.log(s) for s in sizes], [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs)


def _env(root: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(root)}


def check_time(root: Path, path: Path) -> tuple[float, float, float, dict[str, int]] | str:
    """(seconds checking, CPU-seconds checking, seconds of the whole process, verdict counts)
    of `path` checked by the checkout `root` in a fresh process, or the last line of its
    error (a refused file)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                          text=True, env=_env(root), cwd=root)
    whole = time.perf_counter() - start
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["failed"])[-1][:100]
    figures = json.loads(done.stdout.splitlines()[-1])
    return figures["seconds"], figures["cpu"], whole, figures["counts"]


def command_time(root: Path, arguments: Sequence[str]) -> tuple[float, float]:
    """Wall seconds and CPU-seconds (user + system) of one `novikoff` command (python -m
    verify) run by the checkout `root`, bytecode caches written (under
    PYTHONDONTWRITEBYTECODE a checkout without them compiled every module in every run: a
    fresh copy measured against one with caches paid tenths of a second the other did not)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "verify", *arguments], cwd=root, env=_cached_env(root),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def proof_part(sizes: Sequence[int], shape: str, roots: Sequence[Path], folder: Path,
               repeat: int = 1) -> None:
    """Time each checkout on chains of each size (the least of `repeat` runs, alternating
    the checkouts); the fitted exponent per checkout."""
    print(f"proof of N steps, each using every earlier one ({shape}): seconds checking, "
          f"CPU-seconds checking, seconds of the whole process (least of {repeat})")
    results: dict[Path, list[tuple[int, float]]] = {root: [] for root in roots}
    cpus: dict[Path, list[tuple[int, float]]] = {root: [] for root in roots}
    for n in sizes:
        path = folder / f"chain-{shape}-{n}.toml"
        path.write_text(chain(n, shape))
        cells = []
        runs: dict[Path, list[tuple[float, float, float, dict[str, int]] | str]] = {
            root: [] for root in roots}
        for _ in range(repeat):  # alternating the checkouts: both see the same load
            for root in roots:
                runs[root].append(check_time(root, path))
        for root in roots:
            found = runs[root][0]
            if isinstance(found, str):
                cells.append(f"refused: {found}")
                continue
            seconds, cpu, whole = (min(r[i] for r in runs[root]) for i in range(3))  # type: ignore[index]
            counts = found[3]
            results[root].append((n, seconds))
            cpus[root].append((n, cpu))
            tally = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
            cells.append(f"{seconds:7.2f} s {cpu:7.2f} cpu ({whole:6.2f} s)  [{tally}]")
        ratio = ""
        if len(roots) == 2 and all(results[r] and results[r][-1][0] == n for r in roots):
            ratio = f"  ratio {results[roots[0]][-1][1] / results[roots[1]][-1][1]:.3f}x"
        print(f"  N = {n:4d}  " + "  |  ".join(cells) + ratio)
    for root in roots:
        _exponent(root, results[root], len(roots))
        _exponent(root, cpus[root], len(roots), "CPU-seconds")


def data_part(command: str, roots: Sequence[Path], folder: Path, examples: Sequence[int],
              dimensions: Sequence[int], repeat: int = 1) -> None:
    """Time `command` (run or bound) on growing n, then growing d; exponents per checkout."""
    for label, shapes in (("examples n (d = 10)", [(n, 10) for n in examples]),
                          ("dimension d (n = 4)", [(4, d) for d in dimensions])):
        print(f"novikoff {command}, growing {label}: seconds of the whole process, "
              f"CPU-seconds (least of {repeat}, the checkouts alternating)")
        results: dict[Path, list[tuple[int, float]]] = {root: [] for root in roots}
        cpus: dict[Path, list[tuple[int, float]]] = {root: [] for root in roots}
        for n, d in shapes:
            path = folder / f"data-{n}x{d}.csv"
            if not path.exists():
                path.write_text(dataset(n, d))
            size = n if d == 10 else d
            runs: dict[Path, list[tuple[float, float]]] = {root: [] for root in roots}
            for _ in range(repeat):  # alternating the checkouts: both see the same load
                for root in roots:
                    runs[root].append(command_time(root, [command, str(path)]))
            cells = []
            for root in roots:
                seconds, cpu = (min(r[i] for r in runs[root]) for i in range(2))
                results[root].append((size, seconds))
                cpus[root].append((size, cpu))
                cells.append(f"{seconds:7.2f} s {cpu:7.2f} cpu")
            ratio = (f"  ratio {results[roots[0]][-1][1] / results[roots[1]][-1][1]:.3f}x, "
                     f"cpu {cpus[roots[0]][-1][1] / cpus[roots[1]][-1][1]:.3f}x"
                     if len(roots) == 2 else "")
            print(f"  {size:>9,}  " + "  |  ".join(cells) + ratio)
        for root in roots:
            _exponent(root, results[root], len(roots))
            _exponent(root, cpus[root], len(roots), "CPU-seconds")


def startup_commands(one_step: Path) -> dict[str, list[str]]:
    """The start-up part's command lines (interpreter arguments), by the name printed: the
    `novikoff` ones first, then the floors."""
    return {
        "--version": ["-m", "verify", "--version"],
        "list": ["-m", "verify", "list"],
        "check one step, no LP": ["-m", "verify", "check", str(one_step)],
        "check one step, an LP": ["-m", "verify", "check",
                                  str(ROOT / "examples" / "norm-growth.toml")],
        "floor: interpreter": ["-c", "pass"],
        "floor: sympy + first addition": ["-c", "import sympy; sympy.Symbol('a') + 1"],
        "floor: + numpy, scipy.optimize": ["-c", "import sympy, numpy, scipy.optimize"],
    }


def _cached_env(root: Path) -> dict[str, str]:
    """`_env`, bytecode caches written (as an installed package has them)."""
    return {k: v for k, v in _env(root).items() if k != "PYTHONDONTWRITEBYTECODE"}


def process_time(root: Path, argv: Sequence[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU-seconds (user + system) and exit code of one process of `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], env=_cached_env(root), cwd=root,
                          capture_output=True, stdin=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, \
        done.returncode


def loaded(root: Path, argv: Sequence[str]) -> list[str]:
    """The heavy libraries (`HEAVY`) a `novikoff` command line (`-m verify ...`) loads."""
    done = subprocess.run([sys.executable, "-c", LOADED, ",".join(HEAVY), *argv[2:]],
                          env=_cached_env(root), cwd=root, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, check=False)
    return list(ast.literal_eval(done.stderr.rsplit("LOADED ", 1)[1].strip()))


def startup_part(roots: Sequence[Path], folder: Path, rounds: int, warm: bool) -> None:
    """Every start-up command and floor, interleaved with the checkouts round by round."""
    one_step = folder / "one-step.toml"
    one_step.write_text(ONE_STEP, encoding="utf-8")
    lines = startup_commands(one_step)
    print(f"start-up: whole processes off a terminal, {rounds} round(s)"
          f"{' after a warm-up round' if warm else ''}; best wall, median wall, least "
          f"CPU-seconds; load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    keys = [(root, name) for name in lines for root in roots]
    walls: dict[tuple[Path, str], list[float]] = {key: [] for key in keys}
    cpus: dict[tuple[Path, str], list[float]] = {key: [] for key in keys}
    codes: dict[tuple[Path, str], set[int]] = {key: set() for key in keys}
    for index in range(int(warm) + rounds):
        for name, argv in lines.items():
            for root in roots if index % 2 == 0 else roots[::-1]:  # both see the same load
                wall, cpu, code = process_time(root, argv)
                codes[(root, name)].add(code)
                if index >= int(warm):
                    walls[(root, name)].append(wall)
                    cpus[(root, name)].append(cpu)
    for name, argv in lines.items():
        cells = [f"{min(walls[(r, name)]):6.3f} s {statistics.median(walls[(r, name)]):6.3f} s "
                 f"{min(cpus[(r, name)]):6.3f} cpu" for r in roots]
        ratio = (f"  ratio {min(walls[(roots[0], name)]) / min(walls[(roots[1], name)]):.2f}x"
                 if len(roots) == 2 else "")
        heavy = (f"  [loads {', '.join(loaded(roots[0], argv)) or 'nothing heavy'}]"
                 if argv[:2] == ["-m", "verify"] else "")
        print(f"  {name:30} " + "  |  ".join(cells) + ratio + heavy)
    print(f"  load average after: {os.getloadavg()[0]:.2f}")
    ok = all(codes[key] == {0} for key in keys)
    print(f"  every command exited 0 (both checks proved): {'yes' if ok else 'NO'}")
    met = [f"{name} {'yes' if min(walls[(roots[0], name)]) < STARTUP_TARGET else 'no'}"
           for name, argv in lines.items() if argv[:2] == ["-m", "verify"]]
    print(f"  best wall under the {STARTUP_TARGET:g} s target: {'; '.join(met)}")


def _exponent(root: Path, points: list[tuple[int, float]], checkouts: int,
              what: str = "seconds") -> None:
    which = f" ({root})" if checkouts > 1 else ""
    if len(points) >= 2:
        print(f"  fitted exponent of {what}{which}: {fit(*zip(*points, strict=True)):.2f} "
              f"over {points[0][0]}..{points[-1][0]}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("proof", "run", "bound", "startup", "all"),
                        default="all")
    parser.add_argument("--shape", choices=("shared", "fresh"), default="shared")
    parser.add_argument("--sizes", type=lambda t: [int(s) for s in t.split(",")],
                        default=list(PROOF_SIZES), help="proof lengths (comma-separated)")
    parser.add_argument("--against", type=Path, help="another checkout, timed alongside")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per size and checkout; the least time is shown and fitted")
    parser.add_argument("--tiny", action="store_true",
                        help="the smallest sizes only (a test of the script, no figures)")
    args = parser.parse_args(argv)
    roots = [ROOT] + ([args.against.resolve()] if args.against else [])
    sizes, examples, dimensions = args.sizes, EXAMPLES, DIMENSIONS
    if args.tiny:
        sizes, examples, dimensions = [3, 6], (20, 40), (20, 40)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if args.part in ("proof", "all"):
            proof_part(sizes, args.shape, roots, folder, args.repeat)
        for command in ("run", "bound"):
            if args.part in (command, "all"):
                data_part(command, roots, folder, examples, dimensions, args.repeat)
        if args.part in ("startup", "all"):
            startup_part(roots, folder, args.repeat, warm=not args.tiny)


if __name__ == "__main__":
    main()
