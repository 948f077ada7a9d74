"""Time the start-up of `novikoff` (issue 30, target 0.5 s wall): `--version`, `list`, and
`check` of a one-step proof file, each a whole process as a user runs it.

Two one-step files: `a**2 + b**2 >= 2*a*b` (written here; a sum of squares, no LP solved)
and `examples/norm-growth.toml` (its certificate is a linear combination that SciPy's LP
finds). Neither is in the certificate store, so both are searched. Three floors to read
them against, also whole processes: the bare interpreter, `import sympy, numpy` (what any
searched step loads before it does anything: the kernel's algebra and the counterexample
screen) and the same with `scipy.optimize` (the LP).

The commands run interleaved, round by round, off a terminal (no progress bar). Per command:
the best and the median wall time, the least CPU-seconds (user + system of the process,
which moves less with the load of a shared machine), and the heavy libraries it loaded (one
more run, with a probe). The child processes write bytecode caches, as an installed package
has them (`PYTHONDONTWRITEBYTECODE` is dropped for them), and the first round warms them and
is not counted. The load average is printed before and after. A script that prints figures;
it never asserts on time.

    python benchmarks/startup.py [--rounds N] [--tiny]
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.5  # seconds of wall time (issue 30)
ONE_STEP = """title = "One step"
scalars = ["a", "b"]

[[step]]
id = "two-squares"
claim = "a**2 + b**2 >= 2*a*b"
"""
HEAVY = ("numpy", "sympy", "scipy", "rich", "jinja2", "matplotlib", "numba")
PROBE = ("import atexit, sys; heavy = set(sys.argv[1].split(',')); atexit.register(lambda: "
         "print('LOADED', sorted({m.split('.')[0] for m in sys.modules} & heavy), "
         "file=sys.stderr)); sys.argv = sys.argv[1:]; import runpy; "
         "runpy.run_module('verify', run_name='__main__')")


def commands(one_step: Path) -> dict[str, list[str]]:
    """The timed command lines (interpreter arguments), by the name printed."""
    return {
        "--version": ["-m", "verify", "--version"],
        "list": ["-m", "verify", "list"],
        "check one step, no LP": ["-m", "verify", "check", str(one_step)],
        "check one step, an LP": ["-m", "verify", "check",
                                  str(ROOT / "examples" / "norm-growth.toml")],
        "floor: interpreter": ["-c", "pass"],
        "floor: import sympy, numpy": ["-c", "import sympy, numpy"],
        "floor: ... and scipy.optimize": ["-c", "import sympy, numpy, scipy.optimize"],
    }


def environment() -> dict[str, str]:
    """The children's environment: this tree first on the path, bytecode caches written."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU-seconds and exit code of one process running `argv`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], env=env, cwd=ROOT, capture_output=True,
                          stdin=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.returncode


def loaded(argv: list[str], env: dict[str, str]) -> list[str]:
    """The heavy libraries (`HEAVY`) a `novikoff` command line loads."""
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(HEAVY), *argv[2:]], env=env,
                          cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          check=False)
    return list(ast.literal_eval(done.stderr.rsplit("LOADED ", 1)[1].strip()))


def main(argv: list[str] | None = None) -> None:
    """Warm-up, interleaved rounds, then one line per command and a summary."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tiny", action="store_true", help="one round, no warm-up (smoke)")
    args = parser.parse_args(argv)
    rounds, warm = (1, 0) if args.tiny else (args.rounds, 1)
    env = environment()
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as folder:
        one_step = Path(folder) / "one-step.toml"
        one_step.write_text(ONE_STEP, encoding="utf-8")
        lines = commands(one_step)
        walls: dict[str, list[float]] = {name: [] for name in lines}
        cpus: dict[str, list[float]] = {name: [] for name in lines}
        codes: dict[str, set[int]] = {name: set() for name in lines}
        for index in range(warm + rounds):
            for name, command in lines.items():
                wall, cpu, code = timed(command, env)
                codes[name].add(code)
                if index >= warm:
                    walls[name].append(wall)
                    cpus[name].append(cpu)
        heavy = {name: loaded(command, env) for name, command in lines.items()
                 if command[:2] == ["-m", "verify"]}
    print(f"load average after: {os.getloadavg()[0]:.2f}; {rounds} round(s) "
          f"({'no warm-up' if not warm else 'after one warm-up round'})")
    print(f"{'command':32} {'wall best':>9} {'median':>7} {'CPU best':>9}  loads")
    for name in lines:
        print(f"{name:32} {min(walls[name]):8.3f}s {statistics.median(walls[name]):6.3f}s "
              f"{min(cpus[name]):8.3f}s  "
              f"{', '.join(heavy[name]) if name in heavy else '':}")
    ok = all(codes[name] == {0} for name in lines)
    print(f"every command exited 0 (both checks proved): {'yes' if ok else 'NO'}")
    met = [f"{name} {'yes' if min(walls[name]) < TARGET else 'no'}" for name in heavy]
    print(f"best wall under the {TARGET:g} s target: {'; '.join(met)}")


if __name__ == "__main__":
    main()
