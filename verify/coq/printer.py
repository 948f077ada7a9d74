"""Printing for Coq: names, polynomials in Gram symbols, vectors and relations as written.

Two printers. `expr` prints the kernel's SymPy polynomials (Gram symbol `<a,b>` as `ip a b`).
`Written` prints a relation from its *source text*, so a theorem reads as the user wrote it
(`ip (vadd w (vscal y x)) (vadd w (vscal y x)) <= ip w w + R2`), optionally with names
substituted (induction obligations). Relations built in code have no source text to read;
they fall back to `expr`. A sum in the text prints in the kernel's reading, a sum of vectors
as a `vzsum` (`vector_sum`: where the kernel's reading keeps no sum to print, its terms
cancelled). Every number is printed exactly (`p / q`), never as a float.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import sympy

from proofs.language.expressions import (
    ExpressionError,
    Names,
    Relation,
    parse_bound,
    parse_relation,
    parse_scalar,
    source_tree,
)
from verify.coq.preamble import PREAMBLE
from verify.kernel import Rel, atoms, gram_pair

#: Coq keywords, the global names an exported proof refers to that neither the preamble
#: defines nor `_LIBRARY_TEXT` lists (tactic-made names, prelude types), and globals of Coq's
#: prelude and `Reals` a proof's name could be read as when a binder is missing (`id`,
#: `exp`): a proof's own names are renamed `name'` when they would be one (a proof-file name
#: never contains `'`), so an unbound name is an error of coqc, never a global read silently.
#: The keywords are every word coqc 8.16 refused as a binder of a theorem over R under the
#: exported files' imports (each word of `Print Grammar constr/tactic/vernac/binders` and
#: the vernacular's declaration keywords tried alone; a red team's `Axiom` broke coqc).
_RESERVED_TEXT = """
    _ as at by cofix else end exists exists2 fix for forall fun if IF in let match mod return
    then until using where with Axiom CoFixpoint Definition Fixpoint Hypothesis Parameter
    Theorem Variable Prop SProp Set Type R Z S O IZR INR pow eq_refl nz_solve ip_db
    True False and or not nat IH zbounds ip_orient ip_canon id exp ln sin cos tan sqrt
    Rabs Rsqr PI Rmin Rmax Rinv Ropp Rplus Rmult Rminus Rdiv Rpower Rle Rlt Rge Rgt IPR
    up fst snd pred plus mult minus min max length list nil cons app map comp"""
#: The library lemmas the replays' scripts name (verify/coq/*.py), besides the preamble's.
_LIBRARY_TEXT = """
    IZR_le IZR_lt Req_EM_T Req_dec Rgt_not_eq Rinv_0_lt_compat Rle_antisym Rle_dec Rle_ge
    Rle_lt_dec Rle_lt_or_eq_dec Rle_lt_trans Rle_or_lt Rle_refl Rlt_0_1 Rlt_dec
    Rlt_irrefl Rlt_le Rlt_le_dec Rlt_le_trans Rminus_diag_uniq Rmult_0_l Rmult_0_r
    Rmult_1_l Rmult_integral Rmult_integral_contrapositive_currified Rmult_le_compat_l
    Rmult_le_pos Rmult_le_reg_l Rmult_lt_0_compat Rmult_lt_compat_l Rmult_lt_reg_l Ropp_0
    Ropp_0_gt_lt_contravar Ropp_le_cancel Ropp_le_contravar Rplus_0_r
    Rplus_le_le_0_compat Rsqr_pos_lt Rtotal_order S_INR pos_INR pow2_ge_0 eq_trans"""
#: Every name the preamble defines (its lemmas, definitions and fixpoints), read from it, so
#: that a lemma added there is reserved with it (a red team shadowed `zsum_swap`).
_PREAMBLE_NAMES = frozenset(re.findall(
    r"^\s*(?:Lemma|Theorem|Definition|Fixpoint|Inductive|Corollary|Fact|Notation|Parameter|"
    r"Axiom|Hypothesis|Variable)\s+([A-Za-z_][A-Za-z0-9_']*)", PREAMBLE, re.MULTILINE))
RESERVED = frozenset(_RESERVED_TEXT.split()) | frozenset(_LIBRARY_TEXT.split()) | _PREAMBLE_NAMES

COQ_OP = {"<=": "<=", "<": "<", ">=": ">=", ">": ">", "==": "="}


def name(text: str) -> str:
    """A proof's name as a Coq identifier that shadows nothing the proofs use."""
    return f"{text}'" if text in RESERVED else text


