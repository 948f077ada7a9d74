"""What Jupyter shows for a proof report or an audit: one small HTML table, verdicts first.

`_repr_html_` methods of `verify.proof_checker.ProofReport`/`StepReport` and
`verify.audit.job.Audit` call these; the full reports are `verify.render.html` and friends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape


def table(header: Sequence[str], rows: Iterable[Sequence[object]], caption: str = "") -> str:
    """An HTML table of text cells, every cell escaped (statements come from proof files)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def steps(title: str, reports: Iterable[object]) -> str:
    """A proof's steps: id, status (with vacuity), full statement, what decided it."""
    rows = [(s.step.id, s.status + (" (vacuous)" if s.vacuous else ""),  # type: ignore[attr-defined]
             s.statement_text, s.message) for s in reports]  # type: ignore[attr-defined]
    return table(("step", "status", "statement", "how"), rows, title)
