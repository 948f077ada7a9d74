"""`verify.check_run`: exact theory checks of a run, from the engine or from bare iterates."""

from __future__ import annotations

import re
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.algorithms.online import run_online, run_stream
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset
from perceptron.generators.hypothesis import Planted, seeded_separable, separable_data
from perceptron.generators.tight import orthonormal
from verify import check_implementation, check_run
from verify.testing.check_run import STATEMENTS, TheoryReport

CONVENTIONS = (
    Conventions(),
    Conventions(rule="lt"),
    Conventions(rule="mistake", sign_zero=-1),
    Conventions(eta=F(1, 3)),
    Conventions(bias=True),
)


def perceptron_iterates(data: Dataset, *, factor: int = 1, skip_ties: bool = False,
                        epochs: int = 50) -> list[np.ndarray]:
    """A float perceptron (rule `<=`), optionally broken, returning its iterates."""
    X = np.array(data.X, dtype=np.float64)
    w = np.zeros(data.d)
    out = [w.copy()]
    for _ in range(epochs):
        changed = False
        for x, y in zip(X, data.y, strict=True):
            m = y * (w @ x)
            if m < 0 or (m == 0 and not skip_ties):
                w = w + factor * y * x
                out.append(w.copy())
                changed = True
        if not changed:
            break
    return out


def test_every_check_holds_on_engine_runs_under_every_convention() -> None:
    for conventions in CONVENTIONS:
        for seed in range(6):
            planted = seeded_separable(seed, max_dim=4, max_n=8)
            result = run_online(planted.data, conventions, max_epochs=100)
            report = check_run(planted.data, result)
            assert report.ok, report.summary()
            assert report.updates == result.mistakes
            assert {c.name for c in report.checks} == set(STATEMENTS)
            if result.mistakes:
                assert report.check("update-rule").status == "held"
                assert report.check("final-bound").status == "held"
            # the same run as bare iterates, floats where exact, gives the same verdicts
            iterates = list(result.trace.iterates())
            again = check_run(planted.data, iterates, conventions=conventions)
            assert [c.verdict for c in again.checks] == [c.verdict for c in report.checks]


@given(separable_data(max_dim=4, max_n=8))
def test_property_engine_runs_satisfy_the_theory(planted: Planted) -> None:
    result = run_online(planted.data, max_epochs=200)
    report = check_run(planted.data, result, u=planted.u)
    report.raise_for_violations()
    assert report.bound is not None and result.mistakes <= report.bound


def test_the_default_separator_is_the_certified_maximum_margin_one() -> None:
    family = orthonormal([1, -1, 1, -1, 1], scale=3)
    report = check_run(family.data, run_online(family.data))
    assert report.bound == 5 == report.updates  # tight: the bound is met
    assert check_run(family.data, run_online(family.data), u=family.u).bound == 5


def test_float_iterates_are_taken_exactly() -> None:
    data = Dataset.of([[1, 0], [0, "1/2"]], [1, -1])
    report = check_run(data, np.array([[0.0, 0.0], [1.0, 0.0], [1.0, -0.5]]))
    assert report.ok and report.updates == 2
    # issue 17: 0.1 is not 1/10, but it is 1/10 rounded to float64, so a float trace of a
    # decimal dataset is legal; a float that is no rounding of the update is still caught
    decimal = Dataset.of([["0.1"]], [1])
    rounded = check_run(decimal, [[0.0], [0.1]])
    assert rounded.check("update-rule").status == "held" and rounded.ok
    assert rounded.check("norm-invariant").status == "held"
    off = check_run(decimal, [[0.0], [np.nextafter(0.1, 1.0)]])
    assert off.check("update-rule").status == "violated"
    assert check_run(decimal, [[0], [F(1, 10) + F(1, 10**20)]]).check(
        "update-rule").status == "violated"  # exact iterates get no rounding


