"""Steps of other proofs: `uses = ["canonical-online/norm-growth"]` across files.

A `uses` entry `SOURCE/STEP` names a step of another proof: SOURCE is a built-in proof id or
an alias of the file's `[imports]` table (`lemmas = "lemmas.toml"`, a file beside the
importing file or below it, `outside`; or `lib = "canonical-online"`; an alias is never a
built-in id). The used step, and every step it uses in its
own proof (transitively), are copied into the importing proof ahead of its own steps, under
the ids `SOURCE--STEP`, and the entry is read as a use of that copy. So the kernel checks
the copy again, and its full statement (hypotheses, inherited hypotheses, the runs of an
induction, definitions) is carried over exactly as a step used within one file: nothing is
trusted because another file said so.

Names are shared, as within one file: a name the copied steps use is declared in the
importing proof with the sort it has where it comes from (added when the importing file does
not declare it); a name declared with the other sort or as a family (`indexed`), a
natural of the source that the importing file declares as a mere scalar, or a name defined
(`[define]`) differently in the two files, is refused, naming both. Imports nest (a file may
import a file that imports), to a bounded depth and without cycles.
"""

from __future__ import annotations

import ast
import difflib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import sympy

from proofs.errors import CONTROL, ProofFileError
from proofs.language.expressions import spelt_tree
from proofs.language.indexed import names_in
from proofs.language.terms import Vec
from proofs.library.paths import PROOFS
from proofs.step import MAX_STEPS, STEP_ID, CaseSplit, Induction, Proof, Step, Use

MAX_IMPORTS = 20
MAX_DEPTH = 8
_LOADING: list[str] = []  # the files being imported, outermost first (cycles, depth)
_READ: list[dict[tuple[str, int], Proof | ProofFileError | OSError]] = []
"""The proofs read while the outermost `imported` runs, by path and depth (the depth
bounds what a file may still import): a file that many references, or many files, import
is read once. Red team 3: twenty references per file, each file importing the next, took
5.9, 13 and 126 s at depths 1, 2 and 3 when every reference read its file again."""


@dataclass
class Declared:
    """The importing proof's declarations, grown by what the copied steps need."""

    vectors: list[str]
    scalars: list[str]
    naturals: list[str]
    defined: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (text, source)
    #: the importing file's families: no imported proof has any (`_copies`), so a copied
    #: step's name is a plain vector or scalar, another sort than a family of that name
    indexed: tuple[str, ...] = ()

    def adopt_definition(self, name: str, text: str, source: str) -> None:
        """Record that `name` means `text` (its `[define]` in `source`), or refuse a second
        meaning: names are shared, so a copy's defining facts would speak of another value
        under the importing file's name (a statement about `sqrt(T)` read about `max(a, a)`)."""
        known = self.defined.setdefault(name, (text, source))
        if _spelt(known[0]) != _spelt(text):
            raise ProofFileError(f"{name!r} is defined as {text} in {source} and as {known[0]} "
                                 f"in {known[1]}: a name means one thing across imports; "
                                 "rename it in one of them")

    def adopt(self, name: str, vector: bool, natural: bool, source: str) -> None:
        """Declare `name` as it is in `source`, or refuse a declaration that disagrees."""
        mine = self.vectors if vector else self.scalars
        other = self.scalars if vector else self.vectors
        sort = "vector" if vector else "scalar"
        if name in other:
            raise ProofFileError(f"{name!r} is a {sort} in {source}, declared otherwise here")
        if name in self.indexed:  # red team 14 F3: the copy read `x` as the family's member
            raise ProofFileError(f"{name!r} is a {sort} in {source}, declared a family "
                                 "(indexed) here: rename it in one of them")
        if name not in mine:
            mine.append(name)
            if natural:
                self.naturals.append(name)
        elif natural and name not in self.naturals:
            raise ProofFileError(f"{name!r} is a natural in {source}: declare it in naturals "
                                 "here too (a step proved for naturals says nothing else)")


def _spelt(text: str) -> str:
    """A definition's text with its spacing and redundant parentheses normalised: the same
    definition written twice is one meaning."""
    try:
        return ast.unparse(spelt_tree(text))
    except SyntaxError:  # already read as a definition: not reached, but never a traceback
        return text


