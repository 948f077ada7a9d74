"""docs/api.md stays true: its Python blocks run, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def python_blocks(text: str) -> list[str]:
    """The fenced ```python blocks of a Markdown text."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


@pytest.mark.slow  # one of the suite's longest end-to-end checks: run by `-m slow`
def test_the_api_page_runs() -> None:
    blocks = python_blocks(DOC.read_text())
    assert len(blocks) >= 8
    namespace: dict[str, object] = {"__name__": "docs_api"}
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"{DOC.name} block {number}", "exec"), namespace)
