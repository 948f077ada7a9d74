"""Hostile data paths through the command line (trial item 4): a proof file whose `[numeric]
data` names `/dev/zero`, `/dev/urandom`, a named pipe or a directory, and `novikoff run
/dev/zero` or an endless standard input: one line, exit 2, in bounded memory and time. Each
runs in a child limited to 2 GB of address space and 60 s, so a regression fails the test
instead of the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PROOF = """title = "t is a natural"
scalars = ["t"]
naturals = ["t"]
[numeric]
run = "online"
data = [{paths}]
[[step]]
id = "count"
claim = "t >= 0"
"""


def _limited() -> None:
    """In the child: at most 2 GB of address space (`ulimit -v 2000000`)."""
    resource.setrlimit(resource.RLIMIT_AS, (2_000_000 * 1024, 2_000_000 * 1024))


def _novikoff(*args: str, stdin: object = subprocess.DEVNULL) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, stdin=stdin,  # type: ignore[arg-type]
                          preexec_fn=_limited,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _errors(done: subprocess.CompletedProcess) -> list[str]:
    assert "Traceback" not in done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith("novikoff: error")]


@pytest.fixture
def hostile(tmp_path: Path) -> dict[str, str]:
    """Paths no data file may be: devices, a named pipe nobody writes, a directory."""
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    return {"/dev/zero": "a character device", "/dev/urandom": "a character device",
            str(pipe): "a named pipe", str(folder): "a directory"}


def test_hostile_numeric_data_are_one_line_each(tmp_path: Path,
                                                hostile: dict[str, str]) -> None:
    """Beside the proof file (a pipe, a folder) through `[numeric] data`; anywhere (the
    devices) through `--data`, which the user types."""
    for number, (path, kind) in enumerate(hostile.items()):
        proof = tmp_path / f"proof{number}.toml"
        beside = path.startswith(str(tmp_path))
        named = os.path.relpath(path, tmp_path) if beside else "d.csv"
        proof.write_text(PROOF.format(paths=f'"{named}"' if beside else ""))
        given = () if beside else ("--data", path)
        done = _novikoff("audit", str(proof), "--budget", "small", "--jobs", "1", *given)
        assert done.returncode == 2, done.stderr
        (error,) = _errors(done)  # a proof's own file placed at its entry (newcomer 19)
        assert (f"{proof}:6:10: numeric.data: {named!r}: is {kind}" if beside
                else f"--data {path}: is {kind}") in error


def test_a_proof_file_reads_no_data_outside_its_folder(tmp_path: Path) -> None:
    """Red team 4: `data = ["/etc/passwd", "../secret.txt"]` in a stranger's proof file was
    read, and the first cell that is no number quoted in the error (`not a number:
    'SECRET_TOKEN_abc123'`). A proof names data beside it or below it, links resolved."""
    (tmp_path / "secret.txt").write_text("SECRET_TOKEN_abc123,1\n")
    folder = tmp_path / "proof"
    folder.mkdir()
    (folder / "link.csv").symlink_to(tmp_path / "secret.txt")
    for number, path in enumerate(["/etc/passwd", "../secret.txt", "link.csv"]):
        proof = folder / f"proof{number}.toml"
        proof.write_text(PROOF.format(paths=f'"{path}"'))
        done = _novikoff("audit", str(proof), "--budget", "small", "--jobs", "1")
        assert done.returncode == 2, done.stderr
        (error,) = _errors(done)
        assert f"numeric.data: {path!r} is outside the proof file's folder" in error
        assert "SECRET" not in done.stderr + done.stdout and "root:" not in done.stderr


def test_run_refuses_a_device_and_bounds_standard_input() -> None:
    done = _novikoff("run", "/dev/zero")
    assert done.returncode == 2
    assert _errors(done) == ["novikoff: error: /dev/zero: is a character device, not a "
                             "regular file: a data file is read from a file, or from "
                             "standard input as -"]
    with open("/dev/zero", "rb") as endless:
        done = _novikoff("run", "-", stdin=endless)
    assert done.returncode == 2
    (error,) = _errors(done)
    assert error.startswith("novikoff: error: <stdin>: more than 320000000 bytes")


@pytest.mark.parametrize("command", ["check", "audit", "explain"])
def test_a_proof_path_that_is_no_regular_file_is_one_line(command: str,
                                                          hostile: dict[str, str]) -> None:
    """Issue 27's review: `novikoff audit /dev/zero` said "file is larger than 1024 KiB",
    and a named pipe as PROOF blocked until someone wrote it; (red team 4) `novikoff explain
    PIPE STEP` said "no built-in proof"."""
    for path, kind in hostile.items():
        done = _novikoff(command, path, *(["s"] if command == "explain" else []))
        assert done.returncode == 2, done.stderr
        assert _errors(done) == [f"novikoff: error: {path}: is {kind}, not a regular file: a "
                                 "proof is read from a file (on the command line, from "
                                 "standard input as -)"]


@pytest.mark.parametrize("command", ["run", "bound", "audit"])
def test_a_large_cell_limit_reads_a_small_file_in_bounded_memory(tmp_path: Path,
                                                                 command: str) -> None:
    """Red team 4: `--max-cells 1000000000` asked `read` for a buffer of the 64 GB it
    allows (MemoryError traceback) before a byte was read: now read a chunk at a time."""
    data = tmp_path / "ok.csv"
    data.write_text("1,2,1\n-1,-1,-1\n")
    proof = tmp_path / "proof.toml"
    proof.write_text(PROOF.format(paths=f'"{data}"'))
    args = {"run": [str(data)], "bound": [str(data)],
            "audit": [str(proof), "--budget", "small", "--jobs", "1"]}[command]
    done = _novikoff(command, *args, "--max-cells", "1000000000")
    assert done.returncode == 0, done.stderr
    assert _errors(done) == []


@pytest.mark.parametrize("option, what, most", [("--max-cells", "cells", "1000000000000"),
                                                ("--max-scaled-bits", "bits",
                                                 "1000000000000000")])
@pytest.mark.parametrize("command", ["run", "bound", "audit"])
def test_a_limit_past_any_machine_is_one_line(tmp_path: Path, command: str, option: str,
                                              what: str, most: str) -> None:
    """Red team 4: `--max-cells 99999999999999999999999` was an OverflowError traceback."""
    data = tmp_path / "ok.csv"
    data.write_text("1,2,1\n-1,-1,-1\n")
    target = [str(data)] if command != "audit" else ["--data", str(data)]
    done = _novikoff(command, *target, option, "99999999999999999999999")
    assert done.returncode == 2
    assert _errors(done) == [f"novikoff: error: argument {option}: {what} must be between 1 "
                             f"and {most}, not 99999999999999999999999"]
    done = _novikoff(command, *target, option, "9" * 5000)
    assert _errors(done) == [f"novikoff: error: argument {option}: {'9' * 40}... (5000 "
                             f"characters) is too long for a whole number of {what}"]


@pytest.mark.parametrize("command, kind", [
    ("check", "proof"), ("explain", "proof"), ("audit", "proof"),
    ("run", "data"), ("bound", "data"), ("audit", "data")])
def test_a_path_with_a_newline_is_named_on_one_line(tmp_path: Path, command: str, kind: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Truth14: `novikoff check $'x\\ny.toml'` printed "novikoff: error: x" and "y.toml: No
    such file or directory" on two lines. A name's non-printing characters are escaped."""
    from verify.cli import main

    missing = str(tmp_path / f"x\ny.{'toml' if kind == 'proof' else 'csv'}")
    if kind == "proof":
        args = [command, missing, *(["s"] if command == "explain" else [])]
    elif command == "audit":
        proof = tmp_path / "proof.toml"
        proof.write_text(PROOF.format(paths=""))
        args = [command, str(proof), "--budget", "small", "--jobs", "1", "--data", missing]
    else:
        args = [command, missing]
    assert main(args) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    given = "--data " if (command, kind) == ("audit", "data") else ""  # read for every proof
    assert errors[-1].startswith(f"novikoff: error: {given}{tmp_path}/x\\ny.")
    assert all(line.startswith(("novikoff: error: ", "audit ")) for line in errors), errors


