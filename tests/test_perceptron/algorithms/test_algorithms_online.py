"""The online perceptron: seed examples, tight families, properties, engines and tiers agree."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from perceptron.algorithms import compiled
from perceptron.algorithms.fast import Problem
from perceptron.algorithms.online import (
    _one_block,
    _small_trace,
    iterate_stream,
    iterate_updates,
    run_online,
    run_stream,
    run_trace,
    traced_run,
)
from perceptron.conventions import DEFAULT, Conventions
from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.examples import note_003, orthonormal, slides_10_607, xor
from perceptron.result import separates

F = Fraction


def vec(*values: object) -> tuple[Fraction, ...]:
    return tuple(F(v) for v in values)  # type: ignore[arg-type]


# ---- strategies ------------------------------------------------------------------------------

small_int = st.integers(-6, 6)
small_rational = st.builds(F, st.integers(-9, 9), st.sampled_from([1, 1, 2, 3, 7]))


@st.composite
def datasets(draw: st.DrawFn, values: st.SearchStrategy = small_int, max_n: int = 6,
             max_d: int = 3) -> Dataset:
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    X = [tuple(F(draw(values)) for _ in range(d)) for _ in range(n)]
    y = [draw(st.sampled_from([-1, 1])) for _ in range(n)]
    return Dataset(tuple(X), tuple(y))


@st.composite
def conventions_for(draw: st.DrawFn, d: int, with_w0: bool = True) -> Conventions:
    bias = draw(st.booleans())
    w0 = None
    if with_w0 and draw(st.booleans()):
        w0 = tuple(draw(small_rational) for _ in range(d + bias))
    return Conventions(rule=draw(st.sampled_from(["le", "lt", "mistake"])),
                       sign_zero=draw(st.sampled_from([1, 0, -1])), bias=bias,
                       eta=draw(st.sampled_from([F(1), F(1, 2), F(3), F(2, 7)])), w0=w0)


# ---- seeds -----------------------------------------------------------------------------------


def test_10_607_worked_example_iterates() -> None:
    """Seed 004: w_1 = (0,0), w_2 = (1,-2), w_3 = (2,-1), w_4 = (3,1), then no mistake."""
    data = slides_10_607()
    result = run_online(data)
    assert result.trace is not None
    assert list(result.trace.iterates()) == [vec(0, 0), vec(1, -2), vec(2, -1), vec(3, 1)]
    assert [r.index for r in result.trace] == [0, 2, 4]
    assert (result.mistakes, result.epochs, result.converged) == (3, 2, True)
    assert result.w == vec(3, 1) and result.separating


def test_10_607_prediction_rule_with_sign_zero_plus_one() -> None:
    """The slides' own rule: predict positive iff w.x >= 0, update on a wrong prediction."""
    result = run_online(slides_10_607(), Conventions(rule="mistake", sign_zero=1))
    assert result.trace is not None
    assert list(result.trace.iterates()) == [vec(0, 0), vec(1, -2), vec(2, -1), vec(3, 1)]


def test_note_003_every_xy_equal_gives_constant_iterate() -> None:
    """Seed 003: every x_i y_i = (1,0) gives w_i = (1,0) for every i >= 1 (rule <= 0)."""
    data = note_003()
    assert {tuple(y * v for v in x) for x, y in zip(data.X, data.y, strict=True)} == {vec(1, 0)}
    stream = list(zip(data.X, data.y, strict=True)) * 3
    result = run_stream(stream)
    assert result.mistakes == 1 and result.trace is not None
    assert result.trace[0].index == 0 and result.trace[0].w_after == vec(1, 0)
    assert result.w == vec(1, 0)
    # every w_i, i >= 1: replay the stream step by step
    w = vec(0, 0)
    for i, (x, y) in enumerate(stream, 1):
        if y * sum(a * b for a, b in zip(w, x, strict=True)) <= 0:
            w = tuple(a + y * b for a, b in zip(w, x, strict=True))
        assert w == vec(1, 0), i
    cyclic = run_online(data)
    assert (cyclic.mistakes, cyclic.w) == (1, vec(1, 0))


