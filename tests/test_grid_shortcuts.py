"""The shortcuts of the spinner games' fold (issue 39: ``verify`` of open logs within twice the floor's
time) give what the plain computations they replace give: the open ends' numbers from a mask, Double
Bergen's allowed sides kept until the table changes and its placement score from packed counts, the
ends' names from each tile's own, and the claims checked without words or rulings made for a claim
that agrees. Each is held to a plain version written here, at every turn of
simulated matches (and of a copy of the table, as an undo keeps) or on examples hypothesis draws."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominolog.events import HandEnd
from dominolog.layouts.grid import GridLayout, Side
from dominolog.reducer.claims import check_claim, same_winner
from dominolog.reducer.context import Ctx, Findings
from dominolog.simulate import simulate_match
from dominolog.state import HandState, Holding, MatchState
from dominolog.tiles import DOUBLE_SIX, Tile, tile_or_none
from dominolog.variants import find_variant
from dominolog.variants.double_bergen import DoubleBergen, placement_score

PLAYERS = {"39": [["Ana", "Ben"], ["Cleo", "Dev"]], "double-bergen": [["Ana", "Ben"], ["Ana", "Ben", "Cleo", "Dev"]]}


def plain_side(layout: GridLayout, name: str) -> Side | None:
    """``GridLayout.side`` written plainly: the tile's open ends, then the one of the direction named
    after the first colon (or the tile's only one when no direction is named)."""
    text, _, d = name.partition(":")
    tile = tile_or_none(text)
    mine = [s for s in layout.sides.values() if tile is not None and s.tile is tile]
    if d:
        return next((s for s in mine if s.dir == d), None)
    return mine[0] if len(mine) == 1 else None


def plain_placement_score(layout: GridLayout) -> int:
    """D6 as it was written with a list of counts a kind of end."""
    doubles = [0] * 7
    singles = [0] * 7
    spinner_open = False
    for s in layout.sides.values():
        if s.first:
            spinner_open = True
        elif s.double:
            doubles[s.value] += 1
        else:
            singles[s.value] += 1
    spinner = -1
    if spinner_open and layout.order:
        spinner = layout.order[0].lo
        doubles[spinner] += 1
    total = 0
    for value in range(7):
        d, n = doubles[value], singles[value]
        if d >= 1 and (d + n >= 2 or value == spinner):
            total += 2 * d + n
        elif n >= 2:
            total += n
    return total


def plain_shape(tile: Tile, side: Side) -> tuple[tuple[int, int, int, int], bool]:
    """``GridLayout.shape`` as it was written before ``GridLayout.place`` shared its rectangle."""
    ax, ay = side.anchor
    dx, dy = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}[side.dir]
    cross = tile.is_double
    along, half_across = (2, 2) if cross else (4, 1)
    x0, y0 = ax, ay
    x1, y1 = ax + dx * along, ay + dy * along
    if dx:
        rect = (min(x0, x1), ay - half_across, max(x0, x1), ay + half_across)
    else:
        rect = (ax - half_across, min(y0, y1), ax + half_across, max(y0, y1))
    return rect, cross


#: every end name a log may give for a tile and a direction (both orders of the numbers), and odd ones
EVERY_NAME = [f"{a}-{b}:{d}" for a in range(7) for b in range(7) for d in ("N", "E", "S", "W", "X", "n", "")]


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_the_tables_shortcuts_give_what_the_plain_computations_give(variant: str) -> None:
    checked = 0
    odd_names = ["", ":", "5-3", "5-3:", "5-3:X", "3-5:N", "5-3:NN", ":-::N", "7-7:N", "0-0", "6-6:E", "6-6:N"]
    odd_names += [" 3-5:N", "3-5:N ", "3-5:N:", "35:N", "3-5::N", *EVERY_NAME]

    def check(match: MatchState, hand: HandState, player: str, actions: list[dict[str, Any]]) -> None:
        nonlocal checked
        rules = find_variant(variant)(match.players)
        for layout in (hand.grid, hand.grid.clone()):
            sides = list(layout.sides.values())
            assert layout.open_values() == tuple(sorted({s.value for s in sides}))
            for s in sides:
                assert layout.side(s.name) is s
                assert s.name == f"{s.tile.lo}-{s.tile.hi}:{s.dir}"
            for name in [*odd_names, *(s.name[:3] for s in sides), *(s.name[::-1] for s in sides)]:
                assert layout.side(name) is plain_side(layout, name), name
            for s in sides:  # (where each tile that matches would lie, and where placing it puts it)
                for t in DOUBLE_SIX:
                    if t.has(s.value) and t not in layout.on_board:
                        assert layout.shape(t, s) == plain_shape(t, s)
                        copy = layout.clone()
                        placed = copy.place(t, copy.sides[(s.tile, s.dir)])
                        rect, cross = plain_shape(t, s)
                        assert placed.rect == rect and placed.horizontal is ((s.dir in ("E", "W")) != cross)
            if isinstance(rules, DoubleBergen):
                spinner = [s for s in sides if s.first] or None
                if layout is hand.grid:  # (the rules read the hand's own table)
                    assert rules.allowed_sides(hand) == spinner
                assert placement_score(layout) == plain_placement_score(layout)
        checked += 1

    for players in PLAYERS[variant]:
        for seed in range(5):
            simulate_match(variant, seed, players=players, policy=check)
    assert checked > 400


