"""Batch rows built from the integer replay (`verify.runs.batch.IntegerBatch`) are exactly the rows
built from Fractions: same numerators, denominators and dtypes, for every batch row set."""

from __future__ import annotations

import numpy as np

from verify.numeric import campaign
from verify.runs import kind
from verify.runs.batch import BatchRun, engine_batch_runner
from verify.runs.columns import Origin


def as_fractions(run: BatchRun) -> BatchRun:
    """The same run without its integer form: its rows come from the Fractions."""
    return BatchRun(run.data, run.theta_star, run.theta0, tuple(run.iterations))


def test_integer_batch_rows_are_the_fraction_rows():
    scenarios = [*campaign.generated(11, 6), *campaign.tight(11, 8),
                 *campaign.adversary(11, (1, 2, 5), 4)]  # four shapes: rational data
    runs = [run for scenario in scenarios for run in engine_batch_runner(scenario)]
    assert any(run.iterations for run in runs) and all(run.integer is not None for run in runs)
    # rational data whose run makes no iteration: its empty columns are VectorColumn.of([])'s
    assert any(not run.iterations and run.integer.form.scale > 1  # type: ignore[union-attr]
               for run in runs)
    for run in runs:
        plain = as_fractions(run)
        assert plain.integer is None and plain.states == run.states
        assert plain.constants == run.constants
        batch = kind("batch")
        for binding in [r.name for r in batch.row_sets]:
            mine = batch.rows(run, binding, Origin("t"))
            theirs = batch.rows(plain, binding, Origin("t"))
            assert mine.scalars.keys() == theirs.scalars.keys()
            for name, column in theirs.scalars.items():
                other = mine.scalars[name]
                assert (other.den, other.num.dtype) == (column.den, column.num.dtype), name
                assert np.array_equal(other.num, column.num), name
            for name, vector in theirs.vectors.items():
                other = mine.vectors[name]
                assert (other.den, other.num.dtype) == (vector.den, vector.num.dtype), name
                assert np.array_equal(other.num, vector.num), name


def test_lazy_iterations_compare_as_tuples():
    scenario = next(iter(campaign.generated(3, 1)))
    run = engine_batch_runner(scenario)[0]
    assert run.iterations == tuple(run.iterations)
    assert len(run.iterations) == run.integer.iterations  # type: ignore[union-attr]
