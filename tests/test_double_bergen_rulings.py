"""Every ruling of Double Bergen (C1-C5 as they apply, D1-D8) with exact scores, winners and violation seqs.

The hands are built by hand (seeds/double-bergen.md, section 13, works through the same ones):

- ``domino_2p``: spinner 4-4; Ana goes out at seq 13 after eleven placements, one of them worth the
  maximum of 6 (seq 11); Ana 16 + 1, Ben 10.
- ``block_4p``: four players with ``reserve`` 8, so nothing can ever be drawn; the spinner 6-6 gets three
  sides and nobody holds another six: a block at seq 6.
- ``draws_2p``: ``reserve`` 8 again; Ben has no six and draws the eight drawable tiles: a block at the
  last draw (seq 11), Ben keeps 78 pips.
- ``reserve_4p``: the variation's ``reserve`` 2; Ben draws the six drawable tiles, none a six, and passes.
- ``opening_3p``: nobody is dealt a double; three passes, then draws in turn until Cleo draws 3-3.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from dominolog.layouts.grid import GridLayout
from dominolog.log.reader import iter_matches
from dominolog.reducer import reduce_match, verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import Holding, MatchState
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants import VariantError
from dominolog.variants.double_bergen import DoubleBergen, placement_score
from dominolog.variants.judges import judge_holds, judge_not, open_without_any
from tests.helpers import codes, deal, fold, hand_end, match_log, pass_, play, run, tiles, to_bytes

DB = "double-bergen"
TWO = ("Ana", "Ben")
THREE = ("Ana", "Ben", "Cleo")
FOUR = ("Ana", "Ben", "Cleo", "Dev")
NO_DRAWS = {"reserve": 8}  # four players: the whole boneyard is the reserve; two players: 8 of 16 can be drawn


def db(events: list[dict[str, Any]], players: tuple[str, ...] = TWO, options: dict[str, Any] | None = None):
    return run(events, variant=DB, players=players, options=options)


def db_fold(events: list[dict[str, Any]], players: tuple[str, ...] = TWO, options: dict[str, Any] | None = None):
    return fold(events, variant=DB, players=players, options=options)


def draw(player: str, tile: str | None = None) -> dict:
    return {"type": "draw", "player": player, "tile": tile}


def reveal(player: str, left: list[str]) -> dict:
    return {"type": "reveal", "player": player, "tiles": left}


def match_end(**kw: Any) -> dict:
    return {"type": "match_end", **kw}


def hidden(events: list[dict], draws_seen: bool = True) -> list[dict]:
    """The same events as a recorder who saw no hand (and, unless ``draws_seen``, no draw) writes them."""
    out = []
    for e in events:
        if e["type"] == "deal":
            e = {**e, "hands": None}
        elif e["type"] == "draw" and not draws_seen:
            e = {**e, "tile": None}
        out.append(e)
    return out


def verify(events: list[dict]):
    """Verify a whole match given with its match_start."""
    (log,) = list(iter_matches("sim.jsonl", to_bytes(events)))
    return reduce_match(log).report()


def scores(reducer) -> list[tuple[int, str, int]]:
    return list(reducer.state.hand.extra.get("scores", ()))


# -- the hands ------------------------------------------------------------------------------------

DOMINO_ANA = tiles("4-4 2-4 4-5 1-3 2-5 0-6")
DOMINO_BEN = tiles("1-4 3-4 1-1 2-2 1-6 5-5")


def domino_2p(lead: str = "Ana", other: str = "Ben") -> list[dict]:
    """``lead`` sets the spinner 4-4 and goes out at seq 13 (seq 2 is the deal); ``other`` keeps 5-5."""
    a, b = lead, other
    return [
        deal(a, {a: DOMINO_ANA, b: DOMINO_BEN}),  # 2
        play(a, "4-4"),  # 3: the spinner alone: 2
        play(b, "1-4", "4-4:N"),  # 4: the spinner still has free sides: 2
        play(a, "2-4", "4-4:E"),  # 5: 2
        play(b, "3-4", "4-4:S"),  # 6: 2
        play(a, "4-5", "4-4:W"),  # 7: four sides played; ends 1 2 3 5: 0
        play(b, "1-1", "1-4"),  # 8: a crosswise double alone on 1: 0
        play(a, "1-3", "3-4"),  # 9: 1-1 (double) and 1 (single): 3
        play(b, "2-2", "2-4"),  # 10: still 3 for the ones; 2-2 alone: 0
        play(a, "2-5", "4-5"),  # 11: ones 3, twos 3: 6
        play(b, "1-6", "1-1"),  # 12: ends 6 2(double) 1 2: 3
        play(a, "0-6", "1-6"),  # 13: ends 0 2(double) 1 2: 3, and Ana's last tile
    ]


DOMINO_SCORES = [
    (3, "Ana", 2),
    (4, "Ben", 2),
    (5, "Ana", 2),
    (6, "Ben", 2),
    (7, "Ana", 0),
    (8, "Ben", 0),
    (9, "Ana", 3),
    (10, "Ben", 3),
    (11, "Ana", 6),
    (12, "Ben", 3),
    (13, "Ana", 3),
]
DOMINO_RESULT = {
    "number": 1,
    "end": "domino",
    "winner": "Ana",
    "points": {"Ana": 17, "Ben": 10},
    "play_points": {"Ana": 16, "Ben": 10},
}

BLOCK_HANDS = (
    tiles("6-6 0-0 0-1 1-1 0-2"),  # 5 pips after the spinner
    tiles("0-6 1-2 1-3 2-2 0-3"),  # 14 after 0-6
    tiles("1-6 1-4 2-3 0-4 1-5"),  # 20 after 1-6
    tiles("2-6 3-3 2-4 0-5 2-5"),  # 24 after 2-6
)
#: the boneyard (all of it the reserve): 6-3 6-4 6-5 3-4 3-5 4-4 4-5 5-5
BLOCK_LEFT = [h[1:] for h in BLOCK_HANDS]


def block_4p(seats: tuple[str, ...] = FOUR, hands: tuple[list[str], ...] = BLOCK_HANDS) -> list[dict]:
    """``seats[0]`` sets 6-6, the next three play their only six on N, E and S; W stays free and the
    other sixes are in the reserve: nobody can play or draw after seq 6."""
    return [
        deal(seats[0], dict(zip(seats, hands, strict=True))),  # 2
        play(seats[0], "6-6"),  # 3
        play(seats[1], hands[1][0], "6-6:N"),  # 4
        play(seats[2], hands[2][0], "6-6:E"),  # 5
        play(seats[3], hands[3][0], "6-6:S"),  # 6: block
    ]


#: Ana and Ben tie for lowest with 11 each
TIE_HANDS = (
    tiles("6-6 0-0 0-1 2-3 1-4"),
    tiles("0-6 1-1 0-2 1-2 0-4"),
    tiles("1-6 0-3 1-3 1-5 2-2"),  # 17
    tiles("2-6 0-5 2-4 2-5 3-3"),  # 24
)

DRAWS_ANA = tiles("6-6 0-0 0-1 0-2 1-1 1-2")  # 8 pips after the spinner
DRAWS_BEN = tiles("2-2 2-3 3-3 0-3 1-3 4-4")  # 30
BEN_DRAWS = tiles("0-4 0-5 1-4 1-5 2-4 2-5 3-4 3-5")  # 48 more, none a six


def draws_2p() -> list[dict]:
    """Reserve 8 of 16: Ben has no six and draws the eight drawable tiles (seq 4-11); block at seq 11."""
    return [
        deal("Ana", {"Ana": DRAWS_ANA, "Ben": DRAWS_BEN}),  # 2
        play("Ana", "6-6"),  # 3
        *(draw("Ben", t) for t in BEN_DRAWS),  # 4-11
    ]


RESERVE_HANDS = {
    "Ana": tiles("6-6 0-0 0-1 0-2 0-3"),
    "Ben": tiles("1-1 1-2 1-3 1-4 1-5"),
    "Cleo": tiles("1-6 3-6 2-2 2-3 2-4"),
    "Dev": tiles("2-6 4-6 5-6 3-3 3-4"),
}  # the boneyard: 0-4 0-5 0-6 2-5 3-5 4-4 4-5 5-5


def reserve_4p() -> list[dict]:
    """Reserve 2 of 8: Ben has no six and draws six tiles (seq 4-9), none a six; only the reserve is left."""
    return [
        deal("Ana", RESERVE_HANDS),  # 2
        play("Ana", "6-6"),  # 3
        *(draw("Ben", t) for t in tiles("0-4 0-5 2-5 3-5 4-5 5-5")),  # 4-9
    ]


OPENING_HANDS = {
    "Ana": tiles("0-2 0-3 0-4 0-5 0-6 1-2"),
    "Ben": tiles("1-3 1-4 1-5 1-6 2-3 2-4"),
    "Cleo": tiles("2-6 3-4 3-5 3-6 4-5 5-6"),
}  # the boneyard: the seven doubles, 0-1, 2-5 and 4-6


def opening_3p() -> list[dict]:
    """Nobody holds a double: three passes, then a draw each from the leader until Cleo draws 3-3."""
    return [
        deal("Ana", OPENING_HANDS),  # 2
        pass_("Ana"),  # 3
        pass_("Ben"),  # 4
        pass_("Cleo"),  # 5
        draw("Ana", "0-1"),  # 6: not a double: Ana's turn is over
        draw("Ben", "2-5"),  # 7
        draw("Cleo", "3-3"),  # 8: a double: Cleo sets it at once
        play("Cleo", "3-3"),  # 9: 2
        play("Ana", "0-3", "3-3:N"),  # 10: 2
    ]


# -- common rulings, as Double Bergen uses them -----------------------------------------------------


def test_ruling_C1_one_double_six_set_every_tile_once():
    twice = db([deal("Ana", {"Ana": DOMINO_ANA, "Ben": [*DOMINO_BEN[:5], "4-4"]})])
    assert codes(twice) == [(2, "bad-deal")]
    assert twice.violations[0].message == "4-4 is dealt twice"
    hand = db_fold(domino_2p()[:1]).state.hand
    assert hand.boneyard.count == 16 and hand.conserved()
    assert Tile.parse("4-1") is Tile.parse("1-4") and Tile.parse("5-6").pips == 11 and len(DOUBLE_SIX) == 28
    # the same tile written either way round is one tile: a play of 4-1 is the 1-4 Ben holds
    assert codes(db([*domino_2p()[:2], play("Ben", "4-1", "4-4:N")])) == []


def test_ruling_C2_the_table_is_two_dimensional_not_a_line():
    # C2's left and right belong to the line games; here every open end is <tile>:<dir> (or <tile>)
    reducer = db_fold(domino_2p()[:3])
    layout = reducer.state.hand.layout
    assert layout.ends() == {"4-4:E": 4, "4-4:S": 4, "4-4:W": 4, "1-4:N": 1}
    spinner = layout.placed[Tile(4, 4)]
    assert (spinner.rect, spinner.kind, spinner.horizontal) == ((-1, -2, 1, 2), "first", False)  # vertical
    # E joins beside the north half, W beside the south half
    assert layout.side("4-4:E").anchor == (1, 1) and layout.side("4-4:W").anchor == (-1, -1)
    report = db([*domino_2p()[:2], play("Ben", "1-4", "left")])
    first = report.violations[0]
    assert (first.seq, first.code) == (4, "illegal")
    assert first.message.startswith("'left' is not an open end of the table; placed on 4-4:")
    assert db_fold([*domino_2p()[:2], play("Ben", "1-4", "left")]).state.hand.layout.ends() == layout.ends()


def test_ruling_C2_a_wrong_end_is_one_violation():
    assert codes(db([*domino_2p()[:2], play("Ben", "1-4", "left")])) == [(4, "illegal")]


def test_ruling_C3_a_renege_is_charged_to_the_event_and_play_goes_on():
    # Ben draws at seq 4 though 1-4 and 3-4 fit the spinner; the draw stands, Ben is still on move
    events = [*domino_2p()[:2], draw("Ben", "0-0"), play("Ben", "1-4", "4-4:N")]
    report = db(events)
    assert codes(report) == [(4, "renege")]
    assert report.violations[0].message == "Ben draws while holding a legal play (1-4, 3-4 can be played)"
    hand = db_fold(events).state.hand
    assert hand.holdings["Ben"].count == 6 and Tile(0, 0) in hand.holdings["Ben"].known and hand.turn == "Ana"
    assert scores(db_fold(events)) == [(3, "Ana", 2), (5, "Ben", 2)]


def test_ruling_C4_only_reveal_note_hand_end_after_the_hand_is_over():
    events = [
        *domino_2p(),
        {"type": "note", "text": "Ana is out"},  # 14
        play("Ben", "5-5", "2-5"),  # 15
        draw("Ben"),  # 16
        pass_("Ben"),  # 17
        reveal("Ben", ["5-5"]),  # 18
        hand_end({"Ana": 17, "Ben": 10}, "Ana"),  # 19
    ]
    report = db(events)
    assert codes(report) == [(15, "out-of-order"), (16, "out-of-order"), (17, "out-of-order")]
    assert report.violations[0].message == "play after hand 1 was over (domino at seq 13); ignored"
    assert [h.as_dict() for h in report.hands] == [DOMINO_RESULT]


def test_ruling_C5_pips_count_the_tiles_left_drawn_ones_included():
    report = db([*draws_2p(), hand_end()], options=NO_DRAWS)
    assert report.hands[0].detail["pips"] == {"Ana": 8, "Ben": 78}  # Ben: 30 dealt + 48 drawn


# -- D1: players, hand sizes, the reserve ---------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "boneyard"), [(TWO, 6, 16), (THREE, 6, 10), (FOUR, 5, 8)])
def test_ruling_D1_six_six_five_tiles_the_rest_is_the_boneyard(players, size, boneyard):
    all_tiles = [str(t) for t in DOUBLE_SIX]
    hands = {p: all_tiles[i * size : (i + 1) * size] for i, p in enumerate(players)}
    good = [deal(players[0], hands)]
    assert codes(db(good, players)) == []
    hand = db_fold(good, players).state.hand
    assert {p: h.count for p, h in hand.holdings.items()} == dict.fromkeys(players, size)
    assert hand.boneyard.count == boneyard and DoubleBergen(list(players)).drawable(hand) == boneyard
    long = {**hands, "Ana": [*hands["Ana"], all_tiles[-1]]}
    report = db([deal(players[0], long)], players)
    assert codes(report) == [(2, "bad-deal")]
    assert report.violations[0].message == f"Ana is dealt {size + 1} tiles, not {size}"
    short = {p: h[:-1] for p, h in hands.items()}
    assert codes(db([deal(players[0], short)], players)) == [(2, "bad-deal")] * len(players)


def test_ruling_D1_two_to_four_players():
    for players in (("Ana",), ("Ana", "Ben", "Cleo", "Dev", "Eve")):
        report = db([], players)
        assert codes(report) == [(1, "malformed")] and report.variant is None
    for players in (TWO, THREE, FOUR):
        assert db([], players).variant == DB
    with pytest.raises(VariantError, match="played by 2 to 4 players, not 5"):
        DoubleBergen(["A", "B", "C", "D", "E"])


def test_ruling_D1_reserve_option():
    assert DoubleBergen(list(TWO)).options == {"target": 100, "reserve": 0}
    for bad in (-1, 9):
        report = db([], options={"reserve": bad})
        assert codes(report) == [(1, "malformed")]
        assert report.violations[0].message == "match_start: option 'reserve' must be 0 to 8"
    hand = db_fold(reserve_4p()[:1], FOUR, {"reserve": 2}).state.hand
    assert hand.boneyard.count == 8 and DoubleBergen(list(FOUR), {"reserve": 2}).drawable(hand) == 6


def test_ruling_D1_a_draw_from_the_reserve_is_illegal_a_pass_is_fine():
    events = reserve_4p()
    assert codes(db(events, FOUR, {"reserve": 2})) == []
    hand = db_fold(events, FOUR, {"reserve": 2}).state.hand
    assert hand.boneyard.count == 2 and hand.turn == "Ben" and hand.over is None  # Cleo and Dev hold sixes
    # only the reserve is left: a seventh draw is illegal and ignored
    report = db([*events, draw("Ben", "0-6")], FOUR, {"reserve": 2})
    assert codes(report) == [(10, "illegal")]
    assert report.violations[0].message == "Ben draws with no drawable tile left (the last 2 are never drawn); ignored"
    assert db_fold([*events, draw("Ben", "0-6")], FOUR, {"reserve": 2}).state.hand.boneyard.count == 2
    # so Ben passes, and Cleo plays on
    events = [*events, pass_("Ben"), play("Cleo", "1-6", "6-6:N")]
    assert codes(db(events, FOUR, {"reserve": 2})) == []
    assert scores(db_fold(events, FOUR, {"reserve": 2})) == [(3, "Ana", 2), (11, "Cleo", 2)]
    # without a reserve the same draw is clean
    assert codes(db([*reserve_4p(), draw("Ben", "0-6")], FOUR)) == []


# -- D2: who leads -------------------------------------------------------------------------------


def test_ruling_D2_leader_of_hand_1_is_named_in_the_deal():
    for leader in TWO:
        assert codes(db(domino_2p(leader, next(p for p in TWO if p != leader)))) == []
    assert db_fold(domino_2p("Ben", "Ana")[:1]).state.hand.turn == "Ben"


def test_ruling_D2_the_lead_passes_to_the_next_player():
    # Ana wins hand 1, yet Ben, the next player, leads hand 2
    right = db([*domino_2p(), hand_end(), *domino_2p("Ben", "Ana"), hand_end()])
    assert codes(right) == []
    assert [(h.leader, h.winner, h.points) for h in right.hands] == [
        ("Ana", "Ana", {"Ana": 17, "Ben": 10}),
        ("Ben", "Ben", {"Ana": 10, "Ben": 17}),
    ]
    wrong = db([*domino_2p(), hand_end(), deal("Ana", None)])
    assert codes(wrong) == [(15, "bad-deal")]
    assert wrong.violations[0].message == "Ana leads hand 2, but Ben should lead it"


def test_ruling_D2_rotation_round_four_seats_whoever_wins():
    seats = [FOUR[i:] + FOUR[:i] for i in range(4)]
    hands = [e for s in seats for e in (*block_4p(s), hand_end())]
    report = db(hands, FOUR, NO_DRAWS)
    assert codes(report) == []
    assert [(h.leader, h.end, h.winner) for h in report.hands] == [(s[0], "block", s[0]) for s in seats]
    assert report.totals == dict.fromkeys(FOUR, 9)  # 2 a hand each, and 1 for each hand's leader
    # hand 2 is Ben's, the seat after Ana: Cleo may not lead it
    wrong = db([*block_4p(), hand_end(), *block_4p(seats[2])], FOUR, NO_DRAWS)
    assert codes(wrong) == [(8, "bad-deal")]
    assert wrong.violations[0].message == "Cleo leads hand 2, but Ben should lead it"


# -- D3: the first tile is a double ------------------------------------------------------------------


def test_ruling_D3_first_tile_not_a_double_is_illegal_and_not_placed():
    events = [*domino_2p()[:1], play("Ana", "2-4"), play("Ben", "1-1")]
    report = db(events)
    assert codes(report) == [(3, "illegal")]
    assert report.violations[0].message == "2-4 cannot be the first tile of the hand; not placed"
    reducer = db_fold(events)
    hand = reducer.state.hand
    assert Tile(2, 4) in hand.holdings["Ana"].known and hand.layout.order == [Tile(1, 1)] and hand.turn == "Ana"
    assert scores(reducer) == [(4, "Ben", 2)]  # the spinner is Ben's 1-1


def test_ruling_D3_a_player_holding_a_double_must_set_one():
    # any double will do: Ben sets 2-2 though he also holds 1-1 and 5-5
    assert codes(db([deal("Ben", {"Ana": DOMINO_ANA, "Ben": DOMINO_BEN}), play("Ben", "2-2")])) == []
    report = db([*domino_2p()[:1], pass_("Ana"), play("Ben", "1-1")])
    assert codes(report) == [(3, "renege")]
    assert report.violations[0].message == "Ana passes while holding a legal play (4-4 can be played)"
    assert db_fold([*domino_2p()[:1], pass_("Ana"), play("Ben", "1-1")]).state.hand.turn == "Ana"


def test_ruling_D3_passes_without_a_double_then_draws_in_turn():
    events = opening_3p()
    assert codes(db(events, THREE)) == []
    turns = [db_fold(events[:n], THREE).state.hand.turn for n in range(1, len(events) + 1)]
    # after the deal, each of the three passes, Ana's and Ben's draws, Cleo's draw, her 3-3, Ana's 0-3
    assert turns == ["Ana", "Ben", "Cleo", "Ana", "Ben", "Cleo", "Cleo", "Ana", "Ben"]
    reducer = db_fold(events, THREE)
    assert scores(reducer) == [(9, "Cleo", 2), (10, "Ana", 2)]
    assert reducer.state.hand.layout.ends() == {"3-3:E": 3, "3-3:S": 3, "3-3:W": 3, "0-3:N": 0}
    assert reducer.state.hand.boneyard.count == 7


def test_ruling_D3_drawing_before_everyone_has_passed_is_illegal():
    report = db([*opening_3p()[:2], draw("Ben", "2-5")], THREE)
    assert codes(report) == [(4, "illegal")]
    assert report.violations[0].message == "Ben draws before every player has passed for want of a double (D3)"


def test_ruling_D3_once_everyone_has_passed_a_pass_is_illegal():
    report = db([*opening_3p()[:4], pass_("Ana")], THREE)
    assert codes(report) == [(6, "illegal")]
    assert report.violations[0].message == "Ana passes with tiles left to draw: must draw (D5)"


def test_ruling_D3_a_drawn_non_double_ends_the_turn():
    report = db([*opening_3p()[:5], draw("Ana", "2-5")], THREE)
    assert codes(report) == [(7, "illegal")]
    assert report.violations[0].message == "not Ana's turn (Ben is on move)"


def test_ruling_D3_a_drawn_double_is_set_at_once():
    # drawing again, or passing, instead of setting 3-3 is a renege
    report = db([*opening_3p()[:7], draw("Cleo", "1-1")], THREE)
    assert codes(report) == [(9, "renege")]
    assert report.violations[0].message == "Cleo draws instead of setting 3-3 (D3)"
    report = db([*opening_3p()[:7], pass_("Cleo")], THREE)
    assert codes(report) == [(9, "renege")]
    assert report.violations[0].message == "Cleo passes while holding a legal play (3-3 can be played)"
    # a drawn double that is the leader's: set at once, in the same turn
    events = [*opening_3p()[:4], draw("Ana", "6-6"), play("Ana", "6-6"), play("Ben", "1-6", "6-6:S")]
    assert codes(db(events, THREE)) == []
    assert scores(db_fold(events, THREE)) == [(7, "Ana", 2), (8, "Ben", 2)]


def test_ruling_D3_a_pass_ends_the_turn_of_a_drawn_double():
    # fixed: after Cleo's pass (a renege), Ana and Ben were charged for not setting Cleo's 3-3
    events = [*opening_3p()[:7], pass_("Cleo"), draw("Ana", "4-6"), draw("Ben", "6-6"), play("Ben", "6-6")]
    assert codes(db(events, THREE)) == [(9, "renege")]
    # Cleo still holds 3-3: on her next turn she must set it (or another double); a draw is a renege
    events = [*events[:-1], pass_("Ben"), draw("Cleo", "0-0")]
    report = db(events, THREE)
    assert codes(report) == [(9, "renege"), (12, "renege"), (13, "renege")]
    assert report.violations[2].message == "Cleo draws while holding a legal play (3-3 can be played)"


# -- D4: the spinner ------------------------------------------------------------------------------------


def test_ruling_D4_the_spinners_four_sides_come_first():
    # 1-3 fits the 1 on the north arm, but the spinner has three free sides: illegal, the tile stands
    events = [*domino_2p()[:3], play("Ana", "1-3", "1-4")]
    report = db(events)
    assert codes(report) == [(5, "illegal")]
    assert report.violations[0].message == "1-4:N is played on before all four sides of the spinner (D4)"
    reducer = db_fold(events)
    assert reducer.state.hand.layout.ends() == {"4-4:E": 4, "4-4:S": 4, "4-4:W": 4, "1-3:N": 3}
    assert scores(reducer)[-1] == (5, "Ana", 2) and reducer.state.hand.turn == "Ben"


def test_ruling_D4_a_tile_that_fits_only_an_arm_is_no_play():
    # after Ben's 0-6, Ana holds 0-0 0-1 0-2 for the 0 on the arm but no six: she draws, no renege
    events = [*draws_2p()[:2], draw("Ben", "0-6"), play("Ben", "0-6", "6-6:N"), draw("Ana", "3-4")]
    assert codes(db(events)) == []
    hand = db_fold(events).state.hand
    assert DoubleBergen(list(TWO)).legal_placements(hand, "Ana") == []
    # once the four sides are played, the arms are open
    events = [*domino_2p()[:6], play("Ben", "1-1", "1-4")]
    hand = db_fold(events).state.hand
    assert [f"{t} {e}" for t, e in DoubleBergen(list(TWO)).legal_placements(hand, "Ana")] == [
        "1-3 3-4:S",
        "1-3 1-1:N",
        "2-5 2-4:E",
        "2-5 4-5:W",
    ]


def test_ruling_D4_later_doubles_lie_crosswise_keep_the_value_and_do_not_spin():
    reducer = db_fold(domino_2p()[:9])
    layout = reducer.state.hand.layout
    one, two = layout.placed[Tile(1, 1)], layout.placed[Tile(2, 2)]
    # 1-1 on the north arm lies east-west; 2-2 on the east arm lies north-south; both across their line
    assert (one.kind, one.horizontal, one.rect) == ("cross", True, (-2, 6, 2, 8))
    assert (two.kind, two.horizontal, two.rect) == ("cross", False, (5, -1, 7, 3))
    # one open end each, straight on, showing the line's value
    assert layout.ends() == {"1-3:S": 1, "4-5:W": 5, "1-1:N": 1, "2-2:E": 2}
    report = db([*domino_2p()[:7], play("Ana", "1-3", "1-1:E")])
    first = report.violations[0]
    assert (first.seq, first.code, first.message) == (
        9,
        "illegal",
        "'1-1:E' is not an open end of the table; placed on 3-4:S, where it fits",
    )
    assert len(report.violations) == 1


# -- D5: drawing ------------------------------------------------------------------------------------------


def test_ruling_D5_draw_until_able_to_play_then_play():
    # Ben has no six: he draws 0-4 (no play) and 3-6, which he must play
    events = [*draws_2p()[:3], draw("Ben", "3-6")]
    hand = db_fold(events).state.hand
    assert hand.turn == "Ben" and hand.boneyard.count == 14
    assert codes(db([*events, play("Ben", "3-6", "6-6:E")])) == []
    again = db([*events, draw("Ben", "4-5")])
    assert codes(again) == [(6, "renege")]
    assert again.violations[0].message == "Ben draws while holding a legal play (3-6 can be played)"
    passed = db([*events, pass_("Ben")])
    assert codes(passed) == [(6, "renege")]
    assert passed.violations[0].message == "Ben passes while holding a legal play (3-6 can be played)"


def test_ruling_D5_pass_with_tiles_to_draw_is_illegal():
    report = db([*draws_2p()[:2], pass_("Ben")])
    assert codes(report) == [(4, "illegal")]
    assert report.violations[0].message == "Ben passes with tiles left to draw: must draw (D5)"


def test_ruling_D5_pass_with_nothing_to_draw_is_fine():
    # only the reserve is left (as in D1): Ben cannot play and passes
    assert codes(db([*reserve_4p(), pass_("Ben")], FOUR, {"reserve": 2})) == []
    # without the reserve the same two tiles can still be drawn: the pass is illegal
    assert codes(db([*reserve_4p(), pass_("Ben")], FOUR)) == [(10, "illegal")]


def test_ruling_D5_hidden_pass_is_a_renege_or_illegal_never_both():
    # fixed: a hidden pass with tiles to draw was called illegal at once, and a renege too once revealed.
    # Ben draws 0-0 unseen while holding 1-4 and 3-4 (seq 4), then passes (seq 5): two reneges, as with
    # every tile seen. With the target 6, Ana's third spinner side (seq 8) ends the match.
    target = {"target": 6}
    events = [
        *domino_2p()[:2],
        draw("Ben", "0-0"),  # 4
        pass_("Ben"),  # 5
        play("Ana", "2-4", "4-4:E"),  # 6
        play("Ben", "1-4", "4-4:N"),  # 7
        play("Ana", "4-5", "4-4:W"),  # 8: Ana 2 + 2 + 2 = 6
    ]
    full = db([*events, hand_end()], options=target)
    assert codes(full) == [(4, "renege"), (5, "renege")]
    tabletop = hidden(events, draws_seen=False)
    before = db(tabletop, options=target)
    # before the reveals, the plays already prove the pass a renege: Ben played 1-4 at seq 7 and drew
    # nothing after seq 4; which tile that draw brought is unseen, so the draw itself stays open (issue 25)
    assert [(v.seq, v.code) for v in before.violations] == [(5, "renege")]
    assert before.violations[0].message == (
        "Ben passes while holding a legal play (shown by the log so far: 1-4 can be played)"
    )
    assert [(u.seq, u.code) for u in before.unverified] == [(4, "renege")]
    reveals = [reveal("Ana", tiles("1-3 2-5 0-6")), reveal("Ben", tiles("3-4 1-1 2-2 1-6 5-5 0-0"))]
    report = db([*tabletop, *reveals, hand_end()], options=target)
    assert codes(report) == [(4, "renege"), (5, "renege")]
    assert report.violations[1].message == (
        "Ben passes while holding a legal play (shown by the reveals: 1-4, 3-4 can be played)"
    )
    assert report.unverified == []
    assert [h.as_dict() for h in report.hands] == [h.as_dict() for h in full.hands]
    assert report.hands[0].as_dict() == {
        "number": 1,
        "end": "target",
        "winner": None,
        "points": {"Ana": 6, "Ben": 2},
        "play_points": {"Ana": 6, "Ben": 2},
    }


# -- D6: scoring every placement ------------------------------------------------------------------------


def test_ruling_D6_every_placement_scores_for_the_player_who_placed():
    reducer = db_fold(domino_2p())
    assert scores(reducer) == DOMINO_SCORES
    assert reducer.state.hand.points == {"Ana": 16, "Ben": 10}


def test_ruling_D6_the_spinner_alone_scores_two():
    assert scores(db_fold(domino_2p()[:2])) == [(3, "Ana", 2)]
    assert scores(db_fold(opening_3p()[:8], THREE)) == [(9, "Cleo", 2)]


def test_ruling_D6_the_spinner_is_a_double_end_while_it_has_a_free_side():
    # while a side is free only its one tile lies on each arm, and no two of those show the same value:
    # every placement scores exactly the spinner's 2 (seq 3-6). Played on the arm too early (D4), 1-3 and
    # 3-4 bring a 4 to the north end: the spinner (double) and a single 4 make 2 + 1 = 3
    events = [*domino_2p()[:3], play("Ana", "1-3", "1-4"), play("Ben", "3-4", "1-3")]
    report = db(events)
    assert codes(report) == [(5, "illegal"), (6, "illegal")]
    assert scores(db_fold(events)) == [(3, "Ana", 2), (4, "Ben", 2), (5, "Ana", 2), (6, "Ben", 3)]
    # with all four sides played the spinner is no end at all (seq 7: 1 2 3 5 score nothing)
    assert scores(db_fold(domino_2p()[:6]))[-1] == (7, "Ana", 0)


def test_ruling_D6_values_that_do_not_match_score_nothing():
    assert [s for s in DOMINO_SCORES if s[2] == 0] == [(7, "Ana", 0), (8, "Ben", 0)]
    # seq 8: a crosswise double alone on its value scores nothing either
    assert db_fold(domino_2p()[:7]).state.hand.layout.ends() == {"2-4:E": 2, "3-4:S": 3, "4-5:W": 5, "1-1:N": 1}


def test_ruling_D6_the_maximum_of_six_two_doubles_each_with_a_single():
    layout = db_fold(domino_2p()[:9]).state.hand.layout
    assert layout.ends() == {"1-3:S": 1, "4-5:W": 5, "1-1:N": 1, "2-2:E": 2} and placement_score(layout) == 3
    layout = db_fold(domino_2p()[:10]).state.hand.layout
    assert layout.ends() == {"1-3:S": 1, "1-1:N": 1, "2-2:E": 2, "2-5:W": 2}
    assert placement_score(layout) == 6 and DOMINO_SCORES[8] == (11, "Ana", 6)


def build(spinner: str, plays: list[tuple[str, str]]) -> GridLayout:
    """A table built tile by tile, without the rules' order (placement_score reads any table)."""
    layout = GridLayout(spinning_doubles=False)
    layout.place_first(int(spinner[0]), int(spinner[2]), Tile.parse(spinner))
    for tile, end in plays:
        side = layout.side(end)
        assert side is not None and layout.fits_side(Tile.parse(tile), side), (tile, end)
        layout.place(Tile.parse(tile), side)
    return layout


