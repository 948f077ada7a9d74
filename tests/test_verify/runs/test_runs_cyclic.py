"""`verify/runs/cyclic.py`: cyclic runs and their rows, against plain Fraction computations.

Every quantity a cyclic row binds is recomputed here from its definition (the iterate, the
epoch's start, the counts of Freund and Schapire's list, the Gordan sums) on runs of every
campaign source of the cyclic runs; and the facts the library proofs take from the runs as
hypotheses (the glue of `cycling-inseparable`, `separable-converges`, `tightness-every-margin`)
are checked to hold on every row they are about, so that no step is vacuous by a wrong row.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron.algorithms.margin import run_margin
from perceptron.algorithms.voted import run_voted
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.separability import Inseparable, separability
from perceptron.io.header import NOTHING_NAMED
from verify.audit.targets import scenarios_of
from verify.numeric import epochs
from verify.runs import cyclic
from verify.runs.columns import Column, Origin, int_array
from verify.runs.cyclic import KIND, cycling_runs, far_start, label, runner, voted_run
from verify.runs.quantity import Scenario

ORIGIN = Origin("test")


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def norm2(a: Vector) -> Fraction:
    return dot(a, a)


def values(run: cyclic.CyclicRun, binding: str, limit: int | None = None
           ) -> list[dict[str, object]]:
    """Every row of `binding` (the first `limit`, when given) as a dict of exact values
    (every name the row set binds)."""
    batch = KIND.rows(run, binding, ORIGIN, KIND.names(binding), limit)
    n = len(batch.iteration)
    out: list[dict[str, object]] = [{} for _ in range(n)]
    for name, column in batch.scalars.items():
        for i in range(n):
            out[i][name] = column.value(i)
    for name, vectors in batch.vectors.items():
        for i in range(n):
            out[i][name] = vectors.row(i)[:run.data.d]
    return out


def margin_of(data: Dataset, w: Vector) -> Fraction:
    return min(y * dot(w, x) for x, y in zip(data.X, data.y, strict=True))


def scenarios() -> list[Scenario]:
    """A few of each source's scenarios, the data that are not separable for 20 epochs."""
    short = [Scenario(s.data, s.u, s.origin, 20) for s in epochs.inseparable(3, 8)]
    return [*epochs.separable_epochs(3, 4), *short, *epochs.margin_families(0, 6)]


def test_presentation_rows_are_the_perceptron_presented_example_by_example() -> None:
    for scenario in scenarios():
        run = cyclic.perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs)
        reference = run_margin(scenario.data, 0, max_epochs=scenario.max_epochs)
        assert run.epochs == reference.epochs and run.P == run.epochs * scenario.data.n
        data, N = scenario.data, scenario.data.n
        w: Vector = tuple(Fraction(0) for _ in range(data.d))
        rows = values(run, "cyclic-presentation")
        for p, row in enumerate(rows):
            j = p % N
            if j == 0:
                start, r, h, k = w, 0, Fraction(0), sum(run.mistakes[p:p + N])
            m = int(data.y[j] * dot(w, data.X[j]) <= 0)
            after = tuple(a + m * data.y[j] * b for a, b in zip(w, data.X[j], strict=True))
            assert (row["w"], row["x"], row["y"], row["m"], row["w_next"]) == (
                w, data.X[j], data.y[j], m, after)
            assert (row["n"], row["t"], row["r"], row["h"], row["k"], row["ws"]) == (
                p, sum(run.mistakes[:p]), r, h, k, start)
            assert row["mu"] == margin_of(data, w) and row["mus"] == margin_of(data, start)
            r, h, w = r + m, h + m * norm2(data.X[j]), after
        if reference.converged:  # the last epoch has no update
            assert not any(run.mistakes[-N:])


def test_state_rows_count_epochs_and_read_the_gordan_certificate() -> None:
    for scenario in scenarios():
        run = cyclic.perceptron_cyclic(scenario.data, scenario.u, scenario.max_epochs)
        rows = values(run, "cyclic-state")
        assert [row["t"] for row in rows] == list(range(len(rows)))
        assert all(row["ue"] <= row["t"] for row in rows)
        lam = run.certificate
        found = separability(scenario.data)
        if isinstance(found, Inseparable):
            assert any(lam) and all(v >= 0 for v in lam)
            assert all(row["z"] == tuple(Fraction(0) for _ in row["z"]) for row in rows)
            assert all(row["S"] == 0 and row["L"] > 0 and row["mu"] <= 0 for row in rows)
            assert rows[-1]["ue"] == run.epochs  # every epoch updates
        else:
            assert not any(lam) and all(row["L"] == 0 for row in rows)
            assert rows[-1]["mu"] > 0 and rows[-1]["E"] == rows[-1]["ue"] + 1
        for row in rows:
            assert row["S"] == sum(v * y * dot(row["w"], x) for v, x, y in
                                   zip(lam, scenario.data.X, scenario.data.y, strict=True))


