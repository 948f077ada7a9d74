"""The compiled loop (`perceptron.algorithms.compiled`): the same runs as the exact reference, on
every tier, at the tier boundaries, in blocks of any size, and without numba."""

from __future__ import annotations

import warnings
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st
from test_algorithms_online import conventions_for, datasets, small_int, small_rational

from perceptron.algorithms import compiled, fast, online
from perceptron.algorithms.fast import FLOAT_LIMIT2, INT64_LIMIT2, certified_epochs
from perceptron.algorithms.online import OnlineRun, run_arrays, run_online
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="numba is not installed")

#: Integers from tiny to about 2**30: small data stay in float64, large ones climb to int64
#: and beyond, so blocks get cut where the bound stops certifying a tier.
mixed_int = st.one_of(small_int, st.integers(-(2**30), 2**30))


def summary(result: object) -> tuple[object, ...]:
    """Everything a run reports, the trace included."""
    trace = result.trace  # type: ignore[attr-defined]
    return (result.mistakes, result.epochs, result.converged, result.reason,  # type: ignore[attr-defined]
            result.w, result.separating,  # type: ignore[attr-defined]
            None if trace is None else (trace.indices.tolist(), trace.epochs.tolist()))


@given(st.data())
def test_compiled_runs_equal_the_exact_reference(draw: st.DataObject) -> None:
    """Identical weights, mistakes, epochs, stop reason and trace to the Fraction loop, and
    the same tiers as the numpy engine, whatever the block size."""
    data = draw.draw(datasets(st.one_of(small_rational, mixed_int.map(Fraction)), max_n=6))
    conventions = draw.draw(conventions_for(data.d))
    epochs = draw.draw(st.integers(1, 30))
    work = draw.draw(st.sampled_from([1, 50, online.BLOCK_WORK]))
    exact = run_online(data, conventions, max_epochs=epochs, engine="exact")
    note(f"exact: {exact}")
    with mock.patch.object(online, "BLOCK_WORK", work):
        fast = run_online(data, conventions, max_epochs=epochs, engine="compiled")
        epochwise = list(OnlineRun(data, conventions, max_epochs=epochs, engine="compiled"))
    numpy_engine = run_online(data, conventions, max_epochs=epochs, engine="primal")
    assert summary(fast) == summary(exact)
    assert fast.arithmetic == numpy_engine.arithmetic
    assert epochwise == list(OnlineRun(data, conventions, max_epochs=epochs, engine="exact"))


@given(datasets(mixed_int, max_n=6, max_d=3), st.booleans(), st.integers(1, 12))
def test_integer_arrays_compiled_equal_reference(data: Dataset, bias: bool, epochs: int) -> None:
    X = np.array([[int(v) for v in x] for x in data.X], dtype=np.int64)
    y = np.array(data.y, dtype=np.int64)
    with mock.patch.object(online, "COMPILE_AFTER", 0):  # compile even this small run
        ours = run_arrays(X, y, Conventions(bias=bias), max_epochs=epochs)
    reference = run_online(data, Conventions(bias=bias), max_epochs=epochs, engine="exact")
    assert (ours.mistakes, ours.epochs, ours.converged, ours.reason, ours.w) == (
        reference.mistakes, reference.epochs, reference.converged, reference.reason,
        reference.w)


# ---- tier boundaries ---------------------------------------------------------------------------

# Four squares summing to 2**53 - 1 and 2**63 - 1: one example x with ||x||^2 = R2. From w0 = 0
# the first epoch is bounded by B2 * R2 = R2**2 and updates once (w = x); the second by
# (2 R2) * R2, past the limit, and converges (margin R2 > 0).
BELOW_2_53 = (94906265, 10883, 226, 1)
BELOW_2_63 = (3037000499, 69322, 33511, 1)


@pytest.mark.parametrize(("x", "tiers"), [
    (BELOW_2_53, ("float64", "int64")),  # R2 = 2**53 - 1: R2**2 < 2**106, then beyond
    ((2**26, 2**26), ("int64",)),  # R2 = 2**53: R2**2 = 2**106 is no longer float64
    (BELOW_2_63, ("int64", "object")),  # R2 = 2**63 - 1: R2**2 < 2**126, then beyond
    ((2**31, 2**31), ("object",)),  # R2 = 2**63: int64 would overflow, Python ints
])
def test_tier_boundaries(x: tuple[int, ...], tiers: tuple[str, ...]) -> None:
    assert sum(v * v for v in x) in (2**53 - 1, 2**53, 2**63 - 1, 2**63)
    data = Dataset.of([x], [1])
    fast = run_online(data, max_epochs=5, engine="compiled")
    exact = run_online(data, max_epochs=5, engine="exact")
    assert fast.arithmetic == tiers
    assert summary(fast) == summary(exact)
    assert fast.w == tuple(Fraction(v) for v in x) and (fast.epochs, fast.converged) == (2, True)


def test_a_run_that_would_overflow_int64_moves_to_python_integers() -> None:
    """Margins near 2**62 after a few updates: the bound sends the run to exact integers
    before int64 could wrap, and the result is the reference's."""
    X = [(-754967709, -388682058), (-1868899728, 144662170), (-353955854, -778251060),
         (-976377527, -1624081804)]
    data = Dataset.of(X, [1, 1, 1, -1])
    fast = run_online(data, max_epochs=50, engine="compiled")
    assert fast.arithmetic == ("int64", "object")
    assert summary(fast) == summary(run_online(data, max_epochs=50, engine="exact"))