def test_a_doubled_update_is_caught_with_its_update_and_numbers() -> None:
    family = orthonormal([1, -1, 1], scale=2)
    report = check_run(family.data, perceptron_iterates(family.data, factor=2))
    assert not report.ok
    first = report.first_violation
    assert first is not None and first.check == "update-rule" and first.iteration == 1
    assert "w_1 - w_0 = (4, 0, 0) is eta y x for no example" in first.message
    assert report.check("norm-invariant").first.message == (
        "after 1 update: ||w_1||^2 = 16 > t eta^2 R^2 = 4")
    with pytest.raises(AssertionError, match=r"breaks the theory .*update-rule.*update 1"):
        report.raise_for_violations()


def test_an_update_on_a_correctly_classified_example_is_illegal() -> None:
    data = Dataset.of([[1, 0], [0, 1]], [1, 1])
    # second step repeats example 0, which w_1 = e_1 already classifies: y<w,x> = 1 > 0
    report = check_run(data, [[0, 0], [1, 0], [2, 0]])
    condition = report.check("update-condition")
    assert condition.status == "violated" and condition.first.iteration == 2
    assert "y<w_1, x> = 1, which does not trigger an update" in condition.first.message
    assert report.check("update-rule").status == "held"


def test_the_strict_rule_makes_a_tie_update_illegal() -> None:
    data = Dataset.of([[1, 0]], [1])
    assert check_run(data, [[0, 0], [1, 0]]).ok
    strict = check_run(data, [[0, 0], [1, 0]], conventions=Conventions(rule="lt"))
    assert strict.check("update-condition").status == "violated"


def test_recorded_indices_name_the_example_in_the_message() -> None:
    data = Dataset.of([[1, 0], [0, 1]], [1, 1])
    report = check_run(data, [[0, 0], [1, 0]], indices=[1])
    assert report.check("update-rule").first.message == (
        "update 1: w_1 - w_0 = (1, 0), but eta y x for example 1 is (0, 1)")


def test_more_updates_than_the_bound_are_caught_where_the_invariants_break() -> None:
    # illegal updates pile up on one example: 5 steps against a bound of 1. The final bound
    # follows from the invariants, so the run is caught where they break, at update 2.
    data = Dataset.of([[1]], [1])
    report = check_run(data, [[k] for k in range(6)], u=[1])
    assert report.bound == 1 and report.updates == 5
    assert [(v.check, v.iteration) for v in report.violations] == [
        ("update-condition", 2), ("norm-invariant", 2)]
    assert report.check("norm-invariant").first.message == (
        "after 2 updates: ||w_2||^2 = 4 > t eta^2 R^2 = 2")
    final = report.check("final-bound")
    assert final.status == "held" and final.verdict.vacuous == 4  # hypotheses fail there


def test_initial_iterate_and_its_consequences() -> None:
    data = Dataset.of([[1, 0]], [1])
    report = check_run(data, [[0, 1], [1, 1]])
    assert report.check("initial-iterate").status == "violated"
    assert report.check("norm-invariant").status == "not-run"
    assert any("w_0 is not 0" in note for note in report.notes)
    w0 = Conventions(w0=(F(0), F(1)))
    assert check_run(data, [[0, 1], [1, 1]], conventions=w0).ok


def test_non_separable_data_run_without_the_margin_checks() -> None:
    data = Dataset.of([[1], [1]], [1, -1])
    result = run_online(data, max_epochs=5)
    report = check_run(data, result)
    assert report.ok and report.u is None and report.bound is None
    assert report.check("final-bound").note == "no separator"


def test_streams_and_traces_are_accepted() -> None:
    planted = seeded_separable(11)
    stream = run_stream(zip(planted.data.X, planted.data.y, strict=True))
    assert check_run(planted.data, stream).ok
    result = run_online(planted.data)
    assert check_run(planted.data, result.trace).ok
    assert check_run((np.array(planted.data.X, dtype=object), planted.data.y), result).ok


def test_bad_input_is_a_clear_error() -> None:
    data = Dataset.of([[1, 0]], [1])
    with pytest.raises(ValueError, match="no trace"):
        check_run(data, run_online(data, keep_trace=False))
    with pytest.raises(ValueError, match="iterate w_1 has 3 coordinates, the data need 2"):
        check_run(data, [[0, 0], [1, 0, 0]])
    with pytest.raises(ValueError, match="u has 3 coordinates"):
        check_run(data, [[0, 0]], u=[1, 0, 0])
    with pytest.raises(ValueError, match="1 example index for 0 updates"):
        check_run(data, [[0, 0]], indices=[0])