def ident(step_id: str) -> str:
    """The Coq theorem name of a step id (`[a-z0-9-]+`)."""
    return "step_" + step_id.replace("-", "_")


def number(value: Fraction) -> str:
    """An exact rational: `3`, `(- 3)`, `(3 / 2)`, `(- (3 / 2))`."""
    magnitude = abs(value)
    text = (
        str(magnitude.numerator)
        if magnitude.denominator == 1
        else f"({magnitude.numerator} / {magnitude.denominator})"
    )
    return f"(- {text})" if value < 0 else text


Naming = Mapping[str, str]
"""A natural's Coq term: as a real where a scalar stands (`real`: `INR n`), as a `nat` in the
bounds of a sum (`nat`: `n` in a statement, its `nat` variable in a proof)."""


def expr(e: sympy.Expr, real: Naming | None = None, nat: Naming | None = None) -> str:
    """A SymPy polynomial or rational function in scalars and Gram symbols, for Coq; family
    members `(y (i))`, sums `(zsum lo hi (fun j'1 => ind_gt (p) * (body)))` with their bounds
    in Z (`verify.coq.preamble`)."""
    if e.is_Rational:
        return number(Fraction(int(e.p), int(e.q)))
    if e.is_Symbol:
        return _symbol(e, real or {}, nat or {})
    if e.is_Add:
        return "(" + " + ".join(expr(t, real, nat) for t in e.as_ordered_terms()) + ")"
    if e.is_Mul:
        coeff, factors = e.as_coeff_mul()
        top = [expr(f, real, nat) for f in factors if not _reciprocal(f)]
        bottom = [expr(1 / f, real, nat) for f in factors if _reciprocal(f)]
        if coeff.is_Rational and abs(coeff) != 1:
            top.insert(0, number(Fraction(int(abs(coeff).p), int(abs(coeff).q))))
        text = " * ".join(top) if top else "1"
        if bottom:
            text = f"{text} / ({' * '.join(bottom)})"
        return f"(- ({text}))" if coeff < 0 else f"({text})"
    if e.is_Pow and e.exp.is_Integer:
        if e.exp < 0:
            return f"(1 / {expr(1 / e, real, nat)})"
        return f"({expr(e.base, real, nat)} ^ {int(e.exp)})"
    raise ExpressionError(f"cannot print {e} for Coq")


INDICATORS = {">=": "ind_ge", ">": "ind_gt", "==": "ind_eq"}


def _symbol(s: sympy.Symbol, real: Naming, nat: Naming) -> str:
    """A scalar, a bound index (`#1` as `j'1`), a Gram symbol, a family member or a sum."""
    if s.name in real:
        return real[s.name]
    if atoms.INDEX.fullmatch(s.name):
        return f"j'{s.name[1:].replace('~', 't')}"
    pair = gram_pair(s)
    if pair is not None:
        return f"(ip {_vector(pair[0], real, nat)} {_vector(pair[1], real, nat)})"
    found = atoms.structure(s)
    if isinstance(found, atoms.Family):
        return f"({name(found.family)} {expr(found.index, real, nat)})"
    if isinstance(found, atoms.Sum):  # its own index is bound here, whatever `real` maps it to
        own = f"#{found.bound}"  # (a swap's factor `sum(#1, a[#1 + #2])` printed where #1 is u')
        lo, hi, function = sum_parts(found, {k: v for k, v in real.items() if k != own}, nat)
        return f"(zsum {lo} {hi} {function})"
    return name(s.name)


