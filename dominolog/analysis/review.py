"""The review of a match: every decision ranked, with the points each option is worth.

Ghost 13 deals all 28 tiles, so its positions are solved exactly: for each hand whose deal is
known (dealt open, or recorded hidden and made known by the reveals at its end: each player's
tiles are the tiles they played plus the tiles they revealed), the hand is replayed from its deal.
At every decision (a play, or a pass) the value of each legal option is solved exactly
(:func:`dominolog.analysis.ghost13.values`: points the player on move scores for the hand minus the
opponent's), and the move played is ranked: ``#k of N``, where ``k`` is 1 + the number of options
strictly better; the points lost are best minus played.

The other variants (Brettspielnetz, 39, Double Bergen, Double Draw) are reviewed by sampling the
deals the player on move could have faced (:mod:`dominolog.analysis.sampling`); :func:`review_match`
picks the method by the variant. The per-player figures are :mod:`dominolog.analysis.results`'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dominolog.analysis.ghost13 import Move, Position, Solver, moves, play, values
from dominolog.analysis.results import (
    ACCURACY,
    TOP,
    Decision,
    HandReview,
    MatchReview,
    PlayerReview,
    Sampling,
    assemble,
)
from dominolog.analysis.sampling import SAMPLED, SAMPLES, SEED, review_sampled
from dominolog.log.reader import MatchLog
from dominolog.reducer import MatchReducer
from dominolog.state import HandState
from dominolog.tiles import DOUBLE_SIX, Tile

NOT_SOLVED = "not analysed: dominolog does not analyse this variant"
DEAL_UNKNOWN = "not analysed: the deal is not known"

__all__ = [
    "ACCURACY",
    "DEAL_UNKNOWN",
    "NOT_SOLVED",
    "TOP",
    "Decision",
    "HandPlan",
    "HandReview",
    "MatchPlan",
    "MatchReview",
    "PlayerReview",
    "Sampling",
    "assemble",
    "decisions_to_solve",
    "not_solved",
    "plan_match",
    "review_hand",
    "review_hand_of",
    "review_match",
]


@dataclass
class HandPlan:
    """What the review of one hand needs, picked from the fold: the deal and the moves that stand."""

    number: int
    players: list[str]
    leader: int
    deal: tuple[list[Tile], list[Tile]] | None
    hidden: bool
    #: (seq, player, move, open ends just before as the table has them) of every play and pass that stands
    moves: list[tuple[int, str, Move, tuple[int, ...]]] = field(default_factory=list)


@dataclass
class MatchPlan:
    source: str
    match_id: str | None
    variant: str | None
    players: list[str]
    hands: list[HandPlan]
    #: the head hash of the log as folded
    head: str = ""


def _deal_of(hand: HandState, players: list[str]) -> tuple[list[Tile], list[Tile]] | None:
    """Each player's tiles (played plus still held), if every tile is known and all 28 are there."""
    if len(players) != 2 or any(hand.holdings[p].unknown for p in players):
        return None
    sets = [set(hand.played_by.get(p, [])) | hand.holdings[p].known for p in players]
    if sets[0] & sets[1] or sets[0] | sets[1] != set(DOUBLE_SIX):
        return None
    return sorted(sets[0], key=lambda t: t.index), sorted(sets[1], key=lambda t: t.index)


def _plan(hand: HandState, players: list[str]) -> HandPlan:
    by_seq = {p.seq: p for p in hand.placements}
    plan = HandPlan(
        hand.number,
        players,
        players.index(hand.leader) if hand.leader in players else 0,
        _deal_of(hand, players),
        hand.hidden,
    )
    for seq, player, kind in hand.actions:
        if kind == "play" and seq in by_seq:
            p = by_seq[seq]
            plan.moves.append((seq, player, Move(p.tile, p.end), tuple(p.ends_before)))
        elif kind == "pass":
            plan.moves.append((seq, player, Move(None), ()))
    return plan


def plan_match(log: MatchLog) -> MatchPlan:
    """Fold the match once and keep, for each hand, its deal (when known) and the moves that stand.
    A hand is taken as it stood when it closed, after its reveals (which fill a hidden deal)."""
    reducer = MatchReducer(log.source, log.line)
    plans: list[HandPlan] = []
    last: HandState | None = None
    for rec in log.records:
        state = reducer.state
        before = len(state.results) if state is not None else 0
        if state is not None and state.hand is not None:
            last = state.hand
        reducer.feed(rec)
        state = reducer.state
        if state is not None and len(state.results) > before and last is not None:
            plans.append(_plan(last, list(state.players)))
            last = None
    state = reducer.state
    if state is not None and state.hand is not None and state.hand.placements:
        plans.append(_plan(state.hand, list(state.players)))  # a hand still being played
    return MatchPlan(
        log.source,
        state.match_id if state is not None else None,
        state.variant if state is not None else None,
        list(state.players) if state is not None else [],
        plans,
        reducer.head,
    )


