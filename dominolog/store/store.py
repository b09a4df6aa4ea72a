"""The match store: one SQLite file (through sqlite-utils), events first.

``events`` is the source of truth and append-only: triggers refuse UPDATE and
DELETE, the primary key (match_id, seq) lets only one writer take a seq, and
every row carries the chain hash up to it (FORMAT.md), so an edit made behind
the tool's back shows as a ``hash-mismatch`` at that event. ``matches`` and
``hands`` are projections, rebuilt from ``events`` alone by :meth:`Store.reindex`.
``imports`` records where each match came from (not a projection).

The file runs in WAL mode with ``synchronous=FULL``: an event acknowledged
(committed) survives a crash. Each match is imported in one transaction.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from dominolog.log.hashchain import chain_hash_bytes
from dominolog.log.reader import MatchLog, Record, decode_line
from dominolog.log.writer import dump_line
from dominolog.reducer import MatchReducer, MatchReport, record_canon
from dominolog.state import Issue

SCHEMA_VERSION = "1"
APP = "dominolog"
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_SECONDS = 5.0

SCHEMA = """
CREATE TABLE dominolog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    match_id TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    type TEXT,
    player TEXT,
    tile TEXT,
    json TEXT NOT NULL,
    raw BLOB,
    at TEXT,
    hash TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