def test_summary_lists_every_check() -> None:
    family = orthonormal([1, 1])
    report: TheoryReport = check_run(family.data, run_online(family.data))
    text = report.summary()
    for name in STATEMENTS:
        assert name in text
    assert report.verdicts["norm-invariant"].status == "held"


def test_a_run_left_with_a_tie_under_the_le_rule_is_not_finished() -> None:
    # issue 17: an implementation that stops while y<w,x> = 0 remains (the `<` rule's stop)
    data = Dataset.of([[1, 0], [0, 1], [-1, 0]], [1, 1, -1])
    report = check_run(data, [[0, 0], [1, 0]])
    converged = report.check("converged")
    assert converged.status == "violated" and not report.ok
    assert converged.first is not None and converged.first.iteration == 1
    assert "example 1 (y = +1) has y<w_1, x> = 0" in converged.first.message
    with pytest.raises(AssertionError, match="converged"):
        report.raise_for_violations()
    # the same prefix, declared unfinished, or finished under the strict rule, is fine
    assert check_run(data, [[0, 0], [1, 0]], finished=False).ok
    strict = check_run(data, [[0, 0], [1, 0]], conventions=Conventions(rule="lt"))
    assert strict.check("converged").status == "held"
    assert check_run(data, [[0, 0], [1, 0], [1, 1]]).check("converged").status == "held"


def test_a_finished_flag_that_is_no_boolean_is_refused() -> None:
    """Red team 30: `finished="no"` is truthy, so the prefix `[[0, 0], [1, 0]]` was checked
    as a finished run (and `"yes"` accepted alike): one clear error instead."""
    data = Dataset.of([[1, 0], [0, 1], [-1, 0]], [1, 1, -1])
    for text in ("no", "yes", 0):
        with pytest.raises(TypeError, match="finished must be True, False or None, not"):
            check_run(data, [[0, 0], [1, 0]], finished=text)  # type: ignore[arg-type]
    assert check_run(data, [[0, 0], [1, 0]], finished=np.False_).ok  # numpy's bool is one


def test_an_index_that_is_no_integer_is_refused() -> None:
    """Red team 32: `indices` went through `int()`, so `0.7` named example 0, `True`
    example 1 and `"1"` example 1: one clear error instead; numpy's integers are integers,
    and so is a float that is one exactly (an index array of floats)."""
    data = Dataset.of([[1, 0], [0, 1], [-1, 0]], [1, 1, -1])
    for index in (0.7, True, "1", np.float64(1.5)):
        with pytest.raises(TypeError, match="indices name examples by their integer index"):
            check_run(data, [[0, 0], [1, 0]], indices=[index])  # type: ignore[list-item]
    assert check_run(data, [[0, 0], [1, 0], [1, 1]], indices=[np.int64(0), 1]).ok
    assert check_run(data, [[0, 0], [1, 0], [1, 1]], indices=np.array([0.0, 1.0])).ok


def test_a_reference_separator_given_as_a_matrix_is_refused() -> None:
    """Red team 30: a 2-D `u` (`np.array([[1, 0]])`) was flattened and taken for one
    vector; a scalar was "u has 1 coordinates". One clear error each, naming the shape."""
    data = Dataset.of([[1, 0], [0, 1]], [1, -1])
    run = run_online(data)
    for u, shape in ((np.array([[1, -1]]), r"\(1, 2\)"), ([[1], [-1]], r"\(2, 1\)"),
                     (3, r"\(\)")):
        with pytest.raises(ValueError, match=f"u must be one vector .* of shape {shape}"):
            check_run(data, run, u=u)  # type: ignore[arg-type]
    assert check_run(data, run, u=np.array([1, -1])).ok


