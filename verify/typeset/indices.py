"""The bound index of a sum as a reader writes it, in every message and statement printed.

The kernel keeps each sum in a canonical form whose index is named by its nesting height
(`sum(#1 in 1..N: y[#1]**2)`, `verify.kernel.atoms`): that is what makes two spellings of one
sum the same atom, and it cannot capture a name a proof writes (`#` is no identifier). A
reader should not meet it: `readable` prints such a sum the way a proof file writes one,
`sum(j in 1..N, y[j]**2)`, its filters as relations (`where y[j] - 1 >= 0`), each height
given a letter that no identifier of the whole text uses, so a renamed index is never read as
a name of the proof. Only the spelling changes: the kernel checked the canonical form.
"""

from __future__ import annotations

import re
from itertools import chain, count

from proofs.step import IDENTIFIER

#: Letters offered to bound indices, in order (then j1, j2, ...).
LETTERS = ("j", "k", "l", "i", "m", "p", "q", "r")

#: The relation each canonical filter kind stands for (`verify.kernel.atoms.KINDS`).
FILTERS = {"nonneg": ">=", "pos": ">", "zero": "=="}

_HEIGHT = re.compile(r"#(\d+)(?!\d)")


def readable(text: str) -> str:
    """`text` with every canonical sum printed as a proof file writes it (unchanged when it
    holds none)."""
    if "sum(#" not in text:
        return text
    taken = set(IDENTIFIER.findall(text))
    offered = (c for c in chain(LETTERS, (f"j{n}" for n in count(1))) if c not in taken)
    heights = sorted({int(h) for h in _HEIGHT.findall(text)}, reverse=True)
    letter = {h: next(offered) for h in heights}  # outermost first: it reads j, inner k
    text = _headers(text)
    return _HEIGHT.sub(lambda m: letter[int(m.group(1))], text)


#: A Gram symbol as the kernel names it, `<a,b>` (`proofs.language.terms.gram`), its
#: vectors names or family members (`<th,x[j]>`).
_GRAM = re.compile(r"<([^<>,]+),([^<>]+)>")


def as_source(text: str) -> str:
    """A kernel's text (a judgement's label, `denominator <xb,xb> > 0`) in proof-file
    syntax, so that the printers typeset it as they typeset a step: every canonical sum as
    `readable` writes it, every Gram symbol `<a,b>` as `dot(a, b)`."""
    return _GRAM.sub(r"dot(\1, \2)", readable(text))


def _headers(text: str) -> str:
    """Each `sum(#h in RANGE[ where kind(p), ...]: BODY)` as `sum(#h in RANGE[ where p rel 0
    and ...], BODY)`: the separator after the range is the first `:` at the sum's own depth
    (a sum inside the range is read first)."""
    out, i = [], 0
    while (start := text.find("sum(#", i)) >= 0:
        depth, j = 0, start + 4
        while j < len(text) and not (depth == 0 and text[j] == ":"):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth < 0:  # no separator before the sum closes: not a canonical sum
                break
            j += 1
        if j >= len(text) or text[j] != ":":
            out.append(text[i:start + 5])
            i = start + 5
            continue
        out.append(text[i:start + 4] + _filters(_headers(text[start + 4:j])) + ",")
        i = j + 1
    return "".join(out) + text[i:]


def _filters(header: str) -> str:
    """The filters `kind(p), ...` of a sum's header as `p rel 0 and ...`."""
    head, where, rest = header.partition(" where ")
    if not where:
        return header
    parts, depth, last = [], 0, 0
    for j, c in enumerate(rest):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and rest.startswith(", ", j):
            parts.append(rest[last:j])
            last = j + 2
    parts.append(rest[last:])
    return head + where + " and ".join(map(_filter, parts))


def _filter(part: str) -> str:
    """`nonneg(p)` as `p >= 0` (`pos` >, `zero` ==); anything else as it is."""
    kind, bracket, inner = part.partition("(")
    if kind not in FILTERS or not bracket or not inner.endswith(")"):
        return part
    return f"{inner[:-1]} {FILTERS[kind]} 0"
