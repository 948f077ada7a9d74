"""The one certificate printer: a certificate written out as the identity it asserts.

A certificate for `h_1, ..., e_1, ... |- claim` asserts

    (product of multiplier hypotheses) * claim  ==  sum of products  +  sum of q_j * e_j

(docs/design.md §2). Every output writes that identity the same way: the same labels for the
hypotheses (`h1, h2, ...` for inequalities, `e1, e2, ...` for equalities), the same terms in
the certificate's order, the same omissions (a weight of 1 is not written). Only the leaves
differ between formats, so `Identity` composes and a `Notation` formats leaves: `TEXT` for
the terminal and `novikoff explain` (hypotheses bracketed in place, `[h2: -y⟨w,x⟩ >= 0]`),
`LATEX` for the LaTeX and Markdown reports and `MATHML` for the HTML page (hypotheses by
label, listed above the identity).

The JSON form of a certificate (`verify.render.json`) is data for programs, not a printing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from html import escape

import sympy

from perceptron.numbers import digit_count, shown
from proofs.language.terms import Vec, gram_pair
from verify.kernel import Certificate, Fact, GramMinor, Judgement, NormSquare, Product, Sos, Square
from verify.render import formulas
from verify.typeset.names import pretty


def labels(judgement: Judgement) -> list[str]:
    """`h1, h2, ...` for inequality hypotheses and `e1, e2, ...` for equalities, in order."""
    counts = {"h": 0, "e": 0}
    out = []
    for hypothesis in judgement.hypotheses:
        kind = "e" if hypothesis.kind == "==" else "h"
        counts[kind] += 1
        out.append(f"{kind}{counts[kind]}")
    return out


class Notation(ABC):
    """How one output format writes the leaves of an identity; `names` is the proof's
    `[notation]`, so names read as in the step's statement (`verify.typeset.names`)."""

    def __init__(self, names: Mapping[str, str] | None = None) -> None:
        self.names: Mapping[str, str] = names if names is not None else {}

    @abstractmethod
    def number(self, value: Fraction) -> str:
        """An exact rational."""

    @abstractmethod
    def polynomial(self, expr: sympy.Expr) -> str:
        """A polynomial in scalars and Gram symbols."""

    @abstractmethod
    def fact(self, value: Fact) -> str:
        """`polynomial (kind) 0`."""

    @abstractmethod
    def hypothesis(self, label: str, value: Fact) -> str:
        """A hypothesis as a factor of a term."""

    @abstractmethod
    def claim(self, value: Fact) -> str:
        """The claim's polynomial as the last factor of the left side."""

    @abstractmethod
    def square(self, poly: str) -> str:
        """`poly` squared."""

    @abstractmethod
    def norm2(self, vector: str) -> str:
        """The squared norm of a vector expression."""

    @abstractmethod
    def gram_det(self, vectors: Sequence[str]) -> str:
        """The Gram determinant of vector expressions."""

    @abstractmethod
    def times(self, factors: Sequence[str]) -> str:
        """A product of already formatted factors."""

    @abstractmethod
    def group(self, terms: Sequence[str]) -> str:
        """A parenthesised sum of already formatted terms."""

    @abstractmethod
    def identity(self, left: str, terms: Sequence[str]) -> list[str]:
        """The identity `left = terms[0] + terms[1] + ...` laid out in lines."""

    @abstractmethod
    def premise(self, label: str, value: Fact) -> str:
        """One line `label: fact` listing a hypothesis (label `claim` for the claim), in
        the same layout as `identity`."""

    @abstractmethod
    def half(self, number: int, value: Fact) -> str:
        """One line heading half `number` (1 or 2) of an equality proved by antisymmetry,
        the inequality `value` it proves, in the same layout as `premise`."""

    def multiplier(self, q: sympy.Expr) -> str:
        """The polynomial multiplier of an equality hypothesis: in parentheses, except a
        single number or monomial (in the typeset notations)."""
        if isinstance(q, sympy.Rational):
            return self.number(Fraction(int(q.p), int(q.q)))
        return self.group([self.polynomial(q)]) if isinstance(q, sympy.Add) else (
            self.polynomial(q))

    def vector(self, value: Vec) -> str:
        """A linear combination of vectors (printed as a polynomial in their names)."""
        return self.polynomial(sum((c * sympy.Symbol(n) for n, c in value.items()),
                                   sympy.Integer(0)))


