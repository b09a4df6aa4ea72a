"""The match store: one SQLite file (through sqlite-utils), events first.

``events`` is the source of truth and append-only: triggers refuse UPDATE and
DELETE, the primary key (match_id, seq) lets only one writer take a seq, and
every row carries the chain hash up to it (docs/format.md), so an edit made behind
the tool's back shows as a ``hash-mismatch`` at that event. ``matches`` and
``hands`` are projections, rebuilt from ``events`` alone by :meth:`Store.reindex`.
``imports`` records where each match came from (not a projection).

The file runs in WAL mode with ``synchronous=FULL``: an event acknowledged
(committed) survives a crash. Each match is imported in one transaction.
"""

from __future__ import annotations

import difflib
import json
import sqlite3
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
from dominolog.store.errors import ConflictError, ReadOnlyError, RefusedError, StoreError
from dominolog.textsafe import shown

#: how long a writer waits for another one's lock
BUSY_SECONDS = 5.0


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


def _jdump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def match_id_of(log: MatchLog, head: str) -> str:
    """The match's ``id`` from its ``match_start``, else one made from its head hash."""
    first = log.records[0].obj if log.records else None
    mid = first.get("id") if first else None
    return mid if isinstance(mid, str) and mid else f"head-{head[:16]}"


class Store:
    """An open store. Use :func:`open_store`."""

    def __init__(self, path: Path, db: sqlite_utils.Database, read_only: bool = False) -> None:
        self.path = path
        self.db = db
        self.conn: sqlite3.Connection = db.conn
        self.read_only = read_only

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
        if self.read_only:
            raise ReadOnlyError(f"{self.path}: the store is read-only here; nothing was written")
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

    def close_ids(self, match_id: str, n: int = 3) -> list[str]:
        """The stored ids closest to ``match_id`` (for "did you mean")."""
        return difflib.get_close_matches(match_id, self.match_ids(), n=n, cutoff=0.5)

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
        cut_short = next((r for r in log.records if r.truncated), None)
        if cut_short is not None:
            return ImportResult(
                src, log.line, None, "failed", reason=f"line {cut_short.line}: {cut_short.error}: not stored"
            )
        first = log.records[0].obj if log.records and not log.records[0].raw_only else None
        given = first.get("id") if first else None
        if isinstance(given, str) and given and self.has_match(given):
            return self._already(src, log, given)
        reducer = MatchReducer(log.source, log.line)
        rows: list[tuple[Any, ...]] = []
        row = self.row_of
        for rec in log.records:
            reducer.feed(rec)
            rows.append(row(rec, reducer.head))
        report = reducer.report()
        mid = match_id_of(log, report.head)
        if self.has_match(mid):
            return self._already(src, log, mid)
        same = self.conn.execute("SELECT id FROM matches WHERE head = ?", (report.head,)).fetchone()
        if same is not None:
            return ImportResult(src, log.line, mid, "skipped", reason=f"the same match is stored as {shown(same[0])}")
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

    def _already(self, src: str, log: MatchLog, mid: str) -> ImportResult:
        """A match whose id is stored already: skipped when the stored lines are the same, else a conflict."""
        stored = self.lines(mid)
        for rec in log.records:
            if next(stored, None) != rec.data:
                return ImportResult(
                    src,
                    log.line,
                    mid,
                    "conflict",
                    reason=f"match {shown(mid)} is already stored with other content: "
                    f"first difference at seq {rec.seq}",
                )
        if next(stored, None) is not None:
            return ImportResult(
                src,
                log.line,
                mid,
                "conflict",
                reason=f"match {shown(mid)} is already stored with more events: first difference at seq "
                f"{len(log.records) + 1}",
            )
        return ImportResult(src, log.line, mid, "skipped", reason=f"match {shown(mid)} is already stored")

    @staticmethod
    def row_of(rec: Record, chain: str) -> tuple[Any, ...]:
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
        line = line.strip()
        rec = decode_line(line, 1, 1)
        if rec.error is not None or rec.event is None or rec.obj is None:
            raise RefusedError(f"not an event of the format: {rec.error or 'not an event'}; nothing was written")
        obj, kind = rec.obj, rec.event.type
        own = obj.get("seq")
        want = expected_seq if expected_seq is not None else own if isinstance(own, int) else None
        with self._write():
            last = self.conn.execute(
                "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
            ).fetchone()
            seq = last[0] + 1 if last else 1
            if want is not None and want != seq:
                raise ConflictError(
                    f"match {shown(match_id)}: seq {want} is taken (the match has {seq - 1} events); "
                    "nothing was written"
                )
            if seq == 1 and kind != "match_start":
                raise RefusedError(
                    f"match {shown(match_id)} has no events: a match begins with match_start, not {kind}; "
                    "nothing was written"
                )
            if seq > 1 and kind == "match_start":
                raise RefusedError(
                    f"match {shown(match_id)} has begun already ({seq - 1} events): a match_start here would begin "
                    "another match; nothing was written"
                )
            given_id = obj.get("id") if kind == "match_start" else None
            if given_id is not None and given_id != match_id:
                raise RefusedError(
                    f"the match_start names the match {shown(given_id)}, not {shown(match_id)}; nothing was written"
                )
            prev = last[1] if last else ""
            line = self._like_the_match(match_id, line, seq, prev)
            rec = decode_line(line, seq, seq)
            chain = chain_hash_bytes(prev, record_canon(rec))
            self._check_own_hash(match_id, rec, chain, seq)
            try:
                self.conn.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (match_id, *self.row_of(rec, chain))
                )
            except sqlite3.IntegrityError:
                raise ConflictError(
                    f"match {shown(match_id)}: seq {seq} was taken by another writer; nothing was written"
                ) from None
            self._reproject(match_id)
        return seq

    def _check_own_hash(self, match_id: str, rec: Record, chain: str, seq: int) -> None:
        """An event that carries a ``hash`` must carry the chain hash, in a match whose events carry them."""
        own = rec.obj.get("hash") if rec.obj is not None else None
        if own is None:
            return
        start = self._first_event(match_id)
        if seq > 1 and not (start is not None and isinstance(start.get("hash"), str)):
            raise RefusedError(f"match {shown(match_id)}: its events carry no hash, this one does; nothing was written")
        if own != chain:
            raise RefusedError(
                f"match {shown(match_id)}: the event's hash {shown(own, 12)}... is not the chain hash at seq {seq} "
                f"({chain[:12]}...); nothing was written"
            )

    def _first_event(self, match_id: str) -> dict[str, Any] | None:
        """The match's stored match_start as an object (None if there is none or it is not one)."""
        first = self.conn.execute("SELECT json FROM events WHERE match_id = ? AND seq = 1", (match_id,)).fetchone()
        if first is None:
            return None
        return decode_line(first[0].encode("utf-8", "surrogatepass"), 1, 1).obj

    def _like_the_match(self, match_id: str, line: bytes, seq: int, prev: str) -> bytes:
        """An appended event written like the rest of its match: with its ``seq`` and its chain ``hash``
        when the match's first event has them (so the match stays valid); other lines as given."""
        start = self._first_event(match_id)
        obj = decode_line(line, seq, seq).obj
        if start is None or obj is None:
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
    def projection_of(self, match_id: str, report: MatchReport) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
        """The match's rows of ``matches`` and ``hands`` as its report (and its match_start's meta) give them."""
        status = "invalid" if not report.valid else "complete" if report.complete else "open"
        meta = None
        first = self.conn.execute("SELECT json, raw FROM events WHERE match_id = ? AND seq = 1", (match_id,)).fetchone()
        if first is not None:
            start = decode_line(first[1] if first[1] is not None else first[0].encode("utf-8", "surrogatepass"), 1, 1)
            if start.event is not None and isinstance(start.obj, dict) and isinstance(start.obj.get("meta"), dict):
                meta = _jdump(start.obj["meta"])
        match_row = (
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
        )
        hand_rows = [(match_id, h.number, h.end, _jdump(h.winner), _jdump(h.points)) for h in report.hands]
        return match_row, hand_rows

    def _project(self, match_id: str, report: MatchReport) -> None:
        """Write the match's rows of ``matches`` and ``hands`` from its report."""
        match_row, hand_rows = self.projection_of(match_id, report)
        self.conn.execute("DELETE FROM hands WHERE match_id = ?", (match_id,))
        self.conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        self.conn.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", match_row)
        self.conn.executemany(
            'INSERT INTO hands (match_id, number, "end", winner, points) VALUES (?, ?, ?, ?, ?)', hand_rows
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
