"""A red team of the laws of finite sums (issue 31.1), through the proof-file language and
the checker's structural rules: every attack is a false statement about sums written next to
the true steps of `finite-sums` (Cauchy–Schwarz and the triangle inequality for sums, the
batch bound), derived through a term-wise use (`sum = "j in S"` or a pair summed over S x S),
an earlier step (`uses`) or an instance (`with`). None may come out proved: a false statement
is refuted on a concrete set the kernel evaluates, a use whose premises do not hold on the
whole set is refused with its reason, a claim the search cannot settle stays unknown.

One table, `ATTACKS`, drives the tests: the attack's id, its steps (after the true steps,
which must stay proved) and the verdict it must get, pinned so that a change that turns a
refutation into an `unknown` is seen too. The attacks the language admits are checked in one
file, once (about 10 s on one core, most of it two refutations' searches)."""

from __future__ import annotations

import functools

import pytest

from proofs.errors import ProofFileError
from proofs.library import load_builtin
from proofs.proof_file import parse_proof
from proofs.step import Proof
from verify import kernel
from verify.proof_checker import StepReport, check_proof
from verify.search.work import BUDGETS

HEAD = b'''
title = "finite sums, attacked"
vectors = ["v", "x", "theta", "xbar"]
scalars = ["r", "a", "b", "c", "y", "j", "l", "N", "mk", "R2"]
naturals = ["N"]
indexed = ["v", "r", "a", "b", "x", "y"]

[sets]
S = { index = "j", range = "1..N", where = [] }
T = { index = "j", range = "1..N", where = ["r[j] >= 0", "r[j]**2 == norm2(v[j])"] }
M = { index = "j", range = "1..N", where = ["y[j]**2 == 1", "norm2(x[j]) <= R2", \
"y[j]*dot(theta, x[j]) <= 0"] }
P = { index = "j", range = "1..N", where = ["b[j] >= b[l]"] }

[[step]]
id = "lagrange-term"
claim = "(a[j]*b[l] - a[l]*b[j])**2 >= 0"

[[step]]
id = "pair-cauchy-schwarz"
given = ["r[j] >= 0", "r[j]**2 == norm2(v[j])", "r[l] >= 0", "r[l]**2 == norm2(v[l])"]
claim = "dot(v[j], v[l]) <= r[j]*r[l]"

[[step]]
id = "member-pair-bound"
given = ["y[j]**2 == 1", "norm2(x[j]) <= R2", "y[l]**2 == 1", "norm2(x[l]) <= R2"]
claim = "y[j]*y[l]*dot(x[j], x[l]) <= R2"
hints = ["y[j]*x[j] - y[l]*x[l]"]

[[step]]
id = "xbar-sum-bound"
claim = "norm2(sum(j in M, y[j]*x[j])) <= sum(j in M, 1)**2*R2"
uses = [{ step = "member-pair-bound", sum = ["l in M", "j in M"] }]
'''

TRUE_STEPS = ("lagrange-term", "pair-cauchy-schwarz", "member-pair-bound", "xbar-sum-bound")

CS_PAIRS = b'uses = [{ step = "lagrange-term", sum = ["l in S", "j in S"] }]\n'
TRIANGLE_PAIRS = b'uses = [{ step = "pair-cauchy-schwarz", sum = ["l in T", "j in T"] }]\n'

