"""Results of perceptron runs, and the exact separation check."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape

from perceptron.algorithms.trace import BatchTrace, StreamTrace, Trace
from perceptron.conventions import Conventions
from perceptron.dataset import Dataset, Vector
from perceptron.numbers import as_text, exact


@dataclass(frozen=True)
class RunResult:
    """The outcome of an online run.

    - `mistakes`: number of updates made (under the run's update rule).
    - `epochs`: passes made, the last error-free one included (1 for a stream).
    - `converged`: an epoch made no update (for a stream: the pass made none).
    - `reason`: why the run stopped, in words: an error-free epoch, the epoch cap, or cycling
      (a repeated state at the start of an epoch, which proves the run never converges).
    - `w`: the final iterate, exact (bias last when the run learned one).
    - `separating`: whether `w` strictly separates the data (`y <w, x> > 0` for every
      example), decided exactly; None when not checked (streams).
    - `arithmetic`: the arithmetic the engine used, in order (`float64` only ever as an exact
      integer container, see `perceptron.algorithms.fast`; `fraction` for the reference engine).
    """

    mistakes: int
    epochs: int
    converged: bool
    reason: str
    w: Vector
    conventions: Conventions
    trace: Trace | StreamTrace | None = field(default=None, repr=False, compare=False)
    separating: bool | None = None
    arithmetic: tuple[str, ...] = ()

    def _repr_html_(self) -> str:
        """Jupyter: the run's summary as a table, numbers exact."""
        rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>"
                       for k, v in self.as_dict().items() if not isinstance(v, list | dict))
        return f"<table>{rows}</table>"

    def as_dict(self) -> dict[str, object]:
        """The JSON form of `novikoff run --json`: exact numbers as `"p/q"` text."""
        return {
            "mistakes": self.mistakes,
            "epochs": self.epochs,
            "converged": self.converged,
            "separates": self.separating,
            "reason": self.reason,
            "w": [as_text(v) for v in self.w],
            "conventions": self.conventions.as_dict(),
        }


@dataclass(frozen=True)
class BatchResult:
    """The outcome of a batch run: `iterations` steps `w_{k+1} = w_k + alpha_k xbar_k`.

    `converged` means `M_k` became empty; `separating` is the exact check of the final `w`.
    """

    iterations: int
    converged: bool
    reason: str
    w: Vector
    rule: str
    step: str
    bias: bool
    trace: BatchTrace | None = field(default=None, repr=False, compare=False)
    separating: bool | None = None
    alphas: tuple[Fraction, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready record with exact numbers as text."""
        return {
            "iterations": self.iterations,
            "converged": self.converged,
            "separates": self.separating,
            "reason": self.reason,
            "w": [as_text(v) for v in self.w],
            "rule": self.rule,
            "step": self.step,
            "bias": self.bias,
            "alphas": [as_text(a) for a in self.alphas],
        }


def separates(data: Dataset, w: Sequence[object], *, bias: bool | None = None) -> bool:
    """Whether `y <w, x> > 0` for every example, decided on exact integers.

    `w` may have one more coordinate than the examples: it is then a bias (the run's
    augmentation with a constant 1, bias last). `bias=True/False` forces the reading.
    """
    from perceptron.algorithms.fast import integer_form, integer_vector, separates_integer

    wv = tuple(exact(v) for v in w)
    if bias is None:
        bias = len(wv) == data.d + 1
    width = data.d + (1 if bias else 0)
    if len(wv) != width:
        raise ValueError(f"w has {len(wv)} coordinates, the data need {width}")
    W, _ = integer_vector(wv)
    return separates_integer(integer_form(data, bias=bias), W)