Load = Callable[[str], Proof]
"""Reads the proof file at a path (the parser's `load_proof`, passed in: the parser imports
this module)."""


def references(tables: Any) -> list[str]:
    """The `SOURCE/STEP` entries of the raw `[[step]]` tables' `uses`, before anything is
    parsed (their names must be declared before the steps that use them are read)."""
    found: list[str] = []
    for table in tables if isinstance(tables, list) else ():
        uses = table.get("uses", []) if isinstance(table, dict) else []
        for entry in uses if isinstance(uses, list) else ():
            step = entry.get("step") if isinstance(entry, dict) else entry
            if isinstance(step, str) and "/" in step:
                found.append(step)
    return list(dict.fromkeys(found))


@dataclass
class Imported:
    """What a file's imports gave: the copies of the steps used (by id, in order), and the
    references that could not be read (`broken`), with an error for each (`errors`): the
    steps that use them are not read, every other part of the file is."""

    copies: dict[str, Step]
    errors: list[ProofFileError]
    broken: set[str]
    unused: tuple[str, ...] = ()  # aliases no step uses: never read (the file gets a note)


def imported(table: Any, wanted: Sequence[str], declared: Declared, folder: str, load: Load,
             importer: str | None = None) -> Imported:
    """The copies of the steps `wanted` (and of those they use), every name they mention
    adopted into `declared`; each reference that fails is an error of its own, placed at
    the reference (or at its `[imports]` entry). `importer`: the path of the file being
    read, when it is read at the top (not itself imported): a file that imports itself, or
    a file that imports it, is a cycle found here, said once."""
    out = Imported({}, [], set())
    try:
        aliases = imports_table(table)
    except ProofFileError as error:
        return Imported({}, [error], set(wanted))  # what an alias names is unknown
    out.unused = tuple(sorted(set(aliases) - {r.split("/", 1)[0] for r in wanted}))
    top = importer is not None and not _LOADING
    if top:
        _LOADING.append(os.path.normpath(importer))  # type: ignore[arg-type]
    outermost = not _READ
    if outermost:
        _READ.append({})
    try:
        for reference in wanted:
            try:
                out.copies.update(_copies(reference, aliases, declared, folder, load,
                                          out.copies))
            except ProofFileError as error:
                out.broken.add(reference)
                located = error if error.key else ProofFileError(
                    error.problem, key="uses", text=reference, fix=error.fix)
                if str(located) not in map(str, out.errors):  # one file's error, said once
                    out.errors.append(located)
            if len(out.copies) > MAX_STEPS:  # said now: each file imported fans out again
                out.errors.append(ProofFileError(
                    f"uses {reference}: the steps imported so far are {len(out.copies)}, more "
                    f"than {MAX_STEPS} (a proof's steps, its copies included)", key="uses",
                    text=reference))
                out.broken.update(wanted)
                break
    finally:
        if top:
            _LOADING.pop()
        if outermost:
            _READ.pop()
    return out


def _copies(reference: str, aliases: Mapping[str, str], declared: Declared, folder: str,
            load: Load, copied: Mapping[str, Step]) -> dict[str, Step]:
    """The copies one reference `SOURCE/STEP` adds to those `copied` already."""
    source, _, step_id = reference.rpartition("/")
    if not source or not step_id:
        raise ProofFileError(f"uses {reference!r}: a step of another proof is written "
                             "SOURCE/STEP (SOURCE a built-in proof id or an alias of "
                             "[imports])")
    proof = _load(source, aliases, folder, load)
    copies: dict[str, Step] = {}
    if proof.indexed or proof.sets:
        raise ProofFileError(f"uses {reference}: a proof with families or sets cannot be "
                             "imported yet (copy its steps and declarations)")
    for step in _closure(proof, step_id, reference):
        copy_id = _copy_id(source, step.id)
        names = list(_names(step, proof))
        copy = replace(step, id=copy_id, uses=tuple(_renamed(u, source) for u in step.uses),
                       note=f"from {source} (step {step.id}, checked again here)"
                       + (f"; {step.note}" if step.note else ""),
                       naturals=proof.naturals_of(step))
        earlier = copied.get(copy_id, copies.get(copy_id))
        if earlier is None:
            for name, vector in names:
                declared.adopt(name, vector, name in proof.naturals_of(step), source)
                if name in proof.definitions:
                    declared.adopt_definition(name, proof.definitions[name], source)
            copies[copy_id] = copy
        elif earlier != copy:  # `a` + `b--c` and `a--b` + `c`: one id, two steps
            raise ProofFileError(f"uses {reference}: {copy_id!r} would name the copies of two "
                                 "different steps (an alias or a step id with '--' in it); "
                                 "rename an [imports] alias")
    return copies


