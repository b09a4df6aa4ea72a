"""The replay viewer (issue 6): the model, the drawings, the screen driven by keys (Textual's Pilot),
every bundled replay walked from its first event to its last and back, the command line, and SVG
snapshots (pytest-textual-snapshot: ``python -m pytest tests/test_tui.py --snapshot-update``
regenerates them; look at them before committing)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from typer.testing import CliRunner

from dominolog.cli import app as cli_app
from dominolog.layouts.line import LineLayout
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.simulate import simulate_match
from dominolog.store import open_store
from dominolog.tiles import Tile
from dominolog.tui import keys
from dominolog.tui.app import ReplayApp
from dominolog.tui.drawing import BACK_TILE, LATER, LEGAL, hand_line, snake
from dominolog.tui.screens.jump import JumpScreen
from dominolog.tui.screens.replay import ReplayScreen
from dominolog.tui.timeline import Timeline
from dominolog.tui.widgets import EventList, HandsPanel, IssueBar, ScoresPanel, StatusBar, TableView
from dominolog.tui.widgets.events import EventRows
from dominolog.tui.widgets.table_view import window

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
DISPUTED = REPLAYS / "ghost13-disputed.jsonl"
HIDDEN = REPLAYS / "ghost13-tabletop-hidden.jsonl"
WORKED_39 = REPLAYS / "39-worked-example.jsonl"
SIMULATED_39 = REPLAYS / "39-simulated.jsonl"
SIZE = (100, 40)
runner = CliRunner()


def match(path: Path, k: int = 0) -> MatchLog:
    return list(iter_matches(path))[k]


def simulated(variant: str, seed: int, players: list[str], options: dict[str, Any] | None = None) -> MatchLog:
    events = simulate_match(variant, seed, 0, players, options)
    data = "\n".join(json.dumps(e) for e in events).encode()
    return next(iter(iter_matches(f"{variant}-{seed}.jsonl", data)))


def plain(widget: Any) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


def styled(widget: Any, style: str) -> list[str]:
    """The pieces of a panel's text drawn in ``style``."""
    text: Text = widget.content
    return [text.plain[s.start : s.end] for s in text.spans if str(s.style) == style]


def drive(app: ReplayApp, body: Callable[[Any], Awaitable[None]], size: tuple[int, int] = SIZE) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(run())


# -- the model -----------------------------------------------------------------------------------


def test_timeline_frames_marks_and_navigation() -> None:
    tl = Timeline(match(DISPUTED))
    assert len(tl) == 28 and tl.seqs[0] == 1 and tl.seqs[-1] == 28
    assert tl.index_of(24) == 23 and tl.index_of(99) is None
    assert tl.deal_indexes == [1, 13]  # seq 2 and seq 14
    assert tl.next_hand(5) == 13 and tl.next_hand(13) == tl.last
    assert tl.previous_hand(20) == 13 and tl.previous_hand(13) == 1 and tl.previous_hand(1) == 0
    assert [tl.seqs[i] for i in tl.violation_indexes] == [24, 27, 28]
    assert tl.next_violation(0) == 23 and tl.previous_violation(23) is None
    assert [m.issue.code for m in tl.marks_at(23)] == ["renege"]
    # after hand 1 (seq 13): the closed hand is shown, its result counted
    frame = tl.frame(12)
    assert frame.closed and frame.results == 1 and frame.totals == {"Ana": 0, "Ben": 124}
    # before seq 24 Ana is on move and may play 6-6 on either end: the renege the log records
    assert (Tile(6, 6), "left") in tl.legal(22) and (Tile(6, 6), "right") in tl.legal(22)
    assert tl.rows[23].player == "Ana" and tl.rows[23].text == "pass"
    assert tl.rows[12].text == "hand_end" and tl.rows[12].points == "124"


