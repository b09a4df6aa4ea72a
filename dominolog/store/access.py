"""Who may write, kept in the store: access tokens and the answers of idempotent requests
(``dominolog serve``, ``dominolog token``). Neither is an event: they are not part of any match.

``tokens``: one row per token, its SHA-256 hash only (the token itself is shown once, when made, and
never stored), its role (``organiser``: creates matches and issues tokens; ``table``: appends to its
own match), the match of a table's token, who made it and when, when it was revoked. A token is
256 random bits from :mod:`secrets`; it is looked up by its hash and the hashes compared in
constant time (:func:`hmac.compare_digest`).

``idempotency``: the answer (status and body) given to a write sent with an ``Idempotency-Key``,
by the token that sent it and the key, so that a retry gets the first answer instead of storing the
events again, across a restart of the server. A key is taken (a row without an answer) before the
events are written and given its answer after: a retry that finds it taken but unanswered (the
first request still running, or cut short by a crash) is told so rather than stored twice.

The tables are made with a new store and added to an older one when it is opened writable, as the
analysis cache is (:mod:`dominolog.store.opening`, :mod:`dominolog.store.pgschema`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

TOKENS = """
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    match_id TEXT,
    who TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
)
""".strip()

IDEMPOTENCY = """
CREATE TABLE IF NOT EXISTS idempotency (
    token_id TEXT NOT NULL,
    key TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (token_id, key)
)
""".strip()

#: the statements that give a store the tables (each one safe to run again)
ACCESS_TABLES = (TOKENS, IDEMPOTENCY)
TABLE_NAMES = ("tokens", "idempotency")
ROLES = ("organiser", "table")
#: how long an Idempotency-Key may be
KEY_LIMIT = 200


def token_hash(token: str) -> str:
    """The SHA-256 of a token, as stored (hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> str:
    """The time, to the microsecond (tokens are listed in the order they were made)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(slots=True, frozen=True)
class Token:
    """A token as stored (never the token itself)."""

    id: str
    role: str
    match_id: str | None
    who: str
    created_at: str
    revoked_at: str | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "role": self.role,
            "match": self.match_id,
            "who": self.who,
            "created_at": self.created_at,
            "revoked_at": self.revoked_at,
        }


class TakenKey(Exception):
    """An Idempotency-Key taken by a request that has no answer yet (running, or cut short)."""


class Access:
    """The store's tokens and idempotent answers (mixed into :class:`~dominolog.store.store.Store`)."""

    conn: Any

    def _write(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _ensure_access(self) -> None:
        """The tables, if this store was made before them (inside a write transaction)."""
        for sql in ACCESS_TABLES:
            self.conn.execute(sql)

    def _has_access(self) -> bool:
        return True

    # -- tokens ---------------------------------------------------------------------------
    def create_token(self, role: str, match_id: str | None = None, who: str = "") -> tuple[Token, str]:
        """A new token (the row, and the token itself: shown once, never stored)."""
        if role not in ROLES:
            raise ValueError(f"no role {role!r}: {', '.join(ROLES)}")
        if (role == "table") != (match_id is not None):
            raise ValueError("a table's token names its match; an organiser's names none")
        secret = secrets.token_urlsafe(32)  # 256 bits
        row = Token(f"t-{secrets.token_hex(4)}", role, match_id, who, _now(), None)
        with self._write():
            self._ensure_access()
            self.conn.execute(
                "INSERT INTO tokens VALUES (?, ?, ?, ?, ?, ?, ?)",
                (row.id, token_hash(secret), row.role, row.match_id, row.who, row.created_at, None),
            )
        return row, secret

    def tokens(self) -> list[Token]:
        """Every token made, in the order they were made."""
        if not self._has_access():
            return []
        rows = self.conn.execute(
            "SELECT id, role, match_id, who, created_at, revoked_at FROM tokens ORDER BY created_at, id"
        ).fetchall()
        return [Token(*r) for r in rows]

    def find_token(self, token: str) -> Token | None:
        """The stored token ``token`` is (revoked or not), or None. Looked up by its hash, the hashes
        compared in constant time."""
        if not self._has_access() or not token:
            return None
        digest = token_hash(token)
        row = self.conn.execute(
            "SELECT id, role, match_id, who, created_at, revoked_at, hash FROM tokens WHERE hash = ?", (digest,)
        ).fetchone()
        if row is None or not hmac.compare_digest(row[6], digest):
            return None
        return Token(*row[:6])

    def revoke_token(self, token_or_id: str) -> Token | None:
        """Revoke a token given by itself or by its id; the row as it was (None: no such token)."""
        if not self._has_access():
            return None
        found = self.find_token(token_or_id)
        if found is None:
            row = self.conn.execute(
                "SELECT id, role, match_id, who, created_at, revoked_at FROM tokens WHERE id = ?", (token_or_id,)
            ).fetchone()
            found = Token(*row) if row is not None else None
        if found is None:
            return None
        if found.revoked_at is None:
            with self._write():
                self.conn.execute(
                    "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (_now(), found.id)
                )
        return found

    def has_organiser(self) -> bool:
        """Whether an organiser's token exists that is not revoked."""
        if not self._has_access():
            return False
        row = self.conn.execute(
            "SELECT 1 FROM tokens WHERE role = 'organiser' AND revoked_at IS NULL LIMIT 1"
        ).fetchone()
        return row is not None

    # -- idempotent answers ------------------------------------------------------------------
    def answer_of(self, token_id: str, key: str) -> tuple[int, str] | None:
        """The answer given to the request with this key (status, body); :class:`TakenKey` when the
        key is taken but has no answer; None when it is not taken."""
        row = self.conn.execute(
            "SELECT status, body FROM idempotency WHERE token_id = ? AND key = ?", (token_id, key)
        ).fetchone()
        if row is None:
            return None
        if row[0] is None:
            raise TakenKey(key)
        return int(row[0]), row[1]

    def take_key(self, token_id: str, key: str) -> tuple[int, str] | None:
        """Take the key for a request about to run: None when it is now this request's, else the answer
        given before (:class:`TakenKey`: taken, no answer yet)."""
        with self._write():
            self._ensure_access()
            before = self.answer_of(token_id, key)
            if before is not None:
                return before
            self.conn.execute("INSERT INTO idempotency VALUES (?, ?, ?, ?, ?)", (token_id, key, None, None, _now()))
        return None

    def keep_answer(self, token_id: str, key: str, status: int, body: str) -> None:
        """The answer of the request that took the key."""
        with self._write():
            self.conn.execute(
                "UPDATE idempotency SET status = ?, body = ? WHERE token_id = ? AND key = ?",
                (status, body, token_id, key),
            )

    def release_key(self, token_id: str, key: str) -> None:
        """Give a key back (its request wrote nothing, and failed for a reason a retry may not meet)."""
        with self._write():
            self.conn.execute(
                "DELETE FROM idempotency WHERE token_id = ? AND key = ? AND status IS NULL", (token_id, key)
            )
