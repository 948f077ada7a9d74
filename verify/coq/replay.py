"""Replaying the kernel's evidence in Coq: certificates, facts and the conclusion of a goal.

A proof replays the kernel's evidence, nothing else: each hypothesis becomes its fact
`p (kind) 0` by one bridge lemma and an identity (`ring`, or `field` where something divides;
the reduced denominator `D` of the kernel's normal form is the clearing factor and its
condition `D > 0` is replayed from the side obligation); each certificate is replayed as
`m * claim = sum of terms` (identity by `ring`) with every term's sign given by an explicit
proof term (products of hypotheses, `pow2_ge_0`, the preamble's Gram lemmas); the claim as
written is recovered by one bridge lemma. Evidence in refutation form (`0 > 0` from the
hypotheses and the negated claim) is replayed by contradiction: `by_contra_ge`/`by_contra_gt`
decide the sign of the claim's gap and, in the violating case, the certificate is replayed to
`0 < 0`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce

import sympy

from proofs.step import Proof
from verify.coq import printer
from verify.coq.printer import Written, expr, number
from verify.coq.statement import Goal, Unsupported
from verify.coq.sums import ranges
from verify.coq.sums.within import inside, top_rules
from verify.kernel import (
    Certificate,
    Fact,
    GramMinor,
    Judgement,
    KernelError,
    NormSquare,
    Rel,
    Square,
    SumRule,
    atoms,
    sums,
)
from verify.kernel.algebra import normal_form, reciprocal_bases

FACT_LEMMA = {">=": "replay_ge", ">": "replay_gt", "==": "replay_eq"}
HYP_LEMMA = {"<=": "fact_le", "<": "fact_lt", ">=": "fact_ge", ">": "fact_gt", "==": "fact_eq"}
CLAIM_LEMMA = {
    "<=": "claim_le", "<": "claim_lt", ">=": "claim_ge", ">": "claim_gt", "==": "claim_eq",
}


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


def constant(value: Fraction) -> _Term:
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


def prop(fact: Fact, nat: Mapping[str, str] | None = None) -> str:
    p = expr(fact.expr, nat=nat)
    return {">=": f"0 <= {p}", ">": f"0 < {p}", "==": f"{p} = 0"}[fact.kind]


def identity(*texts: str) -> str:
    """`ring`, or `field` (denominators discharged from hypotheses) where anything divides."""
    if any("/" in t for t in texts):
        return "field; nz_solve"
    return "ring"


def gap_of(relation: Rel) -> sympy.Expr:
    """The gap of the kernel's normal form: `rhs - lhs` for `<=`/`<`, else `lhs - rhs`."""
    if relation.op in ("<=", "<"):
        return relation.rhs - relation.lhs
    return relation.lhs - relation.rhs


def _divides(polynomial: sympy.Expr, divisor: sympy.Expr) -> sympy.Expr | None:
    """`polynomial / divisor` when it is a polynomial (exact over QQ), else None."""
    quotient = sympy.cancel(polynomial / divisor)
    return sympy.expand(quotient) if sympy.fraction(quotient)[1].is_number else None


def _at(text: str, bound: str, value: str) -> str:
    """A printed term with a sum's index (`j'1`) replaced by a value: what `cbv beta` makes
    of it once the sum's function is applied to that value."""
    return re.sub(rf"(?<![\w']){re.escape(bound)}(?![\w'])", value, text)


def _flipped(gram: sympy.Symbol, moved: sympy.Symbol, at: dict[str, sympy.Expr]) -> bool:
    """Whether a Gram symbol's two vectors come in the other order once a sum's index takes
    its value (the kernel sorts them by name): Coq then needs `ip_sym`."""
    pair, after = atoms.gram_pair(gram), atoms.gram_pair(moved)
    if pair is None or after is None:
        return False
    first = pair[0]
    if not atoms.IDENT.fullmatch(first):
        member = atoms.structure(sympy.Symbol(first))
        first = atoms.vector_name(member.family, atoms.substitute(member.index, at, {}))  # type: ignore[union-attr]
    return after[0] != first


def nat_fact(natural: str) -> Fact:
    """The kernel's fact `n >= 0` for a natural n."""
    return Fact(sympy.Symbol(natural), ">=")


