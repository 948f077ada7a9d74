"""The dependency graph of a proof, drawn: an SVG for HTML, TikZ for LaTeX, Mermaid for
Markdown, from one layout.

A node is a step, an edge `a -> b` says step `b` uses step `a` (its `uses`); an induction's
node says so (its run is its own premise), and a step corrected by `<id>-corrected` points to
its correction with a dashed edge. Colours are verdicts (green proved, red refuted, amber
unknown); the border says what runs did (solid: checked on runs, dashed: no verdict on runs, thick
red: violated); a step that rests on a finding, at any distance, is marked, so the graph of
a source with findings shows where each sits and what depends on it.

The layout is layered (a step one row below everything it uses, rows wrapped to the width)
and computed here, so no graph tool is needed at render time and every format agrees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from itertools import pairwise

WIDTH = 720.0
"""The drawing's width in pixels (HTML) or points before scaling (LaTeX)."""
CHAR, PAD, HEIGHT, GAP_X, GAP_Y = 6.6, 10.0, 22.0, 10.0, 30.0
BOX = 15.0
"""A TikZ node's height in points (`minimum height`, inner sep 0), centred in its row's
HEIGHT: where its edges start and end."""
FILL = {"proved": "#dafbe1", "refuted": "#ffebe9", "unknown": "#fff8c5"}
STROKE = {"proved": "#1a7f37", "refuted": "#cf222e", "unknown": "#9a6700"}
AFFECTED = "#bc4c00"
BOLD = ' font-weight="bold"'


@dataclass(frozen=True)
class Node:
    """One step as the graph shows it."""

    id: str
    anchor: str
    uses: tuple[str, ...]
    symbolic: str  # proved / refuted / unknown
    numeric: str  # held / violated / not-run
    induction: bool = False
    theorem: bool = False
    finding: bool = False


@dataclass(frozen=True)
class Placed:
    """A node with its box: top-left corner and width."""

    node: Node
    x: float
    y: float
    width: float
    affected: bool

    @property
    def label(self) -> str:
        """The step id, with ↻ for an induction and ★ for the theorem."""
        return ("★ " if self.node.theorem else "") + self.node.id + (
            " ↻" if self.node.induction else "")


