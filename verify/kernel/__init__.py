"""The trusted kernel (LCF discipline): the only code that can make a step proved or refuted.

`rules` reads a step (`Sequent`), states what it means (`Statement`), derives the polynomial
judgements that establish it (`obligations`) and, given checked evidence for each, makes a
`Theorem`; `refute` re-checks a counterexample against the statement as written and makes a
`Refutation`. Nothing outside this package can construct either. `certificates` checks
Positivstellensatz identities exactly, `algebra` converts inputs to exact polynomials and
normal forms, `data` holds the datatypes. The package imports nothing else of the project and
its tests cover every branch (tests/test_architecture.py, .ci/run).
"""

from verify.kernel.certificates import check_certificate, check_counterexample
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

__all__ = ["KINDS", "Cases", "Certificate", "Counterexample", "Direct", "Fact", "GramMinor",
           "Induction", "Judgement", "KernelError", "Kind", "NormSquare", "Obligation", "Product",
           "Refutation", "Rel", "RuleError", "Sequent", "Sos", "Square", "Statement", "Theorem",
           "UseError", "check_certificate", "check_counterexample", "conclude", "contradiction",
           "gram", "gram_pair", "obligations", "refute", "statement"]
