"""What the replay builders share: numbering, stripping and re-hashing edited events, reading them back."""

from __future__ import annotations

from typing import Any

from dominolog.log.hashchain import add_hashes
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import MatchReport, verify_match

Events = list[dict[str, Any]]


def numbered(events: Events, start: str, step: int = 25) -> Events:
    """Give events seq numbers and clock times from ``start`` (HH:MM) on a fixed evening."""
    h, m = map(int, start.split(":"))
    out = []
    for i, e in enumerate(events, 1):
        secs = h * 3600 + m * 60 + i * step
        at = f"2026-11-20T{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}Z"
        out.append({"type": e["type"], "seq": i, **{k: v for k, v in e.items() if k != "type"}, "at": at})
    return out


def strip(events: Events) -> Events:
    """The events without their seq and hash (to edit them)."""
    return [{k: v for k, v in e.items() if k not in ("hash", "seq")} for e in events]


def renumber(events: Events) -> Events:
    """Give edited events their seq numbers again (keeping their times) and new hashes."""
    out = [
        {"type": e["type"], "seq": i, **{k: v for k, v in e.items() if k != "type"}} for i, e in enumerate(events, 1)
    ]
    return add_hashes(out)


def dressed(events: Events, match_id: str, meta: dict[str, str]) -> Events:
    """A match with its own id and meta, numbered and hashed again."""
    events = strip(events)
    events[0]["id"] = match_id
    events[0]["meta"] = meta
    return renumber(events)


def log_of(events: Events) -> MatchLog:
    """The one match of ``events``, read back as ``verify`` reads a file."""
    (log,) = list(iter_matches("build", "".join(dump_line(e) + "\n" for e in events).encode()))
    return log


def verified(events: Events) -> MatchReport:
    return verify_match(log_of(events))