@dataclass(frozen=True)
class Graph:
    """A laid-out dependency graph."""

    placed: tuple[Placed, ...]
    edges: tuple[tuple[str, str], ...]
    corrections: tuple[tuple[str, str], ...]
    width: float
    height: float

    def at(self, step_id: str) -> Placed:
        """The placed node of `step_id`."""
        return next(p for p in self.placed if p.node.id == step_id)

    def svg(self) -> str:
        """An inline SVG; each node a link to its step (`#anchor`), with a tooltip."""
        parts = [f'<svg class="depgraph" role="img" '
                 f'viewBox="0 0 {self.width:.0f} {self.height:.0f}" '
                 f'style="max-width:{self.width:.0f}px">',
                 "<title>dependency graph: an arrow from a step to each step that uses it"
                 "</title>"]
        for kind, pairs in (("use", self.edges), ("fix", self.corrections)):
            for a, b in pairs:
                curve, (x, y, down) = self._curve(a, b)
                tip = -6 if down else 6  # a drawn arrowhead: no marker, nothing referenced
                parts.append(f'<g class="edge {kind}"><path d="{curve}" fill="none" '
                             'stroke="#6e7781" stroke-width="1"'
                             + (' stroke-dasharray="4 3"' if kind == "fix" else "") + "/>"
                             f'<path d="M{x - 3.5:.1f},{y + tip:.1f} L{x + 3.5:.1f},'
                             f'{y + tip:.1f} L{x:.1f},{y:.1f} z" fill="#6e7781"/></g>')
        for p in self.placed:
            n = p.node
            dash = ' stroke-dasharray="3 2"' if n.numeric == "not-run" else ""
            wide = 3 if n.numeric == "violated" or n.finding else 1.5
            stroke = STROKE["refuted"] if n.numeric == "violated" else STROKE[n.symbolic]
            tip = f"{n.id}: {n.symbolic}; runs: {n.numeric.replace('-', ' ')}" + (
                "; rests on a finding" if p.affected else "")
            halo = (f'<rect x="{p.x - 3:.1f}" y="{p.y - 3:.1f}" width="{p.width + 6:.1f}" '
                    f'height="{HEIGHT + 6:.0f}" rx="7" fill="none" stroke="{AFFECTED}" '
                    'stroke-width="1.5" stroke-dasharray="2 2"/>' if p.affected else "")
            parts.append(
                f'<a href="#{escape(n.anchor)}" class="node {n.symbolic}" '
                f'data-step="{escape(n.id)}"><title>{escape(tip)}</title>{halo}'
                f'<rect x="{p.x:.1f}" y="{p.y:.1f}" width="{p.width:.1f}" height="{HEIGHT:.0f}"'
                f' rx="5" fill="{FILL[n.symbolic]}" stroke="{stroke}" stroke-width="{wide}"'
                f'{dash}/><text x="{p.x + p.width / 2:.1f}" y="{p.y + 15:.1f}" '
                'text-anchor="middle" font-family="ui-monospace, Menlo, Consolas, monospace" '
                f'font-size="11"{BOLD if n.theorem else ""}>'
                f"{escape(p.label)}</text></a>")
        parts.append("</svg>")
        return "".join(parts)

    def _curve(self, a: str, b: str) -> tuple[str, tuple[float, float, bool]]:
        """The edge's SVG path and its head (x, y, pointing down)."""
        source, target = self.at(a), self.at(b)
        x1, y1 = source.x + source.width / 2, source.y + HEIGHT
        x2, y2 = target.x + target.width / 2, target.y
        if y2 <= y1:  # same row (a correction beside its finding): arc below, up into it
            y2 = target.y + HEIGHT
            return (f"M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + 18:.1f} {x2:.1f},{y2 + 18:.1f} "
                    f"{x2:.1f},{y2:.1f}", (x2, y2, False))
        path, (x, y) = [f"M{x1:.1f},{y1:.1f}"], (x1, y1)
        for gap, top in self.passages(a, b):
            path += [_bend(x, y, gap, top), f"L{gap:.1f},{top + HEIGHT:.1f}"]
            x, y = gap, top + HEIGHT
        path.append(_bend(x, y, x2, y2))
        return " ".join(path), (x2, y2, True)

    def passages(self, a: str, b: str) -> tuple[tuple[float, float], ...]:
        """Where the edge `a -> b` crosses each line of boxes between its two ends: (x, the
        line's top), x in a gap between boxes (or beside them) nearest the way to `b`.

        A curve from `a` straight to `b` ran under the boxes of the lines between, and
        read as two edges through a step it does not enter (newcomer 28 F4, newcomer 29:
        `norm-side -> ratio-bound` drawn into `iterations` and out again, an arrow the
        legend says means "uses"). Between two lines an edge is a curve in the free band;
        through a line it is a vertical stroke in a gap, so it meets no box but its own."""
        source, target = self.at(a), self.at(b)
        x, y = source.x + source.width / 2, source.y + HEIGHT
        x2 = target.x + target.width / 2
        out = []
        for top in sorted({p.y for p in self.placed if source.y < p.y < target.y}):
            boxes = sorted((p.x, p.x + p.width) for p in self.placed if p.y == top)
            gaps = [max(boxes[0][0] - GAP_X / 2, 1.0),
                    *((left[1] + right[0]) / 2 for left, right in pairwise(boxes)),
                    min(boxes[-1][1] + GAP_X / 2, self.width - 1.0)]  # in the drawing
            ideal = x + (x2 - x) * (top + HEIGHT / 2 - y) / (target.y - y)
            x, y = min(gaps, key=lambda g: (abs(g - ideal), g)), top + HEIGHT
            out.append((x, top))
        return tuple(out)

    def tikz(self, labels: Mapping[str, str]) -> str:
        """A `tikzpicture` (1 unit = 1pt, y down) scaled to the line width by the caller;
        `labels` maps step ids to their LaTeX-escaped labels."""
        lines = [r"\begin{tikzpicture}[x=1pt,y=-1pt,>=stealth,"
                 rf"n/.style={{draw,rounded corners=2pt,inner sep=0pt,minimum height={BOX:.0f}pt,"
                 r"font=\ttfamily\small}]"]
        # the edges first, from the boxes' known edges, so the filled boxes drawn after
        # them hide an edge that passes a row (as the SVG does): drawn after the nodes, such
        # an edge ran through their labels (newcomer 27, F6)
        for a, b in self.edges:  # through the gaps of the lines between (`passages`)
            source, target = self.at(a), self.at(b)
            path = [f"({source.x + source.width / 2:.1f},{source.y + (HEIGHT + BOX) / 2:.1f})"]
            for gap, top in self.passages(a, b):
                path += [f"to[out=-90,in=90] ({gap:.1f},{top:.1f})",
                         f"-- ({gap:.1f},{top + HEIGHT:.1f})"]
            path.append(f"to[out=-90,in=90] ({target.x + target.width / 2:.1f},"
                        f"{target.y + (HEIGHT - BOX) / 2:.1f})")
            lines.append(rf"\draw[->,gray] {' '.join(path)};")
        for p in self.placed:
            n = p.node
            colour = n.symbolic
            style = [f"fill={colour}fill", f"draw={colour}line",
                     "line width=1.6pt" if n.numeric == "violated" or n.finding else
                     "line width=0.6pt"]
            if n.numeric == "not-run":
                style.append("dashed")
            if n.numeric == "violated":
                style.append("draw=refutedline")
            lines.append(rf"\node[n,{','.join(style)},minimum width={p.width:.1f}pt] "
                         f"({_key(n.id)}) at ({p.x + p.width / 2:.1f},{p.y + HEIGHT / 2:.1f}) "
                         f"{{{labels[n.id]}}};")
            if p.affected:  # the legend's dotted orange halo, as the SVG draws it (newcomer
                # 28: a double border here read as "thick: a finding")
                key = _key(n.id)
                lines.append(rf"\draw[affected,dotted,line width=1.2pt,rounded corners=4pt] "
                             rf"([shift={{(-3pt,3pt)}}]{key}.north west) rectangle "
                             rf"([shift={{(3pt,-3pt)}}]{key}.south east);")
        for a, b in self.corrections:
            lines.append(rf"\draw[->,gray,dashed] ({_key(a)}) to[bend right=20] ({_key(b)});")
        lines.append(r"\end{tikzpicture}")
        return "\n".join(lines)

    def mermaid(self) -> str:
        """A Mermaid flowchart (top to bottom), nodes linked to their steps."""
        lines = ["flowchart TD"]
        for p in self.placed:
            n = p.node
            lines.append(f'  {_key(n.id)}["{p.label}"]:::{n.symbolic}'
                         + ("Run" if n.numeric != "not-run" else ""))
        lines += [f"  {_key(a)} --> {_key(b)}" for a, b in self.edges]
        lines += [f"  {_key(a)} -.-> {_key(b)}" for a, b in self.corrections]
        lines += [f'  click {_key(p.node.id)} href "#{p.node.anchor}"' for p in self.placed]
        for status in FILL:
            lines.append(f"  classDef {status} fill:{FILL[status]},stroke:{STROKE[status]},"
                         "stroke-dasharray:3 2")
            lines.append(f"  classDef {status}Run fill:{FILL[status]},stroke:{STROKE[status]},"
                         "stroke-width:2px")
        return "\n".join(lines)


