"""Sums of vectors named as vectors, in Coq: the kernel's `VectorSum` as a local definition.

A step the checker proved with its sums of vectors named (`Step.named`: `Sum1 = sum(j in
1..k, y[j]*x[j])`) has obligations whose hypotheses include the named sum's facts
(`verify.kernel.sums.definitions`, origin `named`): `<S, w> == sum(j, <v_j, w>)` for each
vector w the obligation reads, and `<S, T> == sum(l in T's set, <S, u_l>)` read through to
the members for each named T, S itself included. The theorem states the step as the kernel
does (the names appear nowhere in it); its proof defines each name as the sum it stands for,
`pose (Sum1 := vzsum lo hi (fun s'j => ...))` (the preamble's fold of `vadd`, a filter a 0/1
factor), and proves each fact from that definition: unfold the name, `ip_vzsum_l` (an inner
product reads a sum of vectors term by term, proved in the preamble by induction), then the
raw sum is the kernel's canonical combination by linearity (`linear.combine`). A fact `<S, T>`
first reads T term by term, then each member's `<S, u(l)>` by a lemma quantified over the
point `l`, proved the same way. Then `clearbody`: the certificate sees each name as an opaque
vector with exactly these facts, as the kernel does, and is replayed as any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import sympy

from proofs.language.expressions import source_tree
from verify.coq.printer import Written, expr, name, vector_atom
from verify.coq.statement import Goal, Unsupported
from verify.coq.sums import linear
from verify.kernel import Fact, KernelError, Rel, VectorSum, atoms, gram_pair, sums
from verify.kernel.algebra import normal_form
from verify.proof_checker import vector_sum

if TYPE_CHECKING:
    from verify.coq.replay import Script

__all__ = ["declare"]

POINT = "#~1"  # the fresh name the kernel gives T's index in `<S, T>` (`sums.definitions`)


def _kernel_sum(script: Script, name_: str, text: str) -> VectorSum:
    """`text` as the kernel reads it named `name_` (`proof_checker.vector_sum`, the one
    reading); a text that is no one sum of vectors, or no expression, is Unsupported (an
    ExpressionError once escaped the export here, from a copy that did not catch it)."""
    try:
        return vector_sum(script.proof, name_, text)
    except KernelError as error:  # its words: which sum, and why it is none
        raise Unsupported(str(error)) from None


def _written(script: Script, text: str) -> tuple[str, str, str, str]:
    """The sum printed as the theorem prints a written sum of vectors: `(vzsum lo hi F)`,
    its bounds (in Z) and its function `F`."""
    source = Written(script.proof.names, nat=script.nat)
    source.text = text
    printed, is_vector = source.value(source_tree(text))
    if not is_vector or printed not in source.sums:
        raise Unsupported(f"the named sum {text} does not print as a sum of vectors")
    found = source.sums[printed]
    return printed, found.lo, found.hi, printed[printed.index("(fun "):-1]


def _facts(goals: Iterable[Goal]) -> list[Fact]:
    """The named sums' facts among the goals' hypotheses (their halves' too), each once."""
    out: dict[Fact, None] = {}
    pending = list(goals)
    while pending:
        goal = pending.pop()
        pending += list(goal.halves or ())
        ob = goal.obligation
        out.update((f, None) for f, o in zip(ob.judgement.hypotheses, ob.origins, strict=True)
                   if o == "named")
    return sorted(out, key=str)


class _Named:
    """The proof of the named sums' facts in one script."""

    def __init__(self, script: Script,
                 named: Mapping[str, tuple[VectorSum, str, str, str, str]]) -> None:
        self.script, self.named = script, named
        self.raw: dict[str, str] = {}  # S -> `forall w, ip S w = zsum ... (ip (F x) w)`
        self.member: dict[tuple[str, str, str], str] = {}  # (S, member, point) -> lemma

    def raw_lemma(self, s: str) -> str:
        """`forall w, ip S w = zsum lo hi (fun x => ip (F x) w)`, by `ip_vzsum_l`."""
        if s not in self.raw:
            _, _, lo, hi, function = self.named[s]
            label, w = self.script.new("nraw"), self.script.new("w")
            self.script.emit(f"assert ({label} : forall {w} : V, ip {name(s)} {w} = zsum {lo} "
                             f"{hi} (fun x' => ip ({function} x') {w})) by (intros {w}; "
                             f"unfold {name(s)}; apply ip_vzsum_l).")
            self.raw[s] = label
        return self.raw[s]

    def combine(self, s: str, w: dict[str, sympy.Expr], total: sympy.Expr,
                real: Mapping[str, str]) -> None:
        """The goal `ip S w = total` (`total` the kernel's `inner(S, w)`): S read term by term,
        then the raw sum is the kernel's split by linearity (`linear.combine`)."""
        found = self.named[s][0]
        index = sympy.Symbol("#~0")
        filters, body = sums.members(found, index)
        split = linear.terms(index, found.lo, found.hi, filters, atoms.dot(body, w), total)
        self.script.emit(f"rewrite ({self.raw_lemma(s)} _).")
        script = self.script
        lo, hi = self.named[s][2:4]
        linear.combine(script, index.name, filters, split, real, lo, hi)  # type: ignore[arg-type]

    def with_vector(self, s: str, v: str) -> str:
        """`ip v S = inner(S, v)` for a vector v free of any point."""
        return self._member(s, v, {})

    def with_sum(self, s: str, t: str) -> tuple[Rel, str]:
        """`ip S T = sum(l in T's set, inner(S, u_l))`: T term by term, then each member's
        `ip (u l) S` by a lemma over the point l."""
        point = self.script.new("p")
        found_t = self.named[t][0]
        filters, body = sums.members(found_t, index := sympy.Symbol(POINT))
        reading, lemmas = sympy.Integer(0), []
        for member, coefficient in body.items():
            if (s, member, point) not in self.member:
                self.member[(s, member, point)] = self._member(
                    s, member, {POINT: point} if POINT in _reads(member) else {})
            lemmas.append(self.member[(s, member, point)])
            reading += coefficient * sums.inner(self.named[s][0], {member: sympy.Integer(1)})
        total = atoms.finite_sum(index, found_t.lo, found_t.hi, filters, reading)
        relation = Rel(atoms.gram(s, t), "==", total, f"<{s},{t}> by bilinearity")
        label = self.script.new("nd")
        self.script.emit(f"assert ({label} : {expr(relation.lhs, {}, self.script.nat)} = "
                         f"{expr(total, {}, self.script.nat)}).")
        flip = s != t and gram_pair(relation.lhs) == (s, t)  # read from T's side: ip T S
        self.script.emit("{ " + (f"rewrite (ip_sym {name(s)} {name(t)}). " if flip else "")
                         + f"rewrite ({self.raw_lemma(t)} {name(s)}).")
        self.script.indent += "  "
        split = linear.terms(index, found_t.lo, found_t.hi, filters, reading, total)
        rewrites = "".join(f"rewrite ?{m}; " for m in lemmas)
        lo, hi = self.named[t][2:4]
        linear.combine(self.script, POINT, filters, split, {}, lo, hi,  # type: ignore[arg-type]
                       first=lambda p: f"ip_canon; {rewrites}")
        self.script.indent = self.script.indent[:-2]
        self.script.emit("}")
        return relation, label

    def _member(self, s: str, member: str, real: Mapping[str, str]) -> str:
        """`ip u S = inner(S, u)`, over the point of `real` when u's index reads it."""
        label = self.script.new("nm")
        total = sums.inner(self.named[s][0], {member: sympy.Integer(1)})
        u = _vector(member, real)
        binder = f"forall {real[POINT]} : R, " if real else ""
        self.script.emit(f"assert ({label} : {binder}ip {u} {name(s)} = "
                         f"{expr(total, real, self.script.nat)}).")
        self.script.emit("{ " + (f"intros {real[POINT]}. " if real else "")
                         + f"rewrite (ip_sym {u} {name(s)}).")
        self.script.indent += "  "
        self.combine(s, {member: sympy.Integer(1)}, total, real)
        self.script.indent = self.script.indent[:-2]
        self.script.emit("}")
        return label


def _reads(member: str) -> set[str]:
    found = atoms.structure(sympy.Symbol(member))
    return atoms.names_of(found.index) if isinstance(found, atoms.Family) else set()


def _vector(v: str, real: Mapping[str, str]) -> str:
    """A vector or family member printed, its index at `real`."""
    if atoms.IDENT.fullmatch(v) or not real:
        return vector_atom(v)
    member = atoms.structure(sympy.Symbol(v))
    return f"({name(member.family)} {expr(member.index, real)})"  # type: ignore[union-attr]


def declare(script: Script, named: Iterable[tuple[str, str]], goals: Iterable[Goal]) -> None:
    """Define each named sum (`pose`), prove the facts the goals assume of it (registered in
    `script.hyps`, where `Script.fact` finds them), then `clearbody` the names."""
    named = tuple(named)
    if not named:
        return
    defined: dict[str, tuple[VectorSum, str, str, str, str]] = {}
    for n, text in named:
        defined[n] = (_kernel_sum(script, n, text), *_written(script, text))
        script.emit(f"pose ({name(n)} := {defined[n][1]}).")
    proofs = _Named(script, defined)
    for n in defined:  # before any block: a lemma asserted inside one is local to it
        proofs.raw_lemma(n)
    for fact in _facts(goals):
        pairs = [p for sym in fact.expr.free_symbols if (p := gram_pair(sym))
                 and set(p) & set(defined)]
        if len(pairs) != 1:
            raise Unsupported(f"the named sum's fact {fact} reads no one named sum")
        a, b = pairs[0]
        if a in defined and b in defined:
            relation, label = proofs.with_sum(a, b)
        else:
            s, w = (a, b) if a in defined else (b, a)
            total = sums.inner(defined[s][0], {w: sympy.Integer(1)})
            relation = Rel(atoms.gram(s, w), "==", total, f"<{s},{w}> by bilinearity")
            label = proofs.with_vector(s, w)
        if normal_form(relation, relation.text)[0] != fact:
            raise Unsupported(f"the named sum's fact {fact} is not its reading by bilinearity")
        script.hyps[relation] = label
    script.emit(f"clearbody {' '.join(name(n) for n in defined)}.")
    script.vectors += [n for n in defined if n not in script.vectors]