def test_the_cycling_glue_holds_on_every_epoch_and_far_epochs_occur() -> None:
    """Every fact `cycling-inseparable` takes from an epoch holds on every epoch row of the
    cycling runs (from 0 and from far out), so none of its steps is vacuous by a row, and
    the far case (mus <= -T, where the theorem's decrease is) is met."""
    far_epochs = 0
    for scenario in [*epochs.inseparable(5, 8), *epochs.inseparable_long(0, 2)]:
        scenario = Scenario(scenario.data, scenario.u, scenario.origin, 80)
        for run in cycling_runs(scenario):
            const = run.constants
            N, R2, T, delta = const["N"], const["R2"], const["T"], const["delta"]
            for row in values(run, "cyclic-epoch"):
                ws, g, wb, xs, ys = row["ws"], row["g"], row["wb"], row["xs"], row["ys"]
                kb, k, m1, mus, far = row["kb"], row["k"], row["m1"], row["mus"], row["far"]
                gap = tuple(a - b for a, b in zip(wb, ws, strict=True))
                end = tuple(a + b for a, b in zip(ws, g, strict=True))
                after = tuple(a + m1 * ys * b for a, b in zip(wb, xs, strict=True))
                assert mus == ys * dot(ws, xs) == margin_of(run.data, ws)
                assert norm2(gap) <= kb * (kb + 1) * R2 and norm2(g) <= k * (k + 1) * R2
                assert norm2(wb) <= norm2(ws) + kb * R2
                assert norm2(end) <= norm2(after) + (k - kb - m1) * R2
                assert kb + m1 <= k <= N and m1 in (0, 1) and far in (0, 1)
                assert (1 - m1) * ys * dot(wb, xs) + m1 > 0 and m1 * ys * dot(wb, xs) <= 0
                assert far == int(mus <= -T)
                if delta > 0:
                    assert mus <= 0 and mus * mus >= delta * delta * norm2(ws)
                    far_epochs += far
    assert far_epochs > 0


def test_a_far_start_is_far_and_only_on_surrounding_data() -> None:
    xor = next(epochs.inseparable(0, 1))  # kind 0: xor
    run = cyclic.perceptron_cyclic(xor.data, xor.u, 5)
    start = far_start(run)
    assert start is not None and norm2(start) >= (2 * run.constants["K"] + 1) ** 2
    planted = next(epochs.separable_epochs(0, 1))
    assert far_start(cyclic.perceptron_cyclic(planted.data, planted.u, 50)) is None
    assert len(cycling_runs(xor)) == 2


def test_voted_rows_are_freund_and_schapires_list() -> None:
    for scenario in [*epochs.separable_epochs(7, 4), *epochs.inseparable(7, 4)]:
        scenario = Scenario(scenario.data, scenario.u, scenario.origin, 12)
        run = voted_run(scenario)
        voted = run.voted
        assert voted is not None and voted == run_voted(scenario.data, run.epochs)
        rows = values(run, "cyclic-presentation")
        made = 0
        for p, row in enumerate(rows):
            counts = [*voted.counts[:made], row["c"]]
            assert row["C"] == sum(voted.counts[:made]) and row["C"] + row["c"] == p
            assert row["P"] == tuple(sum((c * v[i] for c, v in zip(
                voted.counts[:made], voted.vectors[:made], strict=True)), Fraction(0))
                for i in range(scenario.data.d))
            assert row["a"] == tuple(a + row["c"] * b for a, b in zip(
                row["P"], row["w"], strict=True))
            x, y = row["x"], row["y"]
            signs = [(dot(v, x) > 0) - (dot(v, x) < 0) for v in voted.vectors[:made + 1]]
            assert row["V"] == sum(c * s for c, s in zip(voted.counts[:made], signs[:made],
                                                         strict=True))
            assert row["s"] == signs[-1]
            assert (row["Wp"], row["Wn"], row["Wz"]) == tuple(
                sum(c for c, s in zip(counts, signs, strict=True) if y * s == want)
                for want in (1, -1, 0))
            made += int(row["m"])


