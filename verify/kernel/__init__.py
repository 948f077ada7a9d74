"""The trusted kernel (LCF discipline): the only code that can make a step proved or refuted.

`atoms`: what each variable of a polynomial stands for (names, Gram symbols, families, finite
sums), read from its name; `algebra`: relations and their exact normal form; `sums`: the
identities of finite sums (axiom schemata); `certificates`: Positivstellensatz
certificates and their exact check; `rules`: what a step means, its obligations, and the only
makers of `Theorem` and `Refutation`. The package imports nothing else of the project and its
tests cover every branch (tests/test_architecture.py, .ci/run).
"""

from verify.kernel.algebra import *  # noqa: F403 (names, facts, relations: algebra.__all__)
from verify.kernel.certificates import *  # noqa: F403 (certificates: certificates.__all__)
from verify.kernel.rules import *  # noqa: F403 (the rules: rules.__all__)
from verify.kernel.sums import *  # noqa: F403 (the sum rules: sums.__all__)
