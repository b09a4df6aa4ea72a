"""Who may write, kept in the store: access tokens and the answers of idempotent requests
(``dominolog serve``, ``dominolog token``). Neither is an event: they are not part of any match.

``tokens``: one row per token, its SHA-256 hash only (the token itself is shown once, when made, and
never stored), its role (``organiser``: creates matches and issues tokens; ``table``: appends to its
own match; ``viewer``: a viewing key, reads private events and never writes), its scope in
``match_id`` (a table's match; a viewing key's event, NULL for every event), who made it and when,
when it was revoked. A token is
256 random bits from :mod:`secrets`; it is looked up by its hash and the hashes compared in
constant time (:func:`hmac.compare_digest`).

``idempotency``: the answer (status and body) given to a write sent with an ``Idempotency-Key``,
by the token that sent it and the key, so that a retry gets the first answer instead of storing the
events again, across a restart of the server; with the request's ``fingerprint`` (its method, its path
and query, the SHA-256 of its body: :func:`fingerprint`), so that the key sent with another request is
refused (:class:`ReusedKey`) rather than answered with the first request's answer. A key is kept
:data:`KEY_SECONDS` (a day): an older one is forgotten, and a request with it is a new request.
The row and its answer are written in the same
transaction as the request's events (``dominolog serve``: :meth:`Access.lock_key`,
:meth:`Access.answer_of`, the appends, :meth:`Access.keep_answer`, one commit): a crash leaves both
or neither, so a retry after a crash finds the first answer, or stores the events once. A second
request with the key while the first runs waits for it (the write lock; PostgreSQL: a lock on the
key) and gets its answer. (A row without an answer was left by an older server cut short between
its two transactions: a retry is told so rather than risk storing twice.)

``private_events``: the club events (``match_start.meta.event``) the organiser made private, ``*``
for every match; a private match is read only with a viewing key, the organiser's token or its
table's token (:func:`dominolog.web.auth.sight`).

The tables are made with a new store and added to an older one when it is opened writable, as the
analysis cache is (:mod:`dominolog.store.opening`, :mod:`dominolog.store.pgschema`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from dominolog.store.transactions import Transactions

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
    fingerprint TEXT,
    PRIMARY KEY (token_id, key)
)
""".strip()
#: the columns added to ``idempotency`` since it was first made: given to an older store as it is opened
#: writable (or at its first keyed write), as the tables are
IDEMPOTENCY_ADDED = (("fingerprint", "TEXT"),)

PRIVATE_EVENTS = """
CREATE TABLE IF NOT EXISTS private_events (
    event TEXT PRIMARY KEY,
    who TEXT NOT NULL,
    made_at TEXT NOT NULL
)
""".strip()

#: the statements that give a store the tables (each one safe to run again)
ACCESS_TABLES = (TOKENS, IDEMPOTENCY, PRIVATE_EVENTS)
TABLE_NAMES = ("tokens", "idempotency", "private_events")
ROLES = ("organiser", "table", "viewer")
#: the private "event" that makes every match private (a private evening)
EVERY_EVENT = "*"
#: how long an event's name may be
EVENT_LIMIT = 200
#: how long an Idempotency-Key may be
KEY_LIMIT = 200
#: how long an Idempotency-Key is kept (seconds): a request with an older one is a new request
KEY_SECONDS = 24 * 3600


def token_hash(token: str) -> str:
    """The SHA-256 of a token, as stored (hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _now(ago: float = 0.0) -> str:
    """The time (``ago`` seconds before now), to the microsecond (tokens are listed in the order they
    were made): text that sorts as the times do."""
    return (datetime.now(UTC) - timedelta(seconds=ago)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def fingerprint(method: str, target: str, body: bytes) -> str:
    """What tells one request from another under one Idempotency-Key: its method, its target (path and
    query, as sent) and the SHA-256 of its body."""
    return f"{method.upper()} {target} {hashlib.sha256(body).hexdigest()}"


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

    @property
    def event(self) -> str | None:
        """The event a viewing key reads (None: every event, or not a viewing key)."""
        return self.match_id if self.role == "viewer" else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "role": self.role,
            "match": self.match_id if self.role == "table" else None,
            "event": self.event,
            "who": self.who,
            "created_at": self.created_at,
            "revoked_at": self.revoked_at,
        }


def event_in(meta: Any) -> str | None:
    """The ``event`` of a match's meta (a dict, or its JSON text), when it is a string."""
    if isinstance(meta, str):
        try:
            meta = json.loads(meta)
        except ValueError:
            return None
    event = meta.get("event") if isinstance(meta, dict) else None
    return event if isinstance(event, str) else None


