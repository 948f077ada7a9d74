"""Renderings of an audit: the JSON contract of docs/design.md §6 and a terminal summary.

Nothing time-dependent goes into the JSON, so two audits with the same seed and budget give
identical reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from perceptron.errors import printable
from proofs.library import CANONICAL
from verify.audit.citations import proof_source
from verify.audit.job import UNREPORTED, Audit, ProofAudit, StepAudit, as_counterexample
from verify.audit.membership import (
    base_text,
    constants_text,
    counter_text,
    map_text,
    unmet_text,
)
from verify.kernel import Statement
from verify.numeric.campaign import ROWS_NOT_MADE
from verify.numeric.instances import NumericVerdict
from verify.render import json as serialize
from verify.runs.columns import Instance
from verify.runs.naming import ProofPoint
from verify.typeset.points import instance_lines, point_text
from verify.typeset.statement import statement_text, statements_of
from verify.typeset.words import counted

Json = dict[str, Any]


def to_json(audit: Audit) -> Json:
    """`{"proofs": [...], "summary": {...}}` as in docs/design.md §6."""
    proofs = [_proof(p) for p in audit.proofs]
    return {"proofs": proofs, "summary": _summary(audit)}


def _proof(audit: ProofAudit) -> Json:
    stated = statements_of(s.symbolic for s in audit.steps)
    out: Json = {
        "id": audit.id,
        "title": audit.proof.title,
        "source": source(audit),
        "status": audit.status,
        "steps": [_step(s, stated) for s in audit.steps],
    }
    if audit.data_files:  # only then: an audit without data files reads as it did
        out["data"] = {"instances": audit.data_instances,
                       "files": [{"path": f.path, "examples": f.examples}
                                 for f in audit.data_files]}
    return out


def data_lines(audit: Audit) -> list[str]:
    """The data files each proof's steps were run on, with their examples and the
    instances their runs gave (newcomer 19 found them said nowhere: whether a proof's
    `[numeric] data` was run at all could be told only by the instance counts)."""
    lines = [f"  {p.id}: {data_text(p)}" for p in audit.proofs if p.data_files]
    return ["", "data files run:", *lines] if lines else []


def data_text(audit: ProofAudit) -> str:
    """`toy.csv (3 examples), b.csv (5 examples); 24 instances on their runs`: a proof's
    data files as every rendering says them (`data_lines`, the reports)."""
    return (", ".join(f"{printable(f.path)} ({counted(f.examples, 'example')})"
                      for f in audit.data_files)
            + f"; {counted(audit.data_instances, 'instance')} on their runs")


def source(audit: ProofAudit) -> str:
    """The proof's source: its own, else the documents its steps cite (`verify.audit.citations`;
    `ProofAudit.source` cuts a citation at its first comma, even inside `<w,x>`)."""
    return proof_source(audit.proof.source, (s.step.source for s in audit.steps))


def _step(audit: StepAudit, stated: Mapping[str, Statement | None]) -> Json:
    symbolic = serialize.decision(audit.symbolic)
    return {
        "id": audit.step.id,
        "statement": statement_text(audit.symbolic, stated),
        "source": audit.step.source,
        "note": audit.step.note,
        "symbolic": {
            "status": symbolic["status"],
            "certificate": symbolic["certificate"],
            "counterexample": symbolic["counterexample"],
            "message": symbolic["message"],
            "vacuity": symbolic["vacuity"],
            "contradictory": symbolic["contradictory"],
            **({"run": symbolic["run"]} if "run" in symbolic else {}),
        },
        "numeric": {**_numeric(audit.numeric, audit.reason),
                    **({"caveat": audit.caveat} if audit.caveat else {}),
                    **({"update_facts": {"updates": audit.updates.instances,  # type: ignore[union-attr]
                                         "unmet": audit.unmet_updates,
                                         "said": unmet_text(audit)}}
                       if audit.unmet_updates else {}),
                    **({"update_map": {"updates": audit.update_map.instances,  # type: ignore[union-attr]
                                       "unmet": audit.unmet_map, "said": map_text(audit)}}
                       if audit.unmet_map else {}),
                    **({"counter": {"rows": audit.counter.instances,  # type: ignore[union-attr]
                                    "miscounted": audit.miscounted,
                                    "said": counter_text(audit)}}
                       if audit.miscounted else {}),
                    **({"constants": {"varied": list(audit.varied),
                                      "rows": audit.numeric.varying,  # type: ignore[union-attr]
                                      "said": constants_text(audit)}}
                       if audit.varied else {}),
                    **({"update_map_unchecked": audit.map_unchecked}
                       if audit.map_unchecked is not None else {}),
                    **({"counter_unchecked": audit.counter_unchecked}
                       if audit.counter_unchecked is not None else {}),
                    **({"constants_unchecked": audit.constants_unchecked}
                       if audit.constants_unchecked is not None else {}),
                    **({"update_facts_unchecked": audit.updates_unchecked}
                       if audit.updates_unchecked is not None else {}),
                    **({"base": {"starts": audit.starts, "unmet": audit.unmet_base,
                                 "said": base_text(audit)}}
                       if audit.unmet_base else {}),
                    **({"base_unchecked": audit.base_unchecked}
                       if audit.base_unchecked is not None else {})},
    }


def _numeric(verdict: NumericVerdict | None, reason: str | None = None) -> Json:
    if verdict is None:
        return {"status": "not-run", "instances": 0, "violations": 0, "min_slack": None,
                "counterexample": None,
                "reason": reason or "the proof does not bind its names to a run, or not "
                "this step's"}
    cex = verdict.counterexample
    where = None if cex is None or cex.provenance is None else cex.provenance
    return {
        "status": verdict.status,
        "instances": verdict.instances,
        "vacuous": verdict.vacuous,
        "violations": verdict.violations,
        "min_slack": None if verdict.min_slack is None else serialize.number(verdict.min_slack),
        "counterexample": None if cex is None else {
            **serialize.counterexample(as_counterexample(cex)),
            **_read_in_proof_names(cex),
            "origin": None if where is None else {
                "source": where.origin.source, "seed": where.origin.seed,
                "dataset": where.origin.dataset,
                "order": None if where.origin.order is None else list(where.origin.order),
                "iteration": where.iteration,
            },
        },
        **({"unevaluated": verdict.unevaluated, "reason": f"not evaluated on "
            f"{verdict.unevaluated} rows: {verdict.reason}"} if verdict.unevaluated else {}),
        **({"outside": verdict.outside} if verdict.outside else {}),
        **({"past_unmet": verdict.past_unmet} if verdict.past_unmet else {}),
        **({"varying": verdict.varying, "varied": list(verdict.varied)}
           if verdict.varying else {}),
        **({"miscounted": verdict.miscounted} if verdict.miscounted else {}),
    }


def _read_in_proof_names(cex: Instance) -> Json:
    """What a run's counterexample read in the proof's names adds (`ProofPoint`, only where
    there is some): each name the step reads bound to an expression, that expression
    (`denotes`: no value), and the run quantities no name of the step denotes, in the run's
    names (`run`)."""
    if not isinstance(cex, ProofPoint):
        return {}
    out: Json = {}
    if cex.denotes:
        out["denotes"] = dict(cex.denotes)
    if cex.run is not None:
        out["run"] = serialize.counterexample(as_counterexample(cex.run))
    return out


def _summary(audit: Audit) -> Json:
    canonical = [p for p in audit.proofs if p.canonical]
    steps = [s for p in audit.proofs for s in p.steps]
    symbolic = {k: sum(s.symbolic.status == k for s in steps)
                for k in ("proved", "refuted", "unknown")}
    numeric = [s.numeric for s in steps if s.numeric is not None]
    tested = [v for v in numeric if v.status != "not-run"]
    return {
        "seed": audit.seed,
        "budget": audit.budget,
        "proofs": {p.id: p.status for p in audit.proofs},
        "steps": len(steps),
        "symbolic": symbolic,
        "numeric": {
            "checked_steps": len(tested),
            "instances": sum(v.instances for v in numeric),
            "violations": sum(v.violations for v in numeric),
        },
        "findings": [f"{p.id}/{s.step.id}" for p, s in findings(audit)],
        "passed": audit.passed(),
        "errors": list(audit.errors),
        **({"plugin_runs": list(audit.plugins)} if audit.plugins else {}),
        **({"plugin_run_counts": [ran.counts(name, kind) for name, kind, ran
                                  in audit.plugin_ends]} if audit.plugin_ends else {}),
        **({"plugin_work": [{"plugin": name, "budget": budget, "checked": checked,
                             "cut": cut} for name, budget, checked, cut
                            in audit.plugin_work]} if audit.plugin_work else {}),
        "real_data": audit.real_data,
        "canonical": {"audited": [p.id for p in canonical],
                      "verified": [p.id for p in canonical if p.status == "verified"],
                      "line": canonical_line(audit)},
    }


def canonical_line(audit: Audit) -> str:
    """What passing rests on, as every rendering prints it beside passed/failed: true for
    any selection (`--only` may audit no canonical proof, and then none was verified: the
    line says so instead of "both verified"), with the users' proof files, which decide too."""
    canonical = [p for p in audit.proofs if p.canonical]
    verified = sum(p.status == "verified" for p in canonical)
    if not canonical:
        line = "no canonical proof audited"
    elif len(canonical) == len(CANONICAL):
        line = f"canonical proofs verified: {verified} of {len(canonical)}"
    else:
        line = (f"canonical proofs verified: {verified} of the {len(canonical)} audited "
                f"({', '.join(p.id for p in canonical)}; {len(CANONICAL)} exist)")
    files = [p for p in audit.proofs if p.file]
    if files or audit.refused_files:
        refused = f", {audit.refused_files} refused" if audit.refused_files else ""
        line += (f"; proof files verified: {sum(p.status == 'verified' for p in files)} of "
                 f"{len(files) + audit.refused_files}{refused}")
    if audit.strict:  # then every proof audited decides, the sources' too
        line += (f"; --strict: proofs verified: "
                 f"{sum(p.status == 'verified' for p in audit.proofs)} of {len(audit.proofs)}")
    return line


