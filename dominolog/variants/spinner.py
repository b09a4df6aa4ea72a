"""Mechanics shared by the spinner games (``39``, ``double-bergen``) on a 2-D table.

Ends are named ``<tile>:<dir>`` (or ``<tile>`` for a tile with one open end);
the layout is a :class:`~dominolog.layouts.grid.GridLayout`. A play that does
not fit is read the way the line games read it: on a wrong or unknown end it is
placed where it fits (``illegal``) when there is such a place, else not placed;
a play that would overlap a tile is ``illegal`` and not placed.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from dominolog.events import Play
from dominolog.layouts.grid import GridLayout, Placed, Side, values_mask
from dominolog.state import HandState, MatchState, Placement
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants.base import Ctx, Variant
from dominolog.variants.judges import judge_holds
from dominolog.variants.rulings import FIRST, PLACE, ROOM, ids

#: the tiles that show each number
SHOWING: Final = tuple(tuple(t for t in DOUBLE_SIX if t.has(v)) for v in range(7))
#: the tiles that show any number of a set of numbers given as a mask (bit ``v``: number ``v``)
SHOWING_ANY: Final = tuple(frozenset(t for t in DOUBLE_SIX if t.mask & m) for m in range(128))


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a spinner game outside COMPILED may extend it
class GridVariant(Variant):
    """A variant played on a :class:`GridLayout`."""

    #: every later doublet has three free sides (39); else one (Double Bergen)
    spinning_doubles: bool = True

    def new_layout(self) -> GridLayout:
        return GridLayout(self.spinning_doubles)

    def allowed_sides(self, hand: HandState) -> list[Side] | None:
        """The open ends that may be played on now (None: all of them)."""
        return None

    def first_tile_ok(self, tile: Tile) -> bool:
        """Whether ``tile`` may be the first tile of a hand."""
        return True

    # -- what can be played --------------------------------------------------
    def places(self, hand: HandState, tile: Tile) -> list[str]:
        layout = hand.grid
        if layout.empty:
            return [""] if self.first_tile_ok(tile) and tile not in layout.on_board else []
        return layout.placements(tile, self.allowed_sides(hand))

    def playable(self, hand: HandState) -> frozenset[Tile]:
        """Every tile not on the table that could be played somewhere now (cached until the table changes):
        :meth:`places` for each tile, asked only of the tiles that show an open end's number, side by side
        (the room is searched for those alone, not for all 28 tiles). Without spinning doubles a tile
        has room wherever it matches (:meth:`GridLayout.collides`): the tiles showing the numbers of
        the ends allowed, less those on the table."""
        layout = hand.grid
        found = layout.cache.get("playable")
        if found is None:
            if layout.empty:
                found = frozenset(t for t in DOUBLE_SIX if t not in layout.on_board and self.places(hand, t))
            elif not layout.spinning_doubles:  # (no tile can meet another: a tile fits where it matches)
                allowed = self.allowed_sides(hand)
                shown = values_mask(layout.sides.values() if allowed is None else allowed)
                found = SHOWING_ANY[shown] - layout.on_board
            else:
                allowed = self.allowed_sides(hand)
                fits: set[Tile] = set()
                for side in layout.open_sides() if allowed is None else allowed:
                    for t in SHOWING[side.value]:
                        if t not in fits and t not in layout.on_board and layout.fits_side(t, side):
                            fits.add(t)
                found = frozenset(fits)
            layout.cache["playable"] = found
        return found  # type: ignore[return-value]

    def has_play(self, hand: HandState) -> Any:
        """The judge "holds a tile that can be played now" (made once for a table, as :meth:`playable`)."""
        cache = hand.grid.cache
        judge = cache.get("has_play")
        if judge is None:
            judge = judge_holds(self.playable(hand))
            cache["has_play"] = judge
        return judge

    def legal_placements(self, hand: HandState, player: str) -> list[tuple[Tile, str]]:
        return [(t, e) for t in sorted(hand.holdings[player].known) for e in self.places(hand, t)]

    def can_play(self, hand: HandState, player: str) -> bool | None:
        """True, False, or None when hidden tiles keep it open."""
        h = hand.holdings[player]
        known = frozenset(h.known)
        possible = hand.possible(player) if h.unknown else known  # (the same tiles: one set made, not two)
        verdict, _, _ = self.has_play(hand)(known, possible, h.count)
        return verdict

    # -- placing -------------------------------------------------------------
    def resolve_side(self, hand: HandState, tile: Tile, ev: Play, ctx: Ctx) -> Side | str | None:
        """The open end the tile goes on (``""`` for the first tile), or None when it cannot be placed."""
        layout = hand.grid
        if layout.empty:
            if not self.first_tile_ok(tile):
                ctx.violation(
                    "illegal",
                    f"{tile} cannot be the first tile of the hand; not placed",
                    ids(FIRST, self.name),
                    (str(tile),),
                )
                return None
            return ""
        allowed = self.allowed_sides(hand)
        end = ev.end
        problem = None
        if end is not None:
            side = layout.side(end)
            if side is None:
                problem = f"{end!r} is not an open end of the table"
            elif not tile.has(side.value):
                problem = f"{tile} does not match {side.name} (it shows {side.value})"
            else:
                # (without spinning doubles no tile can meet another: GridLayout.collides says why)
                hit = layout.collides(layout.shape(tile, side)[0]) if layout.spinning_doubles else None
                if hit is not None:
                    ctx.violation(
                        "illegal",
                        f"{tile} on {side.name} would overlap {hit}; not placed",
                        ids(ROOM, self.name),
                        (str(tile),),
                    )
                    return None
                # (by identity: the table holds one object for each open end; a Side's dataclass
                # ``__eq__`` is interpreted Python even in the compiled build)
                if allowed is not None and not any(s is side for s in allowed):
                    self.wrong_side(hand, side, ctx)
                return side
        places = layout.placements(tile, allowed)
        rules = ids(PLACE, self.name)
        if not places:
            if problem is None:
                fits = any(tile.has(v) for v in layout.open_values())
                problem = f"{tile} {'has no room' if fits else 'fits no open end'}"
                rules = ids(ROOM, self.name) if fits else rules
            ctx.violation("illegal", f"{problem}; not placed", rules, (str(tile),))
            return None
        if problem is not None:
            ctx.violation("illegal", f"{problem}; placed on {places[0]}, where it fits", rules, (str(tile),))
        elif len(places) > 1:
            ctx.violation(
                "ambiguous",
                f"{tile} fits {', '.join(places)} and no end is given; taken as {places[0]}",
                rules,
                (str(tile),),
            )
        return layout.side(places[0])

    def wrong_side(self, hand: HandState, side: Side, ctx: Ctx) -> None:
        """A placement on an end the rules do not allow yet (the table's action stands)."""
        ctx.violation("illegal", f"{side.name} may not be played on yet", ids(PLACE, self.name))

    def place(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> Placed | None:
        """Apply one play: ownership, the end, the layout. The turn is the caller's."""
        player = ev.player
        tile = self._tile_to_place(match, hand, ev, ctx)
        if tile is None:
            return None
        side = self.resolve_side(hand, tile, ev, ctx)
        if side is None:
            return None
        self.take_tile(hand, player, tile, ctx)
        layout = hand.grid
        before = layout.open_values()
        if isinstance(side, str):
            assert ev.tile is not None  # (the first tile lies as written: its first half to the north)
            layout.place_first(int(ev.tile[0]), int(ev.tile[2]), tile)
            placed = layout.placed[tile]
            end = ""
        else:
            placed = layout.place(tile, side)
            end = side.name
        seq = ctx.seq
        hand.placements.append(Placement(seq, player, tile, end, before))
        hand.actions.append((seq, player, "play"))
        hand.played_by[player].append(tile)
        hand.consecutive_passes = 0
        return placed
