"""The Ghost 13 solver (``dominolog.analysis.ghost13``).

Its rules are the variant's: on random deals played out through the reducer, its legal
moves are the variant's at every turn, its positions are the reducer's, and its scoring
of the finished hand is ``Ghost13.score_hand``'s (points, winner, pips, aggressor,
Puppeteer). Its values are a plain minimax's (no pruning, no table) on thousands of
endgame positions, with every option's value, the best move and the principal variation.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.analysis.ghost13 import (
    PASS,
    Move,
    Position,
    Solver,
    final_value,
    moves,
    outcome,
    play,
    position_from,
    rank,
    solve,
    values,
)
from dominolog.events import parse_event
from dominolog.log.reader import Record, iter_matches
from dominolog.reducer import MatchReducer, reduce_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.tiles import DOUBLE_SIX, Tile
from tests.conftest import ROOT
from tests.ghost13_scenarios import HIGH, LOW, ghost_hand, puppet_hand
from tests.helpers import fold

NAMES = ["Ana", "Ben"]
seeds = st.integers(min_value=0, max_value=2**32)


def feed(reducer: MatchReducer, event: dict[str, Any]) -> None:
    n = reducer.events + 1
    event = {"seq": n, **event}
    reducer.feed(Record(n, n, b"", value=event, event=parse_event(event)))


def replies(pos: Position, m: Move) -> int:
    after = play(pos, m)
    return -1 if after.over else sum(1 for x in moves(after) if not x.is_pass)


def pick(pos: Position, rng: random.Random, greedy: bool) -> Move:
    """A random legal move; ``greedy``: one that leaves the opponent the fewest plays (it makes
    blocks, passes and forced locks, hence Puppeteers, far more common than random play)."""
    options = moves(pos)
    if greedy and len(options) > 1:
        fewest = min(replies(pos, m) for m in options)
        options = [m for m in options if replies(pos, m) == fewest]
    return rng.choice(options)


def deal(rng: random.Random) -> Position:
    tiles = list(DOUBLE_SIX)
    rng.shuffle(tiles)
    return Position.deal(tiles[:14], tiles[14:], rng.randrange(2))


def minimax(pos: Position) -> int:
    """The value by the definition: the best of the options, each worth minus the value after it."""
    if pos.over:
        return final_value(pos)
    return max(-minimax(play(pos, m)) for m in moves(pos))


# -- the rules are the variant's -----------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, greedy=st.booleans(), flip=st.booleans())
def test_moves_positions_and_scoring_are_the_reducers(seed: int, greedy: bool, flip: bool) -> None:
    rng = random.Random(seed)
    pos = deal(rng)
    reducer = MatchReducer("<test>")
    feed(reducer, {"type": "match_start", "variant": "ghost13", "players": NAMES})
    hands = {p: [str(t) for t in pos.tiles(i)] for i, p in enumerate(NAMES)}
    feed(reducer, {"type": "deal", "leader": NAMES[pos.turn], "hands": hands})
    state, variant = reducer.state, reducer.variant
    assert state is not None and variant is not None and state.hand is not None
    while True:
        hand = state.hand
        assert hand is not None
        assert position_from(state, hand) == pos
        if pos.over:
            break
        player = NAMES[pos.turn]
        assert moves(pos) == ([Move(t, e) for t, e in variant.legal_placements(hand, player)] or [PASS])
        m = pick(pos, rng, greedy)
        event = m.event(player)
        assert event in variant.legal_actions(state, hand, player)
        if flip and m.tile is not None and not m.end:
            event["tile"] = f"{m.tile.hi}-{m.tile.lo}"  # the first tile, the other way round
        feed(reducer, event)
        pos = play(pos, m)
        if event["type"] == "play" and not m.end:
            pos = pos._replace(ends=(hand.layout.left, hand.layout.right))
    assert reducer.violations == []
    result = variant.score_hand(state, hand, reducer.ctx)
    scored = outcome(pos)
    assert result is not None and scored is not None
    assert hand.over == scored.end
    assert result.points == dict(zip(NAMES, scored.points, strict=True))
    assert result.winner == NAMES[scored.winner]
    assert result.detail["pips"] == dict(zip(NAMES, scored.pips, strict=True))
    if scored.end == "block":
        assert result.detail["aggressor"] == NAMES[scored.aggressor or 0]
        assert result.detail["puppeteer"] is scored.puppeteer
    assert final_value(pos) == scored.points[pos.turn] - scored.points[1 - pos.turn]


def test_the_puppeteer_and_the_ghost_as_the_rulings_score_them() -> None:
    # G8: Ben's only legal tile is 6-6 and it locks, right after Ana's play: Ana is the aggressor
    reducer = fold(puppet_hand(LOW, HIGH))
    assert reducer.state is not None and reducer.state.hand is not None
    end = position_from(reducer.state, reducer.state.hand)
    assert end.puppet and end.turn == 0
    assert outcome(end) == ("block", 0, (124, 0), (28, 62), 0, True)
    # one event earlier, Ben is on move with that forced lock: it costs him 124
    before = fold(puppet_hand(LOW, HIGH)[:-1])
    assert before.state is not None and before.state.hand is not None
    pos = position_from(before.state, before.state.hand)
    assert pos.turn == 1 and not pos.puppet
    assert moves(pos) == [Move(Tile(6, 6), "left"), Move(Tile(6, 6), "right")]
    assert solve(pos).value == -124
    assert rank(pos, Move(Tile(6, 6), "right")) == (1, 2, -124, -124)
    assert values(pos) == [(Move(Tile(6, 6), "left"), -124), (Move(Tile(6, 6), "right"), -124)]
    # G7: all of 0-1..0-6 on the table, 6 at both ends: Ben's 0-0 counts 13 (29 + 13 pips);
    # Ben's lock was forced after Ana's play (G8), so Ana is the aggressor, with more pips
    ghost = fold(ghost_hand())
    assert ghost.state is not None and ghost.state.hand is not None
    scored = outcome(position_from(ghost.state, ghost.state.hand))
    assert scored == ("block", 1, (0, 103), (61, 42), 0, True)


def finished_hands(events: list[dict[str, Any]]) -> list[Position]:
    """The position of every hand of a match just before its hand_end."""
    (log,) = iter_matches("<test>", "".join(json.dumps(e) + "\n" for e in events).encode())
    out = []
    for rec in log.records:
        if rec.type == "hand_end":
            reducer = reduce_match(log, rec.seq - 1)
            assert reducer.state is not None and reducer.state.hand is not None
            out.append(position_from(reducer.state, reducer.state.hand))
    return out


def test_a_hand_recorded_hidden_ends_in_the_same_position() -> None:
    """Recorded as a table sees it (hands not seen, a lock confirmed by two passes, reveals at
    the end), every hand of a simulated match ends in the position the full record ends in."""
    full = simulate_match("ghost13", 11)
    ends = finished_hands(full)
    assert len(ends) >= 3 and all(p.over for p in ends)
    assert finished_hands(hide_match(full)) == ends
    kinds = [o.end for o in map(outcome, ends) if o is not None]
    assert len(kinds) == len(ends) and "block" in kinds


def test_position_from_needs_both_hands_and_ghost13() -> None:
    events = hide_match(simulate_match("ghost13", 3))
    (log,) = iter_matches("<hidden>", "".join(json.dumps(e) + "\n" for e in events).encode())
    hidden = reduce_match(log, 5)
    assert hidden.state is not None and hidden.state.hand is not None
    with pytest.raises(ValueError, match="hidden"):
        position_from(hidden.state, hidden.state.hand)
    other = MatchReducer("<test>")
    feed(other, {"type": "match_start", "variant": "brettspielnetz", "players": NAMES})
    other_state = other.state
    assert other_state is not None
    with pytest.raises(ValueError, match="Ghost 13"):
        position_from(other_state, hidden.state.hand)


# -- the values are a minimax's --------------------------------------------------------


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, greedy=st.booleans(), tiles=st.integers(min_value=3, max_value=10))
def test_the_solver_agrees_with_a_plain_minimax_on_endgames(seed: int, greedy: bool, tiles: int) -> None:
    """From random deals played down to ``tiles`` tiles in hand, every position to the end of
    the hand (one solver for all of them, its table shared): the value, every option's value,
    a best move, the rank of every option, and the principal variation, which scores the value
    when played out."""
    rng = random.Random(seed)
    pos = deal(rng)
    while not pos.over and (pos.hands[0] | pos.hands[1]).bit_count() > tiles:
        pos = play(pos, pick(pos, rng, greedy))
    solver = Solver()
    while not pos.over:
        expected = [(m, -minimax(play(pos, m))) for m in moves(pos)]
        best = max(v for _, v in expected)
        assert solver.values(pos) == expected
        for m, v in expected:
            assert solver.rank(pos, m) == (1 + sum(w > v for _, w in expected), len(expected), best, v)
        solution = solver.solve(pos)
        assert solution.value == best == minimax(pos)
        assert solution.best is not None and solution.pv[0] == solution.best
        assert dict(expected)[solution.best] == best
        end = pos
        for m in solution.pv:
            end = play(end, m)
        assert end.over
        scored = outcome(end)
        assert scored is not None and scored.points[pos.turn] - scored.points[1 - pos.turn] == best
        pos = play(pos, pick(pos, rng, greedy))
    assert solve(pos) == (final_value(pos), None, (), 0)
    assert values(pos) == []


def test_a_replayed_position_after_ten_plays() -> None:
    """replays/ghost13-simulated.jsonl after its tenth play: 18 tiles in hand, Ana on move.
    The minimax here keeps the values it found (a memo on the exact position: no pruning);
    without it, it takes minutes."""
    (log,) = iter_matches(ROOT / "replays" / "ghost13-simulated.jsonl")
    tenth = [r for r in log.records if r.type == "play"][9]
    reducer = reduce_match(log, tenth.seq)
    assert reducer.state is not None and reducer.state.hand is not None
    pos = position_from(reducer.state, reducer.state.hand)
    assert " ".join(str(t) for t in pos.tiles(0)) == "0-3 0-6 1-4 1-5 1-6 3-4 3-6 4-6 6-6"
    assert " ".join(str(t) for t in pos.tiles(1)) == "0-0 0-1 0-5 1-1 1-2 1-3 2-4 2-5 2-6"
    assert (pos.ends, pos.turn, pos.passed) == ((6, 5), 0, False)
    solver = Solver()
    solution = solver.solve(pos)
    assert solution.value == 13
    assert solution.best == Move(Tile(1, 5), "right")
    options = {str(m): v for m, v in solver.values(pos)}
    assert options == {
        "0-6 left": -106,
        "1-5 right": 13,
        "1-6 left": -82,
        "3-6 left": -68,
        "4-6 left": 7,
        "6-6 left": 2,
    }
    assert rank(pos, Move(Tile(4, 6), "left")) == (2, 6, 13, 7)
    assert rank(pos, Move(Tile(4, 6), "left")).lost == 6
    memo: dict[Position, int] = {}

    def kept(p: Position) -> int:
        if p.over:
            return final_value(p)
        if p not in memo:
            memo[p] = max(-kept(play(p, m)) for m in moves(p))
        return memo[p]

    assert kept(pos) == 13
    assert {str(m): -kept(play(pos, m)) for m in moves(pos)} == options


def test_a_whole_hand_from_the_deal() -> None:
    """A whole hand from its opening: Ana leads, and with best play on both sides she scores 114
    (the principal variation, played out, scores exactly that)."""
    ana = [Tile(0, b) for b in range(7) if b != 2] + [Tile(a, b) for a, b in ((1, 2), (1, 5), (2, 2), (2, 4), (2, 5))]
    ana += [Tile(3, 4), Tile(4, 6), Tile(6, 6)]
    assert len(ana) == 14
    ben = [t for t in DOUBLE_SIX if t not in ana]
    pos = Position.deal(ana, ben, 0)
    solution = solve(pos)
    assert (solution.value, solution.best) == (114, Move(Tile(0, 0), ""))
    end = pos
    for m in solution.pv:
        end = play(end, m)
    scored = outcome(end)
    assert scored is not None and scored.points == (114, 0)