def sum_parts(found: atoms.Sum, real: Naming, nat: Naming) -> tuple[str, str, str]:
    """A canonical sum's bounds (in Z) and its function `(fun j'h => ...)`, each filter an
    indicator factor in the kernel's order: what `zsum` is applied to."""
    factors = [f"{INDICATORS[kind]} {expr(p, real, nat)}" for p, kind in found.filters]
    summand = "".join(f"({f}) * " for f in factors) + expr(found.body, real, nat)
    return (integer(found.lo, nat), integer(found.hi, nat),
            f"(fun j'{found.bound} => {summand})")


def vector_atom(v: str) -> str:
    """A vector of a Gram symbol: a name, or a family member `(x (i))`."""
    return _vector(v, {}, {})


def _vector(v: str, real: Naming, nat: Naming) -> str:
    if atoms.IDENT.fullmatch(v):
        return name(v)
    member = atoms.structure(sympy.Symbol(v))
    return f"({name(member.family)} {expr(member.index, real, nat)})"  # type: ignore[union-attr]


def integer(e: sympy.Expr, nat: Naming) -> str:
    """A bound of a sum (an integer polynomial in naturals) as a Coq `Z`, each natural as
    `Z.of_nat` of its `nat` term."""
    terms = []
    for monomial, c in sympy.Poly(e, *sorted(e.free_symbols, key=str) or [sympy.Symbol("_")]
                                  ).terms():
        factors = [f"Z.of_nat {nat.get(s.name, name(s.name))}" if k == 1 else
                   f"Z.of_nat {nat.get(s.name, name(s.name))} ^ {k}"
                   for s, k in zip(sorted(e.free_symbols, key=str), monomial, strict=False) if k]
        value = int(c)
        terms.append(" * ".join([*((f"({value})",) if value != 1 or not factors else ()),
                                 *(f"({f})" for f in factors)]))
    return f"({' + '.join(terms) or '0'})%Z"


def kernel_relation(relation: Rel, real: Naming | None = None, nat: Naming | None = None
                    ) -> tuple[str, str, str]:
    """A relation printed from the kernel's form (a statement with sums or family members:
    their text is the author's, their meaning the kernel's canonical reading of it)."""
    return expr(relation.lhs, real, nat), COQ_OP[relation.op], expr(relation.rhs, real, nat)


def has_atoms(relation: Rel) -> bool:
    """Whether a relation holds a sum or a family member (printed from the kernel's form)."""
    return any(atoms.structure(s) is not None and not atoms.IDENT.fullmatch(s.name)
               and not (gram_pair(s) and all(atoms.IDENT.fullmatch(v) for v in gram_pair(s)))
               for side in (relation.lhs, relation.rhs) for s in side.free_symbols)


def written_with_sums(relation: Rel) -> bool:
    """Whether a relation's text writes a sum (`sum(j in S, ...)`), whatever its kernel form
    kept of it (a sum of vectors whose terms cancel leaves none)."""
    try:
        tree = source_tree(relation.text)
    except SyntaxError:
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "sum"
               for n in ast.walk(tree))


def _reciprocal(factor: sympy.Expr) -> bool:
    return bool(factor.is_Pow and factor.exp.is_Integer and factor.exp < 0)


def vector(v: Mapping[str, sympy.Expr], zero_of: str, real: Naming | None = None,
           nat: Naming | None = None) -> str:
    """A linear combination `vadd (vscal c a) ...`; the zero vector as `vscal 0 zero_of`.
    A coefficient's names as `expr` prints them by `real` and `nat` (a natural in the bounds
    of a sum in it: an induction's vector term in the kernel's form)."""
    real, nat = real or {}, nat or {}
    terms = [
        _vector(n, real, nat) if c == 1 else f"(vscal {expr(c, real, nat)} {_vector(n, real, nat)})"
        for n, c in v.items()
    ]
    if not terms:
        return f"(vscal 0 {name(zero_of)})"
    text = terms[-1]
    for term in reversed(terms[:-1]):
        text = f"(vadd {term} {text})"
    return text


