"""The state the reducer folds a match into: what is on the table and in each hand,
what is known and what is not, whose turn it is, and the scores so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dominolog.layouts.line import LineLayout
from dominolog.tiles import DOUBLE_SIX, Tile

WinnerValue = str | list[str] | None


@dataclass(slots=True, frozen=True)
class Issue:
    """A violation (or an unverified rule) at one event of a match."""

    seq: int
    line: int
    code: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "line": self.line, "code": self.code, "message": self.message}


@dataclass(slots=True)
class Holding:
    """Tiles somewhere hidden from view (a hand, the boneyard): the known ones, and how many unknown."""

    known: set[Tile] = field(default_factory=set)
    unknown: int = 0

    @property
    def count(self) -> int:
        return len(self.known) + self.unknown

    def clone(self) -> Holding:
        return Holding(set(self.known), self.unknown)


@dataclass(slots=True)
class Placement:
    """A tile placed on the table, with the open ends as they were just before it."""

    seq: int
    player: str
    tile: Tile
    end: str
    ends_before: tuple[int, ...]


@dataclass(slots=True)
class HandResult:
    number: int
    end: str
    winner: WinnerValue
    points: dict[str, int]
    detail: dict[str, Any] = field(default_factory=dict)
    verified: bool = True

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"number": self.number, "end": self.end, "winner": self.winner, "points": dict(self.points)}
        d.update(self.detail)
        return d


@dataclass(slots=True)
class HandState:
    """One hand in progress (or just over)."""

    number: int
    leader: str
    dealer: str | None
    deal_seq: int
    holdings: dict[str, Holding]
    boneyard: Holding
    unaccounted: set[Tile]
    layout: LineLayout
    turn: str | None
    hidden: bool = False
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
        )

    @property
    def fully_known(self) -> bool:
        return self.boneyard.unknown == 0 and all(h.unknown == 0 for h in self.holdings.values())

    def holder_of(self, tile: Tile) -> str | None:
        """Which player is known to hold ``tile`` (None if nobody is)."""
        for p, h in self.holdings.items():
            if tile in h.known:
                return p
        return None

    def settle(self) -> None:
        """Infer hidden tiles: when a single holder has unknown tiles, they are exactly the unaccounted ones."""
        holders = [h for h in (*self.holdings.values(), self.boneyard) if h.unknown]
        if len(holders) == 1 and holders[0].unknown == len(self.unaccounted):
            holders[0].known |= self.unaccounted
            holders[0].unknown = 0
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
