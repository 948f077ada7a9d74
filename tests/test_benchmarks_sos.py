"""`benchmarks/sos.py` at its smallest size: the goals parse as proof files, are decided, and
no true goal is refuted (every goal of the benchmark is a true statement)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import sos


def test_every_goal_parses_and_the_tiny_run_proves_and_never_refutes() -> None:
    for goal in sos.GOALS:
        sos.parse_proof(goal.toml().encode(), goal.label)  # each is a valid proof file
    tiny = tuple(g for s in (sos.S, sos.L) for g in [g for g in sos.GOALS if g.source == s][:3])
    results = sos.run(tiny, "default")
    assert all(status != "refuted" for _, status, _, _ in results)
    table = sos.summary(results)
    assert table[sos.L]["proved"] == 3
    assert table[sos.S]["proved"] >= 1


def test_the_goals_leanprover_sos_closes_are_all_marked_on_sos_ml() -> None:
    lean = {g.line for g in sos.GOALS if g.lean}
    assert {g.source for g in sos.GOALS if g.lean} == {sos.S}
    assert len(lean) == 22  # SOSTest/Harrison.lean: the real-field cases not marked FIXME


def test_linarith_equalities_are_proved_by_antisymmetry() -> None:
    # x <= 3y, y <= 2z, x >= 6z |- x == 3y (over R and N), and x*x + y*y == 0 (<= 0) |- x == 0
    lines = {145, 240, 455, 458, 461}
    goals = tuple(g for g in sos.GOALS if g.source == sos.L and g.line in lines)
    results = sos.run(goals, "default")
    assert [status for _, status, _, _ in results] == ["proved"] * len(lines)
    assert all(message.startswith("by antisymmetry") for *_, message in results)


def test_sos_ml_1643_is_proved_by_hypotheses_times_squares() -> None:
    # 3(xy + xz + yz - 3xyz) = (3 - x - y - z)(xy + yz + zx) + x(y - z)**2 + ...: the target
    # has no square in its Newton box, the certificate squares of the generators
    (goal,) = (g for g in sos.GOALS if g.source == sos.S and g.line == 1643)
    ((_, status, _, message),) = sos.run((goal,), "default")
    assert status == "proved" and message == "certificate by weighted squares"


def test_budget_large_proves_a_goal_the_default_leaves_unknown() -> None:
    # sos.ml 1625: (4ac - b**2) * -1 == (2ax + b)**2 - 4a * e needs the SDP to multiply the
    # claim by the strict hypothesis, which only `large` buys (`sdp_multipliers`)
    (goal,) = (g for g in sos.GOALS if g.source == sos.S and g.line == 1625)
    ((_, default, _, said),) = sos.run((goal,), "default")
    ((_, large, _, _),) = sos.run((goal,), "large")
    assert (default, large) == ("unknown", "proved")
    assert "`--budget large` may too" in said


def test_sos_ml_1891_with_an_irrational_zero_is_proved() -> None:
    # (w**3 + z**2)**2 + (x**2 + w + z + 1)**2 + x**2 + y**4 vanishes where w**3 + w**2 + 2w
    # + 1 == 0: no Gram matrix is interior; the kernel is found from the sparse basis' point
    (goal,) = (g for g in sos.GOALS if g.source == sos.S and g.line == 1891)
    ((_, status, _, message),) = sos.run((goal,), "default")
    assert status == "proved" and message == "certificate by semidefinite squares"
