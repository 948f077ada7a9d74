"""Rows built from the engine's integer arrays are exactly the rows built from Fractions."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from perceptron.conventions import Conventions
from verify.numeric.campaign import adversary, generated, tight
from verify.runs.columns import InstanceBatch, VectorColumn, reduced
from verify.runs.online import KIND as ONLINE
from verify.runs.online import engine_runner, margin_runs, source_runner

SCENARIOS = [*generated(seed=3, count=25), *tight(seed=5, count=15),
             *adversary(seed=7, bounds=range(1, 6), sweeps=4)]


def same(a: InstanceBatch, b: InstanceBatch) -> None:
    """Identical columns: names, numerators (and their dtype), denominators."""
    assert a.scalars.keys() == b.scalars.keys() and a.vectors.keys() == b.vectors.keys()
    for name in a.scalars:
        x, y = a.scalars[name], b.scalars[name]
        assert x.den == y.den and x.num.dtype == y.num.dtype, name
        assert x.num.tolist() == y.num.tolist(), name
    for name in a.vectors:
        u, v = a.vectors[name], b.vectors[name]
        assert u.den == v.den and u.num.dtype == v.num.dtype, name
        assert u.num.shape == v.num.shape and u.num.tolist() == v.num.tolist(), name
    assert a.magnitude() == b.magnitude()


@pytest.mark.parametrize("k", range(len(SCENARIOS)))
def test_integer_rows_equal_fraction_rows(k: int) -> None:
    scenario = SCENARIOS[k]
    for runner in (engine_runner, source_runner("virtue-online"),
                   lambda s: engine_runner(s, Conventions(eta=Fraction(2, 3),
                                                          w0=tuple(-v for v in s.u)))):
        run = runner(scenario)
        assert run.integer is not None
        slow = replace(run, integer=None)
        for binding in ("state", "example", "update"):
            same(ONLINE.rows(run, binding, scenario.origin),
                 ONLINE.rows(slow, binding, scenario.origin))
        assert run.constants == slow.constants
        # the history read off the updates alone (equal examples: the adversary's zeros)
        assert slow.indices.tolist() == run.indices.tolist()
        assert slow.times.tolist() == run.times.tolist()


def test_reduced_is_the_least_common_denominator() -> None:
    values = [[Fraction(2, 6), Fraction(-4, 3)], [Fraction(0), Fraction(8, 9)]]
    expected = VectorColumn.of(values)
    got = reduced(np.array([[6, -24], [0, 16]], dtype=np.int64), 18)
    assert (got.den, got.num.tolist(), got.num.dtype) == (
        expected.den, expected.num.tolist(), expected.num.dtype)
    huge = reduced(np.array([[2**68, 2**64]], dtype=object), 2**6)
    assert (huge.den, huge.num.tolist(), huge.num.dtype) == (1, [[2**62, 2**58]], np.int64)
    assert reduced(np.array([[2**64 + 1]], dtype=object), 2).num.dtype == object


@pytest.mark.parametrize("k", range(0, len(SCENARIOS), 3))
def test_rows_built_for_some_names_are_those_columns_of_all_rows(k: int) -> None:
    """A builder given the names the checks read skips the other columns (the costly loss
    and gradient columns of example rows among them): what it does build is exactly the
    full rows' column, for each name alone and for every name at once."""
    scenario = SCENARIOS[k]
    run = engine_runner(scenario)
    for binding in ("state", "example", "update"):
        full = ONLINE.rows(run, binding, scenario.origin, None)
        offered = sorted(ONLINE.names(binding))
        for chosen in [[name] for name in offered] + [offered, offered[::2]]:
            part = ONLINE.rows(run, binding, scenario.origin, chosen)
            wanted = set(chosen) - {"mu"}  # mu is made only when asked for, never by default
            kept = InstanceBatch({n: c for n, c in full.scalars.items() if n in wanted},
                                 {n: c for n, c in full.vectors.items() if n in wanted},
                                 full.origins, full.origin_index, full.iteration)
            part.scalars.pop("mu", None)
            same(part, kept)


