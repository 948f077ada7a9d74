"""Red team of finite sums (issue 31.1): false statements with sums, never proved.

Each attack is a false statement, or a rule application that would prove one. The attacker
proposes whatever sum rules it likes (`SumRule`s of its choosing, however wrong) and the
untrusted search looks for certificates; the step must never come out proved. Where the
statement is false, an exact counterexample (a concrete finite set, families and values) is
checked by the kernel itself, which evaluates the sums (`kernel.refute`). The rest are
refused as they are read: an index captured by a substituted term, a set depending on its own
summand, a per-update name inside a sum of an invariant, a term-wise premise that says more
than membership, a bound that is no integer. A third round, after the merge with issue 30's
kernel, attacks through instances, uses and inductions (ranges with hi < lo, re-indexing,
families read out of range, filters naming the wrong index).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sums import never_proved, proved, rel, total, y, z

from verify import kernel
from verify.kernel import Counterexample, Induction, KernelError, Rel, RuleError, Sequent, SumRule
from verify.kernel.atoms import finite_sum, gram, vector_name

j, k, n, m, a, s, t, xs = (sympy.Symbol(name) for name in ("j", "k", "n", "m", "a", "s", "t", "x"))
ZERO, ONE = sympy.Integer(0), sympy.Integer(1)
F = Fraction






def step(claim: Rel, hyps: tuple = (), rule: object = None, **kw: object) -> Sequent:
    return Sequent("attack", frozenset({"w", "v", "x"}),  # type: ignore[arg-type]
                   frozenset({"j", "k", "n", "m", "a", "s", "t", "y", "z"}), hyps, claim,
                   rule or kernel.Direct(), **kw)



def refuted(seq: Sequent, cex: Counterexample) -> None:
    refutation = kernel.refute(seq, "main" if not isinstance(seq.rule, Induction) else "base", cex)
    assert refutation.counterexample.families == cex.families



NATURAL_N = frozenset({"n"})


def test_a_term_naming_the_index_substituted_into_a_sum_is_not_captured() -> None:
    """Attack: `sum(j in 1..n, a*y[j]) == a*sum(j in 1..n, y[j])` with a := y[j]. Captured,
    it would read sum(j, y[j]**2) == y[j]*sum(j, y[j]), false; the j substituted is free."""
    linear = proved(step(rel(total(1, n, a * y(j)), "==", a * total(1, n, y(j))),
                         naturals=NATURAL_N))
    instance = kernel.instance(linear.statement, {"a": y(j)})
    assert instance.claim.lhs == y(j) * total(1, n, y(j))
    false = step(rel(total(1, n, y(j) ** 2), "==", y(j) * total(1, n, y(j))),
                 uses=(instance,), naturals=NATURAL_N)
    never_proved(false, (kernel.instantiate(linear, {"a": y(j)}),))
    refuted(false, Counterexample({"n": F(1), "j": F(2)}, {}, {"y": {F(1): F(1)}}))


def test_a_substituted_term_with_a_free_bound_index_is_refused() -> None:
    """Attack: name the canonical index itself (`#1`) in a substitution: it would be captured."""
    linear = proved(step(rel(total(1, n, a * y(j)), "==", a * total(1, n, y(j))),
                         naturals=NATURAL_N))
    with pytest.raises(KernelError, match="bound index"):
        kernel.instantiate(linear, {"a": sympy.Symbol("#1")})


def test_the_recursion_on_an_empty_range_is_refuted_not_proved() -> None:
    """sum(1..n) == sum(1..n-1) + y[n] for natural n: false at n = 0 (0 against y[0]); the
    attacker's `last` rule needs n - 1 >= 0, which nothing shows."""
    false = step(rel(total(1, n, y(j)), "==", total(1, n - 1, y(j)) + y(n)), naturals=NATURAL_N,
                 sums=(SumRule("last", total(1, n, y(j))),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(0)}, {}, {"y": {F(0): F(1)}}))


def test_an_empty_set_has_no_positive_count() -> None:
    false = step(rel(total(1, n, ONE), ">", 0), naturals=NATURAL_N,
                 sums=(SumRule("count", total(1, n, ONE)),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(0)}, {}))


def test_a_strict_term_wise_claim_sums_to_a_weak_one_only() -> None:
    """Each member gives 1 > 0; over a set that may be empty the sum is only >= 0."""
    one = proved(step(rel(ONE, ">", 0), (rel(j, ">=", 1), rel(j, "<=", n))))
    summed = kernel.summed(one.statement, "j", ONE, n)
    assert summed.claim.op == ">="
    false = step(rel(total(1, n, ONE), ">", 0), uses=(summed,), naturals=NATURAL_N)
    never_proved(false, (kernel.summed_theorem(one, "j", ONE, n),))
    refuted(false, Counterexample({"n": F(0)}, {}))


