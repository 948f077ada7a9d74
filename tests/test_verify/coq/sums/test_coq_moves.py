"""Sum rules whose canonical form moves, in Coq (issue 31 section 1, the rest of its Coq
translation: `verify/coq/sums/within.py`, `linear.py`, `identities.py`).

Three kinds of kernel-proved steps said `not exported:` with a reason, each now exported with
no decision procedure and nothing admitted, and coqc accepts them and rejects false variants:

- a rule inside a set's filter that leaves the filter constant (`not exported: a rule inside
  a sum's filter that leaves the filter constant ...`, or, where the constant fails, `the
  sum of a[#2] is no single canonical sum`): the raw indicator, read at the point as the
  rewrite leaves it, is its value (`ind_*_in`, `ind_*_out`, the sign by computation); one
  that makes it another filter or a multiple of another (a coqc error once the first was
  replayed), or a multiple of the kernel's (`a canonical sum's filter is not the raw
  sum's`): one indicator, 0 or 1 (`ind_*_01`, `ind_*_scale`), or the rescaled one;
- a congruence of a sum whose canonical form moves (`not exported: a congruence of a sum whose
  canonical form moves ...`): its bounds (`zsum_bounds`, over Z from the congruence over R),
  a filter rescaled (`ind_*_scale`), two filters made one (`ind_*_01`), a filter made
  constant, one that fails (the image is 0);
- a swap whose other order has two sums in its outer body (a third sum free of the swapped
  index), which crashed `--coq` (ValueError). The third reason the brief named, `a swap whose
  sets are not the same in its two orders`, is given by no swap the kernel proves: the
  kernel's swap renames each set's index and leaves its filters as they are, and a filter's
  leading monomial (the kernel scales by it) is the same under that renaming (the new index
  of the swapped sum is never above its old one nor above an enclosing sum's, and index
  names sort before every other name): `test_no_kernel_swap_has_sets_that_differ_once_
  canonical` checks that on a table of the kernel's swaps, at the top and inside a sum.
Compiling skips without coqc."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import sympy
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.coq import NOT_RUN, export_and_check, printer
from verify.coq.preamble import PREAMBLE
from verify.coq.sums import identities, within
from verify.kernel import SumRule, atoms, sums
from verify.proof_checker import check_proof, sequent
from verify.search.work import BUDGETS

pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")
DECIDERS = re.compile(r"\b(nra|lra|psatz|nlinarith|lia|nia|Admitted|admit|Axiom)\b")

MOVES = b'''
title = "moves"
scalars = ["N", "M", "K", "y", "a", "z", "c", "s"]
naturals = ["N", "M", "K"]
indexed = ["y", "a", "z"]

[sets]
E = { index = "j", range = "1..N", where = ["sum(l in 1..0, a[l+j]) >= 0", "y[j] > 0"] }
F = { index = "j", range = "1..N", where = ["sum(l in 1..0, a[l+j]) - 1/2 >= 0"] }
P = { index = "j", range = "1..N", where = ["y[j] > 0"] }
C = { index = "j", range = "1..K", where = ["c*y[j] >= 0"] }
D = { index = "j", range = "1..M", where = ["2*s*y[j] >= 0"] }
C2 = { index = "j", range = "1..N", where = ["y[j] - c >= 0", "y[j] - s >= 0"] }
D2 = { index = "j", range = "1..N", where = ["y[j] - s >= 0"] }
C3 = { index = "j", range = "1..N", where = ["y[j] >= 0", "c - s - 1 >= 0"] }
W = { index = "j", range = "1..N", where = ["sum(l in 1..0, a[l+j]) + y[j] >= 0", "y[j] >= 0"] }
V = { index = "j", range = "1..N", where = ["sum(l in 1..0, a[l+j]) + 2*y[j] >= 0"] }
Q = { index = "j", range = "1..N", where = ["y[j] >= 0"] }
U = { index = "j", range = "1..N", where = ["sum(l in 1..0, a[l+j]) + 2*y[j] >= 0", "y[j] >= 0"] }

[[step]]
id = "filter-holds"
claim = "sum(j in E, y[j]) == sum(j in P, y[j])"

[[step]]
id = "filter-fails"
claim = "sum(j in F, a[j]) == 0"

[[step]]
id = "filter-merged"
claim = "sum(j in W, a[j]) == sum(j in Q, a[j])"

[[step]]
id = "filter-rescaled"
claim = "sum(j in V, a[j]) == sum(j in Q, a[j])"

[[step]]
id = "filter-multiples"
claim = "sum(j in U, y[j]*a[j]) == sum(j in Q, y[j]*a[j])"

[[step]]
id = "bounds"
given = ["N == M + 1"]
claim = "sum(j in 1..N, y[j]) == sum(j in 1..M+1, y[j])"

[[step]]
id = "inner-bounds"
given = ["K == M"]
claim = "sum(j in 1..N, y[j]*sum(l in 1..K, a[l+j])) == \
sum(j in 1..N, y[j]*sum(l in 1..M, a[l+j]))"

[[step]]
id = "bounds-and-rescaled"
given = ["K == M", "c == 2*s"]
claim = "sum(j in C, y[j]) == sum(j in D, y[j])"

[[step]]
id = "merged"
given = ["c == s"]
claim = "sum(j in C2, y[j]) == sum(j in D2, y[j])"

[[step]]
id = "congruence-fails"
given = ["c == s"]
claim = "sum(j in C3, y[j]) == 0"

[[step]]
id = "swap-third-sum"
claim = "sum(j in 1..N, y[j]*sum(l in 1..N, z[l+j]*sum(i in 1..N, a[i+l]))) == \
sum(l in 1..N, sum(i in 1..N, a[i+l])*sum(j in 1..N, y[j]*z[l+j]))"
'''
STEPS = ("filter-holds", "filter-fails", "filter-merged", "filter-rescaled", "filter-multiples",
         "bounds",
         "inner-bounds", "bounds-and-rescaled", "merged", "congruence-fails", "swap-third-sum")
#: The rules the search proposes: an emptied range inside a set's filter (the filter left
#: `0 >= 0`, or `-1/2 >= 0`), congruences of whole sums (their bounds, filters moved), a swap.
RULES = {"filter-holds": [("empty", 1)], "filter-fails": [("empty", 1)],
         "filter-merged": [("empty", 1)], "filter-rescaled": [("empty", 1)],
         "filter-multiples": [("empty", 1)],
         "bounds": [("congruence", 0)], "inner-bounds": [("congruence", 0)],
         "bounds-and-rescaled": [("congruence", 0)] * 3, "merged": [("congruence", 0)],
         "congruence-fails": [("congruence", 0)], "swap-third-sum": [("swap", 0)]}
#: False variants of moves.v's statements (what each breaks, the text, its replacement): a
#: changed constant, a wrong bound, a swapped set. coqc must reject each; each text occurs
#: once, in its theorem's statement.
FALSE_MOVES = (
    ("the failing filter's constant made one that holds", "+ (- 1))) * (a j'2))) = 0.",
     "+ 1)) * (a j'2))) = 0."),
    ("the emptied range in the filter one member",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge (zsum ((1))%Z ((0))%Z (fun j'1 =>",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge (zsum ((1))%Z ((1))%Z (fun j'1 =>"),
    ("the merged filter's member moved",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge ((zsum ((1))%Z ((0))%Z (fun j'1 => (a (j'1 + "
     "j'2)))) + (y j'2))) * (ind_ge (y j'2))",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge ((zsum ((1))%Z ((0))%Z (fun j'1 => (a (j'1 + "
     "j'2)))) + (y j'2))) * (ind_ge (y (j'2 + 1)))"),
    ("the rescaled filter's factor negative",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge ((zsum ((1))%Z ((0))%Z (fun j'1 => (a (j'1 + "
     "j'2)))) + (2 * (y j'2)))) * (a j'2)))",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge ((zsum ((1))%Z ((0))%Z (fun j'1 => (a (j'1 + "
     "j'2)))) + ((- 2) * (y j'2)))) * (a j'2)))"),
    ("the filter a multiple of the other made its opposite",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge ((zsum ((1))%Z ((0))%Z (fun j'1 => (a (j'1 + "
     "j'2)))) + (2 * (y j'2)))) * (ind_ge (y j'2))",
     "((Z.of_nat N))%Z (fun j'2 => (ind_ge ((zsum ((1))%Z ((0))%Z (fun j'1 => (a (j'1 + "
     "j'2)))) + ((- 2) * (y j'2)))) * (ind_ge (y j'2))"),
    ("the moved bound off by one", "(INR N) = ((INR M) + 1) ->", "(INR N) = ((INR M) + 2) ->"),
    ("the inner sum's moved bound one further",
     "((Z.of_nat M))%Z (fun j'1 => (a (j'1 + j'2)))) * (y j'2)))).",
     "((Z.of_nat M) + (1))%Z (fun j'1 => (a (j'1 + j'2)))) * (y j'2))))."),
    ("the congruence's rescaling factor negative", "c = (2 * s) ->", "c = ((- 2) * s) ->"),
    ("the merged set strict",
     "= (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (ind_ge ((- (s)) + (y j'1))) * (y j'1))).",
     "= (zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (ind_gt ((- (s)) + (y j'1))) * (y j'1)))."),
    ("the congruence's failing filter made one that holds",
     "((Z.of_nat N))%Z (fun j'1 => (ind_ge (c + (- (s)) + (- 1)))",
     "((Z.of_nat N))%Z (fun j'1 => (ind_ge (c + (- (s)) + 1))"),
    ("the swapped order's inner sum reading the outer index",
     "(fun j'1 => ((y j'1) * (z (j'1 + j'2))))))))).",
     "(fun j'1 => ((y j'2) * (z (j'1 + j'2)))))))))."),
)


def _export(tmp_path: Path, compile: bool) -> tuple[dict[str, str], str]:
    proof = parse_proof(MOVES, "moves.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert {s.step.id: s.status for s in report.steps} == dict.fromkeys(STEPS, "proved")
    run = export_and_check(tmp_path, [("moves", proof, list(report.steps))], compile=compile)
    return run.for_proof("moves"), (tmp_path / "moves.v").read_text()


def test_the_kernel_proves_these_steps_by_the_rules_under_test() -> None:
    proof = parse_proof(MOVES, "moves.toml")
    for step in proof.steps:
        rules = [(r.rule, len(r.within)) for r in sequent(proof, step, []).sums]
        assert rules == RULES[step.id], step.id


def test_sum_rules_whose_canonical_form_moves_are_exported_with_no_decision_procedure(
        tmp_path: Path) -> None:
    """Regression (issue 31): each said `not exported:` (`BEFORE`), or crashed the export.
    Now each has a theorem, proved by the preamble's lemmas only."""
    results, text = _export(tmp_path, compile=False)
    assert results == dict.fromkeys(STEPS, NOT_RUN)
    assert not DECIDERS.search(re.sub(r"\(\*.*?\*\)", "", text, flags=re.S))
    assert "apply ind_ge_in" in text and "apply ind_ge_out" in text  # a constant filter
    assert text.count("rewrite (zsum_bounds ") >= 3  # the moved bounds
    assert "ind_ge_scale" in text and "destruct (ind_ge_01 " in text  # rescaled, merged
    assert "rewrite zsum_zero; reflexivity" in text  # the congruence's image is 0
    assert text.count("apply (zsum_swap ") == 1


