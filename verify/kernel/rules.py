"""Structural rules: what a step means, the obligations that establish it, and the only
makers of `Theorem` and `Refutation` (their constructor wants a private key).

Semantics (docs/proof-files.md says the same for users). A `Sequent` asserts: for all real
scalars, all vectors of any real inner-product space and natural values (0, 1, 2, ...) of
`naturals`, the hypotheses imply the claim. Obligations are proved over the reals with
`n >= 0` for each natural n, which covers every natural value (certificates never use
integrality); a counterexample must give naturals natural values.

- Division: a relation is defined where all it divides by is nonzero; `algebra.normal_form`
  clears its denominator under conditions `D > 0`: side obligations (from the hypotheses free
  of division) and hypotheses of the main one. Direct: one obligation, hypotheses |- claim.
- Cases on a polynomial p: p > 0, p == 0, p < 0 (or p >= 0, p < 0) are exhaustive over the
  reals by trichotomy, so proving the claim in each case proves it; each case is decisive.
- Uses: a used step's statement is imported whole (its hypotheses, transitively, and its
  claim become hypotheses), so a step is never proved under fewer hypotheses than it needs.
  A claim proved for natural n is used only where n is natural (`UseError`), and `conclude`
  wants a Theorem for every used statement; a used step given as a `Theorem` or a `Stated`
  (`state`) is read from the kernel's own copy of its statement, validated when it was made.
  An induction's claim holds at run states only,
  so a step that imports one (`Statement.runs`) has no decisive obligation: a point that
  satisfies the claim may be one no run reaches (but see *Starts*).
- Instances (`instance`, `instantiate`): a statement holds for all values of its names, so
  also with names replaced at once by division-free terms of their sort (SymPy would cancel a
  divisor); a natural by a name only, which becomes natural. Not for a statement over runs
  (its names are bound to them) nor an existential one, nor names its inherited hypotheses
  read (an induction's claim holds at run states only, so its tag would mislead).
- Existentials: a `witness` (names to terms not reading them) makes the claim "exists those
  names with the claim", proved with the witness substituted (not decisive: a bad witness
  refutes nothing); no hypothesis and no induction may mention them. A direct step may use
  such a claim if its names occur nowhere else in the step and are not natural there (for
  any such value the step follows, so it follows from the existence of one); they stay bound
  (`Statement.bound`): a step using that step obeys the same condition.
- Induction over runs on a natural t: iterated vectors and scalars W (keys of `base` and
  `step`; not naturals, which updates need not keep natural), update W := step(t, W), update
  facts U. A name the update reads (in `step` or U) that is not iterated, not t and not in
  `constants` is per-update: fresh at every update (the example x_t, its label y_t). The
  theorem: for every run W_0 = base, W_{s+1} = step(s, W_s) whose updates satisfy U, and every
  natural t, the hypotheses H imply P(t, W_t). Obligations: base `H |- P(0, base)` (t := 0
  everywhere; decisive) and step `H, t >= 0, P(t, W), U |- P(t + 1, step(W))` (not decisive:
  its counterexample need not be reachable). Refused (`RuleError`): per-update names in P or H
  (read at one update, assumed at all); t or W in H (it holds at every t); t, W or per-update
  names in the base (a run starts before any update); division in `base` or `step` (update
  facts may divide: as hypotheses of the step, their denominators get side conditions). An
  induction over the same runs (an equal rule) may use another's invariant at every state:
  the step obligation assumes it beside its own (both hold at every state, by induction);
  the theorem speaks of runs where it holds, so a base's point refutes only where it holds.
  With `cases`, the step obligation is split by cases on that polynomial, as `Cases` splits.
  A used statement about no run that reads t, W or a per-update name is a one-update lemma:
  not a hypothesis of the theorem but one of the step obligation's, its claim assumed there,
  if each of its hypotheses is one of that obligation's (the step's hypotheses, t >= 0, the
  invariant, a carried invariant or an update fact, compared in normal form): where those
  hold, the lemma, true for all values of its names, gives its claim.
  Substitution is simultaneous (`xreplace`), so `t -> t + 1` does not cascade.
- Runs (`refute_run`): the theorem of an induction speaks of every run, so one run whose last
  state breaks the invariant refutes it. The run is given state by state, each a point: the
  same values at every state for every name that does not move, the counter s at state s,
  `W_0 = base` (a name the base leaves free, anything), `W_{s+1} = step(s, W_s)` evaluated at
  state s (a name the step leaves keeps its value; the per-update names are read at the
  state their update starts from), the carried invariants at every state, the update facts
  and the one-update lemmas' claims at every state but the last, the hypotheses (which read
  constants only) at the last, naturals natural; the invariant false at the last state. Not
  for a statement that imports an induction's claim (`Statement.runs`): that claim holds
  only along its own runs.
- Starts (`refute_start`): every induction a statement speaks of, its own or one whose claim
  it imports (directly or through a used step), has a start (`Statement.starts`: its counter,
  base and carried invariants). A point at all of them at once, each counter 0, each name a
  base gives its base's value there, each carried invariant true, is the state of the run of
  no update from each start (no update fact is read; a name the base leaves free, anything):
  a state every such claim speaks of. There the hypotheses true and the claim false refute
  the statement, imported claims or not (label "start"). Not for an existential claim (a
  point refutes no "exists"), a statement about no run (`refute`), nor one whose starts are
  unknown (None: an instance of one that imports a claim, whose starts the substitution may
  move; or a used statement about runs that is none the kernel made or handed out: the
  starts it states are its maker's word, and one that left a start out would refute a true
  statement at a point no run reaches, red team adv32b O1).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

import sympy

from verify.kernel import algebra, atoms, certificates, sums
from verify.kernel.algebra import Fact, KernelError, Rel, names_of
from verify.kernel.certificates import Judgement, Point, check_certificate, facts
from verify.kernel.sums import SumRule, VectorSum

__all__ = ["Cases", "Direct", "Induction", "Obligation", "Refutation", "RuleError", "Sequent",
           "Stated", "Statement", "Theorem", "UseError", "conclude", "instance", "instantiate",
           "obligations", "refute", "refute_run", "refute_start", "run_value", "state",
           "statement", "summed", "summed_theorem"]
Terms = dict[str, "sympy.Expr | dict[str, sympy.Expr]"]  # scalar -> expr, vector -> explicit


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
    base: Mapping[str, Mapping[str, sympy.Expr] | sympy.Expr]
    step: Mapping[str, Mapping[str, sympy.Expr] | sympy.Expr]
    update: tuple[Rel, ...] = ()
    constants: frozenset[str] = frozenset()
    cases: Cases | None = None


@dataclass(frozen=True)
class Statement:
    """What a step asserts, every hypothesis included; `origins[i]` names the used step that
    brought hypothesis i ('' for the step's own); `run` describes an induction's runs, `over`
    is its rule; the claim holds for some value of the names in `exists`; `bound` names the
    existentials its hypotheses eliminated (they stay fresh wherever it is used); `runs`: a
    hypothesis is an induction's claim, which holds at run states only; `starts`: the start
    of each induction it speaks of, (counter, base as in `over`, carried claims), None if
    unknown (module doc, *Starts*)."""
    step: str
    hypotheses: tuple[Rel, ...]
    origins: tuple[str, ...]
    claim: Rel
    naturals: frozenset[str]
    run: str = ""
    exists: tuple[str, ...] = ()
    over: tuple[object, ...] | None = None
    bound: tuple[str, ...] = ()
    runs: bool = False
    starts: tuple[tuple[str, tuple[tuple[str, object], ...], tuple[Rel, ...]], ...] | None = ()

    def __str__(self) -> str:
        given = [f"{n} in Nat" for n in sorted(self.naturals)] + [
            h.text + (f" [{o}]" if o else "")
            for h, o in zip(self.hypotheses, self.origins, strict=True)]
        run = f"for every run {self.run}: " if self.run else ""
        some = f"exists {', '.join(self.exists)}: " if self.exists else ""
        return f"{run}{', '.join(given)} |- {some}{self.claim.text}"


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
    witness: Mapping[str, Mapping[str, sympy.Expr] | sympy.Expr] = field(default_factory=dict)
    sums: tuple[SumRule, ...] = ()  # identities of its sums, facts of the obligations (sums.py)
    named: tuple[VectorSum, ...] = ()  # fresh vectors naming its sums of vectors (sums.py)


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
Places = tuple[frozenset[Rel], dict[Rel, int]]  # a statement's hypotheses: the set, each's place
_MADE: weakref.WeakKeyDictionary[_Made, tuple[Statement, Places]] = (
    weakref.WeakKeyDictionary())  # all it made, each with its statement and that statement's
# `Places` (read here, not from the value: `object.__setattr__` reaches its slots)


class _Made:
    """A kernel-made value: immutable, and constructible only with the kernel's key."""
    __slots__ = ()

    def __init__(self, key: object, **values: object) -> None:
        if key is not _KEY:
            raise KernelError(f"only the kernel makes a {type(self).__name__}")
        own: Statement = values["statement"]  # the rules' own, never handed out (`_use`)
        for name, value in {**values, "statement": _public(own)}.items():
            object.__setattr__(self, name, value)
        _MADE[self] = own, (frozenset(own.hypotheses), {r: i for i, r in enumerate(own.hypotheses)})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __reduce__(self) -> object:
        raise TypeError(f"a {type(self).__name__} does not cross processes (pickling could "
                        "forge one): send the evidence and conclude again")


class Theorem(_Made):
    """A proved statement."""
    __slots__ = ("__weakref__", "statement")
    statement: Statement


class Stated(_Made):
    """A step's statement as the kernel read it (`state`), claiming nothing. In a sequent's
    `uses` the kernel reads its own copy, as for a Theorem: a step used by every later one
    is validated once, not at each of them (long proofs cost linear time, issue 30)."""
    __slots__ = ("__weakref__", "obligations", "statement")
    statement: Statement
    obligations: tuple[Obligation, ...]  # `obligations` of the sequent, read at the same time


class Refutation(_Made):
    """A counterexample re-checked against the statement as written (`label`: the case); a
    run's states in `run` (`refute_run`, label "run"; its last state the counterexample)."""
    __slots__ = ("__weakref__", "counterexample", "label", "run", "statement")
    statement: Statement
    counterexample: certificates.Counterexample
    label: str
    run: tuple[certificates.Counterexample, ...]


def _names(value: object, what: str) -> frozenset[str]:  # `<w,w>` is no name: a Gram symbol
    if type(value) is not frozenset or not all(type(n) is str and n.isidentifier() for n in value):
        raise KernelError(f"{what} must be a frozenset of identifiers")
    return value


def _rels(value: object, what: str) -> tuple[Rel, ...]:
    out = []
    for r in algebra.items(value, what):
        if type(r) is not Rel:
            raise KernelError(f"{what}: expected a Rel, not {type(r).__name__}")
        out.append(Rel(algebra.expr(r.lhs, what), algebra.text(r.op, what),
                       algebra.expr(r.rhs, what), algebra.text(r.text, what),
                       tuple(algebra.expr(d, what) for d in algebra.items(r.divisors, what))))
    return tuple(out)


def _terms(value: object, what: str, vectors: frozenset[str], scalars: frozenset[str],
           images: frozenset[str] | None = None) -> Terms:
    """A substitution: names to division-free terms of their sort (an expression for a scalar,
    an explicit vector for a vector: over `images`, or any identifiers when None)."""
    if not isinstance(value, Mapping):
        raise RuleError(f"{what} must map names to terms")
    out: Terms = {}
    for name, term in list(value.items()):
        if type(name) is not str or name not in vectors | scalars:  # a key may lie in `==`
            raise RuleError(f"{what}: {name!r} is not a name it can substitute")
        terms = dict(algebra.vector(term, f"{what} of {name}")) if name in vectors else {
            "": algebra.expr(term, f"{what} of {name}")}
        if images is not None and not {atoms.head(v) for v in terms if v} <= images:
            raise RuleError(f"{what}: substitution of {name!r} names an undeclared vector")
        if any(algebra.reciprocal_bases(c, what) for c in terms.values()):
            raise RuleError(f"{what}: the substitution of {name!r} must not divide")
        out[name] = terms if name in vectors else terms[""]
    return out


def _identifiers(value: object, what: str) -> tuple[str, ...]:
    return tuple(sorted(_names(frozenset(algebra.items(value, what)), what)))


def _fresh(rels: Sequence[Rel]) -> tuple[Rel, ...]:
    return tuple(Rel(r.lhs, r.op, r.rhs, r.text, r.divisors) for r in rels)


def _public(st: Statement) -> Statement:
    """A copy of `st` sharing no relation with it: the kernel's own statements share theirs
    (`_use`), so none may reach a caller, who could change it in place."""
    over = None if st.over is None else (*st.over[:3], _fresh(st.over[3]), st.over[4])  # type: ignore[arg-type]
    starts = None if st.starts is None else tuple((t, b, _fresh(c)) for t, b, c in st.starts)
    out = replace(st, hypotheses=_fresh(st.hypotheses), claim=_fresh((st.claim,))[0], over=over,
                  starts=starts)
    _ISSUED[key := id(out)] = weakref.ref(out, lambda r: _ISSUED.get(key, (0,))[0] is r and (
        _ISSUED.pop(key))), st  # its own entry only: where callbacks run late, ids recur
    return out


_ISSUED: dict[int, tuple[weakref.ref[Statement], Statement]] = {}  # each statement `_public`
# handed out, by identity, with the kernel's own (`_use`: its starts are the kernel's)


def _use(u: object) -> tuple[Statement, Places | None]:
    """A used statement and, for the kernel's own (a Theorem's or a Stated's: validated when
    made, never handed out), its `Places`; for a statement it handed out (`_public`, by
    identity), its own copy; any other is rebuilt (`_statement`)."""
    if type(u) in (Theorem, Stated) and u in _MADE:
        return _MADE[u]  # type: ignore[index]
    if (issued := _ISSUED.get(id(u))) and issued[0]() is u:
        return issued[1], None
    return _statement(u), None


def _statement(u: object) -> Statement:
    """`u` rebuilt field by field in exact built-in types: no field is passed through, so
    no object can answer `==` for it where `conclude` compares it with a Theorem's."""
    if type(u) is not Statement:
        raise KernelError(f"a used step must be a Statement, not {type(u).__name__}")
    hyps = _rels(u.hypotheses, "used")
    origins = tuple(algebra.text(o, "used origin") for o in algebra.items(u.origins, "origins"))
    if len(origins) != len(hyps):
        raise KernelError("a used statement needs one origin per hypothesis")
    over = None if u.over is None else algebra.items(u.over, "used runs")
    if over is not None:
        if len(over) != 5:
            raise KernelError("used runs: expected (variable, base, step, update, constants)")
        over = (algebra.text(over[0], "used runs"), _run_terms(over[1]), _run_terms(over[2]),
                _rels(over[3], "used runs"), _names(over[4], "used runs"))
    run = algebra.text(u.run, "used run")  # its starts, its maker's word, are not read
    return Statement(algebra.text(u.step, "used step"), hyps, origins,  # (module doc, Starts)
                     _rels((u.claim,), "used")[0], _names(u.naturals, "used naturals"), run,
                     _identifiers(u.exists, "used exists"), over, _identifiers(
                         u.bound, "used bound"), u.runs is True, None if (
                         run or over or u.runs is True) else ())


def _run_terms(value: object) -> tuple[tuple[str, object], ...]:
    """A run's base or step as `_runs` states it: (name, expression or (vector, coefficient)
    pairs) pairs, rebuilt."""
    def pair(item: object) -> tuple[object, object]:
        if len(both := algebra.items(item, "used runs")) != 2:
            raise KernelError("used runs: expected (name, term) pairs")
        return both[0], both[1]
    return tuple((algebra.text(n, "used runs"), tuple(
        (algebra.text(m, "used runs"), algebra.expr(c, "used runs"))
        for m, c in map(pair, algebra.items(t, "used runs"))) if type(t) is tuple
        else algebra.expr(t, "used runs")) for n, t in map(pair, algebra.items(value, "runs")))


def _split(rule: object) -> Cases:
    """A case split read into exact types; its polynomial must not divide."""
    if type(rule) is not Cases:
        raise KernelError(f"expected Cases, not {type(rule).__name__}")
    split = Cases(algebra.expr(rule.on, "the split polynomial"), rule.zero is True,
                  algebra.text(rule.text, "the split text"))
    if algebra.reciprocal_bases(split.on, "the split polynomial"):
        raise RuleError("the split polynomial must not divide")
    return split


def _frozen(sequent: object) -> tuple[Sequent, tuple[Places | None, ...]]:
    """`sequent` read once into exact built-in types and validated: a stateful mapping or a
    lying subclass cannot show one thing to the statement and another to the check; and the
    `Places` of each used statement, where the kernel knows them (`_use`)."""
    if type(sequent) is not Sequent:
        raise KernelError(f"expected a Sequent, not {type(sequent).__name__}")
    vectors, scalars = _names(sequent.vectors, "vectors"), _names(sequent.scalars, "scalars")
    if not _names(sequent.naturals, "naturals") <= scalars or vectors & scalars:
        raise RuleError("naturals must be declared scalars, and no name both kinds")
    rule = sequent.rule
    if type(rule) is Induction:
        if (t := algebra.text(rule.variable, "induction variable")) not in scalars:
            raise RuleError(f"induction variable {t!r} is not a declared scalar")
        rule = Induction(t, _terms(rule.base, "induction base", vectors, scalars, vectors),
                         _terms(rule.step, "induction step", vectors, scalars, vectors),
                         _rels(rule.update, "induction update"),
                         _names(rule.constants, "induction constants"),
                         None if rule.cases is None else _split(rule.cases))
    elif type(rule) is Cases:
        rule = _split(rule)
    elif type(rule) is not Direct:
        raise KernelError(f"unknown rule {type(rule).__name__}")
    uses = tuple(map(_use, algebra.items(sequent.uses, "uses")))
    witness = _terms(sequent.witness, "witness", vectors, scalars - sequent.naturals, vectors)
    if witness and (type(rule) is Induction or _reads(witness) & set(witness)):
        raise RuleError("a witness is for a direct or case step, and names none of what it "
                        "witnesses")
    found = tuple(map(sums.frozen, algebra.items(sequent.sums, "sum rules")))
    named = tuple(map(sums.frozen_sum, algebra.items(sequent.named, "named sums")))
    given = [s.name for s in named]
    if named and (type(rule) is Induction or len(set(given)) < len(given) or set(given) & (
            vectors | scalars | set().union(*map(sums.reads, named)))):
        raise RuleError("a named vector sum is for a direct or case step, its name fresh: "
                        "declared nowhere, given once, read by no named sum")
    return Sequent(algebra.text(sequent.step, "step"), vectors, scalars,
                   _rels(sequent.hypotheses, "hypotheses"), _rels((sequent.claim,), "claim")[0],
                   rule, tuple(u for u, _ in uses), sequent.naturals, witness, found,  # type: ignore[arg-type]
                   named), tuple(hyps for _, hyps in uses)


def _shown(mapping: Terms) -> str:
    """`w := w + x*y, s := s + d, ...`."""
    return ", ".join(f"{n} := {sum((c * sympy.Symbol(v) for v, c in term.items()), sympy.S(0))}"
                     if isinstance(term, dict) else f"{n} := {term}"
                     for n, term in sorted(mapping.items()))


def _reads(mapping: Terms) -> set[str]:
    """Every name the terms of a substitution read (a family member: the family, its index)."""
    pairs = [p for t in mapping.values() for p in (t.items() if isinstance(t, dict) else [("", t)])]
    return {n for v, c in pairs for n in names_of(c) | (atoms.vector_names(v) if v else set())}


def _substitute(r: Rel, mapping: Terms, shown: str) -> Rel:
    """`r` with scalars replaced and vectors replaced inside every Gram symbol, at once,
    inside sums too (`atoms.substitute`: no substituted term is captured)."""
    scalars = {n: t for n, t in mapping.items() if not isinstance(t, dict)}
    vectors = {n: t for n, t in mapping.items() if isinstance(t, dict)}

    def sub(e: sympy.Expr) -> sympy.Expr:
        return atoms.substitute(e, scalars, vectors)  # type: ignore[arg-type]

    return Rel(sub(algebra.expr(r.lhs, r.text)), r.op, sub(algebra.expr(r.rhs, r.text)),
               f"{r.text} [{shown}]", tuple(sub(d) for d in r.divisors))


def _read(r: Rel) -> set[str]:
    """Every name a relation reads, its divisors included (SymPy cancels `w/w` to 1)."""
    return set().union(*map(names_of, (r.lhs, r.rhs, *r.divisors)))


def _mentions(relations: Sequence[Rel], names: set[str], what: str, why: str) -> None:
    for r in relations if names else ():
        if found := sorted(_read(r) & names):
            raise RuleError(f"{what} `{r.text}` mentions {', '.join(found)}: {why}")


def _run(sequent: Sequent, hyps: Sequence[Rel]) -> str:
    """An induction's runs, described, once its names are checked against its semantics."""
    rule: Induction = sequent.rule  # type: ignore[assignment]
    iterated = {*rule.base, *rule.step, rule.variable}
    if bad := sorted({*rule.base, *rule.step} & (sequent.naturals | {rule.variable})):
        raise RuleError(f"{', '.join(bad)} cannot be iterated: the counter, or a natural "
                        "(nothing shows its updates keep it natural)")
    reads = _reads(rule.step) | set().union(*map(_read, rule.update))  # type: ignore[arg-type]
    fresh = reads - iterated - rule.constants
    per_update = "fresh at every update unless listed in the induction's constants"
    _mentions((sequent.claim,), fresh, "the invariant", per_update)
    _mentions(hyps, fresh | iterated, "hypothesis", "hypotheses hold at every update, so they "
              f"may not mention the iteration ({', '.join(sorted(iterated))}) or per-update "
              f"names ({per_update})")
    for name, term in rule.base.items():
        if bad := sorted(_reads({name: term}) & (fresh | iterated)):  # type: ignore[dict-item]
            raise RuleError(f"the base of {name} mentions {', '.join(bad)}: a run starts "
                            "before any update, from constants only")
    notes = [f"{', '.join(sorted(fresh))} fresh at each update"] if fresh else []
    if constant := sorted((rule.constants & reads) - iterated):
        notes.append(f"{', '.join(constant)} constant")
    return (f"from {_shown(rule.base) or 'any start'} "  # type: ignore[arg-type]
            f"of updates {_shown(rule.step) or 'that change nothing'}"  # type: ignore[arg-type]
            + (f", each with {', '.join(r.text for r in rule.update)}" if rule.update else "")
            + (f" ({'; '.join(notes)})" if notes else "") + f", counted by {rule.variable}")


def _runs(sequent: Sequent) -> tuple[object, ...] | None:
    """The runs an induction is over, as an immutable value: its rule without its split."""
    if type(rule := sequent.rule) is not Induction:
        return None
    return (rule.variable, *map(_pairs, (rule.base, rule.step)), rule.update, rule.constants)


def _pairs(m: Terms) -> tuple[tuple[str, object], ...]:
    """A run's base or step as an immutable value: (name, term) pairs, a vector's term its
    (vector, coefficient) pairs, sorted."""
    return tuple(sorted((n, tuple(sorted(t.items())) if isinstance(t, dict) else t)
                        for n, t in m.items()))


def _moving(sequent: Sequent) -> set[str]:
    """An induction's counter, iterated names and per-update names (as `_run` reads them)."""
    rule: Induction = sequent.rule  # type: ignore[assignment]
    reads = _reads(rule.step) | set().union(*map(_read, rule.update))  # type: ignore[arg-type]
    return {*rule.base, *rule.step, rule.variable} | (reads - rule.constants)


def _lemma(used: Statement, sequent: Sequent) -> bool:
    """Whether `used` is a one-update lemma of the induction `sequent`: a statement about no
    run that reads what moves, so it can only hold at one update (module docstring)."""
    return type(sequent.rule) is Induction and not used.run and not used.runs and bool(
        set().union(*map(_read, (*used.hypotheses, used.claim))) & _moving(sequent))


def _carried(used: Statement, sequent: Sequent) -> bool:
    """Whether `used` is an invariant of the very runs `sequent` is an induction over."""
    return used.over is not None and used.over == _runs(sequent)


def statement(sequent: Sequent) -> Statement:
    """The full statement of `sequent` (validated): own hypotheses, then each used step's."""
    return _public(_statement_of(*_frozen(sequent)))


def state(sequent: Sequent) -> Stated:
    """`statement(sequent)` as a value `Sequent.uses` takes (see `Stated`), with
    `obligations(sequent)`: the sequent is read once for both."""
    frozen, sets = _frozen(sequent)
    st = _statement_of(frozen, sets)
    out = []
    for ob in _obligations_of(frozen, st):  # copies, sharing no fact or relation with the
        j = ob.judgement  # kernel's memos and statements (`_form`, `_public`)
        facts = [Fact(f.expr, f.kind) for f in (*j.hypotheses, j.claim)]
        out.append(replace(ob, judgement=replace(j, hypotheses=tuple(facts[:-1]),
                                                  claim=facts[-1]), written=ob.written and (
            _fresh(ob.written[0]), _fresh((ob.written[1],))[0])))
    return Stated(_KEY, statement=st, obligations=tuple(out))


def _statement_of(sequent: Sequent, sets: tuple[Places | None, ...]) -> Statement:
    """Of a sequent `_frozen` made (read once) with its used statements' `Places`."""
    hyps = {r: "" for r in sequent.hypotheses}
    naturals: set[str] = set()
    for k, used in enumerate(sequent.uses):
        if missing := sorted(used.naturals - sequent.naturals):
            raise UseError(f"uses {used.step}, which holds for natural {', '.join(missing)} "
                           f"only; declare naturals = {missing} to use it")
        rest = (r for j, u in enumerate(sequent.uses) if j != k for r in (*u.hypotheses, u.claim))
        if (some := (*used.exists, *used.bound)) and (
                sequent.witness or type(sequent.rule) is not Direct or set(some) & set().union(
                    sequent.naturals, *map(_read, (*sequent.hypotheses, sequent.claim, *rest)))):
            raise UseError(f"uses {used.step}, which claims or assumes some {', '.join(some)}: "
                           "only a direct step where no other fact reads them can use it")
        naturals |= used.naturals
        if _lemma(used, sequent):  # enters the inductive step only (obligations)
            continue
        new: Sequence[Rel] = used.hypotheses
        if (places := sets[k]) is not None:  # the kernel's own: only what `hyps` lacks is read
            new = sorted(places[0].difference(hyps), key=places[1].__getitem__)  # in its order
        for r in (*new, *[used.claim] * (not _carried(used, sequent))):
            hyps.setdefault(r, used.step)
    _mentions(tuple(hyps), set(sequent.witness), "hypothesis", "it names what the claim "
              "says exists")
    run, rule = "", sequent.rule  # a natural a witness or a split's `on` reads is one too,
    read = set().union(*map(_read, (*hyps, sequent.claim)), _reads(sequent.witness), *(
        names_of(c.on) for c in (rule, getattr(rule, "cases", None)) if type(c) is Cases))
    if type(rule) is Induction:  # as is one an induction's run starts from, steps by or updates
        read |= _reads(rule.base) | _reads(rule.step) | set().union(*map(_read, rule.update))  # type: ignore[arg-type]
        naturals.add(rule.variable)
    naturals |= sequent.naturals & read  # a declared natural nothing reads is left out
    _indexed(sequent, tuple(hyps), naturals)
    if type(rule) is Induction:
        run = _run(sequent, tuple(hyps))
        def shown(used: list[Statement]) -> str:
            return ", ".join(f"{u.claim.text} [{u.step}]" for u in used)
        if carried := [u for u in sequent.uses if _carried(u, sequent)]:
            run += f", where at every state {shown(carried)}"
        given = {algebra.normal_form(r, r.text) for r in (
            *hyps, sequent.claim, *rule.update, *(u.claim for u in carried))}
        given.add((Fact(sympy.Symbol(rule.variable), ">="), ()))  # t >= 0 (obligations)
        if lemmas := [u for u in sequent.uses if _lemma(u, sequent)]:
            for u in lemmas:  # each holds where its hypotheses do: all among the step's
                if missing := [h.text for h in u.hypotheses
                               if algebra.normal_form(h, h.text) not in given]:
                    raise RuleError(f"uses {u.step} at each update, but its hypothesis "
                                    f"`{missing[0]}` is none of the update's facts, the "
                                    "invariant or the step's hypotheses")
            run += f", and so at each update, by lemma, {shown(lemmas)}"  # not assumed
    starts = [u.starts for u in sequent.uses if not _lemma(u, sequent)]  # a lemma's are not
    if type(rule) is Induction:  # its hypotheses' (obligations); its own start, its carried
        starts.append(((rule.variable, _pairs(rule.base), tuple(  # invariants true there
            u.claim for u in sequent.uses if _carried(u, sequent))),))
    return Statement(sequent.step, tuple(hyps), tuple(hyps.values()), sequent.claim,
                     frozenset(naturals), run, tuple(sorted(sequent.witness)), _runs(sequent),
                     tuple(sorted({n for u in sequent.uses for n in (*u.exists, *u.bound)})),
                     any(u.runs or (u.run and not _carried(u, sequent)) for u in sequent.uses),
                     None if None in starts else tuple(dict.fromkeys(  # type: ignore[arg-type]
                         s for found in starts for s in found)))


def _indexed(sequent: Sequent, hyps: tuple[Rel, ...], naturals: set[str]) -> None:
    """Sums and families as `atoms` reads them: every name a bound of a sum mentions is a
    natural (so the bounds are integers), and a family is used and substituted as nothing
    else (`y[j]` and a scalar `y` would be two things under one name)."""
    rule = sequent.rule
    maps = [sequent.witness, *((rule.base, rule.step) if type(rule) is Induction else ())]
    split = rule.cases if type(rule) is Induction else rule if type(rule) is Cases else None
    exprs = [e for r in (*hyps, sequent.claim, *(rule.update if type(rule) is Induction else ()))
             for e in (r.lhs, r.rhs, *r.divisors)] + ([split.on] if split else [])  # type: ignore[union-attr]
    exprs += [c for m in maps for t in m.values() for c in (t.values() if isinstance(t, dict)
                                                            else (t,))]  # type: ignore[union-attr]
    found = set().union(*map(atoms.named, exprs)) | {
        ("family", atoms.head(v)) for m in maps for t in m.values() if isinstance(t, dict)
        for v in t if atoms.head(v) != v}
    if bad := sorted(set().union(*map(atoms.bound_names, exprs)) - naturals):
        raise RuleError(f"a bound of a sum mentions {', '.join(bad)}, which is not natural: a "
                        "sum ranges over integers, so declare it in naturals")
    families = {n for k, n in found if k == "family"}
    if bad := sorted(families & ({n for k, n in found if k != "family"} | {*maps[0], *(
            k for m in maps[1:] for k in m)})):
        raise RuleError(f"{bad[0]} is a family ({bad[0]}[...]) and also a name of its own or "
                        "a substituted name")


def instance(stated: Statement, substitution: Mapping[str, object]) -> Statement:
    """`stated` with names replaced at once by terms of their sort (module docstring)."""
    if (stated := _statement(stated)).run or stated.exists or stated.bound:
        raise RuleError("only a statement free of runs and existentials can be instantiated")
    rels, naturals = (*stated.hypotheses, stated.claim), stated.naturals
    found = set().union(*(atoms.named(e) for r in rels for e in (r.lhs, r.rhs, *r.divisors)))
    terms = _terms(substitution, f"instance of {stated.step}",  # a family is no key: no sort
                   frozenset(n for k, n in found if k == "vector"),
                   frozenset(n for k, n in found if k == "scalar"))
    if bad := sorted(set(terms) & {n for k, n in found if k == "family"}):
        raise RuleError(f"{bad[0]} is a family: it cannot be replaced")
    for n in sorted(naturals & set(terms)):
        if type(terms[n]) is not sympy.Symbol or not atoms.IDENT.fullmatch(terms[n].name):  # type: ignore[union-attr]
            raise RuleError(f"the natural {n} can be replaced by a name only")
    _mentions([r for r, o in zip(rels, stated.origins, strict=False) if o], set(terms),
              "inherited hypothesis", "a used step's claim holds for the values it states only")
    shown = _shown(terms)
    new = [_substitute(r, terms, shown) for r in rels]
    return Statement(stated.step, tuple(new[:-1]), stated.origins, new[-1],
                     frozenset(terms[n].name if n in terms else n  # type: ignore[union-attr]
                               for n in naturals), runs=stated.runs,
                     starts=None if stated.runs else ())  # the substitution may move them


def instantiate(theorem: Theorem, substitution: Mapping[str, object]) -> Theorem:
    """The Theorem of `instance(theorem.statement, substitution)`: forall-instantiation."""
    if type(theorem) is not Theorem or theorem not in _MADE:
        raise KernelError("only a Theorem the kernel made can be instantiated")
    return Theorem(_KEY, statement=instance(_MADE[theorem][0], substitution))  # type: ignore[arg-type]


def summed(stated: Statement, index: str, lo: sympy.Expr, hi: sympy.Expr,
           where: Sequence[Rel] = ()) -> Statement:
    """Term-wise: `stated`, about one value of the scalar `index`, summed over the integers
    `lo <= index <= hi` where the filters `where` hold. Its hypotheses that mention the index
    must be membership facts (`index >= lo`, `index <= hi`, a filter; compared in normal form):
    for each member they hold, and the others do not depend on it, so the claim `g (kind) 0`
    holds at each member and the sum of g over the set is >= 0 (== 0 for an equality; a
    strict claim gives only >= 0: the set may be empty). The index must not be natural in
    `stated` (a member may be any integer), a family or a vector there."""
    if (stated := _statement(stated)).run or stated.runs or stated.exists or stated.bound:
        raise RuleError("only a statement free of runs and existentials can be summed")
    j, lo, hi = algebra.text(index, "index"), algebra.expr(lo, "bound"), algebra.expr(hi, "bound")
    sorts = {k for r in (*stated.hypotheses, stated.claim) for e in (r.lhs, r.rhs, *r.divisors)
             for k, n in atoms.named(e) if n == j}
    if not atoms.IDENT.fullmatch(j) or j in stated.naturals or not sorts <= {"scalar"} or (
            j in names_of(lo) | names_of(hi)):
        raise RuleError(f"{stated.step} cannot be summed over {j}: the index must be a scalar "
                        "of it, not natural (a member may be any integer), not in the bounds")
    member = (Rel(sympy.Symbol(j) - lo, ">=", sympy.Integer(0), f"{j} >= {lo}"),
              Rel(hi - sympy.Symbol(j), ">=", sympy.Integer(0), f"{j} <= {hi}"),
              *_rels(where, "the set's filters"))
    forms = [algebra.normal_form(r, r.text) for r in member]
    claim, divides = algebra.normal_form(stated.claim, "claim")
    if divides or any(cs for _, cs in forms):
        raise RuleError(f"{stated.step} cannot be summed: its claim or a filter divides")
    for h in stated.hypotheses:
        if j in _read(h) and algebra.normal_form(h, h.text) not in forms:
            raise RuleError(f"hypothesis `{h.text}` of {stated.step} mentions {j}, but is no "
                            f"membership fact ({j} >= lo, {j} <= hi or a filter of the set)")
    total = atoms.finite_sum(sympy.Symbol(j), lo, hi, [(f.expr, f.kind) for f, _ in forms[2:]],
                             claim.expr)
    op = "==" if claim.kind == "==" else ">="
    kept = [(h, o) for h, o in zip(stated.hypotheses, stated.origins, strict=True)
            if j not in _read(h)]
    where = " where " * (len(member) > 2) + ", ".join(r.text for r in member[2:])  # bracketed:
    text = f"({stated.claim.text} summed over {j} in {lo}..{hi}{where})"  # one hypothesis
    return Statement(stated.step, tuple(h for h, _ in kept), tuple(o for _, o in kept),
                     Rel(total, op, sympy.Integer(0), text), stated.naturals | names_of(lo) |
                     names_of(hi))


def summed_theorem(theorem: Theorem, index: str, lo: sympy.Expr, hi: sympy.Expr,
                   where: Sequence[Rel] = ()) -> Theorem:
    """The Theorem of `summed(theorem.statement, ...)`: the term-wise rule."""
    if type(theorem) is not Theorem or theorem not in _MADE:
        raise KernelError("only a Theorem the kernel made can be summed")
    return Theorem(_KEY, statement=summed(_MADE[theorem][0], index, lo, hi, where))  # type: ignore[arg-type]


def _sum_facts(label: str, rels: Sequence[Rel], sequent: Sequent, st: Statement
               ) -> list[tuple[Fact, tuple[Fact, ...], str]]:
    """The identities of the step's sum rules for the obligation `label` whose sum is in
    `rels` (or in an earlier one's right-hand side), in normal form, with their conditions."""
    present = set().union(*(e.free_symbols for r in rels for e in (r.lhs, r.rhs, *r.divisors)))
    out = []
    for rule in sequent.sums:
        fact, conditions = sums.identity(rule)
        if fact.lhs in present and rule.label in ("", label):
            present |= fact.rhs.free_symbols
            out.append((algebra.normal_form(fact, fact.text)[0], conditions, rule.rule))
    if bad := sorted(set().union(*(atoms.bound_names(f.expr) for f, _, _ in out)) - st.naturals):
        raise RuleError(f"a sum rule makes a bound of {', '.join(bad)}, which is not natural")
    return out


def _admit(label: str, written: tuple[tuple[Rel, ...], Rel], origins: Sequence[str],
           st: Statement, sequent: Sequent, decisive: bool = True
           ) -> tuple[Obligation, list[Obligation], list[Obligation]]:
    """The obligation `written`, divisions cleared and the identities of its sums among its
    hypotheses; then its denominators' side conditions, and its sum rules' conditions proved
    from its own hypotheses free of division (module doc)."""
    forms = [_form(r) for r in (*written[0], written[1])]
    found = _sum_facts(label, (*written[0], written[1]), sequent, st)
    mentioned = set().union(*(names_of(f.expr) for fact, cs in forms for f in (fact, *cs)),
                            *(names_of(f.expr) for fact, cs, _ in found for f in (fact, *cs)))
    given = list(zip(forms[:-1], origins, strict=True))
    context = [(Fact(sympy.Symbol(n), ">="), "natural") for n in sorted(st.naturals & mentioned)]
    context += [(f, o) for (f, c), o in given if not c]
    conditions = list(dict.fromkeys(c for _, cs in forms for c in cs))
    if bad := sorted(mentioned & {s.name for s in sequent.named}):
        raise RuleError(f"the named vector sum {bad[0]} is a name the step reads")
    grams = {n for f, _ in forms for s in f.expr.free_symbols if (p := atoms.gram_pair(s))
             for n in p if "#" not in n} | {n for f, _ in forms for k, n in atoms.named(
                 f.expr) if k == "vector"}
    named = sums.definitions(sequent.named, grams)
    if bad := sorted(set().union(*(atoms.bound_names(f.expr) for f in named)) - st.naturals):
        raise RuleError(f"a named vector sum has a bound of {', '.join(bad)}, not natural")
    unique: dict[Fact, str] = {}  # a fact given twice is one hypothesis (its first origin)
    for f, o in (*context, *((c, "condition") for c in conditions),
                 *((f, o) for (f, c), o in given if c), *((f, "sum") for f, _, _ in found),
                 *((f, "named") for f in named)):
        unique.setdefault(f, o)

    def obligation(label: str, given: Sequence[tuple[Fact, str]], goal: Fact,
                   decisive: bool, written: tuple | None) -> Obligation:
        judgement = Judgement(tuple(f for f, _ in given), goal, tuple(sorted(
            sequent.vectors | {s.name for s in sequent.named})), tuple(sorted(sequent.scalars)))
        return Obligation(label, judgement, decisive, tuple(o for _, o in given), written)

    where = "" if label == "main" else f"{label}: "
    return (obligation(label, list(unique.items()), forms[-1][0], decisive, written),
            [obligation(f"{where}denominator {c.expr} > 0", context, c, False, None)
             for c in conditions],
            [obligation(f"{where}sum rule {name}: {c}", context, c, False, None)
             for _, cs, name in found for c in cs])


@lru_cache(maxsize=1 << 14)
def _form(r: Rel) -> tuple[Fact, tuple[Fact, ...]]:
    """`algebra.normal_form` of a relation the rules read (validated), once per relation:
    its facts stay the kernel's (`state` hands out copies). A memo key must not lie in `==`."""
    if type(r) is not Rel:
        raise KernelError(f"expected a Rel, not {type(r).__name__}")
    return algebra.normal_form(r, f"`{r.text}`")


def obligations(sequent: Sequent) -> tuple[Obligation, ...]:
    """The judgements that establish `sequent`, main ones first, then side conditions."""
    return state(sequent).obligations


def _obligations_of(sequent: Sequent, st: Statement) -> tuple[Obligation, ...]:
    hyps, rule = st.hypotheses, sequent.rule
    claims = {u.claim for u in sequent.uses}
    origins = ["" if not o else "claim" if h in claims else "inherited"
               for h, o in zip(hyps, st.origins, strict=True)]
    claim = _substitute(st.claim, sequent.witness, _shown(sequent.witness)) if (  # type: ignore[arg-type]
        sequent.witness) else st.claim
    decisive = not (sequent.witness or st.runs)  # a point no run reaches refutes nothing
    if type(rule) is Direct:
        main, sides, summed = _admit("main", (hyps, claim), origins, st, sequent, decisive)
        return (main, *sides, *summed)
    if type(rule) is Cases:
        return _by_cases(rule, "", (hyps, claim), origins, st, sequent, decisive)
    t = rule.variable  # an Induction: _frozen admits these three rules only
    zero = _substitute(st.claim, {t: sympy.Integer(0), **rule.base},  # type: ignore[dict-item]
                       ", ".join(filter(None, [f"{t} := 0", _shown(rule.base)])))  # type: ignore[arg-type]
    after = _substitute(st.claim, {t: sympy.Symbol(t) + 1, **rule.step},  # type: ignore[dict-item]
                        ", ".join(filter(None, [f"{t} := {t} + 1", _shown(rule.step)])))  # type: ignore[arg-type]
    carried = tuple(u.claim for u in sequent.uses if _carried(u, sequent))
    lemmas = tuple(u.claim for u in sequent.uses if _lemma(u, sequent))
    given = (*hyps, Rel(sympy.Symbol(t), ">=", sympy.Integer(0), f"{t} >= 0"), st.claim,
             *carried, *rule.update, *lemmas)
    marks = (*origins, "natural", "invariant", *("invariant" for _ in carried),
             *("update" for _ in rule.update), *("lemma" for _ in lemmas))
    base, sides, summed = _admit("base", (hyps, zero), origins, st, sequent, decisive)
    if rule.cases:
        return (base, *sides, *summed, *_by_cases(rule.cases, "step", (given, after), marks, st,
                                                  sequent, False))
    step, step_sides, step_summed = _admit("step", (given, after), marks, st, sequent, False)
    return (base, *sides, *summed, step, *step_sides, *step_summed)


def _by_cases(rule: Cases, label: str, written: tuple[tuple[Rel, ...], Rel],
              origins: Sequence[str], st: Statement, sequent: Sequent,
              decisive: bool) -> tuple[Obligation, ...]:
    """`written` in each case of `rule`, then its denominators' side conditions once, without
    the case, then each case's sum rules' conditions, under the case (`label`: the obligation
    split, "" for the step itself)."""
    cases = [Rel(rule.on, op, sympy.Integer(0), f"{rule.text or rule.on} {op} 0")
             for op in ((">", "==", "<") if rule.zero else (">=", "<"))]
    out = [_admit(f"{label}{', ' * bool(label)}case {c.text}", ((*written[0], c), written[1]),
                  (*origins, "case"), st, sequent, decisive) for c in cases]
    return (*(main for main, _, _ in out),
            *_admit(label or "cases", written, origins, st, sequent)[1],
            *(side for _, _, summed in out for side in summed))


def conclude(sequent: Sequent, evidence: Sequence[tuple[Judgement, certificates.Certificate]],
             used: Sequence[Theorem]) -> Theorem:
    """The Theorem of `sequent`, if every obligation has checked evidence; else KernelError.

    Evidence for `H |- claim` proves it from a subset of H (fewer hypotheses prove a
    stronger judgement), or, in refutation form, proves `0 > 0` from a subset of H and the
    negated claim: no point then satisfies H and violates the claim (the negation of
    `g >= 0` is `-g > 0`, of `g > 0` is `-g >= 0`; an equality has no such form). An
    equality `g == 0` may instead have two pieces of evidence, for `g >= 0` and `-g >= 0`:
    a real number both >= 0 and <= 0 is 0 (antisymmetry).
    """
    sequent, sets = _frozen(sequent)
    wanted = _obligations_of(sequent, st := _statement_of(sequent, sets))
    if len(evidence := algebra.items(evidence, "evidence")) != len(wanted):  # type: ignore[assignment]
        raise KernelError(f"{len(evidence)} certificates for {len(wanted)} obligations")
    for ob, entry in zip(wanted, evidence, strict=True):
        parts, goal = algebra.items(entry, "evidence entry"), ob.judgement.claim
        goals = (Fact(goal.expr, ">="), Fact(-goal.expr, ">=")) if (  # antisymmetry
            goal.kind == "==" and len(parts) == 4) else (goal,)
        if len(parts) != 2 * len(goals):
            raise KernelError(f"{ob.label}: evidence is (judgement, certificate), or two such "
                              "pairs for an equality (its two inequalities)")
        for judgement, certificate, want in zip(parts[::2], parts[1::2], goals, strict=True):
            (hyps, claim), allowed = facts(judgement), set(ob.judgement.hypotheses)
            if claim == Fact(sympy.Integer(0), ">") and want.kind != "==":  # refutation form
                allowed.add(Fact(-want.expr, ">" if want.kind == ">=" else ">="))
            if claim not in (want, Fact(sympy.Integer(0), ">")) or not set(hyps) <= allowed:
                raise KernelError(f"{ob.label}: the evidence is for another judgement")
            check_certificate(judgement, certificate)  # type: ignore[arg-type]
    used = algebra.items(used, "used theorems")  # type: ignore[assignment]
    if len(used) != len(sequent.uses) or any(type(th) is not Theorem or th not in _MADE
                                             or _MADE[th][0] != s
                                             for th, s in zip(used, sequent.uses, strict=False)):
        raise KernelError("every used step needs its own Theorem")
    return Theorem(_KEY, statement=st)


def refute(sequent: Sequent, label: str, cex: certificates.Counterexample) -> Refutation:
    """A Refutation, if `cex` violates the statement as written in the decisive `label`."""
    sequent, sets = _frozen(sequent)
    st = _statement_of(sequent, sets)
    if not (found := [o for o in _obligations_of(sequent, st)
                      if o.label == label and o.decisive]):
        raise KernelError(f"no decisive obligation {label!r}")
    _natural(point := Point(cex), st, "")
    hyps, claim = found[0].written  # type: ignore[misc]
    rule = sequent.rule  # a base's point: a run only where carried invariants hold (module doc)
    hyps += tuple(_substitute(u.claim, {rule.variable: sympy.Integer(0), **rule.base},  # type: ignore[union-attr, dict-item]
                              "carried invariant, at the start")
                  for u in sequent.uses if label == "base" and _carried(u, sequent))
    for r in hyps:
        if not algebra.evaluate(r, f"hypothesis `{r.text}`", point.value):
            raise KernelError(f"hypothesis `{r.text}` fails at the counterexample")
    if algebra.evaluate(claim, "the claim", point.value):
        raise KernelError(f"the claim `{claim.text}` holds at the counterexample")
    return Refutation(_KEY, statement=st, label=label, run=(),  # the validated copy, not the
                      counterexample=_copy(point))  # caller's


def _natural(point: Point, st: Statement, where: str) -> None:
    for n in sorted(st.naturals):
        if (value := point.value(sympy.Symbol(n))).denominator != 1 or value < 0:
            raise KernelError(f"{where}{n} = {value} is not a natural number, and {n} is one")


def refute_start(sequent: Sequent, cex: certificates.Counterexample) -> Refutation:
    """A Refutation (label "start"), if `cex` is at the start of every induction the
    statement speaks of, its hypotheses hold there and its claim fails (module doc, *Starts*)."""
    sequent, sets = _frozen(sequent)
    if (st := _statement_of(sequent, sets)).exists or not st.starts:
        raise KernelError("a start refutes a statement about runs whose starts are known "
                          "(none of an instance importing a claim), its claim no existential")
    _natural(point := Point(cex), st, "")
    for t, base, carried in st.starts:
        if point.value(sympy.Symbol(t)) != 0:
            raise KernelError(f"the counter {t} is not 0: the point is no run's start")
        for name, term in base:
            vector = type(term) is tuple
            if run_value(point.world, dict(term) if vector else term) != run_value(  # type: ignore[arg-type]
                    point.world, {name: sympy.Integer(1)} if vector else sympy.Symbol(name)):
                raise KernelError(f"{name} is not its base's value: the point is no start")
        for r in carried:
            if not algebra.evaluate(r, f"carried `{r.text}`", point.value):
                raise KernelError(f"the carried invariant `{r.text}` fails at the start")
    for r in st.hypotheses:
        if not algebra.evaluate(r, f"hypothesis `{r.text}`", point.value):
            raise KernelError(f"hypothesis `{r.text}` fails at the counterexample")
    if algebra.evaluate(st.claim, "the claim", point.value):
        raise KernelError(f"the claim `{st.claim.text}` holds at the start")
    return Refutation(_KEY, statement=st, label="start", counterexample=_copy(point), run=())


def _copy(point: Point) -> certificates.Counterexample:  # read-only: no holder changes it
    ro = certificates.Frozen
    return certificates.Counterexample(ro(point.scalars), ro(point.vectors), ro(
        {n: ro(m) for n, m in point.families.items()}))


def run_value(world: atoms.World, term: sympy.Expr | Mapping[str, sympy.Expr]
          ) -> Fraction | tuple[Fraction, ...]:
    """The value at `world` of a run's term: a scalar's polynomial, or a vector's combination
    of vectors (the zero vector when it has none)."""
    if not isinstance(term, Mapping):
        return world.of(term)
    out = [Fraction(0)] * world.dimension
    for name, coefficient in term.items():
        c = world.of(coefficient)
        out = [a + c * x for a, x in zip(out, world.vector(name), strict=True)]
    return tuple(out)


MAX_RUN = 64  # updates of a run `refute_run` reads: each state is checked whole


def refute_run(sequent: Sequent, states: Sequence[certificates.Counterexample]) -> Refutation:
    """A Refutation of an induction by one of its runs, if `states` is one whose last state
    breaks the invariant (label "run"; module docstring, *Runs*).

    `states[s]` is the point at state s: the counter `s`, the iterated names' values `W_s`,
    the values of everything else the run holds constant (the same at every state), and the
    per-update names' values at update s (those of the last state are not read)."""
    sequent, sets = _frozen(sequent)
    st = _statement_of(sequent, sets)
    if type(rule := sequent.rule) is not Induction or st.runs:
        raise KernelError("a run refutes only an induction whose hypotheses are no "
                          "induction's claim (a point could satisfy them off its runs)")
    points = [Point(c) for c in algebra.items(states, "run states")[:MAX_RUN + 2]]
    if not 0 < len(points) <= MAX_RUN + 1:
        raise KernelError(f"a run has its start state and at most {MAX_RUN} updates")
    moving = _moving(sequent)
    carried = [u.claim for u in sequent.uses if _carried(u, sequent)]
    lemmas = [u.claim for u in sequent.uses if _lemma(u, sequent)]

    def fixed(world: atoms.World) -> tuple[object, ...]:
        return (world.dimension, *({n: v for n, v in m.items() if n not in moving}
                                   for m in (world.scalars, world.vectors, world.families)))

    kept: Terms = {n: {n: sympy.Integer(1)} if n in sequent.vectors else sympy.Symbol(n)
                   for n in (*rule.base, *rule.step)}  # a name the step leaves keeps its value
    for s, point in enumerate(points):
        if fixed(point.world) != fixed(points[0].world):
            raise KernelError(f"state {s}: a name the run holds constant changed")
        _natural(point, st, f"state {s}: ")
        if point.value(sympy.Symbol(rule.variable)) != s:
            raise KernelError(f"state {s}: the counter {rule.variable} is not {s}")
        made = rule.base if s == 0 else {**kept, **rule.step}  # from constants, or the state
        for name, term in sorted(made.items()):  # before
            if run_value(points[max(s - 1, 0)].world, term) != run_value(point.world, (
                    {name: sympy.Integer(1)} if isinstance(term, dict) else sympy.Symbol(name))):
                raise KernelError(f"state {s}: {name} is not what the run makes of it")
        facts = (*rule.update, *lemmas) if s < len(points) - 1 else st.hypotheses  # of
        for r in (*carried, *facts):  # update s; the hypotheses read constants only
            if not algebra.evaluate(r, f"`{r.text}` at state {s}", point.value):
                raise KernelError(f"state {s}: `{r.text}` fails, and the run needs it")
    if algebra.evaluate(st.claim, "the invariant", points[-1].value):
        raise KernelError(f"the invariant `{st.claim.text}` holds at the run's last state")
    return Refutation(_KEY, statement=st, label="run", counterexample=_copy(points[-1]),
                      run=tuple(map(_copy, points)))
