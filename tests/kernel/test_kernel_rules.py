"""The kernel's structural rules (verify/kernel/rules.py): what each rule means, enforced.

Each test builds `kernel.Sequent`s directly, so it tests the trusted rules and nothing of the
frontend; tests/promises/soundness/test_soundness_regressions.py drives the same rules
through proof files.
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from verify import kernel
from verify.kernel import (
    Cases,
    Certificate,
    Counterexample,
    Direct,
    Fact,
    Induction,
    Judgement,
    KernelError,
    Product,
    Rel,
    RuleError,
    Sequent,
    Square,
    UseError,
    algebra,
    gram,
)
from verify.kernel.algebra import evaluate, normal_form
from verify.proof_checker import contradiction
from verify.prover import decide

t, y, R, g = (sympy.Symbol(n) for n in ("t", "y", "R", "g"))
WW, WX, XX, WU, UX, UU = (gram(a, b) for a, b in
                          (("w", "w"), ("w", "x"), ("x", "x"), ("w", "u"), ("u", "x"), ("u", "u")))
VECTORS = frozenset({"w", "x", "u"})
SCALARS = frozenset({"t", "y", "R", "g"})
RATIONALS = st.fractions(min_value=-20, max_value=20, max_denominator=12)
ZERO = sympy.Integer(0)


def rel(lhs: sympy.Expr, op: str, rhs: sympy.Expr = ZERO, divisors: tuple = ()) -> Rel:
    return Rel(sympy.sympify(lhs), op, sympy.sympify(rhs), f"{lhs} {op} {rhs}", divisors)


def sequent(hyps: tuple[Rel, ...], claim: Rel, rule: object = None, **kw: object) -> Sequent:
    return Sequent("s", VECTORS, SCALARS, hyps, claim, rule or Direct(), **kw)  # type: ignore[arg-type]


def proved(seq: Sequent, used: tuple = ()) -> kernel.Theorem:
    """Search every obligation (untrusted) and hand the evidence to the kernel."""
    evidence = []
    for ob in kernel.obligations(seq):
        verdict = decide(ob.judgement)
        assert verdict.certificate is not None, (ob.label, verdict.message)
        evidence.append((ob.judgement, verdict.certificate))
    return kernel.conclude(seq, evidence, used)


NORM_GROWTH = Induction(
    "t", {"w": {}}, {"w": {"w": sympy.Integer(1), "x": y}},
    (rel(y**2, "==", 1), rel(y * WX, "<=", 0), rel(XX, "<=", R**2)), frozenset({"R"}),
)


# -- case split -----------------------------------------------------------------------------


@given(value=RATIONALS, zero=st.booleans())
def test_cases_are_exhaustive_and_exclusive(value: Fraction, zero: bool) -> None:
    seq = sequent((), rel(y**2, ">=", 0), Cases(y * R - 1, zero))
    cases = [ob.written[0][-1] for ob in kernel.obligations(seq) if ob.written]
    point = {"y": value, "R": Fraction(1)}
    truth = [evaluate(c, "case", lambda s: point[s.name]) for c in cases]
    assert sum(truth) == 1
    assert [c.op for c in cases] == ([">", "==", "<"] if zero else [">=", "<"])


def test_every_case_is_decisive_and_carries_the_hypotheses() -> None:
    seq = sequent((rel(t, ">=", 0),), rel(y**2, ">=", 0), Cases(y, True, "y"))
    obs = kernel.obligations(seq)
    assert [o.label for o in obs] == ["case y > 0", "case y == 0", "case y < 0"]
    assert all(o.decisive and o.judgement.hypotheses[0] == Fact(t, ">=") for o in obs)
    with pytest.raises(RuleError, match="must not divide"):
        kernel.obligations(sequent((), rel(y, ">=", 0), Cases(1 / y)))


# -- induction over runs --------------------------------------------------------------------


def test_induction_obligations_substitute_inside_gram_symbols_at_once() -> None:
    seq = sequent((rel(R, ">=", 0),), rel(WW, "<=", t * R**2), NORM_GROWTH)
    base, step = kernel.obligations(seq)
    assert (base.label, base.decisive, step.label, step.decisive) == ("base", True, "step", False)
    assert base.judgement.claim == Fact(ZERO, ">=")  # t*R**2 - 0 at t = 0, w = 0
    moved = WW + 2 * y * WX + y**2 * XX
    assert step.judgement.claim == Fact(sympy.expand((t + 1) * R**2 - moved), ">=")
    assert Fact(t, ">=") in step.judgement.hypotheses  # t is natural
    assert step.origins.count("update") == 3 and "invariant" in step.origins
    theorem = proved(seq)
    assert theorem.statement.naturals == {"t"} and "x, y fresh" in theorem.statement.run
    assert "t in Nat" in str(theorem.statement) and "y**2 == 1" in str(theorem.statement)


def test_substitution_is_simultaneous() -> None:
    swap = Induction("t", {}, {"w": {"x": sympy.Integer(1)}, "x": {"w": sympy.Integer(1)}})
    seq = sequent((), rel(WW + 2 * WX + t, ">=", 0), swap)
    step = kernel.obligations(seq)[1]
    assert step.judgement.claim.expr == sympy.expand(XX + 2 * WX + t + 1)


@pytest.mark.parametrize(
    ("claim", "hyps", "rule", "problem"),
    [
        # the capture of issue 12: the invariant mentions the example of the update
        (rel(WX, "==", t * y * XX), (), Induction("t", {"w": {}}, {"w": {"w": 1, "x": y}},
                                                   (rel(y * WX, "<=", 0),)), "mentions x, y"),
        # only the label
        (rel(y * t, ">=", 0), (), Induction("t", {"w": {}}, {"w": {"w": 1, "x": y}}),
         "mentions y"),
        # an outer hypothesis about the example, the iterate or the counter
        (rel(WW, ">=", 0), (rel(XX, "<=", 1),), Induction("t", {"w": {}}, {"w": {"w": 1, "x": y}}),
         "hypothesis `<x,x> <= 1` mentions x"),
        (rel(WW, ">=", 0), (rel(t, ">=", 0),), Induction("t", {}, {}), "mentions t"),
        (rel(WW, ">=", 0), (rel(WW, ">=", 0),), Induction("t", {"w": {}}, {}), "mentions w"),
        # a base that mentions the counter, the iterate or a per-update name
        (rel(WU, "==", t * UU), (), Induction("t", {"w": {"u": t}}, {"w": {"w": 1, "u": 1}},
                                               constants=frozenset({"u"})), "base of w mentions t"),
        (rel(WW, ">=", 0), (), Induction("t", {"w": {"x": 1}}, {"w": {"w": 1, "x": 1}}),
         "base of w mentions x"),
        (rel(WW, ">=", 0), (), Induction("t", {}, {"w": {"w": 1 / y}}), "must not divide"),
        (rel(WW, ">=", 0), (), Induction("q", {}, {}), "'q' is not a declared scalar"),
        (rel(WW, ">=", 0), (), Induction("t", {"z": {}}, {}), "'z' is not a name"),
    ],
)
def test_induction_refuses_what_its_semantics_cannot_read(
    claim: Rel, hyps: tuple[Rel, ...], rule: Induction, problem: str
) -> None:
    with pytest.raises(RuleError, match=problem):
        kernel.obligations(sequent(hyps, claim, rule))


def test_declared_constants_are_not_per_update() -> None:
    lower = Induction("t", {"w": {}}, {"w": {"w": 1, "x": y}}, (rel(y * UX, ">=", g),),
                      frozenset({"u", "g"}))
    theorem = proved(sequent((), rel(WU, ">=", t * g), lower))
    assert "(x, y fresh at each update; g, u constant)" in theorem.statement.run


def test_a_base_refutation_is_checked_at_t_zero() -> None:
    seq = sequent((), rel(t, ">=", 1), Induction("t", {}, {}))
    base = kernel.obligations(seq)[0]
    verdict = decide(base.judgement)
    refutation = kernel.refute(seq, "base", verdict.counterexample)
    assert refutation.label == "base"
    with pytest.raises(KernelError, match="no decisive obligation 'step'"):
        kernel.refute(seq, "step", verdict.counterexample)


def test_a_division_in_the_invariant_is_cleared_after_substitution() -> None:
    """Issue 12: `1/(2t - 1) >= -2` was refuted at t = 1 (its condition kept t free)."""
    seq = sequent((), rel(1 / (2 * t - 1), ">=", -2), Induction("t", {}, {}))
    base = kernel.obligations(seq)[0]
    assert base.judgement.hypotheses == () and base.judgement.claim == Fact(sympy.Integer(1), ">=")


# -- uses -----------------------------------------------------------------------------------


def test_a_used_statement_is_imported_whole_and_needs_its_theorem() -> None:
    first = sequent((rel(y, ">=", 1),), rel(y**2, ">=", 1))
    theorem = proved(first)
    second = sequent((rel(t, ">=", 0),), rel(t * y**2, ">=", t), uses=(theorem.statement,))
    st_ = kernel.statement(second)
    assert [h.text for h in st_.hypotheses] == ["t >= 0", "y >= 1", "y**2 >= 1"]
    assert st_.origins == ("", "s", "s")
    obs = kernel.obligations(second)
    assert obs[0].origins == ("", "inherited", "claim")
    verdict = decide(obs[0].judgement)
    evidence = [(obs[0].judgement, verdict.certificate)]
    with pytest.raises(KernelError, match="needs its own Theorem"):
        kernel.conclude(second, evidence, ())
    assert kernel.conclude(second, evidence, (theorem,)).statement == st_


def test_a_claim_proved_for_naturals_is_not_used_for_reals() -> None:
    """Issue 19: `t*(t-1) >= 0` by induction holds for natural t only."""
    a = proved(sequent((), rel(t * (t - 1), ">=", 0), Induction("t", {}, {})))
    real = sequent((rel(t, ">=", 0), rel(t, "<=", 1)), rel(t**2, ">=", t), uses=(a.statement,))
    with pytest.raises(UseError, match="natural t only"):
        kernel.obligations(real)
    natural = Sequent("b", VECTORS, SCALARS, real.hypotheses, real.claim, Direct(),
                      (a.statement,), frozenset({"t"}))
    assert kernel.statement(natural).naturals == {"t"}
    c = Sequent("c", VECTORS, SCALARS, (), rel(t * (t - 1) * (t - 2), ">=", 0), Direct(),
                (a.statement,), frozenset({"t"}))
    obs = kernel.obligations(c)
    half = Counterexample({"t": Fraction(3, 2)}, {})
    kernel.check_counterexample(obs[0].judgement, half)  # a counterexample over the reals...
    with pytest.raises(KernelError, match="no decisive obligation"):  # ...of a claim on runs
        kernel.refute(c, "main", half)
    own = Sequent("c", VECTORS, SCALARS, (rel(t * (t - 1), ">=", 0),),
                  rel(t * (t - 1) * (t - 2), ">=", 0), Direct(), (), frozenset({"t"}))
    with pytest.raises(KernelError, match="not a natural number"):
        kernel.refute(own, "main", half)  # ...but not to the statement, where t is natural
    with pytest.raises(KernelError, match="t = -1 is not a natural number"):
        kernel.refute(own, "main", Counterexample({"t": Fraction(-1)}, {}))


# -- theorems and refutations are the kernel's alone ----------------------------------------


def test_only_the_kernel_makes_theorems_and_they_are_immutable() -> None:
    theorem = proved(sequent((), rel(y**2, ">=", 0)))
    with pytest.raises(KernelError, match="only the kernel makes a Theorem"):
        kernel.Theorem(object(), statement=theorem.statement)
    with pytest.raises(AttributeError, match="immutable"):
        theorem.statement = None  # type: ignore[misc]
    with pytest.raises(TypeError, match="does not cross processes"):
        pickle.dumps(theorem)


def test_evidence_must_match_the_obligations() -> None:
    seq = sequent((rel(y, ">=", 1),), rel(y, ">=", 0))
    (ob,) = kernel.obligations(seq)
    good = decide(ob.judgement).certificate
    with pytest.raises(KernelError, match="0 certificates for 1 obligations"):
        kernel.conclude(seq, [], ())
    other = Judgement(ob.judgement.hypotheses, Fact(y + 1, ">="))
    with pytest.raises(KernelError, match="evidence is for another judgement"):
        kernel.conclude(seq, [(other, good)], ())
    extra = Judgement((*ob.judgement.hypotheses, Fact(-y, ">=")), ob.judgement.claim)
    with pytest.raises(KernelError, match="evidence is for another judgement"):
        kernel.conclude(seq, [(extra, good)], ())
    weaker = Judgement((), Fact(y**2, ">="))
    with pytest.raises(KernelError, match="evidence is for another judgement"):
        kernel.conclude(seq, [(weaker, Certificate((Product(Fraction(1), (), (Square(
            Fraction(1), y),)),)))], ())


def refutation_form(ob: kernel.Obligation, negation: Fact) -> tuple[Judgement, Certificate]:
    """Untrusted search for `0 > 0` from the obligation's hypotheses and `negation`."""
    judgement = Judgement((*ob.judgement.hypotheses, negation), Fact(ZERO, ">"))
    found = decide(judgement).certificate
    assert found is not None
    return judgement, found


