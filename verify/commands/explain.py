"""`novikoff explain STEP_ID [--budget B] [--time-limit S]`: one built-in proof step, explained.

Prints the step as written, its source and note, its hypotheses and claim, and its evidence:
the certificate written out as a sum a person can follow, or the counterexample with its
numbers plugged into every hypothesis and the claim (`verify.explain`). Exit 0 when the step
is proved, 1 when it is refuted or unknown, 2 for an unknown or ambiguous step id (one line,
with close matches).
"""

from __future__ import annotations

import argparse
from typing import Any

from verify.cli import UsageError
from verify.commands.check import DEFAULT_GUARD, budget_option, seconds


def register(subparsers: Any) -> None:
    """Add the `explain` subcommand."""
    parser = subparsers.add_parser(
        "explain",
        help="explain one proof step: its hypotheses and certificate, or its counterexample",
        description="Check one step of a built-in proof and explain the result: the step as "
        "written with its source and note, its hypotheses, and either its certificate written "
        "out as a sum (m * claim = coefficient * [hypothesis] * ... + squares) or its "
        "counterexample with the numbers plugged into every hypothesis and the claim. "
        "Exit 0 proved, 1 refuted or unknown, 2 unknown step id.",
    )
    parser.add_argument("step", metavar="STEP_ID",
                        help="PROOF/STEP (e.g. virtue-online/part3-as-written), or a bare STEP "
                        "when only one built-in proof has it")
    budget_option(parser)
    parser.add_argument("--time-limit", type=seconds, default=DEFAULT_GUARD, metavar="S",
                        help="a wall-clock cap per judgement against hostile input "
                        f"(default {DEFAULT_GUARD:g}); verdicts come from the work budget")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Find the step, check it (and the steps it uses), print the explanation."""
    from verify.explain import UnknownStep, check_with_uses, explain, locate

    try:
        located = locate(args.step)
    except UnknownStep as exc:
        raise UsageError(str(exc)) from None
    from verify.search.work import BUDGETS as SEARCH_BUDGETS

    report = check_with_uses(located, budget=SEARCH_BUDGETS[args.budget], guard=args.time_limit)
    print(explain(located, report))
    return 0 if report.status == "proved" else 1
