"""The teaching plot of `novikoff run --plot`: the two inequalities of the Novikoff proof along a
run, and the mistakes against the bound they give.

With `w_0 = 0`, learning rate `eta`, data of radius `R` and a unit separator `u` of margin
`gamma`, every update keeps

    <w_t, u>  >=  t eta gamma        (progress along u)
    ||w_t||^2 <=  t eta^2 R^2        (norm growth)

and Cauchy–Schwarz squeezes them: `(t eta gamma)^2 <= ||w_t||^2 <= t eta^2 R^2`, so
`t <= R^2 / gamma^2`. `bound_series` computes every quantity exactly (Fractions) and decides
each inequality exactly; `u` is the certified maximum-margin separator, kept unnormalised
(`<w_t, u>` and `gamma_u = min y<u, x>` scale alike), so no square root is ever taken.
`plot` (and `draw`, which saves it) is the only place floats appear, and only as coordinates
on the page; matplotlib is imported there, lazily, so the command line stays fast to start.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perceptron.algorithms.trace import Trace
from perceptron.dataset import Dataset, Vector
from perceptron.errors import DataError
from perceptron.geometry.bound import NovikoffBound
from perceptron.geometry.linear import dot, functional_margins, norm2, radius2
from perceptron.numbers import approximate, shown, to_float
from perceptron.result import RunResult

if TYPE_CHECKING:  # matplotlib loads only when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The image formats `draw` writes, by file extension.
FORMATS: tuple[str, ...] = (".png", ".svg")
#: The largest bound drawn where it is (larger ones are drawn here, labelled exactly).
MAX_AXIS = 1e100
#: Squared quantities within 2**+-UNIT_RANGE of 1 are drawn as they are.
UNIT_RANGE = 200


def _unit_exponent(scale: Fraction) -> int:
    """An even `k` with `2**k` near `scale` when `scale` is far from 1, else 0."""
    if scale == 0:
        return 0
    log2 = scale.numerator.bit_length() - scale.denominator.bit_length()
    if abs(log2) <= UNIT_RANGE:
        return 0
    return 2 * (log2 // 2)


@dataclass(frozen=True)
class BoundSeries(NovikoffBound):
    """The exact quantities of the two Novikoff inequalities at `t = 0, 1, ..., T` updates.

    `u` is the reference separator (unnormalised), `gamma_u = min_i y_i <u, x_i>` its
    functional margin, so the normalised margin is `gamma^2 = gamma_u^2 / <u, u>`.
    `alignment[t] = <w_t, u>` and `norms2[t] = ||w_t||^2`.
    """

    name: str
    R2: Fraction
    u: Vector
    gamma_u: Fraction
    u_norm2: Fraction
    certified_optimal: bool
    eta: Fraction
    alignment: tuple[Fraction, ...]
    norms2: tuple[Fraction, ...]
    converged: bool

    @property
    def mistakes(self) -> int:
        """Updates made by the run."""
        return len(self.alignment) - 1

    def progress_floor(self, t: int) -> Fraction:
        """`t eta gamma_u`: the lower bound on `<w_t, u>` (unnormalised `u`)."""
        return t * self.eta * self.gamma_u

    def norm_ceiling(self, t: int) -> Fraction:
        """`t eta^2 R^2`: the upper bound on `||w_t||^2`."""
        return t * self.eta**2 * self.R2

    def progress_tight(self) -> tuple[int, ...]:
        """The updates `t >= 1` where `<w_t, u> == t eta gamma_u` exactly."""
        return tuple(t for t, a in enumerate(self.alignment)
                     if t and a == self.progress_floor(t))

    def norm_tight(self) -> tuple[int, ...]:
        """The updates `t >= 1` where `||w_t||^2 == t eta^2 R^2` exactly."""
        return tuple(t for t, n in enumerate(self.norms2) if t and n == self.norm_ceiling(t))

    def progress_ratio(self) -> tuple[int, Fraction] | None:
        """The update `t >= 1` where `<w_t, u> / (t eta gamma_u)` is least, and that ratio
        (1 means equality): how close the run comes to the lower bound."""
        ratios = [(a / self.progress_floor(t), t) for t, a in enumerate(self.alignment) if t]
        return None if not ratios else min(ratios)[::-1]

    def norm_ratio(self) -> tuple[int, Fraction] | None:
        """The update `t >= 1` where `||w_t||^2 / (t eta^2 R^2)` is greatest, and that ratio
        (1 means equality): how close the run comes to the upper bound."""
        ratios = [(n / self.norm_ceiling(t), -t) for t, n in enumerate(self.norms2) if t]
        if not ratios:
            return None
        ratio, t = max(ratios)
        return -t, ratio

    def progress_holds(self) -> bool:
        """`<w_t, u> >= t eta gamma_u` at every update (decided exactly)."""
        return all(a >= self.progress_floor(t) for t, a in enumerate(self.alignment))

    def norm_holds(self) -> bool:
        """`||w_t||^2 <= t eta^2 R^2` at every update (decided exactly)."""
        return all(n <= self.norm_ceiling(t) for t, n in enumerate(self.norms2))

    def within_bound(self) -> bool:
        """`mistakes <= R^2 / gamma^2` (decided exactly)."""
        return self.mistakes <= self.bound


def _bias_separates(data: Dataset) -> bool:
    """Whether a constant column makes `data` separable, decided exactly: `--bias` is
    advised only then (red team 35: two copies of one point with opposite labels were told
    'try --bias', which no bias separates; the audit decides it so, newcomer 24)."""
    from perceptron.geometry.separability import Separable, separability

    return isinstance(separability(data.augmented()), Separable)


def bound_series(data: Dataset, result: RunResult) -> BoundSeries:
    """The exact series of `result` (an online run on `data` with its trace kept).

    Raises DataError when the data (augmented, with a bias) are not separable: the theorem,
    and so the plot, needs a separator.
    """
    from perceptron.geometry.max_margin import NotSeparableError, max_margin

    conventions = result.conventions
    if not isinstance(result.trace, Trace):
        raise ValueError("the plot needs an online run over a dataset with its trace kept")
    if conventions.w0 is not None and any(conventions.w0):
        raise DataError("the plot shows the theorem for w0 = 0; this run starts elsewhere")
    seen = data.augmented() if conventions.bias else data
    try:
        separator = max_margin(seen)
    except NotSeparableError as exc:  # say which separators were looked for: the run's
        what = ("even with a bias" if conventions.bias else
                "through the origin (try --bias)" if _bias_separates(data) else
                "through the origin, nor with a bias")
        why = f" ({exc.certificate.reason})" if exc.certificate.reason else ""
        raise DataError(f"no plot: the data are not separable {what}{why}, and the plot "
                        "shows the Novikoff bound, which needs a separator",
                        source=data.name) from None
    u = separator.w
    iterates = list(result.trace.iterates())
    return BoundSeries(
        name=data.name,
        R2=radius2(seen),
        u=u,
        gamma_u=min(functional_margins(seen, u)),
        u_norm2=norm2(u),
        certified_optimal=separator.optimal,
        eta=conventions.eta,
        alignment=tuple(dot(w, u) for w in iterates),
        norms2=tuple(norm2(w) for w in iterates),
        converged=result.converged,
    )


def check_target(path: str) -> Path:
    """`path` as a plot target, refused (ValueError, one line) when its extension is not a
    supported format or its directory cannot be written, before any work is done."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise ValueError(f"--plot {path}: the file must end in {' or '.join(FORMATS)}")
    folder = target.parent
    if target.is_dir():
        raise ValueError(f"--plot {path}: is a directory")
    if not folder.is_dir():
        raise ValueError(f"--plot {path}: no directory {str(folder)!r}")
    if not _writable(target):
        raise ValueError(f"--plot {path}: not writable")
    return target


