"""Luck and skill (issue 38, section 2; dominolog/analysis/luck.py): a Ghost 13 deal's luck from its
exact value, the luck-adjusted result, the error rate per non-forced decision and the play rating."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.analysis.ghost13 import Position, Solver, position_from
from dominolog.analysis.luck import GHOST13_DEAL_MEAN, luck_and_skill
from dominolog.analysis.review import review_match
from dominolog.log.reader import iter_matches
from dominolog.simulate import simulate_match
from dominolog.state import HandState, MatchState
from tests.helpers import to_bytes


def perfect(solver: Solver) -> Any:
    """A policy: the exact solver's best move, for both players."""

    def policy(match: MatchState, hand: HandState, player: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        pos = position_from(match, hand)
        best = solver.solve(pos).best
        return None if best is None else best.event(player)

    return policy


def one_hand(seed: int, policy: Any = None) -> Any:
    """The review of the first hand of a simulated Ghost 13 match, and the hand's result by its claim."""
    events = simulate_match("ghost13", seed, 0, None, None, policy=policy)
    (log,) = list(iter_matches("m.jsonl", to_bytes(events)))
    review = review_match(log, hand=1)
    end = next(e for e in events if e["type"] == "hand_end")
    return review, end


def test_a_perfect_players_error_rate_is_zero_against_the_exact_solver() -> None:
    review, end = one_hand(7, perfect(Solver()))
    ls = luck_and_skill(review)
    assert ls is not None
    for s in ls.skill:
        assert s.unforced > 0 and s.error_rate == 0 and s.rating == 0
    # perfect play: the result is the deal's value; the luck-adjusted result is the mean
    (h,) = ls.hands
    leader, other = h.leader, next(p for p in review.players if p != h.leader)
    assert h.result[leader] == h.value == end["points"][leader] - end["points"][other]
    assert h.adjusted[leader] == pytest.approx(GHOST13_DEAL_MEAN)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_the_result_is_the_deals_value_less_the_losses_and_luck_splits_it(seed: int) -> None:
    """Random play: the hand's points (the claim the rules give) are the deal's exact value less the
    leader's losses plus the other's; result = luck + luck-adjusted result, and the two players' luck
    cancels (the value is a difference of points)."""
    review, end = one_hand(seed)
    ls = luck_and_skill(review)
    assert ls is not None
    (h,) = ls.hands
    leader, other = h.leader, next(p for p in review.players if p != h.leader)
    assert h.result[leader] == end["points"][leader] - end["points"][other]
    for p in review.players:
        assert h.result[p] == pytest.approx(h.luck[p] + h.adjusted[p])
    assert h.luck[leader] == -h.luck[other]
    lost = {p: sum(d.loss for d in review.hands[0].decisions if d.player == p and d.count > 1) for p in review.players}
    for s in ls.skill:
        assert s.lost == lost[s.name] and s.unforced == sum(
            1 for d in review.hands[0].decisions if d.player == s.name and d.count > 1
        )


def test_luck_sums_to_zero_in_expectation_over_many_deals() -> None:
    """Over random deals other than those the mean was measured on, the leader's mean luck (exact value
    less GHOST13_DEAL_MEAN) is zero within its 95% margin and the mean's own."""
    import math

    from dominolog.analysis.luck import GHOST13_DEAL_MARGIN, deal_value
    from dominolog.tiles import DOUBLE_SIX

    rng = random.Random("luck-sums-to-zero")
    luck = []
    solver = Solver()
    for _ in range(20):
        tiles = list(DOUBLE_SIX)
        rng.shuffle(tiles)
        luck.append(deal_value(Position.deal(tiles[:14], tiles[14:], 0), solver) - GHOST13_DEAL_MEAN)
    m = sum(luck) / len(luck)
    sd = math.sqrt(sum((x - m) ** 2 for x in luck) / (len(luck) - 1))
    assert abs(m) <= 1.96 * sd / math.sqrt(len(luck)) + GHOST13_DEAL_MARGIN


def test_the_review_says_luck_and_skill_in_json_text_and_html() -> None:
    from dominolog.analysis.luck import review_document
    from dominolog.analysis.review_html import render_html
    from dominolog.analysis.review_text import render_text

    review, _ = one_hand(3)
    doc = review_document(review)["luck_and_skill"]
    assert doc["deal_mean"] == {"value": GHOST13_DEAL_MEAN, "margin": 4.19, "deals": 600}
    (h,) = doc["hands"]
    assert sum(doc["luck"].values()) == 0 and doc["luck"] == h["luck"]
    assert {s["name"] for s in doc["skill"]} == set(review.players)
    text = render_text(review)
    assert "Luck and skill" in text and "luck-adjusted" in text and "error rate" in text
    page = render_html(review)
    assert "<h2>Luck and skill</h2>" in page
