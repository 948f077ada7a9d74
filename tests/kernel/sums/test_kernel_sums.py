"""Finite sums in the kernel (verify/kernel/atoms.py, verify/kernel/sums.py and the rules that
read them): the terms' canonical form, substitution, exact evaluation, each sum rule checked
against the evaluation of both its sides (the empty set included), and the rules' checks on
sums, families and the term-wise rule.

The laws are property tests: a sum rule's fact must hold at every point where its conditions
hold, and substituting then evaluating must equal evaluating with the substituted values."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sums import proved, rel, total, x, y, z
from hypothesis import given
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
    SumRule,
    atoms,
    sums,
)
from verify.kernel.atoms import World, family, finite_sum, gram, names_of, vector_name
from verify.prover import decide

j, k, n, m, a, b, s, t = (sympy.Symbol(name) for name in ("j", "k", "n", "m", "a", "b", "s", "t"))
ZERO, ONE = sympy.Integer(0), sympy.Integer(1)
SMALL = st.fractions(min_value=-3, max_value=3, max_denominator=2)







def world(scalars: dict | None = None, families: dict | None = None,
          vectors: dict | None = None) -> World:
    point = kernel.certificates.Point(Counterexample(
        {key: Fraction(v) for key, v in (scalars or {}).items()}, vectors or {},
        families or {}))
    return point.world



def sequent(hyps: tuple, claim: Rel, rule: object = None, **kw: object) -> Sequent:
    return Sequent("s", frozenset({"w", "x", "u"}),  # type: ignore[arg-type]
                   frozenset({"j", "k", "n", "m", "a", "b", "s", "t", "y", "z"}), hyps, claim,
                   rule or kernel.Direct(), **kw)


# -- the canonical form -----------------------------------------------------------------------


def test_linearity_is_the_canonical_form_of_a_sum() -> None:
    """sum(j in 1..n, a*y[j] + 3 + y[j]**2) is a*S(y) + 3*S(1) + S(y**2): one atom per part
    of the body that depends on the index, its coefficient outside."""
    found = total(1, n, a * y(j) + 3 + y(j) ** 2)
    assert found == (a * sympy.Symbol("sum(#1 in 1..n: y[#1])") + 3 * sympy.Symbol(
        "sum(#1 in 1..n: 1)") + sympy.Symbol("sum(#1 in 1..n: y[#1]**2)"))
    assert total(1, n, ZERO) == 0


def test_alpha_equivalent_sums_are_one_atom_and_others_are_not() -> None:
    assert total(1, n, y(j)) == total(1, n, y(k), index=k)
    assert total(1, n, y(j)) != total(1, n, y(j + 1))
    inner = total(1, n, y(j) * z(k) * gram("w", x(k)), index=k)
    assert total(1, n, inner) == total(1, n, total(1, n, y(s) * z(m) * gram("w", x(m)),
                                                   index=m), index=s)


def test_nested_sums_bind_distinct_indices_outer_one_higher() -> None:
    """The outer index is one more than any inside it, so an inner sum never shadows it."""
    inner = total(1, n, gram(x(j), x(k)), index=k)
    outer = total(1, n, inner)
    assert outer == sympy.Symbol("sum(#2 in 1..n: sum(#1 in 1..n: <x[#1],x[#2]>))")
    assert names_of(outer) == {"n", "x"}


def test_filters_are_scaled_and_sorted_constant_filters_decided() -> None:
    assert total(1, n, y(j), ((2 * y(j), ">"),)) == total(1, n, y(j), ((y(j) / 3, ">"),))
    assert total(1, n, y(j), ((-2 * y(j), "=="),)) == total(1, n, y(j), ((y(j), "=="),))
    assert total(1, n, y(j), ((y(j), ">"), (z(j), ">="))) == total(1, n, y(j), (
        (z(j), ">="), (y(j), ">")))
    assert total(1, n, y(j), ((ONE, ">"),)) == total(1, n, y(j))
    assert total(1, n, y(j), ((ZERO, ">"),)) == 0
    with pytest.raises(KernelError, match="kind"):
        total(1, n, y(j), ((y(j), "<"),))


@pytest.mark.parametrize(("lo", "hi", "why"), [
    (1, n / 2, "integer coefficients"),
    (1, j, "its own index"),
    (1, y(k), "plain names"),
    (sympy.Symbol("#1"), n, "plain names"),
])
def test_bounds_are_integer_polynomials_in_names_never_the_index(lo: object, hi: object,
                                                                 why: str) -> None:
    with pytest.raises(KernelError, match=why):
        total(lo, hi, y(j))


def test_a_family_index_is_a_polynomial_in_names_and_bound_indices() -> None:
    with pytest.raises(KernelError, match="index a polynomial"):
        family("y", total(1, n, z(j)))
    with pytest.raises(KernelError, match="identifier"):
        family("#1", n)
    with pytest.raises(KernelError, match="not a polynomial"):
        family("y", 1 / n)


def test_sums_nest_at_most_max_height_deep() -> None:
    indices = [sympy.Symbol(f"i{depth}") for depth in range(atoms.MAX_HEIGHT + 1)]
    e = y(sum(indices))  # each sum's body mentions every outer index: truly nested
    for index in indices[:-1]:
        e = total(1, n, e, index=index)
    with pytest.raises(KernelError, match="nested more than"):
        total(1, n, e, index=indices[-1])


def test_renaming_an_index_never_captures_a_free_bound_index() -> None:
    """A body with a free `#1` (possible only in a forged name) cannot get the index `#1`."""
    with pytest.raises(KernelError, match="capture"):
        finite_sum(j, ONE, n, [], y(j + sympy.Symbol("#1")))


# -- reading names ----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "why"), [
    ("sum(#1 in 1..n: y[#1] + 1)", "not the canonical name"),  # linearity not applied
    ("sum(#2 in 1..n: y[#2])", "not the canonical name"),  # the index is #1
    ("sum(j in 1..n: y[j])", "not the canonical name"),  # a user's index
    ("sum(#1 in 1..n where pos(2*y[#1]): 1)", "not the canonical name"),  # filter not scaled
    ("y[1 + n + 0]", "not the canonical name"),
    ("y[n + 1]", "not the canonical name"),  # terms out of order
    ("<x[1],w>", "not the canonical name"),  # pair out of order
    ("<w,sum(#1 in 1..n: 1)>", "no vector"),
    ("sum(#1 in 1..n: y[#1]", "expected"),
    ("sum(#1 in 1..n where odd(y[#1]): 1)", "unreadable"),
    ("y[" + "1 + " * 1200 + "1]", "characters"),
    ("a b", "unreadable"),
    ("y", None),
])
def test_a_name_is_read_only_if_it_is_canonical(name: str, why: str | None) -> None:
    if why is None:
        assert atoms.structure(sympy.Symbol(name)) is None
        return
    with pytest.raises(KernelError, match=why):
        atoms.structure(sympy.Symbol(name))


def test_a_deeply_nested_name_is_refused_not_a_crash() -> None:
    with pytest.raises(KernelError):
        atoms.structure(sympy.Symbol("y[" * 1000 + "1" + "]" * 1000))


def test_canonical_reads_a_users_sum_and_structure_reads_every_atom() -> None:
    raw = sympy.Symbol("sum(i in 1..n: a*y[i] + 2)")
    assert atoms.canonical(raw + a) == total(1, n, a * y(j) + 2) + a
    found = atoms.structure(total(1, n, y(j), ((z(j), ">"),)))
    assert found == atoms.Sum(1, ONE, n, ((z(sympy.Symbol("#1")), ">"),), y(sympy.Symbol("#1")))
    assert atoms.structure(y(n + 1)) == atoms.Family("y", n + 1)
    assert atoms.gram_pair(gram("w", x(n))) == ("w", "x[n]")
    assert atoms.gram_pair(y(n)) is None


def test_names_sorts_bound_names_head_and_vector_names() -> None:
    e = a * total(1, n, gram("w", x(j)) * y(j), ((z(j), ">"),))
    assert atoms.named(e) == {("scalar", "a"), ("scalar", "n"), ("vector", "w"),
                              ("family", "x"), ("family", "y"), ("family", "z")}
    assert atoms.named(sympy.Symbol("#3")) == {("bound", "#3")}
    assert atoms.bound_names(total(1, n + m, total(1, t, y(k) * z(j), index=k))) == {
        "n", "m", "t"}
    assert atoms.head("x[n]") == "x" and atoms.head("w") == "w"
    assert atoms.vector_names("x[1 + n]") == {"x", "n"}
    with pytest.raises(KernelError, match="not an identifier"):
        atoms.vector_names("a,b")


def test_check_refuses_a_free_bound_index_at_the_top() -> None:
    with pytest.raises(KernelError, match="bound index outside"):
        atoms.check(sympy.Symbol("#1"), "claim")
    with pytest.raises(KernelError, match="bound index outside"):
        kernel.algebra.expr(y(sympy.Symbol("#1")), "claim")
    with pytest.raises(KernelError, match="bound index"):
        kernel.algebra.vector({"x[#1]": ONE}, "vector")
    with pytest.raises(KernelError, match="not a str"):
        kernel.algebra.vector({1: ONE}, "vector")


# -- substitution and evaluation ----------------------------------------------------------------


def test_substitution_enters_sums_and_never_captures() -> None:
    """a := y[j] into sum(j in 1..n, a*z[j]): the j substituted is free, not the index."""
    e = total(1, n, a * z(j))
    assert atoms.substitute(e, {"a": y(j)}, {}) == y(j) * total(1, n, z(j))
    assert atoms.substitute(e, {"n": t + 1}, {}) == a * total(1, t + 1, z(j))
    assert atoms.substitute(e, {"b": ONE}, {}) == e
    inner = total(1, n, y(k) * z(j), index=k)
    assert atoms.substitute(total(1, n, inner * a), {"a": total(1, n, y(j))}, {}) == (
        total(1, n, y(j)) * total(1, n, y(j)) * total(1, n, z(j)))
    grams = total(1, n, gram("w", x(j)))
    assert atoms.substitute(grams, {}, {"w": {"u": 2 * ONE, "x[1]": a}}) == (
        2 * total(1, n, gram("u", x(j))) + a * total(1, n, gram(x(1), x(j))))
    assert atoms.substitute(gram("w", x(n)), {"n": ONE}, {}) == gram("w", x(1))


@given(st.integers(0, 3), SMALL, SMALL, SMALL)
def test_substituting_then_evaluating_is_evaluating_with_the_values(
        size: int, value: Fraction, y1: Fraction, y2: Fraction) -> None:
    """The law that rules out capture: e[a := term] at a point equals e at the point where a
    is the term's value (terms mentioning the name of the index and other sums included)."""
    families = {"y": {Fraction(1): y1, Fraction(2): y2, Fraction(3): value},
                "z": {Fraction(1): y2, Fraction(2): value}}
    here = world({"n": size, "a": value, "j": 2, "k": 1}, families)
    e = total(1, n, a * z(j) + total(1, n, a * y(k) * y(j), index=k))
    for term in (y(j), j * k, total(1, n, y(j) * j), a + 1):
        substituted = atoms.substitute(e, {"a": term}, {})
        there = world({"n": size, "a": here.of(term), "j": 2, "k": 1}, families)
        assert here.of(substituted) == there.of(e)


