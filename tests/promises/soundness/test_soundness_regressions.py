"""Proof files that once made `novikoff check` say something false, through the whole pipeline.

Issue 12 (rules with a stated semantics) and issue 19 (a used induction brings its context):
each file is checked end to end (parser, frontend, prover, kernel) and must never come out
proved when false, nor refuted when true. tests/test_kernel_rules.py tests the same rules on
the kernel alone.
"""

from __future__ import annotations

import json

import pytest
from cases.inductions import NEVER_UPDATES

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.cli import main
from verify.proof_checker import ProofReport, check_proof

CAPTURE = """
title = "Invariant that mentions the example of the update"
vectors = ["{w}", "{x}"]
scalars = ["{y}", "t"]

[[step]]
id = "capture"
given = []
claim = "{claim}"
[step.induction]
variable = "t"
base = {{ {w} = "0*{w}" }}
step = {{ {w} = "{w} + {y}*{x}" }}
given = ["{y}**2 == 1", "{y}*dot({w}, {x}) <= 0"]

[[step]]
id = "at-most-one-update"
given = ["{y}**2 == 1", "{y}*dot({w}, {x}) <= 0", "t >= 0", "norm2({x}) >= 1"]
claim = "t <= 0"
uses = ["capture"]
"""

NATURALS_19 = """
title = "An induction claim used outside the naturals"
scalars = ["t"]
{naturals}
[[step]]
id = "a"
claim = "t*(t-1) >= 0"
[step.induction]
variable = "t"
base = {{}}
step = {{}}
{given}
[[step]]
id = "b"
uses = ["a"]
given = ["t >= 0", "t <= 1"]
claim = "t**2 >= t"

[[step]]
id = "c"
uses = ["a"]
claim = "t*(t-1)*(t-2) >= 0"
"""


def check(text: str) -> ProofReport:
    return check_proof(parse_proof(text.encode(), "regression.toml"))


def statuses(report: ProofReport) -> dict[str, str]:
    return {s.step.id: s.status for s in report.steps}


