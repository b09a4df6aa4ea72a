"""The SQLite store: one file, through sqlite-utils (the embedded default).

The file runs in WAL mode with ``synchronous=FULL``; a write transaction begins with ``BEGIN
IMMEDIATE``, which takes the file's write lock at once (waiting up to :data:`BUSY_SECONDS`): one
writer at a time, so a match needs no lock of its own. Opening it: :mod:`dominolog.store.opening`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from dominolog.store.errors import ReadOnlyError, StoreError
from dominolog.store.store import BUSY_SECONDS, Store

if TYPE_CHECKING:
    import sqlite_utils


def table_names(conn: sqlite3.Connection) -> set[str]:
    """The tables of the file (as ``sqlite_utils.Database.table_names`` lists them)."""
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


class SqliteStore(Store):
    """A store in a SQLite file. ``db`` is the file's :class:`sqlite_utils.Database`, made when it is first
    asked for: importing sqlite-utils (its plugins looked up) took 34 ms of every command's start-up, and
    the store's own statements need none of it."""

    _taken_errors = (sqlite3.IntegrityError,)
    db_errors = (sqlite3.Error,)
    conn: sqlite3.Connection

    def __init__(self, path: Path, conn: sqlite3.Connection, read_only: bool = False) -> None:
        super().__init__(path, conn, read_only)
        # (as sqlite_utils.Database(conn) set it, which the store was opened through before: an INSERT OR
        # REPLACE's deleting fires the DELETE triggers, so the append-only tables refuse it too)
        conn.execute("PRAGMA recursive_triggers = on")
        self._db: sqlite_utils.Database | None = None
        #: the tables seen in the file (once there, kept: every write's token check, every read of the
        #: server would ask again)
        self._tables_seen: set[str] = set()
        #: what closing lets go of (:func:`dominolog.store.opening.open_store`'s count of this process's
        #: connections to the file), once
        self._release: Callable[[], None] | None = None

    @property
    def db(self) -> sqlite_utils.Database:
        """The file's :class:`sqlite_utils.Database` (on the store's connection)."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn)
        return self._db

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
        if name not in self._tables_seen and name in table_names(self.conn):
            self._tables_seen.add(name)
        return name in self._tables_seen
