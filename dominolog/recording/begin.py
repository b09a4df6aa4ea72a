"""What the first line of an append begins: the match a ``match_start`` (JSON) or a header (the
notation) creates, named by its ``id`` (``[Id]``) or, when it gives none, after the chain hash of the
event as it will be stored (``head-...``, as ``import`` names a match without an id). Shared by
``dominolog append`` and the HTTP API (``POST /api/matches``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class Begun:
    """What the first line makes of a match given no id: its name (``made``: named after its hash), or
    why the line that would begin it is refused."""

    name: str | None
    made: bool = False
    what: str = "match_start"
    refused: str | None = None


def begun_by(text: str, notation: bool) -> Begun | None:
    """The match the line ``text`` begins (``notation``: a line of the notation, else a JSON event):
    None when the line begins none (not a match_start, not a header)."""
    from dominolog.log.hashchain import chain_hash_bytes
    from dominolog.log.notation import Clock, NotationError, parse, starts_match
    from dominolog.log.reader import MatchLog, decode_line
    from dominolog.recording.notation import line_bytes
    from dominolog.recording.session import action_event
    from dominolog.reducer import MatchReducer, record_canon
    from dominolog.store import match_id_of

    what = "match_start"
    if notation:
        actions = parse(text).actions
        if not actions or not starts_match(actions[0]):
            return None
        what = "header" if actions[0].kind == "match_start" else what
        try:  # the event the session will write for it (append stamps no times)
            data = line_bytes(action_event(actions[0], MatchReducer(), Clock(None)))
        except NotationError as exc:
            return Begun(None, what=what, refused=f"{exc}; nothing was written")
    else:
        data = text.strip().encode("utf-8")
    rec = decode_line(data, 1, 1)
    if rec.type != "match_start":
        return None
    if rec.error is not None or rec.event is None:
        return Begun(None, what=what, refused=f"not an event of the format: {rec.error}; nothing was written")
    name = match_id_of(MatchLog("-", 1, [rec]), chain_hash_bytes("", record_canon(rec)))
    return Begun(name, made=name != rec.event.id, what=what)


def headers_joined(lines: Iterable[T], text_of: Callable[[T], str | None], joined: Callable[[T, T], T]) -> Iterator[T]:
    """Lines of the notation with a header written over several lines (``export --format dn`` wraps it)
    as one line: lines of tags only are held (joined by ``joined``) until a line that is not. A line
    whose ``text_of`` is None (it cannot be read) is given on as it is."""
    from dominolog.log.notation import parse

    held: T | None = None
    for line in lines:
        text = text_of(line)
        if text is not None and text.strip():
            actions = parse(text).actions
            if len(actions) == 1 and actions[0].kind == "match_start":  # tags only
                held = line if held is None else joined(held, line)
                continue
        if held is not None:
            yield held
            held = None
        yield line
    if held is not None:
        yield held
