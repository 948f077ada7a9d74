"""The trusted kernel (LCF discipline): the only code that can make a step proved or refuted.

`rules` reads a step (`Sequent`), states what it means (`Statement`), derives the polynomial
judgements that establish it (`obligations`) and, given a certificate for each, makes a
`Theorem`; `refute` re-checks a counterexample against the statement as written and makes a
`Refutation`. Nothing outside this package can construct either. `certificates` checks
Positivstellensatz identities exactly, `algebra` converts inputs to exact polynomials and
normal forms, `data` holds the datatypes. The package imports nothing else of the project
(tests/test_architecture.py) and every branch is covered by its tests.
"""

from verify.kernel.certificates import (
    certificate_residual,
    check_certificate,
    check_counterexample,
    is_valid,
)
from verify.kernel.data import (
    KINDS,
    Certificate,
    Counterexample,
    Fact,
    GramMinor,
    Judgement,
    KernelError,
    Kind,
    NormSquare,
    Product,
    Rel,
    Sos,
    Square,
    gram,
    gram_pair,
)
from verify.kernel.rules import (
    Cases,
    Direct,
    Induction,
    Obligation,
    Refutation,
    RuleError,
    Sequent,
    Statement,
    Theorem,
    UseError,
    conclude,
    contradiction,
    obligations,
    refute,
    statement,
)

__all__ = [
    "KINDS", "Cases", "Certificate", "Counterexample", "Direct", "Fact", "GramMinor",
    "Induction", "Judgement", "KernelError", "Kind", "NormSquare", "Obligation", "Product",
    "Refutation", "Rel", "RuleError", "Sequent", "Sos", "Square", "Statement", "Theorem",
    "UseError", "certificate_residual", "check_certificate", "check_counterexample",
    "conclude", "contradiction", "gram", "gram_pair", "is_valid", "obligations", "refute",
    "statement",
]