SIDES = [("4-1", "4-4:N"), ("4-2", "4-4:E"), ("4-3", "4-4:S"), ("4-5", "4-4:W")]


@pytest.mark.parametrize(
    ("plays", "ends", "points"),
    [
        ([], [4, 4, 4, 4], 2),  # the spinner alone: four free sides, one double end
        (SIDES[:3], [1, 2, 3, 4], 2),  # three sides: the spinner's 2 only
        (SIDES, [1, 2, 3, 5], 0),  # four different single ends
        ([*SIDES, ("3-1", "3-4:S")], [1, 2, 1, 5], 2),  # two single ends on 1
        ([*SIDES, ("3-1", "3-4:S"), ("5-1", "4-5:W")], [1, 2, 1, 1], 3),  # three single ends on 1
        ([*SIDES, ("3-2", "3-4:S"), ("5-1", "4-5:W")], [1, 2, 2, 1], 4),  # two pairs of singles: 2 + 2
        ([*SIDES, ("1-1", "1-4:N")], [2, 3, 5, 1], 0),  # a double end alone
        ([*SIDES, ("1-1", "1-4:N"), ("3-1", "3-4:S")], [2, 5, 1, 1], 3),  # double + single: 2 + 1
        ([*SIDES, ("1-1", "1-4:N"), ("3-1", "3-4:S"), ("5-1", "4-5:W")], [2, 1, 1, 1], 4),  # 2 + 1 + 1
        ([*SIDES, ("1-1", "1-4:N"), ("3-1", "3-4:S"), ("5-1", "4-5:W"), ("2-1", "2-4:E")], [1, 1, 1, 1], 5),
        ([*SIDES, ("1-1", "1-4:N"), ("3-1", "3-4:S"), ("2-2", "2-4:E"), ("5-2", "4-5:W")], [1, 1, 2, 2], 6),
        ([("4-1", "4-4:N"), ("1-3", "1-4:N"), ("3-4", "1-3:N")], [4, 4, 4, 4], 3),  # the spinner (free) + a single 4
    ],
    ids=[
        "spinner",
        "three-sides",
        "no-match",
        "two-singles",
        "three-singles",
        "two-pairs",
        "lone-double",
        "double-single",
        "double-two-singles",
        "double-three-singles",
        "maximum",
        "spinner-and-single",
    ],
)
def test_ruling_D6_scoring_table(plays, ends, points):
    layout = build("4-4", plays)
    assert sorted(layout.ends().values()) == sorted(ends)
    assert placement_score(layout) == points


