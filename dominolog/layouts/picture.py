"""Pictures of a 2-D layout: box characters for the terminal, SVG for a file.

Both draw every tile where :mod:`dominolog.layouts.grid` puts it, each half
with its pips, and mark the open ends (an arrow towards the direction a tile
would be played in, with the value it shows).
"""

from __future__ import annotations

from dominolog.layouts.grid import VECTORS, GridLayout, Placed, Side
from dominolog.layouts.line import LineLayout
from dominolog.textsafe import shown


def escape(text: str) -> str:
    """Text for an SVG document: control characters (which XML 1.0 forbids even escaped) written as
    ``\\xNN``, long text cut (:func:`dominolog.textsafe.shown`), then XML's own escapes."""
    return shown(text, 300).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


COLS, ROWS = 3, 1  # terminal cells per layout unit (a half-tile is 2 x 2 units)
ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}


def _halves(p: Placed) -> list[tuple[int, int, int, int, int]]:
    """The two halves of a placed tile as (x0, y0, x1, y1, pips), north/west half first."""
    x0, y0, x1, y1 = p.rect
    if p.horizontal:
        mid = (x0 + x1) // 2
        return [(x0, y0, mid, y1, p.halves[0]), (mid, y0, x1, y1, p.halves[1])]
    mid = (y0 + y1) // 2
    return [(x0, mid, x1, y1, p.halves[0]), (x0, y0, x1, mid, p.halves[1])]


