"""A refuted step's counterexample as a reader meets it: its values of the names that the
refuted obligation mentions (`point_text`: `y = 1, g = 0`), in the certificates' notation
(`verify.render.certificates.assignments`).

Shared by `novikoff check`'s line for a refuted step, the audit's report and the evidence
documents. Here, not in the audit's report (its home until issue 30): `check` printing a
refuted step loaded the whole audit for it, and NumPy and the runs with the audit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Set
from typing import Any

import sympy

from proofs.language.expressions import Relation
from proofs.language.indexed import symbol_names
from verify import kernel
from verify.proof_checker import StepReport


def mentioned(relations: Iterable[kernel.Rel | Relation]) -> frozenset[str]:
    """The scalar, vector and family names `relations` mention (a statement's: `names`): a
    Gram symbol its vectors, a member or a sum the names inside it (the kernel's reading of
    its canonical names, the language's of those its parser built)."""
    symbols = set().union(*(r.lhs.free_symbols | r.rhs.free_symbols for r in relations))
    return frozenset(n for s in symbols for n in _symbol_names(s))


def _symbol_names(symbol: sympy.Symbol) -> frozenset[str]:
    try:
        return frozenset(kernel.atoms.names_of(symbol))
    except kernel.KernelError:
        return symbol_names(symbol)


ANY_POINT = "any point (its refuted obligation names no variable)"
"""A counterexample shown on no names: the refuted obligation is false as it stands."""


def refuted_names(report: StepReport) -> frozenset[str]:
    """The names a refuted step's counterexample is shown on: those of the obligation it
    refutes, as written (an induction's base reads the base's terms: with `s := c` the
    deciding value is c's, and s, which the statement names, decides nothing there; red team
    6 saw `at s = 0` printed for a base `s := -1` that fails at every point), else those of
    the step's statement."""
    for goal in report.goals:
        if goal.status == "refuted" and goal.goal.written is not None:
            hypotheses, claim = goal.goal.written
            return mentioned((*hypotheses, claim))
    stated = report.statement
    return mentioned((*stated.hypotheses, stated.claim) if stated is not None else
                     (*report.step.hypotheses, report.step.claim))


def point_text(report: StepReport) -> str | None:
    """`y = 1, g = 0` for a refuted step: the values of its counterexample that make the
    refuted obligation false (`refuted_names`); `any point` when that obligation names
    nothing (it is false as it stands). One line: a very long number abbreviated (`brief`:
    exactly, or marked approximate), kept whole in the JSON and `explain`."""
    cex = report.counterexample
    if cex is None:
        return None
    from verify.render.certificates import assignments, brief

    return ", ".join(assignments(cex.scalars, cex.vectors, refuted_names(report),
                                 families=cex.families, number=brief)) or ANY_POINT


def seed_words(seed: int | None) -> str:
    """`seed 3`, or for a run no seed drew (a data file's, the protocol's, a shrunk grid's)
    `not drawn from a seed`: every output that names a run's origin says it so (newcomer 19
    read `(seed None)` for a data file's run)."""
    return "not drawn from a seed" if seed is None else f"seed {seed}"


def instance_lines(counterexample: Mapping[str, Any], names: Set[str] | None = None,
                   show: Callable[[str], str] = str) -> list[str]:
    """A counterexample's JSON (`verify.audit.report`, `verify.render.json`) as lines:
    `name = value` per scalar, vector and family member (only `names`, when given); for one
    found on a run, each name bound to an expression and what it denotes on the run (no
    value: none was evaluated), the run quantities no name of the step denotes in the run's
    names, and where the run came from. The terminal and the three documents print run
    counterexamples with this. `show` writes the step's names (a report: as the proof's
    `[notation]` reads, as its formulas and `explain` do; newcomer 21 M1: `ts = (0)` beside
    θ*); the run's own quantities keep the run's names."""
    from verify.render.certificates import assignments

    lines = assignments(counterexample["scalars"], counterexample["vectors"], names, show,
                        families=counterexample.get("families"))
    lines += [f"{show(name)} denotes the run's {text}"
              for name, text in counterexample.get("denotes", {}).items()]
    run = counterexample.get("run")
    if run is not None:
        lines += [line if line.startswith("every other") else f"the run's {line}"
                  for line in assignments(run["scalars"], run["vectors"],
                                          families=run.get("families"))]
    origin = counterexample.get("origin")
    if origin is not None:
        order = "" if origin["order"] is None else f", order {origin['order']}"
        lines.append(f"from the {origin['source']} run {origin['dataset']} "
                     f"({seed_words(origin['seed'])}{order}), iteration {origin['iteration']}")
    return lines or [ANY_POINT]
