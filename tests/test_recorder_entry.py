"""The recorder's entry line: places picked with one key, Tab, reveals, refusals, typing ahead of the
prompts, corrections, two recorders on one match, recording into a file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dominolog.log.notation_write import format_event
from dominolog.recording.journal import FileJournal, StoreJournal
from dominolog.recording.prompt import completions, find_choice, reveal_tiles
from dominolog.recording.session import Session
from dominolog.simulate import hide_match, simulate_match
from dominolog.store import Store, open_store, verify_stored
from dominolog.tui.recorder_app import RecorderApp
from dominolog.tui.screens.correct import CorrectScreen
from tests.recorder_kit import NOW, Table, bare, drive, new_match, plain, type_keys

# -- the pieces: places, Tab, reveals ------------------------------------------------------------------


def hidden_ghost13(tmp_path: Path, poll: float | None = None) -> tuple[Store, Session, RecorderApp]:
    """Ghost 13, Ana's hand known to the recorder (her own), Ben's hidden; Ana leads 6-6."""
    store, session = new_match(tmp_path / "g.db", "g", "ghost13", ["Ana", "Ben"])
    ana = "00 01 02 03 04 05 06 11 12 13 14 15 16 66"
    assert session.enter(f"deal Ana [Ana {ana}] [Ben ?] 66").ok
    return store, session, RecorderApp(session, "g", poll=poll)


def test_places_tab_and_reveal_tiles_as_functions(tmp_path: Path) -> None:
    _, session, _ = hidden_ghost13(tmp_path)
    # Ben is on move, his hand hidden: Tab offers the tiles that fit and are not known to be Ana's
    assert completions(session, "5") == ["56"]
    assert completions(session, "5-") == ["5-6"]
    assert completions(session, "Ben:56") == ["Ben:56L", "Ben:56R"]  # a whole tile: its places
    assert completions(session, "- x") == []
    choice = find_choice(session, "56")
    assert choice is not None and choice.places == ["left", "right"] and choice.describe() == "1 L  2 R"
    assert choice.key_map() == {"1": 0, "2": 1, "l": 0, "L": 0, "r": 1, "R": 1}
    assert choice.entry(1) == "56R"
    timed = find_choice(session, " Ben:5-6 (19:31:40)")
    assert timed is not None and timed.entry(0) == " Ben:5-6L (19:31:40)"
    assert find_choice(session, "56L") is None and find_choice(session, "56 -") is None
    assert find_choice(session, "36@66N") is None
    assert session.enter("56R").ok
    # Ana is on move and her hand is known: Tab offers her legal tiles
    assert set(completions(session, "")) == {"06", "16", "05", "15"}
    assert sorted(completions(session, "1")) == ["15", "16"]
    assert reveal_tiles("21 1-0") == ["2-1", "1-0"] and reveal_tiles("21 x") is None and reveal_tiles(" ") is None


def test_a_place_picked_with_one_key_tab_and_any_other_key(tmp_path: Path) -> None:
    store, session, app = hidden_ghost13(tmp_path)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        screen = t.screen
        assert "hand 1: Ben to play" in t.prompt
        await t.enter("56")  # fits both ends of 6-6: nothing written, the places numbered
        assert session.reducer.events == 3 and screen.entry.value == ""
        assert "56 fits 2 places: 1 L  2 R" in t.prompt
        await pilot.press("4")  # not a place: the choice is dropped and the key typed
        assert screen.choice is None and screen.entry.value == "4" and "Ben to play" in t.prompt
        await pilot.press("backspace")
        await type_keys(pilot, "5", then="tab")  # the only tile starting with 5 that fits
        assert screen.entry.value == "56"
        await pilot.press("tab")  # a whole tile: its first place, then the next one
        assert screen.entry.value == "56L"
        await pilot.press("tab")
        assert screen.entry.value == "56R"
        await pilot.press("escape")
        assert screen.entry.value == ""
        await t.enter("56")
        await pilot.press("tab")  # a choice pending: Tab puts the first place in the line
        assert screen.entry.value == "56L"
        await pilot.press("enter")
        assert t.message.startswith("recorded seq 4 play Ben 5-6 left")
        # Ana's hand is known: the prompt lists her legal tiles
        assert "Ana to play · legal" in t.prompt and "05" in t.prompt
        await t.enter("05")  # fits the 5 only: written at once
        assert t.message.startswith("recorded seq 5 play Ana 0-5"), t.message

    drive(app, body)
    plays = [rec.obj for rec, _ in store.records("g") if rec.obj and rec.obj["type"] == "play"]
    assert [(p["player"], p["tile"], p.get("end")) for p in plays][:3] == [
        ("Ana", "6-6", None),
        ("Ben", "5-6", "left"),
        ("Ana", "0-5", None),
    ]


def test_a_place_dropped_or_answered_is_no_longer_asked_for(tmp_path: Path) -> None:
    """Escape, a key that picks no place, Tab (the place put in the line) and another recorder's events
    each end the question: the message line says what became of it and the prompt is the turn's again."""
    store, session, app = hidden_ghost13(tmp_path)
    other = Session(StoreJournal(open_store(tmp_path / "g.db"), "g"), now=lambda: NOW)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        screen = t.screen
        turn = t.prompt
        assert turn.startswith("▸ hand 1: Ben to play")
        asked = "▸ 56 fits 2 places: 1 L  2 R · press the number (or l/r); any other key: back to typing"
        dropped = "56: choice dropped, nothing written"

        await t.enter("56")
        assert (t.message, t.prompt) == ("56: which place? 1 L  2 R", asked)
        await t.enter("")  # an empty Enter asks again
        assert (t.message, t.prompt) == ("pick a place: 1 L  2 R (escape: back to typing)", asked)
        await pilot.press("escape")
        assert (t.message, t.prompt, screen.choice, screen.entry.value) == (dropped, turn, None, "")
        assert t.screen.query_one("#message").has_class("-refused") is False

        await t.enter("56")
        await pilot.press("4")  # not a place: typed, and the question dropped
        assert (t.message, t.prompt, screen.choice, screen.entry.value) == (dropped, turn, None, "4")
        await pilot.press("backspace")

        await t.enter("56")
        await pilot.press("tab")  # the first place put in the line: the question is answered there
        assert screen.entry.value == "56L" and screen.choice is None and t.prompt == turn
        assert t.message == "56: the place is in the entry line (Tab: the next one); Enter writes it"
        await pilot.press("1")  # typed: a number picks nothing now
        assert screen.entry.value == "56L1" and t.message.startswith("56: the place is in the entry line")
        await pilot.press("escape")  # the line and what the message offered for it go together
        assert (t.message, screen.entry.value) == ("entry dropped, nothing written", "")

        await t.enter("56")
        assert other.enter("56R").ok  # another recorder answers the table first
        screen.poll()
        await pilot.pause()
        assert t.message == "another recorder wrote 1 event (up to seq 4)\n" + dropped
        assert screen.choice is None and t.prompt.startswith("▸ hand 1: Ana to play")
        assert session.reducer.events == 4

    drive(app, body)
    assert [rec.seq for rec, _ in store.records("g")] == [1, 2, 3, 4]


