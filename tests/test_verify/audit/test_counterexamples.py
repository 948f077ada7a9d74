"""The smallest failing run (issue 27.5): shrunk on the exact engine, written, reproducible."""

from __future__ import annotations

from pathlib import Path

from verify.api import audit_proofs
from verify.audit.counterexamples import fails, shrink_all
from verify.audit.targets import load_data

FALSE = """
title = "A false invariant"
vectors = ["w"]
scalars = ["t"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "short"
claim = "norm2(w) <= t"
note = "false: ||w_t||^2 grows with ||x||^2, which may exceed 1"
"""


def test_a_violated_step_is_written_as_its_smallest_failing_run(tmp_path: Path) -> None:
    proof = tmp_path / "false.toml"
    proof.write_text(FALSE)
    audit = audit_proofs(proof, budget="small")
    witness = audit.witnesses["false/short"]
    lines = shrink_all(audit, tmp_path)
    assert len(lines) == 1 and f"reproduce: novikoff audit {proof} --data" in lines[0]
    written = tmp_path / "false--short.csv"
    data = load_data(str(written))
    # shrunk: one example of entries +-1 (||x||^2 = 2 > 1 = t after one update); one
    # coordinate would make ||x||^2 = 1, which holds, and shrinking never enlarges an entry
    assert data.n == 1 and data.d <= witness.scenario.data.d
    assert all(abs(v) == 1 for v in data.X[0])
    # the file fails as written (the exact engine, the step's statement checked exactly)
    assert fails(witness.check, data, "online") is not None
    again = audit_proofs(proof, data=[written], budget="small")
    assert again.proofs[0].steps[0].numeric.status == "violated"
