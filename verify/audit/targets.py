"""What an audit audits: built-in proofs by id and users' proof files, and users' data.

A target is named as on the command line: a built-in id (`canonical-online`), the path of
a proof file (a file of that name wins over an id, as for `novikoff check`), or `-`, a
proof read from standard input (its id `stdin`). All are read by the same parser, so a
user's proof is audited exactly as a built-in one: the same kernel checks, the same
campaign, the same reports. A target is read once (`load`, the text of standard input
read once too); the proof checked in a worker process is that reading, sent to it.

A data file (a proof's `[numeric] data`, or `--data`) is read by the loaders of
`perceptron.io.loaders` (every format the CLI reads) and becomes a scenario of the campaign
source `data`: run to convergence with an exact separator as `u` when the data are linearly
separable through the origin (for kinds of runs to convergence, online and batch), and read
as one pass at the quartiles of its own margins for kinds of single passes
(`verify.runs.quantity.RunKind.passes`, `verify.numeric.passes.read_pass`), separable or
not. Kinds whose runs need no separator (`RunKind.any_data`: cyclic runs) run data that have
none with `e_1` as the reference u, and so do online runs for a proof that reads no
separator (`needs_separator`). Otherwise runs to convergence need a separator: for such a
proof, data that have none are a fault of the file, named in one line.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from pathlib import Path

from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError, DataErrors
from perceptron.io.common import DEFAULT_LIMITS, Limits
from perceptron.io.header import Header, header, is_unit, not_separating, separates
from proofs.errors import ProofFileError, Source
from proofs.library import PROOFS, load_named
from proofs.proof_file import MAX_BYTES, numeric_part, parse_proof, read_regular
from proofs.step import Proof, RunBinding
from verify.runs.columns import Origin
from verify.runs.quantity import RunKind, Scenario, kind

#: The campaign source of users' data files.
DATA_SOURCE = "data"


@dataclass(frozen=True)
class Target:
    """A proof to audit: its id in the report, and the name it is loaded by (a built-in id
    or a file path); `file` says which (user files must be verified for the audit to pass)."""

    id: str
    name: str
    file: bool
    text: bytes | None = None  # the proof read from standard input (`-`), kept to travel

    def load(self) -> Proof:
        """The proof, read again at each call (the audit reads it once, `job._admitted`)."""
        if self.text is not None:
            return parse_proof(self.text, STDIN)
        return load_named(self.name)

    def numeric_part(self) -> tuple[RunBinding, tuple[str, ...], Source] | None:
        """The run kind and names of a proof file that could not be read whole
        (`proofs.proof_file.numeric_part`), None if they cannot be read either."""
        if self.text is not None:
            return numeric_part(self.text, STDIN)
        if not self.file:
            return None
        try:
            return numeric_part(read_regular(self.name), self.name)
        except (OSError, ProofFileError):  # gone, or no regular file: nothing more to say
            return None

    def algorithm(self) -> str | None:
        """The algorithm the proof's `[numeric] algorithm` names (None: it names none), read
        from its TOML alone, so before the proof is checked and before any plug-in runs
        (`verify.audit.job.unnamed_plugins`). Raises ValueError (a file that is no TOML) or
        OSError when the file cannot be read: then nobody can say what it names."""
        if self.text is not None:
            data = self.text
        else:
            data = read_regular(self.name if self.file else str(PROOFS[self.name]))
        try:
            document = tomllib.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise ValueError(str(error)) from None
        numeric = document.get("numeric")
        named = numeric.get("algorithm") if isinstance(numeric, dict) else None
        return named if isinstance(named, str) else None


#: The name standard input has in a proof's errors, and its id in the audit's summary.
STDIN, STDIN_ID = "<stdin>", "stdin"


@cache
def standard_input() -> bytes:
    """The bytes of standard input, read once per process (a proof given as `-`), bounded
    like a file (the parser refuses more than `MAX_BYTES`)."""
    return sys.stdin.buffer.read(MAX_BYTES + 1)


def targets(names: Sequence[str]) -> list[Target]:
    """The targets named, in order, each once, each id distinct (reports, `--only` and the
    campaign key proofs by it). A built-in proof's id is its own; standard input's (`-`) is
    `stdin`; a file's is its stem, unless a built-in proof has that id
    (`canonical-online.toml` beside `canonical-online` is two proofs, whichever comes first)
    or another target already took it: then its path as given. Raises nothing: loading
    reports faults."""
    out: list[Target] = []
    for name in dict.fromkeys(names):
        file = not (name in PROOFS and not Path(name).exists())
        ident = STDIN_ID if name == "-" else Path(name).stem if file else name
        if (file and ident in PROOFS) or any(t.id == ident for t in out):
            ident = name
        out.append(Target(ident, name, file, standard_input() if name == "-" else None))
    return out


def load_data(path: str, limits: Limits = DEFAULT_LIMITS) -> Dataset:
    """A data file by any loader of the CLI, within `limits` (`--max-cells`,
    `--max-scaled-bits`); a fault is a DataError naming the file."""
    from perceptron.io.loaders import load

    try:
        data = load(path, limits=limits)
    except OSError as error:
        raise DataError(f"{error.strerror or error}", source=path) from None
    if data.n == 0:
        raise DataError("no examples", source=path)
    return Dataset(data.X, data.y, os.path.basename(path))


@dataclass(frozen=True)
class Read:
    """A data file as read: its examples, what its header names, and an exact separator
    through the origin when the header names no u and the data have one."""

    data: Dataset
    header: Header
    separator: Vector | None


def read(path: str, memo: dict[str, Read] | None = None,
         limits: Limits = DEFAULT_LIMITS) -> Read:
    """The data of `path` (within `limits`), its header and, when the header names no u, an
    exact separator if the data have one (`memo`: files read already in this audit, so a
    `--data` file shared by several proofs is read and decided once)."""
    from perceptron.geometry.separability import Separable, separability

    if memo is not None and path in memo:
        return memo[path]
    data = load_data(path, limits)
    named = header(path, data)
    found = separability(data) if named.u is None else None
    out = Read(data, named, tuple(found.w) if isinstance(found, Separable) else None)
    if memo is not None:
        memo[path] = out
    return out


def data_scenarios(path: str, run: str | None, memo: dict[str, Read] | None = None,
                   limits: Limits = DEFAULT_LIMITS, read_u: bool = True
                   ) -> tuple[Scenario, ...]:
    """The scenarios of one data file for proofs of kind `run` (None: for every kind): a run
    to convergence with an exact separator when the data have one, one pass for single-pass
    proofs. Raises DataError (naming the file) when the file cannot be read, or when a
    proof that needs a separator (`run` batch, or online and `read_u`: the proof reads
    one, `needs_separator`) gets data without one."""
    got = read(path, memo, limits)
    return scenarios_of(got.data, got.header, got.separator, run, path, read_u)


def needs_separator(run: str | None, read: Collection[str]) -> bool:
    """Whether a proof of kind `run` whose names denote the run quantities `read`
    (`verify.runs.naming.Naming.quantities_read`) needs data with a separator: its kind's
    runs need one (`RunKind.separator_read` None), or it reads a quantity that does.
    online-history (its iterate unrolled into its updates, no u) was refused a file that
    is not separable: "online runs have no separator u", true, and no reason not to run."""
    if run is None:
        return True
    reading = kind(run).separator_read
    return reading is None or bool(reading & set(read))


def scenarios_of(data: Dataset, named: Header, separator: Vector | None, run: str | None,
                 path: str, read_u: bool = True) -> tuple[Scenario, ...]:
    """`data_scenarios` of data already read (`path` names them in a fault), `named` what
    their file names and `separator` one found (used when `named` names no u): the one
    place a data file becomes scenarios, so a shrunk counterexample
    (`verify.audit.counterexamples`) is run exactly as its file will be. Without one, a
    kind whose runs need none (`RunKind.any_data`), or a proof that reads none (`read_u`
    false), runs the data with `e_1` as reference u."""
    from verify.numeric.passes import read_pass

    chosen = None if run is None else kind(run)
    passes = None if chosen is None else chosen.passes  # None: for every kind
    faults = _unread(named, chosen, path) if chosen is not None else []
    if passes is False and (fault := not_separating(path, named, data)) is not None:
        faults.append(fault)
    if faults:  # every one at once, each at its header line
        raise DataErrors(sorted(faults, key=lambda f: f.line or 0))
    origin = Origin(DATA_SOURCE, None, data.name)
    out: list[Scenario] = []
    if passes is not True and (named.u is None or separates(named.u, data)):
        # (a u that does not separate: refused above for runs to convergence, no such runs
        # for every kind)
        if (u := named.u if named.u is not None else separator) is not None:
            out.append(Scenario(data, u, origin, start=named.theta0))
        elif chosen is not None and (chosen.any_data or not read_u):
            reference = tuple(Fraction(int(i == 0)) for i in range(data.d))
            out.append(Scenario(data, reference, origin))
        elif passes is False:
            raise DataError(f"{path}: not linearly separable through the origin, so {run} "
                            f"runs have no separator u{_with_bias(data)}")
    if passes is not False:
        once = replace(origin, dataset=f"{data.name} (one pass)")
        if named.u is not None and not is_unit(named.u):
            if passes:
                raise DataError(f"{path}: the u it names is not of norm 1, as a single pass "
                                "needs")
        else:
            try:
                out.append(read_pass(data, once, named.u, named.margins))
            except ValueError:  # sum y x = 0: no direction to aim u at
                raise DataError(f"{path}: the sum of y*x is zero: no direction for a unit u"
                                ) from None
    return tuple(out)


def _with_bias(data: Dataset) -> str:
    """What a constant column would change for data not separable through the origin,
    decided exactly (`separability` of the augmented data): the advice to add one only when
    it makes them separable (newcomer 24 was told to add one to XOR, which no bias
    separates)."""
    from perceptron.geometry.separability import Separable, separability

    if isinstance(separability(data.augmented()), Separable):
        return " (with a constant column for a bias they are separable: add one)"
    return ", not even with a constant column for a bias"


def _unread(named: Header, chosen: RunKind, path: str) -> list[DataError]:
    """The faults of a file that names what runs of `chosen` kind do not read, each at its
    header line (every one: newcomer 19 saw a file naming both gamma and theta0 said for the
    first only): a value silently ignored would make its run another one than the file
    says."""
    faults = []
    if named.theta0 is not None and chosen.start_of is None:
        faults.append(DataError(f"names a start theta0, which {chosen.name} runs do not take "
                                "(batch runs do)", source=path,
                                line=named.lines.get("theta0")))
    if named.margins and not chosen.passes:
        faults.append(DataError(f"names margins gamma, which {chosen.name} runs do not read "
                                "(single passes do)", source=path,
                                line=named.lines.get("gamma")))
    return faults


FAULTS: tuple[type[Exception], ...] = (ProofFileError, DataError, OSError, UnicodeDecodeError)
"""What a target or a data file can be refused for: one line, the audit goes on."""
