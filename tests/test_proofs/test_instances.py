"""An instance of a step that itself uses other steps (issue 27, item 7): read as a
specialised copy that the kernel proves again (proofs.instances)."""

from __future__ import annotations

import pytest

from proofs.errors import ProofFileError
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof, statements

LEMMA = """title = "An instance of a step that uses another"
vectors = ["w", "u", "a", "b"]
scalars = ["r"]

[[step]]
id = "cs"
claim = "dot(a, b)**2 <= norm2(a)*norm2(b)"

[[step]]
id = "cs-unit"
given = ["norm2(b) == 1"]
uses = ["cs"]
claim = "dot(a, b)**2 <= norm2(a)"

[[step]]
id = "projection"
given = ["norm2(u) == 1"]
uses = [{ step = "cs-unit", with = { a = "w", b = "u" } }]
claim = "dot(w, u)**2 <= norm2(w)"

[[step]]
id = "cs-unit-sum"
given = ["norm2(b) == 1"]
uses = [{ step = "cs-unit", with = { a = "a + b" } }]
claim = "dot(a + b, b)**2 <= norm2(a + b)"

[[step]]
id = "projection-sum"
given = ["norm2(u) == 1"]
uses = [{ step = "cs-unit-sum", with = { a = "r*w", b = "u" } }]
claim = "dot(r*w + u, u)**2 <= norm2(r*w + u)"
"""

COPY_FAILS = """title = "A copy proved again"
scalars = ["a", "r"]

[[step]]
id = "square"
claim = "a**2 >= 0"

[[step]]
id = "nonnegative"
uses = ["square"]
claim = "a >= 0"

[[step]]
id = "square-nonnegative"
uses = [{ step = "nonnegative", with = { a = "r**2" } }]
claim = "r**2 >= 0"

[[step]]
id = "any-nonnegative"
uses = [{ step = "nonnegative", with = { a = "r" } }]
claim = "r >= 0"
"""


def test_an_instance_of_a_step_with_uses_is_proved() -> None:
    proof = parse_proof(LEMMA.encode(), "lemma.toml")
    report = check_proof(proof)
    assert report.status == "proved", [(s.step.id, s.message) for s in report.steps]
    assert [s.id for s in proof.steps] == [
        "cs", "cs-unit", "cs-unit--with-1", "projection", "cs-unit--with-2", "cs-unit-sum",
        "cs-unit--with-2--with-1", "cs-unit-sum--with-1", "projection-sum"]


def test_no_instance_of_a_statement_with_inherited_hypotheses_reaches_the_kernel() -> None:
    proof = parse_proof(LEMMA.encode(), "lemma.toml")
    for step in proof.steps:
        for use in step.uses:
            assert not (use.with_ and proof.step(use.step).uses), (step.id, str(use))


def test_the_statement_shows_the_substituted_inherited_hypotheses() -> None:
    report = check_proof(parse_proof(LEMMA.encode(), "lemma.toml"))
    projection = next(s for s in report.steps if s.step.id == "projection")
    stated = str(projection.statement)
    assert "dot(a, b)**2 <= norm2(a)*norm2(b) [a := w, b := u] [cs-unit--with-1]" in stated
    assert "dot(w, u) ** 2 <= norm2(w) [cs-unit--with-1]" in stated
    copy = next(s for s in report.steps if s.step.id == "cs-unit--with-1")
    assert copy.step.note.startswith("the instance a := w, b := u of step cs-unit")


def test_instances_compose_through_copies() -> None:
    """cs-unit-sum uses cs-unit with a := a + b (a copy: cs-unit uses cs); its instance
    a := r*w, b := u uses that copy's instance, which uses cs with a := r*w + u, b := u."""
    proof = parse_proof(LEMMA.encode(), "lemma.toml")
    assert [str(u) for u in proof.step("cs-unit-sum").uses] == ["cs-unit--with-2"]
    assert [str(u) for u in proof.step("cs-unit-sum--with-1").uses] == [
        "cs-unit--with-2--with-1"]
    inner = proof.step("cs-unit--with-2--with-1")
    assert inner.claim.text == "dot(r * w + u, u) ** 2 <= norm2(r * w + u)"
    assert [str(u) for u in inner.uses] == ["cs with a := r * w + u, b := u"]  # as substituted