def test_escape_drops_what_the_message_line_offered_for_the_entry_line(tmp_path: Path) -> None:
    """ctrl+r is offered for a refused line kept in the entry line: once Escape has cleared the line, the
    offer is gone too. An ordinary line cleared leaves the last message as it was (it offered nothing)."""
    _store, session, app = hidden_ghost13(tmp_path)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        await t.enter("Ana:05", ok=False)
        assert t.message.endswith("ctrl+r records the line as played (it happened at the table; verify reports it)")
        await pilot.press("escape")
        assert (t.message, t.screen.entry.value) == ("entry dropped, nothing written", "")
        await pilot.press("ctrl+r")
        assert t.message == "type the entry to record as played, then ctrl+r" and session.reducer.events == 3
        await t.enter("56R")
        await pilot.press("0", "5", "escape")
        assert (t.message, t.screen.entry.value) == ("recorded seq 4 play Ben 5-6 right", "")

    drive(app, body)


def test_escape_in_the_fix_picker_keeps_the_fix_in_progress(tmp_path: Path) -> None:
    """ctrl+e while fixing, then escape in the picker: the fix goes on (the prompt says so, and Enter
    writes the entry in its place); escape on the screen then cancels it."""
    store, session, app = hidden_ghost13(tmp_path)
    assert session.enter("56R 05 36L").ok

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        await pilot.press("ctrl+e")
        await pilot.press("up", "up", "enter")  # seq 4, Ben's 5-6
        fixing = (t.message, t.prompt, t.screen.entry.value)
        assert fixing[0] == "fixing seq 4: change the entry, then Enter" and fixing[2] == "56R"
        assert fixing[1].startswith("▸ fixing seq 4: Enter writes this entry in its place")
        await pilot.press("ctrl+e")
        assert isinstance(app.screen, CorrectScreen)
        await pilot.press("escape")
        assert app.screen is t.screen and t.screen.correcting == 4
        assert (t.message, t.prompt, t.screen.entry.value) == fixing
        await pilot.press("ctrl+u")
        await t.enter("46R", ok=False)
        assert "fixed seq 4: 3 undos (seq 7-9)" in t.message and t.screen.correcting is None
        await pilot.press("ctrl+e")
        await pilot.press("enter")  # the newest entry
        await pilot.press("escape")
        assert t.message == "fix cancelled" and t.screen.correcting is None and t.screen.entry.value == ""

    drive(app, body)
    assert [bare(rec.obj or {}).get("tile") for rec, _ in store.records("g")][-4:] == [None, None, None, "4-6"]


