"""`verify.check_implementation`: a third-party perceptron against the exact engine."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron.conventions import Conventions
from perceptron.dataset import Dataset
from verify import Fitted, check_implementation
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario
from verify.testing.check_implementation import as_fitted


def numpy_perceptron(X: np.ndarray, y: np.ndarray, epochs: int, *, eta: float = 1.0,
                     skip_ties: bool = False, factor: float = 1.0, strict: bool = False
                     ) -> tuple[np.ndarray, int, list[np.ndarray]]:
    """A plain float64 perceptron (rule `<=`, or `<` when strict), optionally broken."""
    w = np.zeros(X.shape[1])
    iterates = [w.copy()]
    for _ in range(epochs):
        changed = False
        for x, label in zip(X, y, strict=True):
            m = label * (w @ x)
            if m < 0 or (m == 0 and not (skip_ties or strict)):
                w = w + factor * eta * label * x
                iterates.append(w.copy())
                changed = True
        if not changed:
            break
    return w, len(iterates) - 1, iterates


def test_a_correct_float_perceptron_is_identical_wherever_float64_is_exact() -> None:
    report = check_implementation(numpy_perceptron, count=6)
    report.raise_for_violations()
    exact = [o for o in report.outcomes if o.float_exact]
    assert {o.source for o in exact} == {"tight", "adversary", "generated", "protocol"}
    for o in exact:
        assert o.identical and o.mistakes == o.engine.mistakes
        assert o.first_iterate_difference is None and o.theory is not None and o.theory.ok
        assert o.bound is not None and o.mistakes <= o.bound
    assert "tight" in report.summary()


def test_conventions_are_those_the_implementation_claims() -> None:
    half = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e, eta=0.5),
                                sources=("tight",), conventions=Conventions(eta=F(1, 2)))
    assert half.ok
    strict = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e, strict=True),
                                  sources=("tight",), conventions=Conventions(rule="lt"))
    assert strict.ok
    # the strict-rule implementation claimed as the default `<=` rule: every tie is missed
    wrong = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e, strict=True),
                                 sources=("tight",), name="strict perceptron")
    assert not wrong.ok


def test_skipping_updates_at_ties_is_caught_with_a_clear_message() -> None:
    report = check_implementation(
        lambda X, y, e: numpy_perceptron(X, y, e, skip_ties=True), sources=("tight",),
        count=3, name="tie-skipping perceptron")
    assert not report.ok and len(report.failures) == 3
    with pytest.raises(AssertionError) as caught:
        report.raise_for_violations()
    message = str(caught.value)
    assert message.startswith("tie-skipping perceptron is not the perceptron it was checked "
                              "as (update on y*<w,x> <= 0, ")
    assert "final w differs from the exact perceptron's" in message
    assert "made 0 mistakes; the exact perceptron makes" in message
    # it makes no update: its iterates stop at w_0 (newcomer 28: "leave ... at w_1" read as
    # if it had a w_1)
    assert "its iterates stop at w_0 where the exact perceptron's go on to w_1" in message


def test_a_doubled_step_is_caught_even_though_the_mistakes_agree() -> None:
    report = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e, factor=2.0),
                                  sources=("adversary",), count=3)
    first = report.first_failure
    assert first is not None and first.mistakes == first.engine.mistakes  # scale invariant
    assert first.max_deviation == max(abs(v) for v in first.engine.w)  # w is 2 w*
    assert any("update-rule" in p for p in first.problems)


def test_a_learning_rate_is_named_with_the_conventions_that_check_it() -> None:
    """Newcomer 28 (Low): a correct perceptron with rate 1/2 failed every call with "final w
    differs ... implementation (4), exact (8)", nothing saying its w is the exact one times
    1/2 nor pointing at `conventions=`; the message now does both, and those conventions
    pass it."""
    def half(X: np.ndarray, y: np.ndarray, e: int) -> tuple[np.ndarray, int, list[np.ndarray]]:
        return numpy_perceptron(X, y, e, eta=0.5)

    report = check_implementation(half, sources=("adversary",), count=3)
    first = report.first_failure
    assert first is not None
    said = next(p for p in first.problems if p.startswith("final w differs"))
    assert ("; it is 1/2 times the exact perceptron's w after " in said
            and ", as a learning rate of 1/2 makes it from w_0 = 0: if that rate is intended, "
            "check it with conventions=Conventions(eta=Fraction(1, 2))" in said)
    assert check_implementation(half, sources=("adversary",), count=3,
                                conventions=Conventions(eta=F(1, 2))).ok
    doubled = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e, factor=2.0),
                                   sources=("adversary",), count=3,
                                   conventions=Conventions(eta=F(1, 2))).first_failure
    assert doubled is not None  # rate 2 checked as 1/2: w is 4 times, the hint names rate 2
    assert any("; it is 4 times the exact perceptron's w after " in p
               and "conventions=Conventions(eta=2)" in p for p in doubled.problems)


def test_return_forms() -> None:
    assert as_fitted(np.array([[1.0, 2.0]])).w.tolist() == [1.0, 2.0]
    assert as_fitted([1.0, 2.0]).mistakes is None
    fitted = as_fitted((np.array([1.0]), 3))
    assert fitted.mistakes == 3 and fitted.iterates is None
    assert as_fitted(Fitted([1], 1, [[0], [1]])).iterates == [[0], [1]]
    with pytest.raises(ValueError, match="integer"):
        as_fitted((np.array([1.0]), 2.5))
    # weights only: compared, no mistakes to check
    only_w = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e)[0],
                                  sources=("tight",), count=2)
    assert only_w.ok and all(o.mistakes is None for o in only_w.outcomes)


def test_wrong_shapes_are_problems_whatever_the_arithmetic() -> None:
    report = check_implementation(lambda X, y, e: np.zeros(X.shape[1] + 1),
                                  sources=("tight",), count=1)
    outcome = report.outcomes[0]
    assert outcome.problems == (f"returned {outcome.d + 1} weights; the data need {outcome.d}"
                                "; if the last is a bias, check it with conventions="
                                "Conventions(bias=True), which appends a constant 1 to every "
                                "example",)


def test_weights_one_off_for_a_bias_say_so() -> None:
    """newcomer 30: `sklearn_fit(fit_intercept=True)` under the default conventions said only
    "returned 2 weights; the data need 1"; a bias claimed and not returned is named too, and
    other widths get no hint."""
    claimed = check_implementation(lambda X, y, e: np.zeros(X.shape[1]), sources=("tight",),
                                   count=1, conventions=Conventions(bias=True))
    outcome = claimed.outcomes[0]
    assert outcome.problems == (f"returned {outcome.d} weights; the data need {outcome.d + 1} "
                                "(the bias last); the conventions claim a bias "
                                "(Conventions(bias=True)): return it last, or check without it",)
    wide = check_implementation(lambda X, y, e: np.zeros(X.shape[1] + 2), sources=("tight",),
                                count=1)
    outcome = wide.outcomes[0]
    assert outcome.problems == (f"returned {outcome.d + 2} weights; the data need {outcome.d}",)


def test_a_weight_array_with_two_long_axes_is_no_vector() -> None:
    """Red team 27: `w.reshape(2, -1)` passed as identical to the engine's w (its entries,
    read in order, are right); two stacked copies are refused likewise, and a row or a
    column is still read as the vector."""
    def final(X: np.ndarray, y: np.ndarray, e: int) -> np.ndarray:
        return numpy_perceptron(X, y, e)[0]

    shaped = check_implementation(lambda X, y, e: np.vstack([final(X, y, e)] * 2),
                                  sources=("tight",), count=1)
    outcome = shaped.outcomes[0]
    assert not shaped.ok and outcome.problems == (
        f"returned weights of shape (2, {outcome.d}): no vector (a vector, one row or one "
        f"column is expected)",)
    for orient in (lambda w: w.reshape(1, -1), lambda w: w.reshape(-1, 1)):
        assert check_implementation(lambda X, y, e, o=orient: o(final(X, y, e)),
                                    sources=("tight",), count=1).ok


@pytest.mark.parametrize("sources", [{}, (), {"tight": []}, ("tight",)])
def test_no_scenario_is_no_pass(sources) -> None:  # type: ignore[no-untyped-def]
    """Red team 27: with no scenario (an empty mapping or tuple, `count=0`) the report held
    no call yet was `ok` and passed `raise_for_violations`, for a fit returning 7s."""
    with pytest.raises(ValueError, match=r"^no scenario to run <lambda> on: the sources "):
        check_implementation(lambda X, y, e: np.zeros(X.shape[1]) + 7, sources=sources,
                             count=0)


def huge_scenario() -> Scenario:
    """Integers beyond 2^53: float64 cannot even hold the data exactly."""
    big = 2**60 + 1
    data = Dataset.of([[big, 1], [1, big]], [1, -1], "huge")
    return Scenario(data, (F(1), F(-1)), Origin("custom", 0, "huge"))


def test_where_float64_may_round_differences_are_notes_not_problems() -> None:
    def off_by_one(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        w, _, _ = numpy_perceptron(X, y, epochs)
        return w + 1.0

    report = check_implementation(off_by_one, sources={"custom": [huge_scenario()]})
    outcome = report.outcomes[0]
    assert not outcome.float_exact and report.ok
    assert outcome.max_deviation == 1 and "float64 may round here" in outcome.notes[0]
    # the engine ran on the exact binary values of the floats handed over, 2^60 not 2^60 + 1
    assert outcome.engine.w == (F(2**60 - 1), F(1 - 2**60))


def test_w0_cannot_be_handed_to_fit() -> None:
    with pytest.raises(ValueError, match="w0"):
        check_implementation(numpy_perceptron, conventions=Conventions(w0=(F(1),)))
    with pytest.raises(ValueError, match="unknown source"):
        check_implementation(numpy_perceptron, sources=("nonsense",))


def test_a_failure_shows_the_data_of_the_failing_scenario_as_a_reproducer() -> None:
    # issue 17: the failure named the scenario but not its data
    def tie_skipper(X: np.ndarray, y: np.ndarray, e: int) -> tuple:
        return numpy_perceptron(X, y, e, skip_ties=True)

    report = check_implementation(tie_skipper, sources=("tight",), count=2)
    first = report.simplest_failure
    assert first is not None and first.X is not None and first.y is not None
    with pytest.raises(AssertionError) as caught:
        report.raise_for_violations()
    message = str(caught.value)
    assert "reproduce with exactly the data handed over" in message
    assert first.reproducer() in "\n".join(line[4:] for line in message.splitlines())
    # the reproducer rebuilds the very arrays handed over, and fails the same way
    namespace: dict[str, object] = {"np": np, "fit": tie_skipper}
    exec(first.reproducer().rsplit("\n", 1)[0], namespace)
    assert np.array_equal(namespace["X"], first.X) and np.array_equal(namespace["y"], first.y)
    _w, mistakes, _ = tie_skipper(first.X, first.y, first.epochs)
    assert mistakes != first.engine.mistakes


def test_the_state_line_is_said_only_of_a_fit_seen_to_keep_state() -> None:
    """Newcomer 28 (Low): every failure carried "# check_implementation had called fit N
    time(s) before this call: if this passes alone, fit keeps state between fits", a
    stateless rate-1/2 perceptron's too. Now a repeat call on the same data decides: a fit
    that returns the same (a function of its data) gets no such line; one that keeps its
    weights between fits gets it, with what the repeat showed."""
    def half(X: np.ndarray, y: np.ndarray, e: int) -> tuple[np.ndarray, int, list[np.ndarray]]:
        return numpy_perceptron(X, y, e, eta=0.5)

    stateless = check_implementation(half, sources=("tight", "adversary"), count=3
                                     ).simplest_failure
    assert stateless is not None and stateless.calls_before > 0
    assert stateless.keeps_state == "" and "keeps state" not in stateless.reproducer()

    kept: dict[int, np.ndarray] = {}

    def warm(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int]:
        w, mistakes = kept.get(X.shape[1], np.zeros(X.shape[1])), 0
        for _ in range(epochs):
            changed = False
            for x, label in zip(X, y, strict=True):
                if label * (w @ x) <= 0:
                    w, mistakes, changed = w + label * x, mistakes + 1, True
            if not changed:
                break
        kept[X.shape[1]] = w
        return w, mistakes

    first = check_implementation(warm, sources=("tight", "adversary"), count=3).simplest_failure
    assert first is not None and first.calls_before > 0
    assert first.keeps_state.startswith("called again on the data of its call ")
    assert first.reproducer().startswith(
        f"# check_implementation had called fit {first.calls_before} time(s) before this "
        f"call, and fit keeps state between fits ({first.keeps_state}): if this passes "
        "alone, that state is the cause\n")


def test_a_fit_that_keeps_state_is_offered_no_learning_rate() -> None:
    """Newcomer 30 (Low): a warm-started fit (its w kept from the previous call) was told
    "it is 8 times the exact perceptron's w after 1 epoch(s) (w_1), as a learning rate of 8
    makes it ...: check it with conventions=Conventions(eta=8)": true arithmetic on a d = 1
    scenario, where every w is a multiple of any other, pointing away from the cause, said
    only in the reproducer. Seen to keep state, its w is read as no learning rate's."""
    kept: dict[int, np.ndarray] = {}

    def warm(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        w = kept.get(X.shape[1], np.zeros(X.shape[1]))
        for _ in range(epochs):
            changed = False
            for x, label in zip(X, y, strict=True):
                if label * (w @ x) <= 0:
                    w, changed = w + label * x, True
            if not changed:
                break
        kept[X.shape[1]] = w
        return w

    report = check_implementation(warm)  # the newcomer's: a repeat of call 1 differs
    said = [p for o in report.outcomes for p in (*o.problems, *o.notes)]
    assert report.simplest_failure is not None and report.simplest_failure.keeps_state
    assert not any("Conventions(eta=" in p or "as a learning rate of" in p for p in said)
    instead = (f"; fit keeps state between fits ({report.simplest_failure.keeps_state}), so "
               "this w is not read as another learning rate's")
    assert any(p.endswith(instead) for p in report.simplest_failure.problems)
    assert all(o.rate_hint == "" for o in report.outcomes)


def test_a_huge_exact_fraction_in_a_message_has_its_decimal_beside_it() -> None:
    """Newcomer 30 (Low): a float32 perceptron's deviation on the protocol's "tiny score"
    scenario (2^-500) was printed as a 150-digit fraction and nothing else. The exact value
    stays, in full; a short decimal marked ≈ follows it, and short values are left alone."""
    from fractions import Fraction

    from perceptron.numbers import beside

    tiny = Fraction(1, 2**500)
    assert beside(tiny) == f"1/{2**500} (≈ 3.05e-151)"
    assert beside(Fraction(3, 4)) == "3/4" and beside(Fraction(-10**38)) == str(-10**38)
    assert beside(Fraction(10**40)) == f"{10**40} (≈ 1e+40)"

    def float32(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        X, w = X.astype(np.float32), np.zeros(X.shape[1], np.float32)
        for _ in range(epochs):
            changed = False
            for x, label in zip(X, y, strict=True):
                if label * (w @ x) <= 0:
                    w, changed = w + label * x, True
            if not changed:
                break
        return w.astype(np.float64)

    first = check_implementation(float32, sources=("protocol",)).simplest_failure
    assert first is not None
    assert first.problems[0].startswith(
        f"final w differs from the exact perceptron's (max deviation 1/{2**500} (≈ 3.05e-151))")


def test_iterates_that_stop_early_are_said_to_stop_not_to_leave() -> None:
    """Newcomer 28 (Low): a one-pass fit whose iterates end at w_2 read "its iterates leave
    the exact perceptron's at w_3", an iterate it never had; and one that goes on past the
    exact run's end is said to go on."""
    def one_pass(X: np.ndarray, y: np.ndarray, e: int) -> tuple[np.ndarray, int, list[np.ndarray]]:
        return numpy_perceptron(X, y, 1)

    first = check_implementation(one_pass, sources=("protocol",)).simplest_failure
    assert first is not None and first.mistakes is not None
    end = first.mistakes
    said = next(p for p in first.problems if p.startswith("its iterates"))
    assert said.startswith(f"its iterates stop at w_{end} where the exact perceptron's go on "
                           f"to w_{end + 1}: its iterates are the exact perceptron's first "
                           f"{end} update(s)")
    assert "leave" not in said

    def one_more(X: np.ndarray, y: np.ndarray, e: int) -> tuple[np.ndarray, int, list[np.ndarray]]:
        w, mistakes, iterates = numpy_perceptron(X, y, e)
        w = w + y[0] * X[0]
        return w, mistakes + 1, [*iterates, w]

    over = check_implementation(one_more, sources=("tight",), count=1).simplest_failure
    assert over is not None and over.mistakes is not None
    end = over.mistakes - 1
    assert any(p.startswith(f"its iterates go on past w_{end}, where the exact perceptron's "
                            f"end, to w_{end + 1}: it makes an update {end + 1}")
               for p in over.problems)


def test_a_large_scenario_reproducer_shows_rows_and_how_to_regenerate() -> None:
    report = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e, skip_ties=True),
                                  sources=("tight",), count=3)
    first = report.first_failure
    assert first is not None and first.X is not None
    short = first.reproducer(limit=first.d)
    assert "regenerate all with check_implementation(fit, sources=('tight',), seed=" in short
    assert short.count("[") < first.reproducer().count("[")


