"""Every ruling of Brettspielnetz Domino (B1-B7) with exact penalties, winners, ends and violation seqs.

The hands are built by hand (seeds/brettspielnetz.md, section 14, works through them):

- STOCK: start 4-6, Ana leads; ends in a stock-out at Ben's draw (seq 18): Ana 53, Ben 68.
- DOMINO: start 0-1; the leader plays all seven tiles (seq 15); the other keeps 1-4 (10 with the +5).
- EQUAL: start 4-6; a stock-out at Ana's draw (seq 21) with 52 pips each: no winner.
- PLAYOUT: start 2-5; Ben's last drawn tile is played (seq 21) and Ana, on move with 2 tiles left,
  cannot play: a stock-out at a play. Ana 54, Ben 72.

Seq numbers are those of the log: match_start is 1, the first deal 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from dominolog.log.reader import iter_matches
from dominolog.reducer import verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import Likelihood
from dominolog.tiles import Tile
from tests.helpers import codes, deal, fold, hand_end, pass_, play, rest, run, tiles, to_bytes

V = "brettspielnetz"


def draw(player: str, tile: str | None) -> dict[str, Any]:
    return {"type": "draw", "player": player, "tile": tile}


def reveal(player: str, shown: list[str]) -> dict[str, Any]:
    return {"type": "reveal", "player": player, "tiles": shown}


def bsn(events: list[dict[str, Any]], **kw: Any):
    return run(events, variant=V, **kw)


def bfold(events: list[dict[str, Any]], **kw: Any):
    return fold(events, variant=V, **kw)


def unverified(report) -> list[tuple[int, str]]:
    return [(u.seq, u.code) for u in report.unverified]


def hand_dict(report, n: int = 0) -> dict[str, Any]:
    return report.hands[n].as_dict()


def unseen(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same events with every drawn tile unseen by the recorder."""
    return [draw(e["player"], None) if e["type"] == "draw" else e for e in events]


# -- the hands -----------------------------------------------------------------------

STOCK_START = "4-6"
STOCK_ANA = tiles("0-2 1-1 1-3 2-2 2-5 3-3 3-5")  # no 4, no 6: Ana cannot open
STOCK_BEN = tiles("0-1 0-6 1-2 1-5 1-6 4-4 5-6")
STOCK_BONE = rest(STOCK_ANA, STOCK_BEN, [STOCK_START])
STOCK_TURNS = [
    draw("Ana", "5-5"),  # 3
    draw("Ana", "2-3"),  # 4
    draw("Ana", "0-0"),  # 5: three draws, none fits 4 or 6
    pass_("Ana"),  # 6
    play("Ben", "4-4", "left"),  # 7   [4|4][4|6]
    draw("Ana", "0-5"),  # 8
    draw("Ana", "0-3"),  # 9
    draw("Ana", "3-6"),  # 10: fits the 6
    play("Ana", "3-6", "right"),  # 11  [4|4][4|6][6|3]
    draw("Ben", "2-6"),  # 12
    draw("Ben", "6-6"),  # 13
    draw("Ben", "0-4"),  # 14: fits the 4
    play("Ben", "0-4", "left"),  # 15  [0|4][4|4][4|6][6|3]
    play("Ana", "0-3", "left"),  # 16  [3|0][0|4][4|4][4|6][6|3]: both ends 3
    draw("Ben", "1-4"),  # 17: 3 left
    draw("Ben", "4-5"),  # 18: 2 left, Ben cannot play: stock-out
]
STOCK_LEFT = {
    "Ana": tiles("0-0 0-2 0-5 1-1 1-3 2-2 2-3 2-5 3-3 3-5 5-5"),  # 53
    "Ben": tiles("0-1 0-6 1-2 1-4 1-5 1-6 2-6 4-5 5-6 6-6"),  # 68
}
STOCK_POINTS = {"Ana": 53, "Ben": 68}


def stock_deal(leader: str = "Ana", hands: Any = ..., start: str = STOCK_START) -> dict[str, Any]:
    return deal(leader, {"Ana": STOCK_ANA, "Ben": STOCK_BEN} if hands is ... else hands, start_tile=start)


def stock_hand() -> list[dict[str, Any]]:
    return [stock_deal(), *STOCK_TURNS]


DOMINO_START = "0-1"
DOMINO_LEAD = tiles("1-2 2-3 3-4 4-5 5-6 6-6 0-6")  # all on the right end
DOMINO_OTHER = tiles("0-3 3-5 5-5 2-5 2-4 4-4")  # all on the left end, plus one tile kept


def domino_hand(leader: str = "Ana", other: str = "Ben", kept: str = "1-4", hidden: bool = False):
    """Deal (seq n) and 13 plays; the leader places the last tile at seq n + 13."""
    hands = None if hidden else {leader: DOMINO_LEAD, other: [*DOMINO_OTHER, kept]}
    events = [deal(leader, hands, start_tile=DOMINO_START)]
    for mine, theirs in zip(DOMINO_LEAD, [*DOMINO_OTHER, None], strict=True):
        events.append(play(leader, mine, "right"))
        if theirs is not None:
            events.append(play(other, theirs, "left"))
    return events