def test_float_rounding_of_an_implementation_is_not_a_violation() -> None:
    # issue 17: float64 sums of 0.1 and 0.2 round; the run is the perceptron's all the same
    X = np.array([[0.1, 0.2], [0.3, -0.7], [-0.2, 0.1]])
    y = np.array([1, -1, -1])
    w, iterates = np.zeros(2), [np.zeros(2)]
    for _ in range(50):
        before = len(iterates)
        for xi, yi in zip(X, y, strict=True):
            # a fixed order of float operations: np.dot may fuse them (FMA) on some builds,
            # and then the tie of the third example is not a tie (a different run)
            if yi * (w[0] * xi[0] + w[1] * xi[1]) <= 0:
                w = w + yi * xi
                iterates.append(w.copy())
        if len(iterates) == before:
            break
    engine = run_online(Dataset.of(X.tolist(), y.tolist()), keep_trace=True)
    assert engine.trace is not None
    exact = list(engine.trace.iterates())
    assert len(exact) == len(iterates)
    # the float run did round (else this test would prove nothing)
    assert any(tuple(F(v) for v in a) != b for a, b in zip(iterates, exact, strict=True))
    report = check_run((X, y), iterates)
    assert report.ok, report.summary()
    assert report.updates == len(iterates) - 1
    assert any("floats" in note for note in report.notes)


#: Small exact rationals: integers and fractions with a few denominators, so that the
#: data's common denominator, each iterate's and eta's differ.
RATIONALS = st.fractions(min_value=-6, max_value=6, max_denominator=6)
ETAS = st.sampled_from([F(1), F(1, 2), F(3), F(2, 3)])


def _rational_rows(d: int) -> st.SearchStrategy[list[tuple[F, ...]]]:
    return st.lists(st.tuples(*[RATIONALS] * d), min_size=1, max_size=6)


@given(st.integers(0, 3).flatmap(lambda d: st.tuples(
    _rational_rows(d), st.tuples(*[RATIONALS] * d), st.tuples(*[RATIONALS] * d))), ETAS)
def test_the_nearest_legal_update_is_the_one_its_full_distance_picks(
        case: tuple[list[tuple[F, ...]], tuple[F, ...], tuple[F, ...]], eta: F) -> None:
    """`_Steps._closest` orders the examples by `||step - eta y x||^2` less `||step||^2`,
    over the integers (each `||x||^2` once per run): the same order and the same first
    minimum as the full distance in Fractions it replaced (which a buggy fit paid at every
    update, over every example), on rational data, iterates, steps and rates."""
    from perceptron.geometry.linear import common_denominator, dot, norm2
    from verify.testing.check_run import _Steps

    rows, wv, sv = case
    data = Dataset.of([list(r) for r in rows], [(-1) ** k for k in range(len(rows))], "d")
    conv = Conventions(eta=eta)
    steps = _Steps(data, conv, [], None, [])

    def full(i: int) -> tuple[bool, F]:
        y, x = data.y[i], data.X[i]
        fires = conv.updates(y * dot(wv, x), y)
        return (not fires, norm2([s - eta * y * v for s, v in zip(sv, x, strict=True)]))

    numerators, den = common_denominator(sv)
    assert steps._closest(wv, numerators, den) == min(range(data.n), key=full)


def _fraction_steps(data: Dataset, conv: Conventions, iterates: list[tuple[F, ...]],
                    given: list[int] | None) -> tuple[list[int], list[bool], list[F]]:
    """`_Steps`'s (index, matched, margins) as computed in Fractions before steps32 moved it
    to integers: the reference its integer computation must equal."""
    from perceptron.geometry.linear import dot

    eta = conv.eta
    by_step: dict[tuple[F, ...], list[int]] = {}
    for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
        by_step.setdefault(tuple(eta * y * v for v in x), []).append(i)

    def fires(w: tuple[F, ...], i: int) -> bool:
        return conv.updates(data.y[i] * dot(w, data.X[i]), data.y[i])

    index, matched, margins = [], [], []
    for k in range(1, len(iterates)):
        w, step = iterates[k - 1], tuple(b - a for a, b in zip(iterates[k - 1], iterates[k],
                                                                strict=True))
        if given is not None:
            i = given[k - 1]
            candidates = [i] if i in by_step.get(step, ()) else []
        else:
            candidates = by_step.get(step, [])
            firing = [i for i in candidates if fires(w, i)]
            closest = min(range(data.n), key=lambda i: (not fires(w, i), sum(
                (s - eta * data.y[i] * v) ** 2 for s, v in zip(step, data.X[i], strict=True))))
            i = (firing or candidates or [closest])[0]
        index.append(i)
        matched.append(bool(candidates))
        margins.append(data.y[i] * dot(w, data.X[i]))
    return index, matched, margins


