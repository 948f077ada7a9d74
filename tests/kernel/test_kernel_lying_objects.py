"""Issue 26.4: the kernel API trusts no field it is handed.

A used `Statement` once had its hypotheses, claim and naturals re-validated while `over`,
`exists`, `bound`, `run` and `runs` passed through and were compared with `==`; an object whose
`__eq__` says yes then made `conclude` prove a false induction (the first test, which failed
before the fix). Every field of a used statement is now rebuilt in exact built-in types, the
kernel keeps a private copy of every statement it makes, the normal-form memo validates what
it caches and the shared ring generators are read-only.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy

from verify import kernel
from verify.kernel import Induction, KernelError, Rel, Sequent, algebra, atoms
from verify.prover import decide

s, t = sympy.Symbol("s"), sympy.Symbol("t")
ZERO = sympy.Integer(0)


class Liar:
    """Equal to everything, hashed like nothing in particular."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


def rel(lhs: sympy.Expr, op: str, rhs: sympy.Expr = ZERO) -> Rel:
    return Rel(lhs, op, rhs, f"{lhs} {op} {rhs}")


def seq(step: str, claim: Rel, rule: object, uses: tuple = ()) -> Sequent:
    return Sequent(step, frozenset(), frozenset({"s", "t"}), (), claim, rule,  # type: ignore[arg-type]
                   uses, frozenset({"t"}))


def proved(sequent: Sequent, used: tuple = ()) -> kernel.Theorem:
    evidence = []
    for ob in kernel.obligations(sequent):
        found = decide(ob.judgement).certificate
        assert found is not None, ob.label
        evidence.append((ob.judgement, found))
    return kernel.conclude(sequent, evidence, used)


#: A true induction: from s = -1, s := s - 1 at each update, s <= -1 at every state.
DOWN = seq("down", rel(s, "<=", sympy.Integer(-1)),
           Induction("t", {"s": sympy.Integer(-1)}, {"s": s - 1}))
#: A false one: from s = 0, s := s + 1 at each update, s <= 0 at every state (s_1 = 1).
UP_CLAIM, UP_RULE = rel(s, "<=", ZERO), Induction("t", {"s": ZERO}, {"s": s + 1})


def test_a_lying_runs_field_cannot_carry_another_runs_invariant() -> None:
    """The attack: `down`'s claim carried into the runs of `up` (its `over` says "equal"
    to `up`'s runs) closes `up`'s inductive step, s <= 0, s <= -1 |- s + 1 <= 0."""
    down = proved(DOWN)
    lying = dataclasses.replace(down.statement, over=Liar())
    try:
        theorem = proved(seq("up", UP_CLAIM, UP_RULE, (lying,)), (down,))
    except KernelError as error:
        assert "used runs" in str(error)
    else:
        pytest.fail(f"proved the false {theorem.statement}")
    honest = seq("up", UP_CLAIM, UP_RULE, (down.statement,))  # another run's invariant: a
    with pytest.raises(kernel.RuleError, match="mentions s"):  # hypothesis, refused here
        kernel.statement(honest)


LIES: dict[str, object] = {
    "step": Liar(), "hypotheses": Liar(), "origins": Liar(), "claim": Liar(),
    "naturals": Liar(), "run": Liar(), "exists": Liar(), "over": Liar(), "bound": Liar(),
    "runs": Liar(), "starts": Liar(),
}


#: A true direct step, s**2 >= 0, to instantiate.
SQUARE = seq("square", rel(s**2, ">=", ZERO), kernel.Direct())


def using(statement: kernel.Statement) -> Sequent:
    """A direct step that uses `statement` (an induction's claim may be used so)."""
    return seq("next", rel(s, "<=", ZERO), kernel.Direct(), (statement,))


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(kernel.Statement)])
def test_every_field_of_a_used_statement_is_rebuilt_or_refused(field: str) -> None:
    down, square = proved(DOWN).statement, proved(SQUARE).statement
    honest = kernel.statement(using(down))
    lying = dataclasses.replace(down, **{field: LIES[field]})
    if field in ("runs", "starts"):  # a flag, read as `is True`: a liar is False, and `run`
        # still says the claim holds on runs only; the starts of a statement about runs the
        # kernel did not hand out are not read: unknown (kernel.rules, *Starts*)
        assert kernel.statement(using(lying)) == dataclasses.replace(honest, starts=None)
        return
    with pytest.raises(KernelError):
        kernel.statement(using(lying))
    with pytest.raises(KernelError):
        kernel.refute(using(lying), "main", kernel.Counterexample({"s": 0, "t": 0}, {}))
    with pytest.raises(KernelError):
        kernel.instance(dataclasses.replace(square, **{field: LIES[field]}), {})


