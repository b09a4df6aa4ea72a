"""Playing a hand out with full information, by the rules' own code, for the sampled review.

A *world* is a hand with every tile placed (each hand and the boneyard known) and an order in which
the boneyard's tiles will be drawn. :func:`options` lists what the player on move may do there (the
variant's ``legal_actions``, named as the review shows them); :func:`value` applies one option and
plays the rest of the hand out with :func:`policy` for every player, then scores it with the
variant's ``score_hand``: 39's points made during play, Double Bergen's spinner counts and its +1,
Brettspielnetz penalties, Double Draw's sides all come from the rules' code.

The policy (the same for everyone, deterministic given the world):

- a block call (Double Draw) is made when the caller's side has the lowest pip total alone, so the
  call scores for it; otherwise it is not made;
- among the plays: the one that scores the most points at once as the rules count them (39:
  :meth:`~dominolog.variants.thirty_nine.ThirtyNine.score_play`; Double Bergen:
  :func:`~dominolog.variants.double_bergen.placement_score`; the line games score nothing during
  play), then the heaviest (pips of the tiles laid), then the first in the variant's order;
- a draw or a pass when that is all the rules allow; a draw takes the first tile of the world's
  draw order still in the boneyard;
- in 39, after a play that makes a match, the parity with more weight in the player's remaining
  hand (each half of a tile counts 1, each doublet its value once more) is declared, when it is not
  already the preferred suit.

The value of a finished hand for player ``p`` is in points as the rules score them, counted from
the moment the option is taken (points made before it are taken off), for ``p``'s side (partners
are credited the same points): the side's points minus the mean of the other sides' points. Where
points are penalties (Brettspielnetz: lower is better) the sign is turned, so a higher value is
always better for ``p``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dominolog.events import BlockCall, Declare, Draw, Pass, Play
from dominolog.layouts.grid import Side
from dominolog.reducer.context import QuietCtx
from dominolog.state import HandState, MatchState
from dominolog.tiles import Tile
from dominolog.variants import Variant
from dominolog.variants.double_bergen import placement_score

Action = dict[str, Any]

#: the policy in a few words (the reviews say it)
POLICY = (
    "the rest of the hand played out by everyone with the play that scores most at once, then the heaviest; "
    "a blocked game called when it scores for the caller"
)

#: the options that are not events: not declaring (39), not calling a blocked game (Double Draw)
NO_DECLARATION = "no declaration"
NO_CALL = "no call"
#: a playout that has not ended after this many actions is stopped and scored as it stands (a guard:
#: every variant ends a hand long before)
LIMIT = 400


@dataclass(slots=True)
class World:
    """One complete deal as the rules see it: the match (totals), the hand with every tile placed,
    and the order in which the boneyard's tiles would be drawn."""

    match: MatchState
    hand: HandState
    order: tuple[Tile, ...]


def name_of(action: Action) -> str:
    """How the review writes an option: ``3-5 left``, ``1-6 0-6:N``, ``2-2`` (the first tile),
    ``1-2 + 3-4`` (a pair: left + right), ``draw``, ``pass``, ``declare even``, ``block call``."""
    kind = action["type"]
    if kind == "play":
        if action.get("tiles") is not None:
            a, b = action["tiles"]
            return f"{Tile.parse(a)} + {Tile.parse(b)}"
        tile = str(Tile.parse(action["tile"]))
        end = action.get("end")
        return f"{tile} {end}" if end else tile
    if kind == "declare":
        return f"declare {action['suit']}"
    if kind == "block_call":
        return "block call"
    return str(kind)


def options(world: World, variant: Variant, player: str, kind: str) -> list[tuple[str, Action | None]]:
    """The options of ``player`` for a decision of ``kind`` in ``world``, named, in the variant's
    order. ``kind`` ``declare``: declaring even, odd, or nothing; ``block_call`` by a player not on
    move: calling or not; otherwise what the variant allows the player on move (declarations left
    out: they are a decision of their own). The action None is the option that writes no event."""
    hand = world.hand
    if kind == "declare":
        return [
            *((f"declare {s}", {"type": "declare", "player": player, "suit": s}) for s in ("even", "odd")),
            (NO_DECLARATION, None),
        ]
    if kind == "block_call" and hand.turn != player:
        return [("block call", {"type": "block_call", "player": player}), (NO_CALL, None)]
    if hand.over is not None:
        return []
    acts = [a for a in variant.legal_actions(world.match, hand, player) if a["type"] != "declare"]
    return [(name_of(a), a) for a in acts]


