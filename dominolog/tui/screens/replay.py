"""The replay screen: the table, the hands, the scores and the event list of one match, at one event;
with an analysis of the match, the points each decision lost (in the event list) and the options of
the decision shown (a panel under the hands)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, HelpPanel

from dominolog.analysis.shown import ShownReview
from dominolog.layouts.grid import GridLayout
from dominolog.state import WinnerValue, hidden_line, percent
from dominolog.textsafe import shown_markup
from dominolog.tiles import Tile
from dominolog.tui.follow import Follower, grown
from dominolog.tui.keys import bindings
from dominolog.tui.knowing import Plays
from dominolog.tui.screens.audit import AuditScreen
from dominolog.tui.screens.jump import JumpScreen
from dominolog.tui.screens.matches import MatchesScreen
from dominolog.tui.timeline import Frame, Later, Timeline
from dominolog.tui.widgets import (
    AnalysisPanel,
    EventDetail,
    EventList,
    HandsPanel,
    IssueBar,
    ScoresPanel,
    StatusBar,
    TableView,
)


def _played_tile(timeline: Timeline, index: int, frame: Frame) -> Tile | None:
    """The tile the event at ``index`` put on the table, if it did."""
    ev = timeline.records[index].event
    hand = frame.hand
    if ev is None or ev.type != "play" or hand is None:
        return None
    names = list(ev.tiles or []) if getattr(ev, "tiles", None) else [ev.tile]  # type: ignore[union-attr]
    for name in names:
        try:
            tile = Tile.parse(str(name))
        except ValueError:
            continue
        if tile in hand.layout.on_board:
            return tile
    return None


def _winner(winner: WinnerValue) -> str:
    if isinstance(winner, str):
        return winner
    return " and ".join(winner or []) or "none"


class ReplayScreen(Screen[None]):
    """One match, one event at a time. ``index`` is the event shown (0 = the first record)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings()  # type: ignore[assignment]
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide"), (150, "-very-wide")]

    # the panels, found once when the screen is mounted
    status: StatusBar
    table: TableView
    hands: HandsPanel
    scores: ScoresPanel
    events: EventList
    issues: IssueBar
    detail: EventDetail
    analysis_panel: AnalysisPanel

    #: how often (seconds) a followed match is asked for new events
    FOLLOW_SECONDS: ClassVar[float] = 0.5

    def __init__(
        self,
        timeline: Timeline,
        title: str = "",
        start: int = 0,
        follow: Follower | None = None,
        analysis: ShownReview | None = None,
    ) -> None:
        super().__init__()
        self.timeline = timeline
        #: the analysis of the match (``replay`` with a kept one, or ``--analysis``), None: none
        self.analysis = analysis
        #: indexes of the events whose decision lost points, in order
        self.mistake_indexes: list[int] = []
        self.match_title = title
        self.index = max(0, min(start, timeline.last))
        self.show_legal = False
        self.reveal = False
        #: the match being recorded elsewhere (``replay --follow``), asked for new events
        self.follow = follow

    # -- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield TableView(id="table")
                yield HandsPanel(id="hands")
                yield AnalysisPanel(id="analysis")
                yield EventDetail(id="detail")
            with Vertical(id="right"):
                yield EventList(id="events")
                yield ScoresPanel(id="scores")
        yield IssueBar(id="issues")
        yield Footer(id="footer", compact=True)

    def on_mount(self) -> None:
        self.query_one(HandsPanel).border_title = "hands"
        self.query_one(ScoresPanel).border_title = "scores"
        self.query_one(EventDetail).border_title = "event"
        self.analysis_panel = self.query_one(AnalysisPanel)
        self.analysis_panel.border_title = "analysis"
        self.status = self.query_one(StatusBar)
        self.table = self.query_one(TableView)
        self.hands = self.query_one(HandsPanel)
        self.scores = self.query_one(ScoresPanel)
        self.events = self.query_one(EventList)
        self.issues = self.query_one(IssueBar)
        self.detail = self.query_one(EventDetail)
        self._dress()
        self.goto(self.index)
        if self.follow is not None:
            self.set_interval(self.FOLLOW_SECONDS, self.take_new_events)

    def _dress(self, changed: list[int] | None = None) -> None:
        """The titles, the kind of table and the event list, for the timeline (``changed``: the rows
        to draw again in a grown one; None: all of them)."""
        tl = self.timeline
        state = tl.reducer.state
        players = " vs ".join(tl.players) or "?"
        # border titles are Textual markup: text from the log is escaped ("[bold]" in a name stays as written)
        title = f"{state.variant}: {players}" if state else None
        self.table.border_title = shown_markup(title) if title else "the match could not be read"
        self.events.border_title = shown_markup(self.match_title or Path(tl.log.source).name)
        report = tl.report
        unsure = len(report.unverified) - tl.hidden
        counts = f"{len(report.violations)} ✗  {unsure} ?" if report.violations or unsure else ""
        if tl.hidden and tl.min_likelihood is not None:
            counts += f"{'  ' if counts else ''}{tl.hidden} under {percent(tl.min_likelihood)} hidden"
            if changed is None:
                self.notify(hidden_line(tl.hidden, tl.min_likelihood), timeout=4)
        self.events.border_subtitle = counts
        self.set_class(tl.variant is not None and isinstance(tl.variant.new_layout(), GridLayout), "-grid")
        review = self.analysis
        self.set_class(review is not None, "-analysed")
        self.mistake_indexes = []
        if review is not None:
            self.analysis_panel.border_subtitle = shown_markup(review.method_text())
            found = (tl.index_of(seq) for seq, ds in review.by_seq.items() if any(d.mistake for d in ds))
            self.mistake_indexes = sorted(i for i in found if i is not None)
        if changed is None:
            self.events.load(tl, review)
        else:
            self.events.update_rows(tl, changed)

    # -- following a match being recorded -------------------------------------------------
    def take_new_events(self) -> bool:
        """Show the events another program added (``replay --follow``); stay on the event shown, or
        go on to the newest when the last one was shown."""
        if self.follow is None:
            return False
        log = self.follow.poll()
        if log is None or not log.records:
            return False
        at_end = self.index >= self.timeline.last
        self.timeline, changed = grown(self.timeline, list(log.records))
        if hasattr(self.app, "timeline"):
            self.app.timeline = self.timeline
        self._dress(changed)
        self.goto(self.timeline.last if at_end else self.index)
        return True

    # -- moving -------------------------------------------------------------------
    @property
    def seq(self) -> int:
        """The seq of the event shown."""
        return self.timeline.seqs[self.index] if len(self.timeline) else 0

    def goto(self, index: int) -> None:
        """Show the state right after the event at ``index``."""
        if not len(self.timeline):
            return
        self.index = max(0, min(index, self.timeline.last))
        self.refresh_view()

    def goto_seq(self, seq: int) -> bool:
        index = self.timeline.index_of(seq)
        if index is None:
            return False
        self.goto(index)
        return True

    def refresh_view(self) -> None:
        tl, i = self.timeline, self.index
        if not len(tl):
            return
        frame = tl.frame(i)
        hand = frame.hand
        plays = tl.plays_here(i) if self.show_legal else None
        legal = plays.moves if plays is not None else []
        later = tl.later(i) if self.reveal else Later()
        self.status.show(self._status(frame, plays))
        self.table.show(hand, _played_tile(tl, i, frame), legal, self._hand_note(frame))
        self.hands.show(
            tl.players,
            hand,
            closed=frame.closed,
            legal=plays.sure if plays is not None else [],
            mover=plays.player if plays is not None else None,
            later=later.tiles,
            reveal=self.reveal,
            known=later.known,
            plays=plays,
        )
        results = tl.results[: frame.results]
        running = dict(hand.points) if hand is not None and not frame.closed and any(hand.points.values()) else {}
        self.scores.show(tl.players, results, frame.totals, running)
        self.events.select(i)
        marks = tl.marks_at(i)
        self.issues.show(marks, [tl.certainty(m) for m in marks])
        self.detail.show(tl.records[i])
        if self.analysis is not None:
            self.analysis_panel.show(self.analysis, frame.seq, hand.number if hand is not None else None)

    def _hand_note(self, frame: Frame) -> str:
        hand = frame.hand
        if hand is None:
            return ""
        if frame.closed:
            result = self.timeline.results[frame.results - 1] if frame.results else None
            if result is not None:
                return f"hand {result.number} over: {result.end}, winner {_winner(result.winner)}"
            return f"hand {hand.number} over"
        if hand.over is not None:
            return f"hand {hand.number}: {hand.over}"
        return f"hand {hand.number}"

    def _status(self, frame: Frame, plays: Plays | None) -> list[Text | str]:
        tl = self.timeline
        row = tl.rows[self.index]
        parts: list[Text | str] = [Text(f"seq {frame.seq}/{tl.seqs[-1]}", style="bold")]
        what = f"{row.text.split(' ', 1)[0]} {row.player}".strip() if row.player else row.text.split(" ", 1)[0]
        parts.append(Text(what, style="bold"))
        hand = frame.hand
        if hand is not None:
            parts.append(f"hand {hand.number}/{len(tl.final_hands)}")
            if frame.closed:
                pass  # the table says how it ended
            elif hand.over is not None:
                parts.append(Text(f"over: {hand.over}", style="italic"))
            elif hand.turn:
                parts.append(Text(f"{hand.turn} to play", style="bold cyan"))
            parts.append(f"boneyard {hand.boneyard.count}")
            preferred = hand.extra.get("preferred")
            if preferred:
                parts.append(Text(f"preferred {preferred}", style="bold magenta"))
        if frame.ended:
            parts.append(Text(f"winner {_winner(frame.winner)}", style="bold green"))
        if plays is not None:
            whose = f" ({plays.player}, before)" if plays.before and plays.player else ""
            parts.append(Text(f"{plays.words()}{whose}", style="green"))
        if self.reveal:
            parts.append(Text("revealed", style="magenta"))
        if self.follow is not None:
            parts.append(Text("following", style="bold green"))
        return parts

    # -- actions (keys: dominolog/tui/keys.py) -----------------------------------------------
    def action_next_event(self) -> None:
        self.goto(self.index + 1)

    def action_previous_event(self) -> None:
        self.goto(self.index - 1)

    def action_next_hand(self) -> None:
        self.goto(self.timeline.next_hand(self.index))

    def action_previous_hand(self) -> None:
        self.goto(self.timeline.previous_hand(self.index))

    def action_first(self) -> None:
        self.goto(0)

    def action_last(self) -> None:
        self.goto(self.timeline.last)

    def action_next_violation(self) -> None:
        """The next violation, or possible one (an unverified rule)."""
        index = self.timeline.next_violation(self.index)
        if index is None:
            self.notify("no violation, certain or possible, after this event", timeout=2)
            return
        self.goto(index)

    def action_previous_violation(self) -> None:
        index = self.timeline.previous_violation(self.index)
        if index is None:
            self.notify("no violation, certain or possible, before this event", timeout=2)
            return
        self.goto(index)

    def action_next_mistake(self) -> None:
        """The next event whose decision lost points (by the analysis)."""
        self._to_mistake(bisect_right(self.mistake_indexes, self.index), "after")

    def action_previous_mistake(self) -> None:
        self._to_mistake(bisect_left(self.mistake_indexes, self.index) - 1, "before")

    def _to_mistake(self, k: int, where: str) -> None:
        if self.analysis is None:
            self.notify("no analysis of this match (dominolog analyze, or replay --analysis)", timeout=3)
        elif 0 <= k < len(self.mistake_indexes):
            self.goto(self.mistake_indexes[k])
        else:
            self.notify(f"no decision that lost points {where} this event", timeout=2)

    def action_audit(self) -> None:
        """The audit's explanation of the event shown: its findings, how sure, the rules, the proof."""
        tl, i = self.timeline, self.index
        if not len(tl):
            return
        frame = tl.frame(i)
        hand = frame.hand
        known = None
        if hand is not None and hand.hidden:
            known = tl.knowing.hands_at(tl.seqs[i], hand.number)
        fair = tl.fair_play() if hand is not None and hand.hidden else []
        self.app.push_screen(AuditScreen(tl.records[i], tl.findings_at(i), known, tl.hidden_at(i), fair))

    def action_matches(self) -> None:
        """The matches of the file or the store: the one picked is shown (:meth:`load`)."""
        source = getattr(self.app, "matches", None)
        if source is None or self.follow is not None:
            self.notify("only this match: opened alone" if source is None else "following this match", timeout=2)
            return
        try:
            entries = source.entries()
        except Exception as exc:  # the store went away, the file changed: say so, keep the match shown
            self.notify(f"the matches cannot be listed: {type(exc).__name__}", severity="error", timeout=4)
            return
        current = getattr(self.app, "current_key", None)

        def done(key: str | None) -> None:
            if key is None:
                return
            opener = getattr(self.app, "open_match", None)
            if opener is not None:
                opener(key)

        self.app.push_screen(MatchesScreen(entries, current), done)

    def load(self, timeline: Timeline, title: str, start: int = 0, analysis: ShownReview | None = None) -> None:
        """Show another match (the match list): its first event, the legal plays and hidden hands as set;
        ``analysis``: its analysis, if there is one."""
        self.timeline = timeline
        self.analysis = analysis
        self.match_title = title
        self.index = max(0, min(start, timeline.last))
        self._dress()
        self.goto(self.index)

    def action_toggle_legal(self) -> None:
        self.show_legal = not self.show_legal
        self.refresh_view()

    def action_toggle_hidden(self) -> None:
        self.reveal = not self.reveal
        self.refresh_view()

    def action_scroll_table(self, direction: str) -> None:
        dx, dy = {"up": (0, -3), "down": (0, 3), "left": (-6, 0), "right": (6, 0)}.get(direction, (0, 0))
        self.table.scroll_by(dx, dy)

    def action_jump(self) -> None:
        tl = self.timeline
        if not len(tl):
            return

        def done(seq: int | None) -> None:
            if seq is not None:
                self.goto_seq(seq)

        self.app.push_screen(JumpScreen(tl.seqs[0], tl.seqs[-1]), done)

    def action_toggle_help(self) -> None:
        """The panel of every key (also those the footer has no room for)."""
        if self.query(HelpPanel):
            self.app.action_hide_help_panel()
        else:
            self.app.action_show_help_panel()

    def action_quit(self) -> None:
        self.app.exit()

    def on_event_list_picked(self, message: EventList.Picked) -> None:
        self.goto(message.index)
