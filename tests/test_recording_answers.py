"""One recorder, two faces (issue 27, section 0): what becomes of an entry is answered by
``dominolog.recording`` (what was written, the rest of the line, the choice pending with its places,
the prompt and its offer, what was refused, the marks), as JSON for the phone page; the terminal
screen only shows those answers, and a walk of one entry reads its text once."""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import dominolog.recording
from dominolog.log import notation
from dominolog.recording.entry import Recorder
from dominolog.recording.journal import StoreJournal
from dominolog.recording.session import Session
from dominolog.store import open_store
from dominolog.tui.recorder_app import RecorderApp
from tests.recorder_kit import NOW, Table, drive, new_match, type_keys


class Reads:
    """How many times the notation parser's entry function (``dominolog.log.notation.parse``) runs,
    counted by a profile function (``sys.setprofile``, the interpreter's public hook): nothing of the
    package is replaced."""

    def __init__(self) -> None:
        self.calls = 0

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code is notation.parse.__code__:
            self.calls += 1

    @contextmanager
    def counting(self) -> Iterator[Reads]:
        self.calls = 0
        previous = sys.getprofile()
        sys.setprofile(self._profile)
        try:
            yield self
        finally:
            sys.setprofile(previous)


def ghost13(tmp_path: Path) -> Session:
    """Ghost 13, the hands hidden; Ana has led 6-6, Ben is on move."""
    _, session = new_match(tmp_path / "g.db", "g", "ghost13", ["Ana", "Ben"])
    assert session.enter("deal Ana [?] 66").ok
    return session


def test_the_counter_sees_the_parser() -> None:
    reads = Reads()
    with reads.counting():
        notation.parse("56L 44R")
        notation.parse("-")
    assert reads.calls == 2


def test_a_walk_of_one_entry_from_the_screen_reads_it_once(tmp_path: Path) -> None:
    session = ghost13(tmp_path)
    app = RecorderApp(session, "g", poll=None)
    reads = Reads()
    counts: dict[str, int] = {}

    async def body(pilot: Any) -> None:
        t = Table(pilot, app)
        with reads.counting():
            await t.enter("56")  # a tile that fits both ends: the places asked for
        counts["tile typed"] = reads.calls
        assert t.screen.choice is not None and t.screen.choice.places == ["left", "right"]
        with reads.counting():
            await pilot.press("r")  # the place picked: the play read already, completed
        counts["place picked"] = reads.calls
        assert t.message.startswith("recorded seq 4 play Ben 5-6 right"), t.message
        with reads.counting():
            await type_keys(pilot, "05 44L")  # written, then a tile that fits no end: refused
        counts["refused"] = reads.calls
        assert t.message.startswith("recorded seq 5 play Ana 0-5"), t.message
        assert "refused: " in t.message and t.screen.entry.value == "44L"
        await pilot.press("ctrl+u")
        with reads.counting():
            await t.enter("- 06L")  # two actions, written
        counts["two actions"] = reads.calls
        with reads.counting():
            await pilot.press("ctrl+e", "enter")  # fix the last one (0-6 on the left) ...
            await pilot.press("ctrl+u")
            await t.enter("06R")  # ... onto the right
        counts["fixed"] = reads.calls
        assert t.message.startswith("fixed seq 7: 1 undo (seq 8)"), t.message

    drive(app, body)
    assert counts == {"tile typed": 1, "place picked": 0, "refused": 1, "two actions": 1, "fixed": 1}


