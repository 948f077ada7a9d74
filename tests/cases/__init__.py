"""THE shared case tables of the tests (pysmt's `examples.py` style), and the one reading of
their text.

- `cases.steps`: proof steps in the proof-file language with their expected verdicts (proved,
  refuted, not-proved); the prover, the search budgets, the numeric checks and
  `benchmarks/prover.py` all loop over it.
- `cases.certificates`: true steps with hand-written certificates (and one counterexample);
  the kernel's tests and `benchmarks/kernel.py` loop over it.

Both tables are written as text and turned into kernel judgements by `fact` and `judgement`
below, which read a relation exactly as `novikoff check` does (`verify.proof_checker.fact_of`):
so a case means in the tests what it would mean in a proof file.
"""

from __future__ import annotations

from collections.abc import Sequence

from proofs.language.expressions import Names, parse_relation
from verify.kernel import Fact, Judgement
from verify.proof_checker import fact_of


def fact(text: str, names: Names) -> Fact:
    """`a <= b` becomes `b - a >= 0`, `a < b` becomes `b - a > 0`, and so on."""
    return fact_of(parse_relation(text, names))


def judgement(given: Sequence[str], claim: str, names: Names, vectors: Sequence[str],
              scalars: Sequence[str]) -> Judgement:
    """`given |- claim` as the kernel reads it, over the declared vectors and scalars."""
    return Judgement(tuple(fact(g, names) for g in given), fact(claim, names),
                     tuple(vectors), tuple(scalars))