def test_rows_of_another_kind_and_a_start_off_the_lattice_are_refused() -> None:
    scenario = next(epochs.separable_epochs(0, 1))
    run = cyclic.perceptron_cyclic(scenario.data, scenario.u, 10)
    with pytest.raises(ValueError, match="no 'state' rows"):
        KIND.rows(run, "state", ORIGIN)
    assert KIND.row_names == {"cyclic-state", "cyclic-presentation", "cyclic-epoch"}
    halves = Dataset.of([["1/2", 1], [1, "-1/3"]], [1, -1])
    with pytest.raises(ValueError, match="not a multiple of 1/6"):
        cyclic.perceptron_cyclic(halves, (Fraction(1), Fraction(0)), 3,
                                 (Fraction(1, 7), Fraction(0)))


def test_rows_for_some_names_are_those_columns_of_the_full_rows() -> None:
    scenario = next(epochs.inseparable(2, 1))
    run = cyclic.perceptron_cyclic(scenario.data, scenario.u, 6)
    picks = {"cyclic-state": {"w", "mu", "B2"}, "cyclic-presentation": {"x", "mus", "c"},
             "cyclic-epoch": {"g", "far"}}
    for row_set, names in picks.items():
        full, some = KIND.rows(run, row_set, ORIGIN), KIND.rows(run, row_set, ORIGIN, names)
        assert set(full.scalars) | set(full.vectors) == KIND.names(row_set)
        assert set(some.scalars) | set(some.vectors) == names
        for name in names & set(some.scalars):
            assert [some.scalars[name].value(i) for i in range(len(some))] == \
                [full.scalars[name].value(i) for i in range(len(full))]
        for name in names & set(some.vectors):
            assert [some.vectors[name].row(i) for i in range(len(some))] == \
                [full.vectors[name].row(i) for i in range(len(full))]


def test_runners_per_algorithm_and_the_far_runs_named() -> None:
    xor = next(epochs.inseparable(0, 1))
    assert runner(None) is runner("cyclic-perceptron") is cyclic.cyclic_run
    with pytest.raises(ValueError, match="margin-perceptron makes no cyclic runs"):
        runner("margin-perceptron")
    near, far = cycling_runs(xor)
    assert label(ORIGIN, near) == ORIGIN
    assert "from w0 = " in label(ORIGIN, far).dataset and label(ORIGIN, far) != ORIGIN


def test_a_data_file_that_is_not_separable_is_run_with_e1_as_u() -> None:
    xor = next(epochs.inseparable(0, 1)).data
    (scenario,) = scenarios_of(xor, NOTHING_NAMED, None, "cyclic", "xor.csv")
    assert scenario.u == (Fraction(1), Fraction(0)) and scenario.data is xor
    with pytest.raises(Exception, match="not linearly separable"):
        scenarios_of(xor, NOTHING_NAMED, None, "online", "xor.csv")


def test_runs_to_convergence_refuse_unseparable_data_advising_a_bias_only_where_it_helps(
) -> None:
    """Newcomer 24: XOR's refusal advised a constant column for a bias, which separates no
    XOR; the advice is given exactly when the augmented data are separable (decided)."""
    xor = next(epochs.inseparable(0, 1)).data
    assert isinstance(separability(xor.augmented()), Inseparable)
    with pytest.raises(Exception, match="no separator u, not even with a constant column"):
        scenarios_of(xor, NOTHING_NAMED, None, "online", "xor.csv")
    # 1 -> +1, 2 -> -1: no w through the origin, (w, b) = (-1, 3/2) with a bias
    offset = Dataset(((Fraction(1),), (Fraction(2),)), (1, -1), "offset")
    assert isinstance(separability(offset), Inseparable)
    with pytest.raises(Exception, match=r"\(with a constant column for a bias they are "
                                        r"separable: add one\)"):
        scenarios_of(offset, NOTHING_NAMED, None, "online", "offset.csv")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**70), 2**70) | st.integers(-9, 9), max_size=6),
       st.sampled_from([1, 4, 2**62, 3**50]),
       st.builds(Fraction, st.integers(-(2**66), 2**66) | st.integers(-9, 9),
                 st.sampled_from([1, 3, 2**63 + 1])))
