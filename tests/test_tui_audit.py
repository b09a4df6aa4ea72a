"""The replay viewer and the audit share one knowledge (issue 13): the hands of a hidden replay as the
whole log shows them (``h``), the plays a player had or may have had at a pass or a draw (``l``),
the next violation, certain or possible (``v``/``V``), the audit of the event shown (``a``), and
the match list of the file or the store (``ctrl+o``). Driven by keys (Textual's Pilot), and once
in a real pseudo-terminal through the installed console script."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pexpect
import pytest
from rich.text import Text
from typer.testing import CliRunner

from dominolog.cli import app as cli_app
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.simulate import simulate_match
from dominolog.store import open_store
from dominolog.tiles import Tile
from dominolog.tui import keys
from dominolog.tui.app import ReplayApp
from dominolog.tui.drawing import LATER, LEGAL, MAYBE
from dominolog.tui.knowing import Knowing
from dominolog.tui.matches import FileMatches, StoreMatches
from dominolog.tui.screens.audit import AuditScreen
from dominolog.tui.screens.matches import MatchesScreen
from dominolog.tui.timeline import Timeline
from dominolog.tui.widgets import HandsPanel, IssueBar, StatusBar
from dominolog.tui.widgets.events import UNSURE, EventRows
from tests.conftest import ROOT, clean_env, console_script
from tests.test_tui import drive, plain, styled

REPLAYS = ROOT / "replays"
#: hidden hands: a renege the reveals prove at seq 120 (Ben draws), possible ones at 18, 19, 20, ... 77
BRETT = REPLAYS / "brettspielnetz-disputed.jsonl"
DISPUTED = REPLAYS / "ghost13-disputed.jsonl"


def match(path: Path, k: int = 0) -> MatchLog:
    return list(iter_matches(path))[k]


def test_the_new_keys_are_in_the_key_table() -> None:
    assert keys.keys_for("audit") == ["a"]
    assert keys.keys_for("matches") == ["ctrl+o"]
    shown = [k.action for k in keys.KEYS if k.show]
    assert "audit" in shown  # in the footer; ctrl+o is in the help panel (?)


# -- l: the plays a player had, or may have had -----------------------------------------------------


def test_pilot_legal_at_a_proven_renege_is_never_zero() -> None:
    """Ben draws at seq 120 with his hand hidden; the reveals prove he held one of 1-5, 4-5, 5-5
    (verify's violation). The plays shown are those, each only possible, one of them for sure."""
    app = ReplayApp(match(BRETT), start_seq=120)

    async def body(pilot: Any) -> None:
        screen = app.replay
        await pilot.press("l")
        status = plain(screen.query_one(StatusBar))
        assert status.endswith("legal ≥1 of 4 (Ben, before)") and "legal 0" not in status
        hands = screen.query_one(HandsPanel)
        lines = plain(hands).split("\n")
        assert lines[2] == "  Ben may have had [1|5][4|5][5|5] (one for sure)"
        assert styled(hands, MAYBE) == ["[1|5]", "[4|5]", "[5|5]", "[a|b]"]  # and the legend
        assert styled(screen.query_one("#table-ends"), LEGAL) == ["4", "5"]

    drive(app, body)


def test_pilot_legal_at_a_possible_renege_marks_the_possible_plays() -> None:
    """Ben passes at seq 77: the log allows hands with 0-5 or 4-4 in them and hands without."""
    app = ReplayApp(match(BRETT), start_seq=77)

    async def body(pilot: Any) -> None:
        screen = app.replay
        await pilot.press("l")
        assert "legal 0 + 2 possible (Ben, before)" in plain(screen.query_one(StatusBar))
        hands = screen.query_one(HandsPanel)
        assert plain(hands).split("\n")[2] == "  Ben may have had [0|5][4|4]"
        assert styled(hands, MAYBE)[:2] == ["[0|5]", "[4|4]"] and styled(hands, LEGAL) == []

    drive(app, body)


def test_pilot_legal_after_a_play_from_what_the_log_proves() -> None:
    """After Ana's play at seq 119, Ben is on move: the log proves his three tiles, all playable."""
    app = ReplayApp(match(BRETT), start_seq=119)

    async def body(pilot: Any) -> None:
        screen = app.replay
        await pilot.press("l")
        assert plain(screen.query_one(StatusBar)).endswith("legal 4")
        hands = screen.query_one(HandsPanel)
        assert plain(hands).split("\n")[2] == "  Ben has [1|5][4|5][5|5]"
        assert styled(hands, LEGAL)[:3] == ["[1|5]", "[4|5]", "[5|5]"]
        await pilot.press("h")  # his tiles drawn in his hand, as the log proves them, and legal
        assert plain(hands).split("\n")[1] == "▶ Ben  3 [1|5][4|5][5|5]"
        assert styled(hands, f"{LATER} on green") == ["[1|5]", "[4|5]", "[5|5]"]

    drive(app, body)


def test_pilot_legal_in_a_full_information_hand_is_from_the_hand_as_it_was() -> None:
    app = ReplayApp(match(DISPUTED), start_seq=24)

    async def body(pilot: Any) -> None:
        screen = app.replay
        await pilot.press("l")
        assert plain(screen.query_one(StatusBar)).endswith("legal 2 (Ana, before)")
        hands = screen.query_one(HandsPanel)
        assert "may have" not in plain(hands) and "possible" not in plain(hands)
        assert styled(hands, LEGAL) == ["[6|6]", "[a|b]"]  # Ana's 6-6 in her hand, and the legend

    drive(app, body)


def test_timeline_plays_of_a_pair_play_game() -> None:
    """Double Draw's pair plays from a hidden hand: at Cleo's draw at seq 19 (verify: a renege shown
    by the reveals, 3-5 on the left and 1-2 on the right) the pair is among the plays shown."""
    tl = Timeline(match(REPLAYS / "double-draw-disputed.jsonl"))
    index = tl.index_of(19)
    assert index is not None
    plays = tl.plays_here(index)
    assert plays.player == "Cleo" and plays.before
    assert (Tile(3, 5), "left") in plays.moves and (Tile(1, 2), "right") in plays.moves
    assert plays.words() != "legal 0"


# -- h: the hidden hands as the whole log shows them ------------------------------------------------


def test_pilot_hidden_hands_held_for_sure_and_how_many_possible() -> None:
    app = ReplayApp(match(BRETT), start_seq=77)

    async def body(pilot: Any) -> None:
        screen = app.replay
        hands = screen.query_one(HandsPanel)
        assert "possible" not in plain(hands)  # as the table saw it: backs
        await pilot.press("h")
        lines = plain(hands).split("\n")
        assert lines[0] == "▶ Ana  1 1 of 2 possible"
        assert lines[1] == "  Ben  6 [5|5][5|6] + 4 of 5 possible"
        assert styled(hands, LATER)[:2] == ["[5|5]", "[5|6]"]

    drive(app, body)


# -- v / V: violations, certain and possible ---------------------------------------------------------


def test_pilot_v_visits_possible_violations_too() -> None:
    app = ReplayApp(match(BRETT))

    async def body(pilot: Any) -> None:
        screen = app.replay
        rows = screen.query_one(EventRows)
        await pilot.press("v")
        assert screen.seq == 18
        issues = plain(screen.query_one(IssueBar))
        assert issues == (
            "? possible renege: Ana draws; it turns on whether Ana held 1-4, 3-6 then: a renege in 37% of the hands "
            "the log allows (draws not seen leave open which tiles were held then)"
        )
        row = rows.texts[rows.cursor]
        assert row.plain.split()[:5] == ["18", "Ana", "draw", "(unseen)", "?"]
        assert "? renege" in row.plain and styled_row(row, "? renege") == UNSURE
        await pilot.press("v")
        assert screen.seq == 19
        screen.goto_seq(119)
        await pilot.press("v")
        assert screen.seq == 120
        row = rows.texts[rows.cursor]
        assert "✗ renege" in row.plain and styled_row(row, "✗ renege") == "bold red"
        assert plain(screen.query_one(IssueBar)).startswith("✗ renege: Ben draws while holding a legal play")
        await pilot.press("V")
        assert screen.seq == 118
        await pilot.press("end", "v")
        assert screen.seq == 131  # nothing after the last one: it stays

    drive(app, body)


def styled_row(row: Text, piece: str) -> str:
    start = row.plain.index(piece)
    return next(str(s.style) for s in row.spans if s.start <= start < s.end and s.end - s.start == len(piece))


def test_timeline_certainty_of_each_mark() -> None:
    tl = Timeline(match(BRETT))
    i120, i77 = tl.index_of(120), tl.index_of(77)
    assert i120 is not None and i77 is not None
    assert [tl.certainty(m) for m in tl.marks_at(i120)] == ["certain"]
    assert [tl.certainty(m) for m in tl.marks_at(i77)] == ["possible"]
    assert [tl.seqs[i] for i in tl.issue_indexes][:3] == [18, 19, 20] and 120 in [tl.seqs[i] for i in tl.issue_indexes]


# -- a: the audit of the event shown ----------------------------------------------------------------


def test_pilot_audit_of_a_proven_renege() -> None:
    app = ReplayApp(match(BRETT), start_seq=120)

    async def body(pilot: Any) -> None:
        await pilot.press("a")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, AuditScreen)
        lines = modal.text.split("\n")
        assert lines[0] == "seq 120 (line 120): draw Ben (unseen)"
        k = lines.index("✗ certain · renege")
        assert lines[k + 1] == (
            "  Ben draws while holding a legal play (shown by the reveals: Ben must have held one of 1-5, 4-5, 5-5)"
        )
        assert lines[k + 2] == "  rules"
        assert lines[k + 3].startswith("    C3  Play is compulsory: whoever can play must")
        assert lines[k + 4].startswith("    B3  A player who can play must play one tile.")
        proof = lines.index("  proof")
        assert lines[proof + 1] == "    1. Ben drew at seq 120 with the ends 4 and 5."
        assert "  tiles that decide it: 1-5 4-5 5-5" in lines
        assert lines[-3:] == [
            "what the whole log shows after this event",
            "  Ana (4): 1-4 2-4 3-3 4-4",
            "  Ben (4): 1-2 1-5 4-5 5-5",
        ]
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.replay and app.replay.seq == 120

    drive(app, body)


