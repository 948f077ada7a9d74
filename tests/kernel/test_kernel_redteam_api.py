"""Red-team review of the kernel API after commit d9dc724 (used statements rebuilt in exact
types, a private copy of every made statement): hostile objects handed to the public rules.

Four attacks worked (a lying substitution key, a Symbol named by a lying str subclass, a
poisoned SymPy symbol cache, a nesting deep enough to crash the recursion): each is a test of
the correct behaviour, which failed before the kernel's fixes; each attack the kernel resisted
is a test whose docstring names the attack.
"""

from __future__ import annotations

import sys

import pytest
import sympy

from verify import kernel
from verify.kernel import Certificate, Fact, Judgement, KernelError, Product, Rel, Sequent, algebra
from verify.prover import decide

n, m, s, t, x = (sympy.Symbol(name) for name in ("n", "m", "s", "t", "x"))
ZERO, ONE = sympy.Integer(0), sympy.Integer(1)


def rel(lhs: sympy.Expr, op: str, rhs: sympy.Expr = ZERO) -> Rel:
    return Rel(lhs, op, rhs, f"{lhs} {op} {rhs}")


def seq(step: str, claim: Rel, hyps: tuple = (), rule: object = None, uses: tuple = (),
        naturals: frozenset = frozenset(), vectors: frozenset = frozenset(),
        witness: dict | None = None) -> Sequent:
    return Sequent(step, vectors, frozenset({"n", "m", "s", "t", "x"}), hyps, claim,  # type: ignore[arg-type]
                   kernel.Direct() if rule is None else rule, uses, naturals, witness or {})


def proved(sequent: Sequent, used: tuple = ()) -> kernel.Theorem:
    evidence = []
    for ob in kernel.obligations(sequent):
        found = decide(ob.judgement).certificate
        assert found is not None, ob.label
        evidence.append((ob.judgement, found))
    return kernel.conclude(sequent, evidence, used)


#: n in Nat |- n >= 0: true, proved from the natural's own fact.
NATURAL = seq("nat", rel(n, ">="), naturals=frozenset({"n"}))


class Chameleon:
    """A substitution key that is "n" wherever the kernel looks a name up (`_terms` checks the
    key is a name of the statement, `_substitute` replaces by it) and no name at all inside
    `instance` itself (its natural check and the naturals of the result)."""

    def __hash__(self) -> int:
        return hash("n")

    def __eq__(self, other: object) -> bool:
        return sys._getframe(1).f_code.co_name in ("_terms", "sub") and other == "n"

    def __str__(self) -> str:
        return "n"


def test_a_lying_substitution_key_cannot_replace_a_natural_by_a_number() -> None:
    """`instantiate(n in Nat |- n >= 0, {key: -1})` with a key equal to "n" only where the
    kernel substitutes: the natural check `naturals & set(terms)` misses it, n stays natural
    and the claim becomes -1 >= 0. That false Theorem then proves anything (here x >= 1)."""
    theorem = proved(NATURAL)
    try:
        made = kernel.instantiate(theorem, {Chameleon(): sympy.Integer(-1)})
    except KernelError:
        return
    assert made.statement.claim.lhs != -1, f"proved the false {made.statement}"
    use = seq("any", rel(x, ">=", ONE), uses=(made.statement,), naturals=frozenset({"n"}))
    # refutation form: -1 >= 0 and 1 - x > 0 give 0 > 0 as (1 - x) + (-1)*(1 - x)
    judgement = Judgement((Fact(-ONE, ">="), Fact(1 - x, ">")), Fact(ZERO, ">"))
    certificate = Certificate((Product(1, (1,)), Product(1, (0, 1))))
    kernel.conclude(use, [(judgement, certificate)], [made])  # proves n in Nat |- x >= 1


class Twin:
    """A substitution key equal to "n" everywhere (hash and ==), but no str."""

    def __hash__(self) -> int:
        return hash("n")

    def __eq__(self, other: object) -> bool:
        return other == "n"

    def __str__(self) -> str:
        return "n"


def test_a_key_equal_to_a_natural_everywhere_is_still_checked_as_that_natural() -> None:
    """Resisted: a substitution key that merely equals "n" (hash and ==) and maps it to 2 is
    caught by the natural check, which finds it in `naturals & set(terms)`."""
    theorem = proved(NATURAL)
    with pytest.raises(KernelError):
        kernel.instantiate(theorem, {Twin(): sympy.Integer(2)})


class SympyOnlyName(str):
    """The name "s" to SymPy (`Basic.__eq__` compares symbols by name) and no name at all to
    the rules (their set lookups of names): a str subclass, which `algebra.expr` lets through
    as the name of a plain `Symbol`."""

    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        return sys._getframe(1).f_code.co_name == "__eq__" and str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)


