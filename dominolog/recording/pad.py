"""The tile pad of a recorder face: the 28 tiles, each with its state at the point the match is at,
and the places a tile can go (a tile tapped, then its place).

Pure functions over a :class:`~dominolog.recording.session.Session` (its reducer's fold): a face shows
these and holds no rules of its own. A tile's ``state``:

- ``table``: on the table in the hand in play;
- ``legal``: the hand of the player on move is known, and the rules let them play it now;
- ``held``: known to be in the hand of the player on move, and not among its legal tiles: with all
  of that hand known it cannot be played now; with part of it hidden, it goes where it fits;
- ``elsewhere``: known not to be in reach of the player on move: in another player's known tiles or
  the boneyard's, or (the hand on move known) anywhere but that hand;
- ``unknown``: anything else (where it is is not known; it may be played when it fits).

A tile is ``active`` (a tap plays it) when it has places: ``legal``, or ``held`` or ``unknown`` with
(part of) the hand on move hidden and the tile fitting an open end. A place is named by the ``end`` its play is written
with: ``left`` or ``right`` in a line game, ``<tile>:<side>`` (``6-6:N``) on a spinner's table, and
``""`` for the first tile of a hand (it goes nowhere else).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dominolog.recording.session import Session
from dominolog.tiles import DOUBLE_SIX, Tile, TileError

#: the states of a tile on the pad, in the order a face may explain them
STATES = ("table", "legal", "held", "elsewhere", "unknown")


@dataclass(slots=True, frozen=True)
class PadTile:
    """One tile of the pad: ``tile`` as ``a-b`` (low half first), its state, who is known to hold it
    (a player, ``boneyard``, or None), and where a tap plays it now (none: it is not active)."""

    tile: str
    state: str
    holder: str | None = None
    places: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return bool(self.places)

    def as_dict(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "state": self.state,
            "holder": self.holder,
            "active": self.active,
            "places": list(self.places),
        }


def _open(session: Session) -> tuple[Any, Any, str | None]:
    """The hand in play, its variant and who is on move (None for each when no hand is in play)."""
    reducer = session.reducer
    hand, variant = reducer.hand, reducer.variant
    if hand is None or variant is None or hand.over is not None:
        return hand, variant, None
    return hand, variant, hand.turn


def _tile(text: str) -> Tile | None:
    try:
        return Tile.parse(text if "-" in text or len(text) != 2 else f"{text[0]}-{text[1]}")
    except TileError:
        return None


def tile_places(session: Session, tile: str) -> list[str]:
    """Where ``tile`` (``a-b`` or ``ab``) can be played now by the player on move: the places the rules
    allow them when their hand is known, else the open ends it fits (nothing when no hand is in play,
    the tile is on the table, or it is known to be someone else's)."""
    t = _tile(tile)
    hand, variant, mover = _open(session)
    if t is None or mover is None:
        return []
    held = hand.holdings[mover]
    if not held.unknown:
        return [end for placed, end in variant.legal_placements(hand, mover) if placed is t]
    if t in held.known:
        return session.places(str(t))
    others = [h for p, h in hand.holdings.items() if p != mover] + [hand.boneyard]
    if t in hand.layout.on_board or any(t in h.known for h in others):
        return []
    return session.places(str(t))


def pad(session: Session) -> list[PadTile]:
    """The 28 tiles, in the set's order, each with its state now."""
    hand, variant, mover = _open(session)
    if hand is None:
        return [PadTile(str(t), "unknown") for t in DOUBLE_SIX]
    holders: dict[Tile, str] = {t: "boneyard" for t in hand.boneyard.known}
    for player, h in hand.holdings.items():
        holders.update(dict.fromkeys(h.known, player))
    on_board = hand.layout.on_board
    known_hand = mover is not None and not hand.holdings[mover].unknown
    legal: dict[Tile, list[str]] = {}
    if mover is not None and known_hand:
        for placed, end in variant.legal_placements(hand, mover):
            legal.setdefault(placed, []).append(end)
    out = []
    for t in DOUBLE_SIX:
        holder = holders.get(t)
        if t in on_board:
            out.append(PadTile(str(t), "table"))
        elif t in legal:
            out.append(PadTile(str(t), "legal", holder, tuple(legal[t])))
        elif holder is not None and holder == mover:  # a partly hidden hand: the rules judge the play
            places = () if known_hand else tuple(session.places(str(t)))
            out.append(PadTile(str(t), "held", holder, places))
        elif holder is not None or known_hand:
            out.append(PadTile(str(t), "elsewhere", holder))
        else:
            places = tuple(session.places(str(t))) if mover is not None else ()
            out.append(PadTile(str(t), "unknown", None, places))
    return out
