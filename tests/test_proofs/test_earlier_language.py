"""Files of the earlier proof language keep working (issue 27.8): `constants` and `naturals`
inferred, stated in the statements, and named in one note each with the line to add.

tests/cases/earlier/ holds files as the repository had them before `constants` and
`naturals` existed (commit 63a7ff5^), byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proofs.earlier import inferred_constants
from proofs.errors import ProofFileError
from proofs.proof_file import load_proof, parse_proof
from proofs.step import Induction
from verify.cli import main
from verify.proof_checker import check_proof

EARLIER = Path(__file__).resolve().parents[1] / "cases" / "earlier"

#: file -> the status `check` gives it now, or the name its refusal names.
ACCEPTED = {"mistake-bound.toml": "proved", "canonical-online.toml": "proved",
            "canonical-online-w0.toml": "proved", "joeyonng-online.toml": "refuted"}
#: the learning rate is read by the update itself (w := w + eta*y*x): like the example, it
#: stays per-update unless listed, and the refusal says which line to add.
REFUSED = {"canonical-online-eta.toml": "mentions eta"}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_an_earlier_file_is_checked_with_its_declarations_stated(name: str) -> None:
    proof = load_proof(EARLIER / name)
    report = check_proof(proof)
    assert report.status == ACCEPTED[name]
    assert proof.notes and all(n.startswith(f"{EARLIER / name}:") for n in proof.notes)
    assert any("add `naturals = [" in n for n in proof.notes)
    for step, stepped in zip(proof.steps, report.steps, strict=True):
        if isinstance(step.rule, Induction) and step.rule.constants:
            listed = ", ".join(step.rule.constants)
            assert f"{listed} constant" in stepped.statement_text
            assert any(f"step {step.id}: an induction without `constants`" in n
                       for n in proof.notes)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_name_the_update_adds_stays_per_update(name: str) -> None:
    proof = load_proof(EARLIER / name)
    with pytest.raises(ProofFileError, match=f"{REFUSED[name]}.*unless listed in the induction"):
        check_proof(proof)


OLD = """title = "old style"
vectors = ["w", "x", "u"]
scalars = ["y", "t", "R", "gamma"]

[[step]]
id = "progress"
claim = "dot(w, u) >= t*gamma"
[step.induction]
variable = "t"
base = {{ w = "0*w" }}
step = {{ w = "w + y*x" }}
given = ["y**2 == 1", "y*dot(w, x) <= 0", "y*dot(u, x) >= gamma"{constants}]

[[step]]
id = "use"
given = ["t >= 1", "gamma > 0"]
claim = "dot(w, u) >= gamma"
uses = ["progress"]
"""


def test_the_inference_names_fixed_quantities_only() -> None:
    proof = parse_proof(OLD.format(constants="").encode(), "old.toml")
    step = proof.steps[0]
    assert inferred_constants(step) == ("gamma", "u")  # x, y: the update adds them
    assert isinstance(step.rule, Induction) and step.rule.constants == ("gamma", "u")
    assert proof.naturals == ("t",)
    assert proof.notes == (
        'old.toml:6: note: step progress: an induction without `constants` (the earlier '
        'language): gamma, u held fixed for the whole run, as then; add `constants = '
        '["gamma", "u"]` to its [step.induction]',
        'old.toml:1: note: no `naturals` (the earlier language): t natural, as the '
        'inductions\' counters; add `naturals = ["t"]` at the top level')
    report = check_proof(proof)
    assert [s.status for s in report.steps] == ["proved", "proved"]
    assert "(x, y fresh at each update; gamma, u constant)" in report.steps[0].statement_text
    assert report.steps[1].statement_text.startswith("t in Nat")


def test_a_file_that_declares_the_keys_is_read_strictly() -> None:
    strict = OLD.format(constants="]\nconstants = [").replace(
        'scalars = ["y", "t", "R", "gamma"]', 'scalars = ["y", "t", "R", "gamma"]\nnaturals = []')
    proof = parse_proof(strict.encode(), "new.toml")
    assert proof.notes == () and proof.naturals == ()
    with pytest.raises(ProofFileError, match="mentions gamma, u"):
        check_proof(proof)


def test_the_cli_prints_each_note_and_checks_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.toml"
    path.write_text(OLD.format(constants=""))
    assert main(["check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "old style: proved" in out
    notes = err.splitlines()
    assert len(notes) == 2 and all(n.startswith(f"novikoff: {path}:") for n in notes)
