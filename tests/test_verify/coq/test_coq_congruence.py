"""Issue 31's congruence and swap in Coq: a member's index replaced by an equal term
(`verify/coq/congruence.py`: the condition gives `n = k`, the identity by `rewrite` and
`f_equal` down to the indices) and a double sum in the other order (`verify/coq/swap.py`: the
preamble's `zsum_swap`, proved by induction) are re-checked by coqc, with no decision
procedure and nothing admitted; their false variants do not compile. What is not replayed
(a congruence of a sum or of a natural, a swap with a sum in its summand) says `not exported`
with its reason and is not counted as checked. Compiling skips without coqc."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.coq import NOT_RUN, export_and_check
from verify.proof_checker import check_proof
from verify.search.work import BUDGETS

# the preamble compiled once per process, not once per test (tests/coq_preamble.py)
pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit|Axiom)\b")

FILE = b'''
title = "congruence"
vectors = ["x", "w"]
scalars = ["y", "a", "j", "k", "N", "K"]
naturals = ["N", "K"]
indexed = ["x", "y", "a"]

[sets]
M = { index = "j", range = "1..N", where = ["y[j] >= 0"] }

[[step]]
id = "scalar"
given = ["j == k"]
claim = "y[j] == y[k]"

[[step]]
id = "vector"
given = ["j == k"]
claim = "dot(w, x[j]) == dot(w, x[k])"

[[step]]
id = "moved"
given = ["j == k + 1"]
claim = "y[j]*dot(w, x[j]) == y[k+1]*dot(w, x[k+1])"

[[step]]
id = "in-a-sum"
given = ["j == k"]
claim = "sum(l in 1..N, y[l]*a[l + j]) == sum(l in 1..N, y[l]*a[l + k])"

[[step]]
id = "natural"
given = ["N == K + 1"]
claim = "y[N] == y[K + 1]"

[[step]]
id = "swap"
claim = "sum(j in 1..N, sum(l in 1..K, a[j]*y[l]*a[j+l])) == \
sum(l in 1..K, sum(j in 1..N, a[j]*y[l]*a[j+l]))"

[[step]]
id = "swap-filtered"
claim = "sum(j in M, sum(l in 1..K, y[j]*a[l]*a[j*l])) <= \
sum(l in 1..K, sum(j in M, y[j]*a[l]*a[j*l]))"

[[step]]
id = "swap-third-sum"
claim = "sum(j in 1..N, sum(l in 1..K, a[j]*sum(i in 1..K, y[i + l + j]))) == \
sum(l in 1..K, sum(j in 1..N, a[j]*sum(i in 1..K, y[i + l + j])))"
'''

#: False variants of congruence.v (what it breaks, the text, how often it occurs, its first
#: occurrence, in the theorem's statement, replaced): coqc must reject each.
FALSE = (
    ("another member", "(y j) = (y k).", "(y j) = (y (k + 1)).", 1),
    ("no equality", "    j = k ->\n    (y j) = (y k).", "    j <= k ->\n    (y j) = (y k).", 1),
    ("moved by 2", "j = (k + 1) ->", "j = (k + 2) ->", 1),
    # the swapped side's inner summand at the wrong index: no longer the same double sum
    ("swap's body", "(fun j'1 => ((a (j'1 + j'2)) * (a j'1)))) * (y j'2))))",
     "(fun j'1 => ((a (j'1 + j'2)) * (a j'2)))) * (y j'2))))", 6),
    # the filter moved to the other sum (the set's condition read at l, not at j)
    ("swap's set", "(fun j'1 => (ind_ge (y j'1)) * ((a (j'1 * j'2)) * (y j'1)))",
     "(fun j'1 => (ind_ge (y j'2)) * ((a (j'1 * j'2)) * (y j'1)))", 6),
    # the swapped side's range one longer
    ("swap's range", "(zsum ((1))%Z ((Z.of_nat K))%Z (fun j'2 => ((zsum ((1))%Z "
     "((Z.of_nat N))%Z (fun j'1 => ((a (j'1 + j'2)) * (a j'1))))",
     "(zsum ((1))%Z ((Z.of_nat K + 1))%Z (fun j'2 => ((zsum ((1))%Z "
     "((Z.of_nat N))%Z (fun j'1 => ((a (j'1 + j'2)) * (a j'1))))", 1),
)


def _export(tmp_path: Path, compile: bool) -> tuple[dict[str, str], str]:
    proof = parse_proof(FILE, "congruence.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert report.status == "proved"
    run = export_and_check(tmp_path, [("congruence", proof, list(report.steps))],
                           compile=compile)
    return run.for_proof("congruence"), (tmp_path / "congruence.v").read_text()


NOT_YET = {"swap-third-sum": "a sum inside", "in-a-sum": "a congruence of a sum",
           "natural": "the natural K"}
CHECKED = ("scalar", "vector", "moved", "swap", "swap-filtered")


def test_a_congruence_is_replayed_and_a_swap_says_it_is_not(tmp_path: Path) -> None:
    """Honest: what is not replayed says so, with its reason, and has no theorem."""
    results, text = _export(tmp_path, compile=False)
    for step, why in NOT_YET.items():
        reason = results.pop(step)
        assert reason.startswith("not exported: ") and why in reason, (step, reason)
        assert f"step_{step.replace('-', '_')} " not in text
    assert results == dict.fromkeys(CHECKED, NOT_RUN)  # exported, coqc not asked
    assert text.count("apply (zsum_swap ") == 2
    assert text.count("apply Rminus_diag_uniq") == 4  # `moved`: its y and its x member
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))


@pytest.mark.skipif(COQC is None, reason="coqc is not on PATH (apt-get install coq)")
def test_the_congruences_compile_and_false_variants_do_not(tmp_path: Path) -> None:
    results, text = _export(tmp_path, compile=True)
    assert {k: v for k, v in results.items() if k not in NOT_YET} == dict.fromkeys(
        CHECKED, "checked")
    assert all(results[k].startswith("not exported: ") for k in NOT_YET)
    assert compile_inner_product(tmp_path).returncode == 0  # type: ignore[arg-type]
    for what, old, new, count in FALSE:
        assert text.count(old) == count, what
        assert not coqc_compiles(tmp_path, "congruence.v", text.replace(old, new, 1),
                                 COQC), what  # type: ignore[arg-type]


def test_the_preamble_proves_the_swap_by_induction_without_an_axiom() -> None:
    from verify.coq.preamble import PREAMBLE

    swap = PREAMBLE[PREAMBLE.index("A double sum in the other order"):]
    swap = swap[:swap.index("Lemma zsum_factor")]
    assert "Lemma nsum_swap :" in swap and "induction a as" in swap
    assert not DECIDERS.search(swap.replace("Axiom", ""))  # no decision procedure either
    assert "Axiom" not in PREAMBLE[PREAMBLE.index("Finite sums over integer ranges"):]
