"""Second red team of finite sums and of the memos (issue 31 merged with issue 30's `Stated`).

Each attack below is a false statement with sums, or a rule application that would prove
one, handed to the kernel through its Python API with whatever sum rules the attacker likes
and the untrusted search's certificates: it must never come out proved. Where the statement
is false, a concrete finite set (a counterexample the kernel evaluates, sums included) says
why. One attack did come out proved before its fix: the ring memo behind every certificate
check handed its own generators out (`algebra.polynomial_ring`, `algebra.expanded`), and a
caller changing one in place made `a - 1 >= 0` a theorem (the last test).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sums import never_proved, proved, rel, total, x, y, z
from sympy.polys.domains import QQ

from verify import kernel
from verify.kernel import (
    Cases,
    Certificate,
    Counterexample,
    Induction,
    KernelError,
    Rel,
    RuleError,
    Sequent,
    SumRule,
    UseError,
    algebra,
)
from verify.kernel.atoms import gram
from verify.prover import decide

j, k, i, n, m, a, s, t = (sympy.Symbol(name) for name in ("j", "k", "i", "n", "m", "a", "s", "t"))
ZERO, ONE = sympy.Integer(0), sympy.Integer(1)
F = Fraction
NATURAL_N = frozenset({"n"})







def step(claim: Rel, hyps: tuple = (), rule: object = None, **kw: object) -> Sequent:
    return Sequent("attack", frozenset({"w", "x"}),  # type: ignore[arg-type]
                   frozenset({"j", "k", "i", "n", "m", "a", "s", "t", "y", "z"}), hyps,
                   claim, rule or kernel.Direct(), **kw)



def refuted(seq: Sequent, cex: Counterexample, label: str = "main") -> None:
    assert kernel.refute(seq, label, cex).label == label



def test_a_reversed_range_is_empty_whatever_rule_is_claimed() -> None:
    """sum(j in 3..1, y[j]) is 0 (no integer 3 <= j <= 1), not y[1] + y[2] + y[3]; `last`
    on it needs 1 - 3 >= 0, which is false, so the attacker's recursion proves nothing."""
    backwards = total(3, 1, y(j))
    false = step(rel(backwards, "==", y(1) + y(2) + y(3)),
                 sums=(SumRule("last", backwards), SumRule("last", total(3, 0, y(j)))))
    never_proved(false)
    refuted(false, Counterexample({}, {}, {"y": {F(1): F(1)}}))


def test_a_split_into_overlapping_parts_counts_the_seam_twice() -> None:
    """sum(1..n) == sum(1..m) + sum(m..n) counts y[m] twice (the rule splits into 1..m and
    m + 1..n): false at n = m = 1, y[1] = 1 (1 against 2)."""
    whole = total(1, n, y(j))
    false = step(rel(whole, "==", total(1, m, y(j)) + total(m, n, y(j))),
                 (rel(m, ">=", 1), rel(m, "<=", n)), naturals=frozenset({"n", "m"}),
                 sums=(SumRule("split", whole, m), SumRule("split", whole, m - 1)))
    never_proved(false)
    refuted(false, Counterexample({"n": F(1), "m": F(1)}, {}, {"y": {F(1): F(1)}}))


def test_dividing_by_a_count_that_may_be_zero_is_never_proved() -> None:
    """|S|/|S| == 1 with S = 1..n is undefined at n = 0: the count rule gives |S| == n, but
    its denominator's condition n > 0 follows from nothing (a natural may be 0)."""
    count = total(1, n, ONE)
    false = step(Rel(count / count, "==", ONE, "|S|/|S| == 1", (count,)), naturals=NATURAL_N,
                 sums=(SumRule("count", count),))
    labels = [ob.label for ob in kernel.obligations(false)]
    assert f"denominator {count} > 0" in labels
    never_proved(false)


def test_a_mean_is_not_bounded_by_the_sum_when_the_sum_is_negative() -> None:
    """sum/|S| <= sum is false for a negative sum (n = 2, y = (0, -1): -1/2 against -1)."""
    total_y, count = total(1, n, y(j)), total(1, n, ONE)
    false = step(Rel(total_y / count, "<=", total_y, "mean <= sum"), naturals=NATURAL_N,
                 sums=(SumRule("count", count),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(2)}, {}, {"y": {F(2): F(-1)}}))


