"""What the recorder tests share: a match in a store, Pilot drivers, and the keystrokes of a hand."""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events

from dominolog.log.notation_write import format_event
from dominolog.recording.journal import StoreJournal
from dominolog.recording.session import Session
from dominolog.store import Store, open_store
from dominolog.tui.recorder_app import RecorderApp
from dominolog.tui.screens.correct import CorrectScreen
from dominolog.tui.screens.recorder import RecorderScreen

SIZE = (100, 32)
NOW = "2026-11-20T19:30:00Z"

IGNORED = ("at", "seq", "hash")
#: variant, players, options, seed: each first hand has at least one tile that fits two places
VARIANTS = [
    ("ghost13", ["Ana", "Ben"], None, 1),
    ("brettspielnetz", ["Ana", "Ben"], None, 1),
    ("39", ["Ana", "Ben"], None, 1),
    ("double-bergen", ["Ana", "Ben", "Cleo"], None, 1),
    ("double-draw", ["Ana", "Ben", "Cleo", "Dev"], {"partners": True}, 2),
]


def bare(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in IGNORED}


def new_match(db: Path, match_id: str, variant: str, players: list[str], options: Any = None) -> tuple[Store, Session]:
    """A match started as ``dominolog record`` starts one: its match_start written by the session."""
    store = open_store(db)
    session = Session(StoreJournal(store, match_id), now=lambda: NOW)
    start: dict[str, Any] = {"type": "match_start", "variant": variant, "players": players}
    if options:
        start["options"] = options
    start["id"] = match_id
    done = session.enter_event(Session.start_event(start))
    assert done.ok, done.stopped
    return store, session


def plain(widget: Any) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


def drive(app: RecorderApp, body: Callable[[Any], Awaitable[None]], size: tuple[int, int] = SIZE) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(run())


async def type_keys(pilot: Any, text: str, then: str = "enter") -> None:
    """Type ``text`` key by key, then press ``then``. The characters' key events are queued in order
    without waiting between them (``Pilot.press`` waits for the app to settle after each key, about
    60 ms); the last key waits."""
    for ch in text:
        key = ch if ch.isalnum() else unicodedata.name(ch).lower().replace("-", "_").replace(" ", "_")
        pilot.app.post_message(events.Key(key, ch))
    await pilot.press(then)


class Table:
    """Types at the recorder as a person does, key by key."""

    def __init__(self, pilot: Any, app: RecorderApp) -> None:
        self.pilot, self.app = pilot, app
        self.screen: RecorderScreen = app.recorder
        self.session = self.screen.session
        self.expected: list[dict[str, Any]] = []
        self.picked = 0
        #: reveals typed as tiles at their prompt / typed as notation (Ana=[...])
        self.prompted: list[str] = []
        self.typed: list[str] = []

    @property
    def prompt(self) -> str:
        return plain(self.screen.query_one("#prompt"))

    @property
    def message(self) -> str:
        return plain(self.screen.query_one("#message"))

    async def enter(self, text: str, ok: bool = True) -> None:
        await type_keys(self.pilot, text)
        if ok:
            assert not self.message.startswith(("refused", "conflict")), (text, self.message)

    async def turn(self, e: dict[str, Any], token: str | None = None) -> None:
        """One turn event; a tile that fits several places typed alone and its place picked by key."""
        places = self.session.places(e["tile"]) if e["type"] == "play" and "tile" in e else []
        if token is None and "end" in e and len(places) > 1:
            await self.enter(e["tile"].replace("-", ""))
            choice = self.screen.choice
            assert choice is not None and choice.describe() in self.prompt, self.prompt
            index = places.index(e["end"])
            suffix = choice.suffixes[index]
            letter = self.picked % 2 == 0 and suffix in ("L", "R")
            await self.pilot.press(suffix.lower() if letter else str(index + 1))
            assert self.screen.choice is None and self.message.startswith("recorded"), self.message
            self.picked += 1
        else:
            await self.enter(token or format_event(e, self.session.on_move) or "?")
        self.expected.append(e)


def flipped(e: dict[str, Any]) -> dict[str, Any]:
    """A play with its tiles written the other way round (the same play: a slip the log keeps)."""
    if e["type"] != "play" or ("tile" in e and "end" not in e):
        return e
    if "tiles" in e:
        return {**e, "tiles": [t[::-1] for t in e["tiles"]]}
    return {**e, "tile": e["tile"][::-1]}


async def record_hand(table: Table, deal: dict[str, Any], hand: list[dict[str, Any]]) -> None:
    """The hand as hidden-hands recording types it: the deal, the turns (one undone, one fixed later
    through the picker), the reveals at their prompt, the rules' outcome confirmed."""
    session, screen = table.session, table.screen
    await table.enter(format_event(deal, None, session.next_leader()) or "?")
    table.expected.append(deal)
    turns = [e for e in hand if e["type"] not in ("reveal", "hand_end")]
    reveals = [e for e in hand if e["type"] == "reveal"]
    slip = next(i for i, e in enumerate(turns) if 3 <= i < len(turns) - 3 and flipped(e) != e)
    for i, e in enumerate(turns):
        if i == slip:  # a tile written the other way round: fixed once two more entries are in
            wrong = flipped(e)
            await table.turn(wrong, format_event(wrong, session.on_move))
            slip_seq = session.reducer.events
            continue
        await table.turn(e)
        if i == 1:  # a slip noticed at once: undone, entered again
            await table.enter("~")
            table.expected.append({"type": "undo"})
            await table.turn(e)
        if i == slip + 2:
            rows = [r.seq for r in session.correctable()]
            await table.pilot.press("ctrl+e")
            assert isinstance(table.app.screen, CorrectScreen)
            await table.pilot.press(*["up"] * (len(rows) - 1 - rows.index(slip_seq)), "enter")
            assert screen.correcting == slip_seq
            assert screen.entry.value == format_event(flipped(turns[slip]), turns[slip]["player"])
            await table.pilot.press("ctrl+u")
            await table.enter(format_event(turns[slip], turns[slip]["player"]) or "?")
            assert f"fixed seq {slip_seq}: 3 undos" in table.message and "entered again: 2 events" in table.message
            # the slip and the two entries after it stay in the log, withdrawn by three undos
            table.expected += [{"type": "undo", "reason": f"correcting seq {slip_seq}"}] * 3
            table.expected += [turns[slip], turns[slip + 1], turns[slip + 2]]
    assert table.picked >= 1, "no tile fitted two places: pick another seed"
    for e in reveals:
        if screen.prompt.kind == "turn" and screen.prompt.reveals:
            await table.enter("")  # the table says the hand is over
        if screen.prompt.kind == "reveal":
            assert screen.prompt.player == e["player"] and f"{e['player']}'s tiles?" in table.prompt
            await table.enter(" ".join(t.replace("-", "") for t in e["tiles"]))
            table.prompted.append(e["player"])
        else:
            await table.enter(format_event(e) or "?")
            table.typed.append(e["player"])
        table.expected.append(e)
    end = hand[-1]
    assert screen.prompt.kind == "outcome", table.prompt
    assert screen.prompt.default == {"type": "hand_end", "points": end["points"], "winner": end["winner"]}
    await table.enter("")
    table.expected.append(end)
    assert f"fingerprint {session.fingerprint}" in table.message
    assert screen.prompt.kind in ("deal", "match_end")