def test_the_origins_must_match_the_hypotheses_and_runs_their_shape() -> None:
    down = proved(DOWN).statement
    for lie in [dataclasses.replace(down, origins=("", "")),
                dataclasses.replace(down, over=down.over[:4]),
                dataclasses.replace(down, over=(*down.over[:1], ((("s",),),), *down.over[2:]))]:
        with pytest.raises(KernelError):
            kernel.statement(seq("up", UP_CLAIM, UP_RULE, (lie,)))


def test_a_statement_mutated_after_its_theorem_was_made_proves_nothing() -> None:
    """`object.__setattr__` reaches a frozen dataclass: the kernel compares used statements
    with its own copy of each Theorem's, which no caller holds."""
    down = proved(DOWN)
    object.__setattr__(down.statement, "claim", rel(s, "<=", sympy.Integer(-2)))
    step = seq("next", rel(s, "<=", sympy.Integer(-2)), kernel.Direct(),
               (dataclasses.replace(down.statement),))  # a copy: read as it says
    evidence = [(ob.judgement, decide(ob.judgement).certificate)
                for ob in kernel.obligations(step)]
    assert all(c is not None for _, c in evidence)
    with pytest.raises(KernelError, match="own Theorem"):
        kernel.conclude(step, evidence, [down])
    handed = seq("next", rel(s, "<=", sympy.Integer(-2)), kernel.Direct(), (down.statement,))
    assert [h.text for h in kernel.statement(handed).hypotheses] == ["s <= -1"]  # the one
    # the kernel handed out is read from its own copy, as a Theorem's statement is
    square = proved(SQUARE)  # an instance is made from the kernel's copy, not the mutation
    object.__setattr__(square.statement, "claim", rel(s, ">=", sympy.Integer(1)))
    assert kernel.instantiate(square, {"s": t}).statement.claim.text.startswith("s**2 >= 0")


def test_the_ring_cache_hands_out_read_only_generators() -> None:
    ring, gens = algebra.polynomial_ring((s, t))
    with pytest.raises(TypeError):
        gens[s] = ring(0)  # type: ignore[index]
    again = algebra.polynomial_ring((s, t))[1]
    assert again[s] == ring.gens[0]


class Impostor(sympy.Symbol):
    """The symbol `u` claiming to be `s`: equal to it and hashed like it."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(s)


@pytest.mark.parametrize("lie", [
    (">=", Impostor("u"), ZERO, ()),           # a side that is no plain SymPy symbol
    ("~", s, ZERO, ()),                        # a kind that is none
    (">=", s, ZERO, (Liar(),)),                # a divisor that is no expression
    (">=", s, ZERO, Liar()),                   # divisors that are no tuple
])
def test_the_normal_form_memo_caches_no_lie(lie: tuple) -> None:
    """Called directly, the memo once cached the impostor's normal form (a fact about u)
    under a key equal to that of `s >= 0`, for every later genuine caller."""
    algebra._memo.cache_clear()
    with pytest.raises(KernelError):
        algebra._memo(*lie, "")  # type: ignore[arg-type]
    assert algebra.normal_form(rel(s, ">=", ZERO), "s >= 0") == (kernel.Fact(s, ">="), ())


class LyingName(str):
    """A name hashed like "s" and equal to every other."""

    def __hash__(self) -> int:
        return hash("s")

    def __eq__(self, other: object) -> bool:
        return True


@pytest.mark.parametrize("impostor", [
    Impostor("u"),                                           # a Symbol subclass equal to s
    sympy.Symbol.__xnew__(sympy.Symbol, LyingName("u")),     # a plain Symbol, its name lying
])
def test_the_terms_memo_keeps_exact_trees_only(impostor: sympy.Symbol) -> None:
    """Issue 30: `atoms._terms` is memoised (an audit reads ~300 polynomials ~9000 times),
    only for trees of SymPy's exact core classes with `str` names, as `algebra.expr` admits
    them: an impostor equal to `s` and hashed like it is expanded on its own, neither answered
    from the memo (it was `s`'s terms there) nor kept in it."""
    atoms._known.cache_clear()
    assert atoms._terms(s + 1, "p") == ((Fraction(1), ((s, 1),)), (Fraction(1), ()))
    assert atoms._terms(s + 1, "p") == atoms._terms(s + 1, "p", memo=False)
    assert atoms._known.cache_info().hits == 1
    cached = atoms._terms(s, "p")
    ((coefficient, ((symbol, power),)),) = atoms._terms(impostor, "p")
    assert (coefficient, power, str.__str__(symbol.name)) == (1, 1, "u")
    assert atoms._terms(s, "p") is cached and atoms._known.cache_info().currsize == 2