def test_the_preamble_proves_an_indicator_is_zero_or_one_by_cases() -> None:
    for kind in ("ge", "gt", "eq"):
        lemma = PREAMBLE[PREAMBLE.index(f"Lemma ind_{kind}_01 :"):]
        lemma = lemma[:lemma.index("Qed.")]
        assert f"ind_{kind} p = 0 \\/ ind_{kind} p = 1" in lemma
        assert not DECIDERS.search(lemma)


def test_a_sum_is_printed_with_its_own_index_bound_whatever_the_naming() -> None:
    """Regression: a swap's factor `sum(#1, a[#1 + #2])`, printed where the swap names #1
    `u'`, read `a (u' + v')` (its own index replaced): coqc rejected the kernel-proved step."""
    i, m = sympy.Symbol("i"), sympy.Symbol("m")
    inner = atoms.finite_sum(i, sympy.Integer(1), sympy.Symbol("N"), [],
                             atoms.family("a", i + m))
    outer = atoms.finite_sum(m, sympy.Integer(1), sympy.Symbol("N"), [], inner)
    factor, = (s for s in atoms.structure(outer).body.free_symbols)  # type: ignore[union-attr]
    assert printer.expr(factor, {"#1": "u'", "#2": "v'"}) == (
        "(zsum ((1))%Z ((Z.of_nat N))%Z (fun j'1 => (a (j'1 + v'))))")