def test_evaluation_is_exact_and_each_fault_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    here = world({"n": 3, "a": 2}, {"y": {1: 1, 2: 5}, "x": {1: (1, 2)}}, {"w": (3, 4)})
    assert here.of(total(1, n, a * y(j) + 3 + y(j) ** 2)) == 2 * 6 + 9 + 26
    assert here.of(total(1, n, y(j), ((y(j) - 2, ">"),))) == 5
    assert here.of(total(1, n, gram("w", x(j)))) == 11
    assert here.of(total(2, 1, y(j))) == 0
    for bad, why in ((total(1, n, family("x", j)), "family of vectors"),
                     (total(1, n, gram("w", vector_name("y", j))), "family of scalars"),
                     (sympy.Symbol("q"), "scalar q"), (gram("v", "w"), "vector v"),
                     (sympy.Symbol("#1"), "bound index")):
        with pytest.raises(KernelError, match=why):
            here.of(bad)
    with pytest.raises(KernelError, match="integers"):
        world({"n": Fraction(1, 2)}).of(total(1, n, y(j)))
    with pytest.raises(KernelError, match="integers"):
        world({"n": 10**6}).of(total(1, n, y(j)))
    monkeypatch.setattr(atoms, "MAX_WORK", 1000)  # the work of nested sums is counted
    with pytest.raises(KernelError, match="more than 1000"):
        world({"n": 40}).of(total(1, n, total(1, n, y(j + k), index=k)))


