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
- updates late in the order (at index 8 and later, on the last example, at lengths 9, 13,
  24 and `LATE_N` = 200), so a `fit` that stops reading at any index below 200 differs
  (one that stops at 200 or later reads every example here: no finite test catches it);
- a decision hanging on the last of `WIDE_D` = 256 features, so a `fit` that reads only the
  first K features differs for every K below 256 (the campaigns stop at 21 features);
- one run of 2996 mistakes that converges in epoch 1042 (`y x` = `(m, 1)`, `(1 - m, -1)`,
  `(1, 0)` at m = 32; for even m the engine makes `3m^2 - 5m/2 + 4` mistakes and converges
  in epoch `m^2 + m/2 + 2`, the first without an update: epochs count as `run_text` says
  "converges in epoch N", the last one included), so a cap on epochs or mistakes below
  that differs. No finite test can catch a cap beyond its longest run. Three examples,
  not two: with two, every order makes the same updates, and a shuffled perceptron would
  only look slow, not reordered;
- data that are not integers (halves, quarters, eighths: dyadic, so float64 holds them and
  every score exactly), handed over as written, where scores in (0, 1/8] occur without an
  update: a wrong threshold (`< 1`, `<= 0.5`) fires there. Campaign scenarios are handed over
  as integers, where every score is an integer and such a threshold equals `<= 0`;
