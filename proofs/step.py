"""The proof model shared by proof files and the built-in proof library.

A `Proof` is an ordered list of `Step`s over declared vectors and scalars (some of them
`naturals`). A step states `hypotheses |- claim` as the user wrote it (with a `witness`: "there
exist values of the witnessed names with the claim"); its rule says how it is established
(`Direct`, `CaseSplit` or `Induction`), and `uses` names the earlier steps whose statements it
imports, each as proved or instantiated (`Use.with_`). This module only holds that data and checks
names; what each rule *means* and the judgements that establish it are the trusted kernel's
(`verify.kernel.rules`), which reads these steps through `verify.proof_checker`.
"""

from __future__ import annotations

import ast
import difflib
import keyword
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import sympy

from proofs.errors import ProofFileError, Source, raise_all
from proofs.language.division import denominators, required
from proofs.language.expressions import (
    ExpressionError,
    IndexSet,
    Names,
    Relation,
    parse_bound,
    parse_relation,
    source_tree,
)
from proofs.language.indexed import names_in, symbol_names
from proofs.language.terms import Vec

MAX_STEPS = 1000  # a chain of 300 steps, each using every earlier one, checks in seconds (issue 30)
MAX_HYPOTHESES = 200  # Mathlib's linarith suite has a goal with 90 (issue 28, item 6)
MAX_HINTS = 20
MAX_NAMES = 100
MAX_NAME_LENGTH = 64
RESERVED = frozenset({"dot", "norm2", "sum"})
MAX_SETS = 20
STEP_ID = re.compile(r"[a-z0-9-]{1,64}")
#: The rule of `STEP_ID` in words, for the message of an id that breaks it.
STEP_ID_RULE = "1 to 64 characters, each a-z, 0-9 or -"
#: Characters of a stranger's text echoed in a message (the rest is counted).
ECHOED = 40
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

Hint = sympy.Expr | Vec
"""A polynomial whose square, or a vector whose squared norm, the search should try."""
Term = sympy.Expr | Vec
"""A term of either sort: a scalar expression, or an explicit vector for a vector name."""


def parts(term: Term) -> tuple[sympy.Expr, ...]:
    """The scalar expressions a term is made of (a vector's coefficients)."""
    return tuple(term.values()) if isinstance(term, Vec) else (term,)


def check_terms(mapping: Mapping[str, Term], names: Names, what: str) -> None:
    """Declared names mapped to division-free terms of their own sort over declared names."""
    for name, term in mapping.items():
        if isinstance(term, Vec) != (name in names.vectors) or name not in (
                names.vectors | names.scalars):
            sort = "a vector" if isinstance(term, Vec) else "a scalar"
            raise ProofFileError(f"{what}: {name!r} is not a declared name that takes {sort}")
        if isinstance(term, Vec) and not set().union(*(
                symbol_names(sympy.Symbol(v)) for v in term)) <= names.vectors | names.scalars:
            raise ProofFileError(f"{what} of {name!r}: undeclared vector")
        for part in parts(term):
            _check_symbols(part, names, f"{what} of {name!r}")
            if denominators(part):
                raise ProofFileError(f"{what} of {name!r} must not divide")


