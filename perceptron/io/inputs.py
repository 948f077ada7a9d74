"""Data as a Python user hands it over: a `Dataset`, or a pair `(X, y)` of array-likes.

Array-likes are numpy arrays, nested lists, and anything with a `to_numpy()` method (pandas
DataFrames and Series, polars, ...), taken exactly by `perceptron.io.loaders.from_arrays`:
floats as the binary values they are, NaN, infinities and missing values refused. pandas is
not a dependency: it is recognised by its `to_numpy` method, never imported.

A table alone (one DataFrame with the labels among its columns) is refused with a message
saying how to split it: which column holds the labels is the user's knowledge, not a guess.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptron.dataset import Dataset


def to_array(value: object) -> np.ndarray:
    """`value` as a numpy array: `to_numpy()` when it has one (pandas, polars), else
    `np.asarray` (arrays, lists)."""
    to_numpy = getattr(value, "to_numpy", None)
    if callable(to_numpy):
        return np.asarray(to_numpy())
    if np.ma.isMaskedArray(value):  # kept with its mask: from_arrays refuses a masked entry
        return value  # type: ignore[return-value]
    return np.asarray(value)


def as_dataset(data: Dataset | tuple[Any, Any], *, what: str = "the data") -> Dataset:
    """`data` if it is a Dataset, else the exact Dataset of the pair `(X, y)`.

    Raises TypeError for anything else (a lone DataFrame or array included), naming `what`
    took it and how to pass it.
    """
    if isinstance(data, Dataset):
        return data
    if isinstance(data, tuple | list) and len(data) == 2:
        from perceptron.io.loaders import from_arrays

        X, y = data
        return from_arrays(to_array(X), to_array(y), name=type(X).__name__)
    kind = type(data).__name__
    hint = (" (a table alone does not say which column holds the labels: pass "
            "(frame.drop(columns=LABEL), frame[LABEL]))" if hasattr(data, "to_numpy") else "")
    raise TypeError(f"{what} takes a Dataset or a pair (X, y) of array-likes, not a {kind}"
                    f"{hint}")
