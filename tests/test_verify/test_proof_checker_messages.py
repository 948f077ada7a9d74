"""An unknown or unrefuted step's message names the remedy that fits, in one short sentence
first (issue 28, item 7): split on the counter a direct step divides by, which of a witness
or an unreached point made a counterexample refute nothing, which used step could not be
stated and why, and `--budget large` offered only where it can go on (never at `large`)."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import sympy
from cases.inductions import HEADER, norm_induction, progress_induction

from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import Counterexample, Fact, Judgement, Obligation
from verify.proof_checker import GoalReport, _check_step, _labelled, check_proof
from verify.search.work import BUDGETS
from verify.verdict import Stop, Verdict

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import sos  # noqa: E402

UNFORMED = b"""
title = "unformed"
scalars = ["x", "z"]

[[step]]
id = "a"
given = ["x > 0"]
claim = "1/x > 0"

[[step]]
id = "b"
uses = [{ step = "a", with = { x = "0" } }]
claim = "z*z >= 0"

[[step]]
id = "c"
uses = ["b"]
claim = "z*z + 1 > 0"
"""


def test_a_direct_step_dividing_by_an_induction_counter_is_told_to_split_on_it() -> None:
    text = (ROOT / "examples" / "mistake-bound.toml").read_text()
    text = text.replace('split = { on = "t" }\n', "")
    proof = parse_proof(text.encode(), "no-split.toml")
    report = check_proof(proof, budget=BUDGETS["small"])
    # gaps33: the checker takes the advice itself (t >= 0 is stated: a natural)
    assert report.steps[-1].status == "proved", report.steps[-1].message
    assert 'by cases on t, a split the checker chose (`split = { on = "t", zero = true }` ' \
           "states it)" in report.steps[-1].message
    # the step as written, before the checker's own tries, is told to split
    last = _check_step(proof, proof.steps[-1], BUDGETS["small"], None,
                       {s.step.id: s for s in report.steps}, None, None)
    assert last.status == "unknown"
    # newcomer 23, M2: the factor the split lets it cancel is named, checked by the kernel
    assert last.message.startswith(
        "main: cancelling the positive factor t proves the claim once `t > 0` is known (the "
        'kernel accepted that certificate with it added): split on t (`split = { on = "t" }`)'
        ", so that its case t > 0 knows it"), last.message
    assert "invariant may be too weak" not in last.message


def test_a_step_split_on_the_counter_is_not_told_to_split_on_it() -> None:
    """Newcomer 21, H1: a step already split on k was told, in its case k == 0, "divide by
    k: split on k" (its case lacked `R2 >= 0`; nothing divided by k); following it, a second
    `split =` gave a TOML error. Here a typo (a claim twice too strong) in a split step."""
    text = (ROOT / "examples" / "mistake-bound.toml").read_text()
    assert 'split = { on = "t" }' in text
    text = text.replace('claim = "t <= R**2/g**2"', 'claim = "t <= R**2/(2*g**2)"')
    report = check_proof(parse_proof(text.encode(), "no-sign.toml"), budget=BUDGETS["small"])
    unknown = [s for s in report.steps if s.status == "unknown"]
    assert unknown, [s.message for s in report.steps]
    for step in unknown:
        assert "split on" not in step.message, step.message


def test_a_step_using_an_unformed_statement_names_it_and_why() -> None:
    report = check_proof(parse_proof(UNFORMED, "unformed.toml"))
    assert [s.status for s in report.steps] == ["proved", "unknown", "unknown"]
    assert report.steps[2].message == ("uses a step whose statement could not be formed: "
                                       "b (used divides by zero)")


def test_an_unrefuting_counterexample_says_witness_or_unreached_point() -> None:
    quantifiers = parse_proof((ROOT / "examples" / "quantifiers.toml").read_bytes(), "q.toml")
    with_witness = quantifiers.step("weights-bounded-at-t")
    without = quantifiers.step("cauchy-schwarz")
    x = sympy.Symbol("x")
    judgement = Judgement((), Fact(x, ">="), (), ("x",))
    relation = kernel.Rel(x, ">=", sympy.Integer(0), "x >= 0")
    goal = Obligation("main", judgement, False, (), ((), relation))
    refuted = Verdict("refuted", None, Counterexample({"x": -1}, {}), "counterexample", 0.0)
    report = GoalReport(goal, refuted)
    assert "the witness may be what fails" in _labelled(report, 1, with_witness)
    assert "a point no run reaches" not in _labelled(report, 1, with_witness)
    assert "one no run reaches" in _labelled(report, 1, without)
    # newcomer trial, item 12: it read backwards ("the counterexample satisfies the
    # judgement"); the point satisfies the hypotheses and breaks the claim
    for step in (with_witness, without):
        message = _labelled(report, 1, step)
        assert message.startswith("not refuted: the point found satisfies the hypotheses and "
                                  "breaks the claim, but ")
        assert "satisfies the judgement" not in message


NEGATIVE_DENOMINATOR = b"""
title = "a division by a quantity known negative"
scalars = ["a"]
[[step]]
id = "v6"
given = ["a < 0"]
claim = "1/a < 0"
"""


def test_explain_does_not_blame_an_induction_for_a_side_conditions_point(
        tmp_path: Path, capsys) -> None:
    """Red team 26: the point a = -1 of the side condition `a > 0` was said to refute nothing
    because "the step imports an induction's claim"; the step imports nothing (the point
    breaks a side condition, not the step)."""
    from verify.cli import main

    path = tmp_path / "v.toml"
    path.write_bytes(NEGATIVE_DENOMINATOR)
    assert main(["explain", str(path), "v6"]) == 1
    out = capsys.readouterr().out
    assert "induction" not in out, out
    assert "it refutes nothing: it breaks a side condition (a denominator shown > 0" in out


NOT_NATURAL = b"""
title = "an induction's claim used where its point may be unreached"
scalars = ["t"]
naturals = ["t"]
[[step]]
id = "a"
claim = "t*(t-1) >= 0"
[step.induction]
variable = "t"
base = {}
step = {}
[[step]]
id = "c"
uses = ["a"]
claim = "t*(t-1)*(t-2) >= 0"
"""


def test_explain_says_a_point_that_refutes_nothing_is_no_counterexample(
        tmp_path: Path, capsys) -> None:
    """t = 3/2 holds the hypotheses (t >= 0, t(t-1) >= 0) and breaks the claim, but no run
    reaches it: explain called it a counterexample "re-checked by the kernel"."""
    from verify.cli import main

    path = tmp_path / "n.toml"
    path.write_bytes(NOT_NATURAL)
    assert main(["explain", str(path), "c"]) == 1
    out = capsys.readouterr().out
    assert "status: unknown — not refuted: the point found satisfies the hypotheses and " \
        "breaks the claim, but it may be one no run reaches" in out
    assert "counterexample (exact; re-checked by the kernel" not in out
    assert ("a point where the hypotheses hold and the claim fails (exact; names the step "
            "does not use are left out); it refutes nothing: it may be one no run reaches") in out
    assert main(["explain", str(path), "c", "--json"]) == 1
    import json

    (goal,) = json.loads(capsys.readouterr().out)["judgements"]
    assert goal["counterexample"]["refutes"] is False
    assert goal["counterexample"]["refutes_nothing"].startswith("it may be one no run reaches")


def test_budget_large_is_offered_only_where_it_can_go_on() -> None:
    # sos.ml 1660 (Chebyshev's T7 on |x| <= 1): its SDPs are over even `large`'s size, so
    # neither budget offers `large`; 1625's fits `large`, which proves it (test_benchmarks_sos)
    (goal,) = (g for g in sos.GOALS if g.source == sos.S and g.line == 1660)
    (_, default, _, said), (_, large, _, said_large) = (
        sos.run((goal,), "default")[0], sos.run((goal,), "large")[0])
    assert default == large == "unknown"
    assert "over the SDP size budget" in said and "--budget large" not in said
    assert "--budget large" not in said_large
    (second,) = (g for g in sos.GOALS if g.source == sos.S and g.line == 1625)
    ((_, status, _, offered),) = sos.run((second,), "default")
    assert status == "unknown" and "`--budget large` may too" in offered


def test_an_exhausted_count_offers_large_below_it_and_says_so_at_it() -> None:
    quantifiers = parse_proof((ROOT / "examples" / "quantifiers.toml").read_bytes(), "q.toml")
    step = quantifiers.step("cauchy-schwarz")
    x = sympy.Symbol("x")
    goal = Obligation("main", Judgement((), Fact(x, ">="), (), ("x",)), True, (),
                      ((), kernel.Rel(x, ">=", sympy.Integer(0), "x >= 0")))
    unknown = GoalReport(goal, Verdict("unknown", None, None,
                                       "hypothesis products: candidate budget 80000 exhausted",
                                       0.0, stops=(Stop("exhausted"),)))
    assert "`--budget large` may too" in _labelled(unknown, 1, step, BUDGETS["default"])
    at_large = _labelled(unknown, 1, step, BUDGETS["large"])
    assert "already `large`" in at_large and "--budget large" not in at_large


LECTURE_CHAIN = b"""
title = "red team 9, l2.toml"
vectors = ["v", "a", "z"]
scalars = ["k", "lab", "Q", "m", "r", "nv"]
naturals = ["k"]

