"""Which rows of a run are an induction's: the runs an induction's claim speaks of, as the
audit checks and says them.

An induction's claim holds at the states of the runs that start at its base, update by its
step, meet its update facts at every update and count their updates by its counter, and
(where it carries another induction's invariant) keep that invariant at every state. A run
is made by an algorithm, not by the proof, so each of these is checked on the run, or said
unchecked:

- the base: a check at the rows where the counter is 0 (`BASE`, `started`); a run whose
  start is not the base is left out from there on (`Check.starts`, the rows `outside`);
- the update facts: a check at each update (`UPDATES`, `updates_check`), counting those
  that fail them;
- carried invariants: hypotheses of every row, held at every earlier state of its run
  (`carried`, `with_carried`, `Check.carried`);
- the step: a check at each update that the run moves its iterated names as the step says
  (`UPDATE_MAP`, `map_check`);
- the counter: where the step is so checked, a check that the counter is the runs' count of
  updates (`COUNTER`, `counter_check`, `RunKind.counter`).

A run past an update that fails the update facts or moves otherwise than the step is none of
the induction's runs from there on: its later rows are left out (`Check.unmet`, the rows
`past_unmet`; red team 30 A4, newcomer 32 N6).

A step that imports an induction's claim speaks of the same runs, so its rows are limited
the same way and its caveat names the induction (`resting`, `rests_on`). The verdicts on
these checks are read back here too (`started_at`, `base_unchecked`, `updates_unchecked`,
`not_its_runs`), and the words every output prints about them (`caveat`, `base_text`,
`unmet_text`, `map_text`, `counter_text`): one home, so that what is checked and what is
said cannot drift apart.
The numeric side (the masks over a run's rows) is `verify.numeric.instances`
(`CompiledJudgement.outside`, `past_unmet`, `check_in_slices`; each run's first failing
update, `verify.numeric.campaign.first_unmet`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple, Protocol, TypeVar

import sympy

from proofs.language.terms import gram, gram_pair
from proofs.step import Induction, Proof, Step
from verify import kernel
from verify.kernel import Judgement
from verify.numeric.algorithms import naming
from verify.numeric.campaign import Check
from verify.numeric.instances import FIRST, NumericVerdict, first_of
from verify.proof_checker import StepReport, terms
from verify.runs.naming import Defined, Naming, binding_of, on_runs, sorts
from verify.runs.quantity import RunKind


class Audited(Protocol):
    """What this module reads of a step's audit (`verify.audit.job.StepAudit`, which is
    built on this module and so is not imported by it)."""

    @property
    def step(self) -> Step: ...
    @property
    def symbolic(self) -> StepReport: ...
    @property
    def numeric(self) -> NumericVerdict | None: ...
    @property
    def updates(self) -> NumericVerdict | None: ...
    @property
    def base(self) -> NumericVerdict | None: ...
    @property
    def runs_of(self) -> Sequence[Audited]: ...
    @property
    def carries(self) -> Sequence[Audited]: ...
    @property
    def unmet_base(self) -> int: ...
    @property
    def starts(self) -> int: ...
    @property
    def unmet_updates(self) -> int: ...
    @property
    def update_map(self) -> NumericVerdict | None: ...
    @property
    def counter(self) -> NumericVerdict | None: ...
    @property
    def unmet_map(self) -> int: ...
    @property
    def miscounted(self) -> int: ...
    @property
    def constants_unchecked(self) -> str | None: ...


A = TypeVar("A", bound=Audited)


def statement(proof: Proof, stated: kernel.Statement, names: Naming | None = None
              ) -> Judgement:
    """A step's statement as one judgement over run quantities (`verify.runs.naming.on_runs`:
    divisions cleared), each name replaced by what it denotes on runs (`names`, else the
    proof's own `[numeric] names`)."""
    return on_runs(stated, names or naming(proof.numeric, proof))


def caveat(audit: Audited) -> str:
    """What a violation on runs shows for a step whose statement speaks of an induction's
    runs (`StepAudit.off_runs`: the induction itself, or a step importing its claim), in
    words that claim nothing unchecked, as every output prints it."""
    if audit.runs_of and not isinstance(audit.step.rule, Induction):
        verdict = audit.numeric or NumericVerdict.empty()
        return rests_on(audit.runs_of, verdict.outside, verdict.past_unmet, verdict.varying,
                        verdict.miscounted)
    counter = audit.step.rule.variable  # type: ignore[union-attr]  # an Induction here
    if audit.symbolic.status == "proved":
        return ("its induction is proved, so these runs are not the runs it is about: "
                "under the [numeric] names, a run's start, its update, an update fact or "
                f"its count of updates differs from the induction's base, step, given or "
                f"counter {counter}, or one of its constants changes along it (or a trusted "
                "part is wrong: the kernel, the exact runs, the binding of names or the "
                "evaluation of the instances)")
    # each check one item, what it found after a colon, the items apart by semicolons
    # (newcomer 34 N7: run together by "and", the update facts read as failing "them and
    # the base")
    checked = []
    if audit.updates is not None:
        checked.append("the update facts at each update of these runs: " + (
            f"{audit.unmet_updates} of {audit.updates.instances} fail them (the rows of "
            "those runs after such an update are left out)"
            if audit.unmet_updates else "none fails them"))
    if audit.base is not None:  # newcomer 31 F7
        checked.append(f"the base at the {audit.starts} rows where {counter} is 0: " + (
            f"it fails at {audit.unmet_base} (the rows of those runs are left out)"
            if audit.unmet_base else "it holds at each"))
    if audit.update_map is not None:  # newcomer 32 N6
        checked.append(f"the step at each of the {audit.update_map.instances} updates of "
                       "these runs: " + (
                           f"{audit.unmet_map} of them move otherwise (the rows of those "
                           "runs after such an update are left out)" if audit.unmet_map
                           else "each moves as it says"))
    if audit.counter is not None:  # red team 30 A6
        checked.append(f"the counter {counter} at each of the {audit.counter.instances} "
                       "rows: " + (f"not the run's count of updates at {audit.miscounted} "
                                   "of them (those rows are left out)" if audit.miscounted
                                   else "the run's count of updates at each"))
    if audit.numeric is not None and audit.numeric.varied:  # adv32b O2
        varied = audit.numeric.varied
        checked.append("that its constants keep one value along these runs: "
                       f"{', '.join(varied)} {'does' if len(varied) == 1 else 'do'} not (the "
                       "rows of those runs from its change on are left out)")
    said = ("the audit does not check that they do" if not checked else
            f"the audit checks only these: {'; '.join(checked)}")
    # red team 30: a counter bound to `0*t` met every other condition, and the caveat
    # then called a true induction false
    if not audit.constants_unchecked:
        return ("this violation shows the step false only if these runs start, update, "
                "meet the update facts and count their updates as its induction says (base, "
                f"step, given and counter {counter}, under the [numeric] names): {said}")
    # review 33: red team 33 F2's case where the constants are not checked (its step not
    # checked against the runs' updates), once not said at all
    return ("this violation shows the step false only if these runs start, update, "
            "meet the update facts, count their updates and keep its constants at one value "
            f"as its induction says (base, step, given, counter {counter} and constants, "
            f"under the [numeric] names): {said}; it does not check that every one of its "
            f"constants keeps one value along these runs ({audit.constants_unchecked})")


def rests_on(inductions: Sequence[A], outside: int = 0, past: int = 0, varying: int = 0,
             miscounted: int = 0) -> str:
    """The caveat of a violation of a step that imports the claims of `inductions`: its
    statement holds at the states of their runs only, and a row is one only if its run
    starts, updates and meets the update facts as each says (red team 30: `t >= 0 [b] |- t
    <= 0` was a finding, "violated" at t = 1 of runs whose first update broke b's update fact
    y*dot(w, x) <= -1, rows of none of b's runs, and nothing said so). `outside`: how many
    of the step's rows were left out as rows of runs none of theirs (their bases failed);
    `past`: how many as rows of runs after an update that failed an update fact or moved
    otherwise than an induction's step; `varying` and `miscounted`: past a change of an
    induction's constant, and where its counter is not the run's count of updates."""
    said = []
    for ind in inductions:
        if ind.base is None:
            said.append(f"{ind.step.id}'s base is not checked on these runs")
        else:
            said.append(f"{ind.step.id}'s base " + (
                f"fails at {ind.unmet_base} of the {ind.starts} rows where its counter is 0"
                if ind.unmet_base else
                f"holds at each of the {ind.starts} rows where its counter is 0"))
        # first: an induction without update facts has no `updates` either (`updates_check`), and
        # was said to have facts "not checked on these runs" (red team 31 B2)
        if not isinstance(ind.step.rule, Induction) or not ind.step.rule.hypotheses:
            said.append(f"{ind.step.id} has no update facts")
        elif ind.updates is None:
            said.append(f"{ind.step.id}'s update facts are not checked on these runs")
        elif ind.unmet_updates:
            said.append(f"{ind.step.id}'s update facts fail at {ind.unmet_updates} of "
                        f"{ind.updates.instances} updates of these runs (the rows of those "
                        "runs after such an update are left out)")
        else:
            said.append(f"{ind.step.id}'s update facts hold at each of the "
                        f"{ind.updates.instances} updates "
                        "of these runs")
        if ind.update_map is not None:  # newcomer 32 N6
            said.append(f"{ind.step.id}'s step " + (
                f"differs from the run's update at {ind.unmet_map} of "
                f"{ind.update_map.instances} updates of these runs (the rows of those runs "
                "after such an update are left out)" if ind.unmet_map else
                f"is the run's update at each of the {ind.update_map.instances} updates of "
                "these runs"))
        if ind.constants_unchecked:  # review 33 (red team 33 F2's case)
            said.append(f"not every one of {ind.step.id}'s constants is checked to keep one "
                        f"value along these runs ({ind.constants_unchecked})")
        if ind.counter is not None and ind.miscounted:  # red team 30 A6
            said.append(f"{ind.step.id}'s counter is not the run's count of updates at "
                        f"{ind.miscounted} of {ind.counter.instances} rows of these runs "
                        "(those rows are left out where this step's rows make it)")
        if ind.numeric is not None and ind.numeric.varied:  # adv32b O2
            varied = ind.numeric.varied
            said.append(f"{ind.step.id}'s constant{'s' if len(varied) > 1 else ''} "
                        f"{', '.join(varied)} change{'' if len(varied) > 1 else 's'} "
                        "along some of these runs (their rows from there on are left out "
                        "where this step's rows make them)")
        for kept in ind.carries:  # its runs are those where kept's invariant always holds
            broken = (f", which fails at {kept.numeric.violations} of {kept.numeric.instances} "
                      "rows of these runs" if kept.numeric is not None
                      and kept.numeric.violations else "")
            said.append(f"{ind.step.id}'s runs are also those where the invariant of "
                        f"{kept.step.id} holds at every state{broken}")
    ids = ", ".join(ind.step.id for ind in inductions)
    return ("this violation shows the step false only if the run that reaches it is one of "
            f"the runs of {ids}, whose claim{'s' * (len(inductions) > 1)} it uses: a run that "
            "starts, updates, meets the update facts and counts its updates as each induction "
            "says (base, step, given and counter, under the [numeric] names); of these the "
            "audit checks the base, the update facts and, where their rows make what they "
            "read, the step and the counter only: " + "; ".join(said)
            + (f"; the {outside} rows of this step on runs whose start is not a base are left "
               "out" if outside else "")
            + (f"; the {past} rows of this step on runs after an update that fails an update "
               "fact or moves otherwise than the step are left out" if past else "")
            + (f"; the {varying} rows of this step on runs past a change of an induction's "
               "constant are left out" if varying else "")
            + (f"; the {miscounted} rows of this step where an induction's counter is not the "
               "run's count of updates are left out" if miscounted else ""))


def resting(steps: Sequence[A]) -> tuple[A, ...]:
    """`steps`, each that is no induction but imports inductions' claims with the audits of
    those inductions (`StepAudit.runs_of`), read once every step's audit is made."""
    from verify.typeset.statement import inductions_of

    stated = {s.step.id: s.symbolic.statement for s in steps}
    by_id = {s.step.id: s for s in steps}
    by_id = {i: replace(s, carries=tuple(by_id[c] for _, c in carried(stated, s.step)
                                         if c in by_id)) for i, s in by_id.items()}
    return tuple(replace(s, runs_of=tuple(by_id[i] for i in inductions_of(st, stated)
                                          if i in by_id))
                 if (st := s.symbolic.statement) is not None and st.runs
                 and not isinstance(s.step.rule, Induction) else s for s in steps)


def not_its_runs(step: A) -> A:
    """`step`, or, when every row of its runs was left out as a row of runs that start
    elsewhere than its induction's base (newcomer 31 F7), the same step not run on them
    (`numeric` None, `reason` saying why). Rows of runs past an update that fails the
    update facts are left out row by row (`NumericVerdict.past_unmet`, red team 30 A4):
    newcomer 28 F8's proved induction, "violated" at states after updates none of which met
    `eta > 0`, was once made not run here as a whole, its runs' start states (states of its
    runs all the same) with them; its verdict is now the one on those states."""
    numeric = step.numeric
    left = numeric.past_unmet + numeric.varying + numeric.miscounted if numeric else 0
    # newcomer 31 F7: every row off a base, and only so (review 33: rows left out for other
    # reasons beside them were once said to start elsewhere too)
    if numeric is not None and numeric.outside and not numeric.instances and not left:
        whose = ("its base" if isinstance(step.step.rule, Induction) else
                 "the base of an induction whose claim it uses")
        return replace(step, numeric=None, reason=(
            f"every run it was checked on starts elsewhere than {whose} (under the [numeric] "
            f"names): none of their {numeric.outside} rows is a state of the runs its "
            "statement speaks of"))
    if numeric is not None and left and not numeric.instances:  # memb33
        return replace(step, numeric=None, reason=(
            f"every row of the runs it was checked on was left out ({numeric.outside} off a "
            f"base, {numeric.past_unmet} past an update that fails an induction's update "
            f"facts or step, {numeric.varying} past a change of an induction's constant, "
            f"{numeric.miscounted} where an induction's counter is not the run's count of "
            "updates; under the [numeric] names): none is a state of the runs its statement "
            "speaks of"))
    return step


def updates_unchecked(step: Step, name: str, found: Mapping[str, NumericVerdict],
                      planned: Mapping[str, str]) -> str | None:
    """Why the update facts of an induction checked on runs were not checked on them (its
    plan's reason, `updates_check`, in `planned`; or no update of its runs evaluated), None
    when they were, or for a step not checked on runs or with no update facts. `found`: the
    audit's verdicts that evaluated some row, by check name."""
    if (found.get(name) is None or not isinstance(step.rule, Induction)
            or not step.rule.hypotheses or found.get(name + UPDATES) is not None):
        return None
    return planned.get(name, "none of the updates of its runs was evaluated")


def started_at(verdict: NumericVerdict | None) -> NumericVerdict | None:
    """An induction's base check (`BASE`, a verdict that evaluated some row), or None when
    no row it evaluated has the counter at 0 (nothing checked: `base_unchecked` says so)."""
    return verdict if verdict is not None and verdict.instances > verdict.vacuous else None


def base_unchecked(step: Step, name: str, found: Mapping[str, NumericVerdict],
                   planned: Mapping[str, str], unchecked: Mapping[str, str]) -> str | None:
    """Why the base of an induction checked on runs was not checked on them (`started`,
    its reason in `planned`; the kernel did not confirm a row off the base, `unchecked`; or
    no row of them evaluated has its counter at 0: red team 30 A6, a counter bound to
    another quantity), None when it was, or for a step not checked on runs or no induction.
    `found`: the audit's verdicts that evaluated some row, by check name."""
    if (found.get(name) is None or not isinstance(step.rule, Induction)
            or started_at(found.get(name + BASE)) is not None):
        return None
    if name + BASE in unchecked:
        return unchecked[name + BASE]
    return planned.get(name, f"its counter {step.rule.variable} is 0 at no row of its runs "
                       "that the audit evaluated (under the [numeric] names), so none is "
                       "known to be a run's start")


#: Each induction's counter gap and constants' gaps on a row set, by (induction, row set):
#: made once per proof (`_membership`), read by the checks of its steps (`started`).
Gaps = tuple[sympy.Expr | None, tuple[tuple[str, sympy.Expr], ...]]


def on_its_runs(step: Step, check: Check, proof: Proof,
                stated: Mapping[str, kernel.Statement | None], names: Naming,
                starts: dict[str, Judgement | str | None],
                gaps: dict[tuple[str, str], Gaps] | None = None
                ) -> tuple[tuple[Check, ...], Unchecked]:
    """`step`'s check on runs (`check`) limited to the runs its statement speaks of
    (`started`: starts, the update-facts and update-map checks whose failing updates leave
    rows out, its counters and constants), then, for an induction, the checks of those
    runs: its base, its step and, where the step is checked, its counter, its update facts
    (in this order); with why each of these four is not checked (`Unchecked`: every output
    says so, memb33: a step or a counter left unchecked was said by a violation's caveat
    only, and a verdict that held read as if it had been checked). `starts`, `gaps`: each
    induction's start and gaps, made once per proof."""
    check, base = started(step, check, proof, stated, names, starts, gaps)
    made = [check]
    if isinstance(base, Check):
        made.append(base)
    mapped = map_check(step, stated[step.id], proof, names, check)
    counted: Check | str | None = None
    if isinstance(mapped, Check):  # its steps are its runs' updates: then count them
        made.append(mapped)
        counted = counter_check(step, stated[step.id], proof, names, check)
        if isinstance(counted, Check):
            made.append(counted)
    elif isinstance(mapped, str) and isinstance(step.rule, Induction) and \
            _quantity(step.rule.variable, names) != check.kind.counter:  # else the count
        counted = ("its step is not checked against its runs' updates, so neither is that "
                   "its counter counts them")
    constants = None
    if isinstance(mapped, str) and (moving := fixed_gaps(step, proof, names, check.kind)):
        named = ", ".join(c for c, _ in moving)
        constants = (f"its step is not checked against its runs' updates, so its runs are not "
                     f"known to be the algorithm's, and {named}, which read"
                     f"{'s' * (len(moving) == 1)} quantities its runs do not hold fixed, "
                     f"{'is' if len(moving) == 1 else 'are'} not checked to keep one value "
                     "along them")
    elif isinstance(mapped, Check):
        constants = skipped_constants(step, proof, names, check)
    updates = updates_check(step, stated[step.id], proof, names, check)
    if isinstance(updates, Check):
        made.append(updates)
    return tuple(made), Unchecked(*(r if isinstance(r, str) else None
                                    for r in (base, updates, mapped, counted, constants)))


class Unchecked(NamedTuple):
    """Why each check of an induction's runs was not made on the runs its claim is checked
    on (None: made, or nothing to check: no induction, no update facts, a counter that is
    the count itself)."""

    base: str | None = None
    updates: str | None = None
    step: str | None = None
    counter: str | None = None
    constants: str | None = None


def unchecked(step: Step, name: str, found: Mapping[str, NumericVerdict],
              planned: Mapping[str, str]) -> str | None:
    """Why a check of an induction checked on runs was not made (`planned`, by step name:
    `Unchecked.step`, `Unchecked.counter`), None when it was, or for a step with no verdict
    on runs (`found`: the audit's verdicts that evaluated some row, by check name)."""
    if found.get(name) is None or not isinstance(step.rule, Induction):
        return None
    return planned.get(name)


def started(step: Step, check: Check, proof: Proof,
             stated: Mapping[str, kernel.Statement | None], names: Naming,
             starts: dict[str, Judgement | str | None],
             gaps: dict[tuple[str, str], Gaps] | None = None
             ) -> tuple[Check, Check | str | None]:
    """`check` with the starts of the inductions whose runs its rows must be (`Check.
    starts`: its own, or those whose claims its statement imports), each where its rows
    make every quantity the start reads; and, for an induction, the check of its base on
    the rows where its counter is 0 (`_start`; its `instances - vacuous` those rows, its
    `violations` those where the iterated names are not at the base), or why there is
    none; None for any other step. `Check.unmet` too: the update-facts checks of those
    inductions that have update facts, whose failing updates leave the later rows of their
    runs out. Newcomer 31 F7: batch runs from -u and a seeded start
    made a proved induction from 0 "violated on runs" (rows of none of its runs); red team
    30 A4: a step resting on an induction was read on rows of runs none of that
    induction's."""
    own = stated[step.id]
    if isinstance(step.rule, Induction):
        ids: tuple[str, ...] = (step.id,)
    elif own is not None and own.runs:
        from verify.typeset.statement import inductions_of

        ids = inductions_of(own, stated)
    else:
        return check, None
    by_id = {s.id: s for s in proof.steps}
    pairs = []
    for ind in ids:
        if ind not in starts:
            starts[ind] = _start(by_id[ind], stated.get(ind), proof, names) \
                if ind in by_id else None
        start = starts[ind]
        if isinstance(start, Judgement) and _binds(start, check, names):
            pairs.append((start.hypotheses[0], start.claim))
    if pairs:
        check = replace(check, starts=tuple(pairs))
    # memb33, adv32b O2: and, row by row, those where each induction's counter is the
    # run's count of updates, and those of its runs along which its constants keep one value
    gaps = {} if gaps is None else gaps
    counted, fixed = [], []
    for ind in ids:
        if ind in by_id and (ind, check.binding) not in gaps:
            gaps[ind, check.binding] = _membership(by_id[ind], stated.get(ind), proof, names,
                                                   check)
        counter, constants = gaps.get((ind, check.binding), (None, ()))
        counted += [counter] if counter is not None else []
        # an induction's own by name, another's as `a's c` (the schema's `varied`; review
        # 33: a step resting on one induction named its constant as its own)
        fixed += [(c if ind == step.id else f"{ind}'s {c}", gap) for c, gap in constants]
    if counted or fixed:
        check = replace(check, counted=tuple(counted), fixed=tuple(fixed))
    # red team 30 A4: and those of its runs that meet each induction's update facts at every
    # update so far (`updates_check`, checked on the same runs' rows per update first)
    proof_name = check.name.rsplit("/", 1)[0]
    unmet = tuple(f"{proof_name}/{ind}{UPDATES}" for ind in ids if ind in by_id
                  and isinstance(rule := by_id[ind].rule, Induction) and rule.hypotheses)
    # newcomer 32 N6: and that update as their steps say (`map_check`)
    unmet += tuple(f"{proof_name}/{ind}{UPDATE_MAP}" for ind in ids if ind in by_id)
    if unmet:
        check = replace(check, unmet=unmet)
    if not isinstance(step.rule, Induction):
        return check, None
    start = starts[step.id]
    if not isinstance(start, Judgement):
        return check, start
    defined = names.evaluated(start)
    binding = binding_of(start, check.kind, defined)
    if binding is None:
        return check, _unstarted(start, check, defined, step.rule.variable)
    if not pairs:  # its own rows cannot be left out: the base is said unchecked, never
        # said to leave rows out that it did not
        scalars, vectors = sorts(start, defined)
        missing = sorted((scalars | vectors) - check.kind.names(check.binding))
        if not missing:  # red team 32 F1: the rows make it (its claim may read it too)
            named = ", ".join(d.name for d in defined)
            return check, (f"its base reads {named}, a [define]d name, which the audit does "
                           "not evaluate at a run's start, so no row of its runs is known to "
                           "be one")
        return check, (f"the rows its claim is checked on ({check.kind.name}: "
                       f"{check.binding}) do not make {', '.join(missing)}, which the check "
                       f"of its base reads (its counter {step.rule.variable} and the names "
                       "it iterates, under the [numeric] names), so no row of them is known "
                       "to be a run's start")
    return check, Check(check.name + BASE, start, binding, check.algorithm, check.plugin,
                        defined, families=check.reads_families)


def _membership(step: Step, stated: kernel.Statement | None, proof: Proof, names: Naming,
                check: Check) -> Gaps:
    """An induction's gaps on `check`'s rows (a check of its own or of a step resting on
    it), where its step is checked against its runs' updates (`map_check`: its runs are
    then the algorithm's): its counter's, `counter - count` under the [numeric] names,
    where its counter is checked (`counter_check`), and each constant's that its kind does
    not hold fixed (`fixed_gaps`), each only where those rows make what it reads."""
    if not isinstance(map_check(step, stated, proof, names, check), Check):
        # its steps are not known to be its runs' updates (a step over a batch's members,
        # over an epoch's presentations): its runs may be none of the algorithm's, whose
        # count or first row then mean nothing to it
        return None, ()
    counted = counter_check(step, stated, proof, names, check)
    counter = counted.judgement.hypotheses[0].expr if isinstance(counted, Check) else None
    made = check.kind.names(check.binding)
    fixed = tuple((c, gap) for c, gap in fixed_gaps(step, proof, names, check.kind)
                  if _gap_reads(gap) <= made)
    return counter, fixed


def _gap_reads(gap: sympy.Expr) -> set[str]:
    """The run quantities a constant's gap (`fixed_gaps`) reads, its `FIRST` copies read as
    the quantities they copy: the rows must make these for the gap to be checked there."""
    return {n for s in gap.free_symbols for n in (gram_pair(first_of(s)) or (first_of(s).name,))}


def skipped_constants(step: Step, proof: Proof, names: Naming, check: Check) -> str | None:
    """For an induction whose step is checked against its runs' updates (its constants are
    then checked on the rows its claim is checked on, `_membership`): which of its constants
    that check skips, and why, or None (ends35: both were skipped without a line, and the
    proof read as if every constant had been checked). A constant that is a `[define]`d name
    (a definition is evaluated at each row, never against a run's first row), and one that
    reads quantities those rows do not make (its update facts or step read it, its claim
    does not: the rows per update are not where constants are checked)."""
    if not isinstance(step.rule, Induction):
        return None
    iterated = step.rule.moving_constants()
    defined = [c for c in step.rule.constants if c in names.defined and c not in iterated]
    made = check.kind.names(check.binding)
    unmade = [c for c, gap in fixed_gaps(step, proof, names, check.kind)
              if not _gap_reads(gap) <= made]
    parts = []
    if defined:
        kind = "a [define]d name" if len(defined) == 1 else "[define]d names"
        parts.append(f"{', '.join(defined)} ({kind}: a definition is evaluated at each row, "
                     "never compared with its value at a run's first row)")
    if unmade:
        reads = "it reads" if len(unmade) == 1 else "they read"
        parts.append(f"{', '.join(unmade)} ({reads} quantities the rows its claim is "
                     f"checked on ({check.kind.name}: {check.binding}) do not make; "
                     "constants are checked on those rows only, not on its rows per update)")
    if not parts:
        return None
    one = len(defined) + len(unmade) == 1
    return (f"of its constants, {' and '.join(parts)} {'is' if one else 'are'} not checked "
            "to keep one value along its runs")


def fixed_gaps(step: Step, proof: Proof, names: Naming, kind: RunKind
               ) -> tuple[tuple[str, sympy.Expr], ...]:
    """For an induction, each of its declared constants that denotes (under the [numeric]
    names) a term reading a quantity `kind` does not hold fixed along a run (`RunKind.
    fixed`), with its gap: the square of its change since the run's first row (for a
    vector the squared norm of it), over the quantities and their `FIRST` copies, 0 exactly
    where it has its first row's value (adv32b O2: a constant bound to a quantity that
    varies along a run was read as a constant, a verdict resting on it). A constant bound
    to a [define]d name is not checked; nor is a family (each run's whole, one per run),
    nor any constant of another step."""
    from proofs.language.terms import Vec, norm2

    if not isinstance(step.rule, Induction):
        return ()
    out = []
    for c in step.rule.constants:
        if c in names.defined or c in step.rule.moving_constants() or c in proof.indexed:
            continue  # a family denotes its run's whole (dataset, history): one per run
        term: Vec | sympy.Expr
        if c in proof.vectors:
            term = Vec(dict(names.vectors[c])) if c in names.vectors else Vec.named(c)
            symbols = {*(sympy.Symbol(q) for q in term),
                       *(s for k in term.values() for s in sympy.sympify(k).free_symbols)}
        else:
            term = names.scalars.get(c, sympy.Symbol(c))
            symbols = set(term.free_symbols)
        read = {n for s in symbols for n in (gram_pair(s) or (s.name,))}
        if read <= kind.fixed:
            continue
        first = {s: gram(*(n + FIRST for n in pair)) if (pair := gram_pair(s)) else
                 sympy.Symbol(s.name + FIRST) for s in symbols}
        if isinstance(term, Vec):
            moved = Vec({q: sympy.sympify(k).xreplace(first) for q, k in term.items()})
            gap = norm2(term - Vec({q + FIRST: k for q, k in moved.items()}))
        else:
            gap = (term - term.xreplace(first)) ** 2
        out.append((c, sympy.expand(gap)))
    return tuple(out)


def _unstarted(start: Judgement, check: Check, defined: Sequence[Defined], counter: str
               ) -> str:
    """Why no row of `check`'s runs binds an induction's `start` (`_start`): the quantities
    the row set nearest to it lacks, its counter named apart (a counter that is no run
    quantity leaves no row known to be a run's start)."""
    scalars, vectors = sorts(start, defined)
    rows, missing = min(((r.name, sorted((scalars | vectors) - check.kind.names(r.name)))
                         for r in check.kind.row_sets), key=lambda pair: len(pair[1]))
    counted = {n for s in start.hypotheses[0].expr.free_symbols
               for n in (gram_pair(s) or (s.name,))}
    if counted & set(missing):
        return (f"its counter {counter} is no quantity of its runs' rows ({check.kind.name}, "
                "under the [numeric] names), so no row is known to be a run's start")
    return (f"the rows of its runs ({check.kind.name}: {rows}) do not make "
            f"{', '.join(missing) or 'every quantity'}, which its base reads under the "
            "[numeric] names")


def _binds(start: Judgement, check: Check, names: Naming) -> bool:
    """Whether the rows `check` is read on make every quantity of an induction's start."""
    defined = names.evaluated(start)
    if defined:  # a [define]d name: its column is made for the checks that read it only
        return False
    scalars, vectors = sorts(start, defined)
    return not (scalars | vectors) - check.kind.names(check.binding)


#: The name of an induction's base check is its step's name and this (`_start`).
BASE = " base"


def _start(step: Step, stated: kernel.Statement | None, proof: Proof, names: Naming
           ) -> Judgement | str | None:
    """For an induction: the judgement `counter == 0 |- iterated == base` under the
    [numeric] names (one equation: the squared norms of the iterated vectors' differences
    from their base, and the squares of the iterated scalars', add up to 0), which a run
    of the induction meets at its state after 0 updates; why it cannot be formed (a base
    that divides, a statement the kernel does not read); None for any other step."""
    if not isinstance(step.rule, Induction) or stated is None:
        return None
    rule = step.rule
    gap = _gap(terms(dict(rule.base)), {n: n for n in rule.base})
    if gap is None:
        return "it divides, which the audit does not evaluate at the start"
    written = rule.written.get("base", {})
    text = ", ".join(f"{n} = {written.get(n, rule.base[n])}" for n in rule.base)
    counter = kernel.Rel(sympy.Symbol(rule.variable), "==", sympy.Integer(0),
                         f"{rule.variable} == 0")
    return _judged(step, stated, proof, names, (counter,),
                   kernel.Rel(sympy.expand(gap), "==", sympy.Integer(0), text))


def _gap(assigned: Mapping[str, object], target: Mapping[str, str]) -> sympy.Expr | None:
    """The sum of the squared norms of `target[name] - term` over the vectors `assigned`
    gives a term (a dict of vector coefficients), and of the squares of the scalars':
    0 exactly where every name `target` names has its term's value (an induction's base at
    its start, `_start`; its step's next value after an update, `map_check`). None when a
    scalar's term divides by a name, which the rows do not evaluate."""
    from proofs.language.terms import Vec, norm2

    gap: sympy.Expr = sympy.Integer(0)
    for name, term in assigned.items():
        if isinstance(term, dict):
            gap += norm2(Vec.named(target[name]) - Vec(term))
        else:
            if sympy.fraction(sympy.together(term))[1].free_symbols:
                return None
            gap += (sympy.Symbol(target[name]) - term) ** 2  # type: ignore[operator]
    return gap


def _judged(step: Step, stated: kernel.Statement, proof: Proof, names: Naming,
            hypotheses: tuple[kernel.Rel, ...], claim: kernel.Rel, subject: str = "it is"
            ) -> Judgement | str:
    """The judgement `hypotheses |- claim` of `step`'s runs under the [numeric] names (with
    the step's naturals), or why it is none (`subject`: what the reason speaks of)."""
    try:
        return statement(proof, kernel.Statement(step.id, hypotheses, ("",) * len(hypotheses),
                                                 claim, stated.naturals), names)
    except kernel.KernelError as error:
        return (f"with the [numeric] names replaced {subject} no statement the kernel reads "
                f"({error})")


def carried(stated: Mapping[str, kernel.Statement | None], step: Step
             ) -> tuple[tuple[kernel.Rel, str], ...]:
    """The invariants `step` carries, each with the step it is the claim of: the claims of
    the inductions over the same runs it uses (none unless it is an induction)."""
    own = stated[step.id]
    if own is None or own.over is None:
        return ()
    return tuple((used.claim, use.step) for use in step.uses
                 if (used := stated.get(use.step)) is not None and used.over == own.over)


def with_carried(stated: Mapping[str, kernel.Statement | None], step: Step
             ) -> kernel.Statement | None:
    """The statement `step`'s rows are checked against: its own, and for an induction that
    carries another's invariant (a used induction over the same runs), that invariant among
    its hypotheses. The theorem speaks of the runs where the carried invariant holds at every
    state (the kernel's statement says so: "where at every state ..."), so a row where it
    fails is no instance of it (vacuous, as where a hypothesis fails), not a violation (red
    team 29 F3: `b`, carrying a false `a`, was violated on exactly the rows where `a` was);
    nor is a row of a run that broke it at an earlier state (red team 30: `Check.carried`)."""
    own = stated[step.id]
    kept = carried(stated, step)
    return replace(own, hypotheses=(*own.hypotheses, *(c for c, _ in kept)),  # type: ignore[type-var]
                   origins=(*own.origins, *(u for _, u in kept))) if kept else own  # type: ignore[union-attr]


#: The name of an induction's update-facts check is its step's name and this (`updates_check`).
UPDATES = " update facts"
TRUE = kernel.Rel(sympy.Integer(0), ">=", sympy.Integer(0), "0 >= 0")


def updates_check(step: Step, stated: kernel.Statement | None, proof: Proof, names: Naming,
             check: Check) -> Check | str | None:
    """For an induction with update facts, checked on runs (`check`): the check whose
    hypotheses are its update facts (under the [numeric] names) and whose claim holds
    everywhere, on the rows that bind them, so that it counts the updates of these runs
    (`instances`) and those where an update fact fails (`vacuous`): its claim is about runs
    whose every update meets them, and nothing else checks that these runs do. Why they
    cannot be checked there (every output says so: a reader would take silence for checked)
    when its runs have no row per update (cyclic runs, a kind of the user's without one),
    or those rows do not make a quantity they read; None for any other step."""
    if not isinstance(step.rule, Induction) or not step.rule.hypotheses or stated is None:
        return None
    from verify.proof_checker import relation

    judgement = _judged(step, stated, proof, names,
                        tuple(relation(r) for r in step.rule.hypotheses), TRUE, "they are")
    if isinstance(judgement, str):
        return judgement
    defined = names.evaluated(judgement)
    scalars, vectors = sorts(judgement, defined)
    rows = _update_rows(check)
    if rows is None:
        return f"its runs ({check.kind.name}) have no row per update"
    missing = sorted((scalars | vectors) - check.kind.names(rows))
    if missing or binding_of(judgement, check.kind, defined) is None:
        return (f"the rows per update of its runs ({check.kind.name}: {rows}) do not make "
                + (f"{', '.join(missing)}, which they read under the [numeric] names"
                   if missing else "every quantity they read under the [numeric] names"))
    return Check(check.name + UPDATES, judgement, rows, check.algorithm, check.plugin,
                 defined, families=check.reads_families)


#: The name of an induction's update-map check is its step's name and this (`map_check`).
UPDATE_MAP = " update map"
#: The name of an induction's counter check is its step's name and this (`counter_check`).
COUNTER = " counter"
#: The suffixes of the checks this module adds beside a step's own (an induction's base,
#: update facts, update map and counter): what counts a step's own instances leaves them out
#: (`benchmarks/audit.py`: its "same instance count serially and with 2 jobs" compares steps').
MEMBERSHIP = (BASE, UPDATES, UPDATE_MAP, COUNTER)


def _one_fact(step: Step, stated: kernel.Statement, proof: Proof, names: Naming,
              gap: sympy.Expr, text: str) -> Judgement | str:
    """The judgement `gap == 0 |- 0 >= 0` under the [numeric] names (its hypothesis fails
    exactly where `gap` is not 0: a check of it counts those rows as `vacuous`, and a
    violation, which the kernel would have to confirm, is impossible), or why it is none."""
    return _judged(step, stated, proof, names,
                   (kernel.Rel(sympy.expand(gap), "==", sympy.Integer(0), text),), TRUE)


def _update_rows(check: Check) -> str | None:
    """The name of the row set of `check`'s runs with a row per update, None if they have
    none (cyclic runs, a run kind of the user's without one)."""
    return next((r.name for r in check.kind.row_sets if r.updates), None)


def _quantity(name: str, names: Naming) -> str | None:
    """The run quantity a proof's name denotes when it denotes one plainly (unbound: the
    quantity of its own name; bound to `q` itself), else None (bound to an expression)."""
    if name in names.vectors:
        vec = names.vectors[name]
        return next(iter(vec)) if len(vec) == 1 and vec[next(iter(vec))] == 1 else None
    if name in names.scalars:
        term = names.scalars[name]
        return term.name if isinstance(term, sympy.Symbol) else None
    return name


def map_check(step: Step, stated: kernel.Statement | None, proof: Proof, names: Naming,
              check: Check) -> Check | str | None:
    """For an induction checked on runs (`check`): the check, on its runs' rows per update,
    that each update moves its iterated names as its step says (newcomer 32 N6: an induction
    whose step is `v - a*d` on runs doing `v + a*d` was refuted, and "runs: held" was shown
    in green beside it, on runs none of its). The next value of an iterated name bound to a
    run quantity `q` is the quantity `q_next` of the same rows (`w_next`, `theta_next`); the
    check's hypothesis is that the squared norms of the differences, and the squares of the
    scalars', add up to 0, so it counts the updates (`instances`) and those where the run
    moves otherwise (`vacuous`), and other checks leave the later rows of those runs out as
    for a failing update fact (`Check.unmet`). Why it cannot be made (every output that
    names what the audit checks leaves it out then); None for any other step."""
    if not isinstance(step.rule, Induction) or stated is None:
        return None
    rows = _update_rows(check)
    if rows is None:
        return f"its runs ({check.kind.name}) have no row per update"
    made = check.kind.names(rows)
    declared = {*proof.scalars, *proof.vectors}
    gap: sympy.Expr = sympy.Integer(0)
    for name, term in terms(dict(step.rule.step)).items():
        quantity = _quantity(name, names)
        after = f"{quantity}_next" if quantity is not None else None
        if after is None or after not in made or after in declared:
            return (f"{name} denotes no run quantity whose next value the rows per update of "
                    f"its runs ({check.kind.name}: {rows}) make, under the [numeric] names")
        if (part := _gap({name: term}, {name: after})) is None:
            return "its step divides, which the audit does not evaluate on runs"
        gap += part
    written = step.rule.written.get("step", {})
    text = ", ".join(f"{n}' = {written.get(n, step.rule.step[n])}" for n in step.rule.step)
    judgement = _one_fact(step, stated, proof, names, gap, text)
    if isinstance(judgement, str):
        return judgement
    defined = names.evaluated(judgement)
    if defined:
        return "its step reads a [define]d name, which the rows per update do not make"
    scalars, vectors = sorts(judgement, defined)
    missing = sorted((scalars | vectors) - made)
    if missing or binding_of(judgement, check.kind, defined) is None:
        return (f"the rows per update of its runs ({check.kind.name}: {rows}) do not make "
                f"{', '.join(missing) or 'every quantity its step reads'}, under the "
                "[numeric] names")
    return Check(check.name + UPDATE_MAP, judgement, rows, check.algorithm, check.plugin,
                 families=check.reads_families)


def counter_check(step: Step, stated: kernel.Statement | None, proof: Proof, names: Naming,
                  check: Check) -> Check | str | None:
    """For an induction checked on runs (`check`): the check, on the rows its claim is
    checked on, that its counter (under the [numeric] names) is the run's count of updates
    before the row's state (`RunKind.counter`: `t` of online runs, `k` of batch runs). Red
    team 30 A6: a counter bound to `2*t` met every other condition the audit checks, and
    nothing said that the rows were no states "after k updates". Its hypothesis is
    `counter == count`: it counts the rows (`instances`) and those where the counter is not
    the count (`vacuous`). Made only where the induction's steps are its runs' updates: its
    update map is checked (`map_check`, the caller) and its step does not read its counter
    (Telgarsky's `w + ind[t+1]*xy[t+1]` steps over visits, counted by time; a sum's partial
    sums step over a batch's members, counted by `i`). Why it cannot be made; None for any
    other step, or where the counter is the count itself (nothing to check)."""
    if not isinstance(step.rule, Induction) or stated is None:
        return None
    count = check.kind.counter
    if count is None:
        return f"its runs ({check.kind.name}) name no count of their updates"
    variable = step.rule.variable
    if _quantity(variable, names) == count:
        return None
    if any(re.search(rf"\b{re.escape(variable)}\b", str(term))
           for term in (*step.rule.step.values(), *step.rule.step)):
        # a step indexed by its counter (`xy[t+1]`, an indicator `ind[t+1]`): its steps are
        # visits, some of which update nothing, and its counter counts those
        # (num35 F2: it said "its steps are not its runs' updates", untrue of a step that
        # reads its counter and is checked to be their update, `w + y*x + t*(y**2 - 1)*x`)
        return (f"its step reads its counter {variable}, so its steps may be visits that "
                "update nothing (`xy[t+1]`), which its counter then counts: it is not "
                "compared with its runs' count of updates")

    judgement = _one_fact(step, stated, proof, names,
                          sympy.Symbol(variable) - sympy.Symbol(f"{count}__count"),
                          f"{variable} == {count}")
    if isinstance(judgement, str):
        return judgement
    fact = judgement.hypotheses[0]
    judgement = replace(judgement, hypotheses=(kernel.Fact(fact.expr.subs(
        sympy.Symbol(f"{count}__count"), sympy.Symbol(count)), fact.kind),))
    defined = names.evaluated(judgement)
    if defined or binding_of(judgement, check.kind, defined) is None \
            or not ({s.name for s in judgement.symbols()} <= check.kind.names(check.binding)):
        return (f"the rows its claim is checked on ({check.kind.name}: {check.binding}) do "
                f"not make what its counter {variable} denotes under the [numeric] names")
    return Check(check.name + COUNTER, judgement, check.binding, check.algorithm,
                 check.plugin, families=check.reads_families)


def map_text(step: Audited) -> str:
    """What the updates of a step's runs that move otherwise than its induction's step mean
    for its verdict (newcomer 32 N6: "runs: held" beside a refuted induction whose step was
    not the runs' update, and nothing said so)."""
    assert step.update_map is not None
    count = (f"all {step.update_map.instances}"
             if step.unmet_map == step.update_map.instances
             else f"{step.unmet_map} of {step.update_map.instances}")
    return (f"its runs update otherwise than its step at {count} updates (under the "
            "[numeric] names): from such an update on, a run is none of the runs its "
            "induction is about, so its rows after it are left out of its verdict, and of "
            "those of the steps that use its claim (neither instances nor vacuous)")


def counter_text(step: Audited) -> str:
    """What rows where an induction's counter is not the run's count of updates mean for
    its verdict (red team 30 A6: a counter bound to `2*t`)."""
    assert step.counter is not None and isinstance(step.step.rule, Induction)
    count = (f"all {step.counter.instances}" if step.miscounted == step.counter.instances
             else f"{step.miscounted} of the {step.counter.instances}")
    return (f"its counter {step.step.rule.variable} is not the run's count of updates at "
            f"{count} rows of the runs it was checked on (under the [numeric] names): such a "
            "row is its run's state after another number of updates than its counter says, "
            "no state its induction speaks of at that count, so it is left out of its "
            "verdict, and of those of the steps that use its claim whose rows make what its "
            "counter reads (neither instances nor vacuous)")


def constants_text(step: Audited) -> str:
    """What the rows of an induction's runs past a change of one of its constants mean for
    its verdict (adv32b O2: a constant bound to a quantity that varies along a run was read
    as a constant at every row, and its verdict rested on it)."""
    assert step.numeric is not None and isinstance(step.step.rule, Induction)
    varied = step.numeric.varied
    return (f"its constant{'s' * (len(varied) > 1)} {', '.join(varied)} "
            f"take{'s' * (len(varied) == 1)} another value along some of the runs it was "
            "checked on than at their first row (under the [numeric] names): from the state "
            "of such a row on (that state's rows before it included: a state's rows share "
            "its iteration), a run is none of the runs its induction is about (a constant "
            f"keeps one value along them), so its {step.numeric.varying} rows there are left "
            "out of its verdict, and of those of the steps that use its claim whose rows make "
            "what the constant reads (neither instances nor vacuous)")


def unmet_text(step: Audited) -> str:
    """What the updates of a step's runs that fail its induction's update facts mean for its
    verdict on those runs (newcomer 19: nothing said that the runs of a strict update
    `y<w,x> < 0` update on `<= 0`; the caveat came only with a violation)."""
    assert step.updates is not None
    count = (f"all {step.updates.instances}" if step.unmet_updates == step.updates.instances
             else f"{step.unmet_updates} of {step.updates.instances}")
    return (f"its update facts fail at {count} updates of the runs it was checked on (under "
            "the [numeric] names): from such an update on, a run is none of the runs its "
            "induction is about, so its rows after it are left out of its verdict, and of "
            "those of the steps that use its claim (neither instances nor vacuous)")


def base_text(step: Audited) -> str:
    """What the rows of an induction's runs whose start is not its base mean for its verdict
    (newcomer 31 F7: batch runs from -u and a seeded start made a proved induction from 0
    "violated on runs", with a caveat only)."""
    assert step.base is not None and isinstance(step.step.rule, Induction)
    counter = step.step.rule.variable
    count = (f"all {step.starts}" if step.unmet_base == step.starts
             else f"{step.unmet_base} of the {step.starts}")
    return (f"its base fails at {count} rows of the runs it was checked on where its counter "
            f"{counter} is 0 (under the [numeric] names): from such a row on, a run is none of "
            f"the runs its induction is about (it starts elsewhere, or {counter} does not count "
            "its updates), so its rows there are left out of its verdict, and of those of "
            "the steps that use its claim whose rows make what its base reads (neither "
            "instances nor vacuous)")
