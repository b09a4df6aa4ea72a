"""Every ruling of Ghost 13 (C1-C5, G1-G10) with exact points, aggressors and violation seqs."""

from __future__ import annotations

import pytest

from dominolog.layouts.line import LineLayout
from dominolog.simulate import simulate_match
from dominolog.state import HandState, Holding
from dominolog.tiles import DOUBLE_SIX, SET_PIPS, Tile, TileError
from dominolog.variants import find_variant
from dominolog.variants.ghost13 import Ghost13
from tests.ghost13_scenarios import (
    EVEN_A,
    EVEN_B,
    HIGH,
    LOW,
    PUPPET_ANA,
    PUPPET_BEN,
    PUPPET_PLAYS,
    direct_hand,
    ghost_hand,
    puppet_hand,
)
from tests.helpers import codes, deal, fold, hand_end, pass_, play, run, tiles, to_bytes

BIG = {"target": 1000}


def hand_dict(report, n=0):
    return report.hands[n].as_dict()


# -- common rulings ------------------------------------------------------------------


def test_ruling_C1_double_six_set():
    assert len(DOUBLE_SIX) == 28 and SET_PIPS == 168
    assert Tile.parse("5-3") is Tile.parse("3-5") and Tile.parse("3-5").pips == 8
    assert Tile.parse("6-6").is_double and not Tile.parse("0-6").is_double
    for bad in ("7-1", "1-7", "35", "3-", "a-b", " 3-5"):
        with pytest.raises(TileError):
            Tile.parse(bad)


def test_ruling_C1_bad_tile_in_log_is_malformed():
    report = run([deal("Ana", None), {"type": "play", "player": "Ana", "tile": "7-1"}])
    assert codes(report) == [(3, "malformed")]
    assert "not a tile" in report.violations[0].message


def test_ruling_C2_first_tile_orientation_and_ends():
    reducer = fold(puppet_hand(LOW, HIGH), upto=4)
    layout = reducer.state.hand.layout
    assert (layout.left, layout.right) == (0, 6)  # "0-1" puts 0 left; 1-6 on the right leaves 6
    reducer = fold([deal("Ana", {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH}), play("Ana", "1-0")], upto=3)
    assert reducer.state.hand.layout.ends() == {"left": 1, "right": 0}


def test_ruling_C2_double_keeps_the_end_value():
    reducer = fold(direct_hand(HIGH, LOW), upto=4)
    assert reducer.state.hand.layout.ends() == {"left": 1, "right": 6}
    assert reducer.state.hand.layout.render() == "[1|6][6|6]"


def test_ruling_C2_wrong_end_is_illegal_and_ambiguous_end_flagged():
    events = puppet_hand(LOW, HIGH)
    events[2] = play("Ben", "1-6", "left")  # left shows 0
    report = run([*events[:3], pass_("Ana")], options=BIG)
    assert codes(report)[0] == (4, "illegal")
    events = puppet_hand(LOW, HIGH)
    events[6] = play("Ben", "0-6")  # fits both ends (0 and 6)
    report = run(events[:7], options=BIG)
    assert codes(report) == [(8, "ambiguous")]


def test_ruling_C3_pass_with_legal_play_is_a_renege_and_play_goes_on():
    events = puppet_hand(LOW, HIGH)
    # Ana passes at seq 5 though 6-2 and 0-6... fit; Ben then plays on.
    report = run([*events[:3], pass_("Ana"), play("Ben", "2-3", "left")], options=BIG)
    assert (5, "renege") in codes(report)
    assert report.violations[0].message.startswith("Ana passes while holding a legal play")


def test_ruling_C4_only_reveal_note_hand_end_after_the_hand_is_over():
    events = [*puppet_hand(LOW, HIGH), {"type": "note", "text": "locked"}, pass_("Ana"), play("Ana", "0-0")]
    events.append({"type": "reveal", "player": "Ana", "tiles": LOW})
    events.append(hand_end({"Ana": 124, "Ben": 0}, "Ana"))
    report = run(events, options=BIG)
    assert codes(report) == [(14, "out-of-order"), (15, "out-of-order")]
    assert report.hands[0].points == {"Ana": 124, "Ben": 0}


def test_ruling_C5_pips_count_tiles_left():
    report = run([*puppet_hand(LOW, HIGH), hand_end()], options=BIG)
    assert hand_dict(report)["pips"] == {"Ana": 28, "Ben": 62}


# -- Ghost 13 -------------------------------------------------------------------------