def _matching(pos: Position, move: Move) -> Move | None:
    """The legal option that is ``move`` (its tile either way round, on its end)."""
    for option in moves(pos):
        if option.tile == move.tile and (option.end == move.end or pos.ends is None):
            return option
    return None


def _replay(plan: HandPlan) -> tuple[list[tuple[int, str, Position, Move]], str | None]:
    """Each decision of the hand from its deal (seq, player, position before, the option played), and
    why the replay stopped early, if it did (a move the rules do not allow there)."""
    assert plan.deal is not None
    pos = Position.deal(plan.deal[0], plan.deal[1], plan.leader)
    steps: list[tuple[int, str, Position, Move]] = []
    for seq, player, move, ends in plan.moves:
        if pos.over and move.is_pass:
            continue  # the passes that confirm a lock
        if pos.ends is not None and ends == pos.ends[::-1]:
            pos = pos._replace(ends=ends)  # the first tile laid the other way round: same value
        option = None if pos.over or player != plan.players[pos.turn] else _matching(pos, move)
        if option is None:
            return steps, f"analysis stops at seq {seq}: the move breaks the rules"
        steps.append((seq, player, pos, option))
        pos = play(pos, option)
    return steps, None


def _chosen(steps: list[tuple[int, str, Position, Move]], from_seq: int, last: int | None) -> list[int]:
    """The seqs of the decisions to solve: from seq ``from_seq`` on, the ``last`` ones if given."""
    seqs = [s[0] for s in steps if s[0] >= from_seq]
    return seqs if last is None else seqs[len(seqs) - last :] if last else []


def review_hand(
    plan: HandPlan,
    solver: Solver | None = None,
    on_decision: Callable[[], None] | None = None,
    from_seq: int = 0,
    last: int | None = None,
) -> HandReview:
    """Replay the hand from its deal and rank every decision (exact values) from seq ``from_seq`` on
    (only its ``last`` decisions, if given)."""
    out = HandReview(plan.number, hidden=plan.hidden)
    if plan.deal is None:
        out.note = DEAL_UNKNOWN
        return out
    solver = solver or Solver()
    steps, out.note = _replay(plan)
    chosen = set(_chosen(steps, from_seq, last))
    for seq, player, pos, option in steps:
        if seq not in chosen:
            continue
        options = values(pos, solver)
        played = next(v for m, v in options if m == option)
        best = max(v for _, v in options)
        out.decisions.append(
            Decision(
                seq,
                player,
                str(option),
                played,
                [(str(m), v) for m, v in options],
                best,
                min(v for _, v in options),
                next(str(m) for m, v in options if v == best),
                1 + sum(v > played for _, v in options),
                plan.number,
                kind="pass" if option.is_pass else "play",
            )
        )
        if on_decision is not None:
            on_decision()
    return out


def review_hand_of(log: MatchLog, number: int, from_seq: int = 0, last: int | None = None) -> HandReview:
    """The review of hand ``number`` of the match (what a worker process runs: the match + a number)."""
    plan = next(h for h in plan_match(log).hands if h.number == number)
    return review_hand(plan, None, None, from_seq, last)


def decisions_to_solve(plan: HandPlan, from_seq: int = 0, last: int | None = None) -> int:
    """How many decisions the review of the hand solves (for a progress bar)."""
    return len(_chosen(_replay(plan)[0], from_seq, last)) if plan.deal is not None else 0


def not_solved(plan: MatchPlan) -> MatchReview | None:
    """The review of a match neither solved nor sampled (a variant dominolog does not analyse), or None."""
    if plan.variant != "ghost13" and plan.variant not in SAMPLED:
        return MatchReview(plan.source, plan.match_id, plan.variant, plan.players, note=NOT_SOLVED)
    return None


def review_match(
    log: MatchLog,
    hand: int | None = None,
    on_decision: Callable[[], None] | None = None,
    from_seq: int = 0,
    last: int | None = None,
    samples: int = SAMPLES,
    seed: int = SEED,
) -> MatchReview:
    """Review the match (or only hand ``hand``; only the decisions from seq ``from_seq`` on, only
    each hand's ``last`` decisions if given), in this process: Ghost 13 exactly, one solver per hand;
    the other variants by sampling ``samples`` deals a decision (seeded with ``seed``)."""
    plan = plan_match(log)
    refused = not_solved(plan)
    if refused is not None:
        return refused
    if plan.variant in SAMPLED:
        return review_sampled(log, hand, samples, seed, on_decision, from_seq, last)
    hands = [review_hand(h, None, on_decision, from_seq, last) for h in plan.hands if hand is None or h.number == hand]
    return assemble(plan, hands)
