"""Certificate and counterexample checks: the arithmetic core of the kernel.

A certificate for `hypotheses |- claim (kind) 0` is accepted only when

    m * claim  ==  sum_k a_k * prod(h_i for i in hyps_k) * sigma_k  +  sum_j q_j * e_j

holds as an identity of polynomials over QQ in scalar and Gram symbols (docs/design.md §2).
Why that proves the claim: at any real point where the hypotheses hold, with each Gram symbol
`<a,b>` realised as the inner product of real vectors, every product term is >= 0 (`a_k >= 0`,
each `h_i >= 0`, and `sigma_k` sums `w * p**2`, `w * |v|**2` and `w * det Gram(v_1..v_n)`
with `w >= 0`, all >= 0 in any real inner-product space), each `e_j` is 0 and `m`, a product
of strictly positive hypotheses, is > 0; so `claim >= 0`. What keeps that argument valid:

- The ring has every symbol of the judgement and of the certificate: an identity that holds
  in extra symbols holds after realising them arbitrarily. Symbols are plain, so one name is
  one variable; `<a,b>` *is* the inner product of the identifier-named vectors a and b.
- Gram facts are an axiom schema the kernel expands itself from explicit vectors (n <= 3).
- `>` needs one strictly positive term (coefficient > 0, strict hypotheses only, no sigma);
  `==` takes no product terms (they only give `>= 0`); equalities appear only in `linear`,
  inequalities only in products, and only strict ones in the multiplier (a merely
  nonnegative `m` could be 0 and prove anything).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce
from operator import add, mul

import sympy
from sympy.polys.domains import QQ
from sympy.polys.rings import PolyElement

from verify.kernel import algebra, atoms
from verify.kernel.algebra import KINDS, Fact, KernelError, gram, gram_pair

__all__ = ["Certificate", "Counterexample", "Frozen", "GramMinor", "Judgement", "NormSquare",
           "Product", "Sos", "Square", "check_certificate", "check_counterexample"]
MAX_GRAM = 3  # GramMinor sizes 1..MAX_GRAM


@dataclass(frozen=True)
class Judgement:
    """`hypotheses |- claim`, with the declared vector and scalar names."""
    hypotheses: tuple[Fact, ...]
    claim: Fact
    vectors: tuple[str, ...] = ()
    scalars: tuple[str, ...] = ()

    def symbols(self) -> tuple[sympy.Symbol, ...]:
        """Every symbol occurring, in a deterministic order (scalars, then Gram symbols)."""
        found = set().union(*(f.expr.free_symbols for f in (*self.hypotheses, self.claim)))
        return tuple(sorted(found, key=lambda s: (gram_pair(s) is not None, s.name)))


VectorTerms = Mapping[str, sympy.Expr]  # an explicit vector `sum coeff * name`


@dataclass(frozen=True)
class Square:
    """`weight * poly**2` for a scalar polynomial `poly`."""
    weight: Fraction
    poly: sympy.Expr


@dataclass(frozen=True)
class NormSquare:
    """`weight * dot(vector, vector)` for an explicit vector expression."""
    weight: Fraction
    vector: VectorTerms


@dataclass(frozen=True)
class GramMinor:
    """`weight * det(Gram(vectors))`: Cauchy–Schwarz and its higher-order relatives."""
    weight: Fraction
    vectors: tuple[VectorTerms, ...]


Sos = Square | NormSquare | GramMinor


@dataclass(frozen=True)
class Product:
    """`coeff * prod(hypotheses[i] for i in hyps) * sum(sigma)`; an empty sigma means 1."""
    coeff: Fraction
    hyps: tuple[int, ...] = ()
    sigma: tuple[Sos, ...] = ()


@dataclass(frozen=True)
class Certificate:
    """`m * claim == sum(products) + sum(q_j * e_j for (j, q_j) in linear)` (docs/design.md §2),
    where `m` multiplies the strictly positive hypotheses indexed by `multiplier`."""
    products: tuple[Product, ...]
    linear: tuple[tuple[int, sympy.Expr], ...] = ()
    multiplier: tuple[int, ...] = ()


class Frozen(dict):  # type: ignore[type-arg]
    """A read-only dict, a Refutation's counterexample's (red team 22 F6: its holder could
    change the point the kernel checked), that pickles (an audit's workers send it) and reads
    back as a dict (a MappingProxyType view did neither)."""
    __slots__ = ()

    def _refused(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a checked counterexample is read-only")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refused

    def __reduce__(self) -> tuple[type, tuple[dict]]:  # type: ignore[type-arg, override]
        return Frozen, (dict(self),)


@dataclass(frozen=True)
class Counterexample:
    """Rational scalars and rational coordinate vectors (one common dimension), and families:
    an index to a value (scalar or vector), 0 or the zero vector wherever not given."""
    scalars: dict[str, Fraction]
    vectors: dict[str, tuple[Fraction, ...]]
    families: dict[str, dict[Fraction, Fraction | tuple[Fraction, ...]]] = field(
        default_factory=dict)
Vector = tuple[tuple[str, sympy.Expr], ...]


def facts(judgement: object) -> tuple[tuple[Fact, ...], Fact]:
    """The hypotheses and claim of a well-formed judgement, re-validated."""
    if type(judgement) is not Judgement:
        raise KernelError(f"expected a Judgement, not {type(judgement).__name__}")
    out = []
    for n, fact in enumerate((*algebra.items(judgement.hypotheses, "hypotheses"),
                              judgement.claim)):
        if type(fact) is not Fact or type(fact.kind) is not str or fact.kind not in KINDS:
            raise KernelError(f"malformed fact {fact!r}: expected Fact(expr, kind in {KINDS})")
        what = "claim" if n == len(judgement.hypotheses) else f"hypothesis {n}"
        out.append(Fact(algebra.expr(fact.expr, what), fact.kind))
    return tuple(out[:-1]), out[-1]


def _index(value: object, hyps: tuple[Fact, ...], kinds: tuple[str, ...], what: str) -> int:
    """A hypothesis index in range whose kind is one of `kinds` (the role decides the kind)."""
    if type(value) is not int:
        raise KernelError(f"{what}: hypothesis index {value!r} is not an int")
    if not 0 <= value < len(hyps):
        raise KernelError(f"{what}: hypothesis index {value} out of range ({len(hyps)} given)")
    if hyps[value].kind not in kinds:
        need = " or ".join(map(repr, kinds))
        raise KernelError(f"{what}: hypothesis {value} `{hyps[value]}` is not {need}")
    return value


class _Term:
    """A validated product term: coefficient, hypothesis indices, squares and Gram minors."""
    def __init__(self, k: int, product: object, hyps: tuple[Fact, ...]) -> None:
        what = f"product {k}"
        if type(product) is not Product:
            raise KernelError(f"{what} must be a Product, not {type(product).__name__}")
        self.coeff = algebra.rational(product.coeff, f"{what} coefficient", nonnegative=True)
        self.hyps = [_index(i, hyps, (">=", ">"), what)
                     for i in algebra.items(product.hyps, f"{what}.hyps")]
        self.strict = self.coeff > 0 and all(hyps[i].kind == ">" for i in self.hyps)
        self.squares: list[tuple[Fraction, sympy.Expr, str]] = []
        self.minors: list[tuple[Fraction, list[Vector]]] = []  # NormSquare(v): GramMinor((v,))
        for n, entry in enumerate(algebra.items(product.sigma, f"{what}.sigma")):
            where = f"{what} sigma {n}"
            if type(entry) not in (Square, NormSquare, GramMinor):
                raise KernelError(f"{where}: {type(entry).__name__} is not a sigma entry")
            weight = algebra.rational(entry.weight, f"{where} weight", nonnegative=True)
            if type(entry) is Square:
                poly = f"{where} polynomial"
                self.squares.append((weight, algebra.expr(entry.poly, poly), poly))
                continue
            vectors = algebra.items((entry.vector,) if type(entry) is NormSquare
                                    else entry.vectors, f"{where} vectors")
            if not 1 <= len(vectors) <= MAX_GRAM:
                raise KernelError(f"{where}: GramMinor of {len(vectors)} vectors (1..3)")
            self.minors.append((weight, [algebra.vector(v, f"{where} vector {i}")
                                         for i, v in enumerate(vectors)]))
        self.sigma_empty = not (self.squares or self.minors)


def _det(matrix: list[list[PolyElement]]) -> PolyElement:
    """Determinant by cofactor expansion along the first row (n <= 3, exact)."""
    if len(matrix) == 1:
        return matrix[0][0]
    return reduce(add, ((-1) ** j * matrix[0][j] * _det([r[:j] + r[j + 1:] for r in matrix[1:]])
                        for j in range(len(matrix))))


def _sides(judgement: object, certificate: object) -> tuple[PolyElement, PolyElement]:
    """Validate everything, then return both sides of the identity as polynomials."""
    hyps, claim = facts(judgement)
    if type(certificate) is not Certificate:
        raise KernelError(f"expected a Certificate, not {type(certificate).__name__}")
    multiplier = [_index(i, hyps, (">",), f"multiplier {n}")
                  for n, i in enumerate(algebra.items(certificate.multiplier, "multiplier"))]
    terms = [_Term(k, p, hyps) for k, p in enumerate(algebra.items(certificate.products,
                                                                   "products"))]
    linear: list[tuple[int, sympy.Expr, str]] = []
    for n, entry in enumerate(algebra.items(certificate.linear, "certificate.linear")):
        if type(entry) not in (tuple, list) or len(entry) != 2:  # type: ignore[arg-type]
            raise KernelError(f"linear {n} must be a pair (equality index, polynomial)")
        what = f"linear {n} polynomial"
        linear.append((_index(entry[0], hyps, ("==",), f"linear {n}"),  # type: ignore[index]
                       algebra.expr(entry[1], what), what))  # type: ignore[index]
    if claim.kind == "==" and terms:
        raise KernelError("an equality claim takes no product terms (they only prove >= 0)")
    if claim.kind == ">" and not any(t.strict and t.sigma_empty for t in terms):
        raise KernelError("strict claim without a strictly positive term "
                          "(coefficient > 0, only strict hypotheses, empty sigma)")

    exprs = [f.expr for f in (*hyps, claim)] + [q for _, q, _ in linear]
    exprs += [e for term in terms for _, e, _ in term.squares]
    vectors = [v for term in terms for _, vs in term.minors for v in vs]
    exprs += [c for v in vectors for _, c in v]
    names = {name for v in vectors for name, _ in v}
    symbols = set().union(*map(algebra.symbols_of, exprs))
    symbols |= {gram(a, b) for a in names for b in names}
    ring = tuple(sorted(symbols, key=lambda s: s.name))
    R, gens = algebra._ring(ring)  # the kernel's own ring and memo: nothing here leaves `_sides`

    def number(f: Fraction) -> PolyElement:
        return R(QQ(f.numerator, f.denominator))

    def poly(e: sympy.Expr, what: str = "certificate") -> PolyElement:
        return algebra.fold(e, what, gens.__getitem__, number)

    def dot(u: Vector, v: Vector) -> PolyElement:
        return R.zero + sum(poly(cu) * poly(cv) * gens[gram(a, b)] for a, cu in u for b, cv in v)

    hyp = [algebra._polynomial(ring, h.expr, f"hypothesis {i}") for i, h in enumerate(hyps)]
    lhs = reduce(mul, (hyp[i] for i in multiplier), R.one) * algebra._polynomial(
        ring, claim.expr, "claim")
    rhs = R.zero
    for term in terms:
        sigma = R.one if term.sigma_empty else R.zero
        for weight, p, what in term.squares:
            sigma += number(weight) * poly(p, what) ** 2
        for weight, vs in term.minors:
            sigma += number(weight) * _det([[dot(u, v) for v in vs] for u in vs])
        rhs += number(term.coeff) * reduce(mul, (hyp[i] for i in term.hyps), R.one) * sigma
    for i, q, what in linear:
        rhs += poly(q, what) * hyp[i]
    return lhs, rhs


def check_certificate(judgement: Judgement, certificate: Certificate) -> None:
    """Return None if `certificate` proves `judgement`; else raise KernelError saying why."""
    lhs, rhs = _sides(judgement, certificate)
    if lhs != rhs:
        residual = str((lhs - rhs).as_expr())
        raise KernelError(f"identity fails: m*claim - certificate = {residual[:200]}"
                          + "..." * (len(residual) > 200))


class Point:
    """A validated counterexample: exact scalars, coordinate vectors of one dimension >= 1
    and families, whose dot products realise the Gram symbols and whose sums are evaluated
    exactly (`atoms.World`): a genuine real instance."""
    def __init__(self, cex: object) -> None:
        if type(cex) is not Counterexample:
            raise KernelError(f"expected a Counterexample, not {type(cex).__name__}")
        if not all(type(d) in (dict, Frozen) for d in (cex.scalars, cex.vectors, cex.families)):
            raise KernelError("counterexample scalars, vectors and families must be dicts")
        self.scalars = {self._name(n, "scalar"): algebra.rational(v, f"scalar {n}")
                        for n, v in cex.scalars.items()}
        self.vectors = {self._name(n, "vector"): self._coordinates(v, n)
                        for n, v in cex.vectors.items()}
        self.families: dict[str, dict[Fraction, Fraction | tuple[Fraction, ...]]] = {}
        for n, members in cex.families.items():
            if type(members) not in (dict, Frozen):
                raise KernelError(f"family {n!r} must be a dict of index to value")
            self.families[algebra.text(n, "family name")] = {
                algebra.rational(i, f"an index of {n}"): self._coordinates(v, n) if type(v) in (
                    tuple, list) else algebra.rational(v, f"{n}[{i}]") for i, v in members.items()}
        dimensions = {len(v) for v in (*self.vectors.values(), *(
            x for m in self.families.values() for x in m.values() if type(x) is tuple))}
        if len(dimensions) > 1 or 0 in dimensions:
            raise KernelError(f"vectors must share one dimension >= 1, got {sorted(dimensions)}")
        self.world = atoms.World(self.scalars, self.vectors, self.families,
                                 next(iter(dimensions), 1))

    @staticmethod
    def _name(name: object, kind: str) -> str:
        """A name, never a Gram symbol, a member or a sum: those are evaluated, not assigned
        (a value given to one would be ignored, and shown as if it held)."""
        if not atoms.IDENT.fullmatch(algebra.text(name, f"{kind} name")):  # type: ignore[arg-type]
            raise KernelError(f"{kind} {name!r} is not a name: only names are assigned")
        return name  # type: ignore[return-value]

    @staticmethod
    def _coordinates(value: object, name: object) -> tuple[Fraction, ...]:
        return tuple(algebra.rational(x, f"vector {name}[{i}]")
                     for i, x in enumerate(algebra.items(value, str(name))))

    def value(self, symbol: sympy.Symbol) -> Fraction:
        """The value of a scalar, Gram, family or sum symbol at this point."""
        return self.world.value(symbol)


def check_counterexample(judgement: Judgement, cex: Counterexample) -> None:
    """Return None if `cex` satisfies every hypothesis and violates the claim, exactly."""
    hyps, claim = facts(judgement)
    point = Point(cex)

    def value(fact: Fact, what: str) -> Fraction:
        return algebra.fold(fact.expr, what, point.value, lambda f: f)

    for i, fact in enumerate(hyps):
        if not algebra.holds(fact.kind, v := value(fact, f"hypothesis {i}")):
            raise KernelError(f"hypothesis {i} `{fact}` fails at the counterexample (value {v})")
    if algebra.holds(claim.kind, v := value(claim, "claim")):
        raise KernelError(f"the claim `{claim}` holds at the counterexample (value {v})")
