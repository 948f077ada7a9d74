"""The proof model shared by proof files and the built-in proof library.

A `Proof` is an ordered list of `Step`s over declared vectors and scalars. A step states
`hypotheses |- claim`; how it is established is its rule: `Direct` (one judgement),
`CaseSplit` or `Induction`, and a step may take earlier steps' claims as hypotheses
(`Chain`, through `uses`). `Proof.goals(step)` turns a step into the judgements (`Goal`s)
the checker must decide, divisions cleared and their side conditions added. Nothing here
decides anything: that is the kernel's job in `verify`.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import sympy

from proofs.division import admit, denominators, required
from proofs.errors import ProofFileError
from proofs.expressions import ExpressionError, Names, Relation
from proofs.terms import Vec, dot, gram_pair, scalar

MAX_STEPS = 200
MAX_HYPOTHESES = 50
MAX_HINTS = 20
MAX_NAMES = 100
MAX_NAME_LENGTH = 64
RESERVED = frozenset({"dot", "norm2"})
STEP_ID = re.compile(r"[a-z0-9-]{1,64}")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

Hint = sympy.Expr | Vec
"""A polynomial whose square, or a vector whose squared norm, the search should try."""


def declare(vectors: Sequence[str], scalars: Sequence[str]) -> Names:
    """The `Names` of a proof, after checking each is an identifier declared exactly once."""
    if len(vectors) + len(scalars) > MAX_NAMES:
        raise ProofFileError(f"more than {MAX_NAMES} names declared")
    seen: set[str] = set()
    for name in (*vectors, *scalars):
        if not isinstance(name, str) or not IDENTIFIER.fullmatch(name):
            raise ProofFileError(f"name {name!r} is not an identifier")
        if len(name) > MAX_NAME_LENGTH or keyword.iskeyword(name):
            raise ProofFileError(f"name {name!r} cannot be used")
        if name in RESERVED:
            raise ProofFileError(f"name {name!r} is reserved")
        if name in seen:
            raise ProofFileError(f"name {name!r} is declared more than once")
        seen.add(name)
    return Names(vectors=frozenset(vectors), scalars=frozenset(scalars))


@dataclass(frozen=True)
class Goal:
    """One judgement a step needs, in relation form.

    `decisive`: a counterexample to it is a counterexample to the step itself, so refuting it
    refutes the step. A failed side condition or induction step only leaves the step unproved.
    """

    label: str
    hypotheses: tuple[Relation, ...]
    claim: Relation
    decisive: bool = True


@dataclass(frozen=True)
class Direct:
    """The step is its own judgement: hypotheses |- claim."""

    def goals(self, hypotheses: tuple[Relation, ...], claim: Relation) -> tuple[Goal, ...]:
        """The single main judgement."""
        return (Goal("main", hypotheses, claim),)

    def validate(self, names: Names, hypotheses: tuple[Relation, ...]) -> None:
        """Nothing to check."""


@dataclass(frozen=True)
class CaseSplit:
    """Cases on the sign of one polynomial `on`, one judgement per case.

    The cases are `on > 0`, `on == 0`, `on < 0` (or `on >= 0`, `on < 0` without a zero
    case): exhaustive by trichotomy of the reals, so exhaustiveness holds by construction and
    needs no proof. Each case is decisive: its counterexample satisfies the step's hypotheses.
    """

    on: sympy.Expr
    text: str = ""
    zero_case: bool = True

    def cases(self) -> tuple[Relation, ...]:
        """The case hypotheses, jointly exhaustive."""
        shown = self.text or str(self.on)
        ops = (">", "==", "<") if self.zero_case else (">=", "<")
        return tuple(Relation(self.on, op, sympy.Integer(0), f"{shown} {op} 0") for op in ops)

    def goals(self, hypotheses: tuple[Relation, ...], claim: Relation) -> tuple[Goal, ...]:
        """The step's judgement with each case added as a hypothesis."""
        return tuple(Goal(f"case {c.text}", (*hypotheses, c), claim) for c in self.cases())

    def validate(self, names: Names, hypotheses: tuple[Relation, ...]) -> None:
        """The split polynomial must be a polynomial in declared names."""
        case = self.cases()[0]
        _check_symbols(case.lhs, names, "the split polynomial")
        if required(case, names):
            raise ProofFileError(f"split on {case.lhs}: the split polynomial must not divide")


