"""Term-wise facts a step with sums may need, proposed as lemmas about one member.

A user proves `sum(k in 1..N, y[k]**2) >= 0` by writing a lemma `y[j]**2 >= 0` and using it
summed (`uses = [{ step = "member", sum = "j in 1..N" }]`, the kernel's term-wise rule,
`kernel.summed`). This module writes those lemmas for a step the search left unknown: for
each sum of its obligations (as the checker forms them), the lemmas that its body is `>= 0`
or `<= 0` at one member `j` (a fresh scalar), and, for several sums over one set in one
claim, that their combination there is `>= 0` (`a[j] <= b[j]` for `sum(a) <= sum(b)`); each
lemma's hypotheses are the membership facts (`j >= lo`, `j <= hi`, the set's filters: read
from the declared set whose summation gives exactly this sum) and the step's own hypotheses,
which do not mention the fresh j: exactly the premises the term-wise rule admits.

Nothing here is believed. The checker (`verify.proof_checker`) proves each lemma as a step of
its own, with a small share of the budget (counted work), and uses the proved ones summed,
as a user's `uses` does: the kernel checks the lemma's theorem and the summation, and the
step's report names the facts found (`StepReport.termwise`). A lemma whose summation
`summed` refuses, or whose sum is not the one it was written for, is never proposed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, Self, TypeVar

import sympy

from proofs.errors import ProofFileError
from proofs.language.expressions import ExpressionError, Relation, parse_relation
from proofs.step import IDENTIFIER, Direct, Proof, Step, Use
from verify import kernel
from verify.kernel import Obligation, atoms

MAX_SUMS = 4  # sums of one step looked at, in the order its obligations first mention them
MAX_LEMMAS = 8  # lemmas proposed for one step
INDICES = ("j", "i", "l", "m", "p", "q")  # the fresh index's name: the first free of these
MARK = "-termwise-"  # in a lemma's step id: `<step>-termwise-<k>`

#: The kernel's `summed` arguments of a use (`verify.proof_checker.over`, passed in: this
#: module is searched from there and imports nothing of it).
Summations = Callable[[Use, Proof], Sequence[tuple[str, sympy.Expr, sympy.Expr,
                                                   tuple[kernel.Rel, ...]]]]


@dataclass(frozen=True)
class Lemma:
    """A lemma about one member (`step`, a direct step of `proof` as `extended` makes it),
    the use that sums it over its sum's set, and the sums it speaks of (`key`: a lemma
    whose key another proved one has is not tried). A filter's lemma (`covers` False)
    bounds a combination of its sums, not each, so it leaves them to the lemmas after it."""

    step: Step
    use: Use
    key: tuple[sympy.Symbol, ...]
    covers: bool = True

    @property
    def shown(self) -> str:
        """`y[j]**2 >= 0 summed over j in 1..N`: the fact as a user's use reads."""
        return f"{self.step.claim.text} summed over {self.use.over}"


def fresh_index(proof: Proof) -> str | None:
    """A name for the member: no declared name, and no word of the proof's texts (a bound
    index of a written sum may be any undeclared name); None when all are taken."""
    taken = set(proof.vectors) | set(proof.scalars) | set(proof.indexed) | set(proof.sets)
    texts = [proof.source, *(r.text for s in proof.steps for r in (*s.hypotheses, s.claim)),
             *(w for s in proof.sets.values() for w in (s.lo, s.hi, *s.where))]
    words = set(IDENTIFIER.findall("\n".join(texts)))
    for name in (*INDICES, *(f"j{k}" for k in range(1, 10))):
        if name not in taken and name not in words:
            return name
    return None


def lemma_stem(step_id: str) -> str:
    """What a step's lemma ids start with, before `MARK` and a number: the step's id, or for
    an id too long to carry them (over 52 characters) its first 36 and a digest of the whole,
    53 characters. Distinct steps get distinct stems (a short id is never 53 characters long;
    two long ones differ in their digests), so two steps' lemmas never share an id: the text
    after the last `MARK` is the number, so the id gives back its stem. (Red team 17: ids
    cut at 40 characters gave two steps' different lemmas one id, and `--coq` and `audit
    --jobs 2` refused the file while `--jobs 1` passed it.)"""
    if len(step_id) <= 64 - len(MARK) - 2:
        return step_id
    return f"{step_id[:36]}-{hashlib.sha256(step_id.encode()).hexdigest()[:16]}"