def test_the_copy_is_proved_again_and_a_failing_one_is_named() -> None:
    """nonnegative is false, its instance a := r**2 true: the copy is proved on its own; the
    instance a := r is refuted, and the step using it stays unknown, naming it."""
    report = {s.step.id: s for s in check_proof(parse_proof(COPY_FAILS.encode(), "c.toml")).steps}
    assert report["nonnegative"].status == "refuted"
    assert report["nonnegative--with-1"].status == "proved"
    assert report["square-nonnegative"].status == "proved"
    assert report["nonnegative--with-2"].status == "refuted"
    assert report["any-nonnegative"].status == "unknown"
    assert "nonnegative--with-2" in report["any-nonnegative"].message


CAPTURE = """title = "capture by with"
scalars = ["y", "j", "N", "c", "d"]
naturals = ["N"]
indexed = ["y"]
[[step]]
id = "pre"
given = ["d >= 0"]
claim = "d >= 0"
[[step]]
id = "lin"
uses = ["pre"]
claim = "sum(j in 1..N, y[j]*c) == c*sum(j in 1..N, y[j])"
[[step]]
id = "use"
uses = [{ step = "lin", with = { c = "y[j]" } }]
given = ["d >= 0"]
claim = "sum(l in 1..N, y[l]*y[j]) == y[j]*sum(l in 1..N, y[l])"
"""


def test_a_copy_renames_a_sums_index_a_substituted_term_names() -> None:
    """Regression: `c := y[j]` was captured by the copy's `sum(j in ...)`, and the copy
    (`sum(j, y[j]*y[j]) == y[j]*sum(j, y[j])`, false) came out refuted as the instance."""
    proof = parse_proof(CAPTURE.encode(), "capture.toml")
    assert proof.step("lin--with-1").claim.text == (
        "sum(j_1 in 1..N, y[j_1] * y[j]) == y[j] * sum(j_2 in 1..N, y[j_2])")
    report = check_proof(proof)
    assert report.status == "proved", [(s.step.id, s.message) for s in report.steps]


NATURAL = """title = "a natural replaced"
scalars = ["t", "a", "d"]
naturals = ["t"{more}]
[[step]]
id = "pre"
given = ["d >= 0"]
claim = "d >= 0"
[[step]]
id = "l2"
uses = ["pre"]
claim = "t >= 0"
[[step]]
id = "u"
uses = [{{ step = "l2", with = {{ t = "{image}" }} }}]
given = ["d >= 0"]
claim = "{image} >= 0"
"""


def test_a_natural_replaced_by_a_real_name_is_not_copied_but_left_unknown() -> None:
    """Regression: the copy read `a >= 0` for a real `a` and was refuted as the instance of
    `t >= 0`; like the kernel's instance, it holds for natural a only (unknown until
    declared), and with a declared natural it is copied and proved."""
    proof = parse_proof(NATURAL.format(more="", image="a").encode(), "natural.toml")
    assert not any("--with-" in s.id for s in proof.steps)
    report = check_proof(proof)
    assert [s.status for s in report.steps] == ["proved", "proved", "unknown"]
    assert report.steps[-1].message == ("uses l2, which holds for natural a only; declare "
                                        "naturals = ['a'] to use it")
    declared = check_proof(parse_proof(NATURAL.format(more=', "a"', image="a").encode(),
                                       "natural.toml"))
    assert declared.status == "proved", [(s.step.id, s.message) for s in declared.steps]


def test_a_natural_replaced_by_a_term_is_refused_at_the_use() -> None:
    """Regression: `t := a - 1` was copied with `t` no longer natural, and refuted."""
    text = NATURAL.format(more="", image="a - 1")
    proof = parse_proof(text.encode(), "natural.toml")
    with pytest.raises(ProofFileError) as caught:
        check_proof(proof)
    located = caught.value.located("natural.toml", proof.origin)
    assert located.line_text() == ("natural.toml:13:1: step u: the natural t can be replaced "
                                   "by a name only")