# -- the sum rules: each fact holds wherever its conditions do ---------------------------------


def fact(rule: str, target: sympy.Expr, at: object = ZERO, within: tuple = ()) -> tuple:
    return sums.identity(sums.frozen(SumRule(rule, target, sympy.sympify(at), within)))


RULES = [
    ("empty", total(n + 1, m, y(j)), 0),
    ("last", total(n, m, y(j) * j), 0),
    ("last", total(n, m, y(j), ((z(j), ">="),)), 0),
    ("skip", total(n, m, y(j), ((z(j), ">="),)), 0),
    ("skip", total(n, m, y(j), ((z(j), ">"),)), 0),
    ("skip", total(n, m, y(j), ((z(j), "=="),)), 0),
    ("skip", total(n, m, y(j), ((z(j), "=="),)), -1),
    ("split", total(n, m, y(j) ** 2), t),
    ("shift", total(n, m, y(j) * j, ((z(j), ">"),)), t - 2),
    ("count", total(n, m, ONE), 0),
]


@pytest.mark.parametrize(("rule", "target", "at"), RULES)
@given(lo=st.integers(-2, 3), hi=st.integers(-3, 4), at_=st.integers(-3, 4),
       ys=st.lists(st.integers(-2, 2), min_size=10, max_size=10),
       zs=st.lists(st.integers(-2, 2), min_size=10, max_size=10))
