"""The `protocol` scenarios have the properties they are there for (`verify.testing.protocol`),
and the red team's wrong perceptrons that passed before them are caught (red team 7): one that
never reads past its 8th example, one that caps its epochs or its mistakes, one that updates
on `y <w, x> < 1` or `<= 0.5` (the same as `<= 0` on the integer data the campaigns hand over)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from mutants import bugs
from mutants.base import Result, Textbook

from perceptron.algorithms.online import run_online
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset
from perceptron.geometry.linear import dot
from verify import check_implementation, sklearn_fit
from verify.testing.protocol import (
    DATA,
    LATE_N,
    LONG_M,
    PROTOCOL_EPOCHS,
    WIDE_D,
    busy_epochs,
    per_epoch,
    protocol,
    run_text,
)

HALF = Conventions(eta=Fraction(1, 2))
DOCS = Path(__file__).resolve().parents[3] / "docs" / "api.md"


def _visits(data: Dataset, eta: Fraction = Fraction(1)) -> list[tuple[int, int, Fraction]]:
    """Every visit of the exact cyclic run as (epoch, index, y <w, x>), replayed exactly."""
    w = [Fraction(0)] * data.d
    out = []
    for epoch in range(1, PROTOCOL_EPOCHS + 1):
        updated = False
        for i, (x, y) in enumerate(zip(data.X, data.y, strict=True)):
            score = y * dot(w, x)
            out.append((epoch, i, score))
            if score <= 0:
                w = [a + eta * y * b for a, b in zip(w, x, strict=True)]
                updated = True
        if not updated:
            return out
    raise AssertionError("the protocol's runs converge")


def _scenario(name: str) -> Dataset:
    return next(s.data for s in protocol() if s.data.name == f"protocol({name})")


@pytest.mark.parametrize("name", ["late updates (n=9)", "late updates (n=13)",
                                  "late updates (n=24)", "quarters"])
def test_late_examples_and_the_last_one_are_updated_after_the_first_epoch(name: str) -> None:
    data = _scenario(name)
    late = {(e, i) for e, i, score in _visits(data) if score <= 0 and i >= 8 and e >= 2}
    assert {i for _, i in late} >= {data.n - 1}, "the last example is updated after epoch 1"
    assert len({e for e, _ in late}) >= 2, "late updates in several epochs"


def test_the_long_run_has_its_closed_form_count() -> None:
    for m in (4, 10, 20, LONG_M):  # even m: 3m^2 - 5m/2 + 4 mistakes in m^2 + m/2 + 2 epochs
        data = Dataset.of([[m, 1], [1 - m, -1], [-1, 0]], [1, 1, -1], "long")
        run = run_online(data, max_epochs=10**4)
        assert (run.converged, run.mistakes, run.epochs) == (
            True, 3 * m * m - 5 * m // 2 + 4, m * m + m // 2 + 2)
    run = run_online(_scenario("1042 epochs"), max_epochs=PROTOCOL_EPOCHS)
    assert (run.mistakes, run.epochs) == (2996, 1042)
    assert max(run_online(s.data, max_epochs=PROTOCOL_EPOCHS).epochs for s in protocol()) == 1042
    assert per_epoch(run)[-1] == 0 and min(per_epoch(run)[:-1]) >= 1


@pytest.mark.parametrize("name", ["a half", "quarters", "eighths", "a tiny score"])
def test_dyadic_data_are_exact_floats_with_small_scores_that_are_no_mistake(name: str) -> None:
    rows, _ = DATA[name]
    values = [Fraction(v) for row in rows for v in row]
    assert any(v.denominator > 1 for v in values)
    assert all(Fraction(float(v)) == v for v in values), "float64 holds them exactly"
    data = _scenario(name)
    for eta in (Fraction(1), Fraction(1, 2)):
        small = min(s for _, _, s in _visits(data, eta) if s > 0)
        assert small <= Fraction(1, 4) * eta, "a threshold at 1/4 (times eta) fires there"


def test_the_dyadic_scenarios_are_handed_over_as_written_and_compared_exactly() -> None:
    report = check_implementation(Textbook(), sources=("protocol",))
    report.raise_for_violations()
    quarters = next(o for o in report.outcomes if o.dataset == "protocol(quarters)")
    assert quarters.X is not None and quarters.X[0].tolist() == [-1.25, -1.75, 0.75]
    assert quarters.float_exact and quarters.identical
    assert all(o.float_exact for o in report.outcomes)


@pytest.mark.parametrize(("bug", "where", "says"), [
    (bugs.StopsReadingAt8, "protocol(late updates (n=", "final w differs"),
    (bugs.CapsEpochsAt56, "protocol(1042 epochs)", "converges in epoch 1042"),
    (bugs.CapsMistakesAt100, "protocol(1042 epochs)", "converges in epoch 1042"),
    (bugs.UpdatesBelowOne, "protocol(a half)", "implementation (1), exact (1/2)"),
    (bugs.UpdatesAtHalf, "protocol(a half)", "implementation (1), exact (1/2)"),
])
def test_the_red_team_7_mutants_are_caught_naming_what_differs(bug: type, where: str,
                                                                says: str) -> None:
    report = check_implementation(bug(), name=bug.__name__)
    assert not report.ok and not report.order_only
    first = report.simplest_failure
    assert first is not None and first.dataset.startswith(where)
    assert says in first.problems[0]
    with pytest.raises(AssertionError, match=f"^{bug.__name__} is not the perceptron"):
        report.raise_for_violations()


class _StopsReading(Textbook):
    """The textbook reading only the first `cut` examples of each epoch."""

    def __init__(self, cut: int) -> None:
        self.cut = cut

    def order(self, n: int) -> range:
        return range(min(n, self.cut))


#: The suite's five minutes: in every run a cutoff below 24 (caught on several scenarios),
#: one at 24 (only the largest scenario reads past it) and the last below LATE_N; the
#: others, each a full check of the protocol (about 1 CPU-s), with `-m slow` (.ci/run).
@pytest.mark.parametrize("cut", [2, pytest.param(8, marks=pytest.mark.slow),
                                 pytest.param(12, marks=pytest.mark.slow),
                                 pytest.param(20, marks=pytest.mark.slow), 24,
                                 pytest.param(25, marks=pytest.mark.slow),
                                 pytest.param(100, marks=pytest.mark.slow), LATE_N - 1])
def test_a_fit_that_stops_reading_below_the_largest_scenario_is_caught(cut: int) -> None:
    """Red team 9: a cutoff at 25 passed, no scenario having more than 24 examples; the
    200-example one updates on its last example, so every cutoff below 200 differs."""
    report = check_implementation(_StopsReading(cut), sources=("protocol",))
    assert not report.ok and not report.order_only
    if cut >= 24:
        assert {o.dataset.partition(" (labels")[0] for o in report.failures} == {
            f"protocol(late updates (n={LATE_N}))"}


def test_a_cutoff_at_the_largest_scenario_is_not_and_cannot_be_caught() -> None:
    # it reads every example of every scenario: the same runs (the docs say so)
    check_implementation(_StopsReading(LATE_N), sources=("protocol",)).raise_for_violations()


def test_the_largest_scenario_updates_its_last_example_which_no_other_stands_for() -> None:
    data = _scenario(f"late updates (n={LATE_N})")
    assert data.n == LATE_N == max(s.data.n for s in protocol())
    signed = [tuple(y * v for v in x) for x, y in zip(data.X, data.y, strict=True)]
    assert len(set(signed)) == data.n and set(data.y) == {-1, 1}
    updated = [(e, i) for e, i, score in _visits(data) if score <= 0]
    assert updated == [(1, 0), (1, data.n - 1)]
    run = run_online(data)  # two epochs: cheap for any fit (a fit's cost is its visits)
    assert (run.converged, run.mistakes, run.epochs) == (True, 2, 2)
    # the perceptron that never reads it converges at a w that misclassifies it
    rest = Dataset.of(data.X[:-1], data.y[:-1], "all but the last")
    w = run_online(rest).w
    assert data.y[-1] * dot(w, data.X[-1]) <= 0


class _SkipsLastWhenLong(Textbook):
    """Red team 9: skips the last example when n > 20, a run in another order as far as
    `theory_only` can tell unless its final w misclassifies that example."""

    def order(self, n: int) -> range:
        return range(n - 1 if n > 20 else n)


def test_theory_only_catches_a_skipped_example_its_final_w_misclassifies() -> None:
    report = check_implementation(_SkipsLastWhenLong(), sources=("protocol",),
                                  theory_only=True)
    assert {o.dataset.partition(" (labels")[0] for o in report.failures} == {
        f"protocol(late updates (n={LATE_N}))"}
    assert any("not finished" in p for o in report.failures for p in o.problems)
    assert not check_implementation(_StopsReading(25), sources=("protocol",),
                                    theory_only=True).ok


def test_the_docs_count_epochs_as_the_check_says_them() -> None:
    """Red team 9: docs/api.md said runs "need 4, 56 and 1042 epochs" where the check says
    they converge in epochs 5, 57 and 1042 (4, 56 and 1041 epochs with updates); the
    scenarios named by their epochs count them as the check does."""
    runs = {name: run_online(_scenario(name), max_epochs=PROTOCOL_EPOCHS)
            for name in ("ties and a plateau", "57 epochs", "1042 epochs")}
    assert [r.epochs for r in runs.values()] == [5, 57, 1042]
    assert [busy_epochs(r) for r in runs.values()] == [4, 56, 1041]
    assert all(run_text(r).endswith(f"it converges in epoch {r.epochs}") for r in runs.values())
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert "runs that converge in epochs 5, 57 and 1042" in text
    assert "after 4, 56 and 1041 epochs with updates" in text
    assert "need 4, 56" not in text
    assert {"57 epochs", "1042 epochs"} <= set(DATA)


class _Capped(Textbook):
    """The textbook with at most `cap` epochs."""

    def __init__(self, cap: int) -> None:
        self.cap = cap

    def epochs(self, epochs: int) -> range:
        return range(min(epochs, self.cap))


#: In every run the smallest cap and the largest below the longest run (1041 epochs with
#: updates); the caps between, each a full check of the protocol, with `-m slow`.
@pytest.mark.parametrize("cap", [10, *(pytest.param(cap, marks=pytest.mark.slow)
                                       for cap in (57, 100, 200, 1000)), 1040])
def test_an_epoch_cap_below_the_longest_run_is_caught(cap: int) -> None:
    assert not check_implementation(_Capped(cap), sources=("protocol",)).ok


def test_an_epoch_cap_at_or_beyond_the_longest_run_is_not_and_cannot_be() -> None:
    # 1041 epochs with updates: a cap there or beyond makes the same run on every scenario
    # (no finite test can catch a cap beyond its longest run; the docs say so)
    check_implementation(_Capped(1041), sources=("protocol",)).raise_for_violations()


class _HalfStep(Textbook):
    eta = 0.5


#: In every run the threshold at eta itself (0.5, the case a half step makes); 1 and 1/4,
#: each a full check of the protocol, with `-m slow`.
@pytest.mark.parametrize("threshold", [pytest.param(1.0, marks=pytest.mark.slow), 0.5,
                                       pytest.param(0.25, marks=pytest.mark.slow)])
def test_a_wrong_threshold_is_caught_with_eta_one_half_too(threshold: float) -> None:
    class Threshold(_HalfStep):
        def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
            return bool(label * (w @ x) < threshold)

    assert not check_implementation(Threshold(), sources=("protocol",), conventions=HALF).ok


def test_the_textbook_with_eta_one_half_passes_the_protocol() -> None:
    """The wrong thresholds' contrast, checked once (each threshold's case checked it again,
    the same deterministic check of the same fit, a passing check's every scenario: about
    half of each case's time): with the threshold right, the half step passes."""
    check_implementation(_HalfStep(), sources=("protocol",), conventions=HALF
                         ).raise_for_violations()


