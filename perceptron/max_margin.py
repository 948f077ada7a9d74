"""The old name of `perceptron.geometry.max_margin`, kept so that existing imports work.

The old module name is bound to the new module object itself (not a copy), so attributes,
monkeypatching and `isinstance` checks behave exactly as before the move.
"""

import sys

from perceptron.geometry import max_margin

sys.modules[__name__] = max_margin