def with_copies(steps: Sequence[Step], copies: Mapping[str, Step]) -> tuple[Step, ...]:
    """The copies, then `steps` with every `SOURCE/STEP` use read as a use of its copy."""
    clash = {s.id for s in steps} & set(copies)
    if clash:
        raise ProofFileError(f"step id {sorted(clash)[0]!r} is taken by an imported step")
    own = tuple(replace(s, uses=tuple(
        replace(u, step=_copy_id(*u.step.rsplit("/", 1))) if "/" in u.step else u
        for u in s.uses)) for s in steps)
    return (*copies.values(), *own)


def imports_table(table: Any) -> Mapping[str, str]:
    """The `[imports]` table read (alias -> target), or ProofFileError for one that is not
    such a table, has too many entries, a path with a NUL, or an alias that is a built-in
    id."""
    if table is None:
        return {}
    if not isinstance(table, dict) or not all(
            isinstance(k, str) and STEP_ID.fullmatch(k) and isinstance(v, str) and v
            for k, v in table.items()):
        raise ProofFileError("[imports] must map names ([a-z0-9-]+) to built-in proof ids "
                             "or proof files")
    if len(table) > MAX_IMPORTS:
        raise ProofFileError(f"[imports] has more than {MAX_IMPORTS} entries")
    for name, target in table.items():
        if "\0" in target:  # no file has such a name (and the system refuses to look)
            raise ProofFileError(f"imports {name}: a path cannot hold a NUL character",
                                 key=f"imports.{name}")
        if found := CONTROL.search(target):  # messages quote the path (red team 28 F6)
            raise ProofFileError(f"imports {name}: the path {target!r} holds the control "
                                 f"character {found.group()[0]!r}, which a terminal would obey "
                                 "instead of showing it", key=f"imports.{name}")
        if name in PROOFS:  # its copies would be `PROOF--STEP`, "from PROOF": the built-in's
            raise ProofFileError(f"imports {name}: {name!r} is a built-in proof's id; an alias "
                                 "must be another name (its copies would be named, and said to "
                                 "come from, that proof)", key=f"imports.{name}",
                                 fix=f"rename it, e.g. my-{name}")
    return table


def outside(path: str, folder: str) -> bool:
    """Whether `path`, relative to `folder` (`""`: the working directory), lies outside that
    folder once symbolic links and `..` are resolved. A stranger's proof file names files
    beside it or below it only (its `[imports]`, its `[numeric] data`): else it would read
    `/etc/passwd` or `~/.ssh/...`, and an error would quote what it found there."""
    inside = os.path.realpath(folder or os.curdir)
    target = os.path.realpath(os.path.join(folder, path))
    return os.path.commonpath([inside, target]) != inside


def resolved(target: str, folder: str) -> str | None:
    """The file an `[imports]` entry's `target` names, read from a file in `folder`: None
    for a built-in proof id (unless a file of that name lies in `folder`: a file wins, as on
    the command line); ProofFileError (not placed) for a path outside `folder`
    (`outside`)."""
    if target in PROOFS and not os.path.exists(os.path.join(folder, target)):
        return None
    if outside(target, folder):
        raise ProofFileError(f"imports {target}: outside the importing file's folder; a proof "
                             "imports proof files beside it or below it (symbolic links "
                             "followed), or a built-in proof by its id")
    return os.path.normpath(os.path.join(folder, target))