class _Tolerant(Textbook):
    """Red team 10: updates on `y <w, x> <= r ||w|| ||x||` (relative) or `<= a` (absolute),
    a 'numerically robust' perceptron: with r = 1e-6 or 1e-4, or a = 0.01, it passed."""

    def __init__(self, relative: float = 0.0, absolute: float = 0.0) -> None:
        self.relative, self.absolute = relative, absolute

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        limit = self.relative * np.linalg.norm(w) * np.linalg.norm(x) + self.absolute
        return bool(label * (w @ x) <= limit)


#: In every run the smallest relative tolerance, red team 10's absolute one (0.01) and the
#: smallest absolute one (1e-300, red team 12); the others, each a full check of the protocol
#: (about 1 CPU-s), with `-m slow` (.ci/run).
@pytest.mark.parametrize(("relative", "absolute", "where"), [
    pytest.param(1e-4, 0.0, "a tiny cosine", marks=pytest.mark.slow),
    pytest.param(1e-6, 0.0, "a tiny cosine", marks=pytest.mark.slow),
    (1e-15, 0.0, "a tiny cosine"),
    (0.0, 0.01, "a tiny score"),
    pytest.param(0.0, 1e-6, "a tiny score", marks=pytest.mark.slow),
    pytest.param(0.0, 1e-15, "a tiny score", marks=pytest.mark.slow),
    # red team 12: these passed when the tiny score was 2^-52
    pytest.param(0.0, 1e-20, "a tiny score", marks=pytest.mark.slow),
    pytest.param(0.0, 2.0**-53, "a tiny score", marks=pytest.mark.slow),
    (0.0, 1e-300, "a tiny score"),
])
def test_a_tolerance_in_the_update_rule_is_caught(relative: float, absolute: float,
                                                  where: str) -> None:
    report = check_implementation(_Tolerant(relative, absolute), sources=("protocol",))
    assert not report.ok
    first = report.simplest_failure
    assert first is not None and first.dataset == f"protocol({where})"
    data = _scenario(where)  # the exact run: one update, then a positive score that small
    scores = [score for _, _, score in _visits(data)]
    assert scores[0] == 0 and sum(score <= 0 for score in scores) == 1
    x, w = [Fraction(v) for v in data.X[1]], [Fraction(v) for v in data.X[0]]
    cosine2 = scores[1] ** 2 / (dot(w, w) * dot(x, x))
    assert (scores[1] <= Fraction(1, 2**1000) if where == "a tiny score"
            else cosine2 <= Fraction(1, 2**103))  # a cosine below 2^-51.5


