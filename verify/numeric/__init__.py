"""Numeric judgement: proof steps evaluated exactly on many instances (`instances`), the
campaigns that draw those instances from adversarial runs (`campaign`) and their sizes
(`budgets`).

The names of the former `verify.numeric` module are re-exported here, so
`from verify.numeric import CompiledJudgement, InstanceBatch, Shrinker` keeps working.
"""

from verify.numeric.instances import *  # noqa: F403
from verify.numeric.instances import __all__ as __all__
