"""`novikoff list [--json]`: the built-in proofs and examples, the names other commands take.

Proof ids go to `novikoff check ID`, `novikoff explain ID/STEP` and `novikoff audit --only
ID`; example names to `novikoff run --example NAME` and `novikoff bound --example NAME`.
Each example says whether it is meant with a bias (its runs then learn one by augmentation).
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    """Add the `list` subcommand."""
    parser = subparsers.add_parser(
        "list",
        help="list the built-in proofs and examples",
        description="List the built-in proofs (ids for check, explain and audit --only) and "
        "the built-in examples (names for run --example and bound --example).",
    )
    parser.add_argument("--json", action="store_true", help="print the lists as JSON")
    parser.set_defaults(handler=run)


def catalogue() -> dict[str, list[dict[str, Any]]]:
    """Every built-in proof (id, kind, title, steps, source) and example (name, size, bias)."""
    from perceptron.examples import EXAMPLES
    from proofs.library import CANONICAL, PROOFS, RESULTS, SOURCES, summary

    proofs = []
    for proof_id in PROOFS:
        title, steps, source = summary(proof_id)
        kind = ("canonical" if proof_id in CANONICAL else "source" if proof_id in SOURCES
                else "result" if proof_id in RESULTS else "variant")
        proofs.append({"id": proof_id, "kind": kind, "title": title, "steps": steps,
                       "source": source})
    examples = []
    for name, example in EXAMPLES.items():  # sizes as stated: building one costs NumPy
        n, d = example.size
        examples.append({"name": name, "n": n, "d": d, "bias": example.bias,
                         "source": example.source, "shows": example.shows})
    return {"proofs": proofs, "examples": examples}


def run(args: argparse.Namespace) -> int:
    """Print the two tables (or the JSON)."""
    from verify.cli.terminal import print_table

    listed = catalogue()
    if args.json:
        print(json.dumps(listed, indent=2))
        return 0
    print_table("built-in proofs (novikoff check ID, explain ID/STEP, audit --only ID)",
                ["id", "kind", "steps", "title"],
                [[p["id"], p["kind"], str(p["steps"]), p["title"]] for p in listed["proofs"]])
    print_table("built-in examples (novikoff run --example NAME, bound --example NAME)",
                ["name", "n x d", "bias", "what it shows"],
                [[e["name"], f"{e['n']} x {e['d']}", "yes" if e["bias"] else "no", e["shows"]]
                 for e in listed["examples"]])
    return 0