#: (id, the attack's steps, the verdict of its last step: "refuted", "unknown", or the
#: refusal's message for a use the structural rules do not admit).
ATTACKS: list[tuple[str, bytes, str]] = [
    # the triangle inequality with its square on the wrong side: (sum ||v_j||)^2 is the
    # larger one (v_1 = 1, v_2 = -1: 0 against 4)
    ("triangle-reversed", b'''
[[step]]
id = "triangle-reversed"
claim = "sum(j in T, r[j])**2 <= norm2(sum(j in T, v[j]))"
''' + TRIANGLE_PAIRS, "refuted"),
    # ... or the square forgotten on the right: ||sum v_j||^2 <= sum ||v_j|| (v_1 = 2: 4 <= 2)
    ("triangle-unsquared", b'''
[[step]]
id = "triangle-unsquared"
claim = "norm2(sum(j in T, v[j])) <= sum(j in T, r[j])"
''' + TRIANGLE_PAIRS, "refuted"),
    # ... or the square inside the sum: ||sum v_j||^2 <= sum ||v_j||^2 drops the cross terms
    ("triangle-square-inside", b'''
[[step]]
id = "triangle-square-inside"
claim = "norm2(sum(j in T, v[j])) <= sum(j in T, r[j]**2)"
''' + TRIANGLE_PAIRS, "refuted"),
    # Cauchy–Schwarz with its sides swapped
    ("cauchy-schwarz-reversed", b'''
[[step]]
id = "cauchy-schwarz-reversed"
claim = "sum(j in S, a[j]**2)*sum(j in S, b[j]**2) <= sum(j in S, a[j]*b[j])**2"
''' + CS_PAIRS, "refuted"),
    # Cauchy–Schwarz with the product of the sums taken inside one sum (a = b = 1, N = 2)
    ("cauchy-schwarz-product-inside", b'''
[[step]]
id = "cauchy-schwarz-product-inside"
claim = "sum(j in S, a[j]*b[j])**2 <= sum(j in S, a[j]**2*b[j]**2)"
''' + CS_PAIRS, "refuted"),
    # strict Cauchy–Schwarz: equality on the empty set (N = 0) and for proportional families
    ("cauchy-schwarz-strict", b'''
[[step]]
id = "cauchy-schwarz-strict"
claim = "sum(j in S, a[j]*b[j])**2 < sum(j in S, a[j]**2)*sum(j in S, b[j]**2)"
''' + CS_PAIRS, "refuted"),
    # a strict term summed is only weakly positive: the set may be empty (N = 0)
    ("strict-term-on-an-empty-set", b'''
[[step]]
id = "strict-term-on-an-empty-set-positive-term"
claim = "a[j]**2 + 1 > 0"

[[step]]
id = "strict-term-on-an-empty-set"
claim = "sum(j in S, a[j]**2) + sum(j in S, 1) > 0"
uses = [{ step = "strict-term-on-an-empty-set-positive-term", sum = "j in S" }]
''', "refuted"),
    # the pair summed over a smaller set than the claim's: M may be empty while S is not
    ("cauchy-schwarz-over-a-subset", b'''
[[step]]
id = "cauchy-schwarz-over-a-subset"
claim = "sum(j in S, a[j]*b[j])**2 <= sum(j in M, a[j]**2)*sum(j in M, b[j]**2)"
uses = [{ step = "lagrange-term", sum = ["l in M", "j in M"] }]
''', "refuted"),
    # a pair that holds only for members of T (r_j the norm of v_j) summed over all of S x S
    ("pair-summed-off-its-set", b'''
[[step]]
id = "pair-summed-off-its-set"
claim = "norm2(sum(j in S, v[j])) <= sum(j in S, r[j])**2"
uses = [{ step = "pair-cauchy-schwarz", sum = ["l in S", "j in S"] }]
''', "no membership fact"),
    # the batch pair bound (members of M_k) summed over every example
    ("batch-pair-summed-off-its-set", b'''
[[step]]
id = "batch-pair-summed-off-its-set"
claim = "norm2(sum(j in S, y[j]*x[j])) <= sum(j in S, 1)**2*R2"
uses = [{ step = "member-pair-bound", sum = ["l in S", "j in S"] }]
''', "no membership fact"),
    # a pair step whose premise relates the two indices (j < l) is no fact about members
    ("pair-premise-relating-the-indices", b'''
[[step]]
id = "pair-premise-relating-the-indices-ordered"
given = ["l - j >= 1"]
claim = "l - j >= 1"

[[step]]
id = "pair-premise-relating-the-indices"
claim = "sum(j in S, sum(l in S, l - j)) >= sum(j in S, 1)**2"
uses = [{ step = "pair-premise-relating-the-indices-ordered", sum = ["l in S", "j in S"] }]
''', "no membership fact"),
    # Chan's appendix count: ||xbar||^2 <= |M_k| R2 (two equal members: 4 R2 against 2 R2)
    ("batch-bound-one-count", b'''
[[step]]
id = "batch-bound-one-count"
given = ["norm2(xbar) == norm2(sum(j in M, y[j]*x[j]))", "mk == sum(j in M, 1)"]
claim = "norm2(xbar) <= mk*R2"
uses = ["xbar-sum-bound"]
''', "refuted"),
    # the bound divided by the count, which is 0 on an empty M_k: its denominator's
    # positivity follows from nothing
    ("batch-bound-divided-by-an-empty-count", b'''
[[step]]
id = "batch-bound-divided-by-an-empty-count"
given = ["R2 >= 0"]
claim = "norm2(sum(j in M, y[j]*x[j]))/sum(j in M, 1) <= sum(j in M, 1)*R2"
uses = ["xbar-sum-bound"]
''', "unknown"),
    # an instance that would capture the index: with c := a[j], the factor pulled out of
    # sum(j in S, c*b[j]) is the file's a[j], not the summand's, so the capture's reading
    # sum(j in S, a[j]*b[j]) == a[j]*sum(j in S, b[j]) is not what the use gives
    ("instance-capturing-the-index", b'''
[[step]]
id = "instance-capturing-the-index-factor"
claim = "sum(j in S, c*b[j]) == c*sum(j in S, b[j])"

[[step]]
id = "instance-capturing-the-index"
claim = "sum(j in S, a[j]*b[j]) == a[j]*sum(j in S, b[j])"
uses = [{ step = "instance-capturing-the-index-factor", with = { c = "a[j]" } }]
''', "refuted"),
    # a set whose condition names the index of an enclosing term-wise sum: summed over
    # l in S, the pair's P is P(l) at each l (the summed fact binds it), while the claim's P
    # reads the file's l (a set means what it says where it is declared), so the claim is
    # not what the use gives, and false (N = 2, l = 2, a = (1, 0), b = (1, 0))
    ("set-naming-the-outer-index", b'''
[[step]]
id = "set-naming-the-outer-index-pair"
given = ["b[j] >= b[l]"]
claim = "(b[j] - b[l])*a[l]**2 >= 0"

[[step]]
id = "set-naming-the-outer-index"
claim = "sum(l in S, sum(j in P, (b[j] - b[l])*a[l]**2)) >= 0"
uses = [{ step = "set-naming-the-outer-index-pair", sum = ["j in P", "l in S"] }]
''', "refuted"),
    # the sum of a member's fact says nothing of one member: the file's j is not the index
    ("one-member-from-the-sum", b'''
[[step]]
id = "one-member-from-the-sum-member"
given = ["r[j] >= 0", "r[j]**2 == norm2(v[j])"]
claim = "r[j] >= 0"

[[step]]
id = "one-member-from-the-sum"
claim = "r[j] >= 0"
uses = [{ step = "one-member-from-the-sum-member", sum = "j in T" }]
''', "refuted"),
    # an index named like the natural its bound reads: once read as the file's N in the
    # bound and the index in the summand (and refuted at N = 1, a[2] = 1); refused now, as
    # a set's range naming its own index is (red team: the docs promise the refusal)
    ("index-named-like-its-bound", b'''
[[step]]
id = "index-named-like-its-bound"
claim = "sum(N in 1..2*N, a[N]) == sum(N in 1..N, a[N])"
''', "may not mention its own index N"),
    # a set whose range depends on the summand: an inner range up to the outer index, and a
    # range up to a family member at the index
    ("range-up-to-the-enclosing-index", b'''
[[step]]
id = "range-up-to-the-enclosing-index"
claim = "sum(j in 1..N, sum(l in 1..j, a[l])) == sum(j in 1..N, sum(l in 1..N, a[l]))"
''', "enclosing index"),
    ("range-up-to-a-member-at-the-index", b'''
[[step]]
id = "range-up-to-a-member-at-the-index"
claim = "sum(j in 1..a[j], 1) >= 0"
''', "may not mention its own index j"),
]


