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
none with `e_1` as the reference u. Runs to convergence need a separator: for such a proof,
data that have none are a fault of the file, named in one line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.common import DEFAULT_LIMITS, Limits
from proofs.errors import ProofFileError, Source
from proofs.library import PROOFS, load_named
from proofs.proof_file import MAX_BYTES, numeric_part, parse_proof, read_regular
from proofs.step import Proof, RunBinding
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario, kind

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


Read = tuple[Dataset, tuple[Fraction, ...] | None]
"""A data file as read: its examples, and an exact separator through the origin (or None)."""

#: A text data file may name its separator u in a comment line `# u = 3, -1, 1/2` (a shrunk
#: counterexample keeps the campaign's u so: `verify.audit.counterexamples`).
U_LINE = "# u ="


def separates(u: Sequence[Fraction], data: Dataset) -> bool:
    """Whether `y<u, x> > 0` for every example: `u` is a separator of `data`, exactly."""
    return len(u) == data.d and all(
        y * sum((a * b for a, b in zip(u, x, strict=True)), Fraction(0)) > 0
        for x, y in zip(data.X, data.y, strict=True))


def named_separator(path: str, data: Dataset) -> tuple[Fraction, ...] | None:
    """The separator a text data file names (`U_LINE`, before its first example), or None;
    DataError when it is not d exact rationals or does not separate the examples."""
    from perceptron.numbers import parse_exact

    if path == "-":
        return None  # standard input was read already
    try:
        with open(path, "rb") as handle:
            head = handle.read(1 << 16).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None  # a binary format names none (and was read already)
    lines = [line.strip() for line in head if line.lstrip().startswith("#")]
    named = [line for line in lines if line.replace(" ", "").startswith(U_LINE.replace(" ", ""))]
    if not named:
        return None
    texts = named[0].split("=", 1)[1].split(",")
    try:
        u = tuple(parse_exact(t.strip()) for t in texts)
    except DataError as error:
        raise DataError(f"{path}: its line `{named[0][:60]}`: {error}") from None
    if len(u) != data.d:
        raise DataError(f"{path}: its u has {len(u)} coordinates, its examples {data.d}")
    if not separates(u, data):
        raise DataError(f"{path}: the u it names does not separate its examples "
                        "(y<u, x> > 0 for every example)")
    return u


def read(path: str, memo: dict[str, Read] | None = None,
         limits: Limits = DEFAULT_LIMITS) -> Read:
    """The data of `path` (within `limits`) and its separator: the one it names
    (`named_separator`), else an exact separator if it has one (`memo`: files read already
    in this audit, so a `--data` file shared by several proofs is read and decided once)."""
    from perceptron.geometry.separability import Separable, separability

    if memo is not None and path in memo:
        return memo[path]
    data = load_data(path, limits)
    named = named_separator(path, data)
    found = separability(data) if named is None else None
    out = (data, named if named is not None else
           tuple(found.w) if isinstance(found, Separable) else None)
    if memo is not None:
        memo[path] = out
    return out


def data_scenarios(path: str, run: str | None, memo: dict[str, Read] | None = None,
                   limits: Limits = DEFAULT_LIMITS) -> tuple[Scenario, ...]:
    """The scenarios of one data file for proofs of kind `run` (None: for every kind): a run
    to convergence with an exact separator when the data have one, one pass for single-pass
    proofs. Raises DataError (naming the file) when the file cannot be read, or when a
    proof that needs a separator (`run` online or batch) gets data without one."""
    data, separator = read(path, memo, limits)
    return scenarios_of(data, separator, run, path)


def scenarios_of(data: Dataset, separator: tuple[Fraction, ...] | None, run: str | None,
                 path: str) -> tuple[Scenario, ...]:
    """`data_scenarios` of data already read (`path` names them in a fault): the one place a
    data file becomes scenarios, so a shrunk counterexample (`verify.audit.counterexamples`)
    is run exactly as its file will be."""
    from verify.numeric.passes import read_pass

    chosen = None if run is None else kind(run)
    passes = None if chosen is None else chosen.passes  # None: for every kind
    out: list[Scenario] = []
    if separator is not None and passes is not True:
        out.append(Scenario(data, separator, Origin(DATA_SOURCE, None, data.name)))
    elif separator is None and chosen is not None and chosen.any_data and not passes:
        reference = tuple(Fraction(int(i == 0)) for i in range(data.d))
        out.append(Scenario(data, reference, Origin(DATA_SOURCE, None, data.name)))
    elif separator is None and passes is False:
        raise DataError(f"{path}: not linearly separable through the origin, so {run} runs "
                        "have no separator u (add a constant column for a bias)")
    if passes is not False:
        try:
            out.append(read_pass(data, Origin(DATA_SOURCE, None, f"{data.name} (one pass)")))
        except ValueError:  # sum y x = 0: no direction to aim u at
            raise DataError(f"{path}: the sum of y*x is zero: no direction for a unit u"
                            ) from None
    return tuple(out)


FAULTS: tuple[type[Exception], ...] = (ProofFileError, DataError, OSError, UnicodeDecodeError)
"""What a target or a data file can be refused for: one line, the audit goes on."""
