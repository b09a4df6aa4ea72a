"""Issue 15, correctness: the points lost add up. In a hand solved exactly, each decision's loss is the
value of its position minus the value of the move played, and the value of the next position is minus
the value of that move; so over any play of the hand

    result for the first mover = value at the first decision - their losses + the opponent's losses.

With both sides playing the solver's moves except one, the result is the opening value minus that one
move's loss (or plus it, for the opponent's slip). Checked on randomly played Ghost 13 hands (random
moves, so many losses), from a late position so that the hypothesis examples stay quick."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.analysis.review import plan_match, review_hand
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.reducer import MatchReducer
from dominolog.simulate import simulate_match
from tests.helpers import to_bytes

#: the review starts once this many tiles are on the table
LATE = 14


def _log(events: list[dict[str, Any]], folder: Path, name: str) -> MatchLog:
    path = folder / name
    path.write_bytes(to_bytes(events))
    return next(iter(iter_matches(path)))


def _results(log: MatchLog) -> dict[int, dict[str, int]]:
    """Each hand's points as the reducer scores it."""
    reducer = MatchReducer(log.source, log.line)
    for rec in log.records:
        reducer.feed(rec)
    assert reducer.state is not None
    return {r.number: dict(r.points) for r in reducer.state.results}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_losses_add_up_to_the_result_of_a_randomly_played_hand(seed: int, tmp_path: Path) -> None:
    log = _log(simulate_match("ghost13", seed), tmp_path, f"m{seed}.jsonl")
    points = _results(log)
    plan = plan_match(log).hands[0]
    plays = [m for m in plan.moves if not m[2].is_pass]
    if len(plays) <= LATE:
        return  # locked early: nothing late to review
    review = review_hand(plan, from_seq=plays[LATE][0])
    assert review.note is None and review.decisions
    first = review.decisions[0]
    mover = first.player
    other = next(p for p in plan.players if p != mover)
    lost = {mover: 0, other: 0}
    for d in review.decisions:
        assert d.loss >= 0 and (d.loss == 0) == (d.rank == 1)
        lost[d.player] += d.loss
    result = points[plan.number][mover] - points[plan.number][other]
    assert result == first.best - lost[mover] + lost[other]


def test_one_slip_against_the_solver_loses_exactly_its_loss(tmp_path: Path) -> None:
    """Both sides play the solver's moves but one, the worst option of a decision with a choice: the
    result is the opening value minus that decision's loss, from the slipping player's side."""
    from dominolog.analysis.ghost13 import Solver, position_from, values

    solver = Solver()
    slips: dict[str, int] = {}

    def policy(match: Any, hand: Any, player: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        if len(hand.placements) < LATE:
            return None
        options = values(position_from(match, hand), solver)
        best = max(v for _, v in options)
        worst = min(options, key=lambda o: o[1])
        if hand.number == 1 and not slips and worst[1] < best:
            slips[player] = best - worst[1]
            return worst[0].event(player)
        return next(m for m, v in options if v == best).event(player)

    log = _log(simulate_match("ghost13", 11, policy=policy), tmp_path, "slip.jsonl")
    assert len(slips) == 1
    [(slipper, size)] = slips.items()
    plan = plan_match(log).hands[0]
    plays = [m for m in plan.moves if not m[2].is_pass]
    review = review_hand(plan, from_seq=plays[LATE][0])
    first = review.decisions[0]
    mistakes = [d for d in review.decisions if d.loss]
    assert [(d.player, d.loss) for d in mistakes] == [(slipper, size)]
    other = next(p for p in plan.players if p != first.player)
    points = _results(log)[1]
    result = points[first.player] - points[other]
    sign = -1 if slipper == first.player else 1
    assert result == first.best + sign * size