def _load(source: str, aliases: Mapping[str, str], folder: str, load: Load) -> Proof:
    """The proof `source` names: an alias of `[imports]` (never a built-in id: `imports_table`),
    else a built-in id."""
    if source not in aliases:
        if source in PROOFS:
            return _read_once(str(PROOFS[source]), -1, load)
        close = difflib.get_close_matches(source, [*aliases, *PROOFS], n=1)
        raise ProofFileError(f"uses {source}/...: {source!r} is neither a built-in proof nor "
                             "an alias of [imports]",
                             fix=f"did you mean {close[0]!r}?" if close else None)
    target = aliases[source]
    entry = {"key": f"imports.{source}", "text": target}  # at `source = "target"`, [imports]
    try:
        path = resolved(target, folder)
    except ProofFileError as error:
        raise ProofFileError(error.problem, **entry) from None
    if path is None:
        return _read_once(str(PROOFS[target]), -1, load)
    if any(os.path.realpath(path) == os.path.realpath(p) for p in _LOADING):
        raise ProofFileError(f"imports {target}: a cycle ({' -> '.join([*_LOADING, path])})",
                             **entry)
    if len(_LOADING) > MAX_DEPTH:  # the file read at the top is the first, when it is one
        raise ProofFileError(f"imports {target}: nested more than {MAX_DEPTH} deep", **entry)
    depth = len(_LOADING)
    _LOADING.append(path)
    try:
        return _read_once(path, depth, load)
    except ProofFileError as error:
        raise ProofFileError(f"imports {target}: {error}", **entry) from None
    except OSError as error:  # a missing or unreadable file: said where it is imported
        raise ProofFileError(f"imports {target}: {(error.strerror or str(error)).lower()} "
                             f"({path})", **entry) from None
    finally:
        _LOADING.pop()


def _read_once(path: str, depth: int, load: Load) -> Proof:
    """`load(path)`, or what it gave earlier in this outermost read at the same depth (-1:
    a built-in proof, whose imports are its own): the proof, or the error it raised."""
    read = _READ[-1] if _READ else {}
    key = (os.path.realpath(path), depth)
    if key not in read:
        try:
            read[key] = load(path)
        except (ProofFileError, OSError) as error:
            read[key] = error
    found = read[key]
    if isinstance(found, Exception):
        raise found
    return found


def _closure(proof: Proof, step_id: str, reference: str) -> list[Step]:
    """The step and every step it uses in its proof, transitively, in the proof's order."""
    ids = {s.id for s in proof.steps}
    if step_id not in ids:
        close = difflib.get_close_matches(step_id, sorted(ids), n=1)
        raise ProofFileError(f"uses {reference}: no step {step_id!r} there",
                             fix=f"did you mean '{reference.rpartition('/')[0]}/{close[0]}'?"
                             if close else None)
    needed = {step_id}
    for step in reversed(proof.steps):
        if step.id in needed:
            needed |= {u.step for u in step.uses}
    return [s for s in proof.steps if s.id in needed]


def _copy_id(source: str, step_id: str) -> str:
    copy_id = f"{os.path.splitext(os.path.basename(source))[0]}--{step_id}".lower()
    if not STEP_ID.fullmatch(copy_id):
        raise ProofFileError(f"uses {source}/{step_id}: the copy's id {copy_id!r} is not a "
                             "step id (use a short [imports] alias)")
    return copy_id


def _renamed(use: Use, source: str) -> Use:
    return replace(use, step=_copy_id(source, use.step))


def _names(step: Step, proof: Proof) -> Iterator[tuple[str, bool]]:
    """Every name a step mentions, with whether it is a vector (as `proof` declares it)."""
    exprs: list[sympy.Expr] = [e for r in (*step.hypotheses, step.claim)
                               for e in (r.lhs, r.rhs, *r.divisors)]
    terms: list[sympy.Expr | Vec] = [*step.hints, *step.witness.values(),
                                     *(t for u in step.uses for _, t in u.with_)]
    names = {*step.witness, *(n for u in step.uses for n, _ in u.with_)}
    rule = step.rule
    if isinstance(rule, Induction):
        exprs += [e for r in rule.hypotheses for e in (r.lhs, r.rhs, *r.divisors)]
        terms += [*rule.base.values(), *rule.step.values()]
        names |= {rule.variable, *rule.constants, *rule.base, *rule.step}
        rule = rule.split
    if isinstance(rule, CaseSplit):
        exprs.append(rule.on)
    for term in terms:
        if isinstance(term, Vec):
            names |= set(term)
            exprs += list(term.values())
        else:
            exprs.append(term)
    for expr in exprs:
        names |= names_in(expr)
    return ((name, name in proof.vectors) for name in sorted(names))
