"""The smallest failing run (issue 27.5): shrunk on the exact engine, written, reproducible."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from cases.inductions import from_zero_on_batch_runs

from perceptron.dataset import Dataset
from perceptron.errors import DataError
from perceptron.io.header import U_LINE, Header, is_unit, separates
from verify.api import audit_proofs
from verify.audit.counterexamples import fails, shrink, shrink_all
from verify.audit.targets import data_scenarios, load_data, read, scenarios_of

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
    # shrunk: one example in dimension 1 (||x||^2 = 4 > 1 = t after one update). Dropping a
    # coordinate of (+-1, +-1) gives ||x||^2 = 1, which holds; merging the two (x_0 + x_1 or
    # x_0 - x_1, issue 27's review) gives +-2, which fails: dimension before entry size
    assert (data.n, data.d) == (1, 1) < (1, witness.scenario.data.d)
    assert data.X == ((Fraction(-2),),) and data.y == (-1,)
    # the file fails as written (the exact engine, the step's statement checked exactly)
    assert fails(witness.check, data, "online") is not None
    again = audit_proofs(proof, data=[written], budget="small")
    assert again.proofs[0].steps[0].numeric.status == "violated"


FROM_ZERO = "\n" + from_zero_on_batch_runs(
    "an induction from 0, batch runs from three starts", "dot(ts, xb) <= 0")


def test_only_steps_violated_on_runs_are_written_and_their_command_runs(tmp_path: Path
                                                                        ) -> None:
    """Red team 32 F5: the runs from -u and a seeded start are none of `ahead`'s (its base
    fails at their counter 0: left out, no finding), yet `--counterexamples` wrote "P/ahead
    base: smallest failing run found" to `P--ahead base.csv`, its command `--data
    DIR/P--ahead base.csv` two words to a shell. Only `rests`, violated, is written; the
    command quotes a path a shell would split (a folder with a space)."""
    import shlex

    proof = tmp_path / "from zero.toml"
    proof.write_text(FROM_ZERO)
    audit = audit_proofs(proof, budget="small")
    ahead, rests = audit.proofs[0].steps
    assert ahead.unmet_base > 0 and ahead.numeric is not None
    assert ahead.numeric.status == "held" and rests.numeric is not None
    assert rests.numeric.status == "violated"
    assert sorted(audit.witnesses) == ["from zero/rests"]
    out = tmp_path / "counter examples"
    (line,) = shrink_all(audit, out)
    command = shlex.split(line.split("reproduce: ", 1)[1])
    assert command[:5] == ["novikoff", "audit", str(proof), "--data",
                           str(out / "from zero--rests.csv")]
    assert [p.name for p in out.iterdir()] == ["from zero--rests.csv"]


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
    got = read(str(written))
    data, u = got.data, got.header.u
    assert u is not None and len(u) == data.d and separates(u, data)
    # u is the campaign's, projected: its coordinates, in order, a dropped one dropped
    kept = iter(campaign_u)
    assert all(any(c == k for k in kept) for c in u)
    assert head == f"{U_LINE} {', '.join(map(str, u))}"
    # the file run as the printed command runs it: with that u, and the step fails there
    (scenario,) = data_scenarios(str(written), "online")
    assert tuple(scenario.u) == u
    assert fails(witness.check, data, "online", Header(u)) is not None
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
    assert fails(check, one, "online", Header((Fraction(1), Fraction(1)))) is not None
    shrunk = shrink(check, Dataset.of([[1, 0, 2], [2, 1, 0]], [1, 1], "two"), "online",
                    named=Header((Fraction(1), Fraction(1), Fraction(1))))
    assert shrunk is not None
    u = shrunk.named.u
    assert u is not None and separates(u, shrunk.data)
    assert len(u) == shrunk.data.d and set(u) == {Fraction(1)}
    assert fails(check, shrunk.data, "online", Header((Fraction(-1),) * shrunk.data.d)) is None


@pytest.mark.parametrize(("line", "fault"), [
    ("# u = 1, x", "its line `# u = 1, x`"),
    ("# u = 1", "its u has 1 coordinates, its examples 2"),
    ("# u = -1, -1", "the u it names does not separate its examples"),
    ("# theta0 = 1, 2, 3", "its theta0 has 3 coordinates, its examples 2"),
    ("# gamma = 1, 0", "its margins gamma must be > 0"),
    ("# u = 1, 1\n# u = 1, 2", "names u twice"),
    # red team 21 F3: a byte-order mark (Excel's) dropped the header in silence, exit 0
    ("\ufeff# u = -1, -1", "bad.csv:1: the u it names does not separate its examples"),
    # ... and so did a `# u` after a CSV's column-name row, or one not spelled as a key
    ("a,b,label\n# u = -1, -1", "bad.csv:2: a header line after the header"),
    ("# U = -1, -1", "bad.csv:1: its line `# U = -1, -1` looks like a header line"),
    ("# u \uff1d -1, -1", "bad.csv:1: its line `# u \uff1d -1, -1` looks like a header line"),
    # red team 23 F5: a colon, `:=` or a number after the key, `theta_0`, were skipped
    ("# u: -1, -1", "bad.csv:1: its line `# u: -1, -1` looks like a header line"),
    ("# u := -1, -1", "bad.csv:1: its line `# u := -1, -1` looks like a header line"),
    ("# u -1, -1", "bad.csv:1: its line `# u -1, -1` looks like a header line"),
    ("# gamma: 1/4, 1", "bad.csv:1: its line `# gamma: 1/4, 1` looks like a header line"),
    ("# theta_0 = 0, 2", "bad.csv:1: its line `# theta_0 = 0, 2` looks like a header line"),
    ("# w0 = 0, 2", "bad.csv:1: its line `# w0 = 0, 2` looks like a header line"),
    # red team 21 F5: CR-only lines were one header line (`not a number: '-1\r1'`)
    ("# u = -1, -1\r1,2,1\r", "bad.csv:1: the u it names does not separate its examples"),
])
def test_a_bad_header_line_is_one_line(tmp_path: Path, line: str, fault: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(f"{line}\n1,2,1\n2,1,1\n", encoding="utf-8", newline="")
    with pytest.raises(DataError) as raised:
        data_scenarios(str(path), "online")
    assert fault in str(raised.value) and "\n" not in str(raised.value)


def test_other_comments_are_no_header(tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("# from the lecture notes, u = (1, 1)\n# gammas: 1\n# u is a unit "
                    "vector\n# gamma is its margin\n# u2 is another\n1,2,1\n2,1,1\n")
    assert read(str(path)).header == Header()


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
    got = read(str(written))
    data, u = got.data, got.header.u
    assert (data.n, data.d) == (1, 1) and u is not None and separates(u, data)
    # the trial's one.csv is -2,1; coordinates merged (issue 27's review) reach 2,1 first,
    # the same size: the file the reviewer wrote by hand
    assert data.X == ((Fraction(2),),) and data.y == (1,)
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
    written = folder / "perceptron-wrong2--one-update-growth.csv"
    # the command is said on stderr; the file holds the run (its header and rows) only
    assert f"reproduce: novikoff audit {LECTURE / 'perceptron-wrong2.toml'}" in err
    assert "novikoff" not in written.read_text()
    (tmp_path / "file").write_text("")
    assert main(["audit", str(LECTURE / "perceptron-wrong2.toml"), "--budget", "small",
                 "--counterexamples", str(tmp_path / "file")]) == 2
    assert "--counterexamples" in capsys.readouterr().err


def test_the_help_says_where_the_reproducing_command_goes(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs33 D6: `audit --help` said `--counterexamples` writes to DIR "a CSV data file ...
    and the command that reproduces it", but only the data file is written there: the
    command is said on standard error (`test_the_cli_makes_the_counterexamples_folder`)."""
    from verify.cli import main

    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "to DIR as a CSV data file" in said
    assert "and say on standard error the command that reproduces it" in said


def test_a_counterexample_never_overwrites_a_file_the_audit_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team 9: the proof's own `[numeric] data` file was named as the violated step's
    counterexample (`PROOF--STEP.csv`, as a former `--counterexamples` run wrote it) and
    replaced by the shrunk run without a word. It is refused as a report file is: one line,
    exit 2, after the summary and before anything is written. A symbolic link in the
    folder is replaced, not written through."""
    from verify.cli import main

    monkeypatch.chdir(tmp_path)
    data = "# u = 1, 1\nx1,x2,y\n2,1,1\n1,3,1\n-1,-2,-1\n-3,0,-1\n"
    Path("cex").mkdir()
    Path("cex/false--short.csv").write_text(data, encoding="utf-8")
    Path("false.toml").write_text(FALSE.replace(
        'run = "online"', 'run = "online"\ndata = ["cex/false--short.csv"]'))
    Path("report.md").write_text("mine", encoding="utf-8")
    command = ["audit", "false.toml", "--budget", "small", "--jobs", "1"]
    code = main([*command, "--counterexamples", "cex", "--markdown", "out.md"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.endswith("novikoff: error: --counterexamples cex/false--short.csv: that is a "
                        "data file that false.toml names (cex/false--short.csv); a "
                        "counterexample file never overwrites a file the audit reads; no "
                        "report or counterexample file was written\n"), err
    assert Path("cex/false--short.csv").read_text(encoding="utf-8") == data
    assert not Path("out.md").exists()
    Path("false.toml").write_text(FALSE)  # the file given with --data: refused alike
    assert main([*command, "--data", "./cex/false--short.csv", "--counterexamples", "cex"]) == 2
    assert "that is a data file given (cex/false--short.csv)" in capsys.readouterr().err
    assert Path("cex/false--short.csv").read_text(encoding="utf-8") == data
    Path("out").mkdir()
    Path("out/false--short.csv").symlink_to(tmp_path / "report.md")
    assert main([*command, "--counterexamples", "out"]) == 1, capsys.readouterr().err
    assert Path("report.md").read_text(encoding="utf-8") == "mine"
    written = Path("out/false--short.csv")
    assert not written.is_symlink() and load_data(str(written)).n >= 1


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


REVIEW = Path(__file__).resolve().parents[2] / "cases" / "review27"


@pytest.mark.slow  # one of the suite's longest end-to-end checks: run by `-m slow`
def test_the_shrinker_merges_coordinates_where_dropping_one_fails(tmp_path: Path) -> None:
    """Issue 27's review: `tau >= 1` under the normalised perceptron (tau = 1/norm2(x))
    was written in dimension 2 (`-1,1,-1`), though the 1-D `2,1` fails too: neither
    coordinate of (-1, 1) alone is long enough, their difference is."""
    proof = REVIEW / "normalised.toml"
    plugin = f"norm-p={REVIEW / 'normalised.py'}:normalised"
    audit = audit_proofs(proof, budget="small", algorithms=[plugin])
    (line,) = shrink_all(audit, tmp_path)
    written = tmp_path / "normalised--tau-at-least-one.csv"
    got = read(str(written))
    data, u = got.data, got.header.u
    assert (data.n, data.d) == (1, 1) and u is not None and separates(u, data)
    assert abs(data.X[0][0]) == 2 and "dimension 1" in line
    again = audit_proofs(proof, data=[written], budget="small", algorithms=[plugin])
    assert again.proofs[0].steps[0].numeric.status == "violated"


def test_a_violated_single_pass_step_is_written_with_its_u_and_margin(tmp_path: Path
                                                                     ) -> None:
    """Issue 27's review: single-pass steps violated with --counterexamples left the folder
    empty (then: a line saying no file is written). The campaign's rows named their margin
    in their origin (`[gamma = 1/4]`), so the witness of their scenario was never found;
    now every origin of a run's rows finds it, and the pass's unit u and margin are named
    in the file (`# u =`, `# gamma =`), so the file is read as the campaign read it."""
    proof = REVIEW / "single-pass.toml"
    audit = audit_proofs(proof, budget="small")
    assert [s.numeric.status for s in audit.proofs[0].steps] == ["violated", "violated"]
    assert set(audit.witnesses) == {"single-pass/no-deviation", "single-pass/few-updates"}
    lines = shrink_all(audit, tmp_path)
    assert len(lines) == 2 and all("smallest failing run found (1 example, dimension 1"
                                   in line for line in lines)
    for step in ("no-deviation", "few-updates"):
        written = tmp_path / f"single-pass--{step}.csv"
        got = read(str(written))
        assert got.header.u is not None and is_unit(got.header.u)
        assert len(got.header.margins) == 1 and got.header.margins[0] > 0
        assert [line for line in written.read_text().splitlines() if line.startswith("#")] \
            == [f"{U_LINE} {got.header.u[0]}", f"# gamma = {got.header.margins[0]}"]
        (scenario,) = data_scenarios(str(written), "single-pass")
        assert (scenario.u, scenario.margins) == (got.header.u, got.header.margins)
        check = audit.witnesses[f"single-pass/{step}"].check
        assert fails(check, got.data, "single-pass", got.header) is not None
    again = audit_proofs(proof, data=[tmp_path / "single-pass--few-updates.csv"],
                         budget="small")
    assert again.proofs[0].steps[1].numeric.status == "violated"


# Batch runs start from three starts; the file names the one that failed (`# theta0 =`).

FALSE_BATCH = """
title = "A false batch step"
vectors = ["theta", "theta_star", "xbar"]
scalars = ["alpha", "mk"]
[numeric]
run = "batch"
[[step]]
id = "alpha-le-one"
given = ["mk >= 1"]
claim = "alpha <= 1"
note = "false: alpha = <theta*, xbar>/||xbar||^2 exceeds 1 for a long theta*"
"""


def test_a_batch_violation_is_written_with_the_start_it_failed_from(tmp_path: Path) -> None:
    """Issue 27.5 for batch runs: the campaign's violation came from the seeded start of
    its scenario, which a data file (run from 0, -u and the start seeded 0) does not make,
    so the shrinker said "fails in the campaign but not when its data are run as a data
    file". The witness now pins the failing run's start and the file names it."""
    proof = tmp_path / "false-batch.toml"
    proof.write_text(FALSE_BATCH)
    audit = audit_proofs(proof, budget="small")
    witness = audit.witnesses["false-batch/alpha-le-one"]
    start, u = witness.scenario.start, tuple(witness.scenario.u)
    assert start is not None and any(start) and start != tuple(-c for c in u)  # seeded
    data = witness.scenario.data
    # the bug: the same data and u, from the data file's own starts, do not fail
    assert fails(witness.check, data, "batch", Header(u)) is None
    assert fails(witness.check, data, "batch", Header(u, start)) is not None
    (line,) = shrink_all(audit, tmp_path)
    written = tmp_path / "false-batch--alpha-le-one.csv"
    assert "smallest failing run found (1 example, dimension 1" in line
    got = read(str(written))
    assert got.header.theta0 is not None and len(got.header.theta0) == got.data.d
    (scenario,) = data_scenarios(str(written), "batch")
    assert scenario.start == got.header.theta0
    again = audit_proofs(proof, data=[written], budget="small")
    assert again.proofs[0].steps[0].numeric.status == "violated"


def test_a_named_start_is_the_batch_run_s_only_start() -> None:
    from verify.runs.batch import batch_starts

    data = Dataset.of([[1, 2], [2, 1]], [1, 1], "d")
    u, start = (Fraction(1), Fraction(1)), (Fraction(-3), Fraction(5))
    (scenario,) = scenarios_of(data, Header(u, start), None, "batch", "d.csv")
    assert batch_starts(scenario) == (start,)
    (plain,) = scenarios_of(data, Header(u), None, "batch", "d.csv")
    assert len(batch_starts(plain)) == 3 and start not in batch_starts(plain)


@pytest.mark.parametrize(("named", "run", "fault"), [
    (Header(theta0=(Fraction(1), Fraction(0))), "online",
     "names a start theta0, which online runs do not take (batch runs do)"),
    (Header(margins=(Fraction(1),)), "batch",
     "names margins gamma, which batch runs do not read (single passes do)"),
    (Header((Fraction(1), Fraction(1))), "single-pass",
     "the u it names is not of norm 1, as a single pass needs"),
    (Header((Fraction(-1), Fraction(0))), "online",
     "the u it names does not separate its examples"),
])
def test_a_header_the_run_cannot_honour_is_refused(named: Header, run: str, fault: str
                                                   ) -> None:
    """A value silently ignored would make the file's run another one than it says."""
    data = Dataset.of([[1, 2], [2, 1]], [1, 1], "d")
    with pytest.raises(DataError) as raised:
        scenarios_of(data, named, None, run, "d.csv")
    assert fault in str(raised.value)


@pytest.mark.parametrize("how", ["named", "given"])
def test_shrink_all_from_python_never_replaces_a_data_file_the_audit_read(
        tmp_path: Path, how: str) -> None:
    """Closing note 10: the command line refused a counterexample file over a file the audit
    read, but `shrink_all` called from Python had no such check: a proof naming the
    `PROOF--STEP.csv` an earlier run wrote (or that file given as data) had it replaced by
    the shrunk run. It makes the command line's one check (`refused`) and raises
    Overwrite, writing nothing."""
    from verify.audit.counterexamples import Overwrite

    proof = tmp_path / "false.toml"
    proof.write_text(FALSE)
    shrink_all(audit_proofs(proof, budget="small"), tmp_path)
    earlier = tmp_path / "false--short.csv"  # the counterexample the earlier run wrote
    before = earlier.read_bytes()
    if how == "named":
        proof.write_text(FALSE.replace('run = "online"', f'run = "online"\ndata = ["{earlier}"]'))
    audit = audit_proofs(proof, budget="small", data=[str(earlier)] if how == "given" else [])
    assert "false/short" in audit.witnesses
    with pytest.raises(Overwrite, match="a counterexample file never overwrites a file the "
                                        "audit reads"):
        shrink_all(audit, tmp_path)
    assert earlier.read_bytes() == before


MARGIN_NORM = """
title = "the margin perceptron's norm growth without its factor 2"
vectors = ["w", "x"]
scalars = ["y", "t", "R2", "beta"]
naturals = ["t"]
[numeric]
run = "online"
algorithm = "margin-perceptron"
[[step]]
id = "norm-growth"
claim = "norm2(w) <= t*(beta + R2)"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R2", "beta >= 0"]
constants = ["R2", "beta"]
"""


def test_a_run_the_same_at_every_scale_is_shrunk_to_small_integers(tmp_path: Path) -> None:
    """Newcomer 34 N6: the margin perceptron's runs are the same run at every scale (w_0 = 0,
    the campaign's betas a multiple of R2), so no entry alone could shrink while the others
    kept the step failing: the lecturer's smallest failing run was (-925060, 804062, -437459).
    The entries are now also moved all at once (divided by their gcd, scaled and rounded to
    small magnitudes first), and the run shrinks to entries of at most 2, still failing."""
    proof = tmp_path / "margin.toml"
    proof.write_text(MARGIN_NORM)
    audit = audit_proofs(proof, budget="small")
    witness = audit.witnesses["margin/norm-growth"]
    assert max(abs(v) for x in witness.scenario.data.X for v in x) > 1000  # found large
    lines = shrink_all(audit, tmp_path)
    assert len(lines) == 1
    got = read(str(tmp_path / "margin--norm-growth.csv"))
    data = got.data
    assert max(abs(v) for x in data.X for v in x) <= 2, data.X
    assert all(v.denominator == 1 for x in data.X for v in x) and data.d == 1
    assert fails(witness.check, data, "online", got.header) is not None  # as the file reads


def test_data_with_no_entries_have_no_smaller_candidate() -> None:
    """Review 35 F4: the all-entries-at-once move of the shrinker took the largest entry of
    integer data with `max`, a ValueError on data of dimension 0 (which `Dataset` allows);
    such data have nothing to make smaller."""
    from verify.audit.counterexamples import _smaller

    assert list(_smaller(Dataset.of([[], []], [1, -1]))) == []
