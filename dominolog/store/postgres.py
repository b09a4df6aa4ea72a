"""The PostgreSQL store: a database on a server, through psycopg 3, for many recorders at once.

The same tables as the SQLite store (:mod:`dominolog.store.pgschema`), the same SQL
(:mod:`dominolog.store.store`, its ``?`` parameters turned into psycopg's ``%s`` by
:class:`~dominolog.store.pgconn.PgConnection`), the same guarantees:

- ``events`` is append-only: triggers raise on UPDATE, DELETE and TRUNCATE, and those privileges
  are revoked from PUBLIC (a recorder's role needs only SELECT and INSERT: docs/guides/scale.md's roles);
- (match_id, seq) is the primary key: when two recorders append the same seq, one wins and the other
  gets :class:`~dominolog.store.errors.ConflictError` (exit 4), never a fork. An append takes a
  transaction-level advisory lock on its match first (``pg_advisory_xact_lock``), so appends to one
  match are serialized and appends to different matches are not;
- every row carries its chain hash, checked by ``verify --db``; the projections are rebuilt by
  ``reindex``;
- durable on commit: the session runs with ``synchronous_commit=on`` whatever the server's default;
- one order: matches are listed, exported and verified in the order of their ids' bytes, as SQLite
  orders them, whatever the database's collation (``ORDER BY ... COLLATE "C"``; a store made now has
  its id columns in the "C" collation, so that the primary keys' indexes give that order).

A line is stored exactly as read: as text when PostgreSQL's text can hold it (UTF-8 without NUL),
else as bytes in ``raw`` (SQLite's store keeps only lines that are not UTF-8 there). The SQL views
``hand_scores`` and ``standings`` are SQLite's (:mod:`dominolog.store.views`) written in PostgreSQL's
SQL (:mod:`dominolog.store.pgviews`): the same rows.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING, Any

from dominolog.log.reader import Record
from dominolog.store.access import Access, Token, WriteView, event_in, token_hash
from dominolog.store.analyses import Analyses
from dominolog.store.clublog import PG_CLUB_LOG, ClubLog
from dominolog.store.errors import ConflictError, RefusedError, StoreError
from dominolog.store.pgconn import PgConnection
from dominolog.store.rows import held
from dominolog.store.store import BUSY_SECONDS, Busy, Store
from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.store.appending import Appended


def _text(value: Any) -> Any:
    """A value of a text column as PostgreSQL can hold it (its text has no NUL: U+FFFD instead)."""
    return value.replace("\x00", "\ufffd") if isinstance(value, str) and "\x00" in value else value


#: a match's lock (transaction-level, released at COMMIT or ROLLBACK), waited for; and tried (not waited for)
_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"
_TRY_LOCK = "SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0))"

#: the channel a commit that wrote to a match notifies, with the match's id (LISTEN dominolog_events)
NOTIFY_CHANNEL = "dominolog_events"


class PgAccess(Access):
    """The tokens and idempotent answers in PostgreSQL."""

    core: PostgresStore

    #: what a write is checked against, in one statement (one round trip rather than three or four); its
    #: last two columns the match's last event (:meth:`PostgresStore.read_for_write`)
    _WRITE_VIEW = (
        "SELECT EXISTS (SELECT 1 FROM events WHERE match_id = ?), ARRAY(SELECT event FROM private_events), "
        "(SELECT meta FROM matches WHERE id = ?), t.id, t.role, t.match_id, t.who, t.created_at, t.revoked_at, "
        "t.hash, l.seq, l.hash FROM (SELECT 1) AS one LEFT JOIN tokens AS t ON t.hash = ? "
        "LEFT JOIN (SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1) AS l ON true"
    )

    def write_view(self, match_id: str, token: str | None, lock: bool = False) -> WriteView:
        """:meth:`Access.write_view` in one round trip (the match, the token, the private events and the
        match's club event read by one statement), when the store has its tokens' tables. In a write
        transaction, the match's last event is read with them and kept for the session's
        :meth:`~dominolog.store.appending.Appending.fold_of` that follows (one round trip less).

        With ``lock`` (and a token given, in a write transaction), the match's lock goes first, in the same
        round trip (:meth:`PostgresStore.read_for_write`): the last event read is then the one the
        append in the same savepoint follows, which neither locks nor reads again (another round trip
        less). A request with no token takes no lock; one whose token turns out wrong holds it only
        until its savepoint is undone."""
        if not (self._has_access() and self._has_private()):
            return super().write_view(match_id, token, lock)
        digest = token_hash(token) if token else None
        params = (match_id, match_id, digest, match_id)
        row = self.core.read_for_write(match_id, self._WRITE_VIEW, params, lock and digest is not None)
        stored, private = bool(row[0]), frozenset(row[1] or ())
        found = None
        if digest is not None and row[9] is not None and hmac.compare_digest(row[9], digest):
            found = Token(*row[3:9])
        return WriteView(stored, found, private, event_in(row[2]) if private and stored else None)

    def lock_key(self, token_id: str, key: str) -> None:
        """Keep another request with the same Idempotency-Key waiting until this transaction ends
        (then it finds this one's answer): a transaction-level advisory lock on the key (sent with the
        read of the key's answer that follows). In a transaction that holds other locks already (a
        group commit's later write): not waited for, :class:`Busy` when another transaction holds it."""
        self.core.lock_idempotency(f"{token_id}\n{key}")


class PgAnalyses(Analyses):
    """The analysis cache in PostgreSQL: a row replaced by an upsert."""

    _SAVE_ANALYSIS = (
        "INSERT INTO analyses VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, head, version, settings) "
        "DO UPDATE SET analysed_at = EXCLUDED.analysed_at, review = EXCLUDED.review"
    )


class PgClubLog(ClubLog):
    """The club events' logs in PostgreSQL: the table and its triggers in its SQL."""

    STATEMENTS = PG_CLUB_LOG


class PostgresStore(Store):
    """A store in a PostgreSQL database. Use :func:`dominolog.store.open_store` with a URL."""

    conn: PgConnection
    #: ids (and any text) ordered by their bytes, as in SQLite, not by the database's locale (an ICU or
    #: en_US collation puts ``alpha-2`` before ``Zeta-1``)
    _BYTE_ORDER = ' COLLATE "C"'
    _access_part = PgAccess
    _analyses_part = PgAnalyses
    _club_part = PgClubLog

    def __init__(self, name: str, conn: PgConnection, read_only: bool = False) -> None:
        import psycopg
        from psycopg import errors

        super().__init__(name, conn, read_only)
        self.db_errors = (psycopg.Error,)
        self._taken_errors = (errors.UniqueViolation,)
        self._data_errors = (errors.DataError, errors.UntranslatableCharacter)
        self._lock_errors = (errors.LockNotAvailable, errors.DeadlockDetected)
        #: the matches this transaction has locked, and the Idempotency-Keys
        self._locked: set[str] = set()
        self._keys: set[str] = set()
        #: the tables seen in the database (once there, kept)
        self._tables_seen: set[str] = set()

    def has_table(self, name: str) -> bool:
        if name not in self._tables_seen:
            row = self.conn.execute(
                "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?", (name,)
            ).fetchone()
            if row is not None:
                self._tables_seen.add(name)
        return name in self._tables_seen

    def _begin(self) -> None:
        super()._begin()
        self._locked.clear()
        self._keys.clear()

    def _commit(self) -> None:
        self._locked.clear()
        self._keys.clear()
        # a transaction the server had failed (a statement's error that its savepoint did not undo) is
        # rolled back by its COMMIT, which says so in its tag and raises nothing: nothing of it is stored,
        # and none of its writes may be answered as stored
        said = self.conn.execute("COMMIT").statusmessage
        if said != "COMMIT":
            raise StoreError(f"{self.path}: the transaction failed and was rolled back ({said}); nothing was written")

    def _rollback(self) -> None:
        self._locked.clear()
        self._keys.clear()
        super()._rollback()

    def _mark(self) -> Any:
        return set(self._locked), set(self._keys)

    def _back_to(self, mark: Any) -> None:
        # a lock taken after a savepoint is released when the transaction is rolled back to it
        self._locked, self._keys = set(mark[0]), set(mark[1])

    def lock_idempotency(self, name: str) -> None:
        """The advisory lock on an Idempotency-Key (``name``: the token's id and the key), sent with the
        next statement; not waited for (:class:`Busy` when held elsewhere) when this transaction holds
        other locks: only a transaction that holds nothing waits for a key, and one that holds keys
        only for a match, so no two transactions wait for each other."""
        if name in self._keys:
            return
        if self._locked or self._keys:
            if not self.conn.execute("SELECT pg_try_advisory_xact_lock(hashtextextended(?, 1))", (name,)).fetchone()[0]:
                raise Busy(name)
        else:
            self.conn.defer("SELECT pg_advisory_xact_lock(hashtextextended(?, 1))", (name,))
        self._keys.add(name)

    def locked_error(self, match_id: str) -> StoreError:
        """The error of a match's lock not had in time (another process's transaction holds it)."""
        return StoreError(
            f"{self.path}: match {shown(match_id, 100)} is locked by another writer "
            f"(tried for {BUSY_SECONDS:.0f} s); nothing was written"
        )

    def read_for_write(self, match_id: str, query: str, params: tuple[Any, ...], lock: bool = False) -> Any:
        """The one row of ``query`` that a write to ``match_id`` is checked against, its last two columns
        the match's last event (seq and hash, NULL for none). In a write transaction that last event is
        kept for the :meth:`fold_of` that follows. With ``lock``, the match's lock is sent first, in the
        same round trip, and the row is read after it is had (a statement of its own, whose snapshot
        sees what the lock's last holder committed): the last event is then also the one the append in
        the same savepoint follows (:attr:`_locked_seen`), which neither locks nor reads again. The lock
        not had in time: :class:`StoreError`; a transaction holding other matches' locks only tries it:
        :class:`Busy`."""
        tried = self._lock_before(match_id) if lock and self._touched else None
        try:
            row = self.conn.execute(query, params).fetchone()
        except self._lock_errors:  # (the match's lock, sent first)
            raise self.locked_error(match_id) from None
        if tried is not None:
            self._locked_by(match_id, tried)
        if self._touched:
            last = (row[-2], row[-1]) if row[-2] is not None else (0, "")
            self._last_seen[match_id] = last
            if match_id in self._locked:  # (read after the lock: still the last event at the append)
                self._locked_seen[match_id] = last
        return row

    def _lock_before(self, match_id: str) -> list[Any] | None:
        """The match's lock (and its notification) sent with the statement that follows, as
        :meth:`_lock_match` takes it: waited for when this transaction holds no match's lock yet; else
        tried, and the list that will keep the try's answer is returned for :meth:`_locked_by`."""
        if match_id in self._locked:
            return None
        if self._locked:
            return self.conn.defer_read(_TRY_LOCK, (match_id,))
        self._defer_lock(match_id)
        return None

    def _defer_lock(self, match_id: str) -> None:
        """The match's lock, waited for, and its notification, sent with the next statement."""
        self.conn.defer(f"{_LOCK}, pg_notify(?, ?)", (match_id, NOTIFY_CHANNEL, match_id))
        self._locked.add(match_id)

    def _locked_by(self, match_id: str, tried: list[Any]) -> None:
        """After the statement went with a tried lock: :class:`Busy` when another transaction holds it, else
        the match is this transaction's (its notification sent with the next statement)."""
        if not tried or not tried[0].fetchone()[0]:
            raise Busy(match_id)
        # what a writer of the match stores is told, at COMMIT (dropped on ROLLBACK), to every server
        # listening (dominolog serve's live streams, whatever process wrote)
        self.conn.defer("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, match_id))
        self._locked.add(match_id)

    def _lock_match(self, match_id: str) -> None:
        """A transaction-level advisory lock on the match (released at COMMIT or ROLLBACK), waited for
        (up to the lock timeout) unless this transaction holds others already: then :class:`Busy`."""
        if match_id in self._locked:
            return
        try:  # (a statement waiting, sent with this one, may be a lock waited for too)
            if self._locked:
                self._locked_by(match_id, [self.conn.execute(_TRY_LOCK, (match_id,))])
                return
            # the lock and its notification (told at COMMIT to every server listening), in one round trip
            self.conn.execute(f"{_LOCK}, pg_notify(?, ?)", (match_id, NOTIFY_CHANNEL, match_id))
        except self._lock_errors:
            raise self.locked_error(match_id) from None
        self._locked.add(match_id)

    def _lock_for_append(self, match_id: str) -> None:
        """The match's lock and its notification sent with the read of its last event that follows (one
        round trip); its lock timeout then raised by that read (:meth:`append` says what it is). In a
        transaction that holds other matches' locks already: :meth:`_lock_match` (not waited for)."""
        if self._locked or match_id in self._locked:
            self._lock_match(match_id)
            return
        self._defer_lock(match_id)

    def _put(self, query: str, params: tuple[Any, ...]) -> None:
        self.conn.defer(query, params)

    def _put_many(self, query: str, rows: list[tuple[Any, ...]]) -> None:
        self.conn.defer_many(query, rows)

    def _appended(self) -> None:
        if len(self._touched) > 1:  # a savepoint: its errors are this append's, undone alone
            self.conn.flush()

    _KEEPS_LAST_AT = True

    def _write_match_row(self, match_id: str, match_row: tuple[Any, ...], keep_last_at: bool = False) -> None:
        """The match's row of ``matches`` as one upsert (sent with the next statement); with
        ``keep_last_at`` its ``last_at`` is the one the row had when this one has none."""
        names = getattr(self, "_matches_names", None)
        if names is None:
            names = self._matches_names = [
                d[0] for d in self.conn.execute("SELECT * FROM matches LIMIT 0").description or ()
            ]
        row = match_row[: len(names)]
        kept = {"last_at": "COALESCE(EXCLUDED.last_at, matches.last_at)"} if keep_last_at else {}
        sets = ", ".join(f'"{n}" = {kept.get(n, f"EXCLUDED.{chr(34)}{n}{chr(34)}")}' for n in names if n != "id")
        self.conn.defer(
            f"INSERT INTO matches VALUES ({', '.join('?' * len(row))}) ON CONFLICT (id) DO UPDATE SET {sets}", row
        )

    def _lock_projections(self) -> None:
        self.conn.execute("LOCK TABLE matches, hands IN SHARE ROW EXCLUSIVE MODE")

    def _storable_id(self, match_id: str) -> str | None:
        return "PostgreSQL text cannot hold a NUL character" if "\x00" in match_id else None

    def append(self, match_id: str, line: bytes, expected_seq: int | None = None, check: bool = False) -> Appended:
        why = self._storable_id(match_id)
        if why is not None:
            raise RefusedError(f"match {shown(match_id, 100)}: {why}; nothing was written")
        try:
            return super().append(match_id, line, expected_seq, check)
        except self._lock_errors:  # the lock, sent with the read of the last event (_lock_for_append)
            raise self.locked_error(match_id) from None
        except self._taken_errors:  # the row, sent with the commit: a writer that took no lock was first
            raise ConflictError(
                f"match {shown(match_id)}: its next seq was taken by another writer; nothing was written"
            ) from None

    @staticmethod
    def row_of(rec: Record, chain: str) -> tuple[Any, ...]:
        return PostgresStore.fit_row(Store.row_of(rec, chain))

    #: a plain insert: the rows' columns with no value are None again (:meth:`fit_row`)
    _EVENTS_INSERT = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"

    @staticmethod
    def fit_row(row: tuple[Any, ...]) -> tuple[Any, ...]:
        """A row of ``events`` as in SQLite, its columns with no value None (SQLite's rows hold 0 there:
        :data:`~dominolog.store.rows.NO_VALUE`), but a line PostgreSQL's text cannot hold (a NUL in it)
        goes to ``raw`` too (its text is the line decoded: encoded again, the line's bytes), and the
        columns copied out of the event lose their NULs."""
        seq, kind, player, tile, text, raw, at, hash_ = row
        player, tile, raw, at = held(player), held(tile), held(raw), held(at)
        if raw is None and "\x00" in text:
            raw = text.encode("utf-8")
        return (seq, _text(kind), _text(player), _text(tile), _text(text), raw, _text(at), hash_)


def open_postgres(url: str, create: bool = True, write: bool = True) -> PostgresStore:
    """Open (or, with ``create``, make) the store in the PostgreSQL database ``url``; messages name it
    without its password."""
    from dominolog.store.pgschema import connect, prepare

    conn, name = connect(url)
    try:
        read_only = prepare(conn, name, create, write)
    except BaseException:
        conn.close()
        raise
    return PostgresStore(name, conn, read_only)
