"""The luck of the hidden games' deals and draws, sampled (issue 38, section 2;
dominolog/analysis/luck_hidden.py): zero in expectation over many simulated deals and draws, exact
where it is counted, reproducible, kept in the review's JSON and shown by every face."""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.analysis.luck import luck_and_skill, luck_lines, review_document
from dominolog.analysis.luck_hidden import Z95, hand_luck
from dominolog.analysis.moves import plan_sampled
from dominolog.analysis.results import review_from_dict
from dominolog.analysis.run import review_match
from dominolog.analysis.sampling import variant_of
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.simulate import hide_match, simulate_match
from tests.helpers import to_bytes

HIDDEN = ["brettspielnetz", "39", "double-bergen", "double-draw"]


def _log(events: list[dict[str, Any]]) -> MatchLog:
    (log,) = list(iter_matches("m.jsonl", to_bytes(events)))
    return log


def _first_hand_luck(variant: str, seed: int, samples: int) -> Any:
    plan = plan_sampled(_log(simulate_match(variant, seed, 0, None, None)))
    return hand_luck(variant_of(plan), plan.hands[0], samples, 0), plan


def _within(xs: list[float]) -> None:
    """The mean of independent lucks is zero within 4 standard errors of it (a false alarm about 1 in
    16,000: hypothesis runs derandomized in CI, so the same cases every time)."""
    if len(xs) < 2:
        return
    m, sd = statistics.fmean(xs), statistics.stdev(xs)
    assert abs(m) <= 4 * sd / math.sqrt(len(xs)) + 1e-9, (m, sd, len(xs))


@pytest.mark.parametrize("variant", HIDDEN)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_luck_sums_to_zero_in_expectation_over_many_deals_and_draws(variant: str, seed: int) -> None:
    """Over the first hands of simulated matches (each a uniformly random deal, its draws from a shuffled
    boneyard), the deals' luck and the draws' luck each average zero: every luck is a value given what
    came less the mean over what could have come."""
    hands = 4 if variant == "39" else 8
    deals: list[float] = []
    draws: list[float] = []
    for k in range(hands):
        found, _ = _first_hand_luck(variant, seed * 100 + k, 4)
        assert not found.notes  # an open log shows every deal and draw
        deals += [p.luck for p in found.parts if p.kind == "deal"]
        draws += [p.luck for p in found.parts if p.kind == "draw"]
    assert len(deals) >= 2 * hands
    _within(deals)
    _within(draws)


@pytest.mark.parametrize("variant", HIDDEN)
def test_the_deals_mean_sums_to_zero_over_the_players_and_result_is_luck_plus_adjusted(variant: str) -> None:
    """Exact where it is counted: the other deals are the same for every player and each value is a side's
    points less the others', so the means over them sum to zero over the players; and per hand and match,
    result = luck + luck-adjusted result for every player."""
    found, plan = _first_hand_luck(variant, 5, 5)
    deal = [p for p in found.parts if p.kind == "deal"]
    assert {p.player for p in deal} == set(plan.players)
    assert sum(p.mean for p in deal) == pytest.approx(0, abs=1e-9)
    assert found.result is not None and sum(found.result.values()) == pytest.approx(0, abs=1e-9)
    for p in found.parts:
        assert p.luck == p.value - p.mean and p.error >= 0 and p.samples == p.others == 5
    review = review_match(_log(simulate_match(variant, 5, 0, None, None)), hand=1, samples=5)
    ls = luck_and_skill(review)
    assert ls is not None and ls.sampled and len(ls.hands) == 1 and not ls.skipped
    (h,) = ls.hands
    for who in plan.players:
        assert h.result[who] == pytest.approx(h.luck[who] + h.adjusted[who])
        mine = [p for p in h.sampled.parts if p.player == who] if h.sampled else []
        assert h.luck[who] == pytest.approx(sum(p.luck for p in mine))
        assert h.error[who] == pytest.approx(math.sqrt(sum(p.error**2 for p in mine)))


def test_the_same_seed_gives_the_same_luck_and_another_seed_another() -> None:
    log = _log(simulate_match("brettspielnetz", 3, 0, None, None))
    one = review_document(review_match(log, hand=1, samples=6, seed=1))["luck_and_skill"]
    again = review_document(review_match(log, hand=1, samples=6, seed=1))["luck_and_skill"]
    other = review_document(review_match(log, hand=1, samples=6, seed=2))["luck_and_skill"]
    assert one == again
    assert one["luck"] != other["luck"]


