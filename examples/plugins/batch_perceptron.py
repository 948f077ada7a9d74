"""The batch perceptron written as a plug-in for batch runs: the contract of `novikoff audit
--algorithm` for a proof whose `[numeric] run` is `"batch"` (docs/proof-files.md, "Your own
algorithm"; docs/api.md), in full.

A batch plug-in is called as `function(data, max_iterations, theta0, theta_star)` (with the
`--param`s as keywords): the data as exact rationals, the most iterations it may make, the
start `theta0` (the campaign runs each scenario from the built-in batch runs' three starts:
0, -theta_star and a seeded integer vector) and the reference separator `theta_star` (for a
step that needs it, as the oracle-optimal one does). It yields, per iteration, the examples
it updated over (`M_k`, a non-empty set of indices) and the iterate after: `(members,
theta_after)` pairs, or the engine's `BatchRecord`s. Each iteration must be `theta_after =
theta + alpha xbar` for a rational step `alpha`, `xbar` the sum of `y x` over its members:
the step is read exactly off the trace (the run quantity `alpha`).

- `unit_step`: `theta += xbar` (`alpha = 1`), the classical batch perceptron (gradient
  descent with step 1 on the perceptron loss), which the package does not run itself;
  examples/batch-unit-step.toml is a result proved for it:
  `novikoff audit examples/batch-unit-step.toml --algorithm
  examples/plugins/batch_perceptron.py:unit_step`
- `optimal_step`: the oracle-optimal step `alpha = <theta_star, xbar>/||xbar||^2`, the
  built-in batch run (`perceptron.algorithms.batch.run_batch`), checked against it by
  tests/test_verify/plugins/test_plugin_batch.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from perceptron.dataset import Dataset, Vector


def dot(a: Vector, b: Vector) -> Fraction:
    """`<a, b>`, exactly."""
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def mistakes(data: Dataset, theta: Vector) -> tuple[int, ...]:
    """`M = {j : y_j <theta, x_j> <= 0}`, in index order."""
    return tuple(j for j, (x, y) in enumerate(zip(data.X, data.y, strict=True))
                 if y * dot(theta, x) <= 0)


def signed_sum(data: Dataset, members: tuple[int, ...]) -> Vector:
    """`xbar = sum_{j in members} y_j x_j`."""
    return tuple(sum((data.y[j] * data.X[j][c] for j in members), Fraction(0))
                 for c in range(data.d))


def unit_step(data: Dataset, max_iterations: int, theta0: Vector, theta_star: Vector
              ) -> Iterator[tuple[tuple[int, ...], Vector]]:
    """`theta += xbar` over `M_k` while it is non-empty, at most `max_iterations` times."""
    theta = tuple(theta0)
    for _ in range(max_iterations):
        members = mistakes(data, theta)
        if not members:
            return
        theta = tuple(a + b for a, b in zip(theta, signed_sum(data, members), strict=True))
        yield members, theta


def optimal_step(data: Dataset, max_iterations: int, theta0: Vector, theta_star: Vector
                 ) -> Iterator[tuple[tuple[int, ...], Vector]]:
    """`theta += alpha xbar` with `alpha = <theta_star, xbar>/||xbar||^2` (the step that
    brings theta closest to theta_star along xbar), over `M_k` while it is non-empty."""
    theta = tuple(theta0)
    for _ in range(max_iterations):
        members = mistakes(data, theta)
        if not members:
            return
        xbar = signed_sum(data, members)
        alpha = dot(theta_star, xbar) / dot(xbar, xbar)
        theta = tuple(a + alpha * b for a, b in zip(theta, xbar, strict=True))
        yield members, theta
