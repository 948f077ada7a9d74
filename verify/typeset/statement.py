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
    inherited: tuple[tuple[str, tuple[str, ...]], ...]  # (used step, a fact in chunks)
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
    inherited = tuple((used, tuple(printer.chunks(text)))
                      for used, text in inherited_facts(proof, step))
    claim = printer.chunks(step.claim.text, "⊢")
    widths = tuple(len(c) for c in plain.chunks(step.claim.text, "⊢"))
    given = tuple(tuple(printer.chunks(h.text)) for h in step.hypotheses)
    return Statement(_rule(step, printer), given, inherited, tuple(claim), widths)


def inherited_facts(proof: Proof, step: Step) -> list[tuple[str, str]]:
    """What `step` inherits through `uses`, each fact with the use that brings it: the used
    step's hypotheses (its own, then what it inherits in turn), then its claim, as the kernel
    reads a used statement (`verify.kernel.rules.statement`); a fact the step states itself,
    or that an earlier use brought already, is listed once.

    Every inherited hypothesis is marked, not only the used claims: a reader who sees only
    `From update-expand: ...` would not know the step also assumes what update-expand did.
    """
    by_id = {s.id: s for s in proof.steps}
    seen = {h.text for h in step.hypotheses}
    out: list[tuple[str, str]] = []

    def facts(used: Step, depth: int) -> list[str]:
        inner = [t for u in used.uses if u.step in by_id and depth < len(by_id)
                 for t in facts(by_id[u.step], depth + 1)]
        return [*(h.text for h in used.hypotheses), *inner, used.claim.text]

    for use in step.uses:
        if use.step not in by_id:
            continue
        for text in facts(by_id[use.step], 0):
            if text not in seen:
                seen.add(text)
                out.append((str(use), text))
    return out


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

    def assign(mapping: Mapping[str, Term], sign: str, key: str) -> list[Piece]:
        written = rule.written.get(key, {})  # the author's text where the file gave it
        pieces: list[Piece] = []
        for k, (name, term) in enumerate(mapping.items()):
            pieces += [("text", ", ")] if k else []
            # a zero term (`0*w`, the file's idiom for the zero vector) reads as 0
            text = written.get(name) or term_text(term) if term else "0"
            pieces.append(("math", fmt.row([printer.expression(name), fmt.op(sign),
                                            printer.expression(text)])))
        return pieces

    pieces: list[Piece] = [("text", "for every run from "), *assign(rule.base, "==", "base")]
    pieces += [("text", ", updating "), *assign(rule.step, "←", "step")]
    if rule.hypotheses:
        pieces.append(("text", " when "))
        for k, fact in enumerate(rule.hypotheses):
            pieces += [("text", ", ")] if k else []
            pieces.append(("math", printer.relation(fact.text)))
    pieces += [("text", ", after "), ("math", printer.expression(rule.variable)),
               ("text", " updates:")]
    return tuple(pieces)