def test_the_report_displays_in_jupyter_as_its_summary() -> None:
    """`_repr_html_`: the summary's per-source counts as a table, the verdict in the caption."""
    report = check_implementation(numpy_perceptron, sources=["tight"], count=2)
    html = report._repr_html_()
    assert "<th>max deviation</th>" in html and "<td>tight</td>" in html
    assert html.count("<tr>") == 1 + len(report.by_source()) and ": ok</caption>" in html


@pytest.mark.parametrize(("scale", "exact"), [(500, True), (537, True), (538, False),
                                              (600, False)])
def test_float64_is_exact_only_while_the_quantum_is_on_its_grid(scale: int, exact: bool) -> None:
    """The a-priori bound `T eta^2 R^4 4^e s^4 < 2^106` is scale invariant, but float64 is
    not: at the scale 2^-600 the score 2^-1200 of the protocol's "a tiny score" data
    underflows to 0, so the scenario must not count as float-exact (red team 12, found while
    moving that scenario to 2^-500). The quantum `s^-2` must be a multiple of 2^-1074."""
    from verify.testing.check_implementation import _float_exact

    tiny = F(1, 2**scale)
    data = Dataset.of([[tiny], [-tiny]], [1, -1], "tiny")
    assert _float_exact(data, Conventions(), updates=1) is exact
    if not exact:  # what float64 does there: the exact score is lost
        assert float(tiny) * float(tiny) != tiny * tiny


