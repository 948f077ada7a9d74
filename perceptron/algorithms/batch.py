"""The batch perceptron: `w_{k+1} = w_k + alpha_k * xbar_k`, `xbar_k = sum_{j in M_k} y_j x_j`.

`M_k` is the set of examples the iterate `w_k` gets wrong: `y_j <w_k, x_j> <= 0` (rule `"le"`)
or `< 0` (rule `"lt"`, Chan's lecture). The run stops when `M_k` is empty (converged), at the
iteration cap, or when it provably cannot converge: `xbar_k = 0` (or `alpha_k = 0`) leaves `w`
unchanged forever, and with a step that depends on `w` only (constant or oracle-optimal) a
repeated iterate means the run cycles (Brent's detection, as in `perceptron.algorithms.online`).

Step rules, one small class each (`STEPS` maps their names):

- `ConstantStep(alpha)`: the same positive `alpha_k = alpha` (`step=alpha` for short);
- `ScheduleStep(alphas)`: `alpha_k` from a given sequence or a function of k (1-based);
- `OptimalStep(theta_star)`: the oracle-optimal `alpha_k = <theta*, xbar_k> / ||xbar_k||^2`
  for a reference separator `theta*` (`step="optimal", theta_star=...`), the step that
  minimises `||w_{k+1} - theta*||^2` along `xbar_k`.

Every iterate is exact: `w_k = W_k / D_k` with an integer vector and a positive integer,
margins are decided on the integers of `perceptron.algorithms.fast` (the examples scaled to
integers).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import gcd
from operator import mul

from perceptron.algorithms.fast import (
    IntegerForm,
    exact_matvec,
    integer_form,
    integer_vector,
)
from perceptron.algorithms.trace import BatchIntegers, BatchTrace
from perceptron.conventions import flag
from perceptron.dataset import Dataset, Vector
from perceptron.numbers import as_text, exact
from perceptron.result import BatchResult

_RULES = ("le", "lt")
#: Most cells `n * d` a batch run computes on in Python lists rather than numpy: below it a
#: numpy call's overhead costs more than the products it makes.
SMALL_CELLS = 256


class StepRule:
    """How `alpha_k` is chosen. `alpha` sees the iteration k (1-based) and `xbar_k` as integers
    `xbar_int` with `xbar_k = xbar_int / scale`."""

    name = "step"
    deterministic = True  # alpha depends on w only (so a repeated iterate proves cycling)

    def alpha(self, k: int, xbar_int: Sequence[int], scale: int) -> Fraction | None:
        """The step of iteration k, or None when the rule has no step left."""
        raise NotImplementedError

    def describe(self) -> str:
        """One line for results."""
        return self.name


class ConstantStep(StepRule):
    """`alpha_k = alpha` for every k."""

    name = "constant"

    def __init__(self, alpha: object) -> None:
        self.value = exact(alpha)
        if self.value <= 0:
            raise ValueError(f"a constant step must be positive, not {as_text(self.value)}")

    def alpha(self, k: int, xbar_int: Sequence[int], scale: int) -> Fraction:
        """The constant."""
        return self.value

    def describe(self) -> str:
        """`constant alpha = ...`."""
        return f"constant alpha = {as_text(self.value)}"


class ScheduleStep(StepRule):
    """`alpha_k` from a sequence (k-th entry) or a function of k; positive values only."""

    name = "schedule"
    deterministic = False

    def __init__(self, alphas: Sequence[object] | Callable[[int], object]) -> None:
        self.source = alphas

    def alpha(self, k: int, xbar_int: Sequence[int], scale: int) -> Fraction | None:
        """The k-th value, None past the end of a finite schedule."""
        if callable(self.source):
            value = exact(self.source(k))
        elif k <= len(self.source):
            value = exact(self.source[k - 1])
        else:
            return None
        if value <= 0:
            raise ValueError(f"schedule step alpha_{k} = {as_text(value)} is not positive")
        return value

    def describe(self) -> str:
        """`schedule (...)`."""
        if callable(self.source):
            return f"schedule {getattr(self.source, '__name__', 'function')}(k)"
        shown = ", ".join(as_text(exact(a)) for a in list(self.source)[:5])
        return f"schedule ({shown}{', ...' if len(self.source) > 5 else ''})"


class OptimalStep(StepRule):
    """The oracle-optimal `alpha_k = <theta*, xbar_k> / ||xbar_k||^2`."""

    name = "optimal"

    def __init__(self, theta_star: Sequence[object]) -> None:
        self.theta = tuple(exact(v) for v in theta_star)
        # theta* = T / D with integers: every alpha is then one Fraction, not d of them
        self._T, self._D = integer_vector(self.theta)
        self._described: str | None = None

    def alpha(self, k: int, xbar_int: Sequence[int], scale: int) -> Fraction | None:
        """`scale * <theta*, xbar_int> / ||xbar_int||^2` (None when xbar_k = 0)."""
        norm2 = sum(map(mul, xbar_int, xbar_int))
        if norm2 == 0:
            return None
        inner = sum(map(mul, self._T, xbar_int))
        return Fraction(scale * inner, self._D * norm2)

    def describe(self) -> str:
        """`optimal alpha_k for theta* = (...)`, written once per rule: every run of a rule
        shared by several starts (`verify.runs.batch.engine_batch_runner`) says it, and on
        the adversary's 73 coordinates writing theta* cost as much as a short run."""
        if self._described is None:
            self._described = ("optimal alpha_k = <theta*, xbar_k>/||xbar_k||^2, theta* = ("
                               + ", ".join(as_text(v) for v in self.theta) + ")")
        return self._described


