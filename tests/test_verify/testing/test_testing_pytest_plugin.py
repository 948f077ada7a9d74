"""The pytest plugin: a project adds one line to its conftest.py and gets theory checks."""

from __future__ import annotations

# pytester runs in this process and afterwards drops the modules a run imported first; C
# extensions (numpy, scipy) cannot be loaded twice, so everything the plugin uses is loaded
# here, once.
import pytest
import scipy.optimize
import scipy.sparse

import verify.api

assert scipy.optimize and scipy.sparse and verify.api

pytest_plugins = ["pytester"]

CONFTEST = 'pytest_plugins = ["verify.pytest_plugin"]\n'

USER_CODE = '''
import numpy as np


def perceptron(X, y, epochs, *, skip_ties=False):
    """The project's own perceptron (rule y<w,x> <= 0, eta = 1, w_0 = 0)."""
    w = np.zeros(X.shape[1])
    iterates = [w.copy()]
    for _ in range(epochs):
        for x, label in zip(X, y):
            margin = label * (w @ x)
            if margin < 0 or (margin == 0 and not skip_ties):
                w = w + label * x
                iterates.append(w.copy())
    return w, len(iterates) - 1, iterates
'''

TESTS = '''
from hypothesis import given, settings

from mylib import perceptron


def test_my_perceptron(perceptron_theory):
    report = perceptron_theory.check_implementation(perceptron, sources=("tight",), count=3)
    assert report.ok


def test_my_runs(perceptron_theory):
    planted = perceptron_theory.seeded_separable(4)
    run = perceptron_theory.run_online(planted.data)
    perceptron_theory.check_run(planted.data, run, u=planted.u)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(data=__import__("verify").separable_data(max_dim=3, max_n=5))
def test_strategy(data):
    assert len(data.data.X) >= 1
'''

BROKEN_TEST = '''
from mylib import perceptron


def test_my_broken_perceptron(perceptron_theory):
    def fit(X, y, epochs):
        return perceptron(X, y, epochs, skip_ties=True)

    perceptron_theory.check_implementation(fit, sources=("tight",), count=2)
'''


def project(pytester: pytest.Pytester, tests: str) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(mylib=USER_CODE, test_user=tests)


def test_one_line_gives_the_fixture_and_a_correct_implementation_passes(
        pytester: pytest.Pytester) -> None:
    project(pytester, TESTS)
    result = pytester.runpytest("-p", "no:cacheprovider", "--novikoff-seed", "3")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["novikoff: perceptron theory checks, --novikoff-seed=3"])


def test_a_broken_implementation_fails_with_the_clear_message(
        pytester: pytest.Pytester) -> None:
    project(pytester, BROKEN_TEST)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*AssertionError: fit is not the perceptron it was checked as (update on "
        "y*<w,x> <= 0*): 2 of 2 calls fail; simplest: tight seed=* *",
        "*- final w differs from the exact perceptron's (max deviation *",
        "*- its iterates stop at w_0 where the exact perceptron's go on to w_1*",
    ])
