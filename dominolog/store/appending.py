"""Appending to a stored match, one durable event at a time, at the speed of play.

Each append is one transaction (SQLite: WAL, ``synchronous=FULL``; PostgreSQL:
``synchronous_commit=on``, the match locked for it): when :meth:`Appending.append` returns, the
event survives a crash. Inside a transaction of the caller's (``Store.transaction``: ``dominolog
serve``'s requests and group commits) it is a savepoint, durable when that transaction commits.
The store keeps each match it appended to folded
(a :class:`~dominolog.reducer.MatchReducer` per match): an append folds only the new
event and writes only what it changed in the projections, so its cost does not grow
with the match. The fold is checked against the stored head first: when another writer
appended in between, the match is folded again from its events.

With ``check=True`` (the recorder, ``dominolog append``) an event the rules refuse for
certain is not written (:mod:`dominolog.reducer.checks`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dominolog.log import reader
from dominolog.log.hashchain import chain_hash_bytes
from dominolog.log.reader import Record, decode_line
from dominolog.log.writer import dump_line, like_the_match
from dominolog.reducer import MatchReducer, record_canon, refusal_message, refusals
from dominolog.state import Issue
from dominolog.store.errors import ConflictError, FullMatchError, RefusedError, RulesRefusedError
from dominolog.store.rows import EVENTS_INSERT, projection_rows, row_of
from dominolog.store.transactions import Transactions
from dominolog.textsafe import shown

#: the first events kept read (a recorder appends to a few matches; an import reads each match once)
_KEPT_STARTS = 64


@dataclass(slots=True)
class Appended:
    """An event written: its seq, the match's head after it, and what the rules say of it
    (violations kept, such as a claim the rules do not give, and rules left unverified)."""

    seq: int
    head: str
    violations: list[Issue] = field(default_factory=list)
    unverified: list[Issue] = field(default_factory=list)


@dataclass(slots=True)
class Fold:
    """A match kept folded: the reducer after ``seq`` events whose stored chain ends in ``head``,
    and how many hands its projection holds."""

    reducer: MatchReducer
    seq: int
    head: str
    hands: int = -1


def check_room(name: str, seq: int) -> None:
    """:class:`FullMatchError` when the event ``seq`` would be past the events a match may hold
    (:data:`dominolog.log.reader.MAX_MATCH_EVENTS`, read when called: a test may lower it)."""
    limit = reader.MAX_MATCH_EVENTS
    if seq > limit:
        raise FullMatchError(
            f"match {shown(name)} holds {seq - 1:,} events: a match holds at most {limit:,} events "
            "(docs/format.md, Limits); nothing was written"
        )


def fold_checked(reducer: MatchReducer, rec: Record, check: bool) -> tuple[list[Issue], list[Issue]]:
    """Fold ``rec``: its violations (kept) and unverified rules. With ``check``, what the rules refuse
    for certain raises :class:`RefusedError` and the reducer is left as it was."""
    mark, found, unverified = reducer.attempt(rec)
    # only what is wrong with this entry refuses it: what it proves of earlier events (a renege shown
    # by the reveals, a contradiction) is recorded and shown, never a reason to refuse the table
    refused = refusals(i for i in found if i.seq == rec.seq) if check else []
    if refused:
        reducer.rollback(mark)
        raise RulesRefusedError(f"seq {rec.seq}: {refusal_message(refused)}; nothing was written", refused)
    return found, unverified


class Appending(Transactions):
    """The append half of :class:`~dominolog.store.store.Store`: a match's events read, and appended
    to, kept folded."""

    #: whether :meth:`_write_match_row` can keep the ``last_at`` a match had (``keep_last_at``) itself,
    #: without its row read first (PostgreSQL's upsert)
    _KEEPS_LAST_AT = False
    #: the insert of a row of ``events`` (an import's rows, or :meth:`row_of`'s): SQLite's, which makes the
    #: import's 0 NULL (:data:`~dominolog.store.rows.NO_VALUE`; :meth:`row_of`'s None is NULL as it is)
    _EVENTS_INSERT = EVENTS_INSERT
    #: how many columns ``matches`` has (read once, at the first row written)
    _matches_width: int | None = None
    _folds: dict[str, Fold]
    _starts: dict[str, Record]

    def _lock_for_append(self, match_id: str) -> None:
        """The match's lock for an append (PostgreSQL: sent with the read of its last event)."""
        self._lock_match(match_id)

    def _put(self, query: str, params: tuple[Any, ...]) -> None:
        """A write whose answer is not read (PostgreSQL: sent with the next statement, or the commit)."""
        self.conn.execute(query, params)

    def _put_many(self, query: str, rows: list[tuple[Any, ...]]) -> None:
        self.conn.executemany(query, rows)

    def _appended(self) -> None:
        """The end of an append's writes (PostgreSQL, in a caller's transaction: what waits is sent now,
        so that its errors undo this append alone)."""

    def records(self, match_id: str, after: int = 0) -> list[tuple[Record, str]]:
        """The stored events of a match (those after seq ``after``) as reader records, each with its
        stored chain hash."""
        rows = self.conn.execute(
            "SELECT seq, json, raw, hash FROM events WHERE match_id = ? AND seq > ? ORDER BY seq", (match_id, after)
        ).fetchall()
        out = []
        for seq, text, raw, stored in rows:
            data = raw if raw is not None else text.encode("utf-8")
            out.append((decode_line(data, seq, seq), stored))
        return out

    def start_of(self, match_id: str) -> Record | None:
        """The match's first event as read (kept: events are never changed; None while it has none)."""
        start = self._starts.get(match_id)
        if start is None:
            first = self.conn.execute(
                "SELECT json, raw FROM events WHERE match_id = ? AND seq = 1", (match_id,)
            ).fetchone()
            if first is None:
                return None
            data = first[1] if first[1] is not None else first[0].encode("utf-8", "surrogatepass")
            if len(self._starts) >= _KEPT_STARTS:  # an import or export of many matches: keep the latest only
                del self._starts[next(iter(self._starts))]
            start = self._starts[match_id] = decode_line(data, 1, 1)
        return start

    @staticmethod
    def row_of(rec: Record, chain: str) -> tuple[Any, ...]:
        """The event's row of ``events`` (:func:`~dominolog.store.rows.row_of`) as this database holds it."""
        return row_of(rec, chain)

    def _write_match_row(self, match_id: str, match_row: tuple[Any, ...], keep_last_at: bool = False) -> None:
        """The match's row of ``matches``, in place of the one it had: the columns the table has (a store
        whose ``matches`` could not yet be given its added columns, ``rows.MATCHES_ADDED``, gets those it has).
        (``keep_last_at``: only where :attr:`_KEEPS_LAST_AT`; here the caller has read it.)"""
        width = self._matches_width
        if width is None:
            width = self._matches_width = len(self.conn.execute("SELECT * FROM matches LIMIT 0").description)
        row = match_row[:width]
        self.conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        self.conn.execute(f"INSERT INTO matches VALUES ({', '.join('?' * len(row))})", row)

    def fold_of(self, match_id: str) -> Fold:
        """The match folded up to its last stored event (kept, or folded now). Its last event as the
        statement before read it in this transaction, when one did (:attr:`_last_seen`), else read now."""
        seen = self._last_seen.pop(match_id, None) if self._touched else None
        if seen is not None:
            return self._fold(match_id, *seen)
        last = self.conn.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        seq, head = (last[0], last[1]) if last else (0, "")
        return self._fold(match_id, seq, head)

    def fold_after(self, match_id: str, done: Appended) -> Fold:
        """The match folded after the append ``done``: inside a transaction (which holds the match: no
        other writer's event can follow it before the commit), the fold that append kept, without a read
        (one round trip less an append with PostgreSQL); else :meth:`fold_of`."""
        fold = self._folds.get(match_id)
        if self._touched and fold is not None and fold.seq == done.seq and fold.head == done.head:
            return fold
        return self.fold_of(match_id)

    def fold_kept(self, match_id: str, folds: dict[str, Fold]) -> Fold:
        """:meth:`fold_of`, the match kept folded in ``folds`` (the caller's, shared among this store's
        connections: the caller makes sure one at a time uses it) rather than in this store's own."""
        last = self.conn.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        seq, head = (last[0], last[1]) if last else (0, "")
        return self._fold(match_id, seq, head, folds)

    def adopt_fold(self, match_id: str, fold: Fold) -> None:
        """Keep ``fold`` (made by another connection, which keeps it no more: the server folds a long match
        on a reader's thread and hands it to its one writer) as this store's fold of the match, unless it
        keeps one as far or further; the next :meth:`fold_of` folds only the events stored since."""
        kept = self._folds.get(match_id)
        if kept is None or kept.seq < fold.seq:
            self._folds[match_id] = fold

    def _fold(self, match_id: str, seq: int, head: str, folds: dict[str, Fold] | None = None) -> Fold:
        if folds is None:
            folds = self._folds
        fold = folds.get(match_id)
        if fold is not None and fold.seq == seq and fold.head == head:
            return fold
        if fold is not None and fold.seq < seq and self._catch_up(match_id, fold, seq, head):
            return fold
        reducer = MatchReducer(f"{self.path}#{match_id}", 1)
        for rec, _ in self.records(match_id):
            reducer.feed(rec)
        fold = Fold(reducer, reducer.events, reducer.head)
        if fold.seq != seq or fold.head != head:  # rows edited behind our back: fold them as they are
            fold.seq, fold.head = seq, head
        folds[match_id] = fold
        return fold

    def _catch_up(self, match_id: str, fold: Fold, seq: int, head: str) -> bool:
        """Bring a fold another writer has got ahead of up to ``seq`` by folding only the events
        written since (not the whole match again): True when they follow on from it, their chain
        ending in the stored ``head``. Else the fold is left to be made afresh."""
        newer = self.records(match_id, after=fold.seq)
        if [rec.seq for rec, _ in newer] != list(range(fold.seq + 1, seq + 1)):
            return False
        for rec, _ in newer:
            fold.reducer.feed(rec)
        if fold.reducer.head != head or fold.reducer.events != seq:
            return False  # (the caller folds the match afresh, in place of this one)
        fold.seq, fold.head = seq, head
        fold.hands = -1  # the other writer wrote hands of its own: the match's are written again
        return True

    def append(self, match_id: str, line: bytes, expected_seq: int | None = None, check: bool = False) -> Appended:
        """Append one event line to a match (a new match when ``match_id`` has none yet).

        The seq is the next one of the match; ``expected_seq`` (or the event's own ``seq``) must
        equal it, else :class:`ConflictError` (another writer was first) and nothing is written.
        With ``check``, an event the rules refuse for certain raises :class:`RefusedError` and
        nothing is written. The projections of the match are brought up to date in the same
        transaction.
        """
        line = line.strip()
        rec = decode_line(line, 1, 1)
        if rec.error is not None or rec.event is None or rec.obj is None:
            raise RefusedError(f"not an event of the format: {rec.error or 'not an event'}; nothing was written")
        obj, kind = rec.obj, rec.event.type
        own = obj.get("seq")
        want = expected_seq if expected_seq is not None else own if isinstance(own, int) else None
        folding = False
        self._last_seen.pop(match_id, None)
        locked = self._locked_seen.pop(match_id, None) if self._touched else None
        try:
            with self._write():
                if locked is not None:  # (the match locked and its last event read by the write's checks)
                    last: Any = locked if locked[0] else None
                else:
                    self._lock_for_append(match_id)
                    last = self.conn.execute(
                        "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
                    ).fetchone()
                seq = last[0] + 1 if last else 1
                if want is not None and want != seq:
                    raise ConflictError(
                        f"match {shown(match_id)}: seq {want} is taken (the match has {seq - 1} events); "
                        "nothing was written"
                    )
                check_room(match_id, seq)
                self._check_start(match_id, obj, kind, seq)
                prev = last[1] if last else ""
                line = self._like_the_match(match_id, line, obj, seq, prev)
                rec = decode_line(line, seq, seq)
                chain = chain_hash_bytes(prev, record_canon(rec))
                self._check_own_hash(match_id, rec, chain, seq)
                folding = True
                fold = self._fold(match_id, seq - 1, prev)
                found, unverified = fold_checked(fold.reducer, rec, check)
                try:
                    self._put(self._EVENTS_INSERT, (match_id, *self.row_of(rec, chain)))
                except self._taken_errors:
                    raise ConflictError(
                        f"match {shown(match_id)}: seq {seq} was taken by another writer; nothing was written"
                    ) from None
                fold.seq, fold.head = seq, chain
                self._touched[-1].add(match_id)
                at = rec.obj.get("at") if rec.obj is not None else None
                self._project_fold(match_id, fold, at if isinstance(at, str) else None)
                self._appended()
        except BaseException:
            if folding:  # whatever the fold holds now, the next append folds afresh (a seq taken before: kept)
                self._folds.pop(match_id, None)
                self._starts.pop(match_id, None)
            raise
        return Appended(seq, chain, found, unverified)

    def _check_start(self, match_id: str, obj: dict[str, Any], kind: str, seq: int) -> None:
        """A match begins with its match_start, and has only one; its id is the match's."""
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

    def _project_fold(self, match_id: str, fold: Fold, at: str | None) -> None:
        """Bring the match's projections up to its fold, writing only what changed: its row of
        ``matches`` (its ``last_at``: ``at``, the time of the event just appended, else the one it had:
        never the match read again) and the hands closed since the last append."""
        report = fold.reducer.report(view=True)
        if fold.hands < 0 or fold.hands > len(report.hands):
            self._put("DELETE FROM hands WHERE match_id = ?", (match_id,))
            fold.hands = 0
        if at is None and not self._KEEPS_LAST_AT:
            had = self.conn.execute("SELECT * FROM matches WHERE id = ? LIMIT 1", (match_id,))
            names = [d[0] for d in had.description]
            row = had.fetchone()
            at = dict(zip(names, row, strict=True)).get("last_at") if row is not None else None
        match_row, hand_rows = projection_rows(match_id, report, self.start_of(match_id), fold.hands, at)
        self._write_match_row(match_id, match_row, keep_last_at=at is None)
        self._put_many('INSERT INTO hands (match_id, number, "end", winner, points) VALUES (?, ?, ?, ?, ?)', hand_rows)
        fold.hands = len(report.hands)

    def _check_own_hash(self, match_id: str, rec: Any, chain: str, seq: int) -> None:
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
        start = self.start_of(match_id)
        return start.obj if start is not None else None

    def _like_the_match(self, match_id: str, line: bytes, obj: dict[str, Any], seq: int, prev: str) -> bytes:
        """An appended event (``line``, read as ``obj``) written like the rest of its match: with its
        ``seq`` and its chain ``hash`` when the match's first event has them (so the match stays valid);
        other lines as given."""
        start = self._first_event(match_id) if seq > 1 else obj
        if start is None:
            return line
        body = like_the_match(start, obj, seq, prev)
        return line if body == obj else dump_line(body).encode("utf-8")
