"""Users' proof files through the audit (issue 27): the same path as a built-in proof, names
bound to run expressions, not-run reasons, users' data, faults in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from proofs.library import PROOFS
from verify.audit.job import Audit, run_audit
from verify.audit.report import to_json, to_text
from verify.cli import main

GROWTH = """
title = "norm growth, with the margin named"
vectors = ["th", "x"]
scalars = ["y", "margin", "R2", "z"]

[numeric]
run = "online"
names = { th = "w", margin = "y*dot(w, x)" }
%s

[[step]]
id = "growth"
given = ["y**2 == 1", "margin <= 0", "norm2(x) <= R2"]
claim = "norm2(th + y*x) <= norm2(th) + R2"
hints = ["th - x"]

[[step]]
id = "stranger"
given = ["z >= 0"]
claim = "z + norm2(th) >= 0"
"""


#: A built-in proof on runs (quick at --budget small), for the data given with --data.
GROWTH_ID = "canonical-online"


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _rows(audit: Audit) -> list[tuple[str, str, str, int, int]]:
    return [(s.step.id, s.symbolic.status, "not-run" if s.numeric is None else s.numeric.status,
             0 if s.numeric is None else s.numeric.instances,
             0 if s.numeric is None else s.numeric.violations)
            for p in audit.proofs for s in p.steps]


def test_a_builtin_proof_copied_to_a_file_audits_exactly_as_the_builtin(tmp_path: Path):
    copy = tmp_path / "mine.toml"
    shutil.copy(PROOFS["canonical-online"], copy)
    builtin = run_audit(["canonical-online"], budget="small")
    mine = run_audit([str(copy)], budget="small")
    assert _rows(mine) == _rows(builtin)  # same verdicts, same instance counts
    assert sum(r[3] for r in _rows(mine)) > 10_000
    assert mine.proofs[0].id == "mine" and mine.proofs[0].file and mine.passed()


def test_names_denote_run_expressions_and_a_step_binding_nothing_says_why(tmp_path: Path):
    audit = run_audit([_write(tmp_path, "g.toml", GROWTH % "")], budget="small")
    growth, stranger = audit.proofs[0].steps
    assert growth.numeric is not None and growth.numeric.status == "held"
    assert growth.numeric.instances > 1000 and growth.numeric.vacuous > 0  # margin > 0 rows
    assert stranger.numeric is None
    assert stranger.reason == ("z is no quantity of an online run: bind it in [numeric] "
                               "names")
    step = to_json(audit)["proofs"][0]["steps"][1]
    assert step["numeric"]["status"] == "not-run"
    assert step["numeric"]["reason"] == stranger.reason
    assert f"g/stranger: {stranger.reason}" in to_text(audit)


def test_an_expression_of_an_unknown_quantity_is_refused_naming_the_closest(tmp_path: Path):
    bad = _write(tmp_path, "bad.toml",
                 (GROWTH % "").replace('"y*dot(w, x)"', '"y*dot(w, xx)"'))
    good = _write(tmp_path, "good.toml", GROWTH % "")
    audit = run_audit([bad, good], budget="small")
    assert [p.id for p in audit.proofs] == ["good"]  # the other proof is still audited
    (error,) = audit.errors
    lines = GROWTH.splitlines()
    line = next(i for i, text in enumerate(lines) if "margin =" in text)
    column = lines[line].index("y*dot") + len("y*dot(w, ") + 1  # at the unknown name
    assert error.startswith(f"{bad}:{line + 1}:{column}: numeric.names.margin = "
                            "'y*dot(w, xx)': 'xx' is no "
                            "quantity of online runs (closest: 'x'); they offer: G, Gb, J,")


@pytest.mark.parametrize(("names", "problem"), [
    ('{ th = "t" }', "expected a linear combination of vectors"),
    ('{ margin = "w" }', "a vector is used outside dot()/norm2()"),
    ('{ margin = "1/t" }', "divides by a run quantity"),
])
def test_a_term_of_the_wrong_sort_or_a_division_is_refused(tmp_path: Path, names: str,
                                                           problem: str):
    text = (GROWTH % "").replace('{ th = "w", margin = "y*dot(w, x)" }', names)
    audit = run_audit([_write(tmp_path, "p.toml", text)], budget="small")
    assert not audit.proofs and problem in audit.errors[0]


def test_a_proofs_data_files_are_run_relative_to_the_proof(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub", "d.csv", "x1,x2,label\n2,1,1\n-1,-3,-1\n1,-1,1\n-2,1,-1\n")
    plain = run_audit([_write(tmp_path, "g.toml", GROWTH % "")], budget="small")
    mine = run_audit([_write(tmp_path, "h.toml", GROWTH % 'data = ["sub/d.csv"]')],
                     budget="small")
    before, after = (a.proofs[0].steps[0].numeric for a in (plain, mine))
    assert before is not None and after is not None
    assert after.instances > before.instances and after.status == "held"


def test_a_data_file_that_fails_is_one_line_and_exit_2_the_others_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    _write(tmp_path, "broken.csv", "1,2,1\n3,x,-1\n")
    broken = _write(tmp_path, "b.toml", GROWTH % 'data = ["broken.csv"]')
    good = _write(tmp_path, "good.toml", GROWTH % "")
    code = main(["audit", broken, good, "--budget", "small", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert [p["id"] for p in json.loads(out)["proofs"]] == ["good"]
    errors = [line for line in err.splitlines() if line.startswith("novikoff: error:")]
    assert len(errors) == 1 and "broken.csv:2" in errors[0]


def test_every_bad_data_file_is_one_line_naming_it_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Trial item 16: only the first bad `[numeric] data` file was reported, and `--data`
    errors named the file twice ("nan.csv: nan.csv:2:1: ...")."""
    _write(tmp_path, "nan.csv", "1,2,1\nnan,1,-1\n")
    _write(tmp_path, "huge.csv", "1e999999999,1\n")
    proof = _write(tmp_path, "b.toml", GROWTH % 'data = ["nan.csv", "none.csv", "huge.csv"]')
    assert main(["audit", proof, "--budget", "small", "--jobs", "1"]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines()
              if line.startswith("novikoff: error:")]
    assert errors == [
        f"novikoff: error: {proof}: {tmp_path / 'nan.csv'}:2:1: 'nan' is not a finite number "
        "(NaN and infinities are refused)",
        f"novikoff: error: {proof}: {tmp_path / 'none.csv'}: no such file",
        f"novikoff: error: {proof}: {tmp_path / 'huge.csv'}:1:1: exponent out of range in "
        "'1e999999999': at most 4 digits (|e| < 10000); a number that large or that small "
        "has no exact value memory could hold"]
    nan, missing = str(tmp_path / "nan.csv"), str(tmp_path / "none.csv")
    assert main(["audit", GROWTH_ID, "--data", nan, "--data", missing, "--budget", "small",
                 "--jobs", "1"]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines()
              if line.startswith("novikoff: error:")]
    assert errors == [f"novikoff: error: {nan}:2:1: 'nan' is not a finite number (NaN and "
                      "infinities are refused)", f"novikoff: error: {missing}: no such file"]


