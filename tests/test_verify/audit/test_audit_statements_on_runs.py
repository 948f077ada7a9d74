"""A step's statement on runs is the one the kernel proved (red team 10): its naturals are
hypotheses (a row where a declared natural is not a natural number is no instance of it),
an existential is checked with its witness (never at the run quantity of the bound name's
spelling), and a step no run can bind says so truly."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from verify.audit.job import Audit, StepAudit, run_audit
from verify.audit.report import to_text
from verify.kernel import Fact, Judgement
from verify.numeric.instances import CompiledJudgement
from verify.runs.columns import Instance, InstanceBatch, Origin

#: red team 10, find1/label.toml: a natural spelt like the online runs' label y
LABEL = """
title = "a natural named like a run quantity"
scalars = ["y"]
naturals = ["y"]

[[step]]
id = "nonneg"
given = []
claim = "%s"

[numeric]
run = "online"
"""

#: red team 10, find1/natbind.toml: a natural bound to a run expression
NATBIND = """
title = "natural bound to a non-natural run quantity"
scalars = ["k"]
naturals = ["k"]

[[step]]
id = "nonneg"
given = []
claim = "k >= 0"

[numeric]
run = "online"
names = { k = "%s" }
"""


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _only(audit: Audit) -> StepAudit:
    assert not audit.errors, audit.errors
    (step,) = audit.proofs[0].steps
    return step


def test_a_natural_is_a_hypothesis_on_runs_never_a_violation(tmp_path: Path):
    """`y in Nat |- y >= 0` was violated on every row of label -1 (59 645 of 116 346, a
    counterexample written, "false as written"): the rows of label -1 are vacuous."""
    audit = run_audit([_write(tmp_path, "label.toml", LABEL % "y >= 0")], budget="small")
    step = _only(audit)
    assert step.symbolic.status == "proved"
    assert step.numeric is not None and step.numeric.status == "held"
    assert step.numeric.violations == 0 and step.numeric.counterexample is None
    assert 0 < step.numeric.vacuous < step.numeric.instances  # label -1 rows: no instance
    assert audit.passed()


def test_a_natural_bound_in_names_is_read_through_its_binding(tmp_path: Path):
    audit = run_audit([_write(tmp_path, "nat.toml", NATBIND % "y*dot(w, x)")], budget="small")
    step = _only(audit)
    assert step.numeric is not None and step.numeric.status == "held"
    assert step.numeric.violations == 0 and step.numeric.vacuous > 0
    assert audit.passed()


def test_a_violation_under_naturals_is_found_on_a_natural_row(tmp_path: Path):
    """The naturals restrict the rows, they do not hide a false claim: `y in Nat |- y >= 2`
    fails at y = 1, a natural, and only there."""
    audit = run_audit([_write(tmp_path, "label.toml", LABEL % "y >= 2")], budget="small")
    step = _only(audit)
    assert step.numeric is not None and step.numeric.status == "violated"
    assert step.numeric.counterexample is not None
    assert step.numeric.counterexample.scalars["y"] == 1
    assert step.numeric.violations == step.numeric.instances - step.numeric.vacuous


def test_a_natural_no_row_makes_natural_leaves_every_instance_vacuous(tmp_path: Path):
    """`k = y - 2` is -1 or -3 on every row: no row is an instance, and the audit says so
    (all vacuous, the claim tested on none), never held nor violated."""
    audit = run_audit([_write(tmp_path, "nat.toml", NATBIND % "y - 2")], budget="small")
    step = _only(audit)
    assert step.numeric is not None and step.numeric.status == "not-run"
    assert step.numeric.vacuous == step.numeric.instances > 0
    assert "nonneg: all " in to_text(audit) and "vacuous" in to_text(audit)


def test_a_natural_bound_to_a_negative_constant_is_not_run_and_says_why(tmp_path: Path):
    audit = run_audit([_write(tmp_path, "nat.toml", NATBIND % "0*t - 1")], budget="small")
    step = _only(audit)
    assert step.numeric is None
    assert step.reason == ("its natural k denotes -1 on runs, which is no natural number: no "
                           "row is an instance of the statement")


def test_the_natural_mask_is_exact():
    """Integer and sign tests in integers: 1/2 and -1 are no naturals, 0, 4/2 and 2**70 + 1
    (which no float tells from 2**70) are."""
    k = sympy.Symbol("k")
    judgement = Judgement((), Fact(k + 1, ">"), (), ("k",))
    values = [Fraction(-1), Fraction(0), Fraction(1, 2), Fraction(4, 2), Fraction(2**70 + 1),
              Fraction(2**70 + 1, 2)]
    batch = InstanceBatch.from_instances([Instance({"k": v}, {}) for v in values],
                                         Origin("check"))
    compiled = CompiledJudgement.compile(judgement, (), (k,))
    assert compiled.assumed(batch).tolist() == [False, True, False, True, True, False]
    verdict = compiled.check(batch)
    assert (verdict.instances, verdict.vacuous, verdict.violations) == (6, 3, 0)
    assert CompiledJudgement.compile(judgement).check(batch).vacuous == 0  # without: every row


#: red team 10, find2/exists2.toml (and exists.toml with `names = { B = "0*R2" }`)
EXISTS = """
title = "an existential checked at one value"
vectors = ["w", "v"]
scalars = ["%(name)s", "z"]

