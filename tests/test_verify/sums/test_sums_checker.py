"""Steps with finite sums through the checker (issue 31.1): the sum rules the untrusted
search proposes (`verify.search.sums.rules`), the term-wise use, refutations on concrete sets
(`verify.search.sums.worlds`), the relevance filter reading inside sums, and what each
output prints. Every verdict is the kernel's."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from cases.sums import never_proved

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify import kernel
from verify.kernel import Counterexample, Fact, Judgement, atoms
from verify.kernel.atoms import family, finite_sum
from verify.proof_checker import check_proof, sequent
from verify.relevance import parts
from verify.render.json import counterexample
from verify.search.sums import rules
from verify.search.work import BUDGETS

HEAD = b'''
title = "sums"
vectors = ["w", "x", "th"]
scalars = ["n", "N", "t", "s", "y", "z", "j", "l", "a"]
naturals = ["n", "N", "t"]
indexed = ["x", "y", "z"]

[sets]
M = { index = "j", range = "1..N", where = ["y[j]**2 == 1", "y[j]*dot(th, x[j]) <= 0"] }
'''


def check(steps: bytes) -> dict[str, object]:
    proof = parse_proof(HEAD + steps, "sums.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    return {s.step.id: s for s in report.steps}


def status(steps: bytes) -> dict[str, str]:
    return {k: v.status for k, v in check(steps).items()}  # type: ignore[attr-defined]


def test_the_recursion_and_an_induction_over_a_partial_sum_are_proved() -> None:
    found = check(b'''
[[step]]
id = "recursion"
claim = "sum(j in 1..n+1, y[j]) == sum(j in 1..n, y[j]) + y[n+1]"

[[step]]
id = "partial-sum"
claim = "s == sum(i in 1..t, y[i])"
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + y[t+1]" }
constants = ["y"]
''')
    assert {k: v.status for k, v in found.items()} == {"recursion": "proved",  # type: ignore[attr-defined]
                                                       "partial-sum": "proved"}
    labels = [g.goal.label for g in found["partial-sum"].goals]  # type: ignore[attr-defined]
    assert labels == ["base", "base: sum rule empty: 0 >= 0", "step",
                      "step: sum rule last: t >= 0"]


ITERATE = b'''
[[step]]
id = "iterate-is-sum"
claim = "norm2(w - sum(i in 1..t, y[i]*x[i])) == 0"
[step.induction]
variable = "t"
base = { w = "0*th" }
step = { w = "w + y[t+1]*x[t+1]" }
constants = ["x", "y"]
'''


def test_the_iterate_is_the_sum_of_its_updates_a_double_sum_by_induction() -> None:
    """||w_t - sum_i y_i x_i||^2 == 0: the square of a sum is a double sum, whose last row
    and column are peeled inside its body (`last` within the outer sum)."""
    assert check(ITERATE)["iterate-is-sum"].status == "proved"  # type: ignore[attr-defined]
    proof = parse_proof(HEAD + ITERATE, "s.toml")
    seq = sequent(proof, proof.steps[0], [])
    assert any(r.within for r in seq.sums)
    assert rules.propose(replace(seq, sums=())) == seq.sums  # deterministic


def test_a_filtered_recursion_is_proved_case_by_case() -> None:
    """Over {j : z[j] > 0}: in the case z[n+1] > 0 the last member counts (`last`), in the
    cases z[n+1] == 0 and < 0 it does not (`skip`); each condition proved under its case."""
    found = check(b'''
[sets.P1]
index = "j"
range = "1..n+1"
where = ["z[j] > 0"]

[sets.P0]
index = "j"
range = "1..n"
where = ["z[j] > 0"]

[[step]]
id = "grows"
claim = "sum(j in P1, y[j]**2) >= sum(j in P0, y[j]**2)"
split = { on = "z[n+1]" }
''')["grows"]
    assert found.status == "proved"  # type: ignore[attr-defined]
    rules_used = {g.goal.label.split(": ")[1] for g in found.goals  # type: ignore[attr-defined]
                  if "sum rule" in g.goal.label}
    assert rules_used == {"sum rule last", "sum rule skip"}


def test_term_wise_a_theorem_about_one_member_summed_over_a_set() -> None:
    found = status(b'''
[[step]]
id = "member"
given = ["j >= 1", "j <= N", "y[j]**2 == 1", "y[j]*dot(th, x[j]) <= 0"]
claim = "y[j]*dot(th, x[j]) <= 0"

[[step]]
id = "mistake-sum"
claim = "dot(th, sum(j in M, y[j]*x[j])) <= 0"
uses = [{ step = "member", sum = "j in M" }]
''')
    assert found == {"member": "proved", "mistake-sum": "proved"}


def test_a_term_wise_premise_that_says_more_than_membership_is_refused() -> None:
    with pytest.raises(ProofFileError, match="no membership fact"):
        check(b'''
[[step]]
id = "member"
given = ["j >= 1", "j <= N", "y[j] >= 0"]
claim = "y[j] >= 0"

[[step]]
id = "all-nonnegative"
claim = "sum(j in 1..N, y[j]) >= 0"
uses = [{ step = "member", sum = "j in 1..N" }]
''')


def test_a_use_summed_over_two_sets_derives_cauchy_schwarz_and_not_more() -> None:
    """`sum = ["l in M", "j in M"]` (the first innermost): ||y_j x_j - y_l x_l||^2 >= 0
    summed over M x M, with y_j^2 = 1 on M, gives ||sum y_j x_j||^2 <= |M| sum ||x_j||^2
    (chan-batch's correction); the same uses never give the appendix's bound without the
    count |M|, which is refuted on a concrete set."""
    uses = (b'uses = [{ step = "pair", sum = ["l in M", "j in M"] }, '
            b'{ step = "label", sum = "j in M" }]\n')
    found = status(b'''
[[step]]
id = "pair"
claim = "norm2(y[j]*x[j] - y[l]*x[l]) >= 0"
hints = ["y[j]*x[j] - y[l]*x[l]"]

[[step]]
id = "label"
given = ["j >= 1", "j <= N", "y[j]**2 == 1", "y[j]*dot(th, x[j]) <= 0"]
claim = "y[j]**2*norm2(x[j]) == norm2(x[j])"

[[step]]
id = "cauchy-schwarz"
claim = "norm2(sum(j in M, y[j]*x[j])) <= sum(j in M, 1)*sum(j in M, norm2(x[j]))"
''' + uses + b'''
[[step]]
id = "without-the-count"
claim = "norm2(sum(j in M, y[j]*x[j])) <= sum(j in M, norm2(x[j]))"
''' + uses)
    assert found == {"pair": "proved", "label": "proved", "cauchy-schwarz": "proved",
                     "without-the-count": "refuted"}


def test_false_statements_are_refuted_on_concrete_sets_the_kernel_evaluates() -> None:
    """The appendix's ||sum y_j x_j||^2 == sum ||x_j||^2 over M (labels +-1), and the
    recursion from 1 without its condition."""
    found = check(b'''
[[step]]
id = "appendix"
claim = "norm2(sum(j in M, y[j]*x[j])) == sum(j in M, norm2(x[j]))"

[[step]]
id = "recursion-from-one"
claim = "sum(j in 1..n, y[j]) == sum(j in 1..n-1, y[j]) + y[n]"
''')
    appendix, recursion = found["appendix"], found["recursion-from-one"]
    assert appendix.status == recursion.status == "refuted"  # type: ignore[attr-defined]
    cex = appendix.counterexample  # type: ignore[attr-defined]
    assert cex.scalars["N"] == 2 and {abs(v) for v in cex.families["y"].values()} == {1}
    assert counterexample(recursion.counterexample)["families"] == {  # type: ignore[attr-defined]
        "y": {"0": "1"}}


def test_the_search_on_concrete_sets_unfolds_each_membership_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search on concrete sets makes each substitution once (`worlds._substituted`) and
    skips a pattern whose memberships an earlier attempt already decided alike
    (`worlds._repeats`): the appendix's false step is refuted at the same point as when
    every pattern is unfolded and every substitution made again, in fewer unfoldings."""
    from verify.search.sums import worlds

    step = b'''
[[step]]
id = "appendix"
claim = "norm2(sum(j in M, y[j]*x[j])) == sum(j in M, norm2(x[j]))"
'''
    unfoldings: list[int] = []
    search = worlds._search

    def counted(*args: object) -> object:
        unfoldings.append(args[3])  # type: ignore[arg-type]
        return search(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(worlds, "_search", counted)
    once = check(step)["appendix"]
    skipping = len(unfoldings)
    unfoldings.clear()
    monkeypatch.setattr(worlds, "_repeats", lambda pattern, decided: False)
    monkeypatch.setattr(worlds, "_substituted",
                        lambda e, values, memo: atoms.substitute(e, values, {}))
    every = check(step)["appendix"]
    assert once.status == every.status == "refuted"  # type: ignore[attr-defined]
    assert counterexample(once.counterexample) == counterexample(  # type: ignore[attr-defined]
        every.counterexample)  # type: ignore[attr-defined]
    assert 0 < skipping < len(unfoldings), (skipping, len(unfoldings))


def test_the_relevance_filter_reads_the_names_inside_a_sum() -> None:
    """`n >= 1` is linked to a claim about sum(j in 1..n, y[j]) through n, inside the sum."""
    n = sympy.Symbol("n")
    inside = finite_sum(sympy.Symbol("j"), sympy.Integer(1), n, [],
                        family("y", sympy.Symbol("j")))
    judgement = Judgement((Fact(n - 1, ">="), Fact(sympy.Symbol("q"), ">=")),
                          Fact(inside, ">="), (), ("n", "q", "y"))
    assert [p.kept for p in parts(judgement)] == [(0,)]
    assert atoms.named(inside) == {("scalar", "n"), ("family", "y")}


def test_the_proposals_only_offer_rules_whose_conditions_are_evident() -> None:
    """The recursion from 1 at n (condition n - 1 >= 0, not evident for natural n) gets no
    `last`; from 0 (condition n >= 0) it does."""
    proof = parse_proof(HEAD + b'''
[[step]]
id = "from-one"
claim = "sum(j in 1..n, y[j]) == sum(j in 1..n-1, y[j]) + y[n]"

[[step]]
id = "from-zero"
claim = "sum(j in 0..n, y[j]) == sum(j in 0..n-1, y[j]) + y[n]"
''', "s.toml")
    assert sequent(proof, proof.steps[0], []).sums == ()
    assert [r.rule for r in sequent(proof, proof.steps[1], []).sums] == ["last"]
    cex = Counterexample({"n": Fraction(0)}, {}, {"y": {Fraction(0): Fraction(1)}})
    kernel.refute(sequent(proof, proof.steps[0], []), "main", cex)



@pytest.mark.parametrize("proof_id", ["chan-batch", "telgarsky-online"])
def test_statements_read_through_the_canonical_memo_are_the_plain_reading(
        proof_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`proof_checker._canonical` memoises `atoms.canonical` per process: a proof's
    statements read through it, cold and then warm (as the audit reads them when planning,
    checking and replaying), are the statements read with `atoms.canonical` itself."""
    from proofs.library import load_builtin
    from verify import proof_checker

    proof = load_builtin(proof_id)
    proof_checker._canonical.cache_clear()
    cold = proof_checker.statements(proof)
    assert proof_checker._canonical.cache_info().hits > 0  # the steps share their atoms
    warm = proof_checker.statements(load_builtin(proof_id))
    monkeypatch.setattr(proof_checker, "_canonical", atoms.canonical)
    plain = proof_checker.statements(proof)
    assert cold == warm == plain
    assert any(not atoms._plain(a.name) for s in plain.values() if s is not None
               for h in s.hypotheses for a in h.lhs.free_symbols | h.rhs.free_symbols)



def test_a_counterexample_on_concrete_sets_is_printed_the_same_whatever_the_hash_seed() -> None:
    """Regression: the names a concrete-set counterexample pads with 0 came from a set, so
    its scalars were printed in an order that changed with PYTHONHASHSEED (the audit's JSON
    differed run to run in chan-batch's counterexamples). Two seeds, one text, in name order."""
    import json
    import os
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from proofs.proof_file import parse_proof\n"
        "from verify.proof_checker import check_proof\n"
        "from verify.render.json import counterexample\n"
        "from verify.search.work import BUDGETS\n"
        "proof = parse_proof(sys.stdin.buffer.read(), 'sums.toml')\n"
        "step = check_proof(proof, store=None, budget=BUDGETS['small']).steps[0]\n"
        "print(step.status, json.dumps(counterexample(step.counterexample)))\n")
    step = HEAD + b'''
[[step]]
id = "appendix"
given = ["a*a + s*s + l*l + t*t >= 0"]
claim = "norm2(sum(j in M, y[j]*x[j])) == sum(j in M, norm2(x[j]))"
'''
    root = Path(__file__).resolve().parents[3]  # the project: tests/test_verify/sums/here
    texts = {subprocess.run([sys.executable, "-c", script], input=step, capture_output=True,
                            check=True, cwd=root, timeout=120,
                            env={**os.environ, "PYTHONHASHSEED": seed}
                            ).stdout for seed in ("1", "2")}
    assert len(texts) == 1, texts
    status, printed = texts.pop().decode().split(" ", 1)
    assert status == "refuted"
    point = json.loads(printed)
    assert list(point["scalars"]) == ["N", "a", "l", "s", "t"]  # every name, in name order
    assert list(point["families"]) == ["x", "y"]


REGROUPED = b'''
[[step]]
id = "peel-first"
given = ["N >= 1"]
claim = "sum(j in 1..N, y[j]) == y[1] + sum(j in 2..N, y[j])"

[[step]]
id = "shift"
claim = "sum(j in 0..N-1, y[j+1]) == sum(j in 1..N, y[j])"

[[step]]
id = "fixed-bound"
given = ["N == 2"]
claim = "sum(j in 1..N, y[j]) == y[1] + y[2]"

[[step]]
id = "peel-first-plain"
given = ["N >= 2"]
claim = "sum(j in 1..N, j) == 1 + sum(j in 2..N, j)"
'''


def test_split_and_shift_are_proposed_where_the_ranges_differ() -> None:
    """Regression (review F8): a first member peeled (split at 1), a range re-indexed by 1
    (shift) and a bound fixed by a hypothesis (split at 2, the rest empty) came back unknown:
    the search proposed only empty/last/skip/count. Each is now the kernel's, by the rules
    the search proposes (in a fixed order)."""
    found = check(REGROUPED)
    assert {k: v.status for k, v in found.items()} == dict.fromkeys(  # type: ignore[attr-defined]
        ("peel-first", "shift", "fixed-bound", "peel-first-plain"), "proved")
    proof = parse_proof(HEAD + REGROUPED, "s.toml")
    assert [(r.rule, r.at) for r in sequent(proof, proof.steps[0], []).sums] == [
        ("split", 1), ("last", 0), ("empty", 0)]
    assert [(r.rule, r.at) for r in sequent(proof, proof.steps[1], []).sums] == [
        ("shift", 1)]
    assert [r.rule for r in sequent(proof, proof.steps[2], []).sums] == [
        "split", "last", "empty", "last", "empty", "congruence"]  # and N := 2 in the sum
    # a sum over no family, peeled where a hypothesis only implies the split's condition
    # (N >= 2 gives N - 1 >= 0): regression, unknown before (the condition was not evident)
    assert [(r.rule, r.at) for r in sequent(proof, proof.steps[3], []).sums] == [
        ("split", 1), ("last", 0), ("empty", 0)]


def test_false_regroupings_are_never_proved() -> None:
    """The same shapes made false (a member dropped, a range moved without its body, the
    bound fixed elsewhere): split and shift never prove them."""
    found = status(b'''
[[step]]
id = "drops-a-member"
given = ["N >= 2"]
claim = "sum(j in 1..N, y[j]) == y[1] + sum(j in 3..N, y[j])"

[[step]]
id = "moved-range-only"
claim = "sum(j in 0..N-1, y[j]) == sum(j in 1..N, y[j])"

[[step]]
id = "fixed-elsewhere"
given = ["N == 3"]
claim = "sum(j in 1..N, y[j]) == y[1] + y[2]"

[[step]]
id = "peel-plain-empty-range"
claim = "sum(j in 1..N, j) == 1 + sum(j in 2..N, j)"

[[step]]
id = "peel-plain-wrong-member"
given = ["N >= 2"]
claim = "sum(j in 1..N, j) == 2 + sum(j in 2..N, j)"
''')
    # peel-plain-empty-range: at N = 0 the left sum is 0, the right side 1 + 0;
    # peel-plain-wrong-member: the first member is 1, not 2, at every N >= 2
    assert found == dict.fromkeys(("drops-a-member", "moved-range-only", "fixed-elsewhere",
                                   "peel-plain-empty-range", "peel-plain-wrong-member"),
                                  "refuted")


EQUATED = b'''
[[step]]
id = "empty"
given = ["n == t"]
claim = "sum(j in t..n-1, y[j]) == 0"

[[step]]
id = "one-member"
given = ["n == t"]
claim = "sum(j in t..n, y[j]) == y[t]"

[[step]]
id = "one-member-moved"
given = ["n == t + 1"]
claim = "sum(j in t..n-1, y[j]) == y[t]"
'''


def test_a_range_an_equality_empties_or_makes_one_member_is_proved() -> None:
    """Regression (issue 31): `n == t |- sum(j in t..n-1, y[j]) == 0` and its one-member
    analogue came back unknown: the search read a range's length only under a hypothesis
    fixing a bound to a number. Now an equality of names reads it (n - t is 0 there): `empty`,
    or `last` and `empty` of what is left, the member's index met by a congruence; each rule's
    condition (`t - n >= 0`, `n - t >= 0`) the kernel's, from the equality."""
    found = check(EQUATED)
    assert {k: v.status for k, v in found.items()} == dict.fromkeys(  # type: ignore[attr-defined]
        ("empty", "one-member", "one-member-moved"), "proved")
    proof = parse_proof(HEAD + EQUATED, "s.toml")
    assert [r.rule for r in sequent(proof, proof.steps[0], []).sums] == ["empty", "congruence"]
    one = sequent(proof, proof.steps[1], []).sums
    assert [r.rule for r in one] == ["last", "empty", "congruence", "congruence"]
    assert (one[-1].target, one[-1].var, one[-1].at) == (  # the member `last` made
        family("y", sympy.Symbol("n")), "n", sympy.Symbol("t"))
    assert [r.rule for r in sequent(proof, proof.steps[2], []).sums] == [
        "last", "empty", "congruence", "congruence"]


def test_false_ranges_under_an_equality_are_never_proved() -> None:
    """The same shapes made false: one member taken for none, a range one too long, the
    wrong member, an inequality where the rule needs the equality, two members taken for
    one, and an equality of another bound. Each is refuted on a concrete set."""
    found = status(b'''
[[step]]
id = "one-taken-for-none"
given = ["n == t + 1"]
claim = "sum(j in t..n-1, y[j]) == 0"

[[step]]
id = "one-too-long"
given = ["n == t"]
claim = "sum(j in t..n, y[j]) == 0"

[[step]]
id = "wrong-member"
given = ["n == t"]
claim = "sum(j in t..n, y[j]) == y[t+1]"

[[step]]
id = "inequality-only"
given = ["n >= t"]
claim = "sum(j in t..n-1, y[j]) == 0"

[[step]]
id = "two-taken-for-one"
given = ["n == t + 1"]
claim = "sum(j in t..n, y[j]) == y[t]"

[[step]]
id = "another-bound"
given = ["N == t"]
claim = "sum(j in t..n-1, y[j]) == 0"
''')
    assert found == dict.fromkeys(("one-taken-for-none", "one-too-long", "wrong-member",
                                   "inequality-only", "two-taken-for-one", "another-bound"),
                                  "refuted")


INSIDE = b'''
[[step]]
id = "swap-inside"
claim = "sum(k in 1..N, y[k]*sum(j in 1..N, sum(l in 1..t, z[j+l+k]))) == \
sum(k in 1..N, y[k]*sum(l in 1..t, sum(j in 1..N, z[j+l+k])))"

[[step]]
id = "congruence-inside"
given = ["n == s"]
claim = "sum(j in 1..n, y[j+n]) == sum(j in 1..n, y[j+s])"
'''


def test_swap_and_congruence_are_proposed_inside_another_sums_body() -> None:
    """Regression (issue 31): a double sum swapped inside another sum's body, and a member
    whose index an equality rewrites inside a sum that cannot be rewritten whole (n := s would
    make its bound the scalar s, no natural), came back unknown: the search proposed swap and
    congruence at the top only, though the kernel rewrites inside a body (`within`)."""
    found = check(INSIDE)
    assert {k: v.status for k, v in found.items()} == dict.fromkeys(  # type: ignore[attr-defined]
        ("swap-inside", "congruence-inside"), "proved")
    proof = parse_proof(HEAD + INSIDE, "s.toml")
    swaps = sequent(proof, proof.steps[0], []).sums
    assert [(r.rule, len(r.within)) for r in swaps] == [("swap", 1), ("swap", 1)]
    (congruence,) = sequent(proof, proof.steps[1], []).sums
    assert (congruence.rule, congruence.var, congruence.at, len(congruence.within)) == (
        "congruence", "n", sympy.Symbol("s"), 1)
    target = atoms.structure(congruence.target)  # the member inside the sum's body
    assert target == atoms.Family("y", sympy.Symbol("#1") + sympy.Symbol("n"))


def test_false_swaps_and_congruences_inside_a_body_are_never_proved() -> None:
    """The same shapes made false: the swapped side's range changed, its summand's indices
    exchanged, the equality off by one, an inequality where the congruence needs the
    equality. Each is refuted on a concrete set."""
    found = status(b'''
[[step]]
id = "swap-other-range"
claim = "sum(k in 1..N, y[k]*sum(j in 1..N, sum(l in 1..t, z[j+l+k]))) == \
sum(k in 1..N, y[k]*sum(l in 1..t, sum(j in 1..t, z[j+l+k])))"

[[step]]
id = "swap-other-summand"
claim = "sum(k in 1..N, y[k]*sum(j in 1..N, sum(l in 1..t, z[j+2*l+k]))) == \
sum(k in 1..N, y[k]*sum(l in 1..t, sum(j in 1..N, z[2*j+l+k])))"

[[step]]
id = "congruence-off-by-one"
given = ["n == s + 1"]
claim = "sum(j in 1..n, y[j+n]) == sum(j in 1..n, y[j+s])"

[[step]]
id = "congruence-inequality"
given = ["n >= s"]
claim = "sum(j in 1..n, y[j+n]) == sum(j in 1..n, y[j+s])"
''')
    assert found == dict.fromkeys(("swap-other-range", "swap-other-summand",
                                   "congruence-off-by-one", "congruence-inequality"), "refuted")


def test_a_triangle_inside_a_body_is_not_swapped_naively() -> None:
    """Inside a sum over i (its body reading i, so no linearity takes the triangle out), the
    triangle sum(j <= n, sum(k <= n, k <= j, z[k+i])) against the naive swap that moves the
    filter with its sum, sum(k <= n, sum(j <= n, j <= k, z[k+i])) (false: at n = 2 the first
    counts z[1+i] twice, the second once). The kernel refuses the swap of a set that reads the
    outer index, so the search proposes none, and the step is never proved."""
    i, j, k, n = (sympy.Symbol(v) for v in "ijkn")
    one, two = sympy.Integer(1), n

    def y(e: sympy.Expr) -> sympy.Expr:
        return family("y", e)

    def z(e: sympy.Expr) -> sympy.Expr:
        return family("z", e)

    left = finite_sum(i, one, two, [], y(i) * finite_sum(j, one, two, [], finite_sum(
        k, one, two, [(j - k, ">=")], z(k + i))))
    right = finite_sum(i, one, two, [], y(i) * finite_sum(k, one, two, [], finite_sum(
        j, one, two, [(k - j, ">=")], z(k + i))))
    seq = kernel.Sequent("s", frozenset(), frozenset({"n", "y", "z"}), (), kernel.Rel(
        left, "==", right, "triangle"), kernel.Direct(), naturals=frozenset({"n"}))
    proposed = rules.propose(seq)
    assert not any(r.rule == "swap" for r in proposed)
    never_proved(replace(seq, sums=proposed))
    cex = Counterexample({"n": Fraction(2)}, {}, {"y": {Fraction(1): Fraction(1)},
                                                 "z": {Fraction(2): Fraction(1)}})
    kernel.refute(replace(seq, sums=proposed), "main", cex)


def test_an_unknown_equality_of_members_says_what_can_help_and_nothing_internal() -> None:
    """Regression (review F8): `j == l |- y[j] == y[l]` said "a hint or a case split may
    help" (neither relates two members) and leaked "kernel rejected a counterexample ...:
    scalar 'y[j]' is not a name" (the search valued a member as a name). Now the message
    names the sum rules and how members are compared, and no internal rejection. Since the
    congruence rule `j == l` proves it (below); `j*l == l**2, l > 0` (j == l too, but no
    hypothesis gives j as a term) still does not."""
    found = check(b'''
[[step]]
id = "equal-indices"
given = ["j*l == l**2", "l > 0"]
claim = "y[j] == y[l]"
''')["equal-indices"]
    assert found.status == "unknown"  # type: ignore[attr-defined]
    message = found.message  # type: ignore[attr-defined]
    assert "shift, count and swap" in message and "by their index as written" in message
    assert "by congruence" in message
    assert "kernel rejected" not in message and "is not a name" not in message
    assert "a hint or a case split may help" not in message


def test_a_term_wise_lemma_of_an_induction_is_typeset_as_the_kernel_read_it(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """Red-team finding: `explain` (and every report) read a term-wise use unsummed, saw a
    plain lemma the kernel had not read, and raised "the uses read here are not the
    kernel's" (a traceback, exit 1) on a proved step; `--coq` named that use a carried
    invariant. The use is read summed, as the checker reads it."""

    from verify.cli import main

    path = Path(str(tmp_path)) / "lemma.toml"
    path.write_bytes(HEAD + b'''
[[step]]
id = "member"
claim = "y[j]**2 >= 0"

[[step]]
id = "ind"
claim = "s >= 0"
uses = [{ step = "member", sum = "j in 1..N" }]
[step.induction]
variable = "t"
base = { s = "0" }
step = { s = "s + sum(j in 1..N, y[j]**2)" }
constants = ["y"]
''')
    assert main(["explain", str(path), "ind"]) == 0
    out = capsys.readouterr().out
    assert "sum(k in 1..N, y[k]^2) >= 0    [lemma]" in out  # j is a name of the text
    markdown = Path(str(tmp_path)) / "lemma.md"
    assert main(["audit", str(path), "--markdown", str(markdown)]) == 0
    # the lemma at each update is the sum, not `y_j^2 >= 0` with j free (newcomer 21 H2)
    assert (r"at each update, by the lemma member, summed, $\sum_{j=1}^{N} {y}_{j}^{2} \ge 0$"
            in markdown.read_text())


def test_the_search_on_concrete_sets_stops_at_the_users_time_cap() -> None:
    """Red-team finding: `--time-limit` did not reach the search on concrete sets (a chain
    of sets ran 142 s under a 20 s cap). Its deadline passed, the search stops (`TimeCap`)
    and leaves the step unknown; without a cap it refutes the same step."""
    from time import perf_counter

    from verify.search.sums.worlds import counterexample as on_sets
    from verify.search.work import TimeCap

    proof = parse_proof(HEAD + b'''
[[step]]
id = "recursion-from-one"
claim = "sum(j in 1..n, y[j]) == sum(j in 1..n-1, y[j]) + y[n]"
''', "sums.toml")
    seq = sequent(proof, proof.steps[0], [])
    label = next(o.label for o in kernel.obligations(seq) if o.decisive)
    assert on_sets(seq, label, BUDGETS["small"]) is not None
    with pytest.raises(TimeCap):
        on_sets(seq, label, BUDGETS["small"], deadline=perf_counter() - 1)
    report = check_proof(proof, store=None, budget=BUDGETS["small"], guard=0.0).steps[0]
    assert report.status == "unknown", report.message


def test_a_natural_bounding_a_sum_in_an_update_fact_only_is_natural() -> None:
    """Red team 10: `n` declared natural but read only by an update fact bounding a sum was
    refused 'a bound of a sum mentions n, which is not natural ... declare it in naturals',
    though declared; the statement now says `n in Nat` (the kernel reads update facts too)."""
    from verify.proof_checker import statements

    proof = parse_proof(b"""title = "T"
scalars = ["s", "d", "n", "t", "j", "y"]
naturals = ["t", "n"]
indexed = ["y"]
[[step]]
id = "nonneg"
claim = "s >= 0"
[step.induction]
variable = "t"
constants = ["y"]
base = { s = "0" }
step = { s = "s + d" }
given = ["d == sum(j in 1..n, y[j]**2)"]
""", "pn3.toml")
    stated = statements(proof)["nonneg"]
    assert stated is not None and stated.naturals == {"n", "t"}
    assert "(d, n fresh at each update; y constant), counted by t: n in Nat, t in Nat |-" in str(
        stated)


@pytest.mark.parametrize(("given", "claim", "point"), [
    # red team 12 c1: fails first at n = 1, N = 4 (sum 0 <= -1), a value beyond 0..3
    ("n >= 1", "sum(j in N..n+1, 1) <= n+1 - N + 1", {"N": 4, "n": 1}),
    ("n >= 4", "sum(j in 1..n, 1) <= 3", {"n": 4}),  # no value in 0..3 meets n >= 4
    ("n >= 0", "sum(j in 1..n, 1) <= 1", {"n": 2}),  # within 0..3: found there, first
    ("y[1] >= 0", "sum(j in 1..2, y[j]) <= y[1]", {}),  # no name to choose: one attempt
])
def test_the_search_on_concrete_sets_reaches_past_its_first_values(
        given: str, claim: str, point: dict[str, int]) -> None:
    """Red team 12 (c1-slow.toml): a false step refuted by N = 5, n = 1 ended `unknown` at the
    wall-clock guard, the concrete sets trying naturals in 0..3 only, where the hypotheses
    leave no counterexample. Assignments the hypotheses on their names alone rule out are
    skipped, and values up to 5 follow those in 0..3: the search on concrete sets finds the
    point at once (work bounded as before: at most `MAX_VALUES` assignments)."""
    from verify.search.sums.worlds import counterexample as on_sets

    proof = parse_proof(HEAD + f'''
[[step]]
id = "s"
given = ["{given}"]
claim = "{claim}"
'''.encode(), "sums.toml")
    seq = sequent(proof, proof.steps[0], [])
    label = next(o.label for o in kernel.obligations(seq) if o.decisive)
    found = on_sets(seq, label, BUDGETS["small"])
    assert found is not None
    assert {n: found.scalars[n] for n in point} == point