EQUAL_ANA = tiles("1-1 1-4 1-5 1-6 4-5 5-6 6-6")
EQUAL_BEN = tiles("0-2 1-2 1-3 2-2 3-3 4-4 5-5")
EQUAL_TURNS = [
    play("Ana", "5-6", "right"),  # 3   [4|6][6|5]
    play("Ben", "4-4", "left"),  # 4   [4|4][4|6][6|5]
    play("Ana", "4-5", "right"),  # 5   ...[5|4]
    draw("Ben", "0-3"),  # 6
    draw("Ben", "0-0"),  # 7
    draw("Ben", "0-6"),  # 8
    pass_("Ben"),  # 9
    play("Ana", "1-4", "left"),  # 10  [1|4]...
    play("Ben", "1-3", "left"),  # 11  [3|1]...
    draw("Ana", "2-6"),  # 12
    draw("Ana", "2-5"),  # 13
    draw("Ana", "3-4"),  # 14
    play("Ana", "3-4", "left"),  # 15  [4|3]...: ends 4 and 4
    draw("Ben", "0-5"),  # 16
    draw("Ben", "2-3"),  # 17
    draw("Ben", "3-5"),  # 18
    pass_("Ben"),  # 19
    draw("Ana", "0-1"),  # 20
    draw("Ana", "3-6"),  # 21: 2 left, Ana cannot play: stock-out
]


def equal_hand() -> list[dict[str, Any]]:
    return [deal("Ana", {"Ana": EQUAL_ANA, "Ben": EQUAL_BEN}, start_tile="4-6"), *EQUAL_TURNS]


PLAYOUT_ANA = tiles("0-5 1-2 1-5 2-3 3-5 3-6 5-5")
PLAYOUT_BEN = tiles("0-0 0-3 0-4 2-2 3-4 4-4 4-6")
PLAYOUT_TURNS = [
    play("Ana", "1-2", "left"),  # 3   [1|2][2|5]
    draw("Ben", "0-2"),  # 4
    draw("Ben", "2-4"),  # 5
    draw("Ben", "6-6"),  # 6
    pass_("Ben"),  # 7
    play("Ana", "1-5", "right"),  # 8   [1|2][2|5][5|1]
    draw("Ben", "2-6"),  # 9
    draw("Ben", "4-5"),  # 10
    draw("Ben", "0-6"),  # 11
    pass_("Ben"),  # 12
    draw("Ana", "1-3"),  # 13
    play("Ana", "1-3", "left"),  # 14  [3|1]...
    play("Ben", "3-4", "left"),  # 15  [4|3]...
    draw("Ana", "5-6"),  # 16
    draw("Ana", "3-3"),  # 17
    draw("Ana", "1-4"),  # 18
    play("Ana", "1-4", "left"),  # 19  [1|4]...
    draw("Ben", "1-1"),  # 20: 2 left, and it fits
    play("Ben", "1-1", "left"),  # 21  [1|1]...: ends 1 and 1; Ana holds no 1
]


def playout_hand() -> list[dict[str, Any]]:
    return [deal("Ana", {"Ana": PLAYOUT_ANA, "Ben": PLAYOUT_BEN}, start_tile="2-5"), *PLAYOUT_TURNS]


# -- common rulings, as this variant uses them -------------------------------------------


def test_ruling_C2_brettspielnetz_start_tile_is_the_first_tile_of_the_line():
    hand = bfold([stock_deal(start="6-4")]).state.hand
    assert hand.layout.ends() == {"left": 6, "right": 4} and hand.layout.render() == "[6|4]"
    hand = bfold(stock_hand()[:6]).state.hand  # Ben's 4-4 on the left of [4|6]
    assert hand.layout.render() == "[4|4][4|6]" and hand.layout.ends() == {"left": 4, "right": 6}


def test_ruling_C3_brettspielnetz_renege_then_play_goes_on():
    events = [*stock_hand()[:5], draw("Ben", "2-6"), play("Ben", "4-4", "left"), draw("Ana", "0-5")]
    report = bsn(events)
    assert codes(report) == [(7, "renege")]
    assert report.violations[0].message == "Ben draws while holding a legal play (0-6, 1-6, 4-4, 5-6 fit)"
    hand = bfold(events).state.hand
    assert Tile.parse("2-6") in hand.holdings["Ben"].known and hand.turn == "Ana"


# -- B1: players, hands, deal ---------------------------------------------------------------


def test_ruling_B1_seven_tiles_each_start_tile_and_thirteen_in_the_boneyard():
    assert len(STOCK_BONE) == 13
    report = bsn([stock_deal()])
    assert codes(report) == []
    hand = bfold([stock_deal()]).state.hand
    assert hand.boneyard.count == 13 and {p: h.count for p, h in hand.holdings.items()} == {"Ana": 7, "Ben": 7}
    assert {str(t) for t in hand.boneyard.known} == set(STOCK_BONE)


def test_ruling_B1_wrong_hand_sizes_are_a_bad_deal():
    short = bsn([stock_deal(hands={"Ana": STOCK_ANA[:6], "Ben": STOCK_BEN})])
    assert codes(short) == [(2, "bad-deal")]
    assert short.violations[0].message == "Ana is dealt 6 tiles, not 7"
    long = bsn([stock_deal(hands={"Ana": STOCK_ANA, "Ben": [*STOCK_BEN, "6-6"]})])
    assert codes(long) == [(2, "bad-deal")]
    assert long.violations[0].message == "Ben is dealt 8 tiles, not 7"
    twice = bsn([stock_deal(hands={"Ana": STOCK_ANA, "Ben": [*STOCK_BEN[:6], "3-5"]})])
    assert codes(twice) == [(2, "bad-deal")] and "3-5 is dealt twice" in twice.violations[0].message
    dealt = bsn([stock_deal(start="4-4")])  # Ben holds 4-4: a double, and dealt to a player
    assert codes(dealt) == [(2, "bad-deal"), (2, "bad-deal")]
    no_start = bsn([deal("Ana", {"Ana": STOCK_ANA, "Ben": STOCK_BEN})])
    assert codes(no_start) == [(2, "bad-deal")] and "no start tile" in no_start.violations[0].message


