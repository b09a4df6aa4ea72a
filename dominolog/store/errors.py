"""What can go wrong with a store, as exceptions carrying a message for a person; and what the database
driver raises when the database fails under a command, turned into one (:func:`database_failure`)."""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING

from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.state import Issue


class StoreError(Exception):
    """A store that cannot be used (not a database, another program's, locked, ...): a clear message."""


def version_refusal(name: str, meta: dict[str, str], app: str, ours: str) -> StoreError | None:
    """Why a store whose ``dominolog_meta`` holds ``meta`` cannot be opened by this dominolog (whose
    schema version is ``ours``), or None when it can. A store made by a newer dominolog says so, and what
    to do: a later release that changes the tables raises the schema version, and this message is what
    an older release then shows (never an SQL error from a table it does not know)."""
    found = meta.get("schema_version")
    if meta.get("app") == app and found == ours:
        return None
    if meta.get("app") != app:
        return StoreError(
            f"{name}: not a dominolog store (its dominolog_meta names the program {shown(meta.get('app'))})"
        )
    if found is not None and found.isdecimal() and ours.isdecimal() and int(found) > int(ours):
        from dominolog.build_info import version

        return StoreError(
            f"{name}: the store was made by a newer dominolog (its tables are version {shown(found)}; "
            f"dominolog {version()} reads version {ours}): open it with that newer dominolog "
            "(pip install --upgrade dominolog); nothing was read or written"
        )
    return StoreError(f"{name}: a dominolog store of an unknown version ({shown(found)}); nothing was read or written")


class ConflictError(StoreError):
    """Another writer took the seq first: nothing was written."""


class RefusedError(StoreError):
    """An event or a match the store will not take (it is not a well-formed event, or it would not be
    a match): nothing was written."""


class RulesRefusedError(RefusedError):
    """An event the rules refuse (a checked append: it breaks a rule the store will not keep):
    nothing was written. ``issues``: the violations that refused it."""

    def __init__(self, message: str, issues: list[Issue]) -> None:
        super().__init__(message)
        self.issues = issues


class FullMatchError(StoreError):
    """The match holds as many events as a match may (docs/format.md, Limits: 100,000): nothing more
    is written to it. Not a refusal of the line (another line would be refused alike): the match
    takes no more."""


class DamagedStoreError(StoreError):
    """The database file is damaged (SQLite's integrity check fails, or SQLite says so)."""


class ReadOnlyError(StoreError):
    """A write was asked of a store that can only be read."""


class DatabaseFailedError(StoreError):
    """The database failed under a command, after the store opened: the PostgreSQL server stopped or
    the connection to it broke, the disk filled up, a file could not be written. What was committed
    before stays stored; the transaction under way was not."""


#: SQLite's result codes that say the file is damaged: SQLITE_CORRUPT, SQLITE_NOTADB
_SQLITE_DAMAGED = (11, 26)
#: SQLite's result code for a file it could not open: SQLITE_CANTOPEN
SQLITE_CANTOPEN = 14
#: PostgreSQL's SQLSTATEs that say the data is damaged: data_corrupted, index_corrupted
_PG_DAMAGED = ("XX001", "XX002")


def is_database_error(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by a database driver (sqlite3 or psycopg, which is not imported here)."""
    return any(c.__module__ == "sqlite3" or c.__module__.startswith("psycopg") for c in type(exc).__mro__)


def out_of_files() -> str | None:
    """Why this process can open no file now (``too many open files``: its limit on file descriptors,
    errno EMFILE, or the system's, ENFILE), or None when it can: what SQLite says only as "unable to
    open database file"."""
    try:
        fd = os.open(os.devnull, os.O_RDONLY)
    except OSError as exc:
        if exc.errno == errno.EMFILE:
            return "too many open files: the process's limit on open files (ulimit -n) is reached"
        if exc.errno == errno.ENFILE:
            return "too many open files in the system"
        return None
    os.close(fd)
    return None


def cannot_open(exc: BaseException) -> str | None:
    """Why SQLite could not open a file (``exc`` a sqlite3 error with SQLITE_CANTOPEN), when it is that the
    process is out of file descriptors; else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF == SQLITE_CANTOPEN:
        return out_of_files()
    return None


def database_failure(exc: BaseException, where: str) -> StoreError:
    """What a database driver raised under a command (``exc``, once the store had opened) as the error a
    person is told, on one line naming the store ``where``: :class:`DamagedStoreError` when the
    database says its data is damaged, else :class:`DatabaseFailedError` ("the database failed")."""
    said = shown(" ".join(str(exc).split()) or type(exc).__name__, 400)
    files = cannot_open(exc)
    if files is not None:
        return DatabaseFailedError(f"{where}: cannot open the database's files ({files}; {said})")
    code = getattr(exc, "sqlite_errorcode", None)
    if (isinstance(code, int) and code & 0xFF in _SQLITE_DAMAGED) or getattr(exc, "sqlstate", None) in _PG_DAMAGED:
        return DamagedStoreError(f"{where}: the store is damaged ({said})")
    return DatabaseFailedError(f"{where}: the database failed ({said})")
