"""Red team 4, item 1: report files never overwrite one another or an input. Each refusal is
one line and exit 2 before any work, and the files named are left as they were."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from verify.cli import main

PROOF = """
title = "one step"
vectors = []
scalars = ["a"]

[[step]]
id = "sq"
claim = "a**2 >= 0"
"""

DATA = "x1,x2,y\n1,0,1\n0,1,-1\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "victim.toml").write_text(PROOF, encoding="utf-8")
    (tmp_path / "victim.csv").write_text(DATA, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line `audit argv` is refused with (exit 2, nothing on stdout)."""
    with pytest.raises(SystemExit) as parsed:  # argparse's refusals exit while parsing
        code = main(["audit", *argv, "--budget", "small", "--jobs", "1"])
        raise SystemExit(code)
    out, err = capsys.readouterr()
    assert parsed.value.code == 2, err
    assert out == "" and err.count("\n") == 1 and err.startswith("novikoff: error: "), err
    return err


@pytest.mark.parametrize("reports", [
    ["--markdown", "b.md", "--latex", "b.md"],
    ["--markdown", "./a.md", "--latex", "a.md"],
    ["--html", "sub/../h.html", "--markdown", "h.html"],
])
def test_two_reports_naming_one_file_are_refused(
        folder: Path, reports: list[str], capsys: pytest.CaptureFixture[str]):
    (folder / "sub").mkdir()
    assert "name the same file" in _refused(["victim.toml", *reports], capsys)
    assert sorted(p.name for p in folder.iterdir()) == ["sub", "victim.csv", "victim.toml"]


def test_a_hard_link_to_another_report_is_the_same_file(
        folder: Path, capsys: pytest.CaptureFixture[str]):
    (folder / "a.md").write_text("mine", encoding="utf-8")
    os.link(folder / "a.md", folder / "b.md")
    assert "name the same file" in _refused(
        ["victim.toml", "--markdown", "a.md", "--latex", "b.md"], capsys)
    assert (folder / "a.md").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(("argv", "what"), [
    (["victim.toml", "--markdown", "victim.toml"], "a proof file given"),
    (["victim.toml", "--markdown", "./victim.toml"], "a proof file given"),
    (["--only", "victim.toml", "--latex", "victim.toml"], "a proof file given"),
    (["victim.toml", "--data", "victim.csv", "--html", "victim.csv"], "a data file given"),
])
def test_a_report_never_overwrites_an_input(
        folder: Path, argv: list[str], what: str, capsys: pytest.CaptureFixture[str]):
    assert what in _refused(argv, capsys)
    assert (folder / "victim.toml").read_text(encoding="utf-8") == PROOF
    assert (folder / "victim.csv").read_text(encoding="utf-8") == DATA


def test_a_report_option_given_twice_is_refused(
        folder: Path, capsys: pytest.CaptureFixture[str]):
    err = _refused(["victim.toml", "--markdown", "c.md", "--markdown", "d.md"], capsys)
    assert "--markdown given twice" in err
    assert not (folder / "c.md").exists() and not (folder / "d.md").exists()


def test_a_report_to_dash_is_refused_not_a_file_named_dash(
        folder: Path, capsys: pytest.CaptureFixture[str]):
    assert "never to standard output" in _refused(["victim.toml", "--latex", "-"], capsys)
    assert not (folder / "-").exists()