[[step]]
id = "bounded"
given = []
claim = "%(claim)s"
witness = { %(witness)s }

[numeric]
run = "online"
%(names)s
"""


def _exists(tmp_path: Path, name: str, witness: str, names: str = "",
            claim: str = "") -> Audit:
    text = EXISTS % {"name": name, "claim": claim or f"norm2(w) <= {name}",
                     "witness": witness, "names": names}
    return run_audit([_write(tmp_path, "exists.toml", text)], budget="small")


def test_an_existential_is_checked_at_its_witness_not_at_the_run_quantity(tmp_path: Path):
    """`exists R2: norm2(w) <= R2` (witness norm2(w)) was checked at the online runs' R2 and
    found 'violated' on 9 719 of 13 517 rows: it holds at its witness on every row."""
    step = _only(audit := _exists(tmp_path, "R2", 'R2 = "norm2(w)"'))
    assert step.symbolic.status == "proved"
    assert step.numeric is not None and step.numeric.status == "held"
    assert step.numeric.violations == 0 and step.numeric.min_slack == 0
    assert audit.passed()


def test_an_existential_ignores_the_binding_of_its_bound_name(tmp_path: Path):
    step = _only(_exists(tmp_path, "B", 'B = "norm2(w)"', 'names = { B = "0*R2" }'))
    assert step.numeric is not None and step.numeric.status == "held"
    assert step.numeric.violations == 0


def test_a_vector_witness_is_substituted_inside_the_inner_products(tmp_path: Path):
    step = _only(_exists(tmp_path, "B", 'v = "w"', claim="dot(v, w) >= 0"))
    assert step.numeric is not None and step.numeric.status == "held"
    assert step.numeric.min_slack == 0  # norm2(w) at w = 0


def test_a_witness_no_run_evaluates_leaves_the_step_not_run_naming_it(tmp_path: Path):
    step = _only(_exists(tmp_path, "B", 'B = "norm2(w) + z**2"'))
    assert step.numeric is None
    assert step.reason == "z is no quantity of an online run: bind it in [numeric] names"


#: red team 10, find3/fam-bound.toml: a family bound in [numeric] names
FAMILY_BOUND = """
title = "a family member on runs"
scalars = ["y"]
indexed = ["y"]

[[step]]
id = "sq"
given = []
claim = "y[1]**2 >= 0"

