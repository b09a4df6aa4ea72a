"""The PostgreSQL store's tables, and how a database is opened: connected to (psycopg imported only
here), recognised as ours (``dominolog_meta``) or refused, given the tables when it has none.

The tables are SQLite's (:mod:`dominolog.store.opening`) in PostgreSQL's types: ``raw`` is ``bytea``,
the counts ``integer``; JSON is kept as text, exactly as the store wrote it. The match id columns are
in the "C" collation (the order of their bytes, SQLite's), whatever the database's own: the store's
queries ask for that order (``COLLATE "C"``), which the primary keys' indexes then give (a store made
before had them in the database's collation: the same order, by a sort). ``events`` refuses UPDATE,
DELETE and TRUNCATE from a trigger (whoever asks, its owner too, unless a superuser or the owner
disables the triggers), and those privileges are revoked from PUBLIC. The views ``hand_scores`` and
``standings`` (:mod:`dominolog.store.pgviews`, SQLite's in PostgreSQL's SQL) are made with the
tables, and added to a store made before them when a role that may create in its schema opens it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote, urlsplit

from dominolog.store.access import ACCESS_TABLES, added_columns
from dominolog.store.access import TABLE_NAMES as ACCESS_NAMES
from dominolog.store.analyses import ANALYSES
from dominolog.store.clublog import PG_CLUB_LOG
from dominolog.store.clublog import TABLE as CLUB_TABLE
from dominolog.store.errors import DamagedStoreError, ReadOnlyError, StoreError, version_refusal
from dominolog.store.pgviews import FUNCTIONS, VIEW_NAMES, VIEWS
from dominolog.store.rows import matches_added
from dominolog.store.store import BUSY_SECONDS
from dominolog.store.target import redacted
from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.store.pgconn import PgConnection

SCHEMA_VERSION = "1"
APP = "dominolog"
#: the tables a store has (more may be added by a later version)
TABLES = ("dominolog_meta", "events", "matches", "hands", "imports", "analyses")
#: the advisory lock taken while the tables are made (two first writers take turns)
SCHEMA_LOCK = 0x446D4C67  # "DmLg"

SCHEMA = (
    """
