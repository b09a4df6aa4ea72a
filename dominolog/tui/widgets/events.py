"""The event list: seq, player, event, points, and a mark for violations (red ``✗ code``) and
unverified rules, possible violations (yellow ``? code``: the issue line under the screen and the
audit, ``a``, say whether some hand the log allows breaks the rule). Clicking a row jumps there.

A Line API widget (:class:`textual.scroll_view.ScrollView`): each row is drawn once into a
:class:`~textual.strip.Strip` and kept, so moving the cursor through 2,000 events repaints
a screenful of cached lines (a DataTable re-renders every visible row when its cursor moves:
25 ms a step, measured with ``bench/bench_replay.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Click, Resize
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from dominolog.tui.timeline import Timeline

SEQ, WHO, PTS = 4, 5, 4
#: the mark of an unverified rule (a possible violation)
UNSURE = "bold yellow"
#: from this width on, the mark is the sign and the code (``✗ renege``), below it the sign alone
WIDE_MARK = 42


def _fit(text: Text, width: int) -> Text:
    text.no_wrap = True
    text.truncate(width, overflow="ellipsis", pad=True)
    return text


def _widths(width: int) -> tuple[int, int]:
    """The widths of the event text and of the mark, for a list ``width`` cells wide."""
    mark_w = 10 if width >= WIDE_MARK else 2
    return max(6, width - (SEQ + 1 + WHO + 1 + PTS + 1 + mark_w)), mark_w


def row_text(timeline: Timeline, i: int, width: int) -> Text:
    """The line of the event at ``i``, ``width`` cells wide."""
    event_w, mark_w = _widths(width)
    row = timeline.rows[i]
    marks = timeline.marks_at(i)
    bad = [m for m in marks if m.kind == "violation"]
    unsure = [m for m in marks if m.kind == "unverified"]
    mark = Text()
    if bad:
        mark.append("✗ " + bad[0].issue.code if mark_w > 2 else "✗", style="bold red")
    elif unsure:
        mark.append("? " + unsure[0].issue.code if mark_w > 2 else "?", style=UNSURE)
    kind = row.text.split(" ", 1)[0]
    style = "bold" if kind in ("deal", "hand_end", "match_end", "match_start") else ""
    if kind == "reveal":
        style = "magenta"
    seq_style = "bold red" if bad else UNSURE if unsure else "dim"
    return Text.assemble(
        _fit(Text(str(row.seq), style=seq_style, justify="right"), SEQ),
        " ",
        _fit(Text(row.player), WHO),
        " ",
        _fit(Text(row.text, style=style), event_w),
        _fit(Text(row.points, justify="right"), PTS),
        " ",
        _fit(mark, mark_w),
    )


def row_texts(timeline: Timeline, width: int) -> tuple[Text, list[Text]]:
    """The header and one line per event, ``width`` cells wide."""
    event_w, mark_w = _widths(width)
    header = Text.assemble(
        _fit(Text("seq", justify="right"), SEQ),
        " ",
        _fit(Text("who"), WHO),
        " ",
        _fit(Text("event"), event_w),
        _fit(Text("pts", justify="right"), PTS),
        " ",
        _fit(Text(""), mark_w),
        style="bold",
    )
    return header, [row_text(timeline, i, width) for i in range(len(timeline.rows))]


class EventRows(ScrollView):
    """The rows; the cursor row is the event shown, kept in the middle of the list."""

    COMPONENT_CLASSES = {"event-rows--cursor"}  # noqa: RUF012 - Textual's class-level set
    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.texts: list[Text] = []
        self.cursor = 0
        self._strips: dict[int, Strip] = {}

    def set_rows(self, texts: list[Text], width: int) -> None:
        self.texts = texts
        self._strips.clear()
        self.virtual_size = Size(width, len(texts))
        self.refresh()

    def _strip(self, index: int, width: int) -> Strip:
        cursor = index == self.cursor
        key = -1 - index if cursor else index
        strip = self._strips.get(key)
        if strip is None or strip.cell_length != width:
            text = self.texts[index]
            base = self.rich_style
            if cursor:
                text = text.copy()
                cursor_style = self.get_component_rich_style("event-rows--cursor")
                text.stylize_before(cursor_style)
                base = base + cursor_style
            segments = [Segment(s.text, base + s.style if s.style else base) for s in text.render(self.app.console)]
            strip = Strip(segments).adjust_cell_length(width, base)
            self._strips[key] = strip
        return strip

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = y + int(self.scroll_offset.y)
        if not 0 <= index < len(self.texts):
            return Strip.blank(width, self.rich_style)
        return self._strip(index, width)

    def select(self, index: int) -> None:
        old = self.cursor
        self.cursor = index
        self._strips.pop(-1 - old, None)
        self._strips.pop(old, None)
        self._strips.pop(index, None)
        visible = self.scrollable_content_region.height or 10
        self.scroll_to(y=max(0, index - visible // 2), animate=False, force=True, immediate=True)
        self.refresh()

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = offset.y + int(self.scroll_offset.y)
        if 0 <= index < len(self.texts):
            self.post_message(EventList.Picked(index))


class EventList(Vertical):
    """Every event of the match: a header line, then the rows."""

    class Picked(Message):
        """A row was clicked: show the event at ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timeline: Timeline | None = None
        self._width = 0
        self.header = Static(id="events-header")
        self.body = EventRows(id="event-rows")

    def compose(self) -> ComposeResult:
        yield self.header
        yield self.body

    @property
    def cursor_row(self) -> int:
        return self.body.cursor

    def load(self, timeline: Timeline) -> None:
        """Fill the list; the columns fit the width (the event text is cut to fit)."""
        self.timeline = timeline
        rows = self.body
        width = rows.scrollable_content_region.width or max(20, self.size.width - 1) or 40
        self._width = width
        header, texts = row_texts(timeline, width)
        self.header.update(header)
        rows.set_rows(texts, width)
        rows.select(rows.cursor)

    def select(self, index: int) -> None:
        self.body.select(index)

    def update_rows(self, timeline: Timeline, indexes: Iterable[int]) -> None:
        """Draw again only the rows at ``indexes`` (the events a grown timeline added or marked
        anew: :meth:`Timeline.extend`); a timeline not shown yet is loaded whole."""
        if timeline is not self.timeline or not self._width:
            self.load(timeline)
            return
        texts = self.body.texts
        for i in sorted(indexes):
            text = row_text(timeline, i, self._width)
            if i < len(texts):
                texts[i] = text
            else:
                texts.append(text)
        self.body.set_rows(texts, self._width)

    def on_resize(self, event: Resize) -> None:
        if self.timeline is not None and self.body.scrollable_content_region.width != self._width:
            self.load(self.timeline)
