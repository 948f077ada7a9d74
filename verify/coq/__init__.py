"""A second kernel: proved steps exported to Coq and re-checked by coqc (issue 18).

`export_and_check(directory, proofs)` writes a Coq project (`_CoqProject`, the preamble
`InnerProduct.v` holding every axiom, one `.v` per proof with one theorem per proved step)
and, when `coqc` is on PATH, compiles it and reports per step `checked` or coqc's error.
Nothing here decides a verdict of our own kernel: Coq is a second, independent judge.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # SymPy loads only when something is exported: parsers import this module
    from proofs.step import Proof
    from verify.coq.build import ProofFile
    from verify.coq.statement import Exported
    from verify.proof_checker import StepReport

NOT_RUN = "not run: coqc is not on PATH"

__all__ = ["AT_EVERY_MEMBER", "AT_EVERY_MEMBER_OF_EACH", "NOT_RUN", "SUMMED", "CoqRun",
           "add_option", "annotate", "export_and_check", "for_command", "lines", "step_text",
           "summary_line"]


@dataclass(frozen=True)
class CoqRun:
    """What the export wrote and what coqc said: `results[(proof id, step id)]`."""

    directory: Path
    results: dict[tuple[str, str], str]
    seconds: float | None  # compile time, None when coqc did not run
    #: the keys of `results` that are term-wise lemmas the checker found (`extended`), not
    #: steps of a proof: known from the export, never guessed from an id, since a user may
    #: name a step of their own `a-termwise-1` (red team 29)
    found: frozenset[tuple[str, str]] = frozenset()

    @property
    def rejected(self) -> int:
        """How many exported steps coqc did not check (its error, or the preamble's): the
        commands exit 1 then, since Coq did not re-check what was exported to it. A step
        not exported, or coqc not on PATH, is said in its line and is no rejection."""
        return sum(r.startswith("error:") for r in self.results.values())

    def for_proof(self, proof_id: str) -> dict[str, str]:
        """Step id -> result for one proof."""
        return {s: r for (p, s), r in self.results.items() if p == proof_id}


def export_and_check(
    directory: Path, proofs: Iterable[tuple[str, Proof, Sequence[StepReport]]], *,
    compile: bool = True, assume: Collection[tuple[str, str]] = (),
) -> CoqRun:
    """Export `(proof id, proof, step reports)` into `directory`; compile if coqc is found.

    A step's result is `checked` (with `VACUOUSLY` when the kernel proved the step
    vacuous, `SUMMED` when it assumes a term-wise sum, `AT_EVERY_MEMBER` when it assumes a
    used claim at every member of a sum, `ASSUMED` when it assumes a claim not exported),
    `error: <coqc's message>`, `not exported: <why>` or
    `not run: ...` (no coqc, or `compile=False`).

    A step with term-wise uses derives their claims at every member from the used steps'
    theorems (`verify.coq.sums.members`); where coqc rejects such a step, its proof is
    exported again with those claims as premises (and the steps that apply its theorem
    with it), and that file is what is compiled and written: each line is about the
    theorem coqc checked as printed. `assume` holds (proof id, step id) pairs exported with
    the premises from the start.
    """
    from verify.coq.build import ProofFile, compile_project, coqc, module_names, write_project
    from verify.coq.export import export_proof
    from verify.search.sums.termwise import extended

    files: list[ProofFile] = []
    ids: dict[str, str] = {}  # module -> proof id: modules are distinct (`module_names`)
    vacuous: dict[tuple[str, str], str] = {}  # what `checked` adds first (`_vacuously`)
    found: set[tuple[str, str]] = set()
    sources: dict[str, tuple[Proof, Sequence[StepReport]]] = {}  # module -> as exported
    assumed: dict[str, frozenset[str]] = {}  # module -> steps exported with the premises
    proofs = list(proofs)
    if len({proof_id for proof_id, _, _ in proofs}) < len(proofs):  # results are keyed by id
        raise ValueError("export_and_check: two proofs with one id")
    for (proof_id, written, written_reports), module in zip(
        proofs, module_names([p[0] for p in proofs]), strict=True
    ):
        proof, reports = extended(written, written_reports)  # found lemmas as steps
        vacuous.update({(proof_id, r.step.id): _vacuously(r) for r in reports})
        own = {step.id for step in written.steps}
        found.update((proof_id, step.id) for step in proof.steps if step.id not in own)
        ids[module] = proof_id
        sources[module] = (proof, reports)
        assumed[module] = frozenset(s for p, s in assume if p == proof_id)
        steps = export_proof(proof, reports, assumed[module])
        files.append(ProofFile(module, proof.title, tuple(steps)))
    write_project(directory, files)
    executable = coqc()
    if executable is None or not compile:
        return CoqRun(directory, _exported(files, ids), None, frozenset(found))

    def again(file: ProofFile, compiled: Mapping[str, str]) -> ProofFile | None:
        """The file exported again with the premises kept by each step whose derivation
        of a claim at every member coqc rejected (or None: every such step checked)."""
        rejected = {e.step_id for e in file.steps
                    if e.derived and compiled.get(e.step_id, "").startswith("error:")}
        if not rejected:
            return None
        assumed[file.module] |= rejected
        return ProofFile(file.module, file.title,
                         tuple(export_proof(*sources[file.module], assumed[file.module])))

    compiled = compile_project(files, executable, again)
    if list(compiled.files) != files:  # what is written is what coqc checked
        files = list(compiled.files)
        write_project(directory, files)
    results = _exported(files, ids)
    added = {(ids[f.module], e.step_id): _summed_premises(e) + _termwise_premises(e)
             + _assumed_uses(e) for f in files for e in f.steps}
    for (module, step_id), result in compiled.results.items():
        key = (ids[module], step_id)
        results[key] = (result + vacuous.get(key, "") + added[key] if result == "checked"
                        else result)
    if compiled.preamble != "checked":
        for key, value in results.items():
            if value == NOT_RUN:
                results[key] = f"error: InnerProduct.v: {compiled.preamble}"
    return CoqRun(directory, results, compiled.seconds, frozenset(found))


def _exported(files: Sequence[ProofFile], ids: Mapping[str, str]
              ) -> dict[tuple[str, str], str]:
    """Each step's result before coqc: `not run` when exported, else why it is not."""
    return {(ids[f.module], e.step_id): NOT_RUN if e.theorem else f"not exported: {e.reason}"
            for f in files for e in f.steps}


