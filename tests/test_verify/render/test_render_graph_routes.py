"""The dependency graph draws no edge through a box it does not enter (newcomer 28 F4,
newcomer 29 F4): an edge spanning several lines of boxes ran under the boxes between, so
`norm-side -> ratio-bound` read as `norm-side -> iterations -> ratio-bound`, an arrow that
the legend says means "uses" and a dependency the proof does not have."""

from __future__ import annotations

import re

import pytest

from proofs.library import PROOFS, load_builtin
from verify.typeset.graph import BOX, HEIGHT, Graph, Node, layout


def _batch_sheet() -> Graph:
    """newcomer 29's exercise sheet (ta-batch.toml): three lines, edges spanning two."""
    def n(step: str, *uses: str, **kind: bool) -> Node:
        return Node(step, step, uses, "proved", "held", **kind)

    return layout([
        n("expand"), n("drop", "expand"), n("optimal-value"),
        Node("optimal-is-min", "optimal-is-min", (), "proved", "not-run"),
        n("margin-squared"), n("margin-side", "margin-squared"), n("norm-side"),
        n("ratio-bound", "margin-side", "norm-side"),
        n("one-iteration", "drop", "optimal-value", "ratio-bound"),
        n("distance", induction=True), n("iterations", "distance", theorem=True)])


def _cubic(p0, p1, p2, p3, t):  # type: ignore[no-untyped-def]
    return tuple((1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t ** 2 * c
                 + t ** 3 * d for a, b, c, d in zip(p0, p1, p2, p3, strict=True))


def _points(path: str) -> list[tuple[float, float]]:
    """Points along an SVG path of M, C and L commands (as the graph writes them)."""
    out: list[tuple[float, float]] = []
    for command, args in re.findall(r"([MCL])([^MCL]*)", path):
        xy = [tuple(map(float, pair.split(","))) for pair in args.split()]
        if command == "M":
            out.append(xy[0])
        elif command == "L":
            start = out[-1]
            out += [(start[0] + (xy[0][0] - start[0]) * k / 20,
                     start[1] + (xy[0][1] - start[1]) * k / 20) for k in range(1, 21)]
        else:
            start = out[-1]
            out += [_cubic(start, *xy, k / 40) for k in range(1, 41)]  # type: ignore[misc]
    return out


def _crossings(graph: Graph) -> list[str]:
    """Each edge of the SVG that passes inside a box other than its two ends."""
    paths = re.findall(r'<g class="edge use"><path d="([^"]+)"', graph.svg())
    assert len(paths) == len(graph.edges)
    out = []
    for (a, b), path in zip(graph.edges, paths, strict=True):
        points = _points(path)
        out += [f"{a} -> {b} through {p.node.id}" for p in graph.placed
                if p.node.id not in (a, b) and any(
                    p.x < x < p.x + p.width and p.y < y < p.y + HEIGHT for x, y in points)]
    return out


@pytest.mark.parametrize("proof_id", PROOFS)
def test_no_edge_of_a_built_in_proof_crosses_a_box(proof_id: str) -> None:
    """Every built-in proof's graph, its lines wrapped as the handouts wrap them (chan-batch
    and telgarsky-online have edges spanning three lines and more)."""
    proof = load_builtin(proof_id)
    ids = {s.id for s in proof.steps}
    graph = layout([Node(s.id, s.id, tuple(u.step for u in s.uses if u.step in ids),
                         "proved", "held", induction=False) for s in proof.steps])
    assert _crossings(graph) == []


def test_no_svg_edge_crosses_a_box_it_does_not_join() -> None:
    graph = _batch_sheet()
    paths = re.findall(r'<g class="edge use"><path d="([^"]+)"', graph.svg())
    assert len(paths) == len(graph.edges) == 8
    spanning = 0
    for (a, b), path in zip(graph.edges, paths, strict=True):
        spanning += graph.at(b).y - graph.at(a).y > HEIGHT + 30
        for p in graph.placed:
            if p.node.id in (a, b):
                continue
            inside = [(x, y) for x, y in _points(path)
                      if p.x < x < p.x + p.width and p.y < y < p.y + HEIGHT]
            assert not inside, f"{a} -> {b} runs through {p.node.id} at {inside[0]}"
    assert spanning >= 2  # the case at issue is there: norm-side -> ratio-bound, ...


def test_no_tikz_edge_crosses_a_box_it_does_not_join() -> None:
    """The TikZ: each `to` keeps to the band between two lines (it leaves and arrives
    vertically), and each `--` through a line runs in a gap between its boxes."""
    graph = _batch_sheet()
    tikz = graph.tikz({n.node.id: n.node.id for n in graph.placed})
    draws = [line for line in tikz.splitlines() if line.startswith(r"\draw[->,gray] (")]
    assert len(draws) == len(graph.edges)
    bands = sorted({p.y for p in graph.placed})
    for (a, b), draw in zip(graph.edges, draws, strict=True):
        parts = re.findall(r"(to\[out=-90,in=90\]|--)? ?\(([-\d.]+),([-\d.]+)\)", draw)
        points = [(float(x), float(y)) for _, x, y in parts]
        assert points[0][1] == graph.at(a).y + (HEIGHT + BOX) / 2
        assert points[-1][1] == graph.at(b).y + (HEIGHT - BOX) / 2
        for (how, _, _), (x0, y0), (x1, y1) in zip(parts[1:], points[:-1], points[1:], strict=True):
            if how == "--":
                assert x0 == x1
                assert not [p.node.id for p in graph.placed if p.y == y0
                            and p.x <= x0 <= p.x + p.width], f"{a} -> {b}"
            else:  # a line of boxes strictly between its ends would be crossed
                assert not [top for top in bands if y0 < top + HEIGHT / 2 < y1], f"{a} -> {b}"


def test_an_edge_between_adjacent_lines_is_drawn_as_before() -> None:
    """One curve, no passage through a line: an edge between adjacent lines needs none."""
    graph = layout([Node("a", "a", (), "proved", "held"), Node("b", "b", ("a",), "proved",
                                                               "held")])
    (path,) = re.findall(r'<g class="edge use"><path d="([^"]+)"', graph.svg())
    assert path.count("C") == 1 and "L" not in path