[define]
nv = "norm(v)"
r = "sqrt(Q)"

[[step]]
id = "growth"
claim = "norm2(v) <= k*Q"
[step.induction]
variable = "k"
base = { v = "0*v" }
step = { v = "v + lab*a" }
given = ["lab**2 == 1", "lab*dot(v, a) <= 0", "norm2(a) <= Q"]
constants = ["Q"]

[[step]]
id = "progress"
claim = "dot(v, z) >= k*m"
[step.induction]
variable = "k"
base = { v = "0*v" }
step = { v = "v + lab*a" }
given = ["lab*dot(z, a) >= m"]
constants = ["z", "m"]

[[step]]
id = "chain"
given = ["norm2(z) == 1", "m > 0", "Q >= 0"]
uses = ["growth", "progress"]
claim = "k*m <= r*nv"
"""


def test_a_false_step_on_imported_claims_gets_no_split_advice() -> None:
    """Red team 9: `chain` is false (one update a = z/2 with m = 1/2, Q = 1/4: k*m = 1/2 >
    sqrt(Q)*norm(v) = 1/4), yet it was told "divide by k: split on k". The screen with its
    equalities solved (`r**2 == Q`, `nv**2 == norm2(v)`) finds the point; a point refutes no
    step that imports an induction's claim, so the step stays unknown, and says so."""
    report = {s.step.id: s for s in check_proof(parse_proof(LECTURE_CHAIN, "l2.toml")).steps}
    chain = report["chain"]
    assert chain.status == "unknown"
    assert chain.message.startswith("not refuted: the point found satisfies the hypotheses "
                                    "and breaks the claim, but it may be one no run reaches")
    assert "counterexample (equalities solved)" in chain.message
    assert "divide by k" not in chain.message


