"""A sum rule inside a sum's body in Coq (issue 31, `verify/coq/sums/within.py`).

The kernel rewrites a sum or member inside the body of enclosing sums (`within`): an inner
range emptied (by its bounds, under a set's filter, by a hypothesis), its last member peeled,
a double sum swapped, a congruence of an inner sum two sums deep (of a scalar, and of a
natural the outer sum's bound reads too). Each once said `not exported:` (a rule inside a
sum's body, a congruence of a sum or of a natural, was not replayed in Coq); now each is
exported with no decision procedure and nothing admitted, the rule proved at the top of its
target with the outer indices free, then lifted through each enclosing sum by the preamble's
`zsum_combine` or `zsum_ext` (extensionality of a sum, proved from the fold by induction).
coqc accepts them, and rejects each false variant of their statements. Compiling skips
without coqc."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.coq import NOT_RUN, export_and_check
from verify.coq.preamble import PREAMBLE
from verify.proof_checker import check_proof
from verify.search.work import BUDGETS

pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit|Axiom)\b")

WITHIN = b'''
title = "within"
vectors = ["w", "x"]
scalars = ["N", "K", "t", "s", "y", "z", "a", "j", "k", "c"]
naturals = ["N", "K", "t"]
indexed = ["x", "y", "z", "a"]

[sets]
P = { index = "j", range = "1..N", where = ["y[j] >= 0"] }

[[step]]
id = "empty-factor"
claim = "sum(j in 1..N, y[j] + y[j]*sum(l in 1..0, a[j + l])) == sum(j in 1..N, y[j])"

[[step]]
id = "empty-filtered"
claim = "sum(j in P, y[j] + y[j]*sum(l in 1..0, a[j + l])) == sum(j in P, y[j])"

[[step]]
id = "empty-by-hypothesis"
given = ["K == 0"]
claim = "sum(j in 1..N, y[j]*sum(l in 1..K, a[j + l])) == 0"

[[step]]
id = "last"
claim = "sum(j in 1..N, y[j]*sum(l in 1..1, a[j + l])) == sum(j in 1..N, y[j]*a[j+1]) + \
sum(j in 1..N, y[j]*sum(l in 1..0, a[j + l]))"

[[step]]
id = "swap"
claim = "sum(k in 1..N, y[k]*sum(j in 1..N, sum(l in 1..t, z[j+l+k]))) == \
sum(k in 1..N, y[k]*sum(l in 1..t, sum(j in 1..N, z[j+l+k])))"

[[step]]
id = "congruence"
given = ["c == s + 1"]
claim = "sum(j in 1..N, sum(l in 1..K, y[j]*a[l + j + c])) == \
sum(j in 1..N, sum(l in 1..K, y[j]*a[l + j + s + 1]))"

[[step]]
id = "congruence-of-a-natural"
given = ["N == s"]
claim = "sum(j in 1..N, sum(l in 1..K, a[l]*y[j + l + N])) == \
sum(j in 1..N, sum(l in 1..K, a[l]*y[j + l + s]))"
'''
STEPS = ("empty-factor", "empty-filtered", "empty-by-hypothesis", "last", "swap", "congruence",
         "congruence-of-a-natural")
#: The rules the search proposes for each step, and inside how many sums (the kernel's
#: `within`). `congruence` is the kernel's congruence of the outer sum (`c := s + 1`): its
#: identity is the congruence of the inner sum inside the outer's body, which the export
#: replays (with the inner sum's summand at a point), as it does `congruence-of-a-natural`'s
#: (N read in the inner sum's summand; the outer sum's bound reads N too, and stays);
#: `empty-by-hypothesis` also gets a congruence of the natural K, which its certificate does
#: not need.
RULES = {"empty-factor": [("empty", 1)], "empty-filtered": [("empty", 1)],
         "empty-by-hypothesis": [("empty", 1), ("congruence", 0)],
         "last": [("last", 1), ("empty", 1)], "swap": [("swap", 1), ("swap", 1)],
         "congruence": [("congruence", 0)], "congruence-of-a-natural": [("congruence", 1)]}

#: False variants of within.v's statements (what each breaks, the text, its replacement):
#: coqc must reject each. Each text occurs once, in its theorem's statement.
FALSE_WITHIN = (
    ("the inner range one member, not empty",
     "(fun j'2 => ((zsum ((1))%Z ((0))%Z (fun j'1 => (a (j'1 + j'2)))) * (y j'2))))) = "
     "(zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (y j'1))).",
     "(fun j'2 => ((zsum ((0))%Z ((0))%Z (fun j'1 => (a (j'1 + j'2)))) * (y j'2))))) = "
     "(zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (y j'1)))."),
    ("the set's filter dropped on the right",
     "= (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (ind_ge (y j'1)) * (y j'1))).",
     "= (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (y j'1)))."),
    ("the hypothesis makes the inner range one member", "(INR K) = 0 ->", "(INR K) = 1 ->"),
    ("the peeled member at the wrong index",
     "(fun j'1 => ((a (j'1 + 1)) * (y j'1)))) + (zsum ((1))%Z ((Z.of_nat N))%Z",
     "(fun j'1 => ((a (j'1 + 2)) * (y j'1)))) + (zsum ((1))%Z ((Z.of_nat N))%Z"),
    ("the swapped side's inner range over t",
     "(fun j'2 => (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (z (j'1 + j'2 + j'3)))))) * "
     "(y j'3)))).",
     "(fun j'2 => (zsum ((1))%Z ((Z.of_nat t))%Z (fun j'1 => (z (j'1 + j'2 + j'3)))))) * "
     "(y j'3))))."),
    ("the congruence's equality off by one", "c = (s + 1) ->", "c = (s + 2) ->"),
    ("the natural's equality off by one", "(INR N) = s ->", "(INR N) = (s + 1) ->"),
)


def _export(tmp_path: Path, compile: bool) -> tuple[dict[str, str], str]:
    proof = parse_proof(WITHIN, "within.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert {s.step.id: s.status for s in report.steps} == dict.fromkeys(STEPS, "proved")
    run = export_and_check(tmp_path, [("within", proof, list(report.steps))], compile=compile)
    return run.for_proof("within"), (tmp_path / "within.v").read_text()


def test_the_kernel_rewrites_inside_a_sums_body_for_these_steps() -> None:
    """The steps are what the module says: a rule inside a sum's body, or one whose identity
    is (`congruence`), so the replay below is the one under test."""
    from verify.proof_checker import sequent

    proof = parse_proof(WITHIN, "within.toml")
    for step in proof.steps:
        rules = [(r.rule, len(r.within)) for r in sequent(proof, step, []).sums]
        assert rules == RULES[step.id], step.id


def test_a_rule_inside_a_sums_body_is_exported_with_no_decision_procedure(
        tmp_path: Path) -> None:
    """Regression (issue 31): each said `not exported: ... a rule inside a sum's body is not
    replayed in Coq yet`. Now each has a theorem whose proof lifts the rule through its
    enclosing sums, by the preamble's lemmas only."""
    results, text = _export(tmp_path, compile=False)
    assert results == dict.fromkeys(STEPS, NOT_RUN)
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))
    # a rule with nothing left to sum (`empty-by-hypothesis`: the kernel's reading is 0) is
    # lifted by extensionality, the others by the split into canonical sums
    assert "apply zsum_ext;" in text and "refine (zsum_combine " in text
    assert text.count("apply (zsum_swap ") == 1  # level 0 of `swap`: the inner double sum
    # the congruence of an inner sum (two sums deep): its summand at a point, by extensionality
    assert "apply Rminus_diag_uniq" in text


