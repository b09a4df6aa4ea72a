"""``dominolog replay --follow``: the viewer shows a match while another program records it (the store
or a file), new events within a second, by Pilot and in a real terminal."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pexpect
from rich.text import Text

from dominolog.log.reader import MatchLog, iter_matches
from dominolog.recording.journal import FileJournal, Journal, StoreJournal
from dominolog.recording.session import Session
from dominolog.store import open_store
from dominolog.tui.app import ReplayApp
from dominolog.tui.follow import FileFollower, StoreFollower
from dominolog.tui.screens.replay import ReplayScreen
from dominolog.tui.widgets import StatusBar
from dominolog.tui.widgets.events import EventRows
from tests.conftest import Ran, clean_env, console_script

SIZE = (100, 32)
START = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "m"}


def recorder(journal: Journal) -> Session:
    """Another program recording the match: the start, a deal, Ana's 6-6 (seq 3)."""
    session = Session(journal, now=lambda: "2026-11-20T19:30:00Z")
    assert session.enter_event(Session.start_event(START)).ok
    assert session.enter("deal Ana [?] 66").ok
    return session


def drive(app: ReplayApp, body: Callable[[Any], Awaitable[None]]) -> None:
    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(run())


async def shown_within(pilot: Any, screen: ReplayScreen, events: int, seconds: float = 10.0) -> float:
    """How long the screen took to hold ``events`` events (fails after ``seconds``)."""
    start = time.monotonic()
    while len(screen.timeline) < events:
        assert time.monotonic() - start < seconds, f"not shown within {seconds} s"
        await pilot.pause(0.05)
    return time.monotonic() - start


def status(screen: ReplayScreen) -> str:
    content = screen.query_one(StatusBar).content
    return content.plain if isinstance(content, Text) else str(content)


def test_follow_a_stored_match(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    writer = recorder(StoreJournal(open_store(db), "m"))
    reader = open_store(db, create=False)
    log = MatchLog(f"{db}#m", 1, [rec for rec, _ in reader.records("m")])
    app = ReplayApp(log, "m", start_seq=3, follow=StoreFollower(reader, "m", log))

    async def body(pilot: Any) -> None:
        screen = app.replay
        assert screen.seq == 3 and "following" in status(screen)
        assert writer.enter("65R").ok
        await shown_within(pilot, screen, 4)
        assert screen.seq == 4 and status(screen).startswith("seq 4/4 · play Ben")  # the newest, shown
        await pilot.press("left")  # looking back: new events do not move the view
        assert writer.enter("54R 43R").ok
        await shown_within(pilot, screen, 6)
        assert screen.seq == 3 and status(screen).startswith("seq 3/6")
        await pilot.press("end")
        assert screen.seq == 6 and app.timeline is screen.timeline
        rows = screen.query_one(EventRows).texts  # only the new rows were drawn, in order
        assert [r.plain.split()[:4] for r in rows[-3:]] == [
            ["4", "Ben", "play", "6-5"],
            ["5", "Ana", "play", "5-4"],
            ["6", "Ben", "play", "4-3"],
        ]

    drive(app, body)


def test_follow_the_last_match_of_a_file(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    writer = recorder(FileJournal(path))
    (log,) = iter_matches(path)
    app = ReplayApp(log, "live.jsonl", start_seq=3, follow=FileFollower(path, log))

    async def body(pilot: Any) -> None:
        screen = app.replay
        with path.open("ab") as fh:  # a line being written: not shown until it is whole
            fh.write(b'{"type":"pass","player":"Ben"')
        await pilot.pause(0.7)
        assert len(screen.timeline) == 3
        with path.open("ab") as fh:
            fh.write(b"}\n")
        await shown_within(pilot, screen, 4)
        assert screen.seq == 4 and "pass Ben" in status(screen)
        writer.refresh()
        assert writer.enter("65R").ok
        await shown_within(pilot, screen, 5)
        assert screen.seq == 5
        assert writer.enter_event(Session.start_event({**START, "id": "m2"})).ok  # a new match: the last one
        start = time.monotonic()
        while len(screen.timeline) != 1:
            assert time.monotonic() - start < 10.0, "the new match is not shown"
            await pilot.pause(0.05)
        assert screen.seq == 1 and screen.timeline.reducer.state is not None
        assert screen.timeline.reducer.state.match_id == "m2"

    drive(app, body)


def test_follow_in_a_real_terminal(cli: Callable[..., Ran], tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    writer = recorder(StoreJournal(open_store(db), "m"))
    env = clean_env(TERM="xterm-256color", COLUMNS="100", LINES="32")
    child = pexpect.spawn(
        console_script(),
        ["replay", "--follow", "m", "--db", str(db)],
        cwd=str(tmp_path),
        env=env,
        dimensions=(32, 100),
        timeout=20,
        encoding="utf-8",
    )
    try:
        child.expect("seq 3/3")
        child.expect("following")
        assert writer.enter("65R").ok
        child.expect("seq 4/4", timeout=10)  # the screen polls every 0.5 s (speed is bench/'s, not asserted)
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, child.before
    assert cli("replay", "--follow", "nope.jsonl").code == 2
    missing = cli("replay", "--follow", "--db", db, "nope")
    assert missing.code == 1 and "no match 'nope'" in missing.err