# -- D7: the end of a hand --------------------------------------------------------------------------------


def test_ruling_D7_domino_scores_one_more_for_the_player_who_went_out():
    report = db([*domino_2p(), hand_end({"Ana": 17, "Ben": 10}, "Ana")])
    assert codes(report) == []
    assert [h.as_dict() for h in report.hands] == [DOMINO_RESULT]
    assert report.totals == {"Ana": 17, "Ben": 10}
    # the table forgetting the +1
    forgot = db([*domino_2p(), hand_end({"Ana": 16, "Ben": 10}, "Ana")])
    assert codes(forgot) == [(14, "score-mismatch")]
    assert forgot.violations[0].message == "hand 1 (domino): claimed Ana 16, Ben 10; the rules give Ana 17, Ben 10"


def test_ruling_D7_block_with_full_information_ends_at_once():
    events = block_4p()
    reducer = db_fold(events, FOUR, NO_DRAWS)
    assert (reducer.state.hand.over, reducer.state.hand.over_seq) == ("block", 6)
    assert db_fold(events[:-1], FOUR, NO_DRAWS).state.hand.over is None
    report = db([*events, hand_end({"Ana": 3, "Ben": 2, "Cleo": 2, "Dev": 2}, "Ana")], FOUR, NO_DRAWS)
    assert codes(report) == []
    assert report.hands[0].as_dict() == {
        "number": 1,
        "end": "block",
        "winner": "Ana",
        "points": {"Ana": 3, "Ben": 2, "Cleo": 2, "Dev": 2},
        "play_points": {"Ana": 2, "Ben": 2, "Cleo": 2, "Dev": 2},
        "pips": {"Ana": 5, "Ben": 14, "Cleo": 20, "Dev": 24},
    }
    # no passes are recorded: one is out of order
    late = db([*events, pass_("Ana"), hand_end()], FOUR, NO_DRAWS)
    assert codes(late) == [(7, "out-of-order")]
    assert late.violations[0].message == "pass after hand 1 was over (block at seq 6); ignored"