def test_every_tile_writes_its_name_once_made() -> None:
    for t in DOUBLE_SIX:
        assert str(t) == t.text == f"{t.lo}-{t.hi}"
        assert Tile.parse(str(t)) is t
        for d in ("N", "E", "S", "W", "X", "NE", "", "n"):  # (the four from a table made once, any other joined)
            assert Side(t, d, t.lo, (0, 0), False, False).name == f"{t.lo}-{t.hi}:{d}"


@pytest.mark.parametrize("reserve", range(9))
def test_double_bergens_drawable_tiles_are_the_boneyards_less_the_reserve(reserve: int) -> None:
    rules = DoubleBergen(["Ana", "Ben"], {"reserve": reserve})
    for known, unknown in ((k, u) for k in range(17) for u in range(17 - k)):
        hand = HandState(1, "Ana", None, 1, {}, Holding(set(DOUBLE_SIX[:known]), unknown), set(), GridLayout(), None)
        assert rules.drawable(hand) == max(0, known + unknown - reserve), (known, unknown)


@st.composite
def spinner_tables(draw: st.DrawFn) -> GridLayout:
    """A Double Bergen table's open ends as counts can make them: the spinner's open sides, and any
    number of double and single ends of each number (more than a real table holds, too)."""
    layout = GridLayout(spinning_doubles=False)
    spinner = DOUBLE_SIX[draw(st.integers(0, 27))]
    while not spinner.is_double:
        spinner = DOUBLE_SIX[draw(st.integers(0, 27))]
    layout.place_first(spinner.lo, spinner.hi, spinner)
    for d in ("N", "E", "S", "W"):
        if not draw(st.booleans()):
            del layout.sides[(spinner, d)]
    for k, (value, double) in enumerate(draw(st.lists(st.tuples(st.integers(0, 6), st.booleans()), max_size=14))):
        tile = DOUBLE_SIX[k] if DOUBLE_SIX[k] is not spinner else DOUBLE_SIX[27 - k]
        layout.sides[(tile, "N" if k % 2 else "S")] = Side(tile, "N" if k % 2 else "S", value, (k, k), double, False)
    return layout


@given(spinner_tables())
def test_placement_score_packed_counts_as_the_list_of_counts(layout: GridLayout) -> None:
    assert placement_score(layout) == plain_placement_score(layout)


names = st.sampled_from(["Ana", "Ben", "Cleo", "Zed"])


@given(
    st.none() | st.dictionaries(names, st.integers(-3, 3), max_size=4),
    st.none() | names | st.lists(names, max_size=3),
    st.booleans(),
    st.dictionaries(st.sampled_from(["Ana", "Ben", "Cleo"]), st.integers(-3, 3), min_size=3, max_size=3),
    st.none() | names | st.lists(names, max_size=3),
)
def test_a_claim_is_explained_only_when_it_is_wrong(
    points: dict[str, int] | None,
    winner: str | list[str] | None,
    winner_given: bool,
    rules_points: dict[str, int],
    rules_winner: str | list[str] | None,
) -> None:
    """``check_claim`` asks for its words and rulings once, and only when the claim is wrong: each
    wrong part is reported with its rulings, and a claim that agrees asks for nothing."""
    players = ["Ana", "Ben", "Cleo"]
    given_keys = ("points", "winner") if winner_given else ("points",)
    ev = HandEnd(points, winner if winner_given else None, 5, None, None, given_keys)
    ctx = Ctx(Findings())
    asked = []

    def explain() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        asked.append(1)
        return "hand 1", ("D6",), ("D7",)

    check_claim(ev, players, rules_points, rules_winner, ctx, explain)
    points_wrong = points is not None and {p: points.get(p, 0) for p in players} != rules_points
    winner_wrong = winner_given and not same_winner(winner, rules_winner)
    found = ctx.findings.violations
    assert [(i.code, i.rules) for i in found] == [("score-mismatch", ("D6",))] * points_wrong + [
        ("score-mismatch", ("D7",))
    ] * winner_wrong
    assert all(i.message.startswith("hand 1: claimed ") for i in found)
    assert len(asked) == (1 if found else 0)
