"""Term-wise facts the checker found itself (`verify.search.sums.termwise`) exported to Coq
as if the user had written them: each lemma a theorem before its step, the step's premise
the lemma's claim for every member (derived into the sum for a direct step, as a user's
term-wise use, and reported as assumed: it is not derived from the lemma's theorem), and a
later step applying the step's theorem; coqc checks every one."""

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
    # the sum is derived in Coq, but its premise, the lemma's claim at every member, is not
    # derived from the lemma's theorem: plain `checked` said more (newcomer 31 F8)
    # c's own lemma named, though b's has the same claim (the export derives one per claim)
    assert run.results[("found", "c")] == (
        "checked, assuming the claim of c-termwise-1 at every member of the sum (a premise of "
        "this theorem, not derived in Coq from its theorem)")
    assert run.results[("found", "order")] == (
        "checked, assuming the claim of order-termwise-1 at every member of the sum (a premise "
        "of this theorem, not derived in Coq from its theorem)")
    # d applies c's theorem, so it states (and assumes) c's premise too
    assert run.results[("found", "d")] == run.results[("found", "c")]
    assert run.results[("found", "c-termwise-1")] == "checked"
    assert "3 assuming a used claim at every member of a sum" in summary_line(run)