def test_ruling_G1_two_players_fourteen_tiles_no_boneyard():
    with pytest.raises(Exception, match="2 players"):
        Ghost13(["Ana", "Ben", "Cleo"])
    short = run([deal("Ana", {"Ana": PUPPET_ANA + LOW[:-1], "Ben": PUPPET_BEN + HIGH})])
    assert codes(short) == [(2, "bad-deal"), (2, "bad-deal")]  # 13 tiles, and only 27 dealt
    twice = run([deal("Ana", {"Ana": PUPPET_ANA + LOW[:-1] + ["1-5"], "Ben": PUPPET_BEN + HIGH})])
    assert (2, "bad-deal") in codes(twice) and "dealt twice" in twice.violations[0].message
    report = run([deal("Ana", {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH}), {"type": "draw", "player": "Ana"}])
    assert codes(report) == [(3, "illegal")]
    three = run([], players=("Ana", "Ben", "Cleo"))
    assert codes(three) == [(1, "malformed")]


def test_ruling_G2_later_hands_are_led_by_the_previous_winner():
    first = [*puppet_hand(LOW, HIGH), hand_end({"Ana": 124, "Ben": 0}, "Ana")]
    wrong = run([*first, deal("Ben", {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH})], options=BIG)
    assert codes(wrong) == [(14, "bad-deal")]
    assert "Ana should lead it" in wrong.violations[0].message
    right = run([*first, *puppet_hand(LOW, HIGH, leader="Ana"), hand_end()], options=BIG)
    assert codes(right) == []
    # hand 1: any leader the person chose
    assert codes(run([deal("Ben", {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH})])) == []


def test_ruling_G3_leader_opens_with_any_tile_and_turns_alternate():
    hands = {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH}
    assert codes(run([deal("Ana", hands), play("Ana", "0-0")])) == []
    report = run([deal("Ana", hands), play("Ana", "0-1"), play("Ana", "0-0", "left")])
    assert codes(report) == [(4, "illegal")]
    assert "not Ana's turn (Ben is on move)" in report.violations[0].message
    assert codes(run([deal("Ana", hands), play("Ben", "6-6")])) == [(3, "illegal")]


def test_ruling_G4_a_player_without_a_legal_play_passes():
    # After Ana's 4-6 (seq 11) Ben, holding only 6-6 among the sixes, must play it; had he not
    # held it, his pass would be clean. Here Ana, without a six, passes legally.
    events = [
        deal("Ana", {"Ana": PUPPET_ANA + ["6-6"] + LOW[:-1], "Ben": PUPPET_BEN[:-1] + HIGH + ["1-4"]}),
        *PUPPET_PLAYS[:9],
        pass_("Ben"),  # 12: Ben holds no six: a legal pass
        play("Ana", "6-6", "right"),  # 13: locks
    ]
    report = run([*events, hand_end()], options=BIG)
    assert codes(report) == []
    # the leader can always play: a pass by the leader is a renege
    assert codes(run([deal("Ana", {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH}), pass_("Ana")])) == [
        (3, "renege")
    ]


def _domino_and_lock_hand():
    """Hand 1 of simulated match (seed 1): Ben goes out with a tile that also locks the line."""
    events = simulate_match("ghost13", 1)
    end = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    return events, end


def test_ruling_G5_domino_ends_the_hand_even_if_it_locks():
    events, end = _domino_and_lock_hand()
    reducer = fold(events[1:end], options=None)
    hand = reducer.state.hand
    last = hand.placements[-1]
    assert hand.holdings[last.player].count == 0
    loser = "Ana" if last.player == "Ben" else "Ben"
    left = hand.holdings[loser].known
    assert not any(t.has(hand.layout.left) or t.has(hand.layout.right) for t in left)  # the line is locked
    assert hand.over == "domino"
    result = Ghost13(["Ana", "Ben"]).score_hand(reducer.state, hand, reducer.ctx)
    assert (result.end, result.winner, result.points[last.player]) == ("domino", last.player, 8)
    assert sum(t.pips for t in left) == 8


def test_ruling_G6_immediate_lock_ends_the_hand_at_the_placement():
    reducer = fold(puppet_hand(LOW, HIGH))
    assert (reducer.state.hand.over, reducer.state.hand.over_seq) == ("block", 12)
    # with full information, passes after an immediate lock are out of order
    report = run([*puppet_hand(LOW, HIGH), pass_("Ana"), pass_("Ben"), hand_end()], options=BIG)
    assert codes(report) == [(13, "out-of-order"), (14, "out-of-order")]