def test_a_run_asked_again_of_the_same_scenario_and_conventions_is_the_run_made() -> None:
    """`engine_runner` keeps its last runs: the same scenario object under equal conventions
    (virtue-online's are the default ones) is the run already made; other conventions, an
    equal scenario of another object, or a run no longer kept make a run, with the same
    rows."""
    from verify.runs import online

    scenario, *others = SCENARIOS[:online.KEPT_RUNS + 1]
    run = engine_runner(scenario)
    assert engine_runner(scenario) is run
    assert source_runner("virtue-online")(scenario) is run
    assert engine_runner(scenario, Conventions(rule="lt")) is not run
    again = engine_runner(replace(scenario))
    assert again is not run
    for binding in ("state", "example"):
        same(ONLINE.rows(again, binding, scenario.origin), ONLINE.rows(run, binding,
                                                                        scenario.origin))
    for other in others:
        engine_runner(other)
    assert len(online._KEPT) == online.KEPT_RUNS
    assert engine_runner(scenario) is not run


def test_mu_made_block_by_block_is_the_least_margin_of_each_state(monkeypatch) -> None:
    """`mu` on state rows was one table of every state's margin on every example, in Python
    ints (T + 1 by N: 84 000 states of a 20 000 x 50 file, 1.7e9 entries); it is made
    `MARGIN_BLOCK` entries at a time. A state at a time, or a few, it is each state's least
    margin `min_j y_j <w_t, x_j>`, as Fractions compute it."""
    from verify.runs import online

    runs = [engine_runner(s) for s in [*generated(5, 4), *tight(6, 4), *adversary(7, (3, 5), 1)]]
    for block in (1, 5, 2**20):
        monkeypatch.setattr(online, "MARGIN_BLOCK", block)
        for run in runs:
            expected = [min(y * sum((a * b for a, b in zip(w, x, strict=True)), Fraction(0))
                            for x, y in zip(run.data.X, run.data.y, strict=True))
                        for w in run.states]
            mu = online.iterate_margins(run)
            assert [mu.value(i) for i in range(len(expected))] == expected


def _exact(batch: InstanceBatch, rows: int) -> list[dict[str, object]]:
    """The first `rows` rows of `batch` as exact values, every column."""
    out: list[dict[str, object]] = [{} for _ in range(rows)]
    for name, column in batch.scalars.items():
        for i in range(rows):
            out[i][name] = column.value(i)
    for name, vectors in batch.vectors.items():
        for i in range(rows):
            out[i][name] = vectors.row(i)
    return out


@pytest.mark.parametrize("k", range(0, len(SCENARIOS), 5))
def test_the_first_rows_made_alone_are_the_first_of_all_rows(k: int) -> None:
    """Votedbig: dataguard made none of a run's state or update rows past the rows' limit
    (`MAX_RUN_CELLS`): the margin perceptron's 422 920 state rows on a 20 000 x 50 file,
    checked before, were not checked at all. Those row sets make their first `limit` rows
    alone (`RowSet.prefix`), as the campaign asks past the limit: each the same row, every
    column exactly (`mu` and the run's constants included), as among all of them."""
    scenario = SCENARIOS[k]
    runs = (engine_runner(scenario), *margin_runs(scenario))
    for run in (*runs, *(replace(r, integer=None) for r in runs)):  # integers, Fractions
        for binding in ("state", "update"):
            assert ONLINE.prefix(binding)
            names = sorted(ONLINE.names(binding))
            full = ONLINE.rows(run, binding, scenario.origin, names)
            total = len(full.iteration)
            whole = _exact(full, total)
            for limit in sorted({1, total // 2, max(total - 1, 1), total, total + 3}):
                part = ONLINE.rows(run, binding, scenario.origin, names, limit)
                made = min(limit, total)
                assert len(part.iteration) == made and part.scalars.keys() == \
                    full.scalars.keys() and part.vectors.keys() == full.vectors.keys()
                assert _exact(part, made) == whole[:made], (binding, limit)
    with pytest.raises(ValueError, match="example rows are made whole, not the first 2"):
        ONLINE.rows(engine_runner(scenario), "example", scenario.origin, None, 2)
