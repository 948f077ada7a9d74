"""The smallest failing run (issue 27.5): shrunk on the exact engine, written, reproducible."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from verify.api import audit_proofs
from verify.audit.counterexamples import fails, shrink, shrink_all
from verify.audit.targets import U_LINE, data_scenarios, load_data, read, separates

FALSE = """
title = "A false invariant"
vectors = ["w"]
scalars = ["t"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "short"
claim = "norm2(w) <= t"
note = "false: ||w_t||^2 grows with ||x||^2, which may exceed 1"
"""


def test_a_violated_step_is_written_as_its_smallest_failing_run(tmp_path: Path) -> None:
    proof = tmp_path / "false.toml"
    proof.write_text(FALSE)
    audit = audit_proofs(proof, budget="small")
    witness = audit.witnesses["false/short"]
    lines = shrink_all(audit, tmp_path)
    assert len(lines) == 1 and f"reproduce: novikoff audit {proof} --data" in lines[0]
    written = tmp_path / "false--short.csv"
    data = load_data(str(written))
    # shrunk: one example of entries +-1 (||x||^2 = 2 > 1 = t after one update); one
    # coordinate would make ||x||^2 = 1, which holds, and shrinking never enlarges an entry
    assert data.n == 1 and data.d <= witness.scenario.data.d
    assert all(abs(v) == 1 for v in data.X[0])
    # the file fails as written (the exact engine, the step's statement checked exactly)
    assert fails(witness.check, data, "online") is not None
    again = audit_proofs(proof, data=[written], budget="small")
    assert again.proofs[0].steps[0].numeric.status == "violated"


# The campaign's own u (issue 27.5): the shrunk file names it, projected as coordinates drop.

ABOUT_U = """
title = "A false bound on the separator"
vectors = ["w", "u"]
scalars = ["t"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "unit"
claim = "norm2(u) <= 1"
note = "false for the campaign's separators, true for some a data file could find"
"""


def test_the_shrunk_run_keeps_the_campaign_s_separator(tmp_path: Path) -> None:
    proof = tmp_path / "about-u.toml"
    proof.write_text(ABOUT_U)
    audit = audit_proofs(proof, budget="small")
    witness = audit.witnesses["about-u/unit"]
    campaign_u = tuple(witness.scenario.u)
    lines = shrink_all(audit, tmp_path)
    written = tmp_path / "about-u--unit.csv"
    assert lines == [lines[0]] and lines[0].endswith(
        f"reproduce: novikoff audit {proof} --data {written} --budget small")
    head = written.read_text().splitlines()[0]
    assert head.startswith(f"{U_LINE} ")
    data, u = read(str(written))
    assert u is not None and len(u) == data.d and separates(u, data)
    # u is the campaign's, projected: its coordinates, in order, a dropped one dropped
    kept = iter(campaign_u)
    assert all(any(c == k for k in kept) for c in u)
    assert head == f"{U_LINE} {', '.join(map(str, u))}"
    # the file run as the printed command runs it: with that u, and the step fails there
    (scenario,) = data_scenarios(str(written), "online")
    assert tuple(scenario.u) == u
    assert fails(witness.check, data, "online", u) is not None
    again = audit_proofs(proof, data=[written], budget="small")
    assert again.proofs[0].steps[0].numeric.status == "violated"


def test_a_recomputed_separator_would_not_reproduce_it(tmp_path: Path) -> None:
    """Why u is kept: one example x = (1, 0), whose own exact separator is (1, 0) (norm 1:
    the step holds), fails with the campaign's u = (1, 1)."""
    proof = tmp_path / "about-u.toml"
    proof.write_text(ABOUT_U)
    check = audit_proofs(proof, budget="small").witnesses["about-u/unit"].check
    one = Dataset.of([[1, 0]], [1], "one")
    assert fails(check, one, "online") is None
    assert fails(check, one, "online", (Fraction(1), Fraction(1))) is not None
    shrunk = shrink(check, Dataset.of([[1, 0, 2], [2, 1, 0]], [1, 1], "two"), "online",
                    u=(Fraction(1), Fraction(1), Fraction(1)))
    assert shrunk is not None and shrunk.u is not None and separates(shrunk.u, shrunk.data)
    assert len(shrunk.u) == shrunk.data.d and set(shrunk.u) == {Fraction(1)}
    assert fails(check, shrunk.data, "online", (Fraction(-1),) * shrunk.data.d) is None


@pytest.mark.parametrize(("line", "fault"), [
    ("# u = 1, x", "its line `# u = 1, x`"),
    ("# u = 1", "its u has 1 coordinates, its examples 2"),
    ("# u = -1, -1", "the u it names does not separate its examples"),
])
def test_a_bad_separator_line_is_one_line(tmp_path: Path, line: str, fault: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(f"{line}\n1,2,1\n2,1,1\n")
    with pytest.raises(DataError) as raised:
        read(str(path))
    assert fault in str(raised.value) and "\n" not in str(raised.value)


# The newcomer trial's lecture proofs (tests/cases/lecture/, from /work/trial/lecture).

LECTURE = Path(__file__).resolve().parents[2] / "cases" / "lecture"


def test_the_shrinker_reaches_the_smallest_dimension(tmp_path: Path) -> None:
    """Trial item 7: for perceptron-wrong2 (R for R**2 in one-update-growth) the tool wrote
    `0,0,-2,1` (dimension 3), though the 1-D `-2,1` fails too: a coordinate could drop only
    once the entries were smaller, and the campaign's u, projected, no longer separated
    the one-dimensional data (the file then names a separator of its own). The passes now
    repeat until none finds a smaller run."""
    proof = LECTURE / "perceptron-wrong2.toml"
    audit = audit_proofs(proof, budget="small")
    folder = tmp_path / "not" / "yet"  # trial item 6: made as --coq DIR is
    (line,) = shrink_all(audit, folder)
    written = folder / "perceptron-wrong2--one-update-growth.csv"
    data, u = read(str(written))
    assert (data.n, data.d) == (1, 1) and u is not None and separates(u, data)
    assert data.X == ((Fraction(-2),),) and data.y == (1,)  # the trial's one.csv
    assert line.endswith(f"reproduce: novikoff audit {proof} --data {written} --budget small")
    again = audit_proofs(proof, data=[written], budget="small")
    steps = {s.step.id: s for s in again.proofs[0].steps}
    assert steps["one-update-growth"].numeric.status == "violated"


def test_a_violation_a_small_file_reproduces_is_written(tmp_path: Path) -> None:
    """Trial item 6: for perceptron-wrong (Cauchy–Schwarz without ||u|| = 1) the tool said
    "no data file reproduces it", though the two examples of half.csv do: the shrunk run
    (with the campaign's u, named in the file) is written and fails as written."""
    proof = LECTURE / "perceptron-wrong.toml"
    assert audit_proofs(proof, data=[LECTURE / "half.csv"], budget="small").proofs[0] \
        .steps[3].numeric.status == "violated"  # the trial's file reproduces it
    audit = audit_proofs(proof, budget="small")
    (line,) = shrink_all(audit, tmp_path)
    written = tmp_path / "perceptron-wrong--cauchy-schwarz.csv"
    assert "smallest failing run found (1 example, dimension 1" in line and written.exists()
    again = audit_proofs(proof, data=[written], budget="small")
    assert {s.step.id: s for s in again.proofs[0].steps}["cauchy-schwarz"].numeric.status \
        == "violated"


def test_the_command_repeats_only_a_budget_the_audit_ran_at(tmp_path: Path) -> None:
    """Trial item 7: the printed command added `--budget small` to an audit run at the
    default budget (the file's run is checked at any budget; the budget only sizes the
    campaign around it)."""
    proof = LECTURE / "perceptron-wrong2.toml"
    audit = audit_proofs(proof, budget="small")
    (line,) = shrink_all(replace(audit, budget="default"), tmp_path)
    assert line.endswith(f"--data {tmp_path / 'perceptron-wrong2--one-update-growth.csv'}")
    (line,) = shrink_all(replace(audit, budget="large"), tmp_path)
    assert line.endswith(" --budget large")


def test_the_cli_makes_the_counterexamples_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from verify.cli import main

    folder = tmp_path / "cex"
    code = main(["audit", str(LECTURE / "perceptron-wrong2.toml"), "--budget", "small",
                 "--jobs", "1", "--counterexamples", str(folder)])
    err = capsys.readouterr().err
    assert code == 1 and "no such directory" not in err
    assert (folder / "perceptron-wrong2--one-update-growth.csv").exists()
    (tmp_path / "file").write_text("")
    assert main(["audit", str(LECTURE / "perceptron-wrong2.toml"), "--budget", "small",
                 "--counterexamples", str(tmp_path / "file")]) == 2
    assert "--counterexamples" in capsys.readouterr().err


def test_a_plug_in_fault_while_shrinking_stops_it(tmp_path: Path) -> None:
    """A candidate whose run faults ends the shrinking (a plug-in that hangs on smaller data
    would otherwise cost its 60 s per candidate); the smallest run found before is
    written, and the line says why it is not smaller."""
    from cases.plugins import hostile

    from verify.runs.plugin import Plugin

    proof = tmp_path / "false.toml"
    proof.write_text(FALSE.replace('run = "online"', 'run = "online"\nalgorithm = "p"'))
    audit = audit_proofs(proof, budget="small", jobs=1,
                         algorithms=[Plugin.of("p", hostile.perceptron_but_never_alone)])
    (line,) = shrink_all(audit, tmp_path)
    assert "shrinking stopped when a smaller run faulted: plug-in p raised ValueError: one " \
           "example on false--short" in line
    assert load_data(str(tmp_path / "false--short.csv")).n >= 2
