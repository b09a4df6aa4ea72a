"""Opening a store: a ``postgresql://`` URL is a PostgreSQL database (:mod:`dominolog.store.postgres`,
psycopg imported only then); anything else is a SQLite file, opened only if it is ours, whole, and
writable when the command writes.

Nothing is written to a file that is not ours: a FIFO, a device or a folder is refused from its file
type, another program's database from its ``application_id`` (ours is "DmLg") or its tables, a
damaged one from SQLite's ``quick_check``, all before the first write. A store whose file or folder
cannot be written is read as immutable (no ``-wal``/``-shm`` left behind; the trade-off: no locks,
so a writer that could still change it, such as root, is not seen). A new store gets the schema
below, in WAL mode with ``synchronous=FULL``, the views of :mod:`dominolog.store.views` and the
analysis cache of :mod:`dominolog.store.analyses`; a store made before the views or the cache gets
them the first time it is opened writable (one short write transaction, skipped while another
writer holds the store); a read-only one is left as it is.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from dominolog.store.access import ACCESS_TABLES, added_columns
from dominolog.store.access import TABLE_NAMES as ACCESS_NAMES
from dominolog.store.analyses import ANALYSES
from dominolog.store.analyses import TABLE as ANALYSES_TABLE
from dominolog.store.clublog import SQLITE_CLUB_LOG
from dominolog.store.clublog import TABLE as CLUB_TABLE
from dominolog.store.errors import DamagedStoreError, ReadOnlyError, StoreError, cannot_open, version_refusal
from dominolog.store.rows import matches_added
from dominolog.store.sqlite import SqliteStore, table_names
from dominolog.store.store import BUSY_SECONDS, Store
from dominolog.store.target import is_url
from dominolog.store.views import VIEW_NAMES, VIEWS
from dominolog.textsafe import shown

SCHEMA_VERSION = "1"
APP = "dominolog"
SQLITE_HEADER = b"SQLite format 3\x00"
#: the files (device, inode) this process holds connections to, and how many: their header is not read
#: while it does. Closing a file descriptor drops every POSIX lock the process holds on that file,
#: SQLite's too: another process could then take a store that this one still uses (a server's other
#: connections) as unused, and remove its ``-wal`` and ``-shm`` under them (their later commits lost,
#: then "disk I/O error"). Once the last is closed, the header is read again at the next opening (the
#: file may have been replaced, or its inode given to another file).
_HELD: dict[tuple[int, int], int] = {}
#: taken to read a header, and to make a connection that is not yet counted in :data:`_HELD`: no thread
#: of this process reads a header while another one is opening a connection to that file
_OPENING = threading.Lock()
#: PRAGMA application_id of a dominolog store: the bytes "DmLg" (stores made before it have 0)
APPLICATION_ID = int.from_bytes(b"DmLg", "big")
#: the page size of a new store (SQLite's default is 4096). A row of ``events`` is about 300 bytes, more
#: than the twentieth of a 4 KiB page that SQLite advises for a ``WITHOUT ROWID`` table's rows; on 8 KiB
#: pages an import's writes cost less (bench/RESULTS.md, issue 39). A store keeps the size it was made
#: with: any SQLite reads either, so this is no change of the store's format.
PAGE_SIZE = 8192

SCHEMA = (
    """
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
    unverified INTEGER NOT NULL,
    last_at TEXT
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
    + ANALYSES
    + ";\n"
    + "\n".join(VIEWS)
    + "\n"
    + "".join(f"{sql};\n" for sql in ACCESS_TABLES)
    + "".join(f"{sql};\n" for sql in SQLITE_CLUB_LOG)
)


