"""The SQLite store: one file, through sqlite-utils (the embedded default).

The file runs in WAL mode with ``synchronous=FULL``; a write transaction begins with ``BEGIN
IMMEDIATE``, which takes the file's write lock at once (waiting up to :data:`BUSY_SECONDS`): one
writer at a time, so a match needs no lock of its own. Opening it: :mod:`dominolog.store.opening`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from dominolog.store.analyses import TABLE as ANALYSES_TABLE
from dominolog.store.clublog import TABLE as CLUB_TABLE
from dominolog.store.errors import ReadOnlyError, StoreError
from dominolog.store.store import BUSY_SECONDS, Store


class SqliteStore(Store):
    """A store in a SQLite file. ``db`` is the file's :class:`sqlite_utils.Database`."""

    _taken_errors = (sqlite3.IntegrityError,)
    db_errors = (sqlite3.Error,)
    conn: sqlite3.Connection

    def __init__(self, path: Path, db: sqlite_utils.Database, read_only: bool = False) -> None:
        super().__init__(path, db.conn, read_only)
        self.db = db
        self._access_seen = False
        self._private_seen = False
        self._club_seen = False

    def _begin(self) -> None:
        """BEGIN IMMEDIATE: take the write lock now (waiting up to the busy timeout), so that a
        check-then-write cannot race another writer."""
        if self.read_only:
            raise ReadOnlyError(f"{self.path}: the store is read-only here; nothing was written")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: {exc} (another program holds it; tried for {BUSY_SECONDS:.0f} s)") from None

    def _has_access(self) -> bool:
        """Whether the file has the tables of tokens (once it has, it keeps them: not asked again, as
        every write's token check would)."""
        if not self._access_seen:
            self._access_seen = "tokens" in set(self.db.table_names())
        return self._access_seen

    def _has_private(self) -> bool:
        if not self._private_seen:  # (once there, kept: every read of the server asks)
            self._private_seen = "private_events" in set(self.db.table_names())
        return self._private_seen

    def _has_club_log(self) -> bool:
        if not self._club_seen:  # (once there, kept)
            self._club_seen = CLUB_TABLE in set(self.db.table_names())
        return self._club_seen

    def _has_analyses(self) -> bool:
        return ANALYSES_TABLE in set(self.db.table_names())
