"""The state the reducer folds a match into: what is on the table and in each hand,
what is known and what is not, whose turn it is, and the scores so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dominolog.findings import Issue, Judge, Likelihood, PendingCheck, hidden_line, percent
from dominolog.frozen import by_fields
from dominolog.layouts.grid import GridLayout
from dominolog.layouts.line import LineLayout
from dominolog.tiles import DOUBLE_SIX, Tile

WinnerValue = str | list[str] | None

#: the findings (:mod:`dominolog.findings`), also named from here as the reducer's state carries them
__all__ = [
    "HandResult",
    "HandState",
    "Holding",
    "Issue",
    "Judge",
    "Likelihood",
    "MatchState",
    "PendingCheck",
    "Placement",
    "WinnerValue",
    "bounds_before",
    "hidden_line",
    "percent",
]


@dataclass(init=False, slots=True)
class Holding:
    """Tiles somewhere hidden from view (a hand, the boneyard): the known ones, and how many unknown."""

    known: set[Tile] = field(default_factory=set)
    unknown: int = 0

    def __init__(
        self,
        known: set[Tile] | None = None,
        unknown: int = 0,
    ) -> None:
        self.known = set() if known is None else known
        self.unknown = unknown

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # rebuilt by __init__ (frozen.py)
        return by_fields(self)

    @property
    def count(self) -> int:
        return len(self.known) + self.unknown

    def clone(self) -> Holding:
        return Holding(set(self.known), self.unknown)


@dataclass(slots=True, init=False)
class Placement:
    """A tile placed on the table, with the open ends as they were just before it. (Its ``__init__``
    is written out: see :class:`dominolog.events.kinds.EventBase`.)"""

    seq: int
    player: str
    tile: Tile
    end: str
    ends_before: tuple[int, ...]

    def __init__(self, seq: int, player: str, tile: Tile, end: str, ends_before: tuple[int, ...]) -> None:
        self.seq = seq
        self.player = player
        self.tile = tile
        self.end = end
        self.ends_before = ends_before

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(init=False, slots=True)
class HandResult:
    number: int
    end: str
    winner: WinnerValue
    points: dict[str, int]
    detail: dict[str, Any] = field(default_factory=dict)
    verified: bool = True
    #: who led (and dealt) the hand: later hands' leaders may follow from it
    leader: str | None = None
    dealer: str | None = None

    def __init__(
        self,
        number: int,
        end: str,
        winner: WinnerValue,
        points: dict[str, int],
        detail: dict[str, Any] | None = None,
        verified: bool = True,
        leader: str | None = None,
        dealer: str | None = None,
    ) -> None:
        self.number = number
        self.end = end
        self.winner = winner
        self.points = points
        self.detail = {} if detail is None else detail
        self.verified = verified
        self.leader = leader
        self.dealer = dealer

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # rebuilt by __init__ (frozen.py)
        return by_fields(self)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"number": self.number, "end": self.end, "winner": self.winner, "points": dict(self.points)}
        d.update(self.detail)
        return d


@dataclass(init=False, slots=True)
class HandState:
    """One hand in progress (or just over)."""

    number: int
    leader: str
    dealer: str | None
    deal_seq: int
    holdings: dict[str, Holding]
    boneyard: Holding
    unaccounted: set[Tile]
    layout: LineLayout | GridLayout  # the line games' line, or the spinner games' grid
    turn: str | None
    hidden: bool = False
    start_tile: Tile | None = None
    over: str | None = None
    over_seq: int | None = None
    placements: list[Placement] = field(default_factory=list)
    #: the turn actions that stand, in order: (seq, player, "play" | "pass" | "draw")
    actions: list[tuple[int, str, str]] = field(default_factory=list)
    consecutive_passes: int = 0
    confirm_passes: int = 0
    played_by: dict[str, list[Tile]] = field(default_factory=dict)
    revealed: set[str] = field(default_factory=set)
    points: dict[str, int] = field(default_factory=dict)
    #: the draws that stand, in order: (seq, player, tile or None when not seen)
    draws: list[tuple[int, str, Tile | None]] = field(default_factory=list)
    #: draws by the player on move in the current turn
    turn_draws: int = 0
    #: plays the rules did not place (illegal, not placed): (seq, player, tile). The tile still came
    #: from that hand, so the knowledge engine takes them as facts (:mod:`dominolog.knowledge.facts`)
    tried: list[tuple[int, str, Tile]] = field(default_factory=list)
    #: the reveals that stand, as written: (seq, player, tiles shown)
    reveals: list[tuple[int, str, frozenset[Tile]]] = field(default_factory=list)
    #: what a variant keeps of its own (immutable values: copied shallowly with the hand)
    extra: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        number: int,
        leader: str,
        dealer: str | None,
        deal_seq: int,
        holdings: dict[str, Holding],
        boneyard: Holding,
        unaccounted: set[Tile],
        layout: LineLayout | GridLayout,
        turn: str | None,
        hidden: bool = False,
        start_tile: Tile | None = None,
        over: str | None = None,
        over_seq: int | None = None,
        placements: list[Placement] | None = None,
        actions: list[tuple[int, str, str]] | None = None,
        consecutive_passes: int = 0,
        confirm_passes: int = 0,
        played_by: dict[str, list[Tile]] | None = None,
        revealed: set[str] | None = None,
        points: dict[str, int] | None = None,
        draws: list[tuple[int, str, Tile | None]] | None = None,
        turn_draws: int = 0,
        tried: list[tuple[int, str, Tile]] | None = None,
        reveals: list[tuple[int, str, frozenset[Tile]]] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.number = number
        self.leader = leader
        self.dealer = dealer
        self.deal_seq = deal_seq
        self.holdings = holdings
        self.boneyard = boneyard
        self.unaccounted = unaccounted
        self.layout = layout
        self.turn = turn
        self.hidden = hidden
        self.start_tile = start_tile
        self.over = over
        self.over_seq = over_seq
        self.placements = [] if placements is None else placements
        self.actions = [] if actions is None else actions
        self.consecutive_passes = consecutive_passes
        self.confirm_passes = confirm_passes
        self.played_by = {} if played_by is None else played_by
        self.revealed = set() if revealed is None else revealed
        self.points = {} if points is None else points
        self.draws = [] if draws is None else draws
        self.turn_draws = turn_draws
        self.tried = [] if tried is None else tried
        self.reveals = [] if reveals is None else reveals
        self.extra = {} if extra is None else extra

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # rebuilt by __init__ (frozen.py)
        return by_fields(self)

    @property
    def line(self) -> LineLayout:
        """The layout as a line: for the rules of the line games, which know that they play one."""
        layout = self.layout
        if not isinstance(layout, LineLayout):
            raise TypeError(f"a line game's rule reads a {type(layout).__name__}")
        return layout

    @property
    def grid(self) -> GridLayout:
        """The layout as a grid: for the rules of the spinner games."""
        layout = self.layout
        if not isinstance(layout, GridLayout):
            raise TypeError(f"a spinner game's rule reads a {type(layout).__name__}")
        return layout

    def clone(self) -> HandState:
        return HandState(
            number=self.number,
            leader=self.leader,
            dealer=self.dealer,
            deal_seq=self.deal_seq,
            holdings={p: h.clone() for p, h in self.holdings.items()},
            boneyard=self.boneyard.clone(),
            unaccounted=set(self.unaccounted),
            layout=self.layout.clone(),
            turn=self.turn,
            hidden=self.hidden,
            over=self.over,
            over_seq=self.over_seq,
            placements=list(self.placements),
            actions=list(self.actions),
            consecutive_passes=self.consecutive_passes,
            confirm_passes=self.confirm_passes,
            played_by={p: list(t) for p, t in self.played_by.items()},
            revealed=set(self.revealed),
            points=dict(self.points),
            start_tile=self.start_tile,
            draws=list(self.draws),
            turn_draws=self.turn_draws,
            tried=list(self.tried),
            reveals=list(self.reveals),
            extra=dict(self.extra),
        )

    @property
    def fully_known(self) -> bool:
        return self.boneyard.unknown == 0 and all(h.unknown == 0 for h in self.holdings.values())

    @property
    def hands_known(self) -> bool:
        """Every player's tiles are known (the boneyard may not be)."""
        return all(h.unknown == 0 for h in self.holdings.values())

    def possible(self, player: str) -> frozenset[Tile]:
        """The tiles that may be in ``player``'s hand now."""
        h = self.holdings[player]
        return frozenset(h.known | self.unaccounted) if h.unknown else frozenset(h.known)

    def holder_of(self, tile: Tile) -> str | None:
        """Which player is known to hold ``tile`` (None if nobody is)."""
        for p, h in self.holdings.items():
            if tile in h.known:
                return p
        return None

    def settle(self) -> None:
        """Infer hidden tiles: when a single holder has unknown tiles, they are exactly the unaccounted ones."""
        if not self.unaccounted:  # (an open hand: nothing is hidden, nothing to infer)
            return
        # the one holder with unknown tiles, if only one has any (asked after every turn of a hidden
        # hand: no list of holders made)
        one = self.boneyard if self.boneyard.unknown else None
        for h in self.holdings.values():
            if h.unknown:
                if one is not None:
                    return
                one = h
        if one is not None and one.unknown == len(self.unaccounted):
            one.known |= self.unaccounted
            one.unknown = 0
            self.unaccounted = set()

    def conserved(self) -> bool:
        """Every tile of the set is in exactly one place (28 tiles conserved)."""
        seen = set(self.layout.on_board)
        n = len(seen)
        for h in (*self.holdings.values(), self.boneyard):
            seen |= h.known
            n += len(h.known)
        seen |= self.unaccounted
        n += len(self.unaccounted)
        unknown = self.boneyard.unknown + sum(h.unknown for h in self.holdings.values())
        return n == len(DOUBLE_SIX) and len(seen) == len(DOUBLE_SIX) and unknown == len(self.unaccounted)