def declare(vectors: Sequence[str], scalars: Sequence[str], indexed: Sequence[str] = (),
            sets: Mapping[str, IndexSet] | None = None) -> Names:
    """The `Names` of a proof, after checking each is an identifier declared exactly once,
    each family (`indexed`) a declared name, and each declared set readable: its index an
    identifier, its bounds and filters expressions over the names and its index."""
    if len(vectors) + len(scalars) > MAX_NAMES:
        raise ProofFileError(f"more than {MAX_NAMES} names declared")
    seen: set[str] = set()
    for key, name in (*(("vectors", v) for v in vectors), *(("scalars", s) for s in scalars)):
        where = {"key": key, "text": name} if isinstance(name, str) else {"key": key}
        if not isinstance(name, str) or not IDENTIFIER.fullmatch(name):
            raise _not_an_identifier(name, where)
        if len(name) > MAX_NAME_LENGTH:
            raise ProofFileError(f"name {_clipped(name)} has {len(name)} characters, more than "
                                 f"the {MAX_NAME_LENGTH} a name may have", **where)
        if keyword.iskeyword(name):
            raise ProofFileError(f"name {name!r} cannot be used: it is a Python keyword",
                                 **where)
        if name in RESERVED:
            raise ProofFileError(f"name {name!r} is reserved", **where)
        if name in seen:
            raise ProofFileError(f"name {name!r} is declared more than once", **where)
        seen.add(name)
    for name in indexed:
        if name not in seen:
            raise ProofFileError(f"indexed lists {name!r}, which is not a declared vector or "
                                 "scalar", key="indexed", text=name)
    names = Names(vectors=frozenset(vectors), scalars=frozenset(scalars),
                  indexed=frozenset(indexed), sets=dict(sets or {}))
    if len(names.sets) > MAX_SETS:
        raise ProofFileError(f"more than {MAX_SETS} sets declared")
    for name, declared in names.sets.items():
        if not IDENTIFIER.fullmatch(name) or name in seen | RESERVED or not IDENTIFIER.fullmatch(
                declared.index) or declared.index in names.indexed:
            raise ProofFileError(f"set {name!r}: its name must be a new identifier and its "
                                 "index an identifier that is no family", key=name)
        scope = {declared.index: sympy.Symbol(declared.index)}
        try:
            for text in (declared.lo, declared.hi):
                if declared.index in {n.id for n in ast.walk(source_tree(text))
                                      if isinstance(n, ast.Name)}:
                    raise ProofFileError(f"set {name!r}: its range mentions its own index "
                                         f"{declared.index}", key=name)  # placed at the set
                parse_bound(text, names)
            for text in declared.where:
                parse_relation(text, names, scope, of_set=name)
        except ExpressionError as error:
            raise ProofFileError(f"set {name!r}: {error}", key=name, segment=error.segment,
                                 fix=error.fix) from None
    return names


def step_id_problem(value: object) -> str | None:
    """What is wrong with `value` as a step id (`STEP_ID`), in one line that echoes at most
    `ECHOED` of its characters; None when it is one."""
    if isinstance(value, str) and STEP_ID.fullmatch(value):
        return None
    if isinstance(value, str) and len(value) > 64:
        return (f"id {_clipped(value)} has {len(value)} characters, more than 64 (an id is "
                f"{STEP_ID_RULE})")
    shown = _clipped(value) if isinstance(value, str) else repr(value)[:ECHOED]
    return f"id {shown} must be a string of {STEP_ID_RULE}"


def _clipped(text: str) -> str:
    """`text` quoted for a message, its first `ECHOED` characters only."""
    return repr(text) if len(text) <= ECHOED else repr(text[:ECHOED]) + "..."


def _not_an_identifier(name: object, where: Mapping[str, str]) -> ProofFileError:
    """A declared name that is not `[A-Za-z_][A-Za-z0-9_]*`: a Unicode identifier (γ) is
    one in Python, not here, so the message says which rule it breaks and, for a Greek
    letter, the name that prints as it (`verify.typeset.names`)."""
    if not isinstance(name, str) or not name.isidentifier():
        return ProofFileError(f"name {name!r} is not an identifier (letters, digits and _, "
                              "not starting with a digit)", **where)  # type: ignore[arg-type]
    fix = None
    if len(name) == 1 and unicodedata.name(name, "").startswith("GREEK "):
        letter = unicodedata.name(name).rsplit(" ", 1)[-1].lower()
        spelt = letter.capitalize() if name.isupper() else letter
        fix = f"write {spelt!r}: the reports print it as {name}"
    return ProofFileError(f"name {name!r} is not an ASCII identifier: names are ASCII "
                          "letters, digits and _", fix=fix, **where)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Direct:
    """The step is its own judgement: hypotheses |- claim."""

    def validate(self, names: Names) -> None:
        """Nothing to check."""


@dataclass(frozen=True)
class CaseSplit:
    """Cases on the sign of one polynomial `on` (`zero_case`: a separate `on == 0` case).

    What the cases mean and why they are exhaustive is the kernel's rule
    (`verify.kernel.rules`); here only the names are checked.
    """

    on: sympy.Expr
    text: str = ""
    zero_case: bool = True

    def validate(self, names: Names) -> None:
        """The split polynomial must be a polynomial in declared names."""
        _check_symbols(self.on, names, "the split polynomial")
        if denominators(self.on):
            raise ProofFileError(f"split on {self.on}: the split polynomial must not divide")


