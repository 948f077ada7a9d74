"""Sums of vectors in Coq, stated as written (issue 31): `sum(j in S, v_j)` inside an inner
product.

The kernel reads a sum of vectors only through an inner product, by bilinearity, so a
statement whose vector sums cancel (chan-batch's `batch-update`, `norm2((th - alpha*sum(j in
M, -y[j]*x[j])) - (th + alpha*sum(j in M, y[j]*x[j]))) == 0`) has no sum left in its reading
(`0 == 0`) for the export to print. Such a statement is printed from its text instead
(`printer.vector_sum`): each vector sum as the preamble's `vzsum lo hi (fun s'j => ...)`
(a fold of `vadd`, the zero vector on an empty range), each filter of a set a 0/1 factor
`vscal (ind_ge p)` as in a scalar sum, a scalar sum in the kernel's reading. So the theorem
states the claim itself, and coqc checks that it follows.

The proof relates each written sum `A` to canonical sums `T_k` (its body split by linearity
into a coefficient free of the index times a monomial that reads it times a vector):
`forall w, ip A w = c_1 * ip T_1 w + (... + 0)`, derived from `ip_vzsum_l` (an inner product
reads a vector sum term by term) and `zsum_combine` (pointwise by `ring`), and the same with
`A` on the right. Rewriting with these (`Script.ip_norm`) leaves inner products of canonical
sums, named vectors and scalars, where the bridge from the claim's fact to the claim as
written closes by `ring` (`field` where it divides). A sum inside a sum's body is not printed
yet (`ExpressionError`: the step says so).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from verify.coq.printer import VectorSum, Written
from verify.kernel import Rel

if TYPE_CHECKING:
    from verify.coq.replay import Script

__all__ = ["declare", "declare_written"]


def declare_written(script: Script, relations: Iterable[Rel]) -> None:
    """`declare` the vector sums that `relations`, printed from their text, write."""
    for relation in relations:
        source = Written(script.proof.names, nat=script.nat)
        if source.relation(relation) is not None:
            declare(script, source.sums)


def declare(script: Script, sums: Mapping[str, VectorSum]) -> None:
    """Emit, for each written vector sum not yet in `script`, its split as two lemmas (the
    sum on the left, on the right of an inner product), and name them in
    `script.vector_rewrites` for `ip_norm`. A sum that is its own split needs none."""
    for found in sums.values():
        if found.text in script.vector_sums or found.text in {t for _, t in found.parts}:
            script.vector_sums.add(found.text)
            continue
        script.vector_sums.add(found.text)
        left, right, w = script.new("vs"), script.new("vs"), script.new("w")
        total = "0"
        for coefficient, canonical in reversed(found.parts):
            total = f"({coefficient} * ip {canonical} {w} + {total})"
        script.emit(f"assert ({left} : forall {w} : V, ip {found.text} {w} = {total}).")
        script.emit(f"{{ intros {w}. rewrite !ip_vzsum_l.")
        x, u = script.new("x"), script.new("u")
        for k, (coefficient, canonical) in enumerate(found.parts):
            rest = "0"
            for c2, t2 in reversed(found.parts[k + 1:]):
                rest = f"({c2} * ip ({_function(t2)} {u}) {w} + {rest})"
            script.emit(f"  refine (zsum_combine {found.lo} {found.hi} _ {coefficient} "
                        f"(fun {x} => ip ({_function(canonical)} {x}) {w}) (fun {u} => {rest}) "
                        f"_ _ _); [intros {x}; cbv beta; ip_canon; ring |].")
        script.emit("  apply zsum_zero. }")
        script.emit(f"assert ({right} : forall {w} : V, ip {w} {found.text} = {total}) by "
                    f"(intros {w}; rewrite (ip_sym {w} {found.text}); apply {left}).")
        script.vector_rewrites += [left, right]


def _function(canonical: str) -> str:
    """The function of a printed `(vzsum lo hi (fun ...))`: its last argument."""
    assert canonical.startswith("(vzsum ") and canonical.endswith(")")
    start = canonical.index("(fun ")
    return canonical[start:-1]
