"""Red team of two kernel rules: antisymmetry (an equality's evidence as its two inequalities)
and one-update lemmas in an induction (rules.py `_lemma`, `_statement_of`, `_obligations_of`).

Each test is an attack: a false statement that a loose reading of the rule would prove, or a
statement that would mean something other than what it says. Unmarked tests are attacks the
kernel resists; the one attack that worked (the Coq exporter read a lemma whose claim repeats
an update fact as a carried invariant) is a test of the correct behaviour, which failed before
the exporter's fix; since the exporter replays one-update lemmas, both Coq attacks compile.
"""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from cases.sequents import evidence, proved, rel, sequents

from verify import kernel
from verify.kernel import (
    Cases,
    Certificate,
    Counterexample,
    Fact,
    Induction,
    Judgement,
    KernelError,
    Product,
    Rel,
    RuleError,
    Sequent,
    UseError,
    gram,
)
from verify.prover import decide

t, s, B, n, y, c = (sympy.Symbol(v) for v in ("t", "s", "B", "n", "y", "c"))
WW, WX, XX = gram("w", "w"), gram("w", "x"), gram("x", "x")
VECTORS = frozenset({"w", "x", "u"})
SCALARS = frozenset({"t", "s", "B", "n", "y", "c"})
ZERO = sympy.Integer(0)


sequent = sequents(VECTORS, SCALARS)


UPDATE = (rel(y**2, "==", 1), rel(y * WX, "<=", 0), rel(XX, "<=", B))
GROWTH = rel(WW + 2 * y * WX + y**2 * XX, "<=", WW + B)  # ||w + y x||^2 <= ||w||^2 + B
RUNS = Induction("t", {"w": {}}, {"w": {"w": sympy.Integer(1), "x": y}}, UPDATE,
                 frozenset({"B"}))
NATURAL_T = frozenset({"t"})


def induction(claim: Rel, uses: tuple, rule: Induction = RUNS, hyps: tuple = (),
              naturals: frozenset = NATURAL_T) -> Sequent:
    return sequent(hyps, claim, rule, naturals=naturals, uses=uses, step="norm")


def lemma_statement(hyps: tuple[Rel, ...], claim: Rel, **kw: object) -> kernel.Statement:
    """A lemma's statement, unproved: refusals below happen before any evidence is read."""
    return kernel.statement(sequent(hyps, claim, step="lemma", **kw))  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# One-update lemmas
# ---------------------------------------------------------------------------------------------

def test_a_lemma_hypothesis_equal_to_an_update_fact_only_once_its_division_is_cleared() -> None:
    """Attack: `dot(x,x)/B <= 1` has the fact of `dot(x,x) <= B`; its condition B > 0 differs."""
    divided = rel(XX / B, "<=", 1, (B,))
    normal = kernel.algebra.normal_form
    assert normal(divided, "")[0] == normal(UPDATE[2], "")[0]
    stated = lemma_statement((*UPDATE[:2], divided, rel(B, ">", 0)), GROWTH)
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (stated,)))


def test_a_lemma_cannot_assume_the_invariant_after_the_update() -> None:
    """Attack: a lemma `P(t+1, w + y x) |- P(t+1, w + y x)` would make any invariant inductive."""
    after = rel(WW + 2 * y * WX + y**2 * XX, "<=", 0)  # ||w + y x||^2 <= 0, the goal of `<= 0`
    smuggled = proved(sequent((after,), after, step="lemma"))
    seq = induction(rel(WW, "<=", 0), (smuggled.statement,))
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(seq)


def test_a_lemma_cannot_assume_a_case_of_the_split_step() -> None:
    """Attack: a case of a split inductive step is not one of the step's facts for a lemma."""
    split = Induction("t", RUNS.base, RUNS.step, UPDATE, frozenset({"B"}), Cases(y))
    positive = lemma_statement((rel(y, ">", 0), *UPDATE), GROWTH)
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (positive,), split))


