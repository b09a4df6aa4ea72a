"""The rulings a finding rests on: which ids of ``docs/rulings.md`` each part of the rules has in
each variant. The code that reports a finding (a variant's hook, the reducer asking its variant's
name) gives its ids from here: a finding carries them as data (:class:`dominolog.state.Issue`
``rules``), and nothing reads them back out of its words.

The parts are the same in every variant (the deal, the leader, what a turn may be...); each
variant names them in its own rulings. A finding of the log's form (``malformed``,
``hash-mismatch``, an ``undo`` with nothing to take back) rests on no ruling: ``docs/format.md``
describes the form.
"""

from __future__ import annotations

#: variant name -> its ruling ids for one part of the rules
Part = dict[str, tuple[str, ...]]

DEAL: Part = {
    "ghost13": ("G1",),
    "brettspielnetz": ("B1",),
    "39": ("T1",),
    "double-bergen": ("D1",),
    "double-draw": ("E1",),
}
LEADER: Part = {
    "ghost13": ("G2",),
    "brettspielnetz": ("B2",),
    "39": ("T2",),
    "double-bergen": ("D2",),
    "double-draw": ("E2",),
}
#: what a turn may be (a play, a pass, a draw...)
TURN: Part = {
    "ghost13": ("G3", "G4"),
    "brettspielnetz": ("B3", "B4"),
    "39": ("T9",),
    "double-bergen": ("D3", "D5"),
    "double-draw": ("E3",),
}
#: whose turn it is
ORDER: Part = {
    "ghost13": ("G3",),
    "brettspielnetz": ("B2",),
    "39": ("T2", "T9"),
    "double-bergen": ("D2", "D3"),
    "double-draw": ("E2", "E3"),
}
#: play is compulsory: the variant's own words for C3
RENEGE: Part = {
    "ghost13": ("G4",),
    "brettspielnetz": ("B3",),
    "39": ("T9",),
    "double-bergen": ("D5",),
    "double-draw": ("E3",),
}
#: a pass while a draw is still allowed
MUST_DRAW: Part = {
    "ghost13": ("G3", "G4"),
    "brettspielnetz": ("B4",),
    "39": ("T9",),
    "double-bergen": ("D5",),
    "double-draw": ("E3",),
}
#: where a tile may go
PLACE: Part = {
    "ghost13": ("C2",),
    "brettspielnetz": ("C2",),
    "39": ("T4",),
    "double-bergen": ("D4",),
    "double-draw": ("C2",),
}
#: the room a tile takes on a grid (a tile that would overlap another, or has no room)
ROOM: Part = {"39": ("T5",), "double-bergen": ("D4",)}
#: which tile may open a hand
FIRST: Part = {"double-bergen": ("D3",)}
#: how a hand ends, by its end (``domino``, ``block``, ...)
END: dict[str, Part] = {
    "ghost13": {"domino": ("G5",), "block": ("G6",)},
    "brettspielnetz": {"domino": ("B5",), "stock-out": ("B4",)},
    "39": {"domino": ("T10",), "passes": ("T10",)},
    "double-bergen": {"domino": ("D7",), "block": ("D7",), "target": ("D8",)},
    "double-draw": {"domino": ("E5",), "call": ("E4", "E5"), "passes": ("E5",)},
}
#: the points of a hand
SCORE: Part = {
    "ghost13": ("C5", "G7", "G9"),
    "brettspielnetz": ("C5", "B6"),
    "39": ("T8", "T11", "T12"),
    "double-bergen": ("C5", "D6", "D7"),
    "double-draw": ("C5", "E6"),
}
#: the winner of a hand
WINNER: Part = {
    "ghost13": ("G9",),
    "brettspielnetz": ("B6",),
    "39": ("T12",),
    "double-bergen": ("D7",),
    "double-draw": ("E6",),
}
#: when the match is over, and who wins it
MATCH: Part = {
    "ghost13": ("G10",),
    "brettspielnetz": ("B1", "B7"),
    "39": ("T1",),
    "double-bergen": ("D8",),
    "double-draw": ("E7",),
}

#: the rulings every variant shares
SAME_TILE = ("C1",)  # a tile is in one place: a hand, the boneyard, the table
LINE_END = ("C2",)  # a line game's tile goes on one of its two ends
CLOSING = ("C4",)  # a hand is played, then closed, in order
REVEAL = ("C5",)  # the reveals at a hand's end
REVEAL_TILE = ("C1", "C5")  # a reveal that lists a tile twice, or shows one that is elsewhere


def ids(part: Part, variant: str) -> tuple[str, ...]:
    """``variant``'s ids for ``part`` (none for a variant the part does not name)."""
    return part.get(variant, ())


def renege(variant: str, tiles: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A renege: C3 and the variant's own words for it; in Double Bergen, a renege whose tiles are all
    doubles is also the opening's (D3: the first tile set is a double)."""
    if variant == "double-bergen" and tiles and all(t[0] == t[-1] for t in tiles):
        return ("C3", "D3", "D5")
    return ("C3", *ids(RENEGE, variant))


def deal(variant: str, twice: bool = False) -> tuple[str, ...]:
    """A deal not by the rules; ``twice``: a tile dealt twice (C1 too)."""
    return (*SAME_TILE, *ids(DEAL, variant)) if twice else ids(DEAL, variant)


def over(variant: str, end: str) -> tuple[str, ...]:
    """A turn after the hand was over by ``end``: C4 and the variant's rule for that end."""
    return (*CLOSING, *END.get(variant, {}).get(end, ()))


def unsettled_end(variant: str) -> tuple[str, ...]:
    """Whether a hand was over cannot be checked: C4 and every rule of how the variant's hands end."""
    return (*CLOSING, *sorted({i for rule in END.get(variant, {}).values() for i in rule}))


def claim(variant: str, end: str, aggressor: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rulings of a hand's claimed (points, winner) by how it ended: an abandoned hand scores
    nothing (C4); Ghost 13's block, with an aggressor, is G8's; Double Bergen's hand that reaches the
    target (D8) scores as D6 says."""
    if end == "abandoned":
        return CLOSING, CLOSING
    if variant == "ghost13" and end == "block" and aggressor:
        return ("C5", "G7", "G8", "G9"), ("G8", "G9")
    if variant == "double-bergen" and end == "target":
        return ("D6", "D8"), ("D6", "D8")
    return ids(SCORE, variant), ids(WINNER, variant)
