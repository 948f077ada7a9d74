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
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from proofs.definitions import Definition, parse_definitions, with_definitions
from proofs.earlier import Note, earlier_language
from proofs.errors import ProofFileError, Source, raise_all
from proofs.imports import Declared, imported, references, with_copies
from proofs.instances import with_instances
from proofs.language.expressions import (
    ExpressionError,
    IndexSet,
    Names,
    Relation,
    parse_bound,
    parse_relation,
    parse_scalar,
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
RUNS = ("online", "batch", "single-pass")
STEP_KEYS = ("id", "given", "claim", "uses", "hints", "source", "note", "split", "induction",
             "witness")
USE_KEYS = ("step", "with", "sum")
OVER = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(\S.*?)\s*$")
SPLIT_KEYS = ("on", "zero")
INDUCTION_KEYS = ("variable", "base", "step", "given", "constants")
T = TypeVar("T")


def load_proof(path: str | os.PathLike[str]) -> Proof:
    """The proof in the file at `path`; raises ProofFileError (or OSError) on bad input."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    return parse_proof(data, os.fspath(path))


def parse_proof(data: bytes, file: str) -> Proof:
    """The proof in `data`, the contents of `file` (named in every error and note); every
    independent error of the file is raised at once (`ProofFileErrors`), each placed at its
    line and column."""
    source = None
    try:
        document = _document(data)
        source = Source(file, data.decode("utf-8-sig"))
        proof, notes = _proof(document, os.path.dirname(file) if file != "<stdin>" else "")
    except ProofFileError as exc:
        raise exc.located(file, source) from None
    proof = replace(proof, origin=source)
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
        raise ProofFileError(f"invalid TOML: {exc}", line=int(at[1]) if at else None,
                             column=int(at[2]) if at else None) from None
    except RecursionError:
        raise ProofFileError("invalid TOML: nested too deeply") from None


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


def _proof(document: dict[str, Any], folder: str) -> tuple[Proof, tuple[Note, ...]]:
    """The proof of a parsed document; `folder` is where its relative paths start."""
    problems = Problems()
    _each_key(problems, document, TOP_KEYS, "top level")
    title = problems.attempt(lambda: _text(document, "title", required=True))
    declared = problems.attempt(lambda: Declared(_strings(document, "vectors", limit=None),
                                                 _strings(document, "scalars", limit=None),
                                                 _strings(document, "naturals", limit=None)))
    indexed = problems.attempt(lambda: tuple(_strings(document, "indexed", limit=MAX_NAMES)))
    sets = problems.attempt(lambda: _sets(document)) if "sets" in document else {}
    tables = document.get("step")

    def names_and_steps() -> tuple[Names, dict[str, Step], tuple[Definition, ...]]:
        """What every step needs: the names (own, then imported), the step tables, the
        definitions; an error here is reported alone (the steps would only repeat it)."""
        assert declared is not None
        declare(declared.vectors, declared.scalars, indexed or (), sets)  # the file's own
        copies = imported(document.get("imports"), references(tables), declared, folder,
                          load_proof)
        names = declare(declared.vectors, declared.scalars, indexed or (), sets)
        if tables is None:
            raise ProofFileError("no [[step]] tables")
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise ProofFileError("'step' must be an array of tables ([[step]])")
        if len(tables) > MAX_STEPS:
            raise ProofFileError(f"{len(tables)} steps, more than {MAX_STEPS}")
        return names, copies, parse_definitions(_table(document, "define"), names) \
            if "define" in document else ()

    if declared is None or indexed is None or sets is None or (
            needed := problems.attempt(names_and_steps)) is None:
        problems.check()
    names, copies, definitions = needed
    problems.names = names
    read = [_step(table, index, names, problems) for index, table in enumerate(tables)]
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
            steps, naturals, notes = read_as_then  # type: ignore[assignment]
    combined = problems.attempt(lambda: with_copies(steps, copies))
    broken = frozenset(_label(t, i) for i, t in enumerate(tables)) - {s.id for s in steps}
    for error in problems_of(declared.vectors, declared.scalars, combined or steps,
                             naturals=naturals, numeric=numeric, theorem=theorem or "",
                             notation=notation, broken=broken, indexed=indexed, sets=sets):
        problems.add(error)
    problems.check()
    assert combined is not None
    instanced = problems.attempt(lambda: with_instances(combined, names))
    problems.check()
    assert title is not None and instanced is not None
    return Proof(title, tuple(declared.vectors), tuple(declared.scalars), instanced,
                 source or "", numeric, naturals, theorem=theorem or "",
                 notation=notation or {}, indexed=indexed, sets=sets), notes


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


def _numeric(document: Mapping[str, Any], folder: str) -> RunBinding:
    table = _table(document, "numeric")
    _known_keys(table, NUMERIC_KEYS, "numeric")
    run = _text(table, "run", required=True)
    if not STEP_ID.fullmatch(run):
        raise ProofFileError(f"numeric.run must name a run kind ({', '.join(RUNS)}, or one "
                             "registered with verify.runs)", key="run", text=run)
    names = table.get("names", {})
    if not isinstance(names, dict) or not all(
        isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in names.values()
    ):
        raise ProofFileError("numeric.names must map names to expressions (strings)",
                             key="names")
    algorithm = _text(table, "algorithm") or None
    if algorithm is not None and not STEP_ID.fullmatch(algorithm):
        raise ProofFileError("numeric.algorithm must be a source algorithm id",
                             key="algorithm", text=algorithm)
    data = tuple(os.path.join(folder, path)
                 for path in _strings(table, "data", limit=MAX_DATA))
    return RunBinding(run, dict(names), algorithm, data)


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
    if not isinstance(step_id, str) or not STEP_ID.fullmatch(step_id):
        problems.add(ProofFileError(f"id {step_id!r} must be a string matching [a-z0-9-]+",
                                    step=label, key="id"))
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
        if not isinstance(overs, list) or not all(isinstance(o, str) for o in overs):
            raise ProofFileError(f"uses {used}: sum must be `j in M` or a list of them",
                                 key="sum")
        for text in overs:
            read = OVER.fullmatch(text)
            if terms or read is None or read[1] not in names.scalars or not (
                    read[2] in names.sets or ".." in read[2]) or ";" in text:
                raise ProofFileError(f"uses {used}: sum = {text!r} must be `j in M` (a declared "
                                     "set) or `j in lo..hi`, j a declared scalar, and no `with`",
                                     key="sum", text=text)
            if read[2] not in names.sets:
                for bound in read[2].split("..", 1):
                    _parsed(parse_bound, bound.strip(), names, "sum")
        out.append(Use(used, tuple(sorted(terms.items())), "; ".join(o.strip() for o in overs)))
    return tuple(out)


def _substitution(table: dict[str, Any], key: str, names: Names,
                  where: str = "") -> dict[str, Term]:
    """Names to terms of their sort: a vector expression for a vector, else a scalar one."""
    mapping = _table(table, key)
    out: dict[str, Term] = {}
    for name, text in mapping.items():
        if name not in names.vectors | names.scalars:
            raise ProofFileError(f"{where}{key}: {name!r} is not a declared name")
        if not isinstance(text, str):
            raise ProofFileError(f"{where}{key}.{name} must be a string")
        parse = parse_vector_expression if name in names.vectors else parse_scalar
        out[name] = _parsed(parse, text, names, f"{where}{key}.{name}")  # type: ignore[arg-type]
    return out


def _relation(text: str, names: Names, where: str) -> Relation:
    return _parsed(parse_relation, text, names, where)


def _hint(text: str, names: Names, where: str) -> Hint:
    """A scalar polynomial or, failing that, a vector expression."""
    try:
        return parse_scalar(text, names)
    except ExpressionError as scalar_error:
        try:
            return parse_vector_expression(text, names)
        except ExpressionError:
            raise ProofFileError(f"{where}: {scalar_error}", key=where, text=text,
                                 segment=scalar_error.segment, fix=scalar_error.fix) from None


def _parsed(parse: Callable[[str, Names], T], text: str, names: Names, where: str) -> T:
    try:
        return parse(text, names)
    except ExpressionError as exc:
        raise ProofFileError(f"{where}: {exc}", key=where, text=text, segment=exc.segment,
                             fix=exc.fix) from None


def _each_key(problems: Problems, table: Mapping[str, Any], allowed: tuple[str, ...],
              where: str, step: str | None = None) -> None:
    """An error for every unknown key of `table` (`_known_keys` stops at the first)."""
    for key in table:
        problems.attempt(lambda key=key: _known_keys({key: None}, allowed, where), step)


def _meant(table: Mapping[str, Any], allowed: tuple[str, ...]) -> set[str]:
    """The allowed keys that unknown keys of `table` are close to (`did you mean`)."""
    return {m for key in table if key not in allowed
            for m in difflib.get_close_matches(str(key), allowed, n=1)}


def _known_keys(table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            raise ProofFileError(
                f"unknown key {key!r} in {where} (expected one of: {', '.join(allowed)})",
                key=str(key), fix=f"did you mean {close[0]!r}?" if close else None)


def _table(table: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = table.get(key)
    if not isinstance(value, dict):
        raise ProofFileError(f"{key!r} must be a table")
    return value


def _text(table: Mapping[str, Any], key: str, *, required: bool = False) -> str:
    value = table.get(key)
    if value is None:
        if required:
            raise ProofFileError(f"missing {key!r}")
        return ""
    if not isinstance(value, str):
        raise ProofFileError(f"{key!r} must be a string, not {_kind(value)}")
    if len(value) > MAX_TEXT:
        raise ProofFileError(f"{key!r} is longer than {MAX_TEXT} characters")
    return value


def _strings(table: Mapping[str, Any], key: str, *, limit: int | None) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ProofFileError(f"{key!r} must be a list of strings")
    if limit is not None and len(value) > limit:
        raise ProofFileError(f"{key!r} has {len(value)} entries, more than {limit}")
    return value


def _kind(value: object) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", list: "a list"}.get(
        type(value), "a table" if isinstance(value, dict) else type(value).__name__
    )
