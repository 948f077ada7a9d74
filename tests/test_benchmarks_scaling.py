"""`benchmarks/scaling.py` at its smallest size: the chains it times are proofs whose every
step uses every earlier one and is proved, its data are separable, its fit recovers a power
law, and the script runs end to end, its start-up part too (a smoke test: no figure is
asserted)."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import scaling
from children import SUBPROCESS

from perceptron.io.loaders import load
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof


@pytest.mark.parametrize("shape", ["shared", "fresh"])
def test_each_step_of_a_chain_uses_every_earlier_one_and_is_proved(shape: str) -> None:
    proof = parse_proof(scaling.chain(4, shape).encode(), f"chain-{shape}.toml")
    assert [[u.step for u in s.uses] for s in proof.steps] == [
        [], ["s0"], ["s0", "s1"], ["s0", "s1", "s2"]]
    report = check_proof(proof, store=None)
    assert [s.status for s in report.steps] == ["proved"] * 4
    assert not any(s.vacuous for s in report.steps)
    # the last step carries the claims of all earlier ones among its hypotheses
    claims = {s.claim.text for s in proof.steps[:3]}
    assert claims <= {h.text for h in report.steps[3].statement.hypotheses}


def test_the_data_are_labelled_by_the_sign_of_their_first_feature(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text(scaling.dataset(30, 5))
    data = load(str(path))
    assert (data.n, data.d) == (30, 5)
    assert all(x[0] != 0 and (x[0] > 0) == (y > 0) for x, y in zip(data.X, data.y, strict=True))
    assert all(abs(v) <= 9 and v.denominator == 1 for x in data.X for v in x)


def test_the_fit_recovers_the_exponent_of_a_power_law() -> None:
    sizes = [25, 50, 100, 150, 300]
    assert scaling.fit(sizes, [3 * n**1.5 for n in sizes]) == pytest.approx(1.5)
    assert scaling.fit(sizes, [Fraction(1, 7) * n for n in sizes]) == pytest.approx(1.0)


def test_the_script_runs_at_its_smallest_size(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof part, its checks' child processes run in this one (`tests/children.py`:
    each would import SymPy and SciPy afresh); the next test starts a real one."""
    monkeypatch.setattr(scaling, "subprocess", SUBPROCESS)
    scaling.main(["--tiny", "--part", "proof"])
    out = capsys.readouterr().out
    assert "N =    3" in out and "N =    6" in out and "[6 proved]" in out
    assert "fitted exponent of CPU-seconds" in out


def test_a_chain_is_checked_in_a_fresh_process(tmp_path: Path) -> None:
    """`check_time` as the proof part starts it: a child process checks the file and prints
    its figures, which are read back (seconds, CPU-seconds, the whole process, the verdicts)."""
    path = tmp_path / "chain.toml"
    path.write_text(scaling.chain(2))
    found = scaling.check_time(scaling.ROOT, path)
    assert not isinstance(found, str), found
    seconds, cpu, whole, counts = found
    assert counts == {"proved": 2} and 0 <= seconds <= whole and cpu >= 0, found


@pytest.mark.parametrize("command", ["run", "bound"])
def test_the_data_parts_time_each_size_in_seconds_and_cpu_seconds(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--part run|bound` at the tiny sizes: a row per size with wall and CPU-seconds, and
    the fitted exponent of both (the steadier CPU-seconds on a shared machine)."""
    scaling.main(["--tiny", "--part", command])
    out = capsys.readouterr().out
    assert f"novikoff {command}, growing examples n" in out and "growing dimension d" in out
    assert out.count(" cpu") == 4
    assert "fitted exponent of seconds" in out and "fitted exponent of CPU-seconds" in out


def test_the_startup_part_runs_at_its_smallest_size(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The start-up part end to end, one round of two of its commands (`--version` and the
    bare interpreter's floor, the cheapest): each process is started and timed, exits 0 and
    is read for what it loads, and the summary lines are printed. Every command, the checks
    too, under `-m slow` (below): three processes here instead of eleven. What the commands
    load is asserted by `tests/test_verify/cli/test_cli_habits.py` in every run."""
    every = scaling.startup_commands
    monkeypatch.setattr(scaling, "startup_commands", lambda one_step: {
        name: argv for name, argv in every(one_step).items()
        if name in ("--version", "floor: interpreter")})
    scaling.main(["--tiny", "--part", "startup"])
    out = capsys.readouterr().out
    assert "every command exited 0 (both checks proved): yes" in out, out
    rows = {line.split("  ")[1].strip(): line for line in out.splitlines() if line.startswith("  ")
            and ("[loads" in line or "floor:" in line)}
    assert set(rows) == {"--version", "floor: interpreter"}, out
    assert "[loads nothing heavy]" in rows["--version"], rows
    assert "[loads" not in rows["floor: interpreter"], rows  # a floor is no novikoff command
    assert "best wall under the 0.5 s target: --version" in out


@pytest.mark.slow  # eleven processes, the checks loading SymPy and SciPy: the suite's 5 minutes
def test_the_startup_part_runs_each_command_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30's start-up commands, one round: each exits 0 (both one-step files proved) and
    says what it loads; a check searched without an LP loads no SciPy and no NumPy. No time is
    asserted."""
    scaling.main(["--tiny", "--part", "startup"])
    out = capsys.readouterr().out
    assert "every command exited 0 (both checks proved): yes" in out, out
    rows = {line.split("  ")[1].strip(): line for line in out.splitlines() if line.startswith("  ")
            and "[loads" in line}
    assert set(rows) == {"--version", "list", "check one step, no LP", "check one step, an LP"}
    assert "[loads nothing heavy]" in rows["--version"], rows
    assert "[loads sympy]" in rows["check one step, no LP"], rows  # no NumPy: issue 30
    assert "scipy" in rows["check one step, an LP"], rows
    assert "best wall under the 0.5 s target: --version" in out