CREATE TABLE dominolog_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE events (
    match_id text COLLATE "C" NOT NULL,
    seq integer NOT NULL CHECK (seq >= 1),
    type text,
    player text,
    tile text,
    json text NOT NULL,
    raw bytea,
    at text,
    hash text NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE FUNCTION dominolog_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION dominolog_append_only();
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION dominolog_append_only();
CREATE TRIGGER events_append_only_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION dominolog_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON events FROM PUBLIC;
GRANT SELECT ON dominolog_meta TO PUBLIC;
CREATE TABLE matches (
    id text COLLATE "C" PRIMARY KEY,
    variant text,
    players text,
    meta text,
    status text NOT NULL,
    complete integer NOT NULL,
    head text NOT NULL,
    totals text,
    winner text,
    hands integer NOT NULL,
    events integer NOT NULL,
    violations integer NOT NULL,
    unverified integer NOT NULL,
    last_at text
);
CREATE INDEX matches_head ON matches (head);
CREATE TABLE hands (
    match_id text COLLATE "C" NOT NULL,
    number integer NOT NULL,
    "end" text NOT NULL,
    winner text,
    points text NOT NULL,
    PRIMARY KEY (match_id, number)
);
CREATE TABLE imports (
    match_id text COLLATE "C" NOT NULL,
    source text NOT NULL,
    line integer NOT NULL,
    imported_at text NOT NULL
);
"""
    + ANALYSES.replace("TEXT", "text").replace("match_id text", 'match_id text COLLATE "C"', 1)
    + ";\n"
    + FUNCTIONS
    + "\n".join(VIEWS)
    + "\n"
    + "".join(f"{sql.replace('TEXT', 'text').replace('INTEGER', 'integer')};\n" for sql in ACCESS_TABLES)
    + "".join(f"{sql};\n" for sql in PG_CLUB_LOG)
)


def _password(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        given = dict(parse_qsl(parts.query)).get("password")
        return unquote(parts.password) if parts.password else given
    except ValueError:
        return None


def _said(exc: BaseException, url: str) -> str:
    """What the driver or the server said, on one line, without the URL's password."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    secret = _password(url)
    if secret:
        text = text.replace(secret, "***")
    return shown(text, 400)


def _quiet_driver() -> None:
    """psycopg logs what it ignores while it fails (``error ignored terminating <psycopg.Pipeline [BAD]>``
    when the server stops under an import): the error it raises is the one the user is told, once, so
    its log goes nowhere unless the program that uses the store configures logging itself (a
    :class:`logging.NullHandler`, as a library should; Python would print it on stderr otherwise)."""
    log = logging.getLogger("psycopg")
    if not any(isinstance(h, logging.NullHandler) for h in log.handlers):
        log.addHandler(logging.NullHandler())


def connect(url: str) -> tuple[PgConnection, str]:
    """A connection to the database ``url`` and its name for messages, or :class:`StoreError`."""
    name = redacted(url)
    try:
        import psycopg
    except ImportError:
        raise StoreError(f"{name}: a PostgreSQL store needs psycopg 3: pip install 'dominolog[postgres]'") from None
    from dominolog.store.pgconn import PgConnection

    _quiet_driver()

    try:
        raw = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        raise StoreError(f"{name}: cannot connect to the PostgreSQL server ({_said(exc, url)})") from None
    try:
        raw.execute("SET synchronous_commit = on")  # durable on commit, whatever the server's default
        raw.execute(f"SET lock_timeout = {int(BUSY_SECONDS * 1000)}")
    except psycopg.Error as exc:
        raw.close()
        raise StoreError(f"{name}: cannot use the database ({_said(exc, url)})") from None
    return PgConnection(raw), name


def prepare(conn: PgConnection, name: str, create: bool, write: bool) -> bool:
    """Recognise the database as a store (or refuse it), give it the tables if it has none and may,
    and say whether it is read-only here (the role may not insert events)."""
    import psycopg

    try:
        found = _tables(conn)
        if found and "dominolog_meta" not in found:
            listed = ", ".join(sorted(found)[:5])
            raise StoreError(f"{name}: a database of another program (tables: {shown(listed)}), not a dominolog store")
        if not found:
            if not create:
                raise StoreError(f"{name}: no dominolog store in this database (import something first)")
            _create(conn)
            found = _tables(conn)
        missing = [t for t in TABLES if t not in found]
        if missing:
            raise DamagedStoreError(
                f"{name}: the store is damaged (no table {', '.join(missing)}); nothing was written"
            )
        meta = dict(conn.execute("SELECT key, value FROM dominolog_meta").fetchall())
        refused = version_refusal(name, meta, APP, SCHEMA_VERSION)
        if refused is not None:
            raise refused
        can_insert = conn.execute("SELECT has_table_privilege('events', 'INSERT')").fetchone()[0]
    except psycopg.Error as exc:
        raise StoreError(f"{name}: cannot use the database ({_said(exc, '')})") from None
    if write and not can_insert:
        raise ReadOnlyError(f"{name}: the store is read-only for this role (no INSERT on events); nothing was written")
    if can_insert:
        _add_views(conn)
        _add_access(conn)
    return not can_insert


def _tables(conn: PgConnection) -> set[str]:
    # (pg_tables lists them all; information_schema only those this role may use)
    rows = conn.execute("SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()").fetchall()
    return {r[0] for r in rows}


def _names(conn: PgConnection) -> set[str]:
    """The names of the tables, views, indexes, sequences ... in the store's schema."""
    rows = conn.execute(
        "SELECT c.relname FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema()"
    ).fetchall()
    return {r[0] for r in rows}


def _roll_back_quietly(conn: PgConnection) -> None:
    """End a schema change the database refused: it is left for a later opening (the store's tables
    are what matters), so a failed ROLLBACK too is left to the connection's end."""
    import psycopg

    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except psycopg.Error:
        pass


def _add_views(conn: PgConnection) -> None:
    """Give a store made before the views (:mod:`dominolog.store.pgviews`) the views it lacks, with their
    functions, in one short transaction, as SQLite's store gets them (:mod:`dominolog.store.opening`).
    A name taken already (a table or view of the user's) is left alone; and the whole is left for a
    later opening when this role may not create in the schema, while another session is making them,
    or when the database refuses (the store's tables are what matters)."""
    import psycopg

    try:
        if all(name in _names(conn) for name in VIEW_NAMES):
            return
        if not conn.execute("SELECT has_schema_privilege(current_schema(), 'CREATE')").fetchone()[0]:
            return
        conn.execute("BEGIN")
        if conn.execute(f"SELECT pg_try_advisory_xact_lock({SCHEMA_LOCK})").fetchone()[0]:
            taken = _names(conn)
            conn.execute(FUNCTIONS)
            for name, sql in zip(VIEW_NAMES, VIEWS, strict=True):
                if name not in taken:
                    conn.execute(sql)
        conn.execute("COMMIT")
    except psycopg.Error:
        _roll_back_quietly(conn)


def _add_access(conn: PgConnection) -> None:
    """Give a store made before them the tables of :mod:`dominolog.store.access` (tokens, idempotent
    answers), the columns added to them since, and the club events' logs (:mod:`dominolog.store.clublog`);
    left for a later opening when the role may not create them."""
    import psycopg

    try:
        tables = _tables(conn)
        if set(ACCESS_NAMES) <= tables and CLUB_TABLE in tables and not added_columns(conn) and not matches_added(conn):
            return
        conn.execute("BEGIN")
        conn.execute(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
        for sql in ACCESS_TABLES:
            conn.execute(sql)
        for sql in added_columns(conn):  # (looked at again under the lock: another server may have added them)
            conn.execute(sql.replace("TEXT", "text"))
        for sql in matches_added(conn):  # the columns added to `matches` since, filled from the events
            conn.execute(sql.replace("TEXT", "text"))
        if CLUB_TABLE not in _tables(conn):
            for sql in PG_CLUB_LOG:
                conn.execute(sql)
        conn.execute("COMMIT")
    except psycopg.Error:
        _roll_back_quietly(conn)


def _create(conn: PgConnection) -> None:
    """The tables, in one transaction, under an advisory lock: a second first writer waits, then finds
    them made."""
    conn.execute("BEGIN")
    try:
        conn.execute(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
        if not _tables(conn):
            conn.execute(SCHEMA)
            conn.execute("INSERT INTO dominolog_meta VALUES ('app', ?), ('schema_version', ?)", (APP, SCHEMA_VERSION))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
