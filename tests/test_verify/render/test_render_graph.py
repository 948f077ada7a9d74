"""The handouts' dependency graph as drawn (`verify.typeset.graph`): every drawn edge is a
real use and passes through no box, in the SVG and in the TikZ alike; no two edges share an
end; the legend explains every kind of line the graph draws.

Newcomer 28 (F4): in a 7-step proof the arrows norm-growth -> mistake-bound, times-norm ->
mistake-bound and rate-sum -> mistake-bound ran straight through the squared-lower-bound box
(in at one side, out at the other), reading as uses that do not exist; newcomer 27: two
arrows into one box merged into one; newcomer 28 (Low): a dashed line between `bound` and
`bound-corrected` that the legend did not explain. The geometry is read back from the very
SVG path data and TikZ paths the reports print, so these tests judge what is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from proofs.library import PROOFS, load_builtin
from verify.render.evidence import CORRECTIONS, LEGEND, legend
from verify.typeset.graph import BOX, HEIGHT, Graph, Node, layout

Point = tuple[float, float]
NUMBER = r"(-?[\d.]+)"

#: Newcomer 28's margin-perceptron proof (/work/notes/newcomer28/ho/handout.toml), its uses.
LECTURE = [Node("norm-growth", "a", (), "proved", "held", induction=True),
           Node("progress", "b", (), "proved", "held", induction=True),
           Node("cauchy-schwarz", "c", (), "proved", "held"),
           Node("squared-lower-bound", "d", ("progress", "cauchy-schwarz"), "proved", "held"),
           Node("times-norm", "e", (), "proved", "not-run"),
           Node("rate-sum", "f", (), "proved", "held"),
           Node("mistake-bound", "g", ("norm-growth", "squared-lower-bound", "rate-sum",
                                       "times-norm"), "proved", "held", theorem=True)]


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 40) -> Iterator[Point]:
    for k in range(n + 1):
        t = k / n
        a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
        yield (a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
               a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1])


def _line(p0: Point, p1: Point, n: int = 20) -> Iterator[Point]:
    for k in range(n + 1):
        t = k / n
        yield p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1])


def _svg_edges(svg: str) -> list[list[Point]]:
    """Points along each edge's line, from the `d` of its path (M, C, L commands)."""
    edges = []
    for d in re.findall(r'<g class="edge \w+"><path d="([^"]+)"', svg):
        tokens = re.findall(r"([MCL])([^MCL]*)", d)
        numbers = [[tuple(map(float, pair.split(","))) for pair in args.split()]
                   for _, args in tokens]
        at: Point = numbers[0][0]  # type: ignore[assignment]
        points = [at]
        for (command, _), args in zip(tokens[1:], numbers[1:], strict=True):
            if command == "C":
                points += _cubic(at, *args)  # type: ignore[arg-type]
            else:
                points += _line(at, args[0])  # type: ignore[arg-type]
            at = args[-1]  # type: ignore[assignment]
        edges.append(points)
    return edges


def _tikz_edges(tikz: str) -> list[list[Point]]:
    """Points along each `\\draw[->...]` edge: `.. controls (a) and (b) ..` and `--` pieces."""
    edges = []
    for line in tikz.splitlines():
        if not line.startswith(r"\draw[->"):
            continue
        body = line[line.index("]") + 1:]
        pieces = re.findall(rf"(\.\. controls \({NUMBER},{NUMBER}\) and \({NUMBER},{NUMBER}\) "
                            rf"\.\. |-- )?\({NUMBER},{NUMBER}\)", body)
        at = (float(pieces[0][5]), float(pieces[0][6]))
        points = [at]
        for lead, c1x, c1y, c2x, c2y, x, y in pieces[1:]:
            end = (float(x), float(y))
            if lead.startswith(".."):
                points += _cubic(at, (float(c1x), float(c1y)), (float(c2x), float(c2y)), end)
            else:
                points += _line(at, end)
            at = end
        edges.append(points)
    return edges


def _crossings(graph: Graph, edges: list[list[Point]], top: float, bottom: float
               ) -> list[tuple[int, str]]:
    """(edge number, box) for every edge point strictly inside a box spanning `top` to
    `bottom` below its row's y (an edge's own ends sit on a box's border, not inside)."""
    found = []
    for k, points in enumerate(edges):
        for p in graph.placed:
            if any(p.x + 0.5 < x < p.x + p.width - 0.5 and p.y + top + 0.5 < y < p.y + bottom
                   - 0.5 for x, y in points):
                found.append((k, p.node.id))
    return found


def _check(graph: Graph) -> None:
    labels = {p.node.id: p.node.id for p in graph.placed}
    svg, tikz = graph.svg(), graph.tikz(labels)
    drawn_svg, drawn_tikz = _svg_edges(svg), _tikz_edges(tikz)
    assert len(drawn_svg) == len(drawn_tikz) == len(graph.edges) + len(graph.corrections)
    assert _crossings(graph, drawn_svg, 0.0, HEIGHT) == []
    assert _crossings(graph, drawn_tikz, (HEIGHT - BOX) / 2, (HEIGHT + BOX) / 2) == []
    # no two edges share an end: each arrow can be followed to its own box
    for drawn in (drawn_svg, drawn_tikz):
        starts = [tuple(round(v, 1) for v in e[0]) for e in drawn]
        ends = [tuple(round(v, 1) for v in e[-1]) for e in drawn]
        assert len(set(starts)) == len(starts) and len(set(ends)) == len(ends)
    # each drawn edge starts on its user's box and ends on the box that uses it
    for route, points in zip(graph.routes, drawn_svg, strict=True):
        for end, step in ((points[0], route.a), (points[-1], route.b)):
            box = graph.at(step)
            assert box.x <= end[0] <= box.x + box.width
            assert end[1] in (pytest.approx(box.y), pytest.approx(box.y + HEIGHT))
    # everything drawn lies inside the drawing
    for points in drawn_svg:
        assert all(0 <= x <= graph.width and 0 <= y <= graph.height for x, y in points)


