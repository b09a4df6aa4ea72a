"""The bundled replays of `39` (called by ``replays/build.py``).

- ``39-simulated.jsonl``: a random legal match of five hands, every claim right.
- ``39-worked-example.jsonl``: the rule text's own example (plays #1 to #12), as one hand that just stops
  after play #12 and its refill: the deal is ours, built so that every play is legal and forced as the text
  tells it (``seeds/39.md``, section 12).
- ``39-disputed.jsonl``: a simulated match with three disputes: a play on a side where the tile would
  overlap another tile (T5), a declaration after a play that made no match (T7), and a hand claimed
  without the end bonus (T11).
"""

from __future__ import annotations

from typing import Any

from dominolog.layouts.grid import GridLayout
from dominolog.log.hashchain import add_hashes
from dominolog.reducer import MatchReducer
from dominolog.simulate import simulate_match
from dominolog.tiles import Tile
from replays.editing import log_of, numbered, renumber, strip, verified

SIMULATED = 7
DISPUTED = 3

# -- the worked example ----------------------------------------------------------------------------------

#: the deal: Ben's only tile with a 2 is the 2-3, so play #2 is forced ("no tile that will result in an
#: even-numbered open end"); every later tile comes from the refill draws below
EXAMPLE_HANDS = {"Ana": ["2-2", "2-4", "2-6", "0-5", "5-5"], "Ben": ["2-3", "4-4", "0-1", "0-3", "1-3"]}

#: plays #1 to #12: (player, tile, end, suit declared or None, the refill draw)
EXAMPLE_PLAYS: list[tuple[str, str, str | None, str | None, str]] = [
    ("Ana", "2-2", None, None, "1-2"),  # 1  the set: Even is preferred
    ("Ben", "2-3", "2-2:N", None, "4-6"),  # 2  leaves 3 (penalty): -1
    ("Ana", "2-4", "2-2:E", None, "1-4"),  # 3  leaves 4: 0
    ("Ben", "4-4", "2-4", None, "1-1"),  # 4  even doublet, Even preferred: 4
    ("Ana", "2-6", "2-2:S", None, "3-3"),  # 5  leaves 6: 0
    ("Ben", "6-4", "2-6", "odd", "3-4"),  # 6  matches the 4-4: 0, Odd declared
    ("Ana", "2-1", "2-2:W", None, "0-6"),  # 7  leaves 1: 0
    ("Ben", "1-1", "1-2", None, "1-6"),  # 8  odd doublet, Odd preferred: 1
    ("Ana", "1-4", "1-1:N", "even", "5-6"),  # 9  leaves 4 (penalty) but matches the 6-4 and the 4-4: 0, Even
    ("Ben", "4-3", "4-4:E", "odd", "0-0"),  # 10 leaves 3 (penalty) but matches the 2-3: 0, Odd declared
    ("Ana", "3-3", "3-4", "odd", "3-6"),  # 11 odd doublet, Odd preferred: 3; matches the 2-3, Odd kept
    ("Ben", "1-6", "1-1:S", None, "4-5"),  # 12 leaves 6 (penalty), no match: -1
]


def example_events() -> list[dict[str, Any]]:
    """The worked example without seq, times or hashes: match_start, a note, the deal, plays #1 to #12."""
    events: list[dict[str, Any]] = [
        {
            "type": "match_start",
            "variant": "39",
            "players": ["Ana", "Ben"],
            "id": "39-worked-example",
            "meta": {"source": "the rule text's Example Play, plays #1 to #12", "deal": "reconstructed"},
        },
        {
            "type": "note",
            "text": "The rule text's example (plays #1 to #12) as one hand; the deal and the draws are ours. "
            "The log stops after play #12: the hand is not over.",
        },
        {"type": "deal", "leader": "Ana", "hands": {p: list(h) for p, h in EXAMPLE_HANDS.items()}},
    ]
    for player, tile, end, suit, refill in EXAMPLE_PLAYS:
        play: dict[str, Any] = {"type": "play", "player": player, "tile": tile}
        if end is not None:
            play["end"] = end
        events.append(play)
        if suit is not None:
            events.append({"type": "declare", "player": player, "suit": suit})
        events.append({"type": "draw", "player": player, "tile": refill})
    return events