def test_the_answers_as_json(tmp_path: Path) -> None:
    session = ghost13(tmp_path)
    recorder = Recorder(session)
    assert recorder.prompt().as_dict() == {
        "kind": "turn",
        "text": "hand 1: Ben to play",
        "offer": None,
        "player": None,
        "reveals": False,
        "legal": None,
        "hint": "type what the player did: 65R, -, +?, ...",
    }
    answer = recorder.enter(" Ben:5-6 (2026-11-20T19:31:40Z)")
    got = json.loads(json.dumps(answer.as_dict()))
    assert got["done"] == "choice" and got["written"] == [] and got["refused"] is None and got["rest"] == ""
    assert got["choice"] == {
        "text": " Ben:5-6 (2026-11-20T19:31:40Z)",
        "tile": "5-6",
        "places": [
            {"id": "left", "suffix": "L", "entry": " Ben:5-6L (2026-11-20T19:31:40Z)"},
            {"id": "right", "suffix": "R", "entry": " Ben:5-6R (2026-11-20T19:31:40Z)"},
        ],
    }
    answer = recorder.pick_place("right")
    assert answer is not None
    got = json.loads(json.dumps(answer.as_dict()))
    assert got["done"] == "written" and got["choice"] is None
    assert got["written"] == [
        {
            "seq": 4,
            "event": {
                "type": "play",
                "player": "Ben",
                "tile": "5-6",
                "end": "right",
                "at": "2026-11-20T19:31:40Z",
            },
        }
    ]
    assert got["prompt"]["kind"] == "turn" and got["prompt"]["text"] == "hand 1: Ana to play"
    # written up to the refusal, the rest of the line left, the refusal said by the rules
    answer = recorder.enter("05 44L -")
    got = json.loads(json.dumps(answer.as_dict()))
    assert got["done"] == "refused" and [w["seq"] for w in got["written"]] == [5] and got["rest"] == "44L -"
    assert got["actions"] == 3
    assert got["refused"]["by_rules"] is True and got["refused"]["conflict"] is False
    assert got["refused"]["reason"].startswith("seq 6: ")
    # a pass of a hidden hand: the rule it leaves unverified is a mark on the event, by its seq
    answer = recorder.enter("-")
    got = json.loads(json.dumps(answer.as_dict()))
    assert got["done"] == "written" and got["written"][0]["seq"] == 6
    assert [(m["kind"], m["seq"]) for m in got["marks"]] == [("unverified", 6)]


def test_an_empty_entry_takes_the_prompts_offer(tmp_path: Path) -> None:
    _, session = new_match(tmp_path / "g.db", "g", "ghost13", ["Ana", "Ben"])
    recorder = Recorder(session)
    offer = recorder.prompt().as_dict()
    assert offer["kind"] == "deal" and offer["offer"] is None  # Ghost 13: the rules do not say who leads
    answer = recorder.enter("")
    assert answer.done == "nothing" and answer.entered.written == []
    assert answer.as_dict()["prompt"]["hint"] == "the rules do not say who leads: type the deal with its leader"


def test_a_correction_answers_what_it_did(tmp_path: Path) -> None:
    session = ghost13(tmp_path)
    assert session.enter("56R 05 -").ok  # seq 4, 5, 6
    other = Session(StoreJournal(open_store(tmp_path / "g.db"), "g"), now=lambda: NOW)
    recorder = Recorder(other)
    answer = recorder.correct(5, "15")
    fix = answer.as_dict()["fix"]
    assert fix["seq"] == 5 and fix["undone"] == [7, 8] and fix["whole"] is True
    assert [(r["seq"], r["event"]["tile"]) for r in fix["replaced"]] == [(9, "1-5")]
    assert [(r["seq"], r["event"]["type"]) for r in fix["again"]] == [(10, "pass")]
    assert answer.rest == "" and answer.done == "written"


def test_recording_imports_no_face() -> None:
    """``dominolog.recording`` is below the faces: none of its modules imports the terminal screens, the
    server or the command line."""
    faces = ("dominolog.tui", "dominolog.web", "dominolog.cli")
    modules = sorted(Path(dominolog.recording.__file__).parent.glob("*.py"))
    found = []
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            found += [(path.name, n) for n in names if n.startswith(faces)]
    assert found == []
    assert {p.name for p in modules} >= {"entry.py", "pad.py", "prompt.py"}
