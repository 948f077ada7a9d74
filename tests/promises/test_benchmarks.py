"""Smoke runs of every benchmark at a toy size, so none can rot: each runs to the end and
prints its summary line. Times are never asserted (the benchmarks print ratios to read).

The child processes the engine, store and audit benchmarks start (`python -c SCRIPT` and
`python -m verify`) run in this process here (`tests/children.py`): at the toy size starting them
cost most of each smoke run (a fresh interpreter importing NumPy, SymPy or scikit-learn each
time), and the scripts they run are the same. One test per script still starts a real child
(`test_each_benchmark_still_starts_its_child_process`), so the way it is started cannot rot."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from children import SUBPROCESS

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def benchmark(name: str) -> ModuleType:
    """Import `benchmarks/<name>.py` as a module (the folder is no package)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


#: The benchmarks whose children run in this process in their smoke runs (`children.in_process`).
IN_PROCESS = ("engine", "audit", "store")


@pytest.mark.parametrize(("name", "summaries"), [
    ("engine", ("identical weights, both loops and scikit-learn (exact comparison): yes",
                "ratio engine/scikit-learn:")),
    ("campaign", ("(ratio to the 10^6/s target:", "norm-growth-without-R2': violated")),
    ("kernel", ("both accept every certificate: yes", "ratio kernel/SymPy expand over")),
    ("prover", ("worst prove", "ratio prover/naive search over the 3 cases")),
    ("max_margin", ("ratio certified/NNLS on rocks_and_mines", "sonar perceptron, bias:")),
    ("audit", ("same instance count serially and with 2 jobs: yes", "symbolic half (serial")),
    ("store", ("same verdicts with and without the store: yes", "ratio store/search")),
])
def test_benchmark_runs_at_a_tiny_size(name: str, summaries: tuple[str, ...],
                                       capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if name in ("engine", "max_margin"):
        pytest.importorskip("sklearn")
    module = benchmark(name)
    if name in IN_PROCESS:  # the module's own name only: nothing else is started in-process
        monkeypatch.setattr(module, "subprocess", SUBPROCESS)
    if name == "max_margin" and not module.DATA_DIR.is_dir():
        pytest.skip(f"benchmark data not found at {module.DATA_DIR}")
    module.main(["--tiny"])
    out = capsys.readouterr().out
    for summary in summaries:
        assert summary in out, out


def test_each_benchmark_still_starts_its_child_process() -> None:
    """The children `in_process` runs in the smoke runs, each started as its benchmark starts
    it once (a fresh interpreter, the checkout on its path) at a tiny size: the engine's run
    of sonar (3 epochs), the store's symbolic half of one proof, the audit's serial halves of
    one small proof. Each prints the figures its benchmark reads."""
    engine = benchmark("engine")
    data = engine.BENCH / "rocks_and_mines"
    if data.is_file():
        found = json.loads(engine._process(engine.OURS, str(data), "3")())
        assert found["epochs"] == 3 and not found["converged"], found
    figures = benchmark("store").run("store", ["margin-perceptron"])
    assert figures["recalled"] > 0 and figures["searched"] == 0, figures
    halves = benchmark("audit").halves("small", ["nonseparable-freund-schapire"])
    assert halves["numeric"]["instances"] > 0 and halves["symbolic"]["steps"] > 0, halves


def test_fuzz_campaign_runs_at_a_tiny_size() -> None:
    """The fuzzing campaign limits its process's address space: run it in a subprocess."""
    import subprocess

    done = subprocess.run([sys.executable, str(BENCHMARKS / "fuzz_campaign.py"), "--tiny"],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "inputs: 20 (seed 0)" in done.stdout and "tracebacks: 0" in done.stdout, done.stdout


@pytest.mark.parametrize("where", [["--jobs", "2"], ["--dask-local", "1"]])
def test_campaign_of_n_instances_runs_at_a_tiny_size(where: list[str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`benchmarks/campaign.py --instances N` on local processes and on a Dask LocalCluster
    it starts: one shard of long runs reaches N, and the report counts what was merged."""
    if "--dask-local" in where:
        pytest.importorskip("distributed")
    module = benchmark("campaign")
    module.main(["--instances", "1000", *where])
    out = capsys.readouterr().out
    assert "campaign of at least 1,000 instances" in out, out
    shard = module.CAMPAIGN_SHARD
    assert f"(seeds 50000..{50_000 + shard - 1}, 1 shards)" in out, out
    assert "violations: 0" in out and "instances per worker CPU-second" in out, out


@pytest.mark.parametrize("flag", ["--instances", "--jobs", "--dask-local"])
def test_campaign_refuses_a_count_below_one_in_one_line(
        flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Review finding (2026-11-27): `--instances 0` ended in a ZeroDivisionError traceback;
    a count below 1 is now argparse's usage error (exit 2), before anything runs."""
    with pytest.raises(SystemExit) as ended:
        benchmark("campaign").main([flag, "0"])
    assert ended.value.code == 2
    assert f"error: {flag} must be at least 1, not 0" in capsys.readouterr().err


def test_campaign_states_its_evaluation_time_as_wall_time(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The evaluation is timed by the wall clock: on a loaded machine it exceeded the CPU
    time it was printed as a part of ("0.21 CPU-s, of which evaluation 0.24 s", part (2) of
    `--medium` at load 5): it is stated as a part of the worker's wall time."""
    from fractions import Fraction

    from verify.numeric.campaign import CampaignResult
    from verify.numeric.instances import NumericVerdict

    result = CampaignResult(evaluation_seconds=0.24, total_seconds=0.57, cpu_seconds=0.21)
    result.record("norm-growth", "generated", NumericVerdict("held", 52_773, 0, 0, Fraction(0),
                                                             None))
    benchmark("campaign")._throughput(result, 0.58, 1)
    out = capsys.readouterr().out
    assert "worker time 0.57 s wall (evaluation 0.24 s of it), 0.21 CPU-s" in out, out
    assert "of which" not in out, out