def test_a_symbol_with_a_lying_name_cannot_put_the_iteration_in_a_hypothesis() -> None:
    """From s = 0, s := s + 1 (so s_5 = 5), the hypothesis `s == 5` written with that symbol
    is not seen by `_mentions` (names_of then `&`), yet equals s in every certificate: the step
    obligation `s == 5, s <= 0 |- s + 1 <= 0` closes, and the Theorem says s <= 0 at every
    state where s == 5: false at t = 5."""
    impostor = sympy.Symbol(SympyOnlyName("s"))
    assert impostor == s and hash(impostor) == hash(s)
    hypothesis = Rel(impostor, "==", sympy.Integer(5), "s == 5")
    up = seq("up", rel(s, "<=", ZERO), (hypothesis,),
             kernel.Induction("t", {"s": ZERO}, {"s": s + 1}), naturals=frozenset({"t"}))
    with pytest.raises(KernelError):
        proved(up)


def test_the_honest_hypothesis_on_the_iteration_is_refused() -> None:
    """Resisted: the same induction with a plain `s` in the hypothesis is refused (RuleError:
    a hypothesis holds at every update, so it may not mention the iteration)."""
    up = seq("up", rel(s, "<=", ZERO), (rel(s, "==", sympy.Integer(5)),),
             kernel.Induction("t", {"s": ZERO}, {"s": s + 1}), naturals=frozenset({"t"}))
    with pytest.raises(kernel.RuleError, match="mentions s"):
        kernel.statement(up)


class PoisonType(type):
    """The class of a name that SymPy's typed cache takes for `str` (it keys on the type)."""

    def __eq__(cls, other: object) -> bool:
        return other is str or type.__eq__(cls, other)

    def __hash__(cls) -> int:
        return hash(str)


class PoisonName(str, metaclass=PoisonType):
    """Hashes like "nq" once (when SymPy's cache stores it), like "mq" ever after, and equals
    both: `Symbol(PoisonName("mq"))` is then what every later `Symbol("nq")` returns, and that
    symbol is `mq` in every polynomial."""

    hashed = 0

    def __hash__(self) -> int:
        PoisonName.hashed += 1
        return hash("nq") if PoisonName.hashed == 1 else hash("mq")

    def __eq__(self, other: object) -> bool:
        return other is self or str.__eq__(other, "nq") or str.__eq__(other, "mq")

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)


def test_a_poisoned_sympy_cache_cannot_make_a_natural_fact_about_another_name() -> None:
    """Every symbol of the step is genuine; only SymPy's Symbol cache was poisoned beforehand
    (clear_cache, then one Symbol of a lying name). The kernel's `Fact(Symbol("nq"), ">=")`
    for the natural nq is then `mq >= 0`, and `nq in Nat, nq >= -1 |- mq >= 0` (false at
    mq = -1) is proved by the one-term certificate `mq = 1 * hypothesis 0`."""
    from sympy.core.cache import clear_cache

    nq, mq = sympy.Symbol("nq"), sympy.Symbol("mq")  # genuine, held across the poisoning
    step = Sequent("poison", frozenset(), frozenset({"nq", "mq"}),
                   (Rel(nq, ">=", -ONE, "nq >= -1"),), Rel(mq, ">=", ZERO, "mq >= 0"),
                   naturals=frozenset({"nq"}))
    PoisonName.hashed = 0
    clear_cache()
    try:
        sympy.Symbol(PoisonName("mq"))
        (ob,) = kernel.obligations(step)
        try:
            made = kernel.conclude(step, [(ob.judgement, Certificate((Product(1, (0,)),)))], ())
        except KernelError:
            return
        pytest.fail(f"proved the false {made.statement}")
    finally:  # no poisoned symbol may outlive the test, in SymPy's caches or the kernel's
        clear_cache()
        algebra._memo.cache_clear()
        algebra._ring.cache_clear()


def test_a_deeply_nested_expression_is_refused_not_crashed() -> None:
    """A Horner form 600 levels deep (1 + x*(2 + x*(1 + ...))), which SymPy builds without
    complaint, handed to the rules: a traceback (RecursionError from `_rels` -> `algebra.expr`)
    instead of a KernelError. Proof files cannot reach it (at most 400 syntax nodes)."""
    deep = ONE
    for level in range(600):
        deep = 1 + level % 2 + x * deep
    with pytest.raises(KernelError, match="nested more than"):  # (SymPy cannot print it)
        kernel.obligations(seq("deep", Rel(deep, ">=", ZERO, "deep >= 0")))


# Attacks the kernel resists: each a permanent regression test.