def worked_example() -> list[dict[str, Any]]:
    return add_hashes(numbered(example_events(), "20:00"))


# -- the disputed match ----------------------------------------------------------------------------------


def _states(events: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    """(index, the hand just before the event) for every play of the match."""
    log = log_of(events)
    reducer = MatchReducer()
    out = []
    for i, rec in enumerate(log.records):
        state = reducer.state
        if rec.type == "play" and state is not None and state.hand is not None:
            out.append((i, state.hand.clone()))
        reducer.feed(rec)
    return out


def _overlap_attempt(events: list[dict[str, Any]], from_hand: int) -> tuple[int, dict[str, Any], str] | None:
    """The first play (from hand ``from_hand`` on) whose tile matches another open end where it would overlap
    a tile: (its index, the attempt on that end, the tile it would hit)."""
    for i, hand in _states(events):
        layout: GridLayout = hand.layout
        if hand.number < from_hand or layout.empty:
            continue
        e = events[i]
        tile = Tile.parse(e["tile"])
        for side in layout.open_sides():
            if side.name == e.get("end") or not tile.has(side.value):
                continue
            hit = layout.collides(layout.shape(tile, side)[0])
            if hit is not None:
                return i, {"type": "play", "player": e["player"], "tile": e["tile"], "end": side.name}, str(hit)
    return None


def disputed() -> list[dict[str, Any]]:
    """A simulated match with an overlapping play, an unearned declaration and a claim without the bonus."""
    events = strip(simulate_match("39", DISPUTED))
    events[0]["id"] = f"39-disputed-{DISPUTED}"
    events[0]["meta"] = {"event": "club night", "dispute": "an overlapping play; a declaration; hand points"}
    report = verified(renumber(events))
    # T11: the first hand ended by a domino with a bonus is claimed without it
    hand = next(h for h in report.hands if h.end == "domino" and h.detail["bonus"] > 0)
    ends = [i for i, e in enumerate(events) if e["type"] == "hand_end"]
    i = ends[hand.number - 1]
    events[i] = {**events[i], "points": dict(hand.detail["play_points"])}
    events.insert(i, {"type": "note", "text": "the table forgot the end bonus", "at": events[i]["at"]})
    # T7: in hand 2, a declaration after the first play that made no match
    log = log_of(renumber(events))
    reducer = MatchReducer()
    target = None
    for k, rec in enumerate(log.records):
        reducer.feed(rec)
        state = reducer.state
        if rec.type == "play" and state is not None and state.hand is not None and state.hand.number == 2:
            scores = state.hand.extra["scores"]
            if len(scores) >= 2 and scores[-1][0] == rec.seq and not scores[-1][3]:
                preferred = scores[-1][4]
                target = (k, rec.event.player, "odd" if preferred == "even" else "even")  # type: ignore[union-attr]
                break
    assert target is not None
    k, player, suit = target
    events.insert(k + 1, {"type": "declare", "player": player, "suit": suit, "at": events[k]["at"]})
    # T5: in hand 3 or later, a play first tried on a side where it would overlap a tile
    found = _overlap_attempt(events, 3)
    assert found is not None
    i, attempt, hit = found
    attempt["at"] = events[i]["at"]
    events[i:i] = [
        attempt,
        {"type": "note", "text": f"it would lie on the {hit}: played elsewhere", "at": attempt["at"]},
    ]
    return renumber(events)


def replays() -> dict[str, list[list[dict[str, Any]]]]:
    """File name -> its matches (event objects, in order)."""
    return {
        "39-simulated.jsonl": [simulate_match("39", SIMULATED)],
        "39-worked-example.jsonl": [worked_example()],
        "39-disputed.jsonl": [disputed()],
    }
