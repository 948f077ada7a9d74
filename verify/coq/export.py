"""Proved steps as Coq theorems, proved by replaying our certificates (issue 18).

Each proved step becomes one `Theorem` stating the kernel's `Statement` as written (scalars in
`R`, naturals in `nat` read through `INR`, vectors in `V`, `dot(a, b)` as `ip a b`, divisions
as in the text), except that the claim of a used step whose theorem is exported is not
assumed but obtained by applying that theorem. Its proof replays the kernel's evidence,
nothing else: each hypothesis becomes its fact `p (kind) 0` by one bridge lemma and an
identity (`ring`, or `field` where something divides; the reduced denominator `D` of the
kernel's normal form is the clearing factor and its condition `D > 0` is replayed from the
side obligation); each certificate is replayed as `m * claim = sum of terms` (identity by
`ring`) with every term's sign given by an explicit proof term (products of hypotheses,
`pow2_ge_0`, the preamble's Gram lemmas); the claim as written is recovered by one bridge
lemma. Evidence in refutation form (`0 > 0` from the hypotheses and the negated claim) is
replayed by contradiction: `by_contra_ge`/`by_contra_gt` decide the sign of the claim's gap
and, in the violating case, the certificate is replayed to `0 < 0`. A natural `t` is
introduced as a `nat`, `0 <= INR t` is `pos_INR`, and the proof then works with the real
`t := INR t`. Structural rules: a case split destructs the trichotomy (a
disjunction) and replays each case; `uses` applies the used step's theorem, and an instance
(`with`) applies it to the substituted terms (its substituted premises are printed from their
source text with the terms in place, as Coq instantiates the binders; a step that imports
them through other steps prints them the same way and applies the instance again, so its
substituted claim is derived there too); an existential claim is
stated with `exists`, proved by `exists` of the witness, and destructed where it is used; an
induction over runs is a theorem over `nat` (iterated vectors and scalars and per-update names
as sequences, constants as constants) proved from its base and step obligations, exported as
lemmas over `R` (a split step destructs its cases; a carried invariant is the other
induction's theorem applied to the same run); a natural besides the counter is a `nat` there
too (a constant, or a `nat -> nat` sequence when read fresh at each update), read via `INR`.

The checker's reports are read in one place only, `proved_step` (the adapter).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce

import sympy

from proofs.language.expressions import ExpressionError
from proofs.step import CaseSplit, Direct, Induction, Proof, Step
from verify.coq import printer
from verify.coq.printer import Written, expr, ident, name, number
from verify.kernel import (
    Certificate,
    Fact,
    GramMinor,
    Judgement,
    KernelError,
    NormSquare,
    Obligation,
    Rel,
    Square,
    Statement,
    gram_pair,
    instance,
)
from verify.kernel.algebra import normal_form, reciprocal_bases

FACT_LEMMA = {">=": "replay_ge", ">": "replay_gt", "==": "replay_eq"}
HYP_LEMMA = {"<=": "fact_le", "<": "fact_lt", ">=": "fact_ge", ">": "fact_gt", "==": "fact_eq"}
LENGTH = "N'"  # the number of updates of a run (with `'`: no proof-file name contains one)
BOUND = "bound'"  # `(S n' <= N')%nat`: the update n' is one of the run's
CLAIM_LEMMA = {
    "<=": "claim_le", "<": "claim_lt", ">=": "claim_ge", ">": "claim_gt", "==": "claim_eq",
}


class Unsupported(ValueError):
    """A proved step this exporter cannot state or replay; the message says what."""


@dataclass(frozen=True)
class Goal:
    """One obligation of a step with its certificate; `judgement` is what the certificate
    proves (the obligation's, or one with fewer hypotheses: weakening)."""

    obligation: Obligation
    judgement: Judgement
    certificate: Certificate


@dataclass(frozen=True)
class ProvedStep:
    """A step with a kernel Theorem, its full statement and the evidence for it."""

    step: Step
    statement: Statement
    goals: tuple[Goal, ...]
    witness: Mapping[str, object] = field(default_factory=dict)
    instances: tuple[tuple[str, Mapping[str, object]], ...] = ()


def _terms(pairs: Iterable[tuple[str, object]]) -> dict[str, object]:
    """A substitution as the kernel reads it: a vector as a plain `{name: coefficient}`
    dict, a scalar as its SymPy expression."""
    return {n: dict(t.items()) if isinstance(t, Mapping) else t for n, t in pairs}


def proved_step(report: object) -> ProvedStep | None:
    """The adapter: a checker step report as a `ProvedStep`, or None if it is not proved.

    The only code that reads `verify.proof_checker.StepReport` (its `step`, `theorem`,
    `statement` and `goals`, each with `goal` and `verdict.certificate`/`verdict.judgement`).
    Only a step with a kernel `Theorem` is exported.
    """
    if getattr(report, "theorem", None) is None or getattr(report, "statement", None) is None:
        return None
    goals = []
    for goal_report in report.goals:  # type: ignore[attr-defined]
        verdict = goal_report.verdict
        if verdict.certificate is None:
            return None
        goals.append(Goal(goal_report.goal, verdict.judgement or goal_report.goal.judgement,
                          verdict.certificate))
    step: Step = report.step  # type: ignore[attr-defined]
    instances = tuple((u.step, _terms(u.with_)) for u in step.uses if u.with_)
    return ProvedStep(step, report.statement, tuple(goals),  # type: ignore[attr-defined]
                      _terms(step.witness.items()), instances)


@dataclass(frozen=True)
class Run:
    """An induction's theorem over `nat`, as another induction over the same runs (or a
    concrete run instantiating it) applies it: its binders (proof names, in order; then the
    run's length), premises, base and step keys, update facts, and which binders are
    sequences over the updates and which are naturals."""

    binders: tuple[str, ...]
    hypotheses: tuple[Rel, ...]
    base: tuple[str, ...]
    step: tuple[str, ...]
    update: tuple[Rel, ...]
    sequences: frozenset[str] = frozenset()
    naturals: frozenset[str] = frozenset()


@dataclass
class Exported:
    """One step in the Coq file: its theorem (None when not exported, with the reason).

    `variables` are the theorem's binders in order, `naturals` those bound as `nat`,
    `hypotheses` its premises in order and `claim` its conclusion (kernel relations), for
    some value of the names in `exists` (an existential claim, proved by a witness).
    `printed` maps each relation of its statement that an instance substituted (its text,
    `r >= 0 [p := ...]`, is not source) to the used step's relation and the substitution:
    how it is printed here and in every step that inherits it. `instances` are the used
    theorems it applies to substituted terms (`with`), applied again where its claim is
    derived, so their substituted claims are derived there too, not assumed.
    """

    step_id: str
    theorem: str | None
    text: str = ""
    reason: str = ""
    hypotheses: tuple[Rel, ...] = ()
    variables: tuple[str, ...] = ()
    naturals: frozenset[str] = frozenset()
    claim: Rel | None = None
    induction: bool = False
    exists: tuple[str, ...] = ()
    run: Run | None = None
    printed: Mapping[Rel, tuple[Rel, Mapping[str, object]]] = field(default_factory=dict)
    instances: tuple[tuple[str, Mapping[str, object]], ...] = ()


@dataclass
class _Term:
    """A Coq real-valued term with a proof of its sign (`0 <= t`, or `0 < t` when strict)."""

    text: str
    proof: str
    strict: bool

    def weak(self) -> str:
        """A proof of `0 <= text`."""
        return f"(Rlt_le _ _ {self.proof})" if self.strict else self.proof


def _times(a: _Term, b: _Term) -> _Term:
    if a.strict and b.strict:
        return _Term(f"({a.text} * {b.text})", f"(Rmult_lt_0_compat _ _ {a.proof} {b.proof})",
                     True)
    return _Term(f"({a.text} * {b.text})", f"(Rmult_le_pos _ _ {a.weak()} {b.weak()})", False)


def _plus(a: _Term, b: _Term) -> _Term:
    if a.strict:
        return _Term(f"({a.text} + {b.text})", f"(add_pos_nonneg _ _ {a.proof} {b.weak()})",
                     True)
    return _Term(f"({a.text} + {b.text})",
                 f"(Rplus_le_le_0_compat _ _ {a.weak()} {b.weak()})", False)


def _constant(value: Fraction) -> _Term:
    """A nonnegative rational with a proof by computation on integers (`eq_refl`)."""
    strict = value > 0
    if value.denominator == 1:
        lemma = "int_pos" if strict else "int_nonneg"
        return _Term(number(value), f"({lemma} {value.numerator} eq_refl)", strict)
    lemma = "rat_pos" if strict else "rat_nonneg"
    proof = f"({lemma} {value.numerator} {value.denominator} eq_refl eq_refl)"
    return _Term(number(value), proof, strict)


def _fold(terms: Sequence[_Term], combine: Callable[[_Term, _Term], _Term]) -> _Term:
    return reduce(lambda rest, term: combine(term, rest), reversed(terms[:-1]), terms[-1])


def _prop(fact: Fact) -> str:
    p = expr(fact.expr)
    return {">=": f"0 <= {p}", ">": f"0 < {p}", "==": f"{p} = 0"}[fact.kind]


def _identity(*texts: str) -> str:
    """`ring`, or `field` (denominators discharged from hypotheses) where anything divides."""
    if any("/" in t for t in texts):
        return "field; nz_solve"
    return "ring"


def _gap(relation: Rel) -> sympy.Expr:
    """The gap of the kernel's normal form: `rhs - lhs` for `<=`/`<`, else `lhs - rhs`."""
    if relation.op in ("<=", "<"):
        return relation.rhs - relation.lhs
    return relation.lhs - relation.rhs


def _divides(polynomial: sympy.Expr, divisor: sympy.Expr) -> sympy.Expr | None:
    """`polynomial / divisor` when it is a polynomial (exact over QQ), else None."""
    quotient = sympy.cancel(polynomial / divisor)
    return sympy.expand(quotient) if sympy.fraction(quotient)[1].is_number else None


def _nat_fact(natural: str) -> Fact:
    """The kernel's fact `n >= 0` for a natural n."""
    return Fact(sympy.Symbol(natural), ">=")


class _Script:
    """The proof script of one lemma: facts are derived once and named.

    `hyps` names the relations in context (premises, applied theorems, the case at hand),
    `conditions` the side obligations by their claim (`D > 0`), `facts` the facts already
    derived (the naturals' `0 <= n` among them).
    """

    def __init__(
        self,
        proof: Proof,
        vectors: Sequence[str],
        hyps: dict[Rel, str],
        conditions: dict[Fact, Goal],
    ) -> None:
        self.proof = proof
        self.vectors = list(vectors)
        self.hyps = dict(hyps)
        self.conditions = conditions
        self.facts: dict[Fact, str] = {}
        self.nonzero: set[sympy.Expr] = set()
        self.lines: list[str] = []
        self.fresh = itertools.count()
        self.indent = "  "
        self.forms: dict[Rel, tuple[Fact, tuple[Fact, ...]]] = {}

    # -- tactics ------------------------------------------------------------------------------

    def ip_norm(self) -> str:
        """Expand inner products bilinearly and order each Gram symbol's names."""
        pairs = itertools.combinations(sorted(self.vectors), 2)
        syms = "".join(f", ?(ip_sym {name(b)} {name(a)})" for a, b in pairs)
        return "try unfold det2, det3; autorewrite with ip_db" + (
            f"; rewrite {syms[2:]}" if syms else ""
        )

    def emit(self, line: str) -> None:
        """One line of the script at the current depth."""
        self.lines.append(self.indent + line)

    def new(self, prefix: str) -> str:
        """A fresh hypothesis name (with `'`: no proof-file name contains one)."""
        return f"{prefix}'{next(self.fresh)}"

    # -- facts --------------------------------------------------------------------------------

    def form(self, relation: Rel) -> tuple[Fact, tuple[Fact, ...]]:
        """The kernel's normal form of `relation` and its conditions (computed once)."""
        if relation not in self.forms:
            try:
                self.forms[relation] = normal_form(relation, f"`{relation.text}`")
            except KernelError as error:
                raise Unsupported(str(error)) from None
        return self.forms[relation]

    def relation_text(self, relation: Rel) -> tuple[str, str, str]:
        """A relation as written (or from its SymPy form when it has no source text)."""
        written = Written(self.proof.names).relation(relation)
        if written is not None:
            return written
        return expr(relation.lhs), printer.COQ_OP[relation.op], expr(relation.rhs)

    def clearing(self, relation: Rel, fact: Fact) -> tuple[str, str]:
        """The positive factor `f` with `f * gap == fact` (the reduced denominator of the
        normal form, or 1) and its proof; every divisor's `<> 0` is derived for `field`."""
        conditions = self.form(relation)[1]
        labels = [(c, self.fact(c)) for c in conditions]
        divisors = [*relation.divisors, *reciprocal_bases(relation.lhs, relation.text),
                    *reciprocal_bases(relation.rhs, relation.text)]
        for divisor in divisors:
            self.nonzero_fact(divisor, labels)
        gap = _gap(relation)
        if sympy.cancel(gap - fact.expr) == 0:
            return "1", "Rlt_0_1"
        for size in range(1, len(labels) + 1):  # one condition, or a product of several
            for chosen in itertools.combinations(labels, size):  # (one per divisor: 1/R**2)
                factor = sympy.Mul(*(c.expr for c, _ in chosen))
                if sympy.cancel(factor * gap - fact.expr) == 0:
                    # the text nests as the proof does: `0 < c0 * (c1 * ...)` is its type
                    text, proof = expr(chosen[-1][0].expr), chosen[-1][1]
                    for condition, label in reversed(chosen[:-1]):
                        text = f"({expr(condition.expr)} * {text})"
                        proof = f"(Rmult_lt_0_compat _ _ {label} {proof})"
                    return text, proof
        raise Unsupported(f"no condition clears the denominator of {relation.text!r}")

    def nonzero_fact(self, divisor: sympy.Expr, labels: list[tuple[Fact, str]]) -> None:
        """`d <> 0` for a divisor and each of its factors, from a condition `c > 0` that it
        divides (`c = d * r`): what `field` asks for (`nz_solve` in the preamble)."""
        if not divisor.free_symbols:
            return
        factors = [f for f, _ in sympy.factor_list(divisor)[1]]
        for target in dict.fromkeys([sympy.expand(divisor), *factors]):
            if target in self.nonzero or not target.free_symbols:
                continue
            found = next(((c, label, q) for c, label in labels
                          if (q := _divides(c.expr, target)) is not None), None)
            if found is None:
                raise Unsupported(f"no condition shows {target} <> 0")
            condition, label, quotient = found
            self.nonzero.add(target)
            c, d, r = expr(condition.expr), expr(target), expr(quotient)
            self.emit(f"assert ({self.new('nz')} : {d} <> 0) by (refine "
                      f"(nz_of_factor {c} {d} {r} {label} _); {_identity(c, d, r)}).")

    def fact(self, fact: Fact) -> str:
        """A name for `fact`: derived from a relation in context, or a replayed condition."""
        if fact in self.facts:
            return self.facts[fact]
        source = next((r for r in self.hyps if self.form(r)[0] == fact), None)
        if source is None:
            if fact in self.conditions:
                return self.replay(self.conditions[fact])
            raise Unsupported(f"the fact {fact} has no source in the statement")
        f, f_proof = self.clearing(source, fact)
        a, _op, b = self.relation_text(source)
        label = self.new("k")
        self.emit(
            f"assert ({label} : {_prop(fact)}) by (refine ({HYP_LEMMA[source.op]} _ _ {f} _ "
            f"{f_proof} _ {self.hyps[source]}); {self.ip_norm()}; "
            f"{_identity(a, b, f, _prop(fact))})."
        )
        self.facts[fact] = label
        return label

    # -- certificates -------------------------------------------------------------------------

    def sigma(self, entry: object) -> _Term:
        """One weighted square, squared norm or Gram determinant, with its sign."""
        if not isinstance(entry, Square | NormSquare | GramMinor):
            raise Unsupported(f"unknown sigma entry {entry!r}")
        weight = _constant(Fraction(entry.weight))
        if isinstance(entry, Square):
            p = expr(entry.poly)
            term = _Term(f"({p} ^ 2)", f"(pow2_ge_0 {p})", False)
        else:
            vectors = (entry.vector,) if isinstance(entry, NormSquare) else entry.vectors
            if any(not v for v in vectors) or not self.vectors:
                return _Term("0", "(Rle_refl 0)", False)  # a zero vector: the entry is 0
            vs = [printer.vector(v, self.vectors[0]) for v in vectors]
            if len(vs) == 1:
                term = _Term(f"(ip {vs[0]} {vs[0]})", f"(ip_pos {vs[0]})", False)
            elif len(vs) == 2:
                term = _Term(f"(det2 {vs[0]} {vs[1]})", f"(gram2_nonneg {vs[0]} {vs[1]})", False)
            else:
                args = " ".join(vs)
                term = _Term(f"(det3 {args})", f"(gram3_nonneg {args})", False)
        return term if weight.text == "1" else _times(weight, term)

    def replay(self, goal: Goal) -> str:
        """Replay one obligation's evidence; returns the name of its claim's fact."""
        claim = goal.obligation.judgement.claim
        if claim in self.facts:
            return self.facts[claim]
        if goal.judgement.claim == claim:
            return self.certificate(goal.judgement, goal.certificate)
        return self.refutation(goal)

    def refutation(self, goal: Goal) -> str:
        """Refutation form: the claim `g >= 0` (`g > 0`) by contradiction.

        The certificate proves `0 > 0` from hypotheses and the negated claim `-g > 0`
        (`-g >= 0`). `by_contra_ge` (`by_contra_gt`) splits on the sign of `g` (decidability
        of the order on R, `Rle_lt_dec`): in the case that violates the claim the negation
        is a hypothesis, `n = -g` by `ring`, and the certificate is replayed as any other to
        the absurd `0 < 0`; the facts derived under the negation stay inside its block.
        """
        claim = goal.obligation.judgement.claim
        if claim.kind == "==" or goal.judgement.claim != Fact(sympy.Integer(0), ">"):
            raise Unsupported(f"evidence for {goal.judgement.claim} is neither the claim "
                              f"{claim} nor its refutation form")
        negated = Fact(-claim.expr, ">" if claim.kind == ">=" else ">=")
        label, inner = self.new("g"), self.new("neg")
        lemma = "by_contra_ge" if claim.kind == ">=" else "by_contra_gt"
        self.emit(f"assert ({label} : {_prop(claim)}).")
        self.emit(f"{{ refine ({lemma} {expr(claim.expr)} {expr(negated.expr)} _ _); "
                  f"[ring | intros {inner}].")
        saved = (dict(self.facts), dict(self.hyps), set(self.nonzero), self.indent)
        self.indent += "  "
        self.facts[negated] = inner
        absurd = self.certificate(goal.judgement, goal.certificate)
        self.emit(f"exact {absurd}.")
        self.facts, self.hyps, self.nonzero, self.indent = saved
        self.emit("}")
        self.facts[claim] = label
        return label

    def certificate(self, judgement: Judgement, cert: Certificate) -> str:
        """Replay a certificate of `judgement`; returns the name of its claim's fact."""
        if judgement.claim in self.facts:
            return self.facts[judgement.claim]
        facts = judgement.hypotheses

        def hyp(i: int) -> _Term:
            return _Term(expr(facts[i].expr), self.fact(facts[i]), facts[i].kind == ">")

        products: list[_Term] = []
        for product in cert.products:
            factors = [hyp(i) for i in product.hyps]
            coeff = Fraction(product.coeff)
            if coeff != 1:
                factors.insert(0, _constant(coeff))
            if product.sigma:
                factors.append(_fold([self.sigma(s) for s in product.sigma], _plus))
            if not factors:
                factors.append(_Term("1", "Rlt_0_1", True))
            products.append(_fold(factors, _times))
        products.sort(key=lambda t: not t.strict)  # a strict term first: `0 < s + rest`
        linear = []
        for index, q in cert.linear:
            label = self.fact(facts[index])
            text = f"({expr(q)} * {expr(facts[index].expr)})"
            linear.append((text, f"(lin0 {expr(q)} _ {label})"))
        kind = judgement.claim.kind
        p = _fold(products, _plus) if products else None
        lin = None
        if linear:
            lin = linear[-1]
            for text, proof in reversed(linear[:-1]):
                lin = (f"({text} + {lin[0]})", f"(sum_eq _ _ {proof} {lin[1]})")
        if kind == "==":
            s, s_proof = lin if lin else ("0", "(@eq_refl R 0)")
        elif kind == ">":
            if p is None or not p.strict:
                raise Unsupported("strict claim without a strictly positive term")
            s, s_proof = (p.text, p.proof) if lin is None else (
                f"({p.text} + {lin[0]})", f"(sum_gt _ _ {p.proof} {lin[1]})")
        elif p is not None:
            s, s_proof = (p.text, p.weak()) if lin is None else (
                f"({p.text} + {lin[0]})", f"(sum_ge _ _ {p.weak()} {lin[1]})")
        else:
            s, s_proof = (f"({lin[0]})", f"(ge_of_eq0 _ {lin[1]})") if lin else (
                "0", "(Rle_refl 0)")
        multiplier = [hyp(i) for i in cert.multiplier]
        m = _fold(multiplier, _times) if multiplier else _Term("1", "Rlt_0_1", True)
        c = expr(judgement.claim.expr)
        label = self.new("g")
        self.emit(f"assert ({label} : {_prop(judgement.claim)}).")
        self.emit(f"{{ refine ({FACT_LEMMA[kind]} {m.text} {c} {s} {m.proof} _ {s_proof}).")
        self.emit(f"  {self.ip_norm()}. {_identity(m.text, c, s)}. }}")
        self.facts[judgement.claim] = label
        return label

    def conclude(self, relation: Rel, fact_label: str, fact: Fact,
                 texts: tuple[str, str, str] | None = None) -> None:
        """Finish the goal `relation` (as stated: `texts`) from the fact `fact_label`."""
        if self.form(relation)[0] != fact:
            raise Unsupported(f"the claim {relation.text!r} is not its kernel fact")
        f, f_proof = self.clearing(relation, fact)
        a, _op, b = texts or self.relation_text(relation)
        self.emit(
            f"refine ({CLAIM_LEMMA[relation.op]} _ _ {f} _ {f_proof} _ {fact_label}); "
            f"{self.ip_norm()}; {_identity(a, b, f, _prop(fact))}."
        )


def _comment(text: str) -> str:
    """Text safe inside a Coq comment (no nested openers/closers, no string quotes)."""
    return text.replace("(*", "( *").replace("*)", "* )").replace('"', "'")


def _term(value: object, zero_of: str) -> str:
    """An induction's base or update of one name: a vector (`vadd`/`vscal`, the zero vector
    as `vscal 0 zero_of`), or a scalar expression."""
    if isinstance(value, Mapping):
        return printer.vector(value, zero_of)
    return expr(value)  # type: ignore[arg-type]


def _term_names(value: object) -> set[str]:
    """The declared names an induction's base or update of one name reads."""
    if isinstance(value, Mapping):
        coefficients = list(value.values())
        found = set(value)
    else:
        coefficients, found = [value], set()
    for c in coefficients:
        for symbol in c.free_symbols:
            found.update(gram_pair(symbol) or (symbol.name,))
    return found


def _substituted(text: str, mapping: dict[str, str]) -> str:
    """`text` with whole Coq names replaced (one pass: replacements are not re-read)."""
    if not mapping:
        return text
    pattern = "|".join(re.escape(n) for n in sorted(mapping, key=len, reverse=True))
    return re.sub(rf"(?<![\w'])({pattern})(?![\w'])", lambda m: mapping[m.group(1)], text)


class ProofExport:
    """The Coq file of one proof: one theorem per exported step, in order."""

    def __init__(self, proof: Proof) -> None:
        self.proof = proof
        self.done: dict[str, Exported] = {}

    def variables(self, relations: Iterable[Rel], extra: Iterable[str] = (),
                  naturals: frozenset[str] = frozenset()) -> list[str]:
        """The declared names used: vectors, then naturals, then reals, in declaration order."""
        used = set(extra)
        for relation in relations:
            used |= printer.names_in(relation, self.proof.names)
        names = [n for n in (*self.proof.vectors, *self.proof.scalars) if n in used]
        vectors = [n for n in names if n in self.proof.names.vectors]
        return [*vectors, *(n for n in names if n in naturals),
                *(n for n in names if n not in naturals and n not in vectors)]

    def binder(self, variables: Sequence[str], naturals: frozenset[str] = frozenset()) -> str:
        vectors = [name(v) for v in variables if v in self.proof.names.vectors]
        nats = [name(s) for s in variables if s in naturals]
        scalars = [name(s) for s in variables
                   if s in self.proof.names.scalars and s not in naturals]
        groups = [f"({' '.join(g)} : {t})" for g, t in
                  ((vectors, "V"), (nats, "nat"), (scalars, "R")) if g]
        return f"forall {' '.join(groups)}," if groups else ""

    def imported(self, step: Step) -> list[str]:
        """The steps whose statements `step` imports as they are (its uses without `with`,
        transitively), in proof order.

        An instantiated use is applied to its substituted arguments instead (`_step`); the
        steps it uses are not reached through it (their substituted claims are among its
        premises, or derived inside its theorem)."""
        closure: set[str] = set()
        stack = [u.step for u in step.uses if not u.with_]
        while stack:
            used = stack.pop()
            if used not in closure:
                closure.add(used)
                stack.extend(u.step for u in self.proof.step(used).uses if not u.with_)
        return [s.id for s in self.proof.steps if s.id in closure]

    def derivable(self, step: Step) -> list[str]:
        """Imported steps (see `imported`) whose claims come from their theorems (an
        induction's claim holds at run states only: it stays a premise)."""
        return [
            s for s in self.imported(step)
            if (e := self.done.get(s)) is not None and e.theorem and not e.induction
        ]

    def step(self, proved: ProvedStep) -> Exported:
        """Export one proved step (or record why it cannot be)."""
        try:
            exported = self._step(proved)
        except (Unsupported, ExpressionError, KernelError) as error:
            exported = Exported(proved.step.id, None, reason=str(error))
        self.done[proved.step.id] = exported
        return exported

    def substituted(self, used_id: str, substitution: Mapping[str, object]
                 ) -> tuple[tuple[Rel, ...], Rel]:
        """The premises and claim of a used theorem with `substitution` applied (the
        kernel's own substitution, so they are the relations of this step's statement)."""
        used = self.done[used_id]
        assert used.claim is not None
        stated = Statement(used_id, used.hypotheses, ("",) * len(used.hypotheses), used.claim,
                           used.naturals)
        try:
            substituted = instance(stated, substitution)
        except KernelError as error:
            raise Unsupported(f"instantiating {used_id}: {error}") from None
        return substituted.hypotheses, substituted.claim

    def inherit(self, step: Step,
                printed: dict[Rel, tuple[Rel, Mapping[str, object]]]) -> None:
        """Add the substituted relations of each step used as it is (no `with`): the kernel
        imports a used statement whole, so an instance's substituted hypotheses and claim
        that it holds are hypotheses here too, printed as there (source text and terms)."""
        for use in step.uses:
            used = self.done.get(use.step)
            if used is not None and not use.with_:
                for relation, source in used.printed.items():
                    printed.setdefault(relation, source)

    def _step(self, proved: ProvedStep) -> Exported:
        step, st = proved.step, proved.statement
        exists = tuple(getattr(st, "exists", ()))
        if set(exists) != set(proved.witness):
            raise Unsupported(f"the claim says some {', '.join(exists)} exist; the witness "
                              f"names {', '.join(sorted(proved.witness)) or 'none'}")
        derived = self.derivable(step)
        applications: list[tuple[str, Mapping[str, object]]] = [(s, {}) for s in derived]
        # a substituted premise of this statement, printed from its original text
        printed: dict[Rel, tuple[Rel, Mapping[str, object]]] = {}
        claims = {self.done[s].claim for s in derived}
        instances = list(proved.instances)
        for s in self.imported(step):  # an instance an imported step applies, applied here
            if (e := self.done.get(s)) is not None:  # too: its claim is imported with it
                instances += [i for i in e.instances if i not in instances]
        own: list[tuple[str, Mapping[str, object]]] = []
        for used_id, substitution in instances:
            used = self.done.get(used_id)
            if used is None or used.claim is None:
                continue  # not exported: its substituted statement stays assumed
            if (used_id, substitution) in proved.instances:
                own.append((used_id, substitution))
            hyps, claim = self.substituted(used_id, substitution)
            for original, relation in zip((*used.hypotheses, used.claim), (*hyps, claim),
                                          strict=True):
                # a relation the used step inherited from an instance, left as it is (the
                # kernel substitutes no name an inherited hypothesis reads): printed as there
                kept = (relation.lhs, relation.rhs) == (original.lhs, original.rhs)
                printed[relation] = (used.printed[original] if kept and original in used.printed
                                     else (original, substitution))
            claims.add(claim)
            applications.append((used_id, substitution))
        self.inherit(step, printed)
        given = {h for h, o in zip(st.hypotheses, st.origins, strict=True) if not o}
        derived_claims = claims - given  # type: ignore[operator]
        hypotheses = tuple(h for h in st.hypotheses if h not in derived_claims)
        main = [g for g in proved.goals if g.obligation.written is not None]
        sides = [g for g in proved.goals if g.obligation.written is None]
        theorem = ident(step.id)
        header = f"(* {_comment(step.id)}: {_comment(str(st))} *)\n"
        if isinstance(step.rule, Induction):
            return self.induction(proved, hypotheses, applications, derived_claims, main,
                                  sides, header, printed, tuple(own))
        naturals = st.naturals
        split = _term_names(step.rule.on) if isinstance(step.rule, CaseSplit) else set()
        for term in (*proved.witness.values(), *(
                t for _, substitution in proved.instances for t in substitution.values())):
            split |= _term_names(term)
        local = set(exists) | {n for s in derived for n in self.done[s].exists}  # destructed
        for relation in printed:  # its text (`... [a := w]`) is not source: read its terms
            split |= {n for side in (relation.lhs, relation.rhs) for sym in side.free_symbols
                      for n in gram_pair(sym) or (sym.name,)}
        stated = [r for r in (*st.hypotheses, st.claim) if r not in printed]
        variables = [v for v in self.variables(stated, split, naturals=naturals)
                     if v not in local]
        names = {h: f"hyp'{i}" for i, h in enumerate(hypotheses)}
        vectors = [v for v in variables if v in self.proof.names.vectors]
        script = _Script(self.proof, vectors, names,
                         {g.obligation.judgement.claim: g for g in sides})
        intros = self.introduce(script, variables, naturals, list(names.values()),
                                applications, derived_claims, vectors)
        if isinstance(step.rule, Direct):
            if len(main) != 1:
                raise Unsupported(f"{len(main)} main obligations for a direct step")
            claim_fact = main[0].obligation.judgement.claim
            label = script.replay(main[0])
        elif isinstance(step.rule, CaseSplit):
            claim_fact = main[0].obligation.judgement.claim
            label = self.cases(script, step.rule, main)
        else:
            raise Unsupported(f"rule {type(step.rule).__name__}")
        claim = st.claim
        if exists:  # the goal becomes the claim at the witness: the obligation's claim
            script.emit("exists " + ", ".join(
                self.coq_term(proved.witness[n], n, vectors, {}) for n in exists) + ".")
            claim = main[0].obligation.written[1]  # type: ignore[index]
        script.conclude(claim, label, claim_fact)
        as_real = {n: f"(INR {name(n)})" for n in intros}
        shown = Written(self.proof.names, as_real)

        def text(relation: Rel) -> str:
            parts = (self.instance_text(printed[relation], vectors, as_real)
                     if relation in printed else shown.relation(relation))
            if parts is None:
                raise Unsupported(f"{relation.text!r} has no source text to state")
            return " ".join(parts)

        body = "".join(f"{text(h)} ->\n    " for h in hypotheses)
        conclusion = text(st.claim)
        if exists:
            binders = self.binder(exists).removeprefix("forall ").removesuffix(",")
            conclusion = f"exists {binders}, {conclusion}"
        statement = f"{self.binder(variables, naturals)}\n    {body}{conclusion}"
        out = (f"{header}Theorem {theorem} : {statement}.\nProof.\n"
               + "\n".join(script.lines) + "\nQed.\n")
        return Exported(step.id, theorem, out, hypotheses=hypotheses,
                        variables=tuple(variables), naturals=naturals, claim=st.claim,
                        exists=exists, printed=printed, instances=tuple(own))

    def coq_term(self, term: object, zero_of: str, vectors: Sequence[str],
                 naturals: Mapping[str, str]) -> str:
        """A substitution's or witness's term in Coq: a vector (its zero as `vscal 0` of a
        vector in scope) or a scalar; each natural name printed as `naturals` says."""
        if isinstance(term, Mapping) and not term:
            if not vectors:
                raise Unsupported("a zero vector with no vector in scope to print it by")
            zero_of = vectors[0]
        mapping = {name(n): text for n, text in naturals.items()}
        return _substituted(_term(term, zero_of), mapping)

    def instance_text(self, printed: tuple[Rel, Mapping[str, object]], vectors: Sequence[str],
                      naturals: Mapping[str, str]) -> tuple[str, str, str]:
        """A substituted premise, printed from its source relation with the terms in place
        of the names: what Coq's instantiation of the used theorem's binders gives."""
        source, substitution = printed
        texts = {k: self.coq_term(v, k, vectors, naturals) for k, v in substitution.items()}
        is_vector = self.proof.names.vectors
        parts = Written(self.proof.names,
                        {**naturals, **{k: v for k, v in texts.items() if k not in is_vector}},
                        {k: v for k, v in texts.items() if k in is_vector}).relation(source)
        if parts is None:
            raise Unsupported(f"{source.text!r} has no source text to substitute into")
        return parts

    def introduce(self, script: _Script, variables: Sequence[str], naturals: frozenset[str],
                  premises: list[str], applications: Sequence[tuple[str, Mapping[str, object]]],
                  claims: set[Rel], zero_by: Sequence[str]) -> dict[str, str]:
        """The opening of every exported proof (a direct step's, an induction lemma's): `intros`
        of its variables (a natural by a fresh `nat` name) and `premises`, the used theorems
        applied (`apply_uses`; a zero vector written by one of `zero_by`), then each natural
        read as the real `INR n` from there on, its `0 <= n` from `pos_INR` among the facts.
        Returns each natural's `nat` name."""
        intros = {v: f"nat'{i}" for i, v in enumerate(v for v in variables if v in naturals)}
        script.emit("intros " + " ".join([intros.get(v, name(v)) for v in variables]
                                         + premises) + ".")
        in_proof = {n: f"(INR {nat})" for n, nat in intros.items()}
        self.apply_uses(script, applications, claims, intros,
                        lambda term, zero: self.coq_term(term, zero, zero_by, in_proof))
        for natural, nat in intros.items():
            fact = script.new("natge")
            script.emit(f"pose proof (pos_INR {nat}) as {fact}. "
                        f"set ({name(natural)} := INR {nat}) in *. clearbody {name(natural)}.")
            script.facts[_nat_fact(natural)] = fact
        return intros

    def apply_uses(self, script: _Script,
                   applications: Sequence[tuple[str, Mapping[str, object]]],
                   claims: set[Rel], intros: dict[str, str],
                   term: Callable[[object, str], str] | None = None) -> None:
        """`pose proof` of each used theorem, instantiated with this step's names (a
        natural by its `nat`, before it is replaced by the real `INR t`), or with the terms
        of its substitution; an existential claim is destructed into its witness's names.
        A theorem is applied once its premises are in context (one may need another's
        claim), until none is left to apply."""
        pending = list(applications)
        while pending:
            left = []
            for used_id, substitution in pending:
                if not self.apply(script, used_id, substitution, claims, intros, term):
                    left.append((used_id, substitution))
            if len(left) == len(pending):
                used_id, substitution = left[0]
                used = self.done[used_id]
                hypotheses = (self.substituted(used_id, substitution)[0] if substitution
                              else used.hypotheses)
                missing = next(h.text for h in hypotheses if h not in script.hyps)
                raise Unsupported(f"applying {used_id} needs {missing!r}")
            pending = left

    def apply(self, script: _Script, used_id: str, substitution: Mapping[str, object],
              claims: set[Rel], intros: dict[str, str],
              term: Callable[[object, str], str] | None) -> bool:
        """Apply one used theorem (see `apply_uses`); False while a premise is missing."""
        used = self.done[used_id]
        hypotheses, claim = used.hypotheses, used.claim
        if substitution:
            hypotheses, claim = self.substituted(used_id, substitution)
        if claim not in claims or claim in script.hyps:
            return True
        renamed = {v: str(t) for v, t in substitution.items() if v in used.naturals}
        if any((renamed.get(v, v) in intros) != (v in used.naturals) for v in used.variables):
            raise Unsupported(f"{used_id} binds a name as a natural where this step does not "
                              "(or the reverse)")
        if any(h not in script.hyps for h in hypotheses):
            return False
        args = []
        for v in used.variables:
            if v in renamed:
                args.append(intros[renamed[v]])
            elif v in substitution:
                assert term is not None
                args.append(term(substitution[v], v))
            else:
                args.append(intros.get(v, name(v)))
        args += [script.hyps[h] for h in hypotheses]
        label = script.new("use")
        script.emit(f"pose proof ({used.theorem} {' '.join(args)}) as {label}.")
        if used.exists:
            pattern = label
            for n in reversed(used.exists):
                pattern = f"[{name(n)} {pattern}]"
            script.emit(f"destruct {label} as {pattern}.")
        script.hyps[claim] = label  # type: ignore[index]
        return True

    def cases(self, script: _Script, rule: CaseSplit, goals: list[Goal]) -> str:
        """Destruct the trichotomy (or dichotomy) of the split polynomial; replay each case."""
        claim = goals[0].obligation.judgement.claim
        cases = [g.obligation.written[0][-1] for g in goals]  # type: ignore[index]
        ops = [c.op for c in cases]
        if ops != ([">", "==", "<"] if rule.zero_case else [">=", "<"]):
            raise Unsupported(f"cases {ops} are not the trichotomy (or dichotomy) in order")
        on = script.relation_text(cases[0])[0]
        lemma = "trichotomy" if rule.zero_case else "dichotomy"
        pattern = "[case' | [case' | case']]" if rule.zero_case else "[case' | case']"
        label = script.new("g")
        script.emit(f"assert ({label} : {_prop(claim)}).")
        script.emit(f"{{ destruct ({lemma} {on}) as {pattern}.")
        for case, goal in zip(cases, goals, strict=True):
            saved = (dict(script.facts), dict(script.hyps), set(script.nonzero), script.indent)
            script.hyps[case] = "case'"
            script.emit(f"- (* case {_comment(case.text)} *)")
            script.indent += "  "
            inner = script.replay(goal)
            script.emit(f"exact {inner}.")
            script.facts, script.hyps, script.nonzero, script.indent = saved
        script.emit("}")
        script.facts[claim] = label
        return label

    # -- induction over runs ------------------------------------------------------------------

    def induction(self, proved: ProvedStep, hypotheses: tuple[Rel, ...],
                  applications: list[tuple[str, Mapping[str, object]]], derived_claims: set[Rel],
                  main: list[Goal], sides: list[Goal], header: str,
                  printed: dict[Rel, tuple[Rel, Mapping[str, object]]],
                  instances: tuple[tuple[str, Mapping[str, object]], ...]) -> Exported:
        """Base and step lemmas over `R`, then the theorem over `nat` (see `over_nat`)."""
        step, st = proved.step, proved.statement
        rule = step.rule
        assert isinstance(rule, Induction)
        t = rule.variable
        naturals = frozenset(st.naturals - {t})  # bound as `nat` (a sequence of them over nat)
        labels = [g.obligation.label for g in main]
        split = rule.split
        expected = ["base", "step"] if split is None else ["base", *(
            f"step, case {split.text or split.on} {op} 0"
            for op in ((">", "==", "<") if split.zero_case else (">=", "<")))]
        if labels != expected:
            raise Unsupported(f"induction obligations {labels}, expected {expected}")
        base, after, steps = main[0], main[1], main[1:]
        count = len(st.hypotheses)
        given = after.obligation.written[0]  # type: ignore[index]
        if split is not None:  # each case's obligation: the step's hypotheses, then the case
            given = given[:-1]
        if given[:count] != st.hypotheses or given[count + 1] != st.claim:
            raise Unsupported("the step obligation is not hypotheses, t >= 0, invariant, update")
        natural, update = given[count], given[count + 2:]
        carried = update[:len(update) - len(rule.hypotheses)]  # invariants of the same runs
        sources = []
        for relation in carried:
            source = next((e for e in self.done.values()
                           if e.run is not None and e.claim == relation), None)
            if source is None:
                raise Unsupported(f"the carried invariant {relation.text!r} has no exported "
                                  "theorem over the same runs")
            sources.append(source)
        extra = {t, *rule.base, *rule.step, *(_term_names(split.on) if split else ())}
        for mapping in (rule.base, rule.step):
            for value in mapping.values():
                extra |= _term_names(value)
        for relation in printed:  # its text (`... [a := w]`) is not source: read its terms
            extra |= {n for side in (relation.lhs, relation.rhs) for sym in side.free_symbols
                      for n in gram_pair(sym) or (sym.name,)}
        for _, substitution in applications:
            for value in substitution.values():
                extra |= _term_names(value)
        stated = [r for r in (*st.hypotheses, st.claim, *update) if r not in printed]
        variables = self.variables(stated, extra, naturals=naturals)
        iterated = set(rule.base) | set(rule.step) | {t}
        reads = {n for r in update for s in (*r.lhs.free_symbols, *r.rhs.free_symbols)
                 for n in gram_pair(s) or (s.name,)}
        for value in rule.step.values():
            reads |= _term_names(value)
        sequences = [v for v in variables if v in iterated - {t}
                     or (v in reads - iterated - set(rule.constants))]
        # a zero vector in an instance is printed by a vector of the run's constants, the
        # same in the lemmas and over nat (their premises must be the same terms)
        zero_by = [v for v in variables if v in self.proof.names.vectors and v not in sequences]
        texts = [
            self.induction_lemma(proved, goals, variables, prefix, (*hypotheses, *more),
                                 applications, derived_claims, sides, printed, zero_by,
                                 naturals)
            for goals, prefix, more in (([base], "base", ()),
                                        (steps, "step", (natural, st.claim, *update)))
        ]
        facts = update[len(carried):]
        text, run = self.over_nat(step, variables, hypotheses, sequences, facts, st.claim,
                                  printed, zero_by, sources, naturals)
        texts.append(text)
        return Exported(step.id, ident(step.id), header + "\n".join(texts),
                        hypotheses=hypotheses, variables=tuple(variables),
                        naturals=st.naturals, claim=st.claim, induction=True, run=run,
                        printed=printed, instances=instances)

    def induction_lemma(
        self,
        proved: ProvedStep,
        goals: list[Goal],
        variables: list[str],
        label: str,
        premises: tuple[Rel, ...],
        applications: list[tuple[str, Mapping[str, object]]],
        derived_claims: set[Rel],
        sides: list[Goal],
        printed: dict[Rel, tuple[Rel, Mapping[str, object]]],
        zero_by: list[str],
        naturals: frozenset[str] = frozenset(),
    ) -> str:
        """The base or step obligation of an induction as a lemma over `R` of its own (a
        split step: its cases, destructed as a case split's). A natural besides the counter
        is bound as a `nat` and read through `INR`, as in a direct step (the counter is
        a real here: the step lemma assumes `t >= 0`, as its obligation does)."""
        step = proved.step
        rule = step.rule
        assert isinstance(rule, Induction)
        names = {h: f"hyp'{i}" for i, h in enumerate(premises)}
        conditions = {g.obligation.judgement.claim: g for g in sides
                      if g.obligation.label.startswith(f"{label}: ")}
        vectors = [v for v in variables if v in self.proof.names.vectors]
        script = _Script(self.proof, vectors, names, conditions)
        intros = self.introduce(script, variables, naturals, list(names.values()),
                                applications, derived_claims, zero_by)
        as_real = {n: f"(INR {name(n)})" for n in intros}
        real = {name(n): text for n, text in as_real.items()}
        goal = goals[0]
        split = rule.split if label == "step" else None
        fact_label = (script.replay(goal) if split is None
                      else self.cases(script, split, goals))
        at_base = label == "base"
        mapping = rule.base if at_base else rule.step
        t = rule.variable
        declared = self.proof.names.vectors
        shown = Written(self.proof.names,
                        {**as_real, t: "0" if at_base else f"({name(t)} + 1)",
                         **{n: _substituted(_term(v, n), real) for n, v in mapping.items()
                            if n not in declared}},
                        {n: _substituted(_term(v, n), real) for n, v in mapping.items()
                         if n in declared})
        claim = shown.relation(proved.statement.claim)
        if claim is None:
            raise Unsupported("the invariant has no source text to substitute into")
        written_claim = goal.obligation.written[1]  # type: ignore[index]
        script.conclude(written_claim, fact_label, goal.obligation.judgement.claim, claim)
        def text(relation: Rel) -> str:
            if relation in printed:
                return " ".join(self.instance_text(printed[relation], zero_by, as_real))
            if not as_real:
                return " ".join(script.relation_text(relation))
            parts = Written(self.proof.names, as_real).relation(relation)
            if parts is None:
                raise Unsupported(f"{relation.text!r} has no source text to state")
            return " ".join(parts)

        body = "".join(f"{text(h)} ->\n    " for h in premises)
        statement = f"{self.binder(variables, naturals)}\n    {body}{' '.join(claim)}"
        return (f"Lemma {ident(step.id)}_{label} : {statement}.\nProof.\n"
                + "\n".join(script.lines) + "\nQed.\n")

    def over_nat(self, step: Step, variables: list[str], hypotheses: tuple[Rel, ...],
                 sequences: list[str], update: Sequence[Rel], invariant: Rel,
                 printed: dict[Rel, tuple[Rel, Mapping[str, object]]],
                 zero_by: list[str], carried: Sequence[Exported] = (),
                 naturals: frozenset[str] = frozenset()) -> tuple[str, Run]:
        """The induction as a theorem over `nat`, the kernel's semantics of a run.

        A run has a length `N'`, its number of updates, and the theorem is about its states
        `n' <= N'`: the update equations and facts are premises at the updates `n' < N'`
        only. A run that must stop (a mistake bound, a termination argument) cannot satisfy
        update facts at every index, so premises over all of `nat` would be contradictory
        and the theorem vacuous; over a finite run they are what the kernel assumes.

        The iterated vectors and the per-update names (read by the update, not iterated, not
        the counter, not declared constant) are sequences indexed by the number of updates
        `n'`; every other name is a constant of the run; the counter is `INR n'`. The base
        and step lemmas hold for all values, so each `n'` instantiates them; an invariant
        carried from another induction over the same runs is that induction's theorem at
        `n'`, applied to this run of the same length (derived, not assumed). A natural
        besides the counter is a constant `nat`, read through `INR` and given as it is to
        the lemmas.
        """
        rule = step.rule
        assert isinstance(rule, Induction)
        t = rule.variable
        vectors = self.proof.names.vectors
        as_real = {k: f"(INR {name(k)})" for k in naturals}

        def at(index: str) -> tuple[dict[str, str], dict[str, str]]:
            scalars = {s: f"({name(s)} {index})" for s in sequences if s not in vectors}
            scalars |= {k: f"(INR {scalars[k]})" if k in scalars else text
                        for k, text in as_real.items()}
            scalars[t] = "0" if index == "0%nat" else f"(INR {index})"
            vecs = {v: f"({name(v)} {index})" for v in sequences if v in vectors}
            return scalars, vecs

        def term_at(v: object, zero_of: str, index: str) -> str:
            # the lemma's own printing, names then replaced: both sides stay syntactically equal
            scalars, vecs = at(index)
            mapping = {name(k): value for k, value in {**scalars, **vecs}.items()}
            return _substituted(_term(v, zero_of), mapping)

        def written(relation: Rel, index: str) -> str:
            scalars, vecs = at(index)
            parts = Written(self.proof.names, scalars, vecs).relation(relation)
            if parts is None:
                raise Unsupported(f"{relation.text!r} has no source text to restate over nat")
            return " ".join(parts)

        n = "n'"
        earlier = f"(Nat.lt_le_incl _ _ {BOUND})"  # n' <= N from S n' <= N: the state before
        constants = [v for v in variables if v not in sequences and v != t]
        const_v = [name(v) for v in constants if v in vectors]
        const_n = [name(v) for v in constants if v in naturals]
        const_s = [name(v) for v in constants if v not in vectors and v not in naturals]
        seq_v = [name(v) for v in sequences if v in vectors]
        seq_n = [name(v) for v in sequences if v in naturals]
        seq_s = [name(v) for v in sequences if v not in vectors and v not in naturals]
        groups = [f"({' '.join(g)} : {ty})" for g, ty in (
            (const_v, "V"), (const_n, "nat"), (const_s, "R"), (seq_v, "nat -> V"),
            (seq_n, "nat -> nat"), (seq_s, "nat -> R")) if g]
        hyps = [" ".join(self.instance_text(printed[h], zero_by, as_real) if h in printed
                         else Written(self.proof.names, as_real).relation(h) or ())
                for h in hypotheses]
        if any(not h for h in hyps):
            raise Unsupported("a hypothesis has no source text to restate over nat")
        base = [f"{name(v)} 0%nat = {term_at(rule.base[v], v, '0%nat')}" for v in rule.base]
        before = f"forall {n}, ({n} < {LENGTH})%nat ->"  # the updates of a run of LENGTH
        nxt = [f"({before} {name(v)} (S {n}) = {term_at(rule.step[v], v, n)})"
               for v in rule.step]
        facts = [f"({before} {written(h, n)})" for h in update]
        premises = [*hyps, *base, *nxt, *facts]
        body = "".join(f"{h} ->\n    " for h in premises)
        statement = (f"forall {' '.join([*groups, f'({LENGTH} : nat)'])},\n    {body}"
                     f"forall {n}, ({n} <= {LENGTH})%nat -> {written(invariant, n)}")

        def args(index: str, base_case: bool) -> str:
            out = []
            for v in variables:
                if v == t:
                    out.append("0" if base_case else f"(INR {index})")
                elif v in sequences:
                    out.append(f"({name(v)} {index})")
                else:
                    out.append(name(v))
            return " ".join(out)

        h_names = [f"hyp'{i}" for i in range(len(hyps))]
        b_names = [f"base'{i}" for i in range(len(base))]
        s_names = [f"next'{i}" for i in range(len(nxt))]
        u_names = [f"upd'{i}" for i in range(len(facts))]
        intro = [*const_v, *const_n, *const_s, *seq_v, *seq_n, *seq_s, LENGTH, *h_names,
                 *b_names, *s_names, *u_names]
        theorem = ident(step.id)
        binders = tuple(v for group in (
            [v for v in constants if v in vectors], [v for v in constants if v in naturals],
            [v for v in constants if v not in vectors and v not in naturals],
            [v for v in sequences if v in vectors], [v for v in sequences if v in naturals],
            [v for v in sequences if v not in vectors and v not in naturals]) for v in group)
        run = Run(binders, hypotheses, tuple(rule.base), tuple(rule.step), tuple(update),
                  frozenset(sequences), naturals)

        def label(items: Sequence[object], names: list[str], item: object, what: str) -> str:
            if item not in items:
                raise Unsupported(f"the carried invariant needs {what} this run lacks")
            return names[list(items).index(item)]

        invariants = []
        for other in carried:
            assert other.run is not None
            used = [*(name(v) for v in other.run.binders), LENGTH]  # the same run, as long
            used += [label(hypotheses, h_names, h, "a hypothesis") for h in other.run.hypotheses]
            used += [label(list(rule.base), b_names, k, "a base") for k in other.run.base]
            used += [label(list(rule.step), s_names, k, "an update") for k in other.run.step]
            used += [label(update, u_names, u, "an update fact")  # its forall, not at n
                     for u in other.run.update]
            invariants.append(f"({other.theorem} {' '.join(used)} {n} {earlier})")
        lines = [
            f"Theorem {theorem} : {statement}.",
            "Proof.",
            f"  intros {' '.join(intro)} {n}. induction {n} as [| {n} IH]; "
            f"intros {BOUND}.",
            # each equation once, where its name occurs (an iterated name the invariant does
            # not read leaves nothing to rewrite; `rewrite ?` would loop on `w 0 = 0 * w 0`)
            "  -" + "".join(f" try rewrite {b}." for b in b_names),
            f"    exact ({theorem}_base {args('0%nat', True)} {' '.join(h_names)}).",
            # `S n' <= N` is `n' < N` by definition: the update n' is one of the run's
            "  -" + "".join(f" try rewrite ({s} {n} {BOUND})." for s in s_names)
            + " try rewrite S_INR.",
            f"    exact ({theorem}_step {args(n, False)} {' '.join(h_names)} "
            f"(Rle_ge _ _ (pos_INR {n})) (IH {earlier}) {' '.join(invariants)} "
            f"{' '.join(f'({u} {n} {BOUND})' for u in u_names)}).",
            "Qed.",
        ]
        return "\n".join(lines) + "\n", run


def export_proof(proof: Proof, reports: Iterable[object]) -> list[Exported]:
    """Every step of `proof`, in order: exported, or the reason it is not."""
    exporter = ProofExport(proof)
    out = []
    for report in reports:
        proved = proved_step(report)
        step = report.step  # type: ignore[attr-defined]
        if proved is None:
            exported = Exported(step.id, None, reason="not proved by our kernel")
            exporter.done[step.id] = exported
        else:
            exported = exporter.step(proved)
        out.append(exported)
    return out