@dataclass(frozen=True)
class Identity:
    """A certificate of a judgement, ready to be written in any `Notation`."""

    judgement: Judgement
    certificate: Certificate

    @property
    def labels(self) -> list[str]:
        """The hypotheses' labels (`labels`)."""
        return labels(self.judgement)

    def _hypothesis(self, index: int, notation: Notation) -> str:
        return notation.hypothesis(self.labels[index], self.judgement.hypotheses[index])

    def _sos(self, term: Sos, notation: Notation) -> str:
        if isinstance(term, Square):
            body = notation.square(notation.polynomial(term.poly))
        elif isinstance(term, NormSquare):
            body = notation.norm2(notation.vector(term.vector))
        elif isinstance(term, GramMinor):
            body = notation.gram_det([notation.vector(v) for v in term.vectors])
        else:
            raise TypeError(f"unknown sum-of-squares term {term!r}")
        weight = Fraction(term.weight)
        return body if weight == 1 else notation.times([notation.number(weight), body])

    def _product(self, term: Product, notation: Notation) -> str:
        factors = [notation.number(Fraction(term.coeff)),
                   *(self._hypothesis(i, notation) for i in term.hyps)]
        if term.sigma:
            factors.append(notation.group([self._sos(s, notation) for s in term.sigma]))
        return notation.times(factors)

    def lines(self, notation: Notation) -> list[str]:
        """The identity in `notation`: the left side, then one summand per line."""
        left = notation.times([*(self._hypothesis(i, notation)
                                 for i in self.certificate.multiplier),
                               notation.claim(self.judgement.claim)])
        terms = [self._product(p, notation) for p in self.certificate.products]
        terms += [notation.times([notation.multiplier(q), self._hypothesis(j, notation)])
                  for j, q in self.certificate.linear]
        return notation.identity(left, terms or [notation.number(Fraction(0))])


def premises(judgement: Judgement, notation: Notation) -> list[str]:
    """The judgement's hypotheses by label, then its claim, one line each: what the labels
    of an identity stand for."""
    pairs = zip(labels(judgement), judgement.hypotheses, strict=True)
    return [*(notation.premise(label, fact) for label, fact in pairs),
            notation.premise("claim", judgement.claim)]


def evidence_blocks(judgement: Judgement, pieces: Sequence[tuple[Judgement, Certificate]],
                    notation: Notation) -> list[tuple[list[str], list[str]]]:
    """A judgement's evidence as (premises, identity) blocks, the identity's labels defined
    by the premises before it: the judgement's premises and, proved by one certificate, its
    identity; an equality proved by antisymmetry (two pieces, for `g >= 0` and `-g >= 0`)
    then has one block per half, headed by the inequality it proves. Every document prints
    a judgement with this, so none can leave a half out."""
    if len(pieces) != 2:
        return [(premises(judgement, notation), [
            line for half, value in pieces for line in Identity(half, value).lines(notation)])]
    blocks: list[tuple[list[str], list[str]]] = [(premises(judgement, notation), [])]
    for number, (half, value) in enumerate(pieces, 1):
        wanted = Fact((1 if number == 1 else -1) * judgement.claim.expr, ">=")
        blocks.append(([notation.half(number, wanted), *premises(half, notation)],
                       Identity(half, value).lines(notation)))
    return blocks


#: A family's members a counterexample shows in text, the first ones and the last two: a long
#: run's history (40 000 updates) made one line of 580 KB in the audit's summary; the JSON
#: report and `--counterexamples` keep every member.
MEMBERS_SHOWN = 10


BRIEF_DIGITS = 24
"""An integer longer than this is abbreviated in a one-line message (`brief`)."""
NEAR = 10 ** 6
"""`brief` writes `10^k + r` exactly when `|r|` is below this."""