def mentions_sums(goals: Iterable[Obligation]) -> bool:
    """Whether any of `goals` mentions a sum."""
    return bool(_sums(goals, 1))


def lemmas(proof: Proof, step: Step, goals: Sequence[Obligation], index: str,
           summations: Summations) -> tuple[Proof, tuple[Lemma, ...]]:
    """The proof with `index` declared (the lemmas' home), and the lemmas for `step`'s sums
    in `goals` (its obligations), in order: for several sums over one set in one claim `p >= 0`
    (`p > 0`, `p == 0`), the part of p linear in them as one body `>= 0` (`== 0` for a claim
    `p == 0`; `sum(a) <= sum(b)` from `a[j] <= b[j]`, `sum(j in G, y[j]*dot(ts, x[j])) >=
    g*sum(j in G, 1)` from `y[j]*dot(ts, x[j]) - g >= 0`), or, where p is not linear in
    them, each filter `f >= 0` (`f > 0`) of their set whose sum over the set is a
    combination of them (`dot(ts, sum(j in G, y[j]*x[j]))**2 >= g**2*sum(j in G, 1)**2`
    needs `S1 - g*S2 >= 0`, the filter `y[j]*dot(ts, x[j]) >= g` summed); then each sum's
    body `>= 0`, then `<= 0` (a sum a proved lemma speaks of already is not tried again:
    `Lemma.key`). At most `MAX_LEMMAS`; deterministic."""
    home = replace(proof, scalars=(*proof.scalars, index))
    found = _sums(goals, MAX_SUMS)
    taken = {s.id for s in proof.steps}
    stem = lemma_stem(step.id)
    out: list[Lemma] = []

    def add(claim: str, key: tuple[sympy.Symbol, ...], s: atoms.Sum, want: sympy.Expr | None,
            op: str = ">=") -> None:
        if len(out) >= MAX_LEMMAS:
            return
        k = len(out) + 1
        while (name := f"{stem}{MARK}{k}") in taken:
            k += 1
        if len(name) > 64:  # no step id (a file's ids took every k up to here)
            return
        made = _lemma(home, step, name, index, s, claim, want, summations, op,
                      frozenset(bodies))
        if made is not None:
            taken.add(name)
            out.append(Lemma(made[0], made[1], key, covers=want is not None))

    bodies: dict[sympy.Symbol, tuple[atoms.Sum, str]] = {}
    for target in found:
        s: atoms.Sum = atoms.structure(target)  # type: ignore[assignment]
        if s.lo.is_Integer and s.hi.is_Integer and s.hi < s.lo:  # evidently empty: a fact
            continue  # about its members says nothing (red team 18: `... summed over 1..0`)
        body = _source(_member(s, index))
        if body is not None:
            bodies[target] = (s, body)
    for fact, kind in _claims(goals):  # several sums over one set in one claim: term by term
        groups: dict[tuple[object, ...], list[sympy.Symbol]] = {}
        for target in sorted(fact.free_symbols & set(bodies), key=sympy.default_sort_key):
            s = bodies[target][0]
            groups.setdefault((s.bound, s.lo, s.hi, s.filters), []).append(target)
        op = "==" if kind == "==" else ">="
        for group in groups.values():
            made = _combination(fact, group, bodies, index) if len(group) > 1 else None
            if made:
                add(f"{made[0]} {op} 0", tuple(group), bodies[group[0]][0], made[1], op)
                continue
            s = bodies[group[0]][0]
            if sympy.Poly(fact, *group).total_degree() > 1:  # not linear in them: the set's
                for text in _filters(s, index):  # own filters
                    add(text, tuple(group), s, None)
    for target, (s, body) in bodies.items():
        add(f"{body} >= 0", (target,), s, target)
        add(f"{body} <= 0", (target,), s, -target)
    return home, tuple(out)


class Reported(Protocol):
    """What `extended` reads of a step report (`verify.proof_checker.StepReport`, which is
    not imported: the checker imports this module)."""

    @property
    def step(self) -> Step: ...

    @property
    def termwise(self) -> Sequence[Self]: ...


R = TypeVar("R", bound=Reported)


