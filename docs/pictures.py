"""Rebuild the table pictures in docs/: ``python docs/pictures.py`` with dominolog installed.

``tests/test_pictures.py`` checks that the files are what this writes, and parses them. The same
run saves the recorder's screenshot (``docs/recorder.svg``, for the README) with Textual's
``save_screenshot``.
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dominolog.layouts.picture import svg_picture
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import reduce_match
from dominolog.simulate import simulate_match

ROOT = Path(__file__).resolve().parent.parent

DOCS = ROOT / "docs"
#: (file, title, where the log comes from, the seq to draw)
PICTURES = [
    ("39-worked-example.svg", "39: the rule text's worked example, after play #12", "replay", 0),
    ("double-bergen-4-players.svg", "Double Bergen, 4 players: hand 1 after seq 24", "simulated", 24),
]


def table_at(source: str, seq: int):
    if source == "replay":
        (log,) = iter_matches(ROOT / "replays" / "39-worked-example.jsonl")
    else:
        events = simulate_match("double-bergen", 3, 0, ["Ana", "Ben", "Cleo", "Dev"])
        (log,) = iter_matches("simulated", "".join(dump_line(e) + "\n" for e in events).encode())
    upto = seq or log.records[-1].seq
    hand = reduce_match(log, upto).state.hand
    return hand.layout


def pictures() -> dict[str, str]:
    out = {}
    for name, title, source, seq in PICTURES:
        layout = table_at(source, seq)
        ends = ", ".join(f"{s.name} {s.value}" for s in layout.open_sides())
        out[name] = svg_picture(layout, title, f"open ends: {ends}")
    return out


#: the recorder's screenshot: Ghost 13 recorded with hidden hands, hand 2 under way, a tile typed
#: that fits both ends (its places offered, one key each)
RECORDER = "recorder.svg"


def save_recorder(folder: Path = DOCS, name: str = RECORDER) -> None:
    from dominolog.log.notation_write import format_event
    from dominolog.recording.journal import FileJournal
    from dominolog.recording.session import Session
    from dominolog.simulate import hide_match
    from dominolog.tui.recorder_app import RecorderApp

    start = datetime(2026, 11, 20, 19, 30, tzinfo=UTC)
    ticks = iter(range(10_000))

    def now() -> str:
        return (start + timedelta(seconds=17 * next(ticks))).strftime("%Y-%m-%dT%H:%M:%SZ")

    events = hide_match(simulate_match("ghost13", 1, 0, ["Ana", "Ben"]))
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(FileJournal(Path(tmp) / "club.jsonl"), now=now)
        head = {k: v for k, v in events[0].items() if k not in ("seq", "hash", "at")}
        session.enter_event(Session.start_event({**head, "id": "club-2026-11-20-t3"}))
        deals = 0
        for e in events[1:]:
            body = {k: v for k, v in e.items() if k not in ("seq", "hash", "at")}
            deals += body["type"] == "deal"
            tile = body.get("tile")
            if deals == 2 and tile and "end" in body and len(session.places(tile)) > 1:
                typed = tile.replace("-", "")
                break
            session.enter(format_event(body, session.on_move, session.next_leader()) or "")
        app = RecorderApp(session, "club-2026-11-20-t3", poll=None)

        async def shoot() -> None:
            async with app.run_test(size=(100, 32)) as pilot:
                await pilot.pause()
                app.recorder.entry.cursor_blink = False
                await pilot.press(*typed, "enter")
                await pilot.pause()
                app.save_screenshot(name, str(folder))

        asyncio.run(shoot())


def main() -> None:
    for name, text in pictures().items():
        (DOCS / name).write_text(text, encoding="utf-8")
    save_recorder()


if __name__ == "__main__":
    main()
