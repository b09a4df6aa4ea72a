"""What the replay viewer draws, as Rich text: the table (a snake of tiles for the line games,
the 2-D picture of ``show`` for the spinner games), the hands, and the score sheet.

Pure functions of a :class:`~dominolog.tui.timeline.Frame`'s data, so they are easy to test and
cheap to call on every step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rich.text import Text

from dominolog.layouts.grid import VECTORS, GridLayout
from dominolog.layouts.line import LineLayout
from dominolog.layouts.picture import COLS, ROWS, text_picture
from dominolog.state import HandResult, HandState
from dominolog.tiles import Tile

#: styles (Rich), in one place
LAST = "bold yellow"
LEGAL = "bold black on green"
#: a play the player only may have had (a hidden hand)
MAYBE = "bold black on yellow"
LATER = "italic magenta"
BACK = "grey50"
ON_MOVE = "bold cyan"
TILE_WIDTH = 5  # "[a|b]"
BACK_TILE = "[▒|▒]"
MAX_BACKS = 9  # more hidden tiles than this are drawn as one back and a count


def tile_text(a: int, b: int) -> str:
    return f"[{a}|{b}]"


@dataclass(slots=True)
class Drawing:
    """A table drawn as text, and the cell (column, row) to keep in view: the tile just played."""

    text: Text
    focus: tuple[int, int] | None = None
    ends: Text = field(default_factory=Text)


# -- the line games: a snake ------------------------------------------------------------


def snake(
    layout: LineLayout,
    width: int,
    last: Tile | None = None,
    legal_ends: Iterable[str] = (),
) -> Drawing:
    """The line of tiles wrapped into rows that alternate direction, so a long line fits the width.

    Odd rows run right to left (each tile turned round, so touching halves still match); the
    corners ``┐┘`` and ``┌└`` in the margins show where the line turns. ``last`` is drawn in
    :data:`LAST`; the open ends in ``legal_ends`` (``left``/``right``) in :data:`LEGAL`.
    """
    legal = set(legal_ends)
    chain = layout.chain
    ends = Text()
    if not chain:
        ends.append("empty table", style="dim")
        if "" in legal:
            ends.append("  any tile may start", style=LEGAL)
        return Drawing(Text("(no tile yet)", style="dim"), None, ends)
    ends.append("left ")
    ends.append(str(layout.left), style=LEGAL if "left" in legal else "bold")
    ends.append("   right ")
    ends.append(str(layout.right), style=LEGAL if "right" in legal else "bold")
    per_row = max(1, (width - 2) // TILE_WIDTH)
    rows = [chain[i : i + per_row] for i in range(0, len(chain), per_row)]
    text = Text()
    focus: tuple[int, int] | None = None
    n_rows = len(rows)
    for r, row in enumerate(rows):
        forward = r % 2 == 0
        if r:
            text.append("\n")
        left_margin = " "
        right_margin = " "
        if forward:
            if r > 0:
                left_margin = "└"
            if r < n_rows - 1:
                right_margin = "┐"
        else:
            right_margin = "┘"
            if r < n_rows - 1:
                left_margin = "┌"
        cells: list[tuple[int, int, int]] = []  # (a, b, position in chain), left to right on screen
        base = r * per_row
        if forward:
            cells = [(a, b, base + k) for k, (a, b) in enumerate(row)]
        else:
            cells = [(b, a, base + k) for k, (a, b) in reversed(list(enumerate(row)))]
        pad = "" if forward else " " * (TILE_WIDTH * (per_row - len(row)))
        text.append(left_margin + pad, style="dim")
        col = 1 + len(pad)
        for a, b, pos in cells:
            style = LAST if last is not None and Tile(a, b) is last else ""
            if style and focus is None:
                focus = (col + 2, r)
            # the line's left end is the first tile's first half (always in the first, forward row);
            # its right end is the last tile's second half, drawn first when that row runs backward
            right_end = pos == len(chain) - 1 and "right" in legal
            open_a = (pos == 0 and "left" in legal) or (right_end and not forward)
            open_b = right_end and forward
            text.append("[", style=style)
            text.append(str(a), style=LEGAL if open_a else style)
            text.append("|", style=style)
            text.append(str(b), style=LEGAL if open_b else style)
            text.append("]", style=style)
            col += TILE_WIDTH
        text.append(right_margin, style="dim")
    return Drawing(text, focus, ends)


# -- the spinner games: the picture of ``show`` -----------------------------------------------


def grid_drawing(
    layout: GridLayout, last: Tile | None = None, legal_ends: Iterable[str] = (), recent: Tile | None = None
) -> Drawing:
    """:func:`dominolog.layouts.picture.text_picture`, with the tile just played in :data:`LAST`
    and the open ends in ``legal_ends`` (names ``<tile>:<dir>``) in :data:`LEGAL`. The focus is
    the tile just played, else the ``recent`` one (the last tile played), else the first."""
    legal = set(legal_ends)
    picture = text_picture(layout)
    lines = picture.splitlines()
    text = Text("\n".join(lines))
    ends = Text()
    sides = layout.open_sides()
    for k, s in enumerate(sides):
        if k:
            ends.append("  ")
        ends.append(s.name + " ", style="dim")
        ends.append(str(s.value), style=LEGAL if s.name in legal else "bold")
    if "" in legal:
        ends.append("any double may start" if sides else "a tile may start", style=LEGAL)
    if layout.empty or not lines:
        return Drawing(Text("(no tile yet)", style="dim"), None, ends)
    # where text_picture put things: the same arithmetic as the picture, less the blank rows it trims
    bx0, _, _, by1 = layout.bounds()
    bx0, by1 = bx0 - 1, by1 + 1

    def cell(ux: int, uy: int) -> tuple[int, int]:
        return (ux - bx0) * COLS, (by1 - uy - 1) * ROWS

    tops = [cell(p.rect[0], p.rect[3] - 1)[1] for p in layout.placed.values()]
    arrows: dict[str, tuple[int, int]] = {}
    for s in sides:
        ax, ay = s.anchor
        dx, dy = VECTORS[s.dir]
        x, y = cell(ax if dx > 0 else ax - 1, ay if dy >= 0 else ay - 1)
        if dx == 0:
            x += COLS - 1
        arrows[s.name] = (x, y)
        tops.append(y)
    trim = min(tops)
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)

    def stylize(x: int, y: int, length: int, style: str) -> None:
        row = y - trim
        if 0 <= row < len(lines) and 0 <= x < len(lines[row]):
            text.stylize(style, offsets[row] + x, offsets[row] + min(len(lines[row]), x + length))

    # keep in view the tile just played, or else the last one played, or else the first tile
    played = last is not None and last in layout.placed
    seen = last if played else recent if recent in layout.placed else layout.order[0]
    x0, y0, x1, y1 = layout.placed[seen].rect  # type: ignore[index]
    left, top = cell(x0, y1 - 1)
    right, bottom = cell(x1, y0)[0] - 1, cell(x0, y0)[1]
    if played:
        for y in range(top, bottom + 1):
            stylize(left, y, right - left + 1, LAST)
    focus = ((left + right) // 2, (top + bottom) // 2 - trim)
    for name in legal:
        if name in arrows:
            x, y = arrows[name]
            stylize(x, y, 2, LEGAL)
    return Drawing(text, focus, ends)


def draw_table(
    hand: HandState, width: int, last: Tile | None = None, legal: Iterable[tuple[Tile, str]] = ()
) -> Drawing:
    """The table of ``hand``, whichever layout it has."""
    legal_ends = {end for _, end in legal}
    layout = hand.layout
    if isinstance(layout, GridLayout):
        recent = hand.placements[-1].tile if hand.placements else None
        return grid_drawing(layout, last, legal_ends, recent)
    return snake(layout, width, last, legal_ends)


# -- hands and scores ------------------------------------------------------------------------------


def hand_line(
    name: str,
    known: Iterable[Tile],
    unknown: int,
    *,
    on_move: bool = False,
    name_width: int = 6,
    legal: Iterable[Tile] = (),
    later: Iterable[Tile] = (),
    width: int = 0,
    open_of: tuple[int, int] | None = None,
) -> Text:
    """One player's hand: ``▶ Ana  5 [1|2][3|4][▒|▒][▒|▒]``; tiles with a legal play in :data:`LEGAL`,
    tiles the log knows only later in :data:`LATER`, hidden ones as backs (past :data:`MAX_BACKS`,
    one back and a count). ``open_of`` (n, m): the log leaves n of the tiles open, each one of m
    it may be: said in words instead of backs (``[5|5] + 4 of 5 possible``). With ``width``, the
    tiles wrap under the first one."""
    good = set(legal)
    shown_later = sorted(set(later))
    tiles = sorted(known)
    count = len(tiles) + unknown
    head = Text()
    head.append("▶ " if on_move else "  ", style=ON_MOVE)
    head.append(name[:name_width].ljust(name_width), style=ON_MOVE if on_move else "bold")
    head.append(f"{count:>3} ", style="dim")
    pieces: list[Text] = []
    for t in tiles:
        pieces.append(Text(tile_text(t.lo, t.hi), style=LEGAL if t in good else ""))
    for t in shown_later:
        pieces.append(Text(tile_text(t.lo, t.hi), style=f"{LATER} on green" if t in good else LATER))
    backs = unknown - len(shown_later)
    if open_of is not None and open_of[0] > 0:  # the open tiles in words, not as backs
        words = f"{open_of[0]} of {open_of[1]} possible"
        pieces.append(Text(f" + {words}" if pieces else words, style="italic"))
    elif backs > MAX_BACKS:
        pieces.append(Text(f"{BACK_TILE}×{backs}", style=BACK))
    else:
        pieces.extend(Text(BACK_TILE, style=BACK) for _ in range(max(0, backs)))
    if count == 0:
        pieces.append(Text("(no tiles)", style="dim"))
    indent = len(head)
    room = width - indent if width else 0
    line = head
    used = 0
    for piece in pieces:
        if room and used and used + len(piece) > room:
            line.append("\n" + " " * indent)
            used = 0
        line.append_text(piece)
        used += len(piece)
    return line


def plays_line(
    player: str, moves: Iterable[tuple[Tile, str]], maybe: Iterable[Tile], before: bool, surely_one: bool
) -> Text:
    """The plays of a hidden hand: ``  Ben had [1|5][4|5], may have had [3|5]`` (in :data:`LEGAL`
    the tiles held for sure, in :data:`MAYBE` those only possible)."""
    unsure = set(maybe)
    tiles = sorted({t for t, _ in moves})
    sure = [t for t in tiles if t not in unsure]
    could = [t for t in tiles if t in unsure]
    line = Text("  ")
    line.append(player, style="bold")
    if not tiles:
        line.append(" had no play" if before else " has no play", style="dim")
        return line
    if sure:
        line.append(" had " if before else " has ", style="dim")
        for t in sure:
            line.append(tile_text(t.lo, t.hi), style=LEGAL)
    if could:
        line.append(", " if sure else " ", style="dim")
        line.append("may have had " if before else "may have ", style="dim")
        for t in could:
            line.append(tile_text(t.lo, t.hi), style=MAYBE)
        if surely_one and not sure:
            line.append(" (one for sure)", style="dim")
    return line


def score_table(
    players: list[str], results: list[HandResult], totals: dict[str, int], running: dict[str, int], width: int = 40
) -> Text:
    """Points per hand (the winner's in green), the points made so far in the open hand
    (``running``), and the totals; the player columns share what ``width`` leaves them."""
    label_w = 10  # "12 domino "
    col = max(4, min(7, (width - label_w) // max(1, len(players))))

    def cells(values: list[Text]) -> Text:
        out = Text(no_wrap=True)
        for v in values:
            v.truncate(col - 1, overflow="ellipsis")
            v.pad_left(col - v.cell_len)
            out.append_text(v)
        return out

    def label(number: str, name: str, style: str = "") -> Text:
        out = Text(f"{number:>2} ", style="dim")
        out.append(name[:6].ljust(label_w - 3), style=style)
        return out

    lines = [Text.assemble(label("#", "end", "bold"), cells([Text(p, style="bold") for p in players]))]
    for r in results:
        winner = r.winner if isinstance(r.winner, list) else [r.winner] if r.winner else []
        points = [Text(str(r.points.get(p, 0)), style="bold green" if p in winner else "") for p in players]
        lines.append(Text.assemble(label(str(r.number), r.end), cells(points)))
    if running:
        points = [Text(str(running.get(p, 0)), style="italic") for p in players]
        lines.append(Text.assemble(label("", "now", "italic"), cells(points)))
    points = [Text(str(totals.get(p, 0)), style="bold") for p in players]
    lines.append(Text.assemble(label("", "total", "bold"), cells(points)))
    return Text("\n").join(lines)
