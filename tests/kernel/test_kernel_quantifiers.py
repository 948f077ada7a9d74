"""The kernel's rules for quantifiers (issue 16): scalar induction, instantiation of a proved
statement, and existential claims proved by a witness.

Each rule is tested the way it could be abused: a false statement that would come out proved
if the rule were read loosely must be refused (RuleError, UseError or KernelError) or stay
without evidence, never become a Theorem.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sequents import evidence, proved, rel, sequents
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import kernel
from verify.kernel import (
    Cases,
    Counterexample,
    Induction,
    KernelError,
    Rel,
    RuleError,
    Sequent,
    UseError,
    gram,
)
from verify.kernel.algebra import evaluate
from verify.kernel.certificates import Point
from verify.prover import decide

t, s, q, d, a, b, n, m, B = (sympy.Symbol(x) for x in ("t", "s", "q", "d", "a", "b", "n", "m", "B"))
WW, WU, UU, WX, XX, UX = (gram(p, r) for p, r in (("w", "w"), ("u", "w"), ("u", "u"), ("w", "x"),
                                                  ("x", "x"), ("u", "x")))
VECTORS = frozenset({"w", "u", "x", "p", "r"})
SCALARS = frozenset({"t", "s", "q", "d", "a", "b", "n", "m", "B", "y"})
ZERO = sympy.Integer(0)


sequent = sequents(VECTORS, SCALARS)


# ---------------------------------------------------------------------------------------------
# Scalar induction: iterated scalars follow the update like iterated vectors.
# ---------------------------------------------------------------------------------------------

PARTIAL_SUM = Induction("t", {"s": ZERO}, {"s": s + d}, (rel(d, ">=", 0),))


def test_a_partial_sum_is_iterated_and_its_statement_says_so() -> None:
    seq = sequent((), rel(s, ">=", 0), PARTIAL_SUM)
    theorem = proved(seq)
    assert "from s := 0 of updates s := d + s, each with d >= 0" in str(theorem.statement)
    base, step = kernel.obligations(seq)
    assert base.judgement.claim == kernel.Fact(ZERO, ">=")  # P(0, s := 0)
    assert step.judgement.claim == kernel.Fact(s + d, ">=")  # P(t + 1, s := s + d)


def test_scalars_and_vectors_are_iterated_together_and_at_once() -> None:
    # <w, u> >= s with s the sum of y<x,u> over the updates: w and s move in step.
    rule = Induction("t", {"w": {}, "s": ZERO}, {"w": {"w": 1, "x": sympy.Symbol("y")},
                                                 "s": s + sympy.Symbol("y") * UX},
                     constants=frozenset({"u"}))
    seq = sequent((), rel(WU, "==", s), rule)
    proved(seq)
    swap = Induction("t", {}, {"s": q, "q": s})
    (_, step) = kernel.obligations(sequent((), rel(s - q, ">=", 0), swap))
    assert step.judgement.claim == kernel.Fact(q - s, ">=")  # simultaneous, not s := q; q := q


def test_a_false_scalar_invariant_has_no_evidence() -> None:
    # s := s + d with d <= 2 does not keep s <= t: the step obligation has no certificate, and
    # a certificate of the true base alone does not make a Theorem.
    rule = Induction("t", {"s": ZERO}, {"s": s + d}, (rel(d, "<=", 2),))
    seq = sequent((), rel(s, "<=", t), rule)
    found = evidence(seq)
    assert found[0] is not None and found[1] is None
    with pytest.raises(KernelError):
        kernel.conclude(seq, [found[0]], ())
    with pytest.raises(KernelError, match="another judgement"):
        kernel.conclude(seq, [found[0], found[0]], ())


@pytest.mark.parametrize(("rule", "hyps", "naturals", "message"), [
    (Induction("t", {"n": ZERO}, {"n": n + 1}), (), frozenset({"n", "t"}), "n cannot be iterated"),
    (Induction("t", {"t": ZERO}, {}), (), frozenset(), "t cannot be iterated"),
    (PARTIAL_SUM, (rel(s, ">=", 0),), frozenset(), "mentions s"),
    (Induction("t", {"s": d}, {"s": s + d}), (), frozenset(), "base of s mentions d"),
    (Induction("t", {}, {"s": s / d}), (), frozenset(), "must not divide"),
    (Induction("t", {}, {"z": s}), (), frozenset(), "'z' is not a name"),
    (Induction("t", {}, {"w": {"z": 1}}), (), frozenset(), "names an undeclared vector"),
])
def test_scalar_induction_refuses_what_its_semantics_cannot_read(
        rule: Induction, hyps: tuple, naturals: frozenset, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        kernel.obligations(sequent(hyps, rel(s + n, ">=", 0), rule, naturals=naturals))


def test_a_natural_read_only_by_an_update_fact_is_natural_at_every_update() -> None:
    # s := s + d when d == n: s >= 0 holds for natural n (its statement says n in Nat, which the
    # step obligation assumes), and is false for a negative n, which must stay unproved then.
    rule = Induction("t", {"s": ZERO}, {"s": s + d}, (rel(d, "==", n),))
    seq = sequent((), rel(s, ">=", 0), rule, naturals=frozenset({"n", "t"}))
    assert "|- s >= 0" in str(proved(seq).statement)
    assert "n in Nat, t in Nat |-" in str(kernel.statement(seq))
    natural = kernel.Fact(n, ">=")
    assert natural in kernel.obligations(seq)[1].judgement.hypotheses
    plain = sequent((), rel(s, ">=", 0), rule, naturals=frozenset({"t"}))
    assert "n in Nat" not in str(kernel.statement(plain))
    assert natural not in kernel.obligations(plain)[1].judgement.hypotheses
    assert evidence(plain)[1] is None
    with pytest.raises(KernelError):
        kernel.conclude(plain, evidence(seq), ())  # n >= 0 is no hypothesis of plain's step


# ---------------------------------------------------------------------------------------------
# Instantiation: a proved statement, names replaced at once by terms of their sort.
# ---------------------------------------------------------------------------------------------

def cauchy_schwarz() -> kernel.Theorem:
    pp, pr, rr = gram("p", "p"), gram("p", "r"), gram("r", "r")
    return proved(sequent((), rel(pr**2, "<=", pp * rr), step="cs"))


def test_an_instance_substitutes_vectors_inside_gram_symbols() -> None:
    cs = kernel.instantiate(cauchy_schwarz(), {"p": {"w": 1}, "r": {"u": 1, "x": 2}})
    claim = cs.statement.claim
    assert sympy.expand(claim.lhs - (WU + 2 * WX) ** 2) == 0
    assert sympy.expand(claim.rhs - WW * (UU + 4 * UX + 4 * XX)) == 0
    assert cs.statement.step == "cs"
    assert claim.text.endswith("[p := w, r := u + 2*x]")
    # and a step may use the instance (with its own Theorem) but not the original for it
    using = sequent((rel(WW, "<=", 1), rel(UU, "<=", 1), rel(UX, "==", 0), rel(XX, "==", 0)),
                    rel(WU**2, "<=", 1), uses=(cs.statement,))
    proved(using, (cs,))
    with pytest.raises(KernelError, match="its own Theorem"):
        kernel.conclude(using, evidence(using), (cauchy_schwarz(),))


def test_an_instance_of_a_scalar_statement_keeps_its_hypotheses() -> None:
    square = proved(sequent((rel(a, ">=", 0), rel(b, ">=", a)), rel(b**2, ">=", a**2), step="sq"))
    inst = kernel.instantiate(square, {"a": t - 1, "b": WW})
    assert [h.lhs - h.rhs for h in inst.statement.hypotheses] == [t - 1, WW - (t - 1)]
    assert sympy.expand(inst.statement.claim.lhs - WW**2) == 0


def test_division_in_an_instance_is_refused() -> None:
    # `a*b == 1 |- a**2 > 0` is true; with b := 1/a SymPy cancels a*(1/a) to 1, leaving
    # `1 == 1 |- a**2 > 0`, false at a = 0: the divisor is gone. Images must not divide.
    theorem = proved(sequent((rel(a, ">=", 0), rel(b, ">=", a)), rel(b**2, ">=", a**2)))
    assert sympy.Symbol("a") * (1 / sympy.Symbol("a")) == 1
    for image in ({"b": 1 / a}, {"a": b / (b + 1)}):
        with pytest.raises(RuleError, match="must not divide"):
            kernel.instantiate(theorem, image)


def test_a_natural_is_replaced_by_a_name_only_which_becomes_natural() -> None:
    theorem = proved(sequent((), rel(n * (n + 1), ">=", 0), naturals=frozenset({"n"}), step="nn"))
    with pytest.raises(RuleError, match="natural n can be replaced by a name only"):
        kernel.instantiate(theorem, {"n": m - 1})
    inst = kernel.instantiate(theorem, {"n": m})
    assert inst.statement.naturals == frozenset({"m"})
    with pytest.raises(UseError, match="natural m"):
        kernel.statement(sequent((), rel(m * (m + 1), ">=", 0), uses=(inst.statement,)))
    assert kernel.statement(sequent((), rel(m * (m + 1), ">=", 0), uses=(inst.statement,),
                                    naturals=frozenset({"m"})))


def test_runs_existentials_and_forgeries_cannot_be_instantiated() -> None:
    lower = proved(sequent((), rel(s, ">=", 0), PARTIAL_SUM, step="lower"))
    with pytest.raises(RuleError, match="free of runs and existentials"):
        kernel.instantiate(lower, {"d": ZERO})
    some = proved(sequent((), rel(WW, "<=", B), witness={"B": WW}, step="some"))
    with pytest.raises(RuleError, match="free of runs and existentials"):
        kernel.instantiate(some, {"w": {"u": 1}})
    with pytest.raises(KernelError, match="only a Theorem the kernel made"):
        kernel.instantiate(some.statement, {})  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="'z' is not a name"):
        kernel.instantiate(cauchy_schwarz(), {"z": {"w": 1}})
    with pytest.raises(KernelError):  # a vector name given a scalar term
        kernel.instantiate(cauchy_schwarz(), {"p": a})


RATIONALS = st.fractions(min_value=-5, max_value=5, max_denominator=6)
POLYS = st.sampled_from([a, b, a - b, 2 * a + 1, a * b, a**2 - 3, Fraction(1, 2) * b])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(image_a=POLYS, image_b=POLYS, va=RATIONALS, vb=RATIONALS)
def test_every_instance_of_a_theorem_holds_at_every_point(image_a: sympy.Expr, image_b: sympy.Expr,
                                                           va: Fraction, vb: Fraction) -> None:
    """Law: if H |- C is a Theorem, then H[sigma] |- C[sigma] holds at every rational point."""
    theorem = proved(sequent((rel(a, ">=", b),), rel(a**3 - b**3, ">=", 0), step="cube"))
    inst = kernel.instantiate(theorem, {"a": image_a, "b": image_b}).statement
    point = Point(Counterexample({"a": va, "b": vb}, {}))
    if all(evaluate(h, "h", point.value) for h in inst.hypotheses):
        assert evaluate(inst.claim, "c", point.value)


# ---------------------------------------------------------------------------------------------
# Existentials: proved by a witness, used only where their names are fresh.
# ---------------------------------------------------------------------------------------------

def test_an_existential_is_proved_by_its_witness_and_says_exists() -> None:
    seq = sequent((rel(XX, "<=", 1),), rel(WW + XX, "<=", B), witness={"B": WW + 1})
    theorem = proved(seq)
    assert str(theorem.statement).endswith("|- exists B: <w,w> + <x,x> <= B")
    assert not any(ob.decisive for ob in kernel.obligations(seq))  # a bad witness refutes nothing
    bad = sequent((rel(XX, "<=", 1),), rel(WW + XX, "<=", B), witness={"B": WW})
    assert None in evidence(bad)
    with pytest.raises(KernelError, match="no decisive obligation"):
        kernel.refute(bad, "main", Counterexample({"B": Fraction(0)}, {"w": (0,), "x": (1,)}))


def test_cases_may_prove_an_existential() -> None:
    seq = sequent((), rel(B, ">=", a), Cases(a), witness={"B": a**2 + 1})
    assert "exists B" in str(proved(seq).statement)


def test_a_natural_read_only_by_a_witness_is_natural() -> None:
    # B := n proves exists B: B >= 0 for natural n (said n in Nat), never for a real n.
    seq = sequent((), rel(B, ">=", 0), witness={"B": n}, naturals=frozenset({"n"}))
    assert str(proved(seq).statement) == "n in Nat |- exists B: B >= 0"
    bare = sequent((), rel(B, ">=", 0), witness={"B": n})
    assert str(kernel.statement(bare)).strip() == "|- exists B: B >= 0"
    assert None in evidence(bare)


@pytest.mark.parametrize(("hyps", "rule", "witness", "naturals", "message"), [
    ((), None, {"B": B + 1}, frozenset(), "names none of what it witnesses"),
    ((), PARTIAL_SUM, {"B": WW}, frozenset(), "direct or case step"),
    ((rel(B, ">=", 0),), None, {"B": WW}, frozenset(), "mentions B"),
    ((), None, {"n": WW}, frozenset({"n"}), "'n' is not a name"),
    ((), None, {"B": WW / a}, frozenset(), "must not divide"),
])
def test_an_existential_refuses_what_its_semantics_cannot_read(
        hyps: tuple, rule: object, witness: dict, naturals: frozenset, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        kernel.statement(sequent(hyps, rel(WW + n, "<=", B), rule, witness=witness,
                                 naturals=naturals))


def test_using_an_existential_is_elimination_with_a_fresh_name() -> None:
    some = proved(sequent((), rel(B, ">=", 1), witness={"B": sympy.Integer(1)}, step="some"))
    # Fresh: the using step shows what holds for every such B and mentions no B.
    fine = sequent((), rel(0, "<=", 1), uses=(some.statement,))
    proved(fine, (some,))
    # Not fresh: "|- B >= 1" would be proved for every B (false at B = 0).
    for bad in (sequent((), rel(B, ">=", 1), uses=(some.statement,)),
                sequent((rel(B, "<=", 0),), rel(0, ">=", 1), uses=(some.statement,)),
                sequent((), rel(0, "<=", 1), uses=(some.statement,), naturals=frozenset({"B"})),
                sequent((), rel(0, "<=", 1), Cases(a), uses=(some.statement,)),
                sequent((), rel(0, "<=", B), uses=(some.statement,), witness={"B": ZERO})):
        with pytest.raises(UseError, match="which claims or assumes some B"):
            kernel.statement(bad)
    other = proved(sequent((), rel(B, "<=", 0), witness={"B": sympy.Integer(0)}, step="other"))
    both = sequent((), rel(0, "<=", 1), uses=(some.statement, other.statement))
    with pytest.raises(UseError, match="which claims or assumes some B"):  # two B's are not one B
        kernel.statement(both)


def test_names_an_inherited_claim_reads_are_not_replaced() -> None:
    # `uses` of an induction brings P(t, w) tagged with its step; that claim holds at run
    # states only, so an instance may not move it to another vector.
    lower = proved(sequent((), rel(s, ">=", 0), PARTIAL_SUM, step="lower"))
    user = proved(sequent((), rel(s + 1, ">", 0), uses=(lower.statement,), step="user",
                          naturals=frozenset({"t"})), (lower,))
    with pytest.raises(RuleError, match="inherited hypothesis `s >= 0` mentions s"):
        kernel.instantiate(user, {"s": a})


# ---------------------------------------------------------------------------------------------
# Update facts may divide: like any hypothesis, their denominators get side conditions.
# ---------------------------------------------------------------------------------------------

e = sympy.Symbol("y")  # a per-update scalar, declared


def test_a_dividing_update_fact_gets_a_side_condition_from_the_division_free_facts() -> None:
    rule = Induction("t", {"s": ZERO}, {"s": s + a}, (rel(a, "==", 1 / e), rel(e, ">", 0)))
    seq = sequent((), rel(s, ">=", 0), rule)
    labels = [ob.label for ob in kernel.obligations(seq)]
    assert labels == ["base", "step", "step: denominator y > 0"]
    assert "each with a == 1/y, y > 0" in str(proved(seq).statement)
    # without the positivity fact the side condition has no certificate: never proved
    bare = sequent((), rel(s, ">=", 0), Induction("t", {"s": ZERO}, {"s": s + a},
                                                  (rel(a, "==", 1 / e),)))
    assert None in evidence(bare)
    # and a division that does not keep the invariant is not proved either
    wrong = sequent((), rel(s, ">=", 0), Induction("t", {"s": ZERO}, {"s": s + a},
                                                   (rel(a, "==", d / e), rel(e, ">", 0))))
    assert None in evidence(wrong)


# ---------------------------------------------------------------------------------------------
# An induction over the same runs may assume another's invariant at every state.
# ---------------------------------------------------------------------------------------------

SUMS = Induction("t", {"s": ZERO, "q": ZERO}, {"s": s + d, "q": q + d**2})


def test_cauchy_schwarz_on_partial_sums_needs_and_gets_a_second_invariant() -> None:
    # s**2 <= t*q alone is not inductive (t = 0, s = 0, q = -1 steps to q - ... < 0); with
    # q >= 0, proved over the same runs, it is: t(q + t d^2 - 2 s d) = (tq - s^2) + (s - td)^2.
    alone = sequent((), rel(s**2, "<=", t * q), SUMS, naturals=frozenset({"t"}))
    assert evidence(alone)[1] is None
    positive = proved(sequent((), rel(q, ">=", 0), SUMS, step="q-nonnegative"))
    both = sequent((), rel(s**2, "<=", t * q), SUMS, naturals=frozenset({"t"}),
                   uses=(positive.statement,))
    stated = kernel.statement(both)
    assert stated.hypotheses == ()  # the invariant is not a hypothesis of the theorem
    assert "where at every state q >= 0 [q-nonnegative]" in stated.run
    step = kernel.obligations(both)[1]
    assert kernel.Fact(q, ">=") in step.judgement.hypotheses
    assert kernel.Fact(q, ">=") not in kernel.obligations(both)[0].judgement.hypotheses


def test_another_runs_invariant_is_not_carried() -> None:
    positive = proved(sequent((), rel(q, ">=", 0), SUMS, step="q-nonnegative"))
    other = Induction("t", {"s": ZERO, "q": ZERO}, {"s": s + d, "q": q + d})  # q may go down
    with pytest.raises(RuleError, match="mentions q"):  # imported as a hypothesis: refused
        kernel.statement(sequent((), rel(s**2, "<=", t * q), other, uses=(positive.statement,),
                                 naturals=frozenset({"t"})))
    facts = Induction("t", {"s": ZERO, "q": ZERO}, {"s": s + d, "q": q + d**2},
                      (rel(d, ">=", 0),))  # fewer runs than SUMS: still not the same rule
    with pytest.raises(RuleError, match="mentions q"):
        kernel.statement(sequent((), rel(s, ">=", 0), facts, uses=(positive.statement,),
                                 naturals=frozenset({"t"})))


def test_an_induction_step_split_by_cases_proves_partial_sum_cauchy_schwarz() -> None:
    # At t > 0 the step has the certificate t * gap = (tq - s^2) + (s - td)^2 (multiplier t);
    # at t = 0 the invariant gives s^2 <= 0. Each case is an obligation; none is decisive.
    positive = proved(sequent((), rel(q, ">=", 0), SUMS, step="q-nonnegative"))
    split = Induction(SUMS.variable, SUMS.base, SUMS.step, cases=Cases(t, zero=True))
    seq = sequent((), rel(s**2, "<=", t * q), split, naturals=frozenset({"t"}),
                  uses=(positive.statement,))
    obligations = kernel.obligations(seq)
    assert [ob.label for ob in obligations] == [
        "base", "step, case t > 0", "step, case t == 0", "step, case t < 0"]
    assert not any(ob.decisive for ob in obligations[1:])
    assert kernel.Fact(t, ">") in obligations[1].judgement.hypotheses
    with pytest.raises(RuleError, match="must not divide"):
        kernel.obligations(sequent((), rel(s, ">=", 0), Induction("t", {}, {}, cases=Cases(1 / t))))
    with pytest.raises(KernelError, match="expected Cases, not str"):
        kernel.obligations(sequent((), rel(s, ">=", 0), Induction("t", {}, {}, cases="t")))  # type: ignore[arg-type]


def test_names_are_identifiers_and_a_zero_division_says_so() -> None:
    # A scalar spelt `<w,w>` would be the Gram symbol of w (red team, finding 5).
    with pytest.raises(KernelError, match="frozenset of identifiers"):
        kernel.statement(Sequent("s", VECTORS, frozenset({"<w,w>"}), (), rel(WW, ">=", 0)))
    with pytest.raises(KernelError, match="divides by zero"):
        kernel.statement(sequent((), Rel(sympy.zoo, ">=", ZERO, "1/0 >= 0")))


def test_an_instance_keeps_the_runs_its_inherited_claims_hold_on() -> None:
    # `user` imports an induction's claim (s >= 0 holds at run states only); an instance of
    # `user` on another name must not make its users' obligations decisive again.
    lower = proved(sequent((), rel(s, ">=", 0), PARTIAL_SUM, step="lower"))
    user = proved(sequent((rel(a, ">=", 0),), rel(s + a, ">=", 0), uses=(lower.statement,),
                          step="user", naturals=frozenset({"t"})), (lower,))
    assert user.statement.runs
    inst = kernel.instantiate(user, {"a": b})
    assert inst.statement.runs
    using = sequent((), rel(s + b, ">=", 1), uses=(inst.statement,), naturals=frozenset({"t"}))
    assert not any(ob.decisive for ob in kernel.obligations(using))


# ---------------------------------------------------------------------------------------------
# Lemma, then induction (issue 27.7): a one-update lemma used in the inductive step only.
# ---------------------------------------------------------------------------------------------

y = sympy.Symbol("y")
UPDATE = (rel(y**2, "==", 1), rel(y * WX, "<=", 0), rel(XX, "<=", B))
GROWTH = rel(WW + 2 * y * WX + y**2 * XX, "<=", WW + B)  # ||w + y x||^2 <= ||w||^2 + B
NORM_GROWTH = Induction("t", {"w": {}}, {"w": {"w": sympy.Integer(1), "x": y}}, UPDATE,
                        frozenset({"B"}))


def one_update(hyps: tuple[Rel, ...] = UPDATE, claim: Rel = GROWTH) -> kernel.Theorem:
    """The lemma about one update, proved as a direct step."""
    return proved(sequent(hyps, claim, step="growth"))


def test_an_induction_uses_a_one_update_lemma_in_its_step() -> None:
    lemma = one_update()
    seq = sequent((), rel(WW, "<=", t * B), NORM_GROWTH, naturals=frozenset({"t"}),
                  uses=(lemma.statement,), step="norm")
    stated = kernel.statement(seq)
    assert stated.hypotheses == ()  # the lemma is no hypothesis of the theorem
    assert "and so at each update, by lemma, " in stated.run and "[growth]" in stated.run
    step = next(o for o in kernel.obligations(seq) if o.label == "step")
    assert "lemma" in step.origins
    theorem = proved(seq, (lemma,))
    assert theorem.statement.run == stated.run
    with pytest.raises(KernelError, match="own Theorem"):  # the lemma's Theorem is required
        kernel.conclude(seq, evidence(seq), [])


def test_the_lemma_cannot_prove_more_than_it_says() -> None:
    """With the lemma's bound, ||w||^2 <= 0 at every state is still not inductive."""
    seq = sequent((), rel(WW, "<=", 0), NORM_GROWTH, naturals=frozenset({"t"}),
                  uses=(one_update().statement,))
    step = next(o for o in kernel.obligations(seq) if o.label == "step")
    assert decide(step.judgement).certificate is None


def test_a_lemma_whose_hypothesis_the_step_lacks_is_refused() -> None:
    """A lemma with a hypothesis no update fact gives (B >= 2 ||x||^2) cannot enter."""
    stronger = one_update((*UPDATE[:2], rel(2 * XX, "<=", B)),
                          rel(WW + 2 * y * WX + y**2 * XX, "<=", WW + B))
    seq = sequent((), rel(WW, "<=", t * B), NORM_GROWTH, naturals=frozenset({"t"}),
                  uses=(stronger.statement,))
    with pytest.raises(RuleError, match="is none of the update's facts"):
        kernel.statement(seq)


def test_an_induction_over_other_runs_is_no_one_update_lemma() -> None:
    """A used statement about runs is imported as before, and may not mention the iteration."""
    other = proved(sequent((), rel(s, "<=", 0),
                           Induction("t", {"s": ZERO}, {"s": s - 1}), naturals=frozenset({"t"})))
    seq = sequent((), rel(s, "<=", 0), Induction("t", {"s": ZERO}, {"s": s + 1}),
                  naturals=frozenset({"t"}), uses=(other.statement,))
    with pytest.raises(RuleError, match="mentions s"):
        kernel.statement(seq)
