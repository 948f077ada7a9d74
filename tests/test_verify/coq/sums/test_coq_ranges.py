"""A sum's range split or its index shifted, in Coq (issue 31, `verify/coq/sums/ranges.py`).

The kernel's `split` (a first member peeled against a sum from lo + 1) and `shift` (a sum over
0..N-1 of y[j+1] re-indexed to 1..N) are how users re-index sums; each step using one said
`not exported: ... (a split, a shift, ... is not replayed in Coq yet)`. Now each is exported
with no decision procedure and nothing admitted, by the preamble's `zsum_split` and
`zsum_shift` (proved by induction on the length of the range), at the top of a sum, under a
set's filter, with the index itself in the summand (two canonical sums), and inside another
sum's body (`within`), and of a sum with a sum inside its summand (that sum made the kernel's
by `zsum_ext`). coqc accepts them and rejects each false variant of their statements.
Compiling skips without coqc."""

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
from verify.proof_checker import check_proof, sequent
from verify.search.work import BUDGETS

pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit|Axiom)\b")

RANGES = b'''
title = "ranges"
vectors = ["w", "x"]
scalars = ["N", "K", "y", "a"]
naturals = ["N", "K"]
indexed = ["x", "y", "a"]

[sets]
P = { index = "j", range = "1..N", where = ["y[j] >= 0"] }
Q = { index = "j", range = "0..N-1", where = ["y[j+1] >= 0"] }

[[step]]
id = "first-member"
given = ["N >= 1"]
claim = "sum(j in 1..N, y[j]*dot(w, x[j])) == y[1]*dot(w, x[1]) + sum(j in 2..N, y[j]*dot(w, x[j]))"

[[step]]
id = "shift"
claim = "sum(j in 0..N-1, y[j+1]*dot(w, x[j+1])) == sum(j in 1..N, y[j]*dot(w, x[j]))"

[[step]]
id = "shift-filtered"
claim = "sum(j in Q, y[j+1]) == sum(j in P, y[j])"

[[step]]
id = "shift-index-in-body"
claim = "sum(j in 0..N-1, (j+1)*y[j+1]) == sum(j in 1..N, j*y[j])"

[[step]]
id = "shift-inside"
given = ["sum(j in 1..K, y[j]) >= 0"]
claim = "sum(k in 1..N, a[k]*sum(j in 0..K-1, y[j+k+1])) == \
sum(k in 1..N, a[k]*sum(j in 1..K, y[j+k]))"

[[step]]
id = "shift-of-a-double-sum"
claim = "sum(j in 0..N-1, a[j+1]*sum(l in 1..K, y[l+j+1])) == \
sum(j in 1..N, a[j]*sum(l in 1..K, y[l+j]))"

# a range from a natural: the kernel prints K + 1 as the lemmas leave it (coqc once rejected
# these kernel-proved steps: `rewrite` of the bounds to the same term)
[[step]]
id = "peel-at-natural"
given = ["K <= N"]
claim = "sum(j in K..N, y[j]*a[j]) == y[K]*a[K] + sum(j in K+1..N, y[j]*a[j])"

[[step]]
id = "shift-natural-lo"
claim = "sum(j in K..N, y[j+1]) == sum(j in K+1..N+1, y[j])"

[[step]]
id = "split-inside"
given = ["K >= 1", "sum(j in 2..K, y[j]) >= 0"]
claim = "sum(k in 1..N, a[k]*sum(j in 1..K, y[j+k])) == \
sum(k in 1..N, a[k]*sum(j in 1..1, y[j+k])) + sum(k in 1..N, a[k]*sum(j in 2..K, y[j+k]))"
'''
STEPS = ("first-member", "shift", "shift-filtered", "shift-index-in-body", "shift-inside",
         "shift-of-a-double-sum", "peel-at-natural", "shift-natural-lo", "split-inside")
