"""The tile pad of a recorder face (issue 27): each of the 28 tiles with its state at a point of the
match, and the places a tapped tile can go, for the five variants (Double Draw in pairs and the
spinner variants included), on the replays of replays/."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominolog.recording.entry import Recorder
from dominolog.recording.journal import FileJournal
from dominolog.recording.pad import STATES, pad, tile_places
from dominolog.recording.session import Entered, Session
from tests.recorder_kit import new_match

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def at(tmp_path: Path, name: str, events: int) -> Session:
    """A session on the replay's first ``events`` events."""
    lines = (REPLAYS / name).read_bytes().splitlines(keepends=True)[:events]
    path = tmp_path / name
    path.write_bytes(b"".join(lines))
    return Session(FileJournal(path), now=None)


def shown(session: Session) -> dict[str, str]:
    """The pad by state: each tile with its places (``@``) and, when it is known to be someone else's or
    the boneyard's, where (``[...]``)."""
    out: dict[str, list[str]] = {}
    for t in pad(session):
        word = t.tile + ("@" + ",".join(t.places) if t.places else "")
        if t.holder is not None and t.state == "elsewhere":
            word += f"[{t.holder}]"
        out.setdefault(t.state, []).append(word)
    return {k: " ".join(v) for k, v in out.items()}


