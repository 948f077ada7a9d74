"""Numbers: exact-rational perceptron algorithms, traces, data geometry and adversarial data.

This package never imports SymPy; it is the numeric half of novikoff.
"""

from typing import Any

__all__ = ["ExactPerceptron"]


def __getattr__(name: str) -> Any:
    """`perceptron.ExactPerceptron`, loaded on first use: scikit-learn stays optional."""
    if name == "ExactPerceptron":
        try:
            from perceptron.algorithms.estimator import ExactPerceptron
        except ModuleNotFoundError as exc:
            if exc.name is None or not exc.name.startswith("sklearn"):
                raise
            raise ImportError("perceptron.ExactPerceptron needs scikit-learn "
                              "(pip install scikit-learn)") from exc
        return ExactPerceptron
    raise AttributeError(f"module 'perceptron' has no attribute {name!r}")
