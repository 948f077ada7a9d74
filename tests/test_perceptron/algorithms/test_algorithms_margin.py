"""`perceptron/algorithms/margin.py` and `voted.py`: the perceptron's variants in cyclic epochs,
each against a plain Fraction loop.

The integer loop decides `y<w, x> <= beta` as `<W, Z_i> <= floor(beta s^2)`; these tests pin
that it is the textbook rule on rational data (including the boundary `y<w, x> = beta`, where
it must update), that `beta = 0` is the engine's ordinary perceptron, and the margin
perceptron's own laws: at most `(R2 + 2 beta) <u,u> / gamma_u^2` updates on separable data,
and a converged iterate with margin above `beta` on every example.

The voted and the averaged perceptron (`voted.py`) against a plain Fraction loop written from
Freund & Schapire's Figure 1, and their laws: the counts add up to
the presentations, the vectors are the perceptron's iterates, the averaged vector is the sum of
the iterate held after every presentation, and on separable data the vote and the averaged
vector converge to separators.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms.margin import run_margin, threshold
from perceptron.algorithms.online import run_online
from perceptron.algorithms.voted import mistakes_from, run_voted
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from perceptron.generators.hypothesis import seeded_separable, separable_data
from perceptron.geometry.linear import norm2, radius2
from verify.runs.quantity import margin


def dot(a: Vector, b: Vector) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def reference(data: Dataset, beta: Fraction, max_epochs: int) -> tuple[list[int], Vector, bool]:
    """The textbook loop in Fractions: w += y x whenever y<w, x> <= beta."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    indices: list[int] = []
    for _ in range(max_epochs):
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            if y * dot(w, x) <= beta:
                w = tuple(a + y * b for a, b in zip(w, x, strict=True))
                indices.append(i)
                updated = True
        if not updated:
            return indices, w, True
    return indices, w, False


betas = st.fractions(min_value=0, max_value=20, max_denominator=12)


@given(separable_data(max_dim=4, max_n=6), betas)
def test_the_integer_loop_is_the_textbook_rule(planted, beta: Fraction) -> None:
    run = run_margin(planted.data, beta, max_epochs=30)
    indices, w, converged = reference(planted.data, beta, 30)
    assert list(run.indices) == indices
    assert run.w == w
    assert run.converged == converged
    assert run.updates == len(indices)


@given(separable_data(max_dim=4, max_n=8))
def test_beta_zero_is_the_ordinary_perceptron(planted) -> None:
    ours = run_margin(planted.data, 0)
    engine = run_online(planted.data, keep_trace=True)
    assert ours.w == tuple(engine.w)
    assert ours.updates == engine.mistakes
    assert ours.converged == engine.converged
    assert list(ours.indices) == [int(step.index) for step in engine.trace]


@given(separable_data(max_dim=4, max_n=8), betas)
def test_at_most_r2_plus_two_beta_over_gamma_squared_updates(planted, beta: Fraction) -> None:
    run = run_margin(planted.data, beta, max_epochs=100_000)
    gamma_u = margin(planted.data, planted.u)
    bound = (radius2(planted.data) + 2 * beta) * norm2(planted.u) / gamma_u**2
    assert run.converged
    assert run.updates <= bound
    # converged: every example has a margin above beta (else it would have updated)
    assert all(y * dot(run.w, x) > beta for x, y in zip(planted.data.X, planted.data.y,
                                                         strict=True))


def test_the_boundary_updates() -> None:
    """y<w, x> == beta exactly (a non-integer beta s^2) is an update; just above it is not."""
    data = Dataset(((Fraction(1, 2), Fraction(0)), (Fraction(1, 3), Fraction(0))), (1, 1),
                   "boundary")
    # after the first update w = (1/2, 0): example 2 has y<w,x> = 1/6
    assert list(run_margin(data, Fraction(1, 6), max_epochs=1).indices) == [0, 1]
    assert list(run_margin(data, Fraction(1, 6) - Fraction(1, 10**9),
                           max_epochs=1).indices) == [0]
    assert threshold(Fraction(1, 6), 6) == 6 and threshold(Fraction(1, 7), 6) == 5


def test_a_larger_beta_updates_more_and_separates_by_more() -> None:
    data = seeded_separable(11).data
    runs = [run_margin(data, beta * radius2(data)) for beta in (0, Fraction(1, 3), 2)]
    assert [r.converged for r in runs] == [True, True, True]
    assert runs[0].updates < runs[1].updates < runs[2].updates


