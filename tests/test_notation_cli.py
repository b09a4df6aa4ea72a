"""The notation (.dn) through the installed console script: verify, show, import and export."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from dominolog.log.reader import iter_matches
from dominolog.recording.notation import jsonl_to_dn
from tests.conftest import ROOT, Ran

Cli = Callable[..., Ran]
REPLAYS = ROOT / "replays"
DATA = ROOT / "tests" / "data" / "notation"


def _summary(out: str) -> list[str]:
    """The match lines of verify's output without the file and line they name."""
    return [re.sub(r"^(\w+) \S+:\d+ ", r"\1 ", line) for line in out.splitlines() if line.startswith(("OK", "INVALID"))]


def test_verify_a_dn_file_as_its_jsonl(cli: Cli, tmp_path: Path) -> None:
    source = REPLAYS / "ghost13-disputed.jsonl"
    dn = tmp_path / "game.dn"
    done = cli("export", source, "--format", "dn", "--out", dn)
    assert done.code == 0 and dn.read_text(encoding="utf-8") == jsonl_to_dn(source.read_bytes())
    as_dn, as_jsonl = cli("verify", dn), cli("verify", source)
    assert as_dn.code == as_jsonl.code == 1
    assert _summary(as_dn.out) == _summary(as_jsonl.out)
    assert f"{dn}:12: seq 24: renege: Ana passes while holding a legal play" in as_dn.out
    doc = json.loads(cli("verify", "--json", dn).out)
    assert [m["line"] for m in doc["matches"]] == [1, 17]
    by_suffix = tmp_path / "again.dn"
    assert cli("export", source, "--out", by_suffix).code == 0 and by_suffix.read_bytes() == dn.read_bytes()


def test_verify_a_folder_reads_dn_and_jsonl(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.dn").write_bytes((DATA / "ghost13.dn").read_bytes())
    (folder / "b.jsonl").write_bytes((DATA / "39.jsonl").read_bytes())
    (folder / "c.txt").write_text("not a log")
    done = cli("verify", folder)
    assert done.code == 0
    assert "2 matches: 2 valid, 0 invalid" in done.out
    assert f"OK {folder / 'a.dn'}:1 ghost13 Ana vs Ben" in done.out


def test_show_and_export_read_a_dn_file(cli: Cli) -> None:
    shown = cli("show", DATA / "double-draw.dn", "--at", 4)
    assert shown.code == 0
    assert "at seq 4 (line 5): draw" in shown.out
    back = cli("export", DATA / "double-draw.dn", "--format", "jsonl")
    assert back.code == 0 and back.stdout == (DATA / "double-draw.jsonl").read_bytes()


def test_import_then_export_gives_the_same_text(cli: Cli, tmp_path: Path) -> None:
    source = REPLAYS / "ghost13-disputed.jsonl"
    dn = tmp_path / "game.dn"
    dn.write_text(jsonl_to_dn(source.read_bytes()), encoding="utf-8")
    db = tmp_path / "store.db"
    done = cli("import", dn, "--db", db)
    assert done.code == 0 and "2 stored (2 invalid)" in done.out
    exported = cli("export", "--db", db, "--all", "--format", "dn")
    assert exported.code == 0 and exported.out == dn.read_text(encoding="utf-8")
    one = cli("export", "--db", db, "disputed-hidden-2026-11-20", "--format", "dn")
    assert one.code == 0 and one.out in exported.out and one.out.startswith('[Variant "ghost13"]')
    again = cli("import", dn, "--db", db)
    assert again.code == 0 and "0 stored, 2 already there" in again.out
    jsonl = cli("export", "--db", db, "disputed-2026-11-20")
    original = [r.obj for r in next(iter(iter_matches(source))).records]
    assert [json.loads(line) for line in jsonl.out.splitlines()] == original


def test_export_a_jsonl_file_as_dn(cli: Cli) -> None:
    done = cli("export", REPLAYS / "brettspielnetz-tabletop-hidden.jsonl", "--format", "dn")
    assert done.code == 0
    assert done.out.startswith('[Variant "brettspielnetz"] [Players "Ana" "Ben"] [Id "ana-vs-ben-2026-11-19"]')
    assert "\ndeal Ana [Ana 06 23 25 34 35 46 55] start=12(18:00:31)\n" in done.out


def test_import_refuses_a_match_with_a_notation_error_and_stores_the_others(cli: Cli, tmp_path: Path) -> None:
    good = (DATA / "39.dn").read_text(encoding="utf-8")
    bad = '[Variant "ghost13"] [Players "Ana" "Ben"]\ndeal Ana [?]\n66 65R x9 54L\n'
    path = tmp_path / "mixed.dn"
    path.write_text(bad + "\n" + good, encoding="utf-8")
    done = cli("import", path, "--db", tmp_path / "s.db")
    assert done.code == 1
    assert "1 stored, 0 already there, 1 failed" in done.out
    assert f"{path}:1: failed: line 3, column 8: expected a tile, a pass (-), a draw (+)" in done.err
    assert done.err.rstrip().endswith("got 'x9'; the match is not stored")
    listed = cli("list", "--db", tmp_path / "s.db")
    assert "golden-39" in listed.out


def test_hostile_dn_files_give_messages_never_tracebacks(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "hostile.dn"
    path.write_bytes(
        b'[Variant "ghost13"] [Players "\\u001b[2J" "[bold]B[/bold]"]\n'
        b'deal "\\u001b[2J" [?] 66 {caf\xe9} "[bold]B[/bold]":65R ' + b"z" * 200_000 + b"\n"
        b"{\\u001b]0;pwned\\u0007} \x00\x01 $[[[[\n"
    )
    for args in (("verify", path), ("show", path), ("import", path, "--db", tmp_path / "h.db")):
        done = cli(*args)
        assert done.code in (0, 1)
        assert "\x1b" not in done.out + done.err
    out = cli("verify", path).out
    assert f"{path}:2: seq 4: malformed: line 2, column 29: expected UTF-8 text, got the byte 0xe9" in out
    assert "...(200000 chars)" in out
    assert len(out) < 5000


def test_export_refuses_what_the_notation_cannot_hold(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    start = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"]}\n'
    path.write_bytes(start + b'{"type":"note","text":"' + b"x" * (1 << 20) + b'"}\n')
    done = cli("export", path, "--format", "dn")
    assert done.code == 1
    assert done.err.startswith("dominolog: cannot write the notation: line 2: the line is 1,048,601 bytes long")
