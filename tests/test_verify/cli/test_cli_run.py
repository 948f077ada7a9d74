"""`novikoff run`: the default example, JSON, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from verify.cli import main

ROOT = Path(__file__).resolve().parents[3]


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["run", *args])
    out, err = capsys.readouterr()
    return code, out, err


def fields(out: str) -> dict[str, str]:
    """The rows of a key-value summary: the key, two or more spaces, the value."""
    return dict(re.split(r" {2,}", line, maxsplit=1) for line in out.splitlines())


def test_default_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys)
    assert code == 0 and err == ""  # no progress line: stderr is not a terminal
    shown = fields(out)
    assert (shown["mistakes"], shown["epochs"], shown["w"]) == ("3", "2", "(3, 1)")
    assert shown["converged"].startswith("yes") and shown["separates"].startswith("yes")
    assert "\x1b" not in out  # no colour off a terminal


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--example", "orthonormal", "--json")
    doc = json.loads(out)
    assert code == 0
    assert {"mistakes", "epochs", "converged", "separates", "w", "conventions"} <= set(doc)
    assert (doc["mistakes"], doc["epochs"], doc["converged"], doc["separates"]) == (4, 2, True,
                                                                                   True)
    assert doc["w"] == ["1", "-1", "1", "-1"]
    assert doc["conventions"]["rule"] == "le" and doc["conventions"]["eta"] == "1"
    _, out, _ = run_cli(capsys, "--example", "orthonormal", "--rule", "lt", "--json")
    assert json.loads(out)["mistakes"] == 0


def test_options_reach_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\n1,1/3,1\n2,-1,0\n")
    code, out, _ = run_cli(capsys, str(path), "--bias", "--eta", "1/2", "--epochs", "3",
                           "--json")
    doc = json.loads(out)
    assert code == 0 and doc["conventions"]["bias"] and doc["conventions"]["eta"] == "1/2"
    assert len(doc["w"]) == 3 and doc["converged"]
    code, out, _ = run_cli(capsys, "--example", "xor")
    shown = fields(out)
    assert code == 0 and shown["converged"].startswith("no (cycling")
    assert shown["separates"].startswith("no")
    assert shown["conventions"].endswith("bias by augmentation")  # the example's convention


@pytest.mark.parametrize(("name", "text", "words"), [
    ("missing.csv", None, "no such file"),
    ("ragged.csv", "1,2,1\n3,4\n", "ragged"),
    ("nan.csv", "1,2,1\nnan,4,1\n", "finite"),
    ("label.csv", "1,2,1\n3,4,5\n", "label 5"),
    ("empty.csv", "", "no examples"),
    ("empty.dat", "", "no examples"),
    ("short.dat", "2\n2\n1\n0.5\n", "incomplete"),
    ("nan.json", '{"X": [[NaN]], "y": [1]}', "finite"),
])
def test_bad_data_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         name: str, text: str | None, words: str) -> None:
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    code, out, err = run_cli(capsys, str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("novikoff: error: ")
    assert str(path) in err and words in err


@pytest.mark.parametrize("args", [
    ["--eta", "0"], ["--eta", "x"], ["--epochs", "0"], ["--rule", "le0"],
    ["--example", "nope"], ["data.csv", "--example", "xor"], ["--label-column", "2"],
])
def test_bad_arguments_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                               args: list[str]) -> None:
    try:
        code = main(["run", *args])
    except SystemExit as exc:  # argparse errors exit directly
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "error" in err


def test_python_m_verify_run_end_to_end() -> None:
    done = subprocess.run([sys.executable, "-m", "verify", "run", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["w"] == ["3", "1"]
    assert done.stderr == ""


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    code = main(["run", "--example", "xor"])
    out, err = capsys.readouterr()
    assert code == 0 and "\x1b" not in out  # the bar never touches stdout
    assert "epoch 2, 7 updates" in err  # the last state is drawn ...
    assert err.endswith("\x1b[2K")  # ... then erased
    assert "\x1b[3" in err  # in colour on a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    main(["run", "--example", "xor"])
    _, err = capsys.readouterr()
    assert "epoch 2, 7 updates" in err and "\x1b[3" not in err  # NO_COLOR: no colour


def test_run_never_imports_sympy() -> None:
    """Regression (issue 15, imports only where needed): `novikoff run` read the audit's budgets
    through `verify.numeric`, whose re-exports imported SymPy (about a second per process)."""
    code = ("import sys; from verify.cli import main; main(['run', '--json']); "
            "sys.stderr.write(str('sympy' in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parents[3])
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("False"), done.stderr


def test_high_dimensional_weights_are_summarised(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    """1000 features: the first and last five weights around a count that says where the
    rest is; --json still has every one."""
    d = 1000
    rows = [",".join(f"x{j}" for j in range(d)) + ",label"]
    rows += [",".join(str(int(j == k)) for j in range(d)) + f",{y}"
             for k, y in ((0, 1), (d - 1, -1))]
    data = tmp_path / "wide.csv"
    data.write_text("\n".join(rows) + "\n")
    code, out, _ = run_cli(capsys, str(data))
    w = fields(out)["w"]
    assert code == 0 and w == "(1, 0, 0, 0, 0, ... [1000 values; --json for all] ..., " \
        "0, 0, 0, 0, -1)"
    code, out, _ = run_cli(capsys, str(data), "--json")
    assert code == 0 and len(json.loads(out)["w"]) == d
    from verify.cli.run import weights

    assert weights([1] * 11) == ", ".join(["1"] * 11)  # short enough: every value


@pytest.mark.parametrize("command", ["run", "bound"])
def test_a_data_files_name_is_shown_with_its_escapes_never_obeyed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """Red team 29 F5: `run` and `bound` printed the data file's name raw in their `data`
    row, so a stranger's `data\\x1b[2K\\rall verified\\x1b[8m.csv` erased and hid that row on
    a terminal (errors already wrote names with escapes: `perceptron.errors.printable`). The
    row shows the escapes; --json keeps the name as it is."""
    path = tmp_path / "data\x1b[2K\rall verified\x1b[8m.csv"
    path.write_text("x1,x2,y\n1,2,1\n-1,-1,-1\n")
    code = main([command, str(path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "\x1b" not in out and "\r" not in out
    assert fields(out)["data"].startswith("data\\x1b[2K\\rall verified\\x1b[8m.csv (2 examples")


def test_a_plot_never_overwrites_the_data_it_reads(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 33 F10: a data file is read by its contents whatever its extension, so
    `run d.svg --plot d.svg` (or a plot path that is a link to the data) drew over the data
    it had read. Refused before the run, one line, exit 2, the data untouched."""
    data = tmp_path / "d.svg"
    data.write_text("a,b,l\n1,2,1\n-3,-4,-1\n")
    (tmp_path / "link.svg").symlink_to(data)
    for plot in (data, tmp_path / "link.svg"):
        code, out, err = run_cli(capsys, str(data), "--plot", str(plot))
        assert (code, out) == (2, "")
        assert f"--plot {plot}: that is the data file read ({data})" in err
        assert data.read_text().startswith("a,b,l")