@dataclass(frozen=True)
class Induction:
    """Induction over a non-negative integer scalar `variable` of an invariant `P(t, w)`.

    The step's claim is the invariant. Base: the hypotheses give `P(0, base(w))`. Step: the
    hypotheses, `t >= 0`, `P(t, w)` and the update's own `hypotheses` give
    `P(t + 1, step(w))`. Proving the step for every real `t >= 0` covers every integer.
    The step's other hypotheses must not mention `t` or the iterated vectors: they hold at
    every iteration, and a fact about one iterate would silently be assumed for all.
    Refuting the base refutes the claim; refuting the step only shows the invariant is not
    inductive, so the step then stays unknown.
    """

    variable: str
    base: Mapping[str, Vec]
    step: Mapping[str, Vec]
    hypotheses: tuple[Relation, ...] = ()

    def substitute(self, relation: Relation, *, at_base: bool) -> Relation:
        """`relation` at `t = 0, w = base(w)` or at `t = t + 1, w = step(w)`."""
        t = scalar(self.variable)
        vectors = self.base if at_base else self.step
        scalars = {t: sympy.Integer(0) if at_base else t + 1}
        sides = (substitute(side, scalars, vectors) for side in (relation.lhs, relation.rhs))
        lhs, rhs = sides
        shown = ", ".join(
            [f"{t} := {scalars[t]}", *(f"{n} := {_vec_text(v)}" for n, v in vectors.items())]
        )
        return Relation(lhs, relation.op, rhs, f"{relation.text} [{shown}]")

    def goals(self, hypotheses: tuple[Relation, ...], claim: Relation) -> tuple[Goal, ...]:
        """The base judgement (decisive) and the step judgement."""
        t = scalar(self.variable)
        nonnegative = Relation(t, ">=", sympy.Integer(0), f"{t} >= 0")
        return (
            Goal("base", hypotheses, self.substitute(claim, at_base=True)),
            Goal(
                "step",
                (*hypotheses, nonnegative, claim, *self.hypotheses),
                self.substitute(claim, at_base=False),
                decisive=False,
            ),
        )

    def validate(self, names: Names, hypotheses: tuple[Relation, ...]) -> None:
        """Declared names only; hypotheses free of the iteration; polynomial update facts."""
        if self.variable not in names.scalars:
            raise ProofFileError(f"induction variable {self.variable!r} is not a declared scalar")
        for mapping in (self.base, self.step):
            for name, vector in mapping.items():
                if name not in names.vectors or not set(vector) <= names.vectors:
                    raise ProofFileError(f"induction substitution of {name!r}: undeclared vector")
                for coefficient in vector.values():
                    _check_symbols(coefficient, names, f"the substitution of {name!r}")
                    if denominators(coefficient):
                        raise ProofFileError(
                            f"induction substitution of {name!r} must be polynomial (no division)"
                        )
        iterated = {self.variable, *self.base, *self.step}
        shown = ", ".join(sorted(iterated))
        for relation in hypotheses:
            if _mentions(relation, iterated):
                raise ProofFileError(
                    f"hypothesis {relation.text!r} mentions the iteration ({shown}); "
                    "state facts about one iteration as the induction's own hypotheses"
                )
        for relation in self.hypotheses:
            _check_relation(relation, names)
            if required(relation, names):
                raise ProofFileError(f"induction hypothesis {relation.text!r} must not divide")


Rule = Direct | CaseSplit | Induction


@dataclass(frozen=True)
class Chain:
    """Earlier steps' claims used as hypotheses of a later step (`uses`).

    A used claim was proved only under the used step's hypotheses, so those come along with
    it (transitively): the later step is then proved under all of them, never under fewer.
    Importing the claim alone would let a step proved under `x <= -1` establish `x <= 0`
    for every x.
    """

    uses: tuple[str, ...]

    def hypotheses(self, earlier: Mapping[str, Step]) -> tuple[Relation, ...]:
        """Each used step's own and inherited hypotheses, then its claim, without repeats."""
        out: dict[Relation, None] = {}
        for name in self.uses:
            used = earlier[name]
            out.update(dict.fromkeys(used.hypotheses))
            out.update(dict.fromkeys(Chain(used.uses).hypotheses(earlier)))
            out[used.claim] = None
        return tuple(out)