def test_the_far_column_compares_as_fractions_do(nums: list[int], den: int,
                                                  bound: Fraction) -> None:
    """`_at_most` (the epoch rows' `far`, mus <= -T, decided on numerators in Python ints)
    marks exactly the rows whose Fraction is at most the bound, near and beyond int64."""
    column = Column(int_array(nums), den)
    expected = [column.value(i) <= bound for i in range(len(nums))]
    assert cyclic._at_most(column, bound).tolist() == expected


#: Small rational examples with labels, separable or not (inseparable runs cycle, and the
#: replay repeats their cycle to the cap).
any_data = st.integers(1, 3).flatmap(lambda d: st.lists(
    st.tuples(st.lists(st.fractions(min_value=-3, max_value=3, max_denominator=3),
                       min_size=d, max_size=d), st.sampled_from((-1, 1))),
    min_size=1, max_size=6)).map(lambda rows: Dataset.of([x for x, _ in rows],
                                                          [y for _, y in rows]))


@given(any_data, st.integers(1, 40), st.booleans())
def test_the_replay_is_the_textbook_loop_presentation_by_presentation(
        data: Dataset, max_epochs: int, from_start: bool) -> None:
    """`perceptron_cyclic`, which repeats a cycling run's cycle to the cap (issue 30), makes
    the textbook loop's presentations and mistakes, epoch by epoch, from 0 or a start."""
    start = tuple(Fraction(k % 3 - 1) for k in range(data.d)) if from_start else None
    w: Vector = start if start is not None else tuple(Fraction(0) for _ in range(data.d))
    presented: list[int] = []
    mistakes: list[int] = []
    epochs = 0
    while epochs < max_epochs:
        epochs += 1
        clean = True
        for j, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            wrong = y * dot(w, x) <= 0
            presented.append(j)
            mistakes.append(int(wrong))
            if wrong:
                w = tuple(a + y * b for a, b in zip(w, x, strict=True))
                clean = False
        if clean:
            break
    u = tuple(Fraction(int(k == 0)) for k in range(data.d))
    run = cyclic.perceptron_cyclic(data, u, max_epochs, start)
    assert (list(run.presented), list(run.mistakes), run.epochs) == (presented, mistakes, epochs)


@pytest.mark.parametrize("block", [1, 7])
def test_margins_made_block_by_block_give_the_same_rows(monkeypatch, block: int) -> None:
    """Every state's margin on every example was one table of P + 1 by N (every
    presentation's iterate: 4e6 by 2e4 on a 20 000 x 50 file, far past a worker's 4 GB): the
    margins are now made for the states only, `MARGIN_BLOCK` entries at a time (the voted
    list's signs too). Block by block, or a state at a time, every row of every row set is
    the same exact values as with one block, on the perceptron's runs from 0 and from far
    out and on the voted perceptron's (whose presentation rows read the signs)."""
    runs = []
    for scenario in scenarios()[:6]:
        runs += [*cycling_runs(scenario), voted_run(Scenario(scenario.data, scenario.u,
                                                             scenario.origin, 6))]
    whole = [[values(run, r.name) for r in KIND.row_sets] for run in runs]
    monkeypatch.setattr(cyclic, "MARGIN_BLOCK", block)
    again = [[values(type(run)(run.data, run.u, run.presented, run.mistakes, run.epochs,
                               run.voted, run.start), r.name) for r in KIND.row_sets]
             for run in runs]  # new runs: nothing cached from the first
    assert again == whole
    assert any(run.voted is not None for run in runs) and any(run.start for run in runs)


def test_states_past_the_whole_limit_are_made_a_block_at_a_time(monkeypatch) -> None:
    """Votedbig: the states were made whole (`CyclicRun.states`, T + 1 by d): two million of
    the voted run on a 20 000 x 50 file that is not separable, 800 MB of int64, though only
    its 200 epoch rows read them (its state and presentation rows past the rows' limit).
    Past `WHOLE_STATES` coordinates the states asked for are made from blocks of partial sums
    (`states_at`), never the whole table: the same states, the same epoch rows and the same
    least margins as from the whole table, in any order asked, the last state included."""
    scenarios = [*epochs.inseparable(3, 3), *epochs.separable_epochs(3, 2)]
    for scenario in scenarios:
        scenario = Scenario(scenario.data, scenario.u, scenario.origin, 9)
        whole = voted_run(scenario)
        rows = values(whole, "cyclic-epoch")
        least = whole.lowest(np.arange(len(whole.states), dtype=np.int64))
        with monkeypatch.context() as patch:
            patch.setattr(cyclic, "WHOLE_STATES", 1)
            patch.setattr(cyclic, "MARGIN_BLOCK", 3 * scenario.data.d)  # blocks of 3 states
            blocks = voted_run(scenario)
            T = len(blocks.update_positions)
            which = np.array([T, 0, *range(T, -1, -2), 1 % (T + 1), T], dtype=np.int64)
            assert np.array_equal(blocks.states_at(which), whole.states[which])
            assert values(blocks, "cyclic-epoch") == rows
            got = blocks.lowest(np.arange(T + 1, dtype=np.int64))
            assert all(np.array_equal(a, b) for a, b in zip(got, least, strict=True))
            assert "states" not in blocks.__dict__  # never made whole


