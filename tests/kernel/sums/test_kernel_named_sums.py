"""A sum of vectors named as a fresh vector (`sums.VectorSum`, `Sequent.named`): its inner
products, read by bilinearity, become hypotheses of the step's obligations, so that
`norm2(th - sum(j in 1..k, y[j]*x[j])) >= 0` is a square. Each refusal is an attack on the
freshness the definition needs (a name the step reads, declares or another sum reads, an
induction's moving sums, a bound that is not natural); the false claims must stay unproved
whatever certificate is offered."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sequents import evidence, proved, rel, sequents

from verify import kernel
from verify.kernel import (
    Certificate,
    Induction,
    KernelError,
    NormSquare,
    Product,
    RuleError,
    VectorSum,
    atoms,
    gram,
)
from verify.kernel.sums import definitions, frozen_sum

j, k, a = sympy.Symbol("j"), sympy.Symbol("k"), sympy.Symbol("a")
ONE = sympy.Integer(1)
X_J, Y_J = atoms.vector_name("x", j), atoms.family("y", j)
S = VectorSum("S1", "j", ONE, k, (), ((X_J, Y_J),))  # sum(j in 1..k, y[j]*x[j])
POSITIVE = VectorSum("S2", "j", ONE, k, ((Y_J, ">="), ), ((X_J, ONE), ("th", Y_J)))
sequent = sequents(frozenset({"th", "x"}), frozenset({"k", "y", "a"}))
NATURAL = frozenset({"k"})


def reading(s: VectorSum, w: str) -> sympy.Expr:
    """`<s, w>` as the kernel reads it (the fact's other side)."""
    fact = definitions((s,), {w} - {s.name})[-1 if w == s.name else 0]
    return sympy.expand(gram(s.name, w) - fact.expr)


TH_S, S_S = reading(S, "th"), reading(S, "S1")
SQUARE = rel(gram("th", "th") - 2 * TH_S + S_S, ">=")  # norm2(th - S) >= 0, S read out


def named(claim: kernel.Rel, *sums: VectorSum, rule: object = None) -> kernel.Sequent:
    seq = sequent((), claim, rule, naturals=NATURAL)
    return kernel.Sequent(seq.step, seq.vectors, seq.scalars, seq.hypotheses, seq.claim,
                          seq.rule, seq.uses, seq.naturals, seq.witness, named=sums)


def test_the_facts_read_the_sum_by_bilinearity() -> None:
    assert str(TH_S) == "sum(#1 in 1..k: <th,x[#1]>*y[#1])"
    assert str(S_S) == "sum(#2 in 1..k: sum(#1 in 1..k: <x[#1],x[#2]>*y[#1])*y[#2])"


def test_a_named_sum_makes_its_square_a_certificate() -> None:
    assert evidence(named(SQUARE)) == [None]  # not without the name
    assert evidence(named(SQUARE, S)) != [None]  # found with it
    theorem = proved(named(SQUARE, S))
    assert "S1" not in str(theorem.statement)  # the name is the proof's, not the claim's


def test_two_named_sums_with_a_filter_and_a_plain_vector_in_the_body() -> None:
    """norm2(S1 - S2) >= 0: the facts pair every named sum with every other, itself too."""
    s2 = reading(POSITIVE, "S2")
    pair = definitions((S, POSITIVE), set())[1]  # <S1, S2>
    cross = sympy.expand(gram("S1", "S2") - pair.expr)
    theorem = proved(named(rel(S_S - 2 * cross + s2, ">="), S, POSITIVE))
    assert "S2" not in str(theorem.statement)


def test_a_wrong_certificate_with_the_facts_is_refused() -> None:
    """`norm2(S) >= <th,th>` is false; a certificate offering the square of S with the fact
    of <S,S> does not make the identity hold."""
    false = named(rel(S_S - gram("th", "th"), ">="), S)
    ob = kernel.obligations(false)[0]
    fact = next(i for i, o in enumerate(ob.origins) if o == "named" and "S1,S1" in str(
        ob.judgement.hypotheses[i].expr))
    bogus = Certificate((Product(Fraction(1), (), (NormSquare(Fraction(1), {"S1": ONE}),)),),
                        ((fact, -ONE),))
    with pytest.raises(KernelError, match="identity fails"):
        kernel.conclude(false, [(ob.judgement, bogus)], [])
    assert evidence(false) == [None]


@pytest.mark.parametrize(("make", "why"), [
    (lambda: named(SQUARE, S, S), "given once"),
    (lambda: named(SQUARE, VectorSum("th", "j", ONE, k, (), ((X_J, Y_J),))), "declared"),
    (lambda: named(SQUARE, S, VectorSum("S2", "j", ONE, k, (), (("S1", ONE),))),
     "read by no named sum"),
    (lambda: named(rel(gram("S1", "th"), ">="), S), "a name the step reads"),
    (lambda: named(SQUARE, VectorSum("S1", "j", ONE, a, (), ((X_J, Y_J),))), "not natural"),
    (lambda: named(rel(gram("th", "th"), ">="), S, rule=Induction(
        "k", {"th": {}}, {"th": {"th": ONE}})), "direct or case step"),
])
def test_a_name_that_is_not_fresh_is_refused(make: object, why: str) -> None:
    with pytest.raises(RuleError, match=why):
        kernel.obligations(make())  # type: ignore[operator]


@pytest.mark.parametrize("bad", [
    ("S1", "j", ONE, k, (), ()),  # no body
    ("1S", "j", ONE, k, (), ((X_J, Y_J),)),  # not an identifier
    ("S1", "j", ONE, k, (), (("S1", Y_J),)),  # reads its own name
    ("S1", "j", ONE, k, (), ((X_J, sympy.Symbol("#~0")),)),  # a bound index free in it
    ("S1", "j", ONE, j, (), ((X_J, Y_J),)),  # its bound reads its index
    ("S1", "j", ONE, k, ((Y_J, "<"),), ((X_J, Y_J),)),  # no such filter kind
    # rtnamed F1: parts read unchecked (a TypeError, a ValueError, an endless iterable)
    ("S1", "j", ONE, k, (5,), ((X_J, Y_J),)),
    ("S1", "j", ONE, k, ((Y_J, ">=", 0),), ((X_J, Y_J),)),
    ("S1", "j", ONE, k, (), ((X_J,),)),
    ("S1", "j", ONE, k, (iter([Y_J, ">="]),), ((X_J, Y_J),)),
    # rtnamed F3: facts of two wide sums passed Python's recursion limit (9 members here)
    ("S1", "j", ONE, k, (), tuple((atoms.vector_name("x", j + m), ONE) for m in range(9))),
])
def test_a_malformed_vector_sum_is_refused(bad: tuple) -> None:
    with pytest.raises(KernelError):
        frozen_sum(VectorSum(*bad))
    with pytest.raises(KernelError, match="must be a VectorSum"):
        frozen_sum(bad)