@st.composite
def _runs(draw: st.DrawFn
          ) -> tuple[Dataset, Conventions, list[tuple[F, ...]], list[int] | None]:
    """Rational data (repeated and zero rows among them), a rule and a rate, iterates whose
    steps are each a legal update, the negated one, a multiple of one, or anything, and
    maybe recorded example indices (the one updated on, or another)."""
    d = draw(st.integers(0, 3))
    rows = draw(st.lists(st.tuples(*[RATIONALS] * d), min_size=1, max_size=5))
    rows += draw(st.sampled_from([[], [rows[0]], [tuple(F(0) for _ in range(d))]]))
    ys = draw(st.lists(st.sampled_from([-1, 1]), min_size=len(rows), max_size=len(rows)))
    data = Dataset.of([list(r) for r in rows], ys, "d")
    conv = Conventions(eta=draw(ETAS), **draw(st.sampled_from(
        [{}, {"rule": "lt"}, {"rule": "mistake", "sign_zero": -1},
         {"rule": "mistake", "sign_zero": 1}])))
    w = tuple(draw(st.tuples(*[RATIONALS] * d)))
    iterates = [w]
    for _ in range(draw(st.integers(0, 5))):
        i = draw(st.integers(0, data.n - 1))
        factor = draw(st.sampled_from([1, 1, -1, 2, F(1, 2)]))
        step = (tuple(factor * conv.eta * data.y[i] * v for v in data.X[i])
                if draw(st.booleans()) else draw(st.tuples(*[RATIONALS] * d)))
        iterates.append(tuple(a + b for a, b in zip(iterates[-1], step, strict=True)))
    given = None
    if draw(st.booleans()):
        given = draw(st.lists(st.integers(0, data.n - 1), min_size=len(iterates) - 1,
                              max_size=len(iterates) - 1))
    return data, conv, iterates, given


@given(_runs())
def test_the_steps_over_the_integers_are_those_computed_in_fractions(
        run: tuple[Dataset, Conventions, list[tuple[F, ...]], list[int] | None]) -> None:
    """The example bound to each update, whether its step is a legal update, and its margin
    `y <w, x>`, computed over the integers (`_Steps`, steps32), are the Fraction
    computation's, recorded indices or not, on random rational runs: a legal step, a wrong
    multiple of one (found by the nearest update), repeated examples (the first firing
    one), under every rule and rate."""
    from verify.testing.check_run import _Steps

    data, conv, iterates, given = run
    steps = _Steps(data, conv, iterates, given, [None] * len(iterates))
    assert (steps.index, steps.matched, steps.margins) == _fraction_steps(
        data, conv, iterates, given)
    assert all(type(m) is F for m in steps.margins)


@pytest.mark.skipif(np.finfo(np.longdouble).nmant <= 52, reason="long double is float64 here")
def test_a_long_double_perceptron_is_legal() -> None:
    """Red team 33 F4: iterates in long double were checked against updates rounded to
    float64 (`_rounded` went through float()), so a correct long-double perceptron, each
    update `w + y x` rounded once in long double, broke `update-rule` at update 2 (and its
    data were read rounded to float64, F3)."""
    L = np.longdouble
    X = np.array([[L(1) / L(3), L(1)], [L(-2) / L(7), L(-1) / L(9)],
                  [L(1) / L(11), L(-1) / L(5)]], dtype=L)
    y = np.array([1, -1, 1])
    w = np.zeros(2, dtype=L)
    iterates = [w.copy()]
    for _ in range(20):
        before = len(iterates)
        for x, label in zip(X, y, strict=True):
            if label * (w @ x) <= 0:
                w = w + L(label) * x
                iterates.append(w.copy())
        if len(iterates) == before:
            break
    assert len(iterates) > 2
    report = check_run((X, y), np.array(iterates, dtype=L))
    assert report.ok, report.first_violation
    off = np.array(iterates, dtype=L)
    off[2, 0] = np.nextafter(off[2, 0], L(10))  # one long-double ulp away: no rounding
    assert not check_run((X, y), off, finished=False).ok


