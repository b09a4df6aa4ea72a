"""The commands that take ``--db`` on a PostgreSQL store, run as a user runs them: the installed
``dominolog`` script as a subprocess from a temp folder, ``--db postgresql://...`` (or DOMINOLOG_DB).
Each says what it says of a SQLite store: the outputs are compared with the same commands on a file."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT, Ran, clean_env

Cli = Callable[..., Ran]
MID = "club-2026-11-20-table-3"
START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"m"}'


@pytest.fixture
def replays(tmp_path: Path) -> Path:
    dest = tmp_path / "replays"
    shutil.copytree(ROOT / "replays", dest, ignore=shutil.ignore_patterns("*.py", "__pycache__", "club-season"))
    return dest


def test_the_store_commands_say_on_postgresql_what_they_say_on_a_file(
    cli: Cli, replays: Path, tmp_path: Path, pg_url: str
) -> None:
    file_db = tmp_path / "club.db"
    for db in (pg_url, file_db):
        done = cli("import", replays, "--db", db)
        assert done.code == 0, done.err
        assert "\n22 stored (6 invalid), 0 already there; 3," in done.out
    assert cli("import", replays, "--db", pg_url).out.startswith("0 stored, 22 already there;")
    for argv in (
        ["list"],
        ["list", "--json"],
        ["list", "--player", "Ana", "--status", "complete"],
        ["export", "--all", "--format", "csv"],
        ["export", MID, "--format", "json"],
        ["show", MID, "--at", "5"],
        ["standings"],
    ):
        on_pg, on_file = cli(*argv, "--db", pg_url), cli(*argv, "--db", file_db)
        assert (on_pg.code, on_pg.out) == (on_file.code, on_file.out.replace(str(file_db), pg_url)), argv
        assert on_pg.code == 0, (argv, on_pg.err)
    assert len(json.loads(cli("list", "--db", pg_url, "--json").out)["matches"]) == 22
    exported = cli("export", MID, "--db", pg_url, "--format", "jsonl")
    assert exported.code == 0 and exported.stdout == (replays / "ghost13-tabletop-hidden.jsonl").read_bytes()
    verified = cli("verify", "--db", pg_url)
    assert verified.code == 1 and "22 matches: 16 valid, 6 invalid" in verified.out
    assert verified.out == cli("verify", "--db", file_db).out.replace(str(file_db), pg_url)
    reindexed = cli("reindex", "--db", pg_url)
    assert reindexed.code == 0 and reindexed.out.startswith("reindexed 22 matches from the events -> postgresql://")
    listed = cli("list", env=clean_env(DOMINOLOG_DB=pg_url))
    assert listed.code == 0 and MID in listed.out and listed.out.endswith("22 matches\n")


def test_ids_that_differ_in_case_come_in_the_files_order_on_a_linguistic_database(
    cli: Cli, tmp_path: Path, pg_linguistic_url: str
) -> None:
    """On a database whose collation is ICU en-US (``alpha-2`` before ``Zeta-1``), ``list``, ``export
    --all`` and ``verify --db`` give the matches in the order a SQLite file does: their ids' bytes."""
    from tests.test_store_contract import RENAMED, renamed_file

    file_db = tmp_path / "club.db"
    matches = renamed_file(tmp_path)
    for db in (pg_linguistic_url, file_db):
        assert cli("import", matches, "--db", db).out.startswith(f"{len(RENAMED)} stored, 0 already there;")
    for argv in (
        ["list"],
        ["list", "--json"],
        ["export", "--all", "--format", "csv"],
        ["export", "--all", "--format", "csv", "--long"],
        ["verify"],
        ["verify", "--json"],
        ["standings"],
    ):
        on_pg, on_file = cli(*argv, "--db", pg_linguistic_url), cli(*argv, "--db", file_db)
        assert (on_pg.code, on_pg.out) == (on_file.code, on_file.out.replace(str(file_db), pg_linguistic_url)), argv
        assert on_pg.code == 0, (argv, on_pg.err)
    listed = [line.split()[0] for line in cli("list", "--db", pg_linguistic_url).out.splitlines()[1:-1]]
    assert listed == sorted(RENAMED) == ["Alpha-1", "Zeta-1", "_10", "alpha-2", "zeta-1", "Éclair", "éclair", "Ωmega"]


def test_append_then_a_taken_seq_is_exit_4_and_a_tampered_row_is_found(cli: Cli, pg_url: str) -> None:
    import psycopg

    assert cli("append", "m", START, "--db", pg_url).code == 0
    assert cli("append", "m", '{"type":"deal","leader":"Ana","hands":null}', "--db", pg_url).code == 0
    taken = cli("append", "m", '{"type":"note","text":"late"}', "--seq", "2", "--db", pg_url)
    assert taken.code == 4 and "seq 2 is taken" in taken.err and "nothing was written" in taken.err
    assert cli("verify", "--db", pg_url, "m").code == 0
    with psycopg.connect(pg_url, autocommit=True) as conn:
        refused = conn.execute("SELECT 1")  # (a live connection, as a superuser)
        assert refused.fetchone() == (1,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only: UPDATE refused"):
            conn.execute("UPDATE events SET json = replace(json, 'Ana', 'Ben') WHERE seq = 2")
        conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
        conn.execute("UPDATE events SET json = replace(json, 'Ana', 'Ben') WHERE seq = 2")
        conn.execute("ALTER TABLE events ENABLE TRIGGER USER")
    found = cli("verify", "--db", pg_url, "m")
    assert found.code == 1 and "seq 2: hash-mismatch" in found.out


def test_a_server_that_cannot_be_reached_is_named_without_its_password(cli: Cli, tmp_path: Path) -> None:
    url = f"postgresql://ana:s3cret-pw@/club?host={tmp_path}/nothing-here&port=5999"
    for argv in (["list"], ["import", ROOT / "replays" / "ghost13-disputed.jsonl"], ["verify"], ["append", "m", START]):
        done = cli(*argv, "--db", url)
        assert done.code == 2, (argv, done.err)
        assert "s3cret" not in done.err + done.out
        assert "postgresql://ana:***@/club" in done.err and "cannot connect to the PostgreSQL server" in done.err


def test_another_programs_database_and_an_empty_one_are_refused(cli: Cli, pg_url: str) -> None:
    import psycopg

    empty = cli("list", "--db", pg_url)
    assert empty.code == 2 and "no dominolog store in this database (import something first)" in empty.err
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE customers (id integer)")
    for argv in (["import", ROOT / "replays" / "ghost13-disputed.jsonl"], ["append", "m", START], ["list"]):
        done = cli(*argv, "--db", pg_url)
        assert done.code == 2 and "a database of another program (tables: customers)" in done.err, done.err
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall() == [
            ("customers",)
        ]


def test_a_store_made_by_a_newer_dominolog_is_refused_clearly(cli: Cli, pg_url: str) -> None:
    """The PostgreSQL store refuses a newer store as the file does (tests/test_hostile_store.py), writing nothing."""
    import psycopg

    assert cli("append", "m", START, "--db", pg_url).code == 0
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE dominolog_meta SET value = '2' WHERE key = 'schema_version'")
    version = cli("--version").out.split()[1]
    for argv in (["append", "m", '{"type":"note","text":"x"}'], ["list"], ["verify"]):
        done = cli(*argv, "--db", pg_url)
        assert (done.code, done.out) == (2, ""), done.err
        assert done.err.endswith(
            f": the store was made by a newer dominolog (its tables are version 2; dominolog {version} reads "
            "version 1): open it with that newer dominolog (pip install --upgrade dominolog); nothing was read or "
            "written\n"
        )
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (1,)