def test_lemmas_do_not_chain_through_each_others_claims() -> None:
    """Attack: a lemma whose hypothesis is another lemma's claim is not matched (given lacks it)."""
    first = lemma_statement(UPDATE, GROWTH)
    second = lemma_statement((GROWTH,), rel(WW + 2 * y * WX + y**2 * XX, "<=", WW + 2 * B))
    with pytest.raises(RuleError, match=r"\|\|w \+ y x\|\||is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (first, second)))


def test_a_lemma_never_enters_the_base_and_a_false_base_is_still_refuted() -> None:
    """Attack: the lemma's claim in the base obligation would hide a false start state."""
    lemma = proved(sequent(UPDATE, GROWTH, step="lemma"))
    seq = induction(rel(WW, "<=", t * B - 1), (lemma.statement,))
    base = next(o for o in kernel.obligations(seq) if o.label == "base")
    assert "lemma" not in base.origins and base.decisive
    refuted = kernel.refute(seq, "base", Counterexample({"t": Fraction(0), "B": Fraction(0)},
                                                       {"w": (Fraction(0),)}))
    assert refuted.label == "base"


def test_a_natural_only_fact_about_the_counter_cannot_enter_as_a_lemma() -> None:
    """Attack: t**2 >= t (true at naturals, false at t = 1/2), through a direct step, as a lemma."""
    counted = proved(sequent((), rel(t**2, ">=", t), Induction("t", {}, {}), naturals=NATURAL_T,
                             step="count"))
    direct = proved(sequent((), rel(t**2, ">=", t), uses=(counted.statement,),
                            naturals=NATURAL_T, step="direct"), (counted,))
    assert direct.statement.runs and not kernel.instance(direct.statement, {}).run
    for used in (direct.statement, kernel.instance(direct.statement, {})):
        with pytest.raises(RuleError, match="mentions t"):
            kernel.statement(induction(rel(WW, "<=", t * B), (used,)))


def test_a_lemma_over_a_natural_is_refused_where_that_name_is_real() -> None:
    """Attack: a lemma proved with n >= 0 (natural) used where the per-update n is real."""
    runs = Induction("t", {"s": ZERO}, {"s": s + n}, (), frozenset())
    lemma = proved(sequent((), rel(s + n, ">=", s), naturals=frozenset({"n"}), step="lemma"))
    with pytest.raises(UseError, match="natural n"):
        kernel.statement(induction(rel(s, ">=", 0), (lemma.statement,), runs))


def test_a_direct_step_that_imported_a_lemma_brings_the_lemmas_claim_as_a_hypothesis() -> None:
    """Attack: launder a lemma whose hypothesis the step lacks through a direct step using it."""
    lacking = proved(sequent((*UPDATE[:2], rel(2 * XX, "<=", B)), GROWTH, step="lacking"))
    laundered = proved(sequent(UPDATE, GROWTH, uses=(lacking.statement,), step="launder"),
                       (lacking,))
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (laundered.statement,)))


def test_an_existential_lemma_is_refused_in_an_induction() -> None:
    """Attack: a lemma `exists c: ...` about the update, whose c would be fixed across updates."""
    some = proved(sequent(UPDATE, rel(WW + 2 * y * WX + y**2 * XX, "<=", WW + c),
                          witness={"c": B}, step="some"))
    assert some.statement.exists == ("c",)
    with pytest.raises(UseError, match="claims or assumes some c"):
        kernel.statement(induction(rel(WW, "<=", t * B), (some.statement,)))


def test_a_lemma_needs_its_own_theorem_not_a_weaker_ones() -> None:
    """Attack: conclude with the Theorem of a true lemma for a false lemma's statement."""
    false_lemma = lemma_statement(UPDATE, rel(WW + 2 * y * WX + y**2 * XX, "<=", WW))
    true_lemma = proved(sequent(UPDATE, GROWTH, step="lemma"))
    seq = induction(rel(WW, "<=", 0), (false_lemma,))
    found = evidence(seq)
    assert all(found)  # with the false lemma, ||w||^2 <= 0 is inductive
    with pytest.raises(KernelError, match="own Theorem"):
        kernel.conclude(seq, found, [true_lemma])


def test_a_lemma_instance_must_still_match_the_steps_facts() -> None:
    """Attack: instantiate a lemma's hypothesis name away (B := 2*B) so it reads differently."""
    lemma = proved(sequent(UPDATE, GROWTH, step="lemma"))
    moved = kernel.instantiate(lemma, {"B": 2 * B})
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (moved.statement,)))
    renamed = kernel.instantiate(lemma, {"y": -y})  # y**2 == 1 is kept; y*<w,x> <= 0 is not
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (renamed.statement,)))


