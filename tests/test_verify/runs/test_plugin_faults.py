"""Hostile plug-ins (the newcomer trial's, `tests/cases/plugins/`): whatever a stranger's
algorithm does, it is one line naming it and its fault, exit 2, and the rest of the audit is
reported; a real Ctrl-C still stops the audit."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from cases.plugins import hostile
from perceptron.dataset import Dataset
from verify.runs.plugin import Plugin, PluginFault

CASES = Path(hostile.__file__).parent
DATA = Dataset.of([[1, 2], [2, -1], [-1, 1]], [1, 1, -1], "three")
U = (Fraction(1), Fraction(0))

OTHER = """
title = "t is a natural"
scalars = ["t"]
naturals = ["t"]
[numeric]
run = "online"
[[step]]
id = "count"
claim = "t >= 0"
"""


@pytest.mark.parametrize(("function", "said"), [
    (hostile.exits, "raised SystemExit: 0 on three"),
    (hostile.exits_3, "raised SystemExit: 3 on three"),
    (hostile.keyboard, "raised KeyboardInterrupt on three"),
    (hostile.generator_exits, "raised SystemExit: done on three"),
    (hostile.memory_hog, "raised MemoryError on three"),
])
def test_a_base_exception_of_the_plug_in_is_its_fault(function, said) -> None:
    """Items 1 and 17 of the trial: SystemExit (any code) and a KeyboardInterrupt the
    plug-in raises itself are faults like any other exception (they once ended the audit
    silently with the plug-in's exit code, or as "interrupted")."""
    with pytest.raises(PluginFault) as raised:
        Plugin.of("p", function).run(DATA, U, 5)
    assert str(raised.value) == f"plug-in p {said}"


def test_a_real_ctrl_c_while_the_plug_in_runs_still_interrupts() -> None:
    """A SIGINT delivered while the plug-in runs is the user's Ctrl-C, not its fault."""
    with pytest.raises(KeyboardInterrupt):
        Plugin.of("p", hostile.interrupts_itself).run(DATA, U, 5)


def _audit(tmp_path: Path, spec: str, jobs: int,
           capsys: pytest.CaptureFixture[str]) -> tuple[int, str, list[str]]:
    """`novikoff audit plug.toml other.toml --algorithm p=SPEC`: exit code, stdout, and the
    error lines of stderr."""
    from verify.cli import main

    other = tmp_path / "other.toml"
    other.write_text(OTHER)
    code = main(["audit", str(CASES / "plug.toml"), str(other), "--budget", "small",
                 "--jobs", str(jobs), "--algorithm", f"p={CASES / 'hostile.py'}:{spec}"])
    out, err = capsys.readouterr()
    return code, out, [line for line in err.splitlines() if "error" in line]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("spec", "said"), [
    ("exits", "plug-in p raised SystemExit: 0 on "),
    ("exits_3", "plug-in p raised SystemExit: 3 on "),
    ("keyboard", "plug-in p raised KeyboardInterrupt on "),
])
def test_the_cli_reports_a_plug_in_that_exits_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, said: str,
        jobs: int) -> None:
    """One line, exit 2, the other proof audited and the plug-in's proof reported with its
    steps not run (trial items 1 and 17: exit 0 or 3 with no message, or "interrupted")."""
    code, out, errors = _audit(tmp_path, spec, jobs, capsys)
    assert code == 2
    assert len(errors) == 1 and errors[0].startswith(f"novikoff: error: {said}"), errors
    assert "other                        verified" in out
    assert "plug/norm-growth: the plug-in p failed (see the errors)" in out
