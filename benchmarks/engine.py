"""Speed of the exact perceptron engine against its peers, measured in one run (prints ratios,
asserts nothing about time).

1. **scikit-learn**: `Perceptron(shuffle=False, tol=None, penalty=None, eta0=1, max_iter=20)`
   against `perceptron.online.run_arrays` on identical passes over the same integer data:
   n = 20000 examples, d = 100 features uniform in [-8, 8], labels from a planted integer
   separator u (examples with <u, x> = 0 dropped: the margin is as small as integer data allow,
   so mistakes continue in every pass), 20 passes. Both produce the same weights, checked here
   exactly. Our time includes setting up the integer form and the exact separation check.
2. **The exact C++ rational perceptron** of the Coq perceptron benchmark: a whole fresh Python
   process that loads `vec400_1.dat` (400 x 1000 rationals), runs to convergence with the
   benchmark's constant-1 bias feature and checks exactly that the result separates the data.
   The C++ figure (11.4 s, Boost rationals on GMP, -O2) is the one measured on the maintainers'
   2-core machine (`../shared/bench-data/README.md`), not re-measured here.

Usage: `python benchmarks/engine.py [--repeat N]`. Times are the best (min) and median of N runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perceptron.conventions import Conventions  # noqa: E402
from perceptron.online import run_arrays  # noqa: E402

BENCH = Path(os.environ.get("NOVIKOFF_BENCH_DATA",
                            ROOT.parent / "shared" / "bench-data" / "coqperceptron"))
CPP_EXACT_SECONDS = 11.4  # vec400_1.dat, exact C++ (bench-data README), maintainers' machine

WHOLE_PROCESS = """
import json, sys
from perceptron.conventions import Conventions
from perceptron.loaders import load
from perceptron.online import run_online
from perceptron.result import separates
data = load(sys.argv[1])
result = run_online(data, Conventions(bias=True), keep_trace=False)
print(json.dumps({"mistakes": result.mistakes, "epochs": result.epochs,
                  "converged": result.converged, "separates": separates(data, result.w)}))
"""


def timed(run: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """(best, median) seconds of `repeat` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


def planted(n: int = 20000, d: int = 100, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Integer examples in [-8, 8]^d labelled by a planted integer separator."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-8, 9, size=(2 * n, d))
    u = rng.integers(-8, 9, size=d)
    margins = X @ u
    keep = np.flatnonzero(margins != 0)[:n]
    return X[keep], np.sign(margins[keep]).astype(np.int64)


def versus_scikit_learn(repeat: int) -> None:
    from sklearn.linear_model import Perceptron

    X, y = planted()
    epochs = 20
    Xf = X.astype(np.float64)

    def sklearn_fit() -> np.ndarray:
        model = Perceptron(shuffle=False, tol=None, penalty=None, eta0=1, max_iter=epochs,
                           fit_intercept=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(Xf, y)
        return model.coef_[0]

    def ours() -> object:
        return run_arrays(X, y, max_epochs=epochs)

    ours()  # warm-up (imports, caches) outside the timing, for both
    sklearn_fit()
    sk_best, sk_med, coef = timed(sklearn_fit, repeat)
    our_best, our_med, result = timed(ours, repeat)
    same = tuple(Fraction(float(v)) for v in coef) == result.w  # type: ignore[union-attr]
    per_pass = _updates_per_pass(X, y, epochs)
    print("1. scikit-learn Perceptron vs the exact engine, identical passes")
    print(f"   data: n={X.shape[0]} d={X.shape[1]} integers in [-8, 8], planted separator, "
          f"{epochs} passes")
    print(f"   updates: {result.mistakes} in total; per pass "  # type: ignore[union-attr]
          f"{per_pass[0]} (first) ... {per_pass[-1]} (last); arithmetic "
          f"{', '.join(result.arithmetic)}")  # type: ignore[union-attr]
    print(f"   identical weights (exact comparison): {'yes' if same else 'NO'}")
    print(f"   scikit-learn: best {sk_best * 1e3:7.1f} ms  median {sk_med * 1e3:7.1f} ms")
    print(f"   exact engine: best {our_best * 1e3:7.1f} ms  median {our_med * 1e3:7.1f} ms")
    print(f"   ratio engine/scikit-learn: best {our_best / sk_best:.2f}  "
          f"median {our_med / sk_med:.2f}  (target <= 1)")


def _updates_per_pass(X: np.ndarray, y: np.ndarray, epochs: int) -> list[int]:
    from perceptron.fast import PrimalEngine, Problem, integer_arrays

    engine = PrimalEngine(Problem.of_form(integer_arrays(X, y), Conventions()))
    return [len(engine.run_epoch()) for _ in range(epochs)]


def whole_process(repeat: int) -> None:
    path = BENCH / "vec400_1.dat"
    print("2. whole process on vec400_1.dat (load + run with bias + exact separation check)")
    if not path.is_file():
        print(f"   skipped: {path} not found (set NOVIKOFF_BENCH_DATA)")
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", WHOLE_PROCESS, str(path)]
    cli = [sys.executable, "-m", "verify", "run", str(path), "--bias", "--json"]
    best, med, out = timed(lambda: subprocess.run(command, env=env, capture_output=True,
                                                  text=True, check=True).stdout, repeat)
    cli_best, cli_med, _ = timed(lambda: subprocess.run(cli, env=env, capture_output=True,
                                                        text=True, check=True), repeat)
    empty_best, _, _ = timed(lambda: subprocess.run([sys.executable, "-c", "pass"],
                                                    check=True), repeat)
    print(f"   result: {str(out).strip()}")
    print(f"   exact C++ (README): {CPP_EXACT_SECONDS:.1f} s")
    print(f"   python process:     best {best:.3f} s  median {med:.3f} s  "
          f"(of which an empty interpreter start {empty_best:.3f} s)")
    print(f"   speed-up over exact C++: best {CPP_EXACT_SECONDS / best:.1f}x  "
          f"median {CPP_EXACT_SECONDS / med:.1f}x  (target >= 20x)")
    print(f"   `novikoff run --bias --json` (the CLI, every subcommand registered): "
          f"best {cli_best:.3f} s  median {cli_med:.3f} s  "
          f"speed-up {CPP_EXACT_SECONDS / cli_best:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per measurement")
    args = parser.parse_args()
    versus_scikit_learn(args.repeat)
    whole_process(max(3, args.repeat // 2))


if __name__ == "__main__":
    main()
