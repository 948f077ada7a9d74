"""What an audit audits: built-in proofs by id and users' proof files, and users' data.

A target is named as on the command line: a built-in id (`canonical-online`) or the path of
a proof file (a file of that name wins over an id, as for `novikoff check`). Both are read by
the same loader, so a user's proof is audited exactly as a built-in one: the same kernel
checks, the same campaign, the same reports. A worker process reloads a target from its
name (`load`), so only names travel between processes.

A data file (a proof's `[numeric] data`, or `--data`) is read by the loaders of
`perceptron.io.loaders` (every format the CLI reads) and becomes a scenario of the campaign
source `data`: run to convergence with an exact separator as `u` when the data are linearly
separable through the origin (online and batch runs), and read as one pass at the
quartiles of its own margins for single-pass runs (`verify.numeric.passes.read_pass`),
separable or not, and run in cyclic epochs for cyclic runs (`verify.cyclic`), separable or
not (with e_1 as the reference u when there is no separator). Online and batch runs need a
separator: for such a proof, data that have none are a fault of the file, named in one line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from proofs.errors import ProofFileError
from proofs.library import PROOFS, load_named
from proofs.step import Proof
from verify.numeric.campaign import Scenario
from verify.numeric.instances import Origin

#: The campaign source of users' data files.
DATA_SOURCE = "data"


@dataclass(frozen=True)
class Target:
    """A proof to audit: its id in the report, and the name it is loaded by (a built-in id
    or a file path); `file` says which (user files must be verified for the audit to pass)."""

    id: str
    name: str
    file: bool

    def load(self) -> Proof:
        """The proof, read again wherever this is called (a worker reloads it by name)."""
        return load_named(self.name)


def targets(names: Sequence[str]) -> list[Target]:
    """The targets named, in order, each once; a file's id is its stem (its path as given
    when another target already has that id). Raises nothing: loading reports faults."""
    out: list[Target] = []
    for name in dict.fromkeys(names):
        file = not (name in PROOFS and not Path(name).exists())
        ident = Path(name).stem if file else name
        if any(t.id == ident for t in out):
            ident = name
        out.append(Target(ident, name, file))
    return out


def load_data(path: str) -> Dataset:
    """A data file by any loader of the CLI; a fault is a DataError naming the file."""
    from perceptron.io.loaders import load

    try:
        data = load(path)
    except OSError as error:
        raise DataError(f"{path}: {error.strerror or error}") from None
    if data.n == 0:
        raise DataError(f"{path}: no examples")
    return Dataset(data.X, data.y, os.path.basename(path))


Read = tuple[Dataset, tuple[Fraction, ...] | None]
"""A data file as read: its examples, and an exact separator through the origin (or None)."""


def read(path: str, memo: dict[str, Read] | None = None) -> Read:
    """The data of `path` and an exact separator if it has one (`memo`: files read already
    in this audit, so a `--data` file shared by several proofs is read and decided once)."""
    from perceptron.geometry.separability import Separable, separability

    if memo is not None and path in memo:
        return memo[path]
    data = load_data(path)
    found = separability(data)
    out = (data, tuple(found.w) if isinstance(found, Separable) else None)
    if memo is not None:
        memo[path] = out
    return out


def data_scenarios(path: str, run: str | None, memo: dict[str, Read] | None = None
                   ) -> tuple[Scenario, ...]:
    """The scenarios of one data file for proofs of kind `run` (None: for every kind): a run
    to convergence with an exact separator when the data have one, one pass for single-pass
    proofs. Raises DataError (naming the file) when the file cannot be read, or when a
    proof that needs a separator (`run` online or batch) gets data without one."""
    data, separator = read(path, memo)
    return scenarios_of(data, separator, run, path)


def scenarios_of(data: Dataset, separator: tuple[Fraction, ...] | None, run: str | None,
                 path: str) -> tuple[Scenario, ...]:
    """`data_scenarios` of data already read (`path` names them in a fault): the one place a
    data file becomes scenarios, so a shrunk counterexample (`verify.audit.counterexamples`)
    is run exactly as its file will be."""
    from verify.numeric.passes import read_pass

    out: list[Scenario] = []
    if separator is not None and run != "single-pass":
        out.append(Scenario(data, separator, Origin(DATA_SOURCE, None, data.name)))
    elif separator is None and run == "cyclic":  # runs in epochs on any data: u = e_1
        reference = tuple(Fraction(int(i == 0)) for i in range(data.d))
        out.append(Scenario(data, reference, Origin(DATA_SOURCE, None, data.name)))
    elif separator is None and run in ("online", "batch"):
        raise DataError(f"{path}: not linearly separable through the origin, so {run} runs "
                        "have no separator u (add a constant column for a bias)")
    if run in (None, "single-pass"):
        try:
            out.append(read_pass(data, Origin(DATA_SOURCE, None, f"{data.name} (one pass)")))
        except ValueError:  # sum y x = 0: no direction to aim u at
            raise DataError(f"{path}: the sum of y*x is zero: no direction for a unit u"
                            ) from None
    return tuple(out)


FAULTS: tuple[type[Exception], ...] = (ProofFileError, DataError, OSError, UnicodeDecodeError)
"""What a target or a data file can be refused for: one line, the audit goes on."""