def brief(value: Fraction) -> str:
    """`value` for a one-line message: `p/q` as `str`, but an integer (a numerator or a
    denominator) of more than `BRIEF_DIGITS` digits abbreviated, exactly when it is
    `±10^k + r` with `|r| < NEAR` (`10^999 - 1`), else the whole value as `shown` marks an
    approximation (`~1.74780000e+954 (exact: 955 digits; see --json)`). A refuted
    `(a - 1e999)**2 >= 1` printed its point's thousand digits in `novikoff check`'s line;
    `--json` and `explain` keep them. Digits are counted, never converted, past `BRIEF_DIGITS`:
    Python refuses `str` of an integer of more than 4300 digits."""
    def exact(n: int) -> str | None:
        size = digit_count(n)
        if size <= BRIEF_DIGITS:
            return str(n)
        power = size - 1 + (abs(n) >= 9 * 10 ** (size - 1))  # 99..9 is 10^k - r
        rest = abs(n) - 10 ** power
        if abs(rest) >= NEAR:
            return None
        sign = "-" if n < 0 else ""
        tail = f" - {-rest}" if rest < 0 else f" + {rest}" if rest else ""
        return f"{sign}(10^{power}{tail})" if sign and tail else f"{sign}10^{power}{tail}"

    p, q = exact(value.numerator), exact(value.denominator)
    if p is None or q is None:
        return shown(value, BRIEF_DIGITS)
    if q == "1":
        return p
    return "/".join(f"({t})" if " " in t else t for t in (p, q))  # (10^30 + 7)/3


def assignments(scalars: Mapping[str, object], vectors: Mapping[str, Sequence[object]],
                names: Set[str] | None = None, show: Callable[[str], str] = str,
                families: Mapping[str, Mapping[object, object]] | None = None,
                number: Callable[[Fraction], str] = str) -> list[str]:
    """A counterexample's values: `name = value` per scalar, then `name = (x, y, ...)` per
    vector, exact rationals as `p/q` (only `names`, when given; each name as `show` writes
    it; each value as `number` writes it: `brief` for a one-line message). The terminal's
    `explain` and the three documents print counterexamples with this, from objects or from
    their JSON."""
    def exact(value: object) -> str:
        return number(Fraction(value))  # type: ignore[arg-type]

    lines = [f"{show(n)} = {exact(v)}" for n, v in scalars.items()
             if names is None or n in names]
    lines += [f"{show(n)} = ({', '.join(exact(x) for x in v)})" for n, v in vectors.items()
              if names is None or n in names]
    for n, members in (families or {}).items():
        if names is not None and n not in names:
            continue
        items = list(members.items())
        cut = len(items) > MEMBERS_SHOWN
        for k, (i, v) in enumerate([*items[:MEMBERS_SHOWN - 2], *items[-2:]] if cut else items):
            if cut and k == MEMBERS_SHOWN - 2:
                lines.append(f"... {len(items) - MEMBERS_SHOWN} more members of {show(n)} "
                             f"(all {len(items)} in the JSON report)")
            lines.append(f"{show(n)}[{exact(i)}] = " + (
                f"({', '.join(exact(x) for x in v)})" if isinstance(v, tuple | list)
                else exact(v)))
    if families:
        lines.append("every other member 0")
    return lines


# -- plain text ---------------------------------------------------------------------------------


