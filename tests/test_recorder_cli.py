"""The installed ``dominolog record`` in a real terminal: killed mid-hand and resumed; what it refuses."""

from __future__ import annotations

import json
import os
import re
import signal
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pexpect

from dominolog.cli.record import new_id
from dominolog.recording.journal import FileJournal
from dominolog.recording.session import Session
from tests.conftest import Ran, clean_env, console_script
from tests.recorder_kit import new_match

# -- the installed command ------------------------------------------------------------------------------


def _terminal(args: list[str], cwd: Path) -> pexpect.spawn:
    env = clean_env(TERM="xterm-256color", COLUMNS="100", LINES="32")
    return pexpect.spawn(
        console_script(), args, cwd=str(cwd), env=env, dimensions=(32, 100), timeout=30, encoding="utf-8"
    )


def test_record_in_a_real_terminal_killed_mid_hand_then_resumed(cli: Callable[..., Ran], tmp_path: Path) -> None:
    start = ["record", "--variant", "ghost13", "--players", "Ana,Ben", "--id", "t1", "--db", "x.db"]
    child = _terminal(start, tmp_path)
    try:
        child.expect("type the deal")
        for n, entry in enumerate(["deal Ana [?]", "66", "65R", "54R"], start=2):
            child.send(entry + "\r")
            child.expect(f"recorded seq {n}")
        child.send("43")  # typed, not entered: not written
        os.kill(child.pid, signal.SIGKILL)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    again = _terminal(["record", "t1", "--db", "x.db"], tmp_path)
    try:
        again.expect("5 events recorded; the last: seq 5 play Ana 5-4 right")
        again.send("43R\r")
        again.expect("recorded seq 6 play Ben 4-3 right")
        again.send("\x11")  # ctrl+q
        again.expect(pexpect.EOF)
    finally:
        again.close()
    assert again.exitstatus == 0, again.before
    assert "t1: 6 events in " in (again.before or "")
    checked = cli("verify", "--db", tmp_path / "x.db")
    assert checked.code == 0, checked.out + checked.err
    exported = cli("export", "t1", "--db", tmp_path / "x.db")
    events = [json.loads(line) for line in exported.out.splitlines()]
    assert [(e["type"], e.get("player"), e.get("tile"), e.get("end")) for e in events] == [
        ("match_start", None, None, None),
        ("deal", None, None, None),
        ("play", "Ana", "6-6", None),
        ("play", "Ben", "6-5", "right"),
        ("play", "Ana", "5-4", "right"),
        ("play", "Ben", "4-3", "right"),
    ]


def test_record_refuses_what_it_cannot_start_or_resume(cli: Callable[..., Ran], tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    new_match(db, "m1", "ghost13", ["Ana", "Ben"])[0].close()
    taken = cli("record", "--variant", "ghost13", "--players", "Ana,Ben", "--id", "m1", "--db", db)
    assert taken.code == 2 and "a match 'm1' is there already" in taken.err
    missing = cli("record", "m2", "--db", db)
    assert missing.code == 2 and "no match 'm2' to resume; did you mean m1?" in missing.err
    bad = cli("record", "--variant", "ghost14", "--players", "Ana,Ben", "--db", tmp_path / "new.db")
    assert bad.code == 1 and "refused: " in bad.err and "ghost13" in bad.err
    one = cli("record", "--variant", "ghost13", "--players", "Ana", "--db", tmp_path / "new.db")
    assert one.code == 1 and "players" in one.err
    assert not (tmp_path / "new.db").exists()  # nothing written, not even a store
    assert cli("record", "--db", db).code == 2
    assert cli("record", "--file", tmp_path / "none.jsonl").code == 2
    assert cli("record", "--variant", "39", "--players", "A,B", "--file", tmp_path / "x.dn").code == 2
    log = tmp_path / "f.jsonl"
    start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "f1"}
    assert Session(FileJournal(log)).enter_event(Session.start_event(start)).ok
    again = cli("record", "--variant", "ghost13", "--players", "Ana,Ben", "--id", "f1", "--file", log)
    assert again.code == 2 and "already holds a match 'f1'" in again.err
    assert cli("record", "--file", log, "--db", db).code == 2
    assert re.fullmatch(r"rec-2026-11-24-1530-[0-9a-f]{4}", new_id(datetime(2026, 11, 24, 15, 30)))