def test_timeline_knows_hidden_hands_later() -> None:
    tl = Timeline(match(HIDDEN))
    i = tl.index_of(21)
    assert i is not None
    hand = tl.frame(i).hand
    assert hand is not None and hand.hidden
    assert all(h.unknown and not h.known for h in hand.holdings.values())
    later = tl.later(i).tiles
    assert {str(t) for t in later["Ana"]} == {"1-2", "2-3", "2-5", "3-6", "4-5", "5-5"}
    assert len(later["Ben"]) == hand.holdings["Ben"].unknown
    # nothing is known of Ana's tiles then; what the reveals prove gives her legal plays
    assert tl.legal(i) == [] and tl.legal(i, reveal=True) == [(Tile(3, 6), "left"), (Tile(3, 6), "right")]


def test_timeline_of_a_long_match_is_a_lookup() -> None:
    tl = Timeline(simulated("39", 1, ["Ana", "Ben"], {"hands": 40}))
    assert len(tl) >= 2000 and len(tl.deal_indexes) == 40
    assert tl.frame(1500).seq == 1501 and tl.frame(tl.last).ended


# -- the drawings ----------------------------------------------------------------------------------


def test_snake_alternates_direction_and_keeps_halves_touching() -> None:
    chain = [(i % 7, (i + 1) % 7) for i in range(20)]
    layout = LineLayout(chain=chain, left=0, right=20 % 7, on_board={Tile(a, b) for a, b in chain})
    drawing = snake(layout, 27, last=Tile(3, 4), legal_ends=["right"])  # 5 tiles a row
    rows = drawing.text.plain.split("\n")
    assert len(rows) == 4 and all(len(r) == 27 for r in rows)
    assert rows[0].startswith(" [0|1][1|2]") and rows[0].endswith("┐")
    assert rows[1] == "┌[3|2][2|1][1|0][0|6][6|5]┘"  # right to left: (5, 6) comes first, on the right
    assert rows[2].startswith("└[3|4]") and rows[3] == " [6|5][5|4][4|3][3|2][2|1]┘"
    read = []  # reading the snake back gives the chain, every touching half equal
    for r, row in enumerate(rows):
        cells = [(int(row[k + 1]), int(row[k + 3])) for k in range(1, len(row) - 1, 5) if row[k] == "["]
        read += cells if r % 2 == 0 else [(b, a) for a, b in reversed(cells)]
    assert read == chain
    assert drawing.ends.plain == "left 0   right 6"
    assert [drawing.ends.plain[s.start : s.end] for s in drawing.ends.spans if s.style == LEGAL] == ["6"]
    assert drawing.focus == (1 + 3 * 5 + 2, 0)


def test_hand_line_backs_later_and_legal_tiles() -> None:
    line = hand_line("Ana", [Tile(1, 2)], 3, on_move=True, legal=[Tile(1, 2)], later=[Tile(5, 5)])
    assert line.plain == f"▶ Ana     4 [1|2][5|5]{BACK_TILE * 2}"
    assert [line.plain[s.start : s.end] for s in line.spans if s.style == LEGAL] == ["[1|2]"]
    assert [line.plain[s.start : s.end] for s in line.spans if s.style == LATER] == ["[5|5]"]
    many = hand_line("Ben", [], 14, width=40)
    assert many.plain.endswith(f"{BACK_TILE}×14")
    wrapped = hand_line("Ben", [Tile(0, k) for k in range(7)], 0, name_width=3, width=30)
    assert wrapped.plain.split("\n") == ["  Ben  7 [0|0][0|1][0|2][0|3]", "         [0|4][0|5][0|6]"]


def test_window_centres_a_large_table_on_its_focus() -> None:
    text = Text("\n".join(f"{y:02d}" + "".join(chr(65 + x % 26) for x in range(60)) for y in range(30)))
    cut = window(text, (40, 20), 10, 4, (0, 0)).plain.split("\n")
    assert cut == [text.plain.split("\n")[y][35:45] for y in range(18, 22)]
    assert window(text, (0, 0), 10, 4, (0, 0)).plain.split("\n")[0] == "00ABCDEFGH"  # clamped
    small = Text("ab\ncd")
    assert window(small, None, 10, 4, (3, 3)) is small


# -- the screen, driven by keys ----------------------------------------------------------------------