def test_ruling_B1_a_double_start_tile_is_a_bad_deal():
    report = bsn([stock_deal(start="6-6"), draw("Ana", "2-3")])
    assert codes(report) == [(2, "bad-deal")]
    assert report.violations[0].message == "the start tile 6-6 is a double; it never may be"
    # the table's start tile stands: Ana, with no 6, may draw
    assert bfold([stock_deal(start="6-6")]).state.hand.layout.ends() == {"left": 6, "right": 6}


def test_ruling_B1_two_players_and_options():
    assert codes(bsn([], players=("Ana", "Ben", "Cleo"))) == [(1, "malformed")]
    for bad in ({"hands": 0}, {"hands": None}, {"draw_limit": 0}, {"draw_limit": True}, {"target": 100}):
        assert codes(bsn([], options=bad)) == [(1, "malformed")], bad


def test_ruling_B1_option_hands_sets_the_length_of_the_match():
    events = [
        *domino_hand("Ana", "Ben"),
        hand_end({"Ana": 0, "Ben": 10}, "Ana"),  # 16
        *domino_hand("Ben", "Ana"),
        hand_end({"Ana": 10, "Ben": 0}, "Ben"),  # 31
    ]
    two = bsn([*events, {"type": "match_end", "totals": {"Ana": 10, "Ben": 10}, "winner": None}], options={"hands": 2})
    assert codes(two) == [] and two.complete and two.winner is None
    assert two.totals == {"Ana": 10, "Ben": 10}
    # by default a match is 4 hands: ending after 2 is too early
    early = bsn([*events, {"type": "match_end"}])
    assert codes(early) == [(32, "out-of-order")] and "too early" in early.violations[0].message
    # a third deal after the 2-hand match is over is not counted
    more = bsn([*events, *domino_hand("Ana", "Ben"), hand_end()], options={"hands": 2})
    assert codes(more) == [(32, "out-of-order")] and len(more.hands) == 2


# -- B2: first player -------------------------------------------------------------------


def test_ruling_B2_first_player_is_named_in_the_deal():
    report = bsn([stock_deal("Ben"), play("Ben", "4-4", "left")])
    assert codes(report) == []
    report = bsn([stock_deal("Ben"), draw("Ana", "5-5")])
    assert codes(report) == [(3, "illegal")]
    assert report.violations[0].message == "not Ana's turn (Ben is on move)"


def test_ruling_B2_first_player_alternates_every_hand():
    hand1 = [*domino_hand("Ana", "Ben"), hand_end({"Ana": 0, "Ben": 10}, "Ana")]
    # Ana won hand 1, but Ben leads hand 2 (it alternates; the winner does not lead)
    right = bsn([*hand1, *domino_hand("Ben", "Ana"), hand_end({"Ana": 10, "Ben": 0}, "Ben")])
    assert codes(right) == []
    wrong = bsn([*hand1, *domino_hand("Ana", "Ben"), hand_end({"Ana": 0, "Ben": 10}, "Ana")])
    assert codes(wrong) == [(17, "bad-deal")]
    assert wrong.violations[0].message == "Ana leads hand 2, but Ben should lead it"
    # the alternation goes on from the leader as recorded: after Ana's wrong lead, Ben leads hand 3
    wrong2 = [*hand1, *domino_hand("Ana", "Ben"), hand_end({"Ana": 0, "Ben": 10}, "Ana")]
    assert codes(bsn([*wrong2, *domino_hand("Ben", "Ana")])) == [(17, "bad-deal")]
    # hand 1 led by Ben: Ana leads hand 2, Ben hand 3
    ben_first = [*domino_hand("Ben", "Ana"), hand_end({"Ana": 10, "Ben": 0}, "Ben")]
    hand2 = [*domino_hand("Ana", "Ben"), hand_end({"Ana": 0, "Ben": 10}, "Ana")]
    assert codes(bsn([*ben_first, *hand2, *domino_hand("Ben", "Ana")])) == []
    late = bsn([*ben_first, *hand2, *domino_hand("Ana", "Ben")])
    assert codes(late) == [(32, "bad-deal")] and "Ben should lead it" in late.violations[0].message


# -- B3: play or draw ----------------------------------------------------------------------


def test_ruling_B3_draw_one_at_a_time_until_a_playable_tile_then_play_it():
    events = [*stock_hand()[:10]]  # up to Ana's 3-6 on the right at seq 11
    assert codes(bsn(events)) == []
    hand = bfold(events).state.hand
    assert hand.boneyard.count == 7 and hand.layout.ends() == {"left": 4, "right": 3}
    assert hand.holdings["Ana"].count == 12 and hand.turn == "Ben" and hand.turn_draws == 0
    # the first playable tile must be played: drawing on is a renege
    report = bsn([stock_deal(), draw("Ana", "5-5"), draw("Ana", "3-6"), draw("Ana", "0-0")])
    assert codes(report) == [(5, "renege")]
    assert report.violations[0].message == "Ana draws while holding a legal play (3-6 fits)"
    # and passing on it, once no draw is left, is a renege too
    report = bsn([stock_deal(), draw("Ana", "5-5"), draw("Ana", "2-3"), draw("Ana", "3-6"), pass_("Ana")])
    assert codes(report) == [(6, "renege")]


