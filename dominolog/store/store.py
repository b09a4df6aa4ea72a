"""The match store, events first: what every backend shares (:class:`Store`); the SQLite file is
:class:`~dominolog.store.sqlite.SqliteStore`, a PostgreSQL database
:class:`~dominolog.store.postgres.PostgresStore`. Both run the SQL below, written with ``?``
parameters and in the subset the two databases share; what differs (taking the write lock, locking
a match against another writer, what counts as a conflict, what text the database can hold) is a
hook of :class:`Store` each backend gives.

``events`` is the source of truth and append-only: the database refuses UPDATE and DELETE
(triggers), the primary key (match_id, seq) lets only one writer take a seq, and every row carries
the chain hash up to it (docs/format.md), so an edit made behind the tool's back shows as a
``hash-mismatch`` at that event. ``matches`` and ``hands`` are projections, rebuilt from ``events``
alone by :meth:`Store.reindex`. ``imports`` records where each match came from (not a projection);
``analyses`` keeps what ``dominolog analyze`` found, by match head
(:mod:`~dominolog.store.analyses`: a cache, not events).

An event acknowledged (committed) survives a crash: SQLite runs in WAL mode with
``synchronous=FULL``, PostgreSQL with ``synchronous_commit=on``. Each match is imported all or
nothing.
"""

from __future__ import annotations

import difflib
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from dominolog.log.reader import MatchLog
from dominolog.reducer import MatchReducer, MatchReport
from dominolog.store.parts import Parts
from dominolog.store.rows import Prepared, prepare_import, projection_rows
from dominolog.textsafe import shown

#: how long a writer waits for another one's lock
BUSY_SECONDS = 5.0


class Busy(Exception):
    """A match of an import is locked by another writer while this transaction holds other matches'
    locks: the transaction is committed first, then the lock waited for (no deadlock)."""


@dataclass(slots=True)
class ImportResult:
    """What happened to one match of an import."""

    source: str
    line: int
    match_id: str | None
    status: str  # imported | skipped | conflict | failed
    events: int = 0
    valid: bool = True
    reason: str = ""