def test_refutation_form_evidence_takes_a_root() -> None:
    """Issue 16: `a, n >= 0, n**2 <= a**2 |- n <= a` has no direct certificate (it would
    divide by a + n), but its negation `n - a > 0` with the hypotheses proves `0 > 0`."""
    seq = sequent((rel(y, ">=", 0), rel(R, ">=", 0), rel(R**2, "<=", y**2)), rel(R, "<=", y))
    (ob,) = kernel.obligations(seq)
    assert decide(ob.judgement).certificate is None
    theorem = kernel.conclude(seq, [refutation_form(ob, Fact(R - y, ">"))], ())
    assert theorem.statement.claim.text == "R <= y"
    strict = sequent(seq.hypotheses, rel(R, "<", y + 1))  # negation of g > 0 is -g >= 0
    (ob,) = kernel.obligations(strict)
    kernel.conclude(strict, [refutation_form(ob, Fact(R - y - 1, ">="))], ())


def test_refutation_form_needs_the_exact_negation() -> None:
    """A contradiction from a stronger assumption than the negated claim proves nothing (here
    `R - y > 1`, from which `0 > 0` follows although `R <= y` does not hold everywhere the
    hypotheses do); an equality has no refutation form; a negation with the wrong strictness
    is another judgement."""
    seq = sequent((rel(R**2, "<=", y**2 + 1), rel(y, ">=", 0), rel(R, ">=", 0)),
                  rel(R, "<=", y))
    (ob,) = kernel.obligations(seq)
    for negation in (Fact(R - y - 1, ">"), Fact(R - y, ">=")):
        judgement = Judgement((*ob.judgement.hypotheses, negation), Fact(ZERO, ">"))
        if (found := decide(judgement).certificate) is None:  # no certificate: forge one
            found = Certificate((Product(Fraction(1), (len(judgement.hypotheses) - 1,)),))
        with pytest.raises(KernelError, match="evidence is for another judgement"):
            kernel.conclude(seq, [(judgement, found)], ())
    assert decide(Judgement(ob.judgement.hypotheses, Fact(y - R, ">="))).status != "proved"
    equal = sequent((rel(y, ">", 0), rel(y, "<", 0)), rel(R, "==", y))
    (ob,) = kernel.obligations(equal)
    judgement = Judgement((*ob.judgement.hypotheses, Fact(y - R, ">")), Fact(ZERO, ">"))
    found = decide(judgement).certificate
    kernel.check_certificate(judgement, found)  # it checks, but is not evidence for `==`
    with pytest.raises(KernelError, match="evidence is for another judgement"):
        kernel.conclude(equal, [(judgement, found)], ())


