"""The term-wise rule re-checked by Coq (issue 31, part 1): a step that uses another step's
claim summed over a range or a set states the used claim as written, quantified over the
members (`forall z : Z, (lo <= z <= hi)%Z -> filters -> claim`), and its proof derives the
kernel's summed claim from the preamble's lemmas (`zsum_ge`, `zsum_eq0`, the indicators'
cases, `zsum_combine`, `zsum_zero`), so `checked` assumes no sum. The used claim at every
member is derived too, from the used step's theorem applied at each member
(`verify.coq.sums.members`), so the theorem is closed over it and says plain `checked`; it
was a premise, and said so (newcomer 31 F8). Exported with that premise (the fallback: a
derivation the export cannot make, or coqc rejects), the theorems compile; false variants
(the premise over a smaller range or set than the sum, a strict sum over a possibly empty
range) do not: the first in every run, all with `-m slow`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import sympy
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.coq import (
    SUMMED,
    _summed_premises,
    _termwise_premises,
    export_and_check,
    lines,
)
from verify.coq.preamble import PREAMBLE
from verify.coq.statement import Exported, Termwise
from verify.kernel import Rel
from verify.proof_checker import check_proof
from verify.search.work import BUDGETS

pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")

TERMWISE = b"""
title = "termwise"
scalars = ["y", "c", "j", "l", "N"]
naturals = ["N"]
indexed = ["y"]

[sets.M]
index = "j"
range = "1..N"
where = ["y[j] >= 1"]

[[step]]
id = "member"
given = ["c >= 0"]
claim = "c*y[j]**2 >= 0"

[[step]]
id = "sum"
claim = "c*sum(j in 1..N, y[j]**2) >= 0"
uses = [{ step = "member", sum = "j in 1..N" }]

[[step]]
id = "member-strict"
given = ["c > 0"]
claim = "c*y[j]**2 + c > 0"

[[step]]
id = "sum-strict"
claim = "sum(j in 1..N, c*y[j]**2 + c) >= 0"
uses = [{ step = "member-strict", sum = "j in 1..N" }]

[[step]]
id = "member-filtered"
given = ["j >= 1", "j <= N", "y[j] >= 1", "c >= 0"]
claim = "c*y[j] >= c"

[[step]]
id = "sum-filtered"
claim = "c*sum(j in M, y[j]) >= c*sum(j in M, 1)"
uses = [{ step = "member-filtered", sum = "j in M" }]

[[step]]
id = "member-pair"
given = ["c == 0"]
claim = "c*y[j]*y[l] == 0"

[[step]]
id = "sum-pair"
claim = "c*sum(j in 1..N, y[j])**2 == 0"
uses = [{ step = "member-pair", sum = ["l in 1..N", "j in 1..N"] }]

# a member indexed by both levels (`y[l+j]`): the raw sum's member printed `y (x + IZR z)`,
# the canonical sum's `y (IZR z + x)`, which `ring` read as two unknowns (regression)
[[step]]
id = "member-pair-index"
given = ["c >= 0"]
claim = "c*y[l+j]**2 >= 0"

[[step]]
id = "sum-pair-index"
claim = "c*sum(j in 1..N, sum(l in 1..N, y[l+j]**2)) >= 0"
uses = [{ step = "member-pair-index", sum = ["l in 1..N", "j in 1..N"] }]

