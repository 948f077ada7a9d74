"""Proof files (docs/design.md §5): TOML read with `tomllib`, every expression parsed without eval.

The file is read with a hard size cap, decoded strictly as UTF-8, and every key and type is
checked before any expression is parsed; unknown keys are errors, so a misspelt `uses` never
silently weakens a step. Every independent error is reported in one run (`Problems`), each
naming the file, its line and column, the step and the problem (`proofs.errors`); an
instance of a step that uses other steps is read as a copy proved again (`proofs.instances`).
Extensions beyond §5 (all optional):

    split = { on = "dot(w, u)", zero = true }      # cases on the sign of a polynomial
    uses = ["a", { step = "cs", with = { p = "w", r = "u" } }]  # a used step, instantiated
    witness = { B = "t*R2" }                       # the claim: exists B with ... (this one)
    [step.induction]                               # the claim is the invariant P(t, w)
    variable = "t"
    base = { w = "w0", s = "0" }                   # P(0, w0, 0): vectors and scalars
    step = { w = "w + y*x", s = "s + d" }          # P(t, w, s) |- P(t + 1, w + y*x, s + d)
    given = ["y*dot(w, x) <= 0"]                   # facts about one update
    constants = ["u"]                              # one value for the whole run (x, y: fresh)

    source = "where the proof comes from"          # top level
    theorem = "bound"                              # the main result (default: the last
                                                   #   step no other step uses)
    [notation]                                     # how names read in reports: another
    ts = "theta_star"                              #   identifier, prettified (θ*)
    naturals = ["t"]                               # scalars ranging over 0, 1, 2, ...
    uses = ["canonical-online/norm-growth", "lib/x"]  # a step of another proof (proofs.imports)
    [imports]                                      # aliases: built-in ids or proof files
    lib = "lemmas.toml"
    [numeric]                                      # the names denote run quantities
    run = "online"                                 # or "batch", "single-pass" (verify.runs):
    names = { th = "w", m = "y*dot(w, x)" }        # optional: names as run expressions
    algorithm = "virtue-online"                    # optional: the source algorithm run
    data = ["my.csv"]                              # optional: data files, relative to the file
"""

from __future__ import annotations

import difflib
import errno
import os
import re
import stat
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from proofs.definitions import (
    Definition,
    adopted,
    mentioned,
    parse_definitions,
    redefining_runs,
    redefining_uses,
    with_definitions,
)
from proofs.earlier import Note, earlier_language
from proofs.errors import CONTROL, ProofFileError, Source, quoted, raise_all
from proofs.imports import (
    MAX_DEPTH,
    Declared,
    Imported,
    imported,
    imports_table,
    outside,
    references,
    resolved,
    with_copies,
)
from proofs.instances import with_instances
from proofs.language.expressions import (
    MAX_CHARS,
    ExpressionError,
    IndexSet,
    Names,
    Relation,
    parse_bound,
    parse_relation,
    parse_scalar,
    parse_term,
)
from proofs.language.expressions import parse_vector as parse_vector_expression
from proofs.step import (
    MAX_HINTS,
    MAX_HYPOTHESES,
    MAX_NAMES,
    MAX_STEPS,
    STEP_ID,
    CaseSplit,
    Direct,
    Hint,
    Induction,
    Proof,
    Rule,
    RunBinding,
    Step,
    Term,
    Use,
    declare,
    step_id_problem,
)
from proofs.step import problems as problems_of

MAX_BYTES = 1024 * 1024  # a chain of 300 steps each using every earlier one is 0.5 MB of `uses`
MAX_TEXT = 10_000  # title, source, note
TOP_KEYS = ("title", "source", "vectors", "scalars", "naturals", "numeric", "define", "step",
            "imports", "theorem", "notation", "indexed", "sets")
SET_KEYS = ("index", "range", "where")
NUMERIC_KEYS = ("run", "names", "algorithm", "data")
MAX_DATA = 20
#: The built-in run kinds; the audit reads a proof's `run` in the registry of run kinds
#: (`verify.runs`), which a user may extend, so any identifier is read here.
RUNS = ("online", "batch", "single-pass", "cyclic")
STEP_KEYS = ("id", "given", "claim", "uses", "hints", "source", "note", "split", "induction",
             "witness")
USE_KEYS = ("step", "with", "sum")
OVER = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(\S.*?)\s*$")
SPLIT_KEYS = ("on", "zero")
INDUCTION_KEYS = ("variable", "base", "step", "given", "constants")
T = TypeVar("T")


def load_proof(path: str | os.PathLike[str]) -> Proof:
    """The proof in the file at `path`; raises ProofFileError (or OSError) on bad input."""
    return parse_proof(read_regular(os.fspath(path)), os.fspath(path))


