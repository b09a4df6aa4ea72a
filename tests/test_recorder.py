"""The recorder (``dominolog record``): a full hand of every variant typed key by key (Textual's Pilot)
and compared with the stored log field by field; places picked with one key, Tab, refusals,
typing ahead of the prompts, corrections, two recorders on one match, a snapshot, hostile names,
and the installed command in a real terminal, killed mid-hand and resumed.

Snapshots: ``pytest tests/test_recorder.py --snapshot-update`` regenerates them (look at them first)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dominolog.log.reader import MatchLog
from dominolog.reducer import reduce_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.store import verify_stored
from dominolog.tui.recorder_app import RecorderApp
from tests.recorder_kit import SIZE, VARIANTS, Table, bare, drive, new_match, plain, record_hand, type_keys


@pytest.mark.parametrize(("variant", "players", "options", "seed"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_a_full_hand_of_every_variant_by_keystrokes(
    tmp_path: Path, variant: str, players: list[str], options: Any, seed: int
) -> None:
    events = [bare(e) for e in hide_match(simulate_match(variant, seed, 0, players, options))]
    end = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    store, session = new_match(tmp_path / "r.db", "m1", variant, players, options)
    app = RecorderApp(session, "m1", poll=None)
    tables: list[Table] = []

    async def body(pilot: Any) -> None:
        table = Table(pilot, app)
        tables.append(table)
        await record_hand(table, events[1], events[2 : end + 1])

    drive(app, body)
    table = tables[0]
    assert table.prompted or table.typed  # the hand had a reveal
    if variant in ("brettspielnetz", "double-bergen", "double-draw"):
        assert table.prompted, "no reveal was asked for at its prompt"
    expected = table.expected
    stored = [bare(rec.obj or {}) for rec, _ in store.records("m1")]
    assert stored[0]["variant"] == variant
    first_difference = next(
        ((i, a, b) for i, (a, b) in enumerate(zip(stored[1:], expected, strict=False)) if a != b),
        ("lengths", len(stored) - 1, len(expected)),
    )
    assert stored[1:] == expected, first_difference
    report = verify_stored(store, "m1")
    assert report.violations == []
    fold = reduce_match(MatchLog("m1", 1, [rec for rec, _ in store.records("m1")]))
    assert fold.state is not None and fold.state.results[0].points == events[end]["points"]


# -- what the screen shows ------------------------------------------------------------------------------


def test_snapshot_recorder_mid_hand_with_a_place_to_pick(snap_compare: Any, tmp_path: Path) -> None:
    """Ghost 13 with hidden hands, Ana's 4-3 fitting both ends: the places numbered in the prompt."""
    _, session = new_match(tmp_path / "s.db", "club-2026-11-20-t3", "ghost13", ["Ana", "Ben"])
    assert session.enter("deal Ana [?] 66 64L 62R 24R").ok
    app = RecorderApp(session, "club-2026-11-20-t3", poll=None)

    async def before(pilot: Any) -> None:
        await pilot.pause()
        app.recorder.entry.cursor_blink = False
        await type_keys(pilot, "43")

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_an_entry_draws_only_its_new_row_of_the_event_list(tmp_path: Path) -> None:
    """The event list keeps the lines it drew: an entry draws its own row (and the cursor's) and no
    other, and what is shown is what a list drawn anew from the whole match shows."""
    _, session = new_match(tmp_path / "e.db", "e", "ghost13", ["Ana", "Ben"])
    assert session.enter("deal Ana [?] 66 65R 54R 43R").ok
    app = RecorderApp(session, "e", poll=None)

    def lines(rows: Any) -> list[list[Any]]:
        return [list(rows.render_line(y)) for y in range(rows.scrollable_content_region.height)]

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        rows = t.screen.events.body
        for entry in ("32R", "-", "~", "21R"):
            kept = dict(rows._strips)
            await t.enter(entry)
            assert t.message.startswith("recorded"), t.message
            shown = lines(rows)
            new = rows.cursor  # the new row: drawn, and the cursor moved to it from the row before
            redrawn = {new, -1 - new, new - 1, -new}  # a row's key, its key as the cursor row: -1 - index
            assert kept and all(rows._strips.get(key) is strip for key, strip in kept.items() if key not in redrawn)
            t.screen.events.load(t.screen.timeline)  # the whole list drawn anew
            await pilot.pause()
            assert lines(rows) == shown, entry

    drive(app, body)


def test_hostile_names_and_notes_are_shown_escaped(tmp_path: Path) -> None:
    """Rich markup and terminal controls in names, the id and notes: drawn as written, never run."""
    players = ["[bold]Eve[/]", "[@click=app.quit]Q[/]"]
    mid = "club [b]x[/b] [/]"
    _, session = new_match(tmp_path / "h.db", mid, "ghost13", players)
    app = RecorderApp(session, mid, poll=None)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        screen = t.screen
        assert "[bold]Eve[/] [?]" in t.prompt  # the deal's example, names as written
        await t.enter('deal "[bold]Eve[/]" [?] 66')
        await t.enter("{Eve says [red]hi[/] \\u001b[2J\\u009b}")
        assert "[red]hi[/]" in t.message and "\x1b" not in t.message and "\x9b" not in t.message
        assert "[@click=app.quit]Q[/] to play" in t.prompt
        assert screen.events._border_title is not None and screen.events._border_title.plain == mid
        assert "[bold]Ev" in plain(screen.hands) and "[@click=app.quit]Q[/]" in plain(screen.status)
        assert screen.timeline is not None and "\x1b" not in screen.timeline.rows[-1].text
        await pilot.click("#status")
        assert app.is_running  # [@click=app.quit] did not quit it

    drive(app, body)
