"""Checking structured steps end to end: how judgements combine into a step's status."""

from __future__ import annotations

import pickle
import re
from dataclasses import replace
from fractions import Fraction

import pytest
import sympy
from cases.inductions import progress_induction
from cases.steps import RUNS, RUNS_EXPECTED

from proofs.language.expressions import Names, Relation, parse_relation
from proofs.language.terms import Vec, scalar
from proofs.proof_file import parse_proof
from proofs.step import CaseSplit, Induction, Proof, Step
from verify import kernel, proof_checker
from verify.kernel import Certificate, Counterexample, Product
from verify.proof_checker import check_proof, check_step
from verify.verdict import Verdict

VECTORS = ("w", "x", "u")
SCALARS = ("t", "y", "R", "g")
NAMES = Names(vectors=frozenset(VECTORS), scalars=frozenset(SCALARS))


def rel(text: str) -> Relation:
    return parse_relation(text, NAMES)


def rel_scalar(text: str) -> Relation:
    return parse_relation(text, Names(vectors=frozenset(), scalars=frozenset({"t", "s"})))


def proof(*steps: Step) -> Proof:
    return Proof("T", VECTORS, SCALARS, steps)


def counted(report_steps: object) -> dict[str, str]:
    return {s.step.id: s.status for s in report_steps}  # type: ignore[attr-defined]


def assert_evidence_checks(built: Proof) -> dict[str, str]:
    """Every proved judgement's certificate and every counterexample passes the kernel."""
    report = check_proof(built)
    for step_report in report.steps:
        for g in step_report.goals:
            judgement = g.verdict.judgement or g.judgement
            if g.verdict.certificate is not None:
                kernel.check_certificate(judgement, g.verdict.certificate)
            if g.verdict.counterexample is not None:
                kernel.check_counterexample(judgement, g.verdict.counterexample)
    return counted(report.steps)


def test_division_by_a_possibly_zero_quantity_is_never_proved() -> None:
    step = Step("cancel", (), rel("dot(w, x)/dot(w, x) == 1"))
    report = check_step(proof(step), step)
    assert report.status == "unknown"
    main, side = report.goals
    assert main.verdict.status == "proved" and side.verdict.status == "refuted"
    assert "denominator <w,x> > 0" in report.message


def test_division_after_its_denominator_is_proved_positive() -> None:
    step = Step("ratio", (rel("t > 0"), rel("dot(w, w) <= t*R")), rel("dot(w, w)/t <= R"))
    report = check_step(proof(step), step)
    assert report.status == "proved"
    assert [g.goal.label for g in report.goals] == ["main", "denominator t > 0"]
    assert len(report.certificates) == 2


def test_false_division_claim_is_refuted_with_a_genuine_counterexample() -> None:
    step = Step("ratio", (rel("t > 0"),), rel("dot(w, w)/t <= 1"))
    built = proof(step)
    report = check_step(built, step)
    assert report.status == "refuted"
    cex = report.counterexample
    assert cex is not None and cex.scalars["t"] > 0  # satisfies the positivity it was cleared by
    w = cex.vectors["w"]
    assert sum(c * c for c in w) / cex.scalars["t"] > 1


def test_case_split_proves_each_case_and_refutes_a_false_claim() -> None:
    true = Step("abs", (rel("R >= y"), rel("R >= -y")), rel("R*y**2 >= y**3"),
                rule=CaseSplit(scalar("y"), "y"))
    false = Step("sign", (), rel("y >= 0"), rule=CaseSplit(scalar("y"), "y"))
    report = check_proof(proof(true, false))
    assert counted(report.steps) == {"abs": "proved", "sign": "refuted"}
    labels = [g.goal.label for g in report.steps[0].goals]
    assert labels == ["case y > 0", "case y == 0", "case y < 0"]
    refuting = report.steps[1].goals[-1]
    assert refuting.goal.label == "case y < 0" and report.steps[1].counterexample is not None


UPDATE = {"w": Vec({"w": 1, "x": scalar("y")})}


def test_induction_with_a_false_base_is_refuted() -> None:
    step = Step("inv", (), rel("dot(w, w) >= 1"),
                rule=Induction("t", {"w": Vec()}, UPDATE, (rel("y*dot(w, x) <= 0"),)))
    report = check_step(proof(step), step)
    assert report.status == "refuted"
    assert report.goals[0].goal.label == "base"


