"""How a step's statement takes in the steps it uses, as the kernel reads them.

The kernel (`verify.kernel.rules`, `statement`) imports a used step's statement whole, its
hypotheses and then its claim, except in an induction, where a use may be of two other
kinds: an invariant of the very same runs is *carried* (it holds at every state of the run,
"where at every state ..."), and a statement about no run that reads what moves (the counter,
an iterated name, a name read fresh at each update) is a *one-update lemma* (its claim
follows at each update, "and so at each update, by lemma, ...", and enters the inductive
step only). Neither brings its hypotheses or claim into the step's hypotheses.

The kernel says which use is which in words only (`Statement.run`). The reports that typeset
a statement (`verify.typeset.statement`) and the Coq export that states it (`verify.coq`)
need it as data: it is read here, by the kernel's criteria, from the kernel's public values
only (each used statement as the use imports it, `with` instantiated as the checker does,
and `Statement.over`, the runs of an induction). `agrees` compares the reading with the
kernel's words, so a disagreement is an error at the reader, never a different theorem
shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from proofs.step import Proof, Step, Use
from verify.kernel import KernelError, Rel, Statement, names_of
from verify.proof_checker import used_statement

Kind = Literal["imported", "carried", "lemma"]


@dataclass(frozen=True)
class UsedAs:
    """One use of a step: the statement it imports (instantiated where it says `with`) and
    how the kernel takes it in."""

    use: Use
    statement: Statement
    kind: Kind


def used_as(step: Step, stated: Statement, statements: Mapping[str, Statement | None],
            proof: Proof) -> tuple[UsedAs, ...]:
    """Each use of `step` (whose kernel statement is `stated`) in `uses` order, with the used
    step's statement from `statements` (by step id), instantiated or summed over the sets of
    `proof` as the checker does; a use whose statement is unknown there or cannot be
    instantiated is left out (the kernel read no statement through it)."""
    found = []
    for use in step.uses:
        used = statements.get(use.step)
        if used is None:
            continue
        try:
            used = used_statement(use, used, proof)
        except KernelError:
            continue
        kind: Kind = ("lemma" if _one_update(used, stated) else
                      "carried" if used.over is not None and used.over == stated.over else
                      "imported")
        found.append(UsedAs(use, used, kind))
    return tuple(found)


def agrees(stated: Statement, uses: Sequence[UsedAs]) -> bool:
    """Whether the kernel's words for the run (`stated.run`) name exactly the carried
    invariants and the one-update lemmas of `uses`, in its order."""
    words = {"carried": ", where at every state ", "lemma": ", and so at each update, by lemma, "}
    said = ""
    for kind, opening in words.items():
        if of_kind := [u.statement for u in uses if u.kind == kind]:
            said += opening + ", ".join(f"{u.claim.text} [{u.step}]" for u in of_kind)
    return stated.run.endswith(said) and all(
        (opening in stated.run) == any(u.kind == kind for u in uses)
        for kind, opening in words.items())


def moving(stated: Statement) -> set[str]:
    """What moves in the runs of an induction (`stated.over`): its counter, its iterated
    names and every name its update reads that is not constant (none: no induction)."""
    if stated.over is None:
        return set()
    variable, base, step, update, constants = stated.over
    reads = set().union(*(_term_names(t) for _, t in step),  # type: ignore[attr-defined]
                        *(_names(r) for r in update))  # type: ignore[attr-defined]
    return {variable, *(n for n, _ in base), *(n for n, _ in step)} | (  # type: ignore[attr-defined]
        reads - constants)  # type: ignore[operator]


def mentions(stated: Statement) -> set[str]:
    """Every name `stated` reads: its hypotheses and claim and, for an induction, its
    update facts and the terms of its start and update."""
    names = set().union(*map(_names, (*stated.hypotheses, stated.claim)))
    if stated.over is not None:
        _, base, step, update, _ = stated.over
        names |= set().union(*(_term_names(t) for _, t in (*base, *step)),  # type: ignore[misc]
                             *(_names(r) for r in update))  # type: ignore[attr-defined]
    return names


def _one_update(used: Statement, stated: Statement) -> bool:
    """A statement about no run that reads what moves in the induction `stated`."""
    return not used.run and not used.runs and bool(
        set().union(*map(_names, (*used.hypotheses, used.claim))) & moving(stated))


def _names(relation: Rel) -> set[str]:
    """Every name a relation reads, its divisors included."""
    return set().union(*map(names_of, (relation.lhs, relation.rhs, *relation.divisors)))


def _term_names(term: object) -> set[str]:
    """Every name a run's update term reads: a vector as (name, coefficient) pairs, or a
    scalar expression."""
    if isinstance(term, tuple):
        return {n for vector, coefficient in term for n in names_of(coefficient) | {vector}}
    return names_of(term)  # type: ignore[arg-type]