class Text(Notation):
    """Plain text: ⟨a,b⟩ for Gram symbols, `^` for powers, hypotheses bracketed in place, and
    names as Unicode by the rules of `verify.typeset.names` (θ*, x̄, R², γ, x₁), the notation
    the step's statement prints in."""

    def number(self, value: Fraction) -> str:
        return str(value)

    def name(self, name: str) -> str:
        """A scalar or vector name, prettified."""
        return pretty(name, self.names).text()

    def polynomial(self, expr: sympy.Expr) -> str:
        renamed = {s: sympy.Symbol(f"⟨{self.name(pair[0])},{self.name(pair[1])}⟩"
                                   if (pair := gram_pair(s)) is not None else self.name(s.name))
                   for s in expr.free_symbols}
        if len(set(renamed.values())) < len(renamed):  # two names print alike: keep them apart
            renamed = {s: sympy.Symbol(f"⟨{pair[0]},{pair[1]}⟩")
                       for s in expr.free_symbols if (pair := gram_pair(s)) is not None}
        return str(expr.xreplace(renamed)).replace("**", "^")

    def fact(self, value: Fact) -> str:
        return f"{self.polynomial(value.expr)} {'=' if value.kind == '==' else value.kind} 0"

    def hypothesis(self, label: str, value: Fact) -> str:
        return f"[{label}: {self.fact(value)}]"

    def claim(self, value: Fact) -> str:
        return f"(claim: {self.polynomial(value.expr)})"

    def square(self, poly: str) -> str:
        return f"({poly})^2"

    def norm2(self, vector: str) -> str:
        return f"‖{vector}‖^2"

    def gram_det(self, vectors: Sequence[str]) -> str:
        return f"det Gram({', '.join(vectors)})"

    def times(self, factors: Sequence[str]) -> str:
        return " * ".join(factors)

    def group(self, terms: Sequence[str]) -> str:
        return "(" + " + ".join(terms) + ")"

    def multiplier(self, q: sympy.Expr) -> str:
        """Always in parentheses, as `novikoff explain` has always written it."""
        return self.group([self.polynomial(q)])

    def identity(self, left: str, terms: Sequence[str]) -> list[str]:
        return [f"  {left}", *(f"    {'=' if k == 0 else '+'} {t}" for k, t in enumerate(terms))]

    def premise(self, label: str, value: Fact) -> str:
        return f"  {label}: {self.fact(value)}"

    def half(self, number: int, value: Fact) -> str:
        return f"  half {number} of the equality: {self.fact(value)}"


# -- LaTeX ----------------------------------------------------------------------------------------


class Latex(Notation):
    """LaTeX math (amsmath): hypotheses as `h_{1}`, the identity as `aligned` rows."""

    def number(self, value: Fraction) -> str:
        sign = "-" if value < 0 else ""
        value = abs(value)
        if value.denominator == 1:
            return f"{sign}{value.numerator}"
        return rf"{sign}\tfrac{{{value.numerator}}}{{{value.denominator}}}"

    def polynomial(self, expr: sympy.Expr) -> str:
        return formulas.latex(expr, self.names)

    def fact(self, value: Fact) -> str:
        return f"{self.polynomial(value.expr)} {formulas.OPERATORS[value.kind][0]} 0"

    @staticmethod
    def label(label: str) -> str:
        """`h1` as `h_{1}`."""
        return f"{label[0]}_{{{label[1:]}}}"

    def hypothesis(self, label: str, value: Fact) -> str:
        return self.label(label)

    def claim(self, value: Fact) -> str:
        return r"\mathrm{claim}"

    def square(self, poly: str) -> str:
        return rf"\left({poly}\right)^{{2}}"

    def norm2(self, vector: str) -> str:
        return rf"\left\| {vector} \right\|^{{2}}"

    def gram_det(self, vectors: Sequence[str]) -> str:
        return rf"\det \operatorname{{Gram}}\left({', '.join(vectors)}\right)"

    def times(self, factors: Sequence[str]) -> str:
        shown = [f for f in factors if f != "1"] if len(factors) > 1 else list(factors)
        return r" \cdot ".join(shown or ["1"])

    def group(self, terms: Sequence[str]) -> str:
        signed = [t if k == 0 else (f"- {t[1:].lstrip()}" if t.startswith("-") else f"+ {t}")
                  for k, t in enumerate(terms)]
        return r"\left(" + " ".join(signed) + r"\right)"

    def identity(self, left: str, terms: Sequence[str]) -> list[str]:
        rest = [rf"&\quad - {t[1:].lstrip()}" if t.startswith("-") else rf"&\quad + {t}"
                for t in terms[1:]]
        return [rf"{left} &= {terms[0]}", *rest]

    def premise(self, label: str, value: Fact) -> str:
        name = r"\mathrm{claim}" if label == "claim" else self.label(label)
        return rf"{name} &\colon {self.fact(value)}"

    def half(self, number: int, value: Fact) -> str:
        return rf"\text{{half {number} of the equality}} &\colon {self.fact(value)}"


