"""Following a match while it is recorded (``dominolog replay --follow``): what is new since the last look.

A follower is asked twice a second by the replay screen (:meth:`Follower.poll`); it answers with
the match as it stands when something was added, else None, cheaply: the store is asked for the
match's last seq, a file for its size.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from dominolog.log.reader import MatchLog, PathError, Record, decode_line
from dominolog.recording.notation import is_dn, iter_matches_any
from dominolog.tui.timeline import Timeline

if TYPE_CHECKING:
    from dominolog.store import Store


def grown(timeline: Timeline, records: list[Record]) -> tuple[Timeline, list[int] | None]:
    """The timeline of ``records``: ``timeline`` extended by the new ones when ``records`` only add
    to what it holds (only they are folded), with the indexes of the rows to draw again; else a new
    one (another match, a rewritten file) and None."""
    n = len(timeline.records)
    last = timeline.records[-1] if n else None
    if len(records) >= n and (last is None or (records[n - 1].seq, records[n - 1].data) == (last.seq, last.data)):
        return timeline, timeline.extend(records[n:])
    return Timeline(MatchLog(timeline.log.source, timeline.log.line, records), timeline.min_likelihood), None


class Follower(Protocol):
    def poll(self) -> MatchLog | None:
        """The match, when events were added since the last call; else None."""
        ...

    def close(self) -> None: ...


class StoreFollower:
    """A match of the store: the events with a seq greater than the last one shown."""

    def __init__(self, store: Store, match_id: str, log: MatchLog) -> None:
        self.store = store
        self.match_id = match_id
        self.source = log.source
        self.records: list[Record] = list(log.records)

    def poll(self) -> MatchLog | None:
        last = self.records[-1].seq if self.records else 0
        try:
            row = self.store.conn.execute("SELECT MAX(seq) FROM events WHERE match_id = ?", (self.match_id,)).fetchone()
            if row is None or row[0] is None or row[0] <= last:
                return None
            new = [rec for rec, _ in self.store.records(self.match_id) if rec.seq > last]
        except self.store.db_errors:  # busy or gone for a moment: look again next time
            return None
        if not new:
            return None
        self.records.extend(new)
        return MatchLog(self.source, 1, list(self.records))

    def close(self) -> None:
        self.store.close()


def _whole_lines(data: bytes, dn: bool) -> bytes:
    """``data`` without a last line still being written (no newline yet, and not a whole event)."""
    cut = data.rfind(b"\n") + 1
    tail = data[cut:].strip()
    if tail and (dn or decode_line(tail, 1, 1).error is not None):
        return data[:cut]
    return data


class FileFollower:
    """The last match of a log file, read again when the file's size changes."""

    def __init__(self, path: Path, log: MatchLog) -> None:
        self.path = path
        self.size = self._size()
        self.records: list[Record] = list(log.records)

    def _size(self) -> int:
        try:
            return os.stat(self.path).st_size
        except OSError:
            return -1

    def poll(self) -> MatchLog | None:
        size = self._size()
        if size == self.size or size < 0:
            return None
        self.size = size
        try:
            data = _whole_lines(self.path.read_bytes(), is_dn(self.path))
            logs = list(iter_matches_any(self.path, data))
        except (OSError, PathError):
            return None
        if not logs:
            return None
        log = logs[-1]
        if len(log.records) == len(self.records) and [r.data for r in log.records] == [r.data for r in self.records]:
            return None
        self.records = list(log.records)
        return log

    def close(self) -> None:
        pass