def test_a_one_step_file_is_checked_in_bounded_memory(tmp_path: Path) -> None:
    """Red team 23 F7: a claim with sums of vectors in five generators and degree 6 made the
    search list every monomial up to its degree before charging the first to the budget
    (20 GB, the process killed; under a cap a `MemoryError` traceback). Checked within the
    child's 2 GB, decided (refuted: false at c = 0, n = 0, w = (1)), no traceback."""
    path = tmp_path / "m3.toml"
    path.write_text('title = "memory"\nvectors = ["th", "w", "x"]\nscalars = ["y", "n", "c"]\n'
                    'naturals = ["n"]\nindexed = ["x", "y"]\n[[step]]\nid = "s"\nclaim = '
                    '"dot(sum(k in 0..n, x[k]) + w, w - sum(j in 1..1, y[j]*x[j])) <= norm2(2*th'
                    ' + sum(j in 0..n+1, y[j]**2*th))*norm2(c*sum(j in 1..n, j*w) + c*th)"\n')
    done = _novikoff("check", str(path))
    assert done.returncode == 1 and _errors(done) == [], done.stderr
    assert done.stdout.startswith("refuted  s")


@pytest.mark.parametrize(("error", "line"), [
    (MemoryError, "novikoff: error: out of memory: the input asks for more than this machine "
     "has, or than a worker may take (4 GB more than it started with)\n"),
    # newcomer 26, F6: a pool's worker killed by the system ended the audit with a traceback
    (BrokenProcessPool, "novikoff: error: a worker process ended abruptly (killed, or out of "
     "memory): the input asks for more than this machine gave it\n"),
])
def test_memory_exhausted_anywhere_is_one_line(error: type[Exception], line: str,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Behind the budgets: a `MemoryError` from any command, or a pool whose worker the
    system killed, is one line and exit 2, never a traceback (red team 23 F7 printed one
    under a memory cap)."""
    from verify import cli

    def exhausted(args: object) -> int:
        raise error

    parser = cli.build_parser(("list",))
    monkeypatch.setattr(cli, "build_parser", lambda needed: parser)
    parser.set_defaults(handler=exhausted)
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for sub in action.choices.values():
            sub.set_defaults(handler=exhausted)
    assert cli.main(["list"]) == 2
    assert capsys.readouterr().err == line


def test_a_pool_worker_past_its_memory_fails_its_task_with_a_memory_error() -> None:
    """Newcomer 26, F6: an audit's worker grew to 12 GB and the system killed it. A pool's
    worker may take `WORKER_MEMORY` more address space than it started with: past it an
    allocation raises `MemoryError` in the worker, which its task's caller receives."""
    from verify.numeric import executors

    with executors.executor(jobs=2) as pool:
        assert pool.submit(bytearray, 2**20).result() == bytearray(2**20)
        with pytest.raises(MemoryError):
            pool.submit(bytearray, executors.WORKER_MEMORY + 2**30).result()