def test_a_copied_or_hand_built_theorem_is_not_a_theorem() -> None:
    """Resisted: copy.copy of a Theorem (refused by __reduce__) and `Theorem.__new__` with its
    slot written by `object.__setattr__` (not in the registry) never serve as a used step."""
    import copy

    square = proved(seq("square", rel(x**2, ">=")))
    with pytest.raises(TypeError):
        copy.copy(square)
    forged = kernel.Theorem.__new__(kernel.Theorem)
    false = kernel.statement(seq("square", rel(x, ">=", ONE)))
    object.__setattr__(forged, "statement", false)
    use = seq("use", rel(x, ">=", ONE), uses=(false,))
    evidence = [(ob.judgement, decide(ob.judgement).certificate)
                for ob in kernel.obligations(use)]
    with pytest.raises(KernelError, match="own Theorem"):
        kernel.conclude(use, evidence, [forged])
    with pytest.raises(KernelError):
        kernel.instantiate(forged, {})


def test_a_mutated_induction_base_does_not_change_the_runs_a_theorem_is_over() -> None:
    """Resisted: the caller's base dict, mutated after `conclude` (s = 0 made s = 7), does not
    let the invariant s == 0 of the runs that stay at 0 be carried into the runs from 7."""
    base = {"s": ZERO}
    still = proved(seq("still", rel(s, "==", ZERO), rule=kernel.Induction("t", base, {"s": s}),
                       naturals=frozenset({"t"})))
    base["s"] = sympy.Integer(7)
    seven = seq("seven", rel(t * s, "==", ZERO),
                rule=kernel.Induction("t", {"s": sympy.Integer(7)}, {"s": s}),
                uses=(still.statement,), naturals=frozenset({"t"}))
    with pytest.raises(kernel.RuleError, match="mentions s"):  # a hypothesis on s: refused
        kernel.statement(seven)


def test_a_non_strict_multiplier_is_refused() -> None:
    """Resisted: `x >= 0, x*y >= 0 |- y >= 0` (false at x = 0, y = -1) by `x * y = 1 * h1`
    with the merely nonnegative x as multiplier."""
    y = sympy.Symbol("y")
    judgement = Judgement((Fact(x, ">="), Fact(x * y, ">=")), Fact(y, ">="))
    with pytest.raises(KernelError, match="is not '>'"):
        kernel.check_certificate(judgement, Certificate((Product(1, (1,)),), multiplier=(0,)))


def test_a_strict_claim_needs_a_strict_term_without_squares() -> None:
    """Resisted: `|- x**2 > 0` (false at 0) by one square term with a positive coefficient,
    and by a strict term whose coefficient is zero."""
    judgement = Judgement((), Fact(x**2, ">"))
    for certificate in (Certificate((Product(1, (), (kernel.Square(1, x),)),)),
                        Certificate((Product(0, ()), Product(1, (), (kernel.Square(1, x),))))):
        with pytest.raises(KernelError, match="strict"):
            kernel.check_certificate(judgement, certificate)


def test_refutation_form_admits_only_the_exact_negated_claim() -> None:
    """Resisted: for the goal `x >= 0`, evidence proving 0 > 0 from the stronger, contradictory
    pair `x > 0, -x > 0` (not the negation `-x > 0` alone) is for another judgement."""
    step = seq("pos", rel(x, ">="))
    (ob,) = kernel.obligations(step)
    judgement = Judgement((Fact(x, ">"), Fact(-x, ">")), Fact(ZERO, ">"))
    certificate = Certificate((Product(1, (0,)), Product(1, (1,))))
    kernel.check_certificate(judgement, certificate)  # a valid certificate of its judgement
    with pytest.raises(KernelError, match="another judgement"):
        kernel.conclude(step, [(judgement, certificate)], ())
    assert ob.judgement.hypotheses == ()


def test_exact_numbers_only_in_certificates_and_counterexamples() -> None:
    """Resisted: a Fraction subclass whose `<` lies (a negative coefficient passing as >= 0),
    a bool as a counterexample value, and a float hidden in a claim."""
    from fractions import Fraction

    class Lying(Fraction):
        def __lt__(self, other: object) -> bool:
            return False

    judgement = Judgement((), Fact(-x**2, ">="))
    with pytest.raises(KernelError, match="int or Fraction"):
        kernel.check_certificate(judgement, Certificate((Product(1, (), (
            kernel.Square(Lying(-1), x),)),)))
    with pytest.raises(KernelError, match="int or Fraction"):
        kernel.refute(seq("pos", rel(x, ">", ZERO)), "main",
                      kernel.Counterexample({"x": False}, {}))
    with pytest.raises(KernelError, match="float"):
        kernel.obligations(seq("float", rel(x + sympy.Float(0.5), ">=")))


