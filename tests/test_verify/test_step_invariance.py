"""Invariance of verdicts (issue 28, item 5): adding names a step never uses, and hypotheses
mentioning only those, leaves the verdict of every step unchanged: the obligations of the
built-in proofs' steps and the SOS benchmark's goals (tests/test_verify/search/
test_relevance.py covers the table of tests/cases/steps.py). Derandomized and bounded by
example counts, so the same examples run every time."""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

from cases.padding import UNUSED_SCALARS, UNUSED_TEXTS, UNUSED_VECTORS, padded
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.library import PROOFS, load_builtin
from proofs.proof_file import parse_proof
from verify import kernel
from verify.proof_checker import check_proof, sequent, statements, used_statement
from verify.prover import decide
from verify.search.work import BUDGETS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import sos

BOUNDED = settings(max_examples=15, derandomize=True, deadline=None, database=None)


@cache
def _obligations() -> list[tuple[str, kernel.Judgement, tuple[object, ...]]]:
    """Every obligation of every built-in proof's steps, with the step's hints (made when a
    test first reads them, once per process: not while collecting, in every worker)."""
    out = []
    for proof_id in sorted(PROOFS):
        proof = load_builtin(proof_id)
        stated = statements(proof)
        for step in proof.steps:
            if stated[step.id] is None:
                continue
            used = [used_statement(u, stated[u.step]) for u in step.uses]  # type: ignore[arg-type]
            for goal in kernel.obligations(sequent(proof, step, used)):
                out.append((f"{proof_id}/{step.id}/{goal.label}", goal.judgement, step.hints))
    return out


# the benchmark's goals decided in well under a second (the slowest take seconds each)
QUICK_GOALS = [g for g in sos.GOALS if g.line not in (1617, 1664, 1891)]


@BOUNDED
@given(st.deferred(lambda: st.sampled_from(_obligations())), st.integers(1, 5), st.booleans())
def test_a_built_in_obligation_keeps_its_verdict_in_a_bigger_file(
        case: tuple[str, kernel.Judgement, tuple[object, ...]], count: int, first: bool) -> None:
    where, judgement, hints = case
    budget = BUDGETS["small"]
    alone = decide(judgement, hints=hints, budget=budget)  # type: ignore[arg-type]
    bigger = decide(padded(judgement, count, first), hints=hints, budget=budget)  # type: ignore[arg-type]
    assert bigger.status == alone.status, (where, alone.message, bigger.message)


def _status(goal: sos.Goal) -> str:
    text = goal.toml()
    if any(name in goal.toml() for name in UNUSED_VECTORS):
        quoted = ", ".join(f'"{v}"' for v in UNUSED_VECTORS)
        text = text.replace("\nscalars", f"\nvectors = [{quoted}]\nscalars", 1)
    (step,) = check_proof(parse_proof(text.encode(), goal.label)).steps
    return step.status


@BOUNDED
@given(st.sampled_from(QUICK_GOALS), st.integers(1, len(UNUSED_TEXTS)))
def test_a_benchmark_goal_keeps_its_verdict_in_a_bigger_file(goal: sos.Goal,
                                                             count: int) -> None:
    bigger = replace(goal, scalars=(*goal.scalars, *UNUSED_SCALARS),
                     given=(*UNUSED_TEXTS[:count], *goal.given))
    assert _status(bigger) == _status(goal), goal.label


def test_the_built_in_obligations_are_all_sampled_from() -> None:
    assert len(_obligations()) > 100  # every built-in proof's steps, not only a few
    assert len({where.split("/")[0] for where, _, _ in _obligations()}) == len(PROOFS)
