"""`novikoff check FILE [--json] [--statements] [--budget B] [--time-limit S]`: check a proof
file (docs/design.md §5).

Exit 0 when every step is proved, 1 when any is refuted or unknown or, with `--coq` and
coqc on PATH, when coqc rejects a step exported (`CoqRun.rejected`); bad input is a
`ProofFileError`, which the CLI prints as one line per error (file:line:column, step,
problem, fix) with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from verify.cli.common import UsageError
from verify.coq import add_option, annotate, for_command, lines

if TYPE_CHECKING:  # SymPy and SciPy load only when a proof is checked: `novikoff run` starts fast
    from proofs.errors import ProofFileError
    from proofs.step import Proof
    from verify.proof_checker import ProofReport, StepReport

MAX_TIME_LIMIT = 3600.0
DEFAULT_GUARD = 60.0  # far above any built-in step at the default budget


def budget_option(parser: argparse.ArgumentParser) -> None:
    """`--budget small|default|large`: the search's work per judgement (never time)."""
    parser.add_argument("--budget", choices=("small", "default", "large"), default="default",
                        help="work allowed per judgement: candidates, LP size and iterations, "
                        "search points (default: default); the same verdicts on any machine")


def register(subparsers: Any) -> None:
    """Add the `check` subcommand."""
    parser = subparsers.add_parser(
        "check",
        help="check every step of a proof file",
        description="Prove or refute every step of a TOML proof file (docs/design.md §5). "
        "Exit 0 when all steps are proved, 1 when any is refuted or unknown (or, with --coq, "
        "when coqc rejects a step exported), 2 on bad input.",
    )
    parser.add_argument("file", metavar="FILE",
                        help="the proof file (TOML), `-` for stdin, or a built-in proof id "
                        "(`novikoff list`)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--statements", action="store_true",
                        help="under each step, its full statement as the kernel read it "
                        "(naturals, inherited hypotheses, an induction's runs); --json and "
                        "`novikoff explain` always carry it")
    budget_option(parser)
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=DEFAULT_GUARD,
        metavar="S",
        help=f"a wall-clock cap per step against hostile input (default {DEFAULT_GUARD:g}); "
        "verdicts come from the work budget, and one the cap cuts short says 'time cap'",
    )
    parser.add_argument("--search", action="store_true",
                        help="search every judgement, not consulting the certificate store "
                        "of the built-in proofs (the kernel checks stored certificates either "
                        "way, and the verdicts are the same)")
    numeric_options(parser, "check")
    add_option(parser)
    parser.set_defaults(handler=run)


def numeric_options(parser: argparse.ArgumentParser, command: str) -> None:
    """`--algorithm` and `--run-kind`, for the symbolic commands (`check`, `explain`) that
    read a proof file's `[numeric]` table as the audit does (`read_checked`): one file is
    bad input to all three or to none (newcomer 28: `explain` took a plug-in's file that
    `check` refused, and had no option to name the plug-in)."""
    parser.add_argument("--algorithm", action="append", default=[],
                        metavar="[NAME=]MODULE:FUNCTION",
                        help="the plug-in the audit will be given for [numeric] algorithm = "
                        f"NAME, spelled as for audit; its code is not loaded ({command} is "
                        "symbolic): it only makes NAME a known algorithm")
    parser.add_argument("--run-kind", action="append", default=[], metavar="NAME",
                        help="register an installed kind of run, the entry point NAME of the "
                        "group novikoff.runs, as audit does (its code runs when given here)")


def seconds(text: str) -> float:
    """A positive, finite time limit in seconds, written in ASCII (`float` alone takes `٣`
    as 3)."""
    try:
        if not text.isascii():
            raise ValueError(text)
        value = float(text)
    except ValueError:
        ascii_only = " (ASCII digits 0-9 only)" if not text.isascii() else ""
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds"
                                         f"{ascii_only}") from None
    if not (math.isfinite(value) and 0 < value <= MAX_TIME_LIMIT):
        raise argparse.ArgumentTypeError(f"time limit must be in (0, {MAX_TIME_LIMIT:g}]")
    return value


def given_numeric(args: argparse.Namespace) -> None:
    """`--algorithm` spellings checked (the code is never loaded here: its spelling is all
    that is checked) and `--run-kind` kinds registered, as the audit does, before a proof
    is read (`read_checked`)."""
    if args.algorithm:  # the runs' modules, NumPy's, only when given
        from verify.runs.plugin import Plugin

        for text in args.algorithm:
            if (problem := Plugin.malformed(text)) is not None:
                raise UsageError(problem)
    if args.run_kind:  # registered as the audit does (the user's code: she asked for it)
        from verify.cli.common import given_kinds

        refused = given_kinds(args.run_kind)
        if refused:
            raise UsageError(refused[0])


def read_checked(name: str, args: argparse.Namespace) -> tuple[str, Proof]:
    """The proof `name` names (`read_proof`), its `[numeric]` table read as the audit reads
    it: a table the audit would refuse (an unknown run kind, an algorithm neither built in
    nor a plug-in named by `--algorithm`, whose code is not loaded, names that read no
    quantity of the run kind) is refused in the audit's words
    (`verify.numeric.algorithms.naming`), with the file's other errors: newcomer 19 saw
    `run = "onlin"` pass `check`, then fail the audit. `check` and `explain` read a file
    so, and agree on it (newcomer 28). `given_numeric(args)` first."""
    from proofs.errors import ProofFileError
    from verify.cli.common import read_proof

    given_numeric(args)
    try:
        shown, proof = read_proof(name)
    except ProofFileError as error:  # with the [numeric] errors, as the audit lists them
        if name == "-" or not error.file or not Path(name).is_file():
            raise
        raise _with_naming(error, name, args.algorithm) from None
    if proof.numeric is not None and (name == "-" or Path(name).exists()):
        from verify.numeric.algorithms import naming  # a built-in proof's table is audited
        from verify.runs.plugin import Plugin

        naming(proof.numeric, proof, [Plugin.named(text) for text in args.algorithm])
    named_by(proof, args.algorithm)
    return shown, proof