def test_note_003_prediction_mistakes_differ_at_zero() -> None:
    """The note's caveat: predicting with sign(0) = +1, a positive example at w = 0 is not a
    prediction mistake, though y<w,x> <= 0 holds."""
    data = note_003()
    result = run_stream(zip(data.X, data.y, strict=True), Conventions(rule="mistake"))
    assert result.mistakes == 1 and result.trace is not None
    assert result.trace[0].index == 1  # (-1, 0) with y = -1: sign(0) = +1 != -1
    assert result.w == vec(1, 0)


@given(st.integers(1, 9), st.data())
def test_orthonormal_exactly_n_mistakes_under_le_none_under_lt(n: int, draw: st.DataObject
                                                               ) -> None:
    labels = tuple(draw.draw(st.sampled_from([-1, 1])) for _ in range(n))
    scale = draw.draw(st.sampled_from([F(1), F(2), F(1, 3), F(5, 2)]))
    base = orthonormal(n, labels)
    data = Dataset(tuple(tuple(scale * v for v in x) for x in base.X), base.y)
    le = run_online(data)
    assert (le.mistakes, le.epochs, le.converged, le.separating) == (n, 2, True, True)
    assert le.w == tuple(scale * y for y in labels)
    lt = run_online(data, Conventions(rule="lt"))
    assert (lt.mistakes, lt.epochs, lt.converged) == (0, 1, True)
    assert lt.w == (F(0),) * n and not lt.separating


def test_xor_cycles_and_says_so() -> None:
    result = run_online(xor(), Conventions(bias=True), max_epochs=1000)
    assert not result.converged and result.epochs < 10
    assert result.reason.startswith("cycling")
    assert not result.separating and not separates(xor(), result.w)


def test_epoch_cap_stops_non_separable_data() -> None:
    data = Dataset.of([(1,), (1,)], [1, -1])  # the same point with both labels
    result = run_online(data, max_epochs=7, engine="exact")
    assert not result.converged
    assert result.reason.startswith("cycling") or result.epochs == 7
    capped = run_online(Dataset.of([(1, 0), (2, 1), (1, 1)], [1, -1, 1]), max_epochs=1)
    assert capped.epochs == 1 and not capped.converged and "cap 1" in capped.reason


def test_epoch_cap_zero_runs_nothing() -> None:
    result = run_online(slides_10_607(), max_epochs=0)
    assert (result.mistakes, result.epochs, result.converged) == (0, 0, False)
    assert result.w == vec(0, 0)


# ---- properties (hypothesis) -----------------------------------------------------------------


@given(datasets(), st.sampled_from([F(2), F(1, 3), F(7, 2), F(10**12)]))
def test_scaling_the_data_scales_every_iterate(data: Dataset, c: Fraction) -> None:
    scaled = Dataset(tuple(tuple(c * v for v in x) for x in data.X), data.y)
    a = run_online(data, max_epochs=30)
    b = run_online(scaled, max_epochs=30)
    assert a.trace is not None and b.trace is not None
    assert (a.mistakes, a.epochs, a.converged) == (b.mistakes, b.epochs, b.converged)
    for wa, wb in zip(a.trace.iterates(), b.trace.iterates(), strict=True):
        assert wb == tuple(c * v for v in wa)


@given(datasets(small_rational), st.sampled_from([F(1, 2), F(3), F(2, 9)]),
       st.sampled_from(["le", "lt", "mistake"]))
def test_learning_rate_only_scales_iterates_from_zero(data: Dataset, eta: Fraction,
                                                      rule: str) -> None:
    a = run_online(data, Conventions(rule=rule), max_epochs=30)
    b = run_online(data, Conventions(rule=rule, eta=eta), max_epochs=30)
    assert a.trace is not None and b.trace is not None
    assert list(a.trace.indices) == list(b.trace.indices)
    for wa, wb in zip(a.trace.iterates(), b.trace.iterates(), strict=True):
        assert wb == tuple(eta * v for v in wa)


def test_learning_rate_matters_from_a_nonzero_start() -> None:
    data = Dataset.of([(1, 0), (0, 1)], [1, 1])
    w0 = (F(-1), F(0))
    one = run_online(data, Conventions(w0=w0))
    big = run_online(data, Conventions(w0=w0, eta=F(10)))
    assert (one.mistakes, one.w) == (3, vec(1, 1))
    assert (big.mistakes, big.w) == (2, vec(9, 10))