@pytest.mark.parametrize("whole_states", [cyclic.WHOLE_STATES, 1])
def test_the_first_state_and_presentation_rows_are_made_alone_as_among_all(
        monkeypatch, whole_states: int) -> None:
    """Bigdata30: `audit averaged-voted --data` on a 20 000 x 50 file that is not separable
    checked none of its runs' state and presentation rows (2 016 515 states, 4 000 000
    presentations, past `MAX_RUN_CELLS`): a cyclic row set could not make its first rows
    alone. Both now can (`RowSet.prefix`): the first `limit` rows of a run, made without
    the others (from the run's `head`), are the same exact values as the first `limit` of
    all its rows, every quantity, on the perceptron's runs from 0 and from far out and on
    the voted perceptron's (its counts, sums and votes), a limit inside an epoch or at its
    end, and with the states made whole or a block at a time."""
    monkeypatch.setattr(cyclic, "WHOLE_STATES", whole_states)
    runs = []
    for scenario in scenarios()[:6]:
        runs += [*cycling_runs(scenario), voted_run(Scenario(scenario.data, scenario.u,
                                                             scenario.origin, 6))]
    assert KIND.prefix("cyclic-state") and KIND.prefix("cyclic-presentation")
    assert not KIND.prefix("cyclic-epoch")
    for run in runs:
        N = run.data.n
        for row_set in ("cyclic-state", "cyclic-presentation"):
            every = values(run, row_set)
            for limit in sorted({1, 2, N - 1, N, N + 1, len(every) // 2, len(every) - 1,
                                 len(every), len(every) + 3} - {0}):
                fresh = type(run)(run.data, run.u, run.presented, run.mistakes, run.epochs,
                                  run.voted, run.start)  # nothing cached from the whole rows
                assert values(fresh, row_set, limit) == every[:limit], (row_set, limit)
    assert any(run.voted is not None for run in runs) and any(run.start for run in runs)


def test_the_states_are_added_up_a_block_of_updates_at_a_time(monkeypatch) -> None:
    """bigdata31: `CyclicRun.states` gathered every update's step, summed them and added the
    start, three arrays of the states' size beside them (averaged-voted's first 335 544
    states on a 20 000 x 50 file, 134 MB each: 510 -> 910 MB). The sums go into the states'
    rows `STATES_BLOCK` updates at a time, no step array larger: the same states, from any
    start (the cycling perceptron's far one too)."""
    gathered: list[int] = []
    for scenario in [*epochs.inseparable(3, 3), *epochs.separable_epochs(3, 2)]:
        scenario = Scenario(scenario.data, scenario.u, scenario.origin, 9)
        for run in (voted_run(scenario), *cycling_runs(scenario)):
            Z = run._steps
            presented = np.array(run.presented, dtype=np.int64)[run.update_positions]
            reference = np.concatenate([np.array([run.W0], dtype=Z.dtype),
                                        np.array([run.W0], dtype=Z.dtype)
                                        + np.cumsum(Z[presented], axis=0)])
            with monkeypatch.context() as patch:
                patch.setattr(cyclic, "STATES_BLOCK", 2)
                run.__dict__.pop("states", None)

                class Spied(np.ndarray):  # the steps gathered at once, by their count
                    def __getitem__(self, key):  # type: ignore[no-untyped-def]
                        got = super().__getitem__(key)
                        gathered.append(len(got))
                        return np.asarray(got)

                run.__dict__["_steps"] = Z.view(Spied)
                assert run.states.tolist() == reference.tolist()
    assert gathered and max(gathered) <= 2