def test_every_sum_rule_holds_wherever_its_conditions_do(
        rule: str, target: sympy.Expr, at: object, lo: int, hi: int, at_: int,
        ys: list, zs: list) -> None:
    """Each schema, evaluated exactly: on empty ranges, single members, members failing a
    filter, split points at both ends; where a condition fails the fact may fail (that is
    why it is a condition), never where they all hold."""
    equation, conditions = fact(rule, target, at)
    families = {"y": {Fraction(i): Fraction(v) for i, v in enumerate(ys, -4)},
                "z": {Fraction(i): Fraction(v) for i, v in enumerate(zs, -4)}}
    here = World({"n": Fraction(lo), "m": Fraction(hi), "t": Fraction(at_)}, {}, families, 1)
    if all(atoms._holds(c.kind, here.of(c.expr)) for c in conditions):
        assert here.of(equation.lhs) == here.of(equation.rhs), (rule, lo, hi, at_)


def test_the_recursion_needs_its_condition_on_the_empty_range() -> None:
    """sum over 1..0 is 0, but sum over 1..-1 plus y[0] is y[0]: `last` at hi < lo fails, so
    its condition hi - lo >= 0 is what makes it valid."""
    equation, conditions = fact("last", total(1, n, y(j)))
    here = world({"n": 0}, {"y": {0: 1}})
    assert here.of(equation.lhs) != here.of(equation.rhs)
    assert [str(c) for c in conditions] == ["n - 1 >= 0"]


def test_rules_inside_a_body_lift_when_the_conditions_are_free_of_its_index() -> None:
    outer = total(1, m, total(1, n + 1, y(j + k)), index=k)  # the inner body mentions k
    inner = next(iter(atoms.structure(outer).body.free_symbols))
    equation, conditions = fact("last", inner, within=(outer,))
    assert equation.lhs == outer
    assert equation.rhs == total(1, m, total(1, n, y(j + k)) + y(n + 1 + k), index=k)
    assert [str(c) for c in conditions] == ["n >= 0"]
    filtered = total(1, m, total(1, n + 1, y(j), ((y(j) - z(k), ">"),)), index=k)
    target = next(iter(atoms.structure(next(iter(filtered.free_symbols))).body.free_symbols))
    with pytest.raises(KernelError, match="bound index"):
        fact("last", target, within=(next(iter(filtered.free_symbols)),))
    with pytest.raises(KernelError, match="not a sum"):
        fact("last", inner, within=(a,))


@pytest.mark.parametrize(("rule", "why"), [
    (SumRule("count", total(1, n, y(j))), "no sum rule"),
    (SumRule("halve", total(1, n, y(j))), "no sum rule"),
    (SumRule("last", a), "rewrites a sum"),
    (SumRule("skip", total(1, n, y(j)), ONE), "no filter"),
    (SumRule("skip", total(1, n, y(j), ((y(j), ">"),)), sympy.Rational(1, 2)), "no filter"),
    (SumRule("split", total(1, n, y(j)), n / 2), "integer coefficients"),
    (SumRule("last", sympy.Symbol("sum(#1 in 1..n: y[#2])")), "canonical"),
    (SumRule("last", total(1, n, y(j)) + 1), "SumRule of a sum"),
    ("last", "SumRule of a sum"),
])
def test_a_sum_rule_that_is_no_instance_is_refused(rule: object, why: str) -> None:
    with pytest.raises(KernelError, match=why):
        sums.frozen(rule)