def test_vacuity_is_a_checked_certificate_of_contradiction() -> None:
    """Vacuity is a warning found by the checker and checked by the kernel's certificate
    check: `hypotheses |- -1 >= 0` over the hypotheses the step's cases share."""
    seq = sequent((rel(y, ">", 1), rel(y, "<", 0)), rel(y, ">=", 1), Cases(t))
    judgement = contradiction(kernel.obligations(seq))
    assert judgement.claim == Fact(sympy.Integer(-1), ">=")
    assert len(judgement.hypotheses) == 2  # the case hypothesis is not among them
    found = decide(judgement).certificate
    kernel.check_certificate(judgement, found)
    satisfiable = contradiction(kernel.obligations(sequent((rel(y, ">", 1),), rel(y, ">=", 0))))
    assert decide(satisfiable).certificate is None


def test_an_update_that_cannot_happen_makes_the_induction_vacuous() -> None:
    """Issue 12: an update fact `0 > 1` proves anything about t; it must say so."""
    seq = sequent((), rel(t, "<=", 0), Induction("t", {}, {}, (rel(0, ">", 1),)))
    judgement = contradiction(kernel.obligations(seq))
    assert Fact(sympy.Integer(-1), ">") in judgement.hypotheses  # the update fact 0 > 1
    kernel.check_certificate(judgement, decide(judgement).certificate)