def headline(audit: Audit) -> str:
    """The line the documents print beside passed/failed: `handout_line` on a one-proof
    handout, else `canonical_line` (the text, the JSON and the full reports keep it)."""
    return handout_line(audit) if len(audit.proofs) == 1 else canonical_line(audit)


def handout_line(audit: Audit) -> str:
    """A one-proof handout's headline, in its reader's words: whether this proof is
    verified, and if not, why, without `canonical_line`'s terms (a student reading "no
    canonical proof audited; proof files verified: 1 of 1" about her own file was told of
    proofs she never wrote). True for a proof file or a built-in proof, verified, with
    findings or incomplete, and beside files that were refused."""
    (proof,) = audit.proofs
    what = "This proof file" if proof.file else f"The built-in proof {proof.id}"
    if proof.status == "verified":
        line = f"{what} is verified: every step is proved"
        if vacuous := sum(s.symbolic.vacuous for s in proof.steps):  # not "verified" alone
            line += (f", {vacuous} of them vacuously (saying nothing, for the reason each "
                     "gives)")
    elif proof.status == "has-findings":
        found = sum(s.finding for s in proof.steps)
        line = (f"{what} is not verified: {found} step{'s' if found != 1 else ''} refuted "
                f"or violated on runs")
    else:
        unknown = sum(s.symbolic.status == "unknown" for s in proof.steps)
        why = ([f"{unknown} step{'s' if unknown != 1 else ''} neither proved nor refuted"]
               if unknown else [])
        why += ["runs it asks for not made"] if proof.unmade else []
        why += ["violations on runs the kernel did not confirm"] if proof.unconfirmed else []
        line = f"{what} is not verified: {', '.join(why) or 'incomplete'}"
    if not proof.required(audit.strict):
        line += " (it does not decide whether the audit passes)"
    if audit.refused_files:
        n = audit.refused_files
        line += f"; {n} other proof file{'s were' if n != 1 else ' was'} refused"
    return line


