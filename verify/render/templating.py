"""The Jinja2 environments of the reports: one per format, escaping by default.

Templates live in `verify/render/templates/` (package data). Every value a template prints
goes through the format's escape function (Jinja2's `finalize`, or its HTML autoescape)
unless it is `Raw`: only fragments built by the renderers from identifiers and exact numbers
(formulas, certificates) are `Raw`, never text from a proof file. So a template cannot forget
to escape a stranger's title or note.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup


class Raw(str):
    """Text already in the target format: printed as is."""

    __slots__ = ()


def _finalize(escape: Callable[[str], str]) -> Callable[[Any], str]:
    def finalize(value: Any) -> str:
        if isinstance(value, Raw | Markup):
            return str(value)
        return escape("" if value is None else str(value))
    return finalize


#: Delimiters that cannot clash with LaTeX's braces, percent signs and hashes.
LATEX_SYNTAX: Mapping[str, str] = {
    "block_start_string": "<%", "block_end_string": "%>",
    "variable_start_string": "<<", "variable_end_string": ">>",
    "comment_start_string": "<#", "comment_end_string": "#>",
}


@cache
def environment(fmt: str, escape: Callable[[str], str] | None = None) -> jinja2.Environment:
    """The environment of `fmt` (`html`, `markdown` or `latex`): HTML autoescapes; the
    others escape every printed value with `escape` unless it is `Raw`."""
    options: dict[str, Any] = {
        "loader": jinja2.PackageLoader("verify.render", "templates"),
        "undefined": jinja2.StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
    }
    if fmt == "html":
        options["autoescape"] = True
    else:
        assert escape is not None, f"the {fmt} environment needs an escape function"
        options["autoescape"] = False
        options["finalize"] = _finalize(escape)
    if fmt == "latex":
        options.update(LATEX_SYNTAX)
    return jinja2.Environment(**options)