@given(st.data())
def test_trace_replays_to_the_final_iterate(draw: st.DataObject) -> None:
    data = draw.draw(datasets(small_rational))
    conventions = draw.draw(conventions_for(data.d))
    result = run_online(data, conventions, max_epochs=25)
    trace = result.trace
    assert trace is not None and len(trace) == result.mistakes
    assert trace.replay() == result.w == trace.final()
    records = list(trace)
    w = conventions.initial(data.d + conventions.bias)
    for t, record in enumerate(records):
        assert record.step == t + 1 and record.w_before == w
        assert record.w_after == tuple(a + conventions.eta * record.y * b
                                       for a, b in zip(w, record.x, strict=True))
        assert trace.iterate(t) == w and trace[t] == record
        w = record.w_after
    assert w == result.w
    streamed = list(iterate_updates(data, conventions, max_epochs=25))
    assert streamed == records
    bare = list(iterate_updates(data, conventions, max_epochs=25, keep_iterates=False))
    assert [(r.epoch, r.index) for r in bare] == [(r.epoch, r.index) for r in records]
    assert all(r.w_before is None and r.w_after is None for r in bare)


@given(datasets(small_rational))
def test_a_converged_run_separates_the_data(data: Dataset) -> None:
    for bias in (False, True):
        result = run_online(data, Conventions(bias=bias), max_epochs=200)
        if result.converged:
            assert result.separating and separates(data, result.w)
        else:
            assert result.epochs == 200 or result.reason.startswith("cycling")


@given(st.data())
def test_all_engines_agree(draw: st.DataObject) -> None:
    """The integer engine (primal and Gram form) against the Fraction reference."""
    data = draw.draw(datasets(small_rational, max_n=5))
    conventions = draw.draw(conventions_for(data.d))
    epochs = draw.draw(st.integers(1, 12))
    exact = run_online(data, conventions, max_epochs=epochs, engine="exact")
    note(f"exact: {exact}")
    for engine in ("auto", "dual"):
        fast = run_online(data, conventions, max_epochs=epochs, engine=engine)
        assert (fast.mistakes, fast.epochs, fast.converged, fast.w, fast.separating) == (
            exact.mistakes, exact.epochs, exact.converged, exact.w, exact.separating)
        assert fast.reason.split(":")[0] == exact.reason.split(":")[0]
        assert fast.trace is not None and exact.trace is not None
        assert list(fast.trace.indices) == list(exact.trace.indices)
        assert list(fast.trace.epochs) == list(exact.trace.epochs)


# ---- arithmetic tiers ------------------------------------------------------------------------


@pytest.mark.parametrize(("X", "y", "tiers"), [
    # float64 while the Novikoff bound allows it, then int64 (found by search, see fast.py)
    ([(-12760567, -210132, -26534741), (-7701819, 13647037, -28105731),
      (-17104633, 107240, -59793586)], [-1, -1, 1], ("float64", "int64")),
    # int64, then exact Python integers
    ([(-754967709, -388682058), (-1868899728, 144662170), (-353955854, -778251060),
      (-976377527, -1624081804)], [1, 1, 1, -1], ("int64", "object")),
    # beyond int64 from the start
    ([(10**20, -3), (-(10**20) + 7, 5), (1, 10**19)], [1, -1, 1], ("object",)),
])
def test_tiers_switch_and_stay_exact(X: list[tuple[int, ...]], y: list[int],
                                     tiers: tuple[str, ...]) -> None:
    data = Dataset.of(X, y)
    fast = run_online(data, max_epochs=50)
    exact = run_online(data, max_epochs=50, engine="exact")
    assert fast.arithmetic == tiers
    assert (fast.mistakes, fast.epochs, fast.w) == (exact.mistakes, exact.epochs, exact.w)
    assert list(fast.trace.indices) == list(exact.trace.indices)  # type: ignore[union-attr]