@dataclass(frozen=True)
class ProofCounts:
    """One proof's row of the summary table (shared by every rendering)."""

    proved: int
    refuted: int
    unknown: int
    numeric: int
    instances: int
    violations: int

    @classmethod
    def of(cls, audit: ProofAudit) -> ProofCounts:
        """Steps per symbolic status; the steps tested on runs (some instance met their
        hypotheses: red team 7 saw two steps whose every instance was vacuous counted as
        checked), the run instances evaluated (vacuous ones too), violations."""
        symbolic = [sum(s.symbolic.status == k for s in audit.steps)
                    for k in ("proved", "refuted", "unknown")]
        numeric = [s.numeric for s in audit.steps if s.numeric is not None]
        return cls(*symbolic, sum(v.status != "not-run" for v in numeric),
                   sum(v.instances for v in numeric), sum(v.violations for v in numeric))


COLUMNS = ("proved", "refuted", "unknown", "numeric", "instances", "violations")
"""The counted columns of the summary table, in order (`ProofCounts` fields)."""


def findings(audit: Audit) -> list[tuple[ProofAudit, StepAudit]]:
    """Every refuted or numerically violated step, in report order."""
    return [(p, s) for p in audit.proofs for s in p.steps if s.finding]


def summary_table(audit: Audit) -> str:
    """One row per proof: status and `COLUMNS`."""
    header = (f"{'proof':<28} {'status':<13} {'proved':>6} {'refuted':>7} {'unknown':>7} "
              f"{'numeric':>7} {'instances':>10} {'violations':>10}")
    lines = [header, "-" * len(header)]
    for p in audit.proofs:
        c = ProofCounts.of(p)
        lines.append(
            f"{p.id:<28} {p.status:<13} {c.proved:>6} {c.refuted:>7} {c.unknown:>7} "
            f"{c.numeric:>7} {c.instances:>10} {c.violations:>10}"
        )
    return "\n".join(lines)