@dataclass(frozen=True)
class Step:
    """`hypotheses |- claim`, established by `rule`, possibly using earlier steps' claims."""

    id: str
    hypotheses: tuple[Relation, ...]
    claim: Relation
    uses: tuple[str, ...] = ()
    hints: tuple[Hint, ...] = ()
    source: str = ""
    note: str = ""
    rule: Rule = field(default_factory=Direct)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not STEP_ID.fullmatch(self.id):
            raise ProofFileError(f"id {self.id!r} must match [a-z0-9-]+ (at most 64 characters)")
        if len(self.hypotheses) > MAX_HYPOTHESES:
            raise ProofFileError(
                f"{len(self.hypotheses)} hypotheses, more than {MAX_HYPOTHESES}", step=self.id
            )
        if len(self.hints) > MAX_HINTS:
            raise ProofFileError(f"{len(self.hints)} hints, more than {MAX_HINTS}", step=self.id)
        if len(set(self.uses)) != len(self.uses):
            raise ProofFileError("uses lists a step more than once", step=self.id)



@dataclass(frozen=True)
class RunBinding:
    """Declares that the proof's names denote quantities of a run (`verify.vocabulary`).

    Only then are its steps checked on runs: a name means a run quantity by declaration,
    never by coincidence of spelling. `names` renames the proof's own notation (e.g.
    `th` -> `w`); names not renamed are taken as they are. `algorithm` names the source
    algorithm (`perceptron.source_algorithms`) whose rule, sign(0), initialisation and bias
    the runs use, so a source's claims are tested on its own iterates (None: the default).
    """

    run: str
    names: Mapping[str, str] = field(default_factory=dict)
    algorithm: str | None = None

    def rename(self, name: str) -> str:
        """The vocabulary name of the proof name `name`."""
        return self.names.get(name, name)


@dataclass(frozen=True)
class Proof:
    """A titled, ordered list of steps over declared vectors and scalars.

    Construction checks the structure (names, unique ids, `uses` of earlier steps only,
    every symbol declared, every rule well formed), so checking never meets a bad proof.
    """

    title: str
    vectors: tuple[str, ...]
    scalars: tuple[str, ...]
    steps: tuple[Step, ...]
    source: str = ""
    numeric: RunBinding | None = None

    def __post_init__(self) -> None:
        names = declare(self.vectors, self.scalars)
        if self.numeric is not None:
            for name in self.numeric.names:
                if name not in names.vectors and name not in names.scalars:
                    raise ProofFileError(f"numeric.names renames undeclared name {name!r}")
        if not self.steps:
            raise ProofFileError("a proof needs at least one step")
        if len(self.steps) > MAX_STEPS:
            raise ProofFileError(f"{len(self.steps)} steps, more than {MAX_STEPS}")
        seen: set[str] = set()
        for step in self.steps:
            if step.id in seen:
                raise ProofFileError("id is used by an earlier step", step=step.id)
            for used in step.uses:
                if used not in seen:
                    later = any(s.id == used for s in self.steps)
                    where = "a later step (or itself)" if later else "not a step"
                    raise ProofFileError(f"uses {used!r}, which is {where}", step=step.id)
            seen.add(step.id)
            try:
                self._validate(step, names)
            except ExpressionError as exc:
                raise ProofFileError(str(exc), step=step.id) from exc
            except ProofFileError as exc:
                raise ProofFileError(exc.problem, step=step.id) from exc

    @property
    def names(self) -> Names:
        """The declared names, as the expression parser takes them."""
        return Names(vectors=frozenset(self.vectors), scalars=frozenset(self.scalars))

    def step(self, step_id: str) -> Step:
        """The step with id `step_id`."""
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)

    def hypotheses(self, step: Step) -> tuple[Relation, ...]:
        """The step's own hypotheses, then what it uses (`Chain`), without repeats."""
        earlier = {s.id: s for s in self.steps}
        own = dict.fromkeys(step.hypotheses)
        return (*own, *(h for h in Chain(step.uses).hypotheses(earlier) if h not in own))

    def inherited(self, step: Step) -> frozenset[Relation]:
        """The hypotheses that come only through `uses`, not the used claims themselves."""
        earlier = {s.id: s for s in self.steps}
        claims = {earlier[name].claim for name in step.uses}
        return frozenset(self.hypotheses(step)) - set(step.hypotheses) - claims

    def statement(self, step: Step) -> str:
        """`h1, h2 |- claim` as written, with the hypotheses inherited through `uses`."""
        return f"{', '.join(h.text for h in self.hypotheses(step))} |- {step.claim.text}"

    def goals(self, step: Step) -> tuple[Goal, ...]:
        """The judgements that establish `step`: the rule's, then division side conditions."""
        admission = admit(self.hypotheses(step), step.claim, self.names)
        side = tuple(
            Goal(f"denominator {c.text}", admission.context, c, decisive=False)
            for c in admission.conditions
        )
        return (*step.rule.goals(admission.hypotheses, admission.claim), *side)

    def _validate(self, step: Step, names: Names) -> None:
        """Cheap checks only: clearing divisions (field arithmetic) waits for `goals`."""
        for relation in (*step.hypotheses, step.claim):
            _check_relation(relation, names)
            required(relation, names)  # refuses divisions it cannot admit
        for hint in step.hints:
            _check_hint(hint, names)
        step.rule.validate(names, self.hypotheses(step))