def apply(world: World, variant: Variant, action: Action, seq: int) -> None:
    """Apply one action to the world's hand, through the variant's hooks (a draw takes the first
    tile of the world's order still in the boneyard)."""
    match, hand = world.match, world.hand
    ctx = QuietCtx(seq)
    kind = action["type"]
    # the events as the hooks take them (built directly: the actions come from legal_actions, so they
    # are valid, and a pydantic model costs more to build than the hook costs to run)
    player = action["player"]
    if kind == "play":
        variant.on_play(match, hand, Play(player, action.get("tile"), action.get("end"), action.get("tiles")), ctx)
    elif kind == "draw":
        bone = hand.boneyard.known
        tile = next((t for t in world.order if t in bone), None)
        variant.on_draw(match, hand, Draw(player, action.get("tile", str(tile) if tile is not None else None)), ctx)
    elif kind == "pass":
        variant.on_pass(match, hand, Pass(player), ctx)
    elif kind == "declare":
        variant.on_declare(match, hand, Declare(player, action["suit"]), ctx)
    elif kind == "block_call":
        variant.on_block_call(match, hand, BlockCall(player), ctx)
    else:  # pragma: no cover - legal_actions gives no other kind
        raise ValueError(f"unknown action {kind}")


# -- the policy -------------------------------------------------------------------------------------
# The points a play makes at once, worked out without placing it (the policy weighs every play at
# every turn: a copy of the table for each would cost most of a playout). They follow the rules'
# own functions step by step; the tests check them against those on random tables.
def _gains_39(hand: HandState, plays: list[tuple[Tile, Side]]) -> list[int]:
    """:meth:`~dominolog.variants.thirty_nine.ThirtyNine.score_play` of each (tile, open end) (T7, T8)."""
    others: dict[int, int] = {}  # open ends that are not sides of the set, by value
    for s in hand.layout.sides.values():
        if not s.first:
            others[s.value] = others.get(s.value, 0) + 1
    even = hand.extra["preferred"] == "even"
    last = hand.extra["last_scoring_double"]
    out = []
    for tile, side in plays:
        if tile.is_double:
            if tile.lo == 0:
                out.append(last if even else 0)
            else:
                out.append(tile.lo if (tile.lo % 2 == 0) == even else 0)
            continue
        left_open = tile.other(side.value)
        made = others.get(left_open, 0) - (not side.first and side.value == left_open) > 0
        out.append(0 if (left_open % 2 == 0) == even or made else -1)
    return out


#: one value's open ends in D6: (double ends, single ends, the spinner among them)
Group = tuple[int, int, int]


def _d6(d: int, s: int, spinner: int) -> int:
    """D6 for one value with ``d`` double ends and ``s`` single ends (``spinner``: one is the spinner)."""
    if d >= 1 and (d + s >= 2 or spinner):
        return 2 * d + s
    return s if s >= 2 else 0


def _shift(changed: dict[int, Group], groups: dict[int, Group], v: int, dd: int, ds: int, dsp: int) -> None:
    d, s, sp = changed.get(v, groups.get(v, (0, 0, 0)))
    changed[v] = (d + dd, s + ds, sp + dsp)