def int64_perceptron(X: np.ndarray, y: np.ndarray, epochs: int
                     ) -> tuple[np.ndarray, int, list[np.ndarray]]:
    """The classic "integral data are exact in int64" bug: its products of about 1e12 * 1e12
    wrap around (red team 19, F2)."""
    if np.all(X == np.round(X)):
        X, y = X.astype(np.int64), y.astype(np.int64)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    iterates = [w.copy()]
    for _ in range(epochs):
        changed = False
        for x, label in zip(X, y, strict=True):
            if label * (w @ x) <= 0:
                w = w + label * x
                iterates.append(w.copy())
                changed = True
        if not changed:
            break
    return w, len(iterates) - 1, iterates


def planted_seed_3() -> dict[str, list[Scenario]]:
    """A `generated` scenario where float64 is not exact (coordinates about 1e12) but no
    decision of the exact run is near 0: a float64 perceptron makes its 3 updates."""
    from verify.numeric import campaign

    return {"generated": [s for s in campaign.generated(0, 4) if s.origin.seed == 3]}


def test_an_int64_overflow_fails_where_float64_is_not_exact_but_cannot_explain_it() -> None:
    report = check_implementation(int64_perceptron, sources=planted_seed_3())
    outcome = report.outcomes[0]
    assert not outcome.float_exact and not report.ok
    assert "no float64 rounding explains this: every score of the exact run" in (
        outcome.problems[0])
    assert any(p.startswith("made 10 mistakes; the exact perceptron makes 3") and
               "no float64 rounding explains this" in p for p in outcome.problems)
    assert not any("float64 may round here" in n for n in outcome.notes)
    # without iterates too: the mistakes alone are no rounding
    bare = check_implementation(lambda X, y, e: int64_perceptron(X, y, e)[:2],
                                sources=planted_seed_3())
    assert not bare.ok
    # while a float64 perceptron passes there, within the rounding bound
    fine = check_implementation(numpy_perceptron, sources=planted_seed_3())
    assert fine.ok and not fine.outcomes[0].float_exact


