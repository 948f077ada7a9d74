"""Search over the order of a fixed dataset for the most perceptron mistakes.

The mistake bound holds for every order, so the order that maximises mistakes is the one that
stresses it most. Exhaustive over all permutations for `n <= 7` (5040 runs at most); beyond,
a seeded local search (random restarts plus adjacent and random swaps, keeping improvements),
so that every result reproduces from its seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from perceptron.dataset import Dataset

#: Counts the mistakes of a run on data in the given order.
MistakeCounter = Callable[[Dataset], int]
EXHAUSTIVE_LIMIT = 7


@dataclass(frozen=True)
class OrderResult:
    """The best order found, its mistakes, how many orders were tried, and how."""

    order: tuple[int, ...]
    mistakes: int
    tried: int
    exhaustive: bool
    seed: int | None


def engine_mistakes(data: Dataset) -> int:
    """Mistakes of the default online perceptron run (cyclic epochs until error-free)."""
    from perceptron.algorithms.online import run_online

    return int(run_online(data, keep_trace=False).mistakes)


def most_mistakes(data: Dataset, *, mistakes: MistakeCounter = engine_mistakes, seed: int = 0,
                  budget: int = 2000) -> OrderResult:
    """The order of `data` with the most mistakes: exhaustive for n <= 7, else local search."""
    if data.n <= EXHAUSTIVE_LIMIT:
        best: tuple[tuple[int, ...], int] | None = None
        tried = 0
        for order in itertools.permutations(range(data.n)):
            tried += 1
            count = mistakes(data.subset(order))
            if best is None or count > best[1]:
                best = (order, count)
        assert best is not None
        return OrderResult(best[0], best[1], tried, True, None)
    return _local_search(data, mistakes, seed, budget)


def _local_search(data: Dataset, mistakes: MistakeCounter, seed: int,
                  budget: int) -> OrderResult:
    rng = random.Random(seed)
    n = data.n

    def score(order: Sequence[int]) -> int:
        return mistakes(data.subset(order))

    best_order = tuple(range(n))
    best = score(best_order)
    tried = 1
    while tried < budget:
        order = list(range(n))
        rng.shuffle(order)
        current = score(order)
        tried += 1
        stale = 0
        while stale < 2 * n and tried < budget:
            i, j = rng.randrange(n), rng.randrange(n)
            if i == j:
                continue
            order[i], order[j] = order[j], order[i]
            candidate = score(order)
            tried += 1
            if candidate >= current:
                stale = 0 if candidate > current else stale + 1
                current = candidate
            else:
                order[i], order[j] = order[j], order[i]
                stale += 1
        if current > best:
            best, best_order = current, tuple(order)
    return OrderResult(best_order, best, tried, False, seed)