#: What `checked` adds for a step the kernel proved VACUOUS: coqc checked a theorem that is
#: vacuously true too (its premises cannot all hold), which is no evidence for the claim.
VACUOUSLY = ", vacuously: the kernel found {why}, so the theorem {says}"
_VACUOUS_STEP = VACUOUSLY.format(why="its hypotheses contradictory",
                                 says="holds whatever it claims")
_VACUOUS_RUNS = VACUOUSLY.format(why="that no run leaves its start state",
                                 says="claims at most the invariant at the start")


def _vacuously(report: StepReport) -> str:
    """What `checked` must add for a step the kernel marked vacuous (`StepReport.vacuous`:
    its hypotheses contradict, or an induction no run leaves the start of): the Coq theorem
    states the kernel's statement, so it is true for the same reason and as empty, and
    `checked` alone would read as evidence (helper finding, session of 2026-11-29). "" for
    any other step."""
    from proofs.step import Induction

    if not report.vacuous:
        return ""
    return _VACUOUS_RUNS if isinstance(report.step.rule, Induction) else _VACUOUS_STEP


#: What a theorem that assumes a term-wise sum adds to `checked`.
SUMMED = (", assuming {n} used claim(s) summed term-wise (the summation is our kernel's rule, "
          "not replayed in Coq)")


def _summed_premises(exported: Exported) -> str:
    """For a theorem whose premises include a used step's claim summed term-wise (the
    kernel's text `(... summed over j in lo..hi)`) *as the kernel states it*, what `checked`
    must add: coqc then re-checks only the step from that sum to the claim, and the
    summation itself is our kernel's alone. A premise stated as the used claim quantified
    over the members (`exported.termwise`: the proof derives the sum, `verify.coq.sums.termwise`)
    assumes nothing of the kind. "" when no premise is a sum assumed."""
    n = sum(" summed over " in h.text and h not in exported.termwise
            for h in exported.hypotheses)
    return SUMMED.format(n=n) if n else ""


#: What a theorem whose premise is a used claim at every member of a sum adds to `checked`.
AT_EVERY_MEMBER = (", assuming the claim of {steps} at every member of the sum (a premise of "
                   "this theorem, not derived in Coq from its theorem)")
#: The same for the claims of several used steps (`AT_EVERY_MEMBER`).
AT_EVERY_MEMBER_OF_EACH = (", assuming the claims of {steps} at every member of their sums "
                           "(premises of this theorem, not derived in Coq from their theorems)")


def _termwise_premises(exported: Exported) -> str:
    """For a theorem with a term-wise use (written `uses = [{ step, sum }]` or found by the
    checker) whose premise is still the used claim at every member of the sum
    (`exported.termwise`, not `exported.derived`), what `checked` must add: the proof
    derives the sum from it but not it from the used step's theorem, so coqc checked the
    summation and the step, not that the used claim holds at each member; plain `checked`
    said more (newcomer 31 F8). A premise derived from the used theorem
    (`verify.coq.sums.members`) adds nothing: coqc checked that too. "" when none is left."""
    used = list(dict.fromkeys(t.used for h, t in exported.termwise.items()
                              if h not in exported.derived))
    if not used:
        return ""
    return (AT_EVERY_MEMBER if len(used) == 1 else AT_EVERY_MEMBER_OF_EACH).format(
        steps=", ".join(used))


