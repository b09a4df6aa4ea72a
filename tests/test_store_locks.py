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
