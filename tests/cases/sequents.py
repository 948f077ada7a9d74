"""Kernel sequents written by hand, and the untrusted search's evidence for them: the helpers
the kernel's rule tests share (tests/kernel), so each test states only its step."""

from __future__ import annotations

from collections.abc import Callable

import sympy

from verify import kernel
from verify.kernel import Rel, Sequent
from verify.prover import decide

ZERO = sympy.Integer(0)


def rel(lhs: object, op: str, rhs: object = ZERO, divisors: tuple = ()) -> Rel:
    """`lhs op rhs` as the kernel reads it, its text as written here."""
    return Rel(sympy.sympify(lhs), op, sympy.sympify(rhs), f"{lhs} {op} {rhs}", divisors)


def sequents(vectors: frozenset[str], scalars: frozenset[str]) -> Callable[..., Sequent]:
    """A maker of sequents over these declared names (the rule Direct unless given)."""
    def sequent(hyps: tuple[Rel, ...], claim: Rel, rule: object = None, *,
                naturals: frozenset = frozenset(), uses: tuple = (),
                witness: dict | None = None, step: str = "s") -> Sequent:
        return Sequent(step, vectors, scalars, hyps, claim,  # type: ignore[arg-type]
                       rule or kernel.Direct(), uses, naturals, witness or {})
    return sequent


def evidence(seq: Sequent) -> list:
    """Untrusted search for every obligation; None where nothing was found."""
    out = []
    for ob in kernel.obligations(seq):
        found = decide(ob.judgement).certificate
        out.append(None if found is None else (ob.judgement, found))
    return out


def proved(seq: Sequent, used: tuple = ()) -> kernel.Theorem:
    """The kernel's Theorem of `seq` from the search's evidence (every obligation found)."""
    found = evidence(seq)
    missing = [ob.label for ob, e in zip(kernel.obligations(seq), found, strict=True) if e is None]
    assert not missing, missing
    return kernel.conclude(seq, found, used)