def _double_sums() -> list[tuple[sympy.Symbol, tuple[sympy.Symbol, ...]]]:
    """Double sums the kernel swaps (and the enclosing sums, innermost first): sets whose
    filters the kernel scales (`2*j - N`, `N - 2*j`, `3*y[j] - y[k]`), read an enclosing
    sum's index or a sum, and a third sum in the summand."""
    j, m, k, i = (sympy.Symbol(n) for n in "jlki")
    n, c, one = sympy.Symbol("N"), sympy.Symbol("c"), sympy.Integer(1)

    def s(index: sympy.Symbol, body: sympy.Expr, filters: tuple = ()) -> sympy.Expr:
        return atoms.finite_sum(index, one, n, list(filters), body)

    def y(e: sympy.Expr, f: str = "y") -> sympy.Symbol:
        return atoms.family(f, e)

    sets = [(), ((2*j - n, ">="),), ((n - 2*j, ">"), (y(j) - 2*c, "==")),
            ((3*y(j) - y(k), ">="),), ((2*s(i, y(i + j, "a")) - y(j), ">"),),
            ((y(j) - 3*y(k, "z"), "=="), (2*j - k, ">="))]
    bodies = [y(j + m + k, "a"), y(m - j, "a")*s(i, y(i + m + j, "a"))]
    out = []
    for f in sets:
        for g in sets:
            g = tuple((atoms.substitute(p, {"j": m}, {}), kind) for p, kind in g)
            for b in bodies:
                double = s(j, y(j)*s(m, b, g), f)
                outer = s(k, y(k)*double)
                if k.name not in atoms.names_of(double):
                    out.append((double, ()))
                if outer.is_Symbol:
                    found = atoms.structure(outer)
                    (target,) = (t for t in found.body.free_symbols  # type: ignore[union-attr]
                                 if isinstance(atoms.structure(t), atoms.Sum))
                    out.append((target, (outer,)))
    return out


