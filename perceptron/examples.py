"""Built-in example datasets (`novikoff run --example NAME`), each with where it comes from.

The generators (NumPy, the geometry) are imported by the examples that use them, when they
are built: the command-line parsers read the names here, and `novikoff list` or
`--version` must not pay for NumPy (issue 30: start-up under 0.5 s).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from perceptron.dataset import Dataset


@dataclass(frozen=True)
class Example:
    """A named dataset with its source and what a run on it shows; `size` is its n x d,
    stated so that `novikoff list` need not build it (a test checks it against `build`)."""

    name: str
    source: str
    shows: str
    build: Callable[[], Dataset]
    size: tuple[int, int]
    bias: bool = False


def slides_10_607() -> Dataset:
    """The worked example of the CMU 10-607 perceptron slides (seed 004): six 2-D points,
    no bias; the iterates are (0,0), (1,-2), (2,-1), (3,1)."""
    X = [(-1, 2), (1, 0), (1, 1), (-1, 0), (-1, -2), (1, -1)]
    y = [-1, 1, 1, -1, -1, 1]
    return Dataset.of(X, y, name="10-607")


def orthonormal(n: int = 4, labels: tuple[int, ...] | None = None) -> Dataset:
    """`e_1, ..., e_n` with labels (default alternating +1, -1): every example is orthogonal
    to every update before it, so the rule `y <w, x> <= 0` makes exactly n mistakes and
    `< 0` none (from w0 = 0). The tight family of `perceptron.generators.tight`: R^2/gamma^2 = n."""
    from perceptron.generators.tight import orthonormal as tight_orthonormal

    labels = labels or tuple(1 if i % 2 == 0 else -1 for i in range(n))
    if len(labels) != n:
        raise ValueError(f"{len(labels)} labels for {n} vectors")
    family = tight_orthonormal(labels)
    return Dataset(family.data.X, family.data.y, name=f"orthonormal-{n}")


#: R^2 / gamma^2 of the built-in adversary example.
ADVERSARY_BOUND = 10


def adversary(bound: int = ADVERSARY_BOUND, seed: int = 0) -> Dataset:
    """The online adversary's sequence for `R^2 = bound`, `gamma = 1` (labels from `seed`):
    every example lies on the learner's decision boundary, so the perceptron errs on all
    `bound` of them, meeting `<w_t, u> = t gamma` and `||w_t||^2 = t R^2` with equality."""
    from perceptron.generators.adversary import OnlineAdversary

    played = OnlineAdversary(bound, 1, seed=seed).play()
    return Dataset(played.data.X, played.data.y, name=f"adversary-{bound}")


def note_003() -> Dataset:
    """The note of seed 003: every `x_i y_i = (1, 0)`, so `w_i = (1, 0)` for every i >= 1."""
    X = [(1, 0), (-1, 0), (1, 0), (-1, 0)]
    y = [1, -1, 1, -1]
    return Dataset.of(X, y, name="note-003")


def xor() -> Dataset:
    """XOR in the plane: not linearly separable even with a bias; the run cycles."""
    X = [(0, 0), (1, 1), (0, 1), (1, 0)]
    y = [-1, -1, 1, 1]
    return Dataset.of(X, y, name="xor")


EXAMPLES: dict[str, Example] = {
    e.name: e
    for e in (
        Example("10-607", "CMU 10-607 perceptron slides, worked example (seed 004)",
                "iterates (0,0), (1,-2), (2,-1), (3,1); converges in the second epoch",
                slides_10_607, (6, 2)),
        Example("orthonormal", "e_1..e_4 with alternating labels (tight family)",
                "exactly n = 4 = R^2/gamma^2 mistakes under y<w,x> <= 0, none under < 0",
                orthonormal, (4, 4)),
        Example("adversary", f"the online adversary for R^2/gamma^2 = {ADVERSARY_BOUND}",
                f"exactly {ADVERSARY_BOUND} mistakes: the Novikoff bound met with equality",
                adversary, (ADVERSARY_BOUND, 2 * ADVERSARY_BOUND + 4)),
        Example("note-003", "Telgarsky's lecture 9 note (seed 003)",
                "x_i y_i = (1,0) for all i gives w_i = (1,0) for i >= 1", note_003,
                (4, 2)),
        Example("xor", "XOR: the classic non-separable set",
                "no separator even with a bias: the run cycles and says so", xor, (4, 2),
                bias=True),
    )
}

#: The example `novikoff run` uses without DATA.
DEFAULT_EXAMPLE = "10-607"


def example(name: str) -> Example:
    """The built-in example `name` (ValueError listing the names when unknown)."""
    try:
        return EXAMPLES[name]
    except KeyError:
        raise ValueError(f"unknown example {name!r}; choose from {', '.join(EXAMPLES)}") from None
