"""The public API for test suites: check a perceptron run, or a whole implementation, exactly.

- `check_run(data, run)` (`verify.testing.check_run`) checks, at every update and every state,
  that each step is a legal perceptron update and that the Block–Novikoff inequalities hold.
- `check_implementation(fit)` (`verify.testing.check_implementation`) feeds a third-party
  perceptron the adversarial sequences and compares it with the exact engine and the bound.
- The hypothesis strategies of `perceptron.generators.hypothesis`, and `Conventions`,
  `Dataset`, `run_online` to state and make exact runs, re-exported for users' own tests.

The two checks live in their own modules, the second built on the first; this module only
gathers them (`verify.check_run` and friends load from here, lazily). See docs/api.md.
"""

from verify.testing.check_implementation import (
    Fitted,
    ImplementationReport,
    ScenarioOutcome,
    check_implementation,
)
from verify.testing.check_run import (
    STATEMENTS,
    CheckOutcome,
    Conventions,
    Dataset,
    Planted,
    RunLike,
    TheoryReport,
    Violation,
    check_run,
    labelled_vectors,
    run_online,
    seeded_separable,
    separable_data,
)
from verify.testing.sklearn_adapter import sklearn_fit

__all__ = [
    "STATEMENTS", "CheckOutcome", "Conventions", "Dataset", "Fitted", "ImplementationReport",
    "Planted", "RunLike", "ScenarioOutcome", "TheoryReport", "Violation", "check_implementation",
    "check_run", "labelled_vectors", "run_online", "seeded_separable", "separable_data",
    "sklearn_fit",
]