#: What a theorem that assumes the claim of a used step not exported adds to `checked`.
ASSUMED = (", assuming the claim of {steps} (not exported: a premise of this theorem, not "
           "derived)")


def _assumed_uses(exported: Exported) -> str:
    """For a theorem that uses a step whose theorem is not exported, what `checked` must
    add: that step's claim is then a premise, assumed, where a plain use's claim is
    otherwise derived by applying the used theorem (README). "" when none is."""
    return ASSUMED.format(steps=", ".join(exported.assumed)) if exported.assumed else ""


def annotate(steps: list[dict[str, Any]], results: dict[str, str]) -> None:
    """Add a `coq` field to each JSON step (by its `id`)."""
    for step in steps:
        step["coq"] = results.get(step["id"], "not exported: unknown step")


def lines(run: CoqRun) -> list[str]:
    """Human report: one `coq: ...` line per step, then a summary (`summary_line`)."""
    return [*(f"coq {proof_id} {step_id}: {result}" for (proof_id, step_id), result
              in run.results.items()), summary_line(run)]


def step_text(result: str) -> str:
    """A step's result as the reports say it: `checked` (and what it assumes), `rejected by
    coqc: <its message>`, `not exported: <why>`, `not run: <why>` (never checked unless
    coqc checked it)."""
    return f"rejected by coqc: {result[len('error: '):]}" if result.startswith("error: ") \
        else result


def summary_line(run: CoqRun) -> str:
    """`coq: 12/15 steps checked by coqc in 3.1 s, ... (project in DIR)`: the text's last
    line of `lines` and every report's (`verify.render`)."""
    steps = [r for key, r in run.results.items() if key not in run.found]
    lemmas = [r for key, r in run.results.items() if key in run.found]
    checked = sum(r.startswith("checked") for r in steps)
    vacuous = sum(r.startswith("checked, vacuously") for r in steps)
    assuming = sum(r.startswith("checked") and "summed term-wise" in r
                   for r in run.results.values())
    unexported = sum(r.startswith("checked") and "(not exported: a premise" in r
                     for r in run.results.values())
    members = sum(r.startswith("checked") and ", not derived in Coq from " in r
                  for r in run.results.values())
    took = f" in {run.seconds:.1f} s" if run.seconds is not None else ""
    kinds = {"sign" if re.search(r"-sign-[0-9]+$", key[1]) else "term-wise"  # the id ends
             for key in run.found}  # as the checker made it: its mark and a number
    kind = f"{kinds.pop()} " if len(kinds) == 1 else ""  # sign facts too (gaps33)
    found = (f" (and {sum(r.startswith('checked') for r in lemmas)}/{len(lemmas)} {kind}"
             "lemmas the checker found)") if lemmas else ""  # red team 23 F8: counted as steps
    return (f"coq: {checked}/{len(steps)} steps{found} checked by coqc{took}"
            + (f", {vacuous} of them vacuously, as the kernel's VACUOUS steps are"
               if vacuous else "")
            + (f", {assuming} of them assuming a term-wise sum" if assuming else "")
            + (f", {members} assuming a used claim at every member of a sum" if members else "")
            + (f", {unexported} assuming a claim not exported" if unexported else "")
            + (f", {run.rejected} rejected by coqc" if run.rejected else "")
            + f" (project in {run.directory})")


def add_option(parser: Any) -> None:
    """The `--coq DIR` option of `novikoff check` and `novikoff audit`."""
    parser.add_argument(
        "--coq", type=Path, metavar="DIR", default=None,
        help="also export every proved step to a Coq project in DIR and, when coqc is on "
        "PATH, re-check it with coqc (a second, independent kernel); exit 1 when coqc "
        "rejects a step exported",
    )


def for_command(
    directory: Path | None, proofs: Iterable[tuple[str, Proof, Sequence[StepReport]]]
) -> CoqRun | None:
    """Run the export for a command when `--coq DIR` was given (None otherwise).

    A DIR that exists and is not a directory, or cannot be created, is bad input.
    """
    if directory is None:
        return None
    from verify.cli.common import UsageError

    if directory.exists() and not directory.is_dir():
        raise UsageError(f"--coq {directory}: not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--coq {directory}: cannot create it ({error.strerror})") from None
    return export_and_check(directory, proofs)
