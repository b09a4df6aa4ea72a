"""The rows an import writes, made with no database at hand: a record's row of ``events`` with the
chain hash up to it, a match's rows of ``matches`` and ``hands`` from its report, and
:func:`prepare_import`, the one fold of an import (which ``import --jobs`` runs in other processes).

Compiled by mypyc with the fold (``dominolog/build_info.py``): an import builds one row per event.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dominolog.frozen import by_fields
from dominolog.log.reader import MatchLog, Record, decode_line
from dominolog.reducer import MatchReducer, MatchReport

#: ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``'s encoder, made once (``json.dumps`` makes
#: one at every call given other than its defaults: a match's projections call it a few times a hand)
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _jdump(value: Any) -> str | None:
    return None if value is None else _ENCODE(value)


def match_id_of(log: MatchLog, head: str) -> str:
    """The match's ``id`` from its ``match_start``, else one made from its head hash."""
    return _id_given(log) or f"head-{head[:16]}"


def _id_given(log: MatchLog) -> str | None:
    """The ``id`` the match's first record gives, if it gives one (a text, not empty)."""
    first = log.records[0].obj if log.records else None
    mid = first.get("id") if first else None
    return mid if isinstance(mid, str) and mid else None


#: an import's row of ``events`` as the store's SQLite statement (:data:`EVENTS_INSERT`) binds it: the columns
#: ``player``, ``tile``, ``raw`` and ``at`` with no value hold the integer 0, not None. Python's ``sqlite3``
#: adapts every value that is not exactly an int, a float, a str or a bytearray (None among them: a
#: lookup in its adapters' dict and two attribute lookups a value), which was a fifth of the insert of an
#: import (0.58 of 3.04 µs a row, ``bench/RESULTS.md``); 0 is bound as it is, and ``NULLIF(?, 0)`` stores
#: NULL. None of these columns holds an int otherwise (text, or ``raw``'s bytes). PostgreSQL's rows have
#: their None back (:meth:`~dominolog.store.postgres.PostgresStore.fit_row`).
NO_VALUE = 0
#: the insert of a row of ``events`` into a SQLite store (an import's rows, or :func:`row_of`'s, whose None is
#: NULL as it is)
EVENTS_INSERT = "INSERT INTO events VALUES (?, ?, ?, NULLIF(?, 0), NULLIF(?, 0), ?, NULLIF(?, 0), NULLIF(?, 0), ?)"


def row_of(rec: Record, chain: str) -> tuple[Any, ...]:
    """The row of ``events`` for one record (without its match id), with the chain hash up to it, as the
    store holds it (None where there is no value: what its columns read back)."""
    _, seq, kind, player, tile, text, raw, at, hashed = _event_row(None, rec, chain)
    return (seq, kind, held(player), held(tile), text, held(raw), held(at), hashed)


def held(value: Any) -> Any:
    """A column of a row of ``events`` as the store holds it: None where :data:`NO_VALUE` marks no value (the
    columns that may hold it hold text or bytes else)."""
    return None if isinstance(value, int) else value


def _event_row(match_id: str | None, rec: Record, chain: str) -> tuple[Any, ...]:
    """The row of ``events`` for one record, its match id first (an import builds each row once); a column
    with no value as :data:`NO_VALUE` where the insert makes it NULL."""
    obj = rec.value if isinstance(rec.value, dict) else _EMPTY
    kind, player, tile, at = obj.get("type"), obj.get("player"), obj.get("tile"), obj.get("at")
    if player is None:
        player = obj.get("leader")
    if tile is None and kind == "play" and isinstance(obj.get("tiles"), list):
        tile = " ".join(t for t in obj["tiles"] if isinstance(t, str))
    raw: Any = NO_VALUE
    try:
        text = rec.data.decode("utf-8")
    except UnicodeDecodeError:
        text, raw = rec.data.decode("utf-8", "replace"), rec.data
    return (
        match_id,
        rec.seq,
        kind if isinstance(kind, str) else None,
        player if isinstance(player, str) else NO_VALUE,
        tile if isinstance(tile, str) else NO_VALUE,
        text,
        raw,
        at if isinstance(at, str) else NO_VALUE,
        chain,
    )


_EMPTY: dict[str, Any] = {}