def imported_files(path: str | os.PathLike[str]) -> list[str]:
    """The files the proof file at `path` may read through its `[imports]`, transitively
    (every alias's file, each resolved as the parser resolves it, `proofs.imports.resolved`,
    at most `MAX_DEPTH` deep), read as TOML only (no expression is parsed: cheap, for the
    audit to refuse a report file that would overwrite one before any work). What is refused
    (outside its importer's folder) is left out, the parser says why; a file named but
    missing or unreadable is listed, not followed (a report written there would become what
    the proof imports)."""
    found: dict[str, str] = {}  # real path -> as named (each file read once: a link to
    pending = [(os.fspath(path), 0)]  # its own folder must not make a path per round)
    while pending:
        file, depth = pending.pop()
        try:
            table = _document(read_regular(file)).get("imports")
            aliases = imports_table(table)
        except (ProofFileError, OSError):
            continue
        for target in aliases.values():
            try:
                named = resolved(target, os.path.dirname(file))
            except ProofFileError:
                continue
            if named is not None and depth < MAX_DEPTH and (
                    real := os.path.realpath(named)) not in found:
                found[real] = named
                pending.append((named, depth + 1))
    return list(found.values())


#: What a proof file's name may not hold: what a terminal obeys (`CONTROL`), and a line feed,
#: which starts a line of the output's own in the middle of one (`read_regular`).
NAMING = re.compile(f"{CONTROL.pattern}|\n")

