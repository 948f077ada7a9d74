"""Structural rules: what a step means, the obligations that establish it, and `Theorem`s.

A step is a `Sequent`: declared names, hypotheses, a claim (relations as written, divisions
kept), a rule, and the `Statement`s of the earlier steps it uses. `obligations` turns it into
polynomial judgements; `conclude` re-derives them, checks one certificate per obligation, and
only then constructs a `Theorem` (nothing else can: the constructor wants a private key).
`refute` checks a counterexample against the statement *as written* and returns a
`Refutation`. Semantics, one rule at a time (docs/proof-files.md says the same for users):

- Every step: for all real values of the scalars, all vectors of any real inner-product
  space, and natural values (0, 1, 2, ...) of the names in `naturals`: if the hypotheses
  hold, so does the claim. Obligations are proved over the reals with `n >= 0` for each
  natural n, which covers every natural value; a counterexample must give naturals natural
  values. Certificates never use integrality, so a claim that needs it stays unknown.
- Division: a relation is defined where everything it divides by is nonzero. Its normal form
  (`algebra.normal_form`) is multiplied through by its denominator under the conditions
  `D > 0` / `q > 0`, which are side obligations proved from the hypotheses free of
  division; the main obligation then has the conditions and the cleared relations.
- Direct: one obligation, hypotheses |- claim.
- Cases on a polynomial p: p > 0, p == 0, p < 0 (or p >= 0, p < 0) are exhaustive over the
  reals by trichotomy, so proving the claim under each proves it. Each case is decisive.
- Uses: a used step's statement is imported whole: its hypotheses (transitively) and its
  claim become hypotheses, so the step is proved under all of them, never fewer. A claim
  proved for natural n may only be used where n is natural too (`UseError` otherwise), and
  a step whose used steps are not proved is not proved (`conclude` wants their Theorems).
- Induction over runs, on a natural variable t, iterated vectors W (the keys of `base` and
  `step`), the update `W := step(t, W)` and the update facts U. A name the update reads
  (in `step` or U) that is not iterated, not t and not in its `constants` is *per-update*: a
  fresh value at every update (the example x_t, its label y_t). The theorem: for every run
  W_0 = base, W_{s+1} = step(s, W_s) in which every update satisfies U (its per-update
  names taking any values that do), and every natural t, the hypotheses H imply the
  invariant P(t, W_t). Obligations: base `H |- P(0, base)` (t replaced by 0 everywhere;
  decisive) and step `H, t >= 0, P(t, W), U |- P(t + 1, step(W))` (an inductive-step
  counterexample need not be reachable, so it is not decisive). Soundness needs, and the
  rule refuses otherwise (`RuleError`): P and H free of per-update names (they would be
  read at one update and assumed at all); H free of t and W (they hold at every t); base
  free of t, W and per-update names (the run starts before any update); no division in the
  update. Substitution is simultaneous (`xreplace`), so `t -> t + 1` does not cascade.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import sympy

from verify.kernel import algebra
from verify.kernel.certificates import Point, check_certificate, facts
from verify.kernel.data import (
    Certificate,
    Counterexample,
    Fact,
    Judgement,
    KernelError,
    Rel,
    gram_pair,
    names_of,
)

__all__ = ["Cases", "Direct", "Induction", "Obligation", "Refutation", "RuleError", "Sequent",
           "Statement", "Theorem", "UseError", "conclude", "obligations", "refute", "statement"]


class RuleError(KernelError):
    """A step the rules cannot read: it is refused, not decided (bad input, exit 2)."""


class UseError(KernelError):
    """A used claim that does not hold where this step would use it; the step stays unknown."""


@dataclass(frozen=True)
class Direct:
    """The step is its own judgement."""


@dataclass(frozen=True)
class Cases:
    """Cases on the sign of the polynomial `on` (`zero`: a separate `on == 0` case)."""
    on: sympy.Expr
    zero: bool = True
    text: str = ""


@dataclass(frozen=True)
class Induction:
    """Induction over runs on the natural `variable` (see the module docstring)."""
    variable: str
    base: Mapping[str, Mapping[str, sympy.Expr]]
    step: Mapping[str, Mapping[str, sympy.Expr]]
    update: tuple[Rel, ...] = ()
    constants: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Statement:
    """What a step asserts, every hypothesis included; `origins[i]` names the used step that
    brought hypothesis i ('' for the step's own); `run` describes an induction's runs."""
    step: str
    hypotheses: tuple[Rel, ...]
    origins: tuple[str, ...]
    claim: Rel
    naturals: frozenset[str]
    run: str = ""

    def __str__(self) -> str:
        given = [f"{n} in Nat" for n in sorted(self.naturals)] + [
            h.text + (f" [{o}]" if o else "") for h, o in zip(self.hypotheses, self.origins,
                                                               strict=True)]
        run = f"for every run {self.run}: " if self.run else ""
        return f"{run}{', '.join(given)} |- {self.claim.text}"


@dataclass(frozen=True)
class Sequent:
    """A step as the kernel reads it: names, relations as written, rule and used statements."""
    step: str
    vectors: frozenset[str]
    scalars: frozenset[str]
    hypotheses: tuple[Rel, ...]
    claim: Rel
    rule: Direct | Cases | Induction = field(default_factory=Direct)
    uses: tuple[Statement, ...] = ()
    naturals: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Obligation:
    """One judgement a step needs. `decisive`: its counterexample refutes the step; `written`:
    its hypotheses and claim as written (None for a side condition); `origins[i]` says where
    hypothesis i comes from ('' own, natural, condition, claim, inherited, case, ...)."""
    label: str
    judgement: Judgement
    decisive: bool
    origins: tuple[str, ...]
    written: tuple[tuple[Rel, ...], Rel] | None = None


_KEY = object()
_MADE: weakref.WeakSet[_Made] = weakref.WeakSet()  # every value the kernel made, and only those


class _Made:
    """A kernel-made value: immutable, and constructible only with the kernel's key."""
    __slots__ = ()

    def __init__(self, key: object, **values: object) -> None:
        if key is not _KEY:
            raise KernelError(f"only the kernel makes a {type(self).__name__}")
        for name, value in values.items():
            object.__setattr__(self, name, value)
        _MADE.add(self)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __reduce__(self) -> object:
        raise TypeError(f"a {type(self).__name__} does not cross processes (pickling could "
                        "forge one): send the evidence and conclude again")


class Theorem(_Made):
    """A proved statement."""
    __slots__ = ("__weakref__", "statement")
    statement: Statement


class Refutation(_Made):
    """A counterexample re-checked against the statement as written (`label`: the case)."""
    __slots__ = ("__weakref__", "counterexample", "label", "statement")
    statement: Statement
    counterexample: Counterexample
    label: str


Vectors = dict[str, tuple[tuple[str, sympy.Expr], ...]]


def _frozen(sequent: object) -> Sequent:
    """`sequent` with every field read once into exact built-in types: a stateful mapping or
    a lying subclass cannot show one thing to the statement and another to the check."""
    if type(sequent) is not Sequent:
        raise KernelError(f"expected a Sequent, not {type(sequent).__name__}")

    def rels(value: object, what: str) -> tuple[Rel, ...]:
        out = []
        for r in algebra.items(value, what):
            if type(r) is not Rel:
                raise KernelError(f"{what}: expected a Rel, not {type(r).__name__}")
            out.append(Rel(r.lhs, algebra.text(r.op, what), r.rhs, algebra.text(r.text, what),
                           tuple(algebra.items(r.divisors, what))))
        return tuple(out)

    def vectors(value: object, what: str) -> dict[str, dict[str, sympy.Expr]]:
        if not isinstance(value, Mapping):
            raise RuleError(f"{what} must map vector names to vectors")
        return {name: dict(algebra.vector(v, f"{what} of {name}"))
                for name, v in list(value.items())}

    rule = sequent.rule
    if type(rule) is Induction:
        rule = Induction(algebra.text(rule.variable, "induction variable"),
                         vectors(rule.base, "induction base"), vectors(rule.step, "induction step"),
                         rels(rule.update, "induction update"),
                         _names(rule.constants, "induction constants"))
    elif type(rule) is Cases:
        rule = Cases(algebra.expr(rule.on, "the split polynomial"), rule.zero is True,
                     algebra.text(rule.text, "the split text"))
    elif type(rule) is not Direct:
        raise KernelError(f"unknown rule {type(rule).__name__}")
    uses = algebra.items(sequent.uses, "uses")
    if any(type(u) is not Statement for u in uses):
        raise KernelError("every used step must be a Statement")
    return Sequent(algebra.text(sequent.step, "step"), _names(sequent.vectors, "vectors"),
                   _names(sequent.scalars, "scalars"), rels(sequent.hypotheses, "hypotheses"),
                   rels((sequent.claim,), "claim")[0], rule, uses,  # type: ignore[arg-type]
                   _names(sequent.naturals, "naturals"))


def _names(value: object, what: str) -> frozenset[str]:
    if type(value) is not frozenset or not all(type(n) is str for n in value):
        raise KernelError(f"{what} must be a frozenset of names")
    return value


def _vectors(mapping: object, what: str, vectors: frozenset[str]) -> Vectors:
    """A vector substitution (read by `_frozen` into a dict): declared names to explicit
    vectors free of division."""
    out = {}
    for name, vec in mapping.items():  # type: ignore[attr-defined]
        out[name] = terms = algebra.vector(vec, f"{what} of {name}")
        if name not in vectors or not {n for n, _ in terms} <= vectors:
            raise RuleError(f"{what}: substitution of {name!r} names an undeclared vector")
        if any(algebra.reciprocal_bases(c, what) for _, c in terms):
            raise RuleError(f"{what}: the substitution of {name!r} must not divide")
    return out


def _shown(mapping: Vectors) -> str:
    """`w := w + x*y, ...`."""
    return ", ".join(f"{n} := {sum((c * sympy.Symbol(v) for v, c in terms), sympy.S(0))}"
                     for n, terms in sorted(mapping.items()))


def _substitute(r: Rel, scalars: dict[sympy.Symbol, sympy.Expr], vectors: Vectors,
                shown: str) -> Rel:
    """`r` with scalars replaced and vectors replaced inside every Gram symbol, at once."""
    def sub(e: sympy.Expr) -> sympy.Expr:
        mapping: dict[sympy.Basic, sympy.Expr] = {}
        for s in e.free_symbols:
            pair = gram_pair(s)
            if pair is None and s in scalars:
                mapping[s] = scalars[s]
            elif pair is not None and (pair[0] in vectors or pair[1] in vectors):
                a, b = (vectors.get(n, ((n, sympy.Integer(1)),)) for n in pair)
                mapping[s] = algebra.dot(a, b)
        return e.xreplace(mapping)

    return Rel(sub(algebra.expr(r.lhs, r.text)), r.op, sub(algebra.expr(r.rhs, r.text)),
               f"{r.text} [{shown}]", tuple(sub(d) for d in r.divisors))


def _read(r: Rel) -> set[str]:
    """Every name a relation reads, its divisors included (SymPy cancels `w/w` to 1)."""
    return set().union(*map(names_of, (r.lhs, r.rhs, *r.divisors)))


def _mentions(relations: Sequence[Rel], names: set[str], what: str, why: str) -> None:
    for r in relations:
        if found := sorted(_read(r) & names):
            raise RuleError(f"{what} `{r.text}` mentions {', '.join(found)}: {why}")


def _run(sequent: Sequent, hyps: Sequence[Rel]) -> tuple[Vectors, Vectors, str]:
    """An induction's base and update, validated against its semantics, and its runs shown."""
    rule: Induction = sequent.rule  # type: ignore[assignment]
    t = algebra.text(rule.variable, "induction variable")
    if t not in sequent.scalars:
        raise RuleError(f"induction variable {t!r} is not a declared scalar")
    base = _vectors(rule.base, "induction base", sequent.vectors)
    step = _vectors(rule.step, "induction step", sequent.vectors)
    update = algebra.items(rule.update, "induction update")
    constants = _names(rule.constants, "induction constants")
    for r in update:
        if r.divisors or any(algebra.reciprocal_bases(algebra.expr(e, r.text), r.text)
                             for e in (r.lhs, r.rhs)):
            raise RuleError(f"update fact `{r.text}` must not divide")
    iterated = {*base, *step, t}
    reads = {n for terms in step.values() for v, c in terms for n in names_of(c) | {v}}
    reads |= set().union(*map(_read, update))
    fresh = reads - iterated - constants
    per_update = "fresh at every update unless listed in the induction's constants"
    _mentions((sequent.claim,), fresh, "the invariant", per_update)
    _mentions(hyps, fresh | iterated, "hypothesis", "hypotheses hold at every update, so they "
              f"may not mention the iteration ({', '.join(sorted(iterated))}) or per-update "
              f"names ({per_update})")
    for name, terms in base.items():
        if bad := sorted(({n for _, c in terms for n in names_of(c)} | {n for n, _ in terms})
                         & (fresh | iterated)):
            raise RuleError(f"the base of {name} mentions {', '.join(bad)}: a run starts "
                            "before any update, from constants only")
    notes = [f"{', '.join(sorted(fresh))} fresh at each update"] if fresh else []
    notes += [f"{', '.join(sorted(constants & reads))} constant"] if constants & reads else []
    run = (f"from {_shown(base) or 'any start'}, {_shown(step) or 'no change'} at each update"
           + (f" when {', '.join(r.text for r in update)}" if update else "")
           + (f" ({'; '.join(notes)})" if notes else "") + f", counted by {t}")
    return base, step, run


def statement(sequent: Sequent) -> Statement:
    """The full statement of `sequent` (validated): own hypotheses, then each used step's."""
    sequent = _frozen(sequent)
    if not sequent.naturals <= sequent.scalars:
        raise RuleError("naturals must be declared scalars")
    hyps = {r: "" for r in sequent.hypotheses}
    naturals: set[str] = set()
    for used in sequent.uses:
        if missing := sorted(used.naturals - sequent.naturals):
            raise UseError(f"uses {used.step}, which holds for natural {', '.join(missing)} "
                           f"only; declare naturals = {missing} to use it")
        for r in (*used.hypotheses, used.claim):
            hyps.setdefault(r, used.step)
        naturals |= used.naturals
    mentioned = set().union(*map(_read, (*hyps, sequent.claim)))
    naturals |= sequent.naturals & mentioned
    run = ""
    if type(sequent.rule) is Induction:
        naturals.add(sequent.rule.variable)
        run = _run(sequent, tuple(hyps))[2]
    return Statement(sequent.step, tuple(hyps), tuple(hyps.values()), sequent.claim,
                     frozenset(naturals), run)


def _admit(label: str, written: tuple[tuple[Rel, ...], Rel], origins: Sequence[str],
           st: Statement, sequent: Sequent, decisive: bool = True) -> list[Obligation]:
    """The obligation `written`, divisions cleared, then its side conditions (module doc)."""
    forms = [algebra.normal_form(r, f"`{r.text}`") for r in (*written[0], written[1])]
    mentioned = set().union(*(names_of(f.expr) for fact, cs in forms for f in (fact, *cs)))
    given = list(zip(forms[:-1], origins, strict=True))
    context = [(Fact(sympy.Symbol(n), ">="), "natural") for n in sorted(st.naturals & mentioned)]
    context += [(f, o) for (f, c), o in given if not c]
    conditions = list(dict.fromkeys(c for _, cs in forms for c in cs))
    unique: dict[Fact, str] = {}  # a fact given twice is one hypothesis (its first origin)
    for f, o in (*context, *((c, "condition") for c in conditions),
                 *((f, o) for (f, c), o in given if c)):
        unique.setdefault(f, o)

    def obligation(label: str, given: Sequence[tuple[Fact, str]], goal: Fact,
                   decisive: bool, written: tuple | None) -> Obligation:
        judgement = Judgement(tuple(f for f, _ in given), goal, tuple(sorted(sequent.vectors)),
                              tuple(sorted(sequent.scalars)))
        return Obligation(label, judgement, decisive, tuple(o for _, o in given), written)

    where = "" if label == "main" else f"{label}: "
    return [obligation(label, list(unique.items()), forms[-1][0], decisive, written)] + [
        obligation(f"{where}denominator {c.expr} > 0", context, c, False, None)
        for c in conditions]


def obligations(sequent: Sequent) -> tuple[Obligation, ...]:
    """The judgements that establish `sequent`, main ones first, then side conditions."""
    sequent = _frozen(sequent)
    st = statement(sequent)
    hyps, rule = st.hypotheses, sequent.rule
    claims = {u.step: u.claim for u in sequent.uses}
    origins = ["" if not o else "claim" if h == claims[o] else "inherited"
               for h, o in zip(hyps, st.origins, strict=True)]
    if type(rule) is Direct:
        return tuple(_admit("main", (hyps, st.claim), origins, st, sequent))
    if type(rule) is Cases:
        on = algebra.expr(rule.on, "the split polynomial")
        if algebra.reciprocal_bases(on, "the split polynomial"):
            raise RuleError("the split polynomial must not divide")
        cases = [Rel(on, op, sympy.Integer(0), f"{rule.text or on} {op} 0")
                 for op in ((">", "==", "<") if rule.zero else (">=", "<"))]
        out = [_admit(f"case {c.text}", ((*hyps, c), st.claim), (*origins, "case"), st,
                      sequent)[0] for c in cases]  # side conditions once, without the case:
        return (*out, *_admit("cases", (hyps, st.claim), origins, st, sequent)[1:])
    # an Induction: _frozen admits these three rules only
    base, step, _ = _run(sequent, hyps)
    t = sympy.Symbol(rule.variable)
    zero = _substitute(st.claim, {t: sympy.Integer(0)}, base,
                       ", ".join(filter(None, [f"{t} := 0", _shown(base)])))
    after = _substitute(st.claim, {t: t + 1}, step,
                        ", ".join(filter(None, [f"{t} := {t} + 1", _shown(step)])))
    given = (*hyps, Rel(t, ">=", sympy.Integer(0), f"{t} >= 0"), st.claim, *rule.update)
    marks = (*origins, "natural", "invariant", *("update" for _ in rule.update))
    return (*_admit("base", (hyps, zero), origins, st, sequent),
            *_admit("step", (given, after), marks, st, sequent, decisive=False))


def conclude(sequent: Sequent, evidence: Sequence[tuple[Judgement, Certificate]],
             used: Sequence[Theorem]) -> Theorem:
    """The Theorem of `sequent`, if every obligation has checked evidence; else KernelError.

    Evidence for an obligation may use a subset of its hypotheses (weakening: fewer
    hypotheses prove a stronger judgement); its claim must be the obligation's.
    """
    sequent = _frozen(sequent)
    st, wanted = statement(sequent), obligations(sequent)
    evidence = algebra.items(evidence, "evidence")  # type: ignore[assignment]
    if len(evidence) != len(wanted):
        raise KernelError(f"{len(evidence)} certificates for {len(wanted)} obligations")
    for ob, entry in zip(wanted, evidence, strict=True):
        judgement, certificate = algebra.items(entry, "evidence entry")  # type: ignore[misc]
        hyps, claim = facts(judgement)
        if claim != ob.judgement.claim or not set(hyps) <= set(ob.judgement.hypotheses):
            raise KernelError(f"{ob.label}: the evidence is for another judgement")
        check_certificate(judgement, certificate)  # type: ignore[arg-type]
    used = algebra.items(used, "used theorems")  # type: ignore[assignment]
    if len(used) != len(sequent.uses) or any(th not in _MADE or th.statement != s
                                             for th, s in zip(used, sequent.uses, strict=False)):
        raise KernelError("every used step needs its own Theorem")
    return Theorem(_KEY, statement=st)


def refute(sequent: Sequent, label: str, cex: Counterexample) -> Refutation:
    """A Refutation, if `cex` violates the statement as written in the decisive `label`."""
    sequent = _frozen(sequent)
    st = statement(sequent)
    found = [o for o in obligations(sequent) if o.label == label and o.decisive]
    if not found:
        raise KernelError(f"no decisive obligation {label!r}")
    point = Point(cex)
    for n in sorted(st.naturals):
        if (value := point.value(sympy.Symbol(n))).denominator != 1 or value < 0:
            raise KernelError(f"{n} = {value} is not a natural number, and {n} is one")
    hyps, claim = found[0].written  # type: ignore[misc]
    for r in hyps:
        if not algebra.evaluate(r, f"hypothesis `{r.text}`", point.value):
            raise KernelError(f"hypothesis `{r.text}` fails at the counterexample")
    if algebra.evaluate(claim, "the claim", point.value):
        raise KernelError(f"the claim `{claim.text}` holds at the counterexample")
    return Refutation(_KEY, statement=st, counterexample=cex, label=label)