[numeric]
run = "online"
names = { y = "t" }
"""


def test_a_family_bound_in_names_is_refused_in_one_line(tmp_path: Path, capsys):
    """It was accepted and changed nothing: a family bound to a quantity (here a scalar,
    on online runs, which offer their dataset's families) is refused at the entry, as a
    defined name's is (exit 2, one line). A family is bound to a family of the run
    (`y = "Y"`: tests/test_verify/runs/test_runs_families.py)."""
    from verify.cli import main

    path = _write(tmp_path, "fam.toml", FAMILY_BOUND)
    assert main(["audit", path]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"novikoff: error: {path}:13:16: numeric.names.y = 't': y is a family "
                   "(listed in indexed): bind it to a family of online runs (they offer "
                   "X (of vectors), Y (of scalars), XU (of vectors), YU (of scalars), XS (of "
                   "vectors), YS (of scalars), ZS (of vectors), IS (of scalars)), not to an "
                   "expression"]


#: red team 10, find3/sr.toml and fam.toml: a sum and a family member on runs
SUMS = """
title = "sums on runs"
scalars = ["j", "N", "y"]
naturals = ["N"]
indexed = ["y"]

[[step]]
id = "count"
given = []
claim = "sum(j in 1..N, 1) == N"

[[step]]
id = "sq"
given = []
claim = "y[1]**2 >= 0"

[numeric]
run = "online"
names = { N = "t" }
"""


def test_a_sum_or_a_family_member_is_not_run_with_no_impossible_advice(tmp_path: Path):
    """The reason said `sum(#1 in 1..N: 1) is no quantity of an online run: bind it in
    [numeric] names`: the kernel's spelling, and a binding no file can write. A sum that
    reads no family is evaluated on the rows (N bound to t: the count is t on every row);
    a member of a family the runs do not offer is not run, the reason naming it."""
    audit = run_audit([_write(tmp_path, "sr.toml", SUMS)], budget="small")
    count, member = audit.proofs[0].steps
    assert count.numeric is not None and count.numeric.status == "held"
    assert count.numeric.vacuous == 0 and count.numeric.instances > 100
    assert member.numeric is None
    assert member.reason == (
        "it reads a member of the family y, and y is no family of an online run, which "
        "offers X (of vectors), Y (of scalars), XU (of vectors), YU (of scalars), XS (of "
        "vectors), YS (of scalars), ZS (of vectors), IS (of scalars), its dataset's examples "
        "and labels and its history, bound in [numeric] names as `x = \"X\"`: checked "
        "symbolically only")
    assert "#" not in to_text(audit) and "bind it in" not in to_text(audit)


#: red team 12 D (r5-negdiv-runs.toml, r4-define-neg.toml): a divisor negative on every row
DIVIDES = """
title = "a division on runs"
scalars = ["t", "g"]
[define]
g = "max(0, 1/(t - 1000000))"
[numeric]
run = "online"
[[step]]
id = "s"
given = [%s]
claim = "%s"
"""


@pytest.mark.parametrize(("given", "claim", "status", "vacuous"), [
    ('"1/(t - 1000000) <= 0"', "t >= 5", "violated", False),  # false at t = 0..4
    ('"1/(t - 1000000) <= 0"', "t <= 1000000", "held", False),
    ("", "g >= 0", "held", False),
    ('"1/(t - 1000000) > 0"', "t >= 5", "not-run", True),  # defined, false on every row
    ('"t/t >= 1"', "t >= 1", "held", True),  # undefined where t = 0, and only there
])
def test_a_relation_on_runs_is_read_wherever_its_divisors_are_nonzero(
        tmp_path: Path, given: str, claim: str, status: str, vacuous: bool):
    """Red team 12 D: a denominator's clearing condition D > 0 was a hypothesis on runs, so
    `1/(t - 10^6) <= 0 |- t >= 5` was vacuous on every row (t < 10^6) and its violations at
    t < 5 were missed. A relation is defined where its divisors are nonzero: a row is vacuous
    only where one is 0 (or a hypothesis, as written, is false there)."""
    audit = run_audit([_write(tmp_path, "div.toml", DIVIDES % (given, claim))],
                      budget="small")
    step = _only(audit)
    assert step.numeric is not None and step.numeric.status == status
    assert (step.numeric.vacuous > 0) is vacuous
    if status == "violated":
        assert step.numeric.counterexample is not None
        assert step.numeric.counterexample.scalars["t"] < 5
        assert 0 < step.numeric.violations < step.numeric.instances  # rows t >= 5 hold
        assert step.numeric.min_slack == -5  # at t = 0
    else:
        assert step.numeric.violations == 0


@pytest.mark.parametrize("binding", [
    "sum(j in 1..t, 1)", "sum(j in 1..3, j)", "sum(j in 1..3, dot(w, w))",
    "dot(w, sum(j in 1..2, x))"])
def test_a_sum_bound_in_names_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], binding: str):
    """Red team 12 G: a sum bound as a run quantity raised a 62-line KernelError traceback
    and exit 1. A binding has no sum: refused at the entry, one line, exit 2."""
    from verify.cli import main

    path = _write(tmp_path, "nat.toml", NATBIND % binding)
    assert main(["audit", path, "--budget", "small"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert f"nat.toml:13:16: numeric.names.k = {binding!r}: a name cannot be bound to a sum" in line
    assert "evaluates none on runs" not in line  # truth14: untrue since runs evaluate sums


SLACKS = """title = "one bound written three ways"
vectors = ["w", "u"]
scalars = ["t", "R2", "gamma_u"]
naturals = ["t"]

[numeric]
run = "online"

[[step]]
id = "as-written"
given = ["gamma_u > 0", "R2 >= 0"]
claim = "t/(t + 2) <= 2*R2*dot(u, u)/(gamma_u**2*(t + 2))"

[[step]]
id = "times-ten"
given = ["gamma_u > 0", "R2 >= 0"]
claim = "10*t/(t + 2) <= 20*R2*dot(u, u)/(gamma_u**2*(t + 2))"

[[step]]
id = "within"
given = ["gamma_u > 0", "R2 >= 0"]
claim = "2*R2*dot(u, u)/(gamma_u**2*(t + 2)) - t/(t + 2) >= %s"
"""


def test_the_least_slack_is_that_of_the_claim_as_written(tmp_path: Path) -> None:
    """Newcomer 28 F10: `t <= N/(eta*gamma**2)` was reported with the least slack of the
    claim multiplied through by its denominator, `(N/(eta*gamma**2) - t)*eta*gamma**2`: 1/10
    where the bound was never within 10 of t, and another number for the same bound written
    another way. The least slack is now `rhs - lhs` as written: ten times the claim has ten
    times its slack, and the bound minus t is at least that slack on every row, with
    equality somewhere (its own least slack 0)."""
    audit = run_audit([_write(tmp_path, "slack.toml", SLACKS % "0")], budget="small")
    slack = {s.step.id: s.numeric.min_slack for s in audit.proofs[0].steps
             if s.numeric is not None}
    assert slack["as-written"] is not None and slack["as-written"] > 0
    assert slack["times-ten"] == 10 * slack["as-written"]
    assert slack["within"] == slack["as-written"]
    tight = run_audit([_write(tmp_path, "tight.toml", SLACKS % slack["as-written"])],
                      budget="small")
    within = tight.proofs[0].steps[2].numeric
    assert within is not None and within.status == "held" and within.min_slack == 0


def test_the_plan_expands_each_relation_once_per_naming(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Planning a proof asks of every step whether its relations, the names replaced,
    expand past `MAX_TERMS` (`Naming.too_large`); the steps repeat their hypotheses, so each
    relation's size is found once per naming (the built-in proofs asked about 2 024
    relations, 685 distinct), and every answer is a fresh naming's."""
    from proofs.library import load_builtin
    from verify.audit import job
    from verify.kernel.algebra import normal_form
    from verify.proof_checker import statements
    from verify.runs import naming

    proof = load_builtin("canonical-online")
    assert proof.numeric is not None
    sized: list[sympy.Expr] = []
    original = naming.expansion_size

    def counted(e: sympy.Expr) -> object:
        sized.append(e)
        return original(e)

    monkeypatch.setattr(naming, "expansion_size", counted)
    names = naming.Naming.of(proof.numeric, proof.vectors, proof.indexed)
    stated = statements(proof)
    asked = []
    for step in proof.steps:
        if (found := stated[step.id]) is None:
            continue
        forms = [normal_form(r, r.text)[0] for r in (*found.hypotheses, found.claim)]
        asked.extend(forms)
        fresh = naming.Naming.of(proof.numeric, proof.vectors, proof.indexed)
        assert names.too_large(forms[:-1], forms[-1]) is fresh.too_large(forms[:-1], forms[-1])
    assert len({f.expr for f in asked}) < len(asked), "the steps repeat relations"
    sized.clear()
    for forms in (asked, asked):
        assert names.too_large(forms[:-1], forms[-1]) is False
    assert not sized, "a relation expanded again on the same naming"
    assert job._part("canonical-online", proof, "canonical-online", names, {}, {}).checks