#: Step rules by name (`step="optimal"` needs `theta_star`).
STEPS: dict[str, type[StepRule]] = {"constant": ConstantStep, "schedule": ScheduleStep,
                                    "optimal": OptimalStep}


def _step_rule(step: object, theta_star: Sequence[object] | None) -> StepRule:
    if isinstance(step, StepRule):
        return step
    if step == "optimal":
        if theta_star is None:
            raise ValueError("the optimal step needs theta_star, a reference separator")
        return OptimalStep(theta_star)
    if isinstance(step, str) and step in STEPS:
        raise ValueError(f"step {step!r} needs its parameters: pass a {STEPS[step].__name__}")
    if callable(step) or (isinstance(step, Sequence) and not isinstance(step, str)):
        return ScheduleStep(step)  # type: ignore[arg-type]
    return ConstantStep(step)


def run_batch(data: Dataset, *, step: object, theta_star: Sequence[object] | None = None,
              rule: str = "le", max_iterations: int = 1000, w0: Sequence[object] | None = None,
              bias: bool = False, keep_trace: bool = True) -> BatchResult:
    """The batch perceptron on `data` (see the module docstring).

    `step`: a positive number (constant alpha), a sequence or function of k (a schedule),
    `"optimal"` (with `theta_star`), or a `StepRule`. `w0`: the initial iterate (None: zero);
    with `bias` a constant 1 is appended to every example and `w0`, `theta_star` count it.
    """
    if rule not in _RULES:
        raise ValueError(f"unknown rule {rule!r}; use 'le' or 'lt'")
    bias = flag(bias, "bias")
    if max_iterations < 0:
        raise ValueError(f"max_iterations must be >= 0, not {max_iterations}")
    chooser = _step_rule(step, theta_star)
    form = integer_form(data, bias=bias)
    d = form.d
    if isinstance(chooser, OptimalStep) and len(chooser.theta) != d:
        raise ValueError(f"theta_star has {len(chooser.theta)} coordinates, the run needs {d}")
    start = tuple(exact(v) for v in w0) if w0 is not None else (Fraction(0),) * d
    if len(start) != d:
        raise ValueError(f"w0 has {len(start)} coordinates, the run needs {d}")
    W, D = integer_vector(start)
    Z = _SignedRows(form)  # M_k: the j where <W_k, Z[j]> <= 0 (or < 0)
    strict = rule == "lt"
    # the optimal step from n-vectors, not d-vectors: <T, xbar> = sum_{j in M} <T, Z[j]> and
    # ||xbar||^2 = sum_{j in M} <xbar, Z[j]> (the margins' own move), the same integers
    # (with the Gram rows only: else `<T, Z[j]>` costs as much as the products it saves)
    optimal = type(chooser).alpha is OptimalStep.alpha and Z.gram is not None
    if optimal:
        assert isinstance(chooser, OptimalStep)
        towards, theta_den = Z.products(chooser._T), chooser._D
    sets: list[tuple[int, ...]] = []
    alphas: list[Fraction] = []
    iterates: list[tuple[tuple[int, ...], int]] = [(tuple(W), D)]
    xbars: list[tuple[int, ...]] = []
    saved, saved_k, power, lam = iterates[0], 0, 1, 0
    converged, reason, k = False, "", 0
    margins = Z.products(W)  # <W_k, Z[j]>, kept up to date below
    while True:
        M = ([j for j, m in enumerate(margins) if m < 0] if strict
             else [j for j, m in enumerate(margins) if m <= 0])
        if not M:
            converged, reason = True, f"M_{k} is empty: w_{k} makes no mistake"
            break
        if k >= max_iterations:
            reason = f"iteration cap {max_iterations} reached with |M_{k}| = {len(M)}"
            break
        xbar, moved = Z.step(M)  # and <xbar, Z[j]> for every j
        if moved is None:
            reason = (f"xbar_{k} = 0 with |M_{k}| = {len(M)}: no step can move w_{k}, "
                      "the run never converges")
            break
        if optimal:
            alpha: Fraction | None = Fraction(
                form.scale * sum([towards[j] for j in M]),
                theta_den * sum([moved[j] for j in M]))
        else:
            alpha = chooser.alpha(k + 1, xbar, form.scale)
        if alpha is None:
            reason = f"the step schedule has no alpha_{k + 1}"
            break
        a = alpha.numerator
        if a == 0:
            reason = (f"alpha_{k + 1} = 0: w_{k} would never change, the run never converges")
            break
        # w + alpha * xbar_int / s  with  w = W / D,  alpha = a / b: W' = W b s + D a xbar
        # over D b s, reduced; its margins <W', Z[j]> follow from the old ones and
        # <xbar, Z[j]> (integers of the data's size) instead of a product with the
        # iterate, whose integers grow by hundreds of bits over a run
        bs, Da = alpha.denominator * form.scale, D * a
        W = [wi * bs + Da * xi for wi, xi in zip(W, xbar, strict=True)]
        margins = [m * bs + Da * p for m, p in zip(margins, moved, strict=True)]
        D = D * bs
        g = gcd(D, *W)  # divides every <W', Z[j]> too, W' being a multiple of g
        if g > 1:
            W, D = [wi // g for wi in W], D // g
            margins = [m // g for m in margins]
        k += 1
        sets.append(tuple(M))
        alphas.append(alpha)
        now = (tuple(W), D)
        iterates.append(now)
        xbars.append(tuple(xbar))
        if chooser.deterministic:
            if now == saved:
                reason = (f"cycling: w_{k} equals w_{saved_k}, so the iterations repeat "
                          "forever: the run never converges")
                break
            lam += 1
            if lam == power:
                saved, saved_k, power, lam = now, k, power * 2, 0
    w: Vector = tuple(Fraction(wi, D) for wi in W)
    separating = all(m > 0 for m in margins)
    trace = (BatchTrace(data, bias, start, sets, alphas, BatchIntegers(form, tuple(iterates),
                                                                   tuple(xbars)))
             if keep_trace else None)
    return BatchResult(k, converged, reason, w, rule, chooser.describe(), bias, trace,
                       separating, tuple(alphas))



class _SignedRows:
    """The signed examples `Z[j] = y_j rows[j]` of a run's integer form, and the two exact
    products the batch loop takes of them, as Python ints: in Python lists for a small `Z`
    (`SMALL_CELLS`), else by numpy (`step`, `exact_matvec`)."""

    def __init__(self, form: IntegerForm) -> None:
        self.Z = form.signed_once
        self.max_abs = form.max_abs
        self.rows: list[list[int]] | None = self.Z.tolist() if self.Z.size <= SMALL_CELLS else None
        # the Gram rows where `Z @ xbar` would be Python products: small data, and int64 data
        # whose products may pass int64 (`n d max_abs^2`, a bound on every `<xbar, Z[j]>`);
        # not for data of Python ints, whose Gram costs more than the runs' products saved
        n, d = self.Z.shape
        self.gram: list[list[int]] | None = (
            form.signed_gram if self.rows is not None
            or (self.Z.dtype != object and n * d * form.max_abs ** 2 >= 2**63) else None)
        self.machine = self.rows is None and self.gram is None and self.Z.dtype != object

    def step(self, M: Sequence[int]) -> tuple[list[int], list[int] | None]:
        """`xbar = sum_{j in M} Z[j]` and `<xbar, Z[j]>` for every j (None when `xbar = 0`).

        Numpy's rows: `xbar` the sum of the rows of M, in int64 when `|M| max_abs` fits
        (it bounds every partial sum), else in Python ints (no product: the coefficients
        are 1s); on int64 rows without the Gram rows (`machine`) the products in int64 too,
        `n d max_abs^2 < 2**63` bounding every partial sum of `<xbar, Z[j]>`. No Python
        pass over the `d` coordinates to bound them (`exact_combination`), nor a copy of
        Python-int rows per product."""
        if self.rows is not None:
            xbar = self.total(M)
            return xbar, self.moved(M, xbar) if any(xbar) else None
        taken = self.Z[list(M)]
        small = taken.dtype != object and len(M) * self.max_abs < 2**63
        total = taken.sum(axis=0) if small else taken.astype(object).sum(axis=0)
        xbar = total.tolist()
        if not any(xbar):
            return xbar, None
        return xbar, (self.Z @ total).tolist() if self.machine else self.moved(M, xbar)

    def moved(self, M: Sequence[int], xbar: Sequence[int]) -> list[int]:
        """`<xbar, Z[j]>` for every j, `xbar = sum_{j in M} Z[j]`: by the Gram rows of M when
        kept (`n |M|` additions; the Gram being symmetric, row j is column j), else
        `products(xbar)`."""
        gram = self.gram
        if gram is None:
            return self.products(xbar)
        if len(M) == 1:
            return gram[M[0]]
        return [sum(column) for column in zip(*(gram[j] for j in M), strict=True)]

    def products(self, v: Sequence[int]) -> list[int]:
        """`<v, Z[j]>` for every j."""
        if self.rows is None:
            return exact_matvec(self.Z, v, self.max_abs)
        return [sum(map(mul, z, v)) for z in self.rows]

    def total(self, M: Sequence[int]) -> list[int]:
        """`sum_{j in M} Z[j]` (`M` not empty) of a small `Z`'s Python lists (the row itself
        for one member, as `moved` gives its Gram row: neither is ever written)."""
        rows = self.rows
        assert rows is not None
        if len(M) == 1:
            return rows[M[0]]
        return [sum(column) for column in zip(*(rows[j] for j in M), strict=True)]
