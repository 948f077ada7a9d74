"""The pytest plugin under its published name (the `pytest11` entry point, and the name a
conftest lists in `pytest_plugins`); the code lives in `verify.testing.pytest_plugin`.

The old name is bound to the plugin module object itself, so pytest sees one plugin whichever
of the two names loads it first (it refuses the same module registered twice).
"""

import sys

from verify.testing import pytest_plugin

sys.modules[__name__] = pytest_plugin