- a positive score of 2^-1000 after an update ("a tiny score", data at the scale 2^-500:
  an absolute tolerance such as `y <w, x> <= 0.01` or `<= 1e-20` fires there) and one whose
  cosine `y <w, x> / (||w|| ||x||)` is about
  2^-52 ("a tiny cosine": a relative tolerance `<= r ||w|| ||x||` fires there for any r above
  about 2.2e-16, whatever the data's scale), both float-exact (`T R^4 s^4 < 2^106`);
- `plan` asks every scenario whose exact run has two or more epochs with updates for runs cut
  after fewer epochs too, and asks the `protocol` scenarios for further fits of the same
  instance: on the labels negated, then on read-only arrays;
- `run_text`, `w_hint`, `rate_hint` and `divergence` say what the exact perceptron did where the
  implementation first differs, in its epochs and updates, so a failure can be acted on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np

from perceptron.algorithms.trace import Trace
from perceptron.dataset import Dataset, Vector
from perceptron.geometry.linear import dot
from perceptron.geometry.max_margin import max_margin
from perceptron.numbers import beside
from perceptron.result import RunResult
from verify.runs.columns import Origin
from verify.runs.quantity import Scenario

#: The name of the source of `protocol()`.
PROTOCOL = "protocol"
#: Past 2^24 + 1 float32 rounds integers; float64 holds these runs exactly.
FLOAT32_GAP = 2**24 + 1
#: "a tiny score" is at the scale 2^-TINY, its score after the update 2^-(2 TINY): above
#: float64's smallest normal number 2^-1022 even with a learning rate down to 2^-22, so
#: float64 holds every value exactly, and an absolute tolerance down to 2^-1000 shows.
TINY = 500
_TIES = ([[1, -1], [0, -2], [1, -2]], [-1, 1, 1])
#: The long run's `m`: its examples times their labels are `(m, 1)`, `(1 - m, -1)`, `(1, 0)`.
LONG_M = 32
#: The examples of the protocol's largest scenario, whose last one is updated: a `fit` that
#: stops reading examples at any index below it is caught; at it or beyond, no scenario can.
LATE_N = 200
#: The features of the protocol's widest scenario, whose last one decides an update: a `fit`
#: that reads only the first K features is caught for every K below it; at it or beyond, no
#: scenario can (red team 19: the widest scenario had 21 features, and a fit reading only 21
#: passed).
WIDE_D = 256
#: The epochs the protocol scenarios may take, whatever `max_epochs` (a cap for the campaign
#: sources) says: the longest, `LONG_M^2 + LONG_M / 2 + 2 = 1042`, with room for a perceptron
#: in another order to finish (`theory_only`).
PROTOCOL_EPOCHS = 2000


def _q(*rows: str) -> list[list[Fraction]]:
    """Rows written as text (`"3/4 -5/8"`): exact dyadic rationals."""
    return [[Fraction(v) for v in row.split()] for row in rows]


def _late_updates(n: int = LATE_N) -> tuple[list[list[int]], list[int]]:
    """`n` examples whose exact run updates on the first and the last one and converges in
    epoch 2, so a `fit` that never reads example `n - 1` (a cutoff at any index below `n`)
    differs, at the cost of two epochs (a fit's check is dominated by its visits). Every
    `y x` is distinct, in `{1, 2} x [-1, 3] x [-3, 3]^2` with its first coordinate positive
    (u = e_1 separates them: the bound is 31 mistakes), so no update on another example can
    stand for the last one's. The first, `y x = (1, 1, 0, 0)`, is the run's first update,
    and every other but the last scores positive on it (`a + b > 0`): the perceptron that
    skips the last example converges in one epoch at a `w` that misclassifies it, which
    `theory_only` then sees too (its run claims to be finished). After the last one's update
    `w = (2, -1, 1, -1)`, on which every example scores positive (`2a - b + c - d > 0`)."""
    pool = [(a, b, c, d) for a, b, c, d in product((1, 2), range(-1, 4), range(-3, 4),
                                                   range(-3, 4))
            if a + b > 0 and 2 * a - b + c - d > 0 and (a, b, c, d) != (1, 1, 0, 0)]
    signed = [(1, 1, 0, 0), *(pool[j * 97 % len(pool)] for j in range(n - 2)), (1, -2, 1, -1)]
    labels = [1 if i % 3 else -1 for i in range(n)]
    return [[label * v for v in row] for row, label in zip(signed, labels, strict=True)], labels


def _last_feature(d: int = WIDE_D) -> tuple[list[list[int]], list[int]]:
    """Two examples of `d` features whose exact run's decision on the second hangs on the last
    feature alone: `x_1 = e_d` (y = +1) and `x_2 = -(e_1 + e_d)` (y = -1). The run updates on
    x_1 to `w_1 = e_d`, on which x_2 scores `y <w_1, x_2> = 1`: no update; it converges in
    epoch 2 after 1 mistake. A `fit` that scores only the first K < d features sees 0 there
    (`w_1` is 0 on them) and updates again; one that also updates only those never learns
    `e_d` and never converges. Both labels occur (scikit-learn's `fit` needs them)."""
    first = [0] * d
    first[-1] = 1
    second = [0] * d
    second[0] = second[-1] = -1
    return [first, second], [1, -1]


Rows = list[list[int]] | list[list[Fraction]]
#: name -> (rows, labels). The properties each is here for are asserted by
#: tests/test_verify/testing/test_testing_protocol.py.
DATA: dict[str, tuple[Rows, list[int]]] = {
    # 4 epochs with updates (2, 2, 2, 1; it converges in epoch 5): a plateau, ties of both
    # labels at w != 0
    "ties and a plateau": _TIES,
    # 56 epochs with updates (it converges in epoch 57), the last example among them
    "57 epochs": ([[2, 5], [-4, -3], [-5, -4]], [-1, -1, 1]),
    # the first run scaled past float32's integers (the same run: scale invariance)
    "beyond float32": ([[v * FLOAT32_GAP for v in row] for row in _TIES[0]], _TIES[1]),
    # the last example (index 8) updated in epochs 3, 5 and 7
    "late updates (n=9)": ([[4, 5, -4], [3, -3, 2], [-3, 1, -1], [3, -2, -3], [-4, -1, 2],
                            [0, 1, 3], [-5, 0, 1], [1, 3, -3], [3, 4, -3]],
                           [1, -1, 1, 1, 1, -1, 1, 1, 1]),
    # updates at index 10 and on the last example (12) after the first epoch
    "late updates (n=13)": ([[4, 1, 5], [-1, 5, 2], [5, 5, 4], [-5, 0, 0], [-2, 5, -5],
                             [-2, 2, -2], [3, 5, -2], [-5, -3, -2], [2, 2, -4], [4, -1, 5],
                             [-1, 1, 0], [5, -1, 5], [-4, 4, -4]],
                            [1, 1, 1, -1, 1, -1, 1, -1, 1, 1, -1, 1, -1]),
    # updates at indices 8 to 23 in several epochs, the last example (23) in epochs 2 and 3
    "late updates (n=24)": ([[-5, 3, 1], [-2, -2, -2], [-3, 0, 4], [-6, 4, -6], [2, 6, 6],
                             [-5, -6, 4], [-2, -4, 6], [-4, 6, 2], [-4, -5, -1], [-6, 5, -1],
                             [-4, -1, 3], [6, -5, -5], [-1, -3, -2], [1, -1, 4], [1, 1, 2],
                             [2, -5, -5], [-1, 1, 0], [6, 0, 2], [1, 2, 0], [2, -5, -3],
                             [-4, 4, 0], [2, -1, -4], [-5, -4, -4], [-6, 0, 4]],
                            [-1, -1, 1, -1, 1, 1, 1, -1, 1, -1, 1, 1, -1, 1, 1, -1, -1, 1, -1,
                             1, -1, -1, -1, 1]),
    # the first and the last of 200 examples updated in epoch 1, converged in epoch 2
    f"late updates (n={LATE_N})": _late_updates(),
    # the last of WIDE_D = 256 features decides whether the second example updates
    f"the last feature (d={WIDE_D})": _last_feature(),
    # 2996 mistakes in 1041 epochs with updates (it converges in epoch 1042): a cap on epochs
    # or mistakes below that shows
    # ((1, 0) as x = (-1, 0) labelled -1: both labels, which scikit-learn's `fit` needs)
    "1042 epochs": ([[LONG_M, 1], [1 - LONG_M, -1], [-1, 0]], [1, 1, -1]),
    # one update to w = 1/2, then the score 1/4: `< 1` updates until w = 2
    "a half": (_q("1/2"), [1]),
    # quarters: a score of 1/16 without an update; the last example updated in epoch 10
    "quarters": (_q("-5/4 -7/4 3/4", "-1 -3/4 3/4", "3/2 5/4 1/2", "1/4 1/4 1/2",
                    "5/4 -3/4 3/2", "-1 3/2 -1", "5/4 3/4 1/2", "-5/4 -2 -1", "3/4 1/2 -1/2"),
                 [1, 1, 1, 1, 1, -1, 1, 1, -1]),
    # eighths: a score of 7/64 without an update, 4 epochs with updates
    "eighths": (_q("-3/4 5/8", "3/8 1/4", "1/2 -1/2", "-11/8 5/8", "-3/2 -5/4"),
                [1, 1, -1, -1, -1]),
    # one update to w = 2^-500, then the score 2^-1000 (on the same y x, labelled -1): an
    # absolute tolerance (`y <w, x> <= 0.01`, `<= 1e-20`, any at or above 2^-1000, about
    # 9.3e-302) updates again; float64 holds every value as a normal number (red team 12:
    # at 2^-26, a score of 2^-52, `<= 1e-20` passed)
    "a tiny score": (_q(f"1/{2**TINY}", f"-1/{2**TINY}"), [1, -1]),
    # one update to w = (2^26, 1), then y <w, x> = 1 where ||w|| ||x|| is about 2^52: a
    # relative tolerance (`y <w, x> <= r ||w|| ||x||`, any r above 2^-52) updates again
    "a tiny cosine": ([[2**26, 1], [-1, 2**26 - 1]], [1, -1]),
}


def budget(source: str, max_epochs: int) -> int:
    """The epochs a scenario of `source` may take: `max_epochs`, at least `PROTOCOL_EPOCHS`
    for the protocol's (fixed separable data whose longest run needs 1042)."""
    return max(max_epochs, PROTOCOL_EPOCHS) if source == PROTOCOL else max_epochs


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
    the state after some epoch (a wrong number of epochs) or after some update; '' when
    nowhere (then `rate_hint` may say which learning rate makes it)."""
    trace = _trace(full)
    epoch_of: dict[int, int] = {}  # the first epoch count k after which the run is at w_t
    for k, t in enumerate(_epoch_ends(full)):
        epoch_of.setdefault(t, k)
    # one replay of the run (each `trace.iterate(t)` is a combination of every example:
    # asked for every t, most of a buggy fit's comparison); an epoch's end first, whatever
    # its t, else the first update at w
    update = None
    for t, state in enumerate(trace.iterates()):
        if state != w:
            continue
        if t in epoch_of:
            return f"; it is the exact perceptron's w after {epoch_of[t]} epoch(s) (w_{t})"
        if update is None and 1 <= t < len(trace):
            update = t
    if update is not None:
        return (f"; it is the exact perceptron's w_{update}, reached at update {update} in "
                f"epoch {int(trace.epochs[update - 1])}")
    return ""


def _epoch_ends(full: RunResult) -> list[int]:
    """The updates the exact run had made at its start and after each of its epochs: the
    `t` of its w after 0, 1, 2, ... epochs."""
    trace = _trace(full)
    ends = np.searchsorted(trace.epochs, np.arange(1, full.epochs + 1), side="right")
    return [0, *ends.tolist()]


def rate_hint(w: Vector, full: RunResult) -> str:
    """When `w` is `c` times the exact perceptron's w after some epoch (`c > 0`, not 1) and
    the run starts at 0: the perceptron with another learning rate, whose iterates from
    w_0 = 0 are the same times `c` (newcomer 28: a correct perceptron with rate 1/2 failed
    108 of 108 calls with "final w differs", nothing pointing at `conventions=`)."""
    conventions = full.conventions
    if conventions.w0 is not None and any(conventions.w0):
        return ""
    trace = _trace(full)
    for k, t in enumerate(_epoch_ends(full)):
        exact = trace.iterate(t)
        c = next((a / b for a, b in zip(w, exact, strict=True) if b), None)
        if c is None or c <= 0 or c == 1 or any(a != c * b for a, b in zip(w, exact,
                                                                           strict=True)):
            continue
        rate = c * conventions.eta
        written = (f"Fraction({rate.numerator}, {rate.denominator})" if rate.denominator > 1
                   else str(rate.numerator))
        return (f"; it is {beside(c)} times the exact perceptron's w after {k} epoch(s) "
                f"(w_{t}), as a learning rate of {beside(rate)} makes it from w_0 = 0: if "
                f"that rate is intended, check it with conventions=Conventions(eta={written})")
    return ""


def epochs_hint(iterates: Sequence[Vector], full: RunResult, epochs: int) -> str:
    """When the iterates are the start of the exact full run (a wrong number of epochs, not
    a wrong step), say where that run reaches their end; '' otherwise."""
    trace = _trace(full)
    T = len(iterates) - 1
    if T > len(trace) or any(a != b for a, b in zip(trace.iterates(), iterates,
                                                      strict=False)):
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
             f"{record.index} (y = {record.y:+d}, y<w_{t - 1}, x> = {beside(margin)}), to "
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
    shown = ", ".join(beside(a) for a in list(v)[:limit])  # type: ignore[arg-type]
    return f"({shown}{', ...' if len(v) > limit else ''})"
