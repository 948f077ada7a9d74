"""A counterexample found on a run reads in the proof's names (issue 31's sums on runs).

The campaign finds it in the run's names (`X`, `Y`, `theta`), and the kernel re-checks it
there against the statement on runs, as before; the reports then show it in the names the
proof binds (`x = "X"`, `th = "theta"`): in the JSON, on the terminal and in the documents.
A name bound to an expression is said to denote it, with no value; a run quantity that no
name of the step denotes as it stands keeps its run name, apart from the proof's."""

from __future__ import annotations

import json
import textwrap
from html import unescape
from pathlib import Path

import pytest

from verify.audit.job import run_audit
from verify.runs.naming import ProofPoint

PROOF = """
title = "run counterexamples in the proof's names"
vectors = ["x", "th"]
scalars = ["y", "N", "g"]
naturals = ["N"]
indexed = ["x", "y"]
[sets]
S = { index = "j", range = "1..N", where = [] }
[numeric]
run = "batch"
names = { x = "X", y = "Y", th = "theta", g = "dot(theta, theta)" }
[[step]]
id = "margins"
given = []
claim = "sum(j in S, y[j]*dot(th, x[j])) >= N"
[[step]]
id = "iterate"
given = []
claim = "dot(th, th) + g <= 0"
[[step]]
id = "expression"
given = []
claim = "g <= 0"
"""

RUN_NAMES = {"X", "Y", "theta"}


