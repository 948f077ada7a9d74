"""`check_margin_implementation`: a third-party margin perceptron against the exact one
(`perceptron.algorithms.margin.run_margin`). Newcomer 34, N2: a lecturer's correct numpy
margin perceptron (update on `y<w, x> <= beta`) failed `check_implementation` on 45 of 72
calls (it checks the perceptron's rules only), and her subtly wrong one (`< beta`) could be
caught by no check of the package: as a plug-in of her proof its runs met every statement."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from verify import check_implementation, check_margin_implementation
from verify.testing.check_margin import ties


def margin_perceptron(beta: float, *, strict: bool = False, label: bool = True):
    """A lecturer's numpy margin perceptron at `beta`; `strict`: the bug `< beta`;
    `label=False`: the bug of a condition without the label, `<w, x> <= beta`."""

    def fit(X: np.ndarray, y: np.ndarray, epochs: int):
        w = np.zeros(X.shape[1])
        iterates = [w.copy()]
        for _ in range(epochs):
            updated = False
            for x, t in zip(X, y, strict=True):
                score = t * (w @ x) if label else w @ x
                if score < beta if strict else score <= beta:
                    w = w + t * x
                    iterates.append(w.copy())
                    updated = True
            if not updated:
                break
        return w, len(iterates) - 1, iterates

    return fit


BETAS = (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3, 4), Fraction(3))


@pytest.mark.parametrize("beta", BETAS, ids=str)
def test_a_correct_margin_perceptron_passes_and_its_strict_twin_is_caught(beta: Fraction):
    right = check_margin_implementation(margin_perceptron(float(beta)), beta, count=3)
    assert right.ok, right.failures[0].problems
    compared = [o for o in right.outcomes if o.source == "ties"]
    # the three ties in full, then each cut after the last epoch that updated
    assert [o.name for o in compared][::2] == [title for title, _ in ties(beta)]
    pairs = zip(compared[::2], compared[1::2], strict=True)
    assert all(cut.name.startswith(f"{full.name}, cut after {full.epochs - 1} epoch")
               and cut.epochs == full.epochs - 1 for full, cut in pairs)
    assert len(compared) == 6 and not any(o.note for o in compared)
    wrong = check_margin_implementation(margin_perceptron(float(beta), strict=True), beta,
                                        count=3)
    assert not wrong.ok
    assert {o.source for o in wrong.failures} >= {"ties"}
    with pytest.raises(AssertionError) as raised:
        wrong.raise_for_violations()
    message = str(raised.value)
    assert message.startswith(f"fit is not the margin perceptron at beta = {beta}: ")
    assert "final w differs from the exact margin perceptron's" in message
    assert "is <= beta" in message and "fit(X, y, " in message


def test_the_message_names_where_the_strict_rule_leaves_the_exact_run():
    wrong = check_margin_implementation(margin_perceptron(1.0, strict=True), 1,
                                        sources=("ties",))
    first = wrong.failures[0]
    assert first.name == "one example"
    assert first.problems == (
        "final w differs from the exact margin perceptron's: implementation (1), exact (2) "
        "(2 updates in 3 epoch(s), converged)",
        "made 1 update; the exact margin perceptron makes 2 (2 updates in 3 epoch(s), "
        "converged)",
        "its iterates stop at w_1 where the exact margin perceptron's go on to w_2; the exact "
        "update 2 is on example 0 (y = +1), whose margin y<w_1, x> = 1 is <= beta")


def test_other_bugs_are_caught_and_the_plain_perceptron_is_no_margin_perceptron():
    for bug in (margin_perceptron(0.0), margin_perceptron(1.0, label=False),
                margin_perceptron(2.0)):
        assert not check_margin_implementation(bug, 1, count=3).ok
    # the converse of N2: the check of the perceptron still fails a margin perceptron
    assert not check_implementation(margin_perceptron(1.0), count=2).ok


def test_the_ties_meet_beta_exactly_and_a_beta_no_fit_can_hold_is_refused():
    for beta in BETAS:
        for _, data in ties(beta):
            c2 = min(sum(v * v for v in x) for x in data.X)
            assert (beta / c2).denominator == 1  # some score k c^2 is beta
    with pytest.raises(ValueError, match="beta = 1/3 is no float64 value"):
        check_margin_implementation(margin_perceptron(1 / 3), Fraction(1, 3))
    with pytest.raises(ValueError, match="needs beta >= 0"):
        check_margin_implementation(margin_perceptron(-1.0), -1)
    with pytest.raises(ValueError, match="no scenario"):
        check_margin_implementation(margin_perceptron(1.0), 1, sources={})


def test_a_fit_that_changes_its_input_or_raises_is_a_problem():
    def writes(X: np.ndarray, y: np.ndarray, epochs: int):
        w = margin_perceptron(1.0)(X, y, epochs)[0]
        X[0, 0] += 1
        return w

    def raises(X: np.ndarray, y: np.ndarray, epochs: int):
        raise RuntimeError("boom")

    report = check_margin_implementation(writes, 1, sources=("ties",))
    assert all("changed its input X" in o.problems for o in report.outcomes)
    report = check_margin_implementation(raises, 1, sources=("ties",))
    assert all(o.problems == ("raised RuntimeError: boom",) for o in report.outcomes)


def test_endless_or_unlistable_iterates_are_a_problem_read_no_further_than_the_run_allows():
    """Red team 33 F6 in the margin check (found in check_implementation, this module then
    new): a fit returning its iterates as an endless generator was listed whole (gigabytes,
    no end); iterates that are no iterable were a TypeError traceback. At most epochs times
    examples plus two are read, more are a problem said as such."""
    import itertools

    def endless(X: np.ndarray, y: np.ndarray, epochs: int):
        w, updates, _ = margin_perceptron(1.0)(X, y, epochs)
        return w, updates, itertools.repeat(w)

    def unlistable(X: np.ndarray, y: np.ndarray, epochs: int):
        w, updates, _ = margin_perceptron(1.0)(X, y, epochs)
        return w, updates, 7

    report = check_margin_implementation(endless, 1, sources=("ties",))
    for outcome in report.outcomes:
        most = outcome.epochs * len(outcome.y)
        assert outcome.problems == (
            f"returned more than {most + 1} iterates: the margin perceptron makes at most "
            f"{most} updates here (one per example shown, each epoch showing each example "
            "once)",)
    def failing(X: np.ndarray, y: np.ndarray, epochs: int):
        w, updates, _ = margin_perceptron(1.0)(X, y, epochs)

        def broken():
            yield w
            raise ValueError("boom")
        return w, updates, broken()

    # review 33: an iterable that raises as it is read was a ValueError traceback
    report = check_margin_implementation(failing, 1, sources=("ties",))
    assert all(o.problems == ("its iterates raised ValueError: boom",)
               for o in report.outcomes)
    report = check_margin_implementation(unlistable, 1, sources=("ties",))
    assert all(len(o.problems) == 1 and o.problems[0].startswith(
        "returned iterates that are no sequence") for o in report.outcomes)
    assert check_margin_implementation(margin_perceptron(1.0), 1, sources=("ties",)).ok


@pytest.mark.parametrize("beta", [Fraction(2**40), Fraction(3 * 2**30), Fraction(1, 2**61)],
                         ids=str)
def test_a_large_or_tiny_power_of_two_beta_is_checked_at_its_tie_in_few_updates(beta: Fraction):
    """Red team adv33: `ties` took `c` from beta's denominator alone, so `beta = 2^40` asked
    `c = 1` for 2^40 updates and the check hung (the exact run's cap grew with beta / c^2).
    `c = 2^(v // 2)`, v the exponent of 2 in beta, meets beta in a few updates; the strict
    `<` is still caught there."""
    for _, data in ties(beta):
        run = ties_run(data, beta)
        assert run.converged and run.updates <= 2 * data.n * 4
        assert any(
            data.y[i] * sum((a * b for a, b in zip(w_before, data.X[i], strict=True)),
                            Fraction(0)) == beta
            for i, w_before in _steps(data, run))
    right = check_margin_implementation(margin_perceptron(float(beta)), beta,
                                        sources=("ties",))
    assert right.ok and not any(o.note for o in right.outcomes)
    wrong = check_margin_implementation(margin_perceptron(float(beta), strict=True), beta,
                                        sources=("ties",))
    assert {o.source for o in wrong.failures} == {"ties"}


def ties_run(data, beta: Fraction):
    """The exact margin perceptron's run on a tie scenario, under a small cap."""
    from perceptron.algorithms.margin import run_margin

    return run_margin(data, beta, max_epochs=50)


def _steps(data, run):
    """(example, iterate before) of each update of `run`."""
    w = tuple(Fraction(0) for _ in range(data.d))
    for i in run.indices:
        yield i, w
        w = tuple(a + data.y[i] * b for a, b in zip(w, data.X[i], strict=True))


def test_a_beta_whose_tie_is_past_the_cap_is_refused_not_passed():
    """Red team adv33: at beta = 2^40 + 1 the tie scenarios' runs were cut at the epoch cap
    before any score met beta, so the strict `<` passed every call ("ties calls 3 compared 3
    problems 0") though `ties` exists to catch it; now such a beta is refused with ties."""
    beta = Fraction(2**40 + 1)
    with pytest.raises(ValueError, match=r"only after 1099511627777 updates \(at most 4096"):
        check_margin_implementation(margin_perceptron(float(beta), strict=True), beta,
                                    sources=("ties",))
    assert check_margin_implementation(margin_perceptron(float(beta)), beta,
                                       sources=("tight",), count=1).ok


@pytest.mark.parametrize("bug", ["one epoch fewer", "leaves the last epoch early"])
def test_a_fit_that_stops_early_is_caught_by_the_runs_cut_short(bug: str):
    """Red team adv33: every call was given the epochs the exact run converged in, whose
    last epoch updates nothing, so a fit running `epochs - 1` epochs, or leaving the last
    epoch after its first update, returned the same weights and passed every call. The
    calls cut after the last epoch that updated tell them apart."""

    def fit(X: np.ndarray, y: np.ndarray, epochs: int):
        w = np.zeros(X.shape[1])
        for epoch in range(epochs - 1 if bug == "one epoch fewer" else epochs):
            updated = False
            for x, t in zip(X, y, strict=True):
                if t * (w @ x) <= 1.0:
                    w = w + t * x
                    updated = True
                    if bug != "one epoch fewer" and epoch == epochs - 1:
                        break
            if not updated:
                break
        return w

    report = check_margin_implementation(fit, 1, count=3)
    assert not report.ok
    assert all(", cut after " in o.name for o in report.failures)
    assert check_margin_implementation(margin_perceptron(1.0), 1, count=3).ok


def test_returned_weights_are_read_exactly_and_an_unreadable_return_is_not_said_raised():
    """Red team adv33: returned weights were read through float64, so a fit returning the
    exact weights plus 2^-60, as Fractions, passed as identical; its return of a count
    '2' (text) was said to have `raised`, though the fit returned; text weights passed."""
    tiny = Fraction(1, 2**60)

    def fractions(X: np.ndarray, y: np.ndarray, epochs: int):
        w, updates, _ = margin_perceptron(1.0)(X, y, epochs)
        return [Fraction(v) + tiny for v in w.tolist()], updates

    report = check_margin_implementation(fractions, 1, sources=("ties",))
    assert len(report.failures) == len(report.outcomes)
    assert all(any(p.startswith("final w differs") for p in o.problems)
               for o in report.failures)

    def text_count(X: np.ndarray, y: np.ndarray, epochs: int):
        w, updates, _ = margin_perceptron(1.0)(X, y, epochs)
        return w, str(updates)  # the exact run makes 2 on the first tie

    first = check_margin_implementation(text_count, 1, sources=("ties",)).failures[0]
    assert first.problems[0].startswith("returned tuple (array([")
    assert "a mistake count must be an integer, not '2'" in first.problems[0]
    assert not any("raised" in p for p in first.problems)

    def text_weights(X: np.ndarray, y: np.ndarray, epochs: int):
        return [str(v) for v in margin_perceptron(1.0)(X, y, epochs)[0]]

    first = check_margin_implementation(text_weights, 1, sources=("ties",)).failures[0]
    assert "'2.0' is text, not a number" in first.problems[0]