def test_induction_with_a_non_inductive_invariant_stays_unknown() -> None:
    """`y <= 1` holds on every run (y stays 0) but is not inductive (y = -2 squares to 4):
    the step case's point refutes nothing, and no run from the base does either."""
    step = Step("inv", (), rel("y <= 1"),
                rule=Induction("t", {"y": sympy.Integer(0)}, {"y": scalar("y")**2}, ()))
    report = check_step(proof(step), step)
    assert report.status == "unknown"
    assert [g.verdict.status for g in report.goals] == ["proved", "refuted"]
    assert "step: invariant is not inductive" in report.message


def test_induction_false_on_a_run_is_refuted_by_that_run() -> None:
    """`<w,w> <= t` fails after one update on an example of squared norm 2 (no update fact
    bounds it): the step case's point, replayed from the base, is a run the kernel checks."""
    step = Step("inv", (), rel("dot(w, w) <= t"),
                rule=Induction("t", {"w": Vec()}, UPDATE, ()))
    report = check_step(proof(step), step)
    assert report.status == "refuted" and report.refutation is not None
    assert report.refutation.label == "run" and report.run == report.refutation.run
    assert report.message.startswith("refuted by a run from the start: ")
    assert report.counterexample == report.run[-1]
    # red team 21 F6: no update is made from the last state, so its example is not shown
    assert "x" not in report.counterexample.vectors and "x" in report.run[0].vectors
    # as an audit's worker sends it (pickled): read-only views of the run's states (a
    # MappingProxyType) could be neither pickled nor read back by the kernel (merge fault)
    sent = pickle.loads(pickle.dumps(proof_checker.detached(report)))
    replayed = proof_checker.replay(proof(step), [sent])[0]
    assert replayed.status == "refuted" and replayed.refutation.run == report.run


def test_step_using_an_unproved_step_is_not_proved() -> None:
    false = Step("false", (), rel("dot(w, x) >= 0"))
    user = Step("user", (), rel("dot(w, x) >= 0"), uses=("false",))
    report = check_proof(proof(false, user))
    assert counted(report.steps) == {"false": "refuted", "user": "unknown"}
    assert report.steps[1].goals[0].verdict.status == "proved"
    assert "unproved step(s) false" in report.steps[1].message
    assert report.status == "refuted"


def test_every_piece_of_evidence_passes_the_kernel() -> None:
    steps = (
        Step("cs", (), rel("dot(w, u)**2 <= dot(w, w)*dot(u, u)")),
        Step("tri", (), rel("dot(w + x, w + x) <= dot(w, w) + dot(x, x)")),
        Step("div", (rel("g > 0"), rel("t*g >= 1")), rel("t >= 1/g")),
    )
    assert assert_evidence_checks(proof(*steps)) == {
        "cs": "proved", "tri": "refuted", "div": "proved",
    }


