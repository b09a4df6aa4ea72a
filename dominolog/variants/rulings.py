"""The rulings a finding rests on: which ids of ``docs/rulings.md`` each part of the rules has in
each variant. The code that reports a finding (a variant's hook, the reducer asking its variant's
name) gives its ids from here: a finding carries them as data (:class:`dominolog.state.Issue`
``rules``), and nothing reads them back out of its words.

The parts are the same in every variant (the deal, the leader, what a turn may be...); each
variant class names its ids for them (:attr:`~dominolog.variants.base.Variant.rulings` and
``end_rulings``): the ids are facts of the variant, kept on its class and read here by its name
through the registry (a variant added in one module, its rulings with it, is cited as it says).
A finding of the log's form (``malformed``,
``hash-mismatch``, an ``undo`` with nothing to take back) rests on no ruling: ``docs/format.md``
describes the form.
"""

from __future__ import annotations

from typing import Any

#: a part of the rules: a key of the variant classes' :attr:`~dominolog.variants.base.Variant.rulings`
Part = str

DEAL: Part = "deal"
LEADER: Part = "leader"
#: what a turn may be (a play, a pass, a draw...)
TURN: Part = "turn"
#: whose turn it is
ORDER: Part = "order"
#: play is compulsory: the variant's own words for C3
RENEGE: Part = "renege"
#: a pass while a draw is still allowed (a variant that does not name it: its ``turn``'s)
MUST_DRAW: Part = "must_draw"
#: where a tile may go
PLACE: Part = "place"
#: the room a tile takes on a grid (a tile that would overlap another, or has no room)
ROOM: Part = "room"
#: which tile may open a hand
FIRST: Part = "first"
#: the points of a hand
SCORE: Part = "score"
#: the winner of a hand
WINNER: Part = "winner"
#: when the match is over, and who wins it
MATCH: Part = "match"

#: the rulings every variant shares
SAME_TILE = ("C1",)  # a tile is in one place: a hand, the boneyard, the table
LINE_END = ("C2",)  # a line game's tile goes on one of its two ends
CLOSING = ("C4",)  # a hand is played, then closed, in order
REVEAL = ("C5",)  # the reveals at a hand's end
REVEAL_TILE = ("C1", "C5")  # a reveal that lists a tile twice, or shows one that is elsewhere


def _variant(name: str) -> Any:
    """The variant class registered under ``name`` (None: none is)."""
    from dominolog.variants import VariantError, find_variant

    try:
        return find_variant(name)
    except VariantError:
        return None


def ids(part: Part, variant: str) -> tuple[str, ...]:
    """``variant``'s ids for ``part``, as its class names them (none for a part it does not name)."""
    cls = _variant(variant)
    if cls is None:
        return ()
    found: tuple[str, ...] | None = cls.rulings.get(part)
    if found is None and part == MUST_DRAW:
        found = cls.rulings.get(TURN)
    return found or ()


def end_rulings(variant: str) -> dict[str, tuple[str, ...]]:
    """How ``variant``'s hands end, each end's ids (its class's :attr:`end_rulings`)."""
    cls = _variant(variant)
    return dict(cls.end_rulings) if cls is not None else {}


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
    return tuple(dict.fromkeys((*CLOSING, *end_rulings(variant).get(end, ()))))  # (each id once)


def unsettled_end(variant: str) -> tuple[str, ...]:
    """Whether a hand was over cannot be checked: C4 and every rule of how the variant's hands end."""
    return (*CLOSING, *sorted({i for rule in end_rulings(variant).values() for i in rule}))


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
