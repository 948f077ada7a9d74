"""Terms with finite sums, and the search's evidence for sequents about them, shared by the
kernel's sum tests (`tests/kernel/sums/`): families `y[i]`, `z[i]`, vectors `x[i]`, a sum
over a range, a relation written as its text, and a step proved, or never proved, with the
untrusted search's certificates."""

from __future__ import annotations

import pytest
import sympy

from verify import kernel
from verify.kernel import KernelError, Rel, Sequent
from verify.kernel.atoms import family, finite_sum, vector_name
from verify.prover import decide

ZERO = sympy.Integer(0)
J = sympy.Symbol("j")


def y(i: object) -> sympy.Symbol:
    """The family member `y[i]`."""
    return family("y", sympy.sympify(i))


def z(i: object) -> sympy.Symbol:
    """The family member `z[i]`."""
    return family("z", sympy.sympify(i))


def x(i: object) -> str:
    """The name of the vector family member `x[i]`."""
    return vector_name("x", sympy.sympify(i))


def total(lo: object, hi: object, body: sympy.Expr, where: tuple = (), index: sympy.Symbol = J
          ) -> sympy.Expr:
    """`sum(index in lo..hi where ...: body)`, in the kernel's canonical form."""
    return finite_sum(index, sympy.sympify(lo), sympy.sympify(hi), list(where), body)


def rel(lhs: object, op: str, rhs: object = ZERO) -> Rel:
    """`lhs op rhs`, its text as written."""
    return Rel(sympy.sympify(lhs), op, sympy.sympify(rhs), f"{lhs} {op} {rhs}")


def proved(seq: Sequent, used: tuple = ()) -> kernel.Theorem:
    """The kernel's theorem from the search's certificate for every obligation."""
    evidence = []
    for ob in kernel.obligations(seq):
        found = decide(ob.judgement).certificate
        assert found is not None, (ob.label, ob.judgement)
        evidence.append((ob.judgement, found))
    return kernel.conclude(seq, evidence, used)


def never_proved(seq: Sequent, used: tuple = ()) -> None:
    """The search's certificates for every obligation it can prove, and the kernel's verdict:
    some obligation has none (the step stays unknown), or the kernel refuses them."""
    evidence = []
    for ob in kernel.obligations(seq):
        found = decide(ob.judgement).certificate
        if found is None:
            return
        evidence.append((ob.judgement, found))
    with pytest.raises(KernelError):
        kernel.conclude(seq, evidence, used)
    pytest.fail("every obligation of a false step has a certificate")  # pragma: no cover