#: What a path that is not a regular file is, by its `stat` test (`file_kind`).
_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
                (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file of `stat` mode `mode` is, in words ("a named pipe"), for a message that
    refuses what is not a regular file (a proof here, a plug-in's `.py` file)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((what for test, what in _NOT_REGULAR if test(mode)), "not a file")


def read_regular(path: str) -> bytes:
    """At most `MAX_BYTES + 1` bytes of the regular file at `path`. A device (`/dev/zero`:
    endless), a named pipe (which blocks whoever opens it until it is written), a socket or
    a directory is refused in one line without reading it: opened without blocking and
    looked at first (`fstat` of what was opened), as the data loaders do
    (`perceptron.io.common`, which this package may not import). Standard input is `-`,
    read by the command line. A missing file is the OSError of `open`."""
    if found := NAMING.search(path):  # every output names the file, and the audit's id is
        # its stem: `x\x1b[2K\rall verified\x1b[8m.toml` painted over the audit's lines on a
        # terminal, and a line feed would forge a line of its own (red team 29 F4)
        raise OSError(errno.EINVAL, f"the file name holds the control character "
                      f"{found.group()[0]!r}, which a terminal would obey instead of showing it:"
                      " rename the file", path)  # named as a missing file is (`printable`)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        fd = None
    mode = os.fstat(fd).st_mode if fd is not None else stat.S_IFDIR
    if not stat.S_ISREG(mode):
        if fd is not None:
            os.close(fd)
        raise ProofFileError(f"is {file_kind(mode)}, not a regular file: a proof is read "
                             "from a file (on "
                             "the command line, from standard input as -)", file=path)
    with open(fd, "rb", closefd=True) as handle:
        return handle.read(MAX_BYTES + 1)


def parse_proof(data: bytes, file: str) -> Proof:
    """The proof in `data`, the contents of `file` (named in every error and note); every
    independent error of the file is raised at once (`ProofFileErrors`), each placed at its
    line and column."""
    source = None
    try:
        document = _document(data)
        source = Source(file, data.decode("utf-8-sig"))
        proof, notes, copies = _proof(document, file)
    except ProofFileError as exc:
        placed = exc.located(file, source)
        if exc.partial is not None and source is not None:  # its steps placed in this file
            partial, copies = exc.partial
            placed.partial = replace(partial, origin=replace(source, copies=copies))
        raise placed from None
    assert source is not None  # read before the proof
    proof = replace(proof, origin=replace(source, copies=copies))
    if not notes:
        return proof
    return replace(proof, notes=tuple(n.located(source) for n in notes))


def _document(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_BYTES:
        raise ProofFileError(f"file is larger than {MAX_BYTES // 1024} KiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ProofFileError(f"not UTF-8 text (invalid byte at offset {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        said = _duplicate_key(text, int(at[1])) if at and str(exc).startswith(
            "Cannot overwrite a value") else None
        raise ProofFileError(said or f"invalid TOML: {exc}", line=int(at[1]) if at else None,
                             column=int(at[2]) if at else None) from None
    except RecursionError:
        raise ProofFileError("invalid TOML: nested too deeply") from None


def _duplicate_key(text: str, line: int) -> str | None:
    """What TOML's "Cannot overwrite a value" at `line` means when that line writes a key
    its table already holds (newcomer 21 L5: a second `split = ...` in a step was said only
    as the parser's words): the key, and the step (by id) or table it is in. None when the
    line is no `key = value` (then the parser's own words are said)."""
    lines = text.splitlines()
    written = re.match(r"\s*([A-Za-z0-9_-]+)\s*=", lines[line - 1]) if line <= len(lines) else None
    if written is None:
        return None
    key = written[1]
    start = next((i for i in range(line - 1, -1, -1) if lines[i].lstrip().startswith("[")), None)
    table = lines[start].strip() if start is not None else ""
    if table == "[[step]]" and start is not None:
        block = lines[start + 1:]
        end = next((i for i, t in enumerate(block) if t.lstrip().startswith("[")), len(block))
        ids = [m[1] for t in block[:end] if (m := re.match(r'\s*id\s*=\s*"([^"]*)"', t))]
        where = f"step '{ids[0]}'" if ids else "a step"
        return f"duplicate key '{key}' in {where}: a step has one {key}"
    where = f"table {table}" if table else "the file's top level"
    return f"duplicate key '{key}' in {where}: a key is written once in its table"


class Problems:
    """The errors found so far in one file: each part of the file is read on its own, so one
    run reports every independent error (`attempt`); a part that needs another (a step's
    use of a broken step, anything after a broken declaration) is not read, so no error is
    reported twice. Reading stops once the file's expression budget is spent: past it every
    expression fails the same way."""

    def __init__(self, names: Names | None = None) -> None:
        self.found: list[ProofFileError] = []
        self.names = names

    def attempt(self, read: Callable[[], T], step: str | None = None) -> T | None:
        """`read()`, or None with its error recorded (in `step`)."""
        try:
            return read()
        except ProofFileError as error:
            self.found.extend(e.at(step=step) for e in error.errors)
            if self.names is not None and self.names.budget.used > self.names.budget.limit:
                self.check()  # past the budget every expression fails the same way: stop
            return None

    def add(self, error: ProofFileError) -> None:
        """Record `error` (one found without raising)."""
        self.found.append(error)

    def check(self) -> None:
        """Raise what was found, if anything: the parts read so far cannot be trusted
        further (a later part would only repeat their errors)."""
        raise_all(self.found)


def _proof(document: dict[str, Any], file: str
           ) -> tuple[Proof, tuple[Note, ...], dict[str, tuple[str, str]]]:
    """The proof of a parsed document read from `file` (its relative paths start at the
    file's folder; `<stdin>`: at the working directory), its notes, and where each copy its
    instances made is used (`Source.copies`)."""
    folder = os.path.dirname(file) if file != "<stdin>" else ""
    problems = Problems()
    _each_key(problems, document, TOP_KEYS, "top level")
    title = problems.attempt(lambda: _text(document, "title", required=True))
    declared = problems.attempt(lambda: Declared(_strings(document, "vectors", limit=None),
                                                 _strings(document, "scalars", limit=None),
                                                 _strings(document, "naturals", limit=None)))
    indexed = problems.attempt(lambda: tuple(_strings(document, "indexed", limit=MAX_NAMES)))
    if declared is not None and indexed is not None:
        declared.indexed = indexed  # an imported name of that name is refused (`adopt`)
    sets = problems.attempt(lambda: _sets(document)) if "sets" in document else {}
    tables = document.get("step")

    def names_and_steps() -> tuple[Names, Imported, tuple[Definition, ...]]:
        """What every step needs: the names (own, then imported), the step tables, the
        definitions; an error here is reported alone (the steps would only repeat it),
        except a broken import: only the steps that use it are not read."""
        assert declared is not None
        declare(declared.vectors, declared.scalars, indexed or (), sets)  # the file's own
        found = imported(document.get("imports"), references(tables), declared, folder,
                         load_proof, None if file == "<stdin>" else file)
        names = declare(declared.vectors, declared.scalars, indexed or (), sets)
        if tables is None:
            raise ProofFileError("no [[step]] tables")
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise ProofFileError("'step' must be an array of tables ([[step]])")
        if len(tables) > MAX_STEPS:
            raise ProofFileError(f"{len(tables)} steps, more than {MAX_STEPS}")
        return names, found, parse_definitions(_table(document, "define"), names) \
            if "define" in document else ()

    if declared is None or indexed is None or sets is None or (
            needed := problems.attempt(names_and_steps)) is None:
        problems.check()
    names, found, definitions = needed
    for definition in definitions:  # the file's own against its imports' (`adopt_definition`)
        try:
            declared.adopt_definition(definition.name, definition.text, "this file")
        except ProofFileError as error:
            problems.add(ProofFileError(error.problem, key=f"define.{definition.name}",
                                        text=definition.text))
    definitions = (*definitions, *(problems.attempt(  # an import's, shared (`adopted`)
        lambda: adopted(declared.defined, definitions, names)) or ()))
    copies = found.copies
    for error in found.errors:
        problems.add(error)
    problems.names = names
    read = [_step(table, index, names, problems) if not set(references([table])) &
            found.broken else None for index, table in enumerate(tables)]
    steps = [step for s in read if s is not None and (step := problems.attempt(
        lambda s=s: with_definitions(s, definitions), s.id)) is not None]
    numeric = problems.attempt(lambda: _numeric(document, folder)) if "numeric" in document \
        else None
    source = problems.attempt(lambda: _text(document, "source"))
    theorem = problems.attempt(lambda: _text(document, "theorem"))
    notation = problems.attempt(lambda: _table(document, "notation")) if "notation" in \
        document else {}
    naturals, notes = tuple(declared.naturals), ()
    if len(steps) == len(tables):  # the earlier language is read from every step's table
        read_as_then = problems.attempt(lambda: earlier_language(document, tuple(steps),
                                                                 naturals))
        if read_as_then is not None:
            steps, naturals, notes, refused = read_as_then  # type: ignore[assignment]
            for error in refused:
                problems.add(error)
    notes = (*notes, *_moving_constants(steps), *(
        Note("", f"[imports] {alias}: no step uses it, so it is not read; remove it",
             key=f"imports.{alias}")
        for alias in found.unused), *_plain_in_copies(copies, declared))
    combined = problems.attempt(lambda: with_copies(steps, copies))
    defined = {n: t for n, (t, _) in declared.defined.items()}
    for error in [*redefining_uses(combined or steps, defined),
                  *redefining_runs(steps, defined), *_bound_definitions(numeric, defined),
                  *_bound_sums(numeric), *_natural_definitions(declared.naturals, defined, steps)]:
        problems.add(error)
    broken = frozenset(_label(t, i) for i, t in enumerate(tables)) - {s.id for s in steps}
    if combined is None:  # the copies clashed (said): their uses are no further error
        broken |= {u.step for s in steps for u in s.uses if "/" in u.step}
    for error in problems_of(declared.vectors, declared.scalars, combined or steps,
                             naturals=naturals, numeric=numeric, theorem=theorem or "",
                             notation=notation, broken=broken, indexed=indexed, sets=sets):
        problems.add(error)

    def made(steps: tuple[Step, ...]) -> Proof:
        """The proof of `steps`; a partial one (`_partial`) may lack the theorem's step, which
        then has errors of its own: it names no theorem, or its construction would raise
        "theorem names 'bound', which is not a step" in place of those errors (user finding:
        a step `bound` whose update divided by t + 1 was reported as no step at all)."""
        named = theorem or ""
        if named and all(step.id != named for step in steps):
            named = ""
        return Proof(title or "", tuple(declared.vectors), tuple(declared.scalars), steps,
                     source or "", numeric, naturals, theorem=named,
                     notation=notation or {}, indexed=indexed, sets=sets,
                     definitions={n: t for n, (t, _) in declared.defined.items()})

    def checked() -> None:
        """`problems.check()`, the error carrying the proof of the steps read without one
        (`ProofFileError.partial`): the kernel's rules, which read steps only once the file
        is read, then refuse those too in the same run (red team 19: a `with` error in one
        step hid an independent one in the next until it was fixed)."""
        try:
            problems.check()
        except ProofFileError as error:
            error.partial = _partial(made, combined, problems.found, broken, names, naturals)
            raise

    checked()
    assert combined is not None
    instanced = problems.attempt(lambda: with_instances(combined, names, naturals))
    checked()
    assert title is not None and instanced is not None
    with_copies_made, copies = instanced
    return made(with_copies_made), notes, copies


def _partial(made: Callable[[tuple[Step, ...]], Proof], steps: Sequence[Step] | None,
             found: Sequence[ProofFileError], broken: frozenset[str], names: Names,
             naturals: Sequence[str]) -> tuple[Proof, dict[str, tuple[str, str]]] | None:
    """The proof of `steps` without those with an error (`found`, `broken`) and those using
    one (transitively), with its copies (`with_instances`); None when none is left, the
    copies clash, or one of its errors names no step (the rest may depend on it)."""
    if steps is None or any(e.step is None for e in found):
        return None
    out = {e.step for e in found} | broken
    kept = []
    for step in steps:
        if step.id in out or any(u.step in out for u in step.uses):
            out.add(step.id)
        else:
            kept.append(step)
    try:
        instanced, copies = with_instances(kept, names, naturals)
    except ProofFileError:
        return None
    return (made(instanced), copies) if instanced else None


def _plain_in_copies(copies: Mapping[str, Step], declared: Declared) -> list[Note]:
    """A note for each name this file alone defines that imported copies read as a plain
    scalar (kernadv31 O2): they are checked as in their own files, for every value of it,
    so one may be refuted at a value the definition excludes (`q >= 0` about a plain q, with
    q = max(a, 0) here). The mirror of an import's definition, which this file adopts."""
    mine = {n for n, (_, source) in declared.defined.items() if source == "this file"}
    readers: dict[str, list[str]] = {}
    for copy_id, step in copies.items():
        rule = step.rule.hypotheses if isinstance(step.rule, Induction) else ()
        for name in sorted(mine & mentioned((*step.hypotheses, step.claim, *rule))):
            readers.setdefault(name, []).append(copy_id)
    return [Note("", f"[define] {name}: defined here as {declared.defined[name][0]}, but "
                     f"{', '.join(ids)} read{'s' * (len(ids) == 1)} it as a plain scalar, as in "
                     "its own file: checked for every value of it", key=f"define.{name}")
            for name, ids in sorted(readers.items())]


def _natural_definitions(naturals: Sequence[str], defined: Mapping[str, str],
                         steps: Sequence[Step]) -> list[ProofFileError]:
    """A `[define]`d name declared natural (red team 12: `r = "sqrt(T)"` with naturals =
    ["r"] was accepted, and `sum(j in 1..r, 1) == r` proved "for T", false under the
    definition alone at T = 2). A defined name has its definition's value, which the file
    cannot also declare a natural number. Refused, one line each; a defined induction counter
    is said by `redefining_runs` alone."""
    counters = {s.rule.variable for s in steps if isinstance(s.rule, Induction)}
    return [ProofFileError(
        f"naturals: {name} is defined as {defined[name]} ([define]) and has that value, "
        f"which need not be a natural number; remove {name} from naturals or from [define]",
        key="naturals") for name in naturals if name in defined and name not in counters]


SUM_CALL = re.compile(r"\bsum\s*\(")


def _bound_sums(numeric: RunBinding | None) -> list[ProofFileError]:
    """A `[numeric] names` entry that is or contains a finite sum (red team 12 G:
    `q = "sum(j in 1..t, 1)"` raised a 62-line KernelError traceback, exit 1): a binding is a
    run expression, and run expressions have no sums (the audit evaluates the sums a step's
    statements write, over the run's families, not sums inside a binding). Refused, one line
    each."""
    if numeric is None:
        return []
    return [ProofFileError(
        f"numeric.names.{name} = {quoted(text)}: a name cannot be bound to a sum (a binding "
        "is a run expression, which has none; the audit evaluates the sums a step writes, over "
        "the run's families); write the sum in the steps, or bind the name to a run "
        "expression without sum(...)",
        key=f"numeric.names.{name}", text=text)
        for name, text in numeric.names.items() if SUM_CALL.search(text)]


def _bound_definitions(numeric: RunBinding | None, defined: Mapping[str, str]
                       ) -> list[ProofFileError]:
    """A `[define]`d name bound in `[numeric] names` (red team 9: `nv = "t*R2"` for
    `nv = "norm(v)"`, as the audit's advice for the unbound name then said). The name has its
    definition's value, and every step that mentions it has the defining facts among its
    hypotheses: bound to another quantity, the runs would check the step only on the rows
    where that quantity happens to satisfy them (mostly vacuous), under the defined name's
    name. Refused, one line each."""
    if numeric is None:
        return []
    return [ProofFileError(
        f"numeric.names.{name} = {quoted(text)}: {name} is defined as {defined[name]} "
        "([define]) and keeps that meaning: bound to another quantity, the runs would check "
        "its steps only where that quantity meets the defining facts; remove it from "
        "[numeric] names",
        key=f"numeric.names.{name}", text=text)
        for name, text in numeric.names.items() if name in defined]


def _moving_constants(steps: Sequence[Step]) -> tuple[Note, ...]:
    """A note for each induction whose `constants` lists a name it iterates or counts: the
    listing has no effect (the name changes at each update), which the author may not expect."""
    return tuple(
        Note(s.id, f"step {s.id}: its induction iterates or counts {', '.join(moving)}, so "
             "listing it in `constants` has no effect (it changes at each update); remove it "
             "from `constants`")
        for s in steps if isinstance(s.rule, Induction) and (moving := s.rule.moving_constants()))


def _sets(document: Mapping[str, Any]) -> dict[str, IndexSet]:
    """`[sets]`: `M = { index = "j", range = "1..N", where = ["y[j]*dot(w, x[j]) <= 0"] }`,
    the integers j from 1 to N where every relation holds (read by `declare`)."""
    out = {}
    for name, table in _table(document, "sets").items():
        if not isinstance(table, dict):
            raise ProofFileError(f"sets.{name} must be a table {{ index, range, where }}",
                                 key=name)
        _known_keys(table, SET_KEYS, f"sets.{name}")
        lo, dots, hi = _text(table, "range", required=True).partition("..")
        if not dots or not lo.strip() or not hi.strip():
            raise ProofFileError(f"sets.{name}.range must be lo..hi", key=name)
        out[name] = IndexSet(_text(table, "index", required=True), lo.strip(), hi.strip(),
                             tuple(_strings(table, "where", limit=MAX_HYPOTHESES)))
    return out


def numeric_part(data: bytes, file: str) -> tuple[RunBinding, tuple[str, ...], Source] | None:
    """The `[numeric]` run kind and names of a proof file that could not be read whole, its
    declared vectors and its text, when those parts read on their own (None otherwise;
    `data` is left out, and any name the file does not declare: the parser refused it):
    what its names denote on runs is checked by the audit (`verify.runs.naming`), which so
    reports those errors with the file's others."""
    try:
        document = _document(data)
        binding = _numeric(document, "", partial=True)
        vectors = tuple(_strings(document, "vectors", limit=None))
        declared = {*vectors, *_strings(document, "scalars", limit=None)}
        names = {k: v for k, v in binding.names.items() if k in declared}  # else refused
        return replace(binding, names=names), vectors, Source(file, data.decode("utf-8-sig"))
    except ProofFileError:
        return None


def _numeric(document: Mapping[str, Any], folder: str, partial: bool = False) -> RunBinding:
    """The `[numeric]` table; every independent error of its entries raised at once, each
    keyed `numeric.ENTRY` (placed in the table, not wherever its text recurs). `partial`:
    the run kind and names only, read despite errors elsewhere in the table."""
    table = _table(document, "numeric")
    problems = Problems()
    _each_key(problems, table, NUMERIC_KEYS, "numeric", within="numeric.")

    def run_kind() -> str:
        run = _text(table, "run", required=True, within="numeric.")
        if not STEP_ID.fullmatch(run):
            raise ProofFileError(f"numeric.run must name a run kind ({', '.join(RUNS)}, or "
                                 "one registered with verify.runs)", key="numeric.run",
                                 text=run)
        return run

    def names() -> dict[str, str]:
        found = table.get("names", {})
        if not isinstance(found, dict):
            raise ProofFileError("numeric.names must map names to expressions (strings)",
                                 key="numeric.names")
        for name, value in found.items():  # red team 32: said of a string too long or empty
            if not isinstance(value, str):
                raise ProofFileError(f"numeric.names.{name} must be an expression (a string), "
                                     f"not {type(value).__name__}", key="numeric.names")
            if not value.strip() or len(value) > MAX_CHARS:  # an expression's limit: a
                # longer one was refused by the parser, its whole text quoted (docs32)
                raise ProofFileError(f"numeric.names.{name} is " + (
                    "empty" if not value.strip() else
                    f"{len(value)} characters long, more than an expression's {MAX_CHARS}"),
                    key="numeric.names")
        return dict(found)

    def algorithm() -> str | None:
        named = _text(table, "algorithm", within="numeric.") or None
        if named is not None and not STEP_ID.fullmatch(named):
            raise ProofFileError("numeric.algorithm must be an algorithm id ([a-z0-9-]+: a "
                                 "source algorithm, or a plug-in given with the audit)",
                                 key="numeric.algorithm", text=named)
        return named

    read = (problems.attempt(run_kind), problems.attempt(names), problems.attempt(algorithm),
            problems.attempt(lambda: _strings(table, "data", limit=MAX_DATA,
                                              within="numeric.")))
    run, bound, named, data = read
    if partial and run is not None and bound is not None:
        return RunBinding(run, bound, named, ())
    problems.check()
    assert run is not None and bound is not None and data is not None
    refused = [error for path in data if (error := _refused_path(path, folder)) is not None]
    if refused:  # the file is refused: its entries that name no file are said with it
        raise_all([*refused, *(
            ProofFileError(f"numeric.data: {path!r}: no such file", key="numeric.data",
                           text=path)
            for path in data if _refused_path(path, folder) is None
            and not os.path.exists(os.path.join(folder, path)))])
    return RunBinding(run, bound, named, tuple(os.path.join(folder, path) for path in data))


def _refused_path(path: str, folder: str) -> ProofFileError | None:
    """Why a data file a proof names is refused before it is read, if it is (each entry's
    error is independent: every one is said, placed at its entry; newcomer 19 saw only the
    first). A data file lies in the proof file's folder or below it, symbolic links
    resolved (`proofs.imports.outside`): a data file's first unreadable cell is quoted in
    the error. Files elsewhere are given with `--data FILE`, which the user types."""
    if "\0" in path:  # no file has such a name
        return ProofFileError("numeric.data: a path cannot hold a NUL character",
                              key="numeric.data")
    if outside(path, folder):
        return ProofFileError(f"numeric.data: {path!r} is outside the proof file's folder; a "
                              "proof names data files beside it or below it (give others "
                              "with --data FILE)", key="numeric.data", text=path)
    return None


def _label(table: dict[str, Any], index: int) -> str:
    """How errors name a step: its id, or `#N` (its position) while its id is unreadable."""
    step_id = table.get("id")
    return step_id if isinstance(step_id, str) and STEP_ID.fullmatch(step_id) else f"#{index + 1}"


def _step(table: dict[str, Any], index: int, names: Names, problems: Problems) -> Step | None:
    """The step of `table`, or None with every error of its own parts recorded (each key,
    each expression: independent of each other)."""
    label = _label(table, index)
    before = len(problems.found)

    def attempt(read: Callable[[], T]) -> T | None:
        return problems.attempt(read, label)

    _each_key(problems, table, STEP_KEYS, "a step", label)
    step_id = table.get("id")
    if (problem := step_id_problem(step_id)) is not None:
        problems.add(ProofFileError(problem, step=label, key="id"))
    given = attempt(lambda: _strings(table, "given", limit=MAX_HYPOTHESES)) or []
    # a misspelt `claim` (`clam`) is one error, its unknown key: no follow-on "missing"
    misspelt = "claim" not in table and "claim" in _meant(table, STEP_KEYS)
    claim = None if misspelt else attempt(lambda: _text(table, "claim", required=True))
    hints = attempt(lambda: _strings(table, "hints", limit=MAX_HINTS)) or []
    parts = dict(
        hypotheses=tuple(attempt(lambda k=k, t=t: _relation(t, names, f"given[{k}]"))
                         for k, t in enumerate(given)),
        claim=attempt(lambda: _relation(claim, names, "claim")) if claim is not None else None,
        uses=attempt(lambda: _uses(table, names)),
        hints=tuple(attempt(lambda k=k, t=t: _hint(t, names, f"hints[{k}]"))
                    for k, t in enumerate(hints)),
        hint_texts=tuple(" ".join(t.split()) if isinstance(t, str) else "" for t in hints),
        source=attempt(lambda: _text(table, "source")),
        note=attempt(lambda: _text(table, "note")),
        rule=attempt(lambda: _rule(table, names)),
        witness=attempt(lambda: _substitution(table, "witness", names))
        if "witness" in table else {},
    )
    if len(problems.found) > before:
        return None
    return attempt(lambda: Step(id=label, **parts))  # type: ignore[arg-type]


def _rule(table: dict[str, Any], names: Names) -> Rule:
    split = _split(table, names) if "split" in table else None
    if "induction" in table:
        induction = _table(table, "induction")
        _known_keys(induction, INDUCTION_KEYS, "induction")
        given = _strings(induction, "given", limit=MAX_HYPOTHESES)
        return Induction(
            variable=_text(induction, "variable", required=True),
            base=_substitution(induction, "base", names, "induction."),
            step=_substitution(induction, "step", names, "induction."),
            hypotheses=tuple(
                _relation(text, names, f"induction.given[{k}]") for k, text in enumerate(given)
            ),
            constants=tuple(_strings(induction, "constants", limit=MAX_NAMES)),
            split=split,
            written={key: dict(induction[key]) for key in ("base", "step")},
        )
    return split or Direct()


def _split(table: dict[str, Any], names: Names) -> CaseSplit:
    """`split = { on, zero }`: of the step itself, or with `induction`, of its inductive step."""
    split = _table(table, "split")
    _known_keys(split, SPLIT_KEYS, "split")
    on = _text(split, "on", required=True)
    zero = split.get("zero", True)
    if not isinstance(zero, bool):
        raise ProofFileError("split.zero must be true or false")
    return CaseSplit(_parsed(parse_scalar, on, names, "split.on"), on, zero)


def _uses(table: dict[str, Any], names: Names) -> tuple[Use, ...]:
    """`uses`: step ids, or tables `{ step = ID, with = { name = "term", ... } }`."""
    value = table.get("uses", [])
    if not isinstance(value, list) or not all(isinstance(u, str | dict) for u in value):
        raise ProofFileError("'uses' must be a list of step ids or { step, with } tables")
    if len(value) > MAX_STEPS:
        raise ProofFileError(f"'uses' has {len(value)} entries, more than {MAX_STEPS}")
    out = []
    for entry in value:
        if isinstance(entry, str):
            out.append(Use(entry))
            continue
        _known_keys(entry, USE_KEYS, "a use")
        used = _text(entry, "step", required=True)
        terms = _substitution(entry, "with", names) if "with" in entry else {}
        over = entry.get("sum", [])
        overs = [over] if isinstance(over, str) else over
        if not isinstance(overs, list) or not all(isinstance(o, str) for o in overs) or (
                "sum" in entry and not overs):  # `sum = []` is no plain use in disguise
            raise ProofFileError(f"uses {used}: sum must be `j in M` or a list of them",
                                 key="sum")
        spelt = []  # each `j in S` with single spaces: what the checker splits on " in "
        for text in overs:
            read = OVER.fullmatch(text)
            if terms or read is None or read[1] not in names.scalars or not (
                    read[2] in names.sets or ".." in read[2]) or ";" in text:
                raise ProofFileError(f"uses {used}: sum = {quoted(text)} must be `j in M` (a "
                                     "declared set) or `j in lo..hi`, j a declared scalar, and "
                                     "no `with`",
                                     key="sum", text=text)
            if read[2] not in names.sets:
                for bound in read[2].split("..", 1):
                    _parsed(parse_bound, bound.strip(), names, "sum")
            spelt.append(f"{read[1]} in {read[2]}")
        written = entry.get("with", {})
        out.append(Use(used, tuple(sorted(terms.items())), "; ".join(spelt),
                       tuple(sorted((n, " ".join(written[n].split())) for n in terms))))
    return tuple(out)


def _substitution(table: dict[str, Any], key: str, names: Names,
                  where: str = "") -> dict[str, Term]:
    """Names to terms of their sort: a vector expression for a vector, else a scalar one."""
    mapping = _table(table, key)
    out: dict[str, Term] = {}
    for name, text in mapping.items():
        if name not in names.vectors | names.scalars:
            raise ProofFileError(f"{where}{key}: {name!r} is not a declared name",
                                 key=f"{where}{key}.{name}")
        if not isinstance(text, str):
            raise ProofFileError(f"{where}{key}.{name} must be a string")
        term, divisors = _parsed(lambda t, n, v=name in names.vectors: parse_term(t, n, vector=v),
                                 text, names, f"{where}{key}.{name}")
        if divisors:
            raise ProofFileError(f"{where}{key}.{name} = {text.strip()!r} must not divide by "
                                 f"{divisors[0]}: a term divides by constants only (SymPy "
                                 "cancels `x/x` to 1, and with it where the statement is "
                                 "undefined)", key=f"{where}{key}.{name}")
        out[name] = term
    return out


def _relation(text: str, names: Names, where: str) -> Relation:
    return _parsed(parse_relation, text, names, where)


def _hint(text: str, names: Names, where: str) -> Hint:
    """A scalar polynomial or, failing that, a vector expression. When neither reads it, the
    error said is the vector reading's if the text is a vector (newcomer 21: the hint
    `th - sum(j in U, y[j]*x[j])` was refused as "a vector is used outside dot()/norm2()",
    untrue of a hint, which may be a vector; what fails is its sum of vectors)."""
    try:
        return parse_scalar(text, names)
    except ExpressionError as scalar_error:
        try:
            return parse_vector_expression(text, names)
        except ExpressionError as vector_error:
            said = vector_error if str(scalar_error).startswith(
                "a vector is used outside") else scalar_error
            raise ProofFileError(f"{where}: {said}", key=where, text=text,
                                 segment=said.segment, fix=said.fix) from None


def _parsed(parse: Callable[[str, Names], T], text: str, names: Names, where: str) -> T:
    try:
        return parse(text, names)
    except ExpressionError as exc:
        raise ProofFileError(f"{where}: {exc}", key=where, text=text, segment=exc.segment,
                             fix=exc.fix) from None


def _each_key(problems: Problems, table: Mapping[str, Any], allowed: tuple[str, ...],
              where: str, step: str | None = None, within: str = "") -> None:
    """An error for every unknown key of `table` (`_known_keys` stops at the first)."""
    for key in table:
        problems.attempt(lambda key=key: _known_keys({key: None}, allowed, where, within),
                         step)


def _meant(table: Mapping[str, Any], allowed: tuple[str, ...]) -> set[str]:
    """The allowed keys that unknown keys of `table` are close to (`did you mean`)."""
    return {m for key in table if key not in allowed
            for m in difflib.get_close_matches(str(key), allowed, n=1)}


def _known_keys(table: Mapping[str, Any], allowed: tuple[str, ...], where: str,
                within: str = "") -> None:
    """Refuse the first key of `table` not `allowed` (`within`: the table's key prefix, as
    `numeric.`, which places the error in that table: `proofs.errors.Source`)."""
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            raise ProofFileError(
                f"unknown key {key!r} in {where} (expected one of: {', '.join(allowed)})",
                key=f"{within}{key}", fix=f"did you mean {close[0]!r}?" if close else None)


def _table(table: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = table.get(key)
    if not isinstance(value, dict):
        raise ProofFileError(f"{key!r} must be a table")
    return value


def _text(table: Mapping[str, Any], key: str, *, required: bool = False,
          within: str = "") -> str:
    """The string at `key`; an error is keyed `within + key` (placed at the key: `_known_keys`)."""
    value = table.get(key)
    name = f"{within}{key}"
    if value is None:
        if required:
            raise ProofFileError(f"missing {name!r}", key=within.rstrip(".") or None)
        return ""
    if not isinstance(value, str):
        raise ProofFileError(f"{name!r} must be a string, not {_kind(value)}", key=name)
    if len(value) > MAX_TEXT:
        raise ProofFileError(f"{name!r} is longer than {MAX_TEXT} characters", key=name)
    if found := CONTROL.search(value):
        raise ProofFileError(
            f"{name!r} contains the control character {found.group()[0]!r} "
            f"(U+{ord(found.group()[0]):04X}), which a terminal would obey (move the cursor, "
            "erase or hide what is printed) instead of showing it", key=name,
            fix="remove it; a line break in a note is a newline, a tab a tab")
    return value


def _strings(table: Mapping[str, Any], key: str, *, limit: int | None,
             within: str = "") -> list[str]:
    """The list of strings at `key`; an error is keyed `within + key` (as `_text`)."""
    value = table.get(key, [])
    name = f"{within}{key}"
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ProofFileError(f"{name!r} must be a list of strings, not {_kind(value)}"
                             if not isinstance(value, list) else
                             f"{name!r} must be a list of strings", key=name)
    if limit is not None and len(value) > limit:
        raise ProofFileError(f"{name!r} has {len(value)} entries, more than {limit}", key=name)
    return value


def _kind(value: object) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", list: "a list",
            str: "a string"}.get(
        type(value), "a table" if isinstance(value, dict) else type(value).__name__
    )