#: The rules the search proposes for each step (its argument, inside how many sums): the
#: hypotheses of `shift-inside` and `split-inside` give the search the range it moves an
#: inner sum to (it proposes a split or shift to meet a range of the obligation's sums).
RULES = {"first-member": [("split", "1", 0), ("last", "0", 0), ("empty", "0", 0)],
         "shift": [("shift", "1", 0)], "shift-filtered": [("shift", "1", 0)],
         "shift-index-in-body": [("shift", "1", 0), ("shift", "1", 0)],
         "shift-inside": [("shift", "1", 1)], "shift-of-a-double-sum": [("shift", "1", 0)],
         "peel-at-natural": [("split", "K", 0), ("last", "0", 0), ("empty", "0", 0)],
         "shift-natural-lo": [("shift", "1", 0)],
         "split-inside": [("split", "1", 1), ("last", "0", 1)]}

#: False variants of ranges.v's statements (what each breaks, the text, its replacement):
#: coqc must reject each. Each text occurs once, in its theorem's statement.
FALSE_RANGES = (
    ("the rest of the split from 3, not 2", "(((ip w (x 1)) * (y 1)) + (zsum ((2))%Z",
     "(((ip w (x 1)) * (y 1)) + (zsum ((3))%Z"),
    ("the shifted range from 1, not 0",
     "(zsum ((0))%Z ((Z.of_nat N) + (-1))%Z (fun j'1 => ((ip w (x (j'1 + 1)))",
     "(zsum ((1))%Z ((Z.of_nat N) + (-1))%Z (fun j'1 => ((ip w (x (j'1 + 1)))"),
    ("the filter not shifted with the summand",
     "((Z.of_nat N) + (-1))%Z (fun j'1 => (ind_ge (y (j'1 + 1)))",
     "((Z.of_nat N) + (-1))%Z (fun j'1 => (ind_ge (y j'1))"),
    ("the index not shifted in the summand",
     "((Z.of_nat N) + (-1))%Z (fun j'1 => (j'1 * (y (j'1 + 1)))))",
     "((Z.of_nat N) + (-1))%Z (fun j'1 => ((j'1 + 1) * (y (j'1 + 1)))))"),
    ("the inner sum shifted by 2, its range by 1",
     "((Z.of_nat K) + (-1))%Z (fun j'1 => (y (j'1 + j'2 + 1)))",
     "((Z.of_nat K) + (-1))%Z (fun j'1 => (y (j'1 + j'2 + 2)))"),
    ("the double sum's inner sum shifted by 2, the outer range by 1",
     "((Z.of_nat K))%Z (fun j'1 => (y (j'1 + j'2 + 1))))))) = ",
     "((Z.of_nat K))%Z (fun j'1 => (y (j'1 + j'2 + 2))))))) = "),
    ("the peeled member of a range from K at K + 1",
     "(((a (INR K)) * (y (INR K))) + (zsum ((Z.of_nat K) + (1))%Z",
     "(((a ((INR K) + 1)) * (y (INR K))) + (zsum ((Z.of_nat K) + (1))%Z"),
    ("the shifted range from K, not K + 1",
     "(zsum ((Z.of_nat K) + (1))%Z ((Z.of_nat N) + (1))%Z (fun j'1 => (y j'1))).",
     "(zsum ((Z.of_nat K))%Z ((Z.of_nat N) + (1))%Z (fun j'1 => (y j'1)))."),
    ("the inner split's first part two members",
     "(zsum ((1))%Z ((1))%Z (fun j'1 => (y (j'1 + j'2))))))) + (zsum ((1))%Z ((Z.of_nat N))%Z",
     "(zsum ((0))%Z ((1))%Z (fun j'1 => (y (j'1 + j'2))))))) + (zsum ((1))%Z ((Z.of_nat N))%Z"),
)


