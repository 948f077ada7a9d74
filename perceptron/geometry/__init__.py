"""Exact data geometry, in layers: linear algebra (`linear`) -> separability -> the maximum
margin -> the Novikoff bound. Each layer imports only the ones before it.

The names of the former `perceptron.geometry` module are re-exported here, so
`from perceptron.geometry import radius2` keeps working.
"""

from perceptron.geometry.linear import *  # noqa: F403
from perceptron.geometry.linear import __all__ as __all__