class Script:
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
        self.nat: dict[str, str] = {}  # a natural's `nat` variable, for the bounds of sums
        self.sums = False  # whether the step has sums (its naturals get `integral` facts)
        self.case = ""  # the case being replayed (its obligation's label)
        self.by_case: dict[tuple[str, Fact], Goal] = {}  # a sum rule's condition, per case
        self.integral: dict[str, str] = {}  # a natural -> `IZR (Z.of_nat nat) = n`
        # a natural -> `n = INR nat`, kept past `clearbody` where a theorem applied later
        # takes the `nat` (`Rules.apply`): its statement is brought to the opaque real by it
        self.real_of: dict[str, str] = {}
        self.members: set[str] = set()  # family members paired in Gram symbols (`ip_norm`)
        self.quantified: dict[Rel, str] = {}  # a summed claim -> its premise, term-wise
        self.vector_sums: set[str] = set()  # written vector sums declared (`vectorsums`)
        self.vector_rewrites: list[str] = []  # their splits, rewritten by `ip_norm`

    def expr(self, e: sympy.Expr) -> str:
        """`e` for Coq, a natural in a bound of a sum by its `nat` variable."""
        return expr(e, nat=self.nat)

    def prop(self, fact: Fact) -> str:
        """The proposition `p (kind) 0` of a fact."""
        return prop(fact, self.nat)

    # -- tactics ------------------------------------------------------------------------------

    def note_members(self, vectors: Iterable[str]) -> None:
        """Record the family members among `vectors` (`x[j]`; one under a sum's index is
        not): `ip_norm` orders them as the kernel does."""
        self.members.update(v for v in vectors if not atoms.IDENT.fullmatch(v) and "#" not in v)

    def note_goals(self, goals: Iterable[Goal]) -> None:
        """`note_members` of every Gram symbol of the goals' facts and written relations."""
        for goal in goals:
            judgement, written = goal.obligation.judgement, goal.obligation.written
            exprs = [f.expr for f in (*judgement.hypotheses, judgement.claim)]
            if written is not None:
                exprs += [e for r in (*written[0], written[1]) for e in (r.lhs, r.rhs)]
            for e in exprs:
                for symbol in e.free_symbols:
                    self.note_members(atoms.gram_pair(symbol) or ())

    def ip_norm(self) -> str:
        """Expand inner products bilinearly and order each Gram symbol's vectors (names and
        family members) as the kernel does: by their names, as strings."""
        pairs = itertools.combinations(sorted({*self.vectors, *self.members}), 2)
        syms = "".join(f", ?(ip_sym {printer.vector_atom(b)} {printer.vector_atom(a)})"
                       for a, b in pairs)
        split = "".join(f", ?{label}" for label in self.vector_rewrites)
        return "try unfold det2, det3; autorewrite with ip_db" + (
            f"; rewrite {split[2:]}" if split else "") + (
            f"; rewrite {syms[2:]}" if syms else "") + ("; ip_orient" if split else "")

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
        source = Written(self.proof.names, nat=self.nat)
        written = source.relation(relation)
        if written is not None:
            self.note_members(source.members)  # `ip_norm` orders them, as in the kernel
            if source.sums and not set(source.sums) <= self.vector_sums:
                raise Unsupported(f"{relation.text!r}: its sums of vectors are not declared "
                                  "in the proof (`vectorsums.declare`)")
            return written
        return printer.kernel_relation(relation, nat=self.nat)

    def clearing(self, relation: Rel, fact: Fact) -> tuple[str, str]:
        """The positive factor `f` with `f * gap == fact` (the reduced denominator of the
        normal form, or 1) and its proof; every divisor's `<> 0` is derived for `field`."""
        conditions = self.form(relation)[1]
        labels = [(c, self.fact(c)) for c in conditions]
        divisors = [*relation.divisors, *reciprocal_bases(relation.lhs, relation.text),
                    *reciprocal_bases(relation.rhs, relation.text)]
        for divisor in divisors:
            self.nonzero_fact(divisor, labels)
        gap = gap_of(relation)
        if sympy.cancel(gap - fact.expr) == 0:
            return "1", "Rlt_0_1"
        for size in range(1, len(labels) + 1):  # one condition, or a product of several
            for chosen in itertools.combinations(labels, size):  # (one per divisor: 1/R**2)
                factor = sympy.Mul(*(c.expr for c, _ in chosen))
                if sympy.cancel(factor * gap - fact.expr) == 0:
                    # the text nests as the proof does: `0 < c0 * (c1 * ...)` is its type
                    text, proof = self.expr(chosen[-1][0].expr), chosen[-1][1]
                    for condition, label in reversed(chosen[:-1]):
                        text = f"({self.expr(condition.expr)} * {text})"
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
            c, d, r = self.expr(condition.expr), self.expr(target), self.expr(quotient)
            self.emit(f"assert ({self.new('nz')} : {d} <> 0) by (refine "
                      f"(nz_of_factor {c} {d} {r} {label} _); {identity(c, d, r)}).")

    def fact(self, fact: Fact) -> str:
        """A name for `fact`: derived from a relation in context, or a replayed condition."""
        if fact in self.facts:
            return self.facts[fact]
        source = next((r for r in self.hyps if self.form(r)[0] == fact), None)
        if source is None:
            if (self.case, fact) in self.by_case:  # a sum rule's condition in this case
                return self.replay(self.by_case[(self.case, fact)])
            if fact in self.conditions:
                return self.replay(self.conditions[fact])
            source = self.sum_fact(fact)  # an identity of sums, from the preamble's lemmas
            if source is None:
                from verify.coq.sums.identities import congruence  # an index by an equal one
                source = congruence(self, fact)
            if source is None:
                raise Unsupported(f"the fact {fact} has no source in the statement")
        f, f_proof = self.clearing(source, fact)
        a, _op, b = self.relation_text(source)
        label = self.new("k")
        self.emit(
            f"assert ({label} : {self.prop(fact)}) by (refine ({HYP_LEMMA[source.op]} _ _ {f} _ "
            f"{f_proof} _ {self.hyps[source]}); {self.ip_norm()}; "
            f"{identity(a, b, f, self.prop(fact))})."
        )
        self.facts[fact] = label
        return label

    # -- sums -------------------------------------------------------------------------------

    def sum_fact(self, fact: Fact) -> Rel | None:
        """The sum rule whose identity is `fact` (the kernel's, recomputed), proved by the
        preamble's lemma for it; None when no rule at the top of a sum of `fact` gives it.
        A rule at the top is taken only when the kernel proved its conditions (each a side
        obligation of the step, `given`): the same identity may be a rule inside a sum's body
        (`empty` of an inner range makes the outer sum 0, as `empty` of the outer range would
        under a condition the kernel never proved)."""
        others = ranges.sums_in(fact.expr)  # a split's parts, a shift's image
        for s in sorted(fact.expr.free_symbols, key=str):
            found = atoms.structure(s)
            if not isinstance(found, atoms.Sum):
                continue
            for rule, at in top_rules(found, others):
                try:
                    relation, conditions = sums.identity(sums.frozen(SumRule(rule, s, at)))
                except KernelError:
                    continue
                if normal_form(relation, relation.text)[0] == fact and all(
                        map(self.given, conditions)):
                    self.prove_sum(rule, at, found, relation, conditions)
                    return relation
        from verify.coq.sums.identities import congruence, swap
        if (swapped := swap(self, fact)) is not None:  # a double sum in the other order
            return swapped
        if (congruent := congruence(self, fact)) is not None:  # a member in a sum's body
            return congruent
        if (lifted := inside(self, fact)) is not None:  # any of these deeper in a sum's body
            return lifted
        if any(isinstance(atoms.structure(s), atoms.Sum) for s in fact.expr.free_symbols):
            raise Unsupported(
                f"the sum identity {fact} is no rule the replay proves, at the top of a sum "
                "or inside its body or filters")
        return None

    def given(self, fact: Fact) -> bool:
        """Whether `fact` is at hand without deriving it: derived already, a side obligation
        of the step (in this case or every one), or a relation in context."""
        return (fact in self.facts or (self.case, fact) in self.by_case
                or fact in self.conditions or any(self.form(r)[0] == fact for r in self.hyps))

    def zreal(self) -> str:
        """Reads `IZR` of a bound as the real it is (`Z.of_nat n` as the natural n)."""
        facts = "".join(f", ?{label}" for label in self.integral.values())
        return f"rewrite ?plus_IZR, ?minus_IZR, ?mult_IZR, ?opp_IZR{facts}"

    def prove_sum(self, rule: str, at: sympy.Expr, s: atoms.Sum, relation: Rel,
                  conditions: tuple[Fact, ...]) -> None:
        """`lhs = rhs` of a sum rule: its lemma (`zsum_empty`, `zsum_last`, `zsum_count`,
        `zsum_split`, `zsum_shift`: `ranges`), its conditions read over the integers
        (`zle_of`, `zlt_of`), the last member's summand brought to the kernel's form (each
        member's index, each Gram symbol's order, each filter decided by its condition), then
        `ring`."""
        if any(sympy.Poly(b, *b.free_symbols or [sympy.Symbol("_")]).total_degree() > 1
               for b in (s.lo, s.hi)):
            raise Unsupported("a sum whose bound is not linear is not replayed in Coq yet")
        labels = [self.fact(c) for c in conditions]
        lo, hi = printer.integer(s.lo, self.nat), printer.integer(s.hi, self.nat)
        label = self.new("s")
        lhs, rhs = self.expr(relation.lhs), self.expr(relation.rhs)
        self.emit(f"assert ({label} : {lhs} = {rhs}).")
        if rule == "empty":
            self.emit(f"{{ rewrite (zsum_empty {lo} {hi} _); [ring | apply zlt_of; "
                      f"{self.zreal()}; refine (nonneg_eq _ _ _ {labels[0]}); ring]. }}")
        elif rule == "split":
            ranges.prove_split(self, s, at, labels, lo, hi)
        elif rule == "shift":
            ranges.prove_shift(self, s, at, relation, lo, hi)
        elif rule == "count":
            self.emit(f"{{ rewrite (zsum_count {lo} {hi}); [{self.zreal()}; ring | "
                      f"apply zle_of; {self.zreal()}; refine (nonneg_eq _ _ _ {labels[0]}); "
                      "ring]. }")
        else:
            self.last(s, lo, hi, labels, rule, int(at))
        self.hyps[relation] = label

    def last(self, s: atoms.Sum, lo: str, hi: str, labels: list[str], rule: str, at: int
             ) -> None:
        """The inside of `prove_sum` for `last` and `skip`: `zsum_last` at the value of hi."""
        value = self.expr(s.hi)
        shorter = printer.integer(sympy.expand(s.hi - 1), self.nat)
        bound = f"j'{s.bound}"
        self.emit(f"{{ assert (zl' : ({lo} <= {hi})%Z) by (apply zle_of; {self.zreal()}; "
                  f"refine (nonneg_eq _ _ _ {labels[0]}); ring).")
        self.emit(f"  assert (zv' : IZR {hi} = {value}) by ({self.zreal()}; ring).")
        self.emit(f"  rewrite (zsum_last {lo} {hi} _ {value} zl' zv').")
        self.emit(f"  rewrite (zsum_bounds {lo} ({hi} - 1) {lo} {shorter} _) by zbounds. cbv beta.")
        at_hi = {f"#{s.bound}": s.hi}
        for part in (s.body, *(p for p, _ in s.filters)):  # members: the kernel's index
            for symbol in sorted(part.free_symbols, key=str):
                if symbol.name == f"#{s.bound}" or atoms.INDEX.fullmatch(symbol.name):
                    continue
                naive = _at(self.expr(symbol), bound, value)
                moved = atoms.substitute(symbol, at_hi, {})
                canon = self.expr(moved)
                if naive != canon:
                    gram = atoms.gram_pair(symbol) is not None
                    # `field` where the index has a fraction (`1/2 * 2 = 1`: red team 19 F5)
                    eq = "f_equal; f_equal; " if gram else "f_equal; "
                    self.emit(f"  replace {naive} with {canon} by ("
                              + ("rewrite ip_sym; " if _flipped(symbol, moved, at_hi) else "")
                              + f"first [({eq}ring) | ({eq}field)]).")
        for k, (p, kind) in enumerate(s.filters):
            naive = _at(self.expr(p), bound, value)
            if rule == "last":
                lemma, label = {">=": "ind_ge_in", ">": "ind_gt_in", "==": "ind_eq_in"}[kind], \
                    labels[1 + k]
            elif k == (at if at >= 0 else -at - 1):
                lemma = {">=": "ind_ge_out", ">": "ind_gt_out"}.get(
                    kind, "ind_eq_out_pos" if at >= 0 else "ind_eq_out_neg")
                label = labels[1]
            else:
                continue
            bridge = {"ind_ge_in": "nonneg_eq", "ind_gt_in": "pos_eq", "ind_eq_in": "zero_eq",
                      "ind_ge_out": "pos_eq", "ind_gt_out": "nonneg_eq",
                      "ind_eq_out_pos": "pos_eq", "ind_eq_out_neg": "pos_eq"}[lemma]
            self.emit(f"  rewrite ({lemma} {naive}) by (refine ({bridge} _ _ _ {label}); ring).")
        self.emit("  ring. }")

    # -- certificates -------------------------------------------------------------------------

    def sigma(self, entry: object) -> _Term:
        """One weighted square, squared norm or Gram determinant, with its sign."""
        if not isinstance(entry, Square | NormSquare | GramMinor):
            raise Unsupported(f"unknown sigma entry {entry!r}")
        weight = constant(Fraction(entry.weight))
        if isinstance(entry, Square):
            p = self.expr(entry.poly)
            term = _Term(f"({p} ^ 2)", f"(pow2_ge_0 {p})", False)
        else:
            vectors = (entry.vector,) if isinstance(entry, NormSquare) else entry.vectors
            if any(not v for v in vectors):
                return _Term("0", "(Rle_refl 0)", False)  # a zero vector: the entry is 0
            self.note_members(n for v in vectors for n in v)
            vs = [printer.vector(v, "", nat=self.nat) for v in vectors]  # nonempty: no zero
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
        if goal.halves is not None:
            return self.antisymmetry(goal)
        if goal.judgement.claim == claim:
            return self.certificate(goal.judgement, goal.certificate)  # type: ignore[arg-type]
        return self.refutation(goal)

    def antisymmetry(self, goal: Goal) -> str:
        """An equality `g = 0` from its halves `0 <= g` and `0 <= -g`, each replayed as any
        claim (directly or by contradiction), then `by_antisym` (`Rle_antisym`); `n = -g` by
        `ring`."""
        claim = goal.obligation.judgement.claim
        up, down = (self.replay(half) for half in goal.halves)  # type: ignore[union-attr]
        label = self.new("g")
        self.emit(f"assert ({label} : {self.prop(claim)}).")
        self.emit(f"{{ refine (by_antisym {self.expr(claim.expr)} {self.expr(-claim.expr)} _ {up} "
                  f"{down}); ring. }}")
        self.facts[claim] = label
        return label

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
        self.emit(f"assert ({label} : {self.prop(claim)}).")
        self.emit(f"{{ refine ({lemma} {self.expr(claim.expr)} {self.expr(negated.expr)} _ _); "
                  f"[ring | intros {inner}].")
        saved = (dict(self.facts), dict(self.hyps), set(self.nonzero), self.indent)
        self.indent += "  "
        self.facts[negated] = inner
        absurd = self.certificate(goal.judgement, goal.certificate)  # type: ignore[arg-type]
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
            return _Term(self.expr(facts[i].expr), self.fact(facts[i]), facts[i].kind == ">")

        products: list[_Term] = []
        for product in cert.products:
            factors = [hyp(i) for i in product.hyps]
            coeff = Fraction(product.coeff)
            if coeff != 1:
                factors.insert(0, constant(coeff))
            if product.sigma:
                factors.append(_fold([self.sigma(s) for s in product.sigma], _plus))
            if not factors:
                factors.append(_Term("1", "Rlt_0_1", True))
            products.append(_fold(factors, _times))
        products.sort(key=lambda t: not t.strict)  # a strict term first: `0 < s + rest`
        linear = []
        for index, q in cert.linear:
            label = self.fact(facts[index])
            text = f"({self.expr(q)} * {self.expr(facts[index].expr)})"
            linear.append((text, f"(lin0 {self.expr(q)} _ {label})"))
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
        c = self.expr(judgement.claim.expr)
        label = self.new("g")
        self.emit(f"assert ({label} : {self.prop(judgement.claim)}).")
        self.emit(f"{{ refine ({FACT_LEMMA[kind]} {m.text} {c} {s} {m.proof} _ {s_proof}).")
        self.emit(f"  {self.ip_norm()}. {identity(m.text, c, s)}. }}")
        self.facts[judgement.claim] = label
        return label

    def restate(self, relation: Rel, texts: tuple[str, str, str] | None = None) -> str:
        """`relation` as written (`texts`), from a relation in context with the same
        normal form: its fact, then the claim's bridge lemma (what `conclude` does, kept
        as a named hypothesis)."""
        fact = self.form(relation)[0]
        if not any(self.form(r)[0] == fact for r in self.hyps):
            raise Unsupported(f"{relation.text!r} is none of the facts in context")
        fact_label = self.fact(fact)
        f, f_proof = self.clearing(relation, fact)
        a, op, b = texts or self.relation_text(relation)
        label = self.new("h")
        self.emit(f"assert ({label} : {a} {op} {b}) by (refine ({CLAIM_LEMMA[relation.op]} "
                  f"_ _ {f} _ {f_proof} _ {fact_label}); {self.ip_norm()}; "
                  f"{identity(a, b, f, prop(fact))}).")
        self.hyps[relation] = label
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
            f"{self.ip_norm()}; {identity(a, b, f, self.prop(fact))}."
        )