def _export(tmp_path: Path, compile: bool) -> tuple[dict[str, str], str]:
    proof = parse_proof(RANGES, "ranges.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert {s.step.id: s.status for s in report.steps} == dict.fromkeys(STEPS, "proved")
    run = export_and_check(tmp_path, [("ranges", proof, list(report.steps))], compile=compile)
    return run.for_proof("ranges"), (tmp_path / "ranges.v").read_text()


def test_the_kernel_splits_or_shifts_a_sum_for_these_steps() -> None:
    """The steps are what the module says, so the replay below is the one under test."""
    proof = parse_proof(RANGES, "ranges.toml")
    for step in proof.steps:
        rules = [(r.rule, str(r.at), len(r.within)) for r in sequent(proof, step, []).sums]
        assert rules == RULES[step.id], step.id


def test_a_split_or_a_shift_is_exported_with_no_decision_procedure(tmp_path: Path) -> None:
    """Regression (issue 31): each said `not exported: the sum identity ... is no rule the
    replay proves ... (a split, a shift, ... is not replayed in Coq yet)`. Now each has a
    theorem proved by the preamble's lemmas only."""
    results, text = _export(tmp_path, compile=False)
    assert results == dict.fromkeys(STEPS, NOT_RUN)
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))
    # first-member, peel-at-natural, split-inside
    assert text.count("(eq_trans (zsum_split ") == 3
    # shift, shift-filtered, shift-index-in-body (twice: the kernel's rule for each of its
    # two canonical sums), shift-inside, shift-of-a-double-sum, shift-natural-lo
    assert text.count("(eq_trans (zsum_shift ") == 7
    # shift-of-a-double-sum: its inner sum, read at x - 1 under its `fun`, made the kernel's
    assert text.count("by (apply zsum_ext; intros ") == 1


def test_the_preamble_proves_the_shift_by_induction_without_an_axiom() -> None:
    lemma = PREAMBLE[PREAMBLE.index("Lemma nsum_shift :"):]
    lemma = lemma[:lemma.index("Lemma zsum_bounds")]
    assert "induction k as" in lemma
    assert "zsum lo hi f = zsum (lo + c) (hi + c) (fun x => f (x - IZR c))" in lemma
    assert "nra" not in lemma and "Admitted" not in lemma and "Axiom" not in lemma


def _compile(tmp_path: Path, variants: tuple[tuple[str, str, str], ...]) -> None:
    """ranges.v is `checked`, and each of `variants` (each text once in it) does not compile."""
    results, text = _export(tmp_path, compile=True)
    assert results == dict.fromkeys(STEPS, "checked")
    assert compile_inner_product(tmp_path, COQC).returncode == 0  # type: ignore[arg-type]
    try:
        assert coqc_compiles(tmp_path, "ranges.v", text, COQC)  # type: ignore[arg-type]
        for what, old, _ in FALSE_RANGES:
            assert text.count(old) == 1, what
        for what, old, new in variants:
            assert not coqc_compiles(tmp_path, "ranges.v", text.replace(old, new),
                                     COQC), what  # type: ignore[arg-type]
    finally:
        (tmp_path / "ranges.v").write_text(text)


@needs_coqc
@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_splits_and_shifts_compile_and_false_variants_do_not(tmp_path: Path) -> None:
    """Every step compiles; of the false variants, a split's and a range's from a natural
    (coqc once rejected such kernel-proved steps) in every run, all with `-m slow` (each is a
    coqc run)."""
    _compile(tmp_path, (FALSE_RANGES[0], FALSE_RANGES[6]))


@pytest.mark.slow
@needs_coqc
def test_splits_and_shifts_compile_and_no_false_variant_does(tmp_path: Path) -> None:
    _compile(tmp_path, FALSE_RANGES)