def test_the_integer_form_is_the_run() -> None:
    """`problem` holds the run in integers: W after the updates is s w, and `q = B + 1`."""
    data = seeded_separable(5).data
    run = run_margin(data, Fraction(3, 2))
    form = run.problem.form
    W = [0] * form.d
    for i in run.indices:
        W = [a + int(b) for a, b in zip(W, run.problem.Z[i], strict=True)]
    assert tuple(Fraction(v) * run.problem.unit for v in W) == run.w
    assert set(run.problem.q.tolist()) == {threshold(Fraction(3, 2), form.scale) + 1}


@pytest.mark.parametrize(("beta", "epochs"), [(-1, 5), (0, 0)])
def test_bad_arguments_are_one_clear_error(beta: int, epochs: int) -> None:
    with pytest.raises(DataError):
        run_margin(seeded_separable(1).data, beta, max_epochs=epochs)


# ---- the voted and the averaged perceptron (Freund & Schapire 1999) ----------------------


def figure_one(data: Dataset, epochs: int) -> tuple[list[Vector], list[int]]:
    """Freund & Schapire (1999), Figure 1, in Fractions (a mistake when y<v, x> <= 0)."""
    v: Vector = tuple(Fraction(0) for _ in range(data.d))
    vectors, counts = [v], [0]
    for _ in range(epochs):
        for x, y in zip(data.X, data.y, strict=True):
            if y * dot(vectors[-1], x) <= 0:
                vectors.append(tuple(a + y * b for a, b in zip(vectors[-1], x, strict=True)))
                counts.append(1)
            else:
                counts[-1] += 1
    return vectors, counts


@given(separable_data(max_dim=4, max_n=6), st.integers(1, 6))
def test_the_integer_loop_is_figure_one(planted, epochs: int) -> None:
    run = run_voted(planted.data, epochs)
    vectors, counts = figure_one(planted.data, epochs)
    assert list(run.vectors) == vectors and list(run.counts) == counts
    assert sum(run.counts) == epochs * planted.data.n == len(run.presented)
    assert run.updates == sum(run.mistakes) == len(vectors) - 1


@given(separable_data(max_dim=4, max_n=6), st.integers(1, 5))
def test_the_averaged_vector_is_the_sum_of_the_iterates(planted, epochs: int) -> None:
    """sum_j c_j v_j == the sum, over the presentations, of the vector held after each."""
    run = run_voted(planted.data, epochs)
    total: Vector = tuple(Fraction(0) for _ in range(planted.data.d))
    current = run.vectors[0]
    made = 0
    for mistake in run.mistakes:
        if mistake:
            made += 1
            current = run.vectors[made]
        total = tuple(a + b for a, b in zip(total, current, strict=True))
    assert run.averaged() == total


def test_the_vectors_are_the_perceptron_iterates() -> None:
    for seed in range(12):
        data = seeded_separable(seed).data
        run = run_voted(data, 6)
        margin = run_margin(data, 0, max_epochs=6)
        assert run.updates == margin.updates
        assert run.vectors[-1] == margin.w


def test_on_separable_data_vote_and_average_converge() -> None:
    """Once the last vector separates and its count exceeds the retired ones', the vote, and
    (after enough epochs) the averaged vector, classify every example correctly."""
    for seed in range(8):
        data = seeded_separable(seed).data
        epochs = 3 * run_margin(data, 0, max_epochs=1000).epochs + 2
        run = run_voted(data, epochs)
        assert run.counts[-1] > sum(run.counts[:-1])
        for x, y in zip(data.X, data.y, strict=True):
            assert y * run.predict_voted(x) == 1
            assert y * dot(run.vectors[-1], x) > 0
        long = run_voted(data, 40 * epochs)
        assert all(y * long.predict_averaged(x) == 1
                   for x, y in zip(data.X, data.y, strict=True))


def test_a_tied_vote_and_the_hyperplane_predict_zero() -> None:
    data = Dataset.of([[1, 0], [0, 1]], [1, -1])
    run = run_voted(data, 1)  # v_2 = e_1 (count 1), v_3 = e_1 - e_2 (count 1)
    assert run.counts == (0, 1, 1)
    assert run.vote((Fraction(0), Fraction(1))) == -1
    assert run.vote((Fraction(1), Fraction(1))) == 1
    assert run.predict_averaged((Fraction(0), Fraction(0))) == 0
    assert run.predict_voted((Fraction(-1), Fraction(1))) == -1