# -- the rules of steps with sums --------------------------------------------------------------


def test_a_step_proves_the_recursion_with_its_rule_and_condition() -> None:
    claim = rel(total(1, n + 1, y(j)), "==", total(1, n, y(j)) + y(n + 1))
    seq = sequent((), claim, naturals=frozenset({"n"}),
                  sums=(SumRule("last", total(1, n + 1, y(j))),))
    labels = [ob.label for ob in kernel.obligations(seq)]
    assert labels == ["main", "sum rule last: n >= 0"]
    assert str(proved(seq).statement) == ("n in Nat |- " + claim.text)
    without = sequent((), claim, naturals=frozenset({"n"}))
    assert decide(kernel.obligations(without)[0].judgement).certificate is None


def test_an_induction_over_a_partial_sum() -> None:
    """s_0 = 0, s_{t+1} = s_t + y[t+1]: s_t == sum(j in 1..t, y[j]), base by `empty` (1..0),
    step by `last`; y is one family for the whole run (a constant)."""
    rule = Induction("t", {"s": ZERO}, {"s": s + y(t + 1)}, (), frozenset({"y"}))
    seq = sequent((), rel(s, "==", total(1, t, y(j))), rule, naturals=frozenset({"t"}),
                  sums=(SumRule("empty", total(1, 0, y(j))),
                        SumRule("last", total(1, t + 1, y(j)))))
    assert [ob.label for ob in kernel.obligations(seq)] == [
        "base", "base: sum rule empty: 0 >= 0", "step", "step: sum rule last: t >= 0"]
    assert "for every run from s := 0" in str(proved(seq).statement)


def test_each_case_has_its_own_sum_rules_proved_under_the_case() -> None:
    """A filtered recursion: in the case z[n+1] > 0 the last member counts (`last`, whose
    condition z[n+1] > 0 is the case), in the others it does not (`skip`)."""
    where = ((z(j), ">"),)
    longer = total(1, n + 1, y(j) ** 2, where)
    claim = rel(longer, ">=", total(1, n, y(j) ** 2, where))
    cases = ("case z[1 + n] > 0", "case z[1 + n] == 0", "case z[1 + n] < 0")
    seq = sequent((), claim, Cases(z(n + 1)), naturals=frozenset({"n"}), sums=(
        SumRule("last", longer, label=cases[0]), SumRule("skip", longer, label=cases[1]),
        SumRule("skip", longer, label=cases[2])))
    assert [ob.label for ob in kernel.obligations(seq)] == [*cases, *(
        f"{c}: sum rule {r}: {cond}" for c, r, conds in (
            (cases[0], "last", ("n >= 0", "z[1 + n] > 0")), (cases[1], "skip", (
                "n >= 0", "-z[1 + n] >= 0")), (cases[2], "skip", ("n >= 0", "-z[1 + n] >= 0")))
        for cond in conds)]
    proved(seq)
    everywhere = sequent((), claim, Cases(z(n + 1)), naturals=frozenset({"n"}),
                         sums=(SumRule("last", longer),))
    assert decide(kernel.obligations(everywhere)[-1].judgement).certificate is None


def test_a_bound_must_be_natural_in_the_step_and_in_every_sum_rule() -> None:
    with pytest.raises(RuleError, match="not natural"):
        kernel.statement(sequent((), rel(total(1, a, y(j)), ">=", 0)))
    with pytest.raises(RuleError, match="not natural"):
        kernel.obligations(sequent((), rel(total(1, n, y(j)), ">=", 0), naturals=frozenset({"n"}),
                                   sums=(SumRule("split", total(1, n, y(j)), a),)))