def test_checker_refuses_evidence_the_kernel_rejects(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the search claims, only kernel-checked evidence decides a step."""
    step = Step("s", (rel("y >= 0"),), rel("y >= 1"))
    bogus = Certificate(products=(Product(Fraction(1), (0,)),))
    monkeypatch.setattr(proof_checker, "decide", lambda j, **_: Verdict(
        "proved", bogus, None, "trust me", 0.0))
    report = check_step(proof(step), step)
    assert report.status == "unknown" and report.message.startswith("kernel rejected")
    wrong = Counterexample(scalars={"y": Fraction(2)}, vectors={})
    monkeypatch.setattr(proof_checker, "decide", lambda j, **_: Verdict(
        "refuted", None, wrong, "trust me", 0.0))
    report = check_step(proof(step), step)
    assert report.status == "unknown" and "holds at the counterexample" in report.message
    good = Counterexample(scalars={"y": Fraction(1, 2)}, vectors={})
    monkeypatch.setattr(proof_checker, "decide", lambda j, **_: Verdict(
        "refuted", None, good, "ok", 0.0))
    assert check_step(proof(step), step).status == "refuted"


def test_the_time_cap_is_one_budget_for_all_the_searches_of_a_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red team (issue 15 session): each of a step's searches (the judgement, its refutation
    form, each case) once got the whole cap, so `--time-limit 60` ran for 134 s."""
    now = [0.0]

    def clock() -> float:
        now[0] += 25.0  # every reading: 25 s later
        return now[0]

    guards: list[float | None] = []

    def searched(judgement: object, **options: object) -> Verdict:
        guards.append(options["guard"])  # type: ignore[arg-type]
        return Verdict("unknown", None, None, "nothing found", 0.0)

    monkeypatch.setattr(proof_checker, "perf_counter", clock)
    monkeypatch.setattr(proof_checker, "decide", searched)
    step = Step("s", (rel("y >= 1"),), rel("y**3 >= y"))
    assert check_step(proof(step), step, guard=60.0).status == "unknown"
    assert len(guards) == 2  # the claim, then its refutation form
    first, second = guards
    assert first is not None and second is not None
    assert first <= 60.0 - 25.0  # what is left of the step's cap, not a fresh 60 s
    assert second <= first - 25.0  # and the time the first search took is gone for the next


def test_an_unknown_step_names_a_long_negated_claim_briefly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red team (issue 15 session): the message of `(a+b+t+d)**16 >= 0` printed the 23 771
    characters of its expanded negation."""
    monkeypatch.setattr(proof_checker, "decide", lambda judgement, **_: Verdict(
        "unknown", None, None, "nothing found", 0.0))
    step = Step("s", (), rel("(y + 1)**16 >= 0"))
    report = check_step(proof(step), step)
    assert report.status == "unknown" and "characters)" in report.message
    assert len(report.message) < 600  # the hint text and at most 160 characters of the claim


NESTED_SETS = """
title = "nested sets"
scalars = ["y", "N", "c"]
naturals = ["N"]
indexed = ["y"]
[sets]
M = { index = "j", range = "1..N", where = ["y[j] >= c", "y[j] <= 2*c"] }
Q = { index = "l", range = "0..N-1", where = ["sum(j in M, y[j]) >= y[l]"] }
[[step]]
id = "t"
claim = "sum(l in Q, y[l]) <= sum(l in Q, sum(j in M, y[j]))"
"""


def test_a_long_claim_cut_for_a_message_shows_no_kernel_notation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red team 23 F8: the negated claim of a step over a set whose filter reads another
    set's sum was cut inside a sum's header, and the message read `sum(j in 0..-1 + N where
    nonneg(sum(k in 1..N where ...` (the kernel's filter; `nonneg` is no syntax of the
    language): the sums are made readable before the cut. Checked at every cut length."""
    from proofs.proof_file import parse_proof

    monkeypatch.setattr(proof_checker, "decide", lambda judgement, **_: Verdict(
        "unknown", None, None, "nothing found", 0.0))
    nested = parse_proof(NESTED_SETS.encode(), "nest.toml")
    report = check_step(nested, nested.step("t"))
    assert report.status == "unknown" and "characters)" in report.message, report.message
    negated = report.message[report.message.index("the negated claim "):]
    assert "sum(j in " in negated or "sum(k in " in negated, negated
    canonical = ("sum(#2 in 0..N - 1 where nonneg(sum(#1 in 1..N where nonneg(y[#1] - c), "
                 "pos(2*c - y[#1]): y[#1]) - y[#2]): y[#2]) >= 0")
    for limit in range(1, len(canonical) + 1):  # a cut anywhere, in a header too
        cut = proof_checker.brief_text(canonical, limit)
        for notation in ("nonneg(", "pos(", "zero(", "#"):
            assert notation not in cut, (limit, cut)
    assert proof_checker.brief_text(canonical, 1000) == (
        "sum(j in 0..N - 1 where sum(k in 1..N where y[k] - c >= 0 and 2*c - y[k] > 0, y[k]) "
        "- y[j] >= 0, y[j]) >= 0")
    for message in (report.message, report.statement_text):
        assert "nonneg(" not in message and "sum(#" not in message


def test_a_time_cap_leaves_the_step_unknown_and_says_so() -> None:
    step = Step("s", (), rel("dot(w, w) >= 0"))
    report = check_step(proof(step), step, guard=1e-9)
    assert report.status == "unknown" and "time cap" in report.message
    assert report.certificates == ()
    # truth14: the advice blamed the budget ("no certificate within the budget") for a
    # search the clock cut short
    assert report.message.startswith("no verdict before the time cap: the clock")
    assert "within the budget" not in report.message
    # newcomer 31: a user of `check` who gave no --time-limit was told of the option only,
    # and "a larger time limit, or none", which check's option (0 < S <= 3600) cannot give
    assert "which `check` and `explain` apply by default" in report.message
    assert "or none" not in report.message


def test_an_unknown_goal_says_what_is_missing_first() -> None:
    """Issue 16, messages: a division's side condition names the positivity fact it lacks;
    any other unknown goal names what may help (hint, split, budget) before what was tried."""
    from proofs.proof_file import parse_proof

    text = b"""
title = "obstacles"
scalars = ["a", "b", "t"]
naturals = ["t"]

[[step]]
id = "needs-positivity"
given = ["a >= 0"]
claim = "a/b >= 0"

[[step]]
id = "needs-integrality"
given = []
claim = "t*(t - 1) >= 0"

[[step]]
id = "needs-a-square"
given = []
claim = "a**4*b**2 + a**2*b**4 + 1 >= 3*a**2*b**2"
"""
    report = {s.step.id: s for s in check_proof(parse_proof(text, "obstacles.toml")).steps}
    positivity = report["needs-positivity"]
    assert positivity.status == "unknown"
    assert "denominator b > 0: missing a positivity fact" in positivity.message
    assert "shows b > 0" in positivity.message
    integrality = report["needs-integrality"]  # true for naturals; certificates are real
    assert integrality.status == "unknown"
    assert integrality.message.startswith("the claim fails only at values that are not natural")
    assert "t = 1/2 is not a natural number" in integrality.message
    # said only because every natural t was covered (red team 9: it was said of a step
    # false at t = 5, tests/test_verify/search/test_search_naturals.py)
    assert "no natural value of t refutes it" in integrality.message
    hard = report["needs-a-square"]
    assert hard.status == "unknown"
    assert hard.message.startswith("no certificate within the budget: a hint")
    assert "linear combination: no certificate" in hard.message  # what was tried, after


def test_a_run_that_outgrows_its_bits_is_given_up_not_followed() -> None:
    """Red team 21 F2: `s := s*s` from 2 doubles the bits of s at every update, and the
    replay of 32 updates ran past every cap (a true invariant, `(s - 3)**2 >= 1` on 2, 4, 16,
    256, ...). The run is given up once its state holds more than `RUN_BITS` bits."""
    from verify.search.counterexamples import refuting_run

    s_ = scalar("s")
    rule = kernel.Induction("t", {"s": sympy.Integer(2)}, {"s": s_ * s_})
    claim = kernel.Rel((s_ - 3)**2, ">=", sympy.Integer(1), "(s - 3)**2 >= 1")
    point = Counterexample({"s": Fraction(-7), "t": Fraction(0)}, {})
    assert refuting_run(rule, claim, point) is None  # stopped at 2**(2**14): not 32 updates
    step = Step("sq", (), rel_scalar("(s - 3)**2 >= 1"),
                rule=Induction("t", {"s": sympy.Integer(2)}, {"s": s_ * s_}, ()))
    report = check_step(Proof("T", (), ("t", "s"), (step,)), step)
    assert report.status == "unknown"


NATURAL_EXAMPLE = b"""
title = "a per-update natural"
scalars = ["s", "t", "k"]
naturals = ["t", "k"]
[[step]]
id = "r2"
claim = "s <= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + k" }
given = ["k*(k - 1) <= 0", "4*k**2 - 4*k + 1 >= 1/2"]
constants = []
"""


def test_a_run_on_a_natural_example_refutes_the_induction() -> None:
    """Red team 26: the run from s = 0 with one update on the natural k = 1 makes s = 1 > 0,
    but its last state was handed to the kernel without k (a per-update name), which checks
    every natural at every state ("scalar k is not assigned"): the step stayed unknown, its
    point (the base itself) said to be "one no run reaches"."""
    from proofs.proof_file import parse_proof
    from verify.proof_checker import check_proof

    (report,) = check_proof(parse_proof(NATURAL_EXAMPLE, "n.toml"), store=None).steps
    assert report.status == "refuted", report.message
    assert report.message.startswith("refuted by a run from the start: 1 update, on k = 1")


#: Newcomer 31 F4 (eta-mistakes.toml, cut down): `nonzero-t0` is false at w_0 = 0, t = 0,
#: the start of every run of `progress`; `nonzero` excludes it (t >= 1) and is true.
AT_THE_START = progress_induction("false at the start of the runs it uses") + b"""
[[step]]
id = "nonzero-t0"
uses = ["progress"]
given = ["g > 0", "eta > 0"]
claim = "norm2(w)*norm2(u) >= eta**2*g**2"

[[step]]
id = "nonzero"
uses = ["progress"]
given = ["g > 0", "eta > 0", "t >= 1"]
claim = "norm2(w)*norm2(u) >= eta**2*g**2"

[[step]]
id = "progress-nonnegative"
uses = ["progress"]
given = ["g > 0", "eta > 0"]
claim = "dot(w, u) >= 0"

[[step]]
id = "bound-wrong-way"
uses = ["progress-nonnegative"]
given = ["g > 0"]
claim = "t >= norm2(u)/g**2"
"""


def test_a_step_false_at_the_start_of_its_runs_is_refuted_there() -> None:
    """Newcomers 27 F5 and 31 F4: a step using an induction, false at its start (t = 0,
    w = 0), stayed unknown, its point "maybe one no run reaches", though it is the state of
    the run of no update. Now the kernel checks that start (`kernel.refute_start`) and the
    step is refuted; through a used step too (`bound-wrong-way` reads `progress` through
    `progress-nonnegative`). A true step whose hypotheses exclude the start (`t >= 1`) is
    never."""
    from proofs.proof_file import parse_proof

    report = check_proof(parse_proof(AT_THE_START, "start.toml"), store=None)
    by_id = {r.step.id: r for r in report.steps}
    for name in ("nonzero-t0", "bound-wrong-way"):
        refuted = by_id[name]
        assert refuted.status == "refuted", refuted.message
        assert "refuted at the start of the runs it speaks of (t = 0, w = (0)" in refuted.message
        point = refuted.counterexample
        assert point is not None and point.scalars["t"] == 0
        assert set(point.vectors["w"]) == {0} and refuted.refutation.label == "start"
    assert by_id["nonzero"].status != "refuted"
    # replayed from the evidence a worker sends (its Refutation is not pickled): the same
    again = proof_checker.replay(parse_proof(AT_THE_START, "start.toml"),
                                 [proof_checker.detached(r) for r in report.steps])
    assert [r.status for r in again] == [r.status for r in report.steps]
    assert {r.step.id: r.counterexample for r in again} == {
        r.step.id: r.counterexample for r in report.steps}


#: `unknown` speaks of progress's runs and is unknown (true at their start, w = 0, t = 0);
#: `after` uses it and is false at that start (norm2(u) >= 0 > -1).
THROUGH_UNKNOWN = progress_induction("refuted at the start through an unknown step") + b"""
[[step]]
id = "unknown"
uses = ["progress"]
given = ["g > 0", "eta > 0"]
claim = "norm2(w) <= t"

[[step]]
id = "after"
uses = ["unknown"]
given = ["g > 0", "eta > 0"]
claim = "norm2(u) <= -1"
"""


def test_a_step_refuted_at_the_start_through_an_unknown_step_is_refuted_on_replay() -> None:
    """The kernel knows the starts only of a statement it made or handed out (red team
    adv32b O1, kern33): a worker's detached statement of the unknown `unknown` is neither,
    so replay hands the kernel its own reading of that step, whose starts it knows; with the
    detached statement `after` came back 'kernel rejected on replay'."""
    from proofs.proof_file import parse_proof

    proof = parse_proof(THROUGH_UNKNOWN, "through.toml")
    report = check_proof(proof, store=None)
    assert [r.status for r in report.steps] == ["proved", "unknown", "refuted"]
    sent = [pickle.loads(pickle.dumps(proof_checker.detached(r))) for r in report.steps]
    again = proof_checker.replay(proof, sent)
    assert [r.status for r in again] == ["proved", "unknown", "refuted"], again[2].message
    assert again[2].refutation is not None and again[2].refutation.label == "start"


def test_a_case_false_at_the_start_is_refuted_and_a_counter_of_one_is_not() -> None:
    """Newcomer 19's `R2 >= 0` split on the counter (case k == 0: R2 = -1 at w = 0, the run
    of no update, where no update fact bounds R2) is refuted at the start; a claim false only
    past the start (`norm2(w) <= k/2` over updates of norm2(x) <= R2, R2 >= 1) is not."""
    from cases.inductions import HEADER, norm_induction

    from proofs.proof_file import parse_proof

    def radius(claim: str, given: str = "") -> kernel.Refutation | None:
        text = ('title = "r"\n' + HEADER + norm_induction("norm-after-k") + f"""
[[step]]
id = "radius"
uses = ["norm-after-k"]
given = [{given}]
claim = "{claim}"
split = {{ on = "k" }}
""")
        return check_proof(parse_proof(text.encode(), "r.toml"), store=None).steps[1].refutation

    refuted = radius("R2 >= 0")
    assert refuted is not None and refuted.label == "start"
    assert refuted.counterexample.scalars["k"] == 0 and refuted.counterexample.scalars["R2"] < 0
    assert radius("norm2(w) <= k/2", '"R2 >= 1"') is None


def test_explain_says_the_start_refutes_the_step(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The judgement whose point, moved to the start, refutes the step is `refuted`, its
    point a counterexample at the start (`explain` said "it refutes nothing: it may be one no
    run reaches" of the very point that refutes the step)."""
    import json

    from verify.cli import main

    path = tmp_path / "start.toml"
    path.write_bytes(AT_THE_START)
    assert main(["explain", str(path), "nonzero-t0"]) == 1
    out = capsys.readouterr().out
    assert "counterexample at the start of the runs the step speaks of (exact; re-checked by " \
        "the kernel" in out and "refutes nothing" not in out
    assert main(["explain", str(path), "nonzero-t0", "--json"]) == 1
    (judgement,) = json.loads(capsys.readouterr().out)["judgements"]
    assert judgement["status"] == "refuted" and judgement["counterexample"]["refutes"] is True
    assert judgement["counterexample"]["refutes_nothing"] is None
    main(["explain", str(path), "nonzero", "--json"])  # true, its hypotheses exclude starts
    explained = json.loads(capsys.readouterr().out)
    assert explained["status"] != "refuted"
    assert all(j["status"] != "refuted" for j in explained["judgements"])


# -- inductions refuted by a run from their base (`refuting_run`, `kernel.refute_run`): the
# step case's point replayed, or, when that run never breaks the invariant, a walk to the
# point's state and then its example (newcomer 34 N5: the margin perceptron's norm bound
# without its factor 2 was left unknown); the shared table `cases.steps.RUNS` gives each
# step its expected verdict.

@pytest.fixture(scope="module")
def runs_checked() -> proof_checker.ProofReport:
    return check_proof(parse_proof(RUNS.encode(), "runs.toml"))


def _runs_by_id(report: proof_checker.ProofReport) -> dict[str, object]:
    return {s.step.id: s for s in report.steps}


@pytest.mark.parametrize(("step_id", "expected"), sorted(RUNS_EXPECTED.items()))
def test_each_run_step_gets_its_expected_verdict(runs_checked, step_id: str, expected: str) -> None:
    report = _runs_by_id(runs_checked)[step_id]
    if expected == "not-proved":
        assert report.status != "proved", report.message
    else:
        assert report.status == expected, report.message


def test_the_runs_table_covers_every_step_of_its_file(runs_checked) -> None:
    assert {s.step.id for s in runs_checked.steps} == set(RUNS_EXPECTED)


def test_the_margin_bound_without_its_2_is_refuted_by_a_walk_that_says_its_examples(
        runs_checked) -> None:
    """The refuting run: two updates on one example reach the point's state, the third on the
    point's own; the message names each example with its updates (not 'each on' the first),
    and the run, replayed here by hand from w = 0, breaks `norm2(w) <= t*(beta + R**2)` at
    its last state only, every update fact holding on the way."""
    report = _runs_by_id(runs_checked)["margin-norm-without-2"]
    assert report.refutation is not None and report.run
    assert "updates: 2 on " in report.message and ", then 1 on " in report.message, \
        report.message
    assert "a walk from the base to the step case's point's state" in report.message
    assert "each on" not in report.message
    beta, radius = (report.run[0].scalars[n] for n in ("beta", "R"))
    w = (Fraction(0),) * len(report.run[0].vectors["x"])
    for t, state in enumerate(report.run[:-1]):
        x, y = state.vectors["x"], state.scalars["y"]
        assert state.vectors["w"] == w and state.scalars["t"] == t
        assert sum(a * a for a in w) <= t * (beta + radius**2)  # the invariant holds
        assert y**2 == 1 and y * sum(a * b for a, b in zip(w, x, strict=True)) <= beta
        assert sum(a * a for a in x) <= radius**2 and beta >= 0
        w = tuple(a + y * b for a, b in zip(w, x, strict=True))
    assert report.run[-1].vectors["w"] == w
    assert sum(a * a for a in w) > (len(report.run) - 1) * (beta + radius**2)
    assert len({state.vectors["x"] for state in report.run[:-1]}) > 1  # the examples vary


def test_explain_says_the_run_walks_to_the_point(tmp_path, capsys) -> None:
    """explain's 'Not alone' names the run it shows: a walk to the point's state, then the
    point's example; not 'the run made from the base on this point's example' (whose
    examples the states it prints contradict)."""
    from verify.cli import main

    path = tmp_path / "runs.toml"
    path.write_text(RUNS)
    assert main(["explain", str(path), "margin-norm-without-2"]) == 1
    out = capsys.readouterr().out
    assert ("Not alone: the run made on a walk from the base to this point's state, then on "
            "this point's example, reaches a state where the invariant fails") in out, out
    states = re.findall(r"^    state \d+: .*$", out, re.M)
    assert len(states) == 4, states


def test_a_walk_needs_a_natural_count_of_updates_and_a_vector_to_solve_for() -> None:
    """`walk` is empty (the replayed run is the only one) when the point's counter is no
    natural in 1..limit, or when no update reads a per-update vector; else one example per
    update, each moving w an equal part of the way to the point's w."""
    from verify.kernel.certificates import Point
    from verify.search.counterexamples import walk

    y = sympy.Symbol("y")
    rule = kernel.Induction("t", {"w": {}}, {"w": {"w": sympy.Integer(1), "x": y}})
    point = Counterexample({"t": Fraction(2), "y": Fraction(-1)},
                           {"w": (Fraction(-2),), "x": (Fraction(1, 2),)})
    steps = walk(rule, point)
    assert len(steps) == 2
    start = Point(Counterexample({"t": Fraction(0), "y": Fraction(-1)},
                                 {"w": (Fraction(0),), "x": (Fraction(0),)})).world
    assert steps[0](start) == {"x": (Fraction(1),)}
    for t in (Fraction(1, 2), Fraction(0), Fraction(40)):
        assert walk(rule, Counterexample({**point.scalars, "t": t}, point.vectors)) == ()
    scaling = kernel.Induction("t", {"w": {}}, {"w": {"w": sympy.Integer(2)}})
    assert walk(scaling, point) == ()


WALK_READS_ITS_EXAMPLE = b"""
title = "a walk whose update reads its example twice"
vectors = ["w", "x"]
scalars = ["y", "t"]
naturals = ["t"]
[[step]]
id = "grows"
claim = "norm2(w) <= t"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "(1 + norm2(x))*w + y*x" }
given = ["y**2 == 1"]
constants = []
"""


def test_a_walk_reaches_the_points_state_or_is_not_made() -> None:
    """adv35: `walk` solved for the example as if the rest of the update did not read it, so
    with `(1 + norm2(x))*w + y*x` its second update, made on x = 0 from w = -1, left w at -1,
    not the point's -2, and the run refuting_run then made was no walk to the point's state,
    though the message and explain said so. A walk is made only where its updates, applied
    as the run applies them, reach the point's iterated values."""
    from verify.kernel import run_value
    from verify.kernel.certificates import Point
    from verify.search.counterexamples import walk

    proof = parse_proof(WALK_READS_ITS_EXAMPLE, "walk.toml")
    rule = proof_checker.sequent(proof, proof.steps[0], ()).rule
    point = Counterexample({"t": Fraction(2), "y": Fraction(-1)},
                           {"w": (Fraction(-2),), "x": (Fraction(1, 2),)})
    steps = walk(rule, point)
    start = Counterexample({"t": Fraction(0), "y": Fraction(-1)},
                           {"w": (Fraction(0),), "x": point.vectors["x"]})
    states = [start]
    for k, made in enumerate(steps):
        here = Counterexample(states[-1].scalars, {**states[-1].vectors,
                                                   **made(Point(states[-1]).world)})
        w = run_value(Point(here).world, rule.step["w"])
        states.append(Counterexample({**here.scalars, "t": Fraction(k + 1)},
                                     {**here.vectors, "w": w}))
    assert not steps or states[-1].vectors["w"] == point.vectors["w"], states[-1]


WALK_WITH_A_SCALAR = b"""
title = "a walk beside an iterated scalar"
vectors = ["w", "x"]
scalars = ["y", "t", "R", "beta", "c"]
naturals = ["t"]
[[step]]
id = "c-plus"
claim = "norm2(w) <= t*(beta + R**2) + c - t"
[step.induction]
variable = "t"
base = { w = "0*w", c = "0" }
step = { w = "w + y*x", c = "c + 1" }
given = ["y**2 == 1", "y*dot(w, x) <= beta", "norm2(x) <= R**2", "beta >= 0"]
constants = ["R", "beta"]
"""


@pytest.mark.parametrize("c", [Fraction(2), Fraction(5)])
def test_a_walk_said_to_reach_the_points_state_reaches_every_iterated_name(c: Fraction) -> None:
    """adv35: the walk moves vectors only; an iterated scalar (`c = c + 1`) is at its count
    of updates, so with the point's c = 5 the run refuting_run made passed w = -2 at t = 2
    with c = 2, and was said to be 'a walk from the base to the step case's point's state'.
    Where the point's c is the run's (2) the walk's run still refutes."""
    from verify.search.counterexamples import refuting_run

    proof = parse_proof(WALK_WITH_A_SCALAR, "walk.toml")
    seq = proof_checker.sequent(proof, proof.steps[0], ())
    point = Counterexample({"t": Fraction(2), "y": Fraction(-1), "R": Fraction(1),
                            "beta": Fraction(1), "c": c},
                           {"w": (Fraction(-2),), "x": (Fraction(1, 2),)})
    run = refuting_run(seq.rule, seq.claim, point)
    walked = run is not None and len({s.vectors["x"] for s in run[:-1]}) > 1
    assert walked or c != 2
    if walked:
        assert run[2].scalars["c"] == c and run[2].vectors["w"] == point.vectors["w"]


WALK_THAT_FAILS_ON_THE_WAY = b"""
title = "a walk that fails on the way"
vectors = ["w", "x", "u"]
scalars = ["y", "t"]
naturals = ["t"]
[[step]]
id = "toward"
claim = "norm2(w) - 2*t*dot(u, w) - 2*t + t**2 >= 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = []
constants = ["u"]
"""


def test_a_run_that_fails_on_the_walk_is_said_to_fail_on_the_way() -> None:
    """fix35 F2 (review): from the point t = 2, y = 1, w = (4), x = (-1), u = (1) the replay
    on x = (-1) never breaks the invariant, and the walk's first update, on x = (2), does:
    the run stops there, one update on no example of the point's. It was printed as 'the
    step case's point replayed from the base', and explain said 'the run made from the base
    on this point's example': both untrue. Both now read `run_made` ('toward')."""
    from verify.render.text import _Style
    from verify.search.counterexamples import refuting_run

    proof = parse_proof(WALK_THAT_FAILS_ON_THE_WAY, "toward.toml")
    step = proof.steps[0]
    seq = proof_checker.sequent(proof, step, ())
    point = Counterexample({"t": Fraction(2), "y": Fraction(1)},
                           {"w": (Fraction(4),), "x": (Fraction(-1),), "u": (Fraction(1),)})
    run = refuting_run(seq.rule, seq.claim, point)
    assert run is not None and len(run) == 2 and run[0].vectors["x"] == (Fraction(2),)
    kernel.refute_run(seq, run)  # the refutation itself is sound
    message = proof_checker._run_message(seq.rule, point, run, seq.claim)
    assert message.startswith("refuted by a run from the start: 1 update, on y = 1, x = (2), "
                              "then the invariant fails"), message
    assert "replayed" not in message and "on which the invariant fails before it gets " \
        "there" in message, message
    report = check_step(proof, step)
    goal = next(g for g in report.goals if g.goal.label.startswith("step"))
    goal = replace(goal, verdict=replace(goal.verdict, counterexample=point))
    style = _Style(None, None, {}, step, by_run=goal.goal.label, run=run)  # type: ignore[arg-type]
    said = style.why_not(goal)
    assert "on this point's example" not in said and "replayed" not in said, said
    assert ("Not alone: the run made on a walk from the base toward this point's state "
            "reaches a state where the invariant fails before it gets there") in said, said