def test_a_scaled_hypothesis_is_not_matched() -> None:
    """Attack: `2*dot(x,x) <= 2*B` is the same inequality but its normal form differs: refused."""
    scaled = lemma_statement((*UPDATE[:2], rel(2 * XX, "<=", 2 * B)), GROWTH)
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (scaled,)))


def test_a_lemma_about_the_invariant_itself_is_used_soundly() -> None:
    """Control: a lemma whose hypothesis is the invariant P(t, w) is accepted and still true."""
    lemma = proved(sequent((*UPDATE, rel(WW, "<=", t * B), rel(t, ">=", 0)),
                           rel(WW + 2 * y * WX + y**2 * XX, "<=", (t + 1) * B), step="lemma"))
    seq = induction(rel(WW, "<=", t * B), (lemma.statement,))
    theorem = proved(seq, (lemma,))
    assert theorem.statement.hypotheses == () and "[lemma]" in theorem.statement.run


# ---------------------------------------------------------------------------------------------
# Antisymmetry
# ---------------------------------------------------------------------------------------------

EQ = sequent((rel(s, ">=", 0),), rel(s, "==", 0), step="eq")  # false: s = 1


def _contradiction(hyps: tuple[Fact, ...]) -> tuple[Judgement, Certificate]:
    judgement = Judgement(hyps, Fact(ZERO, ">"), tuple(sorted(VECTORS)), tuple(sorted(SCALARS)))
    found = decide(judgement).certificate
    assert found is not None
    return judgement, found


def test_antisymmetry_needs_two_different_halves() -> None:
    """Attack: s >= 0 given twice as both halves of s == 0 (s >= 0 and -s >= 0)."""
    (ob,) = kernel.obligations(EQ)
    half = Judgement(ob.judgement.hypotheses, Fact(s, ">="), ob.judgement.vectors,
                     ob.judgement.scalars)
    cert = Certificate((Product(Fraction(1), (0,)),))
    kernel.check_certificate(half, cert)
    with pytest.raises(KernelError, match="another judgement"):
        kernel.conclude(EQ, [(half, cert, half, cert)], [])


def test_antisymmetry_refutation_form_negates_its_own_half() -> None:
    """Attack: the half -s >= 0 'refuted' with -s > 0 (the first half's negation), not s > 0."""
    (ob,) = kernel.obligations(EQ)
    first = Judgement(ob.judgement.hypotheses, Fact(s, ">="), ob.judgement.vectors,
                      ob.judgement.scalars)
    cert = Certificate((Product(Fraction(1), (0,)),))
    wrong = _contradiction((*ob.judgement.hypotheses, Fact(-s, ">")))
    with pytest.raises(KernelError, match="another judgement"):
        kernel.conclude(EQ, [(first, cert, *wrong)], [])


def test_an_equality_has_no_refutation_form_of_its_own() -> None:
    """Attack: s == 0 as one pair `s >= 0, -s > 0 |- 0 > 0` (as if -s > 0 negated s == 0)."""
    (ob,) = kernel.obligations(EQ)
    wrong = _contradiction((*ob.judgement.hypotheses, Fact(-s, ">")))
    with pytest.raises(KernelError, match="another judgement"):
        kernel.conclude(EQ, [wrong], [])


def test_four_part_evidence_is_for_an_equality_only() -> None:
    """Attack: an inequality s > 0 given two halves (s >= 0 twice) as if it were an equality."""
    seq = sequent((rel(s, ">=", 0),), rel(s, ">", 0), step="gt")
    (ob,) = kernel.obligations(seq)
    half = Judgement(ob.judgement.hypotheses, Fact(s, ">="), ob.judgement.vectors,
                     ob.judgement.scalars)
    cert = Certificate((Product(Fraction(1), (0,)),))
    with pytest.raises(KernelError, match="two such pairs for an equality"):
        kernel.conclude(seq, [(half, cert, half, cert)], [])


# ---------------------------------------------------------------------------------------------
# The Coq export of an induction with a one-update lemma
# ---------------------------------------------------------------------------------------------

DUPLICATE = b'''
title = "a lemma whose claim is an update fact"
vectors = ["w", "x"]
scalars = ["y", "t", "R2"]
naturals = ["t"]

[[step]]
id = "dup"
given = ["dot(x, x) <= R2"]
claim = "dot(x, x) <= R2"

[[step]]
id = "norm-growth"
claim = "norm2(w) <= t*R2"
uses = ["dup"]
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "dot(x, x) <= R2"]
constants = ["R2"]
'''