def _writable(target: Path) -> bool:
    import os

    if target.exists():
        return os.access(target, os.W_OK)
    return os.access(target.parent, os.W_OK | os.X_OK)


def _shown(q: Fraction) -> str:
    """An exact number for a label: `p/q` when short, else a decimal approximation."""
    text = shown(q, 12)
    return text if "~" not in text else approximate(q)


def _mistakes(count: int) -> str:
    """`1 mistake`, `3 mistakes`: the title and notes count them in words (red team 9: the
    plot of a run with one update said `1 mistakes`)."""
    return f"{count} mistake{'' if count == 1 else 's'}"


def _equals(q: Fraction) -> str:
    """`= p/q`, or `≈ decimal` when the exact form is too long to read."""
    text = shown(q, 12)
    return f"= {text}" if "~" not in text else f"≈ {approximate(q)}"


def _which(ts: tuple[int, ...], total: int, closest: tuple[int, Fraction] | None,
           what: str) -> str:
    if not ts:
        if closest is None:
            return "no update was made"
        t, ratio = closest
        ratio_text = approximate(ratio, 3)
        return f"strict at every update; closest at t = {t}:\n{what} {ratio_text} × bound"
    if len(ts) == total:
        return ("equality at its one update (tight)" if total == 1
                else f"equality at all {total} updates (tight)")
    listed = ", ".join(map(str, ts[:8])) + (", ..." if len(ts) > 8 else "")
    return f"equality at {len(ts)} of {total} updates (t = {listed})"


