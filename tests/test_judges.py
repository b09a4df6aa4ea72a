"""The hidden-hand judges against brute force: every hand between the bounds, enumerated."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants.judges import _pair_judged, _pair_nothing_known, judge_fit, judge_not, judge_pair

tiles = st.lists(st.sampled_from(DOUBLE_SIX), min_size=0, max_size=9, unique=True)
values = st.integers(min_value=0, max_value=6)


def brute(has: object, sure: frozenset[Tile], upper: frozenset[Tile], n: int) -> bool | None:
    free = sorted(upper - sure)
    outcomes = {has(sure | set(extra)) for extra in combinations(free, n - len(sure))}  # type: ignore[operator]
    return outcomes.pop() if len(outcomes) == 1 else None


def bounds(draw: st.DrawFn) -> tuple[frozenset[Tile], frozenset[Tile], int]:
    upper = frozenset(draw(tiles))
    sure = frozenset(t for t in upper if draw(st.booleans()))
    n = draw(st.integers(min_value=len(sure), max_value=len(upper)))
    return sure, upper, n


@settings(max_examples=400, deadline=None)
@given(data=st.data(), left=values, right=values)
def test_judge_pair_is_exact(data: st.DataObject, left: int, right: int) -> None:
    sure, upper, n = bounds(data.draw)

    def has(hand: set[Tile]) -> bool:
        return any(x != y and x.has(left) and y.has(right) for x in hand for y in hand)

    verdict, _, _ = judge_pair(left, right)(sure, upper, n)
    assert verdict == brute(has, sure, upper, n)
    negated, _, _ = judge_not(judge_pair(left, right))(sure, upper, n)
    assert negated == (None if verdict is None else not verdict)


@settings(max_examples=400, deadline=None)
@given(data=st.data(), ends=st.lists(values, max_size=2))
def test_judge_fit_is_exact(data: st.DataObject, ends: list[int]) -> None:
    sure, upper, n = bounds(data.draw)

    def has(hand: set[Tile]) -> bool:
        return any(not ends or any(t.has(v) for v in ends) for t in hand)

    verdict, _, _ = judge_fit(tuple(ends))(sure, upper, n)
    assert verdict == brute(has, sure, upper, n)


@settings(max_examples=600, deadline=None)
@given(
    upper=st.frozensets(st.sampled_from(DOUBLE_SIX), max_size=28),
    extra=st.integers(min_value=-2, max_value=2),
    left=values,
    right=values,
)
def test_judge_pair_of_a_hand_nothing_known_of_as_the_general_judge(
    upper: frozenset[Tile], extra: int, left: int, right: int
) -> None:
    """The pair rule of a hand none of whose tiles is known (a draw of a hidden hand) is judged from
    counts of the tiles that fit: the same verdict, words and tiles as the general judge gives."""
    n = max(0, len(upper) // 2 + extra)
    ml, mr = 1 << left, 1 << right
    assert _pair_nothing_known(ml, mr, upper, n) == _pair_judged(ml, mr, frozenset(), upper, n)
    assert judge_pair(left, right)(frozenset(), upper, n) == _pair_judged(ml, mr, frozenset(), upper, n)