def test_a_family_is_nothing_else_and_never_substituted() -> None:
    for bad in (sequent((rel(y(1), ">=", 0),), rel(sympy.Symbol("y"), ">=", 0)),
                sequent((), rel(y(1), ">=", 0), witness={"y": ONE})):
        with pytest.raises(RuleError, match="is a family"):
            kernel.statement(bad)
    iterated = Induction("t", {"y": ZERO}, {"y": ONE}, ())
    with pytest.raises(RuleError, match="is a family"):
        kernel.statement(sequent((), rel(y(t), ">=", 0), iterated, naturals=frozenset({"t"})))
    stated = kernel.statement(sequent((), rel(total(1, n, y(j) ** 2 * a ** 2), ">=", 0),
                                      naturals=frozenset({"n"})))
    with pytest.raises(RuleError, match=r"cannot be replaced|not a name"):
        kernel.instance(stated, {"y": ONE})
    with pytest.raises(RuleError, match="name only"):
        kernel.instance(stated, {"n": m + 1})
    assert kernel.instance(stated, {"n": m, "a": y(k)}).claim.lhs == (
        y(k) ** 2 * total(1, m, y(j) ** 2))
    forged = kernel.Statement("f", (rel(y(1), ">=", 0),), ("",), rel(sympy.Symbol("y"), ">=", 0),
                              frozenset())
    with pytest.raises(RuleError, match="is a family"):
        kernel.instance(forged, {"y": ONE})


def test_the_vector_of_an_update_may_be_a_family_member() -> None:
    """w := w + y[t+1]*x[t+1]: the family x is read by the update (constant here), and the
    substitution's vector names are declared: x is a declared vector (family)."""
    rule = Induction("t", {"w": {}}, {"w": {"w": ONE, x(t + 1): y(t + 1)}},
                     (rel(y(t + 1) * gram("w", x(t + 1)), "<=", 0),), frozenset({"x", "y"}))
    seq = sequent((), rel(gram("w", "w"), "<=", total(1, t, gram(x(j), x(j)) * y(j) ** 2)),
                  rule, naturals=frozenset({"t"}),
                  sums=(SumRule("empty", total(1, 0, gram(x(j), x(j)) * y(j) ** 2)),
                        SumRule("last", total(1, t + 1, gram(x(j), x(j)) * y(j) ** 2))))
    proved(seq)
    undeclared = Induction("t", {"w": {}}, {"w": {"w": ONE, vector_name("q", t): ONE}}, ())
    with pytest.raises(RuleError, match="undeclared vector"):
        kernel.statement(sequent((), rel(gram("w", "w"), ">=", 0), undeclared,
                                 naturals=frozenset({"t"})))


def test_term_wise_the_sum_of_a_theorem_about_one_member() -> None:
    premise = sequent((rel(j, ">=", 1), rel(j, "<=", n), rel(z(j), ">", 0)),
                      rel(z(j) * (y(j) ** 2 + 1), ">", 0))
    theorem = proved(premise)
    where = (rel(z(j), ">", 0),)
    stated = kernel.summed(theorem.statement, "j", ONE, n, where)
    assert stated.hypotheses == () and stated.naturals == {"n"}
    summand = total(1, n, z(j) * (y(j) ** 2 + 1), ((z(j), ">"),))
    assert stated.claim.lhs == summand
    assert stated.claim.op == ">="  # strict at each member, only >= over a set maybe empty
    summed = kernel.summed_theorem(theorem, "j", ONE, n, where)
    use = sequent((), rel(summand, ">=", 0),
                  uses=(stated,), naturals=frozenset({"n"}))
    proved(use, (summed,))
    # red team 10: the text was `claim, summed over j in 1..n, filter`, which a statement's
    # list of hypotheses printed as three, one of them about a free j: now it is one, bracketed
    assert stated.claim.text == (f"({theorem.statement.claim.text} summed over j in 1..n "
                                 f"where {where[0].text})")
    assert f"n in Nat, {stated.claim.text} [" in str(kernel.statement(use))
    square = proved(sequent((), rel((z(j) * z(k)) ** 2, ">=", 0))).statement
    twice = kernel.summed(kernel.summed(square, "j", ONE, n), "k", ONE, n)
    assert twice.claim.text == (f"(({square.claim.text} summed over j in 1..n) "
                                "summed over k in 1..n)")
    equal = proved(sequent((rel(j, ">=", 1),), rel(y(j) - y(j), "==", 0)))
    assert kernel.summed(equal.statement, "j", ONE, n).claim.op == "=="
    kept = proved(sequent((rel(j, ">=", 1), rel(a, ">=", 0)), rel(a * j, ">=", 0)))
    assert kernel.summed(kept.statement, "j", ONE, n).hypotheses == (rel(a, ">=", 0),)