def test_huge_common_denominator_is_exact() -> None:
    primes = [1000003, 1000033, 1000037, 1000039, 1000081, 1000099]
    X = [(F(1, p), F(-1, q)) for p, q in zip(primes, reversed(primes), strict=True)]
    data = Dataset(tuple(X), (1, -1, 1, 1, -1, 1))
    fast = run_online(data, Conventions(bias=True), max_epochs=40)
    exact = run_online(data, Conventions(bias=True), max_epochs=40, engine="exact")
    assert (fast.mistakes, fast.w, fast.converged) == (exact.mistakes, exact.w, exact.converged)


# ---- conventions and streams -----------------------------------------------------------------


def test_conventions_are_recorded_and_validated() -> None:
    conventions = Conventions(rule="lt", sign_zero=0, bias=True, eta="1/2",  # type: ignore[arg-type]
                              w0=("1/3", 0, 2))  # type: ignore[arg-type]
    result = run_online(Dataset.of([(1, 2)], [1]), conventions)
    assert result.conventions is conventions
    assert conventions.as_dict() == {"rule": "lt", "update": "y*<w,x> < 0", "sign_zero": 0,
                                     "bias": True, "eta": "1/2", "w0": ["1/3", "0", "2"]}
    with pytest.raises(ValueError, match="rule"):
        Conventions(rule="leq")
    with pytest.raises(ValueError, match="positive"):
        Conventions(eta=0)
    with pytest.raises(ValueError, match="sign_zero"):
        Conventions(sign_zero=2)
    with pytest.raises(ValueError, match="coordinates"):
        run_online(Dataset.of([(1, 2)], [1]), Conventions(w0=(1, 2, 3)))


def test_stream_validates_its_examples() -> None:
    with pytest.raises(DataError, match="label"):
        run_stream([((1, 2), 0)])
    with pytest.raises(DataError, match="features"):
        run_stream([((1, 2), 1), ((1,), 1)])
    records = list(iterate_stream([((0, 1), 1), ((0, 1), 1)], keep_iterates=False))
    assert [r.index for r in records] == [0] and records[0].w_after is None
    empty = run_stream([])
    assert empty.mistakes == 0 and empty.w == ()


def test_hostile_denominators_are_refused() -> None:
    """Distinct huge prime-like denominators would make the common scale astronomically big."""
    big = [F(1, 2**p - 1) for p in (4423, 9689, 9941, 11213, 19937, 21701, 23209, 44497,
                                    86243, 110503, 132049, 216091, 756839, 859433)]
    data = Dataset(tuple((v,) for v in big), (1,) * len(big))
    with pytest.raises(DataError, match="common denominator"):
        run_online(data)


@given(datasets(), st.booleans(), st.integers(1, 10))
def test_integer_arrays_path_is_the_same_run(data: Dataset, bias: bool, epochs: int) -> None:
    import numpy as np

    from perceptron.algorithms.online import run_arrays

    X = np.array([[int(v) for v in x] for x in data.X], dtype=np.int64)
    y = np.array(data.y, dtype=np.int64)
    ours = run_arrays(X, y, Conventions(bias=bias), max_epochs=epochs)
    reference = run_online(data, Conventions(bias=bias), max_epochs=epochs, keep_trace=False)
    assert (ours.mistakes, ours.epochs, ours.converged, ours.w, ours.separating) == (
        reference.mistakes, reference.epochs, reference.converged, reference.w,
        reference.separating)


def test_integer_arrays_are_validated() -> None:
    import numpy as np

    from perceptron.algorithms.online import run_arrays

    with pytest.raises(DataError, match="integers"):
        run_arrays(np.array([[0.5]]), np.array([1]))
    with pytest.raises(DataError, match="label"):
        run_arrays(np.array([[1]]), np.array([0]))
    big = run_arrays(np.array([[2**64], [-1]], dtype=object), np.array([1, -1]))
    assert big.arithmetic == ("object",) and big.converged


def test_a_bias_on_data_over_a_denominator_beyond_int64_runs() -> None:
    """Regression: the bias column of the integer form (the common denominator itself) was
    made in int64 before the check that it fits, so `novikoff run --bias` on data over a
    denominator of 2^64 + 1 ended in an OverflowError traceback."""
    big = 2**64 + 1
    data = Dataset(((Fraction(1, big),), (Fraction(-3, big),)), (1, -1), "huge denominator")
    result = run_online(data, Conventions(bias=True))
    exact = run_online(data, Conventions(bias=True), engine="exact")
    assert result.converged and result.w == exact.w and result.mistakes == exact.mistakes