# -- division --------------------------------------------------------------------------------


@given(tv=RATIONALS, yv=RATIONALS, gv=RATIONALS)
def test_normal_form_agrees_with_the_relation_where_its_conditions_hold(
    tv: Fraction, yv: Fraction, gv: Fraction
) -> None:
    relation = rel(WX / (t * y) + sympy.Rational(1, 2), ">=", (y + 1) / y**2)
    fact, conditions = normal_form(relation, "r")
    point = {"t": tv, "y": yv, "<w,x>": gv}

    def value(e: sympy.Expr) -> Fraction:
        return Fraction(str(e.xreplace({s: sympy.Rational(str(point[s.name]))
                                         for s in e.free_symbols})))

    if all(value(c.expr) > 0 for c in conditions):
        assert (value(fact.expr) >= 0) == evaluate(relation, "r", lambda s: point[s.name])


def test_normal_form_is_memoised_but_every_error_names_its_caller() -> None:
    """Issue 15: the normal form is memoised on the validated relation. Equal relations are
    normalised once, each caller getting its own copy of the result (issue 30: a copy changed
    in place must not change the memo, see test_kernel_lying_objects); a refused relation is
    refused every time, in the caller's words."""
    hits = algebra._memo.cache_info().hits
    first, again = (normal_form(rel(WX / t, ">=", y), what) for what in ("a", "b"))
    assert algebra._memo.cache_info().hits == hits + 1
    assert first == again and first[0] is not again[0] and first[1][0] is not again[1][0]
    for what in ("first caller", "second caller"):
        with pytest.raises(KernelError, match=f"^{what}.*(division by zero|divides by zero)"):
            normal_form(rel(sympy.Integer(1), ">=", y**40 / (t - t)), what)
    with pytest.raises(KernelError, match=r"^late: .*more than"):  # refused after validation
        normal_form(rel((t + y + WX + t * y + y * WX + 1) ** 30, ">=", 0), "late")