def test_the_luck_is_kept_in_the_review_and_read_back_whole() -> None:
    review = review_match(_log(simulate_match("double-draw", 2, 0, None, None)), samples=4)
    doc = review_document(review)
    again = review_from_dict(doc)
    assert review_document(again) == doc
    ls = doc["luck_and_skill"]
    assert ls["method"] == "sampled" and "deal_mean" not in ls
    assert set(ls["margin"]) == set(review.players)
    hands = {h["hand"]: h for h in ls["hands"]}
    for h in doc["hands"]:
        if h["number"] in hands:
            parts = h["luck"]["parts"]
            assert hands[h["number"]]["leader"] == h["luck"]["leader"]
            assert [p["kind"] for p in parts][:2] == ["deal", "deal"]
    margin = ls["margin"]["Ana"]
    squares = sum((x["margin"]["Ana"] / Z95) ** 2 for x in ls["hands"])
    assert margin == pytest.approx(Z95 * math.sqrt(squares), abs=0.05)


def test_a_part_of_a_hand_has_no_luck_figure_and_says_why() -> None:
    log = _log(simulate_match("brettspielnetz", 3, 0, None, None))
    review = review_match(log, hand=1, samples=4, last=2)
    ls = luck_and_skill(review)
    assert ls is not None and not ls.hands
    assert ls.skipped == {1: "luck not sampled (only part of the hand analysed, or an analysis kept from before)"}


def test_a_spectators_log_says_which_draws_it_cannot_weigh() -> None:
    """A log that hides every draw: the deal's luck is still measured for each player, the draws not,
    and the hand's notes say so (the figure is then the deal's alone)."""
    full = simulate_match("brettspielnetz", 2, 0, None, None)
    plan = plan_sampled(_log(hide_match(full)))
    h = plan.hands[0]
    found = hand_luck(variant_of(plan), h, 4, 0)
    draws = [str(m.seq) for m in h.moves if m.kind == "draw"]
    assert draws and [p.kind for p in found.parts] == ["deal"] * len(plan.players)
    assert found.notes[0] == f"the log does not show the tiles drawn at seq {', '.join(draws)}: no luck figure for them"


def test_the_text_and_html_reviews_say_the_luck_with_its_margin() -> None:
    from dominolog.analysis.review_html import render_html
    from dominolog.analysis.review_text import render_text

    review = review_match(_log(simulate_match("double-bergen", 1, 0, None, None)), hand=1, samples=4)
    lines = luck_lines(review)
    ls = luck_and_skill(review)
    assert ls is not None
    luck, margin = ls.total("luck"), ls.margin()
    for who in review.players:
        assert any(line.startswith(f"{who}: luck {luck[who]:+.1f} ± {margin[who]:.1f},") for line in lines)
    assert any(line.startswith("Luck (sampled, ± a 95% margin)") for line in lines)
    assert "± a 95% margin" in render_text(review)
    assert "± a 95% margin" in render_html(review)


@pytest.mark.parametrize(
    "broken",
    [
        "not a luck",
        {"parts": "x", "result": None, "notes": []},
        {"parts": [{"seq": "two"}], "result": None, "notes": []},
        {"parts": [], "result": [1, 2, 3], "notes": []},
        {"parts": [], "result": None, "notes": 5},
    ],
)
def test_a_kept_review_with_a_damaged_luck_is_refused_as_not_a_review(broken: Any) -> None:
    """A review damaged behind the store's back is refused with the errors kept_or_made takes as 'made
    again' (KeyError, TypeError, ValueError), never another exception."""
    review = review_match(_log(simulate_match("double-draw", 2, 0, None, None)), hand=1, samples=2)
    doc = review_document(review)
    doc["hands"][0]["luck"] = broken
    with pytest.raises((KeyError, TypeError, ValueError, IndexError)):
        review_from_dict(doc)


def test_a_deal_whose_tiles_do_not_add_up_has_no_luck_figure_and_says_why() -> None:
    """Hostile input: a tile dealt to both players. The review goes on; the deal's luck is not
    measured, the hand is not weighed, and the notes say why (never a traceback)."""
    events = simulate_match("brettspielnetz", 4, 0, None, None)
    deal = next(e for e in events if e["type"] == "deal")
    ana, ben = list(deal["hands"])
    deal["hands"][ana][0] = deal["hands"][ben][0]
    for e in events:
        e.pop("hash", None)
    review = review_match(_log(events), hand=1, samples=2)
    (h,) = review.hands
    assert h.luck is not None
    assert h.luck.notes[:2] == [
        f"the deal's luck for {p}: seq 2: the tiles of the log do not add up" for p in (ana, ben)
    ]
    ls = luck_and_skill(review)
    assert ls is not None and not ls.hands and ls.skipped[1].startswith("the deal's luck for")