def _hidden(events):
    return [deal(events[0]["leader"], None), *events[1:]]


def test_ruling_G6_confirmed_lock_with_hidden_hands():
    events = [
        *_hidden(puppet_hand(LOW, HIGH)),
        pass_("Ana"),  # 13
        pass_("Ben"),  # 14: confirmed lock
        {"type": "reveal", "player": "Ana", "tiles": LOW},
        {"type": "reveal", "player": "Ben", "tiles": HIGH},
        hand_end({"Ana": 124, "Ben": 0}, "Ana"),
    ]
    report = run(events, options=BIG)
    assert codes(report) == [] and report.unverified == []
    assert hand_dict(report) == run([*puppet_hand(LOW, HIGH), hand_end()], options=BIG).hands[0].as_dict()


def test_ruling_G6_the_confirmed_lock_must_be_real():
    # Ben passes at seq 12 holding 6-6: a lock that is not one. Hidden while recorded, the
    # pass is unverified until the reveal proves the renege.
    events = [
        deal("Ana", None),
        *PUPPET_PLAYS[:9],
        pass_("Ben"),  # 12
        pass_("Ana"),  # 13
    ]
    before = fold(events, options=BIG).report()
    assert [(u.seq, u.code) for u in before.unverified] == [(12, "renege"), (13, "renege")]
    assert before.violations == []
    events += [
        {"type": "reveal", "player": "Ana", "tiles": LOW},
        {"type": "reveal", "player": "Ben", "tiles": [*HIGH, "6-6"]},
        hand_end({"Ana": 0, "Ben": 0}),
    ]
    report = run(events, options=BIG)
    assert codes(report) == [(12, "renege"), (16, "score-mismatch")]
    assert report.unverified == []
    # the last placement (Ana's 4-6) was not forced: Ana is the direct aggressor, 28 <= 74
    assert hand_dict(report)["aggressor"] == "Ana"
    assert report.hands[0].points == {"Ana": 148, "Ben": 0}


def test_hidden_hand_without_reveals_stays_unverified():
    events = [*_hidden(puppet_hand(LOW, HIGH)), pass_("Ana"), pass_("Ben"), hand_end({"Ana": 124, "Ben": 0}, "Ana")]
    report = run(events, options=BIG)
    assert report.valid
    # every six is on the line and both ends show 6: the lock is certain even unseen, so the two
    # passes need no check; only the points, which depend on the hidden tiles, stay unverified
    assert [(u.seq, u.code) for u in report.unverified] == [(15, "score-mismatch")]
    assert report.hands[0].points == {"Ana": 124, "Ben": 0}  # the claim is taken


def test_hidden_hand_one_reveal_settles_the_other_hand():
    # all 28 tiles are dealt: once Ana shows her tiles, Ben's are the rest
    events = [
        *_hidden(puppet_hand(LOW, HIGH)),
        pass_("Ana"),
        pass_("Ben"),
        {"type": "reveal", "player": "Ana", "tiles": LOW},
        hand_end({"Ana": 124, "Ben": 0}, "Ana"),
    ]
    report = run(events, options=BIG)
    assert codes(report) == [] and report.unverified == []


def test_ruling_G7_ghost_counts_13_when_all_zeros_are_out_and_no_end_shows_0():
    report = run([*ghost_hand(), hand_end({"Ana": 0, "Ben": 103}, "Ben")], options=BIG)
    assert codes(report) == []
    assert hand_dict(report)["pips"] == {"Ana": 61, "Ben": 42}  # 29 + 13
    assert hand_dict(report)["aggressor"] == "Ana"
    assert report.hands[0].points == {"Ana": 0, "Ben": 103}


def test_ruling_G7_ghost_counts_0_otherwise():
    v = Ghost13(["Ana", "Ben"])
    # all six zeros on the line but both ends show 0: the 0-0 is playable, it counts 0
    layout = LineLayout()
    chain = [(0, 1), (1, 2), (2, 0), (0, 3), (3, 4), (4, 0), (0, 5), (5, 6), (6, 0)]
    for a, b in chain:
        layout.chain.append((a, b))
        layout.on_board.add(Tile(a, b))
    layout.left, layout.right = 0, 0
    hand = HandState(
        1, "Ana", None, 2, {"Ana": Holding({Tile(0, 0)}), "Ben": Holding()}, Holding(), set(), layout, "Ben"
    )
    assert v.ghost_value(hand) == 0 and v.pips_left(hand, "Ana") == 0
    layout.left = layout.right = 6
    assert v.ghost_value(hand) == 13
    layout.on_board.discard(Tile(0, 5))
    assert v.ghost_value(hand) == 0
    # in the Puppeteer hand the 0-0 stays in Ana's hand with 0-2..0-5 unplayed: it counts 0
    report = run([*puppet_hand(LOW, HIGH), hand_end()], options=BIG)
    assert hand_dict(report)["pips"]["Ana"] == 28


