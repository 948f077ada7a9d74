"""Proved steps as Coq theorems, proved by replaying our certificates (issue 18).

Each proved step becomes one `Theorem` stated as written (scalars in `R`, vectors in `V`,
`dot(a, b)` as `ip a b`, divisions as in the statement). Its proof replays the kernel's
evidence, nothing else: each hypothesis is turned into its fact `p (kind) 0` by one bridge
lemma and an identity (`ring`, or `field` where something divides); each certificate is
replayed as `m * claim = sum of terms` (identity by `ring`/`field`) with every term's sign
given by an explicit proof term (products of hypotheses, `pow2_ge_0`, the preamble's Gram
lemmas); the claim as written is then recovered by one bridge lemma. Structural rules: a
case split destructs the trichotomy (a disjunction) and replays each case; `uses` applies
the used step's theorem; an induction is a theorem over `nat` (iterates and per-update values
as sequences) proved from its base and step obligations, exported as lemmas.

The checker's reports are read in one place only, `proved_step` (the adapter).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from proofs.division import admit, clear, denominators, required
from proofs.expressions import ExpressionError, Relation
from proofs.judgement import Fact, Judgement
from proofs.normal_form import fact_of
from proofs.step import CaseSplit, Direct, Induction, Proof, Step
from proofs.terms import Vec
from verify.certificate import Certificate, GramMinor, NormSquare, Square
from verify.coq import printer
from verify.coq.printer import Written, expr, ident, name, number

FACT_LEMMA = {">=": "replay_ge", ">": "replay_gt", "==": "replay_eq"}
HYP_LEMMA = {"<=": "fact_le", "<": "fact_lt", ">=": "fact_ge", ">": "fact_gt", "==": "fact_eq"}
CLAIM_LEMMA = {
    "<=": "claim_le", "<": "claim_lt", ">=": "claim_ge", ">": "claim_gt", "==": "claim_eq",
}


class Unsupported(ValueError):
    """A proved step this exporter cannot state or replay; the message says what."""


@dataclass(frozen=True)
class Obligation:
    """One judgement of a step, in relation form and in kernel form, with its certificate."""

    label: str
    hypotheses: tuple[Relation, ...]
    claim: Relation
    judgement: Judgement
    certificate: Certificate


@dataclass(frozen=True)
class ProvedStep:
    """A proved step and the certified judgements that establish it."""

    step: Step
    obligations: tuple[Obligation, ...]


def proved_step(report: object) -> ProvedStep | None:
    """The adapter: a checker step report as a `ProvedStep`, or None if it is not proved.

    The only code that reads `verify.proof_checker.StepReport` (its `step`, `status` and
    `goals`, each with `goal`, `judgement`, `verdict.certificate`): re-point it here when the
    kernel's `Theorem` values replace those reports.
    """
    if getattr(report, "status", None) != "proved":
        return None
    obligations = []
    for goal_report in report.goals:  # type: ignore[attr-defined]
        certificate = goal_report.verdict.certificate
        if certificate is None:
            return None
        goal = goal_report.goal
        obligations.append(
            Obligation(goal.label, goal.hypotheses, goal.claim, goal_report.judgement,
                       certificate)
        )
    return ProvedStep(report.step, tuple(obligations))  # type: ignore[attr-defined]


@dataclass
class Exported:
    """One step in the Coq file: its theorem (None when not exported, with the reason)."""

    step_id: str
    theorem: str | None
    text: str = ""
    reason: str = ""
    hypotheses: tuple[Relation, ...] = ()
    variables: tuple[str, ...] = ()
    induction: bool = False
    lemmas: tuple[str, ...] = field(default_factory=tuple)


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


def _fold(terms: Sequence[_Term], combine: object) -> _Term:
    out = terms[-1]
    for term in reversed(terms[:-1]):
        out = combine(term, out)  # type: ignore[operator]
    return out


def _prop(fact: Fact) -> str:
    p = expr(fact.expr)
    return {">=": f"0 <= {p}", ">": f"0 < {p}", "==": f"{p} = 0"}[fact.kind]


def _identity(*texts: str) -> str:
    """`ring`, or `field` (denominators discharged from hypotheses) where anything divides."""
    if any("/" in t for t in texts):
        return "field; nz_solve"
    return "ring"


class _Script:
    """The proof script of one lemma: facts are derived once and named."""

    def __init__(
        self,
        proof: Proof,
        vectors: Sequence[str],
        hyps: dict[Relation, str],
        conditions: dict[Relation, Obligation],
    ) -> None:
        self.proof = proof
        self.vectors = list(vectors)
        self.hyps = dict(hyps)
        self.conditions = conditions
        self.facts: dict[Fact, str] = {}
        self.nonzero: set[sympy.Expr] = set()
        self.lines: list[str] = []
        self.fresh = itertools.count()
        self.cleared = {clear(h): h for h in hyps if _divides(h, proof)}
        self.indent = "  "

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

    def relation_text(self, relation: Relation) -> tuple[str, str, str]:
        """A relation as written (or from its SymPy form when it has no source text)."""
        written = Written(self.proof.names).relation(relation)
        if written is not None:
            return written
        return expr(relation.lhs), printer.COQ_OP[relation.op], expr(relation.rhs)

    def clearing(self, relation: Relation) -> tuple[str, str]:
        """The positive factor `f` that clears `relation`'s denominators, and its proof."""
        found = denominators(sympy.Tuple(relation.lhs, relation.rhs))
        for d in required(relation, self.proof.names):
            self.condition(d)  # every divisor's `<> 0`, for field's side conditions
        if not found:
            return "1", "Rlt_0_1"
        terms = [_Term(expr(sympy.expand(d)), self.condition(d), True) for d in found]
        out = _fold(terms, _times)
        return out.text, out.proof

    def condition(self, d: sympy.Expr) -> str:
        """The fact `0 < d` (from its side goal) and, once, a hypothesis `base <> 0`."""
        relation = Relation(d, ">", sympy.Integer(0), f"{d} > 0")
        fact = fact_of(relation)
        label = self.facts.get(fact)
        if label is None:
            obligation = self.conditions.get(relation)
            if obligation is None:
                raise Unsupported(f"no side condition proves {d} > 0")
            label = self.replay(obligation)
        if d not in self.nonzero:
            self.nonzero.add(d)
            base, power = (d.base, int(d.exp)) if d.is_Pow and d.exp.is_Integer else (d, 1)
            nz = self.new("nz")
            self.emit(
                f"assert ({nz} : {expr(base)} <> 0) by (refine (nz_of_pow_pos {expr(base)} "
                f"{power - 1} {expr(fact.expr)} _ {label}); ring)."
            )
        return label

    def fact(self, relation: Relation, fact: Fact) -> str:
        """A name for `fact`, the kernel form of hypothesis `relation`, deriving it once."""
        if fact in self.facts:
            return self.facts[fact]
        if relation in self.hyps:
            source = relation
        elif relation in self.cleared:
            source = self.cleared[relation]
        elif relation in self.conditions:
            return self.replay(self.conditions[relation])
        else:
            raise Unsupported(f"hypothesis {relation.text!r} has no source in the statement")
        if fact_of(clear(source)) != fact:
            raise Unsupported(f"hypothesis {relation.text!r} does not give its kernel fact")
        f, f_proof = self.clearing(source)
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
        weight = _constant(Fraction(entry.weight))  # type: ignore[attr-defined]
        if isinstance(entry, Square):
            p = expr(entry.poly)
            term = _Term(f"({p} ^ 2)", f"(pow2_ge_0 {p})", False)
        else:
            vectors = (entry.vector,) if isinstance(entry, NormSquare) else entry.vectors
            if not isinstance(entry, NormSquare | GramMinor):
                raise Unsupported(f"unknown sigma entry {entry!r}")
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

    def replay(self, obligation: Obligation) -> str:
        """Replay one certificate; returns the name of the claim's fact."""
        judgement, cert = obligation.judgement, obligation.certificate
        if judgement.claim in self.facts:
            return self.facts[judgement.claim]
        facts = judgement.hypotheses
        rels = obligation.hypotheses

        def hyp(i: int) -> _Term:
            label = self.fact(rels[i], facts[i])
            return _Term(expr(facts[i].expr), label, facts[i].kind == ">")

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
            label = self.fact(rels[index], facts[index])
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

    def conclude(self, relation: Relation, fact_label: str, fact: Fact) -> None:
        """Finish the goal `relation` (as stated) from the fact `fact_label`."""
        if fact_of(clear(relation)) != fact:
            raise Unsupported(f"the claim {relation.text!r} is not its kernel fact")
        f, f_proof = self.clearing(relation)
        a, _op, b = self.relation_text(relation)
        self.emit(
            f"refine ({CLAIM_LEMMA[relation.op]} _ _ {f} _ {f_proof} _ {fact_label}); "
            f"{self.ip_norm()}; {_identity(a, b, f, _prop(fact))}."
        )