def test_pilot_audit_of_a_possible_renege_and_of_a_quiet_event() -> None:
    app = ReplayApp(match(BRETT), start_seq=77)

    async def body(pilot: Any) -> None:
        await pilot.press("a")
        await pilot.pause()
        lines = app.screen.text.split("\n")
        k = lines.index("? possible · renege")
        assert lines[k + 1] == (
            "  Ben passes; it turns on whether Ben held 0-5, 4-4 then: a renege in 86% of the hands the log allows "
            "(draws not seen leave open which tiles were held then)"
        )
        assert "    1. Ben passed at seq 77 with the ends 0 and 4." in lines
        assert "  tiles that decide it: 0-5 4-4" in lines
        assert "  Ben (6): 5-5 5-6 + 4 of 5 possible: 1-1 2-2 2-6 3-3 3-6" in lines
        await pilot.press("a")  # a closes it too
        await pilot.pause()
        await pilot.press("n", "a")  # seq 78 ... then 79: Ana plays 4-6, nothing to find
        await pilot.press("escape", "n", "a")
        await pilot.pause()
        assert app.screen.text.split("\n")[:3] == [
            "seq 79 (line 79): play Ana 4-6 right",
            "",
            "no finding at this event: the rules find nothing wrong here",
        ]

    drive(app, body)