def test_ruling_G8_puppeteer_is_the_aggressor():
    report = run([*puppet_hand(LOW, HIGH), hand_end({"Ana": 124, "Ben": 0}, "Ana")], options=BIG)
    assert codes(report) == []
    assert (hand_dict(report)["aggressor"], hand_dict(report)["puppeteer"]) == ("Ana", True)


def test_ruling_G8_direct_block_when_the_locking_tile_was_not_forced():
    report = run([*direct_hand(HIGH, LOW), hand_end({"Ana": 0, "Ben": 124}, "Ben")], options=BIG)
    assert codes(report) == []
    assert (hand_dict(report)["aggressor"], hand_dict(report)["puppeteer"]) == ("Ben", False)


def test_ruling_G8_direct_block_when_a_pass_came_before_the_lock():
    events = [
        deal("Ana", {"Ana": PUPPET_ANA + ["6-6"] + LOW[:-1], "Ben": PUPPET_BEN[:-1] + HIGH + ["1-4"]}),
        *PUPPET_PLAYS[:9],
        pass_("Ben"),
        play("Ana", "6-6", "right"),
        hand_end(),
    ]
    report = run(events, options=BIG)
    # Ana locks right after Ben's pass: she is the direct aggressor, 23 <= 67
    assert hand_dict(report)["aggressor"] == "Ana" and not hand_dict(report)["puppeteer"]
    assert report.hands[0].points == {"Ana": 134, "Ben": 0}


def test_ruling_G8_notes_and_undone_events_do_not_count():
    plays = puppet_hand(LOW, HIGH)
    events = [
        *plays[:-1],
        {"type": "note", "text": "Ben thinks"},
        play("Ben", "6-6", "right"),
        {"type": "undo", "reason": "recorded on the wrong end"},
        {"type": "note", "text": "again"},
        plays[-1],
        hand_end({"Ana": 124, "Ben": 0}, "Ana"),
    ]
    report = run(events, options=BIG)
    assert codes(report) == []
    assert (hand_dict(report)["aggressor"], hand_dict(report)["puppeteer"]) == ("Ana", True)


def test_ruling_G9_domino_scores_the_opponents_pips():
    events, end = _domino_and_lock_hand()
    report = run(events[1 : end + 1])
    assert report.hands[0].as_dict()["end"] == "domino"
    winner = report.hands[0].winner
    loser = "Ana" if winner == "Ben" else "Ben"
    assert report.hands[0].points == {winner: report.hands[0].detail["pips"][loser], loser: 0}


def test_ruling_G9_successful_block_scores_double_the_opponents_pips():
    report = run([*puppet_hand(LOW, HIGH), hand_end()], options=BIG)
    assert (report.hands[0].winner, report.hands[0].points) == ("Ana", {"Ana": 124, "Ben": 0})


def test_ruling_G9_aggressor_wins_ties():
    report = run([*puppet_hand(EVEN_A, EVEN_B), hand_end()], options=BIG)
    assert hand_dict(report)["pips"] == {"Ana": 45, "Ben": 45}
    assert (report.hands[0].winner, report.hands[0].points) == ("Ana", {"Ana": 90, "Ben": 0})


def test_ruling_G9_failed_block_gives_the_opponent_both_totals():
    report = run([*puppet_hand(HIGH, LOW), hand_end({"Ana": 124, "Ben": 0}, "Ana")], options=BIG)
    assert (report.hands[0].winner, report.hands[0].points) == ("Ben", {"Ana": 0, "Ben": 90})
    assert codes(report) == [(13, "score-mismatch"), (13, "score-mismatch")]
    assert "the rules give Ana 0, Ben 90" in report.violations[0].message