class Written:
    """Relations printed from their source text, with optional substitutions of names."""

    def __init__(
        self,
        names: Names,
        scalars: Mapping[str, str] | None = None,
        vectors: Mapping[str, str] | None = None,
        nat: Mapping[str, str] | None = None,
    ) -> None:
        self.names = names
        self.scalars = dict(scalars or {})
        self.vectors = dict(vectors or {})
        self.nat = dict(nat or {})  # a natural's `nat` term in the bounds of a sum
        self.text = ""
        self.members: set[str] = set()  # family members printed as vectors, by kernel name
        self.bound = False  # inside the body of a sum (`vectorsums.printed`)
        self.sums: dict[str, VectorSum] = {}  # the vector sums printed, by their text

    def relation(self, relation: Rel) -> tuple[str, str, str] | None:
        """`(lhs, op, rhs)` printed from the text, or None when the text is not the source
        (a relation the kernel built, like an induction's substituted invariant)."""
        if has_atoms(relation):  # sums and family members: stated in the kernel's form
            return None
        try:
            parsed = parse_relation(relation.text, self.names)
            if (atoms.canonical(parsed.lhs), parsed.op, atoms.canonical(parsed.rhs)) != (
                    relation.lhs, relation.op, relation.rhs):  # sums read as the kernel does
                return None
        except ExpressionError:
            return None
        self.text = relation.text.strip()
        tree = source_tree(self.text)  # a range `lo..hi` read as `>>`, of the same width
        if not isinstance(tree, ast.Compare):
            return None
        return self.value(tree.left)[0], COQ_OP[relation.op], self.value(tree.comparators[0])[0]

    def value(self, node: ast.expr) -> tuple[str, bool]:
        """The Coq text of `node` and whether it is a vector."""
        if isinstance(node, ast.Constant):
            literal = ast.get_source_segment(self.text, node) or str(node.value)
            return number(Fraction(literal)), False
        if isinstance(node, ast.Name):
            if node.id in self.names.vectors:
                return self.vectors.get(node.id, name(node.id)), True
            return self.scalars.get(node.id, name(node.id)), False
        if isinstance(node, ast.UnaryOp):
            text, is_vector = self.value(node.operand)
            if isinstance(node.op, ast.UAdd):
                return text, is_vector
            return (f"(vscal (-1) {text})", True) if is_vector else (f"(- {text})", False)
        if isinstance(node, ast.BinOp):
            return self.binary(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "sum":
            return vector_sum(self, node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [self.value(a)[0] for a in node.args]
            first, second = args[0], args[-1]
            return f"(ip {first} {second})", False
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and node.value.id in self.names.indexed:
            family, index = node.value.id, sympy.expand(self.index(node.slice))
            if family in self.names.vectors and not {s.name for s in index.free_symbols} & set(
                    self.scalars):
                self.members.add(atoms.vector_name(family, index))
            return f"({name(family)} {expr(index, self.scalars)})", family in self.names.vectors
        raise ExpressionError(f"cannot print {ast.unparse(node)} (a {type(node).__name__} "
                              "expression) for Coq yet")

    def index(self, node: ast.expr) -> sympy.Expr:
        """A family member's index (a polynomial in names, as the parser admits it) in
        SymPy, so it prints as the kernel's canonical member does (`(y (1 + t))` however
        the text orders it): `ring` reads a member by its printed index."""
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return sympy.Integer(node.value)
        if isinstance(node, ast.Name) and node.id not in self.names.vectors:
            return sympy.Symbol(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = self.index(node.operand)
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
            left, right = self.index(node.left), self.index(node.right)
            return (left + right if isinstance(node.op, ast.Add) else left - right
                    if isinstance(node.op, ast.Sub) else left * right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(
                node.right, ast.Constant) and type(node.right.value) is int:
            return self.index(node.left) ** node.right.value
        raise ExpressionError(f"cannot print the index {ast.unparse(node)} for Coq yet")

    def binary(self, node: ast.BinOp) -> tuple[str, bool]:
        (left, lv), (right, rv) = self.value(node.left), self.value(node.right)
        op = node.op
        if isinstance(op, ast.Pow):
            return f"({left} ^ {right})", False
        if isinstance(op, ast.Add | ast.Sub):
            if lv:
                other = right if isinstance(op, ast.Add) else f"(vscal (-1) {right})"
                return f"(vadd {left} {other})", True
            return f"({left} {'+' if isinstance(op, ast.Add) else '-'} {right})", False
        if isinstance(op, ast.Mult):
            if lv:
                return f"(vscal {right} {left})", True
            if rv:
                return f"(vscal {left} {right})", True
            return f"({left} * {right})", False
        if isinstance(op, ast.Div):
            if lv:
                return f"(vscal (1 / {right}) {left})", True
            return f"({left} / {right})", False
        raise ExpressionError(f"cannot print operator {type(op).__name__} for Coq")


# -- sums of vectors as written (issue 31; their lemmas: `verify.coq.sums.vectorsums`) ----------

@dataclass(frozen=True)
class VectorSum:
    """A written sum of vectors as printed (`text`, a `vzsum`), its bounds in Z, and its
    split by linearity: (coefficient, canonical sum) pairs, each a Coq term."""

    text: str
    lo: str
    hi: str
    parts: tuple[tuple[str, str], ...]


def _with_vectors(names: Names, *vectors: str) -> Names:
    """The proof's names with extra vectors, on a budget of their own (printing re-reads
    texts the file already paid for)."""
    return Names(names.vectors | set(vectors), names.scalars, indexed=names.indexed,
                 sets=names.sets)


def _segment(written: Written, node: ast.expr) -> str:
    text = ast.get_source_segment(written.text, node)
    if text is None:
        raise ExpressionError(f"cannot print {ast.unparse(node)} for Coq")
    return text


def vector_sum(written: Written, node: ast.Call) -> tuple[str, bool]:
    """A call `sum(...)` in a relation `written` prints from its text: a scalar sum in the
    kernel's reading, a sum of vectors as a `vzsum` (recorded in `written.sums`)."""
    if written.bound:
        raise ExpressionError("a sum inside a sum's body is not printed for Coq yet")
    segment = _segment(written, node)
    names = _with_vectors(written.names)
    try:
        value = parse_scalar(segment, names)
    except ExpressionError:
        pass  # a sum of vectors: printed below
    else:
        return expr(atoms.canonical(value), written.scalars, written.nat), False
    if (len(node.args) != 2 or not isinstance(node.args[0], ast.Compare)
            or not isinstance(node.args[0].left, ast.Name)):
        raise ExpressionError(f"cannot print {segment} for Coq")
    index, where, body = node.args[0].left.id, node.args[0].comparators[0], node.args[1]
    var = f"s'{index}"
    filters: list[tuple[sympy.Expr, str, str]] = []  # (gap, kind, the set's index)
    if isinstance(where, ast.Name) and where.id in names.sets:
        declared = names.sets[where.id]
        lo, hi = parse_bound(declared.lo, names), parse_bound(declared.hi, names)
        for text in declared.where:
            relation = parse_relation(text, names, {declared.index: sympy.Symbol(
                declared.index)})
            gap = (relation.lhs - relation.rhs if relation.op in (">=", ">", "==")
                   else relation.rhs - relation.lhs)
            kind = {"<=": ">=", "<": ">"}.get(relation.op, relation.op)
            filters.append((sympy.expand(gap), kind, declared.index))
    elif isinstance(where, ast.BinOp) and isinstance(where.op, ast.RShift):
        lo = parse_bound(_segment(written, where.left), names)
        hi = parse_bound(_segment(written, where.right), names)
    else:
        raise ExpressionError(f"cannot print {segment} for Coq")
    bounds = integer(lo, written.nat), integer(hi, written.nat)
    outer = dict(written.scalars)

    def wrap(term: str) -> str:
        """`term` (a vector at the member `var`) times each filter's 0/1 factor."""
        for gap, kind, set_index in reversed(filters):
            p = expr(gap, {**outer, set_index: var}, written.nat)
            term = f"(vscal ({INDICATORS[kind]} {p}) {term})"
        return f"(fun {var} => {term})"

    written.scalars = {**outer, index: var}
    written.bound = True
    try:
        text, is_vector = written.value(body)
    finally:
        written.scalars, written.bound = outer, False
    if not is_vector:
        raise ExpressionError(f"cannot print {segment} for Coq")
    parts = []
    for (dep, vector), coefficient in _split(written, _segment(written, body), index).items():
        inner = {**outer, index: var}
        term = f"(vscal {expr(dep, inner, written.nat)} {_split_vector(written, vector, inner)})"
        parts.append((expr(coefficient, outer, written.nat),
                      f"(vzsum {bounds[0]} {bounds[1]} {wrap(term)})"))
    found = VectorSum(f"(vzsum {bounds[0]} {bounds[1]} {wrap(text)})", *bounds, tuple(parts))
    written.sums.setdefault(found.text, found)
    return found.text, True


def _split(written: Written, body: str, index: str
           ) -> dict[tuple[sympy.Expr, str], sympy.Expr]:
    """The body of a vector sum by linearity: (monomial reading the index, vector) -> its
    coefficient free of the index, read off `dot(body, probe)` by the language's parser."""
    probe = "probe"
    while probe in written.names.vectors | written.names.scalars:
        probe += "_"
    relation = parse_relation(f"dot({body}, {probe}) == 0", _with_vectors(written.names, probe),
                              {index: sympy.Symbol(index)})
    out: dict[tuple[sympy.Expr, str], sympy.Expr] = {}
    for term in sympy.Add.make_args(sympy.expand(relation.lhs - relation.rhs)):
        if term == 0:
            continue
        coefficient, factors = term.as_coeff_mul()
        vector, dep, rest = None, sympy.Integer(1), sympy.Integer(coefficient)
        for factor in factors:
            base = factor.base if factor.is_Pow else factor
            pair = gram_pair(base) if base.is_Symbol else None
            if pair is not None and probe in pair and not factor.is_Pow:
                vector = pair[0] if pair[1] == probe else pair[1]
            elif index in atoms.names_of(factor):
                dep *= factor
            else:
                rest *= factor
        if vector is None:
            raise ExpressionError(f"cannot split the body {body} for Coq")
        out[(dep, vector)] = out.get((dep, vector), sympy.Integer(0)) + rest
    return {k: c for k, c in out.items() if sympy.expand(c) != 0}


def _split_vector(written: Written, vector: str, real: Mapping[str, str]) -> str:
    """A vector of the split: a name (as `written` substitutes it) or a family member."""
    if atoms.IDENT.fullmatch(vector):
        return written.vectors.get(vector, name(vector))
    member = atoms.structure(sympy.Symbol(vector))
    if not isinstance(member, atoms.Family):
        raise ExpressionError(f"cannot print the vector {vector} for Coq")
    return f"({name(member.family)} {expr(member.index, real, written.nat)})"



def names_in(relation: Rel | Relation, source: Names) -> set[str]:
    """Every declared name a relation mentions, in its SymPy form or its source text."""
    found: set[str] = set()
    for side in (relation.lhs, relation.rhs):
        found |= atoms.names_of(side)
    try:
        tree = source_tree(relation.text)
    except SyntaxError:
        return found
    declared = source.vectors | source.scalars
    found.update(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in declared)
    for used in sets_in(relation, source):
        found |= set_names(source, used)
    return found


def sets_in(relation: Rel | Relation, source: Names) -> set[str]:
    """The declared sets a relation's text sums over."""
    try:
        tree = source_tree(relation.text)
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} & set(source.sets)


def bound_names(relation: Rel | Relation, source: Names) -> set[str]:
    """The declared names the bounds of the sums a relation's text writes read: a range's
    `lo..hi`, a set's range and filters (naturals, bound as `nat` where such a sum is
    printed from its text, `vectorsums`)."""
    try:
        tree = source_tree(relation.text)
    except SyntaxError:
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift):
            found.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    for used in sets_in(relation, source):
        found |= set_names(source, used)
    return found & (source.vectors | source.scalars)


def set_names(source: Names, set_name: str) -> set[str]:
    """The declared names a set's range and filters read, its own index excepted (a sum
    over it printed from the text binds them, `vectorsums`)."""
    declared, found = source.sets[set_name], set()
    for text in (declared.lo, declared.hi, *declared.where):
        try:
            tree = source_tree(text)
        except SyntaxError:
            continue
        found.update(n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                     and n.id in source.vectors | source.scalars and n.id != declared.index)
    return found