def test_refused_entries_keep_their_text_and_write_nothing(tmp_path: Path) -> None:
    store, session, app = hidden_ghost13(tmp_path)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        await t.enter("66", ok=False)  # on the table already
        assert t.message.startswith("refused: ") and t.screen.entry.value == "66"
        assert session.reducer.events == 3
        await pilot.press("ctrl+u")
        await t.enter("56R Ana:[bold]x[/] 05", ok=False)  # the play is written, the rest kept to be fixed
        assert t.message.startswith("recorded seq 4 play Ben 5-6 right") and "refused: " in t.message
        assert t.screen.entry.value == "Ana:[bold]x[/] 05"
        assert t.screen.query_one("#message").has_class("-refused")
        await pilot.press("ctrl+u")
        await t.enter(r"Ben:{[bold]x[/] \u001b[2J}")  # a note: shown as written, never as markup
        assert "[bold]x[/]" in t.message

    drive(app, body)
    assert [rec.seq for rec, _ in store.records("g")] == [1, 2, 3, 4, 5]


def test_ctrl_r_records_a_refused_entry_as_played(tmp_path: Path) -> None:
    """What the rules refuse may still have happened at the table: ctrl+r writes the line as it
    stands, and verify reports the violation."""
    store, session, app = hidden_ghost13(tmp_path)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        await t.enter("Ana:05", ok=False)  # Ben is on move
        assert "refused: seq 4: illegal: not Ana's turn (Ben is on move)" in t.message
        assert "ctrl+r records the line as played" in t.message
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert t.message.startswith("recorded seq 4 play Ana 0-5")
        assert "✗ seq 4: illegal: not Ana's turn (Ben is on move)" in t.message
        assert t.screen.entry.value == "" and session.check

    drive(app, body)
    report = verify_stored(store, "g")
    first = report.violations[0]
    assert (first.seq, first.code, first.message) == (4, "illegal", "not Ana's turn (Ben is on move)")


def typed_hand(session: Session, variant: str, players: list[str], options: Any, seed: int) -> list[dict[str, Any]]:
    """The first hand of a simulated match entered up to its reveals (as notation, one entry each);
    the reveals and hand_end returned."""
    events = [bare(e) for e in hide_match(simulate_match(variant, seed, 0, players, options))]
    end = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    hand = events[1 : end + 1]
    for e in hand:
        if e["type"] in ("reveal", "hand_end"):
            break
        done = session.enter(format_event(e, session.on_move, None) or "?")
        assert done.ok, done.stopped
    return [e for e in hand if e["type"] in ("reveal", "hand_end")]


