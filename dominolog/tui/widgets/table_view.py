"""The table: the line of tiles as a snake, or the spinner games' 2-D picture.

A spinner table can be 150 columns by 60 lines, more than a terminal shows; the view is a
window on the drawing, centred on the tile just played (or the first tile), moved with the
mouse wheel or the keys of ``scroll_table``. The window is cut here rather than by a
scrolling container, so a step redraws the table once, without a second layout pass.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import MouseScrollDown, MouseScrollLeft, MouseScrollRight, MouseScrollUp, Resize

from dominolog.state import HandState
from dominolog.tiles import Tile
from dominolog.tui.drawing import Drawing, draw_table
from dominolog.tui.widgets.panel import Panel


def window(text: Text, focus: tuple[int, int] | None, width: int, height: int, shift: tuple[int, int]) -> Text:
    """The part of ``text`` (lines) that fits ``width`` x ``height``, centred on ``focus`` and moved
    by ``shift``; a drawing that fits is returned whole."""
    lines = text.split("\n", allow_blank=True)
    wide = max((line.cell_len for line in lines), default=0)
    if wide <= width and len(lines) <= height:
        return text
    fx, fy = focus if focus is not None else (wide // 2, len(lines) // 2)
    left = max(0, min(fx - width // 2 + shift[0], wide - width))
    top = max(0, min(fy - height // 2 + shift[1], len(lines) - height))
    out = [line[left : left + width] for line in lines[top : top + height]]
    return Text("\n").join(out)


class TableView(Vertical):
    """The open ends on one line, and the table below it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._args: tuple[HandState | None, Tile | None, list[tuple[Tile, str]], str] = (None, None, [], "")
        self.drawing: Drawing | None = None
        #: how far the reader moved the window from the tile in focus (columns, lines)
        self.shift = (0, 0)

    def compose(self) -> ComposeResult:
        yield Panel(id="table-ends")
        yield Panel(id="table-picture")

    def show(self, hand: HandState | None, last: Tile | None, legal: list[tuple[Tile, str]], note: str = "") -> None:
        """Draw ``hand``'s table, ``last`` (the tile just played) marked, ``legal`` plays' ends marked."""
        if (hand, last) != self._args[:2]:
            self.shift = (0, 0)
        self._args = (hand, last, legal, note)
        self._draw()

    def _view_size(self) -> tuple[int, int]:
        picture = self.query_one("#table-picture", Panel)
        region = picture.content_region
        return (region.width or max(20, self.size.width - 2)), (region.height or 10)

    def _draw(self) -> None:
        hand, last, legal, note = self._args
        ends = self.query_one("#table-ends", Panel)
        picture = self.query_one("#table-picture", Panel)
        if hand is None:
            self.drawing = None
            ends.put(Text(note, style="dim"), "fixed")
            picture.put(Text("(no hand dealt yet)", style="dim"), "fixed")
            return
        width, height = self._view_size()
        drawing = draw_table(hand, width, last, legal)
        self.drawing = drawing
        head = drawing.ends.copy()
        if note:
            head = Text.assemble(Text(note + "  ", style="bold"), head)
        ends.put(head, "fixed")
        picture.put(window(drawing.text, drawing.focus, width, height, self.shift), "fixed")

    def on_resize(self, event: Resize) -> None:
        if self._args[0] is not None:
            self._draw()

    def scroll_by(self, dx: int, dy: int) -> None:
        """Move the window over a table larger than the view."""
        if self.drawing is None:
            return
        self.shift = (self.shift[0] + dx, self.shift[1] + dy)
        self._draw()

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        self.scroll_by(0, 2)

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        self.scroll_by(0, -2)

    def on_mouse_scroll_right(self, event: MouseScrollRight) -> None:
        self.scroll_by(4, 0)

    def on_mouse_scroll_left(self, event: MouseScrollLeft) -> None:
        self.scroll_by(-4, 0)
