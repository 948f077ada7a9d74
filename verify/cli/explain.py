"""`novikoff explain STEP_ID [--budget B] [--time-limit S] [--algorithm ...] [--run-kind NAME]`:
one proof step, explained.

STEP_ID is `PROOF/STEP` or `PROOF STEP`, PROOF a built-in proof id or a proof file (`- STEP`
reads it from stdin), or a bare STEP that only one built-in proof has.

Prints the step as written, its source and note, its hypotheses and claim, and its evidence:
the certificate written out as a sum a person can follow, or the counterexample with its
numbers plugged into every hypothesis and the claim (`verify.render.text`). Exit 0 when the step
is proved, 1 when it is refuted or unknown, 2 for an unknown or ambiguous step id or a bad
proof file (one line, with close matches), a file read as `check` reads it (its
`[numeric]` table as the audit does: a plug-in named with `--algorithm`, never loaded).
`--json` prints the same as data.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from verify.cli.check import DEFAULT_GUARD, budget_option, numeric_options, seconds
from verify.cli.common import UsageError

if TYPE_CHECKING:  # SymPy loads only when a step is explained
    from verify.render.text import Located


def register(subparsers: Any) -> None:
    """Add the `explain` subcommand."""
    parser = subparsers.add_parser(
        "explain",
        help="explain one proof step: its hypotheses and certificate, or its counterexample",
        description="Check one step of a built-in proof or of a proof file and explain the "
        "result: the step as "
        "written with its source and note, its hypotheses, and either its certificate written "
        "out as a sum (m * claim = coefficient * [hypothesis] * ... + squares) or its "
        "counterexample with the numbers plugged into every hypothesis and the claim. "
        "Exit 0 proved, 1 refuted or unknown, 2 on bad input (an unknown proof or step id, "
        "a proof file that cannot be read) or a usage error.",
    )
    parser.add_argument("step", metavar="STEP_ID",
                        help="PROOF/STEP (e.g. virtue-online/part3-as-written), or a bare STEP "
                        "when only one built-in proof has it; PROOF may be a proof file "
                        "(my-proof.toml/STEP); or give PROOF and STEP apart (`- STEP` reads "
                        "the proof from stdin)")
    parser.add_argument("in_step", nargs="?", metavar="STEP",
                        help="with a PROOF (id, file or -) as first argument: the step in it")
    parser.add_argument("--json", action="store_true",
                        help="print the explanation as JSON: the statement, each judgement's "
                        "hypotheses, claim, certificate and argument (the contradiction in "
                        "refutation form) or counterexample")
    budget_option(parser)
    parser.add_argument("--time-limit", type=seconds, default=DEFAULT_GUARD, metavar="S",
                        help="a wall-clock cap per step against hostile input "
                        f"(default {DEFAULT_GUARD:g}); verdicts come from the work budget")
    numeric_options(parser, "explain")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Find the step, check it (and the steps it uses), print the explanation."""
    import json

    from verify.cli.common import print_notes
    from verify.render.text import check_with_uses, explain, explanation
    from verify.search.sums.termwise import extended
    from verify.search.work import BUDGETS as SEARCH_BUDGETS

    located, lemma = _locate(args.step, args.in_step, args)
    reports = check_with_uses(located, budget=SEARCH_BUDGETS[args.budget],
                              guard=args.time_limit)
    if found := reports[located.step.id].termwise:  # shown as the uses they were decided with
        located = replace(located, proof=extended(located.proof, list(reports.values()))[0],
                          step=reports[located.step.id].step)
        reports = {**reports, **{r.step.id: r for r in found}}
    if lemma is not None:  # a term-wise fact the check names (red team 23 F4)
        owner = located.step.id
        what = "sign fact" if re.fullmatch(r".+-sign-[0-9]+", lemma) else "term-wise fact"
        if (status := reports[owner].status) != "proved":  # red team 23 F9
            raise UsageError(f"no step {lemma!r} in {located.proof_id}: {owner} is {status}, "
                             f"and the {what}s found for a step are steps only when "
                             "it is proved with them (`novikoff check` lists those found)")
        if lemma not in {r.step.id for r in found}:
            raise UsageError(f"no step {lemma!r} in {located.proof_id}: {owner} was proved "
                             f"without that {what} (`novikoff check` names those it "
                             "was proved with)")
        located = replace(located, step=located.proof.step(lemma))
    if args.json:  # data on stdout only; the proof's notes would not be JSON
        print(json.dumps(explanation(located, reports), indent=2, ensure_ascii=False))
    else:
        print(explain(located, reports))
        print_notes(located.proof)
    return 0 if reports[located.step.id].status == "proved" else 1


def _locate(first: str, second: str | None, args: argparse.Namespace
            ) -> tuple[Located, str | None]:
    """The step named by the arguments: `PROOF STEP` or `PROOF/STEP` (or a bare STEP); and,
    for `STEP-termwise-K` of a proof file's step, that lemma's id (the step is then STEP,
    whose check finds it).

    PROOF is a file when it is `-`, names an existing file, or ends in `.toml` (a missing
    `.toml` file is then a one-line error), else a built-in proof id. A file is read as
    `check` reads it (`read_checked`: its `[numeric]` table as the audit reads it, a plug-in
    named with `--algorithm`), so the two commands agree on it (newcomer 28).
    """
    import difflib

    from proofs.library import PROOFS
    from verify.cli.check import given_numeric, named_by, read_checked
    from verify.render.text import Located, UnknownStep, locate

    if second is not None:
        proof_name, step_id = first, second
    elif first == "-" or first.endswith(".toml") or Path(first).is_file():
        shown, proof = read_checked(first, args)  # a proof file without a step (newcomer 19: it was
        ids = ", ".join(step.id for step in proof.steps)  # read as a built-in step id)
        raise UsageError(f"no step given: {shown} is a proof file; explain one of its steps "
                         f"with `novikoff explain {first} STEP` (`novikoff check {first}` "
                         f"checks them all); its steps: {ids}")
    else:
        proof_name, _, step_id = first.strip().rpartition("/")
    # any existing path is a file to read (a named pipe or a device is then refused in one
    # line as such by `read_proof`), but a folder of a built-in proof's name
    is_file = proof_name == "-" or proof_name.endswith(".toml") or (
        Path(proof_name).exists() and not (Path(proof_name).is_dir() and proof_name in PROOFS))
    try:
        if not proof_name or not is_file:
            given_numeric(args)
            located = locate(f"{proof_name}/{step_id}" if proof_name else step_id)
            named_by(located.proof, args.algorithm)  # a built-in's table: the audit's own
            return located, None
    except UnknownStep as exc:
        raise UsageError(str(exc)) from None
    shown, proof = read_checked(proof_name, args)
    ids = [step.id for step in proof.steps]
    owner = re.fullmatch(r"(.+)-(?:termwise|sign)-[0-9]+", step_id)
    if step_id not in ids and owner and owner.group(1) in ids:
        return Located(shown, proof, proof.step(owner.group(1))), step_id
    if step_id not in ids:
        close = difflib.get_close_matches(step_id, ids, n=3, cutoff=0.6)
        hint = ", ".join(close or ids)
        raise UsageError(f"no step {step_id!r} in {shown}; "
                         f"{'close matches' if close else 'its steps'}: {hint}")
    return Located(shown, proof, proof.step(step_id)), None
