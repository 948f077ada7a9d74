"""The dual perceptron (the "kernel perceptron"), with an exact polynomial kernel `(c + <x, z>)^p`.

Called the dual perceptron here because "kernel" in novikoff is the trusted proof kernel
(`verify.kernel`); `K` below is still a kernel function in the machine-learning sense.

The iterate is never formed: `f(x) = sum_i alpha_i y_i K(x_i, x)` with `alpha_i = eta * (number
of updates on example i)`, and an update on example j adds `eta` to `alpha_j`. The run makes
the same cyclic epochs as `perceptron.algorithms.online` (same conventions, same stopping rules,
cycling detected on the margins `y_j f(x_j)`, which determine the rest of the run).

Exactness: with the examples scaled to integers (`x = r / s`) and `c = a / b`,
`K(x_i, x_j) = (a s^2 + b <r_i, r_j>)^p / (b s^2)^p`; the positive factor `eta / (b s^2)^p` is
dropped, so the engine adds integer rows `y_i y_j (a s^2 + b <r_i, r_j>)^p` and decides every
update on exact integers (`perceptron.algorithms.fast.DualEngine`). With the linear kernel these
rows are exactly the primal engine's margins, so the dual run *is* the primal run: same updates,
same mistakes, and `sum_i alpha_i y_i x_i` is the primal final iterate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from perceptron.algorithms.fast import DualEngine, gram, integer_form
from perceptron.algorithms.online import EpochDriver
from perceptron.algorithms.trace import Trace, example_as_run
from perceptron.conventions import DEFAULT, Conventions
from perceptron.dataset import Dataset, Vector
from perceptron.numbers import as_text, exact


@dataclass(frozen=True)
class PolynomialKernel:
    """`K(x, z) = (c + <x, z>)^p` with a rational `c >= 0` and an integer degree `p >= 1`
    (`c >= 0` keeps the kernel positive semi-definite)."""

    c: Fraction = Fraction(0)
    p: int = 1

    def __post_init__(self) -> None:
        c = exact(self.c)
        if c < 0:
            raise ValueError(f"c must be >= 0 for a positive semi-definite kernel, not {c}")
        if not isinstance(self.p, int) or isinstance(self.p, bool) or self.p < 1:
            raise ValueError(f"the degree p must be a positive integer, not {self.p!r}")
        object.__setattr__(self, "c", c)

    def __call__(self, x: Sequence[Fraction], z: Sequence[Fraction]) -> Fraction:
        """`(c + <x, z>)^p`, exactly."""
        return (self.c + sum((a * b for a, b in zip(x, z, strict=True)), Fraction(0))) ** self.p

    @property
    def linear(self) -> bool:
        """Whether this is the plain inner product."""
        return self.c == 0 and self.p == 1

    def describe(self) -> str:
        """`(c + <x,z>)^p` with the numbers filled in."""
        return "<x,z>" if self.linear else f"({as_text(self.c)} + <x,z>)^{self.p}"


#: The linear kernel `<x, z>`.
LINEAR = PolynomialKernel()


@dataclass(frozen=True)
class DualResult:
    """The outcome of a kernel run: dual coefficients `alpha` (one per example, bias-augmented
    examples when `conventions.bias`), and the updates as `(epoch, index)` arrays."""

    mistakes: int
    epochs: int
    converged: bool
    reason: str
    alpha: tuple[Fraction, ...]
    kernel: PolynomialKernel
    conventions: Conventions
    data: Dataset = field(repr=False, compare=False)
    indices: tuple[int, ...] = field(default=(), repr=False)
    update_epochs: tuple[int, ...] = field(default=(), repr=False)
    separating: bool | None = None
    arithmetic: tuple[str, ...] = ()

    def decision(self, x: Sequence[object]) -> Fraction:
        """`f(x) = sum_i alpha_i y_i K(x_i, x)`, exactly (x without the bias coordinate)."""
        bias = self.conventions.bias
        z = tuple(exact(v) for v in x) + ((Fraction(1),) if bias else ())
        return sum((a * self.data.y[i] * self.kernel(example_as_run(self.data, i, bias), z)
                    for i, a in enumerate(self.alpha) if a), Fraction(0))

    def primal_w(self) -> Vector:
        """`sum_i alpha_i y_i x_i` (the primal iterate; linear kernel only)."""
        if not self.kernel.linear:
            raise ValueError("a primal iterate exists only for the linear kernel")
        bias = self.conventions.bias
        w = [Fraction(0)] * (self.data.d + bias)
        for i, a in enumerate(self.alpha):
            if a:
                s = a * self.data.y[i]
                w = [wk + s * v for wk, v in zip(w, example_as_run(self.data, i, bias),
                                                  strict=True)]
        return tuple(w)

    def trace(self) -> Trace:
        """The updates as a primal `Trace` (linear kernel only: its iterates are primal)."""
        if not self.kernel.linear:
            raise ValueError("a primal trace exists only for the linear kernel")
        return Trace(self.data, self.conventions, self.indices, self.update_epochs)


def kernel_rows(data: Dataset, kernel: PolynomialKernel, bias: bool) -> np.ndarray:
    """`H[i][j] = y_i y_j (a s^2 + b <r_i, r_j>)^p`: the kernel matrix up to a positive factor,
    exact (int64 when provably in range, else Python ints)."""
    form = integer_form(data, bias=bias)
    G = gram(form.rows, form.max_abs)
    a, b, s2 = kernel.c.numerator, kernel.c.denominator, form.scale * form.scale
    g_max = int(np.abs(G).max()) if G.dtype != object else max(abs(v) for v in G.flat)
    top = (abs(a) * s2 + b * g_max) ** kernel.p
    if G.dtype != object and top < 2**62:
        base = G * b + a * s2 if (a or b != 1) else G
        K = base ** kernel.p if kernel.p > 1 else base
    else:
        base = G.astype(object) * b + a * s2
        K = base ** kernel.p
    yy = np.outer(form.y, form.y)
    return K * (yy if K.dtype != object else yy.astype(object))


def run_dual(data: Dataset, kernel: PolynomialKernel = LINEAR,
               conventions: Conventions = DEFAULT, *, max_epochs: int = 1000,
               keep_trace: bool = True) -> DualResult:
    """The dual perceptron with `kernel` (see the module docstring). `conventions.w0` must be
    None (a dual run starts from f = 0)."""
    if conventions.w0 is not None and any(conventions.w0):
        raise ValueError("a kernel run starts from f = 0: w0 must be None or zero")
    H = kernel_rows(data, kernel, conventions.bias)
    q = np.array([1 if conventions.updates_at_zero(y) else 0 for y in data.y], dtype=np.int64)
    engine = DualEngine(H, q, [0] * data.n)
    driver = EpochDriver(engine, max_epochs, state_name="margins")
    indices: list[int] = []
    epochs: list[int] = []
    for epoch, updated in driver:
        if keep_trace:
            indices.extend(updated)
            epochs.extend([epoch] * len(updated))
    alpha = tuple(conventions.eta * int(c) for c in engine.counts.tolist())
    separating = bool(all(int(v) > 0 for v in engine.v.tolist()))
    return DualResult(driver.mistakes, driver.epochs, driver.converged, driver.reason, alpha,
                        kernel, conventions, data, tuple(indices), tuple(epochs), separating,
                        tuple(engine.tiers_used))


#: The former names (`perceptron.kernel_perceptron.run_kernel`, `KernelResult`), kept for users.
run_kernel = run_dual
KernelResult = DualResult
