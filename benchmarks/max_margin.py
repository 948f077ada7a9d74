"""Time the certified maximum margin on sonar and on `vec400_1.dat` (400 x 1000) against float
peers measured in the same run.

Per dataset and bias setting: the wall time of `max_margin` (float warm start + exact KKT
solve + the exact certificate check it runs), of the certificate's independent re-check, and
of two float peers on the same data: scipy's NNLS on the same least-distance problem (both
settings), and scikit-learn's `SVC(kernel="linear", C=1e10)`, a float hard margin (with a
bias only: SVC always fits an intercept; `LinearSVC` without one does not converge on sonar).
Each row prints the ratios certified/NNLS and certified/SVC and how far each float margin is
from the certified one; a summary line gives the ratios on sonar.
Then the perceptron's runs on sonar (with a bias by augmentation, and through the origin) under
an epoch cap, against the exact bound R^2/gamma^2.
A script that prints figures; it never asserts on time.

    python benchmarks/max_margin.py [--runs N] [--perceptron-epochs N] [--skip-vec400] [--tiny]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence

import numpy as np

from perceptron.dataset import Dataset
from perceptron.geometry.linear import float_rows, radius2
from perceptron.geometry.max_margin import max_margin
from verify.numeric.campaign import BENCH_DATA

DATA_DIR = BENCH_DATA  # `NOVIKOFF_BENCH_DATA`, else shared/ beside the checkout, ...


def timed(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    """Median wall time of `runs` calls and the last result."""
    samples = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def float_nnls(data: Dataset, bias: bool) -> float:
    """The untrusted float solve alone: NNLS on the least-distance form; returns gamma^2."""
    from scipy.optimize import nnls

    x = float_rows(data)
    if bias:
        x = np.hstack([x, np.full((data.n, 1), 100.0 * np.sqrt((x * x).sum(1).max()))])
    a = np.array(data.y, dtype=float)[:, None] * x
    e = np.vstack([a.T, np.ones((1, data.n))])
    f = np.zeros(e.shape[0])
    f[-1] = 1.0
    u, _ = nnls(e, f, maxiter=50 * data.n + 100)
    r = e @ u - f
    w = -r[:-1] / r[-1]
    if bias:
        w = w[:-1]
    return float(1.0 / (w @ w))


def sklearn_svc(data: Dataset, bias: bool) -> float | None:
    """scikit-learn's linear SVC with C = 1e10 (a float hard margin); returns gamma^2.

    SVC always fits an intercept, so it is a peer only for the problem with a free bias."""
    if not bias:
        return None
    try:
        from sklearn.svm import SVC
    except ImportError:
        return None
    clf = SVC(kernel="linear", C=1e10, tol=1e-6, max_iter=10**7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(float_rows(data), data.y)
    w = clf.coef_[0]
    return float(1.0 / (w @ w))


def bench_dataset(name: str, runs: int) -> None:
    from perceptron.io.loaders import load

    path = DATA_DIR / name
    start = time.perf_counter()
    data = load(str(path))
    load_s = time.perf_counter() - start
    print(f"\n{name}: {data.n} x {data.d} (loaded in {load_s:.2f} s)")
    print(f"  {'bias':5} {'certified s':>11} {'recheck s':>9} {'nnls s':>8} {'/nnls':>7} "
          f"{'svc s':>7} {'/svc':>6} {'gamma^2':>14} {'optimal':>7} {'SVs':>4} "
          f"{'nnls rel err':>12} {'svc rel err':>11}")
    ratios: dict[str, list[str]] = {"NNLS": [], "SVC": []}
    for bias in (False, True):
        t_cert, res = timed(lambda b=bias: max_margin(data, bias=b), runs)
        t_check, ok = timed(lambda r=res, d=data: r.check(d), 1)
        t_float, g_float = timed(lambda b=bias: float_nnls(data, b), max(runs, 3))
        t_sk, g_sk = timed(lambda b=bias: sklearn_svc(data, b), 1)
        exact = float(res.gamma2)
        err_f = abs(g_float - exact) / exact
        setting = "with a bias" if bias else "through the origin"
        ratios["NNLS"].append(f"{t_cert / t_float:.1f}x {setting}")
        if g_sk is None:
            sk_s = sk_ratio = err_sk = "n/a"
        else:
            sk_s, sk_ratio = f"{t_sk:.3f}", f"{t_cert / t_sk:.2f}x"
            err_sk = f"{abs(g_sk - exact) / exact:.2e}"
            ratios["SVC"].append(f"{t_cert / t_sk:.2f}x {setting}")
        print(f"  {bias!s:5} {t_cert:11.3f} {t_check:9.3f} {t_float:8.4f} "
              f"{t_cert / t_float:6.1f}x {sk_s:>7} {sk_ratio:>6} {exact:14.6e} "
              f"{res.optimal and ok!s:>7} {len(res.support):4d} {err_f:12.2e} {err_sk:>11}")
    for peer, measured in ratios.items():
        if measured:
            print(f"  ratio certified/{peer} on {name}: {', '.join(measured)}")

def bench_sonar_perceptron(epochs: int) -> None:
    """The perceptron on sonar against the exact bound (with a bias: on the augmented data).

    With a bias it converges after 275,227 epochs and 2,729,231 mistakes (bound ~1.4e7);
    through the origin it needs far more epochs (bound ~1.35e9 mistakes)."""
    from perceptron.algorithms.online import run_online
    from perceptron.conventions import Conventions
    from perceptron.io.loaders import load

    data = load(str(DATA_DIR / "rocks_and_mines"))
    print()
    for bias in (True, False):
        target = data.augmented() if bias else data
        res = max_margin(target)
        bound = radius2(target) / res.gamma2
        start = time.perf_counter()
        run = run_online(data, Conventions(bias=bias), max_epochs=epochs, keep_trace=False)
        secs = time.perf_counter() - start
        state = (f"converged after {run.epochs} epochs" if run.converged
                 else f"hit the cap of {epochs} epochs")
        within = "within" if run.mistakes <= bound else "BEYOND"
        print(f"sonar perceptron, {'bias' if bias else 'no bias'}: {run.mistakes} mistakes, "
              f"{state}, {secs:.1f} s; bound R^2/gamma^2 = {float(bound):.6g} "
              f"({within}; {'certified optimal' if res.optimal else 'lower bound on gamma'})")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per measurement")
    parser.add_argument("--perceptron-epochs", type=int, default=300_000,
                        help="epoch cap of the sonar perceptron run (0 skips it)")
    parser.add_argument("--skip-vec400", action="store_true")
    parser.add_argument("--tiny", action="store_true",
                        help="one run, sonar only, 50 perceptron epochs (a smoke run)")
    args = parser.parse_args(argv)
    if args.tiny:
        args.runs, args.perceptron_epochs, args.skip_vec400 = 1, 50, True
    if not DATA_DIR.exists():
        sys.exit(f"benchmark data not found at {DATA_DIR}")
    bench_dataset("rocks_and_mines", args.runs)
    if not args.skip_vec400:
        bench_dataset("vec400_1.dat", 1)
    if args.perceptron_epochs:
        bench_sonar_perceptron(args.perceptron_epochs)


if __name__ == "__main__":
    main()
