"""A `[define]`d name's exact value on runs is bounded by its degree in the run's quantities
(num35 F1): each definition may raise an earlier one to a power, so four lines of a proof
file made a value of t**65536 on every row, and `novikoff audit` on that file ran past
400 s (the audit has no clock); with three, 33 s for what takes 5."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sympy

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
    """`d1` (degree 16) and `e`, which reads it (17: `d1` and `t` added), are evaluated;
    `d2` (256) is not, nor what reads it: before, every one was, `d4` at degree 65536."""
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


def _chain(tmp_path: Path, step: str, levels: int = 8) -> Path:
    """A proof whose `d{k+1}` is `step` on `d{k}`, each definition of degree at most 2 by
    the bound before fix35 (which took the larger of a sum's terms and never counted the
    denominators `together` multiplies), yet each value about twice the bits of the last."""
    scalars = ", ".join(['"t"'] + [f'"d{k}"' for k in range(1, levels + 1)])
    lines = ['d1 = "max(t, 0)"'] + [f'd{k + 1} = "{step.format(d=f"d{k}")}"'
                                    for k in range(1, levels)]
    text = (f'title = "a chain"\nvectors = ["w", "x"]\nscalars = [{scalars}]\n'
            'naturals = ["t"]\n\n[define]\n' + "\n".join(lines)
            + f'\n\n[[step]]\nid = "top"\nclaim = "d{levels} >= 0"\n\n'
            '[numeric]\nrun = "online"\n')
    path = tmp_path / "chain.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("step", ["max(1/({d} + 1) + 1/(t + 2), 0)",
                                  "max({d}/(t + 1), {d}/(t + 2))"])
def test_a_chain_whose_columns_double_is_stopped(tmp_path: Path, step: str) -> None:
    """fix35 F1 (review of num35): a column holds `a*db` over `da*db`, the sizes of both
    arguments' numerators and denominators added, so each level of these chains doubles the
    bits of the last (`d14` of the first 168 717 bits on 5 rows), while the bound before
    said degree 1 or k for each: 30 such lines hung the audit. Now the bound adds them as
    the column does (`d{k+1}` at 2*deg(d{k}) + 2: 1, 4, 10, 22, then 46 past 32)."""
    proof = load_proof(_chain(tmp_path, step))
    named = naming(proof.numeric, proof)
    assert set(named.defined) == {"d1", "d2", "d3", "d4"}
    assert dict(named.too_high) == {"d5": 46}


def test_the_built_in_definition_stays_well_under_the_bound() -> None:
    """The built-in proofs' one definition, `max(0, gamma - y*dot(u, x))`, counts 4 (gamma,
    y, and the inner product 2): evaluated on runs as before."""
    from proofs.language.terms import gram
    from verify.runs.naming import column_degree

    gamma, y = sympy.symbols("gamma y")
    assert column_degree((sympy.Integer(0), gamma - y * gram("u", "x")), {}) == 4
