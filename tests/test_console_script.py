"""Smoke tests of the console script a user installs: run as a subprocess from a temp folder (never the
checkout), every command with ``--help`` and each main job once; the replay viewer driven in a real
pseudo-terminal. Each run: the expected exit status and no traceback."""

from __future__ import annotations

import csv
import io
import json
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from tests.conftest import ROOT, Ran, clean_env, console_script

REPLAYS = ROOT / "replays"
COMMANDS = ["verify", "simulate", "show", "replay", "export", "import", "list", "reindex", "record", "append", "schema"]

Cli = Callable[..., Ran]


@pytest.fixture
def replays(tmp_path: Path) -> Path:
    """A copy of the bundled replays in a temp folder (the console script runs far from the checkout)."""
    dest = tmp_path / "replays"
    shutil.copytree(REPLAYS, dest, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return dest


def test_help_of_the_tool_and_of_every_command(cli: Cli) -> None:
    top = cli("--help")
    assert top.code == 0
    for name in COMMANDS:
        assert name in top.out
        done = cli(name, "--help")
        assert done.code == 0, (name, done.err)
        assert "Usage: dominolog " + name in done.out


def test_no_arguments_shows_the_help(cli: Cli) -> None:
    done = cli()
    assert done.code in (0, 2)
    assert "Usage: dominolog" in done.out + done.err


def test_verify_the_bundled_replays(cli: Cli, replays: Path) -> None:
    done = cli("verify", replays)
    assert done.code == 1  # the disputed replays are meant to fail
    assert "ghost13-disputed.jsonl:24: seq 24: renege: Ana passes while holding a legal play" in done.out
    assert "22 matches: 16 valid, 6 invalid" in done.out
    ok = cli("verify", replays / "ghost13-simulated.jsonl")
    assert ok.code == 0 and ok.out.startswith("OK ")
    doc = json.loads(cli("verify", "--json", replays / "ghost13-disputed.jsonl").out)
    assert [m["valid"] for m in doc["matches"]] == [False, False]


def test_the_store_commands(cli: Cli, replays: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    first = cli("import", replays, "--db", db)
    assert first.code == 0, first.err
    listed = cli("list", "--db", db)
    assert listed.code == 0 and "club-2026-11-20-table-3" in listed.out
    as_json = json.loads(cli("list", "--db", db, "--json").out)
    assert len(as_json["matches"]) == 22
    stored = cli("verify", "--db", db)
    assert stored.code == 1 and "22 matches: 16 valid, 6 invalid" in stored.out
    assert cli("reindex", "--db", db).code == 0


def test_export_in_every_format(cli: Cli, replays: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    cli("import", replays / "ghost13-tabletop-hidden.jsonl", "--db", db)
    mid = "club-2026-11-20-table-3"
    log = cli("export", mid, "--db", db, "--format", "jsonl")
    assert log.code == 0
    assert log.stdout == (replays / "ghost13-tabletop-hidden.jsonl").read_bytes()
    scored = cli("export", mid, "--db", db, "--format", "jsonl", "--scored")
    assert scored.code == 0 and scored.out.count("\n") >= log.out.count("\n")
    rows = list(csv.DictReader(io.StringIO(cli("export", mid, "--db", db, "--format", "csv").out)))
    assert rows and all(r for r in rows)
    doc = json.loads(cli("export", mid, "--db", db, "--format", "json").out)
    assert doc["matches"][0]["variant"] == "ghost13"
    svg = cli("export", replays / "39-worked-example.jsonl", "--format", "svg", "--at", "20")
    assert svg.code == 0
    ET.fromstring(svg.stdout)
    text = cli("export", replays / "39-worked-example.jsonl", "--format", "text", "--at", "20")
    assert text.code == 0 and text.out.strip()


def test_show_simulate_and_schema(cli: Cli, replays: Path, tmp_path: Path) -> None:
    shown = cli("show", replays / "ghost13-disputed.jsonl", "--at", "24")
    assert shown.code == 0 and "Ana" in shown.out
    out = tmp_path / "sim.jsonl"
    sim = cli("simulate", "--variant", "double-draw", "--players", "4", "--matches", "2", "--seed", "3", "--out", out)
    assert sim.code == 0
    assert cli("verify", out).code == 0
    piped = cli("simulate", "--matches", "1", "--seed", "1", "--hide")
    assert piped.code == 0
    assert cli("verify", "/dev/stdin", input=piped.stdout).code == 0
    schemas = tmp_path / "schemas"
    assert cli("schema", "--out", schemas).code == 0
    assert sorted(p.name for p in schemas.iterdir()) == sorted(p.name for p in (ROOT / "schemas").iterdir())


def _viewer(args: list[str], cwd: Path) -> pexpect.spawn:
    env = clean_env(TERM="xterm-256color", COLUMNS="100", LINES="32")
    return pexpect.spawn(
        console_script(), args, cwd=str(cwd), env=env, dimensions=(32, 100), timeout=30, encoding="utf-8"
    )


@pytest.mark.parametrize("name", ["ghost13-disputed.jsonl", "39-worked-example.jsonl"])
def test_replay_in_a_real_terminal_steps_and_quits(replays: Path, name: str) -> None:
    child = _viewer(["replay", str(replays / name)], replays)
    try:
        child.expect("quit")  # the footer is drawn: the app is up
        for key in ["n", "n", "n", "]", "G", "g", "v", "l", "h", "?", "?", "p"]:
            child.send(key)
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 0, child.before


def test_replay_of_a_store_match_in_a_real_terminal(cli: Cli, replays: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    cli("import", replays / "ghost13-tabletop-hidden.jsonl", "--db", db)
    child = _viewer(["replay", "--db", str(db), "club-2026-11-20-table-3", "--at", "10"], tmp_path)
    try:
        child.expect("quit")
        child.send("n")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
