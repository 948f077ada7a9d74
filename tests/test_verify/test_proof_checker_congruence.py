"""Issue 31's congruence and swap through the checker: what users write about family members
with equal indices (`j == k |- y[j] == y[k]`, `<w,x[j]>`, `norm2(x[j])`, an index moved by a
constant) and double sums in the other order, proved by the kernel's rules the search
proposes (`verify.search.sums.congruences`, `verify.search.sums.rules`); and the false
variants, through the language and the structural rules (split, uses, `with`, the term-wise
use), never proved: refuted on a concrete set, unknown, or refused as bad input."""

from __future__ import annotations

import pytest

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof, sequent
from verify.search.work import BUDGETS

HEAD = b'''
title = "congruence and swap"
vectors = ["w", "x"]
scalars = ["y", "z", "a", "j", "k", "l", "N", "K"]
naturals = ["N", "K"]
indexed = ["x", "y", "z", "a"]

[sets]
M = { index = "j", range = "1..N", where = ["y[j] >= 0"] }
'''


def check(steps: bytes) -> dict[str, object]:
    proof = parse_proof(HEAD + steps, "congruence.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    return {s.step.id: s for s in report.steps}


def status(steps: bytes) -> dict[str, str]:
    return {k: v.status for k, v in check(steps).items()}  # type: ignore[attr-defined]


TRUE = b'''
[[step]]
id = "scalar"
given = ["j == k"]
claim = "y[j] == y[k]"

[[step]]
id = "vector"
given = ["j == k"]
claim = "dot(w, x[j]) == dot(w, x[k])"

[[step]]
id = "norm"
given = ["k == j"]
claim = "norm2(x[j]) <= norm2(x[k])"

[[step]]
id = "moved"
given = ["j == k + 1"]
claim = "y[j]*dot(w, x[j]) == y[k+1]*dot(w, x[k+1])"

[[step]]
id = "chained"
given = ["j == k", "k == l"]
claim = "y[j] == y[l]"

[[step]]
id = "in-a-sum"
given = ["j == k"]
claim = "sum(l in 1..N, a[l]*y[l + j]) == sum(l in 1..N, a[l]*y[l + k])"

[[step]]
id = "swap-ranges"
claim = "sum(j in 1..N, sum(l in 1..K, a[j]*y[l]*z[j+l])) == \
sum(l in 1..K, sum(j in 1..N, a[j]*y[l]*z[j+l]))"

[[step]]
id = "swap-a-set"
claim = "sum(j in M, sum(l in 1..K, y[j]*a[l]*z[j*l])) <= \
sum(l in 1..K, sum(j in M, y[j]*a[l]*z[j*l]))"
'''


def test_members_with_equal_indices_and_swapped_double_sums_are_proved() -> None:
    found = check(TRUE)
    assert {k: v.status for k, v in found.items()} == dict.fromkeys(  # type: ignore[attr-defined]
        ("scalar", "vector", "norm", "moved", "chained", "in-a-sum", "swap-ranges",
         "swap-a-set"), "proved")
    proof = parse_proof(HEAD + TRUE, "congruence.toml")
    rules = {s.id: {r.rule for r in sequent(proof, s, ()).sums} for s in proof.steps}
    assert rules["scalar"] == rules["chained"] == {"congruence"}
    assert rules["swap-ranges"] == rules["swap-a-set"] == {"swap"}


def test_the_false_variants_are_never_proved() -> None:
    """Each differs from a true step by what the rules must not ignore."""
    found = status(b'''
[[step]]
id = "no-equality"
claim = "y[j] == y[k]"

[[step]]
id = "weaker-equality"
given = ["j**2 == k**2"]
claim = "y[j] == y[k]"

[[step]]
id = "members-not-indices"
given = ["y[j] == y[k]"]
claim = "z[j] == z[k]"

[[step]]
id = "captured-index"
given = ["j == k"]
claim = "sum(j in 1..N, y[j]) == N*y[k]"

[[step]]
id = "captured-other-index"
given = ["j == k"]
claim = "sum(k in 1..N, y[j]*z[k]) == sum(k in 1..N, y[k]*z[k])"

[[step]]
id = "swap-forgets-a-factor"
claim = "sum(j in 1..N, sum(l in 1..K, a[j]*y[l]*z[j+l])) == \
sum(l in 1..K, sum(j in 1..N, a[l]*y[j]*z[j+l]))"

[[step]]
id = "swap-moves-the-set"
claim = "sum(j in M, sum(l in 1..K, a[l]*z[j*l])) == sum(l in M, sum(j in 1..K, a[l]*z[j*l]))"
''')
    assert found.pop("weaker-equality") in ("unknown", "refuted")  # the search's reach
    assert found == dict.fromkeys(("no-equality", "members-not-indices", "captured-index",
                                   "captured-other-index", "swap-forgets-a-factor",
                                   "swap-moves-the-set"), "refuted")


@pytest.mark.parametrize(("claim", "why"), [
    (b"sum(j in 1..N, sum(l in 1..j, a[l])) == sum(l in 1..N, sum(j in l..N, a[l]))",
     b"a bound of a sum"),  # a dependent (triangular) range cannot be written
    (b"y[x[j]] == y[x[k]]", b"outside dot"),  # nor a member inside an index
    (b"y[y[j]] == y[y[k]]", b"index"),
])
def test_a_dependent_range_or_a_member_in_an_index_is_bad_input(claim: bytes, why: bytes) -> None:
    with pytest.raises(ProofFileError, match=why.decode()):
        check(b'[[step]]\nid = "bad"\ngiven = ["j == k"]\nclaim = "' + claim + b'"\n')


def test_congruence_through_split_uses_with_and_the_term_wise_rule() -> None:
    """Split on j - k: only its case j - k == 0 has the equality, so `y[j] == y[k]` of any j, k
    is refuted in another case. A lemma used with `with` proves its instance (k := l + 1 under
    j == l + 1) and carries its hypothesis (a step without it inherits it). Summed term-wise
    over j, a lemma whose hypothesis j == k is no membership fact is refused (bad input)."""
    found = check(b'''
[[step]]
id = "by-cases"
claim = "y[j] == y[k]"
split = { on = "j - k" }

[[step]]
id = "lemma"
given = ["j == k"]
claim = "y[j] == y[k]"

[[step]]
id = "instance"
given = ["j == l + 1"]
claim = "y[j] == y[l + 1]"
uses = [{ step = "lemma", with = { k = "l + 1" } }]

[[step]]
id = "inherits"
claim = "y[j] == y[k]"
uses = ["lemma"]
''')
    assert {k: v.status for k, v in found.items()} == {  # type: ignore[attr-defined]
        "by-cases": "refuted", "lemma": "proved", "instance": "proved", "inherits": "proved"}
    inherits = found["inherits"].statement  # type: ignore[attr-defined]
    assert "j == k" in str(inherits).split("|-")[0]
    with pytest.raises(ProofFileError, match="membership fact"):
        check(b'''
[[step]]
id = "lemma"
given = ["j == k", "j >= 1", "j <= N"]
claim = "y[j] - y[k] == 0"

[[step]]
id = "summed"
claim = "sum(j in 1..N, y[j] - y[k]) == 0"
uses = [{ step = "lemma", sum = "j in 1..N" }]
''')