@given(st.lists(st.tuples(st.integers(2**64, 2**70) | st.integers(-(2**70), -(2**64))
                          | st.integers(-3, 3), st.integers(-3, 3),
                          st.integers(-3, 3)), min_size=1, max_size=12),
       st.lists(st.sampled_from([-1, 1]), min_size=12, max_size=12),
       st.sampled_from([1, 2, 5, 64]))
def test_windows_in_python_integers_skip_nothing(X: list[tuple[int, ...]], y: list[int],
                                                 window: int) -> None:
    """In the object tier the window after a mistake shrinks to about twice the distance to
    it (`PrimalEngine.run_epoch`): whatever the first window, every update is found, in
    order, as the Fraction reference makes them."""
    from perceptron.algorithms.fast import PrimalEngine, Problem
    from perceptron.algorithms.online import EpochDriver

    data = Dataset.of(X, y[: len(X)])
    exact = run_online(data, max_epochs=8, engine="exact")
    engine = PrimalEngine(Problem.build(data, DEFAULT), window=window)
    driver = EpochDriver(engine, 8)
    updates = [i for _, positions in driver for i in positions]
    assert exact.trace is not None and updates == list(exact.trace.indices)
    assert (driver.mistakes, driver.epochs, driver.converged) == (
        exact.mistakes, exact.epochs, exact.converged)
    if max(abs(x[0]) for x in X) >= 2**64:  # R2 >= 2**128: Python integers from the start
        assert engine.tiers_used == ["object"]


def test_against_the_adversary_every_example_is_an_update_in_python_integers() -> None:
    """The adversary's examples all lie on the boundary: epoch 1 updates on every one, in
    the object tier (its denominators), found one window at a time."""
    from perceptron.generators.adversary import OnlineAdversary

    played = OnlineAdversary(F(40), F(1), seed=3).play()
    fast = run_online(played.data)
    exact = run_online(played.data, engine="exact")
    assert "object" in fast.arithmetic
    assert fast.trace is not None and exact.trace is not None
    assert list(fast.trace.indices[: played.data.n]) == list(range(played.data.n))
    assert list(fast.trace.indices) == list(exact.trace.indices) and fast.w == exact.w


def _same_run(a: object, b: object) -> None:
    assert (a.mistakes, a.epochs, a.converged, a.reason, a.w, a.separating,  # type: ignore[attr-defined]
            a.arithmetic) == (b.mistakes, b.epochs, b.converged, b.reason,  # type: ignore[attr-defined]
                              b.w, b.separating, b.arithmetic)  # type: ignore[attr-defined]
    if a.trace is not None:  # type: ignore[attr-defined]
        assert list(a.trace.indices) == list(b.trace.indices)  # type: ignore[attr-defined]
        assert list(a.trace.epochs) == list(b.trace.epochs)  # type: ignore[attr-defined]


@given(st.data())
def test_small_problems_on_python_integers_are_the_numpy_run(draw: st.DataObject) -> None:
    """A small problem runs blocks of epochs on Python integers (`fast.PYTHON_CELLS`): the
    same updates, epochs, reason (cycles found at the same epoch), final iterate and
    arithmetic tiers as the numpy epochs, across blocks (`fast.PYTHON_BLOCK` made small),
    with and without a trace, on every tier."""
    from perceptron.algorithms import fast
    from perceptron.algorithms.online import run_arrays

    values = draw.draw(st.sampled_from([small_int, small_rational,
                                        st.integers(-(2**40), 2**40), st.integers(-5, 2**66)]))
    data = draw.draw(datasets(values, max_n=6))
    conventions = draw.draw(conventions_for(data.d))
    epochs = draw.draw(st.integers(1, 40))
    block = draw.draw(st.sampled_from([1, 3, 256]))
    runs = []
    for cells in (10**9, 0):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(fast, "PYTHON_CELLS", cells)
            patch.setattr(fast, "PYTHON_BLOCK", block)
            runs.append(run_online(data, conventions, max_epochs=epochs, engine="primal"))
            if all(v.denominator == 1 for x in data.X for v in x):
                X = [[int(v) for v in x] for x in data.X]
                runs.append(run_arrays(np.array(X, dtype=object), np.array(data.y),
                                       Conventions(bias=conventions.bias), max_epochs=epochs))
    half = len(runs) // 2
    for python, numpy in zip(runs[:half], runs[half:], strict=True):
        _same_run(python, numpy)
    exact = run_online(data, conventions, max_epochs=epochs, engine="exact")
    assert (runs[0].mistakes, runs[0].w) == (exact.mistakes, exact.w)


