"""``export --scored`` (issue 14, section 3): the claims become the rules' results, and the scored log
says which claims it replaced (``meta.rescored`` and a note each), so it stays honest about what the
table wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dominolog.export import scored_lines
from dominolog.log.reader import iter_matches
from dominolog.reducer import verify_match
from tests.conftest import ROOT
from tests.helpers import to_bytes

REPLAYS = ROOT / "replays"


def scored(data: bytes, name: str = "x.jsonl") -> tuple[bytes, list[Any]]:
    out = b""
    for log in iter_matches(name, data):
        out += b"".join(line + b"\n" for line in scored_lines(log.records))
    return out, [verify_match(log) for log in iter_matches("scored.jsonl", out)]


def test_each_replaced_claim_is_named_in_a_note_and_every_hand_event_keeps_its_seq() -> None:
    data = (REPLAYS / "brettspielnetz-disputed.jsonl").read_bytes()
    out, (report,) = scored(data)
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["meta"]["rescored"] == "1 claim replaced by the rules' results (dominolog export --scored)"
    (note,) = [e for e in events if e["type"] == "note" and e["text"].startswith("rescored")]
    assert note["text"] == (
        "rescored hand 2: the table wrote Ana 0, Ben 11, winner Ana; the rules give Ana 0, Ben 16, winner Ana"
    )
    assert events[-1]["type"] == "match_end" and events[-2] is note  # the notes go just before match_end
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    original = [json.loads(line) for line in data.splitlines()]
    assert [e["type"] for e in events[:-2]] == [e["type"] for e in original[:-1]]  # the hands' events: same seqs
    # the scored log verifies on its own: claims right, hashes chained again; the renege stays where it was
    assert [(v.seq, v.code) for v in report.violations] == [(120, "renege")]
    assert report.hands[1].points == {"Ana": 0, "Ben": 16}


def test_a_match_end_claim_is_named_too() -> None:
    out, reports = scored((REPLAYS / "ghost13-disputed.jsonl").read_bytes())
    texts = [json.loads(line).get("text", "") for line in out.splitlines()]
    assert (
        "rescored match_end: the table wrote Ana 56, Ben 0, winner Ana; the rules give Ana 148, Ben 0, winner Ana"
        in texts
    )
    assert all(v.code != "score-mismatch" for r in reports for v in r.violations)


def test_a_log_whose_claims_are_right_comes_back_byte_for_byte() -> None:
    data = (REPLAYS / "ghost13-simulated.jsonl").read_bytes()
    assert scored(data)[0] == data


def test_without_seq_or_hash_the_note_goes_at_the_end_and_other_lines_stay_as_written() -> None:
    deal = {"type": "deal", "leader": "Ana", "hands": None}
    start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "m"}
    plays = [{"type": "pass", "player": "Ana"}, {"type": "pass", "player": "Ben"}]
    reveals = [
        {
            "type": "reveal",
            "player": "Ana",
            "tiles": ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"],
        },
        {
            "type": "reveal",
            "player": "Ben",
            "tiles": ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"],
        },
    ]
    events = [start, deal, *plays, *reveals, {"type": "hand_end", "points": {"Ana": 1, "Ben": 2}}]
    data = to_bytes(events)
    out, (report,) = scored(data)
    lines = out.splitlines()
    assert lines[1:-2] == data.splitlines()[1:-1]  # untouched lines, byte for byte
    last = json.loads(lines[-1])
    assert last["type"] == "note" and last["text"].startswith("rescored hand 1: the table wrote Ana 1, Ben 2, no ")
    assert "seq" not in last and json.loads(lines[0])["meta"]["rescored"].startswith("1 claim replaced")
    assert [v.code for v in report.violations] == ["renege", "renege"]  # the passes, not the claim


def test_a_broken_line_keeps_every_line_in_place_and_meta_names_the_claims(tmp_path: Path) -> None:
    data = (REPLAYS / "brettspielnetz-disputed.jsonl").read_bytes().splitlines(keepends=True)
    data.insert(5, b"this is not an event\n")
    out, _ = scored(b"".join(data))
    lines = out.splitlines()
    assert len(lines) == len(data) and lines[5] == b"this is not an event"
    meta = json.loads(lines[0])["meta"]["rescored"]
    assert meta == (
        "1 claim replaced by the rules' results (dominolog export --scored): rescored hand 2: the table wrote "
        "Ana 0, Ben 11, winner Ana; the rules give Ana 0, Ben 16, winner Ana"
    )
    assert not any(b'"rescored hand' in line for line in lines[1:])