def counterexample_line(step: StepAudit) -> str | None:
    """`y = 1, g = 0` for a refuted step: the values that make the claim false."""
    return point_text(step.symbolic)


def to_text(audit: Audit) -> str:
    """The outcome, the summary table, then the findings with their messages."""
    lines = [f"{'passed' if audit.passed() else 'failed'} · {canonical_line(audit)}", "",
             summary_table(audit)]
    found = findings(audit)
    if found:
        lines += ["", "findings:"]
        for p, s in found:
            stated = statements_of(step.symbolic for step in p.steps)
            lines.append(f"  {p.id}/{s.step.id}: {statement_text(s.symbolic, stated)}")
            lines.append(f"    symbolic {s.symbolic.status}: {s.symbolic.message}")
            if (values := counterexample_line(s)) is not None:
                lines.append(f"    counterexample: {values}")
            if s.numeric is not None and s.numeric.status == "violated":
                lines.append(f"    numeric violated on {s.numeric.violations} of "
                             f"{s.numeric.instances} run instances")
                if (cex := _numeric(s.numeric)["counterexample"]) is not None:
                    lines.append(f"    on a run: {'; '.join(instance_lines(cex))}")
            if s.numeric is not None and s.numeric.unevaluated:  # red team 15: said in JSON only
                lines.append(f"    not evaluated on {s.numeric.unevaluated} rows of its runs: "
                             f"{s.numeric.reason}")
            if s.caveat is not None:
                lines.append(f"    {s.caveat}")
    vacuous = [(p, s) for p in audit.proofs for s in p.steps if s.symbolic.vacuous]
    if vacuous:
        lines += ["", f"vacuous ({len(vacuous)} proved, but saying nothing, each for the "
                      "reason given):"]
        lines += [f"  {p.id}/{s.step.id}: {s.symbolic.vacuity_reason}" for p, s in vacuous]
    unknown = [(p, s) for p in audit.proofs for s in p.steps if s.symbolic.status == "unknown"]
    if unknown:
        lines += ["", "unknown (neither proved nor refuted; each line says why):"]
        lines += [f"  {p.id}/{s.step.id}: {s.symbolic.message}" for p, s in unknown]
    return "\n".join(lines + unmade_lines(audit) + data_lines(audit) + vacuous_lines(audit)
                     + base_lines(audit) + unchecked_base_lines(audit)
                     + unmet_lines(audit) + unchecked_update_lines(audit)
                     + map_lines(audit) + unchecked_map_lines(audit)
                     + counter_lines(audit) + unchecked_counter_lines(audit)
                     + constant_lines(audit) + unchecked_constant_lines(audit)
                     + partly_lines(audit, found) + not_run_lines(audit) + plugin_lines(audit))


PLUGIN_RUNS = ("each checked as the trace it is: exact values, sizes, steps; a verdict on "
               "runs is one on these")
"""What the lines of `Audit.plugins` qualify, as every rendering heads them."""


