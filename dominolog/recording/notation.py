"""The dominolog notation (``.dn``), semantics: actions into events, and matches back into text.

:func:`resolve` turns one parsed :class:`~dominolog.log.notation.Action` into one event object,
asking the reducer who is on move (``state.hand.turn``) and who the rules say leads; a recorder
calls it for each action typed, then feeds the event to its reducer. :func:`read_dn` reads a
whole text into :class:`DnMatchLog` objects, :class:`~dominolog.log.reader.MatchLog` with the
notation errors found; their records are what :func:`~dominolog.log.reader.iter_matches` would
read from the JSON Lines the events make, numbered by the ``.dn`` line where each action starts.
:func:`write_dn` writes matches (records of any log) as ``.dn`` text that reads back to the same
events, field for field (docs/notation.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from dominolog.log.hashchain import canonical_bytes, chain_hash_bytes
from dominolog.log.notation import Action, Clock, NotationError, parse, starts_match
from dominolog.log.notation_write import format_event, format_header, json_text, time_text
from dominolog.log.reader import MAX_MATCH_EVENTS, MatchLog, PathError, Record, decode_line, iter_matches
from dominolog.log.writer import dump_line, ordered
from dominolog.reducer import MatchReducer, record_canon
from dominolog.textsafe import shown

#: how much of a bad action's text a malformed record keeps
_KEPT = 1000
#: the width the writer wraps turn events at
WIDTH = 100


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


class NotationWriteError(ValueError):
    """Records that the notation cannot hold (a line too long to have been read whole, a
    ``match_start`` in the middle of a match, lines before a match that is not the first)."""


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


# -- writing ---------------------------------------------------------------------------------
def _full(value: Any) -> str | None:
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError):
        return None


def same_record(a: Record, b: Record) -> bool:
    """Whether two records hold the same: the same object, field for field (``seq`` and ``hash``
    included; key order aside), or for a line that is not an object as written, the same bytes."""
    a_obj = a.obj if not a.raw_only else None
    b_obj = b.obj if not b.raw_only else None
    if a_obj is None or b_obj is None:
        return a_obj is None and b_obj is None and a.data == b.data and a.raw_only == b.raw_only
    fa = _full(a.value)
    return fa is not None and fa == _full(b.value)


def _log_of(records: Sequence[Record]) -> tuple[str, ...]:
    objs = [r.obj for r in records if r.obj is not None and not r.raw_only]
    out = tuple(k for k in ("seq", "hash") if objs and 2 * sum(k in o for o in objs) > len(objs))
    return out


def _candidates(rec: Record, fold: MatchFold, first: bool) -> Iterator[list[str]]:
    """What may stand for ``rec``, most compact first (each as its tokens)."""
    obj = rec.obj if not rec.raw_only else None
    prefix = ["[Log " + " ".join(f'"{x}"' for x in fold.log) + "]"] if first and fold.log else []
    if obj is not None:
        if first:
            tags = format_header(obj, fold.log)
            if tags is not None:
                yield tags
        else:
            token = format_event(obj, on_move(fold.reducer), rules_leader(fold.reducer))
            at = time_text(obj["at"], fold.clock) if "at" in obj else ""
            if token is not None and at is not None:
                yield [token + at]
        escaped = json_text(obj)
        if escaped is not None:
            yield [*prefix, "$" + escaped]
    yield [*prefix, "$" + (json_text(rec.data.decode("utf-8", "surrogateescape")) or '""')]


def _write_match(records: Sequence[Record], layout: _Layout, orphan: bool) -> None:
    fold = MatchFold("<dn>", 1, () if orphan else _log_of(records), orphan)
    for i, rec in enumerate(records):
        first = i == 0 and not orphan
        if rec.truncated:
            raise NotationWriteError(f"line {rec.line}: {rec.error}; the notation cannot hold it")
        if rec.type == "match_start" and not first:
            raise NotationWriteError(f"line {rec.line}: a match_start in the middle of a match")
        for tokens in _candidates(rec, fold, first):
            parsed = parse(" ".join(tokens))
            if parsed.errors or len(parsed.actions) != 1 or starts_match(parsed.actions[0]) != first:
                continue
            action = parsed.actions[0]
            if first and action.log != fold.log:
                continue
            produced, clock, err = fold.produce(action)
            if err is None and same_record(produced, rec):
                break
        else:  # pragma: no cover - the escaped line always reads back
            raise NotationWriteError(f"line {rec.line}: the record cannot be written in the notation")
        fold.commit(produced, clock)
        layout.add("header" if first else rec.type or "", tokens)


class _Layout:
    """One hand a paragraph: the deal on its line, turn events wrapped, reveals and hand end on a line."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[str] = []
        self.cur = ""
        self.last = ""

    def newline(self) -> None:
        if self.cur:
            self.lines.append(self.cur)
            self.cur = ""

    def paragraph(self) -> None:
        self.newline()
        if self.lines and self.lines[-1]:
            self.lines.append("")

    def word(self, w: str) -> None:
        if self.cur and len(self.cur) + 1 + len(w) > self.width:
            self.newline()
        self.cur = f"{self.cur} {w}" if self.cur else w

    def add(self, role: str, tokens: list[str]) -> None:
        if role in ("header", "deal", "match_end"):
            self.paragraph()
        elif role in ("reveal", "hand_end") and self.last not in ("reveal",):
            self.newline()
        for t in tokens:
            self.word(t)
        if role in ("header", "deal", "hand_end", "match_end"):
            self.newline()
        self.last = role

    def text(self) -> str:
        self.newline()
        return "".join(line + "\n" for line in self.lines)


def write_dn(matches: Iterable[MatchLog | Sequence[Record]], width: int = WIDTH) -> str:
    """``.dn`` text for matches given as their records (from any reader or the store): each event
    in its compact form where that reads back to exactly the same object, else escaped.
    :class:`NotationWriteError` for what the notation cannot hold."""
    layout = _Layout(width)
    started = False
    for m in matches:
        records = m.records if isinstance(m, MatchLog) else list(m)
        if not records:
            continue
        orphan = records[0].type != "match_start"
        if orphan and started:
            raise NotationWriteError(
                f"line {records[0].line}: lines before any match_start can only open a .dn text, not follow a match"
            )
        _write_match(records, layout, orphan)
        started = True
    return layout.text()


def jsonl_to_dn(data: bytes, source: str = "<jsonl>") -> str:
    """JSON Lines (every match of them) as ``.dn`` text."""
    return write_dn(iter_matches(source, data))


def dn_to_jsonl(text: str | bytes, source: str = "<dn>") -> bytes:
    """``.dn`` text as JSON Lines: one line per record (a notation error is written as its text)."""
    return b"".join(rec.data + b"\n" for log in read_dn(text, source) for rec in log.records)