CREATE TABLE matches (
    id TEXT PRIMARY KEY,
    variant TEXT,
    players TEXT,
    meta TEXT,
    status TEXT NOT NULL,
    complete INTEGER NOT NULL,
    head TEXT NOT NULL,
    totals TEXT,
    winner TEXT,
    hands INTEGER NOT NULL,
    events INTEGER NOT NULL,
    violations INTEGER NOT NULL,
    unverified INTEGER NOT NULL
);
CREATE INDEX matches_head ON matches (head);
CREATE TABLE hands (
    match_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    "end" TEXT NOT NULL,
    winner TEXT,
    points TEXT NOT NULL,
    PRIMARY KEY (match_id, number)
);
CREATE TABLE imports (
    match_id TEXT NOT NULL,
    source TEXT NOT NULL,
    line INTEGER NOT NULL,
    imported_at TEXT NOT NULL
);
"""


class StoreError(Exception):
    """A store that cannot be used (not a database, another program's, locked, ...): a clear message."""


class ConflictError(StoreError):
    """Another writer took the seq first: nothing was written."""


@dataclass(slots=True)
class ImportResult:
    """What happened to one match of an import."""

    source: str
    line: int
    match_id: str | None
    status: str  # imported | skipped | failed
    events: int = 0
    valid: bool = True
    reason: str = ""


def _jdump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def match_id_of(log: MatchLog, head: str) -> str:
    """The match's ``id`` from its ``match_start``, else one made from its head hash."""
    first = log.records[0].obj if log.records else None
    mid = first.get("id") if first else None
    return mid if isinstance(mid, str) and mid else f"head-{head[:16]}"


class Store:
    """An open store. Use :func:`open_store`."""

    def __init__(self, path: Path, db: sqlite_utils.Database) -> None:
        self.path = path
        self.db = db
        self.conn: sqlite3.Connection = db.conn

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ----------------------------------------------------------
    def _begin(self) -> None:
        """BEGIN IMMEDIATE: take the write lock now (waiting up to the busy timeout), so that a
        check-then-write cannot race another writer."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: {exc} (another program holds it; tried for {BUSY_SECONDS:.0f} s)") from None

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction: BEGIN IMMEDIATE, COMMIT when the block ends, ROLLBACK if it raises."""
        self._begin()
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    # -- reading -------------------------------------------------------------------
    def match_ids(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT match_id FROM events ORDER BY match_id")]

    def has_match(self, match_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM events WHERE match_id = ? LIMIT 1", (match_id,)).fetchone() is not None

    def records(self, match_id: str) -> list[tuple[Record, str]]:
        """The stored events of a match as reader records, each with its stored chain hash."""
        rows = self.conn.execute(
            "SELECT seq, json, raw, hash FROM events WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()
        out = []
        for seq, text, raw, stored in rows:
            data = raw if raw is not None else text.encode("utf-8")
            out.append((decode_line(data, seq, seq), stored))
        return out

    def lines(self, match_id: str) -> Iterator[bytes]:
        """The match's lines, byte for byte as they were imported or appended."""
        for text, raw in self.conn.execute("SELECT json, raw FROM events WHERE match_id = ? ORDER BY seq", (match_id,)):
            yield raw if raw is not None else text.encode("utf-8")

    def verify(self, match_id: str) -> MatchReport:
        """Verify a stored match as ``verify`` does a file, and check every row against its chain hash."""
        reducer = MatchReducer(f"{self.path}#{match_id}", 1)
        prev = ""
        tampered: list[Issue] = []
        for rec, stored in self.records(match_id):
            expected = chain_hash_bytes(prev, record_canon(rec))
            if expected != stored:
                tampered.append(
                    Issue(
                        rec.seq,
                        rec.line,
                        "hash-mismatch",
                        f"the stored event does not match the chain hash it was stored with "
                        f"({stored[:12]}...): it was changed in the database after it was written",
                    )
                )
            prev = stored
            reducer.feed(rec)
        report = reducer.report()
        if tampered:
            report.violations = sorted(report.violations + tampered, key=lambda i: i.seq)
            report.valid = False
        return report

    # -- writing ---------------------------------------------------------------------
    def import_match(self, log: MatchLog, source: str | None = None) -> ImportResult:
        """Store one match, all or nothing, in its own transaction. A match already stored (same id
        or same head) is skipped."""
        return next(iter(self.import_matches([log], source)))

    def import_matches(
        self, logs: Iterable[MatchLog], source: str | None = None, batch_events: int = 20_000
    ) -> Iterator[ImportResult]:
        """Store matches, each all or nothing (a savepoint of its own).

        Matches are committed together, every ``batch_events`` events or so (one fsync for many
        small matches); a result is yielded once its match is committed. A crash loses at most the
        uncommitted batch, whole matches only, and a re-run stores them.
        """
        pending: list[ImportResult] = []
        size = 0
        try:
            for log in logs:
                if not self.conn.in_transaction:
                    self._begin()
                result = self._import_one(log, source or log.source)
                pending.append(result)
                size += result.events
                if size >= batch_events:
                    self.conn.execute("COMMIT")
                    yield from pending
                    pending, size = [], 0
            if self.conn.in_transaction:
                self.conn.execute("COMMIT")
            yield from pending
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def _import_one(self, log: MatchLog, src: str) -> ImportResult:
        if log.orphan:
            return ImportResult(src, log.line, None, "failed", reason="lines before any match_start: not a match")
        first = log.records[0].obj if log.records else None
        given = first.get("id") if first else None
        if isinstance(given, str) and given and self.has_match(given):
            return ImportResult(src, log.line, given, "skipped", reason=f"match {given} is already stored")
        reducer = MatchReducer(log.source, log.line)
        rows: list[tuple[Any, ...]] = []
        row = self._row
        for rec in log.records:
            reducer.feed(rec)
            rows.append(row(rec, reducer._head))
        report = reducer.report()
        mid = match_id_of(log, report.head)
        if self.has_match(mid):
            return ImportResult(src, log.line, mid, "skipped", reason=f"match {mid} is already stored")
        same = self.conn.execute("SELECT id FROM matches WHERE head = ?", (report.head,)).fetchone()
        if same is not None:
            return ImportResult(src, log.line, mid, "skipped", reason=f"the same match is stored as {same[0]}")
        self.conn.execute("SAVEPOINT import_match")
        try:
            self.conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [(mid, *r) for r in rows])
            self._project(mid, report)
            self.conn.execute(
                "INSERT INTO imports VALUES (?, ?, ?, ?)",
                (mid, src, log.line, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")),
            )
        except BaseException:
            self.conn.execute("ROLLBACK TO import_match")
            self.conn.execute("RELEASE import_match")
            raise
        self.conn.execute("RELEASE import_match")
        return ImportResult(src, log.line, mid, "imported", len(rows), report.valid)

    @staticmethod
    def _row(rec: Record, chain: str) -> tuple[Any, ...]:
        obj = rec.value if isinstance(rec.value, dict) else {}
        kind, player, tile, at = obj.get("type"), obj.get("player"), obj.get("tile"), obj.get("at")
        if player is None:
            player = obj.get("leader")
        if tile is None and kind == "play" and isinstance(obj.get("tiles"), list):
            tile = " ".join(t for t in obj["tiles"] if isinstance(t, str))
        try:
            text, raw = rec.data.decode("utf-8"), None
        except UnicodeDecodeError:
            text, raw = rec.data.decode("utf-8", "replace"), rec.data
        return (
            rec.seq,
            kind if isinstance(kind, str) else None,
            player if isinstance(player, str) else None,
            tile if isinstance(tile, str) else None,
            text,
            raw,
            at if isinstance(at, str) else None,
            chain,
        )

    def append(self, match_id: str, line: bytes, expected_seq: int | None = None) -> int:
        """Append one event line to a match (a new match when ``match_id`` has none yet).

        The seq is the next one of the match; ``expected_seq`` (or the event's own ``seq``) must
        equal it, else :class:`ConflictError` (another writer was first) and nothing is written.
        The projections of the match are brought up to date in the same transaction.
        """
        rec = decode_line(line.strip(), 1, 1)
        obj = rec.obj
        own = obj.get("seq") if obj is not None else None
        want = expected_seq if expected_seq is not None else own if isinstance(own, int) else None
        with self._write():
            last = self.conn.execute(
                "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
            ).fetchone()
            seq = last[0] + 1 if last else 1
            if want is not None and want != seq:
                raise ConflictError(
                    f"match {match_id}: seq {want} is taken (the match has {seq - 1} events); nothing was written"
                )
            line = self._like_the_match(match_id, line.strip(), seq, last[1] if last else "")
            rec = decode_line(line, seq, seq)
            chain = chain_hash_bytes(last[1] if last else "", record_canon(rec))
            try:
                self.conn.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (match_id, *self._row(rec, chain))
                )
            except sqlite3.IntegrityError:
                raise ConflictError(
                    f"match {match_id}: seq {seq} was taken by another writer; nothing was written"
                ) from None
            self._reproject(match_id)
        return seq

    def _like_the_match(self, match_id: str, line: bytes, seq: int, prev: str) -> bytes:
        """An appended event written like the rest of its match: with its ``seq`` and its chain ``hash``
        when the match's first event has them (so the match stays valid); other lines as given."""
        first = self.conn.execute("SELECT json FROM events WHERE match_id = ? AND seq = 1", (match_id,)).fetchone()
        rec = decode_line(line, seq, seq)
        obj = rec.obj
        if first is None or obj is None:
            return line
        try:
            start = json.loads(first[0])
        except ValueError:
            return line
        if not isinstance(start, dict):
            return line
        wants_seq = "seq" in start and "seq" not in obj
        wants_hash = isinstance(start.get("hash"), str) and "hash" not in obj
        if not wants_seq and not wants_hash:
            return line
        body = {k: v for k, v in obj.items()}
        if wants_seq:
            body["seq"] = seq
        if wants_hash:
            body.pop("hash", None)
            body["hash"] = chain_hash_bytes(prev, record_canon(decode_line(dump_line(body).encode(), seq, seq)))
        return dump_line(body).encode("utf-8")

    # -- projections -------------------------------------------------------------------
    def _project(self, match_id: str, report: MatchReport) -> None:
        """Write the match's rows of ``matches`` and ``hands`` from its report (and its match_start's meta)."""
        status = "invalid" if not report.valid else "complete" if report.complete else "open"
        meta = None
        first = self.conn.execute("SELECT json FROM events WHERE match_id = ? AND seq = 1", (match_id,)).fetchone()
        if first is not None:
            try:
                start = json.loads(first[0])
            except ValueError:
                start = None
            if isinstance(start, dict) and isinstance(start.get("meta"), dict):
                meta = _jdump(start["meta"])
        self.conn.execute("DELETE FROM hands WHERE match_id = ?", (match_id,))
        self.conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        self.conn.execute(
            "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                report.variant,
                _jdump(report.players),
                meta,
                status,
                int(report.complete),
                report.head,
                _jdump(report.totals),
                _jdump(report.winner),
                len(report.hands),
                report.events,
                len(report.violations),
                len(report.unverified),
            ),
        )
        self.conn.executemany(
            'INSERT INTO hands (match_id, number, "end", winner, points) VALUES (?, ?, ?, ?, ?)',
            [(match_id, h.number, h.end, _jdump(h.winner), _jdump(h.points)) for h in report.hands],
        )

    def _reproject(self, match_id: str) -> None:
        reducer = MatchReducer(f"{self.path}#{match_id}", 1)
        for rec, _ in self.records(match_id):
            reducer.feed(rec)
        self._project(match_id, reducer.report())

    def reindex(self) -> int:
        """Rebuild ``matches`` and ``hands`` from ``events`` alone; returns the number of matches."""
        ids = self.match_ids()
        with self._write():
            self.conn.execute("DELETE FROM hands")
            self.conn.execute("DELETE FROM matches")
            for mid in ids:
                self._reproject(mid)
        return len(ids)

    def projections(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """Every row of ``matches`` and ``hands``, in key order (to compare after a reindex)."""
        m = self.conn.execute("SELECT * FROM matches ORDER BY id").fetchall()
        h = self.conn.execute("SELECT * FROM hands ORDER BY match_id, number").fetchall()
        return m, h

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
        if player:
            sql += " AND EXISTS (SELECT 1 FROM json_each(matches.players) WHERE value = ?)"
            args.append(player)
        cur = self.conn.execute(sql + " ORDER BY id", args)
        cols = [c[0] for c in cur.description]
        return [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]


def open_store(path: Path | str, create: bool = True) -> Store:
    """Open (or create) the store at ``path``; :class:`StoreError` with a clear message if it cannot be used."""
    p = Path(path)
    if p.is_dir():
        raise StoreError(f"{p}: is a folder, not a database file")
    if p.exists():
        try:
            with open(p, "rb") as fh:
                head = fh.read(16)
        except OSError as exc:
            raise StoreError(f"{p}: cannot read: {exc.strerror or exc}") from None
        if head and head != SQLITE_HEADER:
            raise StoreError(f"{p}: not a SQLite database (a dominolog store is one)")
    elif not create:
        raise StoreError(f"{p}: no such database (import something first)")
    try:
        conn = sqlite3.connect(p, timeout=BUSY_SECONDS, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"{p}: cannot open: {exc}") from None
    try:
        return _prepare(p, conn)
    except StoreError:
        conn.close()
        raise
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{p}: cannot use the database: {exc}") from None


def _prepare(p: Path, conn: sqlite3.Connection) -> Store:
    # Whose database is it? Asked before anything is changed (the journal mode is a change).
    try:
        found = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            raise StoreError(f"{p}: the database is locked by another program ({exc})") from None
        raise
    if found and "dominolog_meta" not in found:
        names = ", ".join(sorted(found)[:5])
        raise StoreError(f"{p}: a database of another program (tables: {names}), not a dominolog store")
    start = time.monotonic()
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() - start > BUSY_SECONDS:
                raise StoreError(f"{p}: the database is locked by another program ({exc})") from None
            time.sleep(0.05)
    conn.execute("PRAGMA synchronous=FULL")
    db = sqlite_utils.Database(conn)
    tables = set(db.table_names())
    if not tables:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{p}: the database is locked by another program ({exc})") from None
        try:
            if not set(db.table_names()):  # another process may have created it meanwhile
                for statement in _statements(SCHEMA):
                    conn.execute(statement)
                conn.executemany(
                    "INSERT INTO dominolog_meta VALUES (?, ?)", [("app", APP), ("schema_version", SCHEMA_VERSION)]
                )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    else:  # (another program's tables were refused above, before anything was changed)
        meta = dict(conn.execute("SELECT key, value FROM dominolog_meta").fetchall())
        if meta.get("app") != APP or meta.get("schema_version") != SCHEMA_VERSION:
            raise StoreError(f"{p}: a dominolog store of another version ({meta.get('schema_version')})")
    return Store(p, db)


def _statements(script: str) -> Iterable[str]:
    """Split the schema into statements (triggers hold semicolons inside BEGIN ... END)."""
    buf = ""
    for line in script.strip().splitlines():
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""
