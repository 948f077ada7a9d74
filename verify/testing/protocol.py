"""What one full call per scenario cannot see: the calls `check_implementation` makes, the
scenarios that need many epochs, and the words that say where an implementation first differs.

Why this exists: without a bias every campaign scenario converges in its first epoch, so a
single full call per scenario cannot tell the perceptron from a `fit` that makes one pass,
ignores `epochs`, stops an epoch early or late, stops when its mistake count plateaus, keeps
state from a previous fit, writes into its inputs, or decides a tie with the wrong `sign(0)`.
So:

- the `protocol` source holds small exact data whose runs need many epochs: ties of both
  labels after `w_0` (so `sign(0)` matters), equal mistake counts in consecutive epochs, the
  last example updated after the first epoch, several updates per epoch (stale scores show),
  and coordinates past float32's 2^24 where float64 is still exact;
- `plan` asks every scenario whose exact run has two or more epochs with updates for runs cut
  after fewer epochs too, and asks the `protocol` scenarios for further fits of the same
  instance: on the labels negated, then on read-only arrays;
- `run_text`, `w_hint` and `divergence` say what the exact perceptron did where the
  implementation first differs, in its epochs and updates, so a failure can be acted on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from perceptron.algorithms.trace import Trace
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import dot
from perceptron.geometry.max_margin import max_margin
from perceptron.numbers import as_text
from perceptron.result import RunResult
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario

#: The name of the source of `protocol()`.
PROTOCOL = "protocol"
#: Past 2^24 + 1 float32 rounds integers; float64 holds these runs exactly.
FLOAT32_GAP = 2**24 + 1
_TIES = ([[1, -1], [0, -2], [1, -2]], [-1, 1, 1])
#: name -> (rows, labels). The properties each is here for are asserted by the tests.
DATA: dict[str, tuple[list[list[int]], list[int]]] = {
    # 4 epochs with updates (2, 2, 2, 1): a plateau, ties of both labels at w != 0
    "ties and a plateau": _TIES,
    # 55 epochs with updates, the last example among them
    "56 epochs": ([[2, 5], [-4, -3], [-5, -4]], [-1, -1, 1]),
    # the first run scaled past float32's integers (the same run: scale invariance)
    "beyond float32": ([[v * FLOAT32_GAP for v in row] for row in _TIES[0]], _TIES[1]),
}


def protocol() -> Iterator[Scenario]:
    """The `protocol` scenarios (fixed data: `seed` and `count` do not apply), each with its
    certified maximum-margin separator as the reference `u`."""
    for name, (rows, labels) in DATA.items():
        data = Dataset.of(rows, labels, f"protocol({name})")
        yield Scenario(data, max_margin(data).w, Origin(PROTOCOL, None, data.name))


@dataclass(frozen=True)
class Call:
    """One call of `fit` on a scenario: `epochs` (None: as many as the exact run needs),
    the labels negated or not, read-only arrays or not, and in words what it probes."""

    epochs: int | None = None
    negate: bool = False
    read_only: bool = False
    what: str = "full run"

    @property
    def repeat(self) -> bool:
        """A further fit of an instance that has fitted this scenario already."""
        return self.negate or self.read_only


#: The first call on every scenario: all the epochs the exact run needs.
FULL_RUN = Call()


def busy_epochs(engine: RunResult) -> int:
    """The epochs of a converged run that made updates (its last one made none)."""
    return engine.epochs - 1 if engine.converged else engine.epochs


def plan(source: str, engine: RunResult) -> tuple[Call, ...]:
    """The calls to make on a scenario whose full exact run is `engine`."""
    calls = [FULL_RUN]
    busy = busy_epochs(engine)
    if engine.converged and busy >= 2:
        calls.extend(Call(epochs=k, what=f"epochs={k}, cut before the exact run converges "
                                         f"({busy} epochs with updates)")
                     for k in sorted({1, busy - 1}))
    if source == PROTOCOL:
        calls.append(Call(negate=True, what="a further fit of the same instance, on the "
                                            "labels negated"))
        calls.append(Call(read_only=True, what="a further fit of the same instance, on "
                                               "read-only X and y"))
    return tuple(calls)


def per_epoch(engine: RunResult) -> list[int]:
    """The updates the exact run made in each of its epochs."""
    trace = _trace(engine)
    return np.bincount(trace.epochs, minlength=engine.epochs + 1)[1:].tolist()


def run_text(engine: RunResult) -> str:
    """The exact run in a few words: its updates per epoch and how it ended."""
    counts = per_epoch(engine)
    shown = counts if len(counts) <= 12 else [*counts[:10], "...", *counts[-2:]]
    counts = ", ".join(map(str, shown))  # type: ignore[assignment]
    end = (f"converges in epoch {engine.epochs}" if engine.converged
           else f"stops after the {engine.epochs} epoch(s) asked")
    return f"per epoch {counts}: it {end}"


def w_hint(w: Vector, full: RunResult) -> str:
    """Where a final `w` that is not the exact one sits on the exact full run, if anywhere:
    the state after some epoch (a wrong number of epochs) or after some update."""
    trace = _trace(full)
    ends = np.searchsorted(trace.epochs, np.arange(1, full.epochs + 1), side="right")
    for k, t in enumerate([0, *ends.tolist()]):
        if trace.iterate(t) == w:
            return f"; it is the exact perceptron's w after {k} epoch(s) (w_{t})"
    for t in range(1, len(trace)):
        if trace.iterate(t) == w:
            return (f"; it is the exact perceptron's w_{t}, reached at update {t} in epoch "
                    f"{int(trace.epochs[t - 1])}")
    return ""


def epochs_hint(iterates: Sequence[Vector], full: RunResult, epochs: int) -> str:
    """When the iterates are the start of the exact full run (a wrong number of epochs, not
    a wrong step), say where that run reaches their end; '' otherwise."""
    trace = _trace(full)
    T = len(iterates) - 1
    if T > len(trace) or any(trace.iterate(t) != w for t, w in enumerate(iterates)):
        return ""
    at = "w_0" if T == 0 else f"update {T}, in epoch {int(trace.epochs[T - 1])}"
    return (f"its iterates are the exact perceptron's first {T} update(s), up to {at} of "
            f"its full run ({run_text(full)}), where it was asked for {epochs} epoch(s)")


def divergence(iterates: Sequence[Vector], engine: RunResult, t: int, data: Dataset) -> str:
    """What happens at the first iterate `t` where the implementation's leave the exact
    run's (`data` as the run sees them, bias coordinate included)."""
    trace = _trace(engine)
    if t == 0:
        return f"its w_0 is {vector_text(iterates[0])}, the exact perceptron starts from 0"
    if t > len(trace):
        return (f"it makes an update {t} (to {vector_text(iterates[t])}) where the exact "
                f"perceptron has made its last ({run_text(engine)})")
    record = trace[t - 1]
    margin = record.y * dot(record.w_before, record.x)
    exact = (f"the exact perceptron's update {t} is in epoch {record.epoch}, on example "
             f"{record.index} (y = {record.y:+d}, y<w_{t - 1}, x> = {as_text(margin)}), to "
             f"{vector_text(record.w_after)}")
    if t == len(iterates):
        return f"it stops after {t - 1} update(s); {exact}"
    step = tuple(b - a for a, b in zip(iterates[t - 1], iterates[t], strict=True))
    on = [i for i, (x, y) in enumerate(zip(data.X, data.y, strict=True))
          if step == tuple(engine.conventions.eta * y * v for v in x)]
    what = f" (an update on example {on[0]})" if on else ""
    return f"its update {t} goes to {vector_text(iterates[t])}{what}; {exact}"


def _trace(engine: RunResult) -> Trace:
    assert isinstance(engine.trace, Trace), "the exact runs keep their trace"
    return engine.trace


def vector_text(v: Sequence[object], limit: int = 8) -> str:
    shown = ", ".join(as_text(a) for a in list(v)[:limit])  # type: ignore[arg-type]
    return f"({shown}{', ...' if len(v) > limit else ''})"
