"""Counterexamples to steps with sums, on concrete small sets: the sums unfolded.

The ordinary search reads every sum as an unknown, so the points it finds give sums values
no set gives them, and the kernel (which evaluates sums) rejects them. Here the naturals of
the bounds, and the scalars in the indices of family members, take small values (0..3, the
smallest first, then up to 5 for three names or fewer); every sum then ranges over a
concrete set and is unfolded into its terms, each member of a family becoming a name of its
own (`y[2]` is `_y_2`, independent of the others: a family is any function). A member of a
filtered set is in or out by a pattern of choices (all in, all out, then mixed), the filter
or its negation becoming a hypothesis. The ordinary search then looks for a point of the
unfolded judgement; the point is read back as families and handed to the kernel's `refute`,
which evaluates the step as written there. Deterministic; bounded (`MAX_VALUES`
assignments, those the hypotheses on their names alone leave, `PATTERNS` patterns,
`MAX_TERMS` terms and `MAX_VISITS` members visited in the unfolding, a `SHARE` of the
step's budget for each), and stopped by the step's time cap when the user sets one
(`--time-limit`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from fractions import Fraction
from time import perf_counter

import sympy

from proofs.language.expressions import MAX_TERMS as EXPRESSION_TERMS
from verify import kernel
from verify.kernel import Counterexample, Judgement, atoms
from verify.kernel.algebra import Fact, evaluate, normal_form
from verify.search.counterexamples import CounterexampleSearch
from verify.search.polynomials import Context
from verify.search.work import Exhausted, SearchBudget, TimeCap, Work

VALUES = range(4)  # the values tried for each natural of a bound or scalar of an index
WIDER = range(6)  # then, while fewer than MAX_VALUES were tried, these (`_assignments`)
WIDENED = 3  # names at most, for WIDER
MAX_VALUES = 24  # assignments tried, the smallest first
PATTERNS = (-1, 0, 1, 2, 5, 6, 9, 10)  # memberships: all in, all out, mixed (bit i: i-th)
MAX_TERMS = 600  # symbols an unfolded judgement may have
MAX_VISITS = 4 * MAX_TERMS  # members of sums visited by one unfolding (filters' sums too)
#: Terms an unfolded expression may expand to, predicted before SymPy expands it: a product
#: of sums unfolds to the product of their sizes (red team 18: `sum(k in 1..2, sum(l in
#: 1..60, sum(m in 1..60, y[k]*y[l]*y[m])))`, which the kernel reads as a product of three
#: sums, expanded to 3 660 terms in 60 names, whose normal form took 183 s past a 5 s
#: `--time-limit`; 3 x 400 x 400 took 1.4 GB). The bound a proof file's own expressions
#: have (1 000 terms per expression).
MAX_EXPANDED = EXPRESSION_TERMS
SHARE = 1 / 16  # of the step's budget, for each assignment and pattern


def _expansion(expanded: sympy.Expr, table: dict[sympy.Symbol, sympy.Expr]) -> int:
    """At most how many terms `expanded` (an expanded expression) expands to with each symbol
    replaced as `table` says: each of its terms the product of its factors' sizes, a
    divisor's (a negative power) counted as a factor."""
    total = 0
    for term in sympy.Add.make_args(expanded):
        count = 1
        for factor, power in term.as_powers_dict().items():
            if factor in table:
                count *= len(sympy.Add.make_args(table[factor])) ** abs(int(power))
        total += count
    return total


class _TooLarge(Exception):
    """An unfolding past `MAX_TERMS` or `MAX_VISITS`: not searched."""


#: Substitutions already made (`_substituted`), by expression and values.
_Memo = dict[tuple[sympy.Expr, frozenset[tuple[str, sympy.Expr]]], sympy.Expr]


def _substituted(e: sympy.Expr, values: dict[str, sympy.Expr], memo: _Memo) -> sympy.Expr:
    """`atoms.substitute(e, values, {})`, made once per expression and values for a search:
    the patterns of one assignment substitute the same values into the same hypotheses and
    the same members (only which members count differs), and a substitution into a sum is
    most of an attempt's cost (it rebuilds the sum's canonical form). The result is the
    kernel's, a SymPy expression (immutable), whichever pattern asks first."""
    key = (e, frozenset(values.items()))
    if key not in memo:
        memo[key] = atoms.substitute(e, values, {})
    return memo[key]