def test_ruling_B3_draw_limit_3_then_pass():
    events = stock_hand()[:5]  # three unplayable draws, then a pass
    assert codes(bsn(events)) == []
    hand = bfold(events).state.hand
    assert hand.turn == "Ben" and hand.turn_draws == 0 and hand.boneyard.count == 10
    assert hand.holdings["Ana"].count == 10


def test_ruling_B3_a_4th_draw_is_illegal_but_stands():
    events = [stock_deal(), draw("Ana", "5-5"), draw("Ana", "2-3"), draw("Ana", "0-0"), draw("Ana", "0-5")]
    report = bsn([*events, pass_("Ana")])
    assert codes(report) == [(6, "illegal")]
    assert report.violations[0].message == "Ana draws a 4th tile this turn; the limit is 3"
    hand = bfold(events).state.hand  # the table's draw is applied
    assert Tile.parse("0-5") in hand.holdings["Ana"].known and hand.boneyard.count == 9
    # draws 4, 5 and 6 of one turn are each illegal; the play of the 6th stands
    longer = [*events, draw("Ana", "0-3"), draw("Ana", "3-6"), play("Ana", "3-6", "right")]
    assert codes(bsn(longer)) == [(6, "illegal"), (7, "illegal"), (8, "illegal")]


def test_ruling_B3_draw_limit_null_is_the_rule_before_2010():
    events = [
        stock_deal(),
        *[draw("Ana", t) for t in ("5-5", "2-3", "0-0", "0-5", "0-3", "3-6")],
        play("Ana", "3-6", "right"),  # 9
    ]
    assert codes(bsn(events, options={"draw_limit": None})) == []
    # without a limit, a pass while the boneyard has more than 2 tiles is never allowed
    report = bsn(stock_hand()[:5], options={"draw_limit": None})
    assert codes(report) == [(6, "illegal")]
    assert report.violations[0].message == (
        "Ana passes after 3 draws while a draw is still allowed, with 10 tiles in the boneyard (no tile fits)"
    )
    # and another limit may be set
    assert codes(bsn([stock_deal(), draw("Ana", "5-5"), pass_("Ana")], options={"draw_limit": 1})) == []
    assert codes(bsn([stock_deal(), draw("Ana", "5-5"), draw("Ana", "2-3")], options={"draw_limit": 1})) == [
        (4, "illegal")
    ]


def test_ruling_B3_a_draw_while_holding_a_legal_play_is_a_renege():
    report = bsn([*stock_hand()[:5], draw("Ben", "2-6")])
    assert codes(report) == [(7, "renege")]
    assert report.violations[0].message == "Ben draws while holding a legal play (0-6, 1-6, 4-4, 5-6 fit)"


def test_ruling_B3_an_out_of_turn_draw_does_not_count_for_the_player_on_move():
    # Ben draws while Ana is on move (illegal, and a renege: he holds 4-4); Ana's own three
    # draws are still within her limit, and her pass after them is clean
    events = [stock_deal(), draw("Ben", "5-5"), draw("Ana", "2-3"), draw("Ana", "0-0"), draw("Ana", "0-5")]
    report = bsn([*events, pass_("Ana")])
    assert codes(report) == [(3, "illegal"), (3, "renege")]
    assert report.violations[0].message == "not Ben's turn (Ana is on move)"
    # nor is Ben's out-of-turn draw measured against Ana's limit
    report = bsn([stock_deal(), draw("Ana", "5-5"), draw("Ana", "2-3"), draw("Ana", "0-0"), draw("Ben", "0-5")])
    assert codes(report) == [(6, "illegal"), (6, "renege")]
    assert report.violations[0].message == "not Ben's turn (Ana is on move)"


def test_ruling_B3_no_draw_when_2_tiles_remain():
    events = [
        *stock_hand()[:16],  # up to Ben's draw of 1-4 at seq 17: 3 left
        draw("Ben", "3-4"),  # 18: 2 left, and it fits the 3
        play("Ben", "3-4", "right"),  # 19: ends 3 and 4; Ana holds 3s, the hand goes on
        draw("Ana", "2-4"),  # 20: no draw at 2 (and Ana could play)
    ]
    report = bsn(events)
    assert codes(report) == [(20, "illegal"), (20, "renege")]
    assert report.violations[0].message == "Ana draws with 2 tiles left; none may be drawn at 2"
    hand = bfold(events).state.hand  # the table's draw stands
    assert hand.boneyard.count == 1 and Tile.parse("2-4") in hand.holdings["Ana"].known and hand.over is None


# -- B4: pass, and the stock-out -----------------------------------------------------------


def test_ruling_B4_pass_after_three_unplayable_draws_is_fine():
    report = bsn([*stock_hand()[:6]])  # ... pass (6), Ben 4-4 (7)
    assert codes(report) == []
    assert bfold(stock_hand()[:5]).state.hand.turn == "Ben"


def test_ruling_B4_a_pass_while_a_draw_is_still_allowed_is_illegal():
    report = bsn([stock_deal(), pass_("Ana"), play("Ben", "4-4", "left")])
    assert codes(report) == [(3, "illegal")]
    assert report.violations[0].message == (
        "Ana passes after 0 draws while a draw is still allowed, with 13 tiles in the boneyard (no tile fits)"
    )
    report = bsn([stock_deal(), draw("Ana", "5-5"), draw("Ana", "2-3"), pass_("Ana"), play("Ben", "4-4", "left")])
    assert codes(report) == [(5, "illegal")] and "after 2 draws" in report.violations[0].message


