"""docs/tutorial.ipynb runs: every code cell, in order, in one namespace, as Jupyter would.

The cells are executed here rather than through a Jupyter kernel, so the suite needs no
Jupyter install; each cell's own asserts say what it demonstrates.
"""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "tutorial.ipynb"


def test_the_tutorial_runs_top_to_bottom(capsys) -> None:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert len(code) >= 5
    namespace: dict[str, object] = {}
    for number, cell in enumerate(code, 1):
        exec(compile("".join(cell["source"]), f"tutorial cell {number}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "proved" in out and "refuted at" in out
