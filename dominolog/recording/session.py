"""A recording session: what the recorder screen and ``dominolog append`` do with what is typed.

A :class:`Session` holds one match being recorded (a :class:`~dominolog.recording.journal.Journal`)
and takes entries in the notation (``docs/notation.md``): each action of an entry is
resolved in the match's context (who is on move, who leads, the time), tried on the
match's fold, and appended durably; the first action refused stops the entry, and
nothing of it is written. It also answers what a recorder screen asks: where a tile can
go, which tiles are legal, what the rules give at the end of a hand, and how to correct
an earlier entry (undos back to it, the corrected entry, the rest entered again).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from dominolog.log.hashchain import event_hash
from dominolog.log.notation import Action, Clock, NotationError, Parsed, parse, split_tile
from dominolog.log.reader import Record, decode_line
from dominolog.recording.journal import Journal
from dominolog.recording.notation import line_bytes, on_move, resolve, rules_leader
from dominolog.reducer import MatchReducer
from dominolog.state import HandResult, Issue
from dominolog.store import ConflictError, RefusedError, RulesRefusedError, StoreError
from dominolog.tiles import Tile

#: how many characters of the head hash the paper sheet gets
FINGERPRINT = 10


def utc_now() -> str:
    """The time of an entry, as the log writes it: ``2026-11-24T19:04:11Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamped_line(text: str, at: str) -> str:
    """A JSON line of an event with ``"at": at`` added at its end when it is an object with no ``at``
    and no ``hash`` of its own (a hash the writer computed covers the event as sent: it is left as
    sent); any other line as given (the store says what is wrong with it)."""
    try:
        obj = json.loads(text)
    except ValueError:
        return text
    if not isinstance(obj, dict) or not obj or "at" in obj or "hash" in obj:
        return text
    body = text.rstrip()
    if not body.endswith("}"):  # pragma: no cover - a JSON object ends with its brace
        return text
    return f'{body[:-1].rstrip()},"at":{json.dumps(at)}}}'


@dataclass(slots=True)
class Entered:
    """What became of an entry: the events written (seq, object), and if the entry was not written
    whole, why (``stopped``), and whether that was another writer (``conflict``)."""

    written: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    stopped: str | None = None
    conflict: bool = False
    #: the store or file cannot be written (locked, read-only, damaged): not the entry's fault
    unusable: StoreError | None = None
    #: the rules refused the event that stopped the entry (its violations, as the store gave them)
    refused_by: list[Issue] | None = None
    #: a correction stopped at re-entering the events after the one corrected (the entry itself was written)
    re_entering: bool = False
    #: rules left unverified by the events written (hidden tiles), and violations kept (claims); an
    #: issue may mark an earlier event (what this one proves of the hand: its ``seq`` says which)
    unverified: list[Issue] = field(default_factory=list)
    kept: list[Issue] = field(default_factory=list)
    #: what is left of the entry's text once the actions written are taken off (empty when it was
    #: written whole), and how many actions the text held
    rest: str = ""
    actions: int = 0

    @property
    def ok(self) -> bool:
        return self.stopped is None

    @property
    def by_rules(self) -> bool:
        """The rules refused the entry (not another writer, not the store): the table may still have done
        it, and it can be recorded as played."""
        return self.stopped is not None and not self.conflict and self.unusable is None and self.refused_by is not None

    def as_dict(self) -> dict[str, Any]:
        """What became of the entry, as JSON."""
        marks = [("violation", i) for i in self.kept] + [("unverified", i) for i in self.unverified]
        return {
            "written": [{"seq": seq, "event": event} for seq, event in self.written],
            "refused": None
            if self.stopped is None
            else {
                "reason": self.stopped,
                "conflict": self.conflict,
                "unusable": self.unusable is not None,
                "by_rules": self.by_rules,
            },
            "rest": self.rest,
            "actions": self.actions,
            "marks": [{"kind": k, "seq": i.seq, "code": i.code, "message": i.message} for k, i in marks],
        }


def unwritten(text: str, actions: list[Action], done: int) -> str:
    """What is left of ``text`` (read into ``actions``) once its first ``done`` actions are written
    (they were read whole, so each starts at its line and column)."""
    if done <= 0 or done >= len(actions):
        return text if done <= 0 else ""
    last = actions[done - 1]
    lines = text.split("\n")
    offset = sum(len(line) + 1 for line in lines[: last.line - 1]) + last.column - 1 + len(last.text)
    return text[offset:].lstrip()


def end_suffix(end: str) -> str:
    """An ``end`` as the notation writes it after a tile: ``L``, ``R``, ``@66N``, ``@64``."""
    if end in ("left", "right"):
        return end[0].upper()
    if not end:
        return ""
    tile, _, direction = end.partition(":")
    return "@" + tile.replace("-", "") + direction


