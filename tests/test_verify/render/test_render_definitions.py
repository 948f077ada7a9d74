"""A `[define]` name is defined where a statement reads it, its facts under the definition,
not among the author's hypotheses (newcomer 29 F5: `l = max(0, -y*g)` appeared nowhere in
the handout, and `claim = "l >= -y*g"`, written with no hypothesis, read `Given l ≥ 0,
l ≥ −y g, (l − 0)(l − (−y g)) = 0 ⊢ l ≥ −y g`)."""

from __future__ import annotations

import pytest

from verify.audit.job import Audit, run_audit
from verify.render import html, latex, markdown

PROOF = """
title = "the perceptron criterion and the soft loss"
vectors = []
scalars = ["y", "g", "l"]

[define]
l = "max(0, -y*g)"

[[step]]
id = "misclassified"
given = ["y*g < 0"]
claim = "l == -y*g"

[[step]]
id = "criterion"
claim = "l >= -y*g"
"""


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory) -> Audit:
    path = tmp_path_factory.mktemp("define") / "loss.toml"
    path.write_text(PROOF, encoding="utf-8")
    return run_audit([str(path)], budget="small")


def test_markdown_defines_the_name_and_gives_only_what_the_author_wrote(audit: Audit) -> None:
    document = markdown.render(audit)
    assert document.count(r"where $l = \operatorname{max}\left(0, - y\,g\right)$, given by "
                          r"$l \ge 0$, $l \ge - y\,g$ and ") >= 2  # each step reads l
    assert r"*Given* $y\,g < 0$." in document  # the author's own hypothesis, alone
    assert r"*Given* $l \ge 0$" not in document and r"$y\,g < 0$, $l \ge 0$" not in document


def test_latex_and_html_define_the_name(audit: Audit) -> None:
    tex = latex.render(audit)
    assert r"where $l = \operatorname{max}\left(0, - y\,g\right)$, given by" in tex
    assert r"\emph{Given} $l \ge 0$" not in tex
    # the `where` sentence is a paragraph of its own: `Source:` / `Note:` follow on the next
    # line, and ran on after it
    where = tex.index("where $l = ")
    assert tex[where:tex.index("\n", where)].endswith("= 0$.\\par")
    page = html.render(audit)
    assert "where <math" in page and "<mi>max</mi>" in page and ", given by <math" in page
    assert '<span class="label">given</span> <math display="inline"><mrow><mi>l</mi>' \
        not in page
