"""The dominolog notation (``.dn``) read: actions into events, by the rules.

:func:`resolve` turns one parsed :class:`~dominolog.log.notation.Action` into one event object,
asking the reducer who is on move (``state.hand.turn``) and who the rules say leads; a recorder
calls it for each action typed, then feeds the event to its reducer. :func:`read_dn` reads a
whole text into :class:`DnMatchLog` objects, :class:`~dominolog.log.reader.MatchLog` with the
notation errors found; their records are what :func:`~dominolog.log.reader.iter_matches` would
read from the JSON Lines the events make, numbered by the ``.dn`` line where each action starts.

The syntax is the log's (:mod:`dominolog.log.notation`); reading needs the rules (who is on move),
so it lives here, under ``verify`` and the store, which read ``.dn`` files; writing ``.dn`` is the
recorder's (:mod:`dominolog.recording.notation`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dominolog.log.hashchain import canonical_bytes, chain_hash_bytes
from dominolog.log.notation import Action, Clock, NotationError, parse, starts_match
from dominolog.log.reader import MAX_MATCH_EVENTS, MatchLog, PathError, Record, decode_line, iter_matches
from dominolog.log.writer import dump_line, ordered
from dominolog.reducer.chain import record_canon
from dominolog.reducer.fold import MatchReducer
from dominolog.textsafe import shown

#: how much of a bad action's text a malformed record keeps
_KEPT = 1000


class DnMatchLog(MatchLog):
    """A match read from ``.dn`` text, with the notation errors met in it (each is also a
    ``malformed`` record at its place). Not a dataclass of its own: MatchLog may be compiled (setup.py),
    and a dataclass made in Python over a compiled one does not set the compiled fields."""

    def __init__(
        self,
        source: str,
        line: int,
        records: list[Record] | None = None,
        orphan: bool = False,
        errors: list[NotationError] | None = None,
    ) -> None:
        super().__init__(source, line, records if records is not None else [], orphan)
        self.errors: list[NotationError] = errors if errors is not None else []


def on_move(reducer: MatchReducer) -> str | None:
    """Who is on move in the open hand (None: no hand open)."""
    state = reducer.state
    hand = state.hand if state is not None else None
    return hand.turn if hand is not None else None


def rules_leader(reducer: MatchReducer) -> str | None:
    """Who the rules say leads the next hand (None: they do not say)."""
    if reducer.state is None or reducer.variant is None:
        return None
    try:
        return reducer.variant.expected_leader(reducer.state)
    except Exception:  # pragma: no cover - a broken state names nobody
        return None


def _quoted(text: str) -> str:
    return f"'{shown(text, 40)}'"


def resolve(action: Action, reducer: MatchReducer, clock: Clock) -> dict[str, Any]:
    """The event object of one action, in the context of the match folded so far (``reducer``) and
    of its time stamps (``clock``, which a full stamp updates). Without ``seq`` or ``hash``.

    Raises :class:`NotationError` for an ``error`` action, a turn action with nobody on move, a
    ``deal`` without a leader the rules do not name, a short time stamp with no full one before
    it, or an escape of a line that is not an object."""
    if action.error is not None:
        raise action.error
    if action.kind == "error":  # pragma: no cover - error actions always carry their error
        raise NotationError(action.line, action.column, "an action", _quoted(action.text))
    if action.kind == "escape":
        if not isinstance(action.value, dict):
            raise NotationError(action.line, action.column, "an event (a JSON object after $)", "a line (a string)")
        return dict(action.value)
    event: dict[str, Any] = {"type": action.kind}
    if action.context:
        if action.kind == "deal":
            leader = rules_leader(reducer)
            if leader is None:
                raise NotationError(
                    action.line,
                    action.column,
                    "a leader after deal (the rules do not say who leads this hand)",
                    _quoted(action.text),
                )
            event["leader"] = leader
        else:
            player = on_move(reducer)
            if player is None:
                raise NotationError(
                    action.line, action.column, "a player name (nobody is on move)", _quoted(action.text)
                )
            event["player"] = player
    event.update(action.fields)
    if action.kind == "match_start":
        clock.reset()
    at = clock.stamp(action)
    if at is not None:
        event["at"] = at
    return event


def line_bytes(event: dict[str, Any]) -> bytes:
    """The JSON line of an event object (text that is not valid Unicode written with ``\\u``
    escapes, as another tool would have to)."""
    try:
        return dump_line(event).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(ordered(event), ensure_ascii=True, separators=(",", ":")).encode("ascii")


def _source_bytes(text: str) -> bytes:
    """Source text as the bytes it was read from (a lone surrogate given as text kept as such)."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _raw_line(action: Action) -> bytes:
    """The line an escaped string stands for (bytes that were not UTF-8 come back as such)."""
    try:
        data = action.value.encode("utf-8", "surrogateescape").strip()
    except UnicodeEncodeError:
        data = b""
    if not data or b"\n" in data:
        raise NotationError(
            action.line,
            action.column,
            "a line of the log after $ (one line, not empty, no lone surrogate)",
            _quoted(action.text),
        )
    return data


