"""Names as a lecturer writes them, by rule: `gamma` γ, `theta_star` θ*, `xbar` x̄, `R2` R²,
`x1` x₁, `gamma_u` γ_u, `loss_max` loss_max; a proof file's `[notation]` table renames a
name to another identifier first (`ts = "theta_star"`), so every rule stays format-free
and nothing a stranger writes reaches LaTeX or MathML as markup.

A proof's names are printed through its `Spelling` (`spelling`), which keeps the rules
truthful for that proof: two names the rules would print alike (`x1` and `x_1`, both x₁; a
name `x1` and the member `x[1]` of a family `x`) are printed as written instead, and a single
capital then 2 reads as a square only where the proof says it is one: it binds its names to
runs (`[numeric]`) and leaves that name (or binds the name it renames, `[numeric] names = {
r = "R2" }` with `[notation] r = "R2"`) a quantity its kind of run provides (`RUN_SQUARES`:
`R2`, `D2`, `B2`, max ||x_i||², sum d_i², a bound on ||w||², squared norms or their sums,
never negative, by definition; `E2` or a `D2` of an online run is no such quantity).
Elsewhere `R2` is any real and prints as written (R2, never R², which would show a
counterexample's `R2 = -1` as `R² = -1`).

Why these rules: proof files are plain ASCII identifiers, and SymPy's convention (trailing
digits are subscripts) misreads `R2`, the squared radius, as R₂. Here a single capital
followed by `2` is a square (the vocabulary's `R2`, `D2`), a lowercase letter followed by
digits an index (`x1`, `y2`, `d0`), and anything else prints as written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from proofs.step import Proof

GREEK = frozenset({
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
    "Omega",
})
"""Names that print as Greek letters (those LaTeX has a command for), but `pi`: every reader
takes π for 3.14159..., so a free scalar `pi` printed π made "π > 3" read as refuted (red
team 23 F3); it prints as written."""
ACCENTS = {"bar": ("\\bar", "\u00af", "\u0304"), "hat": ("\\hat", "^", "\u0302"),
           "tilde": ("\\tilde", "~", "\u0303")}
"""Accent suffix -> (LaTeX command, MathML accent, combining character)."""
_DIGITS = re.compile(r"([A-Za-z]+?)([0-9]+)")
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


@dataclass(frozen=True)
class Pretty:
    """One name decomposed: a head (a letter, a Greek letter's name or a word), an accent,
    subscripts (each itself a name) and a superscript (`*` or `2`)."""

    head: str
    accent: str = ""
    subscripts: tuple[Pretty, ...] = ()
    superscript: str = ""
    written: bool = False  # the head is the name as written (`x_1`), printed upright

    @property
    def word(self) -> bool:
        """A head of several letters that is no Greek letter: printed upright."""
        return self.written or (len(self.head) > 1 and self.head not in GREEK
                                and not self.head.isdigit())

    def latex(self) -> str:
        """LaTeX math."""
        upright = "\\mathrm{" + self.head.replace("_", "\\_") + "}"  # `eta_` too (red team
        if self.written:  # 19 F7: `\\mathrm{eta_}` is no TeX)
            return upright
        if self.head in GREEK:
            head = f"\\{self.head}"
        elif self.word:
            head = upright
        else:
            head = self.head
        if self.accent:
            head = f"{ACCENTS[self.accent][0]}{{{head}}}"
        if self.subscripts:
            head += "_{" + ",".join(s.latex() for s in self.subscripts) + "}"
        if self.superscript:
            head += "^{" + ("*" if self.superscript == "*" else self.superscript) + "}"
        return head

    def mathml(self) -> str:
        """Presentation MathML (an element; text escaped)."""
        if self.written:
            return f'<mi mathvariant="normal">{escape(self.head)}</mi>'
        if self.head in GREEK:
            head = f"<mi>{greek(self.head)}</mi>"
        elif self.word:
            head = f'<mi mathvariant="normal">{escape(self.head)}</mi>'
        elif self.head.isdigit():
            head = f"<mn>{self.head}</mn>"
        else:
            head = f"<mi>{escape(self.head)}</mi>"
        if self.accent:
            head = (f'<mover accent="true">{head}<mo>{ACCENTS[self.accent][1]}</mo>'
                    "</mover>")
        sub = ("<mrow>" + "<mo>,</mo>".join(s.mathml() for s in self.subscripts) + "</mrow>"
               if self.subscripts else "")
        sup = f"<mo>{self.superscript}</mo>" if self.superscript == "*" else (
            f"<mn>{self.superscript}</mn>" if self.superscript else "")
        if sub and sup:
            return f"<msubsup>{head}{sub}{sup}</msubsup>"
        if sub:
            return f"<msub>{head}{sub}</msub>"
        return f"<msup>{head}{sup}</msup>" if sup else head

    def text(self) -> str:
        """Plain Unicode: γ_u, θ*, x̄, R², x₁."""
        if self.written:
            return self.head
        head = greek(self.head) if self.head in GREEK else self.head
        if self.accent:
            head += ACCENTS[self.accent][2]
        if self.subscripts:
            subs = ",".join(s.text() for s in self.subscripts)
            head += subs.translate(_SUBSCRIPT) if subs.isdigit() else f"_{subs}"
        return head + {"2": "²", "*": "*"}.get(self.superscript, self.superscript)


def greek(name: str) -> str:
    """The Greek letter called `name` (a member of GREEK)."""
    case = "CAPITAL" if name[0].isupper() else "SMALL"
    return unicodedata.lookup(f"GREEK {case} LETTER {name.upper().replace('LAMBDA', 'LAMDA')}")


def pretty(name: str, notation: Mapping[str, str] | None = None) -> Pretty:
    """`name` decomposed by the rules above, after the proof's `[notation]` renaming (and,
    for a proof's `Spelling`, as written where the rules would mislead)."""
    if isinstance(notation, Spelling) and name in notation.written:
        return Pretty(name, written=True)
    square = not isinstance(notation, Spelling) or name in notation.squares
    name = (notation or {}).get(name, name)
    head, *rest = name.split("_") if "_" in name.strip("_") else (name,)
    accent, superscript, subscripts = "", "", []
    for part in rest:
        if part == "star":
            superscript = "*"
        elif part in ACCENTS:
            accent = part
        elif part:
            subscripts.append(pretty(part))
    for suffix in ACCENTS:
        stem = head.removesuffix(suffix)
        if stem != head and (len(stem) == 1 or stem in GREEK) and not accent:
            head, accent = stem, suffix
    if (m := _DIGITS.fullmatch(head)) and (len(m.group(1)) == 1 or m.group(1) in GREEK):
        letters, digits = m.groups()
        if letters.isupper() and len(letters) == 1 and digits == "2" and not superscript:
            if square:
                head, superscript = letters, "2"
        else:
            head, subscripts = letters, [Pretty(digits), *subscripts]
    return Pretty(head, accent, tuple(subscripts), superscript)


@dataclass(frozen=True)
class Spelling(Mapping[str, str]):
    """How one proof's names read: its `[notation]` (this mapping), the names printed as
    written because the rules would print two names alike (`written`), and the names that
    may read as squares (`squares`; see the module docstring)."""

    renames: Mapping[str, str] = field(default_factory=dict)
    written: frozenset[str] = frozenset()
    squares: frozenset[str] = frozenset()

    def __getitem__(self, name: str) -> str:
        return self.renames[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.renames)

    def __len__(self) -> int:
        return len(self.renames)


def distinct(names: Iterable[str], renames: Mapping[str, str], squares: Iterable[str] = (),
             families: Iterable[str] = ()) -> Spelling:
    """The spelling of `names` under `renames` in which no two print alike in any format:
    every name whose text, LaTeX or MathML another name shares, that reads as a member of
    one of `families` (`x1` against `x[1]`), or a square whose base another name is (`R2`
    as R² beside `R`, whose `R**2` is R² too: red team 23 F2, "R² ≤ R²" refuted in the
    built-in Freund–Schapire handout), printed as written (repeated until none do:
    names as written are distinct identifiers, and ASCII, so they meet no other spelling)."""
    names = sorted(set(names))
    spelling = Spelling(dict(renames), frozenset(), frozenset(squares) & set(names))
    families = sorted(set(families))
    while True:
        shown = {n: pretty(n, spelling) for n in names}
        members = {pretty(f, spelling).text() for f in families}
        seen: dict[str, set[str]] = {}
        for n, p in shown.items():
            for key in (p.text(), p.latex(), p.mathml()):
                seen.setdefault(key, set()).add(n)
        clash = {n for group in seen.values() if len(group) > 1 for n in group}
        clash |= {n for n, p in shown.items() if p.subscripts and n not in families and
                  Pretty(p.head, p.accent, written=p.written).text() in members}
        clash |= {n for n, p in shown.items() if p.superscript == "2" and _printed(
            replace(p, superscript="")) & set().union(*(_printed(q) for m, q in shown.items()
                                                        if m != n))}
        clash -= spelling.written
        if not clash:
            return spelling
        spelling = Spelling(spelling.renames, spelling.written | clash, spelling.squares)


def _printed(p: Pretty) -> set[str]:
    """How `p` prints in each format."""
    return {p.text(), p.latex(), p.mathml()}


RUN_SQUARES: Mapping[str, frozenset[str]] = {
    "online": frozenset({"R2"}), "batch": frozenset({"R2"}),
    "single-pass": frozenset({"R2", "D2"}), "cyclic": frozenset({"R2", "B2"}),
}
"""The squared quantities (a capital then 2) each built-in kind of run provides: those of
`verify.runs`' QUANTITIES, written out here because typesetting must not load the runs
(NumPy) to print a statement; a test keeps the two the same. A user's kind of run has none
here, so its names print as written."""


def spelling(proof: Proof) -> Spelling:
    """The spelling of `proof`'s declared names (see the module docstring). A name is a
    square where it denotes on runs a squared quantity its kind provides: its own (`R2`
    left unbound) or the one `[numeric] names` binds it to (`r = "R2"`), which `[notation]
    r = "R2"` then prints R² (red team 9: it printed R2, the square known only by name)."""
    numeric = proof.numeric
    provided = frozenset() if numeric is None else RUN_SQUARES.get(numeric.run, frozenset())
    squares = () if numeric is None else [
        n for n in proof.scalars if numeric.names.get(n, n).strip() in provided]
    return distinct((*proof.vectors, *proof.scalars), proof.notation, squares, proof.indexed)