def test_scikit_learn_passes_the_long_run_compared_by_its_final_weights() -> None:
    # a trajectory by partial_fit costs a Python call per visit: above max_visits (the long
    # run's 3 x 1042) only the final weights are returned, and they are the exact ones
    long = next(s for s in protocol() if s.data.name == "protocol(1042 epochs)")
    report = check_implementation(sklearn_fit(), sources={"protocol": [long]})
    report.raise_for_violations()
    full = report.outcomes[0]
    assert full.epochs == 1042 and full.mistakes is None and full.identical
    cut = report.outcomes[1]  # 3 visits: its trajectory is recorded, 2 updates
    assert cut.call.epochs == 1 and cut.mistakes == cut.engine.mistakes == 2


class _ReadsFeatures(Textbook):
    """The textbook scoring only the first `width` features (a fixed-size buffer), updating
    every one (red team 19, F1)."""

    def __init__(self, width: int) -> None:
        self.width = width

    def fires(self, w: np.ndarray, x: np.ndarray, label: int) -> bool:
        return bool(label * (w[:self.width] @ x[:self.width]) <= 0)

WIDE = f"protocol(the last feature (d={WIDE_D}))"


@pytest.mark.parametrize("width", [1, 21, 64, WIDE_D - 1])
def test_a_fit_that_reads_fewer_features_than_the_widest_scenario_is_caught(width: int) -> None:
    """Red team 19: reading only 21 features passed, the widest scenario having 21."""
    wide = {"protocol": [s for s in protocol() if s.data.name == WIDE]}
    report = check_implementation(_ReadsFeatures(width), sources=wide)
    assert not report.ok and not report.order_only
    assert "final w differs" in report.outcomes[0].problems[0]
    assert not check_implementation(_ReadsFeatures(width), sources=wide, theory_only=True).ok


