"""One recorder, every face: what becomes of an entry, as results a face only shows.

A :class:`Recorder` holds a :class:`~dominolog.recording.session.Session` and what a recorder keeps
between entries (the :class:`~dominolog.recording.prompt.Flow` of the hand, the place a tile waits
for). Each entry, typed (the terminal screen's line, the phone page's line) or tapped, comes back as
an :class:`Answer`: the events written (seq and event), the rest of the line not written, the
choice pending (the tile and the places it fits, by id), what was refused and why, the marks the
events put on earlier ones, and the prompt then (what is asked next, its offer). An entry's text is
read by the notation parser once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dominolog.log.notation import parse
from dominolog.log.notation_write import format_event
from dominolog.recording.prompt import Choice, Flow, Prompt, expect, find_choice, reveal_event, reveal_tiles
from dominolog.recording.session import Entered, Session

#: what an entry did (:attr:`Answer.done`)
DONE = ("written", "refused", "choice", "skipped", "revealing", "nothing")


@dataclass(slots=True)
class Fix:
    """What a correction of seq ``seq`` did: the undos back to it, the events written in its place,
    those entered again after them, and whether all of that went through (``whole``)."""

    seq: int
    undone: list[int] = field(default_factory=list)
    replaced: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    again: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    whole: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "undone": list(self.undone),
            "replaced": [{"seq": s, "event": e} for s, e in self.replaced],
            "again": [{"seq": s, "event": e} for s, e in self.again],
            "whole": self.whole,
        }


@dataclass(slots=True)
class Answer:
    """What became of one entry. ``done``: ``written`` (all of it), ``refused`` (stopped; what was
    written before is in ``entered.written``), ``choice`` (a tile waits for its place), ``skipped`` (a
    reveal not shown: ``player``), ``revealing`` (the table said the hand is over) or ``nothing``
    (an empty entry with nothing offered: ``prompt.hint`` says why)."""

    done: str
    entered: Entered
    prompt: Prompt
    choice: Choice | None = None
    player: str | None = None
    fix: Fix | None = None

    @property
    def rest(self) -> str:
        """What is left in the entry line."""
        if self.fix is not None:
            return self.entered.rest
        return self.entered.rest if not self.entered.ok else ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "done": self.done,
            **self.entered.as_dict(),
            "rest": self.rest,
            "choice": self.choice.as_dict() if self.choice is not None else None,
            "player": self.player,
            "fix": self.fix.as_dict() if self.fix is not None else None,
            "prompt": self.prompt.as_dict(),
        }


class Recorder:
    """A match being recorded through a face: the session, the flow of the hand, the choice pending."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.flow = Flow()
        #: a tile entered alone that fits several places: the places to pick from
        self.choice: Choice | None = None
        #: the prompt last asked (what an empty entry answers)
        self.asked = expect(session, self.flow)

    def prompt(self) -> Prompt:
        """What the table is expected to do next (kept as :attr:`asked`)."""
        self.asked = expect(self.session, self.flow)
        return self.asked

    def _answer(self, entered: Entered, done: str | None = None, **kw: Any) -> Answer:
        if done is None:
            done = "written" if entered.ok else "refused"
        return Answer(done, entered, self.prompt(), choice=self.choice, **kw)

    def drop(self) -> Choice | None:
        """Forget the choice pending; the choice that was."""
        choice, self.choice = self.choice, None
        return choice

    # -- entries -----------------------------------------------------------------------------
    def enter(self, text: str, as_played: bool = False) -> Answer:
        """An entry: empty, what the prompt offers (:meth:`accept`); tiles alone at a reveal prompt, the
        reveal; a tile alone that fits several places, a choice pending (:meth:`pick`); else the
        notation, entered as it is (``as_played``: even where the rules refuse it)."""
        self.choice = None
        if not text.strip():
            return self.accept()
        asked = self.asked
        if not as_played and asked.kind == "reveal" and asked.player is not None:
            tiles = reveal_tiles(text)
            if tiles is not None:
                return self._event(reveal_event(asked.player, tiles), text)
        parsed = parse(text)
        if not as_played:
            choice = find_choice(self.session, text, parsed)
            if choice is not None:
                self.choice = choice
                return self._answer(Entered(actions=1), "choice")
        session = self.session
        session.check = not as_played
        try:
            entered = session.enter(text, parsed)
        finally:
            session.check = True
        return self._answer(entered)

    def pick(self, index: int) -> Answer | None:
        """The place ``index`` (from 0) of the choice pending: the play written there (None: no such
        choice or place; the choice is dropped)."""
        choice = self.drop()
        if choice is None or not 0 <= index < len(choice.places):
            return None
        return self._answer(self.session.enter(choice.entry(index), choice.picked(index)))

    def pick_place(self, place: str) -> Answer | None:
        """The place of the choice pending by its id (``left``, ``6-6:N``, ...)."""
        choice = self.choice
        if choice is None or place not in choice.places:
            self.drop()
            return None
        return self.pick(choice.places.index(place))

    def accept(self) -> Answer:
        """An empty entry: what the prompt offers (skip a reveal, ask for the reveals, write the
        offered event), or nothing."""
        self.choice = None
        asked = self.asked
        if asked.kind == "reveal" and asked.player is not None:
            self.flow.skipped.add(asked.player)
            return self._answer(Entered(), "skipped", player=asked.player)
        if asked.reveals:
            self.flow.revealing = True
            return self._answer(Entered(), "revealing")
        if asked.default is not None:
            return self._event(dict(asked.default), "")
        return self._answer(Entered(), "nothing")

    def _event(self, event: dict[str, Any], text: str) -> Answer:
        now = self.session.clock.now
        if now is not None:
            event["at"] = now()
        entered = self.session.enter_event(event)
        entered.actions = 1
        if not entered.ok:
            entered.rest = text
        return self._answer(entered)

    def go_on(self) -> bool:
        """Take back "the hand is over" said by the table (not yet by the log); whether it was said."""
        if self.flow.revealing and not self.session.hand_over():
            self.flow.revealing = False
            return True
        return False

    # -- fixing an earlier entry ------------------------------------------------------------------
    def correct(self, seq: int, text: str) -> Answer:
        """Replace the event at ``seq`` by ``text`` (:meth:`Session.correct`): what was undone, written
        in its place and entered again; the rest (of the text, then the events not entered again) is
        left to enter."""
        self.choice = None
        standing = self.session.correctable()
        index = next((i for i, r in enumerate(standing) if r.seq == seq), None)
        tail = standing[index + 1 :] if index is not None else []
        undos = len(standing) - index if index is not None else 0
        entered = self.session.correct(seq, text)
        written = entered.written
        fix = Fix(seq, [s for s, ev in written[:undos] if ev.get("type") == "undo"])
        after = written[len(fix.undone) :]
        text_ok = entered.ok or entered.re_entering
        own = entered.actions if text_ok else len(after)
        fix.whole = len(fix.undone) == undos and text_ok
        fix.replaced = after[:own]
        fix.again = after[own:] if text_ok else []
        if not entered.ok:
            rest = [
                format_event({k: v for k, v in (r.obj or {}).items() if k not in ("seq", "hash", "at")}) or ""
                for r in tail[len(fix.again) :]
            ]
            entered.rest = " ".join(([] if text_ok else [entered.rest]) + rest).strip()
        else:
            entered.rest = ""
        return self._answer(entered, fix=fix)
