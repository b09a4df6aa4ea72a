"""The write transactions of a store (the base of :class:`~dominolog.store.store.Store`): begun with
the backend's write lock, committed, rolled back; nested as savepoints, so that several writes (a
request's appends and its Idempotency-Key's answer, the writes of a group commit) are committed at
once, and one of them can be undone alone."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from dominolog.store.errors import ReadOnlyError


class Transactions:
    """A store's connection and its write transactions: beginning, committing and nesting them. The
    backends' hooks (the write lock, a match's lock) are methods here, given by each backend."""

    #: what the database raises when a row's primary key is taken (another writer was first)
    _taken_errors: tuple[type[BaseException], ...] = ()
    #: what the database raises for a value it cannot hold (a match is then refused, not stored)
    _data_errors: tuple[type[BaseException], ...] = ()
    #: what the database driver raises when the database fails under a command (busy, gone, damaged)
    db_errors: tuple[type[BaseException], ...] = ()
    #: put after a text column in ORDER BY: the order of its UTF-8 bytes (code points), whatever the
    #: database's collation (SQLite's BINARY already is; PostgreSQL's would follow its locale)
    _BYTE_ORDER = ""

    def __init__(self, path: Path | str, conn: Any, read_only: bool = False) -> None:
        #: names the store in messages (a SQLite file's path, or a PostgreSQL URL without its password)
        self.path = path
        #: runs SQL written with ``?`` parameters (a PostgreSQL connection is wrapped to take them)
        self.conn = conn
        self.read_only = read_only
        #: matches kept folded for appending (store.appending), by id
        self._folds: dict[str, Any] = {}
        #: each match's first event, as read (store.appending.start_of)
        self._starts: dict[str, Any] = {}
        #: the write transaction under way and its savepoints (none: no transaction), each with the
        #: matches appended to in it
        self._touched: list[set[str]] = []
        #: the last event (seq, hash) of a match read in this transaction or savepoint by an earlier
        #: statement (a write's checks, with PostgreSQL): taken once by the ``fold_of`` that follows, not
        #: read again; forgotten when the match is appended to and when the savepoint or transaction ends
        self._last_seen: dict[str, tuple[int, str]] = {}
        #: the same, read by a statement sent after this transaction took the match's lock (PostgreSQL:
        #: the write's checks, :meth:`~dominolog.store.access.Access.write_view` with ``lock``): still
        #: the match's last event at its append in the same savepoint, which takes it (no lock nor read
        #: of its own); forgotten when ``_last_seen`` is
        self._locked_seen: dict[str, tuple[int, str]] = {}

    def _forget_seen(self) -> None:
        self._last_seen.clear()
        self._locked_seen.clear()

    def has_table(self, name: str) -> bool:
        """Whether the store has the table ``name`` (one made with the store, or added when it was
        opened writable; a store made before it and opened read-only has not). The backends ask."""
        return True

    def _lock_match(self, match_id: str) -> None:
        """Keep other writers off the match until the transaction ends (SQLite's write lock does
        already). A transaction that holds other matches' locks is not made to wait: ``Busy``."""

    def _begin(self) -> None:
        """Begin a write transaction, taking what lock the backend needs so that a check-then-write
        cannot race another writer; :class:`ReadOnlyError` on a store that cannot be written."""
        if self.read_only:
            raise ReadOnlyError(f"{self.path}: the store is read-only here; nothing was written")
        self._forget_seen()
        self.conn.execute("BEGIN")

    def _commit(self) -> None:
        self._forget_seen()
        self.conn.execute("COMMIT")

    def _rollback(self) -> None:
        """Undo the transaction under way (after an error). When the database has failed (a server
        gone), the rollback fails too: the error that came first is the one that tells, so this one is
        not raised (the server undoes the transaction of a connection it lost)."""
        self._forget_seen()
        try:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        except self.db_errors:
            pass

    def _mark(self) -> Any:
        """What a savepoint must give back if it is rolled back to (PostgreSQL: the matches locked)."""
        return None

    def _back_to(self, mark: Any) -> None:
        """After a rollback to a savepoint: what the store holds of the transaction as at ``mark``."""

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction: begun (with the write lock), committed when the block ends, rolled
        back if it raises. Inside another one (:meth:`transaction`, a group commit), a savepoint: its
        writes are undone if the block raises and kept, not yet committed, if it ends; the outermost
        transaction commits them all at once."""
        if self._touched:
            yield from self._savepoint()
            return
        self._begin()
        self._touched.append(set())
        try:
            yield
            self._commit()
        except BaseException:
            self._rollback()
            self._forget(self._touched[-1])
            raise
        finally:
            self._touched.clear()

    def _savepoint(self) -> Iterator[None]:
        name = f"w{len(self._touched)}"
        mark = self._mark()
        self.conn.execute(f"SAVEPOINT {name}")
        self._touched.append(set())
        try:
            yield
        except BaseException:
            self._forget_seen()  # (what a savepoint's statements read is not carried past its end)
            self._forget(self._touched.pop())
            try:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")
            except self.db_errors:  # the database failed: the error that came first tells (_rollback)
                pass
            self._back_to(mark)
            raise
        self._forget_seen()
        self.conn.execute(f"RELEASE {name}")
        self._touched[-2].update(self._touched.pop())

    def transaction(self) -> AbstractContextManager[None]:
        """A write transaction holding several writes (appends, an idempotent answer): all of them
        committed at once when the block ends, none of them if it raises (inside another one: a
        savepoint, undone if it raises, committed with the outer one)."""
        return self._write()

    def _forget(self, match_ids: set[str]) -> None:
        """Writes undone: the folds and first events kept of the matches they appended to are no
        longer the stored ones (the next append folds them afresh)."""
        for match_id in match_ids:
            self._folds.pop(match_id, None)
            self._starts.pop(match_id, None)