def test_distinct_report_files_are_each_written(
        folder: Path, capsys: pytest.CaptureFixture[str]):
    code = main(["audit", "victim.toml", "--data", "victim.csv", "--budget", "small",
                 "--jobs", "1", "--markdown", "r.md", "--latex", "r.tex", "--html", "r.html"])
    assert code == 0, capsys.readouterr().err
    assert (folder / "r.md").read_text(encoding="utf-8").startswith("# one step\n")
    assert "\\begin{document}" in (folder / "r.tex").read_text(encoding="utf-8")
    assert (folder / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert (folder / "victim.toml").read_text(encoding="utf-8") == PROOF


@pytest.mark.parametrize("option", ["--coq", "--counterexamples"])
def test_a_report_inside_a_folder_the_audit_writes_is_refused(
        folder: Path, option: str, capsys: pytest.CaptureFixture[str]):
    """Red team 5: `--coq coq3 --markdown coq3/lemmas.v` replaced the exported theory with
    the report, while the output said coqc had checked it."""
    (folder / "out").mkdir()
    assert f"is inside {option} out" in _refused(
        ["victim.toml", option, "out", "--markdown", "out/victim.v"], capsys)
    assert list((folder / "out").iterdir()) == []


def test_a_report_never_overwrites_a_data_file_the_proof_names(
        folder: Path, capsys: pytest.CaptureFixture[str]):
    """Red team 5: a data file named in the proof's `[numeric] data` (not on the command
    line) was replaced by the report with exit 0; it is known once the proof is read, so
    the summary is printed and no report is written."""
    (folder / "named.toml").write_text(
        'title = "t"\nscalars = ["t"]\nnaturals = ["t"]\n[numeric]\nrun = "online"\n'
        'data = ["victim.csv"]\n[[step]]\nid = "count"\nclaim = "t >= 0"\n', encoding="utf-8")
    code = main(["audit", "named.toml", "--budget", "small", "--jobs", "1",
                 "--markdown", "victim.csv"])
    err = capsys.readouterr().err
    assert code == 2
    assert "novikoff: error: --markdown victim.csv: that is a data file that named.toml " \
        "names (victim.csv); a report never overwrites a file the audit reads" in err
    assert "no report was written" in err
    assert (folder / "victim.csv").read_text(encoding="utf-8") == DATA


def test_the_help_says_a_named_data_file_is_refused_after_the_summary(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs33 D7: `audit --help` said a report naming a file the audit reads, "a data file"
    among them, means "nothing is done"; a data file a proof names is known once the proof is
    read, so the audit runs and prints its summary first (the test above): the help says so."""
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "otherwise nothing is done (exit 2)" not in said
    assert ("otherwise no report is written (exit 2), and nothing is done unless the file is a "
            "data file a proof names, known once the audit has read it: refused after the "
            "summary") in said


IMPORTER = """
title = "importer"
scalars = ["a"]
[imports]
lem = "lib/lemma.toml"
[[step]]
id = "more"
uses = ["lem/sq"]
claim = "a**2 + 1 >= 0"
"""


@pytest.mark.parametrize(("report", "what"), [
    ("lib/lemma.toml", "a proof file that main.toml imports (lib/lemma.toml)"),
    ("lib/deep/victim.toml", "a proof file that main.toml imports (lib/deep/victim.toml)"),
    ("alias.toml", "a proof file that main.toml imports (lib/lemma.toml)"),
])
def test_a_report_never_overwrites_a_file_reached_through_imports(
        folder: Path, report: str, what: str, capsys: pytest.CaptureFixture[str]):
    """Review: the files a proof file imports (transitively) are read by the audit too,
    but only the proof files given were refused as report files; now each is, before any
    work (a link to one is the same file)."""
    (folder / "lib" / "deep").mkdir(parents=True)
    lemma = PROOF.replace('"one step"', '"lemma"') + '[imports]\nd = "deep/victim.toml"\n'
    (folder / "lib" / "lemma.toml").write_text(lemma, encoding="utf-8")
    (folder / "lib" / "deep" / "victim.toml").write_text(PROOF, encoding="utf-8")
    (folder / "alias.toml").symlink_to(folder / "lib" / "lemma.toml")
    (folder / "main.toml").write_text(IMPORTER, encoding="utf-8")
    err = _refused(["main.toml", "--markdown", report], capsys)
    assert f"--markdown {report}: that is {what}; a report never overwrites a file the " \
        "audit reads" in err
    assert (folder / "lib" / "lemma.toml").read_text(encoding="utf-8") == lemma
    assert (folder / "lib" / "deep" / "victim.toml").read_text(encoding="utf-8") == PROOF


def test_a_report_never_overwrites_a_built_in_proofs_file(
        folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """A built-in proof's TOML is read by the audit too (here a stand-in, so that a failure
    of this test cannot overwrite the library's own file)."""
    import verify.cli.audit

    (folder / "builtin.toml").write_text(PROOF, encoding="utf-8")
    monkeypatch.setattr(verify.cli.audit, "PROOFS", {"stand-in": folder / "builtin.toml"})
    assert "that is the file of the built-in proof stand-in " \
        f"({folder / 'builtin.toml'})" in _refused(["victim.toml", "--html", "builtin.toml"],
                                                   capsys)
    assert (folder / "builtin.toml").read_text(encoding="utf-8") == PROOF


PLUGIN = "def mine(data, max_updates):\n    return []\n"


@pytest.mark.parametrize("spec", ["myplug:mine", "pa=myplug:mine", "mypkg.inner:mine"])
def test_a_report_never_overwrites_a_plug_in_modules_file(
        folder: Path, spec: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch):
    """Review: `--algorithm MODULE:FUNCTION` read the module's file, which `--latex` could
    then replace; its file is known once the module is loaded (before any work), and
    refused in the same one line."""
    monkeypatch.syspath_prepend(str(folder))
    (folder / "mypkg").mkdir()
    (folder / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "mypkg" / "inner.py").write_text(PLUGIN, encoding="utf-8")
    (folder / "myplug.py").write_text(PLUGIN, encoding="utf-8")
    module = spec.rpartition("=")[2].partition(":")[0]
    file = module.replace(".", "/") + ".py"
    monkeypatch.delitem(__import__("sys").modules, module, raising=False)
    name = spec.partition("=")[0] if "=" in spec else "mine"
    (folder / "named.toml").write_text(  # a plug-in no proof names is refused before it loads
        f'{PROOF}[numeric]\nrun = "online"\nalgorithm = "{name}"\n', encoding="utf-8")
    err = _refused(["named.toml", "--algorithm", spec, "--latex", file], capsys)
    assert f"--latex {file}: that is the file of plug-in {name} (--algorithm " \
        f"{spec.rpartition('=')[2]}) ({folder / file}); a report never overwrites" in err
    assert (folder / file).read_text(encoding="utf-8") == PLUGIN


TWO = PROOF + '\n[[step]]\nid = "wrong"\nclaim = "a >= 0"\n'


def _reports(folder: Path) -> dict[str, str]:
    """Each report written, LaTeX's line breaks and bold label read as plain text."""
    return {name: (folder / f"r.{ext}").read_text(encoding="utf-8").replace(
                "/\\allowbreak{}", "/").replace("\\textbf{Coq}", "Coq")
            for name, ext in (("markdown", "md"), ("html", "html"), ("latex", "tex"))}


def test_the_reports_say_what_coq_said_of_each_step_only_with_coq(
        folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    """The text and JSON said what --coq did and the reports did not; now each report says
    it per step and in one summary line, only when --coq ran, and a step coqc did not check
    never reads checked: without coqc on PATH every step is `not run`, a step not proved
    `not exported`, and a step coqc rejects `rejected by coqc`."""
    import shutil

    from verify.api import audit_proofs
    from verify.coq import CoqRun
    from verify.render import html, latex, markdown
    from verify.render.evidence import Layout

    (folder / "two.toml").write_text(TWO, encoding="utf-8")
    argv = ["audit", "two.toml", "--budget", "small", "--jobs", "1",
            "--markdown", "r.md", "--html", "r.html", "--latex", "r.tex"]
    assert main(argv) == 1  # `wrong` is refuted
    for fmt, text in _reports(folder).items():
        assert "coq" not in text.lower().replace("coqc", ""), fmt  # not asked: not said
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    assert main([*argv, "--coq", "out"]) == 1
    said = capsys.readouterr().out
    assert "coq: 0/2 steps checked by coqc (project in out)" in said
    for fmt, text in _reports(folder).items():
        assert "Coq: 0/2 steps checked by coqc (project in out)" in text, fmt
        assert "not run: coqc is not on PATH" in text, fmt
        assert "not exported: not proved by our kernel" in text, fmt
        assert "checked." not in text and "coq: checked" not in text, fmt
    audit = audit_proofs(folder / "two.toml", budget="small")
    layout = Layout(coq=CoqRun(folder / "out", {("two", "sq"): "error: boom",
                                                ("two", "wrong"): "not exported: no"}, 1.0))
    for render in (markdown.render, html.render, latex.render):
        text = render(audit, [], layout).replace("/\\allowbreak{}", "/")
        assert "rejected by coqc: boom" in text
        assert "0/2 steps checked by coqc in 1.0 s, 1 rejected by coqc" in text


@pytest.mark.skipif(__import__("shutil").which("coqc") is None, reason="coqc is not on PATH")
def test_a_step_coqc_checked_reads_checked_in_every_report(
        folder: Path, capsys: pytest.CaptureFixture[str]):
    """With coqc, the proved step is `coq: checked` in every report, the refuted one not
    exported, and the summary line is the text's."""
    (folder / "two.toml").write_text(TWO, encoding="utf-8")
    assert main(["audit", "two.toml", "--budget", "small", "--jobs", "1", "--coq", "out",
                 "--markdown", "r.md", "--html", "r.html", "--latex", "r.tex"]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("coq: "))
    for fmt, text in _reports(folder).items():
        assert line.removeprefix("coq: ").split(" in ")[0] == "1/2 steps checked by coqc"
        assert "1/2 steps checked by coqc" in text, fmt
        assert ("Coq: checked" in text or "coq: checked" in text), fmt
        assert "not exported: not proved by our kernel" in text, fmt


def test_a_report_path_that_is_a_directory_is_refused_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 23 F8: `--markdown /` ran the whole audit, printed its summary, then failed
    on writing (`/: Is a directory`); a report path is checked before the work."""
    from verify.cli import main

    assert main(["audit", "canonical-online", "--markdown", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"novikoff: error: {tmp_path}: is a directory; name the report's file\n")


def test_the_coq_line_counts_found_lemmas_apart_from_steps() -> None:
    """Red team 23 F8: `coq: 9/17 steps checked` for two files of 16 steps, the 17th a
    term-wise lemma the checker found."""
    from verify.coq import CoqRun, summary_line

    run = CoqRun(Path("out"), {("p", "a"): "checked", ("p", "b"): "not exported: x",
                               ("p", "b-termwise-1"): "checked"}, None,
                 frozenset({("p", "b-termwise-1")}))
    assert summary_line(run) == ("coq: 1/2 steps (and 1/1 term-wise lemmas the checker found) "
                                 "checked by coqc (project in out)")


def test_a_step_the_user_named_like_a_found_lemma_is_counted_as_a_step(tmp_path: Path) -> None:
    """Red team 29: a step a user named `a-termwise-1` (a valid id), refuted and so not
    exported, was counted as a term-wise lemma the checker found: `coq: 1/1 steps (and 0/1
    term-wise lemmas the checker found)` for a file of two steps, one of them not checked.
    Which results are found lemmas is known from the export, not guessed from an id."""
    from proofs.proof_file import load_proof
    from verify.coq import export_and_check, summary_line
    from verify.proof_checker import check_proof

    path = tmp_path / "ids.toml"
    path.write_text('title = "ids"\nscalars = ["a"]\n'
                    '[[step]]\nid = "a-termwise-1"\ngiven = ["a >= 1"]\nclaim = "a**2 >= 7"\n'
                    '[[step]]\nid = "main"\ngiven = ["a >= 1"]\nclaim = "a >= 0"\n')
    proof = load_proof(path)
    reports = check_proof(proof).steps
    assert [r.status for r in reports] == ["refuted", "proved"]
    run = export_and_check(tmp_path / "coq", [("ids", proof, reports)], compile=False)
    assert run.found == frozenset()
    assert summary_line(run) == f"coq: 0/2 steps checked by coqc (project in {tmp_path / 'coq'})"