def test_the_preamble_proves_the_extensionality_of_a_sum_without_an_axiom() -> None:
    lemma = PREAMBLE[PREAMBLE.index("Lemma zsum_ext :"):]
    lemma = lemma[:lemma.index("Qed.")]
    assert "(forall x, f x = g x) -> zsum lo hi f = zsum lo hi g" in lemma
    assert "apply nsum_ext" in lemma and not DECIDERS.search(lemma)


@needs_coqc
@pytest.mark.parametrize("variants", [
    FALSE_WITHIN[:1], pytest.param(FALSE_WITHIN, marks=pytest.mark.slow, id="all")])
def test_rules_inside_a_sums_body_compile_and_false_variants_do_not(
        tmp_path: Path, variants: tuple[tuple[str, str, str], ...]) -> None:
    """The first false variant in every run, all with `-m slow` (each is a coqc run)."""
    results, text = _export(tmp_path, compile=True)
    assert results == dict.fromkeys(STEPS, "checked")
    assert compile_inner_product(tmp_path, COQC).returncode == 0  # type: ignore[arg-type]
    try:
        assert coqc_compiles(tmp_path, "within.v", text, COQC)  # type: ignore[arg-type]
        for what, old, new in variants:
            assert text.count(old) == 1, what
            assert not coqc_compiles(tmp_path, "within.v", text.replace(old, new),
                                     COQC), what  # type: ignore[arg-type]
    finally:
        (tmp_path / "within.v").write_text(text)



