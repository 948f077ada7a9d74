"""What a command-line user expects of `novikoff` (issue 17): --version, usage on a bare call,
`list`, built-in ids and files wherever a proof is named, `-` for stdin, a quiet closed pipe,
`bound --example`, one meaning for `--label-column`, and messages that name the convention.

In process (`verify.cli.main`), like test_cli_run.py; one subprocess test checks the closed
pipe as a shell produces it.
"""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from perceptron.examples import EXAMPLES
from proofs.library import PROOFS
from verify.cli import COMMANDS, main, needed, version

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE_PROOF = ROOT / "examples" / "norm-growth.toml"


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (--version, --help, bad arguments)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, out: str, err: str) -> bool:
    return code == 2 and out == "" and err.count("\n") == 1 and err.startswith("novikoff: error:")


def fields(out: str) -> dict[str, str]:
    """The rows of a key-value summary: the key, two or more spaces, the value."""
    return dict(re.split(r" {2,}", line, maxsplit=1) for line in out.splitlines())


def stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


# -- --version, bare call, list ----------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "--version")
    assert code == 0 and out == f"novikoff {version()}\n" and err == ""
    assert re.fullmatch(r"\d+\.\d+\.\d+.*|unknown .*", version())


def test_bare_call_prints_usage_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys)
    assert code == 2 and out == ""
    assert err.startswith("usage: novikoff")
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s", err, re.MULTILINE), name


def test_list_names_every_proof_and_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "list")
    assert code == 0 and err == "" and "\x1b" not in out
    first_cells = {line.split()[0] for line in out.splitlines() if line.strip()}
    assert set(PROOFS) <= first_cells and set(EXAMPLES) <= first_cells
    assert all(line == line.rstrip() for line in out.splitlines())  # no padding left behind
    code, out, _ = cli(capsys, "list", "--json")
    listed = json.loads(out)
    assert [p["id"] for p in listed["proofs"]] == list(PROOFS)
    assert [e["name"] for e in listed["examples"]] == list(EXAMPLES)
    by_name = {e["name"]: e for e in listed["examples"]}
    assert by_name["xor"]["bias"] is True and by_name["10-607"]["bias"] is False
    assert (by_name["10-607"]["n"], by_name["10-607"]["d"]) == (6, 2)
    kinds = {p["id"]: p["kind"] for p in listed["proofs"]}
    assert kinds["canonical-online"] == "canonical" and kinds["ng-cs229"] == "source"
    assert kinds["nonseparable-freund-schapire"] == "result"
    assert all(p["steps"] > 0 for p in listed["proofs"])


def test_list_states_each_examples_size_as_built() -> None:
    """`list` shows the sizes the examples state (building them costs NumPy)."""
    for example in EXAMPLES.values():
        data = example.build()
        assert example.size == (data.n, data.d), example.name