def unmade_lines(audit: Audit) -> list[str]:
    """The runs each proof asked for that were not made (`ProofAudit.unmade`: a data file of
    its own refused, its plug-in failed or unusable), one line each: why a proof whose
    steps may all be proved and held on runs is `incomplete` (newcomer 19 §3: said on
    standard error only, as the audit's errors)."""
    grouped: dict[str, list[str]] = {}
    for p in audit.proofs:
        for each in p.unmade:
            grouped.setdefault(each.line, []).append(p.id)
    # one line per reason, its proofs named together: a plug-in cut by its budget stops
    # the runs of every proof that asks for it, in the same words (newcomer 28: the line
    # printed once per proof file, then again for each step and under the plug-in)
    lines = [f"  {', '.join(ids)}: {line}" for line, ids in grouped.items()]
    return ["", f"runs not made ({UNMADE}):", *lines] if lines else []


SAID_UNMADE = "as said under runs not made"
"""What stands for a reason `unmade_lines` has given already."""


UNMADE = "so not verified; verdicts on runs are on the runs made"
"""What the lines of `ProofAudit.unmade` mean, as every rendering heads them."""


def plugin_lines(audit: Audit) -> list[str]:
    """How the runs of each plug-in ended (`Audit.plugins`): what its steps' verdicts on runs
    are verdicts on (a run that stopped before it converged is checked as the run it is)."""
    said = said_unmade(audit.proofs)
    return ["", f"runs of plug-ins ({PLUGIN_RUNS}):",
            *(f"  {said_once(line, said)}" for line in audit.plugins)] if audit.plugins else []


def said_unmade(proofs: Iterable[ProofAudit]) -> dict[str, str]:
    """Each line said under runs not made (`ProofAudit.unmade`) -> its subject: what
    `said_once` names it by wherever the same reason comes again."""
    return {each.line: each.subject for p in proofs for each in p.unmade}


def said_once(line: str, said: Mapping[str, str]) -> str:
    """`line`, or, when it is one of `said` (given under runs not made, `said_unmade`), its
    subject and where it was said. The subject is the one the reason was made with
    (`Unmade.subject`), never read back from the words: the words before a plug-in's first
    colon may be half its reason ("plug-in p raised SystemExit: 3 on ..." read "plug-in p
    raised SystemExit: as said under runs not made"), and a data file's name may hold a
    colon of its own."""
    return f"{said[line]}: {SAID_UNMADE}" if line in said else line


def unmet_lines(audit: Audit) -> list[str]:
    """The inductions whose runs update where their update facts fail (`unmet_text`): one
    line per step, for every proof (a built-in proof's too: its runs should be its own)."""
    lines = [f"  {p.id}/{s.step.id}: {unmet_text(s)}" for p in audit.proofs for s in p.steps
             if s.unmet_updates]
    return ["", "update facts not met on runs (each induction's claim is about the runs whose "
            "every update meets its update facts):", *lines] if lines else []


def map_lines(audit: Audit) -> list[str]:
    """The inductions whose runs update otherwise than their step (`map_text`): one line
    per step, for every proof."""
    lines = [f"  {p.id}/{s.step.id}: {map_text(s)}" for p in audit.proofs for s in p.steps
             if s.unmet_map]
    return ["", "step not the runs' update (each induction's claim is about the runs that "
            "update as its step says):", *lines] if lines else []


def counter_lines(audit: Audit) -> list[str]:
    """The inductions whose counter is not their runs' count of updates (`counter_text`):
    one line per step, for every proof."""
    lines = [f"  {p.id}/{s.step.id}: {counter_text(s)}" for p in audit.proofs
             for s in p.steps if s.miscounted]
    return ["", "counter not the runs' count of updates (each induction's claim is about "
            "its runs' states after as many updates as its counter says):", *lines] \
        if lines else []


def unchecked_map_lines(audit: Audit) -> list[str]:
    """The inductions checked on runs whose step was not checked against their updates
    (`StepAudit.map_unchecked`), one line per proof and reason: a reader who saw no line
    would take their runs for updating as the step says (memb33)."""
    return _unchecked_lines(audit, lambda s: s.map_unchecked, (
        "step not checked on runs (each induction's claim is about the runs that update as "
        "its step says; nothing checked that these runs do, so its verdict on them holds of "
        "its runs only if they do):"))


