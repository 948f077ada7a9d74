"""Files written for the earlier proof language keep the meaning they had (issue 27.8).

Before `constants` (per induction) and `naturals` (top level) existed, an induction held every
name it did not iterate fixed for the whole run, and a claim proved by induction on `t` was
used wherever `t` appeared. The stricter language made such names per-update (fresh at every
update) unless listed in `constants`, and such uses need `t` declared natural, so those files
exited 2. Here their declarations are inferred, soundly and visibly:

- an induction without a `constants` key gets as constants the names its update facts
  (`given`) read and its invariant, its hypotheses or its base mention, but its `step` map
  does not: a radius R, a separator u, a margin gamma, held fixed then and refused now. The
  theorem then says "(R constant)" in its statement: runs in which those names keep one value,
  which is what the old check proved. A name the update adds (the example x, its label y: the
  `step` map reads them) stays per-update, and an invariant that mentions it is still refused:
  that was the capture the stricter rules closed, and it does not come back. (A learning rate
  the `step` map reads is refused the same way; the message says to list it in `constants`.)
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

from proofs.errors import Source
from proofs.language.expressions import Relation
from proofs.language.indexed import names_in
from proofs.language.terms import Vec
from proofs.step import Induction, Step, Term


@dataclass(frozen=True)
class Note:
    """A declaration the file leaves out, inferred: the step it is about ('' for the file)
    and the sentence that says what was inferred and which line to add."""

    step: str
    text: str

    def located(self, source: Source) -> str:
        """`file:line: note: text`, at the step's `id = ...` line (line 1 for the file)."""
        return f"{source.file}:{source.step_line(self.step or None)}: note: {self.text}"


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


def inferred_constants(step: Step) -> tuple[str, ...]:
    """The names the earlier language held fixed in `step`'s induction and the stricter one
    would read per-update (module docstring): read by the update facts, not by the `step`
    map, and mentioned by the invariant, the step's hypotheses or the base."""
    rule = step.rule
    assert isinstance(rule, Induction)
    iterated = {*rule.base, *rule.step, rule.variable}
    facts = _names(rule.hypotheses) - _names(rule.step.values())
    mentioned = _names((step.claim, *step.hypotheses, *rule.base.values()))
    return tuple(sorted((facts & mentioned) - iterated))


def earlier_language(document: Mapping[str, Any], steps: tuple[Step, ...],
                     naturals: tuple[str, ...]) -> tuple[tuple[Step, ...], tuple[str, ...],
                                                         tuple[Note, ...]]:
    """`steps` and `naturals` with the declarations of the earlier language inferred, and a
    note for each (module docstring)."""
    tables = document.get("step", [])
    notes: list[Note] = []
    out = []
    for step, table in zip(steps, tables, strict=True):
        raw = table.get("induction") if isinstance(table, dict) else None
        if isinstance(step.rule, Induction) and isinstance(raw, dict) \
                and "constants" not in raw and (found := inferred_constants(step)):
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
    return tuple(out), naturals, tuple(notes)