def test_ruling_B4_a_pass_holding_a_fitting_tile_with_draws_left_is_a_renege_only():
    # Ana passes at seq 16 holding 3-5 (and 0-3, ...) that fit, with 4 tiles in the boneyard: she had to
    # play, so no draw was allowed (B3): the pass is a renege, not also "a pass while a draw is allowed"
    events = [*stock_hand()[:14], pass_("Ana")]
    report = bsn(events)
    assert codes(report) == [(16, "renege")]
    assert report.violations[0].message.startswith("Ana passes while holding a legal play (")


def test_ruling_B4_stock_out_at_2_tiles_ends_the_hand_at_once():
    reducer = bfold(stock_hand())
    hand = reducer.state.hand
    assert (hand.over, hand.over_seq) == ("stock-out", 18) and hand.boneyard.count == 2
    assert not any(kind == "pass" and seq > 6 for seq, _, kind in hand.actions)  # no pass recorded
    report = bsn([*stock_hand(), hand_end(STOCK_POINTS, "Ana")])
    assert codes(report) == [] and hand_dict(report)["end"] == "stock-out"
    # after it, only reveal, note and hand_end: anything else is out of order
    after = [pass_("Ben"), draw("Ben", "2-4"), play("Ana", "3-3", "left"), {"type": "note", "text": "stock-out"}]
    report = bsn([*stock_hand(), *after, hand_end(STOCK_POINTS, "Ana")])
    assert codes(report) == [(19, "out-of-order"), (20, "out-of-order"), (21, "out-of-order")]
    assert report.violations[0].message == "pass after hand 1 was over (stock-out at seq 18); ignored"
    assert report.hands[0].points == STOCK_POINTS


def test_ruling_B4_player_on_move_who_cannot_play_with_2_left_ends_the_hand():
    # Ben draws the last tile but two (seq 20), it fits and he plays it (21): Ana, on move with
    # 2 tiles left and no 1, ends the hand at that play
    hand = bfold(playout_hand()).state.hand
    assert (hand.over, hand.over_seq, hand.turn) == ("stock-out", 21, "Ana")
    report = bsn([*playout_hand(), hand_end({"Ana": 54, "Ben": 72}, "Ana")])
    assert codes(report) == []
    assert hand_dict(report) == {
        "number": 1,
        "end": "stock-out",
        "winner": "Ana",
        "points": {"Ana": 54, "Ben": 72},
        "pips": {"Ana": 54, "Ben": 72},
    }
    # before that play, Ben could play: his drawn 1-1 kept the hand going
    assert bfold(playout_hand()[:-1]).state.hand.over is None


def test_ruling_B4_hand_end_before_the_stock_out_is_out_of_order():
    report = bsn([*stock_hand()[:-1], hand_end()])  # 3 tiles left: not over
    assert codes(report) == [(18, "out-of-order")]
    assert hand_dict(report) == {"number": 1, "end": "abandoned", "winner": None, "points": {"Ana": 0, "Ben": 0}}


# -- B5: domino -----------------------------------------------------------------------------


def test_ruling_B5_domino_ends_the_hand():
    hand = bfold(domino_hand()).state.hand
    assert (hand.over, hand.over_seq) == ("domino", 15) and hand.holdings["Ana"].count == 0
    assert hand.boneyard.count == 13  # no tile was drawn
    report = bsn([*domino_hand(), play("Ben", "1-4", "left"), hand_end({"Ana": 0, "Ben": 10}, "Ana")])
    assert codes(report) == [(16, "out-of-order")]
    assert hand_dict(report)["end"] == "domino"


# -- B6: penalties --------------------------------------------------------------------------


def test_ruling_B6_domino_penalty_is_pips_left_plus_5():
    report = bsn([*domino_hand(), hand_end({"Ana": 0, "Ben": 10}, "Ana")])
    assert codes(report) == []
    assert hand_dict(report) == {
        "number": 1,
        "end": "domino",
        "winner": "Ana",
        "points": {"Ana": 0, "Ben": 10},
        "pips": {"Ana": 0, "Ben": 5},
    }
    # a kept 0-0 is worth 0 pips, and still costs the 5
    zero = bsn([*domino_hand(kept="0-0"), hand_end({"Ana": 0, "Ben": 5}, "Ana")])
    assert codes(zero) == [] and zero.hands[0].points == {"Ana": 0, "Ben": 5}
    # forgetting the 5 is a score-mismatch at the hand_end
    report = bsn([*domino_hand(), hand_end({"Ana": 0, "Ben": 5}, "Ana")])
    assert codes(report) == [(16, "score-mismatch")]
    assert report.violations[0].message == "hand 1 (domino): claimed Ana 0, Ben 5; the rules give Ana 0, Ben 10"


def test_ruling_B6_stock_out_penalty_is_pips_left_and_lower_wins():
    report = bsn([*stock_hand(), hand_end(STOCK_POINTS, "Ana")])
    assert codes(report) == []
    assert hand_dict(report) == {
        "number": 1,
        "end": "stock-out",
        "winner": "Ana",
        "points": STOCK_POINTS,
        "pips": STOCK_POINTS,
    }
    assert sum(Tile.parse(t).pips for t in STOCK_LEFT["Ana"]) == 53
    assert sum(Tile.parse(t).pips for t in STOCK_LEFT["Ben"]) == 68
    # no +5 after a stock-out, and the higher penalty does not win
    report = bsn([*stock_hand(), hand_end({"Ana": 53, "Ben": 73}, "Ben")])
    assert codes(report) == [(19, "score-mismatch"), (19, "score-mismatch")]
    assert report.violations[1].message == "hand 1 (stock-out): claimed winner Ben; the rules give Ana"