def test_symbols_with_assumptions_or_of_another_class_are_refused() -> None:
    """Resisted: `Symbol("x", positive=True)` (SymPy would simplify with it), a Dummy named
    x, and a non-core function (Abs) in a claim."""
    for bad in (sympy.Symbol("x", positive=True), sympy.Dummy("x"), sympy.Abs(x)):
        with pytest.raises(KernelError):
            kernel.obligations(seq("bad", rel(bad, ">=")))


def test_an_instance_keeps_naturals_names_and_inherited_hypotheses() -> None:
    """Resisted: a natural replaced by a Gram symbol's name or by a sum, a division in a
    substitution, and a name read by an inherited hypothesis (an induction's claim)."""
    theorem = proved(NATURAL)
    for term in (sympy.Symbol("<w,w>"), n + 1, 1 / x):
        with pytest.raises(KernelError):
            kernel.instantiate(theorem, {"n": term})
    up = proved(seq("up", rel(s, ">="), rule=kernel.Induction("t", {"s": ZERO}, {"s": s + 1}),
                    naturals=frozenset({"t"})))
    after = proved(seq("after", rel(s + 1, ">"), uses=(up.statement,),
                       naturals=frozenset({"t"})), (up,))
    with pytest.raises(kernel.RuleError, match="inherited"):
        kernel.instantiate(after, {"s": -ONE})
    with pytest.raises(kernel.RuleError, match="runs"):
        kernel.instantiate(up, {"s": -ONE})


def test_an_existential_is_used_only_by_a_direct_step_that_ignores_its_names() -> None:
    """Resisted: `exists B: B >= 1` used by an induction, by a case split, by a step whose claim
    reads B, and by a step that declares B natural."""
    b = sympy.Symbol("B")
    names = frozenset({"B", "x", "s", "t"})
    some = proved(Sequent("some", frozenset(), names, (), rel(b, ">=", ONE),
                          witness={"B": ONE}))
    for rule, claim, naturals in [
            (kernel.Induction("t", {"s": ZERO}, {"s": s}), rel(s, "==", ZERO), {"t"}),
            (kernel.Cases(x), rel(x**2, ">="), set()),
            (kernel.Direct(), rel(b, ">=", ONE), set()),
            (kernel.Direct(), rel(x**2, ">="), {"B"})]:
        with pytest.raises(kernel.UseError):
            kernel.statement(Sequent("use", frozenset(), names, (), claim, rule,
                                     (some.statement,), frozenset(naturals)))


def test_a_step_using_an_induction_is_not_refuted_through_an_instance() -> None:
    """Resisted: the direct step `s >= 0 [up] |- s <= 2*t + x**2` (true at every state of
    s_t = 2t), and its instance x := t, keep `runs`: no decisive obligation, so the
    unreachable point t = 0, s = 1 refutes nothing."""
    up = proved(seq("up", rel(s, ">="), rule=kernel.Induction("t", {"s": ZERO}, {"s": s + 2}),
                    naturals=frozenset({"t"})))
    exact = seq("exact", rel(s, "<=", 2 * t + x**2), uses=(up.statement,),
                naturals=frozenset({"t"}))
    assert not any(ob.decisive for ob in kernel.obligations(exact))
    with pytest.raises(KernelError, match="no decisive"):
        kernel.refute(exact, "main", kernel.Counterexample({"s": 1, "t": 0, "x": 0}, {}))
    instance = kernel.instance(kernel.statement(exact), {"x": t})
    assert instance.runs
    again = seq("again", rel(s, "<=", 2 * t + t**2), uses=(instance,), naturals=frozenset({"t"}))
    with pytest.raises(KernelError, match="no decisive"):
        kernel.refute(again, "main", kernel.Counterexample({"s": 1, "t": 0, "x": 0}, {}))


def test_lying_rule_and_judgement_subclasses_are_refused() -> None:
    """Resisted: subclasses of Sequent, Judgement, Certificate, Rel and Cases (any of which
    could override a field or `__eq__`) are refused by exact type checks."""
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Seq2(Sequent):
        pass

    @dataclasses.dataclass(frozen=True)
    class Rel2(Rel):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = Rel.__hash__

    @dataclasses.dataclass(frozen=True)
    class Cases2(kernel.Cases):
        pass

    claim = rel(x, ">=")
    with pytest.raises(KernelError):
        kernel.obligations(Seq2("a", frozenset(), frozenset({"x"}), (), claim))
    with pytest.raises(KernelError):
        kernel.obligations(seq("a", Rel2(x, ">=", ZERO, "x >= 0")))
    with pytest.raises(KernelError):
        kernel.obligations(seq("a", claim, rule=Cases2(x)))

    @dataclasses.dataclass(frozen=True)
    class Judgement2(Judgement):
        pass

    with pytest.raises(KernelError):
        kernel.check_certificate(Judgement2((Fact(x, ">="),), Fact(x, ">=")),
                                 Certificate((Product(1, (0,)),)))