def draw(series: BoundSeries, path: str | Path) -> None:
    """Write the figure (`plot`) to `path` (.png or .svg)."""
    plot(series).savefig(path, bbox_inches="tight", dpi=110)


def plot(series: BoundSeries, ax: Sequence[Axes] | None = None) -> Figure:
    """The three panels (progress, norm, mistakes against the bound) as a matplotlib Figure,
    for a notebook to show inline or a user to restyle; `ax`: three Axes to draw into
    (e.g. `plt.subplots(1, 3)[1]`), else a new Figure.

    The Figure is made without pyplot, so nothing is registered in a global figure list
    (no leak in a long session, no backend switch) and Jupyter shows the returned object.
    """
    T = series.mistakes
    exact_bound = series.bound
    bound = min(to_float(exact_bound), MAX_AXIS)  # scale-invariant; clipped only to draw
    # Lengths are drawn in units of 2**(k/2), squares in units of 2**k, with 2**k near
    # eta^2 R^2: data at 1e308 or 1e-400 draw like data at 1 (no float overflows or
    # underflows to 0); k = 0 for ordinary data, whose numbers are drawn as they are.
    k = _unit_exponent(series.eta**2 * series.R2)
    square_unit = Fraction(2) ** k
    progress_slope = math.sqrt(to_float(series.eta**2 * series.gamma2 / square_unit))
    norm_slope = to_float(series.eta**2 * series.R2 / square_unit)
    in_units = f"   (in units of 2^{k // 2})" if k else ""
    in_square_units = f"   (in units of 2^{k})" if k else ""
    # Panels 1-2 show the run (and the bound when it is near); panel 3 always reaches the bound,
    # on log-log axes when the bound dwarfs the run.
    far = bound > 3 * max(T, 1)
    right = (max(T, 1) if far else max(T, bound)) * 1.08 + 0.5
    ts = list(range(T + 1))
    line = [0.0, right]
    point = {"marker": "o" if T <= 60 else None, "markersize": 5, "linewidth": 1.6,
             "zorder": 3}
    dashed = {"linestyle": "--", "linewidth": 1.5, "zorder": 4}  # on top: visible when tight
    forbid = {"color": "tab:red", "alpha": 0.08}

    if ax is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(16, 5.4), layout="constrained")
        FigureCanvasAgg(fig)  # a renderer to measure the notes with, and to save with
        ax1, ax2, ax3 = fig.subplots(1, 3)
    else:
        ax1, ax2, ax3 = ax
        fig = ax1.get_figure()
    verdict = "≤" if series.within_bound() else ">"
    fig.suptitle(
        f"Novikoff's mistake bound on {series.name}: {_mistakes(T)} {verdict} "
        f"R²/γ² {_equals(series.bound)}"
        + ("" if series.converged else "  (run stopped before converging)"),
        fontsize=14, fontweight="bold")

    # 1. progress along u
    align = [(1.0 if a >= 0 else -1.0)
             * math.sqrt(to_float(a * a / (series.u_norm2 * square_unit)))
             for a in series.alignment]
    ax1.fill_between(line, [0.0, 0.0], [0.0, right * progress_slope], **forbid,
                     label="forbidden by the proof")
    ax1.plot(ts, align, color="tab:blue", **point, label="⟨w_t, u⟩  (this run)")
    ax1.plot(line, [0.0, right * progress_slope], color="tab:red", **dashed,
             label="t·η·γ  (lower bound)")
    ax1.set_xlim(0, right)
    ax1.set_ylim(0, max(max(align), right * progress_slope) * 1.15 or 1.0)
    ax1.set_title("① progress along u:  ⟨w_t, u⟩ ≥ t·η·γ")
    ax1.set_ylabel("⟨w_t, u⟩   (u: max-margin separator, ‖u‖ = 1)" + in_units)
    notes = [(ax1, series.progress_holds(),
              _which(series.progress_tight(), T, series.progress_ratio(), "⟨w_t,u⟩ ="),
              [*zip(ts, align, strict=True)], _sampled(line, [0.0, right * progress_slope]))]

    # 2. norm growth
    norms = [to_float(n / square_unit) for n in series.norms2]
    top = max(max(norms), right * norm_slope) * 1.05 or 1.0
    ax2.fill_between(line, [0.0, right * norm_slope], [top, top], **forbid,
                     label="forbidden by the proof")
    ax2.plot(ts, norms, color="tab:green", **point, label="‖w_t‖²  (this run)")
    ax2.plot(line, [0.0, right * norm_slope], color="tab:red", **dashed,
             label="t·η²·R²  (upper bound)")
    ax2.set_xlim(0, right)
    ax2.set_ylim(0, top)
    ax2.set_title("② norm growth:  ‖w_t‖² ≤ t·η²·R²")
    ax2.set_ylabel("‖w_t‖²" + in_square_units)
    notes.append((ax2, series.norm_holds(),
                  _which(series.norm_tight(), T, series.norm_ratio(), "‖w_t‖² ="),
                  [*zip(ts, norms, strict=True)], _sampled(line, [0.0, right * norm_slope])))

    # 3. the squeeze: (t eta gamma)^2 <= <w_t,u>^2 <= ||w_t||^2 <= t eta^2 R^2
    end = max(T, bound) * (1.6 if far else 1.08) + (0 if far else 0.5)
    start = 0.8 if far else 0.0
    grid = [start + (end - start) * k / 400 for k in range(401)]
    if far:
        grid = [start * (end / start) ** (k / 400) for k in range(401)]
    lower = [(t * progress_slope) ** 2 for t in grid]
    upper = [t * norm_slope for t in grid]
    first = 1 if far else 0  # log axes: t >= 1
    squares = [a * a for a in align]
    ax3.axvspan(bound, end, **forbid, label="t > R²/γ²: ① and ② contradict")
    ax3.plot(ts[first:], norms[first:], color="tab:green", **point,
             label="‖w_t‖²  (this run)")
    ax3.plot(ts[first:], squares[first:], color="tab:blue", **point,
             label="⟨w_t, u⟩²  (this run)")
    ax3.plot(grid, upper, color="tab:green", **dashed, label="t·η²·R²  from ②")
    ax3.plot(grid, lower, color="tab:blue", **dashed, label="(t·η·γ)²  from ①")
    ax3.axvline(bound, color="black", linewidth=1.3)
    ax3.axvline(T, color="tab:purple", linewidth=1.3, linestyle=":")
    if far:
        ax3.set_xscale("log")
        ax3.set_yscale("log")
        # A margin far below R (gamma/R ~ 1e-400) draws (t eta gamma)^2 as 0: off log axes.
        floor = min((v for v in (lower[0], upper[0]) if v > 0), default=1.0)
        ax3.set_ylim(floor * 0.5, max(upper[-1], lower[-1], floor) * 2)
    else:
        ax3.set_ylim(0, max(upper[-1], max(norms)) * 1.15)
    ax3.set_xlim(start, end)
    _mark_top(ax3, T, exact_bound, bound)
    ax3.set_title("③ the squeeze:  (tηγ)² ≤ ⟨w_t,u⟩² ≤ ‖w_t‖² ≤ tη²R²\n"
                  "so every run stops by t = R²/γ², where the dashed curves cross")
    ax3.set_ylabel("squared length" + in_square_units)
    gap = exact_bound - T
    summary = ((f"{_mistakes(T)}: the bound is met exactly" if gap == 0
                else f"{_mistakes(T)}, {_shown(gap)} below the bound") if series.within_bound()
               else f"{_mistakes(T)} exceed{'s' if T == 1 else ''} the bound")
    notes.append((ax3, series.within_bound(), summary,
                  [*zip(ts[first:], norms[first:], strict=True),
                   *zip(ts[first:], squares[first:], strict=True)],
                  [*zip(grid, lower, strict=True), *zip(grid, upper, strict=True)]))

    for ax in (ax1, ax2, ax3):
        ax.set_xlabel("t = number of updates (mistakes) so far")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=9,
                  frameon=False)
    margin_note = ("certified maximum margin" if series.certified_optimal
                   else "verified lower bound on the margin")
    fig.text(0.5, -0.01,
             f"R² {_equals(series.R2)},  γ² {_equals(series.gamma2)} ({margin_note}),  "
             f"η {_equals(series.eta)},  w₀ = 0.  Every value is computed and every "
             "inequality decided exactly in rationals; floats are used only to draw.",
             ha="center", va="top", fontsize=10, color="dimgray")
    for note in notes:  # last: the layout (legends, titles) must be settled to measure them
        _note(*note)
    return fig