def test_normal_form_conditions() -> None:
    # the reduced denominator, once: (1 + 1/t)**2 has denominator t**2 (issue 13's traceback)
    assert normal_form(rel((1 + 1 / t) ** 2, ">=", 0), "r")[1] == (Fact(t**2, ">"),)
    # a division SymPy cancelled still needs its divisor positive (x/x is undefined at 0)
    fact, conditions = normal_form(rel(y * t / t, "==", y, divisors=(t,)), "r")
    assert fact == Fact(ZERO, "==") and conditions == (Fact(t, ">"),)
    with pytest.raises(KernelError, match="division inside the divisor"):
        normal_form(rel(1 / (1 + 1 / y), ">=", 0), "r")
    with pytest.raises(KernelError, match="divides by t = 0 there"):
        evaluate(rel(1 / t, ">=", 0), "r", lambda s: Fraction(0))
    # a division cancelled between the sides still makes the statement undefined at 0
    with pytest.raises(KernelError, match="divides by t = 0 there"):
        evaluate(rel(1 / t + y, ">=", 1 / t), "r", lambda s: Fraction(0))
    with pytest.raises(KernelError, match="divides by t = 0"):
        evaluate(rel(y, ">=", 0, divisors=(t,)), "r", lambda s: Fraction(0))
    assert normal_form(rel(sympy.Integer(2), ">", 1), "r") == (Fact(sympy.Integer(1), ">"), ())
    # one condition per divisor, with its multiplicity: 1/R**2 needs R**2 > 0, not R > 0
    assert normal_form(rel(g / R**2, ">=", 1, divisors=(R**2,)), "r")[1] == (Fact(R**2, ">"),)
    # a denominator left over after cancelling with the numerator gets its own condition
    fact, conditions = normal_form(rel((y + 1) / (y**2 - 1), ">=", 0), "r")
    assert fact == Fact(sympy.Integer(1), ">=") and set(conditions) == {
        Fact(y - 1, ">"), Fact(y**2 - 1, ">")}
    # a constant divisor: nothing to prove unless it is 0 (then nothing can be proved)
    assert normal_form(rel(y, ">=", 0, divisors=(sympy.Integer(-1),)), "r")[1] == ()
    assert normal_form(rel(y, ">=", 0, divisors=(ZERO,)), "r")[1] == (Fact(ZERO, ">"),)