def test_ruling_D7_block_at_the_last_drawable_tile():
    events = draws_2p()
    assert db_fold(events[:-1], options=NO_DRAWS).state.hand.over is None
    hand = db_fold(events, options=NO_DRAWS).state.hand
    assert (hand.over, hand.over_seq, hand.boneyard.count) == ("block", 11, 8)
    report = db([*events, hand_end({"Ana": 3}, "Ana")], options=NO_DRAWS)
    assert codes(report) == []
    assert (report.hands[0].winner, report.hands[0].points) == ("Ana", {"Ana": 3, "Ben": 0})


def test_ruling_D7_no_double_and_none_to_draw_is_a_block_at_once():
    # fixed: with nothing to draw and no double dealt, the hand waited for two rounds of passes.
    # Four players, reserve 8: the 20 tiles dealt are all non-doubles
    singles = [str(t) for t in DOUBLE_SIX if not t.is_double]
    hands = {p: singles[i * 5 : (i + 1) * 5] for i, p in enumerate(FOUR)}
    report = db([deal("Ana", hands), hand_end({"Ana": 1}, "Ana")], FOUR, NO_DRAWS)
    assert codes(report) == []
    assert (report.hands[0].end, report.hands[0].detail["pips"]) == (
        "block",
        {"Ana": 15, "Ben": 24, "Cleo": 33, "Dev": 43},
    )
    # recorded with hidden hands, the round of passes for want of a double ends it
    passes = [pass_(p) for p in FOUR]
    events = [deal("Ana", None), *passes, *(reveal(p, hands[p]) for p in FOUR), hand_end({"Ana": 1}, "Ana")]
    report = db(events, FOUR, NO_DRAWS)
    assert codes(report) == [] and report.hands[0].end == "block"
    assert db_fold(events[:5], FOUR, NO_DRAWS).state.hand.over_seq == 6


