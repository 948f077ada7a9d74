"""Data files and a proof's `[numeric] data`: every error said, each placed (newcomer 19).

The project promises every independent error of a file in one run, each at its
file:line:column; the trial found `data = ["../toy.csv", "missing.csv"]` said the first
only, and the missing file, said later by the audit, unplaced.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.cli import main

PROOF = '''title = "t"
vectors = ["w", "x"]
scalars = ["y", "R2"]

[[step]]
id = "one-update-growth"
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
claim = "norm2(w + y*x) <= norm2(w) + R2"

[numeric]
run = "online"
data = [%s]
'''


def errors(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines()
            if line.startswith("novikoff: error:")]


def test_every_data_entry_error_is_said_placed(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "toy.csv").write_text("1,1\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    proof = sub / "l.toml"
    proof.write_text(PROOF % '"../toy.csv", "missing.csv", "../toy.csv "')
    assert main(["check", str(proof)]) == 2
    assert errors(capsys) == [
        f"novikoff: error: {proof}:12:10: numeric.data: '../toy.csv' is outside the proof "
        "file's folder; a proof names data files beside it or below it (give others with "
        "--data FILE)",
        f"novikoff: error: {proof}:12:24: numeric.data: 'missing.csv': no such file",
        f"novikoff: error: {proof}:12:39: numeric.data: '../toy.csv ' is outside the proof "
        "file's folder; a proof names data files beside it or below it (give others with "
        "--data FILE)"]


def test_a_missing_data_file_is_placed_by_the_audit(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    proof = tmp_path / "m.toml"
    proof.write_text(PROOF % '"missing.csv"')
    assert main(["audit", str(proof), "--budget", "small", "--jobs", "1"]) == 2
    assert errors(capsys) == [
        f"novikoff: error: {proof}:12:10: numeric.data: 'missing.csv': no such file"]


# -- the data files' own messages (newcomer 19 §5.8) -----------------------------------------

GROWTH = PROOF % ""


def test_a_data_read_fault_says_where_the_file_was_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A `--data` file's read fault is the same for every proof, so it names the option, as
    a proof-dependent fault names the proof file: each data error says where it comes from
    (a bad label under `--data` had no prefix, the other data errors the proof file's)."""
    proof = tmp_path / "p.toml"
    proof.write_text(GROWTH.replace("data = []\n", ""))
    label = tmp_path / "label2.csv"
    label.write_text("x1,x2,label\n1,2,1\n3,4,2\n")
    assert main(["audit", str(proof), "--data", str(label), "--budget", "small",
                 "--jobs", "1"]) == 2
    assert errors(capsys) == [
        f"novikoff: error: --data {label}:3:3: label 2 is not one of -1/+1 or 0/1"]


def test_a_u_that_does_not_separate_is_placed_and_says_what_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its line, the first example that fails and its margin (the old parenthesis "(y<u, x>
    > 0 for every example)" read as if the condition held)."""
    data = tmp_path / "badu.csv"
    data.write_text("# u = -1, 0\nx1,x2,label\n1,0,1\n-2,1,-1\n-2,5,1\n")
    said = (f"{data}:1: the u it names does not separate its examples: example 1 has "
            "y<u, x> = -1, not > 0 (and 1 other example)")
    proof = tmp_path / "p.toml"
    proof.write_text(GROWTH.replace("data = []\n", ""))
    assert main(["audit", str(proof), "--data", str(data), "--budget", "small",
                 "--jobs", "1"]) == 2
    assert errors(capsys) == [f"novikoff: error: {proof}: {said}"]


