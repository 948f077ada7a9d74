"""Verdicts depend on the work budget, never on the clock (issue 12).

A clock that races (a machine a million times slower) must not change one verdict, certificate
or counterexample of a whole proof; only an explicit guard may cut a search short, and then
the step says `time cap`.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import pytest

from proofs.proof_file import load_proof
from verify.proof_checker import check_proof
from verify.render import json as serialize

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def evidence(path: Path) -> list[tuple[str, str, object, object]]:
    """Each step's status, statement and evidence, timings left out."""
    report = check_proof(load_proof(path))
    return [(s.step.id, s.status, s.statement_text,
             [(g["label"], g["status"], g["certificate"], g["counterexample"])
              for g in serialize.step(s)["judgements"]])
            for s in report.steps]


@pytest.mark.parametrize("name", ["mistake-bound.toml", "false-step.toml"])
def test_a_racing_clock_changes_no_verdict(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calm = evidence(EXAMPLES / name)
    ticks = itertools.count(0, 10**6)  # every reading of the clock a million seconds later

    def racing() -> float:
        return float(next(ticks))

    for module in [time, *(m for n, m in sys.modules.items() if n.startswith("verify"))]:
        for clock in ("perf_counter", "monotonic", "time"):
            if callable(getattr(module, clock, None)) and module is not None:
                monkeypatch.setattr(module, clock, racing)
    assert evidence(EXAMPLES / name) == calm


def test_only_a_guard_reads_the_clock_and_it_says_so() -> None:
    report = check_proof(load_proof(EXAMPLES / "mistake-bound.toml"), guard=1e-9)
    assert {s.status for s in report.steps} <= {"unknown", "proved"}
    assert any("time cap" in s.message for s in report.steps)