@dataclass(frozen=True)
class Induction:
    """Induction over runs on the natural `variable`: the step's claim is the invariant.

    `base` and `step` map the iterated vectors and scalars to their start and their update;
    the update's own facts are `hypotheses`. The semantics (per-update names, what the
    invariant and the outer hypotheses may mention) is the kernel's rule, stated in
    `verify.kernel.rules` and docs/proof-files.md; here only the names are checked.
    """

    variable: str
    base: Mapping[str, Term]
    step: Mapping[str, Term]
    hypotheses: tuple[Relation, ...] = ()
    constants: tuple[str, ...] = ()
    split: CaseSplit | None = None  # the inductive step by cases
    # the author's text of `base` and `step` (name -> as written in the proof file), so a
    # report prints `w + y*x` as written, not SymPy's reordered `w + x*y`; empty for a proof
    # built in Python. Not part of the rule's meaning, so not compared.
    written: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)

    def moving_constants(self) -> tuple[str, ...]:
        """The names `constants` lists that this induction iterates or counts: the kernel moves
        them whatever the listing says, so listing them has no effect (the file gets a note)."""
        return tuple(sorted(set(self.constants) & {*self.base, *self.step, self.variable}))

    def validate(self, names: Names) -> None:
        """Declared names only."""
        if self.split is not None:
            self.split.validate(names)
        if self.variable not in names.scalars:
            raise ProofFileError(f"induction variable {self.variable!r} is not a declared scalar")
        for name in self.constants:
            if name not in names.scalars | names.vectors:
                raise ProofFileError(f"induction constants lists undeclared {name!r}")
        for mapping in (self.base, self.step):
            check_terms(mapping, names, "induction substitution")
        for relation in self.hypotheses:  # update facts may divide, as hypotheses may
            _check_relation(relation, names)
            required(relation)  # refuses a division inside a divisor


Rule = Direct | CaseSplit | Induction


@dataclass(frozen=True)
class Use:
    """An earlier step whose statement a step imports: as proved, or with its names replaced
    at once by terms (`with_`; the kernel's `instantiate`, docs/proof-files.md)."""

    step: str
    with_: tuple[tuple[str, Term], ...] = ()
    over: str = ""  # summed term-wise: "j in M" or "j in lo..hi", several `;`-separated, in
    # order (the first sum innermost: kernel `summed`, applied to the summed statement)
    texts: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """`with_`'s terms as written (name -> text), what a copy substitutes into: SymPy's
    printing of a sum or of a family's member does not read back (red team 6: a copy of a
    step used `with = { c = "sum(j in 1..n, y[j])" }` raised a traceback). Empty for a use
    built in Python: its terms are printed then (`proofs.instances.written`)."""

    def __str__(self) -> str:
        if self.over:
            return f"{self.step} summed over {self.over}"
        if not self.with_:
            return self.step
        if self.texts:
            return f"{self.step} with " + ", ".join(f"{n} := {t}" for n, t in self.texts)
        shown = (sum((c * sympy.Symbol(v) for v, c in t.items()), sympy.S(0))
                 if isinstance(t, Vec) else t for _, t in self.with_)
        return f"{self.step} with " + ", ".join(
            f"{n} := {t}" for (n, _), t in zip(self.with_, shown, strict=True))