def test_audit_findings_without_the_document_come_from_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the audit document not be built (a bug), the findings are the report's, with their certainty."""
    monkeypatch.setattr(Knowing, "document", lambda self: None)
    tl = Timeline(match(BRETT))
    i = tl.index_of(120)
    assert i is not None
    (f,) = tl.findings_at(i)
    assert f["certainty"] == "certain" and f["code"] == "renege"
    assert f["message"].startswith("Ben draws while holding a legal play")
    assert f["proof"] == ["(the audit of this match could not be worked out: dominolog audit says why)"]


def test_pilot_audit_shows_markup_in_the_log_as_written() -> None:
    hostile = "Eve [bold]x[/] [@click=app.quit]quit[/] [/] \x1b[2J"
    events = simulate_match("ghost13", 2, 0, ["Ana", "Ben"])
    events.insert(2, {"type": "note", "text": hostile})
    for e in events:
        e.pop("hash", None)
        e.pop("seq", None)
    data = "\n".join(json.dumps(e) for e in events).encode()
    log = next(iter(iter_matches("hostile.jsonl", data)))
    app = ReplayApp(log, start_seq=3)

    async def body(pilot: Any) -> None:
        await pilot.press("a")
        await pilot.pause()
        first = app.screen.text.split("\n")[0]
        assert "[bold]x[/] [@click=app.quit]quit[/] [/]" in first and "\x1b" not in first
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and app.screen is app.replay

    drive(app, body)


# -- ctrl+o: the matches of the file or the store ----------------------------------------------------


