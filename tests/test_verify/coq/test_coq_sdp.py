"""Certificates found by the SDP (dense sums of squares, exactly rounded) re-checked by Coq
(issue 28, item 6): benchmark goals proved by `semidefinite squares` are exported and compiled
by coqc, a second kernel independent of ours. Compiling skips without coqc."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from proofs.proof_file import parse_proof
from verify.coq import export_and_check
from verify.proof_checker import check_proof

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

import sos

# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit)\b")
LINES = (1792, 1819, 1805, 1891)  # 3 variables; AM-GM; 2 variables; an irrational zero


def _exported(tmp_path: Path, compile: bool) -> tuple[dict[str, dict[str, str]], str]:
    checked = []
    for goal in (g for g in sos.GOALS if g.source == sos.S and g.line in LINES):
        proof = parse_proof(goal.toml().encode(), goal.label)
        (step,) = check_proof(proof).steps
        assert step.message == "certificate by semidefinite squares"
        checked.append((f"sos{goal.line}", proof, [step]))
    run = export_and_check(tmp_path, checked, compile=compile)
    text = "".join((tmp_path / f"sos{line}.v").read_text() for line in LINES)
    return {f"sos{line}": run.for_proof(f"sos{line}") for line in LINES}, text


def test_sdp_certificates_are_exported_without_a_decision_procedure(tmp_path: Path) -> None:
    results, text = _exported(tmp_path, compile=False)
    assert all(not r["goal"].startswith("not exported") for r in results.values())
    assert "pow2_ge_0" in text  # the rounded squares, each a lemma application
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
@pytest.mark.skipif(COQC is None, reason="coqc is not on PATH (apt-get install coq)")
def test_sdp_certificates_compile(tmp_path: Path) -> None:
    results, _ = _exported(tmp_path, compile=True)
    assert results == {f"sos{line}": {"goal": "checked"} for line in LINES}
