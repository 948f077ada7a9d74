"""Checking a whole proof: each step read by the kernel, its obligations searched, combined.

The proof language (`proofs`) holds what the user wrote; `sequent` hands each step to the
kernel as a `kernel.Sequent`, the kernel states what it means and derives its obligations,
the untrusted prover searches each one, and only the kernel turns the evidence into a
`Theorem` (proved) or a `Refutation` (refuted). A step is unknown otherwise, and the message
says what was missing. Nothing here can make a step proved or refuted by itself.

The certificate store (`verify.store`) sits in front of the search: a judgement whose
decision is stored is handed to the kernel with the stored evidence instead of searched
(`_decide`, `_vacuity`), and is searched as before when it has no entry or the kernel
rejects the entry. Each step's report counts both (`recalled`, `searched`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import lru_cache
from time import perf_counter
from typing import Literal

import sympy

from proofs.errors import ProofFileError, ProofFileErrors, raise_all
from proofs.language.expressions import (
    ExpressionError,
    Relation,
    parse_relation,
    parse_scalar,
    vector_sums,
)
from proofs.language.indexed import names_in
from proofs.language.terms import Vec
from proofs.step import CaseSplit, Direct, Hint, Induction, Proof, Step, Term, Use
from verify import kernel
from verify.kernel import Certificate, Counterexample, Judgement, Obligation, atoms
from verify.kernel.algebra import names_of, normal_form
from verify.search.work import BUDGETS, DEFAULT_BUDGET, SearchBudget, TimeCap
from verify.store.library import Form, Store, key_of, shipped
from verify.store.recall import keep, recall, refuted_on_sets
from verify.typeset.indices import readable
from verify.verdict import Status, Stop, Verdict

Progress = Callable[[int, int, Step], None]
"""Called as `progress(index, total, step)` before each step is checked."""
VACUITY_SHARE = 0.2  # of a step's search budget, for looking for contradictory hypotheses
VACUOUS_HYPOTHESES = "the hypotheses are contradictory"
#: An induction's vacuity judgement is its update step's (`contradiction`), whose hypotheses
#: are the step's with its invariant, the invariants it carries and the update facts: they
#: may contradict where the step's own do not (updating on y<w, x> < 0 while the invariant
#: says w = 0). What such a step then claims is at most its invariant at the start state:
#: nothing at all when the step's own hypotheses already contradict (review 11: `given =
#: ["a >= 1", "a <= 0"]` read as claiming the base), which this certificate does not tell
#: apart. Each invariant is named as whose it is (`vacuous_update`; memb33: a carried
#: invariant was "the invariant", read as the step's own).
VACUOUS_UPDATE_CLAIMS = ("so the step claims at most its invariant at the start state "
                         "(nothing, if its own hypotheses contradict)")


def vacuous_update(carried: Sequence[str], together: str = "",
                   read: Sequence[str] = ()) -> str:
    """Why an induction whose update step's hypotheses contradict is vacuous, naming its
    own invariant and those it carries (`carried`: the ids of the inductions whose
    invariants they are): `together`, the hypotheses the certificate reads, as written and
    with where each comes from (`contradicting`), and `read`, the invariants among them
    (`its invariant`, `the invariant of a`); without `together`, said of them all."""
    kinds = ["the step's", "its invariant", *([
        f"the invariant{'s' * (len(carried) > 1)} of {', '.join(carried)} it carries"]
        if carried else [])]
    head = (f"the update step's hypotheses ({', '.join(kinds)} and the update facts) are "
            "contradictory")
    if not together:
        read = ["its invariant", *(f"the invariant of {c}" for c in carried)]
    where = ("no update leaves a state where " + " and ".join(read)
             + (" hold" if len(read) > 1 else " holds") if read
             else "no update leaves any state")
    return f"{head}: {together}; {where}, {VACUOUS_UPDATE_CLAIMS}" if together else \
        f"{head}: {where}, {VACUOUS_UPDATE_CLAIMS}"
REFUTATION_SHARE = 0.5  # of its budget, for a goal left unknown: the negated claim against it
Stored = Store | Literal["shipped"] | None
"""Which certificate store a check consults: "shipped" the package's (`verify.store`), a
`Store` (the tests', or a recording one), None none: every judgement is searched."""


class NeedsSearch(Exception):
    """Raised where a search would start while `recall_only` is in effect: the step is not
    decided from the store alone (its whole proof is then checked where searches run)."""


_RECALL_ONLY: ContextVar[bool] = ContextVar("novikoff_recall_only", default=False)


@contextlib.contextmanager
def recall_only() -> Iterator[None]:
    """Within it, a check that would search (`decide`, a counterexample on concrete sets, a
    point for vacuity) raises `NeedsSearch` instead. The audit's own process checks the
    proofs from the store this way while its pool runs the campaign: a check that ends
    inside it is exactly `check_step`'s (nothing else changes), and one that needs a search
    goes to a worker of the pool, as a search always did."""
    token = _RECALL_ONLY.set(True)
    try:
        yield
    finally:
        _RECALL_ONLY.reset(token)


def _searching(what: str) -> None:
    """Before a search: refuse it within `recall_only`."""
    if _RECALL_ONLY.get():
        raise NeedsSearch(what)


def decide(judgement: Judgement, **options: object) -> Verdict:
    """`verify.prover.decide`, imported when a search first runs: the search brings SciPy
    and the SDP solver, which a check answered from the store never needs."""
    _searching("a judgement")
    from verify.prover import decide as search

    return search(judgement, **options)  # type: ignore[arg-type]


@dataclass(frozen=True)
class GoalReport:
    """One obligation of a step and the search's verdict on it (kernel-checked)."""

    goal: Obligation
    verdict: Verdict
    start: bool = False  # its point, moved to the start of the runs, refutes the step

    @property
    def judgement(self) -> Judgement:
        """The polynomial judgement the kernel derived."""
        return self.goal.judgement

    @property
    def status(self) -> Status:
        """The judgement's status as every output prints it: `refuted` only when its point
        refutes the step (a decisive obligation, `kernel.Obligation.decisive`); a point of a
        goal that is not decisive refutes nothing (`refutes_nothing`), so that goal is
        `unknown`, as its step is (newcomer 19 read `refuted` beside a step `unknown`),
        unless that point is the start of the runs, which refutes the step (`start`)."""
        status = self.verdict.status
        return "unknown" if status == "refuted" and not (self.goal.decisive or self.start) \
            else status

    @property
    def evidence(self) -> Judgement:
        """The judgement the verdict's certificate proves, whose hypotheses its labels
        index: the obligation's, fewer of them (weakening), or in refutation form the
        negated claim among them and `0 > 0` as the claim (`kernel.conclude`)."""
        return self.verdict.judgement or self.goal.judgement

    @property
    def pieces(self) -> tuple[tuple[Judgement, Certificate], ...]:
        """Each certificate with the judgement it proves: one, or for an equality proved by
        antisymmetry (`Verdict.halves`) its two inequalities `g >= 0` and `-g >= 0`, each
        directly or in refutation form; none unless proved. What every renderer prints."""
        return tuple((judged or self.evidence, certificate)
                     for judged, certificate in self.verdict.pieces)

    @property
    def kernel_evidence(self) -> tuple[Judgement | Certificate, ...]:
        """The evidence entry `kernel.conclude` reads for this obligation: (judgement,
        certificate), or both halves' pairs in a row for an equality by antisymmetry."""
        return tuple(item for piece in self.pieces for item in piece)


@dataclass(frozen=True)
class StepReport:
    """The outcome of one step: a kernel Theorem, a kernel Refutation, or neither."""

    step: Step
    message: str
    seconds: float
    goals: tuple[GoalReport, ...]
    statement: kernel.Statement | None
    theorem: kernel.Theorem | None = None
    refutation: kernel.Refutation | None = None
    vacuity: Certificate | None = None  # the evidence that the hypotheses are contradictory
    stuck: Certificate | None = None  # the evidence that no run of an induction can update
    recalled: int = 0  # judgements decided from the certificate store (kernel-checked)
    searched: tuple[str, ...] = ()  # with a store: one note per judgement searched, and why
    stated: kernel.Stated | None = None  # the kernel's reading of `statement` (this process)
    satisfied: Counterexample | None = None  # where its vacuity judgement's hypotheses hold

    termwise: tuple[StepReport, ...] = ()  # the lemmas found and proved, used summed (`step`)
    run: tuple[Counterexample, ...] = ()  # an induction refuted by a run: its states
    run_from: str = ""  # ... made from the point of this judgement (its label)
    start: Counterexample | None = None  # refuted at the start of its runs (`_by_start`)
    #: an induction's carried invariants: the ids of the used inductions over its runs whose
    #: claims the kernel carries, in the kernel's order (`_carried_ids`), so that its vacuity
    #: names each by whose it is
    carried: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # a message names sums as a proof file writes them, never by the kernel's `#1`
        object.__setattr__(self, "message", readable(self.message))

    @property
    def status(self) -> Status:
        """proved only with a Theorem, refuted only with a Refutation."""
        if self.theorem is not None:
            return "proved"
        return "refuted" if self.refutation is not None else "unknown"

    @property
    def vacuous(self) -> bool:
        """Proved, and it says nothing beyond its start: its hypotheses are contradictory
        (`vacuity`), or, an induction, no run leaves its start state (`stuck`); both
        certificates passed the kernel."""
        return self.theorem is not None and (self.vacuity or self.stuck) is not None

    @property
    def vacuity_reason(self) -> str | None:
        """Why the step is vacuous, in the words every output prints; None when it is not."""
        if not self.vacuous:
            return None
        if self.vacuity is not None:
            named = [f"{text} ({where})" for text, where in self.contradictory]
            together = (" and ".join(filter(None, [", ".join(named[:-1]), *named[-1:]]))
                        + (" cannot hold together" if len(named) > 1 else " cannot hold"))
            if type(self.step.rule) is Induction:
                read = [where.removesuffix(" it carries") for _, where in self.contradictory
                        if where == "its invariant" or where.startswith("the invariant of ")]
                return vacuous_update(self.carried, together if named else "",
                                      list(dict.fromkeys(read)))
            return f"{VACUOUS_HYPOTHESES}: {together}" if named else VACUOUS_HYPOTHESES
        return ("no run leaves its start state: the update facts fail there, so the "
                "invariant is claimed after 0 updates only")

    @property
    def contradictory(self) -> tuple[tuple[str, str], ...]:
        """The hypotheses the vacuity certificate uses, each as written with where it comes
        from (`contradicting`): a set of them that cannot hold together (the kernel checked
        the certificate, which reads no other); none unless `vacuity` is set."""
        if self.vacuity is None or not self.goals:
            return ()
        return contradicting([g.goal for g in self.goals], self.vacuity, self.statement,
                             self.carried)

    @property
    def statement_text(self) -> str:
        """The full statement the kernel read (the step's own text if it could not)."""
        if self.statement is not None:
            return readable(str(self.statement))
        own = ", ".join(h.text for h in self.step.hypotheses)
        return f"{own} |- {self.step.claim.text}"

    def _repr_html_(self) -> str:
        """Jupyter: the step as a one-row table."""
        from verify.render.notebook import steps

        return steps(self.step.id, [self])

    @property
    def certificates(self) -> tuple[Certificate, ...]:
        """The certificates of the proved judgements, in order."""
        return tuple(certificate for g in self.goals for _, certificate in g.pieces)

    @property
    def counterexample(self) -> Counterexample | None:
        """The counterexample that refutes the step, if it is refuted."""
        return self.refutation.counterexample if self.refutation is not None else None


@dataclass(frozen=True)
class ProofReport:
    """Every step's outcome; the proof is proved only when all its steps are."""

    title: str
    steps: tuple[StepReport, ...]

    @property
    def status(self) -> Status:
        """proved if every step is, refuted if any is, else unknown."""
        statuses = {s.status for s in self.steps}
        if statuses <= {"proved"}:
            return "proved"
        return "refuted" if "refuted" in statuses else "unknown"

    @property
    def seconds(self) -> float:
        """Total time spent deciding."""
        return sum(s.seconds for s in self.steps)

    def _repr_html_(self) -> str:
        """Jupyter: every step's verdict and full statement."""
        from verify.render.notebook import steps

        return steps(f"{self.title}: {self.status}", self.steps)


_canonical = lru_cache(maxsize=1 << 14)(atoms.canonical)
"""`atoms.canonical`, once per expression and process (SymPy expressions are immutable): a
proof's statements are read several times in one audit (planning the campaign, checking each
step, replaying a worker's reports), each step repeats the hypotheses of the steps it uses,
and reading the atoms of sums was most of that time."""


def relation(r: Relation) -> kernel.Rel:
    """`r` for the kernel, with every quantity its text divides by (`Relation.divisors`);
    its sums and family members in the kernel's canonical form (`atoms.canonical`)."""
    return kernel.Rel(_canonical(r.lhs), r.op, _canonical(r.rhs), r.text,
                      tuple(map(_canonical, r.divisors)))


def fact_of(r: Relation) -> kernel.Fact:
    """The kernel's polynomial fact for a relation free of division (`gap (kind) 0`)."""
    fact, conditions = normal_form(kernel.Rel(r.lhs, r.op, r.rhs, r.text), r.text)
    if conditions:
        raise ExpressionError(f"{r.text!r} divides; its conditions {conditions} need the "
                              "division rule of a proof step")
    return fact


def terms(mapping: dict[str, Term] | Sequence[tuple[str, Term]]) -> dict[str, object]:
    """A substitution as the kernel reads it: scalar expressions, vectors as plain dicts (a
    family member by its canonical name), all in canonical form."""
    pairs = mapping.items() if isinstance(mapping, dict) else mapping
    return {name: _vector(t) if isinstance(t, Vec) else _canonical(t) for name, t in pairs}


def _vector(v: Vec) -> dict[str, sympy.Expr]:
    return {_canonical(sympy.Symbol(n)).name: _canonical(c) for n, c in v.items()}


def hints(step: Step) -> tuple[Hint, ...]:
    """The step's hints in the kernel's canonical form (so they meet its sums)."""
    return tuple(Vec(_vector(h)) if isinstance(h, Vec) else _canonical(h)
                 for h in step.hints)


def sequent(proof: Proof, step: Step, uses: Sequence[Used]) -> kernel.Sequent:
    """The kernel's reading of `step`, given the statements of the steps it uses (as used:
    instantiated where the step says `with`, see `used_statement`)."""
    rule: kernel.Direct | kernel.Cases | kernel.Induction = kernel.Direct()
    if isinstance(step.rule, CaseSplit):
        rule = kernel.Cases(_canonical(step.rule.on), step.rule.zero_case, step.rule.text)
    elif isinstance(step.rule, Induction):
        split = step.rule.split
        rule = kernel.Induction(
            step.rule.variable, terms(dict(step.rule.base)), terms(dict(step.rule.step)),  # type: ignore[arg-type]
            _update_as_used(tuple(relation(h) for h in step.rule.hypotheses),
                            step.rule.variable, uses, _first_reading(proof, step)),
            frozenset(step.rule.constants),
            None if split is None else kernel.Cases(_canonical(split.on),
                                                    split.zero_case, split.text),
        )
    seq = kernel.Sequent(
        step.id, frozenset(proof.vectors), frozenset(proof.scalars),
        tuple(relation(h) for h in step.hypotheses), relation(step.claim),
        rule, tuple(uses), frozenset(proof.naturals_of(step)), terms(dict(step.witness)),  # type: ignore[arg-type]
        named=tuple(vector_sum(proof, name, text) for name, text in step.named),
    )
    from verify.search.sums import congruences  # untrusted: only proposes
    from verify.search.sums.rules import has_sums, propose

    claims = [(u if isinstance(u, kernel.Statement) else u.statement).claim for u in uses]
    exprs = [e for r in (*seq.hypotheses, seq.claim, *claims) for e in (r.lhs, r.rhs)]
    if not has_sums(exprs) and not congruences.has_members(exprs):
        return seq
    try:
        found = propose(seq) if has_sums(exprs) else ()
    except kernel.KernelError:  # the kernel will say why, reading the step itself
        return seq
    with contextlib.suppress(kernel.KernelError):  # on its own: the sum rules stay proposed
        found += congruences.propose(replace(seq, sums=found))
    return replace(seq, sums=found) if found else seq


def _update_as_used(update: tuple[kernel.Rel, ...], variable: str, uses: Sequence[Used],
                    first: tuple[kernel.Rel, ...] | None = None) -> tuple[kernel.Rel, ...]:
    """An induction's update facts for the kernel: `update`, or, when an induction over the
    same runs earlier in the proof (`first`, `_first_reading`) or one it uses (over the same
    counter) has the same facts in another order or spelling, that one's as the kernel read
    them (`Statement.over`). The kernel carries an invariant between inductions over the
    same runs, comparing their update facts as given and in order, so `"d>=1"` beside `"d >=
    1"` made another induction, its claim a hypothesis refused as one mentioning the
    iteration (red team 29 F7). Compared here as sets of exact polynomial facts
    (`normal_form`), they are the same runs, and the kernel is handed one reading; a fact
    that divides is compared as written (its normal form holds only under conditions, which
    two spellings may read differently). The first such induction in the proof gives them,
    so that every induction over those runs is handed the same reading: taken from the first
    one USED, a step using `a` (`d>=1`) and `b` (`d >= 1`) carried a's runs only, and was
    refused as bad input, b said to be over other runs (red team 31 B4)."""
    mine = _exact_facts(update)
    if mine is None:
        return update
    if first is not None and first != update and _exact_facts(first) == mine:
        return first
    for used in uses:
        over = (used if isinstance(used, kernel.Statement) else used.statement).over
        if (over is not None and over[0] == variable and over[3] != update
                and _exact_facts(over[3]) == mine):  # type: ignore[arg-type]
            return tuple(over[3])  # type: ignore[arg-type]
    return update


def _first_reading(proof: Proof, step: Step) -> tuple[kernel.Rel, ...] | None:
    """The update facts, as written, of the first induction of `proof` (in file order, `step`
    or one before it) over the same counter, start, update and constants as the induction
    `step` whose facts are the same exact relations (`_exact_facts`), or None: each
    induction of such a family is handed its reading (`_update_as_used`)."""
    rule = step.rule
    assert isinstance(rule, Induction)
    runs = (rule.variable, dict(rule.base), dict(rule.step), frozenset(rule.constants))
    mine: frozenset[object] | None = None
    for other in proof.steps:
        if other.id == step.id:
            return None
        theirs = other.rule
        if not isinstance(theirs, Induction) or (
                theirs.variable, dict(theirs.base), dict(theirs.step),
                frozenset(theirs.constants)) != runs:
            continue
        if mine is None:
            mine = _exact_facts(tuple(relation(h) for h in rule.hypotheses))
            if mine is None:
                return None
        written = tuple(relation(h) for h in theirs.hypotheses)
        if _exact_facts(written) == mine:
            return written
    return None


def _exact_facts(update: Sequence[kernel.Rel]) -> frozenset[object] | None:
    """Update facts as a set of exact relations: each one's polynomial fact (`gap (kind) 0`),
    the relation as written where it divides; None where the kernel reads one as no fact."""
    out: set[object] = set()
    for r in update:
        try:
            fact, conditions = normal_form(r, r.text)
        except kernel.KernelError:
            return None
        out.add(r if conditions else (fact.expr, fact.kind))
    return frozenset(out)


def vector_sum(proof: Proof, name: str, text: str) -> kernel.VectorSum:
    """The sum of vectors `text` as the kernel names it `name` (`Step.named`); KernelError
    when `text` is none (a detached report's names are a worker's word: rtnamed F2). The
    one reading: the Coq export defines the same sum through it (`verify.coq.sums.named`)."""
    try:
        found = vector_sums(text, proof.names)
    except ExpressionError as error:
        raise kernel.KernelError(f"named sum {name}: {error}") from None
    if len(found) != 1 or found[0].text != " ".join(text.split()):
        raise kernel.KernelError(f"named sum {name}: {text!r} is not one sum of vectors")
    found = found[0]
    return kernel.VectorSum(name, found.index, _canonical(found.lo), _canonical(found.hi),
                            tuple((_canonical(p), kind) for p, kind in found.filters),
                            tuple(_vector(found.body).items()))


Used = kernel.Statement | kernel.Stated | kernel.Theorem
"""A used step as a sequent takes it: its Theorem or the kernel's reading of its statement
(`kernel.Stated`), which the kernel does not validate again (a step used by every later one
would be read at each: quadratic time), or the statement itself (read again each time)."""


def used_statement(use: Use, stated: Used, proof: Proof | None = None) -> Used:
    """The statement `use` imports: the used step's, instantiated when it says `with`, summed
    over a set when it says `sum` (the kernel's `summed`, or `summed_theorem` for a Theorem)."""
    if use.over and proof is not None:
        if isinstance(stated, kernel.Theorem):
            return used_theorem(use, stated, proof)  # type: ignore[return-value]
        statement = stated if isinstance(stated, kernel.Statement) else stated.statement
        for summation in over(use, proof):
            statement = kernel.summed(statement, *summation)
        return statement
    if not use.with_:
        return stated
    return kernel.instance(stated if isinstance(stated, kernel.Statement) else stated.statement,
                           terms(use.with_))


def used_value(report: StepReport) -> Used | None:
    """What a later step's sequent takes for `report`'s step (see `Used`): its Theorem if
    proved, else its `kernel.Stated`, else (a report from another process) its statement."""
    return report.theorem or report.stated or report.statement


def used_theorem(use: Use, theorem: kernel.Theorem | None, proof: Proof | None = None
                 ) -> kernel.Theorem | None:
    """The Theorem of `used_statement`, made by the kernel from the used step's."""
    if use.over and proof is not None and theorem is not None:
        for summation in over(use, proof):
            theorem = kernel.summed_theorem(theorem, *summation)
        return theorem
    return kernel.instantiate(theorem, terms(use.with_)) if use.with_ and theorem else theorem


Summation = tuple[str, sympy.Expr, sympy.Expr, tuple[kernel.Rel, ...]]


def over(use: Use, proof: Proof) -> list[Summation]:
    """`sum = "j in M"` or `"j in lo..hi"` (several, in order) read for the kernel's
    `summed`: the index, the bounds, and the set's filters with its index read as j."""
    out = []
    for text in use.over.split(";"):
        index, _, where = text.partition(" in ")
        index, where = index.strip(), where.strip()
        names, scope = proof.names, {}
        if where in proof.sets:
            declared = proof.sets[where]
            lo, hi = declared.lo, declared.hi
            filters = declared.where
            scope = {declared.index: sympy.Symbol(index)}
            own = {declared.index: sympy.Symbol(f"#{declared.index}")}  # no file's name
            mentioned = set().union(*(  # names inside members, Gram symbols and sums too
                names_in(r.lhs - r.rhs) for r in (parse_relation(f, names, own)
                                                  for f in filters)),
                *(names_in(parse_scalar(bound, names)) for bound in (lo, hi)))
            if index != declared.index and index in mentioned:
                raise ProofFileError(  # the set's own name would be captured by the index
                    f"sum = '{text.strip()}': {where}'s range or conditions name {index}, "
                    f"which this sum binds; sum over {where} with another index",
                    key="sum", text=text.strip())
        else:
            lo, _, hi = where.partition("..")
            filters = ()
        rels = [relation(parse_relation(f, names, scope)) for f in filters]
        out.append((index, _canonical(parse_scalar(lo, names)),
                    _canonical(parse_scalar(hi, names)),  # each filter's text about j
                    tuple(replace(r, text=_renamed(r.text, scope)) for r in rels)))
    return out


def _renamed(text: str, scope: dict[str, sympy.Symbol]) -> str:
    """A set's condition as written about its own index, written about the use's (the
    kernel reads the expression; the text is what reports print). The use's index cannot be
    free in the condition (`over` refuses that), so where the text names it, it is an inner
    sum's bound index: that one is renamed first (`l` to `l_1`), or the text would read
    `sum(l in S, a[l]*a[j])` about j as `sum(l in S, a[l]*a[l])`."""
    for name, index in scope.items():
        new = index.name
        if name != new and re.search(rf"\b{re.escape(new)}\b", text):
            fresh = next(f"{new}_{k}" for k in range(1, len(text) + 2)
                         if not re.search(rf"\b{re.escape(new)}_{k}\b", text))
            text = re.sub(rf"\b{re.escape(new)}\b", fresh, text)
        text = re.sub(rf"\b{re.escape(name)}\b", new, text)
    return text


def statements(proof: Proof) -> dict[str, kernel.Statement | None]:
    """Every step's full statement, without deciding anything (None: a use was refused, or
    a used statement is undefined, as an instance that divides by zero). Every step the
    rules refuse is an error, all raised together (`ProofFileErrors`); a step that uses a
    refused one is not read (its error would be the used step's, again)."""
    return statements_of(readings(proof))


def statements_of(read: Mapping[str, StepReading | None]) -> dict[str, kernel.Statement | None]:
    """The statements of the kernel's readings of a proof's steps (`readings`), by step:
    `statements` of a proof whose readings a caller keeps for its check (`check_proof`)."""
    return {name: None if each is None else each.stated.statement
            for name, each in read.items()}


@dataclass(frozen=True)
class StepReading:
    """A step as the kernel read it (`readings`): the sequent it was given (`sequent`) and
    what it read (`kernel.Stated`). A check from the reading (`check_step`) gives the kernel
    that sequent again with the used steps' values as decided (their Theorems where proved,
    of the same statements: `check_proof` reads a step again whose used statements moved),
    rather than making it anew: the same sequent, since it reads the used steps through
    their statements only (their claims' sums, their runs), at a quarter of the audit's
    symbolic check."""

    sequent: kernel.Sequent
    stated: kernel.Stated


def with_refusals(error: ProofFileError) -> ProofFileError:
    """`error`, a file that could not be read whole, with what the kernel's rules refuse in
    the steps that were read without error and use none with one (`error.partial`, placed
    in the file), in file order: docs/proof-files.md promises every independent error of the
    file in one run, and the rules read a step only once the file is read (red team 19: of
    two steps' independent `with` errors, the second was reported only once the first was
    fixed). `check`, `explain` and the audit read a file's errors through it."""
    partial = error.partial
    if not isinstance(partial, Proof) or error.file is None:
        return error
    try:
        statements(partial)
    except ProofFileError as refused:
        placed = refused.located(error.file, partial.origin)
        return ProofFileErrors(sorted([*error.errors, *placed.errors],
                                      key=lambda e: (e.line or 0, e.column or 0)))
    return error


def readings(proof: Proof) -> dict[str, StepReading | None]:
    """`statements`, as the kernel's readings (`StepReading`), which `check_step` and
    `check_proof` take: a caller that needs both the statements and the verdicts (the
    audit: its runs check the statements) has the kernel read each step once."""
    out: dict[str, StepReading | None] = {}
    refused: list[ProofFileError] = []
    for step in proof.steps:
        try:
            used = [None if (done := out[u.step]) is None
                    else used_statement(u, done.stated, proof) for u in step.uses]
            if any(u is None for u in used):
                out[step.id] = None
                continue
            seq = sequent(proof, step, used)  # type: ignore[arg-type]
            out[step.id] = StepReading(seq, kernel.state(seq))
        except kernel.RuleError as error:
            refused.append(refusal(error, step, [done.stated.statement for u in step.uses
                                                 if (done := out.get(u.step)) is not None]))
            out[step.id] = None
        except kernel.KernelError:  # a used claim out of context, or 1/0 in an instance:
            out[step.id] = None  # unknown, and check_step says why
    raise_all(refused)
    return out


def refusal(error: kernel.RuleError, step: Step,
            used: Sequence[kernel.Statement] = ()) -> ProofFileError:
    """A step the kernel's rules refuse, as bad input: placed at the relation it names
    (rules quote relations in backquotes), else at the step. When that relation is the claim
    of an induction `step` uses, over other runs than its own, the fix says so: the user
    wrote no such hypothesis (red team 29 F7: `"d>=1"` beside `"d >= 1"` made another
    induction, its claim a hypothesis; update facts are now compared as exact relations,
    `_update_as_used`). When it is a hypothesis that a one-update lemma got from a step the
    lemma uses (its claim or one of its hypotheses), the fix says that too, and how to write
    the lemma instead (newcomer 32 N5: a lemma proved from three lemmas was refused one
    inherited hypothesis at a time, the last the claim of an identity it used)."""
    quoted = re.search(r"`([^`]+)`", str(error))
    other = next((u.step for u in used if u.run and quoted and u.claim.text == quoted[1]), None)
    brought = next(((u.step, origin) for u in used if quoted and not u.run
                    for h, origin in zip(u.hypotheses, u.origins, strict=True)
                    if origin and h.text == quoted[1]), None)
    fix = (f"`{quoted[1]}` is the claim of {other}, an induction over other runs than this "
           "one: its variable, base, step, given or constants differ (update facts "
           "compared as exact relations, in any order or spelling, one that divides as "
           "written); write them alike to use its invariant at every state"
           ) if other is not None and quoted else (
        f"that hypothesis comes into {brought[0]} from {brought[1]}, which it uses (a used "
        "step's claim and hypotheses are hypotheses of the step that uses it), and a lemma "
        "used at each update may assume only the update's facts, the invariant and the "
        f"step's hypotheses: prove {brought[0]} from its own hypotheses without that use "
        "(with hints or a split), or add the fact to the induction's given"
    ) if brought is not None and quoted else None
    return ProofFileError(str(error), step=step.id, text=quoted[1] if quoted else None,
                          fix=fix)


def check_proof(
    proof: Proof,
    *,
    budget: SearchBudget = DEFAULT_BUDGET,
    guard: float | None = None,
    progress: Progress | None = None,
    store: Stored = "shipped",
    read: Mapping[str, StepReading | None] | None = None,
) -> ProofReport:
    """Decide every step of `proof` in order; a step refused by the rules raises
    ProofFileError (bad input) before anything is decided.

    The search of each obligation is bounded by `budget` (work, never time), so verdicts are
    the same on any machine under any load; `guard` is a wall-clock cap in seconds per step
    against hostile input only (None: none), and a verdict it cuts short says `time cap`.
    `store`: the certificate store consulted before searching (see `Stored`). `read`: the
    kernel's readings of the steps (`readings`) if the caller has them, the same report (a
    step it lacks is read as it is decided, by `check_step`)."""
    read = readings(proof) if read is None else read
    done: dict[str, StepReport] = {}
    moved: set[str] = set()  # steps whose statement is not the one read first: decided with
    for index, step in enumerate(proof.steps):  # term-wise facts found, or using such a step
        if progress is not None:
            progress(index, len(proof.steps), step)
        fresh = any(u.step in moved for u in step.uses)
        done[step.id] = check_step(proof, step, budget=budget, guard=guard, earlier=done,
                                   store=store, read=None if fresh else read.get(step.id))
        if fresh or done[step.id].termwise:
            moved.add(step.id)
    return ProofReport(proof.title, tuple(done.values()))


def check_step(
    proof: Proof,
    step: Step,
    *,
    budget: SearchBudget = DEFAULT_BUDGET,
    guard: float | None = None,
    earlier: dict[str, StepReport] | None = None,
    store: Stored = "shipped",
    read: StepReading | None = None,
) -> StepReport:
    """Decide one step; `earlier` holds the reports of the steps it uses; `store` the
    certificate store consulted before searching (`Stored`), whose use the report counts;
    `read` the kernel's reading of the step if the caller has it (`check_proof` reads every
    step first, to refuse a bad file before deciding anything; the used steps' statements
    must be those it was read with), else it is read here."""
    used_store = shipped() if store == "shipped" else store
    recalled, searched = (0, 0) if used_store is None else (used_store.recalled,
                                                            len(used_store.searched))
    report = _check_step(proof, step, budget, guard, earlier, used_store, read)
    if report.status == "unknown" and report.goals:  # lemmas are checked by `_check_step`
        report = _with_termwise(proof, step, report, budget, guard, earlier, used_store)
    if report.status == "unknown" and report.goals and not step.named:
        report = _with_named_sums(proof, step, report, budget, guard, earlier, used_store)
    if report.status == "unknown" and report.goals and isinstance(step.rule, Direct):
        report = _with_signs(proof, step, report, budget, guard, earlier, used_store)
    if report.status == "unknown" and report.goals and isinstance(step.rule, Direct):
        report = _with_split(proof, step, report, budget, guard, earlier, used_store)
    if used_store is None:
        return report
    return replace(report, recalled=used_store.recalled - recalled,
                   searched=tuple(used_store.searched[searched:]))


#: The share of the step's budget each term-wise lemma is searched with (`_with_termwise`).
LEMMA_SHARE = 0.25


def _with_termwise(proof: Proof, step: Step, report: StepReport, budget: SearchBudget,
                   guard: float | None, earlier: dict[str, StepReport] | None,
                   store: Store | None) -> StepReport:
    """`report` (unknown, with sums) decided again with the term-wise facts found: the
    lemmas `verify.search.sums.termwise` writes about one member of each sum, each proved
    as a step of its own with `LEMMA_SHARE` of the budget, the proved ones used summed, as a
    user's `uses = [{ step = ..., sum = ... }]` (the kernel checks each lemma and the
    summation: nothing new is trusted). The new report, proved, names the facts and holds
    the lemmas' reports (`StepReport.termwise`) and the step as decided (its uses extended);
    `report` itself when nothing was found, and when the step is still not proved with what
    was found, `report` saying so (its verdict is the one without them)."""
    from verify.search.sums import termwise

    goals = [g.goal for g in report.goals]
    if not termwise.mentions_sums(goals) or (index := termwise.fresh_index(proof)) is None:
        return report
    began = perf_counter() - report.seconds  # the step's clock, its first search included

    def spent() -> float:
        return perf_counter() - began

    def left() -> float | None:  # the wall-clock cap against hostile input is the step's
        return None if guard is None else max(0.0, guard - spent())  # own: lemmas included

    home, lemmas = termwise.lemmas(proof, step, goals, index, over)
    proved: list[tuple[termwise.Lemma, StepReport]] = []
    covered: set[sympy.Symbol] = set()
    small = budget.scaled(LEMMA_SHARE)
    cut = False  # whether the time cap stopped a lemma's search, or the lemmas' turn
    for lemma in lemmas:
        if set(lemma.key) <= covered:
            continue
        if left() == 0:
            cut = True
            break
        try:
            found = _check_step(home, lemma.step, small, left(), {}, store, None)
        except ProofFileError:  # a lemma the rules refuse is no fact found
            continue
        cut = cut or _capped(found)
        if found.status == "proved":
            proved.append((lemma, found))
            covered |= set(lemma.key) if lemma.covers else set()
    if not proved or left() == 0:
        return _clock(replace(report, seconds=spent()), cut or bool(proved))
    decided = replace(step, uses=(*step.uses, *(lemma.use for lemma, _ in proved)))
    given = {**(earlier or {}), **{lemma.step.id: found for lemma, found in proved}}
    try:
        again = _check_step(home, decided, budget, left(), given, store, None)
    except ProofFileError:
        return _clock(replace(report, seconds=spent()), cut)
    if again.status != "proved":  # the verdict without them, and what was found in vain
        shown = "; ".join(lemma.shown for lemma, _ in proved)
        return _clock(replace(report, message=f"{report.message}; term-wise facts found and "
                              f"proved, the step still not proved with them: {shown}",
                              seconds=spent()), cut or _capped(again))
    facts = "; ".join(f"{lemma.shown} ({lemma.step.id})" for lemma, _ in proved)
    return replace(again, message=f"{again.message}; term-wise facts found and proved: {facts}",
                   seconds=spent(), termwise=tuple(found for _, found in proved))


#: At most this many sums of vectors of one step are named (`_with_named_sums`).
MAX_NAMED = 3


def _with_named_sums(proof: Proof, step: Step, report: StepReport, budget: SearchBudget,
                     guard: float | None, earlier: dict[str, StepReport] | None,
                     store: Store | None) -> StepReport:
    """`report` (unknown) decided again with the sums of vectors its claim and hypotheses
    write named as fresh vectors (`Step.named`; at most `MAX_NAMED`): the kernel gives each
    name its inner products by bilinearity, so the search can treat the sum as one vector
    (`norm2(th - sum(j in 1..k, y[j]*x[j])) >= 0` is then a square, which no certificate in
    the sums' own atoms is). A direct or case step only (an induction's sums move with its
    run). The new report if proved, saying so; else `report`, its verdict the one without."""
    if isinstance(step.rule, Induction):
        return report
    texts = list(dict.fromkeys(found.text for r in (*step.hypotheses, step.claim)
                               for found in vector_sums(r.text, proof.names)
                               if len(found.body) <= kernel.MAX_MEMBERS))[:MAX_NAMED]
    if not texts:
        return report
    began = perf_counter() - report.seconds
    taken = set(proof.vectors) | set(proof.scalars)
    # `Sum1` prints as written (a word and digits), so as no declared name does (rtnamed
    # F4: `S1` printed S₁, as a declared `S_1` does)
    names = next([f"Sum{k}" + "_" * m for k in range(1, len(texts) + 1)]
                 for m in range(len(taken) + 1)
                 if not {f"Sum{k}" + "_" * m for k in range(1, len(texts) + 1)} & taken)
    decided = replace(step, named=tuple(zip(names, texts, strict=True)))
    left = None if guard is None else max(0.0, guard - (perf_counter() - began))
    try:
        again = _check_step(proof, decided, budget, left, earlier, store, None)
    except ProofFileError:  # a naming the rules refuse proves nothing
        return report
    if again.status != "proved":
        return replace(report, seconds=perf_counter() - began)
    shown = ", ".join(f"{n} = {t}" for n, t in decided.named)
    return replace(again, message=f"{again.message}; with its sums of vectors named as vectors "
                   f"(their inner products read by bilinearity): {shown}",
                   seconds=perf_counter() - began)


SIGNS = "sign facts"  # what `_clock` says the time cap stopped (`_with_signs`)


def _with_signs(proof: Proof, step: Step, report: StepReport, budget: SearchBudget,
                guard: float | None, earlier: dict[str, StepReport] | None,
                store: Store | None) -> StepReport:
    """`report` (unknown, a direct step) decided again with the sign facts found: the lemmas
    `verify.search.lemmas.signs` proposes (`norm2(d) > 0`, `alpha > 0`, `alpha >= 0` under
    the step's own hypotheses and uses), each proved as a step of its own with `LEMMA_SHARE`
    of the budget, at most `signs.MAX_LEMMAS` tried, the proved ones used plainly, as a
    user's `uses` (the kernel checks each lemma and the use: nothing new is trusted). The
    new report, proved, names the facts and holds the lemmas' reports (`StepReport.termwise`,
    the found lemmas' one home) and the step as decided (its uses extended); `report` itself
    when nothing was found or the step is still not proved with it, saying what was found."""
    from verify.search.lemmas import signs

    began = perf_counter() - report.seconds  # the step's clock, its first searches included

    def left() -> float | None:  # the wall-clock cap against hostile input is the step's
        return None if guard is None else max(0.0, guard - (perf_counter() - began))

    small = budget.scaled(LEMMA_SHARE)
    proved: list[StepReport] = []
    given = dict(earlier or {})
    tried, cut = 0, False
    for subject in signs.subjects(proof, [g.goal for g in report.goals]):
        for claim in signs.claims(subject):
            if tried >= signs.MAX_LEMMAS:
                break
            if left() == 0:
                cut = True
                break
            tried += 1
            lemma = signs.lemma(proof, step, claim, tried,
                                tuple(Use(r.step.id) for r in proved))
            if lemma is None:
                continue
            try:
                found = _check_step(proof, lemma, small, left(), given, store, None)
            except ProofFileError:  # a lemma the rules refuse is no fact found
                continue
            cut = cut or _capped(found)
            if found.status == "proved" and not found.vacuous:
                proved.append(found)
                given[lemma.id] = found
                break  # `> 0` proved: `>= 0` says less
    if not proved or left() == 0:
        return _clock(replace(report, seconds=perf_counter() - began), cut or bool(proved), SIGNS)
    decided = replace(step, uses=(*step.uses, *(Use(r.step.id) for r in proved)))
    try:
        again = _check_step(proof, decided, budget, left(), given, store, None)
    except ProofFileError:
        return _clock(replace(report, seconds=perf_counter() - began), cut, SIGNS)
    shown = "; ".join(f"{r.step.claim.text} ({r.step.id})" for r in proved)
    if again.status != "proved":  # the verdict without them, and what was found in vain
        return _clock(replace(report, message=f"{report.message}; sign facts found and "
                              f"proved, the step still not proved with them: {shown}",
                              seconds=perf_counter() - began), cut or _capped(again), SIGNS)
    return replace(again, message=f"{again.message}; sign facts found and proved, used as "
                   f"steps: {shown}", seconds=perf_counter() - began, termwise=tuple(proved))


def _with_split(proof: Proof, step: Step, report: StepReport, budget: SearchBudget,
                guard: float | None, earlier: dict[str, StepReport] | None,
                store: Store | None) -> StepReport:
    """`report` (unknown, a direct step) decided again by cases on a scalar a hypothesis says
    is `>= 0` (`verify.search.lemmas.signs.splits`): `split = { on = "t", zero = true }` as
    a user writes it, the kernel's case rule (exhaustive by trichotomy: nothing new is
    trusted). The new report, proved, says which split was made and how to write it; else
    `report`, its verdict the one without, its seconds counting the tries."""
    from verify.search.lemmas import signs

    began = perf_counter() - report.seconds
    cut = False  # whether the time cap stopped a split's search, or the splits' turn
    for name in signs.splits(proof, [g.goal for g in report.goals]):
        left = None if guard is None else max(0.0, guard - (perf_counter() - began))
        if left == 0:
            cut = True
            break
        decided = replace(step, rule=CaseSplit(parse_scalar(name, proof.names), name, True))
        try:
            again = _check_step(proof, decided, budget, left, earlier, store, None)
        except ProofFileError:  # a split the rules refuse proves nothing
            continue
        cut = cut or _capped(again)
        if again.status == "proved":
            return replace(again, message=f"{again.message}; by cases on {name}, a split the "
                           f'checker chose (`split = {{ on = "{name}", zero = true }}` states '
                           "it)", seconds=perf_counter() - began)
    return _clock(replace(report, seconds=perf_counter() - began), cut, "case splits")


def _capped(report: StepReport) -> bool:
    """Whether the time cap (`--time-limit`) stopped one of `report`'s searches."""
    return any(s.kind == "time-cap" for g in report.goals for s in g.verdict.stops)


def _clock(report: StepReport, cut: bool, what: str = "term-wise facts") -> StepReport:
    """`report`, saying so when the time cap stopped the search for `what` (`cut`): the
    verdict is then the clock's, not the budget's (red team 17 F3: it read as the budget's)."""
    if not cut or _capped(report):  # the step's own search says so already
        return report
    return replace(report, message=f"{report.message}; {what}: the time cap "
                   "(`--time-limit`) stopped their search before it ended, so this verdict "
                   "is the clock's; a larger time limit, or none, may decide it")


def _check_step(proof: Proof, step: Step, budget: SearchBudget, guard: float | None,
                earlier: dict[str, StepReport] | None, store: Store | None,
                read: StepReading | None) -> StepReport:
    """`check_step` with the store chosen."""
    start = perf_counter()
    deadline = None if guard is None else start + guard  # one cap for all the step's searches
    earlier = earlier or {}
    used = [earlier[u.step] for u in step.uses if u.step in earlier]
    if len(used) < len(step.uses) or any(u.statement is None for u in used):
        why = [f"{u.step} ({earlier[u.step].message if u.step in earlier else 'not checked'})"
               for u in step.uses if u.step not in earlier or earlier[u.step].statement is None]
        return StepReport(step, "uses a step whose statement could not be formed: "
                          + "; ".join(why), perf_counter() - start, (), None)
    try:
        uses = [used_statement(u, used_value(r), proof)  # type: ignore[arg-type]
                for u, r in zip(step.uses, used, strict=True)]
        seq = sequent(proof, step, uses) if read is None else replace(  # type: ignore[arg-type]
            read.sequent, uses=tuple(uses))  # the sequent read, the values as decided
        stated = kernel.state(seq) if read is None else read.stated
    except kernel.RuleError as error:
        if found := _found_facts(used, earlier):  # the file is well formed (red team 19 F6)
            return StepReport(step, f"not decided: {error}. What it uses was proved with "
                              f"facts the search found, which the file does not state "
                              f"({found}), and read with them the rules admit no such use, "
                              "so the step is left unknown, not refused",
                              perf_counter() - start, (), None)
        raise refusal(error, step, [u.statement for u in used if u.statement is not None]
                      ) from None
    except kernel.KernelError as error:  # a used claim out of context, or 1/0 after a base
        return StepReport(step, str(error), perf_counter() - start, (), None)
    return replace(_decided(proof, step, seq, stated.statement, stated.obligations, used,
                            budget, deadline, store, start), stated=stated)


def _found_facts(used: Sequence[StepReport], earlier: Mapping[str, StepReport]) -> str:
    """The term-wise facts the search found for the used steps, or for the steps they use
    (transitively), as their reports name them ('' when none): a step decided with them states
    them as hypotheses, so a step that uses it reads a statement the file does not write.
    Red team 19 F6: such a lemma used at each update made `check` refuse the well-formed
    file (exit 2) over a hypothesis the user never wrote, and only when the budget let the
    search find the fact."""
    out: dict[str, str] = {}
    seen: set[str] = set()
    pending = list(used)
    while pending:
        report = pending.pop(0)
        if report.step.id in seen:
            continue
        seen.add(report.step.id)
        for fact in report.termwise:
            over = next((u.over for u in report.step.uses if u.step == fact.step.id), "")
            summed = f" summed over {over}" if over else ""  # a sign fact is used plainly
            out.setdefault(fact.step.id, f"{fact.step.claim.text}{summed} for "
                                         f"{report.step.id} ({fact.step.id})")
        pending += [earlier[u.step] for u in report.step.uses if u.step in earlier]
    return "; ".join(out.values())


def _decided(proof: Proof, step: Step, seq: kernel.Sequent, stated: kernel.Statement,
             needed: tuple[Obligation, ...], used: list[StepReport], budget: SearchBudget,
             deadline: float | None, store: Store | None, start: float) -> StepReport:
    """`_check_step` once the kernel has read the step: its obligations decided.

    An obligation whose own decision the store does not hold, but which it holds a
    refutation on concrete sets of (`_on_sets`), is not searched: the store holds what this
    search finds, so the search would leave it unknown, and the concrete sets would then
    refute it (below, once every other obligation is decided: the first such one). Should
    another obligation be refuted first after all (a store that is not this search's), the
    skipped ones are searched before the report is made, which is then the report made
    without the store."""
    reports: list[GoalReport] = []
    skipped: dict[int, tuple[kernel.Refutation, GoalReport]] = {}  # refuted on stored sets
    rejected: set[int] = set()  # their stored sets rejected by the kernel (noted; not again)
    for k, goal in enumerate(needed):
        if _sets_only(goal, step, budget, store):
            assert store is not None
            if (found := _recalled_on_sets(seq, goal, step, budget, store)) is not None:
                skipped[k] = found
                reports.append(found[1])
                continue
            rejected.add(k)
        verdict = _decide(goal, step, budget, deadline, store)
        reports.append(GoalReport(goal, verdict))
        if verdict.counterexample is not None and goal.decisive:
            try:
                refutation = kernel.refute(seq, goal.label, verdict.counterexample)
            except kernel.KernelError as error:
                natural = _natural(seq, goal, stated, verdict)  # off the naturals: moved
                found = natural if isinstance(natural, tuple) else _on_sets(
                    seq, goal, step, budget, store,  # sums read as unknowns
                    consult=k not in rejected, deadline=deadline)
                if found is None:
                    unmoved = natural if isinstance(natural, _Unmoved) else None
                    carried = CARRIED_AT_START in str(error)  # the kernel's words, not the user's
                    reports[-1] = GoalReport(goal, Verdict(
                        "unknown", None, None, f"counterexample not one to the statement as "
                        f"written: {error}{unmoved.said if unmoved else ''}", verdict.seconds,
                        stops=(unmoved.stop,) if unmoved else (Stop("carried-start"),) * carried))
                    break
                refutation, reports[-1] = found
            for j in skipped:  # not searched above: searched now, as without the store
                reports[j] = GoalReport(needed[j], _decide(needed[j], step, budget, deadline,
                                                           store))
            message = _labelled(reports[-1], len(needed), step, budget)
            return StepReport(step, message, perf_counter() - start, tuple(reports), stated,
                              refutation=refutation)
    for k, report in enumerate(reports):  # unknown with sums: a concrete set may refute it
        if report.goal.decisive and (k in skipped or report.verdict.status == "unknown") and (
                found := skipped.get(k) or _on_sets(seq, report.goal, step, budget, store,
                                                    consult=k not in rejected,
                                                    deadline=deadline)) is not None:
            reports[k] = found[1]
            return StepReport(step, _labelled(found[1], len(needed), step, budget),
                              perf_counter() - start, tuple(reports), stated,
                              refutation=found[0])
    if (run := _by_run(seq, stated, reports)) is not None:
        return StepReport(step, run[1], perf_counter() - start, tuple(reports), stated,
                          refutation=run[0], run=run[0].run, run_from=run[2])
    if (started := _by_start(seq, stated, reports)) is not None:
        refutation, k = started
        reports[k] = GoalReport(reports[k].goal, replace(
            reports[k].verdict, counterexample=refutation.counterexample,
            message=f"{reports[k].verdict.message}, moved to the start of the runs"), start=True)
        return StepReport(step, _start_message(stated, len(needed), reports[k]),
                          perf_counter() - start, tuple(reports), stated, refutation=refutation,
                          start=refutation.counterexample)
    return _conclude(proof, step, seq, stated, reports, len(needed), used, start, budget,
                     store)


def _by_run(seq: kernel.Sequent, stated: kernel.Statement, reports: Sequence[GoalReport]
            ) -> tuple[kernel.Refutation, str, str] | None:
    """An induction whose step case has a counterexample, refuted by a run from its base
    on that point's example (`refuting_run`), checked state by state by the kernel
    (`kernel.refute_run`): the refutation, its message and the step case's label; else
    None. A step case's point refutes nothing alone (it may be unreachable:
    `refutes_nothing`); a run is reachable by construction, its start the base. A side
    condition's point is no example to replay (its facts are not the update's)."""
    rule = seq.rule
    if type(rule) is not kernel.Induction or stated.runs:
        return None
    from verify.search.counterexamples import refuting_run

    for report in reports:
        point = report.verdict.counterexample
        if not report.goal.label.startswith("step") or point is None or (
                report.goal.written is None):
            continue
        if (states := refuting_run(rule, stated.claim, point,
                                   naturals=frozenset(stated.naturals))) is None:
            continue
        try:
            refutation = kernel.refute_run(seq, states)
        except kernel.KernelError:  # a hypothesis or a lemma's claim fails on the way
            continue
        return (refutation, _run_message(rule, point, states, stated.claim),
                report.goal.label)
    return None


def _by_start(seq: kernel.Sequent, stated: kernel.Statement, reports: Sequence[GoalReport]
              ) -> tuple[kernel.Refutation, int] | None:
    """A step about runs (`kernel.Statement.starts`: an induction's claim it imports, or an
    induction whose base case is not decisive) refuted at their start: a judgement's point
    moved there (`start_point`: each counter 0, the iterated names at their base) and checked
    by the kernel (`kernel.refute_start`: the hypotheses hold there, the claim fails, each
    carried invariant holds); the refutation and the judgement's index, else None. A point
    where the step's claim fails at a state no run may reach refutes nothing; the start of
    the run of no update is reached by every run (newcomers 27 F5, 31 F4)."""
    if not stated.starts:
        return None
    from verify.search.counterexamples import start_point

    for k, report in enumerate(reports):
        point = report.verdict.counterexample
        if point is None or report.goal.written is None or report.goal.decisive:
            continue
        if (moved := start_point(stated.starts, point)) is None:
            continue
        try:
            return kernel.refute_start(seq, moved), k
        except kernel.KernelError:  # a hypothesis fails there, or the claim holds
            continue
    return None


def _start_message(stated: kernel.Statement, count: int, report: GoalReport) -> str:
    """`refuted at the start of its runs (t = 0, w = 0): ...`, the counters and the names
    the bases give, as they are at the point (the point shown after the message)."""
    from verify.render.certificates import assignments

    point = report.verdict.counterexample
    assert point is not None and stated.starts
    named = {n for t, base, _ in stated.starts for n in (t, *(m for m, _ in base))}
    at = ", ".join(assignments(point.scalars, point.vectors, named, families=point.families))
    message = (f"refuted at the start of the runs it speaks of ({at}: every counter 0, the "
               "iterated names at their base), the state of the run of no update: the kernel "
               "checked that the hypotheses hold there and the claim fails "
               f"({report.verdict.message})")
    return message if count == 1 else f"{report.goal.label}: {message}"


def _run_message(rule: kernel.Induction, point: Counterexample,
                 states: Sequence[Counterexample], claim: kernel.Rel) -> str:
    """`refuted by a run from the start: 1 update, on x = (1), y = 1, with eta = 2, then
    ...`: the per-update names and the run's constants that the claim does not name (an
    update `w + eta*y*x` or an update fact `y<w,x> <= b` reads them), which the point shown
    after the message (the claim's names) leaves out; without them `w = (-2)` after one
    update on `x = (-1)` reads as a wrong sum (newcomer 24). The last state is the point.
    A run whose examples change (`refuting_run`'s walk to the point's state) names each
    example with the updates made on it, in order (`2 updates on x = (1), then 1 on
    x = (1/2)`): 'each on' the first would be untrue of the last (newcomer 34 N5). What
    the run is (`run_made`: the point's example replayed, a walk to its state, or a walk on
    which the invariant fails before it gets there) is said from that function, which
    `explain` reads too (fix35 F2: a run that failed on the walk was called the point
    replayed)."""
    from verify.render.certificates import assignments
    from verify.search.counterexamples import per_update_names, run_made

    fresh = per_update_names(rule)
    first, count = states[0], len(states) - 1
    made = [", ".join(assignments(s.scalars, s.vectors, fresh, families=s.families))
            for s in states[:-1]]
    runs: list[list[object]] = []
    for example in made:
        if runs and runs[-1][0] == example:
            runs[-1][1] += 1  # type: ignore[operator]
        else:
            runs.append([example, 1])
    claimed = {n for e in (claim.lhs, claim.rhs, *claim.divisors) for n in names_of(e)}
    held = ", ".join(assignments(first.scalars, first.vectors,
                                 set(rule.constants) - claimed, families=first.families))
    free = ", ".join(assignments(first.scalars, first.vectors, set(rule.step) - set(rule.base)))
    if len(runs) > 1:
        on = ": " + ", then ".join(f"{k} on {example}" for example, k in runs)
    else:
        on = f", {'each ' * (count > 1)}on {made[0]}" if made[0] else ""
    how = {"replayed": "the step case's point replayed from the base",
           "walked": "a walk from the base to the step case's point's state, then the "
                     "point's example",
           "toward": "a walk from the base toward the step case's point's state, on which "
                     "the invariant fails before it gets there"}[
        run_made(rule.variable, rule.step, point, states)]
    on += f", with {held}" if held else ""
    start = f"the start ({free}: the base leaves it free)" if free else "the start"
    return (f"refuted by a run from {start}: {count} update{'s' * (count > 1)}{on}, then "
            f"the invariant fails ({how}; the kernel checked every state: the update facts "
            "hold at each update, the invariant fails at the last)")


@dataclass(frozen=True)
class _Unmoved:
    """A counterexample off the naturals that `_natural` could not move to a refutation:
    what was tried, for the unknown's message (only what is literally so), and what
    happened, for its advice (`Stop`: none refutes and every natural was covered, none was
    found, or the kernel rejected the one found)."""

    said: str
    stop: Stop


def _natural(seq: kernel.Sequent, goal: Obligation, stated: kernel.Statement,
             verdict: Verdict) -> tuple[kernel.Refutation, GoalReport] | _Unmoved | None:
    """When the search's counterexample values a natural name off the naturals (the search
    reads it as a real >= 0): the point moved to natural values (`natural_counterexample`
    in `verify.search.counterexamples`) and refuted by the kernel with it, or, when no
    candidate refutes, what was tried and what happened (`_Unmoved`), or None when no
    natural name is off (the kernel refused the point for another reason)."""
    found = verdict.counterexample
    assert found is not None
    off = sorted(n for n in stated.naturals
                 if n in found.scalars and (found.scalars[n].denominator != 1
                                            or found.scalars[n] < 0))
    if not off:
        return None
    from verify.search.counterexamples import natural_counterexample

    moved = natural_counterexample(goal.judgement, found, stated.naturals)
    names = ", ".join(off)
    if moved.point is not None:
        try:
            refutation = kernel.refute(seq, goal.label, moved.point)
        except kernel.KernelError as error:  # the written statement is not the judgement
            return _Unmoved(f"; moved to natural {names}, kernel rejected it: {error}",
                            Stop("natural-rejected"))
        was = ", ".join(f"{n} = {found.scalars[n]}" for n in off)
        return refutation, GoalReport(goal, replace(
            verdict, counterexample=moved.point,
            message=f"{verdict.message}, moved to natural {names} (it had {was})"))
    if moved.complete:
        return _Unmoved(f"; no natural value of {names} refutes it: {names} is its only name, "
                        f"and the {moved.tried} naturals tried include the least one in every "
                        "interval where the hypotheses hold and the claim fails",
                        Stop("natural-only"))
    return _Unmoved(f"; no natural counterexample among the {moved.tried} points tried with "
                    f"{names} moved to the naturals next to each root of the hypotheses and "
                    "the claim on the line through it", Stop("natural-none"))


#: The message of an obligation refuted at a point with concrete sets (`_on_sets`).
ON_SETS = ("counterexample at a concrete point (its sums and family members evaluated by the "
           "kernel)")


def _on_sets(seq: kernel.Sequent, goal: Obligation, step: Step, budget: SearchBudget,
             store: Store | None = None, consult: bool = True, deadline: float | None = None
             ) -> tuple[kernel.Refutation, GoalReport] | None:
    """For a step with sums or family members: a counterexample on concrete small sets, the
    sums unfolded (`verify.search.sums.worlds`), refuting `goal` as written; None without.
    From the store when it holds one (`kernel.refute` accepts it here; unless not
    `consult`: the kernel rejected it already), else searched (and kept when the store
    records)."""
    from verify.search.sums.worlds import concrete, counterexample

    written = goal.written
    if written is None or not concrete(e for r in (*written[0], written[1])
                                       for e in (r.lhs, r.rhs)):
        return None
    key, what = _sets_key(goal, budget), _sets_what(step, goal)
    if store is not None and consult and (
            stored := _recalled_on_sets(seq, goal, step, budget, store)):
        return stored
    _searching("concrete sets")
    start = perf_counter()
    try:
        cex = counterexample(seq, goal.label, budget, deadline)
    except TimeCap:  # the user's cap: not a verdict the store may keep
        return None
    verdict = (Verdict("unknown", None, None, "no counterexample on concrete sets",
                       perf_counter() - start) if cex is None else
               Verdict("refuted", None, cex, ON_SETS, perf_counter() - start))
    if store is not None and consult:  # else its note says the stored one was rejected
        keep(store, key, "sets", what, "whole", verdict, goal.judgement)
    if cex is None:
        return None
    if store is not None:
        refuted_on_sets(store, f"{step.id}: {goal.label}")
    return kernel.refute(seq, goal.label, cex), GoalReport(goal, verdict)


def _sets_key(goal: Obligation, budget: SearchBudget) -> str:
    """The store's key of `goal`'s refutation on concrete sets."""
    return key_of("sets", goal.judgement, goal.origins, (), budget)


def _sets_what(step: Step, goal: Obligation) -> str:
    """How the store's notes name `goal`'s refutation on concrete sets."""
    return f"{step.id}: {goal.label}: on concrete sets"


def _recalled_on_sets(seq: kernel.Sequent, goal: Obligation, step: Step,
                      budget: SearchBudget, store: Store
                      ) -> tuple[kernel.Refutation, GoalReport] | None:
    """`goal`'s stored refutation on concrete sets, accepted by the kernel here, or None
    (noted in the store's notes)."""
    refuted: list[kernel.Refutation] = []  # the kernel's refutation, made once, as it checks
    stored = recall(store, _sets_key(goal, budget), "sets", lambda _form: goal.judgement,
                    _sets_what(step, goal),
                    refutes=lambda cex: refuted.append(kernel.refute(seq, goal.label, cex)))
    if stored is None or not refuted:
        return None
    return refuted[0], GoalReport(goal, stored)


def _sets_only(goal: Obligation, step: Step, budget: SearchBudget, store: Store | None
               ) -> bool:
    """Whether the store holds a refutation on concrete sets of the decisive `goal` but no
    decision of its own (the search leaves it unknown: `_decided`); looked up, not noted."""
    return (store is not None and goal.decisive
            and store.find(_sets_key(goal, budget)) is not None
            and store.find(_goal_key(goal, step, budget)) is None)


def _conclude(proof: Proof, step: Step, seq: kernel.Sequent, stated: kernel.Statement,
              reports: list[GoalReport], needed: int, used: list[StepReport], start: float,
              budget: SearchBudget, store: Store | None) -> StepReport:
    """A Theorem when every obligation and every used step is proved, else unknown."""
    unproved = [r for r in reports if r.verdict.status != "proved"]
    if unproved or len(reports) < needed:
        message = "; ".join(_labelled(r, len(reports), step, budget) for r in unproved)
        refuted = [u.step.id for u in used if u.status == "refuted"]
        if refuted:  # newcomer 33 F3: a premise refuted was said nowhere, only a split to try
            message = f"uses refuted step(s) {', '.join(refuted)}: {message}"
        return StepReport(step, message, perf_counter() - start, tuple(reports), stated)
    pending = [u.step.id for u in used if u.theorem is None]
    if pending:
        return StepReport(step, f"proved from unproved step(s) {', '.join(pending)}",
                          perf_counter() - start, tuple(reports), stated)
    evidence = [r.kernel_evidence for r in reports]
    try:
        theorem = kernel.conclude(seq, evidence, [  # type: ignore[arg-type]
            used_theorem(u, r.theorem, proof)  # type: ignore[misc]
            for u, r in zip(step.uses, used, strict=True)])
    except kernel.KernelError as error:  # the search handed over evidence that does not check
        return StepReport(step, f"kernel rejected: {error}", perf_counter() - start,
                          tuple(reports), stated)
    vacuity, satisfied = _vacuity(contradiction([r.goal for r in reports]), budget, store,
                                  f"{step.id}: vacuity", used)
    stuck = None if vacuity is not None else _vacuity(at_start(seq, stated), budget, store,
                                                      f"{step.id}: start state")[0]
    message = reports[0].verdict.message if len(reports) == 1 else (
        f"{len(reports)} judgements proved: " + ", ".join(r.goal.label for r in reports))
    report = StepReport(step, message, perf_counter() - start, tuple(reports), stated,
                        theorem=theorem, vacuity=vacuity, stuck=stuck, satisfied=satisfied,
                        carried=_carried_ids(seq, stated))
    if report.vacuity_reason is not None:
        report = replace(report, message=f"VACUOUS: {report.vacuity_reason}; {message}")
    return report


def contradiction(goals: Sequence[Obligation]) -> Judgement:
    """`hypotheses |- -1 >= 0` for the hypotheses every case of a step shares (for an
    induction, those of its update step: if they contradict, no update can happen).

    Only facts valid without the case: not the case, and a sum-rule identity only if every
    case has it (one case's rule, e.g. a `skip` whose condition is that case, holds under
    that case alone; one all the cases share holds whichever case is true)."""
    written = [g for g in goals if g.written is not None]
    last = written[-1]
    cases = [set(g.judgement.hypotheses) for g in written if "case" in g.origins]
    hyps = tuple(h for h, o in zip(last.judgement.hypotheses, last.origins, strict=True)
                 if o != "case" and (o != "sum" or all(h in c for c in cases)))
    return replace(last.judgement, hypotheses=hyps, claim=kernel.Fact(sympy.Integer(-1), ">="))


#: Where a hypothesis of a vacuity judgement comes from, in words, by its mark in the
#: obligation (`kernel.Obligation.origins`); `inherited` and `claim` name the used step.
_FROM = {"": "given", "condition": "a division's condition", "invariant": "its invariant",
         "update": "an update fact", "lemma": "a one-update lemma",
         "sum": "an identity of its sums", "named": "a named vector sum's definition"}


def contradicting(goals: Sequence[Obligation], certificate: Certificate,
                  stated: kernel.Statement | None, carried: Sequence[str] = ()
                  ) -> tuple[tuple[str, str], ...]:
    """The hypotheses of `contradiction(goals)` that `certificate` (its kernel-checked
    evidence) reads, in order: each as written with where it comes from (`given`, `a
    hypothesis of c` or `c's claim` for what the used step c brought, `t is natural`, ...).
    The certificate reads no other hypothesis, so these alone cannot hold together: a
    step that uses two case lemmas learns which of the conditions it inherited clash
    (`t*g - n >= 0` from one, `t*g - n < 0` from the other). Read from the obligation the
    kernel made (`written`, `origins`) and the statement's `origins`, never searched."""
    judgement = contradiction(goals)
    last = [g for g in goals if g.written is not None][-1]
    marks: dict[kernel.Fact, str] = {}
    for fact, mark in zip(last.judgement.hypotheses, last.origins, strict=True):
        marks.setdefault(fact, mark)
    read = ({i for p in certificate.products if p.coeff for i in p.hyps}
            | {j for j, q in certificate.linear if q != 0} | set(certificate.multiplier))
    written = last.written[0]  # type: ignore[index]
    forms = [normal_form(r, r.text)[0] for r in written]
    found = []
    for i in sorted(read):
        fact = judgement.hypotheses[i]
        mark = marks.get(fact, "")
        at = next((k for k, f in enumerate(forms) if f == fact), None)
        text = written[at].text if at is not None else f"{fact.expr} {fact.kind} 0"
        origin = (stated.origins[at] if stated is not None and at is not None
                  and at < len(stated.hypotheses) else "")
        where = (f"a hypothesis of {origin}" if mark == "inherited" and origin else
                 f"{origin}'s claim" if mark == "claim" and origin else
                 f"{fact.expr} is natural" if mark == "natural" else
                 _invariant(at, stated, carried) if mark == "invariant" else
                 _FROM.get(mark, mark))
        found.append((readable(text), where))
    return tuple(found)


def _invariant(at: int | None, stated: kernel.Statement | None, carried: Sequence[str]
               ) -> str:
    """Whose invariant the hypothesis written at `at` of an induction's update step is: the
    kernel writes its hypotheses, the natural counter, its own invariant, then the carried
    ones in order (`kernel.rules._obligations_of`), and marks both kinds `invariant`."""
    if at is None or stated is None or at <= len(stated.hypotheses) + 1 or not carried:
        return "its invariant"
    k = at - len(stated.hypotheses) - 2
    return f"the invariant of {carried[k]} it carries" if k < len(carried) else \
        "an invariant it carries"


def _carried_ids(seq: kernel.Sequent, stated: kernel.Statement) -> tuple[str, ...]:
    """The ids of the used inductions whose invariants the kernel carries along `seq`'s
    runs (those over the same runs, `kernel.rules._carried`), in its order."""
    if stated.over is None:
        return ()
    used = [getattr(u, "statement", u) for u in seq.uses]  # a Theorem, Stated or Statement
    return tuple(u.step for u in used if u.over == stated.over)


def at_start(seq: kernel.Sequent, stated: kernel.Statement) -> Judgement | None:
    """For an induction with update facts U: `hypotheses, U at the start |- -1 >= 0`, the
    counter 0 and the iterated names at their base (None for other steps). If it holds, no
    run makes a first update (e.g. updating on `y<w, x> < 0` from w = 0), and the theorem
    speaks of the start state only. The substitution is the kernel's (`kernel.instance`),
    the judgement only a warning's evidence: it decides no verdict."""
    rule = seq.rule
    if type(rule) is not kernel.Induction or not rule.update:
        return None
    relations = (*stated.hypotheses, *rule.update)
    read = {n for r in relations for e in (r.lhs, r.rhs, *r.divisors) for n in names_of(e)}
    start = {n: t for n, t in {rule.variable: sympy.Integer(0), **rule.base}.items()
             if n in read}
    probe = kernel.Statement(seq.step, relations, ("",) * len(relations),
                             kernel.Rel(sympy.Integer(-1), ">=", sympy.Integer(0), "-1 >= 0"),
                             frozenset())
    try:
        started = kernel.instance(probe, start)
    except kernel.KernelError:  # a start the instance rule does not take: no warning
        return None
    forms = [normal_form(r, r.text) for r in started.hypotheses]
    hypotheses = tuple(dict.fromkeys(f for fact, side in forms for f in (*side, fact)))
    return Judgement(hypotheses, kernel.Fact(sympy.Integer(-1), ">="),
                     tuple(sorted(seq.vectors)), tuple(sorted(seq.scalars)))


def _vacuity(judgement: Judgement | None, budget: SearchBudget, store: Store | None = None,
             what: str = "vacuity", used: Sequence[StepReport] = ()
             ) -> tuple[Certificate | None, Counterexample | None]:
    """A kernel-checked certificate of `judgement` (a contradiction), if one is found: in
    the store (a stored counterexample, kernel-checked, says there is none), else searched;
    and a point where its hypotheses hold, if one was found (kernel-checked). A point of a
    step it uses is tried first (`_satisfied`)."""
    if judgement is None or not judgement.hypotheses:
        return None, None
    if (point := _satisfied(judgement, used)) is not None:
        return None, point
    key = ""
    if store is not None:
        key = key_of("vacuity", judgement, (), (), budget)
        stored = recall(store, key, "vacuity", lambda _form: judgement, what)
        if stored is not None:
            return stored.certificate, stored.counterexample
    # a point satisfying the hypotheses settles it (not vacuous): it need not be shrunk. No
    # SDP: a contradiction among a step's hypotheses is linear or a product of them, and the
    # SDP's rounding attempts on satisfiable hypotheses were most of a long proof's time
    _searching(what)
    share = replace(budget.scaled(VACUITY_SHARE), sdp_entries=1)  # no SDP fits in one entry
    if (point := _point_of(judgement, share)) is not None:
        if store is not None:  # kept like a point the search finds, so a recall needs none
            keep(store, key, "vacuity", what, "whole", Verdict(
                "refuted", None, point, "a point where the hypotheses hold", 0.0), judgement)
        return None, point
    verdict = decide(judgement, budget=share, shrink=False)
    if store is not None:
        keep(store, key, "vacuity", what, "whole", verdict, judgement)
    found = verdict.certificate
    if found is None:
        return None, verdict.counterexample
    kernel.check_certificate(judgement, found)
    return found, None


def _point_of(judgement: Judgement, budget: SearchBudget) -> Counterexample | None:
    """A point where the hypotheses hold, checked by the kernel: the LP's if they are linear
    in scalars, else one of small values repaired greedily (`verify.search.counterexamples`;
    imported with the search it belongs to)."""
    from verify.search.counterexamples import linear_point, satisfying_point

    for find in (linear_point, satisfying_point):
        if (point := find(judgement, budget)) is None:
            continue
        try:
            kernel.check_counterexample(judgement, point)
        except kernel.KernelError:  # the rounded LP point misses a hypothesis
            continue
        return point
    return None


def _satisfied(judgement: Judgement, used: Sequence[StepReport]) -> Counterexample | None:
    """A point where every hypothesis of `judgement` holds, checked by the kernel, from the
    used step with the most hypotheses that has one: its point satisfies the hypotheses of
    that step's vacuity judgement, so only the others are evaluated. A step that adds to the
    statements it uses a claim they prove (a chain of lemmas) is then settled in time linear
    in its hypotheses, not searched again; whatever the point, the step cannot be vacuous."""
    known = [r for r in used if r.satisfied is not None and r.goals]
    if not known:
        return None
    chosen = max(known, key=lambda r: len(r.statement.hypotheses))  # type: ignore[union-attr]
    held = set(contradiction([g.goal for g in chosen.goals]).hypotheses)
    rest = tuple(h for h in judgement.hypotheses if h not in held)
    try:
        kernel.check_counterexample(replace(judgement, hypotheses=rest), chosen.satisfied)  # type: ignore[arg-type]
    except kernel.KernelError:
        return None
    return chosen.satisfied


def detached(report: StepReport) -> StepReport:
    """`report` without its kernel values, to cross a process boundary: a Theorem is never
    pickled (unpickling could forge one); `replay` makes it again from the evidence."""
    return replace(report, theorem=None, refutation=None, stated=None,
                   termwise=tuple(map(detached, report.termwise)))


def replay(proof: Proof, reports: Sequence[StepReport]) -> tuple[StepReport, ...]:
    """Detached reports of `proof`'s steps with their Theorems and Refutations made again by
    the kernel, here, from the evidence they carry (a worker's claims count for nothing).
    A step decided with term-wise lemmas found (`StepReport.termwise`) is replayed after
    them, in the proof `termwise.extended` makes (its own step, its uses extended); one
    decided with its sums of vectors named (`Step.named`), with those names."""
    from verify.search.sums.termwise import extended

    done: dict[str, StepReport] = {}
    read: dict[str, kernel.Sequent] = {}  # each step's sequent, as the kernel reads it here

    def value(report: StepReport) -> Used | None:
        """A used step's Theorem, else the kernel's reading of its sequent here: a detached
        statement about runs is no kernel value, so the kernel knows no start of it."""
        if report.theorem is None and (seq := read.get(report.step.id)) is not None:
            return kernel.state(seq)
        return used_value(report)

    home, flat = extended(proof, reports)
    for report in flat:
        step, theorem, refutation = home.step(report.step.id), None, None  # the proof's own
        step = replace(step, named=report.step.named)  # with its sums named, if it was (the
        # kernel admits any fresh names: a wrong one proves nothing, `sums.VectorSum`)
        if isinstance(step.rule, Direct) and isinstance(report.step.rule, CaseSplit):
            step = replace(step, rule=report.step.rule)  # by the cases the checker chose (a
            # split leaves the statement as it is: the kernel checks the cases' certificates)
        used = [done[u.step] for u in step.uses]
        if report.statement is not None:
            proved = [g.kernel_evidence for g in report.goals if g.pieces]
            refuting = [g for g in report.goals if g.goal.decisive
                        and g.verdict.counterexample is not None]
            try:
                seq = read[step.id] = sequent(home, step, [
                    used_statement(u, value(r), home)  # type: ignore[arg-type]
                    for u, r in zip(step.uses, used, strict=True)])
                theorems = [used_theorem(u, r.theorem, home)
                            for u, r in zip(step.uses, used, strict=True)]
                if len(proved) == len(report.goals) and None not in theorems:
                    theorem = kernel.conclude(seq, proved, theorems)  # type: ignore[arg-type]
                    if report.vacuity is not None:
                        kernel.check_certificate(contradiction([g.goal for g in report.goals]),
                                                 report.vacuity)
                    if report.stuck is not None:
                        started = at_start(seq, kernel.statement(seq))
                        if started is None:
                            raise kernel.KernelError("a start-state certificate for no start")
                        kernel.check_certificate(started, report.stuck)
                elif refuting:
                    refutation = kernel.refute(seq, refuting[0].goal.label,
                                               refuting[0].verdict.counterexample)  # type: ignore[arg-type]
                elif report.run:
                    refutation = kernel.refute_run(seq, report.run)
                elif report.start is not None:
                    refutation = kernel.refute_start(seq, report.start)
            except kernel.KernelError as error:
                report = replace(report, message=f"kernel rejected on replay: {error}")
        done[step.id] = replace(report, theorem=theorem, refutation=refutation)
    return tuple(replace(done[r.step.id], termwise=tuple(done[f.step.id] for f in r.termwise))
                 for r in reports)


def _left(deadline: float | None) -> float | None:
    """The seconds left before the step's `deadline` (None: no cap); 0 once it has passed,
    so a search started then stops at its first check and says `time cap`."""
    return None if deadline is None else max(0.0, deadline - perf_counter())


def _decide(goal: Obligation, step: Step, budget: SearchBudget, deadline: float | None,
            store: Store | None = None) -> Verdict:
    """`goal`'s verdict from the store (kernel-checked), else searched: first without the
    hypotheses inherited through `uses`, then whole, then in refutation form (`_search`);
    an equality that is no combination of the equalities is then tried as its two
    inequalities (`_antisymmetry`). A searched verdict is recorded when the store records
    (not one by antisymmetry: its two certificates are searched again each run)."""
    key, what = "", f"{step.id}: {goal.label}"
    if store is not None:
        key = _goal_key(goal, step, budget)
        stored = recall(store, key, "goal", lambda form: _form(goal, form), what)
        if stored is not None:
            return stored
    own = _core(goal).hypotheses
    verdict, form = _search(goal.judgement, own, step, budget, deadline)
    if verdict.status == "unknown" and goal.judgement.claim.kind == "==":
        verdict = _antisymmetry(goal.judgement, own, verdict, step, budget, deadline)
    if store is not None and verdict.halves is None:
        keep(store, key, "goal", what, form, verdict, goal.judgement)
    return verdict


def _goal_key(goal: Obligation, step: Step, budget: SearchBudget) -> str:
    """The store's key of `goal`'s decision."""
    return key_of("goal", goal.judgement, goal.origins, hints(step), budget)


def _core(goal: Obligation) -> Judgement:
    """The obligation without the hypotheses inherited through `uses` (see `_search`)."""
    judgement = goal.judgement
    own = tuple(h for h, o in zip(judgement.hypotheses, goal.origins, strict=True)
                if o != "inherited")
    return replace(judgement, hypotheses=own)


def _refutation_form(judgement: Judgement) -> tuple[kernel.Fact, Judgement]:
    """The negated claim, and the judgement that it contradicts the hypotheses (`0 > 0`)."""
    claim = judgement.claim
    negated = kernel.Fact(-claim.expr, ">" if claim.kind == ">=" else ">=")
    return negated, replace(judgement, hypotheses=(*judgement.hypotheses, negated),
                            claim=kernel.Fact(sympy.Integer(0), ">"))


def _form(goal: Obligation, form: Form) -> Judgement:
    """The judgement a verdict of `form` proves (what a stored certificate must prove)."""
    if form == "core":
        return _core(goal)
    if form == "refutation":
        if goal.judgement.claim.kind == "==":
            raise kernel.KernelError("an equality has no refutation form")
        return _refutation_form(goal.judgement)[1]
    return goal.judgement


def _search(judgement: Judgement, own: tuple[kernel.Fact, ...], step: Step,
            budget: SearchBudget, deadline: float | None, quick: bool = False
            ) -> tuple[Verdict, Form]:
    """Search `judgement`, first from the hypotheses `own` (those not inherited); the
    verdict and the form of the judgement it is for.

    The inherited ones only weaken the statement (they are there for soundness) but enlarge
    the search; the kernel accepts a certificate from fewer hypotheses (weakening). Only a
    proof is taken from the smaller judgement: refuting it would not refute the step. An
    inequality left unknown is tried in refutation form: its negation against the
    hypotheses. `quick`: each form by the strategies before the SDP only (`prover.decide`).
    """
    if len(own) < len(judgement.hypotheses):
        core = replace(judgement, hypotheses=own)
        found = decide(core, hints=hints(step), budget=budget.scaled(0.5),
                       guard=_left(deadline), quick=quick)
        if found.certificate is not None:
            return replace(found, judgement=core), "core"
    verdict = decide(judgement, hints=hints(step), budget=budget, guard=_left(deadline),
                     quick=quick)
    if verdict.status != "unknown" or judgement.claim.kind == "==":
        return verdict, "whole"
    negated, absurd = _refutation_form(judgement)  # the negated claim against the hypotheses
    found = decide(absurd, hints=hints(step), budget=budget.scaled(REFUTATION_SHARE),
                   guard=_left(deadline), quick=quick)
    if found.certificate is None:
        return replace(verdict, message=f"{verdict.message}; in refutation form (the negated "
                       f"claim {_brief(negated)} against the hypotheses): {found.message}",
                       stops=(*verdict.stops, *found.stops)), "whole"
    return replace(found, judgement=absurd, message=f"{found.message}, in refutation form "
                   f"(the hypotheses contradict the negated claim {_brief(negated)})"
                   ), "refutation"


def _antisymmetry(judgement: Judgement, own: tuple[kernel.Fact, ...], verdict: Verdict,
                  step: Step, budget: SearchBudget, deadline: float | None) -> Verdict:
    """`g == 0` from `g >= 0` and `-g >= 0` (a real both >= 0 and <= 0 is 0), each searched
    as any inequality (`_search`: directly or in refutation form), when ideal membership
    failed (`verdict`): `x <= 3y <= 6z <= x |- x == 3y` is no combination of equalities.
    A counterexample to a half violates the equality too, so it is passed on as one.

    Each half is first searched in each form by the strategies before the SDP (`quick`),
    then, if unproved, as before: the half `-l >= 0` of `y*g >= 0 |- max(0, -y*g) == 0` has
    no certificate in direct form (it needs the negated claim `l > 0` as a factor), and its
    direct SDP took ~80% of that step's 15 s before the refutation form proved it at once
    (newcomer 29, F2). A half an earlier strategy proves in direct form keeps its
    certificate: the direct quick pass is the direct search up to its SDP."""
    halves: list[Verdict] = []
    seconds, said = verdict.seconds, []
    for expr in (judgement.claim.expr, -judgement.claim.expr):
        half = replace(judgement, claim=kernel.Fact(expr, ">="))
        found = _search(half, own, step, budget, deadline, quick=True)[0]
        if found.status != "proved":
            seconds += found.seconds
            found = _search(half, own, step, budget, deadline)[0]
        seconds += found.seconds
        if found.status == "refuted":
            return replace(found, seconds=seconds, message=f"{found.message}, against "
                           f"{_brief(half.claim)}, one half of the equality")
        if found.status != "proved":
            return replace(verdict, seconds=seconds, message=(
                f"{verdict.message}; by antisymmetry, the half {_brief(half.claim)}: "
                f"{found.message}"), stops=(*verdict.stops, *found.stops))
        halves.append(replace(found, judgement=found.judgement or half))
        said.append(f"{_brief(half.claim)} by {found.message.removeprefix('certificate by ')}")
    return Verdict("proved", None, None, "by antisymmetry, two certificates: "
                   + "; ".join(said), seconds, halves=(halves[0], halves[1]))


def _brief(fact: kernel.Fact, limit: int = 160) -> str:
    """`fact` for a message: a long expansion (a degree-16 power is pages of terms) is cut,
    saying how long it was; the full statement is in the report's `statement`. Its sums are
    made `readable` before the cut, not after it (red team 23 F8: a cut inside a sum's
    header left it unreadable to the message's own `readable`, which then showed the
    kernel's filter `nonneg(...)`, no syntax of the language); the length said is the
    readable text's."""
    return brief_text(str(fact), limit)


def brief_text(text: str, limit: int = 160) -> str:
    """The kernel's `text` of a fact, readable, cut at `limit` characters (`_brief`)."""
    text = readable(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _labelled(report: GoalReport, count: int, step: Step,
              budget: SearchBudget = DEFAULT_BUDGET) -> str:
    """The goal's message, led by what is missing when that can be told (issue 16): one
    short sentence naming the remedy, then the search's details in parentheses."""
    message = report.verdict.message
    if (report.goal.label.startswith("step") and report.verdict.status == "refuted"
            and report.goal.written is not None):  # not a side condition (red team 26 R3)
        # red team 28: `q := q + k*(k - 1)` for a per-update natural k read "invariant is
        # not inductive" at k = 1/2, where over the naturals it is (no run has k = 1/2)
        off = _off_naturals(report.goal, report.verdict.counterexample)
        message = (f"invariant not shown inductive: the point found breaks it{off}; "
                   f"certificates reason over the reals: if it holds at naturals, split into "
                   f"cases or strengthen the invariant ({message})" if off else
                   f"invariant is not inductive ({message})")
    elif report.verdict.status == "refuted" and not report.goal.decisive and report.goal.written:
        message = (f"not refuted: the point found satisfies the hypotheses and breaks the "
                   f"claim, but {refutes_nothing(step, report.goal, report.verdict.counterexample)}"
                   f", so it refutes nothing ({message})")
    elif report.verdict.status == "unknown" or (
            report.goal.written is None and report.verdict.status == "refuted"):  # fails somewhere
        point = report.verdict.counterexample
        if report.verdict.status == "refuted" and point is not None:  # nc35 K2: it read
            # "(counterexample (dimension-1 screen))", a refutation of a step not refuted
            at = f"it fails at {_at(report.goal.judgement, point)}"
            found = message.removeprefix("counterexample (").removesuffix(")")
            message = (f"{at}; {message}" if found == message or "(" in found
                       else f"{at}, found by the {found}")
        message = (f"{_obstacle(report.goal, report.verdict.stops, step, budget)} "
                   f"({message})")
    return message if count == 1 else f"{report.goal.label}: {message}"


def _at(judgement: Judgement, point: Counterexample) -> str:
    """`R2 = 0, x = (1, 0)`: the values `point` gives the names `judgement` reads (a side
    condition's, whose point refutes nothing: the step's message says where it fails)."""
    read: set[str] = set()
    for fact in (*judgement.hypotheses, judgement.claim):
        read |= names_of(fact.expr)
    shown = [f"{n} = {v}" for n, v in point.scalars.items() if n in read]
    shown += [f"{n} = ({', '.join(map(str, v))})" for n, v in point.vectors.items() if n in read]
    return ", ".join(shown) or "a point"


def refutes_nothing(step: Step, goal: Obligation,
                    point: Counterexample | None = None) -> str:
    """Why a point where a goal's hypotheses hold and its claim fails does not refute the
    step, when the goal is not decisive (`kernel.Obligation.decisive`), in the words every
    output prints: the witness may be what fails; or, for an induction's step case, the
    state it assumes the invariant at may be one no run reaches; or the step imports an
    induction's claim, which holds only along runs (the kernel's only other reason). A
    natural that `point` values off the naturals (the search reads one as a real >= 0) is
    said too. Newcomer 19: an induction importing nothing was told it imports one."""
    if goal.written is None:  # red team 26: a denominator's side condition imports nothing
        return ("it breaks a side condition (a denominator shown > 0, or a sum rule's "
                "condition) only, not the step: the step is unknown, not refuted, until the "
                "condition follows from its hypotheses free of division")
    if step.witness:
        return "the witness may be what fails (a better witness may prove the step)"
    off = _off_naturals(goal, point)
    if isinstance(step.rule, Induction) and goal.label.startswith("step"):
        return ("the state it starts from may be one no run reaches (the step case assumes "
                "the invariant at every state where it holds, not only at the states of the "
                "induction's runs; the invariant may then still hold along every run, true but "
                f"not inductive, and a stronger one may prove it{off})")
    return ("it may be one no run reaches (the step imports an induction's claim, which holds "
            f"only along runs{off})")


def _off_naturals(goal: Obligation, point: Counterexample | None) -> str:
    """`, and it gives the natural k the value 1/2, which no run does` for the naturals of
    `goal` (its hypotheses `n >= 0` marked natural) that `point` values off the naturals;
    empty when there are none, or no point."""
    if point is None:
        return ""
    naturals = [h.expr.name for h, o in zip(goal.judgement.hypotheses, goal.origins,
                                            strict=True) if o == "natural" and h.expr.is_Symbol]
    off = [f"{n} the value {point.scalars[n]}" for n in naturals if n in point.scalars
           and (point.scalars[n].denominator != 1 or point.scalars[n] < 0)]
    if not off:
        return ""
    return (f", and it gives the natural {', '.join(off)}, which no run does: the search "
            "reads a natural as a real >= 0")


def _larger_helps(stops: Sequence[Stop], budget: SearchBudget) -> bool:
    """Whether the search stopped where `--budget large` would go on: a count exhausted, or
    an SDP or LP skipped for its size that would fit `large` (each size budget scaled as the
    one it was over: a share of the step's). An SDP too large even for `large` (sos.ml 1660's
    30 817 unknowns) is not a reason to offer it."""
    large = BUDGETS["large"]
    if any(s.kind == "exhausted" for s in stops):
        return True
    if any(s.sizes[0] * budget.sdp_entries <= s.sizes[1] * large.sdp_entries
           for s in stops if s.kind == "sdp-over"):
        return True
    return any(s.sizes[0] * budget.lp_rows <= s.sizes[2] * large.lp_rows
               and s.sizes[1] * budget.lp_columns <= s.sizes[3] * large.lp_columns
               for s in stops if s.kind == "lp-over")


def _at_least(budget: SearchBudget, other: SearchBudget) -> bool:
    """Whether `budget` allows at least `other`'s work of every kind."""
    return all(getattr(budget, f) >= getattr(other, f) for f in SearchBudget.LABELS)


def _indexed(judgement: Judgement) -> bool:
    """Whether `judgement` mentions a sum or a family member (which no hint relates)."""
    return any(isinstance(atoms.structure(s), atoms.Sum | atoms.Family)
               for r in (*judgement.hypotheses, judgement.claim) for s in r.expr.free_symbols)


def _factor_advice(goal: Obligation, stops: Sequence[Stop], can_split: bool = True
                   ) -> str | None:
    """The remedy a `factor` stop names (newcomer 23, M2): the claim times a positive factor
    follows once some scalars are known > 0, which the kernel checked with exactly those
    facts; a scalar known >= 0 (a natural) gets a split on it, whose case `x > 0` knows it,
    when the step `can_split` (a step that splits or inducts already cannot split again:
    newcomer 21's second `split =` was a TOML error), any other the fact itself to add.
    None without such a stop."""
    found = next((s for s in stops if s.kind == "factor" and len(s.names) > 1), None)
    if found is None:
        return None
    factor, *scalars = found.names
    one = len(scalars) == 1
    it = "it" if one else "them"
    nonnegative = {str(h.expr) for h in goal.judgement.hypotheses
                   if h.kind == ">=" and h.expr.is_Symbol}
    split = [x for x in scalars if x in nonnegative] if one and can_split else []
    facts = " and ".join(f"`{x} > 0`" for x in scalars)
    remedy = (f"split on {split[0]} (`split = {{ on = \"{split[0]}\" }}`), so that its case "
              f"{split[0]} > 0 knows it" if split else
              f"add {facts} to `given` if {'it holds' if one else 'they hold'}, or prove {it} in "
              "a step this one uses")
    return (f"cancelling the positive factor {factor} proves the claim once {facts} "
            f"{'is' if one else 'are'} known (the kernel accepted that certificate with {it} "
            f"added): {remedy}")


def _denies(judgement: Judgement) -> bool:
    """Whether a hypothesis says by itself that the claim `d > 0` fails (`-d > 0`, `-d >= 0`
    or `d == 0`, up to a positive factor): the fact is then no fact to add to `given`."""
    claim = judgement.claim.expr
    if claim.is_Rational:  # `0 > 0`: a base dividing by its counter at 0 (red team 26, R3)
        return not claim > 0
    for fact in judgement.hypotheses:
        ratio = sympy.cancel(fact.expr / claim)
        if ratio.is_Rational and ratio != 0 and (fact.kind == "==" or ratio < 0):
            return True
    return False


def _step_obstacle(goal: Obligation, stops: Sequence[Stop], step: Step,
                   budget: SearchBudget) -> str:
    """What an unknown inductive step lacks, as far as the search knows: no certificate that
    an update keeps the invariant, and no point where it holds and an update breaks it (such
    a point makes the step `invariant is not inductive`, never this). It said "the invariant
    may be too weak to carry itself over an update" first, of newcomer 26's invariant (F7),
    which is inductive: its step needed the sign `e >= 0` of the step size that `e*(t + 1)
    == 1` implies and no hypothesis stated. So the remedies the search can name come first
    (a factor the kernel checked, a sign of a scalar of the update, a larger budget when the
    search stopped at its own), a weak invariant last."""
    rule = step.rule
    update: set[str] = set()
    if isinstance(rule, Induction):
        for term in rule.step.values():
            for expr in (term.values() if isinstance(term, Vec) else (term,)):
                update |= {s.name for s in sympy.sympify(expr).free_symbols}
        update -= {*rule.step, rule.variable}
    factor = _factor_advice(goal, stops, can_split=False)
    larger = _larger_helps(stops, budget) and not _at_least(budget, BUDGETS["large"])
    return ("no certificate that an update keeps the invariant, and no point found where it "
            "holds and an update breaks it: "
            + (f"{factor}; else " if factor else "")
            + "a hint (a polynomial or vector whose square helps) or a fact the update needs "
            f"in the induction's `given` ({_sign_example(goal.judgement, update)}) may find "
            "a certificate"
            + ("; the search stopped at its budget (higher degrees or larger LPs), so "
               "`--budget large` may too" if larger else "")
            + "; or the invariant is too weak to carry itself over an update: strengthen it")


def _sign_example(judgement: Judgement, first: Collection[str] = ()) -> str:
    """An example of a fact the judgement lacks, for the advice `it may need a fact the step
    lacks (...)`: the sign `x >= 0` of the first scalar of the claim that no hypothesis
    signs by itself (`c*x >= 0`, `c*x > 0`, `c*x == 0`), one named in `first` before the
    others (an update's step size), else only `a bound`. It was the
    fixed text "a sign such as `R2 >= 0`", printed to a step whose `given` held `R2 >= 0`
    (newcomer 28, F1): a student added it again and nothing changed. Advice must never name
    a fact the step already has."""
    signed = {x for fact in judgement.hypotheses if (x := _signed(fact)) is not None}
    unsigned = sorted((s.name not in first, s.name) for s in judgement.claim.expr.free_symbols
                      if s not in signed and atoms.IDENT.fullmatch(s.name))
    if not unsigned:
        return "a bound"
    return f"a sign such as `{unsigned[0][1]} >= 0`, a bound"


def _signed(fact: kernel.Fact) -> sympy.Symbol | None:
    """The scalar `x` whose sign `fact` states or implies by itself: `x == c`, or `c*x + d`
    `>=`/`>` 0 with `c > 0 >= d` (`R2 >= 1` implies `R2 >= 0`) or with `c < 0` and `d == 0`
    (`-t > 0`); None for any other fact."""
    if len(fact.expr.free_symbols) != 1:
        return None
    (x,) = fact.expr.free_symbols
    try:
        poly = sympy.Poly(fact.expr, x)
    except sympy.PolynomialError:
        return None
    if poly.degree() != 1 or not all(c.is_Rational for c in poly.all_coeffs()):
        return None
    c, d = poly.all_coeffs()
    return x if fact.kind == "==" or (c > 0 and d <= 0) or d == 0 else None


#: How the kernel's `refute` names a carried invariant it checks at the start of a base's
#: point (`verify.kernel.rules.refute`): a base refuted only where it holds there.
CARRIED_AT_START = "[carried invariant, at the start]"


def _obstacle(goal: Obligation, stops: Sequence[Stop], step: Step,
              budget: SearchBudget = DEFAULT_BUDGET) -> str:
    """What an unknown goal most likely lacks, said first: a side condition of a division
    lacks a positivity fact; a claim false only at non-natural values needs integrality (said
    so only when every natural value was covered, `natural_counterexample`); an
    inductive step may need a stronger invariant; a direct step drawing on an induction's
    claim usually divides by its counter, which needs that counter's sign (a split); any
    other goal a hint, a case split or (only when the search stopped at a budget that is not
    already `large`) a larger budget. (A guide for the user, not a verdict.) It reads what
    stopped the search (`stops`, kinds carried with the verdict: `Stop`), never the words
    of its message, which quote the user's own claim."""
    kinds = {s.kind for s in stops}
    if "carried-start" in kinds:  # red team 29 F2: "a hint or a case split may find one"
        return ("the point found breaks, at the start, an invariant this induction carries "
                "(the claim of an induction over the same runs that it uses), so no run it "
                "speaks of starts there, and its base does not assume that invariant: the step "
                "it carries is not proved at that start; prove or correct it first")
    if "time-cap" in kinds:  # truth14: it said "within the budget" of a search the clock cut
        # newcomer 31: said to a user who gave no --time-limit (check's default cap), and
        # "or none", which check's option cannot give
        return ("no verdict before the time cap: the clock (`--time-limit S`, which `check` "
                "and `explain` apply by default) stopped the search, not its budget; a larger "
                "time limit may decide it (the audit and the API apply none by default)")
    if "natural-only" in kinds:
        return ("the claim fails only at values that are not natural, and certificates "
                "reason over the reals: prove it by induction, or split into cases")
    if "natural-rejected" in kinds:
        return ("the counterexample found is not natural, and the point with natural values "
                "found near it was rejected by the kernel (the statement as written is not "
                "the judgement searched: see why below); certificates reason over the reals: "
                "if the claim holds at naturals, prove it by induction, or split into cases")
    if "natural-none" in kinds:  # a natural counterexample may still exist
        return ("the counterexample found is not natural, and none with natural values was "
                "found near it; certificates reason over the reals: if the claim holds at "
                "naturals, prove it by induction, or split into cases")
    if goal.written is None:
        if _denies(goal.judgement):  # red team 26, R4: `a < 0 |- 1/a < 0` was told to add a > 0
            said = (f"{goal.judgement.claim} is false" if goal.judgement.claim.expr.is_Rational
                    else f"the hypotheses say {goal.judgement.claim} fails")
            return (f"{said}, so it is no fact to "
                    "add: a division is admitted only by a denominator shown > 0; state the "
                    "relation multiplied through by the denominator instead (reversed where "
                    "it is negative)")
        rule = step.rule
        if isinstance(rule, Induction) and (changing := sorted(
                {rule.variable, *rule.step} & names_of(goal.judgement.claim.expr))):
            return (f"missing a positivity fact: nothing among the hypotheses free of division "
                    f"shows {goal.judgement.claim} at every state; prove it as an invariant in "
                    f"a step this one uses (a `given` may not mention {', '.join(changing)}, "
                    "which the updates change)")  # red team 26 R3
        return (f"missing a positivity fact: nothing among the hypotheses free of division "
                f"shows {goal.judgement.claim}; add it to `given` or prove it in a step this "
                "one uses")
    if not goal.decisive and goal.label.startswith("step"):
        return _step_obstacle(goal, stops, step, budget)
    if not goal.decisive and not step.witness:
        claimed = goal.judgement.claim.expr.free_symbols
        naturals = [h.expr for h, o in zip(goal.judgement.hypotheses, goal.origins, strict=True)
                    if o == "natural" and h.expr.is_Symbol]
        # the counter the claim reads, else one the other hypotheses (an imported claim) read
        # (newcomer 31: a claim free of the counter was told `split = { on = "the run's
        # length" }`, which the parser refuses): the advice is a split the file can write
        imported = set().union(*(h.expr.free_symbols for h, o in zip(
            goal.judgement.hypotheses, goal.origins, strict=True) if o != "natural"))
        counters = ([n.name for n in naturals if n in claimed]
                    or [n.name for n in naturals if n in imported])
        lacking = (f"a fact the step lacks ({_sign_example(goal.judgement)}), a hint, or a "
                   "lemma it uses")
        factor = _factor_advice(goal, stops, can_split=isinstance(step.rule, Direct))
        if isinstance(step.rule, CaseSplit):  # newcomer 21: told to split on k, split on k
            # red team 26, R1: an unknown case has no point; it said "its point refutes
            # nothing" of a search that found none
            return (f"no certificate in this case: {factor or f'it may need {lacking}'}; a "
                    "point breaking this case would refute nothing (the step imports an "
                    "induction's claim, which holds only along runs)")
        if factor is not None:
            return f"{factor}; else it may need {lacking}"
        if not counters:
            return f"it may need {lacking}"
        t = counters[0]
        return (f"split on {t} if the step divides by it (the imported induction's claim "
                f"multiplied by {t}: `split = {{ on = \"{t}\" }}`, so that each case knows "
                f"its sign); else it may need {lacking}")
    if not goal.decisive:
        return "the witness may not fit: try another witness, or give a hint"
    if goal.judgement.claim.kind == "==" and _indexed(goal.judgement):
        return ("no certificate for the equality: sums are compared only by the sum rules "
                "empty, last, skip, split, shift, count and swap (docs/proof-files.md), "
                "proposed where the statement's ranges differ by a constant, a hypothesis "
                "fixes a bound or a double sum is another in the other order, and family "
                "members by their index as written or by congruence, where a hypothesis gives "
                "a name of the index as a term (`j == k + 1`: y[j] is y[k + 1]; under "
                "`j*k == k**2` y[j], y[k] stay two unknowns): write the step so that its sums "
                "and indices meet that way (peel a first or last member, split at a bound it "
                "names, re-index by a constant, state j == k), or prove such an identity in a "
                "step this one uses")
    if goal.judgement.claim.kind == "==":
        return ("no certificate for the equality: it is no combination of the equalities, "
                "and one of its halves `<=`, `>=` was not proved (a hint or a case split may "
                "help that half)")
    if (factor := _factor_advice(goal, stops, can_split=isinstance(step.rule, Direct))) is not None:
        return factor
    larger = _larger_helps(stops, budget)
    if "rounding" in kinds and not larger:
        return ("no certificate within the budget: a hint or a case split may help; the "
                "SDP's numeric point could not be rounded to an exact sum of squares (the "
                "claim may not be one at the degrees tried)")
    if larger and _at_least(budget, BUDGETS["large"]):
        return ("no certificate within the budget: a hint (a polynomial or vector whose "
                "square helps) or a case split (`split`) may find one; the search stopped at "
                "its budget, already `large`")
    summed = (_SUMMED if _indexed(goal.judgement) else "")
    return (f"no certificate within the budget: {summed}a hint (a polynomial or vector whose "
            "square helps) or a case split (`split`) may find one" + (
                "; the search stopped at its budget (higher degrees or larger LPs), so "
                "`--budget large` may too" if larger else ""))


#: The remedy of an inequality between sums that the search leaves unknown, named first: no
#: hint relates the members of a sum, and the checker's own term-wise facts are about one
#: member; a lemma about two members summed over a set twice is the user's (nc35 K8: a
#: squared norm of a sum was advised a hint, a split and a larger budget, none of which helps)
_SUMMED = ("a lemma about one member, or two, used summed term by term (`uses = [{ step = "
           "\"LEMMA\", sum = \"j in M\" }]`; `sum = [\"l in M\", \"j in M\"]` for a double "
           "sum such as a square of a sum: docs/proof-files.md, *Families and finite sums*), ")