def test_no_edge_of_the_lecture_proof_crosses_a_box() -> None:
    """The newcomer's picture: before, the three long arrows crossed squared-lower-bound."""
    graph = layout(LECTURE)
    _check(graph)
    assert {(r.a, r.b) for r in graph.routes if r.channels} == {
        ("norm-growth", "mistake-bound"), ("times-norm", "mistake-bound"),
        ("rate-sum", "mistake-bound")}


def test_a_row_full_to_the_width_is_passed_around_and_the_drawing_widens() -> None:
    """A long edge past a row with no gap wide enough goes round its end, inside the drawing."""
    wide = [Node(f"blocker-number-{k}", f"b{k}", ("top",), "proved", "held") for k in range(6)]
    nodes = [Node("top", "t", (), "proved", "held"), *wide,
             Node("bottom", "z", ("top", *(n.id for n in wide)), "proved", "held")]
    graph = layout(nodes, width=400.0)
    _check(graph)


def test_no_edge_of_the_batch_sheet_crosses_a_box() -> None:
    """Newcomer 29 F4: on a TA's batch-perceptron sheet (three lines, edges spanning two)
    `norm-side -> ratio-bound` ran under `iterations`, reading as uses that do not exist."""
    def n(step: str, *uses: str, **kind: bool) -> Node:
        return Node(step, step, uses, "proved", "held", **kind)

    _check(layout([
        n("expand"), n("drop", "expand"), n("optimal-value"),
        Node("optimal-is-min", "optimal-is-min", (), "proved", "not-run"),
        n("margin-squared"), n("margin-side", "margin-squared"), n("norm-side"),
        n("ratio-bound", "margin-side", "norm-side"),
        n("one-iteration", "drop", "optimal-value", "ratio-bound"),
        n("distance", induction=True), n("iterations", "distance", theorem=True)]))


@pytest.mark.parametrize("proof_id", sorted(PROOFS))
def test_no_edge_of_a_built_in_proof_crosses_a_box(proof_id: str) -> None:
    """Every built-in proof's graph (chan-batch: 56 steps, 15 rows, corrections placed above
    and beside their findings), drawn with the verdicts of no audit: geometry only."""
    steps = load_builtin(proof_id).steps
    ids = {s.id for s in steps}
    findings = {s.id for s in steps if f"{s.id}-corrected" in ids}
    nodes = [Node(s.id, s.id, tuple(u.step for u in s.uses), "proved", "held",
                  finding=s.id in findings) for s in steps]
    _check(layout(nodes))


def test_the_legend_says_what_a_dashed_arrow_is_when_one_is_drawn() -> None:
    """Newcomer 28 (Low): the dashed line from `bound` to `bound-corrected` was unexplained."""
    nodes = [Node("lemma", "l", (), "proved", "held"),
             Node("bound", "b", ("lemma",), "refuted", "not-run", finding=True),
             Node("bound-corrected", "c", ("lemma",), "proved", "held")]
    graph = layout(nodes)
    _check(graph)
    assert graph.corrections == (("bound", "bound-corrected"),)
    assert legend(graph) == LEGEND + CORRECTIONS and "dashed arrow" in CORRECTIONS
    assert legend(layout(LECTURE)) == LEGEND


def test_the_mermaid_drawing_shows_what_its_legend_names() -> None:
    """Newcomer 28 (Low): the Markdown legend named a thick border for a finding and a dotted
    orange halo for what rests on one; the Mermaid boxes had neither. A finding is now
    drawn 4px thick (red where runs violate it), a step resting on one carries the marker
    its legend names, and the legend of a Mermaid graph names the marker, not a halo."""
    from verify.typeset.graph import MARKER

    nodes = [Node("lemma", "l", (), "refuted", "held", finding=True),
             Node("bound", "b", ("lemma",), "proved", "violated"),
             Node("theorem", "t", ("bound",), "unknown", "not-run", theorem=True)]
    graph = layout(nodes)
    mermaid = graph.mermaid()
    assert 's_lemma["lemma"]:::refutedRunFinding' in mermaid
    assert 's_bound["bound' + MARKER + '"]:::provedRunViolatedFinding' in mermaid
    assert 's_theorem["★ theorem' + MARKER + '"]:::unknown' in mermaid
    assert "classDef refutedRunFinding fill:#ffebe9,stroke:#cf222e,stroke-width:4px" in mermaid
    assert "classDef provedRunViolatedFinding fill:#dafbe1,stroke:#cf222e,stroke-width:4px" \
        in mermaid
    assert "classDef unknown fill:#fff8c5,stroke:#9a6700,stroke-width:1px,stroke-dasharray" \
        in mermaid
    marked = legend(graph, marked=True)
    assert "halo" not in marked and f"{MARKER.strip()} after the name: rests on a finding" \
        in marked
    assert "dotted orange halo: rests on a finding" in legend(graph)


def test_a_mermaid_link_keeps_a_file_names_quote_inside_its_string() -> None:
    """Red team 33 F5: a proof's id is its file's stem, and `x"><img src=x
    onerror=alert(1)>.toml` made `click s_s href "#x"><img ...>--s"`: the quote ended the
    link's string and the rest was the diagram's text. The fragment is percent-encoded."""
    graph = layout([Node("s", 'x"><img src=x onerror=alert(1)>--s', (), "proved", "held")])
    click = [line for line in graph.mermaid().splitlines() if "click" in line]
    assert click == ['  click s_s href "#x%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E--s"']