def test_ruling_D7_lowest_pip_total_wins_a_block_a_tie_wins_nothing():
    report = db([*block_4p(hands=TIE_HANDS), hand_end({"Ana": 2, "Ben": 2, "Cleo": 2, "Dev": 2}, None)], FOUR, NO_DRAWS)
    assert codes(report) == []
    assert report.hands[0].as_dict() == {
        "number": 1,
        "end": "block",
        "winner": None,
        "points": {"Ana": 2, "Ben": 2, "Cleo": 2, "Dev": 2},
        "play_points": {"Ana": 2, "Ben": 2, "Cleo": 2, "Dev": 2},
        "pips": {"Ana": 11, "Ben": 11, "Cleo": 17, "Dev": 24},
    }
    claimed = db(
        [*block_4p(hands=TIE_HANDS), hand_end({"Ana": 3, "Ben": 2, "Cleo": 2, "Dev": 2}, "Ana")], FOUR, NO_DRAWS
    )
    assert codes(claimed) == [(7, "score-mismatch"), (7, "score-mismatch")]


def test_ruling_D7_hidden_block_ends_after_a_pass_by_every_player():
    events = [*hidden(block_4p()), *(pass_(p) for p in FOUR)]  # passes at seq 7-10
    for n, over in ((len(events) - 1, None), (len(events), "block")):
        assert db_fold(events[:n], FOUR, NO_DRAWS).state.hand.over == over
    reveals = [reveal(p, left) for p, left in zip(FOUR, BLOCK_LEFT, strict=True)]
    report = db([*events, *reveals, hand_end()], FOUR, NO_DRAWS)
    assert codes(report) == [] and report.unverified == []
    full = db([*block_4p(), hand_end()], FOUR, NO_DRAWS)
    assert [h.as_dict() for h in report.hands] == [h.as_dict() for h in full.hands]
    # one round only: a fifth pass is out of order
    extra = db([*events, pass_("Ana"), *reveals, hand_end()], FOUR, NO_DRAWS)
    assert codes(extra) == [(11, "out-of-order")]
    # never revealed: the table's claim is taken
    report = db([*events, hand_end({"Ana": 3, "Ben": 2, "Cleo": 2, "Dev": 2}, "Ana")], FOUR, NO_DRAWS)
    assert codes(report) == []
    assert [(u.seq, u.code) for u in report.unverified] == [
        (7, "renege"),
        (8, "renege"),
        (9, "renege"),
        (10, "renege"),
        (11, "score-mismatch"),
    ]
    assert report.totals == {"Ana": 3, "Ben": 2, "Cleo": 2, "Dev": 2}