def screen_of(app: ReplayApp) -> ReplayScreen:
    return app.replay


def test_keys_are_all_in_one_table() -> None:
    actions = {k.action.split("(")[0] for k in keys.KEYS}
    for action in actions:
        assert hasattr(ReplayScreen, f"action_{action}"), action
    assert [b.action for b in ReplayScreen.BINDINGS] == [k.action for k in keys.KEYS]
    assert keys.keys_for("next_violation") == ["v"]
    bound = [key for k in keys.KEYS for key in k.keys.split(",")]
    assert len(bound) == len(set(bound)), "a key bound twice"


def test_pilot_steps_hands_first_last_and_jump() -> None:
    app = ReplayApp(match(DISPUTED))

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        status = screen.query_one(StatusBar)
        assert screen.seq == 1 and plain(status).startswith("seq 1/28")
        await pilot.press("right", "right", "n")
        assert screen.seq == 4 and plain(status).startswith("seq 4/28 · play Ben")
        await pilot.press("left")
        assert screen.seq == 3
        await pilot.press("]")
        assert screen.seq == 14 and "hand 2/2" in plain(status)
        await pilot.press("[")
        assert screen.seq == 2
        await pilot.press("end")
        assert screen.seq == 28
        await pilot.press("right")  # stays on the last event
        assert screen.seq == 28
        await pilot.press("home")
        assert screen.seq == 1
        await pilot.press("colon", "1", "9", "enter")
        await pilot.pause()
        assert screen.seq == 19 and plain(status).startswith("seq 19/28")
        rows = screen.query_one(EventRows)
        assert rows.cursor == 18 and rows.texts[18].plain.split()[:3] == ["19", "Ben", "play"]

    drive(app, body)


