"""`novikoff check` (docs/design.md §5): exit codes, human and JSON output, evidence in the JSON.

The JSON is re-read with nothing but the proof file's names and the expression parser, and
every certificate and counterexample in it is re-checked by the kernel: what the report
prints is enough to verify it independently.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from proofs.language.expressions import Names, parse_relation, parse_scalar, parse_vector
from proofs.proof_file import load_proof
from verify import kernel
from verify.cli import main
from verify.kernel import (
    Certificate,
    Counterexample,
    GramMinor,
    Judgement,
    NormSquare,
    Product,
    Sos,
    Square,
)
from verify.proof_checker import fact_of

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
STEP_KEYS = {"id", "status", "certificate", "counterexample", "message", "seconds"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["check", *argv])
    except SystemExit as exc:  # argparse rejects bad arguments by exiting
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def judgement(data: dict[str, Any], names: Names) -> Judgement:
    facts = tuple(fact_of(parse_relation(text, names)) for text in data["hypotheses"])
    return Judgement(facts, fact_of(parse_relation(data["claim"], names)))


def sos(data: dict[str, Any], names: Names) -> Sos:
    weight = Fraction(data["weight"])
    if data["kind"] == "square":
        return Square(weight, parse_scalar(data["poly"], names))
    if data["kind"] == "norm2":
        return NormSquare(weight, parse_vector(data["vector"], names))
    assert data["kind"] == "gram-minor"
    return GramMinor(weight, tuple(parse_vector(v, names) for v in data["vectors"]))


def _sigma(product: dict[str, Any], names: Names) -> tuple[Sos, ...]:
    return tuple(sos(term, names) for term in product["sigma"])


def certificate(data: dict[str, Any], names: Names) -> Certificate:
    return Certificate(
        products=tuple(
            Product(Fraction(p["coeff"]), tuple(p["hyps"]), _sigma(p, names))
            for p in data["products"]
        ),
        linear=tuple((term["hyp"], parse_scalar(term["q"], names)) for term in data["linear"]),
        multiplier=tuple(data["multiplier"]),
    )


def counterexample(data: dict[str, Any]) -> Counterexample:
    return Counterexample(
        scalars={name: Fraction(v) for name, v in data["scalars"].items()},
        vectors={name: tuple(Fraction(x) for x in v) for name, v in data["vectors"].items()},
    )


def recheck(report: dict[str, Any], names: Names) -> None:
    """Every proved step's certificates and every refutation pass the kernel, from JSON."""
    for step in report["steps"]:
        assert step.keys() >= STEP_KEYS
        assert step["status"] in ("proved", "refuted", "unknown")
        assert isinstance(step["seconds"], float) and step["seconds"] >= 0
        parts = step["judgements"]
        if step["status"] == "proved":
            certs = step["certificate"] if len(parts) > 1 else [step["certificate"]]
            assert len(certs) == len(parts)
            for part, cert in zip(parts, certs, strict=True):
                assert part["certificate"] == cert
                kernel.check_certificate(judgement(part, names), certificate(cert, names))
        else:
            assert step["certificate"] is None
        if step["status"] == "refuted":
            refuting = [p for p in parts if p["counterexample"] == step["counterexample"]]
            assert refuting and step["counterexample"] is not None
            cex = counterexample(step["counterexample"])
            kernel.check_counterexample(judgement(refuting[0], names), cex)
        else:
            assert step["counterexample"] is None


@pytest.mark.parametrize(
    ("example", "code", "statuses"),
    [
        ("norm-growth.toml", 0, {"norm-growth": "proved"}),
        ("false-step.toml", 1, {"parallelogram": "proved", "no-cross-term": "refuted"}),
        ("mistake-bound.toml", 0, {
            "norm-invariant": "proved", "progress-invariant": "proved",
            "squared-lower-bound": "proved", "mistake-bound": "proved",
        }),
        ("quantifiers.toml", 0, {
            "cauchy-schwarz": "proved", "projection-below-norm": "proved",
            "cauchy-schwarz-sum": "proved", "partial-sum-bound": "proved",
            "squares-nonnegative": "proved", "weighted-squares-nonnegative": "proved",
            "norm-growth": "proved", "weights-bounded-at-t": "proved",
        }),
        ("norms-and-roots.toml", 1, {
            "norm-above-projection": "proved", "hinge-covers-the-margin": "proved",
            "root-is-not-below-its-square": "refuted",
        }),
    ],
)
def test_json_report_and_its_evidence(
    capsys: pytest.CaptureFixture[str], example: str, code: int, statuses: dict[str, str]
) -> None:
    path = EXAMPLES / example
    exit_code, out, err = run(capsys, "--json", str(path))
    assert (exit_code, err) == (code, "")
    report = json.loads(out)
    assert set(report) == {"title", "status", "theorem", "steps"}
    assert report["title"] == load_proof(path).title
    # newcomer 33 F6: which step is the main result, as the reports say it
    assert report["theorem"] == load_proof(path).main_result
    assert report["status"] == ("proved" if code == 0 else "refuted")
    assert {s["id"]: s["status"] for s in report["steps"]} == statuses
    recheck(report, load_proof(path).names)