def text_picture(layout: GridLayout) -> str:
    """The table in box characters: each half is a small box with its pip count on its top line;
    ``→5`` marks an open end showing 5 that a tile could be played on towards the east."""
    if layout.empty:
        return "(empty)"
    bx0, by0, bx1, by1 = layout.bounds()
    bx0, by0, bx1, by1 = bx0 - 1, by0 - 1, bx1 + 1, by1 + 1
    width, height = (bx1 - bx0) * COLS, (by1 - by0) * ROWS
    grid = [[" "] * width for _ in range(height)]

    def put(x: int, y: int, ch: str) -> None:  # x, y in cells
        if 0 <= y < height and 0 <= x < width:
            grid[y][x] = ch

    def cell(ux: int, uy: int) -> tuple[int, int]:  # top-left cell of the unit square whose lower-left is (ux, uy)
        return (ux - bx0) * COLS, (by1 - uy - 1) * ROWS

    for p in layout.placed.values():
        x0, y0, x1, y1 = p.rect
        left, top = cell(x0, y1 - 1)
        right, bottom = cell(x1, y0)[0] - 1, cell(x0, y0)[1]
        for x in range(left, right + 1):
            put(x, top, "─")
            put(x, bottom, "─")
        for y in range(top, bottom + 1):
            put(left, y, "│")
            put(right, y, "│")
        put(left, top, "┌")
        put(right, top, "┐")
        put(left, bottom, "└")
        put(right, bottom, "┘")
        (*_, a), (h1x0, _, _, h1y1, b) = _halves(p)
        if p.horizontal:
            mid = cell(h1x0, h1y1 - 1)[0]
            put(mid, top, "┬")
            put(mid, bottom, "┴")
            for y in range(top + 1, bottom):
                put(mid, y, "│")
            put((left + mid) // 2, top, str(a))
            put((mid + right) // 2, top, str(b))
        else:
            mid = cell(h1x0, h1y1 - 1)[1]
            put(left, mid, "├")
            put(right, mid, "┤")
            for x in range(left + 1, right):
                put(x, mid, "─")
            put((left + right) // 2, top, str(a))
            put((left + right) // 2, mid, str(b))
    for s in layout.open_sides():
        ax, ay = s.anchor
        dx, dy = VECTORS[s.dir]
        # the unit square just beyond the anchor, in the side's direction
        ux = ax if dx > 0 else ax - 1
        uy = ay if dy >= 0 else ay - 1
        x, y = cell(ux, uy)
        if dx == 0:
            x += COLS - 1  # centred on the line (the anchor is a grid line between two unit squares)
        put(x, y, ARROWS[s.dir])
        put(x + 1, y, str(s.value))
    lines = ["".join(row).rstrip() for row in grid]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


# -- SVG ----------------------------------------------------------------------------

SCALE = 14  # pixels per layout unit
PIPS = {  # pip centres in a unit half (0..1 x 0..1)
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def svg_picture(layout: GridLayout, title: str = "", note: str = "") -> str:
    """The table as an SVG document: tiles with pips, open ends as labelled arrows."""
    bx0, by0, bx1, by1 = layout.bounds()
    margin = 4
    bx0, by0, bx1, by1 = bx0 - margin, by0 - margin, bx1 + margin, by1 + margin
    head = 40 if title else 0
    foot = 24 if note else 0
    w, h = (bx1 - bx0) * SCALE, (by1 - by0) * SCALE + head + foot
    wide = max(len(title) * 9, len(note) * 7) + 24  # room for the captions
    if wide > w:
        bx0 -= (wide - w) // (2 * SCALE) + 1
        bx1 += (wide - w) // (2 * SCALE) + 1
        w = (bx1 - bx0) * SCALE

    def px(x: float) -> float:
        return round((x - bx0) * SCALE, 1)

    def py(y: float) -> float:
        return round((by1 - y) * SCALE + head, 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#1f6f43"/>',
    ]
    if title:
        out.append(f'<text x="12" y="26" font-size="16" fill="#ffffff">{escape(title)}</text>')
    if note:
        out.append(f'<text x="12" y="{h - 8}" font-size="12" fill="#d8f0e0">{escape(note)}</text>')
    for tile in layout.order:
        p = layout.placed[tile]
        x0, y0, x1, y1 = p.rect
        out.append(
            f'<g class="tile" data-tile="{tile}" data-kind="{p.kind}">'
            f'<rect x="{px(x0) + 1}" y="{py(y1) + 1}" width="{(x1 - x0) * SCALE - 2}" '
            f'height="{(y1 - y0) * SCALE - 2}" rx="4" fill="#fbfaf5" stroke="#222222" stroke-width="1.5"/>'
        )
        (_, ay0, ax1, _, _), _ = _halves(p)
        if p.horizontal:
            out.append(f'<line x1="{px(ax1)}" y1="{py(y1) + 3}" x2="{px(ax1)}" y2="{py(y0) - 3}" stroke="#555555"/>')
        else:
            out.append(f'<line x1="{px(x0) + 3}" y1="{py(ay0)}" x2="{px(x1) - 3}" y2="{py(ay0)}" stroke="#555555"/>')
        for hx0, hy0, hx1, hy1, value in _halves(p):
            for fx, fy in PIPS[value]:
                cx = hx0 + fx * (hx1 - hx0)
                cy = hy1 - fy * (hy1 - hy0)
                out.append(f'<circle class="pip" cx="{px(cx)}" cy="{py(cy)}" r="2.6" fill="#111111"/>')
        out.append("</g>")
    for s in layout.open_sides():
        ax, ay = s.anchor
        dx, dy = VECTORS[s.dir]
        tx, ty = ax + dx * 1.6, ay + dy * 1.6
        out.append(
            f'<g class="open-end" data-end="{s.name}" data-value="{s.value}">'
            f'<line x1="{px(ax)}" y1="{py(ay)}" x2="{px(ax + dx * 0.9)}" y2="{py(ay + dy * 0.9)}" '
            f'stroke="#ffd54a" stroke-width="2"/>'
            f'<circle cx="{px(tx)}" cy="{py(ty)}" r="7" fill="#ffd54a"/>'
            f'<text x="{px(tx)}" y="{py(ty) + 4}" font-size="11" text-anchor="middle" fill="#222222">{s.value}</text>'
            "</g>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def line_as_grid(line: LineLayout) -> GridLayout:
    """A line game's table as a 2-D layout: one row of tiles, west to east, its two ends open."""
    grid = GridLayout(spinning_doubles=False)
    x = 0
    for a, b in line.chain:
        from dominolog.tiles import Tile

        tile = Tile(a, b)
        grid._add(Placed(tile, (x, -1, x + 4, 1), (a, b), True, "single", None, None, None))
        x += 4
    if grid.order and line.left is not None and line.right is not None:
        first, last = grid.order[0], grid.order[-1]
        grid.sides[(first, "W")] = Side(first, "W", line.left, (0, 0), False, False)
        grid.sides[(last, "E")] = Side(last, "E", line.right, (x, 0), False, False)
    return grid
