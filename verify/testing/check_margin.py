"""Checking a third-party margin perceptron against the exact one.

`check_implementation` checks the perceptron, whose update rule is one of `Conventions`'
(`y<w, x> <= 0`, `< 0`, a wrong prediction): a margin perceptron, which updates whenever
`y<w, x> <= beta` for a margin `beta >= 0`, fails it on every scenario where an example
lands in `(0, beta]`, whether it is right or wrong (newcomer 34 N2: a lecturer's correct
margin perceptron failed 45 of 72 calls, and nothing in the package could tell her `<`
for `<=` from the right rule). `check_margin_implementation(fit, beta)` compares what
`fit` returns with `perceptron.algorithms.margin.run_margin` on the same data at the same
`beta`: the final weights, the number of updates and the iterates, when `fit` returns them.

The margin perceptron is not scale invariant (`beta` is a margin in the data's units), so
each scenario is handed over as the exact run reads it: a campaign's data scaled to integers
(the data the exact run is made on, in float64), and the scenarios of `TIES`, on which an
update lands exactly at `y<w, x> = beta` (a strict `<`, an off-by-one margin show there). A
call is compared only where float64 is proven exact along the exact run (`_float_exact`):
every value is then a multiple of the data's quantum `1/s^2` below `2^53` of them, so a
float64 margin perceptron computes exactly the exact one's numbers and any difference is a
defect; elsewhere the call is a note, never a verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from perceptron.algorithms.margin import MarginRun, run_margin
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import norm2, radius2, scaled_rows
from perceptron.numbers import as_text, exact
from verify.runs.quantity import Scenario
from verify.testing.check_implementation import (
    Calls,
    Fit,
    _Findings,
    _short,
    as_fitted,
    chosen_sources,
    listed_iterates,
)
from verify.testing.check_implementation import _vector as _read_vector
from verify.testing.protocol import vector_text

#: The campaign sources a margin perceptron is checked on by default, and the fixed ties.
MARGIN_SOURCES = ("tight", "generated", "ties")
#: The epoch cap of a campaign scenario's run (the exact run's own epochs when it converges).
MAX_EPOCHS = 200
#: The most epochs added to the cap for a large beta (`beta / c^2` for a tie scenario): a
#: beta whose ties need more, an odd numerator of 2^40, runs to the cap instead of for hours.
TIE_EPOCHS = 4096
#: Below this, `2^53`, every multiple of float64's quantum of the data is a float.
FLOAT_EXACT = 2**53


@dataclass(frozen=True)
class MarginOutcome:
    """One call: the scenario, the exact margin perceptron's run on it, what `fit`
    returned, and the problems found (or the note why it was not compared)."""

    source: str
    name: str
    X: np.ndarray
    y: np.ndarray
    epochs: int
    exact: MarginRun
    w: Vector | None
    updates: int | None
    problems: tuple[str, ...]
    note: str = ""

    @property
    def ok(self) -> bool:
        """No problem."""
        return not self.problems

    def reproducer(self) -> str:
        """The data handed over and the call, to paste into a test."""
        return (f"X = np.array({self.X.tolist()!r})\ny = np.array({self.y.tolist()!r})\n"
                f"fit(X, y, {self.epochs})")


@dataclass(frozen=True)
class MarginReport(Calls[MarginOutcome]):
    """Every call of a `check_margin_implementation`."""

    name: str
    beta: Fraction
    outcomes: tuple[MarginOutcome, ...]

    def summary(self) -> str:
        """One line per source: its calls, those compared, those with problems."""
        lines = [f"{self.name} vs the exact margin perceptron (update on y*<w,x> <= "
                 f"{as_text(self.beta)}, w0 = 0, eta = 1, cyclic epochs)"]
        for source in dict.fromkeys(o.source for o in self.outcomes):
            mine = [o for o in self.outcomes if o.source == source]
            lines.append(f"  {source:<10} calls {len(mine):<4} compared "
                         f"{sum(not o.note for o in mine):<4} problems "
                         f"{sum(not o.ok for o in mine)}")
        return "\n".join(lines)

    def raise_for_violations(self) -> None:
        """An AssertionError naming the first failing call, its problems and its data."""
        if self.ok:
            return
        first = self.failures[0]
        lines = [f"{self.name} is not the margin perceptron at beta = {as_text(self.beta)}: "
                 f"{len(self.failures)} of {len(self.outcomes)} calls fail; first: "
                 f"{first.source} {first.name}",
                 *(f"  - {p}" for p in first.problems), "  reproduce with:",
                 *(f"    {line}" for line in first.reproducer().splitlines())]
        raise AssertionError("\n".join(lines))


def ties(beta: Fraction) -> list[tuple[str, Dataset]]:
    """Data on which the exact run updates at `y<w, x> = beta` exactly: examples `c e_i`
    with `c = 2^-j`, `4^j` a multiple of the denominator `q` of `beta` (a power of 2), so
    that the scores `k c^2` meet `beta = p/q` at `k = p 4^j / q`; the margin perceptron
    updates there, a strict `<` does not. One example alone, two orthogonal ones, and the
    second with label -1."""
    c = Fraction(2) ** (_valuation(beta) // 2)
    rows = [("one example", [[c]], [1]),
            ("two orthogonal", [[c, 0], [0, c]], [1, 1]),
            ("two orthogonal, labels +1 -1", [[c, 0], [0, -c]], [1, -1])]
    return [(name, Dataset.of(X, y, f"ties: {name}")) for name, X, y in rows]


def _valuation(beta: Fraction) -> int:
    """The exponent of 2 in `beta` (a dyadic, so its denominator is a power of 2); 0 for 0.
    `c = 2^(v // 2)` makes `beta / c^2` a small integer for a power of 2, large or tiny: with
    `c` from the denominator alone, `beta = 2^40` asked for `2^40` updates of `c = 1` and
    hung the check (red team adv33)."""
    if beta == 0:
        return 0
    p, q = beta.numerator, beta.denominator
    return (p & -p).bit_length() - 1 - (q.bit_length() - 1)


def check_margin_implementation(fit: Fit, beta: Fraction | int | str, *,
                                sources: Sequence[str] | Mapping[str, Iterable[Scenario]]
                                = MARGIN_SOURCES, seed: int = 0, count: int = 8,
                                name: str | None = None) -> MarginReport:
    """Run `fit(X, y, epochs)` on the campaigns' scenarios and on `ties(beta)`, and compare
    it with the exact margin perceptron at `beta` (`run_margin`: w_0 = 0, step 1, cyclic
    epochs, an update whenever `y<w, x> <= beta`). `fit` returns its weights, or `(w,
    updates)` / `(w, updates, iterates)` (`verify.Fitted`). `beta` must be a float64 value
    (a dyadic rational such as 1, 1/2, 3/4), so that `fit` can hold it exactly, and, with
    `ties`, one its tie scenarios meet within `TIE_EPOCHS` updates (beta over the largest
    power of 4, `4^k` for any integer k, that divides it at most 4096: a tie cut at the
    cap tells `<` from `<=` not at all); `sources`: names among
    `tight`, `generated`, `adversary`, `ties`, or a mapping of source name to `Scenario`s."""
    beta = exact(Fraction(beta) if isinstance(beta, str) else beta)
    if beta < 0:
        raise ValueError(f"the margin perceptron needs beta >= 0, not {as_text(beta)}")
    if Fraction(float(beta)) != beta:
        raise ValueError(f"beta = {as_text(beta)} is no float64 value: a fit given "
                         f"{float(beta)!r} runs another margin; use a dyadic one (1, 1/2, 3/4)")
    label = name or getattr(fit, "__name__", None) or repr(fit)
    campaign = chosen_sources(sources, seed, count, own=("ties",))
    calls: list[tuple[str, str, Dataset]] = [
        (source, s.data.name, Dataset.of([[Fraction(v) for v in row]
                                          for row in scaled_rows(s.data)[1]], s.data.y,
                                         s.data.name))
        for source, scenarios in campaign.items() for s in scenarios]
    named = () if isinstance(sources, Mapping) else (
        (sources,) if isinstance(sources, str) else tuple(sources))
    if "ties" in named:
        c2 = Fraction(4) ** (_valuation(beta) // 2)
        if beta / c2 > TIE_EPOCHS:  # the tie is met after beta / c^2 updates, past the cap
            raise ValueError(f"beta = {as_text(beta)} is met by the tie scenarios only after "
                             f"{beta / c2} updates (at most {TIE_EPOCHS} are run): use a beta "
                             f"of fewer significant bits, or sources without 'ties'")
        calls += [("ties", title, data) for title, data in ties(beta)]
    if not calls:
        raise ValueError(f"no scenario to run {label} on: the sources given yield none")
    return MarginReport(label, beta, tuple(outcome for source, title, data in calls
                                           for outcome in _calls(fit, source, title, data,
                                                                 beta)))


def _float_exact(data: Dataset, run: MarginRun) -> bool:
    """Whether float64 is exact along `run`: the data dyadic with common denominator `s`,
    every iterate a multiple of `1/s`, every partial sum of a score `y<w, x>` a multiple of
    `1/s^2` bounded by `||w|| ||x||`; exact when `s^4 ||w_t||^2 R^2 < 2^106` at every
    iterate (and `beta`, a float, is compared with exact scores)."""
    s = data.scale()
    if s & (s - 1) or s * s > 2**1074:  # not dyadic, or a quantum below the subnormals'
        return False
    R2 = radius2(data)
    return all(s**4 * norm2(w) * R2 < FLOAT_EXACT**2 for w in _iterates(data, run))


def _iterates(data: Dataset, run: MarginRun) -> list[Vector]:
    """`w_0 = 0, w_1, ..., w_T` of the exact run, from the examples it updated on."""
    w: Vector = tuple(Fraction(0) for _ in range(data.d))
    out = [w]
    for i in run.indices:
        w = tuple(a + data.y[i] * b for a, b in zip(w, data.X[i], strict=True))
        out.append(w)
    return out


def _calls(fit: Fit, source: str, title: str, data: Dataset, beta: Fraction
           ) -> list[MarginOutcome]:
    """The full call on `data`, and, when its exact run converged after updating in two
    epochs or more, the call cut after the last epoch that updated (`epochs - 1`): a
    converged run's last epoch updates nothing, so a `fit` that ran one epoch fewer than it
    was given, or left the last epoch early, passed every full call (red team adv33)."""
    full = _call(fit, source, title, data, beta)
    if not (full.exact.converged and full.epochs >= 2):
        return [full]
    cut = full.epochs - 1
    return [full, _call(fit, source, f"{title}, cut after {cut} epoch{'' if cut == 1 else 's'}",
                        data, beta, cut)]


def _call(fit: Fit, source: str, title: str, data: Dataset, beta: Fraction,
          cap: int | None = None) -> MarginOutcome:
    """One call of `fit` on `data` as float64 holds it (the exact run is made on those
    floats' exact values, as `check_implementation`'s), given the epochs the exact run
    took, or cut after `cap` epochs (the exact run then made under that cap)."""
    X = np.array([[float(v) for v in row] for row in data.X], dtype=np.float64)
    data = Dataset.of([[Fraction(v) for v in row] for row in X.tolist()], data.y, data.name)
    # a tie scenario's run makes one update per epoch per example until its scores pass
    # beta: about beta / c^2 epochs, added to the cap up to TIE_EPOCHS
    smallest = min((norm2(x) for x in data.X if any(x)), default=Fraction(1))
    exact_run = run_margin(data, beta, max_epochs=cap or (MAX_EPOCHS
                           + min(int(beta / smallest), TIE_EPOCHS)))
    epochs = exact_run.epochs
    y = np.array(data.y, dtype=np.int64)
    given_X, given_y = X.copy(), y.copy()

    def outcome(problems: Sequence[str], w: Vector | None = None, updates: int | None = None,
                note: str = "") -> MarginOutcome:
        return MarginOutcome(source, title, X, y, epochs, exact_run, w, updates,
                             tuple(problems), note)

    if not _float_exact(data, exact_run):
        return outcome((), note="not compared: float64 is not proven exact along this run")
    try:
        returned = fit(given_X, given_y, epochs)
    except Exception as error:  # the implementation's failure is the finding
        return outcome([f"raised {type(error).__name__}: {error}"])
    problems = [f"changed its input {what}" for what, now, was in (("X", given_X, X),
                                                                    ("y", given_y, y))
                if not np.array_equal(now, was)]
    try:  # a return it cannot read is its finding too, not a raise (red team adv33)
        fitted = as_fitted(returned)
    except (ValueError, TypeError) as error:
        return outcome([*problems, f"returned {_short(returned)}, which is no weight vector, "
                                   f"(w, updates) or (w, updates, iterates): {error}"])
    w = _vector(fitted.w, "w", problems)
    if w is None or len(w) != data.d:
        return outcome([*problems, f"returned {_short(returned)}: no vector of {data.d} "
                                   "finite numbers as w"])
    updates = fitted.mistakes
    run_text = (f"{exact_run.updates} updates in {epochs} epoch(s), "
                + ("converged" if exact_run.converged else "cut at the epoch cap"))
    if w != exact_run.w:
        problems.append(f"final w differs from the exact margin perceptron's: implementation "
                        f"{vector_text(w)}, exact {vector_text(exact_run.w)} ({run_text})")
    listed = (None if fitted.iterates is None else
              listed_iterates(fitted.iterates, epochs * data.n, problems, "margin perceptron"))
    iterates = (None if listed is None else
                [_vector(v, f"iterate {t}", problems) for t, v in enumerate(listed)])
    if updates is None and iterates is not None:
        updates = len(iterates) - 1
    if updates is not None and updates != exact_run.updates:
        problems.append(f"made {updates} update{'' if updates == 1 else 's'}; the exact "
                        f"margin perceptron makes {exact_run.updates} ({run_text})")
    if iterates is not None:
        theirs = _iterates(data, exact_run)
        first = next((t for t, (a, b) in enumerate(zip(iterates, theirs, strict=False))
                      if a != b), None if len(iterates) == len(theirs)
                     else min(len(iterates), len(theirs)))
        if first is not None:
            problems.append(_parting(first, iterates, theirs, data, exact_run))
    return outcome(problems, w, updates)


def _parting(first: int, iterates: Sequence[Vector | None], theirs: Sequence[Vector],
             data: Dataset, run: MarginRun) -> str:
    """Where the iterates leave the exact run's, and the exact run's update there (its
    example and that example's margin `y<w, x>` before it)."""
    if first >= len(theirs):
        return (f"its iterates go on past w_{first - 1}, where the exact margin "
                f"perceptron's end, to w_{first}")
    where = ""
    if first >= 1:
        i = run.indices[first - 1]
        score = data.y[i] * sum((a * b for a, b in zip(theirs[first - 1], data.X[i],
                                                       strict=True)), Fraction(0))
        where = (f"; the exact update {first} is on example {i} (y = {data.y[i]:+d}), whose "
                 f"margin y<w_{first - 1}, x> = {as_text(score)} is <= beta")
    if first >= len(iterates):
        return (f"its iterates stop at w_{first - 1} where the exact margin perceptron's go "
                f"on to w_{first}{where}")
    return f"its iterates leave the exact margin perceptron's at w_{first}{where}"


def _vector(values: object, what: str, problems: list[str]) -> Vector | None:
    """`values` as exact numbers (`check_implementation`'s reading: text, NaN, a container
    refused), or None with the reason in `problems`. Read exactly, not through float64: a
    fit returning Fractions `1 + 2^-60` for 1 passed as the exact weights (red team adv33)."""
    seen = _Findings()
    out = _read_vector(values, what, seen)
    problems.extend(seen.defects)
    return out


__all__ = ["MARGIN_SOURCES", "MarginOutcome", "MarginReport", "check_margin_implementation",
           "ties"]
