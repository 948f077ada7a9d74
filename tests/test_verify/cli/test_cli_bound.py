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


def test_the_text_lists_a_few_gordan_weights_by_example(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer 24: the text said only `lambda nonzero on 2 of 4 examples`; a lecturer shows
    the weights. Listed (examples counted from 1) when at most `LAMBDAS_SHOWN` are nonzero,
    the JSON's own; past it, the count only."""
    from verify.cli import bound

    rows = [(1, ["1/2", "3"]), (1, ["1", "1"]), (0, ["0.5", "3"])]
    dup = dat(tmp_path, rows, "dup.dat")
    code, out, _ = run(capsys, dup, "--epochs", "5")
    assert code == 1 and "(lambda nonzero on 2 of 3 examples: lambda_1 = 1, lambda_3 = 1)" in out
    # newcomer 28: the reason numbered the same two examples from 0 ("examples 0 and 2")
    assert "examples 1 and 3 are the same point with opposite labels" in out
    zero = dat(tmp_path, [(1, ["1", "2"]), (0, ["0", "0"])], "zero.dat")
    assert "example 2 is the zero vector" in run(capsys, zero, "--epochs", "5")[1]
    monkeypatch.setattr(bound, "LAMBDAS_SHOWN", 1)
    code, out, _ = run(capsys, dup, "--epochs", "5")
    assert code == 1 and "(lambda nonzero on 2 of 3 examples)" in out and "lambda_1" not in out


def test_beta_reports_the_margin_perceptron_its_bound_and_its_updates(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Newcomer 34, N3: a lecturer of the margin perceptron (update on y<w,x> <= beta) had
    no command for its bound (R^2 + 2 beta)/gamma^2 nor its updates on her own CSV: `bound`
    reported the perceptron's only. `--beta Q` adds both, exact, checked against
    `run_margin` and the formula; a negative margin is one line, exit 2."""
    from perceptron.algorithms.margin import run_margin
    from perceptron.io.loaders import load

    path = tmp_path / "students.csv"
    path.write_text("hours,attendance,passed\n2.5,0.9,1\n0.5,0.2,0\n3,0.4,1\n1,0.8,0\n"
                    "4,1,1\n0.25,0.5,0\n")
    code, out, _ = run(capsys, str(path), "--bias", "--beta", "1", "--json")
    report = json.loads(out)
    margin = report["margin_perceptron"]
    made = run_margin(load(str(path)).augmented(), Fraction(1))
    assert code == 0 and made.converged
    assert margin == {"beta": "1", "bound": str((Fraction(report["R2"]) + 2)
                                                 / Fraction(report["gamma2"])),
                      "updates": made.updates, "converged": True, "epochs": made.epochs,
                      "run": "converged: every y<w,x> > beta", "within_bound": True}
    code, out, _ = run(capsys, str(path), "--bias", "--beta", "1")
    assert code == 0
    assert re.search(r"^margin bound +\(R\^2 \+ 2 beta\)/gamma\^2 at beta = 1: 38280/347 "
                     r"\(~ 110\.317\)$", out, re.M), out
    assert re.search(rf"^margin perceptron +update on y<w,x> <= 1: {made.updates} updates in "
                     rf"{made.epochs} epochs, converged: every y<w,x> > beta; "
                     rf"{made.updates} <= bound$", out, re.M), out
    code, out, _ = run(capsys, str(path), "--bias")
    assert code == 0 and "margin perceptron" not in out and "margin bound" not in out
    with pytest.raises(SystemExit) as raised:
        main(["bound", str(path), "--beta", "-1"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a margin >= 0, not -1" in err


def test_a_long_beta_is_shown_as_the_long_bound_is(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]):
    """Red team adv33: `--beta 1e400` printed beta's 401 digits on both margin rows, while
    the bound beside it read `~ 1e+400 (exact: ... see --json)`; the JSON keeps it exact."""
    path = tmp_path / "d.csv"
    path.write_text("1,2,1\n-1,-1,-1\n2,0,1\n")
    code, out, _ = run(capsys, str(path), "--beta", "1e400", "--epochs", "3")
    assert code == 0 and "0" * 100 not in out
    assert re.search(r"^margin bound +\(R\^2 \+ 2 beta\)/gamma\^2 at beta = ~ 1e\+400 "
                     r"\(exact: an integer of 401 digits; see --json\): ~ 1e\+400", out,
                     re.M), out
    assert re.search(r"^margin perceptron +update on y<w,x> <= ~ 1e\+400 \(exact: an "
                     r"integer of 401 digits; see --json\): 9 updates in 3 epochs", out,
                     re.M), out
    code, out, _ = run(capsys, str(path), "--beta", "1e400", "--epochs", "3", "--json")
    assert json.loads(out)["margin_perceptron"]["beta"] == "1" + "0" * 400