CASES = [
    # full information: the player on move's legal tiles, the rest of that hand, the others' tiles
    (
        "ghost13-simulated.jsonl",
        3,
        "Ben",
        {
            "table": "3-3",
            "legal": "1-3@left,right 3-5@left,right",
            "held": "0-0 0-1 0-4 0-5 1-1 1-2 2-2 2-4 2-5 2-6 4-5 5-5",
            "elsewhere": "0-2[Ana] 0-3[Ana] 0-6[Ana] 1-4[Ana] 1-5[Ana] 1-6[Ana] 2-3[Ana] 3-4[Ana] 3-6[Ana] "
            "4-4[Ana] 4-6[Ana] 5-6[Ana] 6-6[Ana]",
        },
    ),
    (
        "brettspielnetz-simulated.jsonl",
        4,
        "Ben",
        {
            "table": "1-5 2-6 5-6",
            "legal": "0-2@right 1-2@left,right 1-6@left 2-2@right 2-4@right",
            "held": "0-0",
            "elsewhere": "0-1[Ana] 0-3[boneyard] 0-4[Ana] 0-5[boneyard] 0-6[Ana] 1-1[Ana] 1-3[boneyard] "
            "1-4[boneyard] 2-3[boneyard] 2-5[boneyard] 3-3[Ana] 3-4[boneyard] 3-5[boneyard] 3-6[boneyard] "
            "4-4[Ana] 4-5[boneyard] 4-6[boneyard] 5-5[boneyard] 6-6[boneyard]",
        },
    ),
    (  # 39: a spinner's table, the places named by tile and side
        "39-simulated.jsonl",
        3,
        "Ben",
        {
            "table": "0-6",
            "legal": "3-6@0-6:N,0-6:E",
            "held": "1-4 3-3 4-4",
            "elsewhere": "0-0[boneyard] 0-1[boneyard] 0-2[boneyard] 0-3[boneyard] 0-4[boneyard] 0-5[boneyard] "
            "1-1[Ana] 1-2[boneyard] 1-3[boneyard] 1-5[Ana] 1-6[Ana] 2-2[boneyard] 2-3[boneyard] 2-4[Ana] "
            "2-5[boneyard] 2-6[boneyard] 3-4[boneyard] 3-5[boneyard] 4-5[boneyard] 4-6[boneyard] 5-5[Ana] "
            "5-6[boneyard] 6-6[boneyard]",
        },
    ),
    (
        "double-bergen-simulated.jsonl",
        5,
        "Ana",
        {
            "table": "1-1",
            "legal": "1-6@1-1:N,1-1:E,1-1:S,1-1:W",
            "held": "0-0 0-2 0-3 2-4 4-4 5-6 6-6",
            "elsewhere": "0-1[boneyard] 0-4[boneyard] 0-5[boneyard] 0-6[Ben] 1-2[Ben] 1-3[boneyard] 1-4[boneyard] "
            "1-5[boneyard] 2-2[boneyard] 2-3[boneyard] 2-5[boneyard] 2-6[Ben] 3-3[boneyard] 3-4[Ben] "
            "3-5[boneyard] 3-6[Ben] 4-5[boneyard] 4-6[boneyard] 5-5[boneyard]",
        },
    ),
    (  # nothing legal: Ana must draw; nothing on the pad is active
        "double-draw-simulated.jsonl",
        4,
        "Ana",
        {
            "table": "0-2 1-4 2-3 3-3 3-4",
            "held": "1-5 1-6 2-5 6-6",
            "elsewhere": "0-0[boneyard] 0-1[boneyard] 0-3[Ben] 0-4[Ben] 0-5[boneyard] 0-6[boneyard] "
            "1-1[boneyard] 1-2[boneyard] 1-3[boneyard] 2-2[boneyard] 2-4[boneyard] 2-6[boneyard] 3-5[Ben] "
            "3-6[boneyard] 4-4[boneyard] 4-5[boneyard] 4-6[boneyard] 5-5[Ben] 5-6[boneyard]",
        },
    ),
    # hidden hands: every tile not on the table nor known elsewhere is unknown, active where it fits
    (  # Double Draw in pairs (four players, partners)
        "double-draw-tabletop-hidden.jsonl",
        3,
        "Ben",
        {
            "table": "0-3 0-5 1-3",
            "unknown": "0-0 0-1@right 0-2 0-4 0-6 1-1@right 1-2@right 1-4@right 1-5@left,right 1-6@right 2-2 2-3 "
            "2-4 2-5@left 2-6 3-3 3-4 3-5@left 3-6 4-4 4-5@left 4-6 5-5@left 5-6@left 6-6",
        },
    ),
    (  # the spinner: the four sides of 4-4
        "double-bergen-tabletop-hidden.jsonl",
        3,
        "Ben",
        {
            "table": "4-4",
            "unknown": "0-0 0-1 0-2 0-3 0-4@4-4:N,4-4:E,4-4:S,4-4:W 0-5 0-6 1-1 1-2 1-3 "
            "1-4@4-4:N,4-4:E,4-4:S,4-4:W 1-5 1-6 2-2 2-3 2-4@4-4:N,4-4:E,4-4:S,4-4:W 2-5 2-6 3-3 "
            "3-4@4-4:N,4-4:E,4-4:S,4-4:W 3-5 3-6 4-5@4-4:N,4-4:E,4-4:S,4-4:W 4-6@4-4:N,4-4:E,4-4:S,4-4:W "
            "5-5 5-6 6-6",
        },
    ),
    (  # the recorder's own hand known (Ana's), Ben's hidden: hers are elsewhere for him
        "brettspielnetz-tabletop-hidden.jsonl",
        3,
        "Ben",
        {
            "table": "1-2 2-5",
            "unknown": "0-0 0-1@left 0-2 0-3 0-4 0-5@right 1-1@left 1-3@left 1-4@left 1-5@left,right 1-6@left 2-2 "
            "2-4 2-6 3-3 3-6 4-4 4-5@right 5-6@right 6-6",
            "elsewhere": "0-6[Ana] 2-3[Ana] 3-4[Ana] 3-5[Ana] 4-6[Ana] 5-5[Ana]",
        },
    ),
]


