"""Batch rows built from the integer replay (`verify.runs.batch.IntegerBatch`) are exactly the rows
built from Fractions: same numerators, denominators and dtypes, for every batch row set."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.numeric import campaign
from verify.runs import kind
from verify.runs.batch import BatchRun, engine_batch_runner
from verify.runs.columns import Origin, VectorColumn


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


def _same_columns(mine, theirs) -> None:
    """Two row batches hold the same columns, in the same order, with the same numerators,
    denominators and dtypes."""
    assert list(mine.scalars) == list(theirs.scalars)
    assert list(mine.vectors) == list(theirs.vectors)
    for name, column in theirs.scalars.items():
        other = mine.scalars[name]
        assert np.array_equal(np.asarray(other.den), np.asarray(column.den)), name
        assert other.num.dtype == column.num.dtype and np.array_equal(other.num, column.num)
    for name, vector in theirs.vectors.items():
        other = mine.vectors[name]
        assert np.array_equal(np.asarray(other.den), np.asarray(vector.den)), name
        assert other.num.dtype == vector.num.dtype and np.array_equal(other.num, vector.num)
        assert other.magnitude == vector.magnitude, name


@given(st.data())
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
def test_batch_rows_of_some_names_are_those_columns_of_all_rows(data):
    """A batch row set built for the names its checks read (`names`) holds exactly those
    columns of the rows built without names (the builders skip the others, and make each
    iteration column once per run), in their order; no names at all still count the rows."""
    source = data.draw(st.sampled_from(["generated", "tight", "adversary"]))
    seed = data.draw(st.integers(0, 50))
    scenario = next(iter(campaign.generated(seed, 1) if source == "generated"
                         else campaign.tight(seed, 1) if source == "tight"
                         else campaign.adversary(seed, (1 + seed % 4,), 1 + seed % 4)))
    batch = kind("batch")
    for fresh in engine_batch_runner(scenario):
        for binding in [r.name for r in batch.row_sets]:
            offered = sorted(batch.names(binding))
            names = data.draw(st.sets(st.sampled_from(offered)))
            whole = batch.rows(fresh, binding, Origin("t"))
            for run in (fresh, as_fractions(fresh)):  # the integer and the Fraction paths
                some = batch.rows(run, binding, Origin("t"), names)
                assert len(some) == len(whole)
                assert set(some.scalars) | set(some.vectors) == set(names)
                restricted = batch.rows(fresh, binding, Origin("t"))
                restricted.scalars = {n: c for n, c in restricted.scalars.items() if n in names}
                restricted.vectors = {n: c for n, c in restricted.vectors.items() if n in names}
                _same_columns(some, restricted)


@given(st.data())
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
def test_integer_states_of_a_range_are_the_fraction_states(data):
    """`IntegerBatch.states(first, stop)`, rows of the column of every iterate reduced to
    their own least common denominator, is the column `VectorColumn.of` makes of those
    iterates' Fractions (same numerators, denominator, dtype and magnitude)."""
    seed = data.draw(st.integers(0, 60))
    scenario = next(iter(campaign.adversary(seed, (1 + seed % 5,), 1 + seed % 4)))
    for run in engine_batch_runner(scenario):
        integer = run.integer
        assert integer is not None
        count = integer.iterations + 1
        first = data.draw(st.integers(0, count))
        stop = data.draw(st.one_of(st.none(), st.integers(first, count)))
        got = integer.states(first, stop)
        expected = VectorColumn.of(list(run.states[first:stop]))
        assert (got.den, got.num.dtype) == (expected.den, expected.num.dtype)
        assert np.array_equal(got.num, expected.num)
        assert got.magnitude == expected.magnitude



def test_iterates_scaled_to_their_lcm_at_the_int64_edge_are_the_fraction_column():
    """`IntegerBatch.states` scales each iterate `W_k / D_k` to the lcm of the D's in int64
    only when the largest |W| times the largest `lcm / D_k` fits: at that bound's edge
    (exactly 2**63 - 1), one past it, a bound past it whose products fit, and Python-int
    iterates, the column is `VectorColumn.of`'s of the same Fractions (numerators,
    denominator, dtype, magnitude)."""
    from fractions import Fraction

    from perceptron.algorithms.fast import integer_form
    from perceptron.dataset import Dataset
    from verify.runs.batch import IntegerBatch

    edge = 2**63 - 1  # 7 * 7 * 73 * 127 * 337 * 92737 * 649657
    form = integer_form(Dataset(((Fraction(1), Fraction(1)),), (1,)))
    cases = [(((edge // 7, 1), (1, 0)), (1, 7)),  # 7 * (edge // 7) == edge: int64
             (((edge // 7 + 1, 1), (1, 0)), (1, 7)),  # one past: Python ints
             (((1, 1), (edge, 0)), (1, 7)),  # bound 7 * edge, products 7 and edge: int64
             (((2**70 + 1, 3), (5, 0)), (2, 3)),  # Python-int iterates
             (((3, 6), (9, 12)), (9, 9))]  # one D: no row scaled
    for W, D in cases:
        for sign in (1, -1):
            signed = tuple(tuple(sign * w for w in row) for row in W)
            got = IntegerBatch(form, signed, D, (), (), ()).states()
            expected = VectorColumn.of([tuple(Fraction(w, d) for w in row)
                                        for row, d in zip(signed, D, strict=True)])
            assert (got.den, got.num.dtype, got.num.tolist(), got.magnitude) == (
                expected.den, expected.num.dtype, expected.num.tolist(), expected.magnitude)
    assert IntegerBatch(form, cases[0][0], cases[0][1], (), (), ()).states().num.dtype == np.int64