STUDENTS = ("hours,attendance,passed\n2.5,0.9,1\n0.5,0.2,0\n3,0.4,1\n1,0.8,0\n4,1,1\n"
            "0.25,0.5,0\n")


def test_beta_runs_the_margin_perceptron_against_its_bound(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer 34: `bound --beta` gave the margin perceptron's bound and update count, but
    `run` had no margin option, so its run (final w, margin reached) could not be seen. `run
    --beta Q` makes it (`run_margin`, the data as `run` reads them, its --bias), its updates
    checked against the bound `bound --beta` prints for the same data (one home), every
    y<w,x> > Q checked exactly on the exact final w; JSON exact."""
    from perceptron.algorithms.margin import run_margin
    from perceptron.io.loaders import load

    path = tmp_path / "students.csv"
    path.write_text(STUDENTS)
    code, out, _ = run_cli(capsys, str(path), "--bias", "--beta", "1", "--json")
    assert code == 0
    margin = json.loads(out)["margin_perceptron"]
    data = load(str(path)).augmented()
    made = run_margin(data, Fraction(1))
    assert main(["bound", str(path), "--bias", "--beta", "1", "--json"]) == 0
    bounded = json.loads(capsys.readouterr().out)["margin_perceptron"]
    assert {k: margin[k] for k in bounded} == bounded  # the same run, the same bound
    assert margin["w"] == [str(v) for v in made.w] and margin["updates"] == made.updates
    least = min(y * sum(a * b for a, b in zip(made.w, x, strict=True))
                for x, y in zip(data.X, data.y, strict=True))
    assert Fraction(margin["least_margin"]) == least > 1
    code, out, _ = run_cli(capsys, str(path), "--bias", "--beta", "1")
    shown = fields(out)
    assert code == 0
    assert shown["conventions"] == ("margin perceptron: update on y<w,x> <= 1, w_0 = 0, "
                                    "step 1, cyclic epochs, bias by augmentation")
    assert shown["updates"] == str(made.updates) and shown["epochs"] == str(made.epochs)
    assert shown["margin"] == f"least y<w,x> = {least}, > 1 (checked exactly)"
    assert shown["bound"].startswith("(R^2 + 2 beta)/gamma^2 = 38280/347")
    assert shown["bound"].endswith(f"; {made.updates} updates <= bound")
    assert "mistakes" not in shown  # not the perceptron's run


def test_beta_on_data_no_line_separates_has_no_bound(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    code, out, _ = run_cli(capsys, "--example", "xor", "--beta", "1/2", "--epochs", "4")
    shown = fields(out)
    assert code == 0
    assert shown["bound"] == "none: the data are not separable (no margin gamma > 0)"
    assert shown["converged"] == "no (hit the cap of 4 epochs; see --epochs)"


def test_beta_counts_one_update_in_the_singular(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Review 35 F3: a margin run of one update was said "1 updates <= bound"; and on data
    no line separates the bound line said "gamma^2 = 0" where the best margin may be
    negative (XOR): it now says no margin gamma > 0 exists."""
    path = tmp_path / "one.csv"
    path.write_text("x,y\n1,1\n")
    code, out, _ = run_cli(capsys, str(path), "--beta", "0")
    shown = fields(out)
    assert code == 0 and shown["updates"] == "1"
    assert shown["bound"] == "(R^2 + 2 beta)/gamma^2 = 1; 1 update <= bound"
    assert shown["margin"] == "least y<w,x> = 1, > 0 (checked exactly)"


@pytest.mark.parametrize(("args", "said"), [
    (("--beta", "-1"), "needs a margin >= 0, not -1"),
    (("--beta", "abc"), "argument --beta: "),
    (("--beta", "1", "--eta", "2"), "--eta is the perceptron's, not its"),
    (("--beta", "1", "--rule", "lt"), "--rule is the perceptron's, not its"),
])
def test_a_bad_beta_or_a_perceptron_option_beside_it_is_one_line_exit_2(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...], said: str) -> None:
    try:
        code = main(["run", *args])
    except SystemExit as raised:  # argparse's own: a bad value
        code = raised.code  # type: ignore[assignment]
    assert code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and said in err, err