def test_no_kernel_swap_has_sets_that_differ_once_canonical() -> None:
    """The reason `a swap whose sets are not the same in its two orders` (kind c) is given by
    no swap the kernel proves (module docstring): for each of the kernel's swaps of a table,
    at the top and inside a sum, the other order has an inner sum whose sets and summand are
    the first order's, so the replay never refuses it."""
    swapped = 0
    for target, enclosing in _double_sums():
        rule = SumRule("swap", target, sympy.Integer(0), enclosing)
        try:
            sums.identity(sums.frozen(rule))
        except atoms.KernelError:
            continue
        relation, _ = within._at_top(rule) if enclosing else sums.identity(sums.frozen(rule))
        (first,) = identities._parts(relation.lhs)  # type: ignore[arg-type]
        left = identities._full(*first, {f"#{first[0].bound}": identities.U,
                                         f"#{first[1].bound}": identities.V})
        assert any(identities._full(*o, {f"#{o[0].bound}": identities.V,
                                         f"#{o[1].bound}": identities.U}) == left
                   for o in identities._parts(relation.rhs)), relation.text  # type: ignore[arg-type]
        swapped += 1
    assert swapped == 67  # of the 72 (at the top and inside a sum), each checked above


@needs_coqc
@pytest.mark.parametrize("variants", [
    FALSE_MOVES[:1], pytest.param(FALSE_MOVES, marks=pytest.mark.slow, id="all")])
def test_moved_canonical_forms_compile_and_false_variants_do_not(
        tmp_path: Path, variants: tuple[tuple[str, str, str], ...]) -> None:
    """The first false variant in every run, all with `-m slow` (each is a coqc run)."""
    results, text = _export(tmp_path, compile=True)
    assert results == dict.fromkeys(STEPS, "checked")
    assert compile_inner_product(tmp_path, COQC).returncode == 0  # type: ignore[arg-type]
    try:
        assert coqc_compiles(tmp_path, "moves.v", text, COQC)  # type: ignore[arg-type]
        for what, old, new in variants:
            assert text.count(old) == 1, what
            assert not coqc_compiles(tmp_path, "moves.v", text.replace(old, new),
                                     COQC), what  # type: ignore[arg-type]
    finally:
        (tmp_path / "moves.v").write_text(text)