def test_training_keeps_no_vector_per_mistake() -> None:
    """Votedbig: the run kept its list of vectors, one per mistake, as Python integers (200
    epochs of a 20 000 x 50 file that is not separable: two million vectors, past a
    worker's 4 GB, `audit averaged-voted --data` exit 2). Its memory now grows with the
    presentations (an index and a flag each) and the mistakes (a count), not with mistakes
    times coordinates; the last vector and the weighted sum, added up as it trains, are the
    replayed list's."""
    import tracemalloc

    rng = [(7 * i * i + 3 * j) % 11 - 5 for i in range(40) for j in range(60)]
    data = Dataset.of([rng[60 * i:60 * i + 60] for i in range(40)],
                      [1 if (i * 5) % 3 else -1 for i in range(40)])  # not separable
    tracemalloc.start()
    run = run_voted(data, 200)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    presentations = 200 * data.n
    assert run.updates > presentations // 2  # 60 Python ints a vector: over 1 000 bytes
    assert peak < 100 * presentations  # was 6.0 MB, 750 bytes a presentation; now 0.37 MB
    assert run.last == run.scaled[-1]
    assert run.weighted == tuple(sum(c * v[i] for c, v in zip(run.counts, run.scaled,
                                                                 strict=True))
                                 for i in range(data.d))


def test_the_mistakes_of_later_epochs_are_counted_from_the_last_vector() -> None:
    """`mistakes_from` (what a voted run kept for fewer epochs than asked leaves out) counts
    the mistakes of the epochs after a run's from its last vector: the longer run's."""
    data = Dataset.of([[2, 1], [-1, -3], [1, -1], [-2, -1]], [1, 1, -1, 1])  # not separable
    for kept, more in ((1, 1), (2, 5), (3, 0)):
        short, long = run_voted(data, kept), run_voted(data, kept + more)
        assert mistakes_from(data, short.last, more) == long.updates - short.updates
    assert mistakes_from(data, (0, 0), 4) == run_voted(data, 4).updates > 8


def test_no_epoch_is_refused() -> None:
    with pytest.raises(DataError, match="epochs must be at least 1"):
        run_voted(Dataset.of([[1]], [1]), 0)


# ---- issue 30: the loops' shortcuts against the textbook loop --------------------------------

#: Small rational examples with labels, separable or not (inseparable runs cycle: the
#: shortcut of `_repeated` is taken on them).
any_data = st.integers(1, 3).flatmap(lambda d: st.lists(
    st.tuples(st.lists(st.fractions(min_value=-3, max_value=3, max_denominator=3),
                       min_size=d, max_size=d), st.sampled_from((-1, 1))),
    min_size=1, max_size=7)).map(lambda rows: Dataset.of([x for x, _ in rows],
                                                          [y for _, y in rows]))


@pytest.mark.parametrize("dual", [True, False], ids=["margins", "iterate"])
@given(any_data, betas, st.integers(1, 40))
def test_both_loops_are_the_textbook_rule_on_any_data(dual: bool, data: Dataset, beta: Fraction,
                                                      max_epochs: int) -> None:
    """Both exact loops of `_epochs` (on the margins, on the iterate), each cutting a cycling
    run short, make the textbook loop's updates, iterate, epochs and convergence."""
    import perceptron.algorithms.margin as module

    saved = module.DUAL_EXAMPLES
    module.DUAL_EXAMPLES = 100 if dual else -100
    try:
        run = run_margin(data, beta, max_epochs=max_epochs)
    finally:
        module.DUAL_EXAMPLES = saved
    indices, w, converged = reference(data, beta, max_epochs)
    assert (list(run.indices), run.w, run.converged) == (indices, w, converged)
    assert run.epochs == (max_epochs if not converged else
                          next(e for e in range(1, max_epochs + 1)
                               if run_margin(data, beta, max_epochs=e).converged))


def test_a_cycling_run_is_repeated_to_the_cap() -> None:
    """Data no margin 1/2 separates cycle from the first epochs: the run to each cap is the
    textbook loop's (its updates a repetition of the cycle, its iterate where the cap stops
    it), on both loops."""
    import perceptron.algorithms.margin as module

    data = Dataset.of([(1, 0), (-1, 0), (0, 1), (0, -1), (2, 1)], [1, 1, -1, -1, 1])
    for dual in (100, -100):
        saved, module.DUAL_EXAMPLES = module.DUAL_EXAMPLES, dual
        try:
            for cap in (1, 2, 3, 7, 1000):
                run = run_margin(data, Fraction(1, 2), max_epochs=cap)
                indices, w, converged = reference(data, Fraction(1, 2), cap)
                assert not converged and run.epochs == cap
                assert (list(run.indices), run.w) == (indices, w)
        finally:
            module.DUAL_EXAMPLES = saved