def substitute(
    expr: sympy.Expr, scalars: Mapping[sympy.Symbol, sympy.Expr], vectors: Mapping[str, Vec]
) -> sympy.Expr:
    """`expr` with scalar symbols replaced and vectors replaced inside every Gram symbol.

    A Gram symbol `<a,b>` becomes `dot(vectors[a], vectors[b])`; the replacement is
    simultaneous (`xreplace`), so `t -> t + 1` does not cascade.
    """
    mapping: dict[sympy.Basic, sympy.Expr] = {}
    for symbol in expr.free_symbols:
        pair = gram_pair(symbol)
        if pair is None:
            if symbol in scalars:
                mapping[symbol] = scalars[symbol]
        elif pair[0] in vectors or pair[1] in vectors:
            a, b = (vectors.get(name, Vec.named(name)) for name in pair)
            mapping[symbol] = dot(a, b)
    return expr.xreplace(mapping)


def _vec_text(vector: Vec) -> str:
    return str(sum((c * sympy.Symbol(n) for n, c in vector.items()), sympy.Integer(0)))


def _mentions(relation: Relation, names: set[str]) -> bool:
    symbols = relation.lhs.free_symbols | relation.rhs.free_symbols
    return any(names & set(gram_pair(s) or (s.name,)) for s in symbols)


def _check_symbols(expr: sympy.Expr, names: Names, what: str) -> None:
    """Every symbol of `expr` is a declared scalar or a Gram symbol of declared vectors."""
    for symbol in expr.free_symbols:
        pair = gram_pair(symbol)
        known = set(pair) <= names.vectors if pair else symbol.name in names.scalars
        if not known:
            raise ProofFileError(f"{what} uses undeclared {symbol}")


def _check_relation(relation: Relation, names: Names) -> None:
    for side in (relation.lhs, relation.rhs):
        _check_symbols(side, names, repr(relation.text))


def _check_hint(hint: Hint, names: Names) -> None:
    parts: Iterable[sympy.Expr]
    if isinstance(hint, Vec):
        if not set(hint) <= names.vectors:
            raise ProofFileError(f"hint {hint!r} names undeclared vectors")
        parts = hint.values()
    else:
        parts = (hint,)
    for part in parts:
        _check_symbols(part, names, f"hint {hint}")
        if denominators(part):
            raise ProofFileError(f"hint {hint} must be a polynomial (no division)")

