"""The recorder screen: the match as recorded so far, a prompt saying what the table is expected to
do next, one entry line for the notation, and a message line saying what became of each entry.

Every entry goes through the :class:`~dominolog.recording.session.Session`: an event is shown
as recorded only once the journal has written it durably. What the prompt offers (deal with the
rules' leader, skip a reveal, write the rules' outcome, close the match) is done by an EMPTY
Enter only; whatever is typed is entered as notation, exactly.
"""

from __future__ import annotations

import sqlite3
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, HelpPanel, Input

from dominolog.layouts.grid import GridLayout
from dominolog.log.notation_write import format_event
from dominolog.log.reader import MatchLog, decode_line
from dominolog.log.words import describe_record
from dominolog.recording.entry import Answer, Recorder
from dominolog.recording.notation import line_bytes
from dominolog.recording.prompt import Choice, Flow, Prompt, completions
from dominolog.recording.session import Entered, Session
from dominolog.state import Issue
from dominolog.store import StoreError
from dominolog.textsafe import shown, shown_markup
from dominolog.tui.follow import grown
from dominolog.tui.keys import RECORDER_KEYS, bindings
from dominolog.tui.screens.correct import CorrectScreen
from dominolog.tui.screens.replay import _played_tile, _winner
from dominolog.tui.timeline import Timeline
from dominolog.tui.widgets import EventList, HandsPanel, ScoresPanel, StatusBar, TableView
from dominolog.tui.widgets.entry import EntryLine
from dominolog.tui.widgets.panel import Panel

#: the message line's styles, by kind of line
STYLES = {"ok": "green", "refused": "bold red", "unverified": "yellow", "kept": "red", "info": ""}


def describe(seq: int, event: dict[str, Any]) -> str:
    """``seq 12 play Ben 6-5 left``."""
    return f"seq {seq} {shown(describe_record(decode_line(line_bytes(event), seq, seq)), 300)}"


def _span(seqs: list[int]) -> str:
    return f"seq {seqs[0]}" if len(seqs) == 1 else f"seq {seqs[0]}-{seqs[-1]}"


