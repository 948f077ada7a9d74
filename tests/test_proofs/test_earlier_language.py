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
from proofs.library import load_builtin
from proofs.proof_file import load_proof, parse_proof
from proofs.step import Induction
from verify.cli import main
from verify.proof_checker import check_proof

EARLIER = Path(__file__).resolve().parents[1] / "cases" / "earlier"

#: file -> the status `check` gives it now (the 15 proof files of 63a7ff5^: three examples,
#: twelve library proofs; the seeds "as written" keep their refuted steps).
ACCEPTED = {"mistake-bound.toml": "proved", "canonical-online.toml": "proved",
            "canonical-online-w0.toml": "proved", "joeyonng-online.toml": "refuted",
            "canonical-online-eta.toml": "proved", "canonical-online-bias.toml": "proved",
            "canonical-online-kernel.toml": "proved",
            "canonical-online-normalised.toml": "proved", "chan-batch.toml": "refuted",
            "ng-cs229.toml": "refuted", "telgarsky-online.toml": "refuted",
            "virtue-online.toml": "refuted", "norm-growth.toml": "proved",
            "false-step.toml": "refuted"}
#: file -> why it is refused: its update is about names the step also mentions. In
#: canonical-batch's xbar-norm the base starts the sum from `y*x`, the very term each update
#: adds, and the hypotheses bound that x and y: the earlier check read every term of the sum
#: as one example (the capture; the library re-encoded it with x0, y0 in 63a7ff5). Held fixed,
#: the theorem would be about sums of one repeated example, so it is not accepted.
REFUSED = {"canonical-batch.toml":
           r"step xbar-norm: .*\(x: the base starts the run from it, as every update adds it; "
           r"y: the base starts the run from it.*not inferred constant"}


def test_every_proof_file_of_the_earlier_language_is_here() -> None:
    assert sorted(p.name for p in EARLIER.glob("*.toml")) == sorted({*ACCEPTED, *REFUSED})


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_an_earlier_file_is_checked_with_its_declarations_stated(name: str) -> None:
    proof = load_proof(EARLIER / name)
    report = check_proof(proof)
    assert report.status == ACCEPTED[name]
    assert all(n.startswith(f"{EARLIER / name}:") for n in proof.notes)
    inductions = [s for s in proof.steps if isinstance(s.rule, Induction)]
    assert bool(proof.notes) == bool(inductions)
    assert bool(inductions) == any("add `naturals = [" in n for n in proof.notes)
    for step, stepped in zip(proof.steps, report.steps, strict=True):
        if isinstance(step.rule, Induction) and step.rule.constants:
            listed = ", ".join(step.rule.constants)
            assert f"{listed} constant" in stepped.statement_text
            assert any(f"step {step.id}: an induction without `constants`" in n
                       for n in proof.notes)


#: (file, step) -> the constants inferred: a learning rate and the bias unit, which the update
#: reads (`w + eta*y*x`, `w + y*(x + c*e)`), are inferred now (they exited 2 before); the
#: example x and its label y are not.
UPDATE_PARAMETERS = {
    ("canonical-online-eta.toml", "lower-bound"): ("eta", "gamma_u", "u"),
    ("canonical-online-eta.toml", "norm-growth"): ("R2", "eta"),
    ("canonical-online-bias.toml", "lower-bound"): ("e", "gamma_u", "u", "ub"),
    ("canonical-online-bias.toml", "norm-growth"): ("R2a",),
}


@pytest.mark.parametrize(("name", "step_id"), sorted(UPDATE_PARAMETERS))
def test_a_parameter_the_update_reads_is_inferred_constant_as_the_library_declares_it(
        name: str, step_id: str) -> None:
    proof = load_proof(EARLIER / name)
    step = proof.step(step_id)
    assert isinstance(step.rule, Induction)
    assert step.rule.constants == UPDATE_PARAMETERS[(name, step_id)]
    assert not {"x", "y"} & set(step.rule.constants)  # the example stays per-update
    # the library's re-encoding (63a7ff5 on) declares at least these: the same meaning
    library = load_builtin(name.removesuffix(".toml")).step(step_id)
    assert isinstance(library.rule, Induction)
    assert set(step.rule.constants) <= set(library.rule.constants)
    stated = next(s for s in check_proof(proof).steps if s.step.id == step_id)
    assert stated.status == "proved"
    assert "x, y fresh at each update" in stated.statement_text or \
        "c, x, y fresh at each update" in stated.statement_text


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_earlier_file_whose_update_is_about_what_it_mentions_is_refused_with_why(
        name: str) -> None:
    with pytest.raises(ProofFileError, match=REFUSED[name]) as raised:
        load_proof(EARLIER / name)
    assert "the capture the stricter rules closed" in str(raised.value)


def test_the_cli_refuses_it_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EARLIER / "canonical-batch.toml")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"novikoff: error: {EARLIER / 'canonical-batch.toml'}:")


CAPTURE = b"""title = "issue 12: an invariant that mentions the example of the update"
vectors = ["w", "x"]
scalars = ["y", "t"]

[[step]]
id = "capture"
given = []
claim = "dot(w, x) == t*y*norm2(x)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0"]
"""


def test_without_a_selection_condition_no_name_the_update_reads_is_inferred() -> None:
    """Without `y*dot(w, x) <= 0` nothing in the file says x, y are the example the update
    adds rather than parameters like eta: they are not inferred constant (the capture would
    be back, stated or not)."""
    text = CAPTURE.replace(b'given = ["y**2 == 1", "y*dot(w, x) <= 0"]', b'given = ["y**2 == 1"]')
    assert text != CAPTURE
    with pytest.raises(ProofFileError, match=r"x: no update fact over these runs reads the "
                       r"iterate.*; y: no update fact.*not inferred constant"):
        parse_proof(text, "capture.toml")


def test_a_selection_condition_in_another_induction_over_the_same_runs_counts() -> None:
    """canonical-online-eta's lower-bound has no mistake condition, its norm-growth over the
    same runs does: eta is inferred in both, x and y in neither."""
    proof = load_proof(EARLIER / "canonical-online-eta.toml")
    lower = proof.step("lower-bound")
    assert inferred_constants(lower, selected=False) == ("gamma_u", "u")  # on its own
    assert isinstance(lower.rule, Induction) and "eta" in lower.rule.constants


def test_issue_12s_capture_stays_refused() -> None:
    """x and y are the example of the update at hand (the mistake condition reads them with
    the iterate): not inferred constant, whatever the earlier language held."""
    with pytest.raises(ProofFileError, match=r"x: the update fact `y\*dot\(w, x\) <= 0` "
                       r"reads it with the iterate; y: .*not inferred constant"):
        parse_proof(CAPTURE, "capture.toml")


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