def extended(proof: Proof, reports: Iterable[R]) -> tuple[Proof, list[R]]:
    """`proof` and its step reports with the lemmas a report found (`StepReport.termwise`)
    as steps just before it, the step with its uses extended by them (as checked) in its
    place, and their fresh indices declared: what the Coq export and `explain` read, so a step
    proved with found facts is exported and shown as if the user had written them."""
    reports = list(reports)  # read three times: a generator would be spent after one
    if not any(r.termwise for r in reports):
        return proof, reports
    by_id = {r.step.id: r for r in reports}
    own = {s.id for s in proof.steps}
    steps: list[Step] = []
    flat: list[R] = []
    scalars = list(proof.scalars)
    for step in proof.steps:
        report = by_id.get(step.id)
        if report is None:
            steps.append(step)
            continue
        for lemma in report.termwise:
            steps.append(lemma.step)
            flat.append(lemma)
        # the proof's own step, its uses extended by the lemmas'
        found = {lemma.step.id for lemma in report.termwise}
        steps.append(replace(step, uses=(*step.uses, *(
            u for u in report.step.uses if u.step in found))))
        flat.append(report)
    for report in reports:
        found = {lemma.step.id for lemma in report.termwise}
        for use in report.step.uses:
            if use.step in found and use.over and (name := use.over.split(" in ")[0]
                                                   ) not in scalars:  # a sign fact: no index
                scalars.append(name)
    home = replace(proof, scalars=tuple(scalars))
    return replace(home, steps=tuple(s if s.id in own else _read_here(s, home)
                                     for s in steps)), flat


def _read_here(lemma: Step, home: Proof) -> Step:
    """A lemma's relations read again from their texts by this process's parser: a member
    or sum it builds is known to the names of this process only (`symbol_names`), and a
    lemma made elsewhere (an audit's worker) is then the text it shows, nothing more."""
    return replace(lemma, hypotheses=tuple(parse_relation(r.text, home.names)
                                           for r in lemma.hypotheses),
                   claim=parse_relation(lemma.claim.text, home.names))


def _sums(goals: Iterable[Obligation], most: int) -> list[sympy.Symbol]:
    """The sums `goals` mention (their hypotheses and claims), first mention first."""
    out: dict[sympy.Symbol, None] = {}
    for goal in goals:
        for fact in (*goal.judgement.hypotheses, goal.judgement.claim):
            for s in sorted(fact.expr.free_symbols, key=sympy.default_sort_key):
                if isinstance(atoms.structure(s), atoms.Sum):
                    out.setdefault(s, None)
                    if len(out) >= most:
                        return list(out)
    return list(out)


def _claims(goals: Iterable[Obligation]) -> list[tuple[sympy.Expr, str]]:
    """The claims of `goals` (`p >= 0`, `p > 0`, `p == 0`) as (p, kind), each once."""
    return list(dict.fromkeys((goal.judgement.claim.expr, goal.judgement.claim.kind)
                              for goal in goals))


def _combination(fact: sympy.Expr, group: list[sympy.Symbol],
                 bodies: dict[sympy.Symbol, tuple[atoms.Sum, str]], index: str
                 ) -> tuple[str, sympy.Expr] | None:
    """The part of `fact` linear in the sums of `group` (over one set), as one body at the
    member `index` (`2*y[j]*z[j] - y[j]**2 - z[j]**2`) and as the sums (`2*S1 - S2 - S3`);
    None when a coefficient reads a sum. A coefficient may be a polynomial in the step's
    other atoms (`g*sum(j in G, 1)`, the margin times a count): free
    of the fresh index, it moves into the body, where the kernel's linearity takes it out
    again (`atoms.finite_sum`), so the lemma summed is exactly this part (`_lemma` checks)."""
    poly = sympy.Poly(fact, *group)
    if poly.total_degree() > 1:
        return None
    pairs = [(poly.coeff_monomial(g), g) for g in group]
    if any(not all(_plain(n) for n in c.free_symbols) for c, _ in pairs):
        return None
    body = sympy.expand(sum((c * _member(atoms.structure(g), index)  # type: ignore[arg-type]
                             for c, g in pairs), sympy.Integer(0)))
    text = _source(body)
    return None if text is None else (text, sum((c * g for c, g in pairs), sympy.Integer(0)))