class _Unfolding:
    """One assignment and one pattern of memberships: the symbols it made and the facts it
    assumed about memberships."""

    def __init__(self, pattern: int, memo: _Memo) -> None:
        self.pattern = pattern
        self.memo = memo
        self.decided: dict[tuple[Fact, ...], bool] = {}
        self.assumed: list[Fact] = []
        self.members: dict[str, tuple[str, Fraction]] = {}  # plain name -> (family, index)
        self.visits = 0  # members of sums visited: sums in filters of sums nest, and multiply

    def plain(self, family: str, index: sympy.Expr) -> str:
        if not index.is_Rational:
            raise _TooLarge  # an index that is no number here: not unfolded
        value = Fraction(int(index.p), int(index.q))
        name = f"_{family}_{'m' * (value < 0)}{abs(value.numerator)}_{value.denominator}"
        self.members[name] = (family, value)
        if len(self.members) > MAX_TERMS:
            raise _TooLarge
        return name

    def expr(self, e: sympy.Expr) -> sympy.Expr:
        """`e`, every index concrete, with its sums unfolded and its members named (past
        `MAX_EXPANDED` predicted terms: `_TooLarge`, before anything is expanded)."""
        table = {s: self.symbol(s) for s in e.free_symbols}
        expanded = sympy.expand(e)  # expanded once: the prediction reads its terms
        if _expansion(expanded, table) > MAX_EXPANDED:
            raise _TooLarge
        return sympy.expand(expanded.xreplace(table))

    def symbol(self, s: sympy.Symbol) -> sympy.Expr:
        found = atoms.gram_pair(s) or atoms.structure(s)
        if found is None:
            return s
        if isinstance(found, atoms.Family):
            return sympy.Symbol(self.plain(found.family, found.index))
        if isinstance(found, tuple):
            names = [v if atoms.IDENT.fullmatch(v) else self.plain(
                atoms.structure(sympy.Symbol(v)).family,  # type: ignore[union-attr]
                atoms.structure(sympy.Symbol(v)).index) for v in found]  # type: ignore[union-attr]
            return atoms.gram(*names)
        lo, hi = found.lo, found.hi
        if not (lo.is_Integer and hi.is_Integer) or hi - lo > MAX_TERMS:
            raise _TooLarge
        self.visits += max(int(hi - lo) + 1, 0)
        if self.visits > MAX_VISITS:
            raise _TooLarge
        total = sympy.Integer(0)
        for k in range(int(lo), int(hi) + 1):
            at = {f"#{found.bound}": sympy.Integer(k)}
            filters = tuple(Fact(self.expr(_substituted(p, at, self.memo)), kind)
                            for p, kind in found.filters)
            if self.member(filters):
                total += self.expr(_substituted(found.body, at, self.memo))
        return total

    def member(self, filters: tuple[Fact, ...]) -> bool:
        """Whether the integer whose filters are these is a member, by the pattern (the same
        filters, the same answer), its filters or a negation assumed."""
        if not filters:
            return True
        if filters not in self.decided:
            bit = len(self.decided)
            inside = _inside(self.pattern, bit)
            self.decided[filters] = inside
            first = filters[0]
            self.assumed += list(filters) if inside else [Fact(
                first.expr if first.kind == "==" else -first.expr,
                ">" if first.kind != ">" else ">=")]
        return self.decided[filters]


def _inside(pattern: int, bit: int) -> bool:
    """Whether `pattern` puts in the `bit`-th member decided (-1: every member)."""
    return pattern == -1 or bool(pattern >> bit & 1)