class RecorderScreen(Screen[None]):
    """One match being recorded."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(RECORDER_KEYS)  # type: ignore[assignment]
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (100, "-wide")]

    status: StatusBar
    table: TableView
    hands: HandsPanel
    scores: ScoresPanel
    events: EventList
    entry: EntryLine

    def __init__(self, session: Session, title: str = "", poll: float | None = 1.0) -> None:
        super().__init__()
        self.session = session
        self.match_title = title
        self.poll_seconds = poll
        #: what is asked next and what becomes of each entry: this screen only shows its answers
        self.recorder = Recorder(session)
        self.prompt = Prompt("none", "")
        #: the seq being fixed (the entry line then replaces it)
        self.correcting: int | None = None
        #: the message line offers something for the text in the entry line (ctrl+r, the rest of a
        #: fix to enter, a place put in by Tab): dropping the line drops the offer
        self.about_line = False
        self.timeline: Timeline | None = None
        self._table_title: str | None = None

    @property
    def flow(self) -> Flow:
        return self.recorder.flow

    @property
    def choice(self) -> Choice | None:
        """A tile typed alone that fits several places: the places to pick from."""
        return self.recorder.choice

    # -- layout ---------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield TableView(id="table")
                yield HandsPanel(id="hands")
            with Vertical(id="right"):
                yield EventList(id="events")
                yield ScoresPanel(id="scores")
        yield Panel(id="prompt")
        yield EntryLine(id="entry")
        yield Panel(id="message")
        yield Footer(id="footer", compact=True)

    def on_mount(self) -> None:
        self.status = self.query_one(StatusBar)
        self.table = self.query_one(TableView)
        self.hands = self.query_one(HandsPanel)
        self.scores = self.query_one(ScoresPanel)
        self.events = self.query_one(EventList)
        self.entry = self.query_one(EntryLine)
        self.entry.completer = self._completions
        self.hands.border_title = "hands"
        self.scores.border_title = "scores"
        # border titles are Textual markup: text from the log is escaped
        self.events.border_title = shown_markup(self.match_title or self.session.journal.name)
        self.reload()
        records = self.timeline.records if self.timeline is not None else []
        if len(records) <= 1:
            self.say(("the match is started: type the deal", "info"))
        else:
            last = records[-1]
            self.say((f"{len(records)} events recorded; the last: {describe(last.seq, last.obj or {})}", "info"))
        if self.poll_seconds:
            self.set_interval(self.poll_seconds, self.poll)
        self.entry.focus()

    # -- showing the match --------------------------------------------------------------
    def reload(self, asked: Prompt | None = None) -> None:
        """Show the match as the journal holds it now (``asked``: the prompt, when already known)."""
        records = self.session.records()
        changed: list[int] | None = None
        if self.timeline is None:
            tl = Timeline(MatchLog(self.session.journal.name, 1, records))
        else:  # the log only grows (an undo is an event too): fold the new events alone
            tl, changed = grown(self.timeline, records)
        self.timeline = tl
        state = tl.reducer.state
        players = " vs ".join(tl.players) or "?"
        title = shown_markup(f"{state.variant}: {players}") if state else "no match"
        if title != self._table_title:  # setting a border title repaints the whole table, its border too
            self.table.border_title = self._table_title = title
        self.set_class(tl.variant is not None and isinstance(tl.variant.new_layout(), GridLayout), "-grid")
        if changed is None:
            self.events.load(tl)
        else:
            self.events.update_rows(tl, changed)
        if len(tl):
            self.events.select(tl.last)
            rows = self.events.body
            visible = rows.scrollable_content_region.height or 10
            rows.scroll_to(y=max(0, tl.last - visible + 1), animate=False, force=True, immediate=True)
        self.show_state(asked)

    def show_state(self, asked: Prompt | None = None) -> None:
        tl = self.timeline
        if tl is None or not len(tl):
            return
        i = tl.last
        frame = tl.frame(i)
        hand = frame.hand
        open_hand = hand is not None and not frame.closed and hand.over is None
        legal = tl.legal(i) if open_hand else []
        note = ""
        if hand is not None:
            if frame.closed and frame.results:
                result = tl.results[frame.results - 1]
                note = f"hand {result.number} over: {result.end}, winner {_winner(result.winner)}"
            else:
                note = f"hand {hand.number}" + (f": {hand.over}" if hand.over else "")
        self.table.show(hand, _played_tile(tl, i, frame), legal, note)
        mover = hand.turn if hand is not None and open_hand else None
        self.hands.show(tl.players, hand, closed=frame.closed, legal=legal, mover=mover)
        running = dict(hand.points) if hand is not None and not frame.closed and any(hand.points.values()) else {}
        self.scores.show(tl.players, tl.results[: frame.results], frame.totals, running)
        self.status.show(self._status(tl))
        self.show_prompt(asked)

    def _status(self, tl: Timeline) -> list[Text | str]:
        frame = tl.frame(tl.last)
        parts: list[Text | str] = [Text(shown(self.match_title, 60), style="bold")] if self.match_title else []
        parts.append(f"seq {frame.seq}")
        hand = frame.hand
        if hand is not None:
            parts.append(f"hand {hand.number}")
            if frame.closed:
                parts.append("between hands")
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
        parts.append(Text(f"head {self.session.fingerprint}", style="bold"))
        return parts

    def show_prompt(self, asked: Prompt | None = None) -> None:
        self.prompt = asked if asked is not None else self.recorder.prompt()
        if self.correcting is not None:
            text = (
                f"fixing seq {self.correcting}: Enter writes this entry in its place (an empty line removes it); "
                "escape cancels"
            )
        elif self.choice is not None:
            letters = " (or l/r)" if "l" in self.choice.key_map() else ""
            text = (
                f"{self.choice.tile} fits {len(self.choice.places)} places: {self.choice.describe()} · "
                f"press the number{letters}; any other key: back to typing"
            )
        else:
            text = self.prompt.text
        self.query_one("#prompt", Panel).put(Text("▸ " + text))

    def say(self, *lines: tuple[str, str], about_line: bool = False) -> None:
        """The message line: each line in the style of its kind (``STYLES``). ``about_line``: it offers
        something for the text in the entry line (:attr:`about_line`)."""
        self.about_line = about_line
        out = Text("\n").join(Text(text, style=STYLES.get(kind, "")) for text, kind in lines)
        message = self.query_one("#message", Panel)
        message.set_class(any(kind == "refused" for _, kind in lines), "-refused")
        message.put(out)

    # -- entries ----------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value
        if self.correcting is not None:
            self._correct(text)
            return
        if self.choice is not None and not text.strip():
            self.say((f"pick a place: {self.choice.describe()} (escape: back to typing)", "info"))
            return
        self._drop_choice()
        self._show(self.recorder.enter(text))

    def _show(self, answer: Answer) -> None:
        """Show what became of an entry (the recorder's answer)."""
        if answer.done == "choice" and answer.choice is not None:
            choice = answer.choice
            self.entry.replace_text("")
            self.entry.choice_keys = choice.key_map()
            self.say((f"{choice.tile}: which place? {choice.describe()}", "info"))
            self.show_prompt(answer.prompt)
        elif answer.done == "skipped":
            self.say((f"{shown(answer.player, 40)}'s tiles: not shown", "info"))
            self.show_prompt(answer.prompt)
        elif answer.done == "revealing":
            self.say(("the hand is over: the reveals", "info"))
            self.show_prompt(answer.prompt)
        elif answer.done == "nothing":
            self.say((answer.prompt.hint or "nothing to write: type an entry", "info"))
        else:
            self._done(answer)

    def _done(self, answer: Answer) -> None:
        """Show what became of an entry written or refused; keep in the entry line what was not written."""
        result = answer.entered
        reloaded = bool(result.written or result.conflict)
        if reloaded:
            self.reload(answer.prompt)
        lines: list[tuple[str, str]] = []
        offer = False
        if result.written:
            lines.append((self._summary(result.written), "ok"))
        if result.conflict:
            lines.append((f"conflict: another recorder wrote first ({shown(result.stopped, 2000)})", "refused"))
        elif result.unusable is not None:
            lines.append((f"not written: {shown(result.stopped, 2000)}", "refused"))
        elif result.stopped is not None:
            lines.append((f"refused: {shown(result.stopped, 2000)}", "refused"))
            if result.by_rules:  # the table may still have done it
                lines.append(
                    ("ctrl+r records the line as played (it happened at the table; verify reports it)", "info")
                )
                offer = True
        lines += self._issues(result)
        self.entry.replace_text(answer.rest)
        self.say(*(lines or [("nothing written", "info")]), about_line=offer)
        if not reloaded:
            self.show_prompt(answer.prompt)

    def _summary(self, written: list[tuple[int, dict[str, Any]]]) -> str:
        if len(written) <= 3:
            text = "recorded " + "; ".join(describe(seq, ev) for seq, ev in written)
        else:
            text = f"recorded {_span([s for s, _ in written])} ({len(written)} events)"
        kinds = {ev.get("type") for _, ev in written}
        if "hand_end" in kinds or "match_end" in kinds:
            what = "match" if "match_end" in kinds else "hand"
            text += f" · {what} recorded, fingerprint {self.session.fingerprint}"
        return text

    @staticmethod
    def _issues(result: Entered) -> list[tuple[str, str]]:
        def line(mark: str, issue: Issue) -> str:
            return f"{mark} seq {issue.seq}: {issue.code}: {shown(issue.message, 500)}"

        return [(line("✗", v), "kept") for v in result.kept] + [(line("?", u), "unverified") for u in result.unverified]

    # -- a place to pick ---------------------------------------------------------------------
    def on_entry_line_picked(self, message: EntryLine.Picked) -> None:
        self.entry.choice_keys = {}
        answer = self.recorder.pick(message.index)
        if answer is not None:
            self._done(answer)

    def on_entry_line_dropped(self, message: EntryLine.Dropped) -> None:
        self._choice_dropped()
        self.show_prompt()

    def _drop_choice(self) -> Choice | None:
        """Forget the place to pick (the caller says what became of it); the choice that was pending."""
        self.entry.choice_keys = {}
        return self.recorder.drop()

    @staticmethod
    def _dropped_line(choice: Choice) -> tuple[str, str]:
        return (f"{choice.tile}: choice dropped, nothing written", "info")

    def _choice_dropped(self) -> None:
        """Escape or a key that picks no place: the message line no longer asks which place."""
        choice = self._drop_choice()
        if choice is not None:
            self.say(self._dropped_line(choice))

    def _completions(self, value: str) -> list[str]:
        return completions(self.session, value, self.choice)

    # -- fixing an earlier entry ---------------------------------------------------------------
    def _rows(self) -> list[tuple[int, str, str]]:
        tl = self.timeline
        out = []
        for rec in self.session.correctable():
            index = tl.index_of(rec.seq) if tl is not None else None
            if tl is not None and index is not None:
                out.append((rec.seq, tl.rows[index].player, tl.rows[index].text))
            else:
                out.append((rec.seq, "", shown(describe_record(rec), 300)))
        return out

    def _notation_of(self, seq: int) -> str:
        """The event at ``seq`` as an entry typed just before it (no name for the player then on move)."""
        tl = self.timeline
        index = tl.index_of(seq) if tl is not None else None
        if tl is None or index is None:
            return ""
        obj = {k: v for k, v in (tl.records[index].obj or {}).items() if k not in ("seq", "hash", "at")}
        before = tl.frame(index - 1).hand if index > 0 else None
        return format_event(obj, before.turn if before is not None else None) or ""

    def _fix_chosen(self, seq: int | None) -> None:
        if seq is None:
            return
        self._drop_choice()
        self.correcting = seq
        self.entry.replace_text(self._notation_of(seq))
        self.say((f"fixing seq {seq}: change the entry, then Enter", "info"))
        self.show_prompt()
        self.entry.focus()

    def _correct(self, text: str) -> None:
        seq, self.correcting = self.correcting, None
        assert seq is not None
        answer = self.recorder.correct(seq, text)
        result, fix = answer.entered, answer.fix
        assert fix is not None
        self.reload(answer.prompt)
        lines: list[tuple[str, str]] = []
        undone = fix.undone
        if undone:
            lines.append((f"fixed seq {seq}: {len(undone)} undo{'s' * (len(undone) != 1)} ({_span(undone)})", "ok"))
        if fix.whole:
            mine = "; ".join(describe(s, ev) for s, ev in fix.replaced)
            lines.append((f"in its place: {mine}" if mine else "nothing in its place", "ok"))
        again = fix.again
        if again:
            many = "s" * (len(again) != 1)
            lines.append((f"entered again: {len(again)} event{many} ({_span([s for s, _ in again])})", "ok"))
        left = answer.rest
        if not result.ok:
            kind = "conflict" if result.conflict else "stopped"
            lines.append((f"{kind}: {shown(result.stopped, 2000)}", "refused"))
            if left:
                lines.append(("left to enter (in the entry line): " + shown(left, 500), "info"))
        lines += self._issues(result)
        self.entry.replace_text(left)
        self.say(*lines, about_line=bool(left))
        self.show_prompt(answer.prompt)

    # -- another recorder ------------------------------------------------------------------------
    def poll(self) -> None:
        """Take in what another recorder wrote."""
        try:
            new = self.session.refresh()
        except (StoreError, OSError, sqlite3.Error) as exc:
            self.say((f"cannot read the match: {shown(exc, 500)}", "refused"))
            return
        if new:
            choice = self._drop_choice()
            self.reload()
            seq = self.session.reducer.events
            lines = [(f"another recorder wrote {new} event{'s' * (new != 1)} (up to seq {seq})", "info")]
            self.say(*lines, *([self._dropped_line(choice)] if choice is not None else []))

    # -- actions (keys: dominolog/tui/keys.py, RECORDER_KEYS) ------------------------------------------
    def action_fix(self) -> None:
        rows = self._rows()
        if not rows:
            self.say(("nothing to fix: no event of a hand in play", "info"))
            return
        # a fix in progress stays until another entry is picked (escape in the picker changes nothing)
        self.app.push_screen(CorrectScreen(rows), self._fix_chosen)

    def action_as_played(self) -> None:
        """Enter the line even where the rules refuse it: the table did it, and the log is what happened
        (``verify`` reports the violation)."""
        text = self.entry.value
        if not text.strip():
            self.say(("type the entry to record as played, then ctrl+r", "info"))
            return
        self._drop_choice()
        self._done(self.recorder.enter(text, as_played=True))

    def action_complete(self) -> None:
        choice = self.choice if not self.entry.value.strip() else None
        if self.entry.complete() and choice is not None:
            # the place is picked into the entry line: no longer asked for (Tab again: the next place)
            self._drop_choice()
            self.say(
                (f"{choice.tile}: the place is in the entry line (Tab: the next one); Enter writes it", "info"),
                about_line=True,
            )
            self.show_prompt()

    def action_cancel(self) -> None:
        if self.choice is not None:
            self._choice_dropped()
        elif self.correcting is not None:
            self.correcting = None
            self.entry.replace_text("")
            self.say(("fix cancelled", "info"))
        elif self.recorder.go_on():
            self.say(("the hand goes on", "info"))
        else:
            self.entry.replace_text("")
            if self.about_line:  # what the message line offered went with the line
                self.say(("entry dropped, nothing written", "info"))
        self.show_prompt()

    def action_scroll_events(self, pages: int) -> None:
        rows = self.events.body
        rows.scroll_to(y=rows.scroll_offset.y + pages * max(1, rows.size.height - 1), animate=False)

    def action_toggle_help(self) -> None:
        if self.query(HelpPanel):
            self.app.action_hide_help_panel()
        else:
            self.app.action_show_help_panel()

    def action_quit(self) -> None:
        self.app.exit()