def test_advice_reads_what_stopped_the_search_not_the_words_of_the_claim() -> None:
    """Review of session 10: `_obstacle` chose its advice by matching the message's words,
    and the message quotes the claim: a scalar named `exhausted` read as a budget run out,
    so the Motzkin polynomial (true, no sum of squares: the SDP's point is not rounded)
    was advised `--budget large`. The advice reads the kinds the search carries with its
    verdict (`Stop`): here the rounding."""
    text = (b'title = "m"\nscalars = ["exhausted", "y"]\n[[step]]\nid = "motzkin"\n'
            b'claim = "exhausted**4*y**2 + exhausted**2*y**4 - 3*exhausted**2*y**2 + 1 >= 0"\n')
    (report,) = check_proof(parse_proof(text, "m.toml")).steps
    assert report.status == "unknown" and "exhausted" in report.message
    assert report.message.startswith(
        "no certificate within the budget: a hint or a case split may help; the SDP's "
        "numeric point could not be rounded to an exact sum of squares")
    assert "--budget large" not in report.message


SPLIT_ON_COUNTER = ('title = "an imported induction\'s claim, split on its counter"\n' + HEADER
                    + norm_induction("norm-after-k") + """
[[step]]
id = "radius"
uses = ["norm-after-k"]
claim = "norm2(w) <= k"
split = { on = "k" }
""").encode()  # false (R2 = 4, k = 1, w = (2)), true at the start: no point refutes it