def test_a_set_that_depends_on_its_summand_is_refused() -> None:
    with pytest.raises(KernelError, match="its own index"):
        total(1, j, y(j))
    for forged in ("sum(#1 in 1..#1: 1)", "sum(#1 in 1..n: y[#2])"):
        with pytest.raises(KernelError):
            kernel.statement(step(rel(sympy.Symbol(forged), ">=", 0), naturals=NATURAL_N))


def test_a_per_update_name_inside_a_sum_of_an_invariant_is_refused() -> None:
    """x is per-update (read by the update, not constant). An index named x is bound and
    harmless; x inside the body of a sum is read by the invariant, which is refused (else
    `s <= sum(j in 1..t, x*z[j])` would be 'proved' with x changing at every update)."""
    update = Induction("t", {"s": ZERO}, {"s": s + xs * z(t + 1)}, (rel(xs, ">=", 0),),
                       frozenset({"z"}))
    with pytest.raises(RuleError, match=r"per-update|fresh"):
        kernel.statement(step(rel(s, "<=", total(1, t, xs * z(j))), rule=update,
                              naturals=frozenset({"t"})))
    bound = finite_sum(xs, ONE, t, [], z(xs))
    stated = kernel.statement(step(rel(s, "<=", bound + s), rule=update, naturals=frozenset({"t"})))
    assert kernel.algebra.names_of(stated.claim.rhs) == {"t", "z", "s"}


def test_a_term_wise_premise_that_mentions_the_index_is_refused() -> None:
    """From `y[j] >= 0 |- y[j] >= 0` nothing follows about sum(j, y[j]): the premise would be
    read at one j, used at all."""
    premise = proved(step(rel(y(j), ">=", 0), (rel(y(j), ">=", 0),)))
    with pytest.raises(RuleError, match="no membership fact"):
        kernel.summed(premise.statement, "j", ONE, n)
    false = step(rel(total(1, n, y(j)), ">=", 0), naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(-1)}}))


def test_a_natural_index_is_not_summed_over_negative_members() -> None:
    """`j in Nat |- j >= 0` summed over -3..n would give sum(j in -3..n, j) >= 0, false at
    n = 0 (-6): a natural index is refused."""
    natural = proved(step(rel(j, ">=", 0), naturals=frozenset({"j"})))
    with pytest.raises(RuleError, match="not natural"):
        kernel.summed(natural.statement, "j", sympy.Integer(-3), n)
    refuted(step(rel(total(-3, n, j), ">=", 0), naturals=NATURAL_N),
            Counterexample({"n": F(0)}, {}))


def test_the_appendix_norm_of_a_sum_is_refuted_as_written() -> None:
    """||sum(j in 1..n, x[j])||**2 == sum(j in 1..n, ||x[j]||**2): the cross terms are
    dropped; false at n = 2, x[1] = x[2] = (1): 4 against 2."""
    def x(i: sympy.Expr) -> str:
        return vector_name("x", i)
    norm = finite_sum(j, ONE, n, [], finite_sum(k, ONE, n, [], gram(x(j), x(k))))
    false = step(rel(norm, "==", total(1, n, gram(x(j), x(j)))), naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(2)}, {}, {"x": {F(1): (F(1),), F(2): (F(1),)}}))


def test_a_split_outside_the_range_is_refuted_not_proved() -> None:
    false = step(rel(total(1, n, y(j)), "==", total(1, m, y(j)) + total(m + 1, n, y(j))),
                 naturals=frozenset({"n", "m"}), sums=(SumRule("split", total(1, n, y(j)), m),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(0), "m": F(1)}, {}, {"y": {F(1): F(1)}}))


def test_a_shift_is_by_an_integer_and_a_wrong_one_is_refuted() -> None:
    with pytest.raises(KernelError, match="integer"):
        kernel.obligations(step(rel(total(1, n, y(j)), ">=", 0), naturals=NATURAL_N,
                                sums=(SumRule("shift", total(1, n, y(j)), ONE / 2),)))
    false = step(rel(total(1, n, y(j)), "==", total(2, n + 1, y(j))), naturals=NATURAL_N,
                 sums=(SumRule("shift", total(1, n, y(j)), ONE),))
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(1)}}))


