"""Issue 31's two rules for what users write about families and double sums
(verify/kernel/sums.py): `congruence` (an atom with a name replaced by an equal term:
`j == k |- y[j] == y[k]`, `<w,x[j]> == <w,x[k]>`, a sum that reads `j`) and `swap` (a double
sum in the other order, its inner set free of the outer index).

Each rule is checked against the exact evaluation of its two sides wherever its conditions
hold (property tests, empty ranges and filtered sets included), then attacked: false
statements with whatever rules an attacker likes and the search's certificates must never
come out proved (a dependent inner set swapped, an index captured by a sum's binder, equal
members without the equality, an equality of another family's members, a member inside an
index), directly and through the structural rules (cases, induction, uses, instances, the
term-wise rule); where false, a concrete set the kernel evaluates refutes them."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sums import never_proved, proved, rel, total, x, y, z
from hypothesis import given
from hypothesis import strategies as st

from verify import kernel
from verify.kernel import (
    Cases,
    Counterexample,
    Induction,
    KernelError,
    RuleError,
    Sequent,
    SumRule,
    atoms,
    sums,
)
from verify.kernel.atoms import World, family, gram

j, k, l, n, m, a, t = (  # noqa: E741 (l: the index users write)
    sympy.Symbol(name) for name in ("j", "k", "l", "n", "m", "a", "t"))
ZERO, ONE = sympy.Integer(0), sympy.Integer(1)
F = Fraction
NATURALS = frozenset({"n", "m"})


def step(claim: kernel.Rel, hyps: tuple = (), rule: object = None, **kw: object) -> Sequent:
    return Sequent("s", frozenset({"w", "x"}),  # type: ignore[arg-type]
                   frozenset({"j", "k", "l", "n", "m", "a", "t", "y", "z"}), hyps, claim,
                   rule or kernel.Direct(), **kw)


def congruence(target: sympy.Expr, var: str, at: object, within: tuple = (),
               label: str = "") -> SumRule:
    return SumRule("congruence", target, sympy.sympify(at), within, label, var)


def swap(target: sympy.Expr, within: tuple = ()) -> SumRule:
    return SumRule("swap", target, ZERO, within)


def identity(rule: SumRule) -> tuple:
    return sums.identity(sums.frozen(rule))


def refuted(seq: Sequent, cex: Counterexample, label: str = "main") -> None:
    assert kernel.refute(seq, label, cex).label == label


def families(ys: list[int], zs: list[int]) -> dict:
    return {"y": {F(i): F(v) for i, v in enumerate(ys, -4)},
            "z": {F(i): F(v) for i, v in enumerate(zs, -4)}}


# -- the schemata against the evaluation -------------------------------------------------------

INNER = total(1, m, y(j + k) * z(k), ((z(k), ">="),), index=k)
SWAPS = [
    total(1, n, y(j) * total(1, m, z(j * k), index=k)),  # ranges
    total(1, n, INNER, ((y(j), ">"),)),  # sets on both sides, the body reads both indices
    total(n, 2, total(m, 1, y(j) * z(k) * y(j + k), index=k)),  # bounds that may cross
    total(1, n, total(1, m, y(j) * total(1, m, z(j + k * l), index=l), index=k)),  # a third sum
]


@pytest.mark.parametrize("target", SWAPS)
@given(lo=st.integers(-1, 3), hi=st.integers(-1, 3),
       ys=st.lists(st.integers(-2, 2), min_size=14, max_size=14),
       zs=st.lists(st.integers(-2, 2), min_size=14, max_size=14))
def test_a_swap_holds_at_every_point_empty_sets_included(
        target: sympy.Expr, lo: int, hi: int, ys: list, zs: list) -> None:
    """Both orders of a double sum are the sum over the product set: equal at every point,
    where either range is empty (n or m below its lower bound) too. No condition."""
    (atom,) = target.free_symbols
    equation, conditions = identity(swap(atom))
    assert conditions == ()
    assert equation.rhs != equation.lhs  # another order, not the same sum
    here = World({"n": F(lo), "m": F(hi)}, {}, families(ys, zs), 1)
    assert here.of(equation.lhs) == here.of(equation.rhs)


def test_a_swap_gives_the_double_sum_in_the_other_order_and_back() -> None:
    """sum(j in 1..n, sum(k in 1..m, y[j]*z[j*k])) in the other order is sum(k in 1..m,
    sum(j in 1..n, y[j]*z[j*k])) as the canonical form reads it; swapped again, the first."""
    first = total(1, n, total(1, m, y(j) * z(j * k), index=k))
    other = total(1, m, total(1, n, y(j) * z(j * k)), index=k)
    equation, _ = identity(swap(first))
    assert (equation.lhs, equation.rhs) == (first, other)
    assert identity(swap(other))[0].rhs == first


def test_a_swap_over_a_third_sum_keeps_the_indices_apart() -> None:
    """Regression (found by the property test above while the rule was written): the swap's
    fresh name for the inner index was `#~1`, the name substitution gives a sum's own index
    1 while it renames it, so in sum(j, sum(k, y[j]*sum(l, z[j + k*l]))) the third sum's l
    captured k: the swapped side read z[l*l + j] and was off (1 against 2 at n = 1, m = 2)."""
    first = total(1, n, total(1, m, y(j) * total(1, m, z(j + k * l), index=l), index=k))
    other = total(1, m, total(1, n, y(j) * total(1, m, z(j + k * l), index=l)), index=k)
    (atom,) = first.free_symbols
    assert identity(swap(atom))[0].rhs == other


def test_a_swap_rewrites_inside_an_enclosing_sum() -> None:
    """Within a third sum whose index the double sum reads (`within`): for each of its
    members the swap holds, so it holds under it."""
    outer = total(1, n, total(1, m, total(1, m, y(j + k + l), index=l), index=k))
    (atom,) = outer.free_symbols
    (inner,) = [s for s in atoms.structure(atom).body.free_symbols
                if isinstance(atoms.structure(s), atoms.Sum)]
    equation, conditions = identity(swap(inner, (atom,)))
    assert equation.lhs == atom and conditions == ()
    assert equation.rhs == outer  # the two inner ranges are alike: the same sum again
    here = World({"n": F(2), "m": F(2)}, {}, families(list(range(14)), [0] * 14), 1)
    assert here.of(equation.lhs) == here.of(equation.rhs)


@given(jv=st.integers(-2, 2), kv=st.integers(-2, 2), nv=st.integers(0, 3),
       ys=st.lists(st.integers(-2, 2), min_size=14, max_size=14),
       xs=st.lists(st.integers(-2, 2), min_size=14, max_size=14))
def test_a_congruence_holds_wherever_its_condition_does(
        jv: int, kv: int, nv: int, ys: list, xs: list) -> None:
    """A member, a Gram symbol of members, a sum reading the name, and a sum's bound: each
    equal to its copy with `j` replaced by `k + 1` wherever j == k + 1 (and only the
    condition says where)."""
    point = {"j": F(jv), "k": F(kv), "n": F(nv), "m": F(nv)}
    fams = {**families(ys, ys), "x": {F(i): (F(v),) for i, v in enumerate(xs, -4)}}
    here = World(point, {"w": (F(1),)}, fams, 1)
    targets = [(y(j), "j", k + 1), (gram("w", x(j)), "j", k + 1), (gram(x(j), x(2 * j)), "j", k),
               (next(iter(total(1, n, y(l + j) * z(l), index=l).free_symbols)), "j", k - 1),
               (next(iter(total(1, n, y(l), index=l).free_symbols)), "n", m)]
    for target, var, at in targets:
        equation, (condition,) = identity(congruence(target, var, at))
        assert condition.kind == "=="
        if here.of(condition.expr) == 0:
            assert here.of(equation.lhs) == here.of(equation.rhs), (target, point)


def test_a_congruence_states_its_condition_and_replaces_every_occurrence() -> None:
    equation, (condition,) = identity(congruence(gram(x(j), x(j + 1)), "j", k))
    assert equation.rhs == gram(x(k), x(k + 1))
    assert condition == kernel.Fact(j - k, "==")
    inside = total(1, n, y(l) * z(l + j), index=l)
    (atom,) = inside.free_symbols
    assert identity(congruence(atom, "j", 2 * k))[0].rhs == total(1, n, y(l) * z(l + 2 * k),
                                                                  index=l)


def test_a_congruence_inside_a_sum_needs_a_condition_free_of_its_index() -> None:
    """y[l + j] under sum(l, ...) may become y[l + k] (for every member l, where j == k);
    replacing j by the enclosing index itself is refused: its condition would be read
    outside the sum, where the index means nothing."""
    outer = total(1, n, y(l + j) * y(l), index=l)
    (atom,) = outer.free_symbols
    member = next(s for s in atoms.structure(atom).body.free_symbols if "j" in s.name)
    equation, _ = identity(congruence(member, "j", k, (atom,)))
    assert equation.rhs == total(1, n, y(l + k) * y(l), index=l)
    with pytest.raises(KernelError, match="bound index"):
        identity(congruence(member, "j", sympy.Symbol("#1"), (atom,)))


@pytest.mark.parametrize(("rule", "why"), [
    (congruence(a, "a", k), "rewrites a sum"),  # a plain name is no atom
    (congruence(gram("v", "w"), "a", k), "rewrites a sum"),  # nor a Gram symbol of names
    (congruence(y(j), "#1", k), "no sum rule 'congruence'"),  # a bound index is no name
    (congruence(y(j), "y[j]", k), "no sum rule 'congruence'"),  # nor is a member
    (congruence(y(j), "j", k / a), "polynomial|divide|not a"),  # k is validated
    (SumRule("congruence", y(j), k, (), "", 1), "a congruence's name"),  # type: ignore[arg-type]
    (swap(total(1, n, y(j))), "no sum rule 'swap'"),  # no inner sum
    (swap(y(j)), "rewrites a sum"),
    (swap(total(1, n, total(1, m, y(j * k), index=k) ** 2)), "no sum rule 'swap'"),
    (swap(total(1, n, total(1, m, y(j * k), index=k) * total(1, m, z(j * k), index=k))),
     "no sum rule 'swap'"),  # two inner sums: which one?
    (swap(total(1, n, total(1, n, y(k), ((j - k, ">="),), index=k))), "depends on the outer"),
    (swap(total(1, n, y(j) * total(1, n, y(k), ((j - k, ">="), (k - j, ">=")), index=k))),
     "depends on the outer"),  # two filters whose sum cancels: each is looked at
    (swap(total(1, n, total(1, n, y(k), ((z(j) - k, "=="),), index=k))), "depends on the outer"),
])
def test_a_rule_that_is_no_instance_is_refused(rule: SumRule, why: str) -> None:
    target = rule.target
    if isinstance(target, sympy.Add | sympy.Mul):  # a product of sums: the one atom inside
        (target,) = target.free_symbols
    with pytest.raises(KernelError, match=why):
        identity(SumRule(rule.rule, target, rule.at, rule.within, rule.label, rule.var))


def test_a_member_in_an_index_cannot_even_be_written() -> None:
    """y[x[j]] (a member as an index) is no term of the kernel: an index is a polynomial in
    names and bound indices, so no congruence can reach inside one."""
    with pytest.raises(KernelError, match="index a polynomial"):
        family("y", y(j))
    with pytest.raises(KernelError):
        atoms.structure(sympy.Symbol("y[y[j]]"))


# -- steps: proved where true ------------------------------------------------------------------


def test_equal_indices_give_equal_members_scalar_and_vector() -> None:
    for claim in (rel(y(j), "==", y(k)), rel(gram("w", x(j)), "==", gram("w", x(k))),
                  rel(gram(x(j), x(j)), "<=", gram(x(k), x(k)))):
        target = sorted(claim.lhs.free_symbols, key=str)[0]
        theorem = proved(step(claim, (rel(j, "==", k),), sums=(congruence(target, "j", k),)))
        assert str(theorem.statement) == f"j == k |- {claim.text}"


def test_a_swapped_double_sum_is_proved_equal_empty_ranges_included() -> None:
    first = total(1, n, total(1, m, y(j) * z(j + k), index=k))
    other = total(1, m, total(1, n, y(j) * z(j + k)), index=k)
    (atom,) = first.free_symbols
    proved(step(rel(first, "==", other), naturals=NATURALS, sums=(swap(atom),)))


# -- attacks: never proved ---------------------------------------------------------------------


def test_a_dependent_inner_set_is_not_swapped_naively() -> None:
    """sum_{j<=n} sum_{k<=n, k<=j} y[k] (each y[k] n - k + 1 times) is not sum_{k<=n}
    sum_{j<=n, j<=k} y[k] (each k times), the naive swap that moves the filter with its
    sum: false at n = 2, y[1] = 1 (2 against 1). The swap is refused, the step never proved."""
    left = total(1, n, total(1, n, y(k), ((j - k, ">="),), index=k))
    right = total(1, n, total(1, n, y(k), ((k - j, ">="),)), index=k)
    attack = [swap(s) for s in (*left.free_symbols, *right.free_symbols)]
    for rule in attack:
        with pytest.raises(KernelError, match="depends on the outer"):
            sums.frozen(rule)
    false = step(rel(left, "==", right), naturals=NATURALS)
    never_proved(false)
    refuted(false, Counterexample({"n": F(2)}, {}, {"y": {F(1): F(1)}}))
    with pytest.raises(KernelError, match="depends on the outer"):
        kernel.obligations(step(rel(left, "==", right), naturals=NATURALS, sums=tuple(attack)))


def test_an_index_captured_by_a_sum_is_not_the_free_name() -> None:
    """j == k says nothing about the bound index of sum(j in 1..n, y[j]): sum(j in 1..n,
    y[j]) == sum(j in 1..n, y[k]) is false at n = 2, j = k = 1, y = (1, 0) (1 against 2).
    The congruences an attacker can state leave the sum's own index alone (it is renamed, and
    a bound index is no name to replace nor a term to replace by)."""
    left, right = total(1, n, y(j)), total(1, n, y(k))
    assert right == y(k) * total(1, n, ONE)  # y[k] is free of the index: it comes out
    (sl,) = left.free_symbols
    attack = (congruence(y(k), "k", j), congruence(sl, "j", k), congruence(y(j), "j", k))
    assert identity(attack[0])[0].rhs == y(j)  # the free j, not the sum's
    assert identity(attack[1])[0].rhs == left  # j is not free in it: nothing replaced
    false = step(rel(left, "==", right), (rel(j, "==", k),), naturals=NATURALS, sums=attack)
    never_proved(false)
    refuted(false, Counterexample({"n": F(2), "j": F(1), "k": F(1)}, {}, {"y": {F(1): F(1)}}))
    bound = SumRule("congruence", y(k), sympy.Symbol("#1"), (), "", "k")
    with pytest.raises(KernelError, match="bound index"):
        sums.frozen(bound)


def test_equal_members_need_the_equality_of_their_indices() -> None:
    """Without j == k (or with j <= k only) the congruence's condition is not proved:
    y[j] == y[k] is false at j = 1, k = 2, y = (1, 0)."""
    for hyps in ((), (rel(j, "<=", k),), (rel(j**2, "==", k**2),)):
        false = step(rel(y(j), "==", y(k)), hyps, sums=(congruence(y(j), "j", k),))
        never_proved(false)
        refuted(false, Counterexample({"j": F(-1), "k": F(1)}, {}, {"y": {F(-1): F(1)}}))


def test_equal_members_of_one_family_say_nothing_of_another() -> None:
    """y[j] == y[k] (equal members, not equal indices) does not give z[j] == z[k]: false at
    j = 1, k = 2, y = 0, z = (1, 0). A congruence needs j == k, which does not follow."""
    false = step(rel(z(j), "==", z(k)), (rel(y(j), "==", y(k)),),
                 sums=(congruence(z(j), "j", k), congruence(y(j), "j", k)))
    never_proved(false)
    refuted(false, Counterexample({"j": F(1), "k": F(2)}, {}, {"z": {F(1): F(1)}}))


def test_a_congruence_holds_only_in_the_case_where_its_condition_does() -> None:
    """Split on j - k: the congruence's condition is proved in the case j - k == 0 only, so
    the step (no hypothesis) is never proved, and the case j - k > 0 refutes it."""
    false = step(rel(y(j), "==", y(k)), rule=Cases(j - k, True, "j - k"),
                 sums=(congruence(y(j), "j", k),))
    labels = [ob.label for ob in kernel.obligations(false)]
    assert "case j - k == 0: sum rule congruence: j - k == 0" in labels
    never_proved(false)
    refuted(false, Counterexample({"j": F(2), "k": F(1)}, {}, {"y": {F(2): F(1)}}),
            "case j - k > 0")


def test_an_induction_cannot_move_a_member_by_a_congruence() -> None:
    """y[t] == y[0] at every t is no invariant (y is any function): the step would need
    y[t + 1] == y[t], and a congruence from t + 1 to t needs 1 == 0."""
    rule = Induction("t", {}, {}, (), frozenset({"y"}))
    false = step(rel(y(t), "==", y(0)), rule=rule, naturals=frozenset({"t"}),
                 sums=(congruence(y(t + 1), "t", t - 1), congruence(y(t), "t", ZERO)))
    never_proved(false)


def test_a_used_congruence_brings_its_hypothesis() -> None:
    """A step that uses `j == k |- y[j] == y[k]` states j == k among its hypotheses: it never
    proves y[j] == y[k] of arbitrary j, k. An instance k := j + 1 is vacuous (j == j + 1), so
    y[j] == y[j + 1] stays under a false hypothesis; summed over j, the step is refused (its
    hypothesis j == k is no membership fact)."""
    lemma = proved(step(rel(y(j), "==", y(k)), (rel(j, "==", k),),
                        sums=(congruence(y(j), "j", k),)))
    user = step(rel(y(j), "==", y(k)), uses=(lemma.statement,))
    assert [h.text for h in kernel.statement(user).hypotheses] == ["j == k", "y[j] == y[k]"]
    moved = kernel.instance(lemma.statement, {"k": j + 1})
    assert [h.lhs - h.rhs for h in moved.hypotheses] == [-1]
    false = step(rel(y(j), "==", y(j + 1)), uses=(moved,))
    assert kernel.statement(false).hypotheses[0].text.startswith("j == k")
    with pytest.raises(RuleError, match="no membership fact"):
        kernel.summed(lemma.statement, "j", ONE, n)
    never = step(rel(y(j), "==", y(k)), sums=(congruence(y(j), "j", k),))
    never_proved(never)