def _divides(relation: Relation, proof: Proof) -> bool:
    try:
        return bool(required(relation, proof.names))
    except ExpressionError:
        return True


def _comment(text: str) -> str:
    """Text safe inside a Coq comment (no nested openers/closers, no string quotes)."""
    return text.replace("(*", "( *").replace("*)", "* )").replace('"', "'")


class ProofExport:
    """The Coq file of one proof: one theorem per exported step, in order."""

    def __init__(self, proof: Proof) -> None:
        self.proof = proof
        self.done: dict[str, Exported] = {}

    def variables(self, relations: Iterable[Relation], extra: Iterable[str] = ()) -> list[str]:
        """The declared names used, vectors first, each group in declaration order."""
        used = set(extra)
        for relation in relations:
            used |= printer.names_in(relation, self.proof.names)
        return [n for n in (*self.proof.vectors, *self.proof.scalars) if n in used]

    def binder(self, variables: Sequence[str]) -> str:
        vectors = [name(v) for v in variables if v in self.proof.names.vectors]
        scalars = [name(s) for s in variables if s in self.proof.names.scalars]
        groups = [f"({' '.join(g)} : {t})" for g, t in ((vectors, "V"), (scalars, "R")) if g]
        return f"forall {' '.join(groups)}," if groups else ""

    def statement(self, variables: Sequence[str], hyps: Sequence[str], claim: str) -> str:
        body = "".join(f"{h} ->\n    " for h in hyps)
        return f"{self.binder(variables)}\n    {body}{claim}"

    def derivable(self, step: Step) -> list[str]:
        """Used steps (transitively, in proof order) whose claims come from their theorems."""
        closure: set[str] = set()
        stack = list(step.uses)
        while stack:
            used = stack.pop()
            if used not in closure:
                closure.add(used)
                stack.extend(self.proof.step(used).uses)
        order = [s.id for s in self.proof.steps if s.id in closure]
        return [
            s for s in order
            if (e := self.done.get(s)) is not None and e.theorem and not e.induction
        ]

    def step(self, proved: ProvedStep) -> Exported:
        """Export one proved step (or record why it cannot be)."""
        step = proved.step
        try:
            exported = self._step(proved)
        except (Unsupported, ExpressionError) as error:
            exported = Exported(step.id, None, reason=str(error))
        self.done[step.id] = exported
        return exported

    def _step(self, proved: ProvedStep) -> Exported:
        step = proved.step
        rule = step.rule
        derived = self.derivable(step)
        own = set(step.hypotheses)
        derived_claims = {self.proof.step(s).claim for s in derived} - own
        hypotheses = tuple(h for h in self.proof.hypotheses(step) if h not in derived_claims)
        everything = (*self.proof.hypotheses(step), step.claim)
        extra: set[str] = set()
        if isinstance(rule, Induction):
            for relation in rule.hypotheses:
                extra |= printer.names_in(relation, self.proof.names)
            for mapping in (rule.base, rule.step):
                for vector, value in mapping.items():
                    extra |= {vector, *value}
                    for coeff in value.values():
                        extra |= {s.name for s in coeff.free_symbols}
            extra.add(rule.variable)
        variables = self.variables(everything, extra)
        conditions = {o.claim: o for o in proved.obligations if o.label.startswith("denominator")}
        main = [o for o in proved.obligations if not o.label.startswith("denominator")]
        theorem = ident(step.id)
        header = f"(* {_comment(step.id)}: {_comment(self.proof.statement(step))} *)\n"
        if isinstance(rule, Induction):
            texts = []
            for obligation in main:
                texts.append(self.induction_lemma(
                    step, obligation, variables, hypotheses, derived, conditions))
            lemmas = tuple(f"{theorem}_{o.label}" for o in main)
            texts.append(self.over_nat(step, variables, hypotheses))
            return Exported(step.id, theorem, header + "\n".join(texts), hypotheses=hypotheses,
                            variables=tuple(variables), induction=True, lemmas=lemmas)
        names = {h: f"hyp'{i}" for i, h in enumerate(hypotheses)}
        script = _Script(self.proof, [v for v in variables if v in self.proof.names.vectors],
                         names, conditions)
        script.emit("intros " + " ".join([name(v) for v in variables] + list(names.values()))
                    + ".")
        self.apply_uses(script, derived, derived_claims)
        claim_fact = main[0].judgement.claim
        if isinstance(rule, Direct):
            label = script.replay(main[0])
        elif isinstance(rule, CaseSplit):
            label = self.cases(script, rule, main)
        else:
            raise Unsupported(f"rule {type(rule).__name__}")
        script.conclude(step.claim, label, claim_fact)
        hyps = [" ".join(script.relation_text(h)) for h in hypotheses]
        statement = self.statement(variables, hyps, " ".join(script.relation_text(step.claim)))
        text = (f"{header}Theorem {theorem} : {statement}.\nProof.\n"
                + "\n".join(script.lines) + "\nQed.\n")
        return Exported(step.id, theorem, text, hypotheses=hypotheses,
                        variables=tuple(variables))

    def apply_uses(self, script: _Script, derived: list[str], claims: set[Relation]) -> None:
        """`pose proof` of each used theorem, instantiated with this step's names."""
        for used_id in derived:
            used = self.done[used_id]
            claim = self.proof.step(used_id).claim
            if claim not in claims or claim in script.hyps:
                continue
            args = [name(v) for v in used.variables] + [script.hyps[h] for h in used.hypotheses]
            label = script.new("use")
            script.emit(f"pose proof ({used.theorem} {' '.join(args)}) as {label}.")
            script.hyps[claim] = label

    def cases(self, script: _Script, rule: CaseSplit, goals: list[Obligation]) -> str:
        """Destruct the trichotomy (or dichotomy) of the split polynomial; replay each case."""
        claim = goals[0].judgement.claim
        cases = rule.cases()
        on = script.relation_text(cases[0])[0]
        lemma = "trichotomy" if rule.zero_case else "dichotomy"
        pattern = "[case' | [case' | case']]" if rule.zero_case else "[case' | case']"
        label = script.new("g")
        script.emit(f"assert ({label} : {_prop(claim)}).")
        script.emit(f"{{ destruct ({lemma} {on}) as {pattern}.")
        by_case = {o.hypotheses[-1]: o for o in goals}
        for case in cases:
            obligation = by_case.get(case)
            if obligation is None:
                raise Unsupported(f"no certificate for case {case.text}")
            saved = (dict(script.facts), dict(script.hyps), set(script.nonzero), script.indent)
            script.hyps[case] = "case'"
            script.emit(f"- (* case {_comment(case.text)} *)")
            script.indent += "  "
            inner = script.replay(obligation)
            script.emit(f"exact {inner}.")
            script.facts, script.hyps, script.nonzero, script.indent = saved
        script.emit("}")
        script.facts[claim] = label
        return label

    def induction_lemma(
        self,
        step: Step,
        obligation: Obligation,
        variables: list[str],
        hypotheses: tuple[Relation, ...],
        derived: list[str],
        conditions: dict[Relation, Obligation],
    ) -> str:
        """The base or step obligation of an induction as a lemma of its own."""
        rule = step.rule
        assert isinstance(rule, Induction)
        at_base = obligation.label == "base"
        admitted = admit(self.proof.hypotheses(step), step.claim, self.proof.names)
        extra = [] if at_base else list(obligation.hypotheses[len(admitted.hypotheses):])
        all_hyps = (*hypotheses, *extra)
        names = {h: f"hyp'{i}" for i, h in enumerate(all_hyps)}
        vectors = [v for v in variables if v in self.proof.names.vectors]
        script = _Script(self.proof, vectors, names, conditions)
        script.emit("intros " + " ".join([name(v) for v in variables] + list(names.values()))
                    + ".")
        own_claims = {self.proof.step(s).claim for s in derived} - set(step.hypotheses)
        self.apply_uses(script, derived, own_claims)
        label = script.replay(obligation)
        claim = obligation.claim
        written = None
        if rule.substitute(step.claim, at_base=at_base) == claim:
            mapping = rule.base if at_base else rule.step
            t = rule.variable
            scalars = {t: "0" if at_base else f"({name(t)} + 1)"}
            vecs = {n: printer.vector(v, n) for n, v in mapping.items()}
            written = Written(self.proof.names, scalars, vecs).relation(step.claim)
        if written is None:
            written = (expr(claim.lhs), printer.COQ_OP[claim.op], expr(claim.rhs))
        a, op, b = written
        lemma = CLAIM_LEMMA[claim.op]
        script.emit(f"refine ({lemma} _ _ 1 _ Rlt_0_1 _ {label}); {script.ip_norm()}; "
                    f"{_identity(a, b, _prop(obligation.judgement.claim))}.")
        hyps = [" ".join(script.relation_text(h)) for h in all_hyps]
        statement = self.statement(variables, hyps, f"{a} {op} {b}")
        return (f"Lemma {ident(step.id)}_{obligation.label} : {statement}.\nProof.\n"
                + "\n".join(script.lines) + "\nQed.\n")

    def over_nat(self, step: Step, variables: list[str], hypotheses: tuple[Relation, ...]) -> str:
        """The induction as a theorem over `nat`: iterates and per-update values as sequences.

        Constants are the names the invariant or the step's hypotheses mention (they hold at
        every iteration); the iterated vectors and every other name of the update are
        sequences indexed by the number of updates `n'`, the induction variable is `INR n'`.
        The base and step lemmas hold for all values, so each `n'` instantiates them.
        """
        rule = step.rule
        assert isinstance(rule, Induction)
        t = rule.variable
        iterated = set(rule.step) | set(rule.base)
        constants = set()
        for relation in (*hypotheses, step.claim):
            constants |= printer.names_in(relation, self.proof.names)
        constants -= iterated | {t}
        sequences = [v for v in variables if v not in constants and v != t]
        vectors = self.proof.names.vectors

        def at(index: str) -> tuple[dict[str, str], dict[str, str]]:
            scalars = {s: f"({name(s)} {index})" for s in sequences if s not in vectors}
            scalars[t] = "0" if index == "0%nat" else f"(INR {index})"
            vecs = {v: f"({name(v)} {index})" for v in sequences if v in vectors}
            return scalars, vecs

        def vector_at(v: Vec, zero_of: str, index: str) -> str:
            # the lemma's own printing, names then replaced: both sides stay syntactically equal
            scalars, vecs = at(index)
            text = printer.vector(v, zero_of)
            for old, value in {**scalars, **vecs}.items():
                text = re.sub(rf"(?<![\w']){re.escape(name(old))}(?![\w'])", value, text)
            return text

        def written(relation: Relation, index: str) -> str:
            scalars, vecs = at(index)
            parts = Written(self.proof.names, scalars, vecs).relation(relation)
            if parts is None:
                raise Unsupported(f"{relation.text!r} has no source text to restate over nat")
            return " ".join(parts)

        n = "n'"
        const_v = [name(v) for v in variables if v in constants and v in vectors]
        const_s = [name(v) for v in variables if v in constants and v not in vectors]
        seq_v = [name(v) for v in sequences if v in vectors]
        seq_s = [name(v) for v in sequences if v not in vectors]
        groups = [f"({' '.join(g)} : {ty})" for g, ty in (
            (const_v, "V"), (const_s, "R"), (seq_v, "nat -> V"), (seq_s, "nat -> R")) if g]
        hyps = [" ".join(Written(self.proof.names).relation(h) or ()) for h in hypotheses]
        if any(not h for h in hyps):
            raise Unsupported("a hypothesis has no source text to restate over nat")
        base = [f"{name(v)} 0%nat = {vector_at(rule.base[v], v, '0%nat')}" for v in rule.base]
        nxt = [f"(forall {n}, {name(v)} (S {n}) = {vector_at(rule.step[v], v, n)})"
               for v in rule.step]
        update = [f"(forall {n}, {written(h, n)})" for h in rule.hypotheses]
        premises = [*hyps, *base, *nxt, *update]
        body = "".join(f"{h} ->\n    " for h in premises)
        statement = f"forall {' '.join(groups)},\n    {body}forall {n}, {written(step.claim, n)}"

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
        u_names = [f"upd'{i}" for i in range(len(update))]
        intro = [*const_v, *const_s, *seq_v, *seq_s, *h_names, *b_names, *s_names, *u_names]
        theorem = ident(step.id)
        lines = [
            f"Theorem {theorem} : {statement}.",
            "Proof.",
            f"  intros {' '.join(intro)} {n}. induction {n} as [| {n} IH].",
            f"  - rewrite {', '.join(b_names)}." if b_names else "  -",
            f"    exact ({theorem}_base {args('0%nat', True)} {' '.join(h_names)}).",
            f"  - rewrite {', '.join(s_names)}; try rewrite S_INR."
            if s_names else "  - try rewrite S_INR.",
            f"    exact ({theorem}_step {args(n, False)} {' '.join(h_names)} "
            f"(Rle_ge _ _ (pos_INR {n})) IH {' '.join(f'({u} {n})' for u in u_names)}).",
            "Qed.",
        ]
        return "\n".join(lines) + "\n"


def export_proof(proof: Proof, reports: Iterable[object], title: str = "") -> list[Exported]:
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