def test_ruling_B6_equal_penalties_no_winner():
    hand = bfold(equal_hand()).state.hand
    assert (hand.over, hand.over_seq) == ("stock-out", 21)
    report = bsn([*equal_hand(), hand_end({"Ana": 52, "Ben": 52}, None)])
    assert codes(report) == []
    assert hand_dict(report) == {
        "number": 1,
        "end": "stock-out",
        "winner": None,
        "points": {"Ana": 52, "Ben": 52},
        "pips": {"Ana": 52, "Ben": 52},
    }
    report = bsn([*equal_hand(), hand_end({"Ana": 52, "Ben": 52}, "Ana")])
    assert codes(report) == [(22, "score-mismatch")]
    assert report.violations[0].message.endswith("claimed winner Ana; the rules give no winner")


# -- B7: the match --------------------------------------------------------------------------

ME = "match_end"


def four_hands() -> list[dict[str, Any]]:
    """Ana out (Ben 10), Ben out (Ana 10), Ana out with Ben keeping 0-0 (Ben 5), Ben out (Ana 10)."""
    return [
        *domino_hand("Ana", "Ben"),
        hand_end({"Ana": 0, "Ben": 10}, "Ana"),  # 16
        *domino_hand("Ben", "Ana"),
        hand_end({"Ana": 10, "Ben": 0}, "Ben"),  # 31
        *domino_hand("Ana", "Ben", kept="0-0"),
        hand_end({"Ana": 0, "Ben": 5}, "Ana"),  # 46
        *domino_hand("Ben", "Ana"),
        hand_end({"Ana": 10, "Ben": 0}, "Ben"),  # 61
    ]


def test_ruling_B7_four_hands_lower_total_wins():
    report = bsn([*four_hands(), {"type": ME, "totals": {"Ana": 20, "Ben": 15}, "winner": "Ben"}])
    assert codes(report) == [] and report.complete
    assert [(h.end, h.winner) for h in report.hands] == [("domino", "Ana"), ("domino", "Ben")] * 2
    assert report.totals == {"Ana": 20, "Ben": 15} and report.winner == "Ben"


def test_ruling_B7_equal_totals_draw():
    events = []
    for lead, other in (("Ana", "Ben"), ("Ben", "Ana")) * 2:
        events += [*domino_hand(lead, other), hand_end({lead: 0, other: 10}, lead)]
    report = bsn([*events, {"type": ME, "totals": {"Ana": 20, "Ben": 20}, "winner": None}])
    assert codes(report) == [] and report.totals == {"Ana": 20, "Ben": 20} and report.winner is None
    report = bsn([*events, {"type": ME, "winner": "Ana"}])
    assert codes(report) == [(62, "score-mismatch")]


def test_ruling_B7_claims_that_differ_are_score_mismatches():
    events = four_hands()
    events[14] = hand_end({"Ana": 10, "Ben": 0}, "Ben")  # hand 1 claimed the wrong way round
    report = bsn([*events, {"type": ME, "totals": {"Ana": 20, "Ben": 15}, "winner": "Ana"}])  # higher "wins"
    assert codes(report) == [(16, "score-mismatch"), (16, "score-mismatch"), (62, "score-mismatch")]
    assert report.violations[2].message == "match: claimed winner Ana; the rules give Ben"
    assert report.totals == {"Ana": 20, "Ben": 15} and report.winner == "Ben"  # the rules, not the claims
    report = bsn([*four_hands(), {"type": ME, "totals": {"Ana": 20, "Ben": 25}, "winner": "Ben"}])
    assert codes(report) == [(62, "score-mismatch")]
    assert report.violations[0].message == "match: claimed Ana 20, Ben 25; the rules give Ana 20, Ben 15"


def test_ruling_B7_match_over_after_the_last_hand():
    report = bsn([*four_hands()[:-15], {"type": ME}])  # three hands
    assert codes(report) == [(47, "out-of-order")] and report.winner is None
    report = bsn([*four_hands(), *domino_hand("Ana", "Ben"), hand_end(), {"type": ME}])
    assert codes(report) == [(62, "out-of-order")] and len(report.hands) == 4 and report.winner == "Ben"
    # a hand closed before its end (abandoned, no points) still counts as one of the four
    short = [*domino_hand("Ana", "Ben")[:3], hand_end()]  # hand_end at seq 5
    for lead, other in (("Ben", "Ana"), ("Ana", "Ben"), ("Ben", "Ana")):
        short += [*domino_hand(lead, other), hand_end()]
    report = bsn([*short, {"type": ME, "totals": {"Ana": 20, "Ben": 10}, "winner": "Ben"}])
    assert codes(report) == [(5, "out-of-order")]
    assert [h.end for h in report.hands] == ["abandoned", "domino", "domino", "domino"] and report.winner == "Ben"
    abandoned = bsn([*four_hands()[:-15], *domino_hand("Ben", "Ana")[:5], {"type": ME, "reason": "abandoned"}])
    assert codes(abandoned) == [] and abandoned.winner is None
    assert hand_dict(abandoned, 3) == {"number": 4, "end": "abandoned", "winner": None, "points": {"Ana": 0, "Ben": 0}}


# -- hidden information ---------------------------------------------------------------------


def _reveals(left: dict[str, list[str]], who=("Ana", "Ben")) -> list[dict[str, Any]]:
    return [reveal(p, left[p]) for p in who]