def test_a_filter_is_not_forgotten() -> None:
    false = step(rel(total(1, n, y(j), ((y(j), ">"),)), "==", total(1, n, y(j))),
                 naturals=NATURAL_N, sums=(SumRule("skip", total(1, n, y(j), ((y(j), ">"),))),
                                           SumRule("last", total(1, n, y(j)))))
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(-1)}}))


def test_cauchy_schwarz_without_the_count_is_refuted() -> None:
    false = step(rel(total(1, n, y(j)) ** 2, "<=", total(1, n, y(j) ** 2)), naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(2)}, {}, {"y": {F(1): F(1), F(2): F(1)}}))


def test_a_bound_that_is_no_natural_is_refused() -> None:
    """sum(j in 1..a, 1) == a for a real a would be 'true' only at integers: refused."""
    with pytest.raises(RuleError, match="not natural"):
        kernel.statement(step(rel(total(1, a, ONE), "==", a)))


def test_sums_that_are_not_alpha_equivalent_are_not_equal() -> None:
    false = step(rel(total(1, n, y(j)), "==", total(1, n, y(j + 1))), naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(1)}}))


def test_a_forged_atom_name_is_refused_wherever_it_enters() -> None:
    """A name that is not what the constructors make (linearity not applied) cannot enter a
    statement, a certificate's polynomial or a sum rule."""
    forged = sympy.Symbol("sum(#1 in 1..n: y[#1] + 1)")
    with pytest.raises(KernelError, match="canonical"):
        kernel.statement(step(rel(forged, ">=", 0), naturals=NATURAL_N))
    with pytest.raises(KernelError, match="canonical"):
        kernel.obligations(step(rel(total(1, n, y(j)), ">=", 0), naturals=NATURAL_N,
                                sums=(SumRule("last", forged),)))


def test_a_sum_rule_inside_a_body_needs_conditions_free_of_the_index() -> None:
    """Inside sum(k in 1..m, sum(j in 1..n+1 where y[j] > z[k], y[j])), the last member's
    condition y[n+1] > z[k] depends on k: it cannot be shown once for all members."""
    outer = finite_sum(k, ONE, m, [], total(1, n + 1, y(j), ((y(j) - z(k), ">"),)))
    inner = next(iter(kernel.atoms.structure(outer).body.free_symbols))
    with pytest.raises(KernelError, match="bound index"):
        kernel.obligations(step(rel(outer, ">=", 0), naturals=frozenset({"n", "m"}),
                                sums=(SumRule("last", inner, ZERO, (outer,)),)))


def test_a_counterexample_cannot_assign_a_value_to_a_sum_or_a_member() -> None:
    """Attack: a point that values the empty sum sum(j in 1..0, y[j]) at 5, or y[1] and
    <x,x> directly. The kernel evaluates those (0 for the empty sum); a value given to one
    would be ignored and yet shown as if it held, so the point is refused outright."""
    empty = total(1, 0, y(j))
    claim = step(rel(empty, "<=", 1))
    for forged in ({empty.name: F(5)}, {y(1).name: F(5)}, {gram("x", "x").name: F(5)}):
        with pytest.raises(KernelError, match="only names are assigned"):
            kernel.refute(claim, "main", Counterexample(forged, {"x": (F(1),)}))
    with pytest.raises(KernelError, match="only names are assigned"):
        kernel.refute(claim, "main", Counterexample({}, {vector_name("x", ONE): (F(1),)}))
    with pytest.raises(KernelError, match="holds at the counterexample"):  # evaluated: 0 <= 1
        kernel.refute(claim, "main", Counterexample({}, {"x": (F(1),)}))


def test_the_sum_memos_hand_out_copies() -> None:
    """As the normal-form memo's (tests/kernel/test_kernel_handles.py): what the reader of a
    sum's name and the identities of the sum rules hand out, changed in place by a caller,
    changes nothing the kernel reads later. Poisoned, the empty-range identity's condition
    `-n >= 0` would read `1 >= 0` (sum(j in 1..n, y[j]) == 0 proved for every n), or the
    sum would read as another."""
    summed = total(1, n, y(j))
    read = kernel.atoms.structure(summed)
    object.__setattr__(read, "hi", ONE)
    assert kernel.atoms.structure(summed).hi == n
    rule = SumRule("empty", summed)
    fact, (condition,) = kernel.sums.identity(rule)
    object.__setattr__(condition, "expr", ONE)
    object.__setattr__(fact, "rhs", ONE)
    again, (kept,) = kernel.sums.identity(rule)
    assert (again.rhs, kept) == (ZERO, kernel.Fact(-n, ">="))
    false = step(rel(summed, "==", 0), naturals=NATURAL_N, sums=(rule,))
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(1)}}))