def test_prompts_never_block_typing_ahead(tmp_path: Path) -> None:
    """Whatever is typed is entered exactly (a typed ``*`` is a hand end without a claim); only an empty
    Enter takes what the prompt offers."""
    store, session = new_match(tmp_path / "a.db", "a", "ghost13", ["Ana", "Ben"])
    rest = typed_hand(session, "ghost13", ["Ana", "Ben"], None, 1)
    app = RecorderApp(session, "a", poll=None)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        assert t.screen.prompt.kind == "outcome" and "the rules give domino, winner Ben: Ana 0, Ben 8" in t.prompt
        assert "Enter writes * Ana 0 Ben 8 >Ben" in t.prompt
        await t.enter("Ana=[11 33] *")  # typed ahead of the prompt: a reveal and a hand end claiming nothing
        assert f"hand recorded, fingerprint {session.fingerprint}" in t.message
        assert t.screen.prompt.kind == "deal" and "Enter deals, Ben leading, hands not seen" in t.prompt
        await t.enter("")  # the rules' leader, hands not seen
        await t.enter("Ben:44 - 43L")  # several actions, one Enter
        assert "Ana to play" in t.prompt
        # Ana's pass with her hand hidden: written, and marked as the viewer marks it (yellow ?)
        message = t.screen.query_one("#message").content
        assert "renege: Ana passes; Ana's hand is hidden" in message.plain
        assert any(str(span.style) == "yellow" for span in message.spans)
        assert "? renege" in t.screen.events.body.texts[-2].plain

    drive(app, body)
    tail = [bare(rec.obj or {}) for rec, _ in store.records("a")][-6:]
    assert tail == [
        rest[0],
        {"type": "hand_end"},
        {"type": "deal", "leader": "Ben", "hands": None},
        {"type": "play", "player": "Ben", "tile": "4-4"},
        {"type": "pass", "player": "Ana"},
        {"type": "play", "player": "Ben", "tile": "4-3", "end": "left"},
    ]


def test_the_match_end_the_rules_give_on_an_empty_enter(tmp_path: Path) -> None:
    store, session = new_match(tmp_path / "e.db", "e", "ghost13", ["Ana", "Ben"], {"target": 1})
    rest = typed_hand(session, "ghost13", ["Ana", "Ben"], {"target": 1}, 1)
    assert session.enter(format_event(rest[0]) or "?").ok and session.enter("").ok

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        await t.enter("")  # the rules' outcome
        assert t.screen.prompt.kind == "match_end" and "Enter writes ** Ana 0 Ben 8 >Ben" in t.prompt
        await t.enter("")
        assert "match recorded, fingerprint" in t.message and t.screen.prompt.kind == "ended"
        assert "winner Ben" in plain(t.screen.status)

    app = RecorderApp(session, "e", poll=None)
    drive(app, body)
    assert bare(store.records("e")[-1][0].obj or {}) == {
        "type": "match_end",
        "totals": {"Ana": 0, "Ben": 8},
        "winner": "Ben",
    }


def test_reveals_skipped_and_points_the_rules_cannot_tell(tmp_path: Path) -> None:
    players = ["Ana", "Ben", "Cleo", "Dev"]
    store, session = new_match(tmp_path / "b.db", "b", "double-draw", players, {"partners": True})
    rest = typed_hand(session, "double-draw", players, {"partners": True}, 1)
    claim = "* Ana 11 Ben 0 Cleo 11 Dev 0 >Ana+Cleo"

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        for e in rest[:4]:
            assert f"{e['player']}'s tiles? (type them: 21 10; Enter: not shown)" in t.prompt
            await t.enter("")  # nobody shows: more than one way to fill the hands, scores apart
        assert t.screen.prompt.kind == "points" and "type the agreed ones: * Ana 0 Ben 0 Cleo 0 Dev 0" in t.prompt
        await t.enter("")  # nothing to write: the rules cannot tell
        assert "type the points the table agreed" in t.message and session.reducer.hand is not None
        await t.enter(claim)
        assert t.screen.prompt.kind == "deal"

    app = RecorderApp(session, "b", poll=None)
    drive(app, body)
    tail = [bare(rec.obj or {}) for rec, _ in store.records("b")][-1:]
    assert tail == [{**rest[4], "winner": ["Ana", "Cleo"]}]


def test_reveals_skipped_but_the_facts_leave_one_score_offer_the_rules_outcome(tmp_path: Path) -> None:
    # Ben and Dev show their tiles, Ana went out, Cleo does not show hers: every way to fill
    # Cleo's hand the log allows scores the same, so the rules' outcome is offered
    players = ["Ana", "Ben", "Cleo", "Dev"]
    _store, session = new_match(tmp_path / "b.db", "b", "double-draw", players, {"partners": True})
    rest = typed_hand(session, "double-draw", players, {"partners": True}, 1)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        for e in rest[:4]:
            shown_tiles = e["player"] in ("Ben", "Dev")
            await t.enter(" ".join(x.replace("-", "") for x in e["tiles"]) if shown_tiles else "")
        assert t.screen.prompt.kind == "outcome"

    app = RecorderApp(session, "b", poll=None)
    drive(app, body)


