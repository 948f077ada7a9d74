"""docs/tutorial.ipynb runs: every code cell, in order, in one namespace, as Jupyter would.

The cells are executed here rather than through a Jupyter kernel, so the suite needs no
Jupyter install; each cell's own asserts say what it demonstrates.
"""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "tutorial.ipynb"


def test_the_tutorial_runs_top_to_bottom(capsys) -> None:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert len(code) >= 5
    namespace: dict[str, object] = {}
    for number, cell in enumerate(code, 1):
        exec(compile("".join(cell["source"]), f"tutorial cell {number}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "proved" in out and "refuted at" in out


def test_results_steps_and_audits_display_in_jupyter() -> None:
    """`_repr_html_`: a table per object, and text from a proof file is escaped."""
    from perceptron.algorithms.online import run_online
    from perceptron.examples import example
    from proofs.proof_file import parse_proof
    from verify.audit.job import Audit, ProofAudit
    from verify.proof_checker import check_proof

    run = run_online(example("10-607").build())
    assert "<th>mistakes</th><td>3</td>" in run._repr_html_()
    text = ('title = "<b>t</b>"\nscalars = ["x"]\n[[step]]\nid = "a"\n'
            'given = ["x >= 1"]\nclaim = "x > 0"\n')
    report = check_proof(parse_proof(text.encode(), "t.toml"))
    html = report._repr_html_()
    assert "&lt;b&gt;t&lt;/b&gt;: proved" in html and "<b>" not in html
    assert "x &gt;= 1 |- x &gt; 0" in report.steps[0]._repr_html_()
    audit = Audit((ProofAudit("p", report, "", ()),), seed=0, budget="small")  # type: ignore[arg-type]
    assert "<td>p</td><td>verified</td>" in audit._repr_html_()