def unchecked_counter_lines(audit: Audit) -> list[str]:
    """The inductions checked on runs whose counter was not checked against their count of
    updates (`StepAudit.counter_unchecked`), one line per proof and reason (memb33)."""
    return _unchecked_lines(audit, lambda s: s.counter_unchecked, (
        "counter not checked on runs (each induction's claim is about its runs' states after "
        "as many updates as its counter says; nothing checked that its counter counts these "
        "runs' updates, so its verdict on them holds of its runs only if it does):"))


def unchecked_constant_lines(audit: Audit) -> list[str]:
    """The inductions checked on runs whose constants were not checked to keep one value
    along them (`StepAudit.constants_unchecked`), one line per proof and reason."""
    return _unchecked_lines(audit, lambda s: s.constants_unchecked, (
        "constants not checked on runs (each induction's claim is about runs along which its "
        "constants keep one value; nothing checked that these do, so its verdict on them "
        "holds of its runs only if they do):"))


def constant_lines(audit: Audit) -> list[str]:
    """The inductions along whose runs a constant changes (`constants_text`): one line per
    step, for every proof."""
    lines = [f"  {p.id}/{s.step.id}: {constants_text(s)}" for p in audit.proofs
             for s in p.steps if s.varied]
    return ["", "constants not constant on runs (each induction's claim is about runs along "
            "which its constants keep one value):", *lines] if lines else []


def base_lines(audit: Audit) -> list[str]:
    """The inductions checked on runs that start elsewhere than their base (`base_text`):
    one line per step, for every proof."""
    lines = [f"  {p.id}/{s.step.id}: {base_text(s)}" for p in audit.proofs for s in p.steps
             if s.unmet_base]
    return ["", "base not met on runs (each induction's claim is about the runs that start "
            "at its base):", *lines] if lines else []


def unchecked_base_lines(audit: Audit) -> list[str]:
    """The inductions checked on runs whose base was not (`StepAudit.base_unchecked`), one
    line per proof and reason: a reader who saw no line would take it for checked."""
    return _unchecked_lines(audit, lambda s: s.base_unchecked, (
        "base not checked on runs (each induction's claim is about the runs that start at its "
        "base; nothing checked that these runs do):"))


def _unchecked_lines(audit: Audit, reason: Callable[[StepAudit], str | None], heading: str
                     ) -> list[str]:
    """`heading` and one line per proof and `reason` (the steps it holds of, by id), or
    nothing when no step of the audit has a reason."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for p in audit.proofs:
        for s in p.steps:
            if (why := reason(s)) is not None:
                grouped.setdefault((p.id, why), []).append(s.step.id)
    lines = [f"  {proof_id} ({why}): {', '.join(steps)}"
             for (proof_id, why), steps in grouped.items()]
    return ["", heading, *lines] if lines else []


UPDATES_UNCHECKED = ("each induction's claim is about the runs whose every update meets its "
                     "update facts; nothing checked that these runs' updates do, so its "
                     "verdict on them holds of its runs only if they do")
"""What the lines of `unchecked_update_lines` mean, as every rendering heads them."""


def unchecked_update_lines(audit: Audit) -> list[str]:
    """The inductions checked on runs whose update facts were not (`StepAudit.
    updates_unchecked`), one line per proof and reason: the audit checks them at each update
    of online, single-pass and batch runs, and a reader who saw no line on them would take
    them for checked and met on cyclic runs and a user's kind of runs too."""
    return _unchecked_lines(audit, lambda s: s.updates_unchecked,
                            f"update facts not checked on runs ({UPDATES_UNCHECKED}):")


def mostly_vacuous(step: StepAudit) -> bool:
    """Checked on runs, but on more than half of its instances a hypothesis was false there:
    the claim was tested on the rest only (on none when every instance was vacuous)."""
    return step.numeric is not None and 2 * step.numeric.vacuous > step.numeric.instances


def vacuous_count(verdict: NumericVerdict) -> str:
    """`1589 of 1600 run instances vacuous (hypotheses false)`, or, when every one was, that
    the claim was tested on none (not "most"); then the hypothesis false on the most of
    them, as written (`NumericVerdict.most_false`: newcomer 34 N1, a unit `u` the runs'
    separators are not was left to guess)."""
    most = verdict.most_false()
    which = f"most often {most[0]} (false on {most[1]})" if most else ""
    if verdict.vacuous == verdict.instances:
        return (f"all {verdict.instances} run instances vacuous (hypotheses false): the claim "
                "was tested on none" + (f"; {which}" if which else ""))
    return (f"{verdict.vacuous} of {verdict.instances} run instances vacuous (hypotheses false)"
            + (f": {which}" if which else ""))


