"""The public API for test suites: check a perceptron run, or a whole implementation, exactly.

- `check_run(data, run)` (`verify.testing.check_run`) checks, at every update and every state,
  that each step is a legal perceptron update and that the Block–Novikoff inequalities hold.
- `check_implementation(fit)` (`verify.testing.check_implementation`) feeds a third-party
  perceptron the adversarial sequences and compares it with the exact engine and the bound.
- `check_margin_implementation(fit, beta)` (`verify.testing.check_margin`) compares a
  third-party margin perceptron (an update whenever `y<w, x> <= beta`) with the exact one.
- `check_batch_implementation(fit)` (`verify.testing.check_batch`) compares a third-party
  batch perceptron (a batch plug-in) with the exact one, iteration by iteration.
- `audit_proofs(*proofs)` audits proof files (and built-in ids) exactly as `novikoff audit`
  does: kernel verdicts and the campaign on exact runs (`verify.audit.job.run_audit`).
- The hypothesis strategies of `perceptron.generators.hypothesis`, and `Conventions`,
  `Dataset`, `run_online` to state and make exact runs, re-exported for users' own tests.

The two checks live in their own modules, the second built on the first; this module only
gathers them (`verify.check_run` and friends load from here, lazily). See docs/api.md.
"""

from collections.abc import Iterable, Mapping, Sequence
from os import PathLike, fsdecode

from verify.audit.job import Audit, run_audit
from verify.runs.plugin import Algorithm, Plugin, PluginFault, plugins
from verify.testing.check_batch import BatchReport, check_batch_implementation
from verify.testing.check_implementation import (
    Fitted,
    ImplementationReport,
    ScenarioOutcome,
    check_implementation,
)
from verify.testing.check_margin import MarginReport, check_margin_implementation
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


def audit_proofs(*proofs: str | bytes | PathLike[str],
                 data: Sequence[str | bytes | PathLike[str]] | str | bytes | PathLike[str] = (),
                 budget: str = "default", seed: int = 0, jobs: int = 1,
                 algorithms: Mapping[str, Algorithm] | Sequence[str | Plugin] | str | Plugin
                 | None = None) -> Audit:
    """Audit proof files (paths) or built-in ids as `novikoff audit PROOF ... --data FILE`:
    the same kernel checks, campaign and verdicts. `Audit.passed()` says whether every file
    was verified; `Audit.problems()` says why not, and `Audit.errors` holds the proofs or
    data files refused (one line each). One process by default: a test suite runs its own.

    `algorithms` are the user's own online algorithms (`verify.runs.plugin`), by the name a
    proof's `[numeric] algorithm` gives: `{"pa": passive_aggressive}`, or texts of
    `--algorithm` (`"pa=mymodule:passive_aggressive"`), or `Plugin`s (with parameters:
    `Plugin.parse(text, ["beta=1/2"])`). Only these run; a proof file names
    one but never brings code. A name that shadows a built-in raises `PluginFault`.

    One data file or one `--algorithm` text may be given alone, not in a list: a string is
    a sequence of characters, and `data="my.csv"` audited `m`, `y`, `.`, ... as six files
    (red team 30), each error naming a `--data` option the caller never wrote. A path in
    bytes is a path as `open` takes it (`b"my.csv"` was read as the numbers 109, 121, ...,
    "--data 109: no such file", red team 31); anything else raises TypeError naming it."""
    from verify.numeric.algorithms import BUILT_IN

    if isinstance(data, (str, bytes, PathLike)):
        data = [data]
    elif not isinstance(data, Iterable):  # red team 31: None was "'NoneType' object is ..."
        raise TypeError(f"audit_proofs: data is a file's name or a list of them, not "
                        f"{type(data).__name__} {data!r}")
    if isinstance(algorithms, (str, Plugin)):
        algorithms = [algorithms]
    given = plugins(dict(algorithms) if isinstance(algorithms, Mapping) else algorithms,
                    BUILT_IN)
    return run_audit([_path(p, "a proof") for p in proofs],
                     data=[_path(d, "a data file") for d in data], budget=budget,
                     seed=seed, jobs=jobs, algorithms=given)


def _path(value: object, what: str) -> str:
    """A proof or data file named as `audit_proofs` takes it: text, a path object or bytes
    (decoded as the file system does); TypeError for anything else, which `str()` turned
    into a name no caller wrote (`3`, `b'x.csv'`)."""
    if isinstance(value, (str, bytes, PathLike)):
        return fsdecode(value)
    raise TypeError(f"audit_proofs: {what} is named by a str, bytes or os.PathLike, not "
                    f"{type(value).__name__} {value!r}")


__all__ = [
    "STATEMENTS",
    "Audit",
    "BatchReport",
    "CheckOutcome",
    "Conventions",
    "Dataset",
    "Fitted",
    "ImplementationReport",
    "MarginReport",
    "Planted",
    "Plugin",
    "PluginFault",
    "RunLike",
    "ScenarioOutcome",
    "TheoryReport",
    "Violation",
    "audit_proofs",
    "check_batch_implementation",
    "check_implementation",
    "check_margin_implementation",
    "check_run",
    "labelled_vectors",
    "run_online",
    "seeded_separable",
    "separable_data",
    "sklearn_fit",
]