def test_a_correction_that_no_longer_fits_stops_and_leaves_the_rest_to_enter(tmp_path: Path) -> None:
    store, session, app = hidden_ghost13(tmp_path)
    assert session.enter("56R 05 36L").ok  # the line: 3-6 6-6 6-5 5-0

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        await pilot.press("ctrl+e")
        picker = app.screen
        assert isinstance(picker, CorrectScreen) and [r[0] for r in picker.rows] == [3, 4, 5, 6]
        await pilot.press("up", "up", "enter")  # seq 4, Ben's 5-6
        assert t.screen.correcting == 4 and t.screen.entry.value == "56R"
        assert "fixing seq 4" in t.prompt
        await pilot.press("ctrl+u")
        await t.enter("46R", ok=False)  # the line 6-6 6-4: Ana's 0-5 fits no end
        assert "fixed seq 4: 3 undos (seq 7-9)" in t.message and "in its place: seq 10 play Ben 4-6 right" in t.message
        assert "stopped: re-entering the events after seq 4" in t.message
        assert t.screen.entry.value == "Ana:05 Ben:36L"  # left to enter, names written out
        await pilot.press("escape")  # not entered after all: the message no longer says it is in the line
        assert (t.message, t.screen.entry.value) == ("entry dropped, nothing written", "")

    drive(app, body)
    assert [bare(rec.obj or {}).get("tile") for rec, _ in store.records("g")][-4:] == [None, None, None, "4-6"]


def test_two_recorders_on_one_match_never_fork_the_log(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    store_a, session_a = new_match(db, "m", "ghost13", ["Ana", "Ben"])
    assert session_a.enter("deal Ana [?]").ok
    session_b = Session(StoreJournal(open_store(db), "m"), now=lambda: NOW)

    async def conflict(pilot: Any) -> None:
        t = Table(pilot, app_a)
        assert session_b.enter("66").ok  # the other recorder writes first
        await t.enter("65", ok=False)  # A still thinks Ana is on move: refused, nothing written
        assert t.message.startswith("conflict: ") and "another recorder" in t.message
        assert t.screen.entry.value == "65" and len(store_a.records("m")) == 3
        assert t.screen.timeline is not None and t.screen.timeline.rows[-1].text == "play 6-6"  # reloaded
        await t.enter("L")  # the kept entry, with its place: now Ben's play, after the other recorder's
        assert session_b.enter("54L").stopped is not None  # B's turn to be refused: A wrote seq 4
        assert session_b.enter("54L").ok

    async def poll(pilot: Any) -> None:
        assert session_b.enter("43L").ok
        for _ in range(100):  # the screen asks about once a second (up to 10 s on a busy machine)
            await pilot.pause(0.1)
            if app_b.recorder.session.reducer.events == 6:
                break
        assert "another recorder wrote 2 events (up to seq 6)" in plain(app_b.recorder.query_one("#message"))

    app_a = RecorderApp(session_a, "m", poll=None)
    drive(app_a, conflict)
    app_b = RecorderApp(session_a, "m")
    drive(app_b, poll)
    seqs = [rec.seq for rec, _ in store_a.records("m")]
    assert seqs == list(range(1, 7))
    assert verify_stored(store_a, "m").violations == []


def test_a_match_recorded_into_a_file(tmp_path: Path) -> None:
    path = tmp_path / "club.jsonl"
    session = Session(FileJournal(path), now=lambda: NOW)
    start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "f1"}
    assert session.enter_event(Session.start_event(start)).ok
    app = RecorderApp(session, "club.jsonl", poll=None)

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        await t.enter("deal Ana [?] 66")
        await t.enter("65")
        await pilot.press("2")

    drive(app, body)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [bare(e) for e in lines[1:]] == [
        {"type": "deal", "leader": "Ana", "hands": None},
        {"type": "play", "player": "Ana", "tile": "6-6"},
        {"type": "play", "player": "Ben", "tile": "6-5", "end": "right"},
    ]
    assert [e["seq"] for e in lines] == [1, 2, 3, 4] and all("hash" in e for e in lines)
