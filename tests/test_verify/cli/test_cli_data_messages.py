"""Data files and a proof's `[numeric] data`: every error said, each placed (newcomer 19).

The project promises every independent error of a file in one run, each at its
file:line:column; the trial found `data = ["../toy.csv", "missing.csv"]` said the first
only, and the missing file, said later by the audit, unplaced.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.cli import main

PROOF = '''title = "t"
vectors = ["w", "x"]
scalars = ["y", "R2"]

[[step]]
id = "one-update-growth"
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R2"]
claim = "norm2(w + y*x) <= norm2(w) + R2"

[numeric]
run = "online"
data = [%s]
'''


def errors(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines()
            if line.startswith("novikoff: error:")]


def test_every_data_entry_error_is_said_placed(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "toy.csv").write_text("1,1\n")
    sub = tmp_path / "sub"
    sub.mkdir()
    proof = sub / "l.toml"
    proof.write_text(PROOF % '"../toy.csv", "missing.csv", "../toy.csv "')
    assert main(["check", str(proof)]) == 2
    assert errors(capsys) == [
        f"novikoff: error: {proof}:12:10: numeric.data: '../toy.csv' is outside the proof "
        "file's folder; a proof names data files beside it or below it (give others with "
        "--data FILE)",
        f"novikoff: error: {proof}:12:24: numeric.data: 'missing.csv': no such file",
        f"novikoff: error: {proof}:12:39: numeric.data: '../toy.csv ' is outside the proof "
        "file's folder; a proof names data files beside it or below it (give others with "
        "--data FILE)"]


def test_a_missing_data_file_is_placed_by_the_audit(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    proof = tmp_path / "m.toml"
    proof.write_text(PROOF % '"missing.csv"')
    assert main(["audit", str(proof), "--budget", "small", "--jobs", "1"]) == 2
    assert errors(capsys) == [
        f"novikoff: error: {proof}:12:10: numeric.data: 'missing.csv': no such file"]