def test_pilot_jump_dialog_refuses_a_seq_out_of_range() -> None:
    app = ReplayApp(match(DISPUTED))

    async def body(pilot: Any) -> None:
        await pilot.press("j", "9", "9", "enter")
        await pilot.pause()
        assert isinstance(app.screen, JumpScreen)
        assert "no seq 99" in plain(app.screen.query_one("#jump-error"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen_of(app) and screen_of(app).seq == 1

    drive(app, body)


def test_pilot_next_violation_highlights_it() -> None:
    app = ReplayApp(match(DISPUTED))

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        await pilot.press("v")
        assert screen.seq == 24
        issues = plain(screen.query_one(IssueBar))
        assert issues.startswith("✗ renege: Ana passes while holding a legal play (6-6 left, 6-6 right)")
        rows = screen.query_one(EventRows)
        row = rows.texts[rows.cursor]
        assert row.plain.split()[:3] == ["24", "Ana", "pass"] and "✗ renege" in row.plain
        assert any(str(s.style) == "bold red" for s in row.spans)
        await pilot.press("v")
        assert screen.seq == 27
        assert "score-mismatch" in plain(screen.query_one(IssueBar))
        await pilot.press("V")
        assert screen.seq == 24

    drive(app, body)


def test_pilot_legal_plays_at_a_pass_are_the_passing_players() -> None:
    """On the renege (seq 24, Ana passes), the legal plays shown are Ana's just before the pass."""
    app = ReplayApp(match(DISPUTED), start_seq=24)

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        await pilot.press("l")
        assert "legal 2 (Ana, before)" in plain(screen.query_one(StatusBar))
        assert styled(screen.query_one(HandsPanel), LEGAL)[0] == "[6|6]"
        assert styled(screen.query_one("#table-ends"), LEGAL) == ["6", "6"]

    drive(app, body)


def test_pilot_scores_and_totals() -> None:
    app = ReplayApp(match(DISPUTED), start_seq=13)

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        sheet = plain(screen.query_one(ScoresPanel)).split("\n")
        assert sheet[1].split() == ["1", "block", "0", "124"]
        assert sheet[-1].split() == ["total", "0", "124"]
        assert "hand 1 over: block, winner Ben" in plain(screen.query_one("#table-ends"))
        await pilot.press("end")
        assert plain(screen.query_one(ScoresPanel)).split("\n")[-1].split() == ["total", "0", "272"]
        assert "winner" in plain(screen.query_one(StatusBar))

    drive(app, body)


def test_pilot_legal_plays_highlighted_in_hand_and_table() -> None:
    app = ReplayApp(match(DISPUTED), start_seq=23)

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        hands = screen.query_one(HandsPanel)
        assert styled(hands, LEGAL) == []
        await pilot.press("l")
        assert styled(hands, LEGAL) == ["[6|6]", "[a|b]"]  # Ana's 6-6, and the legend
        ends = screen.query_one("#table-ends")
        assert styled(ends, LEGAL) == ["6", "6"]  # both open ends take it
        assert "legal 2" in plain(screen.query_one(StatusBar))
        await pilot.press("l")
        assert styled(hands, LEGAL) == []

    drive(app, body)


def test_pilot_hidden_hands_toggle_shows_what_is_known_later() -> None:
    app = ReplayApp(match(HIDDEN), start_seq=21)

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        hands = screen.query_one(HandsPanel)
        lines = plain(hands).split("\n")
        assert lines[0] == f"▶ Ana  6 {BACK_TILE * 6}" and lines[1] == f"  Ben  6 {BACK_TILE * 6}"
        await pilot.press("h")
        assert plain(hands).split("\n")[0] == "▶ Ana  6 [1|2][2|3][2|5][3|6][4|5][5|5]"
        assert styled(hands, LATER)[:6] == ["[1|2]", "[2|3]", "[2|5]", "[3|6]", "[4|5]", "[5|5]"]
        assert "revealed" in plain(screen.query_one(StatusBar))
        await pilot.press("l")  # legal plays from what the reveals prove
        assert f"{LATER} on green" in {str(s.style) for s in hands.content.spans}
        await pilot.press("h")
        assert BACK_TILE in plain(hands).split("\n")[0]

    drive(app, body)


def test_pilot_click_on_an_event_row_jumps_there() -> None:
    app = ReplayApp(match(DISPUTED))

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        rows = screen.query_one(EventRows)
        top = int(rows.scroll_offset.y)
        await pilot.click(EventRows, offset=(8, 5))
        await pilot.pause()
        assert screen.index == top + 5 and rows.cursor == top + 5

    drive(app, body)


def test_pilot_small_terminal_80x24() -> None:
    app = ReplayApp(simulated("double-bergen", 3, ["Ana", "Ben", "Cleo", "Dev"]), start_seq=40)

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        await pilot.press("l", "right", "left")
        assert screen.seq == 40
        assert screen.has_class("-narrow") and screen.has_class("-grid")
        table = screen.query_one(TableView)
        assert table.size.width >= 38 and table.size.height >= 8
        assert screen.query_one(EventList).size.height >= 8
        assert len(plain(screen.query_one(HandsPanel)).split("\n")) == 5  # 4 players and the boneyard

    drive(app, body, size=(80, 24))


# -- every replay, first to last and back -------------------------------------------------------------

ALL_MATCHES = [(path, k) for path in sorted(REPLAYS.glob("*.jsonl")) for k in range(len(list(iter_matches(path))))]


@pytest.mark.parametrize(("path", "k"), ALL_MATCHES, ids=[f"{p.name}#{k + 1}" for p, k in ALL_MATCHES])
def test_every_replay_steps_first_to_last_and_back(path: Path, k: int) -> None:
    """Every event, forward with legal plays and hidden hands shown, then backward without; the
    screen is painted every few steps (and the keys' way is taken at both ends)."""
    app = ReplayApp(match(path, k))

    async def body(pilot: Any) -> None:
        screen = screen_of(app)
        tl = screen.timeline
        await pilot.press("l", "h")
        for i in range(len(tl)):
            screen.goto(i)
            assert screen.index == i and screen.query_one(EventRows).cursor == i
            if i % 61 == 0:
                await pilot.pause()
        await pilot.press("end", "right")
        assert screen.index == tl.last
        await pilot.press("l", "h")
        for i in range(tl.last, -1, -1):
            screen.goto(i)
            if i % 67 == 0:
                await pilot.pause()
        await pilot.press("left", "home")
        assert screen.index == 0 and screen.seq == tl.seqs[0]

    drive(app, body)
    assert app.return_code in (None, 0)


# -- the command line ------------------------------------------------------------------------------------


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[ReplayApp]:
    """``ReplayApp.run`` replaced: the apps the command would have run."""
    apps: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_cli_replay_a_file(launched: list[ReplayApp]) -> None:
    result = runner.invoke(cli_app, ["replay", str(DISPUTED), "--match", "2", "--at", "12"])
    assert result.exit_code == 0, result.output
    (app,) = launched
    assert app.match_title == "ghost13-disputed.jsonl #2/2" and app.timeline.seqs[app.start_index] == 12
    assert (
        app.timeline.reducer.state is not None and app.timeline.reducer.state.match_id == "disputed-hidden-2026-11-20"
    )


def test_cli_replay_from_the_store(tmp_path: Path, launched: list[ReplayApp]) -> None:
    db = tmp_path / "m.db"
    with open_store(db) as store:
        list(store.import_matches(iter_matches(DISPUTED)))
        ids = store.match_ids()
    result = runner.invoke(cli_app, ["replay", "--db", str(db), ids[0]])
    assert result.exit_code == 0, result.output
    (app,) = launched
    assert len(app.timeline) > 0 and app.match_title == ids[0]
    assert app.timeline.report.violations  # both matches of the file are disputed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["replay", "nope.jsonl"], "nope.jsonl: no such file"),
        (["replay", str(DISPUTED), "--match", "3"], "there is no match 3 (the file holds 2)"),
        (["replay", str(DISPUTED), "--at", "99"], "has 28 events; there is no seq 99"),
        (["replay", "--db", "nope.db", "x"], "nope.db: no such database"),
        (["replay", "--db", str(DISPUTED), "x"], "not a SQLite database"),
    ],
)
def test_cli_replay_errors_exit_2_without_a_traceback(args: list[str], message: str, launched: list[ReplayApp]) -> None:
    result = runner.invoke(cli_app, args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert launched == []


def test_cli_replay_no_such_match_in_the_store(tmp_path: Path, launched: list[ReplayApp]) -> None:
    db = tmp_path / "m.db"
    with open_store(db) as store:
        list(store.import_matches(iter_matches(DISPUTED)))
    result = runner.invoke(cli_app, ["replay", "--db", str(db), "nosuch"])
    assert result.exit_code == 1 and "no match 'nosuch' (it holds 2" in result.output


# -- snapshots (SVG, reviewed by eye; tests/__snapshots__/test_tui/) ------------------------------------------


def test_snapshot_line_game(snap_compare: Any) -> None:
    """Ghost 13, the second hand under way: the snake, both hands known, legal plays shown."""
    app = ReplayApp(match(REPLAYS / "ghost13-simulated.jsonl"), start_seq=44)
    assert snap_compare(app, terminal_size=SIZE, press=["l"])


def test_snapshot_39_table(snap_compare: Any) -> None:
    """39 at a late event: the 2-D table of ``show``, the preferred suit, points during the hand."""
    path = WORKED_39 if WORKED_39.exists() else SIMULATED_39
    log = match(path)
    app = ReplayApp(log, start_seq=log.records[-1].seq - (0 if path == WORKED_39 else 12))
    assert snap_compare(app, terminal_size=SIZE, press=["l"])


def test_snapshot_double_bergen_four_players(snap_compare: Any) -> None:
    """Double Bergen, four players, the spinner's arms growing; legal plays shown."""
    app = ReplayApp(simulated("double-bergen", 3, ["Ana", "Ben", "Cleo", "Dev"]), start_seq=40)
    assert snap_compare(app, terminal_size=SIZE, press=["l"])


def test_snapshot_double_bergen_80x24(snap_compare: Any) -> None:
    """The same table in an 80 x 24 terminal."""
    app = ReplayApp(simulated("double-bergen", 3, ["Ana", "Ben", "Cleo", "Dev"]), start_seq=40)
    assert snap_compare(app, terminal_size=(80, 24), press=["l"])


def test_snapshot_hidden_hands(snap_compare: Any) -> None:
    """A tabletop recording: both hands hidden, drawn as backs with a count."""
    app = ReplayApp(match(HIDDEN), start_seq=21)
    assert snap_compare(app, terminal_size=SIZE)


def test_snapshot_hidden_hands_revealed(snap_compare: Any) -> None:
    """The same event with the hidden hands shown as the reveals prove them (italic), legal plays on."""
    app = ReplayApp(match(HIDDEN), start_seq=21)
    assert snap_compare(app, terminal_size=SIZE, press=["h", "l"])


def test_snapshot_disputed_on_its_violation(snap_compare: Any) -> None:
    """The disputed Ghost 13 match on its renege (seq 24), reached with the next-violation key."""
    app = ReplayApp(match(DISPUTED))
    assert snap_compare(app, terminal_size=SIZE, press=["v", "l"])


def test_snapshot_disputed_80x24(snap_compare: Any) -> None:
    app = ReplayApp(match(DISPUTED))
    assert snap_compare(app, terminal_size=(80, 24), press=["v"])


def test_snapshot_analysed_on_a_mistake(snap_compare: Any) -> None:
    """The tabletop Ghost 13 match with its analysis (each hand's last 4 decisions, exact): the points each
    decision lost in the event list, and Ben's mistake at seq 29 (-16) with its options, the best in green."""
    from dominolog.analysis.review import review_match
    from dominolog.analysis.shown import parse_review

    log = match(HIDDEN)
    app = ReplayApp(log, analysis=parse_review(review_match(log, last=4).as_dict()), start_seq=29)
    assert snap_compare(app, terminal_size=SIZE)


# -- text from the log is shown as written, never as markup or terminal controls ------------------------------


def test_pilot_markup_and_controls_in_log_text_are_shown_literally() -> None:
    """An id, a meta value and notes holding Rich markup (balanced, an action, an unbalanced ``[/]``) and
    terminal controls: the viewer opens, steps through every event, and shows them as written."""
    hostile = "Eve [bold]x[/] [@click=app.quit]quit[/] [/] \x1b[2J\x9b\r"
    events = simulate_match("ghost13", 2, 0, ["Ana", "Ben"])
    events[0]["id"] = "club [b]x[/b] [/]"
    events[0]["meta"] = {"event": hostile}
    events.insert(2, {"type": "note", "text": hostile})
    for e in events:
        e.pop("hash", None)
        e.pop("seq", None)
    data = "\n".join(json.dumps(e) for e in events).encode()
    log = next(iter(iter_matches("hostile.jsonl", data)))
    app = ReplayApp(log, "club [b]x[/b] [/]")

    async def body(pilot: Any) -> None:
        screen = app.replay
        events_panel = screen.query_one(EventList)
        assert events_panel._border_title.plain == "club [b]x[/b] [/]"  # drawn as written
        await pilot.press("n", "n")
        rows = [r.text for r in app.timeline.rows]
        note = next(r for r in rows if r.startswith("note"))
        assert "[bold]x[/]" in note and "[@click=app.quit]" in note and "\\x1b[2J" in note and "\x1b" not in note
        await pilot.press("n", "n", "G", "g", "v")
        assert app.is_running  # [@click=app.quit] did not quit it

    drive(app, body)


def test_svg_pictures_stay_well_formed_whatever_the_title() -> None:
    import xml.etree.ElementTree as ET

    from dominolog.layouts.grid import GridLayout
    from dominolog.layouts.picture import svg_picture

    text = svg_picture(GridLayout(), "Eve\x00\x1b[2J <&> \"'\ufffe\ud800", "note\x07")
    root = ET.fromstring(text)
    shown = "".join(root.itertext())
    assert "Eve\\x00\\x1b[2J <&>" in shown and "\\x07" in shown