def open_store(path: Path | str, create: bool = True, write: bool | None = None) -> Store:
    """Open (or, with ``create``, create) the store at ``path``, a SQLite file or a ``postgresql://``
    URL (:func:`dominolog.store.postgres.open_postgres`); :class:`StoreError` with a clear message
    if it cannot be used. ``write`` (default: ``create``) says whether the command will write: a store
    that cannot be written is then refused (:class:`ReadOnlyError`) before anything happens.

    Nothing is written to a file that is not ours: a FIFO, a device or a folder is refused from its
    file type, another program's database from its ``application_id`` or its tables, a damaged one
    from SQLite's ``quick_check``, all before the first write. A store whose file or folder cannot be
    written (read-only media, permissions) is read as immutable, leaving no ``-wal``/``-shm`` behind.
    """
    write = create if write is None else write
    if is_url(path):
        from dominolog.store.postgres import open_postgres

        return open_postgres(str(path), create=create, write=write)
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise StoreError(f"{p}: cannot use it: {exc.strerror or exc}") from None
    if st is None:
        if not create:
            raise StoreError(f"{p}: no such database (import something first)")
        if _read_only_folder(p):
            raise ReadOnlyError(f"{p}: the folder is read-only: cannot create the store there")
    else:
        if stat.S_ISDIR(st.st_mode):
            raise StoreError(f"{p}: is a folder, not a database file")
        if not stat.S_ISREG(st.st_mode):
            raise StoreError(f"{p}: not a regular file (a FIFO, a device, ...): a store is a SQLite file")
        with _OPENING:
            header = b"" if _HELD.get((st.st_dev, st.st_ino)) else _header(p)
        if header and not header.startswith(SQLITE_HEADER):
            raise StoreError(f"{p}: not a SQLite database (a dominolog store is one)")
        if len(header) >= 72:
            app_id = int.from_bytes(header[68:72], "big")
            if app_id not in (0, APPLICATION_ID):
                raise StoreError(
                    f"{p}: a database of another program (application id {app_id:#010x}), not a dominolog store"
                )
    read_only = st is not None and (not st.st_mode & 0o222 or _read_only_folder(p))
    if read_only and write:
        raise ReadOnlyError(
            f"{p}: the store is read-only (the file or its folder cannot be written); nothing was written"
        )
    release: Callable[[], None] = _nothing
    try:
        if read_only:  # nothing may be created beside it: read it as it is, with no locks
            conn = sqlite3.connect(f"{p.resolve().as_uri()}?immutable=1", uri=True, isolation_level=None)
        else:
            with _OPENING:  # (counted before another thread can read the header: made, or taken, by now)
                conn = sqlite3.connect(p, timeout=BUSY_SECONDS, isolation_level=None)
                release = _hold(p)
    except sqlite3.Error as exc:
        files = cannot_open(exc)
        raise StoreError(f"{p}: cannot open: {files + '; ' if files else ''}{exc}") from None
    try:
        store = _prepare(p, conn, read_only)
        store.on_close(release)
        return store
    except StoreError:
        conn.close()
        release()
        raise
    except sqlite3.DatabaseError as exc:
        conn.close()
        release()
        files = cannot_open(exc)
        if files is not None:  # (not the file's fault: SQLite says only "unable to open database file")
            raise StoreError(f"{p}: cannot open the store ({files}; {exc})") from None
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreError(f"{p}: the database is locked by another program ({exc})") from None
        raise DamagedStoreError(f"{p}: the store is damaged ({exc})") from None


def _nothing() -> None:
    """What closing an ``immutable`` store lets go of: nothing (it holds no lock)."""


def _hold(p: Path) -> Callable[[], None]:
    """Count a connection of this process to the file ``p`` (call with :data:`_OPENING` held; the file
    exists once SQLite has opened it); what lets it go, once, when that connection is closed."""
    try:
        st = os.stat(p)
    except OSError:  # (removed under it: nothing to keep from reading)
        return _nothing
    key = (st.st_dev, st.st_ino)
    _HELD[key] = _HELD.get(key, 0) + 1
    done = False

    def release() -> None:
        nonlocal done
        with _OPENING:
            if done:
                return
            done = True
            if _HELD.get(key, 0) <= 1:
                _HELD.pop(key, None)
            else:
                _HELD[key] -= 1

    return release


def _header(p: Path) -> bytes:
    try:
        with open(p, "rb") as fh:
            return fh.read(100)
    except OSError as exc:
        raise StoreError(f"{p}: cannot read: {exc.strerror or exc}") from None


def _read_only_folder(p: Path) -> bool:
    folder = p.resolve().parent
    try:
        return not os.stat(folder).st_mode & 0o222 or not os.access(folder, os.W_OK)
    except OSError:
        return True