def test_pilot_match_list_of_a_file_switches_the_match() -> None:
    logs = list(iter_matches(DISPUTED))
    app = ReplayApp(logs[0], "ghost13-disputed.jsonl #1/2", matches=FileMatches(DISPUTED, logs), current="1")

    async def body(pilot: Any) -> None:
        screen = app.replay
        await pilot.press("end")
        await pilot.press("ctrl+o")
        await pilot.pause()
        listing = app.screen
        assert isinstance(listing, MatchesScreen)
        options = [str(o.prompt.plain) for o in listing.query_one("#matches-list").options]  # type: ignore[attr-defined]
        assert options == [
            "▶ #1   disputed-2026-11-20  ghost13  Ana, Ben  invalid",
            "  #2   disputed-hidden-2026-11-20  ghost13  Ana, Ben  invalid",
        ]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen is screen and screen.timeline is app.timeline
        assert app.current_key == "2" and app.match_title == "ghost13-disputed.jsonl #2/2"
        assert screen.seq == 1 and plain(screen.query_one(StatusBar)).startswith("seq 1/17")
        assert screen.events.border_title is not None and "#2/2" in str(screen.events.border_title)
        await pilot.press("v")  # the second match's renege (seq 12)
        assert screen.seq == 12
        await pilot.press("ctrl+o", "escape")
        await pilot.pause()
        assert app.current_key == "2" and screen.seq == 12

    drive(app, body)


def test_pilot_match_list_of_the_store(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with open_store(db) as store:
        list(store.import_matches(iter_matches(DISPUTED)))
        list(store.import_matches(iter_matches(REPLAYS / "ghost13-tabletop-hidden.jsonl")))
    source = StoreMatches(db)
    assert [(e.key, e.valid) for e in source.entries()] == [(i, s != "invalid") for i, s in _statuses(db)]
    log, title = source.open("disputed-2026-11-20")
    app = ReplayApp(log, title, matches=source, current="disputed-2026-11-20")

    async def body(pilot: Any) -> None:
        await pilot.press("ctrl+o")
        await pilot.pause()
        options = [o.prompt.plain for o in app.screen.query_one("#matches-list").options]  # type: ignore[attr-defined]
        assert options == [  # in id order, the match shown marked
            "  club-2026-11-20-table-3  ghost13  Ana, Ben  valid",
            "▶ disputed-2026-11-20  ghost13  Ana, Ben  invalid",
            "  disputed-hidden-2026-11-20  ghost13  Ana, Ben  invalid",
        ]
        await pilot.press("up", "enter")
        await pilot.pause()
        assert app.current_key == "club-2026-11-20-table-3" and app.match_title == "club-2026-11-20-table-3"
        assert app.replay.timeline.reducer.state is not None
        assert app.replay.timeline.reducer.state.match_id == "club-2026-11-20-table-3"

    drive(app, body)


def _statuses(db: Path) -> list[tuple[str, str]]:
    with open_store(db, create=False, write=False) as store:
        return [(r["id"], r["status"]) for r in store.list_matches()]


def test_pilot_match_list_without_a_source_says_so() -> None:
    app = ReplayApp(match(DISPUTED))

    async def body(pilot: Any) -> None:
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert app.screen is app.replay

    drive(app, body)


def test_cli_replay_gives_the_viewer_the_file_and_the_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    apps: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, *a, **k: apps.append(self))
    runner = CliRunner()
    assert runner.invoke(cli_app, ["replay", str(DISPUTED), "--match", "2"]).exit_code == 0
    (app,) = apps
    assert isinstance(app.matches, FileMatches) and app.current_key == "2"
    assert [e.key for e in app.matches.entries()] == ["1", "2"]
    db = tmp_path / "m.db"
    with open_store(db) as store:
        list(store.import_matches(iter_matches(DISPUTED)))
        first = store.match_ids()[0]
    assert runner.invoke(cli_app, ["replay", "--db", str(db), first]).exit_code == 0
    assert isinstance(apps[1].matches, StoreMatches) and apps[1].current_key == first


# -- in a real terminal, through the installed console script ------------------------------------------


def test_replay_audit_in_a_real_terminal(tmp_path: Path) -> None:
    """``replay``, then ``v`` to the first possible renege and ``a``: the audit's explanation is drawn."""
    replay = tmp_path / BRETT.name
    replay.write_bytes(BRETT.read_bytes())
    env = clean_env(TERM="xterm-256color", COLUMNS="110", LINES="40")
    child = pexpect.spawn(
        console_script(),
        ["replay", str(replay)],
        cwd=str(tmp_path),
        env=env,
        dimensions=(40, 110),
        timeout=30,
        encoding="utf-8",
    )
    try:
        child.expect("quit")  # the footer is drawn: the app is up
        child.send("v")
        child.expect("possible renege")
        child.send("a")
        child.expect("the audit of seq 18")
        child.expect("possible")
        child.expect("Play is compulsory")
        child.expect("Ana drew at seq 18")
        child.send("a")  # a closes it (as escape does)
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 0, child.before
