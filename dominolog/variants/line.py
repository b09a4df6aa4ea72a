"""The mechanics the line games share (Ghost 13, Brettspielnetz, Double Draw): whether a player has a
tile that fits the line, and :class:`LineVariant`, placing on ``left``/``right`` with ownership and
turn order checked (the grid games have theirs in :mod:`dominolog.variants.spinner`)."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from dominolog.events import Play
from dominolog.state import HandState, MatchState, Placement
from dominolog.tiles import Tile
from dominolog.variants.base import Ctx, Variant
from dominolog.variants.rulings import LINE_END, PLACE, ids


def can_play_line(hand: HandState, player: str, ends: tuple[int, ...] | None = None) -> bool | None:
    """Whether ``player`` has a tile that fits the line: True, False, or None (hidden tiles)."""
    values = ends if ends is not None else hand.layout.open_values()
    h = hand.holdings[player]
    if not values:
        return h.count > 0
    m = (1 << values[0]) | (1 << values[-1])
    for t in h.known:
        if t.mask & m:
            return True
    if h.unknown and any(t.mask & m for t in hand.unaccounted):
        return None
    return False


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a line game outside COMPILED may extend it
class LineVariant(Variant):
    """Mechanics shared by the line games: placing on ``left``/``right``, ownership, turn order."""

    def legal_placements(self, hand: HandState, player: str) -> list[tuple[Tile, str]]:
        out = []
        for t in sorted(hand.holdings[player].known):
            for end in hand.layout.placements(t):
                out.append((t, end))
        return out

    def resolve_end(self, hand: HandState, tile: Tile, ev: Play, ctx: Ctx) -> str | None:
        """The end the tile goes on ("" for the first tile), or None when it fits nowhere."""
        layout = hand.line
        end = ev.end
        if end == "left" and layout.left is not None and tile.mask & (1 << layout.left):
            return end  # the common case: a named end where the tile fits
        if end == "right" and layout.right is not None and tile.mask & (1 << layout.right):
            return end
        places = layout.placements(tile)
        if end is not None and end not in ("left", "right"):
            ctx.violation("illegal", f"{end!r} is not an end of a line game (left or right)", LINE_END)
            end = None
        if places == [""]:
            return ""
        if not places:
            ctx.violation(
                "illegal",
                f"{tile} matches neither end (left shows {layout.left}, right shows {layout.right}); not placed",
                ids(PLACE, self.name),
                (str(tile),),
            )
            return None
        if end is None:
            if len(places) > 1:
                ctx.violation(
                    "ambiguous",
                    f"{tile} fits both ends and no end is given; taken as left",
                    ids(PLACE, self.name),
                    (str(tile),),
                )
            return places[0]
        if end not in places:
            shows = layout.left if end == "left" else layout.right
            ctx.violation(
                "illegal",
                f"{tile} does not match the {end} end (it shows {shows}); placed on the {places[0]} end, where it fits",
                ids(PLACE, self.name),
                (str(tile),),
            )
            return places[0]
        return end

    def place(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> Placement | None:
        """Apply one single-tile play; returns the placement, or None if nothing was placed."""
        player = ev.player
        tile = self._tile_to_place(match, hand, ev, ctx)
        if tile is None:  # already on the table: the turn moves on
            hand.turn = match.next_player(player)
            return None
        end = self.resolve_end(hand, tile, ev, ctx)
        if end is None:
            hand.turn = match.next_player(player)
            return None
        known = hand.holdings[player].known
        if tile in known:
            known.discard(tile)
        else:
            self.take_tile(hand, player, tile, ctx)
        before = hand.layout.open_values()
        if end == "":
            assert ev.tile is not None  # (the first tile lies as written)
            a, b = (int(ev.tile[0]), int(ev.tile[2]))
            hand.layout.place_first(a, b, tile)
        else:
            hand.line.place(tile, end)
        placement = Placement(ctx.seq, player, tile, end, before)
        hand.placements.append(placement)
        hand.actions.append((ctx.seq, player, "play"))
        hand.played_by[player].append(tile)
        hand.consecutive_passes = 0
        hand.turn = match.next_player(player)
        return placement