class MatchFold:
    """One match as it is read: its reducer (who is on move), clock, head hash and seq, and what
    ``[Log]`` says its events carry. :meth:`produce` makes the next record; :meth:`commit` keeps it."""

    def __init__(self, source: str = "<dn>", line: int = 1, log: tuple[str, ...] = (), orphan: bool = False) -> None:
        self.reducer = MatchReducer(source, line)
        self.reducer.orphan = orphan
        self.clock = Clock()
        self.head = ""
        self.seq = 0
        self.log = log

    def produce(self, action: Action) -> tuple[Record, Clock, NotationError | None]:
        """The record the action makes next (a ``malformed`` one for a notation error), and the clock
        after it; nothing is kept until :meth:`commit`."""
        seq = self.seq + 1
        clock = self.clock.copy()
        try:
            if action.kind == "escape" and isinstance(action.value, str):
                data = _raw_line(action)
            else:
                event = resolve(action, self.reducer, clock)
                if action.kind != "escape":
                    if "seq" in self.log:
                        event["seq"] = seq
                    if "hash" in self.log:
                        event["hash"] = chain_hash_bytes(self.head, canonical_bytes(event))
                try:
                    data = line_bytes(event)
                except (ValueError, TypeError, RecursionError):
                    raise NotationError(
                        action.line, action.column, "an event that can be written as JSON", _quoted(action.text)
                    ) from None
        except NotationError as err:
            data = _source_bytes(action.text[:_KEPT]) or b"?"
            return Record(err.line, seq, data, error=str(err)), clock, err
        return decode_line(data, action.line, seq), clock, None

    def commit(self, rec: Record, clock: Clock) -> None:
        self.seq = rec.seq
        self.clock = clock
        self.reducer.feed(rec)
        self.head = chain_hash_bytes(self.head, record_canon(rec))


def read_dn(text: str | bytes, source: str = "<dn>") -> list[DnMatchLog]:
    """Every match of a ``.dn`` text (bytes that are not UTF-8 are notation errors). Never raises
    for anything the text holds."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    logs: list[DnMatchLog] = []
    current: DnMatchLog | None = None
    fold = MatchFold(source)
    skipped: Record | None = None
    for action in parse(text).actions:
        if starts_match(action):
            current = DnMatchLog(source, action.line)
            logs.append(current)
            fold = MatchFold(source, action.line, action.log)
            skipped = None
        elif current is None:
            current = DnMatchLog(source, action.line, orphan=True)
            logs.append(current)
            fold = MatchFold(source, action.line, (), orphan=True)
        if skipped is not None or len(current.records) >= MAX_MATCH_EVENTS:
            if skipped is None:
                skipped = Record(action.line, fold.seq + 1, b"", raw_only=True, truncated=True)
                current.records.append(skipped)
            skipped.length += 1
            skipped.error = (
                f"a match holds at most {MAX_MATCH_EVENTS:,} events: {skipped.length:,} more actions "
                f"(lines {skipped.line}-{action.line}) not read"
            )
            continue
        rec, clock, err = fold.produce(action)
        fold.commit(rec, clock)
        current.records.append(rec)
        if err is not None:
            current.errors.append(err)
    return logs


def iter_matches_dn(path: Path | str, data: bytes | None = None) -> Iterator[DnMatchLog]:
    """The matches of a ``.dn`` file (PathError if it cannot be read)."""
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise PathError(f"{path}: cannot read: {exc.strerror or exc}") from None
    yield from read_dn(data, str(path))


def is_dn(path: Path | str) -> bool:
    return Path(path).suffix.lower() == ".dn"


def iter_matches_any(path: Path | str, data: bytes | None = None) -> Iterator[MatchLog]:
    """The matches of a log file: ``.dn`` (by its suffix) in the notation, anything else JSON Lines."""
    if is_dn(path):
        return iter_matches_dn(path, data)
    return iter_matches(path, data)


def notation_errors(log: MatchLog) -> list[NotationError]:
    """The notation errors of a match read from ``.dn`` (none for a JSON Lines match)."""
    return list(log.errors) if isinstance(log, DnMatchLog) else []
