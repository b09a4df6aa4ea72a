"""Analyses kept in the store: a cache of ``dominolog analyze``, so reopening a match does not recompute.

One row per (match, head, analysis version, settings): the review as JSON (what ``analyze --format
json`` prints). The head is the match's head hash when it was analysed, so a match that has grown
since (an event appended) has no analysis until it is analysed again, and an analysis made by an
older version of the analysis (``version``) or with other settings (samples, seed, hands) is not
taken for this one. The table is derived data, not events: a row is replaced when the same key is
analysed again, and rows may be deleted (``dominolog`` never needs them; ``analyze --db`` fills it).

The table is created with a new store and added to an older one when it is opened writable; a
read-only store without it has no analyses. A row whose JSON was damaged behind the store's back
reads as no analysis.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from dominolog.store.transactions import Transactions

TABLE = "analyses"

ANALYSES = """
CREATE TABLE analyses (
    match_id TEXT NOT NULL,
    head TEXT NOT NULL,
    version TEXT NOT NULL,
    settings TEXT NOT NULL,
    analysed_at TEXT NOT NULL,
    review TEXT NOT NULL,
    PRIMARY KEY (match_id, head, version, settings)
)
""".strip()


def settings_text(settings: dict[str, Any]) -> str:
    """The settings as the key stores them: canonical JSON (sorted keys, no spaces)."""
    return json.dumps(settings, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _review(text: Any) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


class Analyses:
    """The store's analysis cache (``store.analyses``; the store gives its methods by their names too),
    read and written through the store's connection and transactions."""

    #: how a row is kept, replacing one with the same key (the backends' SQL differs)
    _SAVE_ANALYSIS = "INSERT OR REPLACE INTO analyses VALUES (?, ?, ?, ?, ?, ?)"

    def __init__(self, core: Transactions) -> None:
        self.core = core
        self.conn = core.conn
        self._BYTE_ORDER = core._BYTE_ORDER

    def _has_analyses(self) -> bool:
        """Whether the table is there (a SQLite store made before it, read-only, has none)."""
        return self.core.has_table(TABLE)

    def save_analysis(
        self, match_id: str, head: str, version: str, settings: dict[str, Any], review: dict[str, Any]
    ) -> None:
        """Keep ``review`` for the match at ``head`` (replacing one with the same version and settings)."""
        text = json.dumps(review, ensure_ascii=False, separators=(",", ":"))
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self.core.transaction():
            if not self._has_analyses():
                self.conn.execute(ANALYSES)
            self.conn.execute(
                self._SAVE_ANALYSIS,
                (match_id, head, version, settings_text(settings), now, text),
            )

    def analysis(self, match_id: str, head: str, version: str, settings: dict[str, Any]) -> dict[str, Any] | None:
        """The review kept for exactly this match head, version and settings, or None."""
        if not self._has_analyses():
            return None
        row = self.conn.execute(
            "SELECT review FROM analyses WHERE match_id = ? AND head = ? AND version = ? AND settings = ?",
            (match_id, head, version, settings_text(settings)),
        ).fetchone()
        return None if row is None else _review(row[0])

    def analyses_of(self, match_id: str, head: str, version: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Every review kept for the match at ``head`` with this version, newest first, each with its
        settings."""
        if not self._has_analyses():
            return []
        out = []
        for settings, text in self.conn.execute(
            "SELECT settings, review FROM analyses WHERE match_id = ? AND head = ? AND version = ? "
            f"ORDER BY analysed_at{self._BYTE_ORDER} DESC, settings{self._BYTE_ORDER}",
            (match_id, head, version),
        ):
            review, keys = _review(text), _review(settings)
            if review is not None and keys is not None:
                out.append((keys, review))
        return out

    def newest_analysis(
        self, match_id: str, version: str, settings: dict[str, Any]
    ) -> tuple[str, int, dict[str, Any]] | None:
        """The kept review of the match with this version and settings made at its latest head (the
        head's seq the greatest), as ``(head, seq, review)``; None when none is kept."""
        if not self._has_analyses():
            return None
        rows = self.conn.execute(
            "SELECT a.head, e.seq, a.review FROM analyses AS a JOIN events AS e "
            "ON e.match_id = a.match_id AND e.hash = a.head "
            "WHERE a.match_id = ? AND a.version = ? AND a.settings = ? ORDER BY e.seq DESC",
            (match_id, version, settings_text(settings)),
        )
        for head, seq, text in rows:
            review = _review(text)
            if review is not None:
                return head, seq, review
        return None
