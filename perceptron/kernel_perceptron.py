"""The old name of `perceptron.algorithms.dual` (the dual perceptron), kept so that existing
imports work: `run_kernel` and `KernelResult` are its former names for `run_dual`, `DualResult`.

The old module name is bound to the new module object itself (not a copy), so attributes,
monkeypatching and `isinstance` checks behave exactly as before the move.
"""

import sys

from perceptron.algorithms import dual

sys.modules[__name__] = dual