#: A shift of a set whose filter reads the index itself: the kernel scales each filter to
#: lead with 1, so the shifted filter is a constant multiple of the written one (`j - 2 > 0`
#: at j - 1 is `j - 3 > 0`, read `j/3 - 1 > 0`; `j + 1 == 0` at j - 2 is `1 - j == 0`, a
#: negative multiple). Each said `not exported: a shift whose filters the kernel rescales`;
#: now the indicators are equal by the preamble's `ind_gt_scale` (`ind_eq_scale`,
#: `ind_ge_scale`).
SCALED = b'''
title = "scaled"
scalars = ["N", "y"]
naturals = ["N"]
indexed = ["y"]

[sets]
G = { index = "j", range = "1..N", where = ["j - 2 > 0"] }
H = { index = "j", range = "2..N+1", where = ["j - 3 > 0"] }
A = { index = "j", range = "-3..N", where = ["j + 1 == 0"] }
B = { index = "j", range = "-1..N+2", where = ["j - 1 == 0"] }
C = { index = "j", range = "1..N", where = ["2*j - 3 >= 0", "y[j] >= 0"] }
D = { index = "j", range = "2..N+1", where = ["2*j - 5 >= 0", "y[j-1] >= 0"] }

[[step]]
id = "scaled-gt"
claim = "sum(j in G, y[j]) == sum(j in H, y[j-1])"

[[step]]
id = "scaled-eq-negative"
claim = "sum(j in A, y[j]) == sum(j in B, y[j-2])"

[[step]]
id = "scaled-two-filters"
claim = "sum(j in C, j*y[j]) == sum(j in D, (j-1)*y[j-1])"
'''
SCALED_STEPS = ("scaled-gt", "scaled-eq-negative", "scaled-two-filters")
FALSE_SCALED = (
    ("the shifted filter not moved",
     "((Z.of_nat N) + (1))%Z (fun j'1 => (ind_gt (((1 / 3) * j'1) + (- 1)))",
     "((Z.of_nat N) + (1))%Z (fun j'1 => (ind_gt (((1 / 2) * j'1) + (- 1)))"),
    ("the equality filter at another member",
     "((Z.of_nat N) + (2))%Z (fun j'1 => (ind_eq (1 + (- (j'1))))",
     "((Z.of_nat N) + (2))%Z (fun j'1 => (ind_eq (2 + (- (j'1))))"),
    # in the first of its right side's two sums (j*y[j-1], then y[j-1])
    ("the scaled filter moved by 2",
     "((Z.of_nat N) + (1))%Z (fun j'1 => (ind_ge (((2 / 5) * j'1) + (- 1))) * (ind_ge (y "
     "(j'1 + (- 1)))) * (j'1 *",
     "((Z.of_nat N) + (1))%Z (fun j'1 => (ind_ge (((2 / 7) * j'1) + (- 1))) * (ind_ge (y "
     "(j'1 + (- 1)))) * (j'1 *"),
)


def test_the_preamble_proves_a_scaled_filter_keeps_its_indicator_without_an_axiom() -> None:
    lemmas = PREAMBLE[PREAMBLE.index("Lemma ind_ge_scale :"):]
    lemmas = lemmas[:lemmas.index("(** * The term-wise rule")]
    assert lemmas.count("Qed.") == 3
    assert "forall p q k, 0 < k -> q = k * p -> ind_ge p = ind_ge q" in lemmas
    assert "nra" not in lemmas and "Admitted" not in lemmas and "Axiom" not in lemmas


def test_a_shift_of_a_filter_on_the_index_is_exported(tmp_path: Path) -> None:
    """Regression (issue 31): each said `not exported: a shift whose filters the kernel
    rescales (a filter on the index itself, ...) is not replayed in Coq yet`."""
    proof = parse_proof(SCALED, "scaled.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert report.status == "proved"
    run = export_and_check(tmp_path, [("scaled", proof, list(report.steps))], compile=False)
    assert run.for_proof("scaled") == dict.fromkeys(SCALED_STEPS, NOT_RUN)
    text = (tmp_path / "scaled.v").read_text()
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))
    assert [text.count(f"refine (ind_{k}_scale ") for k in ("gt", "eq", "ge")] == [1, 1, 1]


@needs_coqc
@pytest.mark.parametrize("variants", [
    FALSE_SCALED[:1], pytest.param(FALSE_SCALED, marks=pytest.mark.slow, id="all")])
def test_shifts_of_scaled_filters_compile_and_false_variants_do_not(
        tmp_path: Path, variants: tuple[tuple[str, str, str], ...]) -> None:
    """The first false variant in every run, all with `-m slow` (each is a coqc run)."""
    proof = parse_proof(SCALED, "scaled.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    run = export_and_check(tmp_path, [("scaled", proof, list(report.steps))], compile=True)
    assert run.for_proof("scaled") == dict.fromkeys(SCALED_STEPS, "checked")
    text = (tmp_path / "scaled.v").read_text()
    assert compile_inner_product(tmp_path, COQC).returncode == 0  # type: ignore[arg-type]
    try:
        assert coqc_compiles(tmp_path, "scaled.v", text, COQC)  # type: ignore[arg-type]
        for what, old, new in variants:
            assert text.count(old) == 1, what
            assert not coqc_compiles(tmp_path, "scaled.v", text.replace(old, new),
                                     COQC), what  # type: ignore[arg-type]
    finally:
        (tmp_path / "scaled.v").write_text(text)