class Store(Parts):
    """An open store (use :func:`~dominolog.store.open_store`): what the backends share. ``path`` names
    it in messages (a SQLite file's path, or a PostgreSQL URL without its password); ``conn`` runs SQL
    written with ``?`` parameters (a PostgreSQL connection is wrapped to take them).

    Its connection and transactions (:class:`~dominolog.store.transactions.Transactions`) and its
    matches' events appended to (:class:`~dominolog.store.appending.Appending`) are its bases; its other
    tables are parts it holds (:mod:`dominolog.store.parts`): ``access``, ``analyses``, ``club``."""

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the backends' hooks (the rest in store.transactions) --------------------------
    def _lock_projections(self) -> None:
        """Keep writers off ``matches`` and ``hands`` until the transaction ends (a reindex)."""

    def _storable_id(self, match_id: str) -> str | None:
        """Why the database cannot hold this match id, or None."""
        return None

    # -- reading -------------------------------------------------------------------
    def match_ids(self) -> list[str]:
        """Every stored match's id, in the order of the ids' bytes (``Zeta-1`` before ``alpha-2``) on
        every backend."""
        sql = f"SELECT match_id FROM events GROUP BY match_id ORDER BY match_id{self._BYTE_ORDER}"
        return [r[0] for r in self.conn.execute(sql)]

    def has_match(self, match_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM events WHERE match_id = ? LIMIT 1", (match_id,)).fetchone() is not None

    def lines(self, match_id: str) -> Iterator[bytes]:
        """The match's lines, byte for byte as they were imported or appended."""
        for text, raw in self.conn.execute("SELECT json, raw FROM events WHERE match_id = ? ORDER BY seq", (match_id,)):
            yield raw if raw is not None else text.encode("utf-8")

    def close_ids(self, match_id: str, n: int = 3) -> list[str]:
        """The stored ids closest to ``match_id`` (for "did you mean")."""
        return difflib.get_close_matches(match_id, self.match_ids(), n=n, cutoff=0.5)

    # -- writing ---------------------------------------------------------------------
    def import_match(self, log: MatchLog, source: str | None = None) -> ImportResult:
        """Store one match, all or nothing, in its own transaction. A match already stored (same id
        or same head) is skipped."""
        return next(iter(self.import_matches([log], source)))

    def import_matches(
        self, logs: Iterable[MatchLog | Prepared], source: str | None = None, batch_events: int = 20_000
    ) -> Iterator[ImportResult]:
        """Store matches, each all or nothing: where the database may refuse a value (PostgreSQL) a match
        is written in a savepoint of its own, undone alone if it is refused; any other error undoes the
        whole uncommitted batch, so SQLite writes a match with no savepoint.

        ``logs``: matches as read, or made ready by :func:`prepare_import` (in other processes: ``import
        --jobs``). Matches are committed together, every ``batch_events`` events or so (one fsync for many
        small matches); a result is yielded once its match is committed. A crash loses at most the
        uncommitted batch, whole matches only, and a re-run stores them.
        """
        pending: list[ImportResult] = []
        size = 0
        try:
            for log in logs:
                if not self.conn.in_transaction:
                    self._begin()
                try:
                    result = self._import_one(log, source or log.source)
                except Busy:  # another writer holds one of its matches: commit ours, then wait for it
                    self._commit()
                    yield from pending
                    pending, size = [], 0
                    self._begin()
                    result = self._import_one(log, source or log.source)
                pending.append(result)
                size += result.events
                if size >= batch_events:
                    self._commit()
                    yield from pending
                    pending, size = [], 0
            if self.conn.in_transaction:
                self._commit()
            yield from pending
        except BaseException:
            self._rollback()
            raise

    def _import_one(self, log: MatchLog | Prepared, src: str) -> ImportResult:
        prep = log if isinstance(log, Prepared) else prepare_import(log)
        if prep.failed is not None:
            return ImportResult(src, prep.line, None, "failed", reason=prep.failed)
        given = prep.given
        if given is not None:
            why = self._storable_id(given)
            if why is not None:
                return ImportResult(src, prep.line, None, "failed", reason=f"the id {shown(given, 100)}: {why}")
            self._lock_match(given)
            if self.has_match(given):
                return self._already(src, prep, given)
        rows, mid = prep.rows, prep.match_id
        if mid != given:
            self._lock_match(mid)
            if self.has_match(mid):
                return self._already(src, prep, mid)
        same = self.conn.execute("SELECT id FROM matches WHERE head = ?", (prep.head,)).fetchone()
        if same is not None:
            return ImportResult(src, prep.line, mid, "skipped", reason=f"the same match is stored as {shown(same[0])}")
        # A savepoint only where a value can be refused (PostgreSQL: a NUL in a text) and the match alone
        # is then undone; any other error undoes the whole transaction (import_matches), so SQLite, which
        # refuses no value, writes a match without one: two statements a match fewer.
        undo = bool(self._data_errors)
        if undo:
            self.conn.execute("SAVEPOINT import_match")
        try:
            fit = self.fit_row
            if fit is not Store.fit_row:  # (the rows as this database holds them)
                rows = [(r[0], *fit(r[1:])) for r in rows]
            self.conn.executemany(self._EVENTS_INSERT, rows)
            self._write_projection(mid, prep.match_row, prep.hand_rows)
            self.conn.execute("INSERT INTO imports VALUES (?, ?, ?, ?)", (mid, src, prep.line, _now()))
        except self._data_errors as exc:  # a value the database cannot hold: the match is not stored
            self._starts.pop(mid, None)
            self.conn.execute("ROLLBACK TO import_match")
            self.conn.execute("RELEASE import_match")
            reason = f"the database cannot hold it ({shown(str(exc).splitlines()[0], 200)}): not stored"
            return ImportResult(src, prep.line, mid, "failed", reason=reason)
        except BaseException:
            self._starts.pop(mid, None)
            if undo:
                try:
                    self.conn.execute("ROLLBACK TO import_match")
                    self.conn.execute("RELEASE import_match")
                except self.db_errors:  # the database failed: the error that came first tells (see _rollback)
                    pass
            raise
        if undo:
            self.conn.execute("RELEASE import_match")
        return ImportResult(src, prep.line, mid, "imported", len(rows), prep.valid)

    def _already(self, src: str, prep: Prepared, mid: str) -> ImportResult:
        """A match whose id is stored already: skipped when the stored lines are the same, else a conflict."""
        stored = self.lines(mid)
        for seq, data in enumerate(prep.lines(), 1):
            if next(stored, None) != data:
                return ImportResult(
                    src,
                    prep.line,
                    mid,
                    "conflict",
                    reason=f"match {shown(mid)} is already stored with other content: first difference at seq {seq}",
                )
        if next(stored, None) is not None:
            return ImportResult(
                src,
                prep.line,
                mid,
                "conflict",
                reason=f"match {shown(mid)} is already stored with more events: first difference at seq "
                f"{len(prep.rows) + 1}",
            )
        return ImportResult(src, prep.line, mid, "skipped", reason=f"match {shown(mid)} is already stored")

    @staticmethod
    def fit_row(row: tuple[Any, ...]) -> tuple[Any, ...]:
        """A row of ``events`` (:func:`row_of`) as this database's :attr:`_EVENTS_INSERT` binds it: SQLite's,
        as it is."""
        return row

    # -- projections -------------------------------------------------------------------
    def projection_of(
        self, match_id: str, report: MatchReport, first_hand: int = 0
    ) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
        """The match's rows of ``matches`` and ``hands`` (from hand ``first_hand`` on, counting from 0)
        as its report (and its match_start's meta) give them."""
        return projection_rows(match_id, report, self.start_of(match_id), first_hand, self.last_at(match_id))

    def _project(self, match_id: str, report: MatchReport) -> None:
        """Write the match's rows of ``matches`` and ``hands`` from its report."""
        self._write_projection(match_id, *self.projection_of(match_id, report))

    def _write_projection(self, match_id: str, match_row: tuple[Any, ...], hand_rows: list[tuple[Any, ...]]) -> None:
        self.conn.execute("DELETE FROM hands WHERE match_id = ?", (match_id,))
        self._write_match_row(match_id, match_row)
        self.conn.executemany(
            'INSERT INTO hands (match_id, number, "end", winner, points) VALUES (?, ?, ?, ?, ?)', hand_rows
        )

    def last_at(self, match_id: str) -> str | None:
        """The time of the match's last event that carries one (``at``), as written, read from its events
        (the projection ``matches.last_at`` keeps it: the pages read that)."""
        row = self.conn.execute(
            "SELECT at FROM events WHERE match_id = ? AND at IS NOT NULL ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        return row[0] if row else None

    def _reproject(self, match_id: str) -> None:
        reducer = MatchReducer(f"{self.path}#{match_id}", 1)
        for rec, _ in self.records(match_id):
            reducer.feed(rec)
        self._project(match_id, reducer.report())

    def reindex(self) -> int:
        """Rebuild ``matches`` and ``hands`` from ``events`` alone; returns the number of matches."""
        ids = self.match_ids()
        with self._write():
            self._lock_projections()
            self.conn.execute("DELETE FROM hands")
            self.conn.execute("DELETE FROM matches")
            for mid in ids:
                self._reproject(mid)
        return len(ids)

    def projections(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """Every row of ``matches`` and ``hands``, in key order (to compare after a reindex)."""
        m = self.conn.execute(f"SELECT * FROM matches ORDER BY id{self._BYTE_ORDER}").fetchall()
        h = self.conn.execute(f"SELECT * FROM hands ORDER BY match_id{self._BYTE_ORDER}, number").fetchall()
        return m, h

    def first_at(self, match_id: str) -> str | None:
        """The time of the match's first event that carries one (``at``), as written."""
        row = self.conn.execute(
            "SELECT at FROM events WHERE match_id = ? AND at IS NOT NULL ORDER BY seq LIMIT 1", (match_id,)
        ).fetchone()
        return row[0] if row else None

    def mark(self, seen: Callable[[str, Any], bool] | None = None) -> str:
        """Where the store stands, in a few characters (``MATCHES-EVENTS``: how many matches, and events in
        them all): it changes at every append, so a page that shows the store as of one mark knows
        whether it is behind (``dominolog serve``'s board stream, across a restart of the server).
        ``seen(id, meta)``: count only the matches it says a reader may see (a private match's moves
        then change nothing of the mark)."""
        if seen is None:
            row = self.conn.execute("SELECT COUNT(*), COALESCE(SUM(events), 0) FROM matches").fetchone()
            return f"{int(row[0])}-{int(row[1])}"
        rows = [r for r in self.conn.execute("SELECT id, meta, events FROM matches") if seen(r[0], r[1])]
        return f"{len(rows)}-{sum(int(r[2]) for r in rows)}"

    def list_matches(
        self, variant: str | None = None, player: str | None = None, status: str | None = None
    ) -> list[dict[str, Any]]:
        sql = "SELECT * FROM matches WHERE 1 = 1"
        args: list[Any] = []
        if variant:
            sql += " AND variant = ?"
            args.append(variant)
        if status:
            sql += " AND status = ?"
            args.append(status)
        cur = self.conn.execute(f"{sql} ORDER BY id{self._BYTE_ORDER}", args)
        cols = [c[0] for c in cur.description]
        rows = [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]
        if player:  # (in Python: the databases' JSON functions differ)
            rows = [r for r in rows if player in _players(r["players"])]
        return rows


_STAMP: list[Any] = [0, ""]


def _now() -> str:
    """The time now as ``imports.imported_at`` holds it (UTC, to the second), made once a second."""
    second = int(time.time())
    if _STAMP[0] != second:
        _STAMP[0], _STAMP[1] = second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return str(_STAMP[1])


def _players(text: Any) -> list[Any]:
    """The players of a ``matches`` row (its JSON array), or none if it is not one."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return []
    return value if isinstance(value, list) else []
