"""The old name of `perceptron.algorithms.online`, kept so that existing imports work.

The old module name is bound to the new module object itself (not a copy), so attributes,
monkeypatching and `isinstance` checks behave exactly as before the move.
"""

import sys

from perceptron.algorithms import online

sys.modules[__name__] = online
