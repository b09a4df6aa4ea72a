"""The ways the hands still hidden at a hand's end can be filled, for a score that depends on them.

Each tile not yet placed anywhere goes to a holder with hidden tiles (a player, or the boneyard)
that the hand's facts allow for it (:class:`~dominolog.knowledge.model.HandModel`), as many as each
holder hides. Every real world is among these fillings (some fillings may be impossible for
reasons that tie tiles together), so a claim no filling gives is wrong whatever the hidden tiles
were, and a result every filling gives is the result.
"""

from __future__ import annotations

from collections.abc import Iterator

from dominolog.knowledge.model import NEVER, HandModel
from dominolog.state import HandState
from dominolog.tiles import Tile

#: beyond this many fillings the score is left to the table's claim
LIMIT = 1000


def end_fillings(model: HandModel, hand: HandState, limit: int = LIMIT) -> list[HandState] | None:
    """The hand once per filling of its hidden holdings (None when there are more than ``limit``)."""
    need: dict[str | None, int] = {p: h.unknown for p, h in hand.holdings.items() if h.unknown}
    if hand.boneyard.unknown:
        need[None] = hand.boneyard.unknown
    tiles = sorted(hand.unaccounted)
    if sum(need.values()) != len(tiles):
        return None
    choices: list[list[str | None]] = []
    for t in tiles:
        owners = {s.owner for s in model.places(t) if model.exit[t] == NEVER} if model.feasible else set(need)
        allowed = [h for h in need if h in owners]
        if not allowed:
            return None
        choices.append(allowed)
    out: list[HandState] = []
    for filling in _fill(tiles, choices, dict(need)):
        if len(out) == limit:
            return None
        filled = hand.clone()
        for holder, got in filling.items():
            target = filled.boneyard if holder is None else filled.holdings[holder]
            target.known |= got
            target.unknown = 0
        filled.unaccounted = set()
        out.append(filled)
    return out


def _fill(
    tiles: list[Tile], choices: list[list[str | None]], room: dict[str | None, int]
) -> Iterator[dict[str | None, set[Tile]]]:
    got: dict[str | None, set[Tile]] = {h: set() for h in room}

    def walk(i: int) -> Iterator[dict[str | None, set[Tile]]]:
        if i == len(tiles):
            yield {h: set(s) for h, s in got.items()}
            return
        for h in choices[i]:
            if room[h]:
                room[h] -= 1
                got[h].add(tiles[i])
                yield from walk(i + 1)
                got[h].discard(tiles[i])
                room[h] += 1

    yield from walk(0)