def _sampled(xs: list[float], ys: list[float], count: int = 40) -> list[tuple[float, float]]:
    """Points along the segment from (xs[0], ys[0]) to (xs[1], ys[1])."""
    return [(xs[0] + (xs[1] - xs[0]) * k / count, ys[0] + (ys[1] - ys[0]) * k / count)
            for k in range(count + 1)]


#: Where a verdict box may go, in axes coordinates, in order of preference.
_CORNERS = (
    (0.03, 0.96, "left", "top"),
    (0.97, 0.04, "right", "bottom"),
    (0.03, 0.04, "left", "bottom"),
    (0.97, 0.96, "right", "top"),
)


def _note(ax: Any, holds: bool, detail: str, points: list[tuple[float, float]],
          lines: list[tuple[float, float]]) -> None:
    """A boxed verdict in the first corner of the panel where it hides no drawn point
    (measured after layout, so the box's real size is used); where every corner hides one,
    the corner that hides the fewest of the run's own `points` (then of the bound's sampled
    `lines`): the last corner it fell back to hid the only point of a one-update run
    (newcomer 32 N8: `run sep.csv --plot`, panel 1)."""
    text = ("✔ holds at every update (checked exactly)" if holds else "✘ VIOLATED") + "\n" + detail
    fig = ax.figure
    fig.draw_without_rendering()  # settle the layout: axes sizes are final from here on
    renderer = fig.canvas.get_renderer()
    own, drawn = ax.transData.transform(points), ax.transData.transform(lines)
    hidden: list[tuple[int, int, int]] = []
    for index, (x, y, ha, va) in enumerate(_CORNERS):
        label = ax.text(x, y, text, transform=ax.transAxes, ha=ha, va=va, fontsize=9.5,
                        zorder=5, bbox={"boxstyle": "round", "facecolor": "white",
                                        "edgecolor": "tab:green" if holds else "tab:red"})
        box = label.get_window_extent(renderer).expanded(1.04, 1.15)
        label.remove()
        hidden.append((sum(box.contains(px, py) for px, py in own),
                       sum(box.contains(px, py) for px, py in drawn), index))
        if hidden[-1][:2] == (0, 0):
            break
    x, y, ha, va = _CORNERS[min(hidden)[2]]
    ax.text(x, y, text, transform=ax.transAxes, ha=ha, va=va, fontsize=9.5, zorder=5,
            bbox={"boxstyle": "round", "facecolor": "white",
                  "edgecolor": "tab:green" if holds else "tab:red"})


def _mark_top(ax: Any, mistakes: int, bound: Fraction, at: float) -> None:
    """Label the mistakes and the bound (drawn at `at`, clipped to `MAX_AXIS`) on a top axis,
    each label leaning away from the other (mistakes <= bound), one label when they
    coincide."""
    from matplotlib.ticker import NullLocator

    top = ax.secondary_xaxis("top")
    top.xaxis.set_minor_locator(NullLocator())
    if mistakes == bound:
        top.set_xticks([mistakes], [f"mistakes = R²/γ² = {mistakes}"])
        top.get_xticklabels()[0].set_fontweight("bold")
        return
    clipped = " (off the chart)" if at < bound else ""
    top.set_xticks([mistakes, at],
                   [f"mistakes = {mistakes} ", f" bound R²/γ² {_equals(bound)}{clipped}"])
    ours, theirs = top.get_xticklabels()
    ours.set(ha="right", color="tab:purple")
    theirs.set(ha="left", fontweight="bold")
