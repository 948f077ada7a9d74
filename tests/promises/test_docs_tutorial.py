"""docs/tutorial.ipynb runs top to bottom in a Jupyter kernel, and is stored with its outputs.

It is executed with nbclient (the test extra), as Jupyter would run it, so its magics and rich
display (the run plot inline, the typeset step, the tables of `_repr_html_`) are exercised,
not only its Python. The stored copy keeps its outputs so the README's link shows them
without running anything; each cell's own asserts say what it demonstrates.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "tutorial.ipynb"


def _kinds(cells: list[dict]) -> set[str]:
    """Every output's MIME types (or stream name) across the code cells."""
    return {kind for c in cells if c["cell_type"] == "code" for o in c.get("outputs", [])
            for kind in (o.get("data") or {o.get("name", o["output_type"]): 0})}


def test_the_stored_tutorial_has_its_outputs() -> None:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert len(code) >= 5 and all(c["outputs"] for c in code)
    assert {"image/png", "text/latex", "text/html", "stdout"} <= _kinds(cells)
    assert "docs/tutorial.ipynb" in (NOTEBOOK.parents[1] / "README.md").read_text()


def test_the_tutorial_runs_in_a_kernel(monkeypatch) -> None:
    import nbformat
    from nbclient import NotebookClient

    root = NOTEBOOK.parents[1]
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    path = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)  # the kernel imports this checkout, as the suite does
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(root)}}).execute()
    cells = [dict(c) for c in notebook.cells]
    assert {"image/png", "text/latex", "text/html"} <= _kinds(cells)
    printed = "".join(o.get("text", "") for c in cells if c["cell_type"] == "code"
                      for o in c["outputs"])
    assert "proved" in printed and "refuted at" in printed


def test_results_steps_and_audits_display_in_jupyter() -> None:
    """`_repr_html_`: a table per object, and text from a proof file is escaped."""
    from perceptron.algorithms.online import run_online
    from perceptron.examples import example
    from proofs.proof_file import parse_proof
    from verify import check_run
    from verify.audit.job import Audit, ProofAudit
    from verify.proof_checker import check_proof

    run = run_online(example("10-607").build())
    assert "<th>mistakes</th><td>3</td>" in run._repr_html_()
    theory = check_run(example("10-607").build(), run)._repr_html_()
    assert "<td>held</td>" in theory and ": ok</caption>" in theory
    text = ('title = "<b>t</b>"\nscalars = ["x"]\n[[step]]\nid = "a"\n'
            'given = ["x >= 1"]\nclaim = "x > 0"\n')
    report = check_proof(parse_proof(text.encode(), "t.toml"))
    html = report._repr_html_()
    assert "&lt;b&gt;t&lt;/b&gt;: proved" in html and "<b>" not in html
    assert "x &gt;= 1 |- x &gt; 0" in report.steps[0]._repr_html_()
    audit = Audit((ProofAudit("p", report, "", ()),), seed=0, budget="small")  # type: ignore[arg-type]
    assert "<td>p</td><td>verified</td>" in audit._repr_html_()

