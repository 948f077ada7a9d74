"""The trusted kernel (LCF discipline): the only code that can make a step proved or refuted.

`algebra`: names, relations and their exact normal form; `certificates`: Positivstellensatz
certificates and their exact check; `rules`: what a step means, its obligations, and the only
makers of `Theorem` and `Refutation`. The package imports nothing else of the project and its
tests cover every branch (tests/test_architecture.py, .ci/run).
"""

from verify.kernel.algebra import *  # noqa: F403 (names, facts, relations: algebra.__all__)
from verify.kernel.certificates import *  # noqa: F403 (certificates: certificates.__all__)
from verify.kernel.rules import *  # noqa: F403 (the rules: rules.__all__)