# -- a third round (after the merge with issue 30's kernel): through uses, instances and
# inductions ------------------------------------------------------------------------------


def test_an_instance_cannot_move_a_bound_below_its_range() -> None:
    """`sum(j in 1..n, a) == n*a` holds for natural n; read at n := m - 1 it would say
    sum(j in 1..m-1, a) == (m - 1)*a, false at m = 0 (0 against -a). A natural is replaced
    by a name only (which becomes natural), and the false claim is never proved from the true
    one."""
    count = proved(step(rel(total(1, n, a), "==", n * a), naturals=NATURAL_N,
                        sums=(SumRule("count", total(1, n, ONE)),)))
    for term in (m - 1, sympy.Integer(-1)):
        with pytest.raises(RuleError, match="by a name only"):
            kernel.instance(count.statement, {"n": term})
    assert kernel.instance(count.statement, {"n": a}).naturals == frozenset({"a"})  # natural
    false = step(rel(total(1, m - 1, a), "==", (m - 1) * a), naturals=frozenset({"m", "n"}),
                 uses=(count.statement,))
    never_proved(false, (count,))
    refuted(false, Counterexample({"m": F(0), "a": F(1), "n": F(0)}, {}))


def test_an_instance_renaming_the_bound_to_the_index_name_captures_nothing() -> None:
    """Instantiate the natural n of `sum(j in 1..n, y[j]) >= sum(j in 1..n, y[j])` by the
    name j itself: the bound becomes j, which is no index of the sum (the index is bound)."""
    same = proved(step(rel(total(1, n, y(j)), ">=", total(1, n, y(j))), naturals=NATURAL_N))
    renamed = kernel.instance(same.statement, {"n": j})
    ((_, bound),) = {(k, v) for k, v in atoms_named(renamed.claim.lhs) if k == "scalar"}
    assert bound == "j" and renamed.naturals == frozenset({"j"})
    # and a sum whose range would then name its own index is not what it reads as:
    false = step(rel(total(1, n, y(j)), "==", total(1, n, y(n))),
                 naturals=frozenset({"n", "j"}), uses=(renamed,))
    never_proved(false, (kernel.instantiate(same, {"n": j}),))
    refuted(false, Counterexample({"n": F(2), "j": F(0)}, {}, {"y": {F(1): F(1)}}))


def atoms_named(e: sympy.Expr) -> set[tuple[str, str]]:
    return kernel.atoms.named(e)


def test_a_term_wise_premise_with_a_shifted_filter_is_refused() -> None:
    """The set is {j in 1..n : y[j] > 0}; a step about j that assumes y[j+1] > 0 (the next
    member's condition) is no membership fact: summed it would give sum over the set of
    z[j] >= 0 from z[j] >= 0 wherever y[j+1] > 0, false at n = 1, y[1] = 1, z[1] = -1."""
    premise = proved(step(rel(z(j), ">=", 0), (rel(y(j + 1), ">", 0), rel(z(j), ">=", 0))))
    with pytest.raises(RuleError, match="no membership fact"):
        kernel.summed(premise.statement, "j", ONE, n, (rel(y(j), ">", 0),))
    false = step(rel(total(1, n, z(j), ((y(j), ">"),)), ">=", 0), naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(1)}, "z": {F(1): F(-1)}}))


def test_a_filter_on_another_index_is_a_hypothesis_not_a_membership_fact() -> None:
    """A filter that names the summand's index wrongly: the set {j in 1..n : y[k] > 0} (k
    free) is all of 1..n or empty. A step that assumes y[j] > 0 is not summed over it."""
    premise = proved(step(rel(y(j), ">", 0), (rel(y(j), ">", 0),)))
    with pytest.raises(RuleError, match="no membership fact"):
        kernel.summed(premise.statement, "j", ONE, n, (rel(y(k), ">", 0),))
    false = step(rel(total(1, n, y(j), ((y(k), ">"),)), ">=", 0), naturals=NATURAL_N)
    never_proved(false)
    refuted(false, Counterexample({"n": F(2), "k": F(2)}, {},
                                  {"y": {F(1): F(-2), F(2): F(1)}}))


def test_a_range_with_hi_below_lo_is_empty_not_reversed() -> None:
    """sum(j in 2..1, y[j]) is 0, not y[1] + y[2] nor -(y[1] + y[2]); the `last` rule on it
    needs 1 - 2 >= 0."""
    for wrong in (y(1) + y(2), -(y(1) + y(2)), y(1)):
        false = step(rel(total(2, 1, y(j)), "==", wrong),
                     sums=(SumRule("last", total(2, 1, y(j))),))
        never_proved(false)
        refuted(false, Counterexample({}, {}, {"y": {F(1): F(1), F(2): F(1)}}))
    assert proved(step(rel(total(2, 1, y(j)), "==", 0),
                       sums=(SumRule("empty", total(2, 1, y(j))),))).statement.claim.rhs == 0