def test_a_long_cycle_found_across_python_blocks() -> None:
    """XOR cycles from its first epochs; on a dataset that cycles only after a long transient
    the repeat is found at the same epoch whether Brent's state crosses blocks or not."""
    from perceptron.algorithms import fast

    data = Dataset.of([(5, 1), (-4, 1), (1, -1), (-2, -1), (3, 1)], [1, 1, -1, 1, -1])
    results = []
    for cells, block in ((10**9, 1), (10**9, 7), (0, 256)):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(fast, "PYTHON_CELLS", cells)
            patch.setattr(fast, "PYTHON_BLOCK", block)
            results.append(run_online(data, max_epochs=500, engine="primal"))
    assert results[0].reason.startswith("cycling")
    for other in results[1:]:
        _same_run(results[0], other)


@given(datasets(), st.integers(0, 4))
def test_traced_run_is_run_onlines_run_and_trace(data: Dataset, max_epochs: int) -> None:
    """`traced_run` (a campaign's runner: no final iterate or separation check) drives the
    same run and records the same trace as `run_online`."""
    result = run_online(data, max_epochs=max_epochs)
    run, trace = traced_run(data, max_epochs=max_epochs)
    assert trace is not None and result.trace is not None
    assert np.array_equal(trace.indices, result.trace.indices)
    assert np.array_equal(trace.epochs, result.trace.epochs)
    assert (run.mistakes, run.epochs, run.converged, run.reason, run.w()) == (
        result.mistakes, result.epochs, result.converged, result.reason, result.w)
    assert traced_run(data, max_epochs=max_epochs, keep_trace=False)[1] is None


@given(st.data(), datasets(small_rational), st.integers(0, 40))
def test_run_trace_is_traced_runs_trace(draw: st.DataObject, data: Dataset,
                                        max_epochs: int) -> None:
    """`run_trace` (a campaign's runner; a small problem on Python integers in one loop,
    without the driver) records the same updates in the same epochs as `traced_run`, under
    any conventions: converged, capped, and cycling runs (non-separable data), each with its
    integer form."""
    conventions = draw.draw(conventions_for(data.d))
    trace = run_trace(data, conventions, max_epochs=max_epochs)
    _, expected = traced_run(data, conventions, max_epochs=max_epochs)
    assert expected is not None
    assert np.array_equal(trace.indices, expected.indices)
    assert np.array_equal(trace.epochs, expected.epochs)
    assert trace.indices.dtype == trace.epochs.dtype == np.int64
    assert trace.problem.W0 == expected.problem.W0 and trace.problem.E == expected.problem.E
    # its loop itself, whether or not this process has loaded the compiled one
    indices, epochs = _small_trace(Problem.build(data, conventions), max_epochs)
    assert indices == expected.indices.tolist() and epochs == expected.epochs.tolist()


@pytest.mark.skipif(not compiled.AVAILABLE, reason="numba is not installed")
@given(st.data(), datasets(small_rational), st.integers(0, 40))
def test_run_trace_with_the_compiled_loop_is_traced_runs_trace(
        draw: st.DataObject, data: Dataset, max_epochs: int) -> None:
    """With the compiled loop loaded, a run that the driver's first compiled block ends is
    that block alone (`_one_block`): the same trace as `traced_run`'s, under any
    conventions; a run the block does not end is left to the driver (None)."""
    compiled.kernels()
    conventions = draw.draw(conventions_for(data.d))
    trace = run_trace(data, conventions, max_epochs=max_epochs)
    run, expected = traced_run(data, conventions, max_epochs=max_epochs)
    assert expected is not None
    assert np.array_equal(trace.indices, expected.indices)
    assert np.array_equal(trace.epochs, expected.epochs)
    found = _one_block(Problem.build(data, conventions), max_epochs)
    if found is not None:  # else the driver's blocks made `trace`, compared above
        assert found[0].tolist() == expected.indices.tolist()
        assert found[1].tolist() == expected.epochs.tolist()
        assert run.converged or run.reason.startswith("cycling") or run.epochs == max_epochs


