"""`novikoff bound`: reports, JSON, exit codes and one-line errors."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from verify.cli import main
from verify.numeric.campaign import BENCH_DATA

DATA_DIR = BENCH_DATA


def bench(name: str) -> str:
    path = DATA_DIR / name
    if not path.exists():
        pytest.skip(f"benchmark data not found at {path}")
    return str(path)


def dat(tmp_path: Path, rows: list[tuple[int, list[str]]], name: str = "data.dat") -> str:
    """Write examples (label 1/0, features) in the benchmark's .dat format."""
    d = len(rows[0][1]) if rows else 2
    lines = [str(len(rows)), str(d)]
    for label, x in rows:
        lines.append(str(label))
        lines.extend(x)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["bound", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_iris_json_is_exact_and_certified(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, bench("iris_data_set"), "--json")
    assert code == 0
    report = json.loads(out)
    for key in ("separable", "R2", "gamma2", "bound", "optimal", "mistakes", "certificate"):
        assert key in report
    assert report["separable"] is True and report["optimal"] is True
    r2, g2, bound = (Fraction(report[k]) for k in ("R2", "gamma2", "bound"))
    assert bound == r2 / g2
    assert report["R2"] == "6173/50"
    cert = report["certificate"]
    assert set(cert) == {"w", "b", "alpha"}
    assert len(cert["w"]) == 4 and len(cert["alpha"]) == 150 and cert["b"] == "0"
    w = [Fraction(v) for v in cert["w"]]
    assert g2 == 1 / sum(v * v for v in w)
    assert report["converged"] is True
    assert 0 < report["mistakes"] <= bound


def test_iris_human_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, bench("iris_data_set"), "--bias")
    assert code == 0
    assert re.search(r"^R\^2 +6223/50 ", out, re.MULTILINE)  # the augmented radius
    assert "certified optimal" in out
    assert re.search(r"^bound R\^2/gamma\^2 +\d", out, re.MULTILINE)
    assert "unregularised bias" in out
    assert "<= bound" in out


def test_bias_json_splits_w_and_b(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, bench("iris_data_set"), "--bias", "--json")
    assert code == 0
    report = json.loads(out)
    cert = report["certificate"]
    w = [Fraction(v) for v in cert["w"]]
    b = Fraction(cert["b"])
    assert len(w) == 4
    assert Fraction(report["gamma2"]) == 1 / (sum(v * v for v in w) + b * b)


def test_xor_is_a_result_with_a_gordan_certificate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = dat(tmp_path, [(1, ["0", "0"]), (1, ["1", "1"]), (0, ["0", "1"]), (0, ["1", "0"])])
    code, out, _ = run(capsys, path, "--bias", "--json", "--epochs", "20")
    assert code == 1
    report = json.loads(out)
    assert report["separable"] is False and report["bound"] is None
    lam = [Fraction(v) for v in report["certificate"]["lambda"]]
    assert all(v > 0 for v in lam)
    assert report["converged"] is False and report["mistakes"] > 0
    code, out, _ = run(capsys, path, "--bias", "--epochs", "20")
    assert code == 1 and re.search(r"^separable +no", out, re.MULTILINE)
    # the run stops at its cap, or earlier when it proves itself cycling
    assert "hit the cap of 20 epochs" in out or "never converges" in out


def test_zero_vector_and_opposite_duplicates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    zero = dat(tmp_path, [(1, ["1", "2"]), (0, ["0", "0"])], "zero.dat")
    code, out, _ = run(capsys, zero, "--epochs", "5")
    assert code == 1 and "zero vector" in out
    code, out, _ = run(capsys, zero, "--bias", "--epochs", "5")
    assert code == 0  # with a bias the zero example is just a point
    dup = dat(tmp_path, [(1, ["1/2", "3"]), (0, ["0.5", "3"]), (1, ["1", "1"])], "dup.dat")
    code, out, _ = run(capsys, dup, "--json", "--epochs", "5")
    assert code == 1
    report = json.loads(out)
    assert report["certificate"]["lambda"] == ["1", "1", "0"]
    assert "opposite labels" in report["reason"]


def test_single_class(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = dat(tmp_path, [(1, ["1", "2"]), (1, ["3", "1"])])
    code, out, _ = run(capsys, path, "--json")
    assert code == 0 and json.loads(out)["optimal"] is True
    code, out, _ = run(capsys, path, "--bias")
    assert code == 0 and "same label" not in out.split("gamma^2")[0]


def test_epoch_cap_on_sonar(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, bench("rocks_and_mines"), "--epochs", "3", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["optimal"] is True and report["converged"] is False
    assert "hit the cap of 3 epochs" in report["run"]
    assert Fraction(report["bound"]) > 10**8
    code, out, _ = run(capsys, bench("rocks_and_mines"), "--epochs", "0")
    assert code == 0 and "skipped" in out and "see --json" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--epochs", "-1"],
        ["--epochs", "many"],
    ],
)
def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                            argv: list[str]) -> None:
    path = dat(tmp_path, [(1, ["1"]), (0, ["-1"])])
    with pytest.raises(SystemExit) as info:
        main(["bound", path, *argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    "text",
    [
        "",  # empty file
        "0\n2\n",  # no examples
        "2\n1\n1\n1\n",  # truncated
        "1\n1\n1\nabc\n",  # not a number
    ],
)
def test_bad_data_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     text: str) -> None:
    path = tmp_path / "bad.dat"
    path.write_text(text)
    code, out, err = run(capsys, str(path))
    assert code == 2 and out == ""
    assert err.startswith("novikoff: error:") and err.count("\n") == 1


def test_missing_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "nope.dat"))
    assert code == 2 and err.count("\n") == 1


def test_one_of_a_kind_is_singular(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Newcomer trial, item 16: "1 mistakes" (and "1 examples, 1 features", "1 support
    vectors")."""
    data = tmp_path / "one.csv"
    data.write_text("x,y\n1,1\n")
    assert main(["bound", str(data)]) == 0
    out = capsys.readouterr().out
    assert "(1 example, 1 feature, 1 positive)" in out and "1 support vector)" in out
    assert "1 mistake in 2 epochs" in out and "1 mistakes" not in out
    assert main(["run", str(data)]) == 0
    assert "(1 example, 1 feature)" in capsys.readouterr().out


def test_the_text_report_leaves_the_separator_out_and_nothing_else() -> None:
    """Issue 30: the text shows no coordinate of w, so it is not written out (a million of
    them were seconds); every other field is the JSON's."""
    from perceptron.examples import example
    from verify.cli.bound import bound_report

    data = example("10-607").build()
    full, text = bound_report(data), bound_report(data, separator=False)
    assert full["certificate"]["w"] and "w" not in text["certificate"]
    del full["certificate"]["w"]
    assert text == full
