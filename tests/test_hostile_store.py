"""Hostile databases and hostile appends (issue 11, section 2): every case a clear message, the documented
exit status, and nothing written where nothing may be. Through the installed console script."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from dominolog.store import APPLICATION_ID
from tests.conftest import ROOT, Ran

Cli = Callable[..., Ran]
REPLAY = ROOT / "replays" / "ghost13-tabletop-hidden.jsonl"
MID = "club-2026-11-20-table-3"
START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"]}'


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def store(cli: Cli, tmp_path: Path) -> Path:
    db = tmp_path / "club.db"
    assert cli("import", REPLAY, "--db", db).code == 0
    return db


def _events(db: Path, match_id: str) -> list[str]:
    with closing(sqlite3.connect(db)) as conn:
        return [r[0] for r in conn.execute("SELECT json FROM events WHERE match_id = ? ORDER BY seq", (match_id,))]


# -- record refuses what is not an event of a match ----------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "line", "message"),
    [
        (None, "not json at all", "refused: not an event of the format: not JSON"),
        (None, '{"type":"pass","player":"Ana"}', "refused: match m has no events: a match begins with match_start"),
        (START, START, "refused: match m has begun already (1 events): a match_start here would begin another"),
        (START, '{"type":"pass","player":"Ana","tlie":"1-2"}', "refused: not an event of the format: pass: tlie:"),
        (START, '{"type":"pass","player":"Ana","player":"Ben"}', "written twice in one object"),
        (
            None,
            '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"other"}',
            "names the match other",
        ),
        (START, '{"type":"note","text":"x","hash":"' + "0" * 64 + '"}', "its events carry no hash, this one does"),
    ],
)
def test_append_refuses_what_is_not_an_event_of_the_match(
    cli: Cli, tmp_path: Path, first: str | None, line: str, message: str
) -> None:
    db = tmp_path / "r.db"
    if first is not None:
        assert cli("append", "m", first, "--db", db).code == 0
    before = _events(db, "m") if db.exists() else []
    done = cli("append", "m", line, "--db", db)
    assert done.code == 1, done.err
    assert message in done.err and "nothing was written" in done.err
    assert (_events(db, "m") if db.exists() else []) == before


def test_append_refuses_a_wrong_hash_in_a_hashed_match(cli: Cli, tmp_path: Path) -> None:
    log, db = tmp_path / "sim.jsonl", tmp_path / "sim.db"
    cli("simulate", "--matches", "1", "--seed", "4", "--out", log)
    assert '"hash":' in log.read_text()
    cli("import", log, "--db", db)
    (mid,) = json.loads(cli("list", "--db", db, "--json").out)["matches"][0:1]
    before = _events(db, mid["id"])
    done = cli("append", mid["id"], '{"type":"note","text":"x","hash":"' + "0" * 64 + '"}', "--db", db)
    assert done.code == 1 and f"is not the chain hash at seq {len(before) + 1}" in done.err
    assert _events(db, mid["id"]) == before
    fine = cli("append", mid["id"], '{"type":"note","text":"x"}', "--db", db)
    assert fine.code == 0  # the tool adds the right hash itself (a note after the match end is out of order)
    assert "hash-mismatch" not in cli("verify", "--db", db).out


def test_append_refuses_an_illegal_play_unless_it_happened_at_the_table(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    cli("append", "m", START, "--db", db)
    cli("append", "m", '{"type":"deal","leader":"Ana","hands":null}', "--db", db)
    refused = cli("append", "m", '{"type":"play","player":"Ben","tile":"6-6"}', "--db", db)
    assert refused.code == 1
    assert "refused: seq 3: illegal: not Ben's turn (Ana is on move); nothing was written" in refused.err
    assert len(_events(db, "m")) == 2
    done = cli("append", "m", '{"type":"play","player":"Ben","tile":"6-6"}', "--db", db, "--as-played")
    assert done.code == 0 and "illegal: not Ben's turn" in done.out
    assert len(_events(db, "m")) == 3


# -- read-only stores ----------------------------------------------------------------------------------------


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    mode = path.stat().st_mode
    path.chmod(mode & ~0o222)
    try:
        yield
    finally:
        path.chmod(mode)


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_store_can_be_read_and_is_never_written(cli: Cli, store: Path, tmp_path: Path, what: str) -> None:
    """As root, chmod does not stop a write: the tool decides from the mode bits, and the test checks
    that nothing at all changed or appeared."""
    folder = store.parent
    listing = sorted(p.name for p in folder.iterdir())
    digest = sha(store)
    with read_only(store if what == "file" else folder):
        assert MID in cli("list", "--db", store).out
        assert cli("export", MID, "--db", store).stdout == REPLAY.read_bytes()
        assert cli("verify", "--db", store).code == 0
        assert "Ana" in cli("show", "--db", store, MID).out
        for argv in (["import", REPLAY], ["append", MID, '{"type":"note","text":"x"}'], ["reindex"]):
            done = cli(*argv, "--db", store)
            assert done.code == 2, argv
            assert "read-only" in done.err
    assert sorted(p.name for p in folder.iterdir()) == listing
    assert sha(store) == digest


# -- damaged, foreign and strange files ----------------------------------------------------------------------


def _damage(db: Path) -> None:
    """Break the b-tree page of ``events`` (its page-type byte), as a flipped bit on disk would."""
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()[0]
    data = bytearray(db.read_bytes())
    data[(root - 1) * page] ^= 0xFF
    db.write_bytes(bytes(data))


def test_a_damaged_store_is_exit_1_and_never_written(cli: Cli, store: Path) -> None:
    _damage(store)
    digest = sha(store)
    for argv in (
        ["list"],
        ["export", MID],
        ["verify"],
        ["show", MID],
        ["import", REPLAY],
        ["append", MID, '{"type":"note","text":"x"}'],
        ["reindex"],
    ):
        done = cli(*argv, "--db", store)
        assert done.code == 1, (argv, done.err)
        assert f"{store}: the store is damaged" in done.err, argv
    assert sha(store) == digest


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_fifo_a_device_or_a_folder_is_refused_at_once(cli: Cli, tmp_path: Path, kind: str) -> None:
    if kind == "fifo":
        target = tmp_path / "fifo.db"
        os.mkfifo(target)
    elif kind == "device":
        target = Path("/dev/null")
    else:
        target = tmp_path / "folder.db"
        target.mkdir()
    for argv in (["list"], ["import", REPLAY], ["append", "m", START]):
        done = cli(*argv, "--db", target, timeout=20)
        assert done.code == 2, (argv, done.err)
        assert "not a regular file" in done.err or "is a folder" in done.err
    assert not Path(f"{target}-journal").exists() and not Path(f"{target}-wal").exists()
    if kind == "fifo":
        assert stat.S_ISFIFO(target.stat().st_mode)


def test_another_programs_database_is_refused_and_left_as_it_was(cli: Cli, tmp_path: Path) -> None:
    empty_foreign = tmp_path / "app.db"
    with closing(sqlite3.connect(empty_foreign)) as conn:
        conn.execute("PRAGMA application_id = 1234")
        conn.commit()
    with_tables = tmp_path / "tables.db"
    with closing(sqlite3.connect(with_tables)) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER)")
        conn.commit()
    for db, said in ((empty_foreign, "application id 0x000004d2"), (with_tables, "tables: customers")):
        digest = sha(db)
        for argv in (["import", REPLAY], ["append", "m", START], ["list"]):
            done = cli(*argv, "--db", db)
            assert done.code == 2
            assert "a database of another program" in done.err and said in done.err
        assert sha(db) == digest


def test_a_store_made_by_a_newer_dominolog_is_refused_clearly_and_left_as_it_was(cli: Cli, store: Path) -> None:
    """A later release that changes the tables raises the store's schema version; this one then says the
    store is newer and what to do, for every command, and writes nothing (issue 39)."""
    version = cli("--version").out.split()[1]
    with closing(sqlite3.connect(store)) as conn:
        conn.execute("UPDATE dominolog_meta SET value = '2' WHERE key = 'schema_version'")
        conn.commit()
    digest = sha(store)
    for argv in (["import", REPLAY], ["append", "m", START], ["list"], ["verify"], ["reindex"]):
        done = cli(*argv, "--db", store)
        assert (done.code, done.out) == (2, "")
        assert done.err == (
            f"dominolog: {store}: the store was made by a newer dominolog (its tables are version 2; dominolog "
            f"{version} reads version 1): open it with that newer dominolog (pip install --upgrade dominolog); "
            "nothing was read or written\n"
        )
    assert sha(store) == digest
    with closing(sqlite3.connect(store)) as conn:
        conn.execute("UPDATE dominolog_meta SET value = 'x1' WHERE key = 'schema_version'")
        conn.commit()
    done = cli("list", "--db", store)
    assert done.code == 2 and "a dominolog store of an unknown version (x1); nothing was read or written" in done.err


def test_our_store_carries_our_application_id(store: Path) -> None:
    with closing(sqlite3.connect(store)) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


# -- import: the same id with other content ------------------------------------------------------------------


def test_import_of_other_content_under_a_stored_id_is_a_conflict(cli: Cli, store: Path, tmp_path: Path) -> None:
    lines = REPLAY.read_bytes().splitlines(keepends=True)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"".join(lines[:4]) + b'{"type":"note","text":"changed"}\n' + b"".join(lines[5:]))
    done = cli("import", other, "--db", store)
    assert done.code == 1
    assert f"conflict: match {MID} is already stored with other content: first difference at seq 5" in done.err
    same = cli("import", REPLAY, "--db", store)
    assert same.code == 0 and same.out.startswith("0 stored, 1 already there;")


# -- list ----------------------------------------------------------------------------------------------------


def test_list_status_is_a_choice_and_json_has_booleans(cli: Cli, store: Path) -> None:
    bad = cli("list", "--status", "bogus", "--db", store)
    assert bad.code == 2
    assert "complete" in bad.err and "open" in bad.err and "invalid" in bad.err
    rows = json.loads(cli("list", "--json", "--db", store).out)["matches"]
    assert rows[0]["complete"] is True


# -- verify --db checks what the store derived ---------------------------------------------------------------


def _sql(db: Path, *statements: str) -> None:
    with closing(sqlite3.connect(db)) as conn:
        for s in statements:
            conn.execute(s)
        conn.commit()


def test_verify_db_finds_a_forged_projection(cli: Cli, store: Path) -> None:
    _sql(store, "UPDATE matches SET winner = '\"Ben\"'")
    done = cli("verify", "--db", store)
    assert done.code == 1
    assert "projection-mismatch: matches.winner is '\"Ben\"', but the events give '\"Ana\"'" in done.out


def test_verify_db_finds_an_edited_copied_column(cli: Cli, store: Path) -> None:
    _sql(store, "DROP TRIGGER events_append_only_update", "UPDATE events SET player = 'Eve' WHERE seq = 5")
    done = cli("verify", "--db", store)
    assert done.code == 1
    assert "seq 5: projection-mismatch: events.player is 'Eve'" in done.out


def test_verify_db_finds_a_deleted_tail(cli: Cli, store: Path) -> None:
    count = len(_events(store, MID))
    _sql(store, "DROP TRIGGER events_append_only_delete", f"DELETE FROM events WHERE seq > {count - 3}")
    done = cli("verify", "--db", store)
    assert done.code == 1
    assert f"({count} events) is not the head of its events" in done.out
    assert f"({count - 3} events): events were deleted or changed" in done.out


def test_a_fresh_store_verifies_clean_with_its_projections(cli: Cli, store: Path) -> None:
    done = cli("verify", "--db", store)
    assert done.code == 0 and "projection-mismatch" not in done.out


# -- with --db, an argument is always a match id -------------------------------------------------------------


def test_with_db_an_argument_is_a_match_id_and_an_unknown_one_suggests(cli: Cli, store: Path, tmp_path: Path) -> None:
    (tmp_path / "x").write_text(START + "\n")
    done = cli("export", "../x", "--db", store)
    assert done.code == 1
    assert "no match '../x'" in done.err
    near = cli("export", "club-2026-11-20-table-4", "--db", store)
    assert near.code == 1 and f"did you mean {MID}?" in near.err
    for argv in (["show", "--db", store, "club-2026-11-20"], ["verify", "--db", store, "club-2026-11-20"]):
        done = cli(*argv)
        assert done.code == 1 and f"did you mean {MID}?" in done.err
