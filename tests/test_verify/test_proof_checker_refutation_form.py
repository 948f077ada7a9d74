"""Refutation-form evidence (issue 16, roots): a claim `g >= 0` is proved when its negation
`-g > 0` contradicts the hypotheses, so `n**2 <= a**2 |- n <= a` needs no division or hint.

The kernel's side (what it accepts) is in tests/test_kernel_rules.py; here the checker finds
such evidence for a proof file, and a false variant is still refuted.
"""

from __future__ import annotations

from cases.steps import ROOTS as SHARED_ROOTS

from proofs.proof_file import parse_proof
from verify.coq.export import export_proof
from verify.proof_checker import check_proof

ROOTS = SHARED_ROOTS + """
[[step]]
id = "not-a-root"
given = ["n >= 0", "n**2 <= a**2"]
claim = "n <= a"

[[step]]
id = "equality-has-no-refutation-form"
given = ["a >= 0", "n >= 0", "n**2 == a**2"]
claim = "n == a"
"""


def test_a_root_is_taken_by_refuting_the_negated_claim() -> None:
    proof = parse_proof(ROOTS.encode(), "roots.toml")
    report = check_proof(proof)
    status = {s.step.id: s for s in report.steps}
    assert status["root"].status == "proved" and status["root-strict"].status == "proved"
    assert "refutation form" in status["root"].message
    assert status["root"].theorem is not None
    assert status["not-a-root"].status == "refuted"  # a = -1, n = 0
    # n == a is true here too; an equality has no refutation form (its negation is not one
    # fact), but its halves n - a >= 0 and a - n >= 0 do: it is proved by antisymmetry, the
    # evidence of each half in refutation form (`0 > 0` its claim)
    equality = status["equality-has-no-refutation-form"]
    assert equality.status == "proved" and equality.message.startswith("by antisymmetry")
    assert "refutation form" in equality.message
    # the Coq export replays the refutation by contradiction (compiled in
    # tests/test_verify/coq/test_coq_refutation_form.py)
    exported = {e.step_id: e for e in export_proof(proof, report.steps)}
    assert exported["root"].theorem == "step_root" and "by_contra_ge" in exported["root"].text
    assert "by_contra_gt" in exported["root-strict"].text