def _gains_bergen(hand: HandState, plays: list[tuple[Tile, Side]]) -> list[int]:
    """:func:`~dominolog.variants.double_bergen.placement_score` once each tile is on its open end
    (D6): the table's count worked out once, then changed for the end taken and the end made."""
    layout = hand.layout
    groups: dict[int, Group] = {}
    first_free = 0
    for side in layout.sides.values():
        if side.first:
            first_free += 1
        else:
            d, s, sp = groups.get(side.value, (0, 0, 0))
            groups[side.value] = (d + 1, s, sp) if side.double else (d, s + 1, sp)
    spin = layout.first.lo
    if first_free:
        d, s, sp = groups.get(spin, (0, 0, 0))
        groups[spin] = (d + 1, s, sp + 1)
    base = sum(_d6(*g) for g in groups.values())
    out = []
    for tile, side in plays:
        changed: dict[int, Group] = {}
        if side.first:
            if first_free == 1:
                _shift(changed, groups, spin, -1, 0, -1)
        elif side.double:
            _shift(changed, groups, side.value, -1, 0, 0)
        else:
            _shift(changed, groups, side.value, 0, -1, 0)
        if tile.is_double:
            _shift(changed, groups, side.value, 1, 0, 0)
        else:
            _shift(changed, groups, tile.other(side.value), 0, 1, 0)
        total = base
        for v, g in changed.items():
            total += _d6(*g) - _d6(*groups.get(v, (0, 0, 0)))
        out.append(total)
    return out


def gain(variant: Variant, hand: HandState, action: Action) -> int:
    """The points the play ``action`` makes at once (0 in the line games, and for a first tile but
    Double Bergen's spinner)."""
    layout = hand.layout
    scorer = GAIN.get(variant.name)
    if scorer is None:
        return 0
    tile = Tile.parse(action["tile"])
    if layout.empty:
        if variant.name != "double-bergen":
            return 0
        probe = layout.clone()
        probe.place_first(tile.lo, tile.hi, tile)
        return placement_score(probe)
    side = layout.side(action["end"])
    return scorer(hand, [(tile, side)])[0] if side is not None else 0


#: the points plays make at once, by variant (the others score nothing during play)
GAIN: dict[str, Callable[[HandState, list[tuple[Tile, Side]]], list[int]]] = {
    "39": _gains_39,
    "double-bergen": _gains_bergen,
}


def _pips(action: Action) -> int:
    tiles = action.get("tiles") or [action["tile"]]
    return sum(Tile.parse(t).pips for t in tiles)


def side_pips(variant: Variant, hand: HandState) -> list[int]:
    return [sum(t.pips for p in side for t in hand.holdings[p].known) for side in variant.sides()]


def _calls(variant: Variant, hand: HandState, player: str) -> bool:
    """Whether the policy calls a blocked game: the caller's side alone has the lowest pips."""
    pips = side_pips(variant, hand)
    mine = next(i for i, side in enumerate(variant.sides()) if player in side)
    return pips[mine] == min(pips) and pips.count(pips[mine]) == 1


def _grid_candidates(variant: Variant, hand: HandState, player: str) -> list[tuple[Tile, Side]] | None:
    """In the spinner games, the (tile, open end) pairs that match, in the variant's order, when the
    rules leave the player a free choice among their plays; the legal plays are those of them with
    room (``fits_side``). None: not that case (a line game, the first tile, 39's draw back up to five,
    Double Bergen's drawn double to set)."""
    layout = hand.layout
    if variant.name not in GAIN or layout.empty:
        return None
    if (hand.extra.get("refill") and hand.turn == player) or hand.extra.get("drawn_double") is not None:
        return None
    sides = variant.allowed_sides(hand)  # type: ignore[attr-defined]
    if sides is None:
        sides = layout.open_sides()
    return [(t, s) for t in sorted(hand.holdings[player].known) for s in sides if t.has(s.value)]


