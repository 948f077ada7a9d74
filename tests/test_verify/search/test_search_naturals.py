"""A counterexample off the naturals moved to natural values (`natural_counterexample`).

Red team 9: `(2*t - 3)*(t - 5) == 0 |- t <= 1` with t natural is false at t = 5, but the
search (over the reals) found t = 3/2, which the kernel refuses, and `check` said the claim
"fails only at values that are not natural". Now the point is moved along t to the naturals
next to every root of the hypotheses and the claim, and the kernel refutes the step at t = 5.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from cases import judgement

from proofs.language.expressions import Names
from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import Counterexample
from verify.proof_checker import check_proof
from verify.search.counterexamples import NATURAL_POINTS, natural_counterexample

NAMES = Names(vectors=frozenset(), scalars=frozenset({"t", "s"}))

#: (hypothesis with t natural, claim, t where the search's real point is moved, or None when
#: no natural t refutes it and the candidates covered every natural t)
LINE = [
    ("(2*t - 3)*(t - 5) == 0", "t <= 1", 5),  # red team 9
    ("(2*t - 3)*(t - 20) == 0", "t <= 1", 20),  # its variant
    ("(2*t - 3)*(t - 1000) == 0", "t <= 1", 1000),  # beyond any grid
    ("t >= 3/2", "t <= 1", 2),  # an interval: its least natural, next to its end
    ("t > 2", "t <= 1", 3),  # an open end at an integer
    ("(2*t - 3)*(2*t - 5) == 0", "t <= 1", None),  # no natural point meets the hypothesis
    ("(2*t - 3)*(t**2 - 2) == 0", "t <= 1", None),  # irrational roots: isolated exactly
    ("t*(t - 1) >= 0", "t*(t - 1)*(t - 2) >= 0", None),  # true at every natural
]


@pytest.mark.parametrize(("given", "claim", "moved"), LINE)
def test_a_point_off_the_naturals_moves_to_the_least_natural_one_on_its_line(
        given: str, claim: str, moved: int | None) -> None:
    found = Counterexample({"t": Fraction(3, 2)}, {})
    step = judgement((given, "t >= 0"), claim, NAMES, (), ("t",))
    out = natural_counterexample(step, found, ["t"])
    if moved is None:
        assert out.point is None
        assert out.complete  # t is the only name: every natural t was covered
    else:
        assert out.point is not None and out.point.scalars["t"] == moved
        kernel.check_counterexample(step, out.point)  # it refutes the judgement, exactly
    assert out.tried <= NATURAL_POINTS


def test_another_name_makes_the_line_incomplete() -> None:
    """False at t = 7, s = 1, but not on the line s = 0 through the point found: no natural
    point there, and nothing claimed about the others (`complete` is false)."""
    step = judgement(("(2*t - 3)*(t - 7*s) == 0", "s*(s - 1) == 0", "t >= 0"), "t <= 1",
                     NAMES, (), ("t", "s"))
    out = natural_counterexample(step, Counterexample({"t": Fraction(3, 2), "s": Fraction(0)},
                                                      {}), ["t"])
    assert out.point is None and not out.complete
    moved = natural_counterexample(step, Counterexample({"t": Fraction(3, 2), "s": Fraction(1)},
                                                        {}), ["t"])
    assert moved.point is not None and moved.point.scalars == {"t": 7, "s": 1}


NAT4 = b"""
title = "nat4"
vectors = ["w"]
scalars = ["t", "s"]
naturals = ["t"]
[[step]]
id = "five"
given = ["(2*t - 3)*(t - 5) == 0"]
claim = "t <= 1"
[[step]]
id = "twenty"
given = ["(2*t - 3)*(t - 20) == 0"]
claim = "t <= 1"
[[step]]
id = "two"
given = ["(2*t - 3)*(t - 2) == 0"]
claim = "t <= 1"
[[step]]
id = "seven"
given = ["(2*t - 3)*(t - 7) == 0"]
claim = "t <= 5"
[[step]]
id = "half-only"
given = ["(2*t - 3)*(2*t - 5) == 0"]
claim = "t <= 1"
[[step]]
id = "off-the-line"
given = ["(2*t - 3)*(t - 7*s) == 0", "s*(s - 1) == 0"]
claim = "t <= 1"
"""

#: step -> (status, t of the kernel's refutation, or what the message must and must not say)
STEPS = {
    "five": ("refuted", 5),
    "twenty": ("refuted", 20),
    "two": ("refuted", 2),
    "seven": ("refuted", 7),  # t = 3/2 meets the claim: the equality solved for t finds 7
    "half-only": ("unknown", "the claim fails only at values that are not natural"),
    # the false twin: false at t = 7, s = 1, never proved, and not said to hold at naturals
    "off-the-line": ("unknown", "the counterexample found is not natural, and none with "
                                "natural values was found near it"),
}


@pytest.fixture(scope="module")
def nat4() -> dict[str, object]:
    report = check_proof(parse_proof(NAT4, "nat4.toml"))
    return {s.step.id: s for s in report.steps}


@pytest.mark.parametrize("step", sorted(STEPS))
def test_a_false_step_with_a_natural_counterexample_off_the_grid_is_refuted(
        nat4: dict[str, object], step: str) -> None:
    status, expected = STEPS[step]
    report = nat4[step]
    assert report.status == status  # type: ignore[attr-defined]
    if status == "refuted":
        refutation = report.refutation  # type: ignore[attr-defined]
        assert isinstance(refutation, kernel.Refutation)  # made by kernel.refute
        assert refutation.counterexample.scalars["t"] == expected
    else:
        message = report.message  # type: ignore[attr-defined]
        assert message.startswith(expected)
        if step == "off-the-line":  # it has natural counterexamples: never said otherwise
            assert "fails only at values that are not natural" not in message
            assert "no natural counterexample among the" in message


def test_explain_shows_the_natural_counterexample(tmp_path: Path, capsys) -> None:
    """`explain` said the same untrue sentence as `check`; it now shows t = 5, plugged in."""
    from verify.cli import main

    path = tmp_path / "nat4.toml"
    path.write_bytes(NAT4)
    assert main(["explain", str(path), "five"]) == 1
    out = capsys.readouterr().out
    assert "status: refuted — counterexample" in out
    assert "moved to natural t (it had t = 3/2)" in out
    assert "    t = 5\n" in out
    assert "t ≤ 1:  5 ≤ 1  FAILS" in out
    assert "fails only at values that are not natural" not in out


def test_a_moved_point_the_kernel_rejects_is_said_to_be_rejected(monkeypatch) -> None:
    """Review of session 10: when the kernel rejected the point moved to the naturals, the
    advice still said that none with natural values was found near the one found. It says
    that one was found and the kernel rejected it, and why (the kernel's line), never that
    none was found. (The kernel is made to reject every point here: a test of the words.)"""
    real = kernel.refute

    def refute(seq: object, label: str, point: Counterexample) -> object:
        if all(v.denominator == 1 for v in point.scalars.values()):
            raise kernel.KernelError("rejected for the test")
        return real(seq, label, point)  # type: ignore[arg-type]

    monkeypatch.setattr(kernel, "refute", refute)
    text = (b'title = "t"\nscalars = ["t"]\nnaturals = ["t"]\n[[step]]\nid = "five"\n'
            b'given = ["(2*t - 3)*(t - 5) == 0"]\nclaim = "t <= 1"\n')
    (report,) = check_proof(parse_proof(text, "five.toml")).steps
    assert report.status == "unknown"
    assert report.message.startswith(
        "the counterexample found is not natural, and the point with natural values found "
        "near it was rejected by the kernel")
    assert "none with natural values was found" not in report.message
    assert "moved to natural t, kernel rejected it: rejected for the test" in report.message
