"""Names a step never uses, and satisfiable hypotheses about only them: what a step's verdict
must not depend on (issue 28, item 4). The relevance tests pad the table's judgements with
them, the invariance property test the built-in proofs' obligations and the benchmark goals."""

from __future__ import annotations

from dataclasses import replace

import sympy

from verify.kernel import Fact, Judgement

UNUSED_SCALARS = tuple(f"zz{i}" for i in range(19))  # the file: 19 more scalars
UNUSED_VECTORS = ("vv0", "vv1")
UNUSED_TEXTS = ("zz0 >= 1", "zz1*zz2 + 3 > 0", "zz3 == zz4", "dot(vv0, vv1)*zz5 + 2 >= 0",
                "zz0**2 >= zz6")
"""The hypotheses below as a proof file writes them (for padding a file's step)."""


def unused_facts(count: int) -> tuple[Fact, ...]:
    """Satisfiable hypotheses that mention only the unused names (zz_i = 1, |vv0|^2 >= 0...)."""
    z = [sympy.Symbol(n) for n in UNUSED_SCALARS]
    gram = sympy.Symbol("<vv0,vv1>")
    pool = [Fact(z[0] - 1, ">="), Fact(z[1] * z[2] + 3, ">"), Fact(z[3] - z[4], "=="),
            Fact(gram * z[5] + 2, ">="), Fact(z[0] ** 2 - z[6], ">=")]
    return tuple(pool[i % len(pool)] for i in range(count))


def padded(j: Judgement, count: int, first: bool) -> Judgement:
    """`j` in a bigger file: more declarations and unrelated hypotheses (before or after its
    own, so the hypothesis indices move too)."""
    extra = unused_facts(count)
    hyps = (*extra, *j.hypotheses) if first else (*j.hypotheses, *extra)
    return replace(j, hypotheses=hyps, vectors=(*j.vectors, *UNUSED_VECTORS),
                   scalars=(*j.scalars, *UNUSED_SCALARS))
