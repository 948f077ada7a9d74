"""A `[define]`d name's exact value on runs is bounded by its degree in the run's quantities
(num35 F1): each definition may raise an earlier one to a power, so four lines of a proof
file made a value of t**65536 on every row, and `novikoff audit` on that file ran past
400 s (the audit has no clock); with three, 33 s for what takes 5."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proofs.proof_file import load_proof
from verify.numeric.algorithms import naming

TOWER = """
title = "a tower of definitions"
vectors = ["w", "x"]
scalars = ["t", "d1", "d2", "d3", "d4", "e"]
naturals = ["t"]

[define]
d1 = "max(t**16, 0)"
d2 = "max(d1**16, 0)"
d3 = "max(d2**16, 0)"
d4 = "max(d3**16, 0)"
e = "min(d1, t)"

[[step]]
id = "low"
claim = "e <= d1 + t"

[[step]]
id = "tower"
claim = "d4 >= 0"

[numeric]
run = "online"
"""


def _proof(tmp_path: Path) -> Path:
    path = tmp_path / "tower.toml"
    path.write_text(TOWER)
    return path


def test_a_definition_past_the_degree_bound_is_not_evaluated_on_runs(tmp_path: Path) -> None:
    """`d1` (degree 16) and `e`, which reads it (16), are evaluated; `d2` (256) is not, nor
    what reads it: before, every one was, `d4` at degree 65536."""
    proof = load_proof(_proof(tmp_path))
    named = naming(proof.numeric, proof)
    assert set(named.defined) == {"d1", "e"}
    assert dict(named.too_high) == {"d2": 256}


def test_a_step_on_it_is_not_run_with_its_degree_said(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """The step reading the tower is `not run`, its reason naming the definition past the
    bound and its degree (not a root's nor a sum's reason, which would be untrue); the step
    reading the low definitions is checked on runs as before."""
    from verify.cli import main

    code = main(["audit", str(_proof(tmp_path)), "--budget", "small", "--jobs", "1",
                 "--json"])
    out, err = capfd.readouterr()
    assert code == 0 and "Traceback" not in err, err
    steps = {s["id"]: s["numeric"] for s in json.loads(out)["proofs"][0]["steps"]}
    assert steps["low"]["status"] == "held" and steps["low"]["instances"] > 0
    tower = steps["tower"]
    assert tower["status"] == "not-run", tower
    assert tower["reason"].startswith("d2 is defined as max(d1**16, 0) ([define]), of degree "
                                      "256 in the run's quantities"), tower["reason"]
    assert "degree at most 32" in tower["reason"]
    assert "root" not in tower["reason"] and "sum" not in tower["reason"]