[[step]]
id = "uses-sum"
claim = "c*sum(j in 1..N, y[j]**2) + 1 >= 1"
uses = ["sum"]
"""

# `sum`'s premises as exported: the kept hypothesis, then the used claim for each member
SUM_PREMISES = ("c >= 0 ->\n    (forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat N))%Z)%Z -> "
                "(c * ((y (IZR z'0)) ^ 2)) >= 0)")
SUM_THEOREM = "Theorem step_sum : forall (N : nat) (c j : R) (y : R -> R),\n    " + SUM_PREMISES

PAIR_INDEX_THEOREM = (
    "Theorem step_sum_pair_index : forall (N : nat) (c j l : R) (y : R -> R),\n    c >= 0 ->\n"
    "    (forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat N))%Z)%Z -> forall z'1 : Z, (((1))%Z "
    "<= z'1 <= ((Z.of_nat N))%Z)%Z -> (c * ((y ((IZR z'0) + (IZR z'1))) ^ 2)) >= 0)")

#: False variants of termwise.v, each (what it breaks, the text, its replacement): coqc must
#: reject each. Each drops the kept hypothesis that makes the used claim true (c >= 0,
#: c = 0), so the premise alone must carry the sum: without it the theorem is false.
FALSE_TERMWISE = (
    # the premise over 2..N, the sum over 1..N: false at c = -1, y(1) = 1, y = 0 elsewhere
    ("smaller range", SUM_THEOREM,
     SUM_THEOREM.replace("c >= 0", "c = c").replace("(((1))%Z <= z'0", "(((2))%Z <= z'0")),
    # a strict member claim gives only a sum >= 0: > 0 is false on the empty range (N = 0)
    ("strict sum", "((y j'1) ^ 2))))) >= 0.", "((y j'1) ^ 2))))) > 0."),
    # the premise over a smaller set (y >= 2) than the sum's (y >= 1): false at c = -1,
    # N = 1, y(1) = 3/2
    ("smaller set", "c >= 0 ->\n    (forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat N))%Z)%Z -> "
     "(y (IZR z'0)) >= 1 ->",
     "c = c ->\n    (forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat N))%Z)%Z -> "
     "(y (IZR z'0)) >= 2 ->"),
    # the premise about y(j + j) only, the sum of y(j + l)**2: false at N = 2, c = -1,
    # y(3) = 1, y = 0 elsewhere (its members' indices replaced by `ring`: no more than equal)
    ("another member", PAIR_INDEX_THEOREM, PAIR_INDEX_THEOREM.replace("c >= 0", "c = c").replace(
        "(y ((IZR z'0) + (IZR z'1)))", "(y ((IZR z'0) + (IZR z'0)))")),
    # the inner index over 2..N: false at N = 1, c = 1, y(1) = 1 (the premise is empty)
    ("smaller inner range", "c = 0 ->\n    (forall z'0 : Z, (((1))%Z <= z'0 <= "
     "((Z.of_nat N))%Z)%Z -> forall z'1 : Z, (((1))%Z",
     "0 = 0 ->\n    (forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat N))%Z)%Z -> "
     "forall z'1 : Z, (((2))%Z"),
)


@pytest.fixture(scope="module")
def checked() -> tuple[object, list[object]]:
    proof = parse_proof(TERMWISE, "termwise.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert report.status == "proved"
    return proof, report.steps


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, checked: tuple[object, list[object]]
             ) -> tuple[Path, dict[str, str], list[str]]:
    """termwise.v as exported, each premise at every member derived, compiled."""
    directory = tmp_path_factory.mktemp("coq")
    run = export_and_check(directory, [("termwise", *checked)])  # type: ignore[list-item]
    return directory, run.for_proof("termwise"), lines(run)


@pytest.fixture(scope="module")
def premised(tmp_path_factory: pytest.TempPathFactory, checked: tuple[object, list[object]]
             ) -> Path:
    """termwise.v exported with every premise at every member kept (the fallback), not
    compiled: the summation alone, which the false variants break."""
    directory = tmp_path_factory.mktemp("coq")
    steps = [s.step.id for s in checked[1]]  # type: ignore[attr-defined]
    export_and_check(directory, [("termwise", *checked)],  # type: ignore[list-item]
                     compile=False, assume=[("termwise", s) for s in steps])
    return directory


def test_the_preamble_proves_the_term_wise_lemmas_without_an_axiom() -> None:
    termwise = PREAMBLE[PREAMBLE.index("The term-wise rule"):]
    assert "Axiom" not in termwise and "Admitted" not in termwise and "nra" not in termwise
    for lemma in ("zsum_ge", "zsum_eq0", "ind_ge_nonneg", "ind_gt_nonneg", "ind_eq_nonneg",
                  "ind_ge_zero", "zsum_combine", "zsum_zero"):
        assert f"Lemma {lemma} :" in termwise
    # as the kernel's rule: each term >= 0 gives a sum >= 0, and no lemma makes a sum > 0
    assert "0 < zsum" not in PREAMBLE


def test_a_term_wise_premise_is_the_used_claim_for_every_member(premised: Path) -> None:
    text = (premised / "termwise.v").read_text()
    assert (SUM_THEOREM + " ->\n    (c * (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => "
            "((y j'1) ^ 2)))) >= 0.") in text
    # a set's filter as written, for each member; two levels, the outer index first
    assert ("(forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat N))%Z)%Z -> (y (IZR z'0)) >= 1 -> "
            "(c * (y (IZR z'0))) >= c) ->") in text
    assert ("(forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat N))%Z)%Z -> forall z'1 : Z, "
            "(((1))%Z <= z'1 <= ((Z.of_nat N))%Z)%Z -> (c * (y (IZR z'0)) * (y (IZR z'1))) "
            "= 0) ->") in text
    # a step that imports `sum` states its premise the same way and applies its theorem
    uses = text[text.index("Theorem step_uses_sum"):]
    assert SUM_PREMISES in uses[:uses.index("Proof.")]
    # the summed claim is derived, never a premise: no theorem states the kernel's sum of
    # the used claim (its text, `(... summed over j in 1..N)`, is in the comments only)
    statements = re.findall(r"Theorem .*?Proof\.", text, re.S)
    assert len(statements) == 11 and not any("summed over" in s for s in statements)
    assert "(c * (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => ((y j'1) ^ 2)))) >= 0 ->" not in text
    assert "Admitted" not in text and "nra" not in text


# `sum`'s closed theorem and its proof's first lines: the premise at every member asserted
# and proved by `member`'s theorem at each member, with `c >= 0` (the kept hypothesis)
CLOSED_SUM = (
    "Theorem step_sum : forall (N : nat) (c j : R) (y : R -> R),\n    c >= 0 ->\n"
    "    (c * (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => ((y j'1) ^ 2)))) >= 0.\nProof.\n"
    "  intros nat'0 c j y hyp'0.\n"
    "  assert (hyp'1 : (forall z'0 : Z, (((1))%Z <= z'0 <= ((Z.of_nat nat'0))%Z)%Z -> "
    "(c * ((y (IZR z'0)) ^ 2)) >= 0)).\n  {\n    intros z'0 hz'1.\n"
    "    refine (step_member c (IZR z'0) y hyp'0).\n  }\n")


def test_a_term_wise_premise_is_derived_from_the_used_theorem(
        exported: tuple[Path, dict[str, str], list[str]]) -> None:
    text = (exported[0] / "termwise.v").read_text()
    assert CLOSED_SUM in text
    # no theorem takes a claim at every member as a premise: each proof derives it
    statements = re.findall(r"Theorem .*?Proof\.", text, re.S)
    assert len(statements) == 11 and not any("forall z'0" in s for s in statements)
    # a membership premise of the used theorem from the bounds and the filter as written
    filtered = text[text.index("Theorem step_sum_filtered"):]
    filtered = filtered[:filtered.index("Qed.")]
    assert "refine (step_member_filtered nat'0 c (IZR z'0) y _ _ _ hyp'0)." in filtered
    assert "(IZR_le _ _ (proj1 hz'1))" in filtered and "(IZR_le _ _ (proj2 hz'1))" in filtered
    # two levels: the outer index is the used step's `j`, the inner its `l`
    assert "refine (step_member_pair c (IZR z'0) (IZR z'2) y hyp'0)." in text
    # a step that applies `sum`'s theorem derives its own copy and applies it without
    uses = text[text.index("Theorem step_uses_sum"):]
    assert "pose proof (step_sum nat'0 c j y hyp'0) as use'2." in uses
    assert "Admitted" not in text and "nra" not in text


@needs_coqc
def test_term_wise_steps_are_checked_with_the_claim_at_each_member_derived(
        exported: tuple[Path, dict[str, str], list[str]]) -> None:
    # each theorem is closed: coqc checked the premise at every member from the used step's
    # theorem, so `checked` assumes nothing (newcomer 31 F8: it assumed, and said so)
    _, results, report = exported
    assert set(results.values()) == {"checked"}, results
    assert report[-1].startswith("coq: 11/11 steps checked by coqc in ")
    assert "assuming" not in report[-1]


def _compiles_but_not(directory: Path, variants: tuple[tuple[str, str, str], ...],
                      control: bool = False) -> None:
    """termwise.v compiles, and each of `variants` does not (termwise.v restored after);
    with `control`, `sum` without its kept hypothesis does (its premise carries the sum)."""
    path = directory / "termwise.v"
    text = path.read_text()

    def compiles(source: str) -> bool:
        return coqc_compiles(directory, 'termwise.v', source, COQC)  # type: ignore[arg-type]

    try:
        assert compile_inner_product(directory).returncode == 0  # type: ignore[arg-type]
        assert compiles(text)
        for what, old, _new in FALSE_TERMWISE:  # every variant applies to this text
            assert text.count(old) == 1, what
        # the premise alone carries the sum: without `c >= 0` the theorem still compiles
        # (the steps before `uses-sum`, which applies it with `c >= 0`)
        alone = text[:text.index("(* uses-sum:")]
        assert not control or compiles(alone.replace(SUM_THEOREM, SUM_THEOREM.replace(
            "c >= 0", "c = c")))
        for what, old, new in variants:
            assert not compiles(text.replace(old, new)), what
    finally:
        path.write_text(text)


@needs_coqc
def test_the_term_wise_theorems_compile_and_a_false_one_does_not(premised: Path) -> None:
    _compiles_but_not(premised, FALSE_TERMWISE[:1])


@pytest.mark.slow
@needs_coqc
def test_the_term_wise_theorems_compile_and_no_false_variant_does(premised: Path) -> None:
    _compiles_but_not(premised, FALSE_TERMWISE, control=True)


@pytest.mark.slow
@needs_coqc
def test_a_derived_premise_needs_the_used_theorems_premises(
        exported: tuple[Path, dict[str, str], list[str]]) -> None:
    # with its premise `sum` holds without `c >= 0` (the control above); derived from
    # `member`'s theorem, which needs it, it does not: the derivation is no formality
    directory = exported[0]
    text = (directory / "termwise.v").read_text()
    alone = text[:text.index("(* uses-sum:")]
    assert compile_inner_product(directory).returncode == 0  # type: ignore[arg-type]
    assert not coqc_compiles(directory, "termwise.v", alone.replace(  # type: ignore[arg-type]
        CLOSED_SUM, CLOSED_SUM.replace("c >= 0", "c = c")), COQC)


def test_a_sum_still_assumed_is_reported_and_a_derived_one_is_not() -> None:
    """`checked` says `assuming` for a premise that states the kernel's summed claim (a
    step whose sum is not derived: an instance, an induction), never for one derived."""
    summed = Rel(sympy.Symbol("s"), ">=", sympy.Integer(0), "(y[j] >= 0 summed over j in 1..N)")
    plain = Rel(sympy.Symbol("c"), ">=", sympy.Integer(0), "c >= 0")
    assumed = Exported("s", "step_s", hypotheses=(plain, summed))
    assert _summed_premises(assumed) == SUMMED.format(n=1)
    derived = Exported("s", "step_s", hypotheses=(plain, summed),
                       termwise={summed: Termwise("member", plain, ())})
    assert _summed_premises(derived) == ""
    # nor for one derived from `member`'s theorem (no longer a premise of the theorem)
    closed = Exported("s", "step_s", hypotheses=(plain,),
                      termwise={summed: Termwise("member", plain, ())},
                      derived=frozenset({summed}))
    assert _summed_premises(closed) == "" and _termwise_premises(closed) == ""
    # but the claim at every member is a premise, not derived from `member`'s theorem
    assert _termwise_premises(derived) == (
        ", assuming the claim of member at every member of the sum (a premise of this "
        "theorem, not derived in Coq from its theorem)")
    assert _termwise_premises(assumed) == ""
    twice = Exported("s", "step_s", hypotheses=(plain, summed, plain),
                     termwise={summed: Termwise("member", plain, ()),
                               plain: Termwise("other", plain, ())})
    assert _termwise_premises(twice) == (
        ", assuming the claims of member, other at every member of their sums (premises of "
        "this theorem, not derived in Coq from their theorems)")


# Newcomer 21, C1: `--coq` ended in a traceback (StopIteration) on this file: exporting the
# induction `ind` replaced the exporter's term-wise summations with its own base and update
# terms (one attribute name for both), so `after`, which uses `summed`, no longer stated its
# quantified premise, and applying `summed` found none.
INDUCTION_BETWEEN = b"""
title = "an induction exported between a term-wise step and a step that uses it"
scalars = ["y", "g", "k", "j", "y0", "R2"]
vectors = ["x", "u", "w", "x0"]
naturals = ["k"]
indexed = ["x", "y"]
[sets]
U = { index = "j", range = "1..k", where = ["y[j]*dot(u, x[j]) >= g"] }
[[step]]
id = "member"
given = ["j >= 1", "j <= k", "y[j]*dot(u, x[j]) >= g"]
claim = "y[j]*dot(u, x[j]) - g >= 0"
[[step]]
id = "summed"
uses = [{ step = "member", sum = "j in U" }]
claim = "dot(u, sum(j in U, y[j]*x[j])) >= g*sum(j in U, 1)"
[[step]]
id = "ind"
claim = "norm2(w) <= k*R2"
[step.induction]
variable = "k"
base = { w = "0*w" }
step = { w = "w + y0*x0" }
given = ["y0**2 == 1", "y0*dot(w, x0) <= 0", "norm2(x0) <= R2"]
constants = ["R2"]
[[step]]
id = "after"
given = ["dot(u, w) == dot(u, sum(j in U, y[j]*x[j]))"]
uses = ["summed"]
claim = "dot(u, w) >= g*sum(j in U, 1)"
"""


def test_an_induction_between_keeps_the_term_wise_premises_of_later_steps(
        tmp_path: Path) -> None:
    proof = parse_proof(INDUCTION_BETWEEN, "between.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert report.status == "proved"
    run = export_and_check(tmp_path, [("between", proof, report.steps)], compile=COQC is not None)
    text = (tmp_path / "between.v").read_text()
    after = text[text.index("Theorem step_after"):]
    proof = after[after.index("Proof."):after.index("Qed.")]
    assert "(forall z'0 : Z," in proof  # the quantified premise, derived
    assert "refine (step_member u x nat'0 g (IZR z'0) y _ _ _)." in proof
    assert "summed over" not in after[:after.index("Proof.")]
    if COQC is not None:
        assert set(run.for_proof("between").values()) == {"checked"}