@dataclass(slots=True, init=False)
class Prepared:
    """One match of a file made ready to store, with no database at hand (so that ``import --jobs``
    can fold matches in other processes, and send back only what is written): its rows of ``events``
    (each with the match id first), its rows of ``matches`` and ``hands``, its head and whether it is
    valid, its id; or why it cannot be stored (``failed``). (Its ``__init__`` is written out: see
    :class:`dominolog.events.kinds.EventBase`.)"""

    source: str
    line: int
    failed: str | None = None
    given: str | None = None  # the id its match_start gives
    match_id: str = ""
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    head: str = ""
    valid: bool = True
    match_row: tuple[Any, ...] = ()
    hand_rows: list[tuple[Any, ...]] = field(default_factory=list)

    def __init__(
        self,
        source: str,
        line: int,
        failed: str | None = None,
        given: str | None = None,
        match_id: str = "",
        rows: list[tuple[Any, ...]] | None = None,
        head: str = "",
        valid: bool = True,
        match_row: tuple[Any, ...] = (),
        hand_rows: list[tuple[Any, ...]] | None = None,
    ) -> None:
        self.source = source
        self.line = line
        self.failed = failed
        self.given = given
        self.match_id = match_id
        self.rows = [] if rows is None else rows
        self.head = head
        self.valid = valid
        self.match_row = match_row
        self.hand_rows = [] if hand_rows is None else hand_rows

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)

    def lines(self) -> Iterator[bytes]:
        """The match's lines as read."""
        for row in self.rows:
            yield row[6] if isinstance(row[6], bytes) else row[5].encode("utf-8")


def prepare_import(log: MatchLog) -> Prepared:
    """Fold one match for storing (the one fold of an import: its rules, its hash chain): every record's
    row with the chain hash up to it, and the rows of the match's projections."""
    if log.orphan:
        return Prepared(log.source, log.line, "lines before any match_start: not a match")
    cut_short = next((r for r in log.records if r.truncated), None)
    if cut_short is not None:
        return Prepared(log.source, log.line, f"line {cut_short.line}: {cut_short.error}: not stored")
    first = log.records[0].obj if log.records and not log.records[0].raw_only else None
    given = first.get("id") if first else None
    early = _id_given(log)  # the id of its match_start (else one made from the head, once known)
    reducer = MatchReducer(log.source, log.line, likelihoods=False)  # the projections count unverified rules
    feed, row = reducer.feed, _event_row
    rows: list[tuple[Any, ...]] = []
    add = rows.append
    for rec in log.records:
        feed(rec)
        add(row(early, rec, reducer.head))
    report = reducer.report()
    mid = match_id_of(log, report.head)
    if early is None:
        rows = [(mid, *r[1:]) for r in rows]
    # the match_start as the store gives it back (Store.start_of): its line decoded afresh
    start = decode_line(log.records[0].data, 1, 1) if log.records else None
    at_col = len(rows[0]) - 2 if rows else 0
    last_at: Any = NO_VALUE
    i = len(rows) - 1
    while i >= 0 and not isinstance(last_at, str):  # (a loop mypyc compiles: a generator over reversed(rows) it cannot)
        last_at = rows[i][at_col]
        i -= 1
    match_row, hand_rows = projection_rows(mid, report, start, last_at=last_at if isinstance(last_at, str) else None)
    given = given if isinstance(given, str) and given else None
    return Prepared(log.source, log.line, None, given, mid, rows, report.head, report.valid, match_row, hand_rows)


def projection_rows(
    match_id: str, report: MatchReport, start: Record | None, first_hand: int = 0, last_at: str | None = None
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """The match's rows of ``matches`` and ``hands`` (from hand ``first_hand`` on, counting from 0) as
    its report and its first event ``start`` (its ``meta``) give them; ``last_at``: the ``at`` of its
    last event that has one (the events' column), kept so that a page need not read the match for it."""
    status = "invalid" if not report.valid else "complete" if report.complete else "open"
    meta = None
    if start is not None and start.event is not None and isinstance(start.obj, dict) and "meta" in start.obj:
        meta = _jdump(start.obj["meta"]) if isinstance(start.obj["meta"], dict) else None
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
        last_at.replace("\x00", "\ufffd") if last_at is not None else None,  # (as PostgreSQL holds a text)
    )
    hand_rows = [(match_id, h.number, h.end, _jdump(h.winner), _jdump(h.points)) for h in report.hands[first_hand:]]
    return match_row, hand_rows


#: the columns added to ``matches`` since it was first made, and how an older store's rows get them
#: (given to it as it is opened writable: :mod:`dominolog.store.opening`, :mod:`dominolog.store.pgschema`)
MATCHES_ADDED = (
    (
        "last_at",
        "TEXT",
        "UPDATE matches SET last_at = (SELECT e.at FROM events AS e WHERE e.match_id = matches.id "
        "AND e.at IS NOT NULL ORDER BY e.seq DESC LIMIT 1)",
    ),
)


def matches_added(conn: Any) -> list[str]:
    """The statements that give a ``matches`` table made before them its :data:`MATCHES_ADDED` columns,
    filled from the events (none when it has them)."""
    try:
        cursor = conn.execute("SELECT * FROM matches LIMIT 0")
    except Exception:  # (no such table yet: it is made whole)
        return []
    have = {d[0] for d in cursor.description}
    out: list[str] = []
    for name, kind, fill in MATCHES_ADDED:
        if name not in have:
            out += [f"ALTER TABLE matches ADD COLUMN {name} {kind}", fill]
    return out
