"""Which documents a proof cites: the `source` of a proof read off its steps' sources.

A step's `source` is free text of the form `Document, place: remark; Other document, place`.
The document of a citation is its text up to the first comma, colon or opening parenthesis
*outside brackets*: the commas inside `y<w,x>`, `(w, w0)` or `{y<w,x> <= 0}` belong to a
formula, and cutting there left sources such as `not in the seed: ... skip y<w` in the
report. Angle brackets count as brackets only when they close (`<w,x>`), since `<` alone is
also the comparison in `g < 0`.

A source may cite several documents, separated by `;` (`Ng, ... (3); Virtue, Theorem 0.1`).

This module imports nothing of the project, so that the audit and every report can use it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_OPEN = {"(": ")", "[": "]", "{": "}"}
_ANGLE = re.compile(r"<[^<>]*>")


def _top_level(text: str) -> Iterator[tuple[int, str]]:
    """(position, character) of every character of `text` outside brackets."""
    shielded = _ANGLE.sub(lambda m: "\0" * len(m.group()), text)
    closing: list[str] = []
    for i, c in enumerate(shielded):
        if closing and c == closing[-1]:
            closing.pop()
        elif c in _OPEN:
            if not closing:
                yield i, c
            closing.append(_OPEN[c])
        elif not closing:
            yield i, c


def _split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` where it stands outside brackets."""
    cuts = [i for i, c in _top_level(text) if c == separator]
    bounds = zip([-1, *cuts], [*cuts, len(text)], strict=True)
    return [text[a + 1:b] for a, b in bounds]


def document(citation: str) -> str:
    """The document one citation names: its text before the first comma, colon or opening
    parenthesis outside brackets (`Chan, Lecture 17` -> `Chan`)."""
    end = next((i for i, c in _top_level(citation) if c in ",:("), len(citation))
    return citation[:end].strip()


def _is_citation(part: str) -> bool:
    """Whether a `;`-separated part after the first cites a document (`Virtue, Theorem
    0.1`) rather than continuing a remark (`versus the proof's bracket [y^2 = 1]`): it has
    the `Document, place` form."""
    return any(c == "," for _, c in _top_level(part))


def cited(sources: Iterable[str]) -> list[str]:
    """The documents the `sources` cite, each once, in order of first citation: every
    source's first citation, and the later `;`-separated ones of the form `Document, place`."""
    found = []
    for source in sources:
        first, *rest = _split(source, ";")
        found += [document(first), *(document(c) for c in rest if _is_citation(c))]
    return [d for d in dict.fromkeys(found) if d]


def proof_source(own: str, step_sources: Iterable[str]) -> str:
    """A proof's source: its own `source` when given (whole, never cut), else the documents
    its steps cite, joined by `; `."""
    return own or "; ".join(cited(step_sources))


def documents(sources: Iterable[str]) -> list[str]:
    """The documents the `sources` cite in the `Document, place` form, each once, in order
    of first citation: a remark such as `not in the seed: ...` or `the seeds' bound for ...`
    cites none. A handout's proof header listed `Chan; not in the seed; Ng; ...`, fragments
    a student cannot read as sources (newcomer 27, F6); each step still shows its own."""
    found = [document(part) for source in sources for part in _split(source, ";")
             if _is_citation(part)]
    return [d for d in dict.fromkeys(found) if d]