def test_a_refusal_inside_a_copy_is_placed_at_the_use_it_serves() -> None:
    """Regression: a copy's refusal was placed at 1:1 under its generated id."""
    text = """title = "lemma over an induction"
vectors = ["w", "x", "v"]
scalars = ["t", "y", "R"]
naturals = ["t"]
[[step]]
id = "ind"
claim = "norm2(w) <= t*R**2"
[step.induction]
variable = "t"
base = { w = "0*w" }
step = { w = "w + y*x" }
given = ["y**2 == 1", "y*dot(w, x) <= 0", "norm2(x) <= R**2"]
constants = ["R"]
[[step]]
id = "l"
uses = ["ind"]
claim = "norm2(w) >= 0"
[[step]]
id = "u"
uses = [{ step = "l", with = { w = "v" } }]
claim = "norm2(v) >= 0"
"""
    proof = parse_proof(text.encode(), "indw.toml")
    with pytest.raises(ProofFileError) as caught:
        check_proof(proof)
    assert caught.value.located("indw.toml", proof.origin).line_text() == (
        "indw.toml:20:19: step u: uses l: its instance l--with-1 (a copy of l, proved again) "
        "is refused: only a statement free of runs and existentials can be instantiated")


SET = """title = "set by with"
scalars = ["y", "N", "c", "d", "e"]
naturals = ["N"]
indexed = ["y"]
[sets]
M = { index = "j", range = "1..N", where = ["y[j] >= c"] }
[[step]]
id = "pre"
given = ["e >= 0"]
claim = "e >= 0"
[[step]]
id = "lin"
uses = ["pre"]
claim = "sum(j in M, y[j] - c) >= 0"
[[step]]
id = "use"
uses = [{ step = "lin", with = { c = "d" } }]
given = ["e >= 0"]
claim = "sum(j in M, y[j] - d) >= 0"
"""


def test_a_name_a_summed_set_reads_is_replaced_by_the_kernel_not_a_copy() -> None:
    """Regression: the copy's `sum(j in M, y[j] - d)` still filtered on `c` (a set means
    what it is declared as), so it was no instance of `lin`, and came out refuted as one;
    the kernel's instance replaces `c` in the filter too."""
    proof = parse_proof(SET.encode(), "set.toml")
    assert [s.id for s in proof.steps] == ["pre", "lin", "use"]
    used = statements(proof)["use"]
    assert used is not None and used.origins[-1] == "lin"
    assert "where nonneg(-d + y[#1])" in str(used.hypotheses[-1].lhs)
    assert "c" not in {s.name for s in used.hypotheses[-1].lhs.free_symbols}


TERMWISE_COPY = """title = "An instance of a step proved by the term-wise rule"
scalars = ["y", "c", "d", "j", "N", "K"]
naturals = ["N", "K"]
indexed = ["y"]

[[step]]
id = "member"
given = ["c >= 0"]
claim = "c*y[j]**2 >= 0"

[[step]]
id = "sum"
claim = "c*sum(j in 1..N, y[j]**2) >= 0"
uses = [{ step = "member", sum = "j in 1..N" }]

[[step]]
id = "copy"
given = ["d >= 0"]
claim = "d*sum(j in 1..N, y[j]**2) >= 0"
uses = [{ step = "sum", with = { c = "d" } }]

[[step]]
id = "copy-claims-more"
given = ["d >= 0"]
claim = "d*sum(j in 1..N, y[j]**2) >= 1"
uses = [{ step = "sum", with = { c = "d" } }]

[[step]]
id = "copy-names-the-index"
claim = "y[j]*sum(j in 1..N, y[j]**2) >= 0"
uses = [{ step = "sum", with = { c = "y[j]" } }]

[[step]]
id = "copy-moves-the-range"
given = ["c >= 0"]
claim = "c*sum(j in 1..K, y[j]**2) >= 0"
uses = [{ step = "sum", with = { N = "K" } }]
"""