def test_a_fit_reading_as_many_features_as_the_widest_scenario_cannot_be_caught() -> None:
    wide = {"protocol": [s for s in protocol() if s.data.name == WIDE]}
    check_implementation(_ReadsFeatures(WIDE_D), sources=wide).raise_for_violations()


def test_the_widest_scenario_hangs_an_update_on_its_last_feature() -> None:
    rows, labels = DATA[f"the last feature (d={WIDE_D})"]
    data = Dataset.of(rows, labels, "wide")
    assert data.d == WIDE_D == max(len(r[0]) for r, _ in DATA.values())
    assert set(data.y) == {-1, 1}
    assert [(e, i) for e, i, score in _visits(data) if score <= 0] == [(1, 0)]
    # w_1 = x_1: the second example's score 1 comes from the last feature alone, so a fit
    # that scores fewer features sees 0 and updates there
    w1, x2, y2 = data.X[0], data.X[1], data.y[1]
    assert y2 * w1[-1] * x2[-1] == 1 and dot(w1[:-1], x2[:-1]) == 0
    assert f"caught for every K below {WIDE_D}" in " ".join(DOCS.read_text().split())


def test_the_widest_scenarios_reproducer_rebuilds_its_data_whole() -> None:
    wide = {"protocol": [s for s in protocol() if s.data.name == WIDE]}
    failure = check_implementation(_ReadsFeatures(21), sources=wide).simplest_failure
    assert failure is not None and failure.X is not None
    code = failure.reproducer()
    assert "the first" not in code and code.startswith("X = np.zeros((2, 256))")
    space: dict[str, object] = {"np": np}
    exec(code.replace(f"fit(X, y, {failure.epochs})", ""), space)
    assert np.array_equal(space["X"], failure.X) and np.array_equal(space["y"], failure.y)


