"""Term-wise facts the checker found itself (`verify.search.sums.termwise`) exported to Coq
as if the user had written them: each lemma a theorem before its step, the lemma's claim for
every member derived in the step's proof from the lemma's theorem and the sum from it (a
direct step, as a user's term-wise use: the theorem is closed), and a later step applying
the step's theorem; coqc checks every one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from proofs.proof_file import parse_proof
from verify.coq import export_and_check, summary_line
from verify.proof_checker import check_proof

pytestmark = pytest.mark.usefixtures("preamble_once")
needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not on PATH")

FOUND = b'''
title = "found"
vectors = ["x", "th"]
scalars = ["y", "z", "N", "k", "t", "s"]
naturals = ["N", "t"]
indexed = ["x", "y", "z"]

[sets]
Q = { index = "k", range = "1..N", where = ["y[k] <= z[k]"] }

[[step]]
id = "b"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + sum(k in 1..N, y[k]**2)" }
constants = ["y", "N"]

[[step]]
id = "c"
claim = "sum(k in 1..N, y[k]**2) >= 0"

[[step]]
id = "d"
claim = "sum(k in 1..N, y[k]**2) + 1 >= 1"
uses = [{ step = "c" }]

[[step]]
id = "order"
claim = "sum(k in Q, y[k]) <= sum(k in Q, z[k])"
'''


@needs_coqc
@pytest.mark.slow  # 7 s of coqc: the suite's 5 minutes, run by `-m slow` in .ci/run
def test_steps_proved_with_facts_found_are_checked_by_coqc(tmp_path: Path) -> None:
    proof = parse_proof(FOUND, "found.toml")
    report = check_proof(proof, store=None)
    assert report.status == "proved"
    assert [len(s.termwise) for s in report.steps] == [1, 1, 0, 1]
    run = export_and_check(tmp_path, [("found", proof, report.steps)])
    assert list(run.for_proof("found")) == ["b-termwise-1", "b", "c-termwise-1", "c", "d",
                                            "order-termwise-1", "order"]
    assert all(r.startswith("checked") for r in run.results.values()), run.results
    # the sum is derived in Coq, and so is the lemma's claim at every member, from the
    # lemma's theorem: the theorem is closed and `checked` plain (newcomer 31 F8: it took
    # that claim as a premise, and said `checked, assuming the claim of c-termwise-1 ...`);
    # from c's own lemma, though b's has the same claim (the export sums one per claim)
    for step in ("c", "order", "d"):  # d applies c's theorem and derives its copy too
        assert run.results[("found", step)] == "checked"
    text = (tmp_path / "found.v").read_text()
    for step in ("c", "order", "d"):
        statement = text[text.index(f"Theorem step_{step} :"):]
        assert "forall z'0" not in statement[:statement.index("Proof.")]
    assert "refine (step_c_termwise_1 nat'0 (IZR z'0) y _ _)." in text
    assert "refine (step_order_termwise_1 nat'0 (IZR z'0) y z _ _ _)." in text
    assert "at every member" not in summary_line(run)
