"""The dependency graph of a proof, drawn: an SVG for HTML, TikZ for LaTeX, Mermaid for
Markdown, from one layout.

A node is a step, an edge `a -> b` says step `b` uses step `a` (its `uses`); an induction's
node says so (its run is its own premise), and a step corrected by `<id>-corrected` points to
its correction with a dashed edge. Colours are verdicts (green proved, red refuted, amber
unknown); the border says what runs did (solid: checked on runs, dashed: no verdict on runs, thick
red: violated); a step that rests on a finding, at any distance, is marked, so the graph of
a source with findings shows where each sits and what depends on it.

The layout is layered (a step one row below everything it uses, rows wrapped to the width)
and computed here, so no graph tool is needed at render time and every format agrees. Every
edge is routed (`Route`): it leaves its own port on its step's box, crosses each row between
its ends vertically through a free gap of that row, and curves only in the space between rows,
so no edge passes through a box it does not enter (newcomer 28, F4: arrows norm-growth ->
mistake-bound ran through the squared-lower-bound box, reading as a use that does not exist),
and no two edges share an end (newcomer 27: two arrows into one box merged into one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from urllib.parse import quote

WIDTH = 720.0
"""The drawing's width in pixels (HTML) or points before scaling (LaTeX)."""
CHAR, PAD, HEIGHT, GAP_X, GAP_Y = 6.6, 10.0, 22.0, 10.0, 30.0
BOX = 15.0
"""A TikZ node's height in points (`minimum height`, inner sep 0), centred in its row's
HEIGHT: where its edges start and end."""
CLEAR, SPACING = 5.0, 5.0
"""An edge crossing a row keeps CLEAR from the boxes beside it and SPACING from another edge
crossing the same row."""
FILL = {"proved": "#dafbe1", "refuted": "#ffebe9", "unknown": "#fff8c5"}
STROKE = {"proved": "#1a7f37", "refuted": "#cf222e", "unknown": "#9a6700"}
AFFECTED = "#bc4c00"
MARKER = " ⚠"
"""After a step's name in Mermaid: it rests on a finding (the halo of the SVG and TikZ)."""
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
class Route:
    """Where one edge runs: from `start` (x on the side of `a`'s box that faces `b`) through
    each row strictly between their rows at `channels` (row top y, x: a gap of that row, the
    edge vertical there), to `end` (x on `b`'s side facing `a`). `up`: `b` sits in a row
    above `a` (a correction placed higher); `level`: both in one row (an arc below it)."""

    a: str
    b: str
    fix: bool
    start: float
    channels: tuple[tuple[float, float], ...]
    end: float
    up: bool = False
    level: bool = False

    def points(self, graph: Graph, top: float, bottom: float) -> list[tuple[float, float]]:
        """The route's waypoints for boxes spanning `top`..`bottom` below their row's y:
        its start, the entry and exit of each row it crosses, its end."""
        source, target = graph.at(self.a), graph.at(self.b)
        leave, enter = (top, bottom) if self.up else (bottom, top)
        points = [(self.start, source.y + (bottom if self.level else leave))]
        for y, x in self.channels:
            points += [(x, y + enter), (x, y + leave)]
        points.append((self.end, target.y + (bottom if self.level else enter)))
        return points