def action_event(action: Action, reducer: MatchReducer, clock: Clock) -> dict[str, Any]:
    """The event a session writes for ``action`` (:func:`~dominolog.recording.notation.resolve`; a
    header's match_start with ``seq`` and ``hash`` as its ``[Log]`` tag says). Raises
    :class:`NotationError`."""
    event = resolve(action, reducer, clock)
    if action.kind == "match_start":
        event = Session.start_event(event, action.log)
    return event


class Session:
    """One match being recorded."""

    def __init__(self, journal: Journal, now: Callable[[], str] | None = utc_now, check: bool = True) -> None:
        self.journal = journal
        #: refuse what the rules refuse for certain (False: write what the table did, as it did it)
        self.check = check
        self.clock = Clock(now)
        # (a short stamp takes its date from the last full one: the last time stored is read alone, and the
        # events only when it is not a full stamp, as a long match's are not read on every new session)
        last = journal.last_at()
        if last is not None:
            self.clock.note(last)
            if self.clock.base is None:
                for rec in journal.records():
                    at = rec.obj.get("at") if rec.obj is not None else None
                    if isinstance(at, str):
                        self.clock.note(at)

    @property
    def reducer(self) -> MatchReducer:
        return self.journal.reducer

    # -- entering --------------------------------------------------------------
    def enter(self, text: str, parsed: Parsed | None = None) -> Entered:
        """Write the actions of ``text`` in order, each durably; stop at the first one refused (the rest
        of the text is :attr:`Entered.rest`). ``parsed``: ``text`` as already read (not read again)."""
        out = Entered()
        if parsed is None:
            parsed = parse(text)
        out.actions = len(parsed.actions)
        done = 0
        for action in parsed.actions:
            if not self._enter_action(action, out):
                break
            done += 1
        if not out.ok:
            out.rest = unwritten(text, parsed.actions, done)
        return out

    def enter_event(self, event: dict[str, Any], out: Entered | None = None) -> Entered:
        """Write one event object (``seq``, ``hash`` are the journal's)."""
        out = out if out is not None else Entered()
        keep = ("seq", "hash") if event.get("type") == "match_start" else ()
        body = {k: v for k, v in event.items() if k not in ("seq", "hash") or k in keep}
        self._append(body, out)
        return out

    def _enter_action(self, action: Action, out: Entered) -> bool:
        if action.kind == "match_start" and self.reducer.events:
            out.stopped = f"column {action.column}: a match is being recorded here; a header starts a new match"
            return False
        clock = self.clock.copy()
        try:
            event = action_event(action, self.reducer, clock)
        except NotationError as exc:
            out.stopped = str(exc)
            return False
        if action.kind == "escape" and clock.now is not None and "at" not in event and "hash" not in event:
            event["at"] = clock.now()  # (an escaped event is stamped as the actions are; its own hash: as sent)
        if self._append(event, out):
            self.clock = clock
            return True
        return False

    @staticmethod
    def start_event(event: dict[str, Any], log: tuple[str, ...] = ("seq", "hash")) -> dict[str, Any]:
        """A match_start carrying ``seq`` and ``hash`` when ``log`` says the match's events carry them
        (every later event is then written with them)."""
        body = {k: v for k, v in event.items() if k not in ("seq", "hash")}
        if "seq" in log:
            body = {"type": body["type"], "seq": 1, **body}
        if "hash" in log:
            body["hash"] = event_hash("", body)
        return body

    def _append(self, event: dict[str, Any], out: Entered) -> bool:
        return self.write_line(line_bytes(event), out, shown_as=event)

    def write_line(
        self, line: bytes, out: Entered, expected_seq: int | None = None, shown_as: dict[str, Any] | None = None
    ) -> bool:
        """Write one log line as it is given (its own ``seq`` or ``hash`` are checked, not replaced);
        what became of it goes into ``out``."""
        try:
            done = self.journal.append(line, check=self.check, expected_seq=expected_seq)
        except ConflictError as exc:
            self.journal.refresh()
            out.stopped, out.conflict = str(exc), True
            return False
        except RulesRefusedError as exc:
            out.stopped, out.refused_by = str(exc), exc.issues
            return False
        except RefusedError as exc:
            out.stopped = str(exc)
            return False
        except StoreError as exc:
            out.stopped, out.unusable = str(exc), exc
            return False
        out.written.append((done.seq, shown_as if shown_as is not None else {}))
        out.unverified.extend(done.unverified)
        out.kept.extend(done.violations)
        return True

    def refresh(self) -> int:
        """Take in what another writer appended; the number of new events."""
        return self.journal.refresh()

    # -- what the screen asks ----------------------------------------------------
    @property
    def on_move(self) -> str | None:
        return on_move(self.reducer)

    @property
    def head(self) -> str:
        return self.reducer.head

    @property
    def fingerprint(self) -> str:
        """The first characters of the head hash: short enough to copy onto the paper sheet."""
        return self.reducer.head[:FINGERPRINT]

    def records(self) -> list[Record]:
        return self.journal.records()

    def places(self, tile: str) -> list[str]:
        """The ends ``tile`` can go on now (``[""]`` for the first tile of a hand)."""
        hand, variant = self.reducer.hand, self.reducer.variant
        if hand is None or variant is None:
            return []
        try:
            t = Tile.parse(split_tile(tile))
        except ValueError:
            return []
        if t in hand.layout.on_board:
            return []
        return list(variant.places(hand, t))

    def legal_tiles(self) -> list[str] | None:
        """The tiles the player on move may play, when their hand is known (None: it is not)."""
        hand, variant, player = self.reducer.hand, self.reducer.variant, self.on_move
        if hand is None or variant is None or player is None or hand.over is not None:
            return None
        if hand.holdings[player].unknown:
            return None
        seen: dict[str, None] = {}
        for tile, _ in variant.legal_placements(hand, player):
            seen[str(tile).replace("-", "")] = None
        return list(seen)

    def hand_over(self) -> bool:
        hand = self.reducer.hand
        return hand is not None and hand.over is not None

    def reveals_wanted(self) -> list[str]:
        """The players whose remaining tiles are not known and who have not revealed them."""
        hand = self.reducer.hand
        if hand is None:
            return []
        return [p for p, h in hand.holdings.items() if h.unknown and p not in hand.revealed]

    def outcome(self) -> HandResult | None:
        """What the rules give for the hand if it ended now (None: no hand open, or hidden tiles
        keep it from being known). Nothing is written."""
        reducer, state = self.reducer, self.reducer.state
        if state is None or state.hand is None:
            return None
        n, hands = reducer.events + 1, len(state.results)
        mark = reducer.mark()
        try:
            reducer.feed(decode_line(b'{"type":"hand_end"}', n, n))
            after = reducer.state.results if reducer.state is not None else []
            result = after[-1] if len(after) > hands else None
            return result if result is not None and result.verified and result.end != "abandoned" else None
        finally:
            reducer.rollback(mark)

    def next_leader(self) -> str | None:
        return rules_leader(self.reducer)

    def match_over(self) -> bool:
        state = self.reducer.state
        return state is not None and state.over and not state.ended

    # -- correcting an earlier entry -------------------------------------------------
    def correctable(self) -> list[Record]:
        """The events of the hand in play that a correction can reach (standing, after the deal)."""
        return self.reducer.history.standing_records() if self.reducer.hand is not None else []

    def correct(self, seq: int, text: str) -> Entered:
        """Replace the event at ``seq`` by the entry ``text``: undo back to it (append-only: nothing is
        deleted), enter ``text``, then enter again the events that came after it. Stops at the
        first one refused (the rest is for the recorder to enter)."""
        out = Entered()
        standing = self.correctable()
        index = next((i for i, r in enumerate(standing) if r.seq == seq), None)
        if index is None:
            out.stopped = f"seq {seq} is not an event of the hand in play that can be corrected"
            return out
        tail = [
            {k: v for k, v in (r.obj or {}).items() if k not in ("seq", "hash", "at")} for r in standing[index + 1 :]
        ]
        for _ in range(len(standing) - index):
            if not self._append(self._stamped({"type": "undo", "reason": f"correcting seq {seq}"}), out):
                out.rest = text  # nothing of the entry was written
                return out
        if not self._entered(self.enter(text), out):
            return out
        for event in tail:
            if not self._append(self._stamped(event), out):
                out.stopped = f"re-entering the events after seq {seq}: {out.stopped}"
                out.refused_by = None  # an event the table had entered before: not this entry's
                out.re_entering = True
                return out
        return out

    def _stamped(self, event: dict[str, Any]) -> dict[str, Any]:
        """The event with the session clock's time (none when the session does not stamp)."""
        now = self.clock.now
        return {**event, "at": now()} if now is not None else event

    @staticmethod
    def _entered(part: Entered, out: Entered) -> bool:
        out.written.extend(part.written)
        out.unverified.extend(part.unverified)
        out.kept.extend(part.kept)
        out.stopped, out.conflict, out.unusable = part.stopped, part.conflict, part.unusable
        out.refused_by = part.refused_by
        out.rest, out.actions = part.rest, part.actions
        return part.ok