# -- MathML ---------------------------------------------------------------------------------------


class MathML(Notation):
    """Presentation MathML fragments: hypotheses as h₁, the identity as `mtable` rows."""

    def number(self, value: Fraction) -> str:
        sign = "<mo>&#x2212;</mo>" if value < 0 else ""
        value = abs(value)
        if value.denominator == 1:
            return f"{sign}<mn>{value.numerator}</mn>"
        return (f"{sign}<mfrac><mn>{value.numerator}</mn><mn>{value.denominator}</mn>"
                "</mfrac>")

    def polynomial(self, expr: sympy.Expr) -> str:
        return formulas.mathml(expr, self.names)

    def fact(self, value: Fact) -> str:
        return (f"<mrow>{self.polynomial(value.expr)}"
                f"<mo>{formulas.OPERATORS[value.kind][1]}</mo><mn>0</mn></mrow>")

    @staticmethod
    def label(label: str) -> str:
        """`h1` as h₁."""
        return f"<msub><mi>{escape(label[0])}</mi><mn>{escape(label[1:])}</mn></msub>"

    def hypothesis(self, label: str, value: Fact) -> str:
        return self.label(label)

    def claim(self, value: Fact) -> str:
        return '<mi mathvariant="normal">claim</mi>'

    def square(self, poly: str) -> str:
        return f"<msup><mrow><mo>(</mo>{poly}<mo>)</mo></mrow><mn>2</mn></msup>"

    def norm2(self, vector: str) -> str:
        return f"<msup><mrow><mo>&#x2016;</mo>{vector}<mo>&#x2016;</mo></mrow><mn>2</mn></msup>"

    def gram_det(self, vectors: Sequence[str]) -> str:
        inner = "<mo>,</mo>".join(vectors)
        return ('<mrow><mi>det</mi><mo>&#x2061;</mo><mi mathvariant="normal">Gram</mi>'
                f"<mo>(</mo>{inner}<mo>)</mo></mrow>")

    def times(self, factors: Sequence[str]) -> str:
        shown = [f for f in factors if f != "<mn>1</mn>"] if len(factors) > 1 else factors
        return "<mrow>" + "<mo>&#x22C5;</mo>".join(shown or ["<mn>1</mn>"]) + "</mrow>"

    def group(self, terms: Sequence[str]) -> str:
        signed = [t if k == 0 else _signed(t) for k, t in enumerate(terms)]
        return "<mrow><mo>(</mo>" + "".join(signed) + "<mo>)</mo></mrow>"

    def identity(self, left: str, terms: Sequence[str]) -> list[str]:
        rows = [f'<mtr><mtd columnalign="right">{left}</mtd>'
                f'<mtd columnalign="left"><mo>=</mo>{terms[0]}</mtd></mtr>']
        rows += [f'<mtr><mtd></mtd><mtd columnalign="left">{_signed(t)}</mtd></mtr>'
                 for t in terms[1:]]
        return rows

    def premise(self, label: str, value: Fact) -> str:
        name = self.claim(value) if label == "claim" else self.label(label)
        return (f'<mtr><mtd columnalign="right">{name}</mtd>'
                f'<mtd columnalign="left"><mo>:</mo>{self.fact(value)}</mtd></mtr>')

    def half(self, number: int, value: Fact) -> str:
        return (f'<mtr><mtd columnalign="right"><mtext>half {number} of the equality</mtext>'
                f'</mtd><mtd columnalign="left"><mo>:</mo>{self.fact(value)}</mtd></mtr>')


_MINUS = "<mo>&#x2212;</mo>"


def _signed(term: str) -> str:
    """`+ term`, or `− rest` when the term already begins with a minus (never "+ −")."""
    for opening in ("<mrow>", ""):
        if term.startswith(opening + _MINUS):
            return _MINUS + opening + term[len(opening + _MINUS):]
        if term.startswith(opening + "<mn>&#x2212;"):
            return _MINUS + opening + "<mn>" + term[len(opening + "<mn>&#x2212;"):]
    return "<mo>+</mo>" + term


TEXT = Text()
LATEX = Latex()
MATHML = MathML()