def test_hidden_hand_full_and_hidden_recordings_give_the_same_result():
    full = bsn([*stock_hand(), hand_end(STOCK_POINTS, "Ana")])
    recordings = {
        "hands hidden, draws seen": [stock_deal(hands=None), *STOCK_TURNS, *_reveals(STOCK_LEFT)],
        "hands hidden, draws unseen": [stock_deal(hands=None), *unseen(STOCK_TURNS), *_reveals(STOCK_LEFT)],
        "only Ana's hand known": [
            stock_deal(hands={"Ana": STOCK_ANA, "Ben": None}),
            *STOCK_TURNS,
            *_reveals(STOCK_LEFT, ("Ben",)),
        ],
    }
    for name, events in recordings.items():
        report = bsn([*events, hand_end(STOCK_POINTS, "Ana")])
        assert codes(report) == [], name
        assert [h.as_dict() for h in report.hands] == [h.as_dict() for h in full.hands], name
        assert report.totals == full.totals == STOCK_POINTS
    # seen draws: the reveals give the deal and the hand is replayed from it; nothing is left open
    assert unverified(bsn([*recordings["hands hidden, draws seen"], hand_end()])) == []
    # the domino, recorded hidden
    events = [*domino_hand(hidden=True), reveal("Ana", []), reveal("Ben", ["1-4"]), hand_end()]
    report = bsn(events)
    assert codes(report) == [] and unverified(report) == []
    assert hand_dict(report) == hand_dict(bsn([*domino_hand(), hand_end()]))


def test_hidden_hand_only_one_hand_known_checks_that_hand_at_once():
    # a boneyard game: Ana's known hand says nothing of Ben's
    report = bsn([stock_deal(hands={"Ana": STOCK_ANA, "Ben": None}), pass_("Ana"), draw("Ben", None)])
    assert codes(report) == [(3, "illegal")]
    assert unverified(report) == [(4, "renege")]
    # an open hand is judged on its facts so far (issue 25): here they leave it open
    assert report.unverified[0].message.startswith("Ben draws; it turns on whether Ben held 0-4, ")
    assert report.unverified[0].message.endswith("(the hand is not over: its facts so far leave it open)")


def _renege_pass_hand() -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """STOCK up to seq 15, then Ana passes at 16 holding 3-5 (and 0-3, ...) and plays 3-5 at 18."""
    turns = [
        *STOCK_TURNS[:13],
        pass_("Ana"),  # 16: ends 0 and 3
        play("Ben", "0-6", "left"),  # 17: ends 6 and 3
        play("Ana", "3-5", "right"),  # 18: ends 6 and 5
        play("Ben", "5-6", "right"),  # 19: ends 6 and 6; Ana holds no 6
        draw("Ana", "1-4"),  # 20
        draw("Ana", "2-4"),  # 21: 2 left: stock-out
    ]
    left = {
        "Ana": tiles("0-0 0-2 0-3 0-5 1-1 1-3 1-4 2-2 2-3 2-4 2-5 3-3 5-5"),  # 59
        "Ben": tiles("0-1 1-2 1-5 1-6 2-6 6-6"),  # 37
    }
    return turns, left


def test_hidden_renege_pass_shown_by_the_reveals():
    turns, left = _renege_pass_hand()
    points = {"Ana": 59, "Ben": 37}
    full = bsn([stock_deal(), *turns, hand_end(points, "Ben")])
    assert codes(full) == [(16, "renege")]
    events = [stock_deal(hands=None), *unseen(turns)]
    before = bfold(events).report()
    # hidden, before the reveals: Ana played 3-5 at seq 18, so she held it at her pass (ends 0 and 3):
    # the plays alone prove the renege (issue 25), and so that the pass was no "pass while a draw was
    # allowed" (she had a legal play)
    assert codes(before) == [(16, "renege")]
    assert before.violations[0].message == "Ana passes while holding a legal play (shown by the log so far: 3-5 fits)"
    assert not {(16, "renege"), (16, "illegal")} & set(unverified(before))
    report = bsn([*events, *_reveals(left), hand_end(points, "Ben")])
    assert codes(report) == [(16, "renege")]
    assert report.violations[0].message == "Ana passes while holding a legal play (shown by the reveals: 3-5 fits)"
    # draws not seen leave open what Ana and Ben held at their earlier draws and Ana's first pass
    assert unverified(report) == [(s, "renege") for s in (3, 4, 5, 6, 8, 9, 10, 12, 13, 14)]
    assert all("draws not seen leave open which tiles were held then" in u.message for u in report.unverified)
    assert report.unverified[0].message.startswith("Ana draws; ")
    assert [h.as_dict() for h in report.hands] == [h.as_dict() for h in full.hands]
    assert hand_dict(report)["winner"] == "Ben" and report.totals == points
    # with the draws seen, the hand is replayed from the deal the reveals give: as with full information
    seen = bsn([stock_deal(hands=None), *turns, *_reveals(left), hand_end(points, "Ben")])
    assert codes(seen) == codes(full) and unverified(seen) == []


def test_hidden_stock_out_recorded_without_a_pass():
    events = [stock_deal(hands=None), *unseen(STOCK_TURNS)]
    assert bfold(events).state.hand.over is None  # hidden: Ben might hold a 3
    report = bsn([*events, *_reveals(STOCK_LEFT), hand_end(STOCK_POINTS, "Ana")])
    assert codes(report) == []
    assert hand_dict(report)["end"] == "stock-out" and report.hands[0].points == STOCK_POINTS
    assert hand_dict(report)["winner"] == "Ana"
    # never revealed: the claim is taken, and listed as unverified
    report = bsn([*events, hand_end(STOCK_POINTS, "Ana")])
    assert codes(report) == []
    assert unverified(report)[-2:] == [(19, "out-of-order"), (19, "score-mismatch")]
    assert (report.hands[0].end, report.hands[0].points, report.hands[0].winner) == ("stock-out", STOCK_POINTS, "Ana")


