"""Polynomials (SymPy's normal form: certificates, counterexample checks) as LaTeX and as
presentation MathML, through SymPy's printers; statements as their author wrote them are
`verify.typeset.written`'s.

Gram symbols `<a,b>` print as ⟨a, b⟩. Every name prints by the rules of
`verify.typeset.names` (`R2` R², `gamma_u` γ_u, `theta_star` θ*, a proof's `[notation]`
first), the same rules the written statements use, so a step and its certificate share one
notation. A family member `y[i]` prints as y with the subscript i, a sum as Σ over its range
(its conditions under the Σ, its index `#h` as i_h), as the kernel reads them
(`verify.kernel.atoms`). Symbol names reach SymPy's printers only as identifiers or Gram
symbols of identifiers (its MathML printer writes text as is); anything else is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from xml.dom import minidom

import sympy
from sympy.printing.mathml import MathMLPresentationPrinter

from proofs.language.terms import gram_pair
from verify.kernel import KernelError, atoms
from verify.typeset.names import pretty

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
OPERATORS: dict[str, tuple[str, str]] = {
    "<=": (r"\le", "&#x2264;"),
    "<": ("<", "&lt;"),
    ">=": (r"\ge", "&#x2265;"),
    ">": (">", "&gt;"),
    "==": ("=", "="),
}
"""Relation operator -> (LaTeX, MathML text)."""
Names = Mapping[str, str] | None
"""A proof's `[notation]` (name -> identifier it reads as), or None."""


def name_latex(name: str, notation: Names = None) -> str:
    """An identifier as LaTeX math by the rules of `verify.typeset.names`."""
    return pretty(name, notation).latex()


def _atom(symbol: sympy.Symbol) -> object:
    """What the kernel reads a family member, Gram symbol of members or sum as (None for a
    name, a Gram symbol of names or a bound index)."""
    if atoms.INDEX.fullmatch(symbol.name):
        return None
    try:
        return atoms.structure(symbol)
    except KernelError:
        return None


def _checked(expr: sympy.Expr) -> sympy.Expr:
    for symbol in expr.free_symbols:
        names = gram_pair(symbol) or (symbol.name,)
        if not all(IDENTIFIER.fullmatch(n) for n in names) and _atom(symbol) is None and not \
                atoms.INDEX.fullmatch(symbol.name):
            raise ValueError(f"symbol {symbol.name!r} is not an identifier or a Gram symbol")
    return expr


def symbol_latex(symbol: sympy.Symbol, notation: Names = None) -> str:
    """A scalar as `name_latex`, a Gram symbol as \\left\\langle a, b \\right\\rangle, a
    member as y_{i}, a sum as \\sum over its range."""
    if atoms.INDEX.fullmatch(symbol.name):
        return f"i_{{{symbol.name.lstrip('#~')}}}"
    found = _atom(symbol)
    if isinstance(found, atoms.Family):
        return f"{{{name_latex(found.family, notation)}}}_{{{latex(found.index, notation)}}}"
    if isinstance(found, atoms.Sum):
        under = [f"i_{{{found.bound}}}={latex(found.lo, notation)}"] + [
            f"{latex(p, notation)} {OPERATORS[kind][0]} 0" for p, kind in found.filters]
        below = r" \\ ".join(under)
        return (rf"\sum_{{\substack{{{below}}}}}^{{{latex(found.hi, notation)}}}"
                rf"\left({latex(found.body, notation)}\right)")
    pair = gram_pair(symbol) or (found if isinstance(found, tuple) else None)
    if pair is None:
        return name_latex(symbol.name, notation)
    return (rf"\left\langle {_vector_latex(pair[0], notation)}, "
            rf"{_vector_latex(pair[1], notation)} \right\rangle")


def _vector_latex(name: str, notation: Names) -> str:
    if IDENTIFIER.fullmatch(name):
        return name_latex(name, notation)
    return symbol_latex(sympy.Symbol(name), notation)


def latex(expr: sympy.Expr, notation: Names = None) -> str:
    """`expr` in LaTeX, names by rule (`name_latex`), Gram symbols as ⟨a, b⟩."""
    names = {s: symbol_latex(s, notation) for s in _checked(expr).free_symbols}
    return sympy.latex(expr, symbol_names=names)


