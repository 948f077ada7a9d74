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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from verify.coq import add_option, annotate, for_command, lines

if TYPE_CHECKING:  # SymPy and SciPy load only when a proof is checked: `novikoff run` starts fast
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
    add_option(parser)
    parser.set_defaults(handler=run)


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


def run(args: argparse.Namespace) -> int:
    """Load, check, report; the exit code says whether everything was proved."""
    from proofs.errors import ProofFileError
    from verify.cli.common import print_notes, read_proof
    from verify.cli.terminal import callback, progress_bar
    from verify.proof_checker import check_proof
    from verify.render import json as serialize
    from verify.search.work import BUDGETS as SEARCH_BUDGETS

    _, proof = read_proof(args.file)
    with progress_bar("check") as bar:
        try:
            report = check_proof(proof, budget=SEARCH_BUDGETS[args.budget],
                                 guard=args.time_limit, progress=callback(bar, "steps"),
                                 store=None if args.search else "shipped")
        except ProofFileError as error:  # refused by the kernel's rules: bad input, named here
            raise error.located(args.file, proof.origin) from None
    coq = for_command(args.coq, [(Path(args.file).stem, proof, report.steps)])
    if args.json:
        data = serialize.report(report)
        if coq is not None:
            annotate(data["steps"], coq.for_proof(Path(args.file).stem))
        print(json.dumps(data, indent=2))
    else:
        print(human(report, statements=args.statements)
              + ("\n" + "\n".join(lines(coq)) if coq is not None else ""))
    print_notes(proof)
    return 0 if report.status == "proved" and (coq is None or not coq.rejected) else 1


def human(report: ProofReport, *, statements: bool = False) -> str:
    """One line per step (status, time, message), with `statements` its full statement
    indented below it, then a summary line."""
    from verify.typeset.statement import statement_text, statements_of

    width, stated = max(len(s.step.id) for s in report.steps), statements_of(report.steps)
    lines = [line for s in report.steps for line in (
        _line(s, width), *([f"{'':<9}{statement_text(s, stated)}"] if statements else []))]
    counts = {k: sum(s.status == k for s in report.steps) for k in ("proved", "refuted", "unknown")}
    tally = ", ".join(f"{n} {k}" for k, n in counts.items())
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