def vacuous_lines(audit: Audit) -> list[str]:
    """The steps whose run instances were mostly vacuous (`mostly_vacuous`), as the JSON and
    the reports count them: for a user's proof file one line per step, with the counts; for
    a built-in proof only how many steps (the counts are in the JSON and the reports)."""
    lines = []
    for p in audit.proofs:
        mostly = [s for s in p.steps if mostly_vacuous(s)]
        if p.file:
            lines += [f"  {p.id}/{s.step.id}: {vacuous_count(s.numeric)}"  # type: ignore[arg-type]
                      for s in mostly]
        elif mostly:
            lines.append(f"  {p.id}: {counted(len(mostly), 'step')} "
                         "(how many instances: in --json and the reports)")
    return ["", "mostly vacuous on runs (a hypothesis false on most instances or all: the claim "
            "was tested on the others only, or on none):", *lines] if lines else []


def partly_lines(audit: Audit, said: Sequence[tuple[ProofAudit, StepAudit]] = ()
                 ) -> list[str]:
    """The steps checked on runs whose rows were in part not evaluated (their sums past a
    limit or a work budget, or a run's rows past the most one run may make), but for those
    the findings list with the reason already (`said`): for a user's proof file one line per
    step, with the counts and the reason; for a built-in proof how many steps (which rows:
    in the JSON and the reports), and, once each, the reason of rows never made (a run on
    the user's `--data`, too large: newcomer 26, F6). The table counts only the rows
    evaluated, and did not say that others were left out."""
    shown = {(p.id, s.step.id) for p, s in said}
    lines = []
    for p in audit.proofs:
        partly = [s for s in p.steps if s.numeric is not None and s.numeric.unevaluated
                  and (p.id, s.step.id) not in shown]
        if p.file:
            lines += [f"  {p.id}/{s.step.id}: not evaluated on {s.numeric.unevaluated} rows "  # type: ignore[union-attr]
                      f"of its runs: {s.numeric.reason}" for s in partly]  # type: ignore[union-attr]
        elif partly:
            lines.append(f"  {p.id}: {counted(len(partly), 'step')} (which rows and why: in "
                         "--json and the reports)")
            lines += [f"    {reason}" for reason in dict.fromkeys(
                s.numeric.reason for s in partly  # type: ignore[union-attr]
                if (s.numeric.reason or "").startswith(ROWS_NOT_MADE))]  # type: ignore[union-attr]
    return ["", "partly checked on runs (rows not evaluated are not counted):",
            *lines] if lines else []


def not_run_lines(audit: Audit) -> list[str]:
    """Why steps have no verdict on runs (not run, or run with violations none of which the
    kernel confirmed: `UNREPORTED`, and the heading says so): one line per proof that binds
    no run (`[numeric]`); for a user's proof file one line per other step that no row set
    binds, with the reason; for a built-in proof only how many (the reasons are in the JSON
    and the reports)."""
    lines = []
    for p in audit.proofs:
        if p.proof.numeric is None:
            lines.append(f"  {p.id}: the proof declares no [numeric] run")
            continue
        skipped = [s for s in p.steps if s.numeric is None]
        if p.file:  # steps with one reason on one line (a plug-in's cut: every step)
            grouped: dict[str, list[str]] = {}
            said = said_unmade([p])
            for s in skipped:
                grouped.setdefault(said_once(s.reason or "", said), []).append(s.step.id)
            lines += [f"  {p.id}/{ids[0]}: {reason}" if len(ids) == 1 else
                      f"  {p.id} ({len(ids)} steps: {', '.join(ids)}): {reason}"
                      for reason, ids in grouped.items()]
        elif skipped:
            lines.append(f"  {p.id}: {counted(len(skipped), 'step')} "
                         "(why: in --json and the reports)")
    run = any(s.reason and s.reason.startswith(UNREPORTED) for p in audit.proofs
              for s in p.steps if s.numeric is None)  # its runs' violations unconfirmed
    head = "not run, or run and not reported" if run else "not run"
    return ["", f"{head} (checked symbolically only):", *lines] if lines else []