@dataclass(frozen=True)
class Step:
    """`hypotheses |- claim`, established by `rule`, possibly using earlier steps' claims;
    with a `witness`, the claim is that values of the witnessed names exist (these)."""

    id: str
    hypotheses: tuple[Relation, ...]
    claim: Relation
    uses: tuple[Use, ...] = ()
    hints: tuple[Hint, ...] = ()
    source: str = ""
    note: str = ""
    rule: Rule = field(default_factory=Direct)
    witness: Mapping[str, Term] = field(default_factory=dict)
    hint_texts: tuple[str, ...] = field(default=(), compare=False)
    """`hints` as written, one text each (or empty for a step built in Python): what a copy
    substitutes into (`Use.texts` says why)."""
    named: tuple[tuple[str, str], ...] = ()
    """Sums of vectors of the step named as fresh vectors, (name, the sum as written): never
    written in a file; set by the checker when it decides the step again with them (the
    kernel's `VectorSum`: their inner products read by bilinearity)."""
    naturals: tuple[str, ...] | None = None
    """The naturals of the file a copy comes from (`SOURCE/STEP`), None for the proof's own
    steps (`Proof.naturals_of`). Names are shared with the importing file, but a copy states
    what its own file states: checked with this file's naturals, `|- t >= 0` refuted in its
    file read `proved` here (kernadv31 O1)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "uses", tuple(  # plain ids read as uses as proved
            Use(u) if isinstance(u, str) else u for u in self.uses))
        if (problem := step_id_problem(self.id)) is not None:
            raise ProofFileError(problem)
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
    """Declares that the proof's names denote quantities of a run (`verify.runs`).

    Only then are its steps checked on runs: a name means a run quantity by declaration,
    never by coincidence of spelling. `names` maps a name of the proof to the text of an
    expression over the run's quantities (`th = "w"`, `margin = "y*dot(w, x)"`), read by the
    audit against the quantities of the run kind `run` (a registry this layer does not
    know); names not mapped are taken as they are. `algorithm` names the source algorithm
    (`perceptron.algorithms.sources`) whose rule, sign(0), initialisation and bias the runs
    use, so a source's claims are tested on its own iterates (None: the default). `data`
    are data files to run on besides the campaign's (paths as resolved against the proof
    file's folder).
    """

    run: str
    names: Mapping[str, str] = field(default_factory=dict)
    algorithm: str | None = None
    data: tuple[str, ...] = ()


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
    naturals: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # declarations of the earlier language inferred (proofs.earlier)
    theorem: str = ""  # the step that is the proof's main result ("": `main_result` infers it)
    notation: Mapping[str, str] = field(default_factory=dict)  # name -> how it reads (names)
    indexed: tuple[str, ...] = ()  # the families among the names (`y[j]`)
    sets: Mapping[str, IndexSet] = field(default_factory=dict)  # declared sets of indices

    origin: Source | None = field(default=None, compare=False, repr=False)  # the file's text
    # name -> its [define] text, the file's own and its imports' (which may not disagree)
    definitions: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        raise_all(list(problems(self.vectors, self.scalars, self.steps, naturals=self.naturals,
                                numeric=self.numeric, theorem=self.theorem,
                                notation=self.notation, indexed=self.indexed,
                                sets=self.sets)))

    @property
    def names(self) -> Names:
        """The declared names, as the expression parser takes them."""
        return Names(vectors=frozenset(self.vectors), scalars=frozenset(self.scalars),
                     indexed=frozenset(self.indexed), sets=dict(self.sets))

    @property
    def main_result(self) -> str:
        """The id of the step a reader should see first: `theorem` when the file names it,
        else the last step no other step uses (the end of the longest chain of reasoning
        is where a proof file puts its conclusion), passing over `X-corrected` where a step
        `X` exists: a correction stands beside its theorem, never for it (red team 23 F6:
        a summary headed "Theorem ✅ proved (step main-corrected)" over a refuted `main`)."""
        if self.theorem:
            return self.theorem
        used = {u.step for s in self.steps for u in s.uses}
        ids = {s.id for s in self.steps}
        last = [s.id for s in reversed(self.steps) if s.id not in used]
        return next((i for i in last if i.removesuffix("-corrected") not in ids - {i}),
                    last[0])

    def naturals_of(self, step: Step) -> tuple[str, ...]:
        """The naturals `step` is checked with: its own file's (`Step.naturals`, a copy's;
        those declared here: a name no copy reads is not adopted, nor read), else this
        proof's."""
        if step.naturals is None:
            return self.naturals
        return tuple(n for n in step.naturals if n in self.scalars)

    def step(self, step_id: str) -> Step:
        """The step with id `step_id`."""
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)