def test_an_inner_index_of_the_same_spelling_shadows_the_outer_one() -> None:
    """sum(j in 1..n, sum(j in 1..m, y[j])) is n * sum_{j<=m} y[j] (the inner j shadows the
    outer), not sum(j in 1..n, sum(i in 1..m, y[j])) = m * sum_{j<=n} y[j]."""
    shadowed = total(1, n, total(1, m, y(j)))
    other = total(1, n, total(1, m, y(j), index=i))
    assert shadowed == total(1, n, ONE) * total(1, m, y(j))
    assert other == total(1, m, ONE) * total(1, n, y(j))
    false = step(rel(shadowed, "==", other), naturals=frozenset({"n", "m"}))
    never_proved(false)
    refuted(false, Counterexample({"n": F(2), "m": F(1)}, {}, {"y": {F(2): F(1)}}))


def test_a_term_wise_fact_on_a_subset_is_not_summed_over_the_whole_range() -> None:
    """`y[j] >= 0` holds on P = {j : y[j] >= 0} only: summed over P it bounds the sum over P,
    and the sum over all of 1..n (the same body, no filter) stays unknown and is refuted."""
    member = proved(step(rel(y(j), ">=", 0), (rel(j, ">=", 1), rel(j, "<=", n),
                                              rel(y(j), ">=", 0))))
    with pytest.raises(RuleError, match="no membership fact"):
        kernel.summed(member.statement, "j", ONE, n)
    over_p = kernel.summed(member.statement, "j", ONE, n, (rel(y(j), ">=", 0),))
    false = step(rel(total(1, n, y(j)), ">=", 0), uses=(over_p,), naturals=NATURAL_N)
    never_proved(false, (kernel.summed_theorem(member, "j", ONE, n, (rel(y(j), ">=", 0),)),))
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(-1)}}))


def test_a_weak_filter_is_not_a_strict_one() -> None:
    """Summing over {y[j] > 0} a step that needs y[j] >= 0 would be sound, but the reverse
    is not: a premise `y[j] > 0` is no membership fact of {j : y[j] >= 0} (y[j] = 0 is a
    member where it fails), so the term-wise rule refuses it."""
    strict = proved(step(rel(y(j), ">", 0), (rel(j, ">=", 1), rel(j, "<=", n),
                                             rel(y(j), ">", 0))))
    with pytest.raises(RuleError, match="no membership fact"):
        kernel.summed(strict.statement, "j", ONE, n, (rel(y(j), ">=", 0),))
    false = step(rel(total(1, n, ONE, ((y(j), ">="),)), "==", total(1, n, ONE, ((y(j), ">"),))),
                 naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}))


def test_a_shift_moves_the_filter_with_the_body() -> None:
    """Shifting sum(j in 1..n where y[j] > 0, y[j]) by one gives the filter y[j - 1] > 0
    too; the attacker's claim keeps y[j] > 0 on the shifted range: false at n = 1,
    y[1] = 1, y[2] = 0 (1 against 0)."""
    where = ((y(j), ">"),)
    start = total(1, n, y(j), where)
    false = step(rel(start, "==", total(2, n + 1, y(j - 1), where)), naturals=NATURAL_N,
                 sums=(SumRule("shift", start, ONE),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(1)}}))


def test_a_substitution_into_a_filter_is_not_captured() -> None:
    """The count of {i in 1..n : y[i] >= a}, with a := y[j] (the free j of the step), is the
    count of {i : y[i] >= y[j]}, not of {i : y[i] >= y[i]} = all of 1..n. Captured, the count
    would be n; it is not: false at n = 2, y = (0, 1), j = 2 (1 against 2)."""
    counted = step(rel(total(1, n, ONE, ((y(j) - a, ">="),)), "<=", n), naturals=NATURAL_N)
    instance = kernel.instance(kernel.statement(counted), {"a": y(j)})
    (member_count,) = instance.claim.lhs.free_symbols
    assert kernel.atoms.structure(member_count).filters == ((y(sympy.Symbol("#1")) - y(j), ">="),)
    false = step(rel(instance.claim.lhs, "==", n), naturals=NATURAL_N,
                 sums=(SumRule("count", total(1, n, ONE)),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(2), "j": F(2)}, {}, {"y": {F(2): F(1)}}))


def test_an_empty_filtered_set_has_no_member() -> None:
    """n >= 1 does not make {j in 1..n : y[j] > 0} nonempty (all y[j] <= 0)."""
    members = total(1, n, ONE, ((y(j), ">"),))
    false = step(rel(members, ">=", 1), (rel(n, ">=", 1),), naturals=NATURAL_N,
                 sums=(SumRule("last", members), SumRule("skip", members)))
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(-1)}}))