@pytest.mark.parametrize(("hyps", "claim", "index", "why"), [
    ((rel(y(j), ">=", 0),), rel(y(j), ">=", 0), "j", "no membership fact"),
    ((rel(j, ">=", 2),), rel(j, ">=", 0), "j", "no membership fact"),
    ((), rel(a / j, ">=", 0), "k", "divides"),
    ((), rel(a, ">=", 0), "n", "not in the bounds"),
    ((), rel(a, ">=", 0), "j k", "index must be"),
    ((), rel(gram("w", "w"), ">=", 0), "w", "index must be"),
    ((), rel(y(1), ">=", 0), "y", "index must be"),
])
def test_term_wise_refuses_what_does_not_hold_at_every_member(
        hyps: tuple, claim: Rel, index: str, why: str) -> None:
    stated = kernel.Statement("p", hyps, ("",) * len(hyps), claim, frozenset())
    with pytest.raises(RuleError, match=why):
        kernel.summed(stated, index, ONE, n)


def test_term_wise_refuses_a_natural_index_runs_and_forged_theorems() -> None:
    natural = kernel.Statement("p", (), (), rel(j, ">=", 0), frozenset({"j"}))
    with pytest.raises(RuleError, match="not natural"):
        kernel.summed(natural, "j", ONE, n)
    over = kernel.Statement("p", (), (), rel(a, ">=", 0), frozenset(), run="a run")
    with pytest.raises(RuleError, match="free of runs"):
        kernel.summed(over, "j", ONE, n)
    with pytest.raises(KernelError, match="only a Theorem"):
        kernel.summed_theorem(natural, "j", ONE, n)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="divides"):
        kernel.summed(kernel.Statement("p", (), (), rel(a, ">=", 0), frozenset()), "j", ONE, n,
                      (Rel(ONE / a, ">", ZERO, "1/a > 0"),))


def test_a_refutation_evaluates_the_sums_at_a_concrete_set() -> None:
    """sum(j in 1..n, y[j])**2 <= sum(j in 1..n, y[j]**2) (no factor n): false at n = 2,
    y = 1, 1; the kernel evaluates both sums (4 and 2) itself."""
    seq = sequent((), rel(total(1, n, y(j)) ** 2, "<=", total(1, n, y(j) ** 2)),
                  naturals=frozenset({"n"}))
    cex = Counterexample({"n": Fraction(2)}, {}, {"y": {Fraction(1): Fraction(1),
                                                         Fraction(2): Fraction(1)}})
    refutation = kernel.refute(seq, "main", cex)
    assert refutation.counterexample.families == cex.families
    with pytest.raises(KernelError, match="holds"):
        kernel.refute(seq, "main", Counterexample({"n": Fraction(1)}, {}, cex.families))
    for bad, why in (({"y": [1]}, "dict of index"), ({"x": {1: (1,)}, "z": {1: (1, 2)}},
                                                     "one dimension")):
        with pytest.raises(KernelError, match=why):
            kernel.refute(seq, "main", Counterexample({"n": Fraction(2)}, {}, bad))
    with pytest.raises(KernelError, match="must be dicts"):
        kernel.refute(seq, "main", Counterexample({"n": Fraction(2)}, {}, []))  # type: ignore[arg-type]


@pytest.mark.parametrize("rule", [
    Cases(total(1, n, y(j))),
    Induction("t", {"s": ZERO}, {"s": s + 1}, cases=Cases(total(1, n, y(j)))),
])
def test_a_natural_read_only_by_a_split_is_natural(rule: object) -> None:
    # red team 12 B: a declared natural read by a split's `on` only (or an induction's
    # cases.on) was dropped from the statement, and its sum bound then refused as "not
    # natural ... declare it in naturals", though declared. Undeclared, it stays refused.
    claim = rel(s, ">=", 0) if type(rule) is Induction else rel(y(0) ** 2, ">=", 0)
    naturals = frozenset({"n", "t"})
    seq = sequent((), claim, rule, naturals=naturals)
    assert "n in Nat" in str(proved(seq).statement)
    with pytest.raises(RuleError, match="a bound of a sum mentions n, which is not natural"):
        kernel.statement(sequent((), claim, rule, naturals=naturals - {"n"}))