class _RaisesEscapes(Textbook):
    """A fit whose exception message would redraw the terminal: erase the line, print a
    green verdict, start another line."""

    def __call__(self, X: np.ndarray, y: np.ndarray, epochs: int) -> Result:
        raise ValueError("\x1b[2K\r\x1b[32mall verified\x1b[0m\nsecond line")


def test_a_fits_exception_message_is_said_on_one_printable_line() -> None:
    """Red team 31 (open after B3): `check_implementation` printed a fit's exception message
    raw, escape sequences and newlines included, so a fit's message could erase the
    report's line and print a green "all verified"."""
    report = check_implementation(_RaisesEscapes(), sources=("protocol",))
    assert not report.ok
    with pytest.raises(AssertionError) as raised:
        report.raise_for_violations()
    for said in (str(raised.value), report.summary()):
        assert "\x1b" not in said and "\r" not in said, said
    assert ("fit raised ValueError: \\x1b[2K \\x1b[32mall verified\\x1b[0m second line"
            in str(raised.value))


def test_where_a_w_sits_on_the_exact_run_is_read_off_one_replay() -> None:
    """`w_hint` and `epochs_hint` compare with one replay of the exact run (steps32), not
    the dual form `trace.iterate(t)` for every t: the same answers as that loop gave, for
    every state of converging and cycling runs, a state reached mid-epoch and again at an
    epoch's end (the epoch is said), every prefix, and iterates that leave the run."""
    from verify.testing.protocol import _epoch_ends, epochs_hint, w_hint

    def by_iterate(w: tuple[Fraction, ...], full: object) -> str:  # the loop it replaced
        trace = full.trace  # type: ignore[attr-defined]
        for k, t in enumerate(_epoch_ends(full)):  # type: ignore[arg-type]
            if trace.iterate(t) == w:
                return f"; it is the exact perceptron's w after {k} epoch(s) (w_{t})"
        for t in range(1, len(trace)):
            if trace.iterate(t) == w:
                return (f"; it is the exact perceptron's w_{t}, reached at update {t} in "
                        f"epoch {int(trace.epochs[t - 1])}")
        return ""

    runs = [run_online(data, max_epochs=epochs) for data, epochs in (
        (_scenario("late updates (n=9)"), 50), (_scenario("a half"), 50),
        (Dataset.of([[1, 0], [-1, 0], [0, 1]], [1, 1, 1]), 4),  # never separable: cycles
        (Dataset.of([[1, 1], [2, 2]], [1, 1]), 3),
        (Dataset.of([[-1], [0]], [1, 1]), 3))]  # w_1 = w_2, the end of epoch 1
    for full in runs:
        states = list(full.trace.iterates())
        off = tuple(v + Fraction(1, 7) for v in states[-1])  # on no run here: dyadic states
        for w in [*states, off]:
            assert w_hint(w, full) == by_iterate(w, full)
        for T in range(len(states)):  # every prefix of the run is its start
            assert f"first {T} update(s)" in epochs_hint(states[:T + 1], full, 1)
        for iterates in ([*states[:-1], off], [*states, off], [off]):  # a step off, past it
            assert epochs_hint(iterates, full, 1) == ""