def test_a_refutation_is_checked_against_the_statement_as_written() -> None:
    seq = sequent((rel(t, ">", 0),), rel(1 / t, ">=", 1))
    main = kernel.obligations(seq)[0]
    assert main.origins == ("",)  # the condition t > 0 is the hypothesis itself: one fact
    refutation = kernel.refute(seq, "main", Counterexample({"t": Fraction(2)}, {}))
    assert refutation.counterexample.scalars == {"t": Fraction(2)}
    with pytest.raises(KernelError, match="holds at the counterexample"):
        kernel.refute(seq, "main", Counterexample({"t": Fraction(1, 2)}, {}))
    with pytest.raises(KernelError, match="fails at the counterexample"):
        kernel.refute(seq, "main", Counterexample({"t": Fraction(-1)}, {}))


def test_a_refutations_counterexample_cannot_be_changed_by_its_holder() -> None:
    """Red team 22 F6: a Refutation is immutable, but its counterexample's dicts could be
    changed in place by whoever held it (`refutation.counterexample.scalars["t"] = 1/2` made
    it claim a point it was never checked at). They are `Frozen` copies: every mutator
    refused, neither the caller's counterexample nor the kernel's point shared; yet they
    pickle as themselves (an audit's workers send refutations; a MappingProxyType view could
    not be pickled, and was reverted), read as dicts (equality, items, JSON) and are read
    back by the kernel (`Point`)."""
    import copy
    import json

    from verify.render.json import counterexample as serialized

    seq = sequent((rel(t, ">", 0),), rel(1 / t, ">=", 1))
    given = Counterexample({"t": Fraction(2)}, {}, {"a": {Fraction(1): Fraction(3)}})
    refutation = kernel.refute(seq, "main", given)
    cex = refutation.counterexample
    for mapping in (cex.scalars, cex.vectors, cex.families, cex.families["a"]):
        assert type(mapping) is kernel.Frozen
        for change in (lambda m: m.__setitem__("t", 1), lambda m: m.__delitem__("t"),
                       lambda m: m.update(t=1), lambda m: m.pop("t"), lambda m: m.popitem(),
                       lambda m: m.clear(), lambda m: m.setdefault("t", 1),
                       lambda m: m.__ior__({"t": 1})):
            with pytest.raises(TypeError, match="read-only"):
                change(mapping)
    with pytest.raises(TypeError, match="read-only"):
        cex.scalars["t"] = Fraction(1, 2)  # type: ignore[index]
    assert cex.scalars == {"t": Fraction(2)} and cex.families == {"a": {Fraction(1): 3}}
    given.scalars["t"] = Fraction(1, 2)  # the caller's own: not the refutation's
    given.families["a"][Fraction(1)] = Fraction(0)
    assert cex.scalars == {"t": Fraction(2)} and cex.families == {"a": {Fraction(1): 3}}
    assert json.dumps(serialized(cex)) == json.dumps(serialized(
        Counterexample({"t": Fraction(2)}, {}, {"a": {Fraction(1): Fraction(3)}})))
    for back in (pickle.loads(pickle.dumps(refutation.counterexample)), copy.deepcopy(cex)):
        assert back == cex and type(back.scalars) is type(back.families["a"]) is kernel.Frozen
        with pytest.raises(TypeError, match="read-only"):
            back.families["a"][Fraction(1)] = Fraction(0)  # type: ignore[index]
        assert kernel.refute(seq, "main", back).counterexample == cex  # read back
    mine = dict(cex.scalars)  # a plain copy is the holder's to change
    mine["t"] = Fraction(5)
    assert cex.scalars["t"] == 2