def _coq_results(text: bytes, tmp_path: Path) -> tuple[dict[str, str], str]:
    """The proof checked, exported and compiled by coqc: its results and its `.v` text."""
    from proofs.proof_file import parse_proof
    from verify.coq import export_and_check
    from verify.proof_checker import check_proof

    proof = parse_proof(text, "red.toml")
    report = check_proof(proof)
    assert [st.status for st in report.steps] == ["proved"] * len(report.steps)
    run = export_and_check(tmp_path, [("red", proof, list(report.steps))])
    return run.for_proof("red"), (tmp_path / "red.v").read_text()


def _step_premises(text: str) -> str:
    start = text.index("Lemma step_norm_growth_step :")
    return text[start:text.index("Proof.", start)]


needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not on PATH")


@needs_coqc
@pytest.mark.usefixtures("preamble_once")  # tests/coq_preamble.py
def test_the_coq_export_applies_a_one_update_lemma_and_does_not_assume_it(
        tmp_path: Path) -> None:
    """Attack: an induction using a lemma exported as if the lemma's claim were an update
    fact (a premise of the step lemma or of the theorem over runs). Before issue 27's Coq
    replay the exporter refused the step; now the lemma's theorem is applied in the step."""
    text = DUPLICATE.replace(b'given = ["dot(x, x) <= R2"]\nclaim = "dot(x, x) <= R2"',
                             b'given = ["y**2 == 1", "y*dot(w, x) <= 0", "dot(x, x) <= R2"]\n'
                             b'claim = "norm2(w + y*x) <= norm2(w) + R2"')
    results, written = _coq_results(text, tmp_path)
    assert results == {"dup": "checked", "norm-growth": "checked"}
    assert "(vadd w (vscal y x))) <= ((ip w w) + R2) ->" not in _step_premises(written)
    assert "pose proof (step_dup w x y R2 " in written


@needs_coqc
@pytest.mark.usefixtures("preamble_once")  # tests/coq_preamble.py
def test_the_coq_export_reads_a_lemma_whose_claim_repeats_an_update_fact(
        tmp_path: Path) -> None:
    """Attack: a lemma whose claim repeats an update fact hides from the exporter's lemma
    test (it was read as a carried invariant). The exporter finds the lemmas from the kernel
    statements of the used steps, so the step obligation's tail is read right, and Coq
    checks the step with the update fact once among its premises."""
    results, written = _coq_results(DUPLICATE, tmp_path)
    assert results == {"dup": "checked", "norm-growth": "checked"}
    assert _step_premises(written).count("(ip x x) <= R2 ->") == 1


def test_a_split_step_using_a_lemma_chained_through_a_step_under_other_hypotheses() -> None:
    """Attack (kern35): an induction whose step is split by cases and uses a one-update
    lemma that itself used a step proved under a hypothesis the induction does not state
    (`B >= 1`). The lemma's statement carries that step's hypothesis and claim, each of
    which must be one of the update's facts or the induction's hypotheses: refused without
    them; with them stated, the theorem assumes them (and not the lemma's claim, assumed at
    each update only), and a false invariant under the same lemma is not proved but
    refuted by an honest run."""
    first = proved(sequent((rel(B, ">=", 1),), rel(B, ">=", 0), step="first"))
    chained = proved(sequent(UPDATE, GROWTH, uses=(first,), step="chained"), (first,))
    split = Induction("t", RUNS.base, RUNS.step, UPDATE, frozenset({"B"}), Cases(y))
    with pytest.raises(RuleError, match="`B >= 1` is none of the update's facts"):
        kernel.statement(induction(rel(WW, "<=", t * B), (chained,), split))
    hyps = (rel(B, ">=", 1), rel(B, ">=", 0))
    seq = induction(rel(WW, "<=", t * B), (chained,), split, hyps)
    theorem = kernel.conclude(seq, evidence(seq), [chained])
    assert theorem.statement.hypotheses == hyps and "and so at each update, by lemma," in (
        theorem.statement.run)
    false = induction(rel(2 * WW, "<=", t * B), (chained,), split, hyps)
    assert None in evidence(false)
    run = [Counterexample({"t": 0, "y": 1, "B": 1}, {"w": (0,), "x": (1,)}),
           Counterexample({"t": 1, "y": 1, "B": 1}, {"w": (1,), "x": (1,)})]
    assert kernel.refute_run(false, run).label == "run"