VERDICTS = [(name, expected) for name, _, expected in ATTACKS if expected in ("refuted", "unknown")]
REFUSALS = [(name, why) for name, _, why in ATTACKS if (name, why) not in VERDICTS]


@functools.cache
def verdicts() -> dict[str, StepReport]:
    """The checker's report of every step of the true steps followed by every attack that
    the language admits, in one file (its steps are independent: each attack's last step
    has the attack's id, its own lemmas are prefixed with it), checked once."""
    steps = b"".join(text for name, text, _ in ATTACKS if (name, _) in VERDICTS)
    report = check_proof(parse_proof(HEAD + steps, "attacks.toml"), store=None,
                         budget=BUDGETS["small"])
    return {s.step.id: s for s in report.steps}


def refused(attack_id: str) -> None:
    """Parse and check the true steps followed by one attack the rules should refuse."""
    steps = next(text for name, text, _ in ATTACKS if name == attack_id)
    check_proof(parse_proof(HEAD + steps, f"{attack_id}.toml"), store=None,
                budget=BUDGETS["small"])


def test_the_table_has_the_red_teams_ten_attacks_and_more() -> None:
    assert len(ATTACKS) >= 10 and len({name for name, _, _ in ATTACKS}) == len(ATTACKS)


def test_the_true_steps_are_proved_beside_the_attacks() -> None:
    found = verdicts()
    assert {s: found[s].status for s in TRUE_STEPS} == dict.fromkeys(TRUE_STEPS, "proved")
    assert not any(found[s].vacuous for s in TRUE_STEPS)