def test_ruling_D7_hidden_block_the_reveal_must_bear_it_out():
    # Dev passes at seq 6 holding 2-6, which fits the spinner's free S and W sides
    events = [*hidden(block_4p()[:4]), *(pass_(p) for p in ("Dev", "Ana", "Ben", "Cleo"))]
    reveals = [reveal(p, left) for p, left in zip(FOUR, BLOCK_LEFT[:3], strict=False)]
    report = db([*events, *reveals, reveal("Dev", BLOCK_HANDS[3]), hand_end()], FOUR, NO_DRAWS)
    assert codes(report) == [(6, "renege")]
    assert report.violations[0].message == "Dev passes while holding a legal play (2-6 can be played)"
    assert (report.hands[0].end, report.hands[0].winner) == ("block", "Ana")
    assert report.hands[0].points == {"Ana": 3, "Ben": 2, "Cleo": 2, "Dev": 0}
    assert report.hands[0].detail["pips"] == {"Ana": 5, "Ben": 14, "Cleo": 20, "Dev": 32}


# -- D8: the end of the match ------------------------------------------------------------------------------


def test_ruling_D8_the_match_ends_the_moment_the_target_is_reached():
    # Ana's running total: 2 (seq 3), 4 (seq 5), 4 (seq 7), 7 (seq 9): the target 7 is reached at seq 9
    events = domino_2p()[:8]
    reducer = db_fold(events, options={"target": 7})
    assert (reducer.state.hand.over, reducer.state.hand.over_seq) == ("target", 9)
    assert db_fold(events[:-1], options={"target": 7}).state.hand.over is None
    report = db(
        [*events, hand_end({"Ana": 7, "Ben": 4}, None), match_end(totals={"Ana": 7, "Ben": 4}, winner="Ana")],
        options={"target": 7},
    )
    assert codes(report) == [] and report.complete
    assert report.hands[0].as_dict() == {
        "number": 1,
        "end": "target",
        "winner": None,
        "points": {"Ana": 7, "Ben": 4},
        "play_points": {"Ana": 7, "Ben": 4},
    }
    assert (report.totals, report.winner) == ({"Ana": 7, "Ben": 4}, "Ana")


