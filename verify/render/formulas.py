"""A step's relations as LaTeX and as presentation MathML, through SymPy's printers.

Gram symbols `<a,b>` print as ⟨a, b⟩. Symbol names reach the printers unescaped (SymPy's
MathML printer writes text as is), so only identifiers and Gram symbols of identifiers are
accepted; proof files cannot declare anything else.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import sympy
from sympy.printing.mathml import MathMLPresentationPrinter

from proofs.expressions import Relation
from proofs.terms import gram_pair

if TYPE_CHECKING:
    from verify.audit import StepAudit

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
OPERATORS: dict[str, tuple[str, str]] = {
    "<=": (r"\le", "&#x2264;"),
    "<": ("<", "&lt;"),
    ">=": (r"\ge", "&#x2265;"),
    ">": (">", "&gt;"),
    "==": ("=", "="),
}
"""Relation operator -> (LaTeX, MathML text)."""


def _checked(expr: sympy.Expr) -> sympy.Expr:
    for symbol in expr.free_symbols:
        names = gram_pair(symbol) or (symbol.name,)
        if not all(IDENTIFIER.fullmatch(n) for n in names):
            raise ValueError(f"symbol {symbol.name!r} is not an identifier or a Gram symbol")
    return expr


def latex(expr: sympy.Expr) -> str:
    """`expr` in LaTeX, Gram symbols as \\langle a, b \\rangle."""
    names = {
        s: rf"\left\langle {sympy.latex(sympy.Symbol(pair[0]))}, "
           rf"{sympy.latex(sympy.Symbol(pair[1]))} \right\rangle"
        for s in _checked(expr).free_symbols
        if (pair := gram_pair(s)) is not None
    }
    return sympy.latex(expr, symbol_names=names)


class _GramMathML(MathMLPresentationPrinter):
    """SymPy's presentation printer, with Gram symbols as ⟨a, b⟩."""

    def _print_Symbol(self, sym: sympy.Symbol, style: str = "plain") -> Any:
        pair = gram_pair(sym)
        if pair is None:
            return super()._print_Symbol(sym, style)
        row = self.dom.createElement("mrow")
        parts = ("\u27e8", sympy.Symbol(pair[0]), ",", sympy.Symbol(pair[1]), "\u27e9")
        for part in parts:
            if isinstance(part, str):
                node = self.dom.createElement("mo")
                node.appendChild(self.dom.createTextNode(part))
                row.appendChild(node)
            else:
                row.appendChild(super()._print_Symbol(part, style))
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
