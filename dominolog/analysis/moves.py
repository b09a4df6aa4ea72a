"""The moves of a match that the sampled review looks at, picked from one fold of its log.

:func:`plan_sampled` folds the match once and keeps, for each hand, its records (what each player's
view is folded from, :mod:`dominolog.analysis.deals`), and every turn event that stands (not undone)
as a :class:`Move`: who made it, which option it is, and the table just before it as the fold had
it (a copy of the hand's state and of the match's, whose totals the rules may need). In 39 a play
that makes a match adds a declaration move of its own (at the play's seq, the table after the play)
unless a ``declare`` by the same player follows. The hand's state at its end and its unverified
rules are kept too: what the whole log shows of a player's own hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from dominolog.analysis.playout import NO_DECLARATION, name_of
from dominolog.log.reader import MatchLog, Record
from dominolog.reducer import TURN_EVENTS, MatchReducer
from dominolog.state import HandState, MatchState

CLOSES_A_HAND = frozenset({"hand_end", "deal", "match_end"})


@dataclass
class Move:
    """A move of a player that may be a decision, with the table as it stood just before it."""

    seq: int
    player: str
    kind: str
    #: the option it is (None: the fold did not carry it out)
    played: str | None
    #: the world is taken after the event at this seq
    at: int
    match: MatchState
    hand: HandState
    #: a declaration not made (39), after the play at ``seq``
    implicit: bool = False


@dataclass
class SampledHand:
    number: int
    players: list[str]
    hidden: bool
    #: the match_start record, and the hand's records from its deal on (its close left out)
    start: Record
    records: list[Record]
    moves: list[Move] = field(default_factory=list)
    #: what the whole log shows of the hand: its state after the deal and at its end, and its
    #: unverified rules as judged then (for a player's own hand the log did not show)
    whole: tuple[HandState, HandState, list] | None = None
    #: the table right after the deal as the fold had it (the match, the hand), for the deal's luck
    dealt: tuple[MatchState, HandState] | None = None
    #: the hand's points as the rules scored it at its end (None: it did not end, or was abandoned)
    points: dict[str, int] | None = None


@dataclass
class SampledPlan:
    source: str
    match_id: str | None
    variant: str | None
    players: list[str]
    options: dict
    hands: list[SampledHand]


def _played(kind: str, rec: Record, hand: HandState | None) -> str | None:
    ev = rec.event
    assert ev is not None
    if kind != "play":
        if kind == "declare":
            return f"declare {ev.suit}"  # type: ignore[union-attr]
        return name_of({"type": kind})
    placed = [p for p in (hand.placements if hand is not None else []) if p.seq == rec.seq]
    if len(placed) == 2:
        return f"{placed[0].tile} + {placed[1].tile}"
    if len(placed) == 1:
        return f"{placed[0].tile} {placed[0].end}".rstrip()
    return None


def _match_copy(state: MatchState) -> MatchState:
    return replace(state, hand=None, totals=dict(state.totals), results=list(state.results))


def plan_sampled(log: MatchLog) -> SampledPlan:
    """Fold the match once and keep, for each hand, its records and every move with its table."""
    reducer = MatchReducer(log.source, log.line)
    caught: list[list] = []
    reducer.on_checks = lambda hand, decided: caught.append(decided)
    hands: list[SampledHand] = []
    current: SampledHand | None = None
    start_rec: Record | None = None

    def close(retracted: set[int]) -> None:
        assert current is not None
        standing = [m for m in current.moves if m.seq not in retracted]
        turns = [m for m in standing if not m.implicit]
        kept = []
        for m in standing:
            if m.implicit:
                after = [t for t in turns if t.seq > m.seq]
                if after and after[0].kind == "declare" and after[0].player == m.player:
                    continue
            kept.append(m)
        current.moves = kept
        hands.append(current)

    for rec in log.records:
        state = reducer.state
        hand = state.hand if state is not None else None
        ev = rec.event
        kind = ev.type if ev is not None else None
        if kind == "match_start" and start_rec is None:
            start_rec = rec
        if hand is not None and current is not None and kind in CLOSES_A_HAND:
            caught.clear()
            current.whole = (reducer._hand_start(), hand.clone(), [])
            retracted = set(reducer.history.retracted)
            reducer.feed(rec)
            current.whole[2].extend(caught[0] if caught else [])
            done = reducer.state.results if reducer.state is not None else []
            if done and done[-1].number == current.number and done[-1].end != "abandoned":
                current.points = dict(done[-1].points)
            close(retracted)
            current = None
        elif hand is not None and current is not None and kind in TURN_EVENTS:
            assert state is not None and ev is not None
            before = (_match_copy(state), hand.clone())
            reducer.feed(rec)
            after = reducer.state.hand if reducer.state is not None else None
            player = ev.player  # type: ignore[union-attr]
            current.moves.append(Move(rec.seq, player, kind, _played(kind, rec, after), rec.seq - 1, *before))
            if kind == "play" and after is not None and after.extra.get("declare") == player:
                current.moves.append(
                    Move(rec.seq, player, "declare", NO_DECLARATION, rec.seq, _match_copy(state), after.clone(), True)
                )
        else:
            reducer.feed(rec)
        if current is not None:
            current.records.append(rec)
        state = reducer.state
        if kind == "deal" and state is not None and state.hand is not None and start_rec is not None:
            current = SampledHand(state.hand.number, list(state.players), state.hand.hidden, start_rec, [rec])
            current.dealt = (_match_copy(state), state.hand.clone())
    state = reducer.state
    if current is not None and state is not None and state.hand is not None:  # a hand still being played
        hand = state.hand
        current.whole = (reducer._hand_start(), hand.clone(), reducer.decide_pending(hand))
        close(set(reducer.history.retracted))
    return SampledPlan(
        log.source,
        state.match_id if state is not None else None,
        state.variant if state is not None else None,
        list(state.players) if state is not None else [],
        dict(state.options) if state is not None else {},
        hands,
    )