def policy(world: World, variant: Variant, player: str, fast: bool = True) -> Action | None:
    """The policy's action for ``player`` on move (None: nothing is allowed).

    ``fast``: in the spinner games, weigh the matching (tile, end) pairs first and test room only
    for the best ones until one fits, instead of asking ``legal_actions`` for every legal play; the
    tests check that it picks the same action."""
    hand = world.hand
    if fast:
        found = _grid_candidates(variant, hand, player)
        if found:
            gains = GAIN[variant.name](hand, found)
            keyed = sorted((-g, -t.pips, k) for k, (g, (t, _)) in enumerate(zip(gains, found, strict=True)))
            fits = hand.layout.fits_side
            for _, _, k in keyed:
                t, s = found[k]
                if fits(t, s):
                    return {"type": "play", "player": player, "tile": str(t), "end": s.name}
    acts = [a for a in variant.legal_actions(world.match, hand, player) if a["type"] != "declare"]
    call = next((a for a in acts if a["type"] == "block_call"), None)
    if call is not None:
        if _calls(variant, hand, player):
            return call
        acts = [a for a in acts if a["type"] != "block_call"]
    plays = [a for a in acts if a["type"] == "play"]
    if not plays:
        return acts[0] if acts else None
    if len(plays) == 1:
        return plays[0]
    best, key = plays[0], None
    for a in plays:
        k = (gain(variant, hand, a), _pips(a))
        if key is None or k > key:
            best, key = a, k
    return best


def declaration(hand: HandState, player: str) -> str:
    """The suit the policy declares in 39: the parity with more weight in the player's hand."""
    weight = {"even": 0, "odd": 0}
    for t in hand.holdings[player].known:
        for v in (t.lo, t.hi):
            weight["even" if v % 2 == 0 else "odd"] += 1
        if t.is_double:
            weight["even" if t.lo % 2 == 0 else "odd"] += t.lo
    current = hand.extra.get("preferred") or "even"
    other = "odd" if current == "even" else "even"
    return other if weight[other] > weight[current] else current


def _after(world: World, variant: Variant, action: Action, seq: int) -> None:
    """Apply an action of the policy's, and in 39 the policy's declaration after a match."""
    apply(world, variant, action, seq)
    hand = world.hand
    player = action["player"]
    if action["type"] == "play" and hand.extra.get("declare") == player:
        suit = declaration(hand, player)
        if suit != hand.extra.get("preferred"):
            apply(world, variant, {"type": "declare", "player": player, "suit": suit}, seq)


def play_out(world: World, variant: Variant, seq: int) -> bool:
    """Play the hand to its end with the policy; False when the guard stopped it first."""
    hand = world.hand
    for _ in range(LIMIT):
        if hand.over is not None or hand.turn is None:
            return True
        action = policy(world, variant, hand.turn)
        if action is None:
            return True
        seq += 1
        _after(world, variant, action, seq)
    return hand.over is not None


def result_points(world: World, variant: Variant, finished: bool) -> dict[str, int]:
    """The points of the finished hand as the rules give them."""
    if not finished or world.hand.over is None:
        return dict(variant.abandoned_result(world.match, world.hand).points)
    result = variant.score_hand(world.match, world.hand, QuietCtx(0))
    if result is None:  # pragma: no cover - every tile of a world is known
        raise ValueError("a world's hand could not be scored")
    return dict(result.points)


def value_for(variant: Variant, player: str, before: dict[str, int], after: dict[str, int]) -> float:
    """The value for ``player`` (see the module's docstring) of a hand that went from ``before`` to
    ``after`` points."""
    sides = variant.sides()
    gained = [after.get(side[0], 0) - before.get(side[0], 0) for side in sides]
    mine = next(i for i, side in enumerate(sides) if player in side)
    others = [g for i, g in enumerate(gained) if i != mine]
    diff = gained[mine] - (sum(others) / len(others) if others else 0)
    return diff if variant.higher_wins else -diff


def clone(world: World) -> World:
    return World(world.match, world.hand.clone(), world.order)


def value(world: World, variant: Variant, player: str, action: Action | None, seq: int) -> float:
    """The value for ``player`` of taking ``action`` (None: the option that writes no event) in
    ``world``, then playing on with the policy (the world itself is left as it was)."""
    w = clone(world)
    before = dict(w.hand.points)
    if action is not None:
        if action["type"] == "play" and action["player"] == player:
            _after(w, variant, action, seq)
        else:
            apply(w, variant, action, seq)
    finished = play_out(w, variant, seq)
    return value_for(variant, player, before, result_points(w, variant, finished))