def test_a_judgement_whose_point_refutes_nothing_is_never_called_refuted(
        tmp_path: Path, capsys) -> None:
    """Newcomer 19, section 1: a case has a point that breaks it, but the step imports an
    induction's claim, so the point refutes nothing and the step is unknown; explain printed
    `judgement case k == 0: refuted` under `status: unknown`, and its JSON (and `check
    --json`) listed that judgement as refuted. (Newcomer 19's `R2 >= 0`, false at the start
    k = 0, w = 0, is refuted there now: `test_a_step_false_at_the_start_of_its_runs_...`;
    here the claim holds at every start, and the case k > 0 has the point.)"""
    import json

    from verify.cli import main
    from verify.render.certificates import Latex
    from verify.render.markdown import _judgement
    from verify.typeset.names import spelling

    path = tmp_path / "split.toml"
    path.write_bytes(SPLIT_ON_COUNTER)
    assert main(["explain", str(path), "radius"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("status: unknown — case k > 0: not refuted")
    assert "judgement case k > 0: unknown" in out
    assert ": refuted" not in out
    assert "it refutes nothing" in out  # the point is still shown, and why it decides nothing
    assert main(["explain", str(path), "radius", "--json"]) == 1
    explained = json.loads(capsys.readouterr().out)
    assert explained["status"] == "unknown"
    judgements = {j["label"]: j for j in explained["judgements"]}
    assert [j["status"] for j in judgements.values()] == ["unknown", "proved", "proved"]
    assert judgements["case k > 0"]["counterexample"]["refutes"] is False
    assert main(["check", str(path), "--json"]) == 1
    checked = json.loads(capsys.readouterr().out)["steps"][1]
    assert checked["status"] == "unknown"
    assert [j["status"] for j in checked["judgements"]] == ["unknown", "proved", "proved"]
    assert checked["judgements"][0]["counterexample"] is not None  # the point, refuting nothing
    proof = parse_proof(SPLIT_ON_COUNTER, "split.toml")
    report = check_proof(proof).steps[1]
    assert [g.status for g in report.goals] == ["unknown", "proved", "proved"]
    assert report.goals[0].verdict.status == "refuted"  # the search's verdict is kept as found
    typeset = _judgement(report.goals[0], True, Latex(spelling(proof)))
    # its label typeset (newcomer 27, F6: `k == 0` was Python inside \text)
    assert r"\text{case }k > 0\text{: unknown}" in typeset and "refuted" not in typeset


NOT_INDUCTIVE = ('title = "an induction that imports nothing, without the mistake condition"\n'
                 + HEADER + norm_induction("norm-no-mistake", '"y**2 == 1", "norm2(x) <= R2"')
                 ).encode()


TRUE_NOT_INDUCTIVE = b"""
title = "an invariant true on every run, but not inductive"
scalars = ["s", "k"]
naturals = ["k"]

[[step]]
id = "square-stays"
claim = "s <= 1"
[step.induction]
variable = "k"
base = { s = "0" }
step = { s = "s**2" }
"""


def test_an_induction_importing_nothing_is_told_why_its_step_case_point_refutes_nothing(
        tmp_path: Path, capsys) -> None:
    """Newcomer 19, section 1, last bullet: explain said the point of an induction's step
    case refutes nothing because "the step imports an induction's claim", which this one does
    not; the true reason is that the step case assumes the invariant at any state where it
    holds, which may be a state no run reaches (here s = -2: every run stays at s = 0, so no
    run from the base refutes it either, and the step stays unknown)."""
    import json

    from verify.cli import main

    path = tmp_path / "d.toml"
    path.write_bytes(TRUE_NOT_INDUCTIVE)
    assert main(["explain", str(path), "square-stays"]) == 1
    out = capsys.readouterr().out
    assert "status: unknown — step: invariant is not inductive" in out
    assert "judgement step: unknown" in out
    assert "imports an induction's claim" not in out and "Not alone: the run" not in out
    assert ("it refutes nothing: the state it starts from may be one no run reaches (the step "
            "case assumes the invariant at every state where it holds, not only at the states "
            "of the induction's runs;") in out
    assert main(["explain", str(path), "square-stays", "--json"]) == 1
    step = json.loads(capsys.readouterr().out)["judgements"][1]
    assert step["label"] == "step" and step["status"] == "unknown"
    assert step["counterexample"]["refutes_nothing"].startswith(
        "the state it starts from may be one no run reaches")


def test_a_false_induction_is_refuted_by_a_run_from_its_base(tmp_path: Path, capsys) -> None:
    """Newcomer 19's leftover: a genuinely false induction stayed unknown, its step case's
    point refuting nothing. Replayed from the base on that point's example, the run breaks
    the invariant after two updates (`w = 2x`, `norm2(w) = 4 R2 > 2 R2`); the kernel checks
    the run state by state (`kernel.refute_run`), so the step is refuted, and every output
    says by what."""
    import json

    from verify.cli import main

    path = tmp_path / "d.toml"
    path.write_bytes(NOT_INDUCTIVE)
    assert main(["check", str(path)]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("refuted  norm-no-mistake")
    assert "refuted by a run from the start: 2 updates, each on " in line
    assert "then the invariant fails" in line and " at " in line and "k = 2" in line
    assert main(["explain", str(path), "norm-no-mistake"]) == 1
    out = capsys.readouterr().out
    assert "status: refuted — refuted by a run from the start: 2 updates" in out
    assert "judgement step: unknown" in out  # the point alone refutes nothing ...
    assert "Not alone: the run made from the base on this point's example" in out
    # newcomer 27, F4: the run itself, state by state, where the explanation ends
    states = [line.split(": ", 1)[1] for line in out.splitlines()
              if line.startswith("    state ")]
    assert len(states) == 3 and all("k = " in state for state in states)
    assert [state.split("k = ")[1].split(",")[0] for state in states] == ["0", "1", "2"]
    assert main(["check", str(path), "--json"]) == 1
    checked = json.loads(capsys.readouterr().out)["steps"][0]
    assert checked["status"] == "refuted" and checked["counterexample"]["scalars"]["k"] == "2"
    assert [state["scalars"]["k"] for state in checked["run"]] == ["0", "1", "2"]
    assert checked["run"][-1] == checked["counterexample"]
    assert main(["explain", str(path), "norm-no-mistake", "--json"]) == 1
    explained = json.loads(capsys.readouterr().out)  # newcomer 21, L2: refuted, and by what
    assert explained["status"] == "refuted" and explained["refuted_by_run"] == checked["run"]


def test_a_point_off_the_naturals_is_said_to_be_off_them_and_only_then(
        tmp_path: Path, capsys) -> None:
    """The words "a natural is read as a real >= 0" were printed for every point, also one
    whose naturals are natural (newcomer 19's k = 0); they are said when the point gives a
    natural a value no run has (NOT_NATURAL's t = 3/2), with that value."""
    from verify.cli import main

    path = tmp_path / "n.toml"
    path.write_bytes(NOT_NATURAL)
    assert main(["explain", str(path), "c"]) == 1
    out = capsys.readouterr().out
    assert ("the step imports an induction's claim, which holds only along runs, and it gives "
            "the natural t the value 3/2, which no run does: the search reads a natural as a "
            "real >= 0") in out
    path.write_bytes(SPLIT_ON_COUNTER)
    assert main(["explain", str(path), "radius"]) == 1
    out = capsys.readouterr().out
    assert ("it may be one no run reaches (the step imports an induction's claim, which holds "
            "only along runs)") in out
    assert "as a real" not in out


OFF_NATURALS_STEP = b"""
title = "inductive over the naturals only"
scalars = ["t", "q", "k"]
naturals = ["t", "k"]

[[step]]
id = "squares"
claim = "q >= 0"
split = { on = "k - 1" }
[step.induction]
variable = "t"
base = { q = "0" }
step = { q = "q + k*(k - 1)" }
"""


def test_a_step_case_broken_off_the_naturals_is_not_called_not_inductive() -> None:
    """Red team 28: `q := q + k*(k - 1)` for a per-update natural k keeps `q >= 0` on every
    run (k*(k - 1) >= 0 at every natural), but the case k < 1 of its step is broken at the
    real k = 1/2, and the line read `invariant is not inductive`, untrue over the naturals.
    It says the point is off the naturals now; with k real the run made from that point
    refutes the step."""
    proof = parse_proof(OFF_NATURALS_STEP, "n.toml")
    message = check_proof(proof).steps[0].message
    assert "invariant is not inductive" not in message
    assert ("invariant not shown inductive: the point found breaks it, and it gives the natural "
            "k the value 1/2, which no run does") in message
    real = parse_proof(OFF_NATURALS_STEP.replace(b'"t", "k"]', b'"t"]'), "r.toml")
    assert check_proof(real).steps[0].status == "refuted"


FREE_START = b"""
title = "a counter the base leaves free"
vectors = ["w", "x"]
scalars = ["t", "y", "s"]
naturals = ["t"]

[[step]]
id = "count"
claim = "t*s >= 0"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x", s = "s + 1" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "a == 1/norm2(x)"]
"""


def test_a_refuting_run_says_where_it_starts_and_from_which_point(tmp_path: Path,
                                                                   capsys) -> None:
    """Red team 22, F5: `s = -1` after one `s := s + 1` read as impossible, the run's free
    start (s, which the base leaves free) unsaid; F4: explain claimed the refuting run for a
    side condition's point too (`norm2(x) > 0`, from which no run starts)."""
    from verify.cli import main

    path = tmp_path / "free.toml"
    path.write_bytes(FREE_START.replace(b'scalars = ["t", "y", "s"]',
                                        b'scalars = ["t", "y", "s", "a"]'))
    assert main(["explain", str(path), "count"]) == 1
    out = capsys.readouterr().out
    status = out.splitlines()[1]
    assert status.startswith("status: refuted — refuted by a run from the start (s = ")
    assert "the base leaves it free): 1 update" in status
    judgements = out.split("judgement ")[1:]
    made_from = [j.split(":")[0] for j in judgements if "Not alone: the run" in j]
    assert made_from == ["step"], made_from  # not the denominator's side condition


RATE_PROGRESS = b"""
title = "progress with a step size, its gamma unsigned"
vectors = ["w", "x", "u"]
scalars = ["t", "y", "gamma", "eta"]
naturals = ["t"]

[[step]]
id = "progress"
claim = "dot(w, u) >= t*gamma"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + eta*y*x" }
given = ["y*dot(u, x) >= gamma", "eta > 0"]
constants = ["u", "gamma", "eta"]
"""


def test_a_refuting_run_names_the_constants_its_updates_read(tmp_path: Path, capsys) -> None:
    """Newcomer 24, M2: `1 update, on y = 1, x = (-1) ... at ..., w = (-2)` left out eta = 2,
    which the update `w + eta*y*x` reads and the claim does not name: the run read as a wrong
    sum. The message names every constant of the run the claim does not (the point printed
    after it names the claim's), with its value at the run; the claim's own are not repeated."""
    import re

    from verify.cli import main

    path = tmp_path / "rate.toml"
    path.write_bytes(RATE_PROGRESS)
    assert main(["check", str(path)]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("refuted  progress")
    found = re.search(r"1 update, on (.*?), with eta = (\S+), then the invariant fails", line)
    assert found is not None, line
    assert "gamma" not in found[1] and "with u =" not in line  # the claim's names: at the end
    # the update replayed by hand: w = 0 + eta*y*x at the example shown
    y = Fraction(re.search(r"\by = (\S+?),", found[1])[1])
    x = Fraction(re.search(r"\bx = \((\S+?)\)", found[1])[1])
    w = Fraction(re.search(r"\bw = \((\S+?)\)$", line)[1])
    assert w == Fraction(found[2]) * y * x


def test_a_denominator_the_hypotheses_make_negative_is_not_a_fact_to_add() -> None:
    """Red team 26, R4: `a < 0 |- 1/a < 0` was told to add `a > 0` to `given` (which
    contradicts a < 0); it is told to multiply the relation through instead."""
    from proofs.proof_file import parse_proof
    from verify.proof_checker import check_proof

    (report,) = check_proof(parse_proof(NEGATIVE_DENOMINATOR, "v.toml")).steps
    assert report.status == "unknown"
    assert report.message.startswith("denominator a > 0: the hypotheses say a > 0 fails, so it "
                                     "is no fact to add"), \
        report.message
    assert "add it to `given`" not in report.message


DIVIDING_INVARIANT = b"""title = "induction division"
scalars = ["s", "t"]
naturals = ["t"]
[[step]]
id = "d3"
claim = "1/(s + 1) > 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s - 2" }
constants = []
"""


def test_an_induction_s_denominator_side_condition_is_no_invariant_and_no_given() -> None:
    """Red team 26, R3: the denominators of an invariant's step case (`s + 1 > 0` after
    `s := s - 2`) were labelled "invariant is not inductive", though only a side condition
    failed, and the remedy offered was a `given`, which may not mention `s`; it names the
    side condition and the one remedy that exists, an invariant in a step this one uses."""
    from proofs.proof_file import parse_proof
    from verify.proof_checker import check_proof

    (report,) = check_proof(parse_proof(DIVIDING_INVARIANT, "d.toml")).steps
    assert report.status == "unknown"
    assert "not inductive" not in report.message and "add it to `given`" not in report.message
    assert report.message.startswith(
        "step: denominator s + 1 > 0: missing a positivity fact: nothing among the hypotheses "
        "free of division shows s + 1 > 0 at every state; prove it as an invariant in a step "
        "this one uses (a `given` may not mention s, which the updates change)"), report.message


COUNTER_NOT_CLAIMED = progress_induction(
    "newcomer 31: a claim that does not read the counter") + b"""
[[step]]
id = "nonzero"
uses = ["progress"]
given = ["g > 0", "eta > 0", "t >= 1"]
claim = "norm2(w)**2*norm2(u)**2 >= eta**4*g**4"
"""


def test_split_advice_names_a_counter_the_file_can_split_on() -> None:
    """Newcomer 31, F1: `nonzero` (true, left unknown) reads no counter in its claim, and was
    told `split = { on = "the run's length" }`, which the parser refuses ("not a valid
    expression", exit 2). The advice names the counter its imported claim reads, `t`, and the
    file that follows it parses. (The newcomer's `norm2(w)*norm2(u) >= eta**2*g**2` is now
    proved by `products and squares to degree six`; its square, true and of degree 8, is
    still unknown and gets the same advice.)"""
    report = {s.step.id: s for s in
              check_proof(parse_proof(COUNTER_NOT_CLAIMED, "n.toml")).steps}["nonzero"]
    assert report.status == "unknown"
    assert "the run's length" not in report.message
    assert report.message.startswith('split on t if the step divides by it')
    assert '`split = { on = "t" }`' in report.message
    claim = b'claim = "norm2(w)**2*norm2(u)**2 >= eta**4*g**4"'
    advised = COUNTER_NOT_CLAIMED.replace(claim, claim + b'\nsplit = { on = "t" }')
    assert [s.id for s in parse_proof(advised, "n.toml").steps] == ["progress", "nonzero"]


LEMMA_FROM_A_LEMMA = b"""
title = "a lemma proved from a lemma, used at each update"
vectors = ["w", "x"]
scalars = ["t", "y", "R"]
naturals = ["t"]

[[step]]
id = "expand"
claim = "norm2(w + y*x) == norm2(w) + 2*y*dot(w, x) + y**2*norm2(x)"

[[step]]
id = "one-update"
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]
uses = ["expand"]
claim = "norm2(w + y*x) <= norm2(w) + R**2"

[[step]]
id = "norm-invariant"
uses = ["one-update"]
claim = "norm2(w) <= t*R**2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]
constants = ["R"]
"""


def test_a_lemma_s_inherited_hypothesis_names_the_use_it_came_from(tmp_path: Path,
                                                                     capsys) -> None:
    """Newcomer 32 N5: a one-update lemma proved with `uses` was refused at the induction
    for a hypothesis the file never wrote there (the claim of a step the lemma uses), with
    no word of where it came from. The fix now names that use and the two ways out."""
    from verify.cli import main

    path = tmp_path / "lemma.toml"
    path.write_bytes(LEMMA_FROM_A_LEMMA)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert "uses one-update at each update, but its hypothesis `norm2(w + y*x) == " in err
    assert err.endswith(
        "that hypothesis comes into one-update from expand, which it uses (a used step's "
        "claim and hypotheses are hypotheses of the step that uses it), and a lemma used at "
        "each update may assume only the update's facts, the invariant and the step's "
        "hypotheses: prove one-update from its own hypotheses without that use (with hints "
        "or a split), or add the fact to the induction's given"), err
    # written as the fix says, without the use, the same lemma serves the induction
    fixed = LEMMA_FROM_A_LEMMA.replace(b'uses = ["expand"]\n', b"")
    path.write_bytes(fixed)
    assert main(["check", str(path)]) == 0


PREMISE = b"""
title = "over a refuted premise"
scalars = ["s", "d", "a", "t"]
naturals = ["t"]

[[step]]
id = "inv"
claim = "s >= 0"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + d*d" }

[[step]]
id = "bad"
claim = "a >= 1"

[[step]]
id = "over"
uses = ["inv", "bad"]
claim = "s*t >= a*t"
"""  # `over` holds at every start (t = 0), so it is not refuted there (`refute_start`)


def test_a_step_left_unknown_over_a_refuted_premise_names_it() -> None:
    """Newcomer 33 F3: a student's step resting on a reversed Cauchy-Schwarz (refuted) was
    unknown with only "split on n if the step divides by it ...; else it may need a fact",
    nothing saying that a premise it uses is false. It now leads with the refuted step."""
    proof = parse_proof(PREMISE, "premise.toml")
    report = {s.step.id: s for s in check_proof(proof, budget=BUDGETS["small"]).steps}
    assert report["bad"].status == "refuted"
    assert report["over"].status == "unknown"
    assert report["over"].message.startswith("uses refuted step(s) bad: ")
    # the student's own claim, `s >= a`, is false at the start (s = 0, a = 1): refuted there
    own = parse_proof(PREMISE.replace(b'claim = "s*t >= a*t"', b'claim = "s >= a"'), "p.toml")
    assert {s.step.id: s for s in check_proof(own, budget=BUDGETS["small"]).steps}[
        "over"].status == "refuted"


SQUARE_OF_A_SUM = """
title = "t"
scalars = ["y", "N", "j", "l"]
naturals = ["N"]
indexed = ["y"]
[[step]]
id = "pair"
claim = "2*y[j]*y[l] <= y[j]**2 + y[l]**2"
[[step]]
id = "cs"
claim = "sum(j in 1..N, y[j])**2 <= N*sum(j in 1..N, y[j]**2)"
"""


def test_an_unknown_inequality_between_sums_is_advised_a_lemma_used_summed() -> None:
    """Newcomer nc35 K8: a true inequality between sums left unknown was advised a hint, a
    split and a larger budget, none of which relates the members of a sum; the remedy that
    proves it, a lemma about two members used summed over both, comes first now. The
    advice is true: the step with that use is proved."""
    alone = check_proof(parse_proof(SQUARE_OF_A_SUM.encode(), "cs.toml"),
                        budget=BUDGETS["small"])
    unknown = alone.steps[-1]
    assert unknown.status == "unknown"
    assert unknown.message.startswith(
        "no certificate within the budget: a lemma about one member, or two, used summed "
        "term by term (`uses = [{ step = \"LEMMA\", sum = \"j in M\" }]`; `sum = [\"l in M\", "
        "\"j in M\"]` for a double sum such as a square of a sum: docs/proof-files.md, "
        "*Families and finite sums*), a hint"), unknown.message
    used = SQUARE_OF_A_SUM + 'uses = [{ step = "pair", sum = ["l in 1..N", "j in 1..N"] }]\n'
    report = check_proof(parse_proof(used.encode(), "cs.toml"), budget=BUDGETS["small"])
    assert [s.status for s in report.steps] == ["proved", "proved"]


def test_a_broken_side_condition_says_where_it_fails_not_counterexample() -> None:
    """Newcomer nc35 K2: a denominator no hypothesis shows positive ended `(counterexample
    (dimension-1 screen))`, a word for a refutation in a step that is not refuted, and no
    point; it now says where the condition fails, in the names it reads."""
    text = ('title = "t"\nvectors = ["x", "w"]\nscalars = ["a", "c"]\n[[step]]\nid = "q"\n'
            'given = ["a >= 0"]\nclaim = "a/norm2(x - w) >= 0"\n')
    (report,) = check_proof(parse_proof(text.encode(), "q.toml"),
                            budget=BUDGETS["small"]).steps
    assert report.status == "unknown"
    assert report.message.endswith(
        "add it to `given` or prove it in a step this one uses (it fails at a = 0, w = (0), "
        "x = (0), found by the dimension-1 screen)"), report.message
    assert "counterexample" not in report.message