@pytest.mark.parametrize("argv", [["--version"], ["list"], ["list", "--json"]])
def test_version_and_list_import_no_numerics(argv: list[str]) -> None:
    """Start-up (issue 30): `--version` and `list` import only what they need: no NumPy,
    SymPy or SciPy (which cost most of a second), whatever the load (no timed assert)."""
    import subprocess
    import sys

    probe = ("import atexit, sys; atexit.register(lambda: print('HEAVY', sorted("
             "{'numpy', 'sympy', 'scipy'} & sys.modules.keys()), file=sys.stderr)); "
             "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stderr, done.stderr


def test_a_command_leaves_its_objects_to_the_system_at_exit() -> None:
    """Exit (issue 30): the heap is frozen (`gc.freeze`, registered with `verify.cli`) before
    the interpreter's last collection, which scanned all of it (0.4 CPU-seconds after the
    default audit); a handler registered before runs after it, and sees it frozen."""
    probe = ("import atexit, gc, sys; atexit.register(lambda: print('FROZEN', "
             "gc.get_freeze_count() > 0, file=sys.stderr)); "
             "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", probe, "list"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "FROZEN True" in done.stderr, done.stderr


def test_a_check_that_solves_no_lp_imports_no_scipy(tmp_path: Path) -> None:
    """Start-up (issue 30): SciPy (0.6 s of imports) is loaded when an LP or an SDP is
    solved, not with the search: a step refuted by the screen, or proved by the exact
    equality solve, needs neither (no timed assert)."""
    path = tmp_path / "screen.toml"
    path.write_text('title = "t"\nvectors = ["a", "b"]\nscalars = ["x"]\n'
                    '[[step]]\nid = "refuted"\ngiven = ["x >= 0"]\nclaim = "x >= 1"\n'
                    '[[step]]\nid = "parallelogram"\nclaim = "norm2(a + b) + norm2(a - b)'
                    ' == 2*norm2(a) + 2*norm2(b)"\n')
    probe = ("import atexit, sys; atexit.register(lambda: print('LOADED', sorted("
             "{'scipy'} & sys.modules.keys()), file=sys.stderr)); "
             "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", probe, "check", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "refuted  refuted" in done.stdout, done.stdout
    assert "proved   parallelogram" in done.stdout, done.stdout
    assert "LOADED []" in done.stderr, done.stderr


@pytest.mark.parametrize("search", [[], ["--search"]])
def test_a_searched_step_without_an_lp_imports_no_numpy(tmp_path: Path,
                                                       search: list[str]) -> None:
    """Start-up (issue 30, target 5): `check` of a one-step file the certificate store does not
    hold (and with `--search`, which never consults it) loads no NumPy, SciPy or Clarabel
    when the step needs no LP and no SDP: the dimension-1 screen of up to four names runs in
    plain Python (`counterexamples.PYTHON_POINTS`), the exact sum of squares and the
    screen's counterexample need no arrays; the refuted step's point is printed without the
    audit (`verify.typeset.points`, once in the audit's report, which loads NumPy and the
    runs). By the modules loaded, not by a time."""
    path = tmp_path / "one.toml"
    path.write_text('title = "one step"\nscalars = ["a", "b"]\nvectors = ["u", "v"]\n'
                    '[[step]]\nid = "amgm"\nclaim = "a**2 + b**2 >= 2*a*b"\n'
                    '[[step]]\nid = "false"\ngiven = ["dot(u, v) >= a"]\n'
                    'claim = "dot(u, v) >= a + b"\n')  # four names: 625 points
    probe = ("import atexit, sys; atexit.register(lambda: print('LOADED', sorted("
             "{'numpy', 'scipy', 'clarabel', 'verify.audit'} & sys.modules.keys()), "
             "file=sys.stderr)); "
             "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", probe, "check", *search, str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "proved   amgm" in done.stdout and "exact sum of squares" in done.stdout, done.stdout
    assert "refuted  false" in done.stdout, done.stdout
    assert "LOADED []" in done.stderr, done.stderr


def test_list_reads_each_proof_as_the_loader_does() -> None:
    """`list` reads the built-in TOML directly (no SymPy); the loader must agree with it."""
    from proofs.library import load_builtin, summary

    for proof_id in PROOFS:
        proof = load_builtin(proof_id)
        assert summary(proof_id) == (proof.title, len(proof.steps), proof.source), proof_id


@pytest.mark.parametrize(("argv", "registered"), [
    (["--version"], ()), (["--version", "check"], ()), (["check", "f.toml", "--json"], ("check",)),
    (["list"], ("list",)), (["audit", "--only", "x"], ("audit",)), ([], COMMANDS),
    (["--help"], COMMANDS), (["-h", "check"], COMMANDS), (["--vers"], COMMANDS),
    (["chek", "f.toml"], COMMANDS), (["-"], COMMANDS),
])
def test_a_command_line_registers_only_the_subcommand_it_names(
        argv: list[str], registered: tuple[str, ...]) -> None:
    """Start-up (issue 30): the parser gets the named command only, none for `--version`;
    anything else before the command (help, an abbreviation, a misspelling) gets them all."""
    assert needed(argv) == registered


def test_help_and_errors_still_name_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    """Registering one subcommand must not shorten the help or the list in an error."""
    code, out, _ = cli(capsys, "-h", "check")
    assert code == 0
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s", out, re.MULTILINE), name
    code, out, err = cli(capsys, "chek", str(EXAMPLE_PROOF))
    assert one_line_error(code, out, err), err
    assert all(repr(name) in err for name in COMMANDS), err


def test_main_runs_list_twice_in_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: `main` once copied its argv with the builtin `list`, which the submodule
    `verify.cli.list` shadows in the package's namespace once imported: the second call in a
    process failed with "'module' object is not callable"."""
    for _ in range(2):
        code, out, err = cli(capsys, "list")
        assert code == 0 and "canonical-online" in out, err


#: Modules no command of the start-up target needs off a terminal: the other commands'
#: modules, the audit and campaigns, the renderers and plots, the compiled engine.
NEVER_AT_START = ("verify.audit", "verify.numeric.campaign", "verify.render.evidence", "jinja2",
                  "matplotlib", "numba", "dask", "sklearn")


@pytest.mark.parametrize(("argv", "commands", "absent"), [
    (["--version"], set(), {"rich", "tomllib", "numpy", "sympy", "scipy"}),
    (["list"], {"list"}, {"numpy", "sympy", "scipy"}),
    (["check", "canonical-online"], {"check"}, {"rich", "numpy", "scipy"}),
    (["check", str(EXAMPLE_PROOF)], {"check"}, {"rich"}),
])
def test_each_command_imports_only_what_it_needs(argv: list[str], commands: set[str],
                                                 absent: set[str]) -> None:
    """Start-up (issue 30), checked by the modules loaded, not by a time: of the subcommand
    modules only the named one (none for `--version`); never the audit's, a renderer's or the
    engine's; and per command the heavy libraries it does without (a check answered from
    the certificate store needs no NumPy; off a terminal no command draws with rich)."""
    probe = ("import atexit, sys; atexit.register(lambda: print('LOADED', sorted("
             "sys.modules), file=sys.stderr)); "
             "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    loaded = set(ast.literal_eval(done.stderr.rsplit("LOADED ", 1)[1]))
    assert {m.removeprefix("verify.cli.") for m in loaded
            if m.removeprefix("verify.cli.") in COMMANDS} == commands
    top = {m.split(".")[0] for m in loaded}
    assert not top & absent, top & absent
    assert not [m for m in loaded if m.startswith(NEVER_AT_START)], loaded


# -- a proof named by id, file or stdin --------------------------------------------------------


def test_check_takes_a_builtin_id(capsys: pytest.CaptureFixture[str]) -> None:
    from proofs.library import load_builtin

    code, out, _ = cli(capsys, "check", "canonical-online-kernel", "--json")
    report = json.loads(out)
    proof = load_builtin("canonical-online-kernel")
    assert report["title"] == proof.title
    assert [s["id"] for s in report["steps"]] == [s.id for s in proof.steps]
    assert code == (0 if report["status"] == "proved" else 1)


def test_check_reads_stdin(capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    stdin(monkeypatch, EXAMPLE_PROOF.read_bytes())
    code, out, _ = cli(capsys, "check", "-", "--json")
    report = json.loads(out)
    assert code == 0 and report["title"] == "Perceptron norm growth"
    assert [s["status"] for s in report["steps"]] == ["proved"]
    stdin(monkeypatch, b'title = "x"\n[[step]]\nid = "a"\nclaim = "y ** 2 >= "\n')
    code, out, err = cli(capsys, "check", "-")
    assert one_line_error(code, out, err) and "<stdin>" in err


def test_a_file_wins_over_a_builtin_id(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "canonical-online").write_bytes(EXAMPLE_PROOF.read_bytes())
    code, out, _ = cli(capsys, "check", "canonical-online", "--json")
    assert code == 0 and json.loads(out)["title"] == "Perceptron norm growth"


@pytest.mark.parametrize("form", ["slash", "two-arguments", "stdin"])
def test_explain_takes_a_user_file(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, form: str) -> None:
    argv = {"slash": [f"{EXAMPLE_PROOF}/norm-growth"],
            "two-arguments": [str(EXAMPLE_PROOF), "norm-growth"],
            "stdin": ["-", "norm-growth"]}[form]
    if form == "stdin":
        stdin(monkeypatch, EXAMPLE_PROOF.read_bytes())
    code, out, err = cli(capsys, "explain", *argv)
    assert code == 0 and err == ""
    assert "norm-growth" in out and "proved" in out
    assert "2 * [h1: -y*⟨w,x⟩ >= 0]" in out  # the certificate, written out


def test_explain_user_file_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    code, out, err = cli(capsys, "explain", f"{EXAMPLE_PROOF}/norm-grwoth")
    assert one_line_error(code, out, err)
    assert "no step 'norm-grwoth'" in err and "norm-growth" in err  # the close match
    code, out, err = cli(capsys, "explain", f"{tmp_path}/missing.toml/step")
    assert one_line_error(code, out, err) and "missing.toml" in err


def test_explain_a_file_without_a_step_says_so_and_lists_its_steps(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Newcomer 19, section 5.2: `novikoff explain FILE` read the file's name as a built-in
    step id (`no built-in step 'lecture4b.toml'`)."""
    code, out, err = cli(capsys, "explain", str(EXAMPLE_PROOF))
    assert one_line_error(code, out, err)
    assert "built-in" not in err
    assert (f"no step given: {EXAMPLE_PROOF} is a proof file; explain one of its steps with "
            f"`novikoff explain {EXAMPLE_PROOF} STEP`") in err
    assert err.rstrip().endswith("its steps: norm-growth")
    stdin(monkeypatch, EXAMPLE_PROOF.read_bytes())
    code, out, err = cli(capsys, "explain", "-")
    assert one_line_error(code, out, err) and "`novikoff explain - STEP`" in err


def test_explain_builtin_forms_still_work(capsys: pytest.CaptureFixture[str]) -> None:
    from proofs.library import PROOFS
    from verify.render.text import builtin_steps

    located = builtin_steps([next(iter(PROOFS))])[0]  # the library's first step
    code, out, _ = cli(capsys, "explain", located.proof_id, located.step.id)
    code2, out2, _ = cli(capsys, "explain", located.full_id)
    assert (code, out) == (code2, out2) and located.step.id in out
    code, out, err = cli(capsys, "explain", "no-such-proof/step")
    assert one_line_error(code, out, err) and "no built-in proof" in err


# -- data: stdin, --label-column, --example ----------------------------------------------------

LABEL_FIRST = "y,a,b\n1,2,3\n-1,-2,-3\n1,0,1\n-1,1,-2\n"
LABEL_LAST = "a,b,y\n2,3,1\n-2,-3,-1\n0,1,1\n1,-2,-1\n"


@pytest.mark.parametrize("command", ["bound", "run"])
def test_label_column_zero_is_the_first_column(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path, command: str) -> None:
    """Regression: `bound --label-column 0` looked for a header named "0"."""
    first, last = tmp_path / "first.csv", tmp_path / "last.csv"
    first.write_text(LABEL_FIRST)
    last.write_text(LABEL_LAST)
    for argv in (["--label-column", "0"], ["--label-column", "-3"], ["--label-column", "y"]):
        code, out, err = cli(capsys, command, str(first), *argv, "--json")
        assert code == 0 and err == "", (argv, err)
        code_last, out_last, _ = cli(capsys, command, str(last), "--json")
        mine, theirs = json.loads(out), json.loads(out_last)
        mine.pop("data", None)
        theirs.pop("data", None)
        assert mine == theirs and code == code_last
    headless = tmp_path / "headless.csv"
    headless.write_text("1,2,3\n-1,-2,-3\n")
    code, out, _ = cli(capsys, command, str(headless), "--label-column", "0", "--json")
    assert code == 0


@pytest.mark.parametrize("command", ["bound", "run"])
def test_a_label_column_index_is_written_in_ascii_digits(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    """Red team 19 F8: `--label-column ٠` (an Arabic-Indic zero) ran as column 0 and `1_0` as
    column 10 (Python's `int`), where every other integer option refuses them. Digits of
    another script are refused in one line, exit 2; `1_0` is a header name, and this file
    has none of that name."""
    first = tmp_path / "first.csv"
    first.write_text(LABEL_FIRST)
    code, _, err = cli(capsys, command, str(first), "--label-column", "\u0660")
    assert code == 2 and "is not a column index (ASCII digits 0-9 only)" in err
    code, _, err = cli(capsys, command, str(first), "--label-column", "1_0")
    assert code == 2 and "no column named '1_0'" in err and len(err.strip().splitlines()) == 1


def test_a_misspelt_label_column_and_a_decimal_comma_say_the_fix(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Newcomer 24: `--label-column lable` said only `no column named 'lable'`, and `2,5` in a
    `;`-separated file only `not a number`; the line now names the closest column (or the
    header's columns) and the decimal point."""
    named = tmp_path / "exam.csv"
    named.write_text("hours,sleep,label\n1,2,1\n-1,-2,-1\n")
    code, _, err = cli(capsys, "run", str(named), "--label-column", "lable")
    assert code == 2 and "no column named 'lable' (did you mean 'label'?)" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = cli(capsys, "run", str(named), "--label-column", "grade")
    assert code == 2 and "no column named 'grade' (its header names 'hours', 'sleep', " \
        "'label')" in err
    euro = tmp_path / "euro.txt"
    euro.write_text("hours;label\n2,5;1\n-1,5;-1\n")
    code, _, err = cli(capsys, "run", str(euro))
    assert code == 2 and "not a number: '2,5' (a decimal is written with a point: 2.5, " \
        "not 2,5)" in err
    euro.write_text("hours;label\n2.5;1\nx,y;-1\n")  # no decimal either way: no advice
    code, _, err = cli(capsys, "run", str(euro))
    assert code == 2 and "not a number: 'x,y'" in err and "decimal" not in err


@pytest.mark.parametrize("command", ["bound", "run"])
def test_data_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                         tmp_path: Path, command: str) -> None:
    path = tmp_path / "d.csv"
    path.write_text(LABEL_LAST)
    _, from_file, _ = cli(capsys, command, str(path), "--json")
    stdin(monkeypatch, LABEL_LAST.encode())
    code, from_stdin, err = cli(capsys, command, "-", "--json")
    assert code == 0 and err == ""
    mine, theirs = json.loads(from_stdin), json.loads(from_file)
    assert mine.pop("data", "<stdin>") == "<stdin>"
    theirs.pop("data", None)
    assert mine == theirs
    stdin(monkeypatch, b"")
    code, out, err = cli(capsys, command, "-")
    assert one_line_error(code, out, err) and "<stdin>" in err and "empty" in err


def test_bound_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "bound", "--example", "10-607", "--json")
    report = json.loads(out)
    assert code == 0 and (report["R2"], report["gamma2"], report["bound"]) == ("5", "1", "5")
    assert report["mistakes"] == 3 and report["bias"] is False
    code, out, _ = cli(capsys, "bound", "--example", "xor")
    shown = fields(out)
    assert code == 1 and shown["separable"] == "no (not even with a bias)"
    assert shown["bias"].startswith("by augmentation")  # the example brings its bias
    code, out, err = cli(capsys, "bound")
    assert one_line_error(code, out, err) and "--example" in err
    code, out, err = cli(capsys, "bound", "x.csv", "--example", "xor")
    assert one_line_error(code, out, err)


def test_xor_plot_names_the_bias(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Regression: the plot of XOR (run with its bias) said "not separable through the
    origin"; the message names the separators that were looked for."""
    code, out, err = cli(capsys, "run", "--example", "xor", "--plot", str(tmp_path / "x.png"))
    assert one_line_error(code, out, err)
    assert "not separable even with a bias" in err and "origin" not in err
    data = tmp_path / "xor.csv"
    data.write_text("0,0,-1\n1,1,-1\n0,1,1\n1,0,1\n")
    code, out, err = cli(capsys, "run", str(data), "--plot", str(tmp_path / "y.png"))
    assert one_line_error(code, out, err)
    # red team 35: XOR run without its bias was told 'try --bias', which no bias separates
    assert "not separable through the origin, nor with a bias" in err and "try" not in err
    helped = tmp_path / "zero.csv"  # the zero vector labelled +1: a bias separates
    helped.write_text("0,0,1\n1,1,-1\n")
    code, out, err = cli(capsys, "run", str(helped), "--plot", str(tmp_path / "z.png"))
    assert one_line_error(code, out, err)
    assert "not separable through the origin (try --bias)" in err
    code, out, err = cli(capsys, "run", str(helped), "--bias", "--plot", str(tmp_path / "z.png"))
    assert code == 0 and (tmp_path / "z.png").exists()


# -- a closed pipe -----------------------------------------------------------------------------


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("argv", [["list"], ["list", "--json"], ["run", "--example", "xor"],
                                  ["bound", "--example", "10-607"]])
def test_closed_pipe_is_quiet(capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 0 and err == ""


def test_closed_pipe_in_a_shell() -> None:
    """`novikoff list --json | true`: the reader is gone before the first write (the child
    is still importing); no message, exit 0."""
    child = subprocess.Popen([sys.executable, "-m", "verify", "list", "--json"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    err = child.stderr.read()
    assert child.wait(timeout=120) == 0
    assert err == b""


# -- terminal output ---------------------------------------------------------------------------


def test_check_progress_only_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = cli(capsys, "check", str(EXAMPLE_PROOF))
    assert code == 0 and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out_tty, err = cli(capsys, "check", str(EXAMPLE_PROOF))
    assert code == 0 and "check" in err and err.endswith("\x1b[2K")
    assert re.sub(r"\d+\.\d+s", "", out_tty) == re.sub(r"\d+\.\d+s", "", out)


def test_piped_tables_never_wrap_an_exact_number() -> None:
    from verify.cli.terminal import print_fields, print_table

    long = "1" * 500 + "/" + "3" * 400
    out = io.StringIO()
    print_fields([("w", f"({long}, 1)"), ("mistakes", "3")], out)
    print_table("t", ["a", "b"], [["x", long]], out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"w         ({long}, 1)" and lines[1] == "mistakes  3"
    assert lines[-1] == f"x  {long}" and "\x1b" not in out.getvalue()


def test_an_audit_without_report_files_imports_no_renderer() -> None:
    """Issue 30, target 1: `audit --json` (and the text summary) writes no report file, so
    it does not load the renderers (Jinja2 and the evidence module, about 25 ms the user
    waited for after the last shard). By the modules loaded, not by a time."""
    probe = ("import atexit, sys; atexit.register(lambda: print('LOADED', sorted("
             "{'jinja2', 'verify.render.evidence'} & sys.modules.keys()), file=sys.stderr)); "
             "from verify.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", probe, "audit", "--json", "--jobs", "1",
                           "--budget", "small", "--only", "finite-sums"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert '"finite-sums"' in done.stdout, done.stdout[:500]
    assert "LOADED []" in done.stderr, done.stderr


def test_the_help_says_the_default_jobs_truly_on_any_machine() -> None:
    """docstruth: `--jobs`'s help said "default: the 8 cores here" on any machine of more
    than 8 cores, the default being capped at 8; it now says the cap where it applies."""
    from verify.cli.audit import default_jobs_said

    assert default_jobs_said(2) == "2, the cores here"
    assert default_jobs_said(8) == "8, the cores here"
    assert default_jobs_said(32) == "8: the cores here (32), at most 8"


def _options(command: str) -> set[str]:
    """The long options `novikoff COMMAND` takes, but `--help`, read off its parser."""
    from verify.cli import build_parser

    parser = build_parser((command,))
    sub = next(a for a in parser._actions if a.dest == "command")
    return {o for a in sub.choices[command]._actions  # type: ignore[attr-defined]
            for o in a.option_strings if o.startswith("--") and o != "--help"}


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "audit"])
def test_the_readme_table_names_every_option_of_a_command(command: str) -> None:
    """docstruth: the README's command table is a command's usage; an option added or renamed
    in the code and not there (or the reverse) would make that line untrue."""
    row = next(line for line in (ROOT / "README.md").read_text().splitlines()
               if line.startswith(f"| `novikoff {command}"))
    usage = row.split(" | ")[0]
    assert set(re.findall(r"--[a-z][a-z-]*", usage)) == _options(command)


def test_the_commands_page_names_every_option_of_the_audit() -> None:
    """docstruth: docs/commands.md opens with the audit's whole usage; it stays the parser's."""
    usage = next(line for line in (ROOT / "docs" / "commands.md").read_text().splitlines()
                 if line.startswith("novikoff audit ["))
    assert set(re.findall(r"--[a-z][a-z-]*", usage)) == _options("audit")


def test_the_audit_help_names_an_unknown_run_kind_among_its_exit_2_causes(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docstruth: `--run-kind NAME` of no installed kind ends the audit with exit 2 (as the
    README and docs/commands.md say), but `audit --help` listed only a proof, data file or
    plug-in."""
    code, out, _ = cli(capsys, "audit", "--help")
    assert code == 0
    assert "plug-in or run kind (--run-kind) cannot be used" in " ".join(out.split())


def test_the_budget_help_says_the_clock_decides_where_a_time_limit_cuts(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Red team 32: `--budget` said findings "never depend on this or on the clock", beside
    `--time-limit`, which turns a step it cuts short into unknown (a refutation found later
    is lost): never on the clock unless that option is given."""
    code, out, _ = cli(capsys, "audit", "--help")
    assert code == 0
    assert ("findings never depend on this, nor on the clock unless --time-limit cuts a step "
            "short") in " ".join(out.split())


def test_the_bound_help_says_a_run_past_its_bound_exits_1(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """docstruth (docs35 D4): `bound` exits 1 on separable data too when a run's updates pass
    their bound (`within_bound` false, which the theorem says cannot be: a bug to see), as
    `run --beta` does; its help said exit 0 whenever the data are separable. The bound made
    0 here stands for such a run."""
    monkeypatch.setattr("perceptron.geometry.bound.margin_bound", lambda *_: Fraction(0))
    code, out, _ = cli(capsys, "bound", "--example", "10-607", "--beta", "1")
    assert code == 1
    assert out.rstrip().endswith("MORE THAN THE BOUND")  # the margin perceptron's line
    code, out, _ = cli(capsys, "bound", "--help")
    assert code == 0
    assert ("1 when not separable (with a Gordan certificate) or when a run's mistakes or "
            "updates pass their bound") in " ".join(out.split())


def test_explain_exits_2_on_a_proof_file_it_cannot_read_as_its_help_says(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """docstruth: `explain --help` gave exit 2 for an unknown step id only; a proof file that
    cannot be read is exit 2 too (one line per error), and the help now says bad input."""
    broken = tmp_path / "broken.toml"
    broken.write_text('title = "b"\nscalars = ["a"]\n[[step]]\nid = "a"\nclaim = "a^2 >= 0"\n')
    code, out, err = cli(capsys, "explain", str(broken), "a")
    assert one_line_error(code, out, err), err
    code, out, _ = cli(capsys, "explain", "--help")
    assert "2 on bad input" in " ".join(out.split())