class _GramMathML(MathMLPresentationPrinter):
    """SymPy's presentation printer, with Gram symbols as ⟨a, b⟩ and names by rule."""

    def __init__(self, notation: Names = None) -> None:
        super().__init__()
        self.notation = notation

    def _element(self, tag: str, text: str, **attributes: str) -> Any:
        node = self.dom.createElement(tag)
        for key, value in attributes.items():
            node.setAttribute(key, value)
        node.appendChild(self.dom.createTextNode(text))
        return node

    def _name(self, name: str) -> Any:
        fragment = minidom.parseString(pretty(name, self.notation).mathml())
        return self.dom.importNode(fragment.documentElement, True)

    def _print_Symbol(self, sym: sympy.Symbol, style: str = "plain") -> Any:
        if atoms.INDEX.fullmatch(sym.name):
            return self._sub(self._element("mi", "i"), self._element(
                "mn", sym.name.lstrip("#~")))
        found = _atom(sym)
        if isinstance(found, atoms.Family):
            return self._sub(self._name(found.family), self._print(found.index))
        if isinstance(found, atoms.Sum):
            row = self.dom.createElement("mrow")
            scripts = self.dom.createElement("munderover")
            scripts.appendChild(self._element("mo", "\u2211"))
            under = self.dom.createElement("mrow")
            under.appendChild(self._print_Symbol(sympy.Symbol(f"#{found.bound}")))
            under.appendChild(self._element("mo", "="))
            under.appendChild(self._print(found.lo))
            for p, kind in found.filters:
                under.appendChild(self._element("mo", ","))
                under.appendChild(self._print(p))
                under.appendChild(self._element("mo", {">=": "\u2265", ">": ">", "==": "="}[kind]))
                under.appendChild(self._element("mn", "0"))
            scripts.appendChild(under)
            scripts.appendChild(self._print(found.hi))
            row.appendChild(scripts)
            row.appendChild(self._element("mo", "("))
            row.appendChild(self._print(found.body))
            row.appendChild(self._element("mo", ")"))
            return row
        pair = gram_pair(sym) or (found if isinstance(found, tuple) else None)
        if pair is None:
            return self._name(sym.name)
        row = self.dom.createElement("mrow")
        row.appendChild(self._element("mo", "\u27e8"))
        row.appendChild(self._vector(pair[0]))
        row.appendChild(self._element("mo", ","))
        row.appendChild(self._vector(pair[1]))
        row.appendChild(self._element("mo", "\u27e9"))
        return row

    def _vector(self, name: str) -> Any:
        return self._name(name) if IDENTIFIER.fullmatch(name) else self._print_Symbol(
            sympy.Symbol(name))

    def _sub(self, base: Any, index: Any) -> Any:
        node = self.dom.createElement("msub")
        node.appendChild(base)
        node.appendChild(index)
        return node


def mathml(expr: sympy.Expr, notation: Names = None) -> str:
    """`expr` as presentation MathML (no `<math>` element around it), minus signs as −.

    Named entities become numeric references, so the fragment is well-formed XML too.
    """
    text = str(_GramMathML(notation).doprint(_checked(expr)))
    # a name of several letters beside another factor gets a visible dot: with the invisible
    # times a browser set `k gam` as one word, `kgam` (newcomer trial 19)
    text = _WORD_TIMES.sub(lambda m: m[0].replace("&InvisibleTimes;", "&#x22C5;"), text)
    for old, new in _REPLACEMENTS:
        text = text.replace(old, new)
    return text


#: An invisible product beside a MathML identifier of several letters (a user's name such
#: as `gam`; an entity, one letter such as `&#x3B3;`, is not one).
_WORD_TIMES = re.compile(r"<mi[^>]*>[^<&]{2,}</mi><mo>&InvisibleTimes;</mo>"
                         r"|<mo>&InvisibleTimes;</mo><mi[^>]*>[^<&]{2,}</mi>")

_REPLACEMENTS = (
    ("<mo>-</mo>", "<mo>&#x2212;</mo>"),
    ("<mn>-", "<mn>&#x2212;"),
    ("&InvisibleTimes;", "&#x2062;"),
)