class TakenKey(Exception):
    """An Idempotency-Key taken by a request that has no answer (cut short, by a server older than the
    one transaction for the key and the events)."""


class ReusedKey(Exception):
    """An Idempotency-Key sent with another request than the one it was first sent with (another
    method, path, query or body)."""


@dataclass(frozen=True, slots=True)
class WriteView:
    """What a write is checked against (:meth:`Access.write_view`)."""

    #: the match has events
    stored: bool
    #: the token given, as stored (revoked or not); None: none given, or not known
    token: Token | None
    #: the club events made private (``*``: every match)
    private: frozenset[str]
    #: the match's club event (read only when some event is private)
    event: str | None


class Access:
    """The store's tokens, private events and idempotent answers (``store.access``; the store gives its
    methods by their names too), read and written through the store's connection and transactions."""

    def __init__(self, core: Transactions) -> None:
        self.core = core
        self.conn = core.conn
        #: whether ``idempotency`` has its added columns (known once seen)
        self._key_columns_seen = False

    def _ensure_access(self) -> None:
        """The tables, if this store was made before them (inside a write transaction)."""
        for sql in ACCESS_TABLES:
            self.conn.execute(sql)
        if not self._key_columns_seen:
            for sql in added_columns(self.conn):
                self.conn.execute(sql)
            self._key_columns_seen = True

    def _has_access(self) -> bool:
        return self.core.has_table("tokens")

    def _has_private(self) -> bool:
        return self.core.has_table("private_events")

    # -- tokens ---------------------------------------------------------------------------
    def create_token(self, role: str, match_id: str | None = None, who: str = "") -> tuple[Token, str]:
        """A new token (the row, and the token itself: shown once, never stored). ``match_id``: a
        table's match, or the event a viewing key reads (None: every event)."""
        if role not in ROLES:
            raise ValueError(f"no role {role!r}: {', '.join(ROLES)}")
        if (role == "table" and match_id is None) or (role == "organiser" and match_id is not None):
            raise ValueError("a table's token names its match; an organiser's names none")
        if role == "viewer" and match_id == EVERY_EVENT:
            match_id = None  # (a viewing key of every event)
        secret = secrets.token_urlsafe(32)  # 256 bits
        row = Token(f"t-{secrets.token_hex(4)}", role, match_id, who, _now(), None)
        with self.core.transaction():
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
            with self.core.transaction():
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

    # -- private events -----------------------------------------------------------------------
    def write_view(self, match_id: str, token: str | None, lock: bool = False) -> WriteView:
        """What a write to ``match_id`` with ``token`` is checked against (``serve``'s
        :func:`~dominolog.web.auth.write_target`), read in the caller's transaction: whether the match is
        stored, the token's row (:meth:`find_token`), the private events, and the match's club event
        (None when no event is private: it is not needed then). ``lock``: the write will append to the
        match (a backend that locks matches may take its lock now: PostgreSQL's)."""
        stored = self.core.has_match(match_id)
        found = self.find_token(token) if token is not None else None
        private = frozenset(self.private_events())
        return WriteView(stored, found, private, self.event_of(match_id) if private and stored else None)

    def private_events(self) -> set[str]:
        """The events made private (``*``: every match)."""
        if not self._has_private():
            return set()
        return {r[0] for r in self.conn.execute("SELECT event FROM private_events").fetchall()}

    def set_private(self, event: str, private: bool, who: str = "") -> bool:
        """Make ``event`` private (or public again); whether that changed anything."""
        if not event or len(event) > EVENT_LIMIT:
            raise ValueError(f"an event's name is 1 to {EVENT_LIMIT} characters")
        with self.core.transaction():
            self._ensure_access()
            was = self.conn.execute("SELECT 1 FROM private_events WHERE event = ?", (event,)).fetchone() is not None
            if private and not was:
                self.conn.execute("INSERT INTO private_events VALUES (?, ?, ?)", (event, who, _now()))
            elif not private and was:
                self.conn.execute("DELETE FROM private_events WHERE event = ?", (event,))
        return was != private

    def event_of(self, match_id: str) -> str | None:
        """The club event the match belongs to (its ``match_start.meta.event``), or None."""
        row = self.conn.execute("SELECT meta FROM matches WHERE id = ?", (match_id,)).fetchone()
        return event_in(row[0] if row is not None else None)

    # -- idempotent answers ------------------------------------------------------------------
    def answer_of(self, token_id: str, key: str, request: str | None = None) -> tuple[int, str] | None:
        """The answer given to the request with this key (status, body), kept less than
        :data:`KEY_SECONDS`; :class:`TakenKey` when the key is taken but has no answer,
        :class:`ReusedKey` when it was taken by a request whose :func:`fingerprint` is not ``request``
        (a row kept before fingerprints were: taken as the same request); None when it is not taken."""
        row = self.conn.execute(
            "SELECT status, body, created_at, "
            + ("fingerprint" if self._keeps_fingerprints() else "NULL")
            + " FROM idempotency WHERE token_id = ? AND key = ?",
            (token_id, key),
        ).fetchone()
        if row is None or row[2] < _now(KEY_SECONDS):
            return None
        if row[0] is None:
            raise TakenKey(key)
        if request is not None and row[3] is not None and row[3] != request:
            raise ReusedKey(key)
        return int(row[0]), row[1]

    def _keeps_fingerprints(self) -> bool:
        """Whether ``idempotency`` has its column ``fingerprint`` (a store opened read-only, or one whose
        tables could not be given it yet, may not)."""
        if not self._key_columns_seen:
            self._key_columns_seen = not added_columns(self.conn)
        return self._key_columns_seen

    def lock_key(self, token_id: str, key: str) -> None:
        """Keep another request with the same key waiting until this write transaction ends, so that
        it finds this one's answer (SQLite: the file's write lock does already; PostgreSQL: a lock of
        its own)."""

    def keep_answer(self, token_id: str, key: str, status: int, body: str, request: str | None = None) -> None:
        """The answer of the request with this key (and its :func:`fingerprint`, ``request``), written
        in the transaction of its events (with :meth:`~dominolog.store.store.Store.transaction`:
        committed with them, or not at all). The token's keys older than :data:`KEY_SECONDS` are
        forgotten."""
        with self.core.transaction():
            self._ensure_access()
            self.conn.execute(
                "DELETE FROM idempotency WHERE token_id = ? AND created_at < ?", (token_id, _now(KEY_SECONDS))
            )
            self.conn.execute(
                "INSERT INTO idempotency (token_id, key, status, body, created_at, fingerprint) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (token_id, key) DO UPDATE SET status = excluded.status, "
                "body = excluded.body, created_at = excluded.created_at, fingerprint = excluded.fingerprint",
                (token_id, key, status, body, _now(), request),
            )


def added_columns(conn: Any) -> list[str]:
    """The statements that give an ``idempotency`` table made before them its :data:`IDEMPOTENCY_ADDED`
    columns (none when it has them, or when there is no such table yet)."""
    try:
        cursor = conn.execute("SELECT * FROM idempotency LIMIT 0")
    except Exception:  # (no such table: it is made whole, with them)
        return []
    have = {d[0] for d in cursor.description}
    return [f"ALTER TABLE idempotency ADD COLUMN {name} {kind}" for name, kind in IDEMPOTENCY_ADDED if name not in have]