def _repeats(pattern: int, decided: tuple[bool, ...]) -> bool:
    """Whether `pattern` decides the members of an unfolding as an earlier attempt did
    (`decided`, in the order it decided them), and so makes that unfolding again: the
    unfolding asks for each decision in an order its earlier decisions fix, so a pattern
    that answers the first ones alike meets the same members in the same order and asks no
    more. Its judgement is that attempt's, searched on the same budget: the same outcome,
    which did not end the search (a refutation would have)."""
    return all(_inside(pattern, bit) == inside for bit, inside in enumerate(decided))


def concrete(exprs: Iterable[sympy.Expr]) -> bool:
    """Whether a statement has sums or family members (which only a concrete point values:
    the ordinary search reads them as unknowns, and the kernel evaluates them)."""
    return any(atoms.structure(s) is not None and not atoms.IDENT.fullmatch(s.name)
               and not (atoms.gram_pair(s) and all(atoms.IDENT.fullmatch(v)
                                                   for v in atoms.gram_pair(s)))  # type: ignore[union-attr]
               for e in exprs for s in e.free_symbols)


def counterexample(seq: kernel.Sequent, label: str, budget: SearchBudget,
                   deadline: float | None = None) -> Counterexample | None:
    """A point on concrete sets at which the kernel refutes the decisive obligation `label`
    of `seq` as written, or None when none was found within the bounds. Raises `TimeCap`
    once `deadline` (a `perf_counter` time; None: no cap) has passed."""
    found = [o for o in kernel.obligations(seq) if o.label == label and o.decisive]
    if not found or found[0].written is None:
        return None
    hyps, claim = found[0].written
    exprs = [e for r in (*hyps, claim) for e in (r.lhs, r.rhs, *r.divisors)]
    named = set().union(*map(atoms.named, exprs))
    chosen = sorted(set().union(*map(atoms.bound_names, exprs)) | _index_names(exprs))
    memo: _Memo = {}  # the substitutions made, shared by every attempt
    for values in _assignments(chosen, hyps):
        fixed = dict(zip(chosen, map(sympy.Integer, values), strict=True))
        done: list[tuple[bool, ...]] = []  # the decisions of this assignment's unfoldings
        for pattern in PATTERNS:
            guard = None if deadline is None else max(0.0, deadline - perf_counter())
            if guard == 0.0:
                raise TimeCap("time cap reached during the search on concrete sets")
            if any(_repeats(pattern, decided) for decided in done):
                continue  # an attempt made already (all patterns alike where none is decided)
            try:  # each attempt on its own small share: one hard judgement stops no other
                point = _search(hyps, claim, fixed, pattern, Work(budget.scaled(SHARE), guard),
                                memo, done)
            except (_TooLarge, kernel.KernelError):
                break
            except Exhausted:
                continue
            if point is None:
                continue
            cex = _padded(point, named, fixed)
            try:
                kernel.refute(seq, label, cex)
            except kernel.KernelError:
                continue
            return cex
    return None


def _assignments(chosen: list[str], hyps: tuple[kernel.Rel, ...]) -> list[tuple[int, ...]]:
    """The values tried for `chosen`, at most `MAX_VALUES`: those in `VALUES` the smallest
    first, then those in `WIDER`, leaving out each where a hypothesis that reads `chosen`
    only is false (no counterexample there). Red team 12 (c1-slow.toml): `n >= 1 |-
    sum(j in N..n+1, 1) <= n - N + 2` fails first at n = 1, N = 4, outside `VALUES`: it
    ended unknown. Those in `VALUES` keep their order, so whatever was found among them
    still is, and first."""
    plain = [r for r in hyps if all(s.name in chosen for e in (r.lhs, r.rhs, *r.divisors)
                                    for s in e.free_symbols)]

    def possible(values: tuple[int, ...]) -> bool:
        point = dict(zip(chosen, values, strict=True))
        try:
            return all(evaluate(r, r.text, lambda s: Fraction(point[s.name])) for r in plain)
        except kernel.KernelError:  # undefined there (a divisor 0): no instance
            return False

    ordered = sorted(itertools.product(VALUES, repeat=len(chosen)), key=sum)
    if 0 < len(chosen) <= WIDENED:  # 6**k assignments: only for a few names
        ordered += sorted((v for v in itertools.product(WIDER, repeat=len(chosen))
                           if max(v) >= len(VALUES)), key=sum)
    return list(itertools.islice(filter(possible, ordered), MAX_VALUES))


