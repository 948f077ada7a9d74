"""Term-wise facts for sums whose claim weights them by scalars, and for claims not linear in
them (gaps35: the seeds' sums over filtered sets as students write them).

`dot(ts, sum(j in G, y[j]*x[j])) >= g*sum(j in G, 1)` (the margin summed over the mistakes,
Telgarsky's `<w_t, u> >= gamma |M_t|`) was unknown: the combination of its two sums has the
coefficient `g`, and the checker proposed combinations with rational coefficients only. The
same held for the radius summed (`R2*sum(j in B, 1)`), the averaged perceptron's progress,
the voted perceptron's weights and the kernel perceptron's score (an equality, whose lemma
must be `== 0`). A claim not linear in its sums (`S1**2 >= g**2*S2**2`) got no combination
at all: the set's own filter, summed, is the fact it needs. Each true step here was unknown
on main (fc981b9) and is proved; each false twin is never proved."""

from __future__ import annotations

import pytest

import verify.proof_checker as checker
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof
from verify.search.sums import termwise
from verify.search.work import BUDGETS

HEAD = b'''
title = "coefficients"
vectors = ["x", "u", "th", "ts", "z", "w"]
scalars = ["y", "R2", "g", "eta", "N", "T", "K", "c"]
naturals = ["N", "T"]
indexed = ["x", "y", "K", "w", "c"]

[sets]
G = { index = "j", range = "1..N", where = ["y[j]*dot(ts, x[j]) >= g"] }
B = { index = "j", range = "1..N", where = ["y[j]*dot(ts, x[j]) >= g", "norm2(x[j]) <= R2"] }
W = { index = "k", range = "1..T", where = ["dot(w[k], u) >= g*k"] }
Q = { index = "j", range = "1..N", where = ["K[j] == dot(x[j], z)"] }
P = { index = "j", range = "1..N", where = ["c[j] >= 0", "dot(w[j], u) >= g"] }
'''

TRUE = {
    "margin-sum": ('claim = "dot(ts, sum(j in G, y[j]*x[j])) >= g*sum(j in G, 1)"',
                   "dot(ts, x[i])*y[i] - g >= 0 summed over i in G"),
    "margin-sum-written": ('claim = "sum(j in G, y[j]*dot(ts, x[j])) >= sum(j in G, g)"',
                           "dot(ts, x[i])*y[i] - g >= 0 summed over i in G"),
    "margin-sum-rate": ('given = ["eta > 0"]\n'
                        'claim = "dot(ts, sum(j in G, eta*y[j]*x[j])) >= eta*g*sum(j in G, 1)"',
                        "dot(ts, x[i])*eta*y[i] - eta*g >= 0 summed over i in G"),
    "radius-sum": ('claim = "sum(j in B, norm2(x[j])) <= R2*sum(j in B, 1)"',
                   "R2 - dot(x[i], x[i]) >= 0 summed over i in B"),
    "averaged-progress": ('claim = "dot(sum(k in W, w[k]), u) >= g*sum(k in W, k)"',
                          "dot(u, w[i]) - g*i >= 0 summed over i in W"),
    "kernel-score": ('claim = "sum(j in Q, y[j]*K[j]) == dot(sum(j in Q, y[j]*x[j]), z)"',
                     "K[i]*y[i] - dot(x[i], z)*y[i] == 0 summed over i in Q"),
    "voted-weights": ('claim = "dot(sum(j in P, c[j]*w[j]), u) >= g*sum(j in P, c[j])"',
                      "c[i]*dot(u, w[i]) - c[i]*g >= 0 summed over i in P"),
}

FALSE = {
    "margin-sum-doubled": 'claim = "dot(ts, sum(j in G, y[j]*x[j])) >= 2*g*sum(j in G, 1)"',
    "margin-sum-rate-unsigned": (
        'claim = "dot(ts, sum(j in G, eta*y[j]*x[j])) >= eta*g*sum(j in G, 1)"'),
    "radius-not-counted": 'claim = "sum(j in B, norm2(x[j])) <= R2"',
    "averaged-one-ahead": 'claim = "dot(sum(k in W, w[k]), u) >= g*sum(k in W, k + 1)"',
    "kernel-score-no-label": 'claim = "sum(j in Q, K[j]) == dot(sum(j in Q, y[j]*x[j]), z)"',
    "voted-unweighted": 'claim = "dot(sum(j in P, c[j]*w[j]), u) >= g*sum(j in P, 1)"',
}


