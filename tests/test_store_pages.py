"""The SQLite store's pages and its import's transactions (issue 39): a new store is made with 8 KiB
pages, a store made with SQLite's default 4 KiB pages (every store made before) is read and written as it
is, with the same rows, and an import, which writes a match with no savepoint on SQLite, never leaves part
of a match behind when it fails in the middle of one."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from dominolog.log.reader import iter_matches
from dominolog.store import open_store
from dominolog.store.opening import APPLICATION_ID, PAGE_SIZE

REPLAY = Path(__file__).resolve().parent.parent / "replays" / "double-draw-simulated.jsonl"


def _pragma(db: Path, name: str) -> Any:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]


def _dump(db: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall()
        rows += conn.execute("SELECT * FROM matches ORDER BY id").fetchall()
        rows += conn.execute("SELECT * FROM hands ORDER BY match_id, number").fetchall()
        return rows


def _import(db: Path) -> int:
    with open_store(db) as store:
        results = list(store.import_matches(iter_matches(REPLAY)))
    assert {r.status for r in results} == {"imported"}
    return len(results)


def test_a_new_store_has_8_kib_pages_and_tables_of_version_1(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    assert _import(db) == 4
    assert PAGE_SIZE == 8192
    assert _pragma(db, "page_size") == 8192
    assert _pragma(db, "journal_mode") == "wal"
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT value FROM dominolog_meta WHERE key = 'schema_version'").fetchone() == ("1",)


def test_a_store_of_4_kib_pages_keeps_them_and_holds_the_same_rows(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    with closing(sqlite3.connect(old)) as conn:  # a file whose pages are set (4 KiB) before dominolog makes it
        conn.execute("PRAGMA page_size = 4096")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    assert _pragma(old, "page_size") == 4096
    new = tmp_path / "new.db"
    assert _import(old) == 4
    assert _import(new) == 4
    assert _pragma(old, "page_size") == 4096
    assert _pragma(new, "page_size") == 8192
    assert _dump(old) == _dump(new)
    assert len(_dump(old)) > 300
    with open_store(old, create=False, write=False) as store:
        stored = b"".join(line + b"\n" for mid in store.match_ids() for line in store.lines(mid))
    assert sorted(stored.splitlines()) == sorted(REPLAY.read_bytes().splitlines())


def test_an_import_failing_inside_a_match_leaves_none_of_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second match fails after its events are written (its ``hands`` rows refused): the first match,
    committed alone (``batch_events=1``), stays whole; of the second nothing is left, events included."""
    db = tmp_path / "store.db"
    store = open_store(db)
    real = store._write_projection
    calls = []

    def failing(match_id: str, match_row: tuple[Any, ...], hand_rows: list[tuple[Any, ...]]) -> None:
        calls.append(match_id)
        if len(calls) == 2:
            raise sqlite3.OperationalError("disk I/O error (made by the test)")
        real(match_id, match_row, hand_rows)

    monkeypatch.setattr(store, "_write_projection", failing)
    logs = list(iter_matches(REPLAY))
    got = []
    with pytest.raises(sqlite3.OperationalError, match="made by the test"):
        for result in store.import_matches(logs, batch_events=1):
            got.append(result.match_id)
    store.close()
    first, second = calls
    assert got == [first]
    with closing(sqlite3.connect(db)) as conn:
        held = conn.execute("SELECT match_id, COUNT(*) FROM events GROUP BY match_id").fetchall()
        assert held == [(first, len(logs[0].records))]
        assert conn.execute("SELECT id FROM matches").fetchall() == [(first,)]
        assert conn.execute("SELECT match_id FROM imports").fetchall() == [(first,)]
        assert conn.execute("SELECT COUNT(*) FROM hands WHERE match_id = ?", (second,)).fetchone() == (0,)