@pytest.mark.parametrize("draws_seen", [True, False])
def test_hidden_pass_at_2_tiles_records_the_stock_out(draws_seen):
    # the recorder writes what the table saw, Ben unable to play with 2 left, as a pass
    turns = STOCK_TURNS if draws_seen else unseen(STOCK_TURNS)
    events = [stock_deal(hands=None), *turns, pass_("Ben")]  # 19
    hand = bfold(events).state.hand
    assert hand.over == "stock-out"
    report = bsn([*events, *_reveals(STOCK_LEFT), hand_end(STOCK_POINTS, "Ana")])
    assert codes(report) == []
    assert hand_dict(report)["end"] == "stock-out" and report.totals == STOCK_POINTS
    # with full information the hand was over at the draw: the pass is out of order
    assert codes(bsn([*stock_hand(), pass_("Ben"), hand_end(STOCK_POINTS, "Ana")])) == [(19, "out-of-order")]
    # and one pass is the most the leniency takes
    second = bsn([*events, pass_("Ben"), *_reveals(STOCK_LEFT), hand_end(STOCK_POINTS, "Ana")])
    assert codes(second) == [(20, "out-of-order")]


@pytest.mark.parametrize("draws_seen", [True, False])
def test_hidden_pass_at_2_tiles_that_was_a_renege_still_ends_the_hand(draws_seen):
    # Ben's second draw, 3-4 (seq 18), fits the 3; the hidden record shows a pass (19) and the
    # table's end of the hand. The reveals prove the renege; the hand is scored as it stopped.
    turns = [*STOCK_TURNS[:15], draw("Ben", "3-4"), pass_("Ben")]
    left = {"Ana": STOCK_LEFT["Ana"], "Ben": tiles("0-1 0-6 1-2 1-4 1-5 1-6 2-6 3-4 5-6 6-6")}  # Ben 66
    turns = turns if draws_seen else unseen(turns)
    report = bsn([stock_deal(hands=None), *turns, *_reveals(left), hand_end({"Ana": 53, "Ben": 66}, "Ana")])
    assert codes(report) == [(19, "renege")]
    assert report.violations[0].message.startswith("Ben passes while holding a legal play (")
    assert "3-4 fit" in report.violations[0].message
    assert hand_dict(report) == {
        "number": 1,
        "end": "stock-out",
        "winner": "Ana",
        "points": {"Ana": 53, "Ben": 66},
        "pips": {"Ana": 53, "Ben": 66},
    }
    # with full information the hand is not over: Ben is still on move, a pass is only a renege
    full = [stock_deal(), *STOCK_TURNS[:15], draw("Ben", "3-4"), pass_("Ben"), play("Ana", "3-3", "left")]
    assert codes(bsn(full)) == [(19, "renege")] and bfold(full).state.hand.over is None


# -- simulated matches --------------------------------------------------------------------


def _verify(events: list[dict[str, Any]]):
    """Verify a whole match given with its match_start (a simulated one)."""
    (log,) = list(iter_matches("sim.jsonl", to_bytes(events)))
    return verify_match(log)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 7])
def test_simulated_matches_verify_clean_and_hidden_agrees(seed):
    events = simulate_match(V, seed)
    report = _verify(events)
    assert report.valid and report.complete and unverified(report) == []
    assert len(report.hands) == 4 and {h.end for h in report.hands} <= {"domino", "stock-out"}
    assert report.winner == (
        None if len(set(report.totals.values())) == 1 else min(report.totals, key=report.totals.get)
    )
    for viewer in (None, "Ana"):
        hidden = _verify(hide_match(events, viewer))
        assert hidden.valid and hidden.complete, viewer
        assert [h.as_dict() for h in hidden.hands] == [h.as_dict() for h in report.hands]
        assert hidden.totals == report.totals and hidden.winner == report.winner
        assert {code for _, code in unverified(hidden)} <= {"renege"}  # only draws/passes left open


def test_simulated_match_before_2010_rule():
    events = simulate_match(V, 5, options={"draw_limit": None})
    report = _verify(events)
    assert report.valid and len(report.hands) == 4
    assert any(e["type"] == "draw" for e in events)


def test_hidden_draw_how_likely_a_renege_by_hand():
    """The stock-out recorded hidden, draws unseen, both hands revealed. Ben's 12 tiles: 4-4 was
    dealt (played at seq 7, before his first draw); 0-4 (played at 15) was dealt or drawn at 12, 13
    or 14; the 10 revealed were dealt or drawn anywhere. A world: 0-4's place, the 6 other dealt
    tiles, the draws' order: 30,240 worlds with 0-4 dealt (C(10,5) x 5!), 15,120 with it drawn
    (3 x C(10,6) x 4!): 45,360. At seq 12 (ends 4 and 3) Ben drew; he held a tile that fits unless
    none of 0-4, 1-4 and 4-5 was dealt: 3 x C(8,6) x 4! = 2,016 worlds. A renege in 43,344 of
    45,360 (43/45)."""
    events = [stock_deal(hands=None), *unseen(STOCK_TURNS), *_reveals(STOCK_LEFT), hand_end(STOCK_POINTS, "Ana")]
    report = bsn(events)
    (at_12,) = [u for u in report.unverified if u.seq == 12]
    assert at_12.likelihood == Likelihood(43 / 45, True)
    assert at_12.message == (
        "Ben draws; it turns on whether Ben held 0-4, 1-4, 4-5 then: a renege in 96% of the hands the log allows "
        "(draws not seen leave open which tiles were held then)"
    )