def test_ruling_D8_no_plus_one_and_no_more_play_at_the_target():
    events = domino_2p()[:8]
    late = db([*events, play("Ben", "2-2", "2-4"), hand_end()], options={"target": 7})
    assert codes(late) == [(10, "out-of-order")]
    assert late.violations[0].message == "play after hand 1 was over (target at seq 9); ignored"
    claimed = db([*events, hand_end({"Ana": 8, "Ben": 4}, "Ana")], options={"target": 7})
    assert codes(claimed) == [(10, "score-mismatch"), (10, "score-mismatch")]
    assert claimed.violations[1].message == "hand 1 (target): claimed winner Ana; the rules give no winner"


def test_ruling_D8_a_domino_that_reaches_the_target_keeps_its_plus_one():
    # Ana has 13 before her last tile, which scores 3: 16 reaches the target 16, and it is a domino
    for target in (14, 16, 17):  # 17: reached by the +1 at the end of the hand
        report = db([*domino_2p(), hand_end(), match_end(winner="Ana")], options={"target": target})
        assert codes(report) == []
        assert [h.as_dict() for h in report.hands] == [DOMINO_RESULT]
        assert report.winner == "Ana"


def test_ruling_D8_match_end_before_the_target_is_out_of_order():
    report = db([*domino_2p(), hand_end(), match_end(winner="Ana")], options={"target": 18})
    assert codes(report) == [(15, "out-of-order"), (15, "score-mismatch")]
    assert report.violations[0].message == "match_end too early: the match is not over after 1 hand"
    assert report.winner is None
    assert db_fold([*domino_2p(), hand_end()], options={"target": 18}).state.over is False


def test_ruling_D8_earlier_hands_count_towards_the_target():
    # hand 1: Ana 17, Ben 10; in hand 2 Ana's second tile (seq 19) takes her to 17 + 2 + 2 = 21
    events = [*domino_2p(), hand_end(), *domino_2p("Ben", "Ana")[:5]]
    hand = db_fold(events, options={"target": 20}).state.hand
    assert (hand.over, hand.over_seq, hand.points) == ("target", 19, {"Ana": 4, "Ben": 4})
    report = db([*events, hand_end(), match_end(totals={"Ana": 21, "Ben": 14}, winner="Ana")], options={"target": 20})
    assert codes(report) == [] and report.totals == {"Ana": 21, "Ben": 14} and report.winner == "Ana"


def test_ruling_D8_the_highest_total_wins():
    state = MatchState(DB, list(THREE), {}, totals={"Ana": 98, "Ben": 101, "Cleo": 100})
    assert DoubleBergen(list(THREE)).match_winner(state) == "Ben"
    state.totals = {"Ana": 101, "Ben": 101, "Cleo": 100}
    assert DoubleBergen(list(THREE)).match_winner(state) is None
    # the claims of hands that could not be checked may put two over the target
    events = [*hidden(block_4p()), *(pass_(p) for p in FOUR)]
    report = db([*events, hand_end({"Ana": 12, "Ben": 11}), match_end(winner="Ana")], FOUR, {**NO_DRAWS, "target": 10})
    assert codes(report) == [] and (report.totals["Ana"], report.winner) == (12, "Ana")


def test_ruling_D8_an_abandoned_hand_keeps_the_points_made_in_play():
    report = db([*domino_2p()[:6], match_end(reason="abandoned")])
    assert codes(report) == [] and report.complete and report.winner is None
    assert report.hands[0].as_dict() == {
        "number": 1,
        "end": "abandoned",
        "winner": None,
        "points": {"Ana": 4, "Ben": 4},
    }


# -- hidden hands ----------------------------------------------------------------------------------------


