"""Where a recorder writes: a match in the store, or the last match of a JSON Lines file.

Both take one event at a time, durably (the store: one transaction with
``synchronous=FULL``; a file: ``write`` then ``fsync`` under an exclusive lock) and only
as the next event of the match: another writer's event in between is a conflict and
nothing is written. Both keep the match folded, so an append folds only its event, and
both refuse, with ``check``, what the rules refuse for certain
(:mod:`dominolog.reducer.checks`).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Protocol

from dominolog.log.reader import MatchLog, Record, decode_line, iter_matches
from dominolog.log.writer import dump_line, like_the_match
from dominolog.reducer import MatchReducer
from dominolog.store import ConflictError, RefusedError, Store
from dominolog.store.appending import Appended, check_room, fold_checked
from dominolog.store.errors import StoreError, database_failure


class Journal(Protocol):
    """A match being recorded."""

    #: what to call it in messages (``STORE#ID`` or the file)
    name: str

    @property
    def reducer(self) -> MatchReducer: ...

    def records(self) -> list[Record]: ...

    def last_at(self) -> str | None:
        """The time (``at``) of the match's last event that carries one, as written (None: none does)."""
        ...

    def refresh(self) -> int:
        """Take in what another writer appended; the number of new events."""
        ...

    def append(self, line: bytes, check: bool = True, expected_seq: int | None = None) -> Appended: ...


class StoreJournal:
    """A match of the store, by id."""

    def __init__(self, store: Store, match_id: str) -> None:
        self.store = store
        self.match_id = match_id
        self.name = f"{store.path}#{match_id}"
        self._reducer = store.fold_of(match_id).reducer
        self._records: list[Record] = []
        #: an event was stored but the fold after it could not be read (the database failed between
        #: the two): the next append reads it first
        self._stale = False

    @property
    def reducer(self) -> MatchReducer:
        return self._reducer

    def records(self) -> list[Record]:
        """The match's events as stored (only those stored since the last call are read)."""
        last = self._records[-1].seq if self._records else 0
        self._records.extend(rec for rec, _ in self.store.records(self.match_id, after=last))
        return list(self._records)

    def last_at(self) -> str | None:
        # (one indexed read: a long match's events are not read to find it)
        try:
            return self.store.last_at(self.match_id)
        except self.store.db_errors as exc:
            raise database_failure(exc, self.name) from None

    def refresh(self) -> int:
        before = self._reducer.events
        try:
            self._reducer = self.store.fold_of(self.match_id).reducer
        except self.store.db_errors as exc:  # the database failed (a server gone, a file busy): not a bug
            raise database_failure(exc, self.name) from None
        return self._reducer.events - before

    def append(self, line: bytes, check: bool = True, expected_seq: int | None = None) -> Appended:
        if self._stale:
            self.refresh()  # the database still gone: a StoreError, and nothing more is written
            self._stale = False
        if expected_seq is None:
            expected_seq = self._reducer.events + 1
        try:
            done = self.store.append(self.match_id, line, expected_seq, check=check)
        except ConflictError:
            self.refresh()
            raise
        except self.store.db_errors as exc:  # nothing was written: the entry waits in the line, not lost
            raise database_failure(exc, self.name) from None
        try:
            self._reducer = self.store.fold_after(self.match_id, done).reducer
        except self.store.db_errors:  # stored, then the database failed: this entry is written, and said so
            self._stale = True
        return done


class FileJournal:
    """The last match of a JSON Lines file (a new match at its end when a match_start is appended)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = str(path)
        self._load()

    def _load(self) -> None:
        data = self.path.read_bytes() if self.path.exists() else b""
        self._size = len(data)
        self._lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
        self._needs_newline = bool(data) and not data.endswith(b"\n")
        matches = list(iter_matches(self.path, data)) if data else []
        last = matches[-1] if matches and not matches[-1].orphan else None
        self._log = last if last is not None else MatchLog(self.name, self._lines + 1, [])
        reducer = MatchReducer(self.name, self._log.line)
        for rec in self._log.records:
            reducer.feed(rec)
        self._reducer = reducer

    @property
    def reducer(self) -> MatchReducer:
        return self._reducer

    def records(self) -> list[Record]:
        return list(self._log.records)

    def last_at(self) -> str | None:
        for rec in reversed(self._log.records):
            at = rec.obj.get("at") if rec.obj is not None else None
            if isinstance(at, str):
                return at
        return None

    def refresh(self) -> int:
        before = self._reducer.events
        if (self.path.stat().st_size if self.path.exists() else 0) != self._size:
            self._load()
        return self._reducer.events - before

    def append(self, line: bytes, check: bool = True, expected_seq: int | None = None) -> Appended:
        rec = decode_line(line.strip(), 1, 1)
        if rec.error is not None or rec.event is None or rec.obj is None:
            raise RefusedError(f"not an event of the format: {rec.error or 'not an event'}; nothing was written")
        starts = rec.event.type == "match_start"
        created = not self.path.exists()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot be written ({exc.strerror}); nothing was written") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_size != self._size:
                self._load()
                raise ConflictError(f"{self.path}: another recorder wrote to it first; nothing was written")
            if starts:
                self._log = MatchLog(self.name, self._lines + 1, [])
                self._reducer = MatchReducer(self.name, self._log.line)
            seq = self._reducer.events + 1
            if expected_seq is not None and expected_seq != seq:
                raise ConflictError(
                    f"{self.path}: seq {expected_seq} is taken (the match has {seq - 1} events); nothing was written"
                )
            if not starts:
                check_room(self.name, seq)
            if not starts and seq == 1:
                raise RefusedError(
                    f"{self.path}: no match to append to: a match begins with match_start, not {rec.event.type}; "
                    "nothing was written"
                )
            first = self._log.records[0].obj if self._log.records else rec.obj
            body = like_the_match(first, rec.obj, seq, self._reducer.head)
            text = dump_line(body).encode("utf-8")
            lineno = self._lines + 1 + self._needs_newline
            rec = decode_line(text, lineno, seq)
            try:
                found, unverified = fold_checked(self._reducer, rec, check)
            except RefusedError:
                if starts:  # the new match was never written: back to the file's last match
                    self._load()
                raise
            out = (b"\n" if self._needs_newline else b"") + text + b"\n"
            try:
                os.write(fd, out)
                os.fsync(fd)
                if created:  # the file's name must survive a crash too
                    _fsync_folder(self.path.parent)
            except OSError as exc:
                self._load()
                raise StoreError(f"{self.path}: {exc.strerror}; the event may not have been written") from None
        finally:
            os.close(fd)  # closing releases the lock
        self._size += len(out)
        self._lines = lineno
        self._needs_newline = False
        self._log.records.append(rec)
        return Appended(seq, self._reducer.head, found, unverified)


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