def test_an_instance_of_a_term_wise_step_is_proved_by_a_summed_copy() -> None:
    """Regression: a `with` copy of a step proved by the term-wise rule came back unknown
    (the copy's use of `member` lost its `sum`, so the copy had no sum to prove from). The
    copy now uses `member`'s copy summed over the same range: each proved again by the
    kernel, the summation its term-wise rule. Where the summation cannot be carried (a term
    naming the index) the copy has no summed use: it is proved only by the term-wise fact
    the checker finds itself (`sum(y[i]**2) >= 0`), its statement keeping the instance's
    `c >= 0 [c := y[j]]` that makes it true; a claim beyond the instance is not proved. A
    replaced bound moves the range the copy sums over."""
    proof = parse_proof(TERMWISE_COPY.encode(), "termwise-copy.toml")
    report = check_proof(proof, store=None)
    found = {s.step.id: s for s in report.steps}
    assert found["copy"].status == "proved"
    assert found["member--with-1"].status == found["sum--with-1"].status == "proved"
    summed = [u for u in found["sum--with-1"].step.uses]
    assert [(u.step, u.over, u.with_) for u in summed] == [("member--with-1", "j in 1..N", ())]
    assert "a copy sums it term-wise" in found["member--with-1"].step.note
    assert [str(h) for h in found["member--with-1"].step.hypotheses] == ["d >= 0"]
    assert found["copy-claims-more"].status != "proved"
    named = found["sum--with-2"]  # c := y[j]: member's copy could not be summed
    assert [(u.step, u.over) for u in named.step.uses] == [
        ("member", ""), ("sum--with-2-termwise-1", "i in 1..N")]  # the second found
    assert [r.step.claim.text for r in named.termwise] == ["y[i]**2 >= 0"]
    assert named.statement is not None and "c >= 0 [c := y[j]]" in [
        h.text for h in named.statement.hypotheses]  # y[j] >= 0: the claim holds
    assert found["copy-names-the-index"].status == "proved"
    # a bound replaced: `member` (which reads no N) summed over the range moved with it
    assert found["copy-moves-the-range"].status == "proved"
    moved = found["sum--with-3"].step
    assert "N := K" in moved.note
    assert [(u.step, u.over) for u in moved.uses] == [("member", "j in 1..K")]
    copies = [s for s in found if s.startswith("member--with")]
    assert copies == ["member--with-1"]  # c := y[j] makes no summed copy


def test_a_copy_of_a_term_wise_step_keeps_the_members_hypotheses_summed() -> None:
    """Red-team finding (false proved): a copy dropped its use's `sum`, so the member
    step's hypotheses about one free `j` (`j >= 1`, `j <= N`, forcing N >= 1) came in
    plain, and `d >= 0 |- d*N >= d`, false at N = 0, d = 1, was proved through an
    instance of a true step; the copy of a refuted step gave a proved one too."""
    head = '''
title = "every step proved, one false as written"
scalars = ["y", "N", "j", "c", "d"]
naturals = ["N"]
indexed = ["y"]
[[step]]
id = "member"
given = ["j >= 1", "j <= N"]
claim = "y[j]**2 >= 0"
[[step]]
id = "s"
given = ["c >= 0"]
claim = "CLAIM"
uses = [{ step = "member", sum = "j in 1..N" }]
[[step]]
id = "t"
given = ["d >= 0"]
claim = "d*N >= d"
uses = [{ step = "s", with = { c = "d" } }]
'''
    for claim, s_status in (
            ("c*N + c*sum(j in 1..N, y[j]**2) >= c*sum(j in 1..N, y[j]**2)", "proved"),
            ("c*N >= c", "refuted")):
        proof = parse_proof(head.replace("CLAIM", claim).encode(), "copy.toml")
        found = {s.step.id: s for s in check_proof(proof, store=None).steps}
        assert found["s"].status == s_status, found["s"].message
        assert found["t"].status != "proved", found["t"].message
