"""Time the trusted kernel against SymPy on the hand-written certificates of
`tests/cases/certificates.py`.

Per case: the median wall time of `check_certificate` over many runs (after one warm-up,
which also fills the ring cache), and of the peer measured in the same run on the same
certificate: the identity `m * claim == sum(products) + sum(q_j * e_j)` built as SymPy
expressions and checked with `sympy.expand(lhs - rhs) == 0` (the textbook way to test a
polynomial identity), SymPy's cache cleared before every timed call of either. The ratio
kernel/SymPy is printed per case and overall, and both must accept every certificate.
A script that prints figures; it never asserts on time.

    python benchmarks/kernel.py [--runs N] [--tiny]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import sympy
from sympy.core.cache import clear_cache

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cases.certificates import CASES

from proofs.language.terms import gram
from verify.kernel import (
    Certificate,
    GramMinor,
    Judgement,
    NormSquare,
    algebra,
    check_certificate,
)


def median_ms(check: Callable[[], object], runs: int) -> float:
    """Median of `runs` timed calls, in milliseconds, each after SymPy's cache is cleared
    (untimed): otherwise `expand` returns its cached result from the previous run and the
    peer measures a dictionary lookup. The kernel's own ring cache stays warm."""
    samples = []
    for _ in range(runs):
        clear_cache()
        start = time.perf_counter()
        check()
        samples.append(time.perf_counter() - start)
    return 1000 * statistics.median(samples)


def _dot(u: Mapping[str, sympy.Expr], v: Mapping[str, sympy.Expr]) -> sympy.Expr:
    """`<u, v>` of explicit vectors, bilinear in Gram symbols."""
    return sympy.Add(*(a * b * gram(m, n) for m, a in u.items() for n, b in v.items()))


def sympy_identity(judgement: Judgement, certificate: Certificate) -> bool:
    """The peer: the certificate's identity as SymPy expressions, `expand(lhs - rhs) == 0`.

    It reads the certificate as the kernel's docstring defines it (docs/design.md §2) but checks
    nothing else (indices, kinds, signs): a timing peer, not a second kernel."""
    hyps = [h.expr for h in judgement.hypotheses]
    lhs = sympy.Mul(*(hyps[i] for i in certificate.multiplier)) * judgement.claim.expr
    rhs = sympy.Integer(0)
    for product in certificate.products:
        sigma = sympy.Integer(0) if product.sigma else sympy.Integer(1)
        for entry in product.sigma:
            weight = sympy.Rational(entry.weight.numerator, entry.weight.denominator)
            if isinstance(entry, NormSquare):
                sigma += weight * _dot(entry.vector, entry.vector)
            elif isinstance(entry, GramMinor):
                vs = entry.vectors
                sigma += weight * sympy.Matrix([[_dot(u, v) for v in vs] for u in vs]).det(
                    method="berkowitz")
            else:
                sigma += weight * entry.poly**2
        coeff = sympy.Rational(product.coeff.numerator, product.coeff.denominator)
        rhs += coeff * sympy.Mul(*(hyps[i] for i in product.hyps)) * sigma
    for index, q in certificate.linear:
        rhs += q * hyps[index]
    return sympy.expand(lhs - rhs) == 0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--tiny", action="store_true", help="two runs per case (a smoke run)")
    args = parser.parse_args(argv)
    runs = 2 if args.tiny else args.runs
    print(f"{'case':<18} {'cold ms':>8} {'kernel ms':>10} {'sympy ms':>9} {'ratio':>6}")
    kernel_total = peer_total = 0.0
    agree = True
    for case in CASES:
        algebra._ring.cache_clear()  # cold: the kernel's own ring cache emptied
        start = time.perf_counter()
        check_certificate(case.judgement, case.certificate)
        cold = 1000 * (time.perf_counter() - start)
        ms = median_ms(lambda c=case: check_certificate(c.judgement, c.certificate), runs)
        agree &= sympy_identity(case.judgement, case.certificate)
        peer = median_ms(lambda c=case: sympy_identity(c.judgement, c.certificate), runs)
        kernel_total, peer_total = kernel_total + ms, peer_total + peer
        print(f"{case.id:<18} {cold:>8.3f} {ms:>10.3f} {peer:>9.3f} {ms / peer:>5.2f}x")
    print(f"both accept every certificate: {'yes' if agree else 'NO'}")
    print(f"ratio kernel/SymPy expand over the {len(CASES)} cases: "
          f"{kernel_total:.2f} ms / {peer_total:.2f} ms = {kernel_total / peer_total:.2f}x")


if __name__ == "__main__":
    main()