def named_by(proof: Proof, algorithms: list[str]) -> None:
    """An `--algorithm` the proof does not name is refused, as the audit refuses one
    (`verify.audit.job.refuse_unnamed`)."""
    if not algorithms:
        return
    from verify.runs.plugin import Plugin

    named = proof.numeric.algorithm if proof.numeric is not None else None
    unnamed = [n for n in dict.fromkeys(map(Plugin.named, algorithms)) if n != named]
    if unnamed:
        raise UsageError(f"--algorithm {unnamed[0]}: the proof does not name it "
                         f"([numeric] algorithm = \"{unnamed[0]}\")")


def run(args: argparse.Namespace) -> int:
    """Load (`read_checked`), check, report; the exit code says whether everything was
    proved."""
    from proofs.errors import ProofFileError
    from verify.cli.common import print_notes
    from verify.cli.terminal import callback, progress_bar
    from verify.proof_checker import check_proof
    from verify.render import json as serialize
    from verify.search.work import BUDGETS as SEARCH_BUDGETS

    _, proof = read_checked(args.file, args)
    with progress_bar("check") as bar:
        try:
            report = check_proof(proof, budget=SEARCH_BUDGETS[args.budget],
                                 guard=args.time_limit, progress=callback(bar, "steps"),
                                 store=None if args.search else "shipped")
        except ProofFileError as error:  # refused by the kernel's rules: bad input, named here
            raise error.located(args.file, proof.origin) from None
    coq = for_command(args.coq, [(Path(args.file).stem, proof, report.steps)])
    if args.json:
        data = serialize.report(report, theorem=proof.main_result)
        if coq is not None:
            annotate(data["steps"], coq.for_proof(Path(args.file).stem))
        print(json.dumps(data, indent=2))
    else:
        hint = _explain_hint(report, args.file)
        print(human(report, statements=args.statements)
              + ("\n" + "\n".join(lines(coq)) if coq is not None else "")
              + (f"\n{hint}" if hint else ""))
    print_notes(proof)
    return 0 if report.status == "proved" and (coq is None or not coq.rejected) else 1


def _explain_hint(report: ProofReport, file: str) -> str | None:
    """For steps left unknown with a point found that refutes nothing (it may be one no run
    reaches): the command that shows it (newcomer 24: the line says a point was found, not
    where it is, nor how to see it)."""
    found = [s for s in report.steps if s.status == "unknown" and any(
        g.verdict.counterexample is not None for g in s.goals)]
    if not found or file == "-":
        return None
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    # nc35 K12: a side condition's point (a denominator) is shown with its values only,
    # never with the step's hypotheses and claim evaluated at it
    side = all(g.goal.written is None for g in found[0].goals
               if g.verdict.counterexample is not None)
    shown = ("where a side condition of it fails (a denominator, or a sum rule's condition)"
             if side else "with each hypothesis and the claim evaluated at it")
    step = found[0].step.id
    return (f"the point found for {step}{more}, {shown}: novikoff explain "
            f"{shlex.quote(file)} {shlex.quote(step)}")


def _with_naming(error: ProofFileError, file: str, algorithms: list[str]) -> ProofFileError:
    """The errors of a proof file `check` cannot read, with those of its `[numeric]` run kind,
    algorithm and names (`verify.numeric.algorithms.with_naming`), as the audit lists them."""
    from proofs.errors import ProofFileError  # caught below: the import above is for typing
    from proofs.proof_file import numeric_part, read_regular
    from verify.numeric.algorithms import with_naming
    from verify.runs.plugin import Plugin

    try:
        part = numeric_part(read_regular(file), file)
    except (OSError, ProofFileError):
        return error
    return with_naming(error, part, [Plugin.named(text) for text in algorithms])


def human(report: ProofReport, *, statements: bool = False) -> str:
    """One line per step (status, time, message), with `statements` its full statement
    indented below it, then a summary line."""
    from verify.typeset.statement import statement_text, statements_of

    width, stated = max(len(s.step.id) for s in report.steps), statements_of(report.steps)
    lines = [line for s in report.steps for line in (
        _line(s, width), *([f"{'':<9}{statement_text(s, stated)}"] if statements else []))]
    counts = {k: sum(s.status == k for s in report.steps) for k in ("proved", "refuted", "unknown")}
    tally = ", ".join(f"{n} {k}" for k, n in counts.items())
    if vacuous := sum(s.vacuous for s in report.steps):  # proved, but saying nothing
        tally = tally.replace(" proved", f" proved ({vacuous} of them vacuous)", 1)
    lines.append(f"{report.title}: {report.status} ({tally}; {report.seconds:.2f}s)")
    return "\n".join(lines)


def _line(step: StepReport, width: int) -> str:
    message = step.message
    if step.counterexample is not None:
        message += f" at {_point(step)}"
    return f"{step.status:<8} {step.step.id:<{width}} {step.seconds:7.2f}s  {message}"


def _point(step: StepReport) -> str:
    """The counterexample's values of the names the refuted obligation mentions (the
    kernel's point binds every name of the proof; `explain` and the reports leave the others
    out): `verify.typeset.points.point_text`."""
    from verify.typeset.points import point_text

    text = point_text(step)
    assert text is not None
    return text