def test_ruling_G9_winner_decided_even_with_zero_points():
    # Ana goes out while Ben keeps only the 0-0, worth 0 (0-2..0-5 are not out): Ana wins 0 points
    v = find_variant("ghost13")(["Ana", "Ben"])
    reducer = fold(puppet_hand(LOW, HIGH), options=BIG)
    hand = reducer.state.hand
    hand.holdings["Ana"].known = set()
    hand.holdings["Ben"].known = {Tile(0, 0)}
    hand.over = "domino"
    result = v.score_hand(reducer.state, hand, reducer.ctx)
    assert (result.winner, result.points) == ("Ana", {"Ana": 0, "Ben": 0})
    # and a failed block always has a winner: Ben, with 28 + 0
    hand.holdings["Ana"].known = set(map(Tile.parse, LOW))
    hand.over = "block"
    result = v.score_hand(reducer.state, hand, reducer.ctx)
    assert (result.winner, result.points) == ("Ben", {"Ana": 0, "Ben": 28})


def test_ruling_G10_match_ends_after_the_hand_reaching_the_target():
    hand1 = [*puppet_hand(LOW, HIGH), hand_end({"Ana": 124, "Ben": 0}, "Ana")]
    report = run([*hand1, {"type": "match_end", "totals": {"Ana": 124, "Ben": 0}, "winner": "Ana"}])
    assert codes(report) == [] and report.complete and report.winner == "Ana"
    # another deal after the target is out of order
    late = run([*hand1, deal("Ana", None)])
    assert codes(late) == [(14, "out-of-order")]
    # with a higher target the match goes on, and an early match_end is flagged
    early = run([*hand1, {"type": "match_end"}], options={"target": 200})
    assert codes(early) == [(14, "out-of-order")] and early.winner is None
    # option target: 250 needs two such hands
    two = run(
        [*hand1, *puppet_hand(LOW, HIGH), hand_end(), {"type": "match_end", "winner": "Ana"}], options={"target": 248}
    )
    assert codes(two) == [] and two.totals == {"Ana": 248, "Ben": 0}


def test_match_end_abandoned_has_no_winner():
    report = run([*puppet_hand(LOW, HIGH)[:5], {"type": "match_end", "reason": "abandoned"}])
    assert codes(report) == [] and report.complete and report.winner is None
    assert report.hands[0].as_dict() == {
        "number": 1,
        "end": "abandoned",
        "winner": None,
        "points": {"Ana": 0, "Ben": 0},
    }


def test_missing_hand_end_is_flagged_at_the_next_deal():
    events = [*puppet_hand(LOW, HIGH), *puppet_hand(LOW, HIGH)]
    report = run(events, options=BIG)
    assert codes(report) == [(13, "out-of-order")]
    assert "without a hand_end" in report.violations[0].message
    assert report.hands[0].points == {"Ana": 124, "Ben": 0}


def test_undo_retracts_a_play_and_its_violation():
    hands = {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH}
    report = run([deal("Ana", hands), play("Ana", "0-1"), play("Ben", "5-5", "left"), {"type": "undo"}])
    assert codes(report) == []
    reducer = fold([deal("Ana", hands), play("Ana", "0-1"), play("Ben", "1-6", "right"), {"type": "undo"}])
    assert reducer.state.hand.turn == "Ben" and reducer.state.hand.layout.render() == "[0|1]"
    assert codes(run([deal("Ana", hands), {"type": "undo"}])) == [(3, "illegal")]


def test_unknown_player_is_named():
    report = run([deal("Ana", None), play("Zed", "0-1")])
    assert codes(report) == [(3, "malformed")]
    assert "unknown player 'Zed'" in report.violations[0].message


def test_tiles_conserved_through_a_hidden_hand():
    events = [*_hidden(puppet_hand(LOW, HIGH)), pass_("Ana"), pass_("Ben")]
    for upto in range(2, len(events) + 2):
        assert fold(events, upto=upto, options=BIG).state.hand.conserved()


def test_every_tile_once_in_the_scenarios():
    for left in (LOW, HIGH, EVEN_A, EVEN_B):
        assert len(set(left)) == 9
    assert sorted(LOW + HIGH) == sorted(EVEN_A + EVEN_B)
    assert to_bytes([]) == b"\n"
    assert tiles("1-2 3-4") == ["1-2", "3-4"]


def test_block_before_any_tile_has_no_aggressor():
    hands = {"Ana": PUPPET_ANA + LOW, "Ben": PUPPET_BEN + HIGH}
    report = run([deal("Ben", hands), pass_("Ben"), pass_("Ana"), hand_end()], options=BIG)
    assert codes(report) == [(3, "renege"), (4, "renege")]
    assert report.hands[0].as_dict()["aggressor"] is None
    assert (report.hands[0].winner, report.hands[0].points) == (None, {"Ana": 0, "Ben": 0})