def _bend(x1: float, y1: float, x2: float, y2: float) -> str:
    """An SVG cubic from the current point (x1, y1) down to (x2, y2), leaving and arriving
    vertically: its y stays between y1 and y2, so it keeps to the band between them."""
    mid = (y2 - y1) / 2
    return f"C{x1:.1f},{y1 + mid:.1f} {x2:.1f},{y2 - mid:.1f} {x2:.1f},{y2:.1f}"


def _key(step_id: str) -> str:
    """A node name every format accepts (step ids are `[a-z0-9-]+`)."""
    return "s_" + step_id.replace("-", "_")


def layout(nodes: Sequence[Node], width: float = WIDTH) -> Graph:
    """Rows by depth (a step below every step it uses), each row ordered by where its
    premises sit and wrapped to `width`; steps that use none and serve none last."""
    ids = {n.id for n in nodes}
    depth: dict[str, int] = {}
    for n in nodes:  # proof order: uses come earlier
        depth[n.id] = 1 + max((depth[u] for u in n.uses if u in depth), default=-1)
    findings = {n.id for n in nodes if n.finding}
    affected: set[str] = set()
    for n in nodes:
        if any(u in findings or u in affected for u in n.uses):
            affected.add(n.id)
    used = {u for n in nodes for u in n.uses}
    alone = [n for n in nodes if not n.uses and n.id not in used]  # below the rest
    levels = [[n for n in nodes if depth[n.id] == level and n not in alone]
              for level in range(max(depth.values(), default=-1) + 1)]
    placed: dict[str, Placed] = {}
    y = 4.0
    for row in [*levels, alone]:

        def centre(n: Node) -> float:
            xs = [placed[u].x + placed[u].width / 2 for u in n.uses if u in placed]
            return sum(xs) / len(xs) if xs else 0.0

        row.sort(key=centre)
        line: list[Node] = []
        for n in [*row, None]:
            need = sum(_width(m) + GAP_X for m in line) + (_width(n) if n else 0)
            if n is None or (line and need > width):
                used = sum(_width(m) for m in line) + GAP_X * (len(line) - 1)
                x = max(4.0, (width - used) / 2)
                for m in line:
                    placed[m.id] = Placed(m, x, y, _width(m), m.id in affected)
                    x += _width(m) + GAP_X
                if line:
                    y += HEIGHT + GAP_Y
                line = []
            if n is not None:
                line.append(n)
    edges = tuple((u, n.id) for n in nodes for u in n.uses if u in ids)
    corrections = tuple((n.id, f"{n.id}-corrected") for n in nodes
                        if n.finding and f"{n.id}-corrected" in ids)
    order = tuple(placed[n.id] for n in nodes)
    return Graph(order, edges, corrections, width, max(y - GAP_Y + 8, HEIGHT + 8))


def _width(node: Node) -> float:
    label = len(node.id) + (2 if node.theorem else 0) + (2 if node.induction else 0)
    return label * CHAR + 2 * PAD
