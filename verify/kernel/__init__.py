"""The trusted kernel (LCF discipline): the only code that can make a step proved or refuted.

`rules` reads a step (`Sequent`), states what it means (`Statement`), derives the polynomial
judgements that establish it (`obligations`) and, given checked evidence for each, makes a
`Theorem`; `refute` re-checks a counterexample against the statement as written and makes a
`Refutation`. Nothing outside this package can construct either. `certificates` checks
Positivstellensatz identities exactly, `algebra` converts inputs to exact polynomials and
normal forms, `data` holds the datatypes. The package imports nothing else of the project and
its tests cover every branch (tests/test_architecture.py, .ci/run).
"""

from verify.kernel.certificates import *  # noqa: F403 (the checks: certificates.__all__)
from verify.kernel.data import *  # noqa: F403 (the datatypes: data.__all__)
from verify.kernel.rules import *  # noqa: F403 (the rules: rules.__all__)