def _index_names(exprs: list[sympy.Expr]) -> set[str]:
    """The scalars that stand in the index of a family member (outside any sum's index)."""
    out: set[str] = set()
    for e in exprs:
        for s in e.free_symbols:
            found = atoms.gram_pair(s) or atoms.structure(s)
            members = [found] if isinstance(found, atoms.Family) else [
                atoms.structure(sympy.Symbol(v)) for v in found if not atoms.IDENT.fullmatch(v)
            ] if isinstance(found, tuple) else []
            out |= {n for m in members for n in atoms.names_of(m.index)}  # type: ignore[union-attr]
            if isinstance(found, atoms.Sum):
                out |= {n for n in _index_names([found.body, *(p for p, _ in found.filters)])
                        if not n.startswith("#")}
    return out


def _search(hyps: tuple[kernel.Rel, ...], claim: kernel.Rel, fixed: dict[str, sympy.Expr],
            pattern: int, work: Work, memo: _Memo, done: list[tuple[bool, ...]]
            ) -> Counterexample | None:
    """A point of the unfolded judgement (one assignment, one pattern), as the search finds it
    (members named `_y_2`), or None. `memo`: the substitutions already made (`_substituted`);
    `done`: the unfolding's decisions are added to it, once it is made (`_repeats`)."""
    unfolding = _Unfolding(pattern, memo)
    facts: list[Fact] = []
    for r in (*hyps, claim):
        sides = [unfolding.expr(_substituted(e, fixed, memo)) for e in (r.lhs, r.rhs)]
        divisors = tuple(unfolding.expr(_substituted(d, fixed, memo)) for d in r.divisors)
        fact, conditions = normal_form(kernel.Rel(*sides[:1], r.op, sides[1], r.text,
                                                  divisors), r.text)
        facts += [*conditions, fact]
    done.append(tuple(unfolding.decided.values()))
    *given, goal = facts
    names = set().union(*(atoms.named(f.expr) for f in facts))
    judgement = Judgement((*given, *unfolding.assumed), goal,
                          tuple(sorted(n for k, n in names if k == "vector")),
                          tuple(sorted(n for k, n in names if k == "scalar")))
    point = CounterexampleSearch(Context(judgement, (), work)).search(work)
    if point is None:
        return None
    families: dict[str, dict[Fraction, object]] = {}
    for name, (family, index) in unfolding.members.items():
        value = point.scalars.get(name, point.vectors.get(name))
        if value is not None:
            families.setdefault(family, {})[index] = value
    return Counterexample({n: v for n, v in point.scalars.items() if n not in unfolding.members},
                          {n: v for n, v in point.vectors.items()
                           if n not in unfolding.members}, families)  # type: ignore[arg-type]


def _padded(point: Counterexample, named: set[tuple[str, str]],
            fixed: dict[str, sympy.Expr]) -> Counterexample:
    """`point` with the fixed values, and 0 (or the zero vector) for every other name of the
    statement it does not give (a name only a sum's body read, unfolded away)."""
    size = len(next(iter([*point.vectors.values(), *(
        v for m in point.families.values() for v in m.values() if isinstance(v, tuple))]),
        (Fraction(0),)))
    scalars = {n: Fraction(0) for k, n in named if k == "scalar"}
    scalars.update(point.scalars)
    scalars.update({n: Fraction(int(v)) for n, v in fixed.items()})
    vectors = {n: (Fraction(0),) * size for k, n in named if k == "vector"}
    vectors.update(point.vectors)
    # in name (and index) order: `named` is a set and the unfolding meets members in the
    # order of SymPy's symbol sets, so insertion order changed with the hash seed, and so
    # did the order every report prints the point in
    return Counterexample(dict(sorted(scalars.items())), dict(sorted(vectors.items())),
                          {f: dict(sorted(m.items())) for f, m in sorted(point.families.items())})
