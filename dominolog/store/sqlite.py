"""The SQLite store: one file, through sqlite-utils (the embedded default).

The file runs in WAL mode with ``synchronous=FULL``; a write transaction begins with ``BEGIN
IMMEDIATE``, which takes the file's write lock at once (waiting up to :data:`BUSY_SECONDS`): one
writer at a time, so a match needs no lock of its own. Opening it: :mod:`dominolog.store.opening`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

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
        #: the tables seen in the file (once there, kept: every write's token check, every read of the
        #: server would ask again)
        self._tables_seen: set[str] = set()
        #: what closing lets go of (:func:`dominolog.store.opening.open_store`'s count of this process's
        #: connections to the file), once
        self._release: Callable[[], None] | None = None

    def on_close(self, release: Callable[[], None]) -> None:
        """Call ``release`` once this store's connection is closed."""
        self._release = release

    def close(self) -> None:
        try:
            super().close()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()

    def _begin(self) -> None:
        """BEGIN IMMEDIATE: take the write lock now (waiting up to the busy timeout), so that a
        check-then-write cannot race another writer."""
        if self.read_only:
            raise ReadOnlyError(f"{self.path}: the store is read-only here; nothing was written")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: {exc} (another program holds it; tried for {BUSY_SECONDS:.0f} s)") from None

    def has_table(self, name: str) -> bool:
        if name not in self._tables_seen and name in set(self.db.table_names()):
            self._tables_seen.add(name)
        return name in self._tables_seen