@pytest.mark.parametrize(
    ("names", "claim", "fresh"),
    [
        ({"w": "w", "x": "x", "y": "y"}, "dot(w, x) == t*y*norm2(x)", "x, y"),
        ({"w": "v", "x": "e", "y": "lab"}, "dot(v, e) == t*lab*norm2(e)", "e, lab"),
        ({"w": "w", "x": "x", "y": "y"}, "y*t*t >= 0", "y"),  # only the label
    ],
    ids=["issue-12", "renamed", "label-only"],
)
def test_an_invariant_about_the_updated_example_is_refused(
    names: dict[str, str], claim: str, fresh: str, capsys: pytest.CaptureFixture[str],
    tmp_path: object,
) -> None:
    earlier = CAPTURE.format(claim=claim, **names)  # no `constants`: the earlier language
    strict = earlier.replace('<= 0"]\n', '<= 0"]\nconstants = []\n', 1)
    assert strict != earlier
    with pytest.raises(ProofFileError, match=f"step capture: the invariant .* mentions {fresh}"):
        check(strict)
    # read as the earlier language, the names are not inferred constant either: the update
    # fact reads them with the iterate, so they are the example of the update at hand
    about = ".*; ".join(f"{n}: the update fact `{names['y']}\\*dot" for n in fresh.split(", "))
    with pytest.raises(ProofFileError, match=f"step capture: an induction without `constants` "
                       f".*mentions \\({about}.*not inferred constant"):
        check(earlier)
    for text, said in ((strict, "fresh"), (earlier, "not inferred constant")):
        path = tmp_path / "capture.toml"  # type: ignore[operator]
        path.write_text(text)
        assert main(["check", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "capture" in err and said in err


def test_declaring_the_example_constant_states_what_is_then_proved() -> None:
    """With x, y declared constant, the invariant is true of runs that update on one example
    only; the statement says so, and the consequence is then a true theorem about them."""
    text = CAPTURE.format(claim="dot(w, x) == t*y*norm2(x)", w="w", x="x", y="y").replace(
        'given = ["y**2 == 1", "y*dot(w, x) <= 0"]\n',
        'given = ["y**2 == 1", "y*dot(w, x) <= 0"]\nconstants = ["x", "y"]\n',
    ).replace('scalars = ["y", "t"]', 'scalars = ["y", "t"]\nnaturals = ["t"]')
    report = check(text)
    capture = report.steps[0]
    assert capture.status == "proved"
    assert "(x, y constant)" in capture.statement_text
    # at-most-one-update is then a statement about those runs, with the invariant as hypothesis
    assert "dot(w, x) == t*y*norm2(x) [capture]" in report.steps[1].statement_text


def test_issue_19_a_claim_for_naturals_is_not_used_for_reals() -> None:
    """`naturals = []` says t is real: the claim proved for natural t is not used there.
    (A file without the key is of the earlier language: t is inferred natural, and stated.)"""
    report = check(NATURALS_19.format(naturals="naturals = []", given=""))
    assert statuses(report) == {"a": "proved", "b": "unknown", "c": "unknown"}
    assert all("natural t only" in s.message for s in report.steps[1:])
    earlier = check(NATURALS_19.format(naturals="", given=""))
    assert earlier.steps[1].status == "proved"
    assert earlier.steps[1].statement_text.startswith("t in Nat")


def test_issue_19_with_t_natural_b_is_true_and_c_is_not_refuted() -> None:
    report = check(NATURALS_19.format(naturals='naturals = ["t"]', given=""))
    b, c = report.steps[1:]
    # t in {0, 1}: t**2 >= t holds; the statement shown says t is natural
    assert b.status == "proved" and b.statement_text.startswith("t in Nat")
    # t*(t-1)*(t-2) >= 0 holds for every natural t; over the reals it fails at t = 3/2, a
    # point that refutes nothing (nor would a natural point no run reaches)
    assert c.status == "unknown" and "not refuted" in c.message


def test_issue_19_the_induction_context_is_shown_where_its_claim_is_used() -> None:
    report = check(NATURALS_19.format(naturals='naturals = ["t"]', given='given = ["t <= 5"]'))
    a, b, _ = report.steps
    assert "each with t <= 5" in a.statement_text
    assert "t*(t-1) >= 0 [a]" in b.statement_text


def test_json_carries_the_statement_and_vacuity(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "vacuous.toml"  # type: ignore[operator]
    path.write_text('title = "v"\nscalars = ["t"]\nnaturals = ["t"]\n'
                    '[[step]]\nid = "never"\nclaim = "t <= 0"\n'
                    '[step.induction]\nvariable = "t"\nbase = {}\nstep = {}\n'
                    'given = ["0 > 1"]\n'
                    '[[step]]\nid = "plain"\ngiven = ["t >= 1"]\nclaim = "t >= 0"\n')
    assert main(["check", str(path), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert [s["vacuous"] for s in steps] == [True, False]
    assert "each with 0 > 1" in steps[0]["statement"]
    assert main(["check", str(path)]) == 0
    assert "VACUOUS" in capsys.readouterr().out


def test_a_base_that_mentions_the_counter_is_refused() -> None:
    text = ('title = "b"\nvectors = ["w", "u"]\nscalars = ["t"]\n[[step]]\nid = "b"\n'
            'claim = "dot(w, u) == t*dot(u, u)"\n[step.induction]\nvariable = "t"\n'
            'base = { w = "t*u" }\nstep = { w = "w + u" }\nconstants = ["u"]\n')
    with pytest.raises(ProofFileError, match="base of w mentions t"):
        check(text)


def test_a_true_division_under_induction_is_not_refuted() -> None:
    text = ('title = "d"\nscalars = ["t"]\nnaturals = ["t"]\n[[step]]\nid = "r"\n'
            'claim = "1/(2*t - 1) >= -2"\n[step.induction]\nvariable = "t"\nbase = {}\n'
            'step = {}\n')
    (step,) = check(text).steps
    assert step.status != "refuted"
    base = [g for g in step.goals if g.goal.label.startswith("base")]
    assert [g.verdict.status for g in base] == ["proved"]  # 1/(0 - 1) >= -2, defined at t = 0


def test_a_cancelled_division_is_not_proved_where_it_is_undefined() -> None:
    text = ('title = "x"\nscalars = ["x", "y"]\n[[step]]\nid = "a"\ngiven = ["x == 0"]\n'
            'claim = "y*x/x == y"\n')
    assert check(text).steps[0].status == "unknown"


def test_a_base_that_divides_by_zero_is_not_proved_and_does_not_crash() -> None:
    text = ('title = "z"\nscalars = ["t"]\nnaturals = ["t"]\n[[step]]\nid = "r"\n'
            'claim = "1/t >= 0"\n[step.induction]\nvariable = "t"\nbase = {}\nstep = {}\n')
    (step,) = check(text).steps
    assert step.status == "unknown" and "divides by zero" in step.message


# Issue 16: the quantifier rules, each driven by a proof file that would prove a false
# statement if the rule were read loosely.

QUANTIFIERS = """
title = "Quantifier abuse"
vectors = ["w", "a", "b"]
scalars = ["B", "t", "n", "s", "d"]
naturals = ["n"]

[[step]]
id = "some"
claim = "B >= 1"
witness = {{ B = "1" }}

[[step]]
id = "square"
given = ["n >= 0"]
claim = "n**2 >= n"
hints = ["n - 1"]
{extra}
"""


def quantifiers(extra: str) -> ProofReport:
    return check_proof(parse_proof(QUANTIFIERS.format(extra=extra).encode(), "q.toml"))


def test_an_existential_is_not_read_as_a_universal() -> None:
    # "exists B: B >= 1" must not give "B >= 1" for every B (false at B = 0).
    report = quantifiers('[[step]]\nid = "every"\nclaim = "B >= 1"\nuses = ["some"]\n')
    assert report.steps[0].status == "proved" and "exists B" in report.steps[0].statement_text
    every = report.steps[-1]
    assert every.status == "unknown" and "claims or assumes some B" in every.message


def test_an_instance_of_a_claim_for_naturals_keeps_integrality() -> None:
    # n**2 >= n holds for naturals only; n := t with t real would be false at t = 1/2.
    with pytest.raises(ProofFileError, match="natural n can be replaced by a name only"):
        quantifiers('[[step]]\nid = "half"\nclaim = "t**2 >= t"\n'
                    'uses = [{ step = "square", with = { n = "2*t" } }]\n')
    report = quantifiers('[[step]]\nid = "half"\nclaim = "t**2 >= t"\n'
                         'uses = [{ step = "square", with = { n = "t" } }]\n')
    assert report.steps[-1].status == "unknown" and "natural t" in report.steps[-1].message


def test_an_instance_may_not_divide() -> None:
    with pytest.raises(ProofFileError, match="must not divide"):
        quantifiers('[[step]]\nid = "inv"\nclaim = "B >= 0"\n'
                    'uses = [{ step = "square", with = { n = "1/B" } }]\n')


def test_a_false_scalar_invariant_is_not_proved() -> None:
    # s := s + d with d <= 2 does not keep s <= t: the step is not inductive.
    report = quantifiers('[[step]]\nid = "sum"\nclaim = "s <= t"\n[step.induction]\n'
                         'variable = "t"\nbase = { s = "0" }\nstep = { s = "s + d" }\n'
                         'given = ["d <= 2"]\n')
    assert report.steps[-1].status != "proved"
    with pytest.raises(ProofFileError, match="n cannot be iterated"):
        quantifiers('[[step]]\nid = "nat"\nclaim = "n >= 0"\n[step.induction]\n'
                    'variable = "t"\nbase = { n = "0" }\nstep = { n = "n - 1" }\n')


STUCK = """
title = "An induction whose runs may never leave their start"
vectors = ["w", "x", "u"]
scalars = ["y", "t", "R"]

[[step]]
id = "growth"
claim = "dot(w, w) <= t*R**2"
[step.induction]
variable = "t"
base = {{ w = "{start}" }}
step = {{ w = "w + y*x" }}
given = ["y**2 == 1", "y*dot(x, w) {rule} 0", "dot(x, x) <= R**2"]
constants = ["R", "u"]
"""


@pytest.mark.parametrize(("start", "rule", "stuck"), [
    ("0*w", "<", True),    # y<w, x> < 0 fails at w = 0: no run makes an update
    ("0*w", "<=", False),  # the perceptron's rule: the first update is at w = 0
])
def test_an_induction_no_run_can_leave_is_reported_vacuous(start: str, rule: str,
                                                            stuck: bool) -> None:
    """Issue 26.5: joeyonng-online `norm-unrolled` updates only when y<x, w> < 0, from w = 0,
    so no run makes a single update; it was reported `vacuous: false`."""
    (report,) = check(STUCK.format(start=start, rule=rule)).steps
    assert report.status == "proved"
    assert report.vacuous is stuck and (report.stuck is not None) is stuck
    assert report.vacuity is None  # its hypotheses alone are satisfiable
    if stuck:
        assert report.vacuity_reason is not None
        assert report.vacuity_reason.startswith("no run leaves its start state")
        assert report.message.startswith("VACUOUS: no run leaves its start state")


def test_the_stuck_source_step_is_vacuous_in_every_output(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "joeyonng-online", "--json"]) == 1
    steps = {s["id"]: s for s in json.loads(capsys.readouterr().out)["steps"]}
    assert steps["norm-unrolled"]["vacuous"] is True
    assert steps["norm-unrolled"]["vacuity"].startswith("no run leaves its start state")
    assert steps["norm-unrolled-corrected"]["vacuous"] is False
    assert steps["norm-unrolled-corrected"]["vacuity"] is None
    assert main(["check", "joeyonng-online"]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if " norm-unrolled " in x)
    assert "VACUOUS: no run leaves its start state" in line
    assert main(["explain", "joeyonng-online/norm-unrolled"]) == 0
    assert "WARNING: vacuous — no run leaves its start state" in capsys.readouterr().out


LEMMA_THEN_INDUCTION = """
title = "lemma then induction"
vectors = ["w", "x"]
scalars = ["y", "t", "R2"]
naturals = ["t"]

[[step]]
id = "one-update"
given = ["y**2 == 1", "y*dot(w, x) <= 0", {lemma_given}]
claim = "norm2(w + y*x) <= norm2(w) + R2"

[[step]]
id = "norm-growth"
claim = "{claim}"
uses = ["one-update"]
[step.induction]
variable = "t"
base = {{ w = "0*w" }}
step = {{ w = "w + y*x" }}
given = ["y**2 == 1", "y*dot(w, x) <= 0", "dot(x, x) <= R2"]
constants = ["R2"]
"""


def test_an_induction_takes_a_one_update_lemma_as_its_step() -> None:
    """Issue 27.7: published proofs go 'a lemma about one update, then an induction'; the
    induction using the lemma exited 2 (its claim read as a hypothesis at every update)."""
    report = check(LEMMA_THEN_INDUCTION.format(lemma_given='"dot(x, x) <= R2"',
                                               claim="norm2(w) <= t*R2"))
    assert statuses(report) == {"one-update": "proved", "norm-growth": "proved"}
    assert "and so at each update, by lemma, norm2(w + y*x) <= norm2(w) + R2 [one-update]" in \
        report.steps[1].statement_text
    false = check(LEMMA_THEN_INDUCTION.format(lemma_given='"dot(x, x) <= R2"',
                                              claim="norm2(w) <= 0"))
    assert statuses(false)["norm-growth"] != "proved"  # the lemma gives what it says only


def test_a_lemma_whose_hypothesis_no_update_gives_is_refused() -> None:
    with pytest.raises(ProofFileError, match="none of the update's facts"):
        check(LEMMA_THEN_INDUCTION.format(lemma_given='"2*dot(x, x) <= R2"',
                                          claim="norm2(w) <= t*R2"))


def test_an_induction_whose_update_step_contradicts_says_so_not_its_hypotheses() -> None:
    """Red team 10: updating on y<w, x> < 0 while the invariant says |w|^2 <= 0 makes the
    update step's hypotheses contradictory, not the step's own (R2 >= 0): it was reported
    `VACUOUS: the hypotheses are contradictory`."""
    (report,) = check(NEVER_UPDATES).steps
    assert report.status == "proved" and report.vacuity is not None
    assert report.vacuity_reason is not None
    assert report.vacuity_reason.startswith("the update step's hypotheses (the step's, its "
                                            "invariant and the update facts) are contradictory")
    assert report.message.startswith("VACUOUS: the update step's hypotheses")
    # review 11: with the step's own hypotheses contradictory the base is not claimed either
    assert report.vacuity_reason.endswith("so the step claims at most its invariant at the "
                                          "start state (nothing, if its own hypotheses "
                                          "contradict)")


CASE_SUM_RULE = """title = "T"
scalars = ["a", "b", "j", "s", "t"]
naturals = ["t"]
indexed = ["a", "b"]
[sets]
P = {{ index = "j", range = "1..2", where = ["a[j] >= 0"] }}
Q = {{ index = "j", range = "1..1", where = ["a[j] >= 0"] }}
[[step]]
id = "s"
given = ["{given}"]
claim = "{claim}"
split = {{ on = "a[2]", zero = false }}
{induction}"""
INDUCTION = """[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + 1" }
given = []
constants = ["a", "b"]
"""


@pytest.mark.parametrize(("given", "claim", "induction", "vacuous"), [
    # red team 12 C: holds at a[1] = a[2] = 0, b = (0, 1); only the case a[2] < 0's `skip`
    # identity (sum over P = sum over Q) contradicts it, and that case was dropped
    ("sum(j in P, b[j]) >= sum(j in Q, b[j]) + 1", "a[2] >= 0", "", False),
    ("sum(j in P, b[j]) >= sum(j in Q, b[j]) + 1", "s == t", INDUCTION, False),
    # an identity every case has holds without the case: still vacuous
    ("sum(j in 1..2, b[j]) >= b[1] + b[2] + 1", "a[2] >= 0", "", True),
])
def test_vacuity_reads_no_identity_only_one_case_makes(given: str, claim: str,
                                                         induction: str, vacuous: bool) -> None:
    """Red team 12 C: the vacuity judgement dropped the last case's `case` fact but kept that
    case's own sum-rule identities, which hold only under it: a satisfiable step was reported
    `VACUOUS: the hypotheses are contradictory`."""
    (report,) = check(CASE_SUM_RULE.format(given=given, claim=claim,
                                           induction=induction)).steps
    assert report.status == "proved"
    assert report.vacuous is vacuous and (report.vacuity is not None) is vacuous


#: Red team 29 F2: `b` carries `a`'s invariant, false at the start; `b`'s statement is about
#: the runs "where at every state s >= 1 [a]" from s := 0, which are none: true.
CARRIED_FALSE_AT_START = """
title = "A carried invariant false at the start"
scalars = ["s", "d", "t"]
naturals = ["t"]
[[step]]
id = "a"
claim = "s >= 1"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d >= 0"]
[[step]]
id = "b"
claim = "s >= 1/2"
uses = ["a"]
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d >= 0"]
"""


def test_an_induction_is_not_refuted_at_a_start_its_carried_invariant_excludes() -> None:
    """`b` came out refuted at its base (the run of no update from s = 0), a run where the
    carried `s >= 1` fails, so none `b`'s statement speaks of; `a` is refuted there rightly.
    With `a`'s invariant true at the start (`s >= 0`), `b`'s false base still refutes it."""
    report = check(CARRIED_FALSE_AT_START)
    assert statuses(report) == {"a": "refuted", "b": "unknown"}
    assert report.steps[1].message.startswith(  # not "a hint or a case split may find one"
        "uses refuted step(s) a: "  # newcomer 33 F3: the refuted premise named first
        "the point found breaks, at the start, an invariant this induction carries")
    holds = check(CARRIED_FALSE_AT_START.replace('claim = "s >= 1"\n', 'claim = "s >= 0"\n')
                  .replace('"s >= 1/2"', '"s >= 1/2 + t"'))
    assert statuses(holds) == {"a": "proved", "b": "refuted"}


def test_an_induction_over_other_runs_is_said_to_be_one_when_refused() -> None:
    """Red team 29 F7: `b` uses `a`, an induction over other runs (its update fact `d >= 1`
    where b's is `d >= 0`), so a's claim is a hypothesis of `b`, refused as one that
    mentions the iteration. The refusal named `s >= 0` a hypothesis of b, which b never
    wrote; it says whose claim it is and why."""
    text = (CARRIED_FALSE_AT_START.replace('claim = "s >= 1"\n', 'claim = "s >= 0"\n')
            .replace('given = ["d >= 0"]', 'given = ["d >= 1"]', 1))
    with pytest.raises(ProofFileError) as refused:
        parse_proof(text.encode(), "other.toml") and check(text)
    (error,) = refused.value.errors
    assert error.step == "b" and error.fix is not None
    assert error.fix.startswith("`s >= 0` is the claim of a, an induction over other runs")
    assert "in any order or spelling" in error.fix


@pytest.mark.parametrize("given", [
    '["d>=0"]',  # the spelling of red team 29 F7
    '["0 <= d"]',  # the other side
    '["d >= 0", "2*s >= 2*s"]',  # another fact of a's, in another order below
])
def test_inductions_whose_update_facts_differ_in_spelling_or_order_are_over_the_same_runs(
        given: str) -> None:
    """Red team 29 F7: "the same runs" was decided on the update facts as written and in
    order, so `d>=0` beside `d >= 0` made `a` another induction and `b` could not carry its
    invariant. They are now compared as sets of exact relations: `b` (true only where `a`'s
    `s >= 0` holds) is proved carrying it, whichever spelling and order each wrote."""
    a_given = ('["2*s >= 2*s", "d >= 0"]' if "2*s" in given else '["d >= 0"]')
    text = (CARRIED_FALSE_AT_START.replace('claim = "s >= 1"\n', 'claim = "s >= 0"\n')
            .replace('claim = "s >= 1/2"', 'claim = "s**2 + s >= 0"')
            .replace('given = ["d >= 0"]', f"given = {a_given}", 1)
            .replace('given = ["d >= 0"]', f"given = {given}", 1))
    report = check(text)
    assert statuses(report) == {"a": "proved", "b": "proved"}
    (b,) = [s for s in report.steps if s.step.id == "b"]
    assert b.statement is not None and b.statement.over == report.steps[0].statement.over


#: Red team 31 B4: three inductions over the same runs, `a` and `b` spelling their update fact
#: two ways; `c` (spelled as b) carries both invariants.
TWO_SPELLINGS = """
title = "Three spellings of one update fact"
scalars = ["s", "d", "t"]
naturals = ["t"]
[[step]]
id = "a"
claim = "s >= t"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d>=1"]
[[step]]
id = "b"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = ["d >= 1"]
[[step]]
id = "c"
uses = USES
claim = "2*s >= t"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d" }
given = GIVEN
"""


@pytest.mark.parametrize("uses", ['["a", "b"]', '["b", "a"]'])
@pytest.mark.parametrize("given", ['["d >= 1"]', '["1 <= d"]', '["d>=1"]'])
def test_an_induction_carries_two_invariants_whose_facts_are_spelled_two_ways(
        uses: str, given: str) -> None:
    """Red team 31 B4: `c` was handed the update facts of the first induction it uses with
    the same exact facts, so it carried that one's invariant and not the other's, spelled
    otherwise: `c` (true: 2s >= 2t >= t) was refused as bad input, the other said to be "an
    induction over other runs than this one", even where c spelled its fact as that one did.
    Every induction over those runs now reads them as the first of them in the proof does."""
    report = check(TWO_SPELLINGS.replace("USES", uses).replace("GIVEN", given))
    assert statuses(report) == {"a": "proved", "b": "proved", "c": "proved"}
    overs = {s.step.id: s.statement.over for s in report.steps if s.statement is not None}
    assert overs["a"] == overs["b"] == overs["c"]