def test_sequents_are_validated() -> None:
    with pytest.raises(KernelError, match="expected a Sequent"):
        kernel.statement("s")  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="naturals must be declared scalars"):
        kernel.statement(Sequent("s", VECTORS, SCALARS, (), rel(t, ">=", 0),
                                 naturals=frozenset({"w"})))
    with pytest.raises(KernelError, match="must be a Statement"):
        kernel.statement(sequent((), rel(t, ">=", 0), uses=("a",)))  # type: ignore[arg-type]
    with pytest.raises(KernelError, match="unknown rule"):
        kernel.obligations(sequent((), rel(t, ">=", 0), rule="induction"))
    with pytest.raises(KernelError, match="unknown relation"):
        kernel.obligations(sequent((), Rel(t, "!=", ZERO, "t != 0")))


# -- malformed input gets the kernel's own error (issue 12: lying numbers, Pow(0, 0)) --------


class LyingInt(int):
    """An int whose `<` lies: the old kernel tested `value < 0` before converting."""

    def __lt__(self, other: object) -> bool:
        return False


class LyingFraction(Fraction):
    def __lt__(self, other: object) -> bool:
        return False


@pytest.mark.parametrize("weight", [LyingInt(-1), LyingFraction(-1), True, 0.5])
def test_numbers_must_be_exactly_int_or_fraction(weight: object) -> None:
    """A negative weight in disguise would prove `-1 >= 0` and `-x**2 - 1 >= 0`."""
    for claim, sigma in ((sympy.Integer(-1), ()), (-(y**2) - 1, (Square(weight, y),))):
        product = Product(Fraction(1), (), sigma) if sigma else Product(weight, (), ())
        with pytest.raises(KernelError, match="must be an int or Fraction"):
            kernel.check_certificate(Judgement((), Fact(claim, ">=")), Certificate((product,)))


def test_a_zero_power_of_zero_is_one_and_a_zero_division_is_an_error() -> None:
    zero_zero = sympy.Pow(0, 0, evaluate=False)
    kernel.check_certificate(Judgement((), Fact(zero_zero, ">=")), Certificate((
        Product(Fraction(1)),)))
    inverse_zero = sympy.Pow(0, -1, evaluate=False)
    with pytest.raises(KernelError, match="division by zero"):
        evaluate(Rel(inverse_zero, ">=", ZERO, "1/0 >= 0"), "r", lambda s: Fraction(0))


def test_malformed_sequents_get_kernel_errors() -> None:
    with pytest.raises(KernelError, match="must be a str"):
        normal_form(Rel(t, 1, ZERO, "t ? 0"), "r")  # type: ignore[arg-type]
    with pytest.raises(KernelError, match="frozenset of identifiers"):
        kernel.statement(Sequent("s", {"w"}, SCALARS, (), rel(t, ">=", 0)))  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="must map names to terms"):
        kernel.obligations(sequent((), rel(WW, ">=", 0), Induction("t", ["w"], {})))  # type: ignore[arg-type]
    assert str(Fact(y, ">=")) == "y >= 0"
    assert str(rel(y, ">=", 0)) == "y >= 0"


