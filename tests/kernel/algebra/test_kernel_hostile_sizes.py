"""Hostile sizes through the kernel's API (red team kern33): every expansion and every exact
value the kernel makes is measured before it is made, so a small input is refused in bounded
time, one line, instead of hanging the process.

Before: a sum of products each under the term cap was expanded whole (200 products of 13
binomials over 26 names, 20 KB of text: 47 CPU-seconds, accepted; ten times as many took ten
times as long); a value was evaluated at a point however many bits it made (five nested
`(... + 1)**64` at x = 1: 2**(64**5) bits); and SymPy expanded a polynomial of any size where
the kernel reads one through `atoms` (a run's step `s := ((s + 1)**64 + 1)**64`, a family's
index in an instance: no answer within a minute).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from cases.sequents import rel, sequents

from verify import kernel
from verify.kernel import (
    Certificate,
    Counterexample,
    Fact,
    Induction,
    Judgement,
    KernelError,
    atoms,
)

x, s, t, j = sympy.symbols("x s t j")
sequent = sequents(frozenset(), frozenset({"x", "s", "t", "j"}))
a, b = sympy.symbols("a0:8"), sympy.symbols("b0:8")


def test_a_sum_of_products_past_the_term_cap_is_refused() -> None:
    """400 products of 8 binomials (256 terms each, 102 400 in all): each under the cap,
    their sum is not, and is refused as a power of a sum is."""
    products = [sympy.Mul(a[0] + k * b[0], *(a[i] + b[i] for i in range(1, 8)))
                for k in range(1, 401)]
    for many, why in [(400, "would expand to more than 100000 terms"), (300, "identity fails")]:
        with pytest.raises(KernelError, match=why):  # read in the ring, the claim not 0
            kernel.check_certificate(Judgement((), Fact(sympy.Add(*products[:many]), ">=")),
                                     Certificate(()))


def nested(levels: int) -> sympy.Expr:
    out = x
    for _ in range(levels):
        out = (out + 1) ** 64
    return out


def test_a_value_past_the_bit_cap_is_refused_at_a_point() -> None:
    """A counterexample's check evaluates exactly; a value of more than 2**18 bits is
    refused before it is made (a product's parts and a power's base are measured)."""
    at_one = Counterexample({"x": Fraction(1)}, {})
    kernel.check_counterexample(Judgement((), Fact(-nested(2), ">=")), at_one)  # 4 097 bits
    with pytest.raises(KernelError, match="more than 262144 bits"):
        kernel.check_counterexample(Judgement((), Fact(-nested(4), ">=")), at_one)
    wide = Counterexample({"x": Fraction(2**5000), "s": Fraction(3**3000)}, {})
    with pytest.raises(KernelError, match="more than 262144 bits"):  # 320 064 bits
        kernel.check_counterexample(Judgement((), Fact(-x**64, ">=")), wide)
    with pytest.raises(KernelError, match="more than 262144 bits"):  # 200 040 + 190 200
        kernel.check_counterexample(Judgement((), Fact(-x**40 * s**40, ">=")), wide)


@pytest.mark.parametrize("index", [
    sympy.Add(*sympy.symbols("c0:14")) ** 8,             # C(21, 8) = 203 490 terms
    sympy.Add(*sympy.symbols("c0:65")) ** 64,            # past any count worth making
    nested(2),
])
def test_a_polynomial_atoms_would_expand_past_the_cap_is_refused(index: sympy.Expr) -> None:
    """A family's index is written expanded (its canonical name): one that would expand
    past the cap is refused before SymPy expands it."""
    stated = kernel.statement(sequent((), rel(atoms.family("y", j), ">=", 0)))
    with pytest.raises(KernelError, match="would expand to more than 100000 terms"):
        kernel.instance(stated, {"j": index})


def test_a_run_whose_step_makes_too_much_is_refused() -> None:
    """A run's states are checked by evaluating the step's terms: a term that would expand
    past the cap, or make a value past the bit cap at the given state, is refused."""
    start = Counterexample({"x": Fraction(1), "s": Fraction(0), "t": Fraction(0)}, {})
    after = Counterexample({"x": Fraction(1), "s": Fraction(5), "t": Fraction(1)}, {})
    expanded = sequent((), rel(s, "<=", 0), Induction("t", {"s": sympy.Integer(0)}, {
        "s": ((s + 1) ** 64 + 1) ** 64}), naturals=frozenset({"t"}))
    with pytest.raises(KernelError, match="would expand to more than 100000 terms"):
        kernel.refute_run(expanded, [start, after])
    power = sequent((), rel(s, "<=", 2**5000), Induction("t", {}, {"s": s**64}),
                    naturals=frozenset({"t"}))
    big = [Counterexample({"s": Fraction(2**5000), "t": Fraction(k)}, {}) for k in (0, 1)]
    with pytest.raises(KernelError, match="more than 262144 bits"):
        kernel.refute_run(power, big)
    small = [Counterexample({"s": Fraction(2), "t": Fraction(0)}, {}),
             Counterexample({"s": Fraction(2**64), "t": Fraction(1)}, {})]
    assert kernel.refute_run(sequent((), rel(s, "<=", 2), Induction("t", {}, {"s": s**64}),
                                     naturals=frozenset({"t"})), small).label == "run"
