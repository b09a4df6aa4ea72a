"""The club events' own logs, kept in the store beside the matches (``dominolog event``, the
organiser's page): an event's roster, its rounds' pairings, forfeits and its end, one JSON object a
row, append-only like the matches' events (:mod:`dominolog.tournament` reads and writes them).

``club_log``: one row per record, ``(event, seq)`` its primary key (seqs from 1 in each event, so two
directors pairing at once cannot both take the next seq: the second gets :class:`ClubLogConflict`
and is told to look again), the record as JSON text, the time it was stored. The database refuses
UPDATE and DELETE (triggers), as for ``events``.

The table is made with a new store and added to an older one when it is opened writable, as the
tokens' tables are (:mod:`dominolog.store.opening`, :mod:`dominolog.store.pgschema`); a store opened
read-only without it has no club event.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from dominolog.store.transactions import Transactions

TABLE = "club_log"

CLUB_LOG = """
CREATE TABLE IF NOT EXISTS club_log (
    event TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    json TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (event, seq)
)
""".strip()

#: SQLite: the table and its append-only triggers (each statement safe to run again)
SQLITE_CLUB_LOG = (
    CLUB_LOG,
    "CREATE TRIGGER IF NOT EXISTS club_log_append_only_update BEFORE UPDATE ON club_log\n"
    "BEGIN SELECT RAISE(ABORT, 'the club log is append-only: UPDATE refused'); END",
    "CREATE TRIGGER IF NOT EXISTS club_log_append_only_delete BEFORE DELETE ON club_log\n"
    "BEGIN SELECT RAISE(ABORT, 'the club log is append-only: DELETE refused'); END",
)

#: PostgreSQL: the same (the function ``dominolog_append_only`` is the events' own)
PG_CLUB_LOG = (
    CLUB_LOG.replace("TEXT", 'text COLLATE "C"', 1).replace("TEXT", "text").replace("INTEGER", "integer"),
    "CREATE OR REPLACE TRIGGER club_log_append_only_update BEFORE UPDATE ON club_log "
    "FOR EACH ROW EXECUTE FUNCTION dominolog_append_only()",
    "CREATE OR REPLACE TRIGGER club_log_append_only_delete BEFORE DELETE ON club_log "
    "FOR EACH ROW EXECUTE FUNCTION dominolog_append_only()",
    "CREATE OR REPLACE TRIGGER club_log_append_only_truncate BEFORE TRUNCATE ON club_log "
    "FOR EACH STATEMENT EXECUTE FUNCTION dominolog_append_only()",
)


class ClubLogConflict(Exception):
    """The seq asked for is taken: another writer appended to the event first."""


def now_at() -> str:
    """The time, as the format writes ``at`` (RFC 3339, UTC, to the second)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class ClubLog:
    """The club events' logs (``store.club``; the store gives its methods by their names too), read
    and written through the store's connection and transactions."""

    #: the statements that make the table (the backend's)
    STATEMENTS: tuple[str, ...] = SQLITE_CLUB_LOG

    def __init__(self, core: Transactions) -> None:
        self.core = core
        self.conn = core.conn
        self._BYTE_ORDER = core._BYTE_ORDER

    def _has_club_log(self) -> bool:
        """Whether the store has the table (a store made before it, opened read-only, has not)."""
        return self.core.has_table(TABLE)

    def club_events(self) -> list[str]:
        """Every club event with a log, the most recently begun first."""
        if not self._has_club_log():
            return []
        rows = self.conn.execute(
            f"SELECT event FROM club_log WHERE seq = 1 ORDER BY at DESC, event{self._BYTE_ORDER}"
        ).fetchall()
        return [r[0] for r in rows]

    def club_records(self, event: str) -> list[dict[str, Any]]:
        """The event's records in order, each with its ``seq`` and ``at``."""
        if not self._has_club_log():
            return []
        rows = self.conn.execute("SELECT json FROM club_log WHERE event = ? ORDER BY seq", (event,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def append_club_record(self, event: str, record: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        """Store ``record`` as the event's next record (``seq``: the one it must take, else the next),
        stamped with ``seq`` and ``at``; the record as stored. :class:`ClubLogConflict` when the seq is
        taken."""
        with self.core.transaction():
            if not self._has_club_log():
                for sql in self.STATEMENTS:
                    self.conn.execute(sql)
            row = self.conn.execute("SELECT MAX(seq) FROM club_log WHERE event = ?", (event,)).fetchone()
            nxt = (row[0] or 0) + 1
            if seq is not None and seq != nxt:
                raise ClubLogConflict(f"the event's record {seq} is taken (the next is {nxt})")
            at = now_at()
            stored = {"type": record.get("type"), "seq": nxt, "at": at}
            stored.update((k, v) for k, v in record.items() if k not in stored)
            text = json.dumps(stored, ensure_ascii=False, separators=(",", ":"))
            try:
                self.conn.execute("INSERT INTO club_log VALUES (?, ?, ?, ?)", (event, nxt, text, at))
            except self.core._taken_errors:
                raise ClubLogConflict(f"the event's record {nxt} was taken by another writer") from None
        return stored

    def match_marks(self, match_id: str) -> dict[str, Any]:
        """What a club event asks of one of its matches, without reading it whole: how many deals
        and hands it has, how its ``match_end`` ended it (``None``: none; ``"abandoned"``; ``""``:
        played out), and the notes that say a player disagreed with a hand (:mod:`dominolog.club.agreement`)."""
        rows = self.conn.execute(
            "SELECT type, COUNT(*) FROM events WHERE match_id = ? AND type IN ('deal', 'hand_end') GROUP BY type",
            (match_id,),
        ).fetchall()
        counts = {r[0]: int(r[1]) for r in rows}
        end = self.conn.execute(
            "SELECT json FROM events WHERE match_id = ? AND type = 'match_end' ORDER BY seq LIMIT 1", (match_id,)
        ).fetchone()
        reason: str | None = None
        if end is not None:
            try:
                obj = json.loads(end[0])
            except ValueError:
                obj = {}
            reason = "abandoned" if isinstance(obj, dict) and obj.get("reason") == "abandoned" else ""
        disagreed = [
            r[0]
            for r in self.conn.execute(
                "SELECT json FROM events WHERE match_id = ? AND type = 'note' AND json LIKE ? ORDER BY seq LIMIT 100",
                (match_id, "%disagrees: hand %"),
            ).fetchall()
        ]
        return {
            "deals": counts.get("deal", 0),
            "hands": counts.get("hand_end", 0),
            "end": reason,
            "disagreed": disagreed,
        }

    def match_rows(self, match_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The ``matches`` rows of these matches (those stored), by id."""
        out: dict[str, dict[str, Any]] = {}
        for start in range(0, len(match_ids), 500):
            chunk = match_ids[start : start + 500]
            if not chunk:
                continue
            marks = ", ".join("?" for _ in chunk)
            cur = self.conn.execute(f"SELECT * FROM matches WHERE id IN ({marks})", chunk)
            cols = [c[0] for c in cur.description]
            for row in cur.fetchall():
                item = dict(zip(cols, row, strict=True))
                out[item["id"]] = item
        return out