@dataclass(slots=True)
class MatchState:
    variant: str
    players: list[str]
    options: dict[str, Any]
    match_id: str | None = None
    meta: dict[str, str] = field(default_factory=dict)
    hand: HandState | None = None
    results: list[HandResult] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    #: the rules say the match is over (target reached, all hands played)
    over: bool = False
    #: a match_end has been seen
    ended: bool = False
    abandoned: bool = False
    winner: WinnerValue = None

    def next_player(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]


def bounds_before(hand: HandState, player: str, seq: int) -> tuple[set[Tile], set[Tile]]:
    """What ``player`` surely held, and may have held, just before the event at ``seq``,
    worked back from the hand's end (the player's last tiles must be known).

    Going back from the end, a play puts its tile back in the hand and a seen draw takes
    its tile out. An unseen draw took one of the tiles the player had later, but which
    one is unknown: before it, any of those may be missing. So the tiles held for sure
    are the ones the player played before their next unseen draw.
    """
    placed = [(p.seq, p.tile) for p in hand.placements if p.player == player]
    ever = set(hand.holdings[player].known) | {t for _, t in placed}
    upper = ever - {t for s, t in placed if s < seq}
    upper -= {t for s, q, t in hand.draws if q == player and s >= seq and t is not None}
    unseen = [s for s, q, t in hand.draws if q == player and s >= seq and t is None]
    if not unseen:
        return set(upper), upper
    first = min(unseen)
    return {t for s, t in placed if seq <= s < first}, upper