def _filters(s: atoms.Sum, index: str) -> list[str]:
    """The inequality filters of `s`'s set at the member `index`, as lemma claims
    (`dot(ts, x[j])*y[j] - g >= 0`), in the set's order; an equality filter says nothing a
    sum of nonnegative terms needs."""
    out = []
    for expr, kind in s.filters:
        text = _source(atoms.substitute(expr, {f"#{s.bound}": sympy.Symbol(index)}, {}))
        if text is not None and kind in (">=", ">"):
            out.append(f"{text} {kind} 0")
    return out


def _plain(name: sympy.Symbol) -> bool:
    """Whether `name` may stand in a coefficient moved into a sum's body: no sum (a body with
    a sum inside has no text a lemma could read back, `_source`) and no bound index."""
    return not isinstance(atoms.structure(name), atoms.Sum) and not atoms.INDEX.search(name.name)


def _member(s: atoms.Sum, index: str) -> sympy.Expr:
    """The body of `s` at the member `index`."""
    return atoms.substitute(s.body, {f"#{s.bound}": sympy.Symbol(index)}, {})


def _source(e: sympy.Expr) -> str | None:
    """`e` (the kernel's form) as a proof file writes it: a Gram symbol `<a,b>` as
    `dot(a, b)`, a family's member as `y[j]`; None for a body with a sum inside (its
    kernel name is not the file's syntax). The lemma re-reads the text and must meet `e`."""
    names: dict[sympy.Symbol, sympy.Symbol] = {}
    for s in e.free_symbols:
        found = atoms.structure(s)
        if isinstance(found, atoms.Sum) or atoms.INDEX.search(s.name):
            return None
        if (pair := atoms.gram_pair(s)) is not None:
            names[s] = sympy.Symbol(f"dot({pair[0]}, {pair[1]})")
    return str(e.xreplace(names))


def _lemma(home: Proof, step: Step, name: str, index: str, s: atoms.Sum, claim: str,
           want: sympy.Expr | None, summations: Summations, op: str = ">=",
           known: frozenset[sympy.Symbol] = frozenset()) -> tuple[Step, Use] | None:
    """The lemma `claim` about the member `index` of `s`'s set, and its use summed over that
    set, if its text reads back and the kernel sums it to exactly `want` (the sum's
    expression it was written for) `op` 0 (an equality's two sides in either order), or,
    with no `want` (a filter's lemma), to anything `>= 0` whose sums are all `known` (the
    step's: a fact about a sum it never reads cannot help it); else None."""
    lo, hi = _source(s.lo), _source(s.hi)
    if lo is None or hi is None:
        return None
    ranges = [f"{index} in {lo}..{hi}"] if not s.filters else [
        f"{index} in {m}" for m in sorted(home.sets)]
    names = home.names
    own = tuple(step.hypotheses)  # an induction's update facts are not: they move
    for over in ranges:
        use = Use(name, over=over)
        try:
            (j, lo_, hi_, filters), = summations(use, home)
            member = (parse_relation(f"{index} >= {lo}", names),
                      parse_relation(f"{index} <= {hi}", names),
                      *(parse_relation(f.text, names) for f in filters))
            if filters and (lo_, hi_) != (s.lo, s.hi):
                continue
            lemma = Step(name, (*member, *own), parse_relation(claim, names), rule=Direct(),
                         note=f"found for {step.id}: a fact about one member, summed")
            stated = kernel.statement(kernel.Sequent(
                name, frozenset(home.vectors), frozenset(home.scalars),
                tuple(_rel(r) for r in lemma.hypotheses), _rel(lemma.claim),
                naturals=frozenset(home.naturals)))
            total = kernel.summed(stated, j, lo_, hi_, filters).claim
        except (kernel.KernelError, ProofFileError, ExpressionError, ValueError):
            continue
        gap = sympy.expand(total.lhs - total.rhs)
        if want is None:
            sums = {x for x in gap.free_symbols if isinstance(atoms.structure(x), atoms.Sum)}
            if total.op == ">=" and sums and sums <= known:
                return lemma, use
        elif total.op == op and (sympy.expand(gap - want) == 0 or (
                op == "==" and sympy.expand(gap + want) == 0)):
            return lemma, use
    return None


def _rel(r: Relation) -> kernel.Rel:
    return kernel.Rel(atoms.canonical(r.lhs), r.op, atoms.canonical(r.rhs), r.text,
                      tuple(map(atoms.canonical, r.divisors)))
