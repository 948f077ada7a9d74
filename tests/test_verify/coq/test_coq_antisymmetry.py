"""An equality proved by antisymmetry, replayed in Coq: each half by its certificate (the
chain's directly, the squares' by contradiction), then `by_antisym` (`Rle_antisym`); no
decision procedure, nothing admitted. Compiling skips without coqc."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from cases.steps import EQUALITIES

from proofs.proof_file import parse_proof
from verify.coq import export_and_check
from verify.proof_checker import check_proof

# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit)\b")
STEPS = ["chain", "sum-of-squares-zero", "sum-of-squares-nonpositive"]


def _export(tmp_path: Path, compile: bool) -> tuple[dict[str, str], str]:
    proof = parse_proof(EQUALITIES.encode(), "equalities.toml")
    report = check_proof(proof)
    run = export_and_check(tmp_path, [("equalities", proof, list(report.steps))],
                           compile=compile)
    return run.for_proof("equalities"), (tmp_path / "equalities.v").read_text()


def test_each_half_is_replayed_and_joined_by_antisymmetry(tmp_path: Path) -> None:
    results, text = _export(tmp_path, compile=False)
    assert all(not r.startswith("not exported") for r in results.values())
    assert text.count("refine (by_antisym") == 3
    assert "refine (by_antisym x (- (x)) _" in text
    assert text.count("by_contra_ge") == 4  # the squares' four halves, by contradiction
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))


@pytest.mark.skipif(COQC is None, reason="coqc is not on PATH (apt-get install coq)")
def test_the_equalities_compile(tmp_path: Path) -> None:
    results, _ = _export(tmp_path, compile=True)
    assert results == dict.fromkeys(STEPS, "checked")
