"""A natural counterexample from one the search found over the reals.

The search values every name as a real (a natural is only `t >= 0` to it), so it may find
`t = 3/2` where the hypotheses `(2*t - 3)*(t - 5) == 0` hold and the claim `t <= 1` fails,
which the kernel refuses as a refutation of a step with `t` natural; yet `t = 5` refutes it
(red team 9). Here the names that should be natural and are not are moved, one at a time, to
natural values along the line through the point found (every other name kept):

On that line each hypothesis, and the claim, is a polynomial in the one name; its truth
changes only at its real roots. So the values where the hypotheses hold and the claim fails
are finitely many intervals whose ends are such roots, and the least integer >= 0 in one of
them is 0 or 1, or next to one of its ends (its ceiling, or its floor plus 1). The candidates
are therefore 0, 1 and the integers from floor - 1 to ceiling + 1 around every real root
(isolated exactly, `Poly.intervals`, to width under 1/2), tried in increasing order: with a
single such name the first that refutes is the least natural counterexample on that line,
and when none does there is none on it (`Moved.complete`), unless a polynomial was of a
degree beyond `NATURAL_DEGREE` (its roots are not isolated then, and nothing is claimed).
With several such names, the candidates of each are taken given the values chosen for the
ones before (depth first, names in order), which is no longer complete.

The work is a count of candidate points evaluated (at most `NATURAL_POINTS`), never the
clock; values are exact. The point counts only once the kernel has refuted the step with it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import sympy

from verify.kernel import Counterexample, Judgement, gram_pair
from verify.kernel.algebra import holds

NATURAL_POINTS = 512  # candidate points evaluated, at most, per point moved
NATURAL_DEGREE = 24  # a polynomial of higher degree in the name: its roots are not isolated
_HALF = sympy.Rational(1, 2)


@dataclass(frozen=True)
class Moved:
    """The outcome: a point with every natural name natural where the hypotheses hold and
    the claim fails (or None), and whether the candidates covered every natural value of
    the line (one name moved, the judgement's only name, every root isolated)."""

    point: Counterexample | None
    complete: bool
    tried: int


def is_natural(value: Fraction) -> bool:
    """An integer >= 0."""
    return value.denominator == 1 and value >= 0


def natural_counterexample(judgement: Judgement, found: Counterexample,
                           naturals: Iterable[str]) -> Moved:
    """`found` with the names of `naturals` that it values off the naturals moved to natural
    values where it still refutes `judgement` (see the module docstring); `point` is None
    when no candidate does."""
    names = sorted(n for n in naturals if n in found.scalars
                   and not is_natural(found.scalars[n]))
    symbols = set().union(*(f.expr.free_symbols for f in (*judgement.hypotheses,
                                                           judgement.claim)))
    values: dict[sympy.Symbol, sympy.Rational] = {}
    for symbol in symbols:
        if symbol.name in names:
            continue
        pair = gram_pair(symbol)
        if pair is None:
            if symbol.name not in found.scalars:
                return Moved(None, False, 0)  # a member or a sum: no value here
            values[symbol] = sympy.Rational(found.scalars[symbol.name])
        else:
            a, b = (found.vectors.get(v) for v in pair)
            if a is None or b is None or len(a) != len(b):
                return Moved(None, False, 0)
            values[symbol] = sympy.Rational(sum((x * y for x, y in zip(a, b, strict=True)),
                                                Fraction(0)))
    claim = judgement.claim
    failing = {">=": (-claim.expr, ">"), ">": (-claim.expr, ">="), "==": (claim.expr, "!=")}
    facts = [(h.expr.xreplace(values), h.kind) for h in judgement.hypotheses]
    facts.append((failing[claim.kind][0].xreplace(values), failing[claim.kind][1]))
    search = _Search(names, {n: found.scalars[n] for n in names})
    chosen = search.first(facts, {})
    point = None if chosen is None else Counterexample(
        {**found.scalars, **chosen}, dict(found.vectors), dict(found.families))
    complete = (search.complete and len(names) == 1
                and {s.name for s in symbols} <= set(names))
    return Moved(point, complete and point is None, search.tried)


class _Search:
    """The depth-first search over the names' candidates (counted, exact)."""

    def __init__(self, names: list[str], start: dict[str, Fraction]) -> None:
        self.names = names
        self.start = start
        self.tried = 0
        self.complete = True  # every root isolated and no candidate left untried

    def first(self, facts: list[tuple[sympy.Expr, str]], chosen: dict[str, Fraction]
              ) -> dict[str, Fraction] | None:
        """The first natural values of the names not yet `chosen` where `facts` hold."""
        if len(chosen) == len(self.names):
            return chosen if all(_holds(e, k) for e, k in facts) else None
        name = self.names[len(chosen)]
        symbol = sympy.Symbol(name)
        later = {sympy.Symbol(n): sympy.Rational(self.start[n])
                 for n in self.names[len(chosen) + 1:]}
        line = [(e.xreplace(later), k) for e, k in facts]  # the line through the point
        for value in self._candidates(line, symbol):
            if self.tried >= NATURAL_POINTS:
                self.complete = False
                return None
            self.tried += 1
            at = sympy.Integer(value)
            if len(chosen) + 1 == len(self.names) and not all(
                    _holds(e.xreplace({symbol: at}), k) for e, k in line):
                continue
            found = self.first([(e.xreplace({symbol: at}), k) for e, k in facts],
                               {**chosen, name: Fraction(value)})
            if found is not None:
                return found
        return None

    def _candidates(self, line: list[tuple[sympy.Expr, str]], symbol: sympy.Symbol
                    ) -> list[int]:
        """0, 1 and the integers around every real root on the line, in increasing order."""
        wanted = {0, 1}
        value = self.start[symbol.name]
        wanted.update((math.floor(value), math.ceil(value)))
        for expr, _ in line:
            if symbol not in expr.free_symbols:
                continue
            poly = sympy.Poly(expr, symbol, domain=sympy.QQ)
            if poly.degree() > NATURAL_DEGREE:
                self.complete = False
                continue
            for (low, high), _ in poly.intervals(eps=_HALF):
                wanted.update(range(math.floor(low) - 1, math.ceil(high) + 2))
        return sorted(v for v in wanted if v >= 0)


def _holds(expr: sympy.Expr, kind: str) -> bool:
    """A fact without names, exactly (`!=`: the failure of an equality)."""
    value = sympy.Rational(expr)
    if kind == "!=":
        return value != 0
    return holds(kind, Fraction(int(value.p), int(value.q)))

