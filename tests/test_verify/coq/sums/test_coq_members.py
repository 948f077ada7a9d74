"""A term-wise use's claim at every member, derived in Coq from the used step's theorem
(`verify.coq.sums.members`, newcomer 31 F8), and the fallback where it is not: a derivation
the export cannot make (a bound not linear) or one coqc rejects keeps the claim at every
member a premise of the theorem, and the step's line says it assumes it; the file written
is the one coqc checked."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from proofs.proof_file import parse_proof
from verify.coq import AT_EVERY_MEMBER, export_and_check, lines
from verify.coq.sums import members
from verify.proof_checker import check_proof
from verify.search.work import BUDGETS

pytestmark = [pytest.mark.usefixtures("preamble_once"),
              pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not on PATH")]

FALLBACK = b"""
title = "fallback"
scalars = ["y", "c", "j", "N"]
naturals = ["N"]
indexed = ["y"]

[[step]]
id = "member"
given = ["j >= 1", "j <= N", "c >= 0"]
claim = "c*y[j]**2 >= 0"

[[step]]
id = "sum"
claim = "c*sum(j in 1..N, y[j]**2) >= 0"
uses = [{ step = "member", sum = "j in 1..N" }]

[[step]]
id = "uses-sum"
claim = "c*sum(j in 1..N, y[j]**2) + 1 >= 1"
uses = ["sum"]

[[step]]
id = "member-any"
given = ["c >= 0"]
claim = "c*y[j]**2 >= 0"

# a bound not linear: `IZR` of `Z.of_nat N ^ 2` is not read as a real, so the export does
# not derive the claim at every member here; it stays a premise
[[step]]
id = "square"
claim = "c*sum(j in 1..N*N, y[j]**2) >= 0"
uses = [{ step = "member-any", sum = "j in 1..N*N" }]
"""


def _export(directory: Path) -> tuple[dict[str, str], list[str], str]:
    proof = parse_proof(FALLBACK, "fallback.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert report.status == "proved"
    run = export_and_check(directory, [("fallback", proof, report.steps)])
    return run.for_proof("fallback"), lines(run), (directory / "fallback.v").read_text()


def _statement(text: str, theorem: str) -> str:
    start = text.index(f"Theorem {theorem} :")
    return text[start:text.index("Proof.", start)]


def _assuming(used: str) -> str:
    return "checked" + AT_EVERY_MEMBER.format(steps=used)


def test_a_claim_at_every_member_not_derived_stays_a_premise_and_is_said(
        tmp_path: Path) -> None:
    results, report, text = _export(tmp_path)
    assert results == {"member": "checked", "sum": "checked", "uses-sum": "checked",
                       "member-any": "checked", "square": _assuming("member-any")}
    # sum's theorem is closed: the membership facts `j >= 1`, `j <= N` from its bounds
    assert "forall z'0" not in _statement(text, "step_sum")
    assert "refine (step_member nat'0 c (IZR z'0) y _ _ hyp'0)." in text
    # square's premise is the claim at every member, as the line says
    assert re.search(r"\(forall z'0 : Z, \(\(\(1\)\)%Z <= z'0 <= \(\(Z\.of_nat N \^ 2\)\)%Z\)%Z "
                     r"-> \(c \* \(\(y \(IZR z'0\)\) \^ 2\)\) >= 0\) ->",
                     _statement(text, "step_square"))
    assert ", 1 assuming a used claim at every member of a sum (" in report[-1]


@pytest.mark.slow  # four compilations of the file: its steps rejected one by one, then again
def test_a_derivation_coqc_rejects_is_exported_again_with_the_premise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the bounds no longer read as reals: `ring` fails on `IZR (Z.of_nat nat'0)`, and coqc
    # rejects the derivation in `sum` and in `uses-sum` (which derives its own copy)
    monkeypatch.setattr(members, "_AS_REALS", "idtac")
    results, report, text = _export(tmp_path)
    # both exported again with the premise, and checked so: the line says what is assumed
    assert results == {"member": "checked", "sum": _assuming("member"),
                       "uses-sum": _assuming("member"), "member-any": "checked",
                       "square": _assuming("member-any")}
    assert "rejected" not in report[-1]
    assert ", 3 assuming a used claim at every member of a sum (" in report[-1]
    # the file written is the one coqc checked: the premise in the statements, no derivation
    for theorem in ("step_sum", "step_uses_sum"):
        assert "(forall z'0 : Z," in _statement(text, theorem)
    assert "IZR_le" not in text