def test_every_conflicting_header_is_said_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A start theta0 and margins gamma, neither read by online runs: both, each at its line
    (the first only was said); a key named twice and a bad value: both too."""
    proof = tmp_path / "p.toml"
    proof.write_text(GROWTH.replace("data = []\n", ""))
    both = tmp_path / "both.csv"
    both.write_text("# gamma = 1/2\n# theta0 = 0, 1\n1,0,1\n")
    assert main(["audit", str(proof), "--data", str(both), "--budget", "small",
                 "--jobs", "1"]) == 2
    assert errors(capsys) == [
        f"novikoff: error: {proof}: {both}:1: names margins gamma, which online runs do not "
        "read (single passes do)",
        f"novikoff: error: {proof}: {both}:2: names a start theta0, which online runs do not "
        "take (batch runs do)"]
    twice = tmp_path / "twice.csv"
    twice.write_text("# u = 1, 0\n# u = 1, 1\n# gamma = 0\n1,0,1\n")
    assert main(["audit", str(proof), "--data", str(twice), "--budget", "small",
                 "--jobs", "1"]) == 2
    assert errors(capsys) == [
        f"novikoff: error: --data {twice}:2: names u twice (first on line 1)",
        f"novikoff: error: --data {twice}:3: its margins gamma must be > 0"]


def test_a_plot_fault_names_the_file_as_given(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "nonsep.csv"
    data.write_text("1,1\n-1,1\n")
    assert main(["run", str(data), "--plot", str(tmp_path / "np.png")]) == 2
    (line,) = errors(capsys)
    assert line.startswith(f"novikoff: error: {data}: no plot: the data are not separable")


@pytest.mark.parametrize(("text", "found"), [("x1;x2;label\n1;2;1\n", "';'"),
                                             ("x1\tx2\tlabel\n1\t2\t1\n", "a tab")])
def test_a_one_column_csv_with_another_delimiter_gets_a_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, found: str) -> None:
    data = tmp_path / "semicolon.csv"
    data.write_text(text)
    assert main(["run", str(data)]) == 2
    assert errors(capsys) == [
        f"novikoff: error: {data}:2: each row needs a label and at least one feature; found 1 "
        f"column (its line holds {found}, but its cells are split at ',': a .csv file's "
        "delimiter is ',', a .tsv file's a tab; write that delimiter, or name the file .txt "
        "to have ',', ';' or a tab found in its first row)"]


@pytest.mark.parametrize(("name", "said"), [
    ("toy.arff", "the .arff format is not read; readable: CSV (.csv, .txt), TSV (.tsv), JSON "
     "(.json), numpy (.npy, .npz), LIBSVM (.svm, .svmlight, .libsvm), .dat (as CSV text this "
     "file fails: ragged row: 3 columns, expected 2)"),
    ("toy.txt", "ragged row: 3 columns, expected 2"),
    ("toy.tsv", "each row needs a label and at least one feature; found 1 column"),
])
def test_an_unread_format_is_said_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         name: str, said: str) -> None:
    """Newcomer 21 M4: a Weka `.arff` file was said to have a ragged row, as if it were a
    CSV file; a file of an extension no loader reads says so and names the readable ones.
    A `.txt` or `.tsv` file (read as CSV) keeps its own error; a readable file with an
    unknown extension is still read (sniffed)."""
    data = tmp_path / name
    data.write_text("1,2\n1,2,3\n")
    assert main(["run", str(data)]) == 2
    assert [e.split(": ", 3)[3] for e in errors(capsys)] == [said]
    (tmp_path / "ok.arff").write_text("1,1\n-1,-1\n")
    assert main(["run", str(tmp_path / "ok.arff")]) == 0


@pytest.mark.parametrize("command", ["run", "bound"])
@pytest.mark.parametrize(("line", "said"), [
    ("# gamma = 1/2", "margins gamma are for a single pass; `run` and `bound` run to "
     "convergence: remove the line, or audit a single-pass proof on the file"),
    ("# theta0 = 0, 1", "a start theta0 is for a batch run; `run` and `bound` run the online "
     "perceptron from 0: remove the line, or audit a batch proof on the file"),
])
def test_run_and_bound_refuse_a_header_line_they_cannot_honour(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, line: str,
        said: str) -> None:
    """Newcomer 21 M3: `# gamma = 1/2` was passed over in silence by `run` and `bound`; the
    docs say a header line the runs cannot honour refuses the file, at its line."""
    data = tmp_path / "ugam.csv"
    data.write_text(f"# u = 1, 1\n{line}\n1,1,1\n-1,-1,-1\n")
    assert main([command, str(data)]) == 2
    assert errors(capsys) == [f"novikoff: error: {data}:2: {said}"]


@pytest.mark.parametrize("command", ["run", "bound"])
def test_run_and_bound_say_the_u_its_header_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """Newcomer 21 M3: `run` never said the header's u was read; it says it (text, JSON).
    `bound` read it too (refusing a `# gamma` beside it) and never said it: it says it as
    `run` does (`verify.cli.run.header_u`, one code path); without the line, neither does."""
    import json

    data = tmp_path / "u.csv"
    data.write_text("# u = 1, 1/2\n1,1,1\n-1,-1,-1\n")
    assert main([command, str(data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [line for line in lines if line.startswith("header u")]
    assert [" ".join(line.split()) for line in said] == [
        "header u (1, 1/2) read from the file, separates its examples (checked exactly)"]
    assert main([command, str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["header_u"] == ["1", "1/2"]
    plain = tmp_path / "plain.csv"
    plain.write_text("1,1,1\n-1,-1,-1\n")
    assert main([command, str(plain)]) == 0
    assert "header u" not in capsys.readouterr().out
    assert main([command, str(plain), "--json"]) == 0
    assert "header_u" not in json.loads(capsys.readouterr().out)


def test_run_and_bound_refuse_a_u_the_audit_refuses(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`run` and `bound` accepted a `# u` header that does not separate (exit 0) while the
    audit refused the file (newcomer 19 §5.10): one line, exit 2, the audit's words; and a
    header fault the audit refuses for every proof too."""
    data = tmp_path / "badu.csv"
    data.write_text("# u = -1, 0\nx1,x2,label\n1,0,1\n-2,1,-1\n-2,5,1\n")
    proof = tmp_path / "p.toml"
    proof.write_text(GROWTH.replace("data = []\n", ""))
    assert main(["audit", str(proof), "--data", str(data), "--budget", "small",
                 "--jobs", "1"]) == 2
    (audit,) = errors(capsys)
    said = audit.removeprefix(f"novikoff: error: {proof}: ")
    for command in ("run", "bound"):
        assert main([command, str(data)]) == 2
        assert errors(capsys) == [f"novikoff: error: {said}"]
    twice = tmp_path / "twice.csv"
    twice.write_text("# u = 1, 0\n# u = 1, 1\n1,0,1\n")
    for command in ("run", "bound"):
        assert main([command, str(twice)]) == 2
        assert errors(capsys) == [f"novikoff: error: {twice}:2: names u twice (first on "
                                  "line 1)"]
    good = tmp_path / "good.csv"
    good.write_text("# u = 1, 0\n1,0,1\n-2,1,-1\n")
    assert main(["run", str(good)]) == 0


