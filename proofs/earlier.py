"""Files written for the earlier proof language keep the meaning they had (issue 27.8).

Before `constants` (per induction) and `naturals` (top level) existed, an induction held every
name it did not iterate fixed for the whole run (its step obligation read each name the same
at t and at t + 1), and a claim proved by induction on `t` was used wherever `t` appeared.
The stricter language made such names per-update (fresh at every update) unless listed in
`constants`, and such uses need `t` declared natural, so those files exited 2. Here their
declarations are inferred, soundly and visibly:

- an induction without a `constants` key gets as constants the names its invariant, its
  hypotheses or its base mention that it does not iterate and that were held fixed then:
  - a name its update facts (`given`) read but its `step` map does not: a radius R, a
    separator u, a margin gamma;
  - a name its `step` map reads (a learning rate eta, the bias unit e of an augmentation)
    that its invariant or hypotheses mention, unless the update is about it: an update fact
    reads it together with an iterated name (the mistake condition `y*dot(w, x) <= 0`: x, y
    are the example of the update at hand), or the base starts the run from it (`s = y*x`
    with `s := s + y*x`: the first term and every added term written with the same names).
    Only where the file says what its update is about: an induction over the same runs has
    such a selection condition; without one, no name the `step` map reads is inferred.
  The theorem then says "(eta, R constant)" in its statement: runs in which those names keep
  one value, which is what the old check proved. A name the update is about stays
  per-update, and the file is refused with why (`refusals`): held fixed, it would read every
  update's example as one, the capture the stricter rules closed, and it does not come back.
- a file without a `naturals` key gets its inductions' counters as naturals (each is natural
  in its own induction already); the statements say `t in Nat`.

Each inference is a note naming the line to add; the file is otherwise read as written. A file
that declares the key is read strictly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import sympy

from proofs.errors import ProofFileError, Source
from proofs.language.expressions import Relation
from proofs.language.indexed import names_in
from proofs.language.terms import Vec
from proofs.step import Induction, Step, Term


@dataclass(frozen=True)
class Note:
    """What the reader of a file should know that the file does not say (a declaration it leaves
    out, inferred; a listing that has no effect): the step it is about ('' for the file) and
    the sentence that says it and which line to change."""

    step: str
    text: str
    key: str | None = None  # a top-level entry it is about (`imports.me`), placed there

    def located(self, source: Source) -> str:
        """`file:line: note: text`, at the step's `id = ...` line, or the entry `key`'s (line 1
        for the file)."""
        line = source.where(None, self.key, None, None)[0] if self.key else \
            source.step_line(self.step or None)
        return f"{source.file}:{line}: note: {self.text}"


def _names(values: Iterable[Term | Relation]) -> set[str]:
    """Every scalar and vector name the terms or relations read (Gram symbols by pair)."""
    out: set[str] = set()
    for value in values:
        if isinstance(value, Vec):
            out |= names_in(sympy.Add(*map(sympy.Symbol, value))) | _names(value.values())
            continue
        exprs = (value.lhs, value.rhs) if isinstance(value, Relation) else (value,)
        out |= set().union(*map(names_in, exprs))
    return out


def _selects(step: Step) -> bool:
    """Whether one of the update facts of `step`'s induction reads an iterated vector or
    scalar: a selection condition (the mistake condition `y*dot(w, x) <= 0`), which says
    what the update is about."""
    rule = step.rule
    assert isinstance(rule, Induction)
    return any(_names((fact,)) & {*rule.base, *rule.step} for fact in rule.hypotheses)


def _held(step: Step, selected: bool) -> tuple[set[str], set[str], dict[str, str]]:
    """What the earlier language held fixed in `step`'s induction and the stricter one reads
    per-update, split (module docstring): the names inferred constant, the names the `step`
    map reads that it mentions but cannot be inferred (the update is about them), and for
    each name the update is about why. `selected`: an induction over the same runs has a
    selection condition (`_selects`); without one the file does not say which names the
    update reads are its example, so none of them is inferred."""
    rule = step.rule
    assert isinstance(rule, Induction)
    iterated = {*rule.base, *rule.step, rule.variable}
    mapped = _names(rule.step.values()) - iterated
    facts = _names(rule.hypotheses)
    stated = _names((step.claim, *step.hypotheses))
    started = _names(rule.base.values())
    why: dict[str, str] = {}
    for fact in rule.hypotheses:
        if _names((fact,)) & {*rule.base, *rule.step}:
            for name in sorted(_names((fact,)) & mapped):
                why.setdefault(name, f"the update fact `{fact.text}` reads it with the iterate")
    for name in sorted(started & mapped):
        why.setdefault(name, "the base starts the run from it, as every update adds it")
    if not selected:
        for name in sorted(mapped):
            why.setdefault(name, "no update fact over these runs reads the iterate, so "
                           "nothing says it is not the example the update adds")
    fixed = ((facts - mapped) & (stated | started)) | ((mapped & stated) - set(why))
    caught = {n for n in why if n in stated | started}
    return fixed - iterated, caught, why


def inferred_constants(step: Step, selected: bool | None = None) -> tuple[str, ...]:
    """The names the earlier language held fixed in `step`'s induction and the stricter one
    would read per-update, that are inferred constant (module docstring); `selected` as in
    `_held` (by default: whether this induction has a selection condition)."""
    return tuple(sorted(_held(step, _selects(step) if selected is None else selected)[0]))


def refusals(step: Step, selected: bool | None = None) -> tuple[str, ...]:
    """Why an induction without `constants` cannot keep its earlier meaning: one sentence
    per name the update is about that its invariant, hypotheses or base mention."""
    _, caught, why = _held(step, _selects(step) if selected is None else selected)
    return tuple(f"{name}: {why[name]}" for name in sorted(caught))


def _runs(step: Step) -> tuple[object, ...]:
    rule = step.rule
    assert isinstance(rule, Induction)
    return rule.variable, sorted(rule.base.items()), sorted(rule.step.items())


def earlier_language(document: Mapping[str, Any], steps: tuple[Step, ...],
                     naturals: tuple[str, ...]
                     ) -> tuple[tuple[Step, ...], tuple[str, ...], tuple[Note, ...],
                                tuple[ProofFileError, ...]]:
    """`steps` and `naturals` with the declarations of the earlier language inferred, a note
    for each (module docstring), and the refusals of the inductions that cannot keep their
    meaning: the other steps are returned as inferred all the same, so that the file's
    other errors are those of the earlier reading (a refusal once dropped every inference,
    and the kernel's refusals of the steps read without error were those of the stricter
    language: three untrue lines beside the one true one)."""
    tables = document.get("step", [])
    notes: list[Note] = []
    out = []
    errors = []
    selecting = [_runs(s) for s in steps if isinstance(s.rule, Induction) and _selects(s)]
    for step, table in zip(steps, tables, strict=True):
        raw = table.get("induction") if isinstance(table, dict) else None
        if isinstance(step.rule, Induction) and isinstance(raw, dict) \
                and "constants" not in raw:
            selected = _runs(step) in selecting
            if why := refusals(step, selected):
                errors.append(ProofFileError(
                    f"an induction without `constants` (the earlier language), whose update "
                    f"is about names it also mentions ({'; '.join(why)}): the earlier check "
                    "held them fixed, reading every update's example as one (the capture "
                    "the stricter rules closed), so they are not inferred constant",
                    step=step.id, key="induction",
                    fix="give each update its own names in the update's `given` and the run's "
                    "fixed values names of their own in `constants` (docs/proof-files.md, "
                    "Files of the earlier language)"))
            if found := inferred_constants(step, selected):
                listed = ", ".join(f'"{n}"' for n in found)
                notes.append(Note(step.id, f"step {step.id}: an induction without `constants` "
                                  f"(the earlier language): {', '.join(found)} held fixed for "
                                  f"the whole run, as then; add `constants = [{listed}]` to its "
                                  "[step.induction]"))
                step = replace(step, rule=replace(step.rule, constants=found))
        out.append(step)
    declared = document.get("scalars", [])  # an undeclared counter is its step's error
    counters = sorted({s.rule.variable for s in out
                       if isinstance(s.rule, Induction) and s.rule.variable in declared})
    if "naturals" not in document and counters:
        naturals = tuple(counters)
        listed = ", ".join(f'"{n}"' for n in counters)
        notes.append(Note("", f"no `naturals` (the earlier language): {', '.join(counters)} "
                          f"natural, as the inductions' counters; add `naturals = [{listed}]` "
                          "at the top level"))
    return tuple(out), naturals, tuple(notes), tuple(errors)