class _Counted:
    """An endless iterable of iterates (no length) that counts what is read from it, and
    stops the test, rather than the machine, when read far past any cap."""

    def __init__(self, w: list[int], stop: int) -> None:
        self.w, self.stop, self.read = w, stop, 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        while True:
            self.read += 1
            if self.read > self.stop:
                raise AssertionError(f"read {self.stop} iterates of an endless run")
            yield list(self.w)


def test_an_endless_run_is_read_no_further_than_its_cap() -> None:
    """Ends35 (red team 33's open end): `check_run(data, endless_generator)` listed the
    generator whole and never returned, a prefix (`finished=False`) too. A run without a
    length is read to at most `max_updates + 1` iterates (10^6 updates by default), one
    more to see that it goes on, and then refused in one line; a finite one is checked."""
    data = Dataset.of([[2, 0], [0, 2], [1, 1]], [1, -1, 1])
    for finished in (False, True, None):
        endless = _Counted([0, 0], stop=3_000_000)
        with pytest.raises(ValueError, match=r"^the run gave more than 1000000 updates \("
                           r"read from a _Counted, which has no length\): check_run reads"):
            check_run(data, endless, finished=finished)
        assert endless.read == 1_000_002
    small = _Counted([0, 0], stop=100)
    with pytest.raises(ValueError, match="more than 5 updates"):
        check_run(data, small, max_updates=5)
    assert small.read == 7
    iterates = perceptron_iterates(data)
    assert check_run(data, iter(iterates), max_updates=len(iterates) - 1).ok
    assert check_run(data, (w for w in iterates[:2]), finished=False).ok
    for bad in (-1, 1.5, True, "10"):
        with pytest.raises((TypeError, ValueError), match="max_updates must be"):
            check_run(data, iterates, max_updates=bad)  # type: ignore[arg-type]


def test_endless_indices_are_read_no_further_than_the_updates() -> None:
    """Ends35: `indices` given as an endless iterable were listed whole too; at most one
    more than the updates is read, and too many is the one line it always was."""
    data = Dataset.of([[2, 0], [0, 2], [1, 1]], [1, -1, 1])

    def zeros():  # type: ignore[no-untyped-def]
        read = 0
        while True:
            read += 1
            assert read < 1_000, "indices read far past the updates"
            yield 0

    with pytest.raises(ValueError, match=r"more than 1 example index for 1 update$"):
        check_run(data, [[0, 0], [2, 0]], indices=zeros())
    assert check_run(data, [[0, 0], [2, 0]], indices=iter([0]), finished=False).ok


def test_a_float_runs_update_condition_is_decided_on_exact_values_and_says_so() -> None:
    """Ends35 (red team 33's open end): a float64 perceptron updated at a score it computed
    as <= 0 whose exact value is about 1.05e-16 > 0; `check_run` reported the update
    condition violated (true of the exact values) while its docs said float rounding is
    never reported. It stays decided on the exact values of the iterates as given (float
    rounding of a score is not excused, unlike the rounding of an update's step), and the
    message and a note now say so, with float64's error bound on that very score; a score
    above that bound is said to be one no rounding makes trigger."""
    X = np.array([[-0.6, 0.2, 1.5], [-0.8, 0.1, -0.3], [-1.1, 0.4, -0.8], [1.7, 0.0, -0.2]])
    y = np.array([-1, 1, -1, 1])
    w, iterates = np.zeros(3), [np.zeros(3)]
    for _ in range(20):
        for xi, yi in zip(X, y, strict=True):
            if yi * (w[0] * xi[0] + w[1] * xi[1] + w[2] * xi[2]) <= 0:  # a fixed order, no FMA
                w = w + yi * xi
                iterates.append(w.copy())
    report = check_run((X, y), iterates, finished=False)
    condition = report.check("update-condition")
    assert condition.status == "violated" and condition.first is not None
    assert condition.first.iteration == 14
    assert condition.first.message == (
        "update 14 is on example 0 (y = -1) with y<w_13, x> = 4278419646001971/"
        "40564819207303340847894502572032 (≈ 1.05e-16), which does not trigger an update "
        "under the rule y*<w,x> <= 0; decided on the exact value of the float64 iterate as "
        "given: computed in float64 this score may be off by up to ≈ 7.99e-16 (Higham's "
        "bound), so a float64 perceptron may have updated here on a rounded score, which "
        "check_run does not excuse (docs/api.md)")
    assert ("update-condition is decided on the exact values of the iterates as given: its "
            "first violation, update 14, is on a score within float rounding of 0, which a "
            "float perceptron may have seen trigger the rule; check_run does not excuse it"
            ) in report.notes
    # far above float64's error of its score: no rounding explains it, and that is said
    data = Dataset.of([[1, 0], [0, 1]], [1, 1])
    far = check_run(data, [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]).check("update-condition")
    assert far.first is not None and far.first.message.endswith(
        "which does not trigger an update under the rule y*<w,x> <= 0; no float64 rounding "
        "of this score (off by at most ≈ 4.44e-16) makes it trigger")
    # exact iterates: the message is the exact one alone
    exact = check_run(data, [[0, 0], [1, 0], [2, 0]]).check("update-condition")
    assert exact.first is not None and exact.first.message.endswith("y*<w,x> <= 0")


