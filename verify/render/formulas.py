"""A step's relations as LaTeX and as presentation MathML, through SymPy's printers.

Gram symbols `<a,b>` print as ⟨a, b⟩. Names print as written: SymPy's own convention turns
trailing digits into subscripts (`R2` would read R₂, a different quantity from the squared
radius the proofs mean), so every name goes through `name_latex` / `_GramMathML`: a Greek
letter's name is the letter, an underscore is a subscript (the author wrote one), and any
other name of several characters is one italic word (`\\mathit{R2}`). Symbol names reach the
printers unescaped (SymPy's MathML printer writes text as is), so only identifiers and Gram
symbols of identifiers are accepted; proof files cannot declare anything else.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Any

import sympy
from sympy.printing.mathml import MathMLPresentationPrinter

from proofs.language.expressions import Relation
from proofs.language.terms import gram_pair

if TYPE_CHECKING:
    from verify.audit.job import StepAudit

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
OPERATORS: dict[str, tuple[str, str]] = {
    "<=": (r"\le", "&#x2264;"),
    "<": ("<", "&lt;"),
    ">=": (r"\ge", "&#x2265;"),
    ">": (">", "&gt;"),
    "==": ("=", "="),
}
"""Relation operator -> (LaTeX, MathML text)."""


GREEK = frozenset({
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
    "Omega",
})
"""Names that print as Greek letters (those LaTeX has a command for)."""
_GREEK_DIGITS = re.compile(r"([A-Za-z]+)([0-9]+)")


def _split(name: str) -> tuple[str, str]:
    """(base, subscript) at the first underscore that has text on both sides."""
    base, _, sub = name.partition("_")
    return (base, sub) if base and sub else (name, "")


def name_latex(name: str) -> str:
    """An identifier as LaTeX math, printed as written: `gamma` γ, `gamma_u` γ_u, `x` x,
    `R2` \\mathit{R2} (not R_2), `theta0` θ0."""
    base, sub = _split(name)
    if base in GREEK:
        head = f"\\{base}"
    elif (m := _GREEK_DIGITS.fullmatch(base)) and m.group(1) in GREEK:
        head = f"\\{m.group(1)}{m.group(2)}"
    elif len(base) == 1:
        head = base
    else:
        head = "\\mathit{" + base.replace("_", "\\_") + "}"
    return f"{head}_{{{name_latex(sub)}}}" if sub else head


def _greek(name: str) -> str:
    """The Greek letter called `name` (a member of GREEK)."""
    case = "CAPITAL" if name[0].isupper() else "SMALL"
    return unicodedata.lookup(f"GREEK {case} LETTER {name.upper().replace('LAMBDA', 'LAMDA')}")


def _checked(expr: sympy.Expr) -> sympy.Expr:
    for symbol in expr.free_symbols:
        names = gram_pair(symbol) or (symbol.name,)
        if not all(IDENTIFIER.fullmatch(n) for n in names):
            raise ValueError(f"symbol {symbol.name!r} is not an identifier or a Gram symbol")
    return expr


def symbol_latex(symbol: sympy.Symbol) -> str:
    """A scalar as `name_latex`, a Gram symbol as \\left\\langle a, b \\right\\rangle."""
    pair = gram_pair(symbol)
    if pair is None:
        return name_latex(symbol.name)
    return rf"\left\langle {name_latex(pair[0])}, {name_latex(pair[1])} \right\rangle"


def latex(expr: sympy.Expr) -> str:
    """`expr` in LaTeX, names as written (`name_latex`), Gram symbols as ⟨a, b⟩."""
    names = {s: symbol_latex(s) for s in _checked(expr).free_symbols}
    return sympy.latex(expr, symbol_names=names)


class _GramMathML(MathMLPresentationPrinter):
    """SymPy's presentation printer, with Gram symbols as ⟨a, b⟩ and names as written
    (the rules of `name_latex`)."""

    def _element(self, tag: str, text: str, **attributes: str) -> Any:
        node = self.dom.createElement(tag)
        for key, value in attributes.items():
            node.setAttribute(key, value)
        node.appendChild(self.dom.createTextNode(text))
        return node

    def _name(self, name: str) -> Any:
        base, sub = _split(name)
        if base in GREEK:
            head = self._element("mi", _greek(base))
        elif (m := _GREEK_DIGITS.fullmatch(base)) and m.group(1) in GREEK:
            head = self.dom.createElement("mrow")
            head.appendChild(self._element("mi", _greek(m.group(1))))
            head.appendChild(self._element("mn", m.group(2)))
        elif len(base) == 1:
            head = self._element("mi", base)
        else:
            head = self._element("mi", base, mathvariant="italic")
        if not sub:
            return head
        node = self.dom.createElement("msub")
        node.appendChild(head)
        node.appendChild(self._name(sub))
        return node

    def _print_Symbol(self, sym: sympy.Symbol, style: str = "plain") -> Any:
        pair = gram_pair(sym)
        if pair is None:
            return self._name(sym.name)
        row = self.dom.createElement("mrow")
        row.appendChild(self._element("mo", "\u27e8"))
        row.appendChild(self._name(pair[0]))
        row.appendChild(self._element("mo", ","))
        row.appendChild(self._name(pair[1]))
        row.appendChild(self._element("mo", "\u27e9"))
        return row


def mathml(expr: sympy.Expr) -> str:
    """`expr` as presentation MathML (no `<math>` element around it), minus signs as −.

    Named entities become numeric references, so the fragment is well-formed XML too.
    """
    text = str(_GramMathML().doprint(_checked(expr)))
    for old, new in _REPLACEMENTS:
        text = text.replace(old, new)
    return text


_REPLACEMENTS = (
    ("<mo>-</mo>", "<mo>&#x2212;</mo>"),
    ("<mn>-", "<mn>&#x2212;"),
    ("&InvisibleTimes;", "&#x2062;"),
)


def relation_latex(relation: Relation) -> str:
    """`lhs op rhs` in LaTeX (sides printed apart, so nothing is evaluated)."""
    return f"{latex(relation.lhs)} {OPERATORS[relation.op][0]} {latex(relation.rhs)}"


def relation_mathml(relation: Relation) -> str:
    """`lhs op rhs` as an `mrow`."""
    op = OPERATORS[relation.op][1]
    return f"<mrow>{mathml(relation.lhs)}<mo>{op}</mo>{mathml(relation.rhs)}</mrow>"


def statement_latex(step: StepAudit) -> list[str]:
    """The step's hypotheses, then `\\vdash` and its claim: one math fragment each."""
    claim = step.step.claim
    return [*map(relation_latex, step.hypotheses), rf"\vdash {relation_latex(claim)}"]


def statement_mathml(step: StepAudit) -> tuple[list[str], str]:
    """The step's hypotheses, one `<math>` element each, and `⊢ claim` as another."""
    given = [f"<math>{relation_mathml(h)}</math>" for h in step.hypotheses]
    claim = relation_mathml(step.step.claim)
    return given, f'<math><mo>&#x22A2;</mo><mspace width="0.4em"/>{claim}</math>'
