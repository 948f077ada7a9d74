"""pytest plugin: perceptron theory checks in any test suite, with one line.

Enable it with `pytest_plugins = ["verify.pytest_plugin"]` in the project's root
`conftest.py` (or let the `pytest11` entry point of the installed package load it). Tests
then ask for the `perceptron_theory` fixture:

    def test_my_perceptron(perceptron_theory):
        perceptron_theory.check_implementation(my_fit)

Its `check_run` / `check_implementation` are those of `verify.testing.check_run`, except that a
violation fails the test (`raise_for_violations()`) with the first violation in the
message; both return the report. The seed of the adversarial scenarios is
`--novikoff-seed` (default 0), printed in the header so a failure can be reproduced.
Nothing heavy is imported until the fixture is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from verify.audit.job import Audit
    from verify.testing.check_batch import BatchReport
    from verify.testing.check_implementation import Fit, ImplementationReport
    from verify.testing.check_run import RunLike, TheoryReport


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--novikoff-seed N`: the seed of the scenarios fed to implementations."""
    group = parser.getgroup("novikoff", "perceptron theory checks (novikoff)")
    group.addoption("--novikoff-seed", type=int, default=0, metavar="N",
                    help="seed of the adversarial scenarios of check_implementation "
                         "(default 0)")


def pytest_report_header(config: pytest.Config) -> str:
    """Name the seed, so a failing scenario can be replayed."""
    return f"novikoff: perceptron theory checks, --novikoff-seed={_seed(config)}"


def _seed(config: pytest.Config) -> int:
    return int(config.getoption("novikoff_seed"))


class PerceptronTheory:
    """What the fixture gives: assertive checks, and the data generators for own tests.

    - `check_run(data, run, **options)`: `verify.api.check_run`, failing the test on a
      violation;
    - `check_implementation(fit, **options)`: `verify.api.check_implementation` with
      the session's seed, failing the test on a problem;
    - `check_batch_implementation(fit, **options)`: the same for a batch perceptron
      (`verify.api.check_batch_implementation`);
    - `audit_proof(*files, **options)`: `verify.api.audit_proofs` with the session's seed
      and the small budget unless given, failing the test unless every file is verified
      (a course keeps its lecture proofs as regression tests);
    - `separable_data()`, `labelled_vectors(dim)`: hypothesis strategies;
      `seeded_separable(seed)`: the same distribution without hypothesis;
    - `sklearn_fit(**params)`: scikit-learn's Perceptron as a `fit`, a reference peer;
    - `Conventions`, `Dataset`, `run_online`: to state and make exact runs.
    """

    def __init__(self, seed: int) -> None:
        from verify import api

        self.seed = seed
        self._api = api
        self.separable_data = api.separable_data
        self.labelled_vectors = api.labelled_vectors
        self.seeded_separable = api.seeded_separable
        self.sklearn_fit = api.sklearn_fit
        self.Conventions = api.Conventions
        self.Dataset = api.Dataset
        self.run_online = api.run_online

    def check_run(self, data: Any, run: RunLike, **options: Any) -> TheoryReport:
        """Check a run against the theory; a violation fails the test."""
        __tracebackhide__ = True
        report = self._api.check_run(data, run, **options)
        report.raise_for_violations()
        return report

    def check_implementation(self, fit: Fit, *, sources: Sequence[str] | Any = None,
                             **options: Any) -> ImplementationReport:
        """Check an implementation against the exact engine and the bound; a problem fails
        the test."""
        __tracebackhide__ = True
        options.setdefault("seed", self.seed)
        if sources is not None:
            options["sources"] = sources
        report = self._api.check_implementation(fit, **options)
        report.raise_for_violations()
        return report


    def check_batch_implementation(self, fit: Any, **options: Any) -> BatchReport:
        """Check a batch perceptron (a batch plug-in) against the exact one, iteration by
        iteration; a problem fails the test."""
        __tracebackhide__ = True
        options.setdefault("seed", self.seed)
        report = self._api.check_batch_implementation(fit, **options)
        report.raise_for_violations()
        return report

    def audit_proof(self, *proofs: Any, **options: Any) -> Audit:
        """Audit proof files on exact runs; anything not verified fails the test.

        At least one proof is needed: `audit_proofs()` of none audits every built-in proof,
        whose seed proofs' findings are no failures, so `audit_proof(*glob("proofs/*.toml"))`
        over an empty glob passed having checked none of the caller's files (red team 35
        F4). It fails the test instead, saying so."""
        __tracebackhide__ = True
        if not proofs:
            pytest.fail("audit_proof: no proof file nor built-in id given (an empty glob?): "
                        "it would audit the built-in proofs, none of yours", pytrace=False)
        options.setdefault("seed", self.seed)
        options.setdefault("budget", "small")
        audit = self._api.audit_proofs(*proofs, **options)
        problems = audit.problems()
        if problems:
            pytest.fail("proof audit failed:\n" + "\n".join(problems), pytrace=False)
        return audit


@pytest.fixture(scope="session")
def perceptron_theory(pytestconfig: pytest.Config) -> PerceptronTheory:
    """Theory checks for perceptron runs and implementations (see `PerceptronTheory`)."""
    return PerceptronTheory(_seed(pytestconfig))