def test_rounding_bound_excuses_only_deviations_within_it() -> None:
    from verify.testing.check_implementation import _Rounding

    outcome = check_implementation(numpy_perceptron, sources=planted_seed_3()).outcomes[0]
    bounds = _Rounding.of(Dataset.of(outcome.X.tolist(), outcome.y.tolist(), "p"),
                          Conventions(), outcome.engine)
    assert not bounds.flip and 0 < bounds.drift < 1
    assert outcome.max_deviation is not None and outcome.max_deviation <= bounds.drift

    def nudged(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        return numpy_perceptron(X, y, epochs)[0] + np.array([1.0, 0, 0, 0])

    report = check_implementation(nudged, sources=planted_seed_3())
    assert not report.ok
    assert "no float64 rounding explains this" in report.outcomes[0].problems[0]


def test_a_decision_rounding_may_flip_keeps_differences_as_notes() -> None:
    from perceptron.algorithms.online import run_online
    from verify.testing.check_implementation import _Rounding

    # after w_1 = (2^60, 1) the second example scores exactly 0: far inside the rounding bound
    big = 2**60
    data = Dataset.of([[big, 1], [-1, big]], [1, 1], "tie")
    bounds = _Rounding.of(data, Conventions(), run_online(data, Conventions()))
    assert bounds.flip.startswith("the exact run's score y<w_1, x> = 0 on example 1 in epoch 1")
    report = check_implementation(
        lambda X, y, e: numpy_perceptron(X, y, e)[0] + 1.0,
        sources={"custom": [Scenario(data, (F(1), F(1)), Origin("custom", 0, "tie"))]})
    outcome = report.outcomes[0]
    assert report.ok and not outcome.float_exact
    assert outcome.notes[0].endswith(f"(float64 may round here: {bounds.flip})")


@pytest.mark.parametrize(("spoil", "said"), [
    (lambda w, its: (w * np.nan, its), "at [0], nan is not a finite number"),
    (lambda w, its: (w * -np.inf, its), "inf is not a finite number"),
    (lambda w, its: (None, its), "NoneType value None is not a number"),
    (lambda w, its: (w.astype(complex), its), "is not a number"),
    (lambda w, its: ({"w": w}, its), "dict value"),
    (lambda w, its: ([str(v) for v in w], its), "is text, not a number"),
    (lambda w, its: (w, [its[0] * np.nan, *its[1:]]), "returned the iterate w_0 with an entry"),
])
def test_a_return_that_is_no_finite_real_vector_is_a_problem_not_a_crash(spoil, said) -> None:  # type: ignore[no-untyped-def]
    def fit(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[object, int, object]:
        w, mistakes, iterates = numpy_perceptron(X, y, epochs)
        bad_w, bad_iterates = spoil(w, iterates)
        return bad_w, mistakes, bad_iterates

    with np.errstate(invalid="ignore"):
        report = check_implementation(fit, sources=("tight",), count=1)
    assert not report.ok
    first = report.outcomes[0]
    assert len(first.problems) == 1 and said in first.problems[0]
    assert first.problems[0].startswith("returned ")
    with pytest.raises(AssertionError, match="reproduce with exactly the data handed over"):
        report.raise_for_violations()


def test_a_scalar_or_unreadable_return_is_a_problem_not_a_crash() -> None:
    scalar = check_implementation(lambda X, y, e: (3.0, 1, [np.zeros(X.shape[1])]),
                                  sources=("tight",), count=1)
    assert not scalar.ok and scalar.outcomes[0].problems[0].startswith("returned ")
    counted = check_implementation(lambda X, y, e: (numpy_perceptron(X, y, e)[0], "3"),
                                   sources=("tight",), count=1)
    assert counted.outcomes[0].problems[0].startswith("returned tuple (")
    assert "a mistake count must be an integer, not '3'" in counted.outcomes[0].problems[0]


def test_theory_only_fails_an_update_no_float64_rounding_can_trigger() -> None:
    # no exact run bounds a run in its own order, but its own scores are bounded one by one
    report = check_implementation(int64_perceptron, sources=planted_seed_3(), theory_only=True)
    outcome = report.outcomes[0]
    assert not outcome.float_exact and not report.ok
    assert outcome.problems[0].startswith(
        "its update 3 is on example 3 (y = -1) with y<w_2, x> = 2138378137014536649686623, "
        "above ")
    assert outcome.problems[0].endswith("no float64 rounding makes it trigger an update")
    assert check_implementation(numpy_perceptron, sources=planted_seed_3(),
                                theory_only=True).ok


def test_theory_only_summary_says_no_comparison_was_made() -> None:
    # it said "vs the exact perceptron" with "identical 0 ... max deviation 0" columns,
    # though theory_only compares nothing with the exact perceptron
    report = check_implementation(numpy_perceptron, sources=("tight",), theory_only=True)
    summary, html = report.summary(), report._repr_html_()
    assert report.ok and report.max_deviation is None
    headline = summary.splitlines()[0]
    assert headline.startswith("numpy_perceptron: the perceptron theory checked on its own "
                               "iterates, not compared with the exact perceptron")
    assert "vs the exact perceptron" not in summary + html
    assert "identical" not in summary + html and "max deviation" not in summary + html
    assert summary.splitlines()[1].split() == ["tight", "scenarios", "8", "calls", "8",
                                               "float-exact", "8", "problems", "0"]
    # the comparing check keeps its columns
    compared = check_implementation(numpy_perceptron, sources=("tight",)).summary()
    assert compared.startswith("numpy_perceptron vs the exact perceptron")
    assert compared.splitlines()[1].split() == [
        "tight", "scenarios", "8", "calls", "8", "identical", "8", "float-exact", "8",
        "problems", "0", "max", "deviation", "0"]


def test_a_theory_only_failure_without_iterates_does_not_claim_they_break_the_theory() -> None:
    """newcomer 30: `sklearn_fit(shuffle=True, iterates=False)` under `theory_only=True` was
    headed "breaks the perceptron theory on its own iterates" above "returned no iterates"."""
    report = check_implementation(lambda X, y, e: numpy_perceptron(X, y, e)[0],
                                  sources=("tight",), count=1, theory_only=True, name="bare")
    with pytest.raises(AssertionError) as raised:
        report.raise_for_violations()
    said = str(raised.value)
    assert said.startswith("bare fails the theory-only check of its own run (")
    assert "breaks" not in said and "\n  - returned no iterates: theory_only=True" in said


def predict_then_update(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    """A correct perceptron of another rule: predict `+1 if <w, x> > 0 else -1`, update when
    the prediction is wrong (so a tie updates only a +1 example: `sign(0) = -1`)."""
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        updated = False
        for x, label in zip(X, y, strict=True):
            if (1 if w @ x > 0 else -1) != label:
                w, updated = w + label * x, True
        if not updated:
            break
    return w


def test_a_fit_of_another_rule_is_told_which_rule_explains_it() -> None:
    """newcomer 30: a predict-then-update perceptron failed 83 of 108 calls with nothing
    pointing at the rule; the message now names it when every call agrees with it, and a
    one-pass fit, which one small scenario lets look like `sign_zero=-1`, gets no such hint."""
    sources = {"sources": ("tight", "adversary", "protocol"), "count": 2}
    cases = [(predict_then_update, 'conventions=Conventions(rule="mistake", sign_zero=-1)'),
             (lambda X, y, e: numpy_perceptron(X, y, e, strict=True)[0],
              'conventions=Conventions(rule="lt")'),
             (lambda X, y, e: numpy_perceptron(X, y, 1)[0], None)]
    for fit, hint in cases:
        report = check_implementation(fit, **sources)  # type: ignore[arg-type]
        with pytest.raises(AssertionError) as raised:
            report.raise_for_violations()
        said = str(raised.value)
        if hint is None:
            assert "another rule" not in said
        else:
            assert "calls its w is exactly the perceptron's under another rule" in said
            assert said.count(hint) == 1, said
    assert check_implementation(predict_then_update, conventions=Conventions(
        rule="mistake", sign_zero=-1), **sources).ok  # type: ignore[arg-type]


def test_a_source_where_no_weights_were_compared_shows_no_max_deviation() -> None:
    """Red team 30: a fit that raises on every call (here `sklearn_fit(average=True)`, a
    parameter scikit-learn's Perceptron does not take) compared no weights, and the summary
    said "max deviation 0", the figure of exact agreement. It now shows "-"."""
    def raises(X: object, y: object, epochs: int) -> object:
        raise TypeError("Perceptron.__init__() got an unexpected keyword argument 'average'")

    report = check_implementation(raises, sources=("tight",))
    assert not report.ok and all(o.max_deviation is None for o in report.outcomes)
    row = report.summary().splitlines()[1].split()
    assert row[-3:] == ["max", "deviation", "-"]
    assert "<td>-</td>" in report._repr_html_()


def test_the_summary_counts_scenarios_apart_from_calls() -> None:
    """Newcomer 33 F5: with a bias, two of the 8 tight scenarios take two epochs with
    updates, so each is called again cut after one; the summary said `tight scenarios 10`
    for 8 scenarios and 10 calls. It now says both."""
    def biased(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        w = np.zeros(X.shape[1] + 1)
        for _ in range(epochs):
            for x, label in zip(np.c_[X, np.ones(len(X))], y, strict=True):
                if label * (w @ x) <= 0:
                    w = w + label * x
        return w

    report = check_implementation(biased, sources=("tight",), conventions=Conventions(bias=True))
    origins = {o.origin for o in report.outcomes}
    assert report.ok and len(report.outcomes) > len(origins)
    assert report.summary().splitlines()[1].split()[:5] == [
        "tight", "scenarios", str(len(origins)), "calls", str(len(report.outcomes))]


def test_a_bias_never_updated_is_named() -> None:
    """Newcomer 33: a perceptron with a bias that forgot `b += y` failed with `final w (8, 0)`
    against `(8, 1)` and nothing naming the bias. The failure now says that its bias stayed
    0 on every call where the exact perceptron's moved."""
    def frozen_bias(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(epochs):
            for x, label in zip(X, y, strict=True):
                if label * (w @ x + b) <= 0:
                    w = w + label * x
        return np.append(w, b)

    report = check_implementation(frozen_bias, sources=("tight",), count=3,
                                  conventions=Conventions(bias=True))
    with pytest.raises(AssertionError) as raised:
        report.raise_for_violations()
    calls, moved = len(report.outcomes), sum(o.engine.w[-1] != 0 for o in report.outcomes)
    assert 0 < moved < calls  # some exact runs end with a bias 0: not every call tells
    assert (f"  - its bias (the last weight) is 0 after each of its {calls} calls, where the "
            f"exact perceptron's is not after {moved} of them: a bias never updated "
            "(b += eta*y at each update) stays 0") in str(raised.value)
    # a `< 0` rule never leaves w_0 = 0: its bias stays 0 too, but not for want of `b += y`
    def strict(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
        w = np.zeros(X.shape[1] + 1)
        for _ in range(epochs):
            for x, label in zip(np.c_[X, np.ones(len(X))], y, strict=True):
                if label * (w @ x) < 0:
                    w = w + label * x
        return w

    with pytest.raises(AssertionError) as raised:
        check_implementation(strict, sources=("tight",), count=3,
                             conventions=Conventions(bias=True)).raise_for_violations()
    assert "its bias" not in str(raised.value) and 'Conventions(rule="lt")' in str(raised.value)
    # a correct biased perceptron fails nothing, so nothing is said of its bias
    assert check_implementation(lambda X, y, e: np.append(*_biased(X, y, e)),
                                sources=("tight",), count=3,
                                conventions=Conventions(bias=True)).ok


def _biased(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, float]:
    """The perceptron with a bias kept apart: `w += y x`, `b += y` on each mistake."""
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(epochs):
        for x, label in zip(X, y, strict=True):
            if label * (w @ x + b) <= 0:
                w, b = w + label * x, b + label
    return w, b


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=6),
       st.sampled_from([(-1,), (1, -1), (-1, 1)]))
def test_a_float64_return_is_read_as_each_entry_s_exact_value(values: list[float],
                                                              shape: tuple[int, ...]) -> None:
    """The float64 fast path of `_vector` (steps32) reads what `exact` reads entry by entry
    (subnormals, -0.0, the largest floats), as a row, a column or a flat vector."""
    from perceptron.numbers import exact
    from verify.testing.check_implementation import _Findings, _vector

    array = np.array(values, dtype=np.float64).reshape(shape)
    seen = _Findings()
    read = _vector(array, "weights", seen)
    assert read == tuple(exact(v) for v in np.array(array, dtype=object).ravel().tolist())
    assert all(type(v) is F for v in read) and not seen.defects  # type: ignore[union-attr]


def test_endless_iterates_are_read_no_further_than_a_perceptron_can_update() -> None:
    """Red team 33 F6: iterates returned as a generator that never ends were listed whole,
    4 GB in 30 s and no end. A perceptron makes at most one update per example shown, so
    at most epochs * n + 1 iterates are read, and more are a problem said as such; the
    correct run's iterates, as a generator, are read as a list is."""
    def endless(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int, object]:
        w, mistakes, _ = numpy_perceptron(X, y, epochs)

        def forever():  # type: ignore[no-untyped-def]
            while True:
                yield w
        return w, mistakes, forever()

    outcome = check_implementation(endless, sources=("tight",), count=1).outcomes[0]
    n = outcome.X.shape[0]
    assert outcome.problems == (
        f"returned more than {outcome.epochs * n + 1} iterates: the perceptron makes at most "
        f"{outcome.epochs * n} updates here (one per example shown, each epoch showing each "
        "example once)",)

    def lazy(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int, object]:
        w, mistakes, iterates = numpy_perceptron(X, y, epochs)
        return w, mistakes, iter(iterates)

    assert check_implementation(lazy, sources=("tight",), count=1).ok


def test_iterates_that_raise_as_they_are_read_are_a_problem_not_a_traceback() -> None:
    """Review 33: a fit whose iterates are a generator that raises after its first item
    made check_implementation raise that error (only a TypeError was caught), where a fit
    that raises itself is a problem reported."""
    def failing(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int, object]:
        w, mistakes, _ = numpy_perceptron(X, y, epochs)

        def broken():  # type: ignore[no-untyped-def]
            yield w
            raise ValueError("boom")
        return w, mistakes, broken()

    outcome = check_implementation(failing, sources=("tight",), count=1).outcomes[0]
    assert "its iterates raised ValueError: boom" in outcome.problems


def test_theory_only_is_true_or_false() -> None:
    """Red team 33 F9: `theory_only="no"` was read by its truth, so nothing was compared
    with the exact run: a fit whose weights are not the perceptron's could pass."""
    with pytest.raises(TypeError, match="theory_only is True or False, not 'no'"):
        check_implementation(numpy_perceptron, sources=("tight",), count=1,
                             theory_only="no")  # type: ignore[arg-type]


def _perceptron(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        for x, label in zip(X, y, strict=True):
            if label * (w @ x) <= 0:
                w = w + label * x
    return w


def test_one_source_named_alone_is_that_source() -> None:
    """Red team 35 F5: `sources="tight"` was read as the five sources t, i, g, h, t ('unknown
    source(s) t, i, g, h, t'); the margin check's `sources="ties"` so too."""
    from verify import check_margin_implementation

    report = check_implementation(_perceptron, sources="tight", count=1)
    assert [o.source for o in report.outcomes] == ["tight"] and report.ok
    ties = check_margin_implementation(_perceptron, 0, sources="ties")
    assert ties.outcomes and {o.source for o in ties.outcomes} == {"ties"} and ties.ok


@pytest.mark.parametrize(("scenarios", "said"), [
    ([1, 2], "sources['mine'] holds int 1, not a Scenario (verify.runs.Scenario)"),
    ("ab", "sources['mine'] must be Scenarios (verify.runs.Scenario), not str 'ab'"),
    (5, "sources['mine'] must be Scenarios (verify.runs.Scenario), not int 5"),
])
def test_own_sources_that_hold_no_scenario_are_a_type_error(scenarios: object,
                                                            said: str) -> None:
    """Red team 35 F5: a mapping of sources holding anything but Scenarios was an
    AttributeError inside the check (`'int' object has no attribute 'data'`)."""
    from verify import check_margin_implementation

    with pytest.raises(TypeError) as info:
        check_implementation(_perceptron, sources={"mine": scenarios})  # type: ignore[dict-item]
    assert str(info.value) == said
    with pytest.raises(TypeError) as margin:
        check_margin_implementation(_perceptron, 0,
                                    sources={"mine": scenarios})  # type: ignore[dict-item]
    assert str(margin.value) == said
