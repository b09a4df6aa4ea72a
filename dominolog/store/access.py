"""Who may write, kept in the store: access tokens and the answers of idempotent requests
(``dominolog serve``, ``dominolog token``). Neither is an event: they are not part of any match.

``tokens``: one row per token, its SHA-256 hash only (the token itself is shown once, when made, and
never stored), its role (``organiser``: creates matches and issues tokens; ``table``: appends to its
own match), the match of a table's token, who made it and when, when it was revoked. A token is
256 random bits from :mod:`secrets`; it is looked up by its hash and the hashes compared in
constant time (:func:`hmac.compare_digest`).

``idempotency``: the answer (status and body) given to a write sent with an ``Idempotency-Key``,
by the token that sent it and the key, so that a retry gets the first answer instead of storing the
events again, across a restart of the server. The row and its answer are written in the same
transaction as the request's events (``dominolog serve``: :meth:`Access.lock_key`,
:meth:`Access.answer_of`, the appends, :meth:`Access.keep_answer`, one commit): a crash leaves both
or neither, so a retry after a crash finds the first answer, or stores the events once. A second
request with the key while the first runs waits for it (the write lock; PostgreSQL: a lock on the
key) and gets its answer. (A row without an answer was left by an older server cut short between
its two transactions: a retry is told so rather than risk storing twice.)

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
    """An Idempotency-Key taken by a request that has no answer (cut short, by a server older than the
    one transaction for the key and the events)."""


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

    def lock_key(self, token_id: str, key: str) -> None:
        """Keep another request with the same key waiting until this write transaction ends, so that
        it finds this one's answer (SQLite: the file's write lock does already; PostgreSQL: a lock of
        its own)."""

    def keep_answer(self, token_id: str, key: str, status: int, body: str) -> None:
        """The answer of the request with this key, written in the transaction of its events (with
        :meth:`~dominolog.store.store.Store.transaction`: committed with them, or not at all)."""
        with self._write():
            self._ensure_access()
            self.conn.execute(
                "INSERT INTO idempotency VALUES (?, ?, ?, ?, ?) ON CONFLICT (token_id, key) "
                "DO UPDATE SET status = excluded.status, body = excluded.body",
                (token_id, key, status, body, _now()),
            )