def test_cauchy_schwarz_mixing_a_vector_sum_and_scalars_without_the_norms() -> None:
    """(sum_j <x_j, w>)**2 <= (sum_j |x_j|**2) |w|**2 drops the count n of Cauchy–Schwarz
    for sums: false at n = 2, x_1 = x_2 = w = (1) (4 against 2)."""
    inner = total(1, n, gram(x(j), "w"))
    false = step(rel(inner**2, "<=", total(1, n, gram(x(j), x(j))) * gram("w", "w")),
                 naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(2)}, {"w": (F(1),)},
                                  {"x": {F(1): (F(1),), F(2): (F(1),)}}))


def test_the_norm_of_a_sum_is_not_at_least_the_sum_of_the_norms() -> None:
    """|x_1 + x_2|**2 >= |x_1|**2 + |x_2|**2 fails for x_1 = -x_2 (0 against 2): the double
    sum of Gram symbols is an unknown the certificates cannot bound by the diagonal."""
    double = total(1, n, total(1, n, gram(x(j), x(k)), index=k))
    false = step(rel(double, ">=", total(1, n, gram(x(j), x(j)))), naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(2)}, {}, {"x": {F(1): (F(1),), F(2): (F(-1),)}}))


def test_an_off_by_one_partial_sum_is_no_invariant() -> None:
    """s_0 = 0, s_{t+1} = s_t + y[t] makes s_t the sum over 0..t-1, not over 1..t: false at
    t = 1 after a run with y[0] = 1 (s_1 = 1, the sum over 1..1 is y[1] = 0). The base holds
    (both 0), so no base counterexample exists; the step is never proved."""
    rule = Induction("t", {"s": ZERO}, {"s": s + y(t)}, (), frozenset({"y"}))
    false = step(rel(s, "==", total(1, t, y(j))), rule=rule, naturals=frozenset({"t"}),
                 sums=(SumRule("empty", total(1, 0, y(j))),
                       SumRule("last", total(1, t + 1, y(j)))))
    never_proved(false)


def test_a_per_update_family_inside_a_sum_of_the_invariant_is_refused() -> None:
    """A family the update reads but the induction does not list as constant is fresh at
    every update: `s == sum(j in 1..t, y[j])` would read today's y for every past update."""
    rule = Induction("t", {"s": ZERO}, {"s": s + y(t + 1)}, ())
    with pytest.raises(RuleError, match="fresh at every update"):
        kernel.statement(step(rel(s, "==", total(1, t, y(j))), rule=rule,
                              naturals=frozenset({"t"})))


def test_an_index_named_like_the_counter_is_bound_not_the_counter() -> None:
    """Inside an induction on t, sum(t in 1..n, y[t]) binds its own t: it is the fixed
    sum(j in 1..n, y[j]), and s_t = t*a (a constant) is no such sum: false at the base
    already (s_0 = 0 against y[1] = 1 for n = 1)."""
    rule = Induction("t", {"s": ZERO}, {"s": s + a}, (), frozenset({"a"}))
    bound_t = total(1, n, y(t), index=t)
    assert bound_t == total(1, n, y(j))
    false = step(rel(s, "==", bound_t), rule=rule, naturals=frozenset({"t", "n"}))
    never_proved(false)
    refuted(false, Counterexample({"n": F(1), "a": F(0), "t": F(0)}, {}, {"y": {F(1): F(1)}}),
            "base")


def test_a_sum_rule_within_the_wrong_enclosing_sum_is_a_tautology() -> None:
    """The recursion of an inner sum whose filter reads the outer index k (y[j] > z[k]) has
    the condition y[n + 1] > z[k] at its last member, which depends on k: it is refused. A
    split of it (conditions free of k) within an unrelated sum states that sum == itself.
    The false claim that every inner sum grew by its last member stays unknown."""
    outer = total(1, m, total(1, n + 1, y(j), ((y(j) - z(k), ">"),)), index=k)
    (inner,) = kernel.atoms.structure(outer).body.free_symbols
    unrelated = total(1, m, z(k) ** 2, index=k)
    fact, _ = kernel.sums.identity(SumRule("split", inner, n, (unrelated,)))
    assert (fact.lhs, fact.rhs) == (unrelated, unrelated)
    with pytest.raises(KernelError, match="bound index"):
        kernel.sums.identity(SumRule("last", inner, ZERO, (outer,)))
    shorter = total(1, m, total(1, n, y(j), ((y(j) - z(k), ">"),)) + y(n + 1), index=k)
    false = step(rel(outer, "==", shorter), naturals=frozenset({"n", "m"}),
                 sums=(SumRule("split", inner, n, (unrelated,)),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(0), "m": F(1)}, {}, {"y": {F(1): F(1)},
                                                               "z": {F(1): F(1)}}))