def test_human_output_one_line_per_step_then_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(EXAMPLES / "false-step.toml"))
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].split()[:2] == ["proved", "parallelogram"]
    assert lines[1].split()[:2] == ["refuted", "no-cross-term"]
    assert "counterexample" in lines[1] and " at a = (" in lines[1]
    summary = "A true step and a false one: refuted (1 proved, 1 refuted, 0 unknown;"
    assert lines[2].startswith(summary)


def test_unknown_step_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "cancel.toml"
    path.write_text(
        'title = "T"\nvectors = ["w", "x"]\n[[step]]\nid = "cancel"\n'
        'claim = "dot(w, x)/dot(w, x) == 1"\n'
    )
    code, out, _ = run(capsys, str(path))
    assert code == 1
    assert out.splitlines()[0].startswith("unknown  cancel")


def test_bad_file_is_one_line_naming_file_and_step(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('title = "T"\nscalars = ["y"]\n[[step]]\nid = "s-1"\nclaim = "y.real >= 0"\n')
    code, out, err = run(capsys, "--json", str(path))
    assert (code, out) == (2, "")
    problem = "claim: Attribute is not allowed in 'y.real'"
    assert err == f"novikoff: error: {path}:5:10: step s-1: {problem}\n"


@pytest.mark.parametrize("argv", [["missing.toml"], ["--time-limit", "0", "x.toml"],
                                  ["--time-limit", "nan", "x.toml"], ["--time-limit", "a", "x"]])
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith("novikoff: error: ")


def test_progress_only_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(EXAMPLES / "false-step.toml")
    run(capsys, path)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(capsys, "--time-limit", "2", path)
    assert code == 1
    assert "0/2" in err and "parallelogram" in err  # each step is drawn as it starts ...
    assert "1/2" in err and "no-cross-term" in err
    assert err.endswith("\x1b[2K")  # ... and the bar is erased at the end


def test_statements_shows_each_steps_full_statement(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26.8: the README promised the full statement in `check`'s text output, which
    showed none; `--statements` prints it under each step (an induction with its runs)."""
    assert main(["check", "canonical-online"]) == 0
    plain = capsys.readouterr().out
    assert main(["check", "canonical-online", "--statements"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "for every run" not in plain
    growth = next(i for i, line in enumerate(lines) if line.split()[1:2] == ["norm-growth"])
    assert lines[growth + 1].startswith(" " * 9 + "for every run from w := 0")
    assert "|-" in lines[growth + 1]
    assert len(lines) == 2 * len(plain.splitlines()) - 1  # one statement per step


@pytest.mark.parametrize(("name", "says"), [
    ("canonical-onlin", "did you mean canonical-online?"),
    ("no-such-id", "(built-in: canonical-online, "),
])
def test_an_unknown_id_names_the_built_in_proofs(
        name: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Regression (issue 26.8): `check no-such-id` said only 'No such file or directory'."""
    assert main(["check", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no built-in proof of that id" in err and says in err


def test_a_counterexample_lists_only_the_names_the_step_uses(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer trial, item 16: `check` printed the kernel's whole point for a refuted step
    (`R = -1, gamma = 0, t = 0, y = 1, u = (0), w = (0), x = (0)` for a step about R, y, w, x),
    where `explain` and the reports leave out the names the step does not use."""
    wrong = Path(__file__).resolve().parents[2] / "cases" / "trial" / "perceptron-wrong2.toml"
    assert main(["check", str(wrong)]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("refuted  one-update-growth"))
    point = line.split(" at ", 1)[1]
    assert {part.split(" = ")[0] for part in point.split(", ") if " = " in part} <= {
        "R", "y", "w", "x"}
    assert "gamma" not in point and "u = " not in point and "t = " not in point


PAST_ITS_INVARIANT = b"""
title = "a step past its invariant"
vectors = ["w", "x"]
scalars = ["t", "y"]
naturals = ["t"]

[[step]]
id = "norm-growth"
claim = "norm2(w) <= t"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "norm2(x) <= 1", "y*dot(w, x) <= 0"]

[[step]]
id = "too-small"
uses = ["norm-growth"]
claim = "norm2(w) <= t/2"
"""  # false after one update of norm 1, true at the start: the point refutes nothing


def test_a_side_conditions_point_is_named_as_such_by_the_last_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer nc35 K12: a step left unknown by a denominator no hypothesis shows positive
    got the last line "the point found for q, with each hypothesis and the claim evaluated
    at it", but explain shows such a point with its values only (a side condition's point
    is no instance of the step). The line says what explain shows."""
    path = tmp_path / "q.toml"
    path.write_text('title = "t"\nscalars = ["a", "b"]\n[[step]]\nid = "q"\n'
                    'given = ["a >= 0"]\nclaim = "a/b >= 0"\n')
    assert main(["check", str(path), "--budget", "small"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == ("the point found for q, where a side condition of it fails (a "
                       f"denominator, or a sum rule's condition): novikoff explain {path} q")
    assert main(["explain", str(path), "q"]) == 1
    shown = capsys.readouterr().out
    assert "judgement denominator b > 0: unknown" in shown and "    a = 0, b = 0" in shown
    assert "the claim, as written, at these numbers" not in shown


def test_a_point_that_refutes_nothing_is_shown_by_the_command_check_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer 24: `check` said a point was found that may be one no run reaches, neither
    where nor how to see it. Its last line names the `explain` command, which shows it; a
    file with no such step has no such line, and stdin has none (no file to name)."""
    path = tmp_path / "past.toml"
    path.write_bytes(PAST_ITS_INVARIANT)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("unknown  too-small") and "may be one no run reaches" in out[1]
    assert out[-1] == ("the point found for too-small, with each hypothesis and the claim "
                       f"evaluated at it: novikoff explain {path} too-small")
    assert main(["explain", str(path), "too-small"]) == 1
    assert "a point where the hypotheses hold and the claim fails" in capsys.readouterr().out
    path.write_bytes(PAST_ITS_INVARIANT.replace(b"t/2", b"t + 1"))
    assert main(["check", str(path)]) == 0
    assert "novikoff explain" not in capsys.readouterr().out


def test_a_huge_counterexample_value_is_abbreviated_in_the_line_only(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`(a - 1e999)**2 >= 1` is refuted at a = 10^999: the line printed its thousand digits;
    it says `10^999` now (exact), while --json and `explain` keep the exact value."""
    proof = tmp_path / "big.toml"
    proof.write_text('title = "big"\nscalars = ["a"]\n\n[[step]]\nid = "big"\n'
                     'claim = "(a - 1e999)**2 >= 1"\n')
    code, out, _ = run(capsys, str(proof))
    assert code == 1
    assert out.splitlines()[0].endswith(" at a = 10^999") and len(out) < 200
    code, out, _ = run(capsys, "--json", str(proof))
    assert json.loads(out)["steps"][0]["counterexample"]["scalars"]["a"] == str(10 ** 999)
    assert main(["explain", str(proof), "big"]) == 1
    assert str(10 ** 999) in capsys.readouterr().out


@pytest.mark.parametrize(("value", "text"), [
    (Fraction(12345), "12345"), (Fraction(-10 ** 24), "-10^24"),
    (Fraction(10 ** 999 - 1), "10^999 - 1"), (Fraction(-10 ** 999 + 5), "-(10^999 - 5)"),
    (Fraction(10 ** 30 + 7, 3), "(10^30 + 7)/3"), (Fraction(1, 10 ** 40), "1/10^40"),
    (Fraction(3 ** 2000), "~1.74787125e+954 (exact: 955 digits; see --json)"),
    (Fraction(-(10 ** 25 - 10 ** 7)), "~-1e+25 (exact: 25 digits; see --json)"),
    (Fraction(3 ** 2000, 7), "~2.49695893e+953 (exact: 955/1 digits; see --json)"),
    (Fraction(-7, 10 ** 5000 + 1), "-7/(10^5000 + 1)"),  # 5001 digits: never made a str
    (Fraction(3 ** 10000), "~1.63135019e+4771 (exact: 4772 digits; see --json)"),
])
def test_brief_numbers_are_exact_or_say_they_are_approximate(value: Fraction, text: str
                                                             ) -> None:
    """Regression: past 4300 digits `brief` raised Python's ValueError of `str(int)`."""
    from verify.render.certificates import brief

    assert brief(value) == text


def test_a_tas_batch_proof_with_the_optimal_step_is_proved_with_no_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Newcomer nc35's lecture proof, as a TA wrote it from Chan's slides
    (tests/cases/nc35/batch_optimal.toml): the expansion, the step alpha_k that minimises
    the bound along xbar, its value, the decrease by gamma^2/R2, the induction and the
    bound k gamma^2 <= R2 ||theta*||^2: every step proved, none vacuous, with no hint."""
    path = Path(__file__).resolve().parents[2] / "cases" / "nc35" / "batch_optimal.toml"
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in out[:-1]] == [["proved", step] for step in (
        "expand", "drop-mistakes", "xbar-nonzero", "optimal-step", "optimal-value",
        "decrease", "distance", "bound")]
    assert out[-1].startswith("Batch perceptron with the optimal step alpha_k: proved (8 "
                              "proved, 0 refuted, 0 unknown;") and "VACUOUS" not in "".join(out)