def test_ruling_D7_hidden_hands_score_the_same_once_revealed():
    cases = [
        (TWO, None, [*domino_2p(), hand_end()]),
        (TWO, NO_DRAWS, [*draws_2p(), hand_end()]),
        (FOUR, NO_DRAWS, [*block_4p(), hand_end()]),
        (THREE, {"target": 4}, [*opening_3p(), play("Ben", "2-3", "3-3:E"), play("Cleo", "3-5", "3-3:S"), hand_end()]),
    ]
    for players, options, events in cases:
        full = verify(match_log(events, DB, players, options))
        tabletop = verify(hide_match(match_log(events, DB, players, options)))
        assert [h.as_dict() for h in tabletop.hands] == [h.as_dict() for h in full.hands]
        assert tabletop.totals == full.totals
        assert codes(tabletop) == codes(full) == []
    # draws not seen, and the block recorded with a pass by each player
    events = [*hidden(draws_2p(), draws_seen=False), pass_("Ben"), pass_("Ana")]
    report = db(
        [*events, reveal("Ana", DRAWS_ANA[1:]), reveal("Ben", [*DRAWS_BEN, *BEN_DRAWS]), hand_end()], options=NO_DRAWS
    )
    assert codes(report) == []
    assert (report.hands[0].end, report.hands[0].points) == ("block", {"Ana": 3, "Ben": 0})


def test_ruling_D3_hidden_opening_draws():
    # the draws are not seen: whether a draw was a double shows in what the drawer does next
    events = hidden(opening_3p(), draws_seen=False)
    report = db(events, THREE)
    assert codes(report) == []
    reducer = db_fold(events, THREE)
    assert scores(reducer) == [(9, "Cleo", 2), (10, "Ana", 2)] and reducer.state.hand.turn == "Ben"


@pytest.mark.parametrize(
    ("players", "options"),
    [(TWO, None), (THREE, None), (FOUR, None), (FOUR, {"reserve": 2})],
    ids=["2", "3", "4", "4r"],
)
def test_simulated_matches_verify_clean_and_hide_to_the_same_result(players, options):
    events = simulate_match(DB, 7, 0, list(players), options)
    full = verify(events)
    assert full.valid and full.complete and full.unverified == []
    assert full.hands[-1].end == "target" and max(full.totals.values()) >= 100
    assert full.winner == max(full.totals, key=full.totals.get)
    seen = verify(hide_match(events))
    assert seen.valid and seen.complete
    assert [h.as_dict() for h in seen.hands] == [h.as_dict() for h in full.hands]
    assert (seen.totals, seen.winner) == (full.totals, full.winner)
    # D6: no placement scores more than 6, and the first one of each hand scores 2
    (log,) = list(iter_matches("sim.jsonl", to_bytes(events)))
    for n in [e["seq"] for e in events if e["type"] == "hand_end"]:
        placed = scores(reduce_match(log, n - 1))
        assert placed[0][2] == 2 and all(0 <= s <= 6 for _, _, s in placed)


# -- the bundled replays ---------------------------------------------------------------------------------

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def replay(name: str):
    return [verify_match(log) for log in iter_matches(REPLAYS / name)]


def test_replay_simulated_two_three_four_players_are_clean():
    two, three, four = replay("double-bergen-simulated.jsonl")
    for r, n in ((two, 2), (three, 3), (four, 4)):
        assert r.valid and r.complete and not r.unverified and len(r.players) == n
        assert r.hands[-1].end == "target" and r.hands[-1].winner is None
    assert (two.totals, two.winner) == ({"Ana": 94, "Ben": 100}, "Ben")
    assert two.hands[-1].points == {"Ana": 0, "Ben": 2}  # Ben's spinner takes him from 98 to 100
    assert (three.totals, three.winner) == ({"Ana": 100, "Ben": 92, "Cleo": 95}, "Ana")
    assert [h.end for h in three.hands].count("block") == 1
    assert (four.totals, four.winner) == ({"Ana": 79, "Ben": 84, "Cleo": 83, "Dev": 100}, "Dev")
    assert [
        e["options"]
        for e in map(json.loads, (REPLAYS / "double-bergen-simulated.jsonl").read_text().splitlines())
        if e["type"] == "match_start" and "options" in e
    ] == [{"reserve": 2}]


def test_replay_tabletop_hidden_scores_like_the_full_match():
    (r,) = replay("double-bergen-tabletop-hidden.jsonl")
    full = verify(simulate_match(DB, 12, 0, list(FOUR)))
    assert r.valid and r.complete and r.match_id == "club-2026-11-22-bergen"
    assert [h.as_dict() for h in r.hands] == [h.as_dict() for h in full.hands]
    assert (
        (r.totals, r.winner) == (full.totals, full.winner) == ({"Ana": 86, "Ben": 93, "Cleo": 101, "Dev": 87}, "Cleo")
    )
    # what stays unverified: whether a hidden player who drew or passed could have played
    assert r.unverified and {u.code for u in r.unverified} == {"renege"}


def test_replay_disputed_flags_the_opening_pass_the_early_arm_and_the_plus_one():
    (r,) = replay("double-bergen-disputed.jsonl")
    assert [(v.line, v.seq, v.code) for v in r.violations] == [
        (29, 29, "renege"),
        (34, 34, "illegal"),
        (279, 279, "score-mismatch"),
        (279, 279, "score-mismatch"),
    ]
    messages = [v.message for v in r.violations]
    assert messages[0] == "Ben passes while holding a legal play (5-5, 6-6 can be played)"
    assert messages[1] == "1-2:S is played on before all four sides of the spinner (D4)"
    assert messages[2] == "hand 10 (target): claimed Ana 4, Ben 7, Cleo 2; the rules give Ana 4, Ben 6, Cleo 2"
    assert messages[3] == "hand 10 (target): claimed winner Ben; the rules give no winner"
    assert r.complete and r.unverified == []
    assert (r.totals, r.winner) == ({"Ana": 93, "Ben": 100, "Cleo": 79}, "Ben")


def test_an_open_hand_holding_no_playable_tile_is_known_as_the_judge_knows_it() -> None:
    """The draw's shortcut (an open hand, a disjoint test) says "kept" exactly when the judge does."""
    rng = random.Random(39)
    seen = {True: 0, False: 0}
    for _ in range(600):
        known = frozenset(rng.sample(DOUBLE_SIX, rng.randint(0, 9)))
        judge = judge_holds(frozenset(rng.sample(DOUBLE_SIX, rng.randint(0, 8))))
        fast = open_without_any(Holding(set(known)), judge)
        assert fast == (judge(known, known, len(known))[0] is False), sorted(map(str, known))
        seen[fast] += 1
    assert seen[True] > 100 and seen[False] > 100
    assert open_without_any(Holding(set(), 1), judge_holds(frozenset({Tile(3, 5)}))) is False  # hidden: judged
    assert open_without_any(Holding(set()), judge_not(judge_holds(frozenset({Tile(3, 5)})))) is False  # not HoldsOne