def _prepare(p: Path, conn: sqlite3.Connection, read_only: bool) -> SqliteStore:
    # Whose database is it, and is it whole? Asked before anything is changed (the journal mode is a change).
    try:
        objects = conn.execute("SELECT type, name FROM sqlite_master").fetchall()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            raise StoreError(f"{p}: the database is locked by another program ({exc})") from None
        raise
    found = {name for kind, name in objects if kind == "table"}
    if objects and "dominolog_meta" not in found:  # (views alone, with no table, are not ours either)
        what, names = ("tables", found) if found else ("views", {name for _, name in objects})
        listed = ", ".join(sorted(names)[:5])
        raise StoreError(f"{p}: a database of another program ({what}: {shown(listed)}), not a dominolog store")
    if found:
        problems = _quick_check(conn)
        if problems != ["ok"]:
            raise DamagedStoreError(
                f"{p}: the store is damaged ({shown('; '.join(problems), 300)}); nothing was written"
            )
    if read_only:
        if not found:
            raise StoreError(f"{p}: an empty database, not a dominolog store")
        _check_version(p, conn)
        return SqliteStore(p, conn, read_only=True)
    if not objects:  # a new store (the size holds only while the file has no page yet; after, a no-op)
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
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
    tables = table_names(conn)
    if not tables:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{p}: the database is locked by another program ({exc})") from None
        try:
            if not table_names(conn):  # another process may have created it meanwhile
                for statement in _statements(SCHEMA):
                    conn.execute(statement)
                conn.executemany(
                    "INSERT INTO dominolog_meta VALUES (?, ?)", [("app", APP), ("schema_version", SCHEMA_VERSION)]
                )
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    else:  # (another program's tables were refused above, before anything was changed)
        _check_version(p, conn)
        _add_views(conn)
    return SqliteStore(p, conn)


def _add_views(conn: sqlite3.Connection) -> None:
    """Give a store made before the views (:mod:`dominolog.store.views`), the analysis cache or the
    tokens (:mod:`dominolog.store.access`, and the columns added to its tables since) what it lacks,
    in one short write transaction. A name taken
    already (a view or table of the user's) is left alone, and so is the whole while another writer
    holds the store (or it cannot be written): they come at a later opening."""
    taken = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    missing = [sql for name, sql in zip(VIEW_NAMES, VIEWS, strict=True) if name not in taken]
    if ANALYSES_TABLE not in taken:
        missing.insert(0, ANALYSES)
    missing += [sql for name, sql in zip(ACCESS_NAMES, ACCESS_TABLES, strict=True) if name not in taken]
    if CLUB_TABLE not in taken:
        missing += SQLITE_CLUB_LOG
    if "idempotency" in taken:  # the columns added to it since (access.IDEMPOTENCY_ADDED)
        missing += added_columns(conn)
    missing += matches_added(conn)  # the columns added to `matches` since, filled from the events
    if not missing:
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
        for sql in missing:
            conn.execute(sql)
        conn.execute("COMMIT")
    except sqlite3.OperationalError:  # locked, or cannot be written after all: the tables are what matters
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _quick_check(conn: sqlite3.Connection) -> list[str]:
    """``PRAGMA quick_check``: ``["ok"]``, or the problems it finds. Past the b-trees it reads the tables,
    where a page it cannot read is an error rather than a row: with views in the schema SQLite (3.40) gets
    there before it has counted five problems. The first problem alone is then asked for, and failing
    that the error is the problem."""
    try:
        return [r[0] for r in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise
        try:
            return [r[0] for r in conn.execute("PRAGMA quick_check(1)")]
        except sqlite3.DatabaseError:
            return [str(exc)]


def _check_version(p: Path, conn: sqlite3.Connection) -> None:
    meta = dict(conn.execute("SELECT key, value FROM dominolog_meta").fetchall())
    refused = version_refusal(str(p), meta, APP, SCHEMA_VERSION)
    if refused is not None:
        raise refused


def _statements(script: str) -> Iterable[str]:
    """Split the schema into statements (triggers hold semicolons inside BEGIN ... END)."""
    buf = ""
    for line in script.strip().splitlines():
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""