def test_expansions_past_the_term_cap_are_refused_before_they_are_done() -> None:
    """Hostile input must not hang the normal form (red-team finding): a power of a sum and
    a sum of fractions are measured before SymPy or the ring expands them."""
    a, b, c, d = sympy.symbols("a b c d")
    with pytest.raises(KernelError, match="would expand to more than"):
        normal_form(rel((a + b + c + d + t + y + R + g) ** 40, ">=", 0), "r")
    many = sum(1 / (a + k * b + c - d + t) ** 3 for k in range(1, 9))
    with pytest.raises(KernelError, match="would expand to more than"):
        normal_form(rel(many, ">=", 0), "r")


def test_a_relation_must_be_a_rel() -> None:
    with pytest.raises(KernelError, match="expected a Rel, not tuple"):
        kernel.statement(sequent(((t, ">=", ZERO),), rel(t, ">=", 0)))  # type: ignore[arg-type]


# -- antisymmetry: an equality from its two inequalities (issue 28.3) ------------------------

ANTISYMMETRIC = sequent((rel(t, "<=", 3 * y), rel(y, "<=", 2 * g), rel(t, ">=", 6 * g)),
                        rel(t, "==", 3 * y))


def _halves(seq: Sequent) -> tuple[kernel.Obligation, list[object]]:
    """The one obligation of `seq` and untrusted evidence for its two inequalities."""
    (ob,) = kernel.obligations(seq)
    parts: list[object] = []
    for half in (Fact(ob.judgement.claim.expr, ">="), Fact(-ob.judgement.claim.expr, ">=")):
        judgement = Judgement(ob.judgement.hypotheses, half, ob.judgement.vectors,
                              ob.judgement.scalars)
        verdict = decide(judgement)
        assert verdict.certificate is not None, half
        parts += [verdict.judgement or judgement, verdict.certificate]
    return ob, parts


def test_an_equality_is_proved_by_its_two_inequalities() -> None:
    ob, parts = _halves(ANTISYMMETRIC)  # t <= 3y <= 6g <= t
    assert decide(ob.judgement).certificate is None  # not by ideal membership
    theorem = kernel.conclude(ANTISYMMETRIC, [tuple(parts)], [])
    assert theorem.statement.claim.op == "=="


def test_each_inequality_of_an_equality_may_be_in_refutation_form() -> None:
    """t*t + y*y == 0 |- t == 0: assume -t > 0 (or t > 0); its square, y's square and -1
    times the hypothesis sum to 0, with a strict term: 0 > 0, a contradiction."""
    seq = sequent((rel(t * t + y * y, "==", 0),), rel(t, "==", 0))
    (ob,) = kernel.obligations(seq)
    by_contradiction = Certificate((Product(Fraction(1), (1, 1)),
                                    Product(Fraction(1), (), (Square(Fraction(1), y),))),
                                   ((0, sympy.Integer(-1)),))
    parts = []
    for half in (Fact(t, ">="), Fact(-t, ">=")):
        negated = Fact(-half.expr, ">")
        parts += [Judgement((*ob.judgement.hypotheses, negated), Fact(ZERO, ">"),
                            ob.judgement.vectors, ob.judgement.scalars), by_contradiction]
    assert kernel.conclude(seq, [tuple(parts)], []).statement.claim.text == "t == 0"
    with pytest.raises(KernelError, match="another judgement"):  # the first half's negation
        kernel.conclude(seq, [(*parts[:2], *parts[:2])], [])  # assumed for the second: no


def test_antisymmetry_needs_both_directions_and_an_equality() -> None:
    _, parts = _halves(ANTISYMMETRIC)
    with pytest.raises(KernelError, match="another judgement"):  # one direction twice
        kernel.conclude(ANTISYMMETRIC, [(*parts[:2], *parts[:2])], [])
    with pytest.raises(KernelError, match="another judgement"):  # the directions swapped
        kernel.conclude(ANTISYMMETRIC, [(*parts[2:], *parts[:2])], [])
    with pytest.raises(KernelError, match="two such pairs"):  # three parts
        kernel.conclude(ANTISYMMETRIC, [tuple(parts[:3])], [])
    inequality = sequent(ANTISYMMETRIC.hypotheses, rel(t, "<=", 3 * y))
    with pytest.raises(KernelError, match="two such pairs"):  # not an equality
        kernel.conclude(inequality, [tuple(parts)], [])