def test_the_data_files_a_proof_ran_on_are_said(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer 19 §6: a proof's `[numeric] data` appeared nowhere in the text summary or the
    JSON; whether it was run could be told only by the instance counts. Each proof names its
    files (its own, then `--data`), their examples and the instances their runs gave; the
    JSON's `data` (absent without data files) is valid against the shipped schema."""
    import json

    import jsonschema

    from verify import schema

    (tmp_path / "toy.csv").write_text("# u = 1, 0\n1,0,1\n-2,1,-1\n3,1,1\n")
    more = tmp_path / "more.csv"
    more.write_text("2,1,1\n-1,-1,-1\n")
    proof = tmp_path / "p.toml"
    proof.write_text(PROOF % '"toy.csv"')
    argv = ["audit", str(proof), "--data", str(more), "--budget", "small", "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    (line,) = [s for s in out.splitlines() if s.startswith("  p: ")]
    assert out.splitlines()[out.splitlines().index(line) - 1] == "data files run:"
    assert line.startswith(f"  p: {tmp_path / 'toy.csv'} (3 examples), {more} (2 examples); ")
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    validator = jsonschema.Draft202012Validator(schema.load("audit"))
    assert list(validator.iter_errors(report)) == []
    data = report["proofs"][0]["data"]
    assert data["files"] == [{"path": str(tmp_path / "toy.csv"), "examples": 3},
                             {"path": str(more), "examples": 2}]
    assert line.endswith(f"; {data['instances']} instances on their runs")
    assert 0 < data["instances"] <= report["proofs"][0]["steps"][0]["numeric"]["instances"]
    proof.write_text(PROOF.replace("data = [%s]\n", ""))
    assert main(["audit", str(proof), "--budget", "small", "--jobs", "1", "--json"]) == 0
    assert "data" not in json.loads(capsys.readouterr().out)["proofs"][0]


def test_the_data_files_a_proof_ran_on_are_said_in_every_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer 19 §6, the reports: the Markdown, HTML and LaTeX reports said nothing of the
    data files (the summary's `data files run:` and the JSON's `data` did). Each says them
    in the summary's words, in its layout, full or `--summary`; a report of a proof without
    data files has no such section."""
    import html

    (tmp_path / "toy.csv").write_text("# u = 1, 0\n1,0,1\n-2,1,-1\n3,1,1\n")
    deep = tmp_path / "a_folder_whose_name_is_long" / "and_another_one_inside_it_as_long"
    deep.mkdir(parents=True)
    more = deep / "the_lecturers_own_examples_with_a_long_name.csv"
    more.write_text("2,1,1\n-1,-1,-1\n")
    proof = tmp_path / "p.toml"
    proof.write_text(PROOF % '"toy.csv"')
    for summary in ([], ["--summary"]):
        reports = {f: tmp_path / f"r{len(summary)}.{f}" for f in ("md", "html", "tex")}
        assert main(["audit", str(proof), "--data", str(more), "--budget", "small",
                     "--jobs", "1", "--markdown", str(reports["md"]), "--html",
                     str(reports["html"]), "--latex", str(reports["tex"]), *summary]) == 0
        (line,) = [s for s in capsys.readouterr().out.splitlines() if s.startswith("  p: ")]
        said = line.removeprefix("  p: ")
        read = {"md": reports["md"].read_text().replace("\\_", "_"),
                "html": html.unescape(reports["html"].read_text()),
                "tex": reports["tex"].read_text().replace("\\_", "_").replace(
                    "/\\allowbreak{}", "/")}
        assert f"- p: {said}" in read["md"] and "## Data files run" in read["md"]
        assert f"p</a>: {said}</li>" in read["html"] or f"<li>p: {said}</li>" in read["html"]
        assert f"p}}: {said}" in read["tex"] and "Data files run" in read["tex"]
    proof.write_text(PROOF.replace("data = [%s]\n", ""))
    reports = {f: tmp_path / f"none.{f}" for f in ("md", "html", "tex")}
    assert main(["audit", str(proof), "--budget", "small", "--jobs", "1", "--markdown",
                 str(reports["md"]), "--html", str(reports["html"]), "--latex",
                 str(reports["tex"])]) == 0
    assert all("Data files run" not in r.read_text() for r in reports.values())


@pytest.mark.parametrize("command", ["run", "bound"])
def test_a_header_is_read_whole_past_64_kib(tmp_path: Path, command: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 20 F1: the header was the first 64 KiB decoded at once. A two-byte character
    split at their end dropped the whole header (a `u` that does not separate accepted,
    exit 0), and a `# u` line across them was cut (`u = 1, -10` read as `1, -1`, refused as
    not separating). Comment lines are read one at a time, whole."""
    split = tmp_path / "split.csv"  # a comment of é (2 bytes each) past byte 65536
    split.write_text("# u = -1, 1\n# " + "é" * 40000 + "\n1,0,1\n0,1,-1\n", encoding="utf-8")
    assert main([command, str(split)]) == 2
    assert any("the u it names does not separate its examples" in e for e in errors(capsys))
    cut = tmp_path / "cut.csv"  # `# u = 1, -10`, its last 0 past byte 65536
    cut.write_text("#" + "c" * 65523 + "\n# u = 1, -10\n1,0,1\n1,1,-1\n")
    assert len(cut.read_bytes().split(b"\n")[0]) + 1 + len("# u = 1, -1") == 1 << 16
    assert main([command, str(cut)]) == 0
    assert errors(capsys) == []


@pytest.mark.parametrize("command", ["run", "bound"])
def test_a_header_is_read_as_the_loaders_read_the_file(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Red team 21 F3/F5: the loaders read a byte-order mark as the file's start and CR as a
    line end, the header reader did not: a BOM dropped the header (a `u` that does not
    separate accepted, exit 0), and CR-only lines made the whole file one `# u` line,
    refused for a number the user never wrote (`'1\\r1'`)."""
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf# u = -1, 1\n1,0,1\n0,1,-1\n")
    assert main([command, str(bom)]) == 2
    assert errors(capsys) == [f"novikoff: error: {bom}:1: the u it names does not separate "
                              "its examples: example 1 has y<u, x> = -1, not > 0 (and 1 "
                              "other example)"]
    cr = tmp_path / "cr.csv"
    cr.write_bytes(b"# u = 1, 1\r1,0,1\r0,1,1\r")
    assert main([command, str(cr)]) == 0
    assert errors(capsys) == []
    late = tmp_path / "late.csv"  # after the column names: refused, not skipped
    late.write_bytes(b"a,b,label\r\n# u = -1, 1\r\n1,0,1\r\n0,1,-1\r\n# u = 1, 1\r\n")
    assert main([command, str(late)]) == 2
    assert [e.split(": a header line after")[0] for e in errors(capsys)] == [
        f"novikoff: error: {late}:2", f"novikoff: error: {late}:5"]


@pytest.mark.parametrize(("text", "hint"), [
    ("y,a,b\n1,1,2\n-1,-1,-2\n", " (the labels are read from the last column, 'b'; the header "
                                 "names a column 'y': --label-column y)"),
    ("Label,a,b\n1,1,2\n-1,-1,-2\n", "; the header names a column 'Label': --label-column Label)"),
    ("a,b,c\n1,1,2\n-1,-1,-2\n", None),  # no column named as labels are: no hint
])
def test_a_bad_label_names_a_header_column_named_as_labels(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, hint: str | None) -> None:
    """Newcomer 26, Low: `y,a,b` read the last column `b` as the labels, 'label 2 is not one
    of -1/+1 or 0/1', without a word of the column named y. With --label-column as hinted
    the file reads."""
    path = tmp_path / "first.csv"
    path.write_text(text)
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "label 2 is not one of -1/+1 or 0/1" in err and "\n" not in err
    if hint is None:
        assert "--label-column" not in err
        return
    assert err.endswith(hint), err
    column = hint.rsplit(" ", 1)[1].rstrip(")")
    assert main(["run", str(path), "--label-column", column]) == 0


def test_a_npy_of_examples_alone_says_where_its_labels_go(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer nc35 K10: `np.save("X.npy", X)` beside `y.npy`, then `novikoff run X.npy`,
    read X's last feature as labels and said only `X.npy:2:3: label 1/2 is not one of -1/+1
    or 0/1`; it now says where a .npy keeps its labels and how to save X and y together. The
    .npz it names reads."""
    import numpy as np

    X = np.array([[2, 1, 0], [1.5, 0, 0.5], [-1, -2, 0]])
    np.save(tmp_path / "X.npy", X)
    assert main(["run", str(tmp_path / "X.npy")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"novikoff: error: {tmp_path / 'X.npy'}:2:3: label 1/2 is not one of -1/+1 "
                   "or 0/1 (a .npy file is one array, examples and labels, the labels in its "
                   "last column; examples and labels saved apart go in one `.npz`: "
                   "numpy.savez(FILE, X=X, y=y))"), err
    np.savez(tmp_path / "data.npz", X=X, y=np.array([1, 1, -1]))
    assert main(["run", str(tmp_path / "data.npz")]) == 0
