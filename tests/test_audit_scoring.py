"""The scoring of a hand in words (dominolog.audit.scoring): the worked examples of seeds/*.md
("Worked examples", built by the rulings tests and tests/ghost13_scenarios.py), the replays and
simulated matches of every variant.

Each hand is folded to its end and taken as the variant scored it (``fold_scored``); its steps
are checked sentence by sentence for at least one hand a variant, and for every hand the last
sentence gives exactly the points and the winner of the result.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import tests.test_39_rulings as r39
import tests.test_brettspielnetz_rulings as rbsn
import tests.test_double_bergen_rulings as rdb
import tests.test_double_draw_rulings as rdd
from dominolog.audit.scoring import claim_of, fold_scored, scoring_steps
from dominolog.events import parse_event
from dominolog.log.reader import iter_matches
from dominolog.reducer import verify_match
from dominolog.simulate import hide_match, simulate_match
from tests import ghost13_scenarios as g13
from tests.helpers import hand_end, match_log, pass_, to_bytes
from tests.test_audit_rules import CONFIGS, reneging, wrong_event

ROOT = Path(__file__).resolve().parent.parent
TWO = ("Ana", "Ben")


def scored_steps(data: bytes, name: str = "test.jsonl") -> list[tuple[Any, list[str]]]:
    """(result, steps) of every hand of every match in ``data``."""
    out = []
    for log in iter_matches(name, data):
        reducer, hands = fold_scored(log)
        assert reducer.state is not None and len(hands) == len(reducer.state.results)
        out += [(h.result, scoring_steps(reducer.state, h.hand, h.result, h.claim)) for h in hands]
    return out


def steps(
    events: list[dict[str, Any]],
    variant: str = "ghost13",
    players: tuple[str, ...] = TWO,
    options: dict[str, Any] | None = None,
) -> list[list[str]]:
    """The steps of each hand of a match given as its events after match_start."""
    return [s for _, s in scored_steps(to_bytes(match_log(events, variant, players, options)))]


def given(sentence: str, players: int) -> dict[str, int]:
    """The points the last sentence ends with (after ``the rules give`` or ``the table's claim is taken:``)."""
    rules = re.split(r"the rules give |claim is taken: ", sentence)[-1]
    pairs = re.findall(r"(\w+) (-?\d+)", rules)
    assert len(pairs) == players, sentence
    return {p: int(v) for p, v in pairs}


def winner_given(sentence: str) -> str:
    return sentence.rsplit(", ", 1)[-1].rstrip(".")


# -- Ghost 13 --------------------------------------------------------------------------------------


def test_ruling_G8_puppeteer_block_worked_out_in_steps() -> None:
    """seeds/ghost13.md 14.1: Ana is the aggressor as Puppeteer and scores 2 × 62 = 124."""
    (hand,) = steps([*g13.puppet_hand(g13.LOW, g13.HIGH), hand_end({"Ana": 124, "Ben": 0}, "Ana")])
    assert hand == [
        "Ben's 6-6 at seq 12 locked the line (ends 6 and 6): neither player could play, and the hand ended (G6).",
        "Ana still holds the 0-0: 0-2, 0-3, 0-4, 0-5 are not on the line, so it counts 0 (G7).",
        "Ana holds 0-0, 0-2, 0-3, 0-4, 0-5, 1-1, 1-2, 1-3, 1-4: 28 pips.",
        "Ben holds 1-5, 2-2, 2-4, 2-5, 3-3, 3-4, 3-5, 4-4, 5-5: 62 pips.",
        "Ben's 6-6 at seq 12 was the only tile Ben could play when the turn began, and every placement of it "
        "locked the line; the play just before was Ana's 4-6 at seq 11: Ana is the aggressor, as Puppeteer (G8).",
        "The aggressor Ana has no more pips than Ben (28 <= 62): Ana wins the block and scores twice Ben's pips, "
        "2 × 62 = 124 (G9).",
        "The table wrote Ana 124, Ben 0, winner Ana, as the rules give Ana 124, Ben 0, winner Ana.",
    ]


def test_ruling_G9_failed_block_and_a_wrong_claim_in_steps() -> None:
    """seeds/ghost13.md 14.2: the same plays with the kept tiles swapped; the table claims 14.1's score."""
    (hand,) = steps([*g13.puppet_hand(g13.HIGH, g13.LOW), hand_end({"Ana": 124, "Ben": 0}, "Ana")])
    assert hand[-2:] == [
        "The aggressor Ana has more pips than Ben (62 > 28): the block fails; Ben wins and scores both players' "
        "pips, 62 + 28 = 90 (G9).",
        "The table wrote Ana 124, Ben 0, winner Ana; but the rules give Ana 0, Ben 90, winner Ben.",
    ]


def test_ruling_G7_ghost_value_of_double_blank_in_steps() -> None:
    """seeds/ghost13.md 14.3: Ben's [0-0] counts 13, and Ben wins the failed block with 103."""
    (hand,) = steps([*g13.ghost_hand(), hand_end({"Ana": 0, "Ben": 90}, "Ben")])
    assert hand[1:4] == [
        "Ben still holds the 0-0: 0-1 to 0-6 all lie on the line and neither end shows 0, so it counts 13 (G7).",
        "Ana holds 2-4, 2-5, 3-3, 3-4, 3-5, 4-4, 4-5, 5-5: 61 pips.",
        "Ben holds 0-0, 1-1, 1-2, 1-3, 1-4, 1-5, 2-2, 2-3: 29 + 13 for the ghost = 42 pips.",
    ]
    assert hand[-2:] == [
        "The aggressor Ana has more pips than Ben (61 > 42): the block fails; Ben wins and scores both players' "
        "pips, 61 + 42 = 103 (G9).",
        "The table wrote Ana 0, Ben 90, winner Ben; but the rules give Ana 0, Ben 103, winner Ben.",
    ]


def test_ruling_G8_direct_aggressor_says_why_the_puppeteer_rule_does_not_apply() -> None:
    (hand,) = steps([*g13.direct_hand(g13.LOW, g13.HIGH), hand_end({"Ana": 90, "Ben": 0}, "Ana")])
    assert hand[4] == (
        "Ben made the locking placement, 5-6 at seq 12, and is the aggressor; the Puppeteer rule does not apply: "
        "Ben could also play 1-5, 2-5, 3-5, 5-5 (G8)."
    )


def test_ruling_G6_hidden_hands_never_revealed_keep_the_claim() -> None:
    """Recorded with the hands unseen and never revealed: the pips are unknown and the claim is taken."""
    events = [g13.deal("Ana", None), *g13.PUPPET_PLAYS, pass_("Ana"), pass_("Ben"), hand_end({"Ana": 124}, "Ana")]
    (hand,) = steps(events)
    assert hand == [
        "Ben's 6-6 at seq 12 locked the line (ends 6 and 6): neither player could play, and the hand ended; "
        "the table confirmed the lock with 2 passes (G6).",
        "Ana's 9 tiles were never revealed: Ana's pips are unknown.",
        "Ben's 9 tiles were never revealed: Ben's pips are unknown.",
        "Hidden tiles keep the rules from scoring the hand, so the table's claim is taken: Ana 124, Ben 0, winner Ana.",
    ]


def test_ruling_G8_no_placement_no_aggressor_in_steps() -> None:
    """Both players pass before any tile is set (two reneges): no locking placement, nobody scores."""
    hands = {"Ana": g13.PUPPET_ANA + g13.LOW, "Ben": g13.PUPPET_BEN + g13.HIGH}
    (hand,) = steps([g13.deal("Ana", hands), pass_("Ana"), pass_("Ben"), hand_end({"Ana": 0, "Ben": 0}, None)])
    assert hand[0] == "Both players passed in a row (Ana at seq 3, Ben at seq 4): the hand is over (G6)."
    assert hand[-2:] == [
        "No tile was placed: there is no locking placement, no aggressor and no points (G8, G9).",
        "The table wrote Ana 0, Ben 0, no winner, as the rules give Ana 0, Ben 0, no winner.",
    ]


def test_ruling_C4_a_hand_closed_while_hidden_tiles_keep_its_end_open() -> None:
    (hand,) = steps([g13.deal("Ana", None), *g13.PUPPET_PLAYS[:4], hand_end({"Ana": 10}, "Ana")])
    assert hand == [
        "The table closed the hand at seq 7, taken as a block: hidden tiles keep it from being checked (C4).",
        "Ana's 12 tiles were never revealed: Ana's pips are unknown.",
        "Ben's 12 tiles were never revealed: Ben's pips are unknown.",
        "Hidden tiles keep the rules from scoring the hand, so the table's claim is taken: Ana 10, Ben 0, winner Ana.",
    ]


def test_ruling_G5_domino_that_also_locks_in_the_disputed_replay() -> None:
    data = (ROOT / "replays" / "ghost13-tabletop-hidden.jsonl").read_bytes()
    result, hand = scored_steps(data)[0]
    assert hand == [
        "Ana laid the last tile in hand, 2-5, at seq 32: a domino ends the hand (it also locked the line: the "
        "domino comes first) (G5).",
        "Ana holds no tiles: 0 pips.",
        "Ben holds 3-3: 6 pips.",
        "Ana went out and scores Ben's pips: 6 (G9).",
        "The table wrote Ana 6, Ben 0, winner Ana, as the rules give Ana 6, Ben 0, winner Ana.",
    ]
    assert result.points == {"Ana": 6, "Ben": 0}


# -- Brettspielnetz --------------------------------------------------------------------------------


def test_ruling_B4_stock_out_on_a_draw_in_steps() -> None:
    """seeds/brettspielnetz.md 14.1: Ana 53, Ben 68."""
    (hand,) = steps([*rbsn.stock_hand(), hand_end({"Ana": 53, "Ben": 68}, "Ana")], "brettspielnetz")
    assert hand == [
        "At seq 18 the boneyard was down to 2 tiles and Ben, on move, could not play: a stock-out ends the hand, "
        "and the tiles left in the boneyard count for nobody (B4, C5).",
        "Ana holds 0-0, 0-2, 0-5, 1-1, 1-3, 2-2, 2-3, 2-5, 3-3, 3-5, 5-5: 53 pips.",
        "Ben holds 0-1, 0-6, 1-2, 1-4, 1-5, 1-6, 2-6, 4-5, 5-6, 6-6: 68 pips.",
        "Ana has the lower penalty (53 < 68) and wins the hand; there is no +5 after a stock-out (B6).",
        "The table wrote Ana 53, Ben 68, winner Ana, as the rules give Ana 53, Ben 68, winner Ana.",
    ]


def test_ruling_B6_domino_five_more_and_the_forgotten_bonus_in_steps() -> None:
    """seeds/brettspielnetz.md 14.2: the table forgot the +5."""
    (hand,) = steps([*rbsn.domino_hand(), hand_end({"Ana": 0, "Ben": 5}, "Ana")], "brettspielnetz")
    assert hand == [
        "Ana laid the last tile in hand, 0-6, at seq 15: a domino ends the hand (B5).",
        "Ana holds no tiles: 0 pips.",
        "Ben holds 1-4: 5 pips.",
        "After a domino Ben gets 5 more: 5 + 5 = 10 (B6).",
        "Ana went out and wins the hand; scores are penalties, lower is better (B6, B7).",
        "The table wrote Ana 0, Ben 5, winner Ana; but the rules give Ana 0, Ben 10, winner Ana.",
    ]


def test_ruling_B6_equal_penalties_no_winner_in_steps() -> None:
    """seeds/brettspielnetz.md 14.3."""
    (hand,) = steps([*rbsn.equal_hand(), hand_end({"Ana": 52, "Ben": 52}, None)], "brettspielnetz")
    assert hand[-2:] == [
        "Equal penalties (52 each): nobody wins the hand (B6).",
        "The table wrote Ana 52, Ben 52, no winner, as the rules give Ana 52, Ben 52, no winner.",
    ]


# -- 39 --------------------------------------------------------------------------------------------


def test_ruling_T11_domino_bonus_and_play_points_in_steps() -> None:
    """seeds/39.md 17.1: Ana -3 + 27 = 24, Ben 4."""
    (hand,) = steps([*r39.domino_hand(), hand_end({"Ana": 24, "Ben": 4}, "Ana")], "39")
    assert hand == [
        "Ana laid the last tile in hand, 0-3, at seq 32: a domino ends the hand (T10).",
        "Seq 3: Ana sets 3-3; the set scores nothing, and its 6 pips make Even the preferred suit (T3, T6).",
        "Seq 22: Ben plays 3-6: it leaves 6, of the preferred suit (Even preferred); it scores 0 (T8).",
        "Seq 23: Ana plays 3-4: it leaves 4, of the preferred suit (Even preferred); it scores 0 (T8).",
        "Seq 24: Ben plays 4-4: a doublet of the preferred suit (Even preferred); it scores 4 (T8).",
        "Seq 25: Ana plays 3-5: it leaves 5, of the penalty suit (Even preferred); it scores -1 (T8).",
        "Seq 26: Ben plays 5-6: it leaves 6, of the preferred suit (Even preferred), and makes a match; "
        "it scores 0 (T8); Ben then declares Odd (T7).",
        "Seq 28: Ana plays 2-3: it leaves 2, of the penalty suit (Odd preferred); it scores -1 (T8).",
        "Seq 29: Ben plays 1-2: it leaves 1, of the preferred suit (Odd preferred); it scores 0 (T8).",
        "Seq 30: Ana plays 1-3: it leaves 3, of the preferred suit (Odd preferred); it scores 0 (T8).",
        "Seq 31: Ben plays 6-6 (a match): a doublet of the penalty suit (Odd preferred); it scores 0 (T8).",
        "Seq 32: Ana plays 0-3: it leaves 0, of the penalty suit (Odd preferred); it scores -1 (T8).",
        "Play points: Ana 0 - 1 - 1 + 0 - 1 = -3; Ben 0 + 4 + 0 + 0 + 0 = 4 (T8).",
        "Ben keeps 0-0, 0-1, 0-2, 0-4, 0-5, 0-6, 1-1, 1-4, 1-5, 1-6, 2-2, 2-4, 2-5, 2-6, 4-5, 4-6, 5-5: "
        "13 singlets, 1 each (13), doublets 1-1, 2-2, 5-5 (1 + 2 + 5 = 8), the 0-0, worth the last doublet "
        "placed, 6-6 (6): a bonus of 13 + 8 + 6 = 27 for Ana (T11, C5).",
        "Ana: play points -3 + bonus 27 = 24.",
        "Ana 24 against Ben 4: Ana has more points and wins the hand (T12).",
        "The table wrote Ana 24, Ben 4, winner Ana, as the rules give Ana 24, Ben 4, winner Ana.",
    ]


def test_ruling_T12_two_passes_a_tie_and_a_match_that_saves_the_minus_one() -> None:
    """seeds/39.md 17.2: Ana -1, Ben -1, no winner."""
    (hand,) = steps([*r39.pass_hand(True), hand_end({"Ana": -1, "Ben": -1}, None)], "39")
    assert hand[0] == "Both players passed in a row (Ana at seq 32, Ben at seq 33): the hand is over (T10)."
    assert (
        "Seq 22: Ben plays 5-6: it leaves 6, of the penalty suit (Odd preferred), and makes a match, which saves "
        "the -1; it scores 0 (T8)."
    ) in hand
    assert hand[-4:] == [
        "Play points: Ana 0 - 1 + 0 + 0 = -1; Ben 0 + 0 - 1 + 0 + 0 = -1 (T8).",
        "Two passes earn no end bonus (T11).",
        "Ana -1 against Ben -1: equal points, nobody wins the hand (T12).",
        "The table wrote Ana -1, Ben -1, no winner, as the rules give Ana -1, Ben -1, no winner.",
    ]


# -- Double Bergen ---------------------------------------------------------------------------------


def test_ruling_D6_placement_scores_and_the_domino_plus_one_in_steps() -> None:
    """seeds/double-bergen.md 13.1: the maximum of 6 at seq 11; Ana 17, Ben 10."""
    (hand,) = steps([*rdb.domino_2p(), hand_end({"Ana": 16, "Ben": 10}, "Ana")], "double-bergen")
    assert hand == [
        "Ana laid the last tile in hand, 0-6, at seq 13: a domino ends the hand (D7).",
        "Seq 3: Ana places 4-4; open ends 4 (spinner); 4s: 2 × 1 = 2; it scores 2 (D6).",
        "Seq 4: Ben places 1-4 on 4-4:N; open ends 1, 4 (spinner); 4s: 2 × 1 = 2; it scores 2 (D6).",
        "Seq 5: Ana places 2-4 on 4-4:E; open ends 1, 2, 4 (spinner); 4s: 2 × 1 = 2; it scores 2 (D6).",
        "Seq 6: Ben places 3-4 on 4-4:S; open ends 1, 2, 3, 4 (spinner); 4s: 2 × 1 = 2; it scores 2 (D6).",
        "Seq 7: Ana places 4-5 on 4-4:W; open ends 1, 2, 3, 5; no value scores; it scores 0 (D6).",
        "Seq 8: Ben places 1-1 on 1-4:N; open ends 2, 3, 5, 1 (double); no value scores; it scores 0 (D6).",
        "Seq 9: Ana places 1-3 on 3-4:S; open ends 2, 5, 1 (double), 1; 1s: 2 × 1 + 1 = 3; it scores 3 (D6).",
        "Seq 10: Ben places 2-2 on 2-4:E; open ends 5, 1 (double), 1, 2 (double); 1s: 2 × 1 + 1 = 3; it scores 3 (D6).",
        "Seq 11: Ana places 2-5 on 4-5:W; open ends 1 (double), 1, 2 (double), 2; 1s: 2 × 1 + 1 = 3, "
        "2s: 2 × 1 + 1 = 3; it scores 6 (D6).",
        "Seq 12: Ben places 1-6 on 1-1:N; open ends 1, 2 (double), 2, 6; 2s: 2 × 1 + 1 = 3; it scores 3 (D6).",
        "Seq 13: Ana places 0-6 on 1-6:N; open ends 1, 2 (double), 2, 0; 2s: 2 × 1 + 1 = 3; it scores 3 (D6).",
        "Placement points: Ana 2 + 2 + 0 + 3 + 6 + 3 = 16; Ben 2 + 2 + 0 + 3 + 3 = 10 (D6).",
        "Ana went out, wins the hand and scores 1 more: 16 + 1 = 17 (D7).",
        "The table wrote Ana 16, Ben 10, winner Ana; but the rules give Ana 17, Ben 10, winner Ana.",
    ]


def test_ruling_D7_block_lowest_pips_scores_one_more_in_steps() -> None:
    """seeds/double-bergen.md 13.2: four players, nothing to draw; Ana 3, Ben 2, Cleo 2, Dev 2."""
    claim = hand_end({"Ana": 3, "Ben": 2, "Cleo": 2, "Dev": 2}, "Ana")
    (hand,) = steps([*rdb.block_4p(), claim], "double-bergen", rdb.FOUR, rdb.NO_DRAWS)
    assert hand[0] == "At seq 6 no player could play or draw: the hand is blocked (D7)."
    assert hand[5:] == [
        "Placement points: Ana 2; Ben 2; Cleo 2; Dev 2 (D6).",
        "Ana holds 0-0, 0-1, 0-2, 1-1: 5 pips.",
        "Ben holds 0-3, 1-2, 1-3, 2-2: 14 pips.",
        "Cleo holds 0-4, 1-4, 1-5, 2-3: 20 pips.",
        "Dev holds 0-5, 2-4, 2-5, 3-3: 24 pips.",
        "Ana has the lowest pip total (5): Ana wins the hand and scores 1 more: 2 + 1 = 3 (D7, C5).",
        "The table wrote Ana 3, Ben 2, Cleo 2, Dev 2, winner Ana, as the rules give Ana 3, Ben 2, Cleo 2, Dev 2, "
        "winner Ana.",
    ]


def test_ruling_D8_the_target_mid_hand_in_steps() -> None:
    """seeds/double-bergen.md 13.1 with target 7: the match ends at seq 9, no winner, no +1."""
    (hand,) = steps(
        [*rdb.domino_2p()[:8], hand_end({"Ana": 8, "Ben": 4}, "Ana")], "double-bergen", options={"target": 7}
    )
    assert hand[0] == (
        "Ana's 1-3 at seq 9 brought Ana's total to 0 + 7 = 7, reaching the target 7: the match ends in the middle "
        "of the hand (D8)."
    )
    assert hand[-3:] == [
        "Placement points: Ana 2 + 2 + 0 + 3 = 7; Ben 2 + 2 + 0 = 4 (D6).",
        "The hand ends at the target: no winner and no +1; the points made during play stand (D8).",
        "The table wrote Ana 8, Ben 4, winner Ana; but the rules give Ana 7, Ben 4, no winner.",
    ]


def test_ruling_D8_an_abandoned_hand_keeps_its_placement_points_in_steps() -> None:
    (hand,) = steps([*rdb.domino_2p()[:6], rdb.match_end(reason="abandoned")], "double-bergen")
    assert hand[0] == (
        "Hand 1 was closed before its end: it is abandoned, with no winner and the points made during play stand (C4)."
    )
    assert hand[-2:] == [
        "Placement points: Ana 2 + 2 + 0 = 4; Ben 2 + 2 = 4 (D6).",
        "No hand_end closed the hand; the rules give Ana 4, Ben 4, no winner.",
    ]


# -- Double Draw -----------------------------------------------------------------------------------


def test_ruling_E6_domino_by_a_pair_play_in_steps() -> None:
    """seeds/double-draw.md 14.1: Ben 42."""
    (hand,) = steps([*rdd.domino_2p(), hand_end({"Ben": 42}, "Ben")], "double-draw", TWO)
    assert hand == [
        "Ben laid the last two tiles in hand, 0-1 and 2-2, as a pair play at seq 7: a domino ends the hand (E5).",
        "Ana holds 0-0, 0-2, 0-3, 0-4, 3-3, 3-6, 4-4, 5-5: 42 pips.",
        "Ben holds no tiles: 0 pips.",
        "Ben has the lowest total (0) and scores the others' pips minus Ben's own: 42 - 0 = 42 (E6).",
        "The table wrote Ana 0, Ben 42, winner Ben, as the rules give Ana 0, Ben 42, winner Ben.",
    ]


def test_ruling_E4_a_valid_call_ends_the_hand_in_steps() -> None:
    """seeds/double-draw.md 14.2: Cleo 12 + 18 - 2 = 28."""
    seats = ("Ben", "Cleo", "Ana")
    (hand,) = steps([*rdd.block_3p(*seats), rdd.call("Ana"), hand_end({"Cleo": 28}, "Cleo")], "double-draw", seats)
    assert hand == [
        "A valid blocked-game call at seq 8 ended the hand: the left end shows 3 and all seven tiles of 3 lie on "
        "the line (E4, E5).",
        "Ben holds 6-6: 12 pips.",
        "Cleo holds 1-1: 2 pips.",
        "Ana holds 1-2, 2-5, 4-4: 18 pips.",
        "Cleo has the lowest total (2) and scores the others' pips minus Cleo's own: 12 + 18 - 2 = 28 (E6).",
        "The table wrote Ben 0, Cleo 28, Ana 0, winner Cleo, as the rules give Ben 0, Cleo 28, Ana 0, winner Cleo.",
    ]


def test_ruling_E6_partners_add_their_pips_and_both_are_credited_in_steps() -> None:
    """seeds/double-draw.md 14.5: Ana goes out, but Ben and Dev win 12 each."""
    claim = hand_end({"Ana": 40}, "Ana")
    (hand,) = steps([*rdd.partners_4p("2-2", "4-5", "1-4"), claim], "double-draw", rdd.FOUR, rdd.PARTNERS)
    assert hand[-3:] == [
        "Partners add their pips: Ana and Cleo 0 + 40 = 40; Ben and Dev 9 + 19 = 28 (E6).",
        "Ben and Dev have the lowest total (28) and score the others' pips minus their own: 40 - 28 = 12, "
        "credited to both: Ben 12, Dev 12 (E6).",
        "The table wrote Ana 40, Ben 0, Cleo 0, Dev 0, winner Ana; but the rules give Ana 0, Ben 12, Cleo 0, "
        "Dev 12, winner Ben and Dev.",
    ]


# -- every hand ------------------------------------------------------------------------------------


def check_hands(hands: list[tuple[Any, list[str]]], players: int | None = None) -> None:
    for result, hand in hands:
        assert hand and all(s.endswith(".") and "\n" not in s for s in hand), hand
        n = players or len(result.points)
        assert given(hand[-1], n) == result.points, hand[-1]
        winner = result.winner
        expected = (
            "no winner"
            if winner is None
            else "winner " + (" and ".join(winner) if isinstance(winner, list) else winner)
        )
        assert winner_given(hand[-1]) == expected, hand[-1]


@pytest.mark.parametrize("path", sorted((ROOT / "replays").glob("*.jsonl")), ids=lambda p: p.name)
def test_the_last_step_of_every_replayed_hand_gives_the_result(path: Path) -> None:
    hands = scored_steps(path.read_bytes(), path.name)
    reports = [verify_match(log) for log in iter_matches(path.name, path.read_bytes())]
    assert [r.points for r, _ in hands] == [h.points for rep in reports for h in rep.hands]
    check_hands(hands)


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("ghost13", TWO, None),
        ("brettspielnetz", TWO, None),
        ("39", TWO, None),
        ("double-bergen", ("Ana", "Ben", "Cleo", "Dev"), {"reserve": 2}),
        ("double-draw", ("Ana", "Ben", "Cleo", "Dev"), {"partners": True}),
        ("double-draw", ("Ana", "Ben", "Cleo"), None),
    ],
)
def test_the_last_step_of_every_simulated_hand_gives_the_result(
    variant: str, players: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    for seed in range(4):
        events = simulate_match(variant, seed, 0, list(players), options)
        for shown in (events, hide_match(events)):
            hands = scored_steps(to_bytes(shown))
            check_hands(hands)
            for result, hand in hands:  # the claims are the rules': every last step agrees
                assert ", as the rules give " in hand[-1], hand[-1]
                assert result.verified


def test_claim_of_keeps_a_winner_only_when_the_table_wrote_one() -> None:
    ev = parse_event({"type": "hand_end", "points": {"Ana": 3}})
    assert claim_of(ev) == {"points": {"Ana": 3}}
    ev = parse_event({"type": "hand_end", "winner": None})
    assert claim_of(ev) == {"points": None, "winner": None}


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS, ids=[f"{c[0]}-{len(c[1])}" for c in CONFIGS])
def test_ruling_C4_steps_never_fail_on_disputed_and_broken_logs(
    variant: str, players: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    """Reneges, wrong events mixed in (out of turn, tiles not held, wrong claims, deals mid-hand...): every
    hand still gets its steps, and the last one gives the result."""
    rng = random.Random(f"audit-scoring:{variant}:{len(players)}")
    for k in range(2):
        events = simulate_match(variant, 21, k, list(players), options, policy=reneging(3, rng))
        for shown in (events, hide_match(events)):
            plain = [{key: v for key, v in e.items() if key not in ("seq", "hash")} for e in shown]
            for _ in range(8):
                mixed = list(plain)
                for _ in range(3):
                    mixed.insert(rng.randint(1, len(mixed)), wrong_event(rng, players))
                check_hands(scored_steps(to_bytes(mixed)))
