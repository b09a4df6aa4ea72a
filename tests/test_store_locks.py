"""A process that opens a SQLite store a second time must not drop the locks of its first connection.

Closing any file descriptor of a file drops every POSIX lock the process holds on it, SQLite's too.
``open_store`` read the file's header with ``open()``: a server opening the store in a new thread
dropped the shared lock of its other connections, and the next command to close its own connection
took the file as unused and removed its ``-wal`` and ``-shm`` under the server (its reads then failed:
"disk I/O error", "database disk image is malformed"). Found by the served results' tests (issue 26)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT, run_cli


def test_opening_the_store_again_keeps_the_first_connections_locks(tmp_path: Path) -> None:
    from dominolog.store import open_store

    db = tmp_path / "l.db"
    assert run_cli("import", ROOT / "replays" / "ghost13-disputed.jsonl", "--db", db, cwd=tmp_path).code == 0
    first = open_store(db, create=False)
    try:
        ids = first.match_ids()
        assert (tmp_path / "l.db-wal").exists() and (tmp_path / "l.db-shm").exists()
        open_store(db, create=False).close()  # (a server's new thread)
        assert run_cli("list", "--db", db, cwd=tmp_path).code == 0  # another process opens and closes it
        assert (tmp_path / "l.db-wal").exists() and (tmp_path / "l.db-shm").exists()  # not taken as unused
        assert first.match_ids() == ids
    finally:
        first.close()


def test_a_store_this_process_created_keeps_its_locks_and_every_event(tmp_path: Path) -> None:
    """The same when this process made the store (``serve`` on a new file): the header was not read at
    the making (no file yet), so the next opening read it with the first connection open and dropped its
    locks. Another process's command then took the file as unused and removed the ``-wal``: the events the
    first connection committed after it went into the removed file and were lost (the served analyses'
    test found a store of 28 events where 153 had been answered 201, and "disk I/O error")."""
    from dominolog.store import open_store

    db = tmp_path / "new.db"
    start = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"]}'
    first = open_store(db)  # (made here)
    try:
        first.append("m", start)
        open_store(db, create=False).close()  # (a server's new thread)
        assert run_cli("list", "--db", db, cwd=tmp_path).code == 0  # another process opens and closes it
        assert (tmp_path / "new.db-wal").exists() and (tmp_path / "new.db-shm").exists()  # not taken as unused
        for n in range(5):
            first.append("m", b'{"type":"note","text":"%d"}' % n)
    finally:
        first.close()
    again = open_store(db, create=False)
    try:
        assert [rec.seq for rec, _ in again.records("m")] == [1, 2, 3, 4, 5, 6]
    finally:
        again.close()


def test_once_its_last_connection_is_closed_the_header_is_read_again(tmp_path: Path) -> None:
    """Not read while the process holds the file; read again once it holds it no more: a file replaced
    in place (or a new file given the inode of a removed store) is checked as any other."""
    import pytest

    from dominolog.store import StoreError, open_store

    db = tmp_path / "r.db"
    first, second = open_store(db), open_store(db, create=False)
    first.close()
    second.match_ids()  # (still held by the second)
    second.close()
    db.write_bytes(b"not a database at all, " * 10)  # (the same inode, other bytes)
    for name in ("r.db-wal", "r.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with pytest.raises(StoreError, match="not a SQLite database"):
        open_store(db, create=False)