@pytest.fixture(scope="module")
def proof(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("names") / "names.toml"
    path.write_text(textwrap.dedent(PROOF))
    return path


@pytest.fixture(scope="module")
def report(proof: Path) -> dict[str, dict]:
    """The JSON of the audit (`--json`), each step's numeric part by id."""
    from verify.audit.report import to_json

    steps = to_json(run_audit([str(proof)], budget="small"))["proofs"][0]["steps"]
    return {s["id"]: s["numeric"] for s in steps}


def test_families_and_vectors_read_in_the_proofs_names(report: dict[str, dict]) -> None:
    """`x = "X"`, `y = "Y"`, `th = "theta"`: the JSON names x, y, th and N, never X, Y or
    theta (it named the run's before)."""
    numeric = report["margins"]
    assert numeric["status"] == "violated"
    cex = numeric["counterexample"]
    assert set(cex["families"]) == {"x", "y"} and set(cex["vectors"]) == {"th"}
    assert set(cex["scalars"]) == {"N"}
    assert "denotes" not in cex and "run" not in cex
    assert not RUN_NAMES & {*cex["families"], *cex["vectors"], *cex["scalars"]}
    n = int(cex["scalars"]["N"])
    assert sorted(int(j) for j in cex["families"]["x"]) == list(range(1, n + 1))


def test_a_name_bound_to_an_expression_says_what_it_denotes_and_no_value(
        report: dict[str, dict]) -> None:
    """`g = "dot(theta, theta)"`: the step reading g and th gives th's value and says that g
    denotes the run's dot(theta, theta), never a value of g."""
    cex = report["iterate"]["counterexample"]
    assert cex["denotes"] == {"g": "dot(theta, theta)"}
    assert set(cex["vectors"]) == {"th"} and "g" not in cex["scalars"]
    assert "run" not in cex and any(c != "0" for c in cex["vectors"]["th"])


def test_a_run_quantity_no_name_of_the_step_denotes_keeps_its_run_name_apart(
        report: dict[str, dict]) -> None:
    """The step reads only g: theta enters through g's expression, so its value is the
    run's theta, given apart (`run`), not under th, which the step does not read."""
    cex = report["expression"]["counterexample"]
    assert cex["denotes"] == {"g": "dot(theta, theta)"}
    assert cex["vectors"] == {} and set(cex["run"]["vectors"]) == {"theta"}


def test_the_kernel_checks_the_runs_instance_and_the_reports_rename_it(proof: Path) -> None:
    """The verdict keeps the run's values under the proof's names (a `ProofPoint`); the
    kernel checked the run's instance before (`verify.audit.job._merged`), and the counts
    are the campaign's."""
    from verify import kernel
    from verify.audit.job import as_counterexample

    audit = run_audit([str(proof)], budget="small")
    step = {s.step.id: s for s in audit.proofs[0].steps}["margins"]
    assert step.numeric is not None and step.numeric.violations > 0
    point = step.numeric.counterexample
    assert isinstance(point, ProofPoint) and set(point.families) == {"x", "y"}
    assert point.checked is not None and set(point.checked.families) == {"X", "Y"}
    (check,) = [w.check for name, w in audit.witnesses.items() if name.endswith("/margins")]
    kernel.check_counterexample(check.judgement, as_counterexample(point.checked))
    with pytest.raises(kernel.KernelError):  # the statement on runs reads X, Y, theta
        kernel.check_counterexample(check.judgement, as_counterexample(point))


def test_the_terminal_and_the_documents_print_the_proofs_names(
        proof: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from verify.cli import main

    markdown, html, latex = (tmp_path / f"r.{e}" for e in ("md", "html", "tex"))
    code = main(["audit", str(proof), "--budget", "small", "--jobs", "1", "--markdown",
                 str(markdown), "--html", str(html), "--latex", str(latex)])
    out, err = capfd.readouterr()
    assert code == 1 and "Traceback" not in err, err
    lines = [line for line in out.splitlines() if line.startswith("    on a run: ")]
    assert len(lines) == 3, out
    margins, iterate, expression = (line.split("; from the ")[0] for line in lines)
    assert "x[1] = (" in margins and "y[1] = " in margins and "th = (" in margins
    assert "X[" not in margins and "theta" not in margins and "Y[" not in margins
    assert "g denotes the run's dot(theta, theta)" in iterate and "th = (" in iterate
    assert "the run's theta = (" in expression and "th = (" not in expression
    for document in (markdown, html, latex):  # as typeset: escapes and break hints out
        text = unescape(document.read_text()).replace("\\allowbreak{}", "").replace("\\", "")
        for markup in ("$", "mathrm{", "texttt{", "}"):  # LaTeX: a name as math, then text
            text = text.replace(markup, "") if document == latex else text
        assert "g denotes the run's dot(theta, theta)" in text, document
        assert "the run's theta = (" in text, document
        assert "X[1]" not in text and "x[1] = (" in text, document


def test_the_json_of_the_command_line_names_what_the_proof_names(
        proof: Path, capfd: pytest.CaptureFixture[str]) -> None:
    from verify.cli import main

    main(["audit", str(proof), "--budget", "small", "--jobs", "1", "--json"])
    out, _ = capfd.readouterr()
    steps = {s["id"]: s["numeric"] for s in json.loads(out)["proofs"][0]["steps"]}
    assert set(steps["margins"]["counterexample"]["families"]) == {"x", "y"}


def test_of_two_names_for_one_run_quantity_the_steps_is_shown() -> None:
    """finite-sums binds both x and v to the run's X: a step reading v shows v's members,
    not x's, and the run's Y under y; a `[define]`d name's column under its own name."""
    from fractions import Fraction

    from proofs.library import load_builtin
    from verify.runs.columns import Instance
    from verify.runs.naming import Defined, Naming, Reading

    proof = load_builtin("finite-sums")
    assert proof.numeric is not None
    names = Naming.of(proof.numeric, proof.vectors, proof.indexed)
    names = Naming(names.run, names.scalars, names.vectors,
                   {"s": Defined("s", "s__0123456789ab", "max", ())}, names.families)
    reading = Reading.of(names, {*proof.scalars, *proof.vectors, *proof.indexed, "s"},
                         {"v", "y", "N"}, proof.numeric.names)
    one = Fraction(1)
    point = reading.point(Instance({"N": one, "s__0123456789ab": one}, {},
                                   families={"X": {one: (one,)}, "Y": {one: one}}))
    assert set(point.families) == {"v", "y"} and point.families["v"] == {one: (one,)}
    assert point.scalars == {"N": one, "s": one} and point.run is None


def test_a_run_counterexample_in_the_proofs_names_is_valid_against_the_schema(
        report: dict[str, dict]) -> None:
    """Its families, `denotes` and `run` are in the shipped schema (a run's counterexample
    with families was not: chan-batch's JSON failed it)."""
    import jsonschema

    from verify import schema

    shipped = schema.load("audit")
    validator = jsonschema.Draft202012Validator(
        {"$defs": shipped["$defs"], "$ref": "#/$defs/runCounterexample"})
    for numeric in report.values():
        assert list(validator.iter_errors(numeric["counterexample"])) == []


def test_a_names_meaning_is_made_again_once_a_definition_is_added() -> None:
    """A naming keeps each name's meaning on runs (`Naming._term`) with the number of
    definitions it was made under: `defining` adds definitions to the naming it reads them
    with, so a name read before its definition was added means itself, and after it the
    definition's column, not the meaning kept from before."""
    import sympy

    from verify.runs.naming import Defined, Naming

    names = Naming("online", {}, {})
    m, column = sympy.Symbol("m"), sympy.Symbol("m__0123456789ab")
    assert names.replaced(m + 1) == m + 1
    names.defined["m"] = Defined("m", "m__0123456789ab", "max", ())
    assert names.replaced(m + 1) == column + 1
    assert names.replaced(2 * m) == 2 * column