@dataclass(frozen=True)
class Graph:
    """A laid-out dependency graph."""

    placed: tuple[Placed, ...]
    edges: tuple[tuple[str, str], ...]
    corrections: tuple[tuple[str, str], ...]
    width: float
    height: float
    routes: tuple[Route, ...] = ()

    def route(self, a: str, b: str, fix: bool = False) -> Route:
        """The route of edge `a -> b` (`fix`: the correction edge)."""
        return next(r for r in self.routes if (r.a, r.b, r.fix) == (a, b, fix))

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
        for route in self.routes:
            points = route.points(self, 0.0, HEIGHT)
            x, y = points[-1]
            tip = 6 if route.up or route.level else -6  # a drawn arrowhead: no marker
            parts.append(f'<g class="edge {"fix" if route.fix else "use"}"><path d="'
                         f'{_svg_path(points)}" fill="none" stroke="#6e7781" stroke-width="1"'
                         + (' stroke-dasharray="4 3"' if route.fix else "") + "/>"
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

    def tikz(self, labels: Mapping[str, str]) -> str:
        """A `tikzpicture` (1 unit = 1pt, y down) scaled to the line width by the caller;
        `labels` maps step ids to their LaTeX-escaped labels."""
        lines = [r"\begin{tikzpicture}[x=1pt,y=-1pt,>=stealth,"
                 rf"n/.style={{draw,rounded corners=2pt,inner sep=0pt,minimum height={BOX:.0f}pt,"
                 r"font=\ttfamily\small}]"]
        # the edges first, along their routes (which pass no box), so that a box is drawn
        # over an edge's arrowhead tip, never under its line
        for route in self.routes:
            points = route.points(self, (HEIGHT - BOX) / 2, (HEIGHT + BOX) / 2)
            lines.append(rf"\draw[->,gray{',dashed' if route.fix else ''}] "
                         + _tikz_path(points) + ";")
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
        lines.append(r"\end{tikzpicture}")
        return "\n".join(lines)

    def mermaid(self) -> str:
        """A Mermaid flowchart (top to bottom), nodes linked to their steps. Mermaid lays
        it out and routes its edges itself; the boxes say what the SVG's do, a halo it
        cannot draw being `MARKER` after the name (newcomer 28: the legend named a thick
        border for a finding and a halo for what rests on one, neither drawn here)."""
        lines = ["flowchart TD"]
        styles: dict[str, str] = {}
        for p in self.placed:
            n = p.node
            ran, thick = n.numeric != "not-run", n.numeric == "violated" or n.finding
            name = (n.symbolic + ("Run" if ran else "") + ("Violated" if n.numeric == "violated"
                                                          else "") + ("Finding" if thick else ""))
            stroke = STROKE["refuted"] if n.numeric == "violated" else STROKE[n.symbolic]
            styles[name] = (f"fill:{FILL[n.symbolic]},stroke:{stroke},stroke-width:"
                            f"{'4px' if thick else '2px' if ran else '1px'}"
                            + ("" if ran else ",stroke-dasharray:3 2"))
            lines.append(f'  {_key(n.id)}["{p.label}{MARKER if p.affected else ""}"]:::{name}')
        lines += [f"  {_key(a)} --> {_key(b)}" for a, b in self.edges]
        lines += [f"  {_key(a)} -.-> {_key(b)}" for a, b in self.corrections]
        lines += [f'  click {_key(p.node.id)} href "#{quote(p.node.anchor, safe=_SAFE)}"'
                  for p in self.placed]  # a proof's id is its file's stem: any character
        lines += [f"  classDef {name} {style}" for name, style in sorted(styles.items())]
        return "\n".join(lines)


_SAFE = "-_.~!$&'()*+,;=:@/?"
"""What a link's fragment keeps as written in a Mermaid `click` (RFC 3986's fragment
characters); anything else, a `"` that ended the string and left a file name's `<img ...>`
in the diagram's text (red team 33 F5), is percent-encoded."""


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
    routes = _routes(placed, [*((a, b, False) for a, b in edges),
                              *((a, b, True) for a, b in corrections)])
    # a row full to the width may send an edge around it: widen the drawing to hold it
    left = min([4.0, *(x for r in routes for _, x in r.channels)])
    shift = 4.0 - left
    right = max([width - shift, *(x for r in routes for _, x in r.channels)]) + shift + 4.0
    if shift:
        placed = {k: replace(v, x=v.x + shift) for k, v in placed.items()}
        routes = [replace(r, start=r.start + shift, end=r.end + shift,
                          channels=tuple((y, x + shift) for y, x in r.channels))
                  for r in routes]
    order = tuple(placed[n.id] for n in nodes)
    # an arc below the last row (a correction beside its finding) is inside the drawing
    arcs = [placed[r.a].y + HEIGHT + 18 for r in routes if r.level]
    return Graph(order, edges, corrections, max(width, right),
                 max(y - GAP_Y + 8, HEIGHT + 8, *arcs), tuple(routes))


def _routes(placed: Mapping[str, Placed], pairs: Sequence[tuple[str, str, bool]]
            ) -> list[Route]:
    """Each edge's route: through every row strictly between its ends at the free x nearest
    the line towards its end (`_channel`), then each end on its own port: the edges at one
    side of a box spread along it in the order of where they go, so none shares an end."""
    ys = sorted({p.y for p in placed.values()})
    rows = {y: sorted((p for p in placed.values() if p.y == y), key=lambda p: p.x) for y in ys}
    taken: dict[float, list[float]] = {y: [] for y in ys}
    drafts = []
    for a, b, fix in pairs:
        source, target = placed[a], placed[b]
        ra, rb = ys.index(source.y), ys.index(target.y)
        step = 1 if rb > ra else -1
        between = ys[ra + step:rb:step] if ra != rb else []
        x, goal = _centre(source), _centre(target)
        channels = []
        for k, row_y in enumerate(between):
            x = _channel(rows[row_y], taken[row_y], x + (goal - x) / (len(between) - k + 1))
            taken[row_y].append(x)
            channels.append((row_y, x))
        drafts.append(Route(a, b, fix, _centre(source), tuple(channels), goal, up=rb < ra,
                            level=ra == rb))
    # ports: (node, side) -> the routes ending there, each with the x it heads for
    sides: dict[tuple[str, bool], list[tuple[float, int, bool]]] = {}
    for i, r in enumerate(drafts):
        out_bottom = not r.up
        into_bottom = r.up or r.level
        towards = r.channels[0][1] if r.channels else r.end
        back = r.channels[-1][1] if r.channels else r.start
        sides.setdefault((r.a, out_bottom), []).append((towards, i, True))
        sides.setdefault((r.b, into_bottom), []).append((back, i, False))
    starts, ends = [r.start for r in drafts], [r.end for r in drafts]
    for (node, _), ending in sides.items():
        box = placed[node]
        for k, (_, i, leaving) in enumerate(sorted(ending)):
            x = box.x + box.width * (k + 1) / (len(ending) + 1)
            if leaving:
                starts[i] = x
            else:
                ends[i] = x
    return [replace(r, start=s, end=e) for r, s, e in zip(drafts, starts, ends, strict=True)]


def _centre(p: Placed) -> float:
    return p.x + p.width / 2


def _channel(boxes: Sequence[Placed], taken: Sequence[float], wanted: float) -> float:
    """The x nearest `wanted` where an edge can cross a row of `boxes` (sorted by x): CLEAR
    from every box, SPACING from every edge already crossing it (`taken`); beyond the row's
    ends there is always room."""
    edges = [-float("inf")]
    for box in boxes:
        edges += [box.x - CLEAR, box.x + box.width + CLEAR]
    edges.append(float("inf"))
    best: float | None = None
    for lo, hi in zip(edges[::2], edges[1::2], strict=True):
        if lo > hi:
            continue
        start = min(max(wanted, lo), hi)
        for j in range(200):
            x = start + (j + 1) // 2 * SPACING * (1 if j % 2 else -1)
            if lo <= x <= hi and all(abs(x - t) >= SPACING for t in taken):
                if best is None or abs(x - wanted) < abs(best - wanted):
                    best = x
                break
    assert best is not None, "the unbounded gaps beyond a row always hold an edge"
    return best


def _svg_path(points: Sequence[tuple[float, float]]) -> str:
    """An SVG path through `points`: curves (vertical at both ends) across the space between
    rows, straight down through a row; between two points of one height, an arc below."""
    (x, y), parts = points[0], [f"M{points[0][0]:.1f},{points[0][1]:.1f}"]
    for i, (x2, y2) in enumerate(points[1:], 1):
        if i % 2 == 0:
            parts.append(f"L{x2:.1f},{y2:.1f}")
        else:
            c1, c2 = (y + 18, y2 + 18) if y == y2 else ((y + y2) / 2, (y + y2) / 2)
            parts.append(f"C{x:.1f},{c1:.1f} {x2:.1f},{c2:.1f} {x2:.1f},{y2:.1f}")
        x, y = x2, y2
    return " ".join(parts)


def _tikz_path(points: Sequence[tuple[float, float]]) -> str:
    """`_svg_path` in TikZ: `.. controls ..` with the same control points, `--` in a row."""
    (x, y), parts = points[0], [f"({points[0][0]:.1f},{points[0][1]:.1f})"]
    for i, (x2, y2) in enumerate(points[1:], 1):
        if i % 2 == 0:
            parts.append(f"-- ({x2:.1f},{y2:.1f})")
        else:
            c1, c2 = (y + 18, y2 + 18) if y == y2 else ((y + y2) / 2, (y + y2) / 2)
            parts.append(f".. controls ({x:.1f},{c1:.1f}) and ({x2:.1f},{c2:.1f}) .. "
                         f"({x2:.1f},{y2:.1f})")
        x, y = x2, y2
    return " ".join(parts)


def _width(node: Node) -> float:
    label = len(node.id) + (2 if node.theorem else 0) + (2 if node.induction else 0)
    return label * CHAR + 2 * PAD