def test_an_induction_whose_base_is_an_empty_sum_is_refuted_at_its_base() -> None:
    """`sum(j in 1..n, 1) >= 1`: its step holds (one more member keeps it >= 1), its base
    is the empty sum, 0 >= 1: the base is refuted, never proved by the `count` or `empty`
    rules, whatever the attacker proposes."""
    induction = Induction("n", {}, {})
    false = step(rel(total(1, n, ONE), ">=", 1), rule=induction, naturals=NATURAL_N,
                 sums=(SumRule("empty", total(1, 0, ONE)), SumRule("count", total(1, 0, ONE)),
                       SumRule("last", total(1, n + 1, ONE))))
    never_proved(false)
    refuted(false, Counterexample({"n": F(0)}, {}))


def test_an_induction_cannot_read_a_member_hypothesis_at_the_next_index() -> None:
    """`y[n] >= 0 |- sum(j in 1..n, y[j]) >= 0` by induction on n: the hypothesis speaks of
    one member, the step would read it at n + 1 (and need every earlier one). False at
    n = 2, y[1] = -1, y[2] = 0: a hypothesis naming the induction's variable is refused."""
    false = step(rel(total(1, n, y(j)), ">=", 0), (rel(y(n), ">=", 0),),
                 rule=Induction("n", {}, {}), naturals=NATURAL_N,
                 sums=(SumRule("last", total(1, n + 1, y(j)), label="step"),
                       SumRule("empty", total(1, 0, y(j)), label="base")))
    with pytest.raises(RuleError, match="may not mention the iteration"):
        kernel.obligations(false)
    direct = step(rel(total(1, n, y(j)), ">=", 0), (rel(y(n), ">=", 0),), naturals=NATURAL_N)
    never_proved(direct)
    refuted(direct, Counterexample({"n": F(2)}, {}, {"y": {F(1): F(-1)}}))


def test_a_re_indexing_that_forgets_to_shift_the_body_is_refuted() -> None:
    """sum(j in 1..n, y[j]) == sum(j in 0..n-1, y[j]) (the range shifted, the body not),
    and the reversal with weights j*y[j] against (n + 1 - j)*y[j]: each false, the `shift`
    rule's true identity notwithstanding."""
    shifted = step(rel(total(1, n, y(j)), "==", total(0, n - 1, y(j))), naturals=NATURAL_N,
                   sums=(SumRule("shift", total(1, n, y(j)), -ONE),))
    never_proved(shifted)
    refuted(shifted, Counterexample({"n": F(1)}, {}, {"y": {F(1): F(1)}}))
    reversed_ = step(rel(total(1, n, j * y(j)), "==", total(1, n, (n + 1 - j) * y(j))),
                     naturals=NATURAL_N)
    never_proved(reversed_)
    refuted(reversed_, Counterexample({"n": F(2)}, {}, {"y": {F(1): F(1)}}))


def test_a_family_read_out_of_its_range_is_any_value() -> None:
    """Term-wise over {j in 1..n : y[j]**2 <= 1}, a step about members says nothing of
    y[n+1]: it gives sum over the set of 1 - y[j]**2 >= 0, not y[n+1]**2 <= 1, nor the same
    over 1..n+1 with n for the count."""
    member = proved(step(rel(y(j) ** 2, "<=", 1), (rel(j, ">=", 1), rel(j, "<=", n),
                                                   rel(y(j) ** 2, "<=", 1))))
    inside = (rel(y(j) ** 2, "<=", 1),)
    summed = kernel.summed(member.statement, "j", ONE, n, inside)
    with pytest.raises(RuleError, match="no membership fact"):
        kernel.summed(member.statement, "j", ONE, n + 1, inside)
    square = ((1 - y(j) ** 2, ">="),)
    for claim in (rel(y(n + 1) ** 2, "<=", 1), rel(total(1, n + 1, y(j) ** 2, square), "<=", n)):
        false = step(claim, uses=(summed,), naturals=NATURAL_N,
                     sums=(SumRule("last", total(1, n + 1, y(j) ** 2, square)),))
        never_proved(false, (kernel.summed_theorem(member, "j", ONE, n, inside),))
        refuted(false, Counterexample({"n": F(0)}, {}, {"y": {F(1): F(1) if claim.rhs == n
                                                              else F(2)}}))
