"""Work budgets: the search stops after so much work, never after so many seconds.

A verdict must not depend on the machine's load (docs/design.md §2, "Verdicts are deterministic").
So every loop of the search is bounded by a count of the work it does, charged as it goes:

* `candidates`: LP columns built (hypothesis products, squares, equality multiples);
* `terms`: monomial terms of those columns, the cost of expanding them;
* `lp_rows` x `lp_columns`: the size of one coefficient-matching LP (a larger one is skipped);
* `lp_iterations`: HiGHS's simplex iteration limit for one LP (a deterministic count);
* `points`: candidate points screened by the counterexample search;
* `sdp_entries`: the unknowns of one semidefinite program (Gram entries of all its blocks and
  equality multiples): a larger one is not solved, so the budget decides which relaxation
  degrees are tried (`large` reaches higher multiplier degrees and bases than `default`);
* `sdp_iterations`: Clarabel's interior-point iteration limit for one SDP (a count);
* `sdp_multipliers`: how many multipliers `m` the SDP tries for `m * claim` (1, then each
  strict hypothesis, then their products): `default` tries only 1, `large` buys four, so
  `b**2 < 4ac, ax**2 + bx + c == 0 |- 0 >= 1` (sos.ml 1625: `(4ac - b**2) * -1 ==
  (2ax + b)**2 - 4a * e`) is proved at `large` only.

The same input charges the same work in the same order, so it runs out of budget at the same
place on any machine. A wall-clock `guard` may be set on top, only as a defence against hostile
input: when it fires the verdict says `time cap`, and a built-in proof never comes near it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from time import perf_counter
from typing import ClassVar

from verify.verdict import Stop


@dataclass(frozen=True)
class SearchBudget:
    """How much work one `decide` may do, per kind (see the module docstring)."""

    candidates: int
    terms: int
    lp_rows: int
    lp_columns: int
    lp_iterations: int
    points: int
    sdp_entries: int
    sdp_iterations: int
    sdp_multipliers: int = 1

    LABELS: ClassVar[dict[str, str]] = {
        "candidates": "candidate",
        "terms": "term",
        "lp_rows": "LP row",
        "lp_columns": "LP column",
        "lp_iterations": "LP iteration",
        "points": "point",
        "sdp_entries": "SDP Gram entry",
        "sdp_iterations": "SDP iteration",
        "sdp_multipliers": "SDP multiplier",
    }

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"budget {field.name} must be a positive integer, not {value!r}")

    def scaled(self, factor: float) -> SearchBudget:
        """Every count times `factor` (rounded up, at least 1): what `--budget` scales."""
        if not (isinstance(factor, int | float) and math.isfinite(factor) and factor > 0):
            raise ValueError(f"budget factor must be a positive number, not {factor!r}")
        return SearchBudget(
            **{f.name: max(1, math.ceil(getattr(self, f.name) * factor)) for f in fields(self)}
        )


# The most any built-in step needs (measured over all 12 built-in proofs, 339 decisions):
# 5 167 candidates, 25 797 terms, one LP of 2 199 rows x 4 895 columns, 14 simplex iterations,
# 32 768 points. The default leaves room (the full counterexample search is 983 040 points),
# so no built-in verdict is decided by the budget (the library tests check every built-in proof
# at the default budget; tests/test_verify/search/test_search_work.py checks the margin on a
# table step).
DEFAULT_BUDGET = SearchBudget(
    candidates=20_000,
    terms=200_000,
    lp_rows=5_000,
    lp_columns=10_000,
    lp_iterations=10_000,
    points=1 << 20,
    sdp_entries=2_500,  # a 60 x 60 Gram matrix and change: 4 variables at degree 6
    sdp_iterations=100,  # Clarabel converges in 15-40 on the benchmark's goals
)
BUDGETS: dict[str, SearchBudget] = {
    "small": DEFAULT_BUDGET.scaled(0.25),
    "default": DEFAULT_BUDGET,
    "large": DEFAULT_BUDGET.scaled(4),
}


class Exhausted(Exception):
    """A budget ran out; the message names it, e.g. `candidate budget 20000 exhausted`."""


class TimeCap(Exception):
    """The wall-clock guard fired (hostile input, or a machine far too slow)."""


class Work:
    """The work charged so far by one `decide`, against its budget and optional guard."""

    def __init__(self, budget: SearchBudget, guard: float | None = None) -> None:
        self.budget = budget
        self.guard = guard
        self.used: dict[str, int] = {f.name: 0 for f in fields(budget)}
        self.peak: dict[str, int] = dict(self.used)  # largest single LP, for the budget test
        self.notes: list[str] = []
        self.stops: list[Stop] = []  # what the notes say stopped the search, as kinds
        self._deadline = None if guard is None else perf_counter() + guard

    def fork(self) -> Work:
        """A fresh count against the same budget and the same guard deadline: for a search
        whose verdict must not depend on what was searched before it (`verify.relevance`)."""
        other = Work(self.budget)
        other._deadline = self._deadline
        other.guard = self.guard
        return other

    def seconds_left(self) -> float | None:
        """The seconds before the guard fires (None: no guard; 0 once it has passed): for a
        call the search cannot interrupt (one SDP solve), which is handed it as its own cap."""
        return None if self._deadline is None else max(0.0, self._deadline - perf_counter())

    def check_guard(self, during: str) -> None:
        """Raise `TimeCap` if the guard is set and has passed; the clock is read only then."""
        if self._deadline is not None and perf_counter() > self._deadline:
            raise TimeCap(f"time cap reached during {during}")

    def charge(self, kind: str, amount: int = 1) -> None:
        """Count `amount` units of `kind`; raise `Exhausted` once the budget is passed."""
        self.used[kind] += amount
        limit = getattr(self.budget, kind)
        if self.used[kind] > limit:
            raise Exhausted(f"{SearchBudget.LABELS[kind]} budget {limit} exhausted")
        self.check_guard(f"the search ({SearchBudget.LABELS[kind]}s)")

    def grant(self, kind: str, wanted: int) -> int:
        """Up to `wanted` units of `kind` (fewer when the budget is nearly spent), charged."""
        left = getattr(self.budget, kind) - self.used[kind]
        if left <= 0:
            raise Exhausted(f"{SearchBudget.LABELS[kind]} budget {getattr(self.budget, kind)} "
                            "exhausted")
        granted = min(wanted, left)
        self.charge(kind, granted)
        return granted

    def fits_lp(self, rows: int, columns: int) -> bool:
        """Whether one LP of this size is within budget (noting it when it is not)."""
        self.peak["lp_rows"] = max(self.peak["lp_rows"], rows)
        self.peak["lp_columns"] = max(self.peak["lp_columns"], columns)
        if rows <= self.budget.lp_rows and columns <= self.budget.lp_columns:
            return True
        self.note(f"an LP of {rows} rows x {columns} columns is over the LP size budget "
                  f"{self.budget.lp_rows} x {self.budget.lp_columns}",
                  Stop("lp-over", (rows, columns, self.budget.lp_rows, self.budget.lp_columns)))
        return False

    def fits_sdp(self, entries: int) -> bool:
        """Whether one SDP with this many unknowns is within budget (noting it when not)."""
        if entries <= self.budget.sdp_entries:
            return True
        self.note(f"an SDP of {entries} unknowns is over the SDP size budget "
                  f"{self.budget.sdp_entries}",
                  Stop("sdp-over", (entries, self.budget.sdp_entries)))
        return False

    def lp_iterations_used(self, iterations: int, *, stopped: bool) -> None:
        """Record one LP's iteration count; note when it stopped at the limit."""
        self.used["lp_iterations"] += iterations
        self.peak["lp_iterations"] = max(self.peak["lp_iterations"], iterations)
        if stopped:
            self.note(f"LP iteration budget {self.budget.lp_iterations} exhausted",
                      Stop("exhausted"))

    def note(self, message: str, stop: Stop | None = None) -> None:
        """A remark for the verdict's message (each said once), and what it says stopped
        the search (`stop`, for the advice: `Stop`)."""
        if message not in self.notes:
            self.notes.append(message)
            if stop is not None:
                self.stops.append(stop)