def test_run_trace_stops_on_a_cycle_where_the_driver_does() -> None:
    """XOR never converges: the run stops where Brent's detection finds the repeated iterate,
    as the driver's, not at the cap; a big problem goes to `traced_run` itself."""
    data = xor()
    trace = run_trace(data, max_epochs=1000)
    run, expected = traced_run(data, max_epochs=1000)
    assert expected is not None and run.reason.startswith("cycling") and run.epochs < 1000
    assert np.array_equal(trace.indices, expected.indices)
    assert np.array_equal(trace.epochs, expected.epochs)
    indices, epochs = _small_trace(Problem.build(data, DEFAULT), 1000)
    assert indices == expected.indices.tolist() and epochs == expected.epochs.tolist()
    big = Dataset(tuple((F(k % 5 - 2),) * 40 + (F(1),) for k in range(4)), (1, -1, 1, -1))
    _, wide = traced_run(big, max_epochs=50)
    assert wide is not None and np.array_equal(run_trace(big, max_epochs=50).indices,
                                                wide.indices)
    with pytest.raises(ValueError, match="max_epochs"):
        run_trace(data, max_epochs=-1)


@given(draw=st.data())
def test_a_problem_from_zero_is_its_conventions_scaled(draw: st.DataObject) -> None:
    """`Problem.of_form` from the zero start: unit `eta / scale` (remembered per learning
    rate and scale, the same Fraction whichever run asks), E 1, W0 zero, and a threshold
    per example that is 1 exactly where its conventions update at a zero margin."""
    data = draw.draw(datasets(small_rational))
    conventions = draw.draw(conventions_for(data.d, with_w0=False))
    problem = Problem.build(data, conventions)
    form = problem.form
    assert problem.unit == conventions.eta / form.scale
    assert (problem.E, problem.W0) == (1, (0,) * form.d)
    assert problem.q.tolist() == [int(conventions.updates_at_zero(int(y)))
                                  for y in form.y.tolist()]
    assert Problem.build(data, conventions).unit is problem.unit


def test_a_conventions_subclass_decides_its_own_thresholds() -> None:
    """A subclass of `Conventions` whose zero margins rule otherwise is asked itself: the
    thresholds of the built-in rules are remembered per rule and sign, not per class."""

    class NeverAtZero(Conventions):
        def updates_at_zero(self, y: int) -> bool:
            return False

    data = Dataset((vec(1, 0), vec(0, 1)), (1, -1))
    assert Problem.build(data, DEFAULT).q.tolist() == [1, 1]
    assert Problem.build(data, NeverAtZero()).q.tolist() == [0, 0]


@pytest.mark.parametrize("switch", ["no", "False", 2, 0.5, None])
def test_a_switch_is_true_or_false_never_a_text_read_by_its_truth(switch: object) -> None:
    """Red team 33 F9: `Conventions(bias="no")`, `run_batch(..., bias="no")` and
    `ExactPerceptron(fit_intercept="no")` learned a bias, a text read by its truth (as
    `check_run`'s `finished="no"` was, red team 32). A switch is True or False (numpy's,
    or 1 and 0); anything else is a TypeError naming it."""
    from perceptron.algorithms.batch import run_batch
    from perceptron.algorithms.estimator import ExactPerceptron
    from perceptron.conventions import Conventions

    with pytest.raises(TypeError, match="bias is True or False"):
        Conventions(bias=switch)  # type: ignore[arg-type]
    data = Dataset.of([[1, 0], [0, 1]], [1, -1])
    with pytest.raises(TypeError, match="bias is True or False"):
        run_batch(data, step=1, bias=switch)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fit_intercept is True or False"):
        ExactPerceptron(fit_intercept=switch).fit(np.array([[1.0, 0], [0, 1]]),  # type: ignore[arg-type]
                                                  np.array([1, -1]))
    assert Conventions(bias=np.True_).bias is True and Conventions(bias=0).bias is False
