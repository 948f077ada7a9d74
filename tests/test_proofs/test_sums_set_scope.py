"""Red team of sums in the language: a declared set's `where` is read where the set is
declared (its names are the file's), never in the scope of the sum that uses it.

FOUND: `sum(k in 1..N, sum(l in M, ...))` with M = {j in 1..N : y[j] >= k} read M's free k
as the enclosing sum's index (dynamic scope), so a file whose claim is false as written,
with k the file's scalar (given k == 0), came out proved: `capture` below.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from proofs.language.expressions import IndexSet, parse_scalar
from proofs.proof_file import parse_proof
from proofs.step import declare
from verify.kernel import atoms
from verify.kernel.atoms import World, family, finite_sum
from verify.proof_checker import check_proof

j, k, N = (sympy.Symbol(s) for s in ("j", "k", "N"))
NAMES = declare([], ["y", "N", "k", "l"], ["y"], {"M": IndexSet("j", "1", "N", ("y[j] >= k",))})

CAPTURE = b'''
title = "the set's k is the file's k, not the enclosing sum's"
scalars = ["y", "N", "k", "l"]
naturals = ["N"]
indexed = ["y"]

[sets.M]
index = "j"
range = "1..N"
where = ["y[j] >= k"]

[[step]]
id = "member"
given = ["k >= 1", "k <= N", "l >= 1", "l <= N", "y[l] >= k"]
claim = "y[l] - k >= 0"

[[step]]
id = "double"
given = ["k == 0"]
claim = "sum(k in 1..N, sum(l in M, y[l] - k)) >= 0"
uses = [{ step = "member", sum = ["l in M", "k in 1..N"] }]
'''


def test_a_set_read_inside_a_sum_keeps_its_own_names() -> None:
    """Inside sum(k in 1..N, ...), M's k is still the file's k: M does not depend on the
    enclosing index, so the inner sum is the same for every k and factors out."""
    inner = finite_sum(j, sympy.Integer(1), N, [(family("y", j) - k, ">=")], family("y", j))
    read = atoms.canonical(parse_scalar("sum(k in 1..N, sum(l in M, y[l]))", NAMES))
    assert read == inner * finite_sum(j, sympy.Integer(1), N, [], sympy.Integer(1))


def test_a_false_claim_through_a_captured_set_is_not_proved() -> None:
    """`double` is false as written: with k == 0 and N = 1, y[1] = 0, M = {1} and the sum is
    y[1] - 1 = -1. Before the fix the set's k was read as the outer index, making every term
    y[l] - k >= 0 a member's fact, and the step came out proved."""
    claim = parse_scalar("sum(k in 1..N, sum(l in M, y[l] - k))", NAMES)
    point = World({"k": Fraction(0), "N": Fraction(1)}, {}, {"y": {Fraction(1): Fraction(0)}}, 1)
    assert point.of(atoms.canonical(claim)) == -1
    report = check_proof(parse_proof(CAPTURE, "capture.toml"))
    verdicts = {step.step.id: step.status for step in report.steps}
    assert verdicts["member"] == "proved"
    assert verdicts["double"] == "refuted"
