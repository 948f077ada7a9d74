"""`novikoff audit`: every built-in proof, symbolically and numerically (DESIGN.md §6).

Exit 0 when both canonical proofs are verified, 1 otherwise; findings in the source proofs
are reported, not failures, unless `--strict`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from proofs.library import PROOFS
from verify.audit import BUDGETS, run_audit
from verify.audit_report import to_json, to_text
from verify.cli import UsageError
from verify.commands.check import seconds


def register(subparsers: Any) -> None:
    """Add the `audit` subcommand."""
    parser = subparsers.add_parser(
        "audit",
        help="audit every built-in proof, symbolically and on exact runs",
        description="Prove or refute every step of the built-in proofs (the canonical "
        "perceptron proofs, their variants and the five source documents) and check each "
        "step's statement on exact runs over adversarial sequences. Exit 0 when both "
        "canonical proofs are verified; --strict also fails on findings in any proof.",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--only", action="append", metavar="ID",
                        help=f"audit only this proof (repeatable): {', '.join(PROOFS)}")
    parser.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="default",
                        help="campaign sizes (default: default)")
    parser.add_argument("--strict", action="store_true", help="fail on any finding")
    parser.add_argument("--time-limit", type=seconds, default=10.0, metavar="S",
                        help="seconds allowed per step (default 10)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Audit, print, and return the exit code."""
    unknown = [p for p in args.only or () if p not in PROOFS]
    if unknown:
        raise UsageError(f"unknown proof id {unknown[0]!r} (known: {', '.join(PROOFS)})")
    tty = sys.stderr.isatty()

    def progress(message: str) -> None:
        if tty:
            print(f"\r\x1b[K{message[:100]}", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    audit = run_audit(args.only, seed=args.seed, budget=args.budget,
                      time_limit=args.time_limit, progress=progress)
    if tty:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(to_json(audit), indent=2))
    else:
        print(to_text(audit))
    passed = audit.passed(strict=args.strict)
    print(f"audit {'passed' if passed else 'failed'} in {time.perf_counter() - start:.1f} s "
          f"(seed {args.seed}, budget {args.budget})", file=sys.stderr)
    return 0 if passed else 1