@pytest.mark.parametrize("conventions", ["lt", 0, {"rule": "lt"}])
def test_conventions_of_another_type_are_a_type_error(conventions: object) -> None:
    """Red team 35 F5: `check_run(..., conventions="lt")`, `check_implementation(fit,
    conventions="lt")` and `run_online(data, "lt")` were AttributeErrors deep inside (`'str'
    object has no attribute 'bias'`), and a falsy `0` was silently the default."""
    data = Dataset.of([[2, 0], [0, 2], [1, 1]], [1, -1, 1])
    message = "conventions must be a Conventions (perceptron.conventions.Conventions(rule="
    with pytest.raises(TypeError, match=re.escape(message)):
        check_run(data, run_online(data), conventions=conventions)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=re.escape(message)):
        run_online(data, conventions)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=re.escape(message)):
        check_implementation(lambda X, y, epochs: X[0],
                             conventions=conventions)  # type: ignore[arg-type]


def test_the_reason_converged_is_not_run_names_who_says_the_run_is_unfinished() -> None:
    """Red team 35: a RunResult that had not converged (cycling, or cut at its epoch cap)
    was reported 'converged not-run (declared unfinished (finished=False))', an argument the
    caller never gave; the reason now says whose claim it is."""
    cycling = Dataset.of([[1], [1]], [1, -1])
    reason = check_run(cycling, run_online(cycling)).check("converged").note
    assert reason == "the run did not converge (its RunResult.converged is False)"
    declared = check_run(cycling, run_online(cycling), finished=False).check("converged")
    assert declared.note == "declared unfinished (finished=False)"
    stream = run_stream(zip(cycling.X, cycling.y, strict=True)).trace
    one_pass = check_run(cycling, stream).check("converged")  # type: ignore[arg-type]
    assert one_pass.note == "a stream trace (one pass) claims no convergence"


def test_examples_of_no_feature_run_and_are_checked() -> None:
    """Red team 35: `Dataset.of([[], []], [1, -1])`, a dataset the API builds, made
    `run_online` (and `check_run` of its run) raise `ValueError: max() arg is an empty
    sequence` in the integer form; every score is 0, so `<=` updates on each example with
    no move and the run cycles, `<` never updates, and a bias learns from the labels."""
    data = Dataset.of([[], []], [1, -1])
    cycling = run_online(data)
    assert (cycling.mistakes, cycling.converged, cycling.w) == (2, False, ())
    assert cycling.reason.startswith("cycling")
    assert check_run(data, cycling).ok
    strict = run_online(data, Conventions(rule="lt"))
    assert (strict.mistakes, strict.converged) == (0, True)
    assert check_run(data, strict).ok
    biased = run_online(Dataset.of([[], []], [1, 1]), Conventions(bias=True))
    assert (biased.mistakes, biased.converged, biased.w) == (1, True, (F(1),))