@pytest.mark.parametrize(("attack_id", "expected"), VERDICTS, ids=[a for a, _ in VERDICTS])
def test_a_false_statement_with_sums_is_never_proved(attack_id: str, expected: str) -> None:
    attack = verdicts()[attack_id]
    assert attack.status == expected, attack.message
    if expected == "refuted":  # the kernel's refutation of the statement as written
        assert isinstance(attack.refutation, kernel.Refutation)
        assert attack.refutation.statement == attack.statement
    else:  # the one unknown: a division by a count that may be 0
        assert "missing a positivity fact" in attack.message


@pytest.mark.parametrize(("attack_id", "why"), REFUSALS, ids=[a for a, _ in REFUSALS])
def test_a_use_or_a_sum_the_rules_do_not_admit_is_refused(attack_id: str, why: str) -> None:
    with pytest.raises(ProofFileError, match=why):
        refused(attack_id)


def test_the_library_proves_what_the_attacks_distort() -> None:
    """The true statements the attacks bend are the library's, proved: Cauchy–Schwarz, the
    triangle inequality squared, and the batch bound with the count squared."""
    claims = {s.id: s.claim.text for s in load_builtin("finite-sums").steps}
    assert claims["cauchy-schwarz"] == (
        "sum(j in S, a[j]*b[j])**2 <= sum(j in S, a[j]**2)*sum(j in S, b[j]**2)")
    assert claims["triangle"] == "norm2(sum(j in T, v[j])) <= sum(j in T, r[j])**2"
    assert claims["xbar-norm"] == "norm2(xbar) <= mk**2*R2"


def _product_of_sums(n: int) -> Proof:
    """`sum(k in 1..2, sum(l in 1..n, sum(m in 1..n, y[k]*y[l]*y[m]))) <= 10^12`: the kernel
    reads it as a product of three concrete sums (red team 18)."""
    return parse_proof(f'''
title = "a product of concrete sums"
scalars = ["y"]
indexed = ["y"]

[[step]]
id = "s1"
claim = "sum(k in 1..2, sum(l in 1..{n}, sum(m in 1..{n}, y[k]*y[l]*y[m]))) <= 1000000000000"
'''.encode(), f"product-{n}.toml")


def test_concrete_sums_past_the_expansion_bound_are_not_unfolded() -> None:
    """Red team 18 F1: `sum(k in 1..2, sum(l in 1..60, sum(m in 1..60, y[k]*y[l]*y[m])))`,
    which the kernel reads as a product of three sums, was unfolded on its concrete sets to
    3 660 terms in 60 names, whose normal form took 183 s past a 5 s `--time-limit` (3 x 400
    x 400: 1.4 GB). The unfolding predicts the terms before expanding and refuses past
    `MAX_EXPANDED`, the bound a proof file's own expressions have; the step is unknown, as
    it was, and a product within the bound is still unfolded."""
    import sympy

    from verify.search.sums import worlds

    y = sympy.symbols("y1:61")
    a, b, c = sympy.symbols("a b c")
    table = {a: y[0] + y[1], b: sum(y), c: sum(y[:10])}
    assert worlds._expansion(a * b**2, table) == 2 * 60 * 60 > worlds.MAX_EXPANDED
    assert worlds._expansion(a * c + b, table) == 2 * 10 + 60 <= worlds.MAX_EXPANDED
    (step,) = check_proof(_product_of_sums(60), store=None).steps
    assert step.status == "unknown"


def test_no_term_wise_fact_is_found_for_an_evidently_empty_sum() -> None:
    """Red team 18 F2: the same product over 1..2 x 1..30 x 1..30 came back `unknown` with
    `term-wise facts found and proved ...: y[j] >= 0 summed over j in 1..0`, a fact about a
    sum the kernel's reading made empty: true of no member, it says nothing, and it took a
    lemma's share of the budget. A sum whose concrete bounds are empty gets no lemma."""
    (step,) = check_proof(_product_of_sums(30), store=None).steps
    assert step.status == "unknown" and "in 1..0" not in step.message
