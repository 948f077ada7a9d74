"""Vectors an equality says have norm zero (`sos.zero_norm_vectors`, the strategy `vectors of
norm zero`): two runs, one with step size eta, stay proportional, `norm2(w2 - eta*w1) ==
0`, and a student concludes `dot(w2, x) == eta*dot(w1, x)`. It was unknown on main (fc981b9)
at every budget without the hint `w2 - eta*w1`: the pools hold Gram minors of names and of
hints only. The vector is read off the equality (only a hypothesis that is exactly such a
norm gives one) and nothing about it is believed: the kernel expands its minors itself."""

from __future__ import annotations

import pytest
import sympy
from cases import judgement

from proofs.language.expressions import Names
from proofs.language.terms import Vec
from proofs.proof_file import parse_proof
from verify.proof_checker import check_proof
from verify.search.polynomials import Context
from verify.search.sos import zero_norm_vectors

FILE = b'''
title = "proportional runs"
vectors = ["w1", "w2", "x"]
scalars = ["eta", "y"]

[[step]]
id = "scores"
given = ["norm2(w2 - eta*w1) == 0"]
claim = "dot(w2, x) == eta*dot(w1, x)"

[[step]]
id = "scores-unscaled"
given = ["norm2(w2 - eta*w1) == 0"]
claim = "dot(w2, x) == dot(w1, x)"

[[step]]
id = "scores-written-twice"
given = ["2*norm2(w2) - 4*eta*dot(w1, w2) + 2*eta**2*norm2(w1) == 0"]
claim = "dot(w2, x) <= eta*dot(w1, x)"
'''


def test_proportional_runs_have_proportional_scores() -> None:
    report = {s.step.id: s for s in check_proof(parse_proof(FILE, "runs.toml")).steps}
    assert report["scores"].status == "proved", report["scores"].message
    assert report["scores"].message.count("by vectors of norm zero") == 2  # each half
    assert report["scores-written-twice"].status == "proved"
    assert report["scores-unscaled"].status == "refuted"


def pool(given: str) -> list[Vec]:
    names = Names(vectors=frozenset({"w1", "w2", "x"}), scalars=frozenset({"eta", "c"}))
    stated = judgement((given,), "dot(w2, x) <= eta*dot(w1, x)", names, ("w1", "w2", "x"),
                       ("eta", "c"))
    return zero_norm_vectors(Context(stated))


eta = sympy.Symbol("eta")


@pytest.mark.parametrize(("given", "found"), [
    ("norm2(w2 - eta*w1) == 0", [Vec({"w1": -eta, "w2": 1})]),
    ("3*norm2(eta*w1 - w2) == 0", [Vec({"w1": -eta, "w2": 1})]),  # a positive factor
    ("norm2(w1 + w2 + x) == 0", [Vec({"w1": 1, "w2": 1, "x": 1})]),
])
def test_a_norm_of_a_combination_is_read_off_the_equality(given: str, found: list[Vec]) -> None:
    assert pool(given) == found


@pytest.mark.parametrize("given", [
    "norm2(w1) + norm2(w2) == 0",  # two norms, no combination's
    "norm2(w1 - w2) - 1 == 0",  # a term without a vector
    "norm2(w2) == 0",  # one name: its minors are in the pool already
    "dot(w1, w2) == 0",  # no diagonal
    "norm2(w2 - eta*w1) + c*dot(w1, w2) == 0",  # not rank one
    "-norm2(w2 - eta*w1) == 0",  # a negative factor: no pivot (and the same zero set)
    "norm2(w2)*norm2(w1) == 0",  # not a quadratic form
])
def test_other_equalities_give_no_vector(given: str) -> None:
    assert pool(given) == []