def one(body: str, budget: str = "small") -> checker.StepReport:
    proof = parse_proof(HEAD + f'\n[[step]]\nid = "s"\n{body}\n'.encode(), "coefficients.toml")
    return check_proof(proof, store=None, budget=BUDGETS[budget]).steps[0]


QUICK = ("kernel-score", "margin-sum")  # the others under `slow`: the suite stays short


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in QUICK else (pytest.mark.slow,))
                                  for n in sorted(TRUE)])
def test_sums_weighted_by_scalars_are_proved_by_the_combination_found(name: str) -> None:
    body, fact = TRUE[name]
    report = one(body)
    assert report.status == "proved", report.message
    assert f"term-wise facts found and proved: {fact} (s-termwise-1)" in report.message
    assert all(r.status == "proved" for r in report.termwise)


@pytest.mark.parametrize("name", sorted(FALSE))
def test_their_false_twins_are_never_proved(name: str) -> None:
    assert one(FALSE[name]).status != "proved"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FALSE))
def test_their_false_twins_stay_unproved_when_the_lemmas_are_tried(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the concrete sets (which refute most of them first) every lemma is tried on
    the twins, the combination with a scalar coefficient too: none makes them proved."""
    monkeypatch.setattr(checker, "_on_sets", lambda *args, **kwargs: None)
    assert one(FALSE[name]).status != "proved"


def lemmas_of(body: str) -> list[termwise.Lemma]:
    proof = parse_proof(HEAD + f'\n[[step]]\nid = "s"\n{body}\n'.encode(), "coefficients.toml")
    stated = checker.kernel.state(checker.sequent(proof, proof.steps[0], []))
    index = termwise.fresh_index(proof)
    assert index is not None
    return list(termwise.lemmas(proof, proof.steps[0], stated.obligations,  # type: ignore[arg-type]
                                index, checker.over)[1])


def test_a_coefficient_reading_a_sum_is_not_moved_into_a_body() -> None:
    """`sum(j in G, 1)*sum(j in G, g)` is no combination with a coefficient free of sums:
    only the filter's lemma and the bodies' are proposed, never a body holding a sum."""
    shown = [lemma.shown for lemma in lemmas_of(
        'claim = "dot(ts, sum(j in G, y[j]*x[j]))*sum(j in G, 1) >= '
        'sum(j in G, 1)*sum(j in G, g)"')]
    assert shown[0] == "dot(ts, x[i])*y[i] - g >= 0 summed over i in G"
    assert all("sum(" not in s.split(" summed")[0] for s in shown)


def test_a_claim_not_linear_in_its_sums_gets_the_sets_filters_first() -> None:
    """The filter's lemma covers no sum (`Lemma.covers`): the bodies' lemmas still follow,
    so the count's `1 >= 0` is there to be proved beside it."""
    found = lemmas_of('given = ["g > 0"]\n'
                      'claim = "dot(ts, sum(j in G, y[j]*x[j]))**2 >= g**2*sum(j in G, 1)**2"')
    assert [(lemma.shown, lemma.covers) for lemma in found][:2] == [
        ("dot(ts, x[i])*y[i] - g >= 0 summed over i in G", False),
        ("1 >= 0 summed over i in G", True)]


def test_a_claim_linear_in_one_sum_gets_no_filter_lemma() -> None:
    """Where the claim is linear in its sums the combination (or the body) is the lemma, as
    before: the filters are proposed only where no combination can be."""
    found = lemmas_of('claim = "sum(j in G, y[j]*dot(ts, x[j])) >= 0"')
    assert all(lemma.covers for lemma in found)


@pytest.mark.slow
def test_the_margin_count_squared_is_proved_with_the_filter_summed() -> None:
    """Chan's `(sum gamma)**2` read with the mistakes' set: `<ts, xbar>**2 >= g**2*|M|**2`."""
    report = one('given = ["g > 0"]\n'
                 'claim = "dot(ts, sum(j in G, y[j]*x[j]))**2 >= g**2*sum(j in G, 1)**2"',
                 "default")
    assert report.status == "proved", report.message
    assert ("term-wise facts found and proved: dot(ts, x[i])*y[i] - g >= 0 summed over i in G "
            "(s-termwise-1); 1 >= 0 summed over i in G") in report.message