def test_the_audit_takes_the_loaders_limits_it_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Trial item 13: `audit --data wide.csv` said "raise it with --max-cells", an option
    audit did not have. It has it now (and --max-scaled-bits), passed to the loaders for
    `--data` and `[numeric] data` alike."""
    data = _write(tmp_path, "d.csv", "2,1,1\n-1,-3,-1\n1,-1,1\n")  # 9 numbers
    natural = """title = "t is a natural"\nscalars = ["t"]\nnaturals = ["t"]\n[numeric]
run = "online"\n%s\n[[step]]\nid = "count"\nclaim = "t >= 0"\n"""
    proof = _write(tmp_path, "g.toml", natural % "")
    own = _write(tmp_path, "h.toml", natural % 'data = ["d.csv"]')
    for args in (["--data", data, proof], [own]):
        assert main(["audit", *args, "--budget", "small", "--jobs", "1",
                     "--max-cells", "8"]) == 2
        errors = [line for line in capsys.readouterr().err.splitlines()
                  if line.startswith("novikoff: error:")]
        assert len(errors) == 1 and "raise it with --max-cells" in errors[0], errors
        assert main(["audit", *args, "--budget", "small", "--jobs", "1",
                     "--max-cells", "9"]) == 0
        capsys.readouterr()


def test_command_line_data_runs_every_proof_on_it(tmp_path: Path):
    data = _write(tmp_path, "d.json", '{"X": [[2, 1], [-1, -3], [1, -1]], "y": [1, -1, 1]}')
    proof = _write(tmp_path, "g.toml", GROWTH % "")
    plain = run_audit([proof], budget="small")
    more = run_audit([proof], data=[data], budget="small")
    assert more.proofs[0].steps[0].numeric.instances > plain.proofs[0].steps[0].numeric.instances
    missing = run_audit([proof], data=[str(tmp_path / "none.csv")], budget="small")
    assert [p.id for p in missing.proofs] == ["g"] and "none.csv" in missing.errors[0]


LEMMAS = """
title = "lemmas"
vectors = ["a", "b"]
scalars = []
[[step]]
id = "cs"
claim = "dot(a, b)**2 <= norm2(a)*norm2(b)"
"""

USING = """
title = "uses across files"
vectors = ["w", "x", "u"]
scalars = ["y", "R2"]
%s
[imports]
lem = "lemmas.toml"
[numeric]
run = "online"
[[step]]
id = "growth-again"
uses = ["canonical-online/norm-growth"]
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
claim = "norm2(w + y*x) <= norm2(w) + R2 + 1"
[[step]]
id = "projection"
uses = [{ step = "lem/cs", with = { a = "w", b = "u" } }]
given = ["norm2(u) == 1"]
claim = "dot(w, u)**2 <= norm2(w)"
"""


def test_steps_of_the_library_and_of_other_files_are_used_with_their_statements(
        tmp_path: Path):
    from proofs.proof_file import load_proof
    from verify.proof_checker import check_proof

    _write(tmp_path, "lemmas.toml", LEMMAS)
    proof = load_proof(_write(tmp_path, "main.toml", USING % ""))
    assert [s.id for s in proof.steps] == ["canonical-online--norm-growth", "lem--cs",
                                           "growth-again", "projection"]
    assert "t" in proof.naturals  # the induction's counter comes with it, natural
    report = check_proof(proof)
    assert report.status == "proved"
    growth = report.steps[2].statement_text
    assert "norm2(w) <= t*R2 [canonical-online--norm-growth]" in growth  # its claim, carried
    assert "dot(a, b)**2 <= norm2(a)*norm2(b) [a := w, b := u] [lem--cs]" in \
        report.steps[3].statement_text
    audit = run_audit([str(tmp_path / "main.toml")], budget="small")
    assert audit.passed() and audit.proofs[0].steps[2].numeric.status == "held"


@pytest.mark.parametrize(("change", "problem"), [
    ('naturals = []\nscalars = ["y", "R2", "t"]', "'t' is a natural in canonical-online"),
    ('scalars = ["y", "R2", "a"]', "'a' is a vector in lem, declared otherwise here"),
])
def test_an_imported_name_of_another_sort_or_not_natural_is_refused(
        tmp_path: Path, change: str, problem: str):
    from proofs.errors import ProofFileError
    from proofs.proof_file import load_proof

    _write(tmp_path, "lemmas.toml", LEMMAS)
    text = (USING % "").replace('scalars = ["y", "R2"]', change)
    with pytest.raises(ProofFileError, match=problem):
        load_proof(_write(tmp_path, "main.toml", text))


@pytest.mark.parametrize(("lemmas", "use", "problem"), [
    (LEMMAS, "nowhere/cs", "'nowhere' is neither a built-in proof nor an alias"),
    (LEMMAS, "lem/nothing", "no step 'nothing' there"),
    (LEMMAS.replace('claim = "', 'uses = ["back/x"]\nclaim = "').replace(
        'scalars = []', 'scalars = []\n[imports]\nback = "main.toml"'), "lem/cs", "a cycle"),
])
def test_a_bad_import_is_one_line(tmp_path: Path, lemmas: str, use: str, problem: str):
    from proofs.errors import ProofFileError
    from proofs.proof_file import load_proof

    _write(tmp_path, "lemmas.toml", lemmas)
    text = (USING % "").replace('"lem/cs"', f'"{use}"')
    with pytest.raises(ProofFileError, match=problem):
        load_proof(_write(tmp_path, "main.toml", text))


EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_the_api_and_the_fixture_audit_a_lecture_proof(tmp_path: Path):
    import verify
    from verify.testing.pytest_plugin import PerceptronTheory

    audit = verify.audit_proofs(EXAMPLES / "linear-hinge-bound.toml", budget="small")
    assert audit.passed() and not audit.problems()
    assert all(s.numeric is not None for s in audit.proofs[0].steps)
    theory = PerceptronTheory(seed=0)
    assert theory.audit_proof(EXAMPLES / "linear-hinge-bound.toml").passed()
    with pytest.raises(pytest.fail.Exception, match="false-step: has-findings: no-cross-term"):
        theory.audit_proof(EXAMPLES / "false-step.toml")


TRIAL = Path(__file__).resolve().parents[2] / "cases" / "trial"


def test_only_names_a_proof_file_as_the_summary_shows_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Newcomer trial, item 10: `audit perceptron.toml --only perceptron` said "unknown proof
    id", though the summary calls the proof `perceptron`: no documented way to the handout
    of one's own proof among several. `--only` names a proof given by its summary name or
    its file, a built-in id, or a proof file; what it does not name is not audited (a note
    says so)."""
    lecture, other = str(TRIAL / "perceptron.toml"), str(TRIAL / "perceptron-nolemma.toml")
    handout = tmp_path / "h.md"
    code = main(["audit", lecture, other, "--only", "perceptron", "--budget", "small",
                 "--jobs", "1", "--markdown", str(handout)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "perceptron " in out and "perceptron-nolemma" not in out
    assert f"novikoff: note: {other} was not audited: no --only names it" in err
    assert handout.read_text().startswith(
        "# Perceptron convergence (Block 1962, Novikoff 1962): lecture 4\n")  # its handout
    assert main(["audit", "--only", other, "--budget", "small", "--jobs", "1"]) == 0
    assert "perceptron-nolemma " in capsys.readouterr().out
    assert main(["audit", lecture, "--only", "perceptrn"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown proof id 'perceptrn'" in err
    assert "proofs given: perceptron" in err


def test_exit_1_is_documented_where_the_exit_codes_are(capsys: pytest.CaptureFixture[str]):
    """Newcomer trial, item 11: an unverified proof file gives exit 1, which the README's
    command table and `--help` did not list (only 0 and 2)."""
    wrong = str(TRIAL / "perceptron-wrong2.toml")  # R for R**2: one-update-growth refuted
    assert main(["audit", wrong, "--budget", "small", "--jobs", "1"]) == 1
    capsys.readouterr()
    readme = (TRIAL.parents[2] / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `novikoff audit"))
    codes = row.rsplit(" | ", 1)[1]
    assert "1 when a canonical proof or a proof file audited is not verified" in codes
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "1 when one of them is not verified" in helped and "Exit 0 when" in helped


def test_the_text_summary_shows_steps_mostly_vacuous_on_runs():
    """Newcomer trial, item 14: a step whose hypotheses were false on most of its run
    instances (the lecture's cauchy-schwarz: the run's u is no unit vector) was said so by
    the JSON, HTML and LaTeX, not by the text summary."""
    import dataclasses

    from verify.audit.report import vacuous_lines

    audit = run_audit([str(TRIAL / "perceptron.toml")], budget="small")
    (proof,) = audit.proofs
    mostly = [s for s in proof.steps
              if s.numeric is not None and 2 * s.numeric.vacuous > s.numeric.instances]
    others = [s for s in proof.steps if s not in mostly]
    assert "cauchy-schwarz" in {s.step.id for s in mostly} and others
    text = to_text(audit)
    section = text[text.index("mostly vacuous on runs"):]
    for s in mostly:
        assert (f"  perceptron/{s.step.id}: {s.numeric.vacuous} of {s.numeric.instances} run "
                "instances vacuous (hypotheses false)") in section
    assert not any(f"perceptron/{s.step.id}:" in section for s in others)
    builtin = dataclasses.replace(audit, proofs=(dataclasses.replace(proof, file=False),))
    assert vacuous_lines(builtin)[2:] == [
        f"  perceptron: {len(mostly)} steps (how many instances: in --json and the reports)"]


def test_every_error_of_a_refused_file_is_a_line_and_nothing_audited_prints_no_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Newcomer trial, item 16: the audit printed only the first of a file's errors (two bad
    `[numeric] names` entries: one line), and for a file it could not read at all still
    "failed · no canonical proof audited" and an empty summary table."""
    text = (GROWTH % "").replace('names = { th = "w", margin = "y*dot(w, x)" }',
                                 'names = { th = "w", nosuch = "w", other = "x" }')
    bad = _write(tmp_path, "bad.toml", text)
    assert main(["audit", bad, "--budget", "small", "--jobs", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no verdict line, no empty table
    lines = [x for x in err.splitlines() if x.startswith("novikoff: error:")]
    assert [x.split(": ", 3)[-1] for x in lines] == [
        "numeric.names binds undeclared name 'nosuch'",
        "numeric.names binds undeclared name 'other'"]
    unreadable = tmp_path / "binary.toml"
    unreadable.write_bytes(b"\xff\xfe\x00")
    assert main(["audit", str(unreadable), "--budget", "small"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "not UTF-8" in err
    good = _write(tmp_path, "good.toml", GROWTH % "")
    assert main(["audit", str(unreadable), good, "--budget", "small", "--jobs", "1"]) == 2
    out, _ = capsys.readouterr()
    assert out.startswith("failed · ") and "good " in out  # the others are reported


def test_one_finding_is_singular_in_every_report(tmp_path: Path):
    """Newcomer trial, item 16: "1 findings"."""
    from verify.render import html, latex, markdown

    audit = run_audit([str(TRIAL / "perceptron-wrong2.toml")], budget="small")
    assert len([s for p in audit.proofs for s in p.steps if s.finding]) == 1
    for render in (markdown.render, html.render, latex.render):
        document = render(audit)
        assert "1 finding " in document or "1 finding;" in document, render
        assert "1 findings" not in document and "1 steps" not in document
