"""A set's filter at `j + c` (c a scalar) in a term-wise sum, in Coq (red team 12, finding A).

The kernel names a canonical sum's index `#k`, which prints before every other name, and the
raw sum's index by its own name (`j`), which may print after `c`: the canonical filter
prints `ind_ge (a (x + c))` at a point, the raw one `ind_ge (a (c + x))`. The replay made one
the other by `f_equal; ip_canon; ring`, which leaves `a (x + c) = a (c + x)`: two unknowns
to `ring`, so coqc said "No applicable tactic" for a kernel-proved step
(`sum(j in P, a[j+c]) >= 0` from `a[j+c] >= 0` for each member; `a[c+j]` alike, `a[j+1]`
was fine). Now each family member of the filter printed in another order is read as the raw
sum's first (`replace` by `identities.CLOSE`, as the body's members are), then `ring`.
coqc accepts the steps and rejects false variants of their statements: one in every run,
all with `-m slow` (each is a coqc run). Compiling skips without coqc."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from coq_preamble import compile_inner_product
from coq_preamble import compiles as coqc_compiles

from proofs.proof_file import parse_proof
from verify.coq import NOT_RUN, export_and_check
from verify.proof_checker import check_proof
from verify.search.work import BUDGETS

pytestmark = pytest.mark.usefixtures("preamble_once")
COQC = shutil.which("coqc")
needs_coqc = pytest.mark.skipif(COQC is None, reason="coqc is not on PATH")

ORDER = b'''
title = "member order"
scalars = ["a", "b", "n", "c", "j", "l", "K"]
naturals = ["n", "K"]
indexed = ["a", "b"]

[sets]
P = { index = "j", range = "1..n", where = ["a[j+c] >= 0"] }
Q = { index = "j", range = "1..n", where = ["a[c+j] >= 0", "b[c+j] >= a[j+c]"] }
S = { index = "l", range = "1..K", where = ["b[c+l] >= 0"] }

[[step]]
id = "member-p"
given = ["j >= 1", "j <= n", "a[j+c] >= 0"]
claim = "a[j+c] >= 0"

[[step]]
id = "sum-p"
claim = "sum(j in P, a[j+c]) >= 0"
uses = [{ step = "member-p", sum = "j in P" }]

[[step]]
id = "member-q"
given = ["j >= 1", "j <= n", "a[c+j] >= 0", "b[c+j] >= a[j+c]"]
claim = "b[j+c] >= 0"

[[step]]
id = "sum-q"
claim = "sum(j in Q, b[c+j]) >= 0"
uses = [{ step = "member-q", sum = "j in Q" }]

# two levels, each set filtered at its index plus c
[[step]]
id = "member-two"
given = ["j >= 1", "j <= n", "a[j+c] >= 0", "l >= 1", "l <= K", "b[c+l] >= 0"]
claim = "a[j+c]*b[l+c] >= 0"

[[step]]
id = "sum-two"
claim = "sum(j in P, a[c+j]*sum(l in S, b[l+c])) >= 0"
uses = [{ step = "member-two", sum = ["l in S", "j in P"] }]
'''
STEPS = ("member-p", "sum-p", "member-q", "sum-q", "member-two", "sum-two")

#: False variants of order.v's statements (what each breaks, the text, its replacement):
#: coqc must reject each. Each text occurs once, in its theorem's statement.
FALSE_ORDER = (
    # the body one member further than the filter: false at n = 1, a(1 + c) = 0,
    # a(2 + c) = -1
    ("the summed member not the filtered one",
     "(fun j'1 => (ind_ge (a (j'1 + c))) * (a (j'1 + c)))) >= 0.\n",
     "(fun j'1 => (ind_ge (a (j'1 + c))) * (a (j'1 + c + 1)))) >= 0.\n"),
    # the filter b >= a dropped: false at n = 1, a(1 + c) = 0, b(1 + c) = -1
    ("a filter dropped",
     "(fun j'1 => (ind_ge ((- ((a (j'1 + c)))) + (b (j'1 + c)))) * (ind_ge (a (j'1 + c))) * "
     "(b (j'1 + c)))) >= 0.\n",
     "(fun j'1 => (ind_ge (a (j'1 + c))) * (b (j'1 + c)))) >= 0.\n"),
)


def _export(tmp_path: Path, compile: bool) -> tuple[dict[str, str], str]:
    proof = parse_proof(ORDER, "order.toml")
    report = check_proof(proof, store=None, budget=BUDGETS["small"])
    assert {s.step.id: s.status for s in report.steps} == dict.fromkeys(STEPS, "proved")
    run = export_and_check(tmp_path, [("order", proof, list(report.steps))], compile=compile)
    return run.for_proof("order"), (tmp_path / "order.v").read_text()


def test_a_filter_member_printed_in_another_order_is_read_as_the_raw_sums(
        tmp_path: Path) -> None:
    """The canonical filter's member is made the raw one's inside the indicator's `replace`
    (the regression: `by (f_equal; ip_canon; ring)`, which cannot close it)."""
    results, text = _export(tmp_path, compile=False)
    assert results == dict.fromkeys(STEPS, NOT_RUN)
    # the filter as the statement prints it (the canonical sum) and as the premise does
    # (asserted in the proof, derived from member-p's theorem)
    assert "(fun j'1 => (ind_ge (a (j'1 + c))) * (a (j'1 + c)))) >= 0." in text
    assert "-> (a (c + (IZR z'0))) >= 0 -> (a (c + (IZR z'0))) >= 0))." in text
    # sum-p's filter; sum-q's two filters (the second has two members read first);
    # sum-two's filter of P (S's, of b, at the inner level)
    assert text.count("by (f_equal; replace (a (x'") == 4
    assert text.count("by (f_equal; replace (b (x'") == 1
    assert "by (f_equal; ip_canon; ring)" not in text


def _compile(tmp_path: Path, variants: tuple[tuple[str, str, str], ...]) -> None:
    """order.v is `checked`, and each of `variants` (each text once in it) does not compile."""
    results, text = _export(tmp_path, compile=True)
    assert results == dict.fromkeys(STEPS, "checked")  # each claim at every member derived
    assert compile_inner_product(tmp_path, COQC).returncode == 0  # type: ignore[arg-type]
    try:
        for what, old, _ in FALSE_ORDER:
            assert text.count(old) == 1, what
        for what, old, new in variants:
            assert not coqc_compiles(tmp_path, "order.v", text.replace(old, new),
                                     COQC), what  # type: ignore[arg-type]
    finally:
        (tmp_path / "order.v").write_text(text)


@needs_coqc
@pytest.mark.slow  # the suite's 5 minutes: run by `-m slow` in .ci/run
def test_a_filter_at_j_plus_c_compiles_and_a_false_variant_does_not(tmp_path: Path) -> None:
    """Regression (red team 12, A): coqc rejected sum-p, sum-q and sum-two ("No applicable
    tactic")."""
    _compile(tmp_path, FALSE_ORDER[:1])


@pytest.mark.slow
@needs_coqc
def test_a_filter_at_j_plus_c_compiles_and_no_false_variant_does(tmp_path: Path) -> None:
    _compile(tmp_path, FALSE_ORDER)