def problems(vectors: Sequence[str], scalars: Sequence[str], steps: Sequence[Step], *,
             naturals: Sequence[str] = (), numeric: RunBinding | None = None, theorem: str = "",
             notation: Mapping[str, str] | None = None, broken: frozenset[str] = frozenset(),
             indexed: Sequence[str] = (), sets: Mapping[str, IndexSet] | None = None
             ) -> Iterator[ProofFileError]:
    """Every independent error of a proof's structure (names, unique ids, `uses` of earlier
    steps only, every symbol declared, every rule well formed), in file order. `broken` are
    the ids of steps left out because they have errors of their own: naming one is no new
    error (it was reported once, where it is)."""
    try:
        names = declare(vectors, scalars, indexed, sets)
    except ProofFileError as error:
        yield error
        return
    for name in naturals:
        if name not in names.scalars or name in names.indexed:
            yield ProofFileError(f"naturals lists {name!r}, which is not a declared scalar "
                                 "(nor a family)", key="naturals", text=name)
    for name in numeric.names if numeric is not None else ():
        if name not in names.vectors and name not in names.scalars:
            yield ProofFileError(f"numeric.names binds undeclared name {name!r}",
                                 key=f"numeric.names.{name}")
        elif name in names.indexed and not IDENTIFIER.fullmatch(numeric.names[name].strip()):
            # red team 10: a family bound to an expression was accepted and changed nothing
            yield ProofFileError(
                f"numeric.names binds {name!r}, a family (listed in indexed), to "
                f"{numeric.names[name]!r}: a family is bound to a family of the run by its "
                "name (`x = \"X\"`: docs/run-quantities.md), not to an expression",
                key=f"numeric.names.{name}")
    if not steps and not broken:
        yield ProofFileError("a proof needs at least one step")
    if theorem and theorem not in broken and all(s.id != theorem for s in steps):
        # newcomer 31, F2: a misspelt theorem gets the fix a misspelt `uses` gets
        close = difflib.get_close_matches(theorem, sorted({*(s.id for s in steps), *broken}),
                                        n=1)
        yield ProofFileError(f"theorem names {theorem!r}, which is not a step", key="theorem",
                             text=theorem, fix=f"did you mean {close[0]!r}?" if close else None)
    read_as: dict[str, str] = {}  # an identifier a notation gives -> the first name it reads
    for name, reads in (notation or {}).items():
        if name not in names.vectors | names.scalars:
            yield ProofFileError(f"notation gives undeclared name {name!r}",
                                 key=f"notation.{name}")
        elif not isinstance(reads, str) or not IDENTIFIER.fullmatch(reads) or len(reads) > \
                MAX_NAME_LENGTH:
            yield ProofFileError(f"notation of {name!r} must be an identifier "
                                 f"(e.g. \"theta_star\"), not {reads!r}",
                                 key=f"notation.{name}")
        elif reads != name and reads in names.vectors | names.scalars:
            yield ProofFileError(f"notation reads {name!r} as {reads!r}, another declared "
                                 "name: the two would print alike", key=f"notation.{name}",
                                 fix=f"read {name!r} as an identifier no name has")
        elif (other := read_as.setdefault(reads, name)) != name:
            yield ProofFileError(f"notation reads {name!r} as {reads!r}, as it reads "
                                 f"{other!r}: the two would print alike",
                                 key=f"notation.{name}")
    if len(steps) > MAX_STEPS:
        yield ProofFileError(f"{len(steps)} steps, more than {MAX_STEPS}")
        return
    seen: set[str] = set(broken)
    for step in steps:
        found = list(_step_problems(step, names, seen, steps))
        yield from (e.at(step=step.id) for e in found)
        seen.add(step.id)


def _step_problems(step: Step, names: Names, seen: set[str], steps: Sequence[Step]
                   ) -> Iterator[ProofFileError]:
    """The errors of one step: its id, its uses (of earlier steps only), its names."""
    if step.id in seen:
        yield ProofFileError("id is used by an earlier step", key="id")
    for use in step.uses:
        if (used := use.step) not in seen:
            later = any(s.id == used for s in steps)
            where = "a later step (or itself)" if later else "not a step"
            close = difflib.get_close_matches(used, sorted(seen), n=1)
            yield ProofFileError(f"uses {used!r}, which is {where}", key="uses", text=used,
                                 fix=f"did you mean {close[0]!r}?" if close and not later
                                 else None)
    try:
        _validate(step, names)
    except ExpressionError as exc:
        yield ProofFileError(str(exc), segment=exc.segment, fix=exc.fix)
    except ProofFileError as exc:
        yield exc


def _validate(step: Step, names: Names) -> None:
    """Cheap checks only: clearing divisions (field arithmetic) waits for `goals`."""
    for relation in (*step.hypotheses, step.claim):
        _check_relation(relation, names)
        required(relation)  # refuses divisions it cannot admit
    for hint in step.hints:
        _check_hint(hint, names)
    step.rule.validate(names)
    check_terms(step.witness, names, "witness")
    for use in step.uses:
        check_terms(dict(use.with_), names, f"uses {use.step} with")


def _check_symbols(expr: sympy.Expr, names: Names, what: str) -> None:
    """Every name of `expr` is declared (inside a sum or an index too: `names_in`)."""
    for symbol in expr.free_symbols:
        if not symbol_names(symbol) <= names.vectors | names.scalars:
            raise ProofFileError(f"{what} uses undeclared {symbol}")


def _check_relation(relation: Relation, names: Names) -> None:
    for side in (relation.lhs, relation.rhs):
        _check_symbols(side, names, repr(relation.text))


def _check_hint(hint: Hint, names: Names) -> None:
    if isinstance(hint, Vec) and not names_in(sympy.Add(*map(sympy.Symbol, hint))) <= (
            names.vectors | names.scalars):
        raise ProofFileError(f"hint {hint!r} names undeclared vectors")
    for part in parts(hint):
        _check_symbols(part, names, f"hint {hint}")
        if denominators(part):
            raise ProofFileError(f"hint {hint} must be a polynomial (no division)")

