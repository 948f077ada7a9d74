"""The old name of `verify.testing.check_run`, kept so that existing imports work.

The old module name is bound to the new module object itself (not a copy), so attributes,
monkeypatching and `isinstance` checks behave exactly as before the move.
"""

import sys

from verify.testing import check_run

sys.modules[__name__] = check_run
