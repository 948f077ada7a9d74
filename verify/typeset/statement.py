"""A step's statement as a reader should meet it: the run an induction ranges over, the
step's own hypotheses as written, what it inherits from the steps it uses (marked so), and
its claim in pieces that may break across lines.

The kernel's statement (`verify.kernel.rules.Statement`) lists every hypothesis it read;
this is the author's view of the same step: `norm-growth` is not an unconditional claim but
"for every run from w = 0, updating w ← w + y x when ..., after t updates: ‖w‖² ≤ t R²".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy

from proofs.language.terms import Vec, gram_pair
from proofs.step import CaseSplit, Induction, Proof, Step, Term
from verify.typeset.written import TEXT, Format, Printer

Piece = tuple[str, str]
"""`("text", words)` or `("math", formula)`: a renderer escapes the first, wraps the second."""


@dataclass(frozen=True)
class Statement:
    """One step's statement in one format."""

    run: tuple[Piece, ...]  # an induction's run, a case split's cases ((): neither)
    given: tuple[tuple[str, ...], ...]  # the step's own hypotheses, as written, in chunks
    inherited: tuple[tuple[str, tuple[str, ...]], ...]  # (used step, its claim in chunks)
    claim: tuple[str, ...]  # `⊢ claim` in chunks (`Printer.chunks`)
    widths: tuple[int, ...]  # each chunk's length in plain text (to break lines)

    @property
    def width(self) -> int:
        """The claim's length in plain text, on one line."""
        return sum(self.widths) + len(self.widths) - 1


def term_text(term: Term) -> str:
    """A base or update term (SymPy, or a vector combination) in proof-file syntax."""
    if isinstance(term, Vec):
        term = sum((c * sympy.Symbol(n) for n, c in term.items()), sympy.Integer(0))
    renamed = {s: sympy.Symbol(f"dot({p[0]}, {p[1]})")
               for s in term.free_symbols if (p := gram_pair(s)) is not None}
    return str(term.xreplace(renamed))


def statement(proof: Proof, step: Step, fmt: Format) -> Statement:
    """`step` of `proof` in `fmt`, names by the proof's `[notation]`."""
    notation: Mapping[str, str] = proof.notation
    printer, plain = Printer(fmt, notation), Printer(TEXT, notation)
    used = {s.id: s for s in proof.steps}
    inherited = tuple((str(u), tuple(printer.chunks(used[u.step].claim.text)))
                      for u in step.uses if u.step in used)
    claim = printer.chunks(step.claim.text, "⊢")
    widths = tuple(len(c) for c in plain.chunks(step.claim.text, "⊢"))
    given = tuple(tuple(printer.chunks(h.text)) for h in step.hypotheses)
    return Statement(_rule(step, printer), given, inherited, tuple(claim), widths)


def _rule(step: Step, printer: Printer) -> tuple[Piece, ...]:
    """An induction's run in words and formulas; a case split's cases."""
    rule = step.rule
    if isinstance(rule, CaseSplit):
        on = printer.expression(term_text(rule.on))
        zero = ", = 0" if rule.zero_case else ""
        return (("text", "by cases on the sign of "), ("math", on),
                ("text", f" (> 0{zero}, < 0):"))
    if not isinstance(rule, Induction):
        return ()
    fmt = printer.fmt

    def assign(mapping: Mapping[str, Term], sign: str) -> list[Piece]:
        pieces: list[Piece] = []
        for k, (name, term) in enumerate(mapping.items()):
            pieces += [("text", ", ")] if k else []
            pieces.append(("math", fmt.row([printer.expression(name), fmt.op(sign),
                                            printer.expression(term_text(term))])))
        return pieces

    pieces: list[Piece] = [("text", "for every run from "), *assign(rule.base, "==")]
    pieces += [("text", ", updating "), *assign(rule.step, "←")]
    if rule.hypotheses:
        pieces.append(("text", " when "))
        for k, fact in enumerate(rule.hypotheses):
            pieces += [("text", ", ")] if k else []
            pieces.append(("math", printer.relation(fact.text)))
    pieces += [("text", ", after "), ("math", printer.expression(rule.variable)),
               ("text", " updates:")]
    return tuple(pieces)