#: A rule inside a set's filter (issue 31): the kernel rewrites a member or a sum that a
#: filter reads (`within` rewrites a sum's filters as its body), so two sets declared with
#: their conditions written otherwise are one. Each said `not exported: a rule inside a sum's
#: filter is not replayed in Coq yet`; now the rewrite at a point reaches the indicator too,
#: which is read as the rewrite leaves it (`linear.combine`'s `rewritten`).
FILTERS = b'''
title = "filters"
scalars = ["N", "y", "a", "c", "s"]
naturals = ["N"]
indexed = ["y", "a"]

[sets]
C = { index = "j", range = "1..N", where = ["y[j+c] >= 0"] }
D = { index = "j", range = "1..N", where = ["y[j+s] >= 0"] }
E = { index = "j", range = "1..N", where = ["sum(l in 1..0, a[l+j]) + y[j] >= 0"] }
F = { index = "j", range = "1..N", where = ["y[j] >= 0"] }
G = { index = "j", range = "1..N", where = ["y[j] - sum(l in 1..N, 1) > 0"] }
H = { index = "j", range = "1..N", where = ["y[j] - N > 0"] }

[[step]]
id = "congruence-in-filter"
given = ["c == s"]
claim = "sum(j in C, y[j]) == sum(j in D, y[j])"

[[step]]
id = "empty-in-filter"
claim = "sum(j in E, y[j]) == sum(j in F, y[j])"

[[step]]
id = "filter-and-body"
given = ["s == c"]
claim = "sum(j in C, y[j+c]*a[j]) == sum(j in D, y[j+s]*a[j])"

[[step]]
id = "count-in-filter"
claim = "sum(j in G, a[j]*y[j]) == sum(j in H, a[j]*y[j])"
'''
FILTER_STEPS = ("congruence-in-filter", "empty-in-filter", "filter-and-body",
                "count-in-filter")
#: The kernel's rules: a congruence of the sum over C (its identity is the congruence of the
#: member y[j + c] inside the filter, which the export replays), an empty and a count range
#: inside a filter, and a congruence of a whole sum that moves a member of its body and one of
#: its filter at once (said `not exported: the sum identity ... is no rule the replay
#: proves`; now the sum's summand at a point, `zsum_ext`, each indicator rewritten).
FILTER_RULES = {"congruence-in-filter": [("congruence", 0)], "empty-in-filter": [("empty", 1)],
                "filter-and-body": [("congruence", 0)], "count-in-filter": [("count", 1)]}
FALSE_FILTERS = (
    ("the equality in the filter off by one", "c = s ->", "c = s + 1 ->"),
    ("the emptied filter read one further",
     "((Z.of_nat N))%Z (fun j'1 => (ind_ge (y j'1)) * (y j'1))).",
     "((Z.of_nat N))%Z (fun j'1 => (ind_ge (y (j'1 + 1))) * (y j'1)))."),
    ("the counted filter one lower", "(ind_gt ((- ((INR N))) + (y j'1)))",
     "(ind_gt ((- ((INR N) - 1)) + (y j'1)))"),
    ("the body's member moved one further",
     "(fun j'1 => (ind_ge (y (j'1 + s))) * ((a j'1) * (y (j'1 + s))))).",
     "(fun j'1 => (ind_ge (y (j'1 + s))) * ((a j'1) * (y (j'1 + s + 1)))))."),
)


def _export_filters(tmp_path: Path, compile: bool) -> tuple[dict[str, str], str]:
    proof = parse_proof(FILTERS, "filters.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert {s.step.id: s.status for s in report.steps} == dict.fromkeys(FILTER_STEPS, "proved")
    run = export_and_check(tmp_path, [("filters", proof, list(report.steps))], compile=compile)
    return run.for_proof("filters"), (tmp_path / "filters.v").read_text()


def test_a_rule_inside_a_sets_filter_is_exported_with_no_decision_procedure(
        tmp_path: Path) -> None:
    """Regression (issue 31): each said `not exported: a rule inside a sum's filter is not
    replayed in Coq yet`."""
    from verify.proof_checker import sequent

    proof = parse_proof(FILTERS, "filters.toml")
    for step in proof.steps:
        rules = [(r.rule, len(r.within)) for r in sequent(proof, step, []).sums]
        assert rules == FILTER_RULES[step.id], step.id
    results, text = _export_filters(tmp_path, compile=False)
    assert results == dict.fromkeys(FILTER_STEPS, NOT_RUN)
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))
    # the emptied filter: rewritten at the point, its indicator read as the rewrite leaves it
    assert re.search(r"replace \(ind_ge \(y (x'\d+)\)\) with \(ind_ge \(0 \+ \(y \1\)\)\)", text)


@needs_coqc
@pytest.mark.parametrize("variants", [
    FALSE_FILTERS[:1], pytest.param(FALSE_FILTERS, marks=pytest.mark.slow, id="all")])
def test_rules_inside_a_sets_filter_compile_and_false_variants_do_not(
        tmp_path: Path, variants: tuple[tuple[str, str, str], ...]) -> None:
    """The first false variant in every run, all with `-m slow` (each is a coqc run)."""
    results, text = _export_filters(tmp_path, compile=True)
    assert results == dict.fromkeys(FILTER_STEPS, "checked")
    assert compile_inner_product(tmp_path, COQC).returncode == 0  # type: ignore[arg-type]
    try:
        assert coqc_compiles(tmp_path, "filters.v", text, COQC)  # type: ignore[arg-type]
        for what, old, new in variants:
            assert text.count(old) == 1, what
            assert not coqc_compiles(tmp_path, "filters.v", text.replace(old, new),
                                     COQC), what  # type: ignore[arg-type]
    finally:
        (tmp_path / "filters.v").write_text(text)
