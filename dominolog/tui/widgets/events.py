"""The event list: seq, player, event, points, and a mark for violations (red ``✗ code``) and
unverified rules, possible violations (yellow ``? code``: the issue line under the screen and the
audit, ``a``, say whether some hand the log allows breaks the rule). Clicking a row jumps there.
With an analysis, a column ``lost``: the points each analysed decision lost (``-12``, orange),
``best``, or ``=`` where the options were all worth the same.

A Line API widget (:class:`textual.scroll_view.ScrollView`): each row is drawn once into a
:class:`~textual.strip.Strip` and kept, so moving the cursor through 2,000 events repaints
a screenful of cached lines (a DataTable re-renders every visible row when its cursor moves:
25 ms a step, measured with ``bench/bench_replay.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Click, Resize
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from dominolog.analysis.shown import ShownReview, loss_word
from dominolog.tui.timeline import Timeline

SEQ, WHO, PTS = 4, 5, 4
#: the analysis column (only with an analysis): "-184", "best", "-12.25"
LOST = 6
#: the points a decision lost, and a best move
MISTAKE = "bold #af5fff"
BEST = "green"
#: the mark of an unverified rule (a possible violation)
UNSURE = "bold yellow"
#: from this width on, the mark is the sign and the code (``✗ renege``), below it the sign alone
WIDE_MARK = 42


def _fit(text: Text, width: int) -> Text:
    text.no_wrap = True
    text.truncate(width, overflow="ellipsis", pad=True)
    return text


def _widths(width: int, analysed: bool = False) -> tuple[int, int]:
    """The widths of the event text and of the mark, for a list ``width`` cells wide (``analysed``:
    with the analysis column)."""
    lost = LOST + 1 if analysed else 0
    mark_w = 10 if width >= WIDE_MARK + 2 * lost else 2
    return max(6, width - (SEQ + 1 + WHO + 1 + PTS + 1 + mark_w + lost)), mark_w


def lost_span(width: int) -> tuple[int, int]:
    """Where the analysis column is in a row ``width`` cells wide (start, end)."""
    event_w, _ = _widths(width, True)
    start = SEQ + 1 + WHO + 1 + event_w + PTS + 1
    return start, start + LOST


def lost_text(review: ShownReview, seq: int) -> Text:
    """The analysis cell of the event ``seq``: ``-12`` (a mistake), ``best``, ``=`` or nothing."""
    decisions = review.at(seq)
    word = loss_word(decisions)
    if len(word) > LOST:  # a sampled loss of 100 points or more: fewer decimals
        lost = float(word[1:])
        word = f"-{lost:.1f}" if len(f"-{lost:.1f}") <= LOST else f"-{lost:.0f}"
    style = MISTAKE if word.startswith("-") else BEST if word == "best" else "dim"
    return Text.assemble(" " * (LOST - len(word)), (word, style))


def row_text(timeline: Timeline, i: int, width: int, review: ShownReview | None = None) -> Text:
    """The line of the event at ``i``, ``width`` cells wide (``review``: with the points each decision lost)."""
    event_w, mark_w = _widths(width, review is not None)
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
    lost = [" ", _fit(lost_text(review, row.seq), LOST)] if review is not None else []
    return Text.assemble(
        _fit(Text(str(row.seq), style=seq_style, justify="right"), SEQ),
        " ",
        _fit(Text(row.player), WHO),
        " ",
        _fit(Text(row.text, style=style), event_w),
        _fit(Text(row.points, justify="right"), PTS),
        *lost,
        " ",
        _fit(mark, mark_w),
    )


def row_texts(timeline: Timeline, width: int, review: ShownReview | None = None) -> tuple[Text, list[Text]]:
    """The header and one line per event, ``width`` cells wide (``review``: with the analysis column)."""
    event_w, mark_w = _widths(width, review is not None)
    lost = [" ", _fit(Text("lost".rjust(LOST)), LOST)] if review is not None else []
    header = Text.assemble(
        _fit(Text("seq", justify="right"), SEQ),
        " ",
        _fit(Text("who"), WHO),
        " ",
        _fit(Text("event"), event_w),
        _fit(Text("pts", justify="right"), PTS),
        *lost,
        " ",
        _fit(Text(""), mark_w),
        style="bold",
    )
    return header, [row_text(timeline, i, width, review) for i in range(len(timeline.rows))]


class EventRows(ScrollView):
    """The rows; the cursor row is the event shown, kept in the middle of the list."""

    COMPONENT_CLASSES = {"event-rows--cursor"}  # noqa: RUF012 - Textual's class-level set
    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.texts: list[Text] = []
        self.cursor = 0
        self._strips: dict[int, Strip] = {}
        #: the analysis column (start, end), drawn in the cursor's colours on the cursor row (its own
        #: colours would not read on the cursor's background); None: no analysis
        self.lost: tuple[int, int] | None = None

    def set_rows(
        self, texts: list[Text], width: int, lost: tuple[int, int] | None = None, changed: Iterable[int] | None = None
    ) -> None:
        """Show ``texts``, one a row. ``changed``: the only rows that differ from those shown (their
        lines are drawn again, the others kept: one new event is one new line); None: all of them."""
        if changed is None or lost != self.lost or width != self.virtual_size.width:
            self._strips.clear()
        else:
            for i in changed:
                self._strips.pop(i, None)
                self._strips.pop(-1 - i, None)
        self.texts = texts
        self.lost = lost
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
                if self.lost is not None:
                    text.stylize(Style(color=cursor_style.color, bold=True), *self.lost)
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
        #: the analysis shown beside the events (None: none)
        self.review: ShownReview | None = None
        self._width = 0
        self.header = Static(id="events-header")
        self.body = EventRows(id="event-rows")

    def compose(self) -> ComposeResult:
        yield self.header
        yield self.body

    @property
    def cursor_row(self) -> int:
        return self.body.cursor

    def load(self, timeline: Timeline, review: ShownReview | None = None) -> None:
        """Fill the list; the columns fit the width (the event text is cut to fit). ``review``: the
        analysis of the match, for the column of points lost."""
        self.timeline = timeline
        self.review = review
        rows = self.body
        width = rows.scrollable_content_region.width or max(20, self.size.width - 1) or 40
        self._width = width
        header, texts = row_texts(timeline, width, review)
        self.header.update(header)
        rows.set_rows(texts, width, lost_span(width) if review is not None else None)
        rows.select(rows.cursor)

    def select(self, index: int) -> None:
        self.body.select(index)

    def update_rows(self, timeline: Timeline, indexes: Iterable[int]) -> None:
        """Draw again only the rows at ``indexes`` (the events a grown timeline added or marked
        anew: :meth:`Timeline.extend`); a timeline not shown yet is loaded whole."""
        if timeline is not self.timeline or not self._width:
            self.load(timeline, self.review)
            return
        texts = self.body.texts
        changed = sorted(indexes)
        for i in changed:
            text = row_text(timeline, i, self._width, self.review)
            if i < len(texts):
                texts[i] = text
            else:
                texts.append(text)
        lost = lost_span(self._width) if self.review is not None else None
        self.body.set_rows(texts, self._width, lost, changed)

    def on_resize(self, event: Resize) -> None:
        if self.timeline is not None and self.body.scrollable_content_region.width != self._width:
            self.load(self.timeline, self.review)
