"""``import --jobs N``: files read and folded in N processes, one process writing the store in the files'
order: the same matches stored, the same rows, the same messages and exit status as ``--jobs 1``
(issue 17)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from tests.conftest import ROOT, Ran

Cli = Callable[..., Ran]
REPLAYS = ROOT / "replays"


def _rows(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every stored event, match and hand row (not the import times)."""
    with sqlite3.connect(db) as conn:
        events = conn.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall()
        matches = conn.execute("SELECT * FROM matches ORDER BY id").fetchall()
        hands = conn.execute("SELECT * FROM hands ORDER BY 1, 2").fetchall()
        imports = conn.execute("SELECT match_id, source, line FROM imports ORDER BY match_id").fetchall()
    return events, matches + imports, hands


def test_jobs_store_the_same_matches_with_the_same_messages(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for f in [*REPLAYS.glob("*.jsonl"), *(ROOT / "tests" / "data" / "notation").glob("*.dn")]:
        (folder / f.name).write_bytes(f.read_bytes())
    # a match the notation cannot read, and the same id as a replay with other lines: a conflict
    (folder / "zz-broken.dn").write_text('[Variant "ghost13"] [Players "Ana" "Ben"]\ndeal Ana [?]\n99Q\n')
    clash = (REPLAYS / "ghost13-disputed.jsonl").read_bytes().replace(b'"Ben"', b'"Bea"', 3)
    (folder / "zz-clash.jsonl").write_bytes(clash)
    one = cli("import", folder, "--db", tmp_path / "one.db")
    two = cli("import", folder, "--db", tmp_path / "two.db", "--jobs", 2)
    assert one.code == two.code == 1  # the broken .dn match and the conflict
    assert "zz-broken.dn:1: failed" in one.err and "conflict" in one.err
    assert two.err == one.err
    summary = [line.rsplit(" events in ", 1)[0] for line in (one.out, two.out)]  # the time differs
    assert summary[0] == summary[1] and "stored" in summary[0]
    assert _rows(tmp_path / "one.db") == _rows(tmp_path / "two.db")
    again = cli("import", folder, "--db", tmp_path / "two.db", "-j", 3)
    assert again.code == 1 and "0 stored" in again.out  # everything there already (but the two failures)


def test_jobs_with_one_file_or_a_missing_one(cli: Cli, tmp_path: Path) -> None:
    path = REPLAYS / "brettspielnetz-simulated.jsonl"
    assert cli("import", path, "--db", tmp_path / "a.db", "--jobs", 4).code == 0
    assert cli("import", path, "--db", tmp_path / "b.db").code == 0
    assert _rows(tmp_path / "a.db") == _rows(tmp_path / "b.db")
    missing = cli("import", path, tmp_path / "nope.jsonl", "--db", tmp_path / "c.db", "-j", 2)
    assert missing.code == 2 and "nope.jsonl: no such file or folder" in missing.err
    assert cli("import", path, "--db", tmp_path / "d.db", "--jobs", 0).code == 2
