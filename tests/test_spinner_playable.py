"""The spinner games' ``playable`` (issue 16: asked after every change of the table) searches room only
for the tiles that show an open end's number; it must give exactly what asking every tile not on the
table where it can go gives (``places``), at every turn of many 39 and Double Bergen matches."""

from __future__ import annotations

from typing import Any

import pytest

from dominolog.simulate import simulate_match
from dominolog.state import HandState, MatchState
from dominolog.tiles import DOUBLE_SIX
from dominolog.variants import find_variant
from dominolog.variants.spinner import GridVariant

PLAYERS = {"39": ["Ana", "Ben"], "double-bergen": ["Ana", "Ben", "Cleo", "Dev"]}


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_playable_is_every_tile_with_a_place(variant: str) -> None:
    rules = find_variant(variant)(PLAYERS[variant])
    assert isinstance(rules, GridVariant)
    checked = 0

    def check(match: MatchState, hand: HandState, player: str, actions: list[dict[str, Any]]) -> None:
        nonlocal checked
        layout = hand.layout
        layout.cache.pop("playable", None)
        expected = frozenset(t for t in DOUBLE_SIX if t not in layout.on_board and rules.places(hand, t))
        assert rules.playable(hand) == expected
        checked += 1

    for seed in range(12):
        simulate_match(variant, seed, players=PLAYERS[variant], policy=check)
    assert checked > 500
