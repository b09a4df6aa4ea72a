"""No sequence of well-formed events, however wrong, makes the reducer fail: the
``internal-error`` safety net of the reducer must never be reached."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.simulate import hide_match, simulate_match
from dominolog.tiles import DOUBLE_SIX
from tests.helpers import run

TILES = [str(t) for t in DOUBLE_SIX]
players = st.sampled_from(["Ana", "Ben"])
tile = st.sampled_from(TILES)
hand = st.one_of(st.none(), st.lists(tile, min_size=12, max_size=15, unique=True))

event = st.one_of(
    st.builds(lambda p, h1, h2: {"type": "deal", "leader": p, "hands": {"Ana": h1, "Ben": h2}}, players, hand, hand),
    st.builds(lambda p: {"type": "deal", "leader": p, "hands": None}, players),
    st.builds(
        lambda p, t, e: {"type": "play", "player": p, "tile": t, **({"end": e} if e else {})},
        players,
        tile,
        st.sampled_from([None, "left", "right", "3-3:N", "4-4"]),
    ),
    st.builds(lambda p, a, b: {"type": "play", "player": p, "tiles": [a, b]}, players, tile, tile),
    st.builds(lambda p: {"type": "pass", "player": p}, players),
    st.builds(lambda p: {"type": "draw", "player": p}, players),
    st.just({"type": "undo"}),
    st.builds(lambda p, ts: {"type": "reveal", "player": p, "tiles": ts}, players, st.lists(tile, max_size=8)),
    st.builds(
        lambda a, w: {"type": "hand_end", "points": {"Ana": a}, "winner": w},
        st.integers(0, 200),
        st.sampled_from([None, "Ana", "Ben", ["Ana", "Ben"]]),
    ),
    st.sampled_from([{"type": "match_end"}, {"type": "match_end", "reason": "abandoned"}]),
    st.builds(lambda p: {"type": "declare", "player": p, "suit": "odd"}, players),
    st.builds(lambda p: {"type": "block_call", "player": p}, players),
    st.just({"type": "note", "text": "…"}),
)


def _no_internal_error(events: list[dict[str, Any]], target: int = 100) -> None:
    report = run(events, options={"target": target})
    assert [v for v in report.violations if v.code == "internal-error"] == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(event, max_size=60), st.sampled_from([1, 100, 1000]))
def test_random_event_soup_never_breaks_the_reducer(events: list[dict[str, Any]], target: int) -> None:
    _no_internal_error(events, target)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 40),
    st.booleans(),
    st.lists(st.tuples(st.sampled_from(["drop", "dup", "swap", "insert"]), st.integers(0, 10**6), event), max_size=6),
)
def test_mutated_real_matches_never_break_the_reducer(seed: int, hidden: bool, edits: list[tuple]) -> None:
    events = simulate_match("ghost13", seed)
    if hidden:
        events = hide_match(events)
    events = [{k: v for k, v in e.items() if k not in ("hash", "seq")} for e in events[1:]]
    for op, where, new in edits:
        i = where % len(events)
        if op == "drop":
            del events[i]
        elif op == "dup":
            events.insert(i, dict(events[i]))
        elif op == "swap" and i + 1 < len(events):
            events[i], events[i + 1] = events[i + 1], events[i]
        else:
            events.insert(i, new)
        if not events:
            break
    _no_internal_error(events)
