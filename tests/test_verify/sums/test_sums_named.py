"""Sums of vectors named as vectors (`proof_checker._with_named_sums`, the kernel's
`VectorSum`): a step with a sum of vectors that the search leaves unknown is decided again
with each sum a fresh vector whose inner products the kernel reads by bilinearity. True
steps users write about such sums (a square, Cauchy–Schwarz, the expansion of a square with
the cross term) are proved, saying so; false ones are never proved; the names cross
processes and are replayed by the kernel; `--coq` exports such a step."""

from __future__ import annotations

import functools
import pickle

import pytest

from proofs.proof_file import parse_proof
from verify.audit.job import Audit
from verify.proof_checker import check_proof, detached, replay

HEAD = '''
title = "named"
vectors = ["th", "x", "Sum1"]
scalars = ["y", "k", "j", "c"]
naturals = ["k"]
indexed = ["x", "y"]

[[step]]
id = "s"
claim = "{claim}"
'''
SUM = "sum(j in 1..k, y[j]*x[j])"
POSITIVE = "sum(j in 1..k, x[j])"

#: (claim, proved?): each true one was unknown before the sums were named.
CASES = [
    (f"norm2(th - {SUM}) >= 0", True),
    (f"2*dot(th, {SUM}) <= dot(th, th) + norm2({SUM})", True),
    (f"dot(th, {SUM})**2 <= dot(th, th)*norm2({SUM})", True),  # Cauchy–Schwarz
    (f"norm2(th + c*{SUM}) >= 0", True),
    (f"norm2({SUM} - {POSITIVE}) >= 0", True),  # two sums named
    # false: the appendix's error (no cross terms), a wrong direction, a wrong constant
    (f"norm2({SUM}) == sum(j in 1..k, y[j]**2*norm2(x[j]))", False),
    (f"dot(th, {SUM}) <= dot(th, th)", False),
    (f"norm2(th - {SUM}) >= dot(th, th)", False),
    (f"4*dot(th, {SUM}) <= dot(th, th) + norm2({SUM})", False),
]


@functools.cache
def checked(claim: str) -> object:
    """The proof of `claim` and its report, made once per test process: four tests read the
    first case's (reports are frozen: no test can change what another reads)."""
    proof = parse_proof(HEAD.format(claim=claim).encode(), "named.toml")
    return proof, check_proof(proof)


#: The suite's five minutes: the two costliest true cases (about 3 CPU-s each: the
#: coefficient inside the square, two sums named) with `-m slow`; every kind of true step
#: keeps a case in every run (a square, the expansion, Cauchy–Schwarz), every false one runs.
SLOW_CASES = {CASES[3][0], CASES[4][0]}


@pytest.mark.parametrize(("claim", "true"), [
    pytest.param(claim, true, marks=pytest.mark.slow) if claim in SLOW_CASES else (claim, true)
    for claim, true in CASES])
def test_true_steps_with_sums_of_vectors_are_proved_and_false_ones_never(
        claim: str, true: bool) -> None:
    _, report = checked(claim)
    step = report.steps[0]
    assert (step.status == "proved") is true, step.message
    if true:  # the file declares Sum1: the names are fresh (Sum1_)
        assert "with its sums of vectors named as vectors" in step.message
        assert f"Sum1_ = {SUM}" in step.message or f"Sum1_ = {POSITIVE}" in step.message


def test_the_named_sums_cross_processes_and_are_replayed_by_the_kernel() -> None:
    proof, report = checked(CASES[0][0])
    sent = [pickle.loads(pickle.dumps(detached(s))) for s in report.steps]
    again = replay(proof, sent)
    assert [s.status for s in again] == ["proved"] and again[0].theorem is not None


def test_coq_exports_such_a_step(tmp_path) -> None:
    """Once `not exported: its sums of vectors are named as vectors`; now its theorem is
    written, Sum1_ defined in its proof (tests/test_verify/coq/sums/test_coq_named.py
    compiles such steps)."""
    from verify.coq import NOT_RUN, export_and_check

    proof, report = checked(CASES[0][0])
    run = export_and_check(tmp_path, [("named", proof, report.steps)], compile=False)
    assert run.results[("named", "s")] == NOT_RUN
    assert "pose (Sum1_ := (vzsum " in (tmp_path / "named.v").read_text()


@pytest.fixture(scope="module")
def named_audit(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    """The small audit of the first case's file, made once for the three formats (each
    test audited it again: about 1 CPU-s each). Audits are frozen."""
    from verify.audit.job import run_audit

    (path := tmp_path_factory.mktemp("named") / "named.toml").write_text(
        HEAD.format(claim=CASES[0][0]))
    return run_audit([str(path)], budget="small")


@pytest.mark.parametrize("fmt", ["markdown", "html", "latex"])
def test_the_reports_say_which_sums_were_named(named_audit: Audit, fmt: str) -> None:
    """The certificate's facts read Sum1_, which the statement does not: every report says what
    it names, beside the step (seen in a rendered LaTeX handout: the appendix's facts
    `<S1, th> - ... = 0` with S1 defined nowhere)."""
    from verify.cli.audit import renderer

    failures: list[str] = []
    text = renderer(fmt)(named_audit, failures, None)
    assert not failures
    assert "Proved with its sums of vectors named as vectors" in text
    assert "Sum1_ = sum(j in 1..k, y" in text.replace("\\_", "_").replace("\\[", "[")


@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_wide_sums_are_not_named_and_a_hostile_name_is_rejected_on_replay() -> None:
    """rtnamed F3: two givens each with a sum of 33 vectors made the named sums' facts pass
    Python's recursion limit (a traceback, 20 s); such sums are not named (at most
    `kernel.MAX_MEMBERS` vectors in a body; 9 here, for the suite's time). F2: a detached
    report naming no sum of vectors stopped the whole replay (IndexError); it is that
    step's rejection."""
    from dataclasses import replace

    given = ", ".join('"dot(th, sum(j in 1..k, ' + " + ".join(
        f"x[j+{m}]" for m in range(start, start + 9)) + ')) >= 1"' for start in (0, 100))
    wide = parse_proof(HEAD.format(claim=f"dot(th, {POSITIVE})**2 <= norm2(th)*norm2({POSITIVE})")
                       .replace('id = "s"', f'id = "s"\ngiven = [{given}]').encode(), "wide.toml")
    step = check_proof(wide).steps[0]  # proved with the one narrow sum named, or not: no crash
    assert all(text == POSITIVE for _, text in step.step.named)
    proof, report = checked(CASES[0][0])
    for bad in ("dot(th, th)", "sum(j in 1..k", f"{SUM} + {SUM}"):
        step = replace(report.steps[0].step, named=(("Sum1_", bad),))
        sent = replace(detached(report.steps[0]), step=step)
        again = replay(proof, [pickle.loads(pickle.dumps(sent))])
        assert again[0].status != "proved" and again[0].theorem is None


def test_the_fresh_name_prints_as_no_declared_name_does() -> None:
    """rtnamed F4: the fresh name `S1` and a declared `S_1` both printed S₁, so `explain`
    showed <S1,S_1> and <S1,S1> alike; `Sum1` prints as written."""
    from verify.render.certificates import Text
    from verify.typeset.names import spelling

    text = HEAD.replace('"Sum1"', '"S_1"').format(claim=f"norm2(S_1 - {SUM}) >= 0")
    proof = parse_proof(text.encode(), "named.toml")
    step = check_proof(proof).steps[0]
    assert step.status == "proved" and step.step.named == (("Sum1", SUM),)
    names = Text(spelling(proof))
    assert names.name("Sum1") == "Sum1" and names.name("S_1") == "S₁"