def test_a_stated_step_is_no_theorem_and_its_naturals_travel_with_it() -> None:
    """The memo of validated statements (`kernel.state`) claims nothing: a false step's
    Stated used by another needs its Theorem; and a theorem proved for natural n only is
    not used where n is any real (sum(j in 1..n, 1) == n read at n = 1/2)."""
    count = total(1, n, ONE)
    false = step(rel(count, ">=", 1), naturals=NATURAL_N)
    stated = kernel.state(false)
    user = step(rel(count, ">=", 1), uses=(stated,), naturals=NATURAL_N)
    evidence = [(ob.judgement, decide(ob.judgement).certificate)
                for ob in kernel.obligations(user)]
    assert all(c is not None for _, c in evidence)  # from the imported claim itself
    with pytest.raises(KernelError, match="own Theorem"):
        kernel.conclude(user, evidence, ())
    with pytest.raises(KernelError, match="every used step needs its own Theorem"):
        kernel.conclude(user, evidence, (stated,))  # a Stated is no Theorem
    with pytest.raises(KernelError, match="only a Theorem"):
        kernel.summed_theorem(stated, "j", ONE, n)  # type: ignore[arg-type]
    with pytest.raises(KernelError, match="only a Theorem"):
        kernel.instantiate(stated, {})  # type: ignore[arg-type]
    exact = proved(step(rel(count, "==", n), naturals=NATURAL_N, sums=(SumRule("count", count),)))
    with pytest.raises(UseError, match="natural"):
        kernel.statement(Sequent("real", frozenset(), frozenset({"n"}), (),
                                 rel(n, ">=", 0), uses=(exact.statement,)))


def test_an_instance_cannot_make_a_bound_a_non_name() -> None:
    """sum(j in 1..n, 1) == n holds for natural n; with n := 1/2 (or n := m - 1, which may be
    -1 for a natural m) it would read a sum over no integers as 1/2 (or -1)."""
    count = total(1, n, ONE)
    exact = proved(step(rel(count, "==", n), naturals=NATURAL_N, sums=(SumRule("count", count),)))
    for term in (ONE / 2, m - 1):
        with pytest.raises(RuleError, match="by a name only"):
            kernel.instantiate(exact, {"n": term})


def test_cases_do_not_leak_a_sum_rule_into_the_wrong_case() -> None:
    """In the case z[n + 1] <= 0 the last member does not count: a `last` labelled for that
    case needs z[n + 1] > 0 there, false, so the claim that the filtered sum grew stays
    unknown in that case and is refuted by a concrete set."""
    where = ((z(j), ">"),)
    longer = total(1, n + 1, y(j), where)
    false = step(rel(longer, "==", total(1, n, y(j), where) + y(n + 1)),
                 rule=Cases(z(n + 1), False), naturals=NATURAL_N,
                 sums=(SumRule("last", longer),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(0)}, {}, {"y": {F(1): F(1)}, "z": {F(1): F(-1)}}),
            "case z[1 + n] < 0")


def test_the_ring_memo_hands_out_no_generator_to_change_in_place() -> None:
    """FOUND (fixed): `algebra.polynomial_ring` handed out the cached ring's own generators
    and `algebra.expanded` the memo's own polynomials (PolyElement is a dict). A caller
    setting the generator `a` to the constant 1 in place made every later certificate check
    read a as 1, and `a - 1 >= 0` (false at a = 0) came out proved with an empty certificate.
    Every ring and polynomial handed out must be the caller's own."""
    claim = rel(a - 1, ">=", 0)
    seq = Sequent("poisoned", frozenset(), frozenset({"a"}), (), claim)
    (ob,) = kernel.obligations(seq)
    ring, gens = algebra.polynomial_ring((a,))
    handed = [gens[a], algebra.expanded((a,), a, "e"), algebra.expanded((a,), a - 1, "e"),
              *algebra.expanded((a,), a, "e").ring.gens, *ring.gens]
    for poly in handed:  # each changed in place to the constant 1
        dict.clear(poly)
        dict.__setitem__(poly, ring.zero_monom, QQ(1))
    for shared in (ring._one, algebra.expanded((a,), a, "e").ring._one):
        shared[:] = [(ring.zero_monom, QQ(0))]  # the ring's one changed in place to 0
    with pytest.raises(KernelError, match="identity fails"):
        kernel.conclude(seq, [(ob.judgement, Certificate(()))], ())
    refuted(seq, Counterexample({"a": F(0)}, {}))