@pytest.mark.parametrize(("name", "events", "mover", "expected"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_the_pad_at_a_point_of_each_variant(
    tmp_path: Path, name: str, events: int, mover: str, expected: dict[str, str]
) -> None:
    session = at(tmp_path, name, events)
    assert session.on_move == mover
    assert shown(session) == expected
    tiles = pad(session)
    assert len(tiles) == 28 and {t.state for t in tiles} <= set(STATES)
    for t in tiles:  # the places of a tapped tile are the pad's
        assert tile_places(session, t.tile) == list(t.places), t
        assert tile_places(session, t.tile.replace("-", "")[::-1]) == list(t.places), t
    legal = session.legal_tiles()
    if legal is not None:  # the hand on move known: the active tiles are its legal ones
        assert sorted(t.tile for t in tiles if t.active) == sorted(f"{x[0]}-{x[1]}" for x in legal)
    assert tiles[0].as_dict() == {
        "tile": "0-0",
        "state": tiles[0].state,
        "holder": tiles[0].holder,
        "active": bool(tiles[0].places),
        "places": list(tiles[0].places),
    }


def test_a_tapped_tile_then_its_place_through_the_recorder(tmp_path: Path) -> None:
    """The pad's places are the choice the recorder offers for the tile typed alone, by the same ids."""
    session = at(tmp_path, "double-bergen-tabletop-hidden.jsonl", 3)
    recorder = Recorder(session)
    recorder.prompt()
    assert tile_places(session, "2-4") == ["4-4:N", "4-4:E", "4-4:S", "4-4:W"]
    answer = recorder.enter("24")
    assert answer.done == "choice" and answer.choice is not None
    assert [p["id"] for p in answer.as_dict()["choice"]["places"]] == tile_places(session, "2-4")
    picked = recorder.pick_place("4-4:S")
    assert picked is not None and picked.done == "written"
    assert picked.entered.written[0][1] == {"type": "play", "player": "Ben", "tile": "2-4", "end": "4-4:S"}
    assert next(t for t in pad(session) if t.tile == "2-4").state == "table"
    assert tile_places(session, "24") == [] and tile_places(session, "77") == [] and tile_places(session, "x") == []


def test_no_hand_in_play_and_a_hand_over(tmp_path: Path) -> None:
    _, session = new_match(tmp_path / "g.db", "g", "double-draw", ["Ana", "Ben", "Cleo", "Dev"], {"partners": True})
    assert shown(session) == {"unknown": " ".join(t.tile for t in pad(session))}
    assert not any(t.active for t in pad(session))
    # the first hand of the simulated Double Draw replay, to its end: nobody is on move
    lines = (REPLAYS / "double-draw-simulated.jsonl").read_bytes().splitlines(keepends=True)
    end = next(i for i, line in enumerate(lines) if b'"type":"hand_end"' in line)
    over = at(tmp_path, "double-draw-simulated.jsonl", end)  # up to the last play, before hand_end
    assert over.reducer.hand is not None and over.reducer.hand.over is not None
    assert not any(t.active for t in pad(over)) and tile_places(over, "6-6") == []


def test_a_hand_partly_known(tmp_path: Path) -> None:
    """A tile known to be the mover's in a hand otherwise hidden (seen drawn): ``held``, and it goes where
    it fits (here nowhere); Double Draw in pairs: a turn is a pair play, a draw ends the turn."""
    _, session = new_match(tmp_path / "g.db", "g", "double-draw", ["Ana", "Ben"])
    assert session.enter("deal Ana [?] start=33 +56 +?").ok  # Ana draws 5-6, seen; Ben draws unseen
    assert session.on_move == "Ana"
    by_tile = {t.tile: t for t in pad(session)}
    assert by_tile["5-6"].as_dict() == {"tile": "5-6", "state": "held", "holder": "Ana", "active": False, "places": []}
    assert by_tile["3-6"].state == "unknown" and by_tile["3-6"].places == ("left", "right")
    assert by_tile["3-3"].state == "table"
    assert tile_places(session, "5-6") == [] and tile_places(session, "63") == ["left", "right"]
    assert [t.tile for t in pad(session) if t.active] == ["0-3", "1-3", "2-3", "3-4", "3-5", "3-6"]


def test_every_point_of_hidden_replays_agrees_with_the_places(tmp_path: Path) -> None:
    """At each event of a hidden-hands match of each variant, the pad's places are the session's (the
    open ends a tile fits) for the tiles not known to be elsewhere, and nothing else is active."""
    for name in (
        "ghost13-tabletop-hidden.jsonl",
        "double-draw-tabletop-hidden.jsonl",
        "double-bergen-tabletop-hidden.jsonl",
    ):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(b"")
        session = Session(FileJournal(path), now=None, check=False)
        for line in (REPLAYS / name).read_bytes().splitlines()[:120]:
            assert session.write_line(line, Entered())
            for t in pad(session):
                if t.state in ("unknown", "held"):
                    playing = session.on_move is not None and not session.hand_over()
                    assert list(t.places) == (session.places(t.tile) if playing else []), (name, t)
                elif t.state != "legal":
                    assert not t.places, (name, t)