@given(st.sampled_from([0, 1]), st.integers(0, 2**70), st.integers(1, 2**70),
       st.integers(0, 2**70))
def test_certified_epochs_is_the_last_epoch_the_bound_allows(tier: int, N2: int, growth: int,
                                                            R2: int) -> None:
    limit = (FLOAT_LIMIT2, INT64_LIMIT2)[tier]

    def fits(B2: int) -> bool:
        return max(B2 * R2, B2, R2) < limit

    if not fits(N2 + growth):  # the current epoch is not in this tier: never asked
        return
    m = certified_epochs(N2, growth, R2, tier)
    assert m is not None and m >= 1
    assert fits(N2 + m * growth)  # epoch m - 1, at its worst, still in the tier
    assert not fits(N2 + (m + 1) * growth)  # epoch m could leave it: the block stops


def test_nothing_bounds_the_object_tier_or_data_that_never_move() -> None:
    assert certified_epochs(5, 3, 7, 2) is None
    assert certified_epochs(5, 0, 0, 0) is None


# ---- peers, progress, fallback -----------------------------------------------------------------


@given(st.integers(2, 12), st.integers(1, 4), st.integers(1, 8), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_compiled_weights_equal_scikit_learn(n: int, d: int, epochs: int, intercept: bool,
                                            seed: int) -> None:
    """On small integers scikit-learn's float run is exact: the same weights (after a run
    our engine stops as cycling, scikit-learn goes on round the cycle: not comparable)."""
    linear = pytest.importorskip("sklearn.linear_model")
    rng = np.random.default_rng(seed)
    X = rng.integers(-9, 10, size=(n, d))
    y = rng.choice([-1, 1], size=n)
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]
    model = linear.Perceptron(shuffle=False, tol=None, penalty=None, eta0=1, max_iter=epochs,
                              fit_intercept=intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X.astype(np.float64), y)
    theirs = tuple(Fraction(float(v)) for v in model.coef_[0])
    if intercept:
        theirs = (*theirs, Fraction(float(model.intercept_[0])))
    ours = run_online(Dataset.of(X.tolist(), y.tolist()), Conventions(bias=intercept),
                      max_epochs=epochs, engine="compiled", keep_trace=False)
    assume(not ours.reason.startswith("cycling"))
    assert ours.w == theirs


def test_progress_is_reported_after_every_epoch() -> None:
    data = Dataset.of([(4, 5), (0, 2), (-3, 1), (-4, -5), (-3, -5)], [1, -1, -1, -1, 1])
    calls: dict[str, list[tuple[int, int]]] = {"compiled": [], "exact": []}
    for engine, seen in calls.items():
        run_online(data, max_epochs=40, engine=engine,
                   progress=lambda e, m, seen=seen: seen.append((e, m)))
    assert calls["compiled"] == calls["exact"] and len(calls["exact"]) == 9  # then converged


@pytest.mark.parametrize("uncompiled", ["PYTHON_CELLS", "PYTHON_BLOCK"])
def test_a_long_auto_run_switches_to_the_compiled_loop_mid_run(uncompiled: str) -> None:
    """With numba not yet imported, `auto` starts uncompiled and switches once its work
    repays the import: epochs of one first (numpy's, or Python blocks made one epoch long),
    then a block of many; the same run throughout."""
    data = Dataset.of([(4, 5), (0, 2), (-3, 1), (-4, -5), (-3, -5)], [1, -1, -1, -1, 1])
    per_epoch = data.n * data.d
    with mock.patch.object(compiled, "loaded", lambda: False), \
            mock.patch.object(fast, uncompiled, 0 if uncompiled == "PYTHON_CELLS" else 1), \
            mock.patch.object(online, "MISTAKE_WORK", 0), \
            mock.patch.object(online, "COMPILE_AFTER", 3 * per_epoch):
        run = OnlineRun(data, max_epochs=40)
        spans = [len(block.counts) for block in run.blocks(record=True)]
    assert run.engine.compiled is True  # type: ignore[union-attr]
    assert spans[:3] == [1, 1, 1] and spans[3] == 6  # 3 uncompiled epochs, then the other 6
    exact = run_online(data, max_epochs=40, engine="exact")
    assert (run.mistakes, run.epochs, run.converged, run.w()) == (
        exact.mistakes, exact.epochs, exact.converged, exact.w)


def test_without_numba_the_numpy_loop_runs() -> None:
    data = Dataset.of([(1, 2), (-3, 1), (2, -2), (0, 1)], [1, -1, 1, -1])
    expected = summary(run_online(data, max_epochs=30, engine="exact"))

    def refuse() -> None:
        raise AssertionError("the compiled kernel was asked for")

    with mock.patch.object(compiled, "AVAILABLE", False), \
            mock.patch.object(compiled, "kernels", refuse):
        with mock.patch.object(online, "COMPILE_AFTER", 0):
            assert summary(run_online(data, max_epochs=30)) == expected
        assert summary(run_online(data, max_epochs=30, engine="compiled")) == expected
        assert summary(run_online(data, max_epochs=30)) == expected
