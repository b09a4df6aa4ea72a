"""The exact value of Ghost 13 positions (all 28 tiles are dealt, so both hands are known).

A :class:`Position` is what the rules need to finish a hand: both hands, the open ends,
who is on move, whether the last action was a pass, and, once a block has ended the hand,
whether the Puppeteer rule (G8) made the player who did not lock the aggressor. Players
are numbered 0 and 1 in the order of ``MatchState.players``.

Values are in points as the rules score the hand (G7-G9), for the player on move: the
points that player scores for the hand minus the points the opponent scores (one of the
two is always 0). :func:`solve` gives the value, a best move and a principal variation;
:func:`values` the value of every legal option; :func:`rank` where a move played stands among
them (``#k of N``) and the points it lost, more cheaply. A :class:`Solver` keeps its table
between calls: use one for all the positions of a hand. The search itself is in
:mod:`dominolog.analysis.ghost13_search`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from dominolog.analysis.ghost13_search import (
    EMPTY,
    FIT,
    Search,
    ends_key,
    forced_lock,
    ghost_counts,
    pips,
)
from dominolog.state import HandState, MatchState
from dominolog.tiles import DOUBLE_SIX, Tile, mask_of, tiles_in

ALL = (1 << len(DOUBLE_SIX)) - 1


class Move(NamedTuple):
    """A play of ``tile`` on ``end`` (``""`` for the first tile of the hand), or a pass (``tile`` None)."""

    tile: Tile | None
    end: str = ""

    @property
    def is_pass(self) -> bool:
        return self.tile is None

    def __str__(self) -> str:
        if self.tile is None:
            return "pass"
        return f"{self.tile} {self.end}" if self.end else str(self.tile)

    def event(self, player: str) -> dict[str, Any]:
        """The event that records this move (as the variant's ``legal_actions`` writes it)."""
        if self.tile is None:
            return {"type": "pass", "player": player}
        return {"type": "play", "player": player, "tile": str(self.tile), **({"end": self.end} if self.end else {})}


PASS = Move(None)


class Position(NamedTuple):
    """A Ghost 13 position with full information.

    ``hands``: each player's tiles as a bitmask (bit ``Tile.index``); ``ends``: the open
    (left, right) values, None while the table is empty; ``turn``: the player on move
    (once the hand is over: the one who would have been next); ``passed``: the last action
    was a pass; ``puppet``: only in a hand over by a block, the locking play was forced
    after the opponent's play (G8), so the aggressor is ``turn``, not the player who locked.
    """

    hands: tuple[int, int]
    ends: tuple[int, int] | None
    turn: int
    passed: bool = False
    puppet: bool = False

    @classmethod
    def deal(cls, first: Iterable[Tile], second: Iterable[Tile], leader: int = 0) -> Position:
        """The opening position of a deal (the tiles of players 0 and 1: the whole set between them)."""
        hands = (mask_of(first), mask_of(second))
        if hands[0] & hands[1] or hands[0] | hands[1] != ALL:
            raise ValueError("a Ghost 13 deal gives every tile of the set to one of the two players")
        return cls(hands, None, leader)

    def tiles(self, player: int) -> list[Tile]:
        return tiles_in(self.hands[player])

    @property
    def over(self) -> bool:
        me, opp = self.hands
        if not me or not opp:
            return True
        return self.ends is not None and not (me | opp) & FIT[ends_key(*self.ends)]


class Outcome(NamedTuple):
    """The result of a finished hand, as the rules score it (players by number)."""

    end: str  # "domino" or "block"
    winner: int
    points: tuple[int, int]
    #: pips left in each hand, the ghost counted (G7)
    pips: tuple[int, int]
    aggressor: int | None
    puppeteer: bool


class Rank(NamedTuple):
    """How a move ranks among the options: ``place`` is 1 + the number of options worth more
    (ties share a place), of ``options`` (as :func:`moves` lists them); ``lost`` = best - played."""

    place: int
    options: int
    best: int
    played: int

    @property
    def lost(self) -> int:
        return self.best - self.played


class Solution(NamedTuple):
    """The value of a position for the player on move, a best move, and a principal variation."""

    value: int
    best: Move | None
    pv: tuple[Move, ...]
    #: the solver's node count once solved (a solver used before counts on from there)
    nodes: int


def _key(pos: Position) -> int:
    return EMPTY if pos.ends is None else ends_key(*pos.ends)


def moves(pos: Position) -> list[Move]:
    """The legal options in the variant's order (tiles in set order, left before right); a
    tile that fits both ends is listed on each, even when both show the same number.
    A pass when there is no play; nothing once the hand is over."""
    if pos.over:
        return []
    hand = tiles_in(pos.hands[pos.turn])
    if pos.ends is None:
        return [Move(t, "") for t in hand]
    left, right = pos.ends
    out = []
    for t in hand:
        if t.has(left):
            out.append(Move(t, "left"))
        if t.has(right):
            out.append(Move(t, "right"))
    return out or [PASS]


def play(pos: Position, move: Move) -> Position:
    """The position after ``move`` (which must be legal)."""
    me, opp = pos.hands[pos.turn], pos.hands[1 - pos.turn]
    other = 1 - pos.turn
    t = move.tile
    if pos.over:
        raise ValueError(f"{move}: the hand is over")
    if t is None:
        if me & FIT[_key(pos)] or move.end:
            raise ValueError("a pass while holding a legal play")
        return Position(pos.hands, pos.ends, other, passed=True)
    if not me >> t.index & 1:
        raise ValueError(f"{move}: {t} is not in the hand on move")
    fits = (
        move.end == ""
        if pos.ends is None
        else (move.end == "left" and t.has(pos.ends[0])) or (move.end == "right" and t.has(pos.ends[1]))
    )
    if not fits:
        raise ValueError(f"{move} is not a legal move here")
    if pos.ends is None:
        ends = (t.lo, t.hi)
    elif move.end == "left":
        ends = (t.other(pos.ends[0]), pos.ends[1])
    else:
        ends = (pos.ends[0], t.other(pos.ends[1]))
    rest = me & ~(1 << t.index)
    hands = (rest, opp) if pos.turn == 0 else (opp, rest)
    locked = rest and not (rest | opp) & FIT[ends_key(*ends)]
    # G8: the forced lock of a player whose opponent's last action was a play
    puppet = bool(locked) and pos.ends is not None and not pos.passed and forced_lock(me, opp, _key(pos))
    return Position(hands, ends, other, passed=False, puppet=puppet)


def outcome(pos: Position) -> Outcome | None:
    """The scored result of a finished hand (None while it goes on)."""
    if not pos.over:
        return None
    mover = 1 - pos.turn  # who made the last placement
    e = _key(pos)
    both = pos.hands[0] | pos.hands[1]
    ghost = ghost_counts(both, e)
    left = tuple(pips(h) + (13 if ghost and h & 1 else 0) for h in pos.hands)
    points = [0, 0]
    if not pos.hands[0] or not pos.hands[1]:
        winner = 0 if not pos.hands[0] else 1
        points[winner] = left[1 - winner]
        return Outcome("domino", winner, (points[0], points[1]), (left[0], left[1]), None, False)
    aggressor = pos.turn if pos.puppet else mover
    other = 1 - aggressor
    if left[aggressor] <= left[other]:
        winner, points[aggressor] = aggressor, 2 * left[other]
    else:
        winner, points[other] = other, left[aggressor] + left[other]
    return Outcome("block", winner, (points[0], points[1]), (left[0], left[1]), aggressor, pos.puppet)


def final_value(pos: Position) -> int:
    """The value of a finished hand for ``pos.turn`` (points scored minus points conceded)."""
    result = outcome(pos)
    if result is None:
        raise ValueError("the hand is not over")
    return result.points[pos.turn] - result.points[1 - pos.turn]


def position_from(state: MatchState, hand: HandState) -> Position:
    """The position of a Ghost 13 hand in the reducer's state (all tiles known).

    Raises ValueError for another variant, hidden tiles, tiles not all accounted for, or a
    hand that ended in a way legal play cannot reach (two passes while a play was left)."""
    if state.variant != "ghost13":
        raise ValueError(f"the solver plays Ghost 13, not {state.variant}")
    players = state.players
    if any(h.unknown for h in hand.holdings.values()) or not hand.fully_known:
        raise ValueError("some tiles are hidden: the solver needs both hands")
    hands = (mask_of(hand.holdings[players[0]].known), mask_of(hand.holdings[players[1]].known))
    board = mask_of(hand.layout.on_board)
    if hands[0] & hands[1] or (hands[0] | hands[1]) & board or hands[0] | hands[1] | board != ALL:
        raise ValueError("the tiles in the hands and on the table are not the 28 of the set")
    ends = (hand.layout.left, hand.layout.right) if not hand.layout.empty else None
    last = hand.actions[-1] if hand.actions else None
    if hand.over is None:
        if hand.turn not in players:
            raise ValueError("nobody is on move")
        pos = Position(hands, ends, players.index(hand.turn), passed=last is not None and last[2] == "pass")
        if pos.over:
            raise ValueError("the rules end this hand here, but the hand goes on")
        return pos
    if not hand.placements:
        raise ValueError("the hand ended before any tile was placed")
    final = hand.placements[-1]
    b = players.index(final.player)
    before = [act for act in hand.actions if act[0] < final.seq]
    hb = list(hands)
    hb[b] |= 1 << final.tile.index
    prev = Position(
        (hb[0], hb[1]),
        tuple(final.ends_before) if final.ends_before else None,  # type: ignore[arg-type]
        b,
        passed=bool(before) and before[-1][2] == "pass",
    )
    after = play(prev, Move(final.tile, final.end))
    pos = Position(hands, ends, 1 - b, passed=False, puppet=after.puppet)
    if not pos.over:
        raise ValueError("the hand ended by two passes while a play was left (a renege)")
    return pos


class Solver:
    """Solves Ghost 13 positions; keeps its table between calls (positions of one hand, or many)."""

    def __init__(self, pure: bool = False) -> None:
        """``pure``: search in Python even where the C search is built (the reference)."""
        self.search = Search(pure)

    @property
    def nodes(self) -> int:
        """Nodes searched since the solver was made."""
        return self.search.nodes

    def clear(self) -> None:
        """Forget the table (it only grows: a few hundred bytes a node)."""
        self.search.clear()

    def value(self, pos: Position) -> int:
        """The exact value for the player on move."""
        if pos.over:
            return final_value(pos)
        return self.search.value(*_node(pos))

    def _via(self, pos: Position, move: Move, at_least: int) -> bool:
        """Whether ``move`` is worth at least ``at_least`` to the player on move."""
        child = play(pos, move)
        if child.over:
            return -final_value(child) >= at_least
        me, opp = child.hands[child.turn], child.hands[1 - child.turn]
        # worth >= at_least <=> the child's value <= -at_least <=> not (child >= 1 - at_least)
        return not self.search.at_least(me, opp, _key(child), child.passed, 1 - at_least)

    def best(self, pos: Position, value: int) -> Move:
        """A move that keeps ``value`` (the position's value), the table's move tried first."""
        options = moves(pos)
        hint = self._hint(pos)
        if hint is not None:
            options.sort(key=lambda m: m != hint)
        for m in options:
            if self._via(pos, m, value):
                return m
        raise AssertionError("no move reaches the value of the position")  # pragma: no cover

    def _hint(self, pos: Position) -> Move | None:
        me, opp = pos.hands[pos.turn], pos.hands[1 - pos.turn]
        m = self.search.best_move(me, opp, _key(pos), pos.passed)
        if m < 0:
            return None
        t, ne = DOUBLE_SIX[m >> 6], m & 63
        for option in moves(pos):
            if option.tile is t:
                after = play(pos, option)
                if after.ends is not None and ends_key(*after.ends) == ne:
                    return option
        return None

    def solve(self, pos: Position) -> Solution:
        value = self.value(pos)
        pv: list[Move] = []
        at, v = pos, value
        while not at.over:
            m = self.best(at, v)
            pv.append(m)
            at = play(at, m)
            v = -v
        return Solution(value, pv[0] if pv else None, tuple(pv), self.nodes)

    def values(self, pos: Position) -> list[tuple[Move, int]]:
        """Every legal option with its value for the player on move (the variant's order)."""
        done: dict[Position, int] = {}
        out = []
        if not pos.over:
            self.value(pos)  # the best option first: it bounds the others, which go faster
        for m in moves(pos):
            child = play(pos, m)
            if child not in done:
                done[child] = -self.value(child)
            out.append((m, done[child]))
        return out

    def rank(self, pos: Position, move: Move) -> Rank:
        """The rank of ``move`` among the options, and the points it loses against the best.

        Cheaper than :meth:`values`: the played move and the position are solved exactly,
        every other option is only tested against the played move's value."""
        options = moves(pos)
        if move not in options:
            raise ValueError(f"{move} is not a legal move here")
        played_at = play(pos, move)
        played = -self.value(played_at)
        best = self.value(pos)
        seen: dict[Position, bool] = {played_at: False}
        better = 0
        for m in options:
            child = play(pos, m)
            if child not in seen:
                seen[child] = best > played and self._via(pos, m, played + 1)
            better += seen[child]
        return Rank(better + 1, len(options), best, played)


def _node(pos: Position) -> tuple[int, int, int, bool]:
    return pos.hands[pos.turn], pos.hands[1 - pos.turn], _key(pos), pos.passed


def solve(pos: Position, solver: Solver | None = None) -> Solution:
    """The value of ``pos`` for the player on move, a best move and a principal variation."""
    return (solver or Solver()).solve(pos)


def values(pos: Position, solver: Solver | None = None) -> list[tuple[Move, int]]:
    """The value of every legal option for the player on move."""
    return (solver or Solver()).values(pos)


def rank(pos: Position, move: Move, solver: Solver | None = None) -> Rank:
    """The rank of ``move`` among the options of ``pos`` and the points it loses."""
    return (solver or Solver()).rank(pos, move)


__all__ = [
    "PASS",
    "Move",
    "Outcome",
    "Position",
    "Rank",
    "Solution",
    "Solver",
    "final_value",
    "moves",
    "outcome",
    "play",
    "position_from",
    "rank",
    "solve",
    "values",
]
