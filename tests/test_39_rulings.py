"""Every ruling of 39 (C1-C5 as they apply, T1-T12) with exact per-play scores, preferred suits, hand points,
winners and violation seqs.

The hands are built by hand; ``seeds/39.md`` (sections 6, 16 and 17) draws and works through the same ones:

- the rule text's example, plays #1 to #12 (``replays/39-worked-example.jsonl``, built by
  ``replays/build_39.py``);
- ``domino_hand``: Ana sets 3-3 and keeps only threes, Ben holds no three and draws 16 tiles before the
  3-6 comes; the boneyard is then empty and Ana goes out at seq 32 (variants for the end bonus);
- ``pass_hand``: four straight arms from the set 6-6 all end in a 6 while every six is on the table, so
  nobody can play: Ana draws the last 8 tiles, both pass (a tie, or Ben wins, depending on a declaration);
- ``arms``: two arms meet (T5); ``blocked``: an open end with no room left (T5, T7);
- ``setside``: a match with the set's sides does not count (T7, T8); ``zero``: the 0-0 rule (T8).

Seq numbers: ``match_start`` is 1, the deal 2. A play by a player whose hand drops below 5 while the
boneyard lasts is followed by that player's refill draw (T9).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dominolog.layouts.grid import overlap
from dominolog.layouts.picture import text_picture
from dominolog.log.reader import iter_matches
from dominolog.reducer import reduce_match, verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.tiles import DOUBLE_SIX, Tile
from replays.build_39 import example_events
from tests.helpers import codes, deal, fold, hand_end, pass_, play, run, tiles, to_bytes

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
BOOK = ROOT / "seeds" / "39.md"
A, B = "Ana", "Ben"


def t39(events: list[dict[str, Any]], options: dict[str, Any] | None = None):
    return run(events, variant="39", options=options)


def f39(events: list[dict[str, Any]], upto: int | None = None, options: dict[str, Any] | None = None):
    return fold(events, upto, variant="39", options=options)


def draw(player: str, tile: str | None = None) -> dict[str, Any]:
    return {"type": "draw", "player": player, "tile": tile}


def declare(player: str, suit: str) -> dict[str, Any]:
    return {"type": "declare", "player": player, "suit": suit}


def reveal(player: str, left: list[str]) -> dict[str, Any]:
    return {"type": "reveal", "player": player, "tiles": left}


def match_end(**kw: Any) -> dict[str, Any]:
    return {"type": "match_end", **kw}


def turn(player: str, tile: str, end: str | None, refill: str | None, suit: str | None = None) -> list[dict]:
    """One play, the declaration it earned (if any) and the refill draw (if any)."""
    out = [play(player, tile, end)]
    if suit is not None:
        out.append(declare(player, suit))
    if refill is not None:
        out.append(draw(player, refill))
    return out


def scores(reducer) -> list[tuple[int, str, int]]:
    """(seq, player, points) of every placement of the open hand, the set included."""
    return [(s, p, pts) for s, p, pts, _, _ in reducer.state.hand.extra["scores"]]


def suits(reducer) -> list[tuple[int, str]]:
    """(seq of the play, preferred suit after it and its declaration)."""
    return [(s, pref) for s, _, _, _, pref in reducer.state.hand.extra["scores"]]


def matches(reducer) -> list[int]:
    """The seqs of the plays that made a match."""
    return [s for s, _, _, made, _ in reducer.state.hand.extra["scores"] if made]


def hand_of(reducer, player: str) -> list[str]:
    return sorted(str(t) for t in reducer.state.hand.holdings[player].known)


def hidden(events: list[dict], draws_seen: bool = True) -> list[dict]:
    """The same events as a recorder who saw no hand (and, with ``draws_seen=False``, no draw) writes them."""
    out = []
    for e in events:
        if e["type"] == "deal":
            e = {**e, "hands": None}
        elif e["type"] == "draw" and not draws_seen:
            e = {**e, "tile": None}
        out.append(e)
    return out


def swap(events: list[dict]) -> list[dict]:
    """The same hand with the players' seats exchanged."""
    names = {A: B, B: A}
    out = []
    for e in events:
        e = {k: names.get(v, v) if k in ("player", "leader", "chooser", "winner") else v for k, v in e.items()}
        if e.get("hands"):
            e["hands"] = {names[p]: h for p, h in e["hands"].items()}
        if e.get("points"):
            e["points"] = {names[p]: v for p, v in e["points"].items()}
        out.append(e)
    return out


def verify(events: list[dict]):
    """Verify a whole match given with its match_start (a simulated one)."""
    (log,) = list(iter_matches("sim.jsonl", to_bytes(events)))
    return reduce_match(log).report()


# -- the hands ---------------------------------------------------------------------------------------

NO_THREES = [str(t) for t in DOUBLE_SIX if not t.has(3)]  # the 21 tiles without a 3
DOMINO_ANA = tiles("3-3 0-3 1-3 2-3 3-4")
DOMINO_BEN = tiles("0-0 0-1 0-2 1-1 1-2")
BEN_DRAWS = [t for t in NO_THREES if t not in DOMINO_BEN]  # 16 tiles, none fits a 3


def domino_hand(
    ben24: tuple[str, str] = ("4-4", "3-4"), ben31: tuple[str, str] = ("6-6", "3-6:N"), tail: tuple = ()
) -> list[dict]:
    """Ana sets 3-3 and goes out at seq 32; Ben holds every tile without a 3 at the end (17 of them)."""
    return [
        deal(A, {A: DOMINO_ANA, B: DOMINO_BEN}),  # 2
        play(A, "3-3"),  # 3: the set, Even preferred
        draw(A, "3-5"),  # 4: refill
        *(draw(B, t) for t in BEN_DRAWS),  # 5-20: no three, nothing fits
        draw(B, "3-6"),  # 21: fits; the boneyard is empty
        play(B, "3-6", "3-3:N"),  # 22: leaves 6: 0
        play(A, "3-4", "3-3:E"),  # 23: leaves 4: 0
        play(B, *ben24),  # 24: (4-4: scores 4)
        play(A, "3-5", "3-3:S"),  # 25: leaves 5: -1
        play(B, "5-6", "3-5"),  # 26: leaves 6 and matches the 3-6: 0
        declare(B, "odd"),  # 27
        play(A, "2-3", "3-3:W"),  # 28: leaves 2: -1
        play(B, "2-1", "2-3"),  # 29: leaves 1: 0
        play(A, "1-3", "1-2"),  # 30: leaves 3: 0
        play(B, *ben31),  # 31: (6-6 under Odd: 0; it matches the 5-6)
        play(A, "0-3", "1-3"),  # 32: leaves 0: -1; Ana is out: domino
        *tail,
    ]


#: Ben's 17 tiles at the end of domino_hand(): 13 singlets, 1-1 2-2 5-5, and the 0-0
DOMINO_BEN_LEFT = sorted(set(NO_THREES) - {"4-4", "5-6", "1-2", "6-6"})


def pass_hand(ben_declares: bool) -> list[dict]:
    """Four straight arms from the set 6-6, each ending in a 6, all seven sixes on the table."""
    return [
        deal(A, {A: tiles("6-6 6-4 2-1 1-6 0-5"), B: tiles("6-2 6-0 4-3 3-6 5-6")}),  # 2
        *turn(A, "6-6", None, "0-0"),  # 3, 4: Even
        *turn(B, "6-2", "6-6:N", "1-1"),  # 5, 6: leaves 2: 0
        *turn(A, "6-4", "6-6:E", "2-2"),  # 7, 8: leaves 4: 0
        *turn(B, "6-0", "6-6:S", "3-3"),  # 9, 10: leaves 0: 0
        *turn(A, "2-1", "2-6", "4-4"),  # 11, 12: leaves 1: -1
        *turn(B, "4-3", "4-6", "5-5"),  # 13, 14: leaves 3: -1
        *turn(A, "1-6", "1-2", "0-1"),  # 15, 16: leaves 6: 0 (the set's W side does not count)
        *turn(B, "3-6", "3-4", "0-2", "odd" if ben_declares else None),  # 17 (18) 18|19: matches the 1-6
        *turn(A, "0-5", "0-6", "0-3"),  # leaves 5: 0 under Odd, -1 under Even
        *turn(B, "5-6", "0-5", "0-4"),  # leaves 6, matches: 0; 8 tiles left, every end shows 6
        *(draw(A, t) for t in tiles("1-3 1-4 1-5 2-3 2-4 2-5 3-5 4-5")),  # nothing fits: the boneyard empties
        pass_(A),
        pass_(B),
    ]


PASS_ANA_LEFT = tiles("0-0 2-2 4-4 0-1 0-3 1-3 1-4 1-5 2-3 2-4 2-5 3-5 4-5")


def arms(east_first: bool) -> list[dict]:
    """Set 4-1; the N arm 4-2, 2-2 and the E arm 4-3, 3-3; then 2-5 on 2-2:E and 3-6 on 3-3:N meet."""
    ana, ben = ("2-5", "3-6") if not east_first else ("3-6", "2-5")  # Ana's tile comes second (seq 15)
    return [
        deal(A, {A: ["1-4", "3-4", "3-3", ana, "0-0"], B: ["2-4", "2-2", ben, "0-1", "0-3"]}),  # 2
        *turn(A, "4-1", None, "0-5"),  # 3, 4: Odd
        *turn(B, "4-2", "4-1:N", "1-1"),  # 5, 6
        *turn(A, "4-3", "4-1:E", "5-5"),  # 7, 8
        *turn(B, "2-2", "2-4", "1-5"),  # 9, 10: crosswise at (-2,6)-(2,8)
        *turn(A, "3-3", "3-4", "0-6"),  # 11, 12: crosswise at (5,-1)-(7,3)
        *turn(B, ben, "3-3:N" if ben == "3-6" else "2-2:E", "5-6"),  # 13, 14
    ]


def blocked() -> list[dict]:
    """Set 4-1; the 2-2 at the head of the N arm leaves no room on the 4-4's N side (seq 9)."""
    return [
        deal(A, {A: tiles("1-4 2-4 4-5 0-5 3-4"), B: tiles("4-4 2-2 4-6 0-4 1-1")}),  # 2
        *turn(A, "4-1", None, "0-0"),  # 3, 4: Odd
        *turn(B, "4-4", "4-1:E", "5-5"),  # 5, 6: crosswise, 4 under Odd: 0
        *turn(A, "4-2", "4-1:N", "1-2"),  # 7, 8: touches the 4-4; leaves 2: -1
        *turn(B, "2-2", "2-4", "3-3"),  # 9, 10: 2 under Odd: 0
        *turn(A, "4-5", "4-4:E", "1-3"),  # 11, 12: leaves 5: 0
        *turn(B, "4-6", "4-4:S", "2-3"),  # 13, 14: touches the set; leaves 6: -1
        *turn(A, "5-0", "4-5", "0-6"),  # 15, 16: leaves 0: -1
        *turn(B, "0-4", "0-5", "5-6", "even"),  # 17, 18, 19: leaves 4, matches the blocked 4-4:N: 0
    ]


def setside() -> list[dict]:
    """Set 1-2 (N and E show 1, S and W show 2): a 2 left open next to the set's 2s is no match."""
    return [
        deal(A, {A: tiles("1-2 2-4 0-0 3-3 5-5"), B: tiles("1-4 2-2 0-1 0-3 1-3")}),  # 2
        *turn(A, "1-2", None, "6-6"),  # 3, 4: Odd
        *turn(B, "1-4", "1-2:N", "1-1"),  # 5, 6: leaves 4: -1
        play(A, "4-2", "1-4"),  # 7: leaves 2; only the set's sides show 2: no match, -1
        declare(A, "even"),  # 8: illegal
        draw(A, "0-5"),  # 9
        *turn(B, "2-2", "1-2:S", "3-5", "even"),  # 10, 11, 12: 2 matches the 4-2's end: 0, Even declared
    ]


def zero() -> list[dict]:
    """Set 4-0 (Even): 4-4 scores 4, 5-5 scores 0, then 0-0 scores the 4 of the last doublet that scored."""
    return [
        deal(A, {A: tiles("0-4 4-5 0-0 1-1 6-6"), B: tiles("4-4 5-5 0-1 0-3 1-3")}),  # 2
        *turn(A, "4-0", None, "2-2"),  # 3, 4: Even
        *turn(B, "4-4", "4-0:N", "1-2"),  # 5, 6: 4
        *turn(A, "4-5", "4-4:N", "3-3"),  # 7, 8: leaves 5: -1
        *turn(B, "5-5", "4-5", "2-3"),  # 9, 10: odd doublet under Even: 0
        *turn(A, "0-0", "4-0:S", "2-6"),  # 11, 12: 4
    ]


# -- the rule text's worked example ---------------------------------------------------------------------


def example_report():
    (log,) = list(iter_matches(REPLAYS / "39-worked-example.jsonl"))
    return log, reduce_match(log)


def test_ruling_T8_golden_worked_example_scores_suits_and_open_ends():
    log, reducer = example_report()
    report = reducer.report()
    assert report.valid and not report.complete and report.violations == [] and report.unverified == []
    assert log.records[1].obj["type"] == "note" and "example" in log.records[1].obj["text"]
    hand = reducer.state.hand
    plays = hand.extra["scores"]
    assert len(plays) == 12
    # plays #1 .. #12 alternate between Ana (the leader) and Ben
    assert [p for _, p, *_ in plays] == [A, B] * 6
    assert [pts for _, _, pts, _, _ in plays] == [0, -1, 0, 4, 0, 0, 0, 1, 0, 0, 3, -1]
    assert [made for *_, made, _ in plays] == [False] * 5 + [True, False, False, True, True, True, False]
    assert [pref for *_, pref in plays] == [
        "even",  # 1: the set 2-2
        "even",
        "even",
        "even",
        "even",
        "odd",  # 6: 6-4 matches the 4-4, Odd declared
        "odd",
        "odd",
        "even",  # 9: 1-4 matches the 6-4 and the 4-4, Even declared
        "odd",  # 10: 4-3 matches the 2-3, Odd declared
        "odd",  # 11: 3-3 matches the 2-3, Odd kept
        "odd",
    ]
    assert hand.points == {A: 3, B: 3}  # Ana 0+0+0+0+0+3, Ben -1+4+0+1+0-1
    # the final open ends, as the text sums them up
    by_value: dict[int, list[str]] = {}
    for name, value in hand.layout.ends().items():
        by_value.setdefault(value, []).append(name)
    assert by_value == {
        3: ["2-3:N", "3-3:N", "3-3:E", "3-3:S"],  # off the 3-2 and the 3-3 doublet
        4: ["4-4:N", "4-4:S", "4-6:S", "1-4:N"],  # off the 4-4 doublet, the 6-4 and the 1-4
        1: ["1-1:W"],  # off the 1-1 doublet
        6: ["1-6:S"],  # off the 1-6
    }
    # the deal holds 5 each, every refill is a known tile, and the log just stops after #12's refill
    assert {p: h.count for p, h in hand.holdings.items()} == {A: 5, B: 5} and hand.boneyard.count == 6
    assert hand.over is None and hand.turn == A and hand.conserved()


def test_worked_example_file_is_hashed_numbered_and_in_the_rulebook():
    log, reducer = example_report()
    events = [r.obj for r in log.records]
    assert [e["seq"] for e in events] == list(range(1, 32))
    assert all(re.fullmatch(r"[0-9a-f]{64}", e["hash"]) and "at" in e for e in events)
    assert [e["suit"] for e in events if e["type"] == "declare"] == ["odd", "even", "odd", "odd"]
    # play #2 is forced: Ben's only tile that fits the set's 2s is the 2-3
    reducer = reduce_match(log, upto_seq=5)
    hand = reducer.state.hand
    assert [str(t) for t in hand.holdings[B].known if t.has(2)] == ["2-3"]
    # the final table, as drawn in seeds/39.md
    _, full = example_report()
    assert text_picture(full.state.hand.layout) in BOOK.read_text(encoding="utf-8")


def test_ruling_T4_worked_example_play_12_could_go_either_side_of_the_1_1():
    log, reducer = example_report()
    before = reduce_match(log, upto_seq=29).state.hand
    variant = reducer.variant
    assert variant.places(before, Tile.parse("1-6")) == ["1-1:S", "1-1:W"]


# -- common rulings, as 39 uses them ----------------------------------------------------------------------


def test_ruling_C1_one_double_six_set_dealt_once():
    twice = t39([deal(A, {A: tiles("3-3 0-3 1-3 2-3 3-4"), B: tiles("3-3 0-1 0-2 1-1 1-2")})])
    assert codes(twice) == [(2, "bad-deal")] and twice.violations[0].message == "3-3 is dealt twice"
    hand = f39(domino_hand()[:1]).state.hand
    assert hand.boneyard.count == 18 and hand.conserved()
    assert Tile.parse("3-6") is Tile.parse("6-3") and Tile.parse("3-6").pips == 9


def test_ruling_C2_does_not_apply_the_table_is_two_dimensional():
    reducer = f39(pass_hand(True)[:9])
    ends = reducer.state.hand.layout.ends()
    assert ends == {"6-6:W": 6, "2-6:N": 2, "4-6:E": 4, "0-6:S": 0}
    assert "left" not in ends and "right" not in ends
    report = t39([*pass_hand(True)[:3], play(B, "6-2", "left")])
    assert codes(report) == [(5, "illegal")]
    assert report.violations[0].message == "'left' is not an open end of the table; placed on 6-6:N, where it fits"


def test_ruling_C3_renege_is_charged_to_the_draw_and_play_goes_on():
    events = [*pass_hand(False)[:3], draw(B, "1-1")]
    report = t39(events)
    assert codes(report) == [(5, "renege")]
    assert report.violations[0].message == "Ben draws while holding a legal play (0-6, 2-6, 3-6, 5-6 can be played)"
    hand = f39(events).state.hand
    assert hand.holdings[B].count == 6 and hand.turn == B  # the draw stands; Ben is still on move
    # Ben then plays (5 tiles left: no refill) and Ana goes on
    events += [play(B, "6-2", "6-6:N"), *pass_hand(False)[5:7]]
    reducer = f39(events)
    assert codes(reducer.report()) == [(5, "renege")]
    assert {str(t) for t in reducer.state.hand.layout.on_board} == {"6-6", "2-6", "4-6"}


def test_ruling_C4_only_reveal_note_hand_end_after_the_domino():
    events = [
        *domino_hand(),
        {"type": "note", "text": "Ana is out"},
        draw(B),  # 34
        declare(A, "even"),  # 35: 0-3 made no match
        play(B, "0-1", "3-0"),  # 36
        reveal(B, DOMINO_BEN_LEFT),
        hand_end({A: 24, B: 4}, A),
    ]
    report = t39(events)
    assert codes(report) == [(34, "out-of-order"), (35, "out-of-order"), (36, "out-of-order")]
    assert report.violations[0].message == "draw after hand 1 was over (domino at seq 32); ignored"
    assert report.hands[0].points == {A: 24, B: 4}


def test_ruling_C5_the_bonus_counts_every_tile_left_drawn_ones_too():
    reducer = f39(domino_hand())
    assert hand_of(reducer, B) == DOMINO_BEN_LEFT and len(DOMINO_BEN_LEFT) == 17
    report = t39([*domino_hand(), hand_end()])
    assert report.hands[0].detail == {"play_points": {A: -3, B: 4}, "bonus": 27}


# -- T1: players, hands, the match --------------------------------------------------------------------------


def test_ruling_T1_five_tiles_each_eighteen_in_the_boneyard():
    reducer = f39(domino_hand()[:1])
    hand = reducer.state.hand
    assert {p: h.count for p, h in hand.holdings.items()} == {A: 5, B: 5} and hand.boneyard.count == 18
    long = t39([deal(A, {A: [*DOMINO_ANA, "6-6"], B: DOMINO_BEN})])
    assert codes(long) == [(2, "bad-deal")] and long.violations[0].message == "Ana is dealt 6 tiles, not 5"
    three = run([], variant="39", players=(A, B, "Cleo"))
    assert codes(three) == [(1, "malformed")] and three.variant is None


def five_hands(last: list[dict]) -> list[dict]:
    """Five hands: domino (Ana), the same swapped (Ben), passes (Ben), passes swapped (Ana), then ``last``."""
    dom = [*domino_hand(), hand_end({A: 24, B: 4}, A)]
    pas = [*pass_hand(False), hand_end({A: -2, B: -1}, B)]
    two, three, four = swap(dom), list(pas), swap(pas)
    two[0] = {**two[0], "chooser": B}  # Ben lost hand 1 and lets himself lead
    three[0] = {**three[0], "chooser": A}  # Ana lost hand 2
    four[0] = {**four[0], "chooser": A}  # Ana lost hand 3
    return [*dom, *two, *three, *four, *last]


def test_ruling_T1_five_hands_equal_totals_draw():
    tie = pass_hand(True)
    tie[0] = {**tie[0], "chooser": B}  # Ben lost hand 4
    events = five_hands([*tie, hand_end({A: -1, B: -1}, None), match_end(totals={A: 24, B: 24}, winner=None)])
    report = t39(events)
    assert codes(report) == [] and report.complete
    assert [(h.end, h.winner, h.points) for h in report.hands] == [
        ("domino", A, {A: 24, B: 4}),
        ("domino", B, {A: 4, B: 24}),
        ("passes", B, {A: -2, B: -1}),
        ("passes", A, {A: -1, B: -2}),
        ("passes", None, {A: -1, B: -1}),
    ]
    assert report.totals == {A: 24, B: 24} and report.winner is None


def test_ruling_T1_higher_total_wins_and_the_match_is_five_hands():
    last = pass_hand(False)
    last[0] = {**last[0], "chooser": B}
    events = five_hands([*last, hand_end({A: -2, B: -1}, B), match_end(totals={A: 23, B: 24}, winner=B)])
    report = t39(events)
    assert codes(report) == [] and report.totals == {A: 23, B: 24} and report.winner == B
    # after four hands the match is not over
    early = t39([*five_hands([]), match_end()])
    assert codes(early) == [(len(five_hands([])) + 2, "out-of-order")]
    assert early.violations[0].message == "match_end too early: the match is not over after 4 hands"


def test_ruling_T1_option_hands():
    events = [*domino_hand(), hand_end({A: 24, B: 4}, A), match_end(totals={A: 24, B: 4}, winner=A)]
    report = t39(events, options={"hands": 1})
    assert codes(report) == [] and report.winner == A
    bad = t39([], options={"hands": 0})
    assert codes(bad) == [(1, "malformed")]
    assert bad.violations[0].message == "match_start: option 'hands' must be at least 1"


# -- T2: who leads ---------------------------------------------------------------------------------------------


HAND_1 = [*domino_hand(), hand_end({A: 24, B: 4}, A)]  # seq 2-33; Ana wins, Ben loses


def test_ruling_T2_the_loser_chooses_any_leader():
    for leader in (A, B):
        report = t39([*HAND_1, deal(leader, None, chooser=B)])
        assert codes(report) == []
    # the deal may leave the chooser out
    assert codes(t39([*HAND_1, deal(A, None)])) == []


def test_ruling_T2_a_wrong_chooser_is_a_bad_deal():
    report = t39([*HAND_1, deal(B, None, chooser=A)])
    assert codes(report) == [(34, "bad-deal")]
    assert report.violations[0].message == "Ana chose the leader, but Ben lost hand 1"


def test_ruling_T2_after_a_tied_hand_anyone_chooses():
    tie = [*pass_hand(True), hand_end({A: -1, B: -1}, None)]  # seq 2-34
    for chooser in (A, B):
        assert codes(t39([*tie, deal(B, None, chooser=chooser)])) == []


def test_ruling_T2_hand_one_leader_is_named_in_the_deal():
    reducer = f39(swap(domino_hand())[:2])
    assert reducer.state.hand.leader == B and codes(reducer.report()) == []
    # the leader sets; the other player may not
    report = t39([deal(A, {A: DOMINO_ANA, B: DOMINO_BEN}), play(B, "0-1")])
    assert codes(report) == [(3, "illegal")] and report.violations[0].message == "not Ben's turn (Ana is on move)"


# -- T3: the set --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "sides"),
    [
        ("3-2", {"2-3:N": 3, "2-3:E": 3, "2-3:S": 2, "2-3:W": 2}),
        ("2-3", {"2-3:N": 2, "2-3:E": 2, "2-3:S": 3, "2-3:W": 3}),
        ("5-5", {"5-5:N": 5, "5-5:E": 5, "5-5:S": 5, "5-5:W": 5}),
    ],
)
def test_ruling_T3_the_set_has_four_sides(written, sides):
    reducer = f39([deal(A, None), play(A, written)])
    hand = reducer.state.hand
    assert hand.layout.ends() == sides
    placed = hand.layout.placed[Tile.parse(written)]
    assert placed.rect == (-1, -2, 1, 2) and not placed.horizontal and placed.kind == "first"
    assert placed.halves == (int(written[0]), int(written[2]))
    assert scores(reducer) == [(3, A, 0)]  # the set never scores


def test_ruling_T3_east_beside_the_north_half_west_beside_the_south_half():
    events = [deal(A, None), play(A, "3-2"), draw(A), play(B, "3-5", "2-3:E"), draw(B), play(A, "2-6", "2-3:W")]
    reducer = f39(events)
    assert codes(reducer.report()) == []
    layout = reducer.state.hand.layout
    assert layout.placed[Tile.parse("3-5")].rect == (1, 0, 5, 2)  # y 0..2: beside the north half (the 3)
    assert layout.placed[Tile.parse("2-6")].rect == (-5, -2, -1, 0)  # y -2..0: beside the south half (the 2)
    assert layout.ends() == {"2-3:N": 3, "2-3:S": 2, "3-5:E": 5, "2-6:W": 6}
    # a 3 on the south side does not match it
    report = t39([*events[:3], play(B, "3-5", "2-3:S")])
    assert codes(report) == [(5, "illegal")]
    assert report.violations[0].message == "3-5 does not match 2-3:S (it shows 2); placed on 2-3:N, where it fits"


# -- T4: spinners and straight lines -------------------------------------------------------------------------


def test_ruling_T4_a_crosswise_doublet_has_three_free_sides():
    reducer = f39(blocked()[:5])
    layout = reducer.state.hand.layout
    four = layout.placed[Tile.parse("4-4")]
    assert four.kind == "cross" and four.rect == (1, -1, 3, 3) and not four.horizontal  # across the E-W line
    assert {n: v for n, v in layout.ends().items() if n.startswith("4-4")} == {"4-4:N": 4, "4-4:E": 4, "4-4:S": 4}
    # the worked example: three tiles against the 1-1, one side still free
    _, ex = example_report()
    assert [n for n in ex.state.hand.layout.ends() if n.startswith("1-1")] == ["1-1:W"]


def test_ruling_T4_a_singlet_has_one_end_straight_on():
    reducer = f39(blocked())
    layout = reducer.state.hand.layout
    ends = layout.ends()
    assert [n for n in ends if n.startswith(("4-5", "0-5", "0-4"))] == ["0-4:E"]
    east = [layout.placed[Tile.parse(t)].rect for t in ("4-5", "0-5", "0-4")]
    assert east == [(3, 0, 7, 2), (7, 0, 11, 2), (11, 0, 15, 2)]  # one straight line at y 0..2
    assert layout.placed[Tile.parse("4-6")].rect == (1, -5, 3, -1)  # 4-4:S: the line runs south


def test_ruling_T4_lines_never_bend():
    # a singlet's end is straight on only: its sides are not ends
    report = t39([*blocked()[:13], play(A, "5-0", "4-5:N")])
    assert codes(report) == [(15, "illegal")]
    assert report.violations[0].message == "'4-5:N' is not an open end of the table; placed on 4-5:E, where it fits"
    # the end may be written as the singlet alone
    assert codes(t39(blocked())) == []


# -- T5: overlap ---------------------------------------------------------------------------------------------


def test_ruling_T5_arms_that_meet_the_second_play_is_illegal_and_not_placed():
    events = [*arms(east_first=False), play(A, "2-5", "2-2:E")]  # 2-5 would cross the 3-6
    report = t39(events)
    assert codes(report) == [(15, "illegal")]
    assert report.violations[0].message == "2-5 on 2-2:E would overlap 3-6; not placed"
    hand = f39(events).state.hand
    assert Tile.parse("2-5") not in hand.layout.on_board and "2-5" in hand_of(f39(events), A)
    assert hand.holdings[A].count == 5 and hand.turn == B and hand.extra["refill"] is False
    assert "2-2:E" in hand.layout.ends()  # the side stays open


def test_ruling_T5_whichever_arm_comes_second_is_illegal():
    events = [*arms(east_first=True), play(A, "3-6", "3-3:N")]
    report = t39(events)
    assert codes(report) == [(15, "illegal")]
    assert report.violations[0].message == "3-6 on 3-3:N would overlap 2-5; not placed"
    layout = f39(events).state.hand.layout
    assert layout.placed[Tile.parse("2-5")].rect == (2, 6, 6, 8)


def test_ruling_T5_only_sides_with_room_are_offered():
    events = [*arms(east_first=False), play(A, "2-5")]
    report = t39(events)
    assert codes(report) == [(15, "ambiguous")]
    assert report.violations[0].message == "2-5 fits 2-2:N, 2-2:W and no end is given; taken as 2-2:N"


def test_ruling_T5_no_room_anywhere():
    events = blocked()[:13]  # the 4-4's N side is the only 4 left, and the 2-2 fills its room
    assert f39(events).state.hand.layout.ends()["4-4:N"] == 4
    report = t39([*events, play(A, "3-4")])
    assert codes(report) == [(15, "illegal")] and report.violations[0].message == "3-4 has no room; not placed"
    report = t39([*events, play(A, "3-4", "4-4:N")])
    assert codes(report) == [(15, "illegal")]
    assert report.violations[0].message == "3-4 on 4-4:N would overlap 2-2; not placed"
    # and before the 2-2 came, the 4-6 fitted there
    assert codes(t39([*blocked()[:7], play(B, "4-6", "4-4:N")])) == []
    report = t39([*blocked()[:11], play(B, "4-6", "4-4:N")])
    assert codes(report) == [(13, "illegal")]


def test_ruling_T5_touching_is_not_overlapping():
    reducer = f39(blocked())
    assert codes(reducer.report()) == []
    placed = reducer.state.hand.layout.placed
    rect = {t: placed[Tile.parse(t)].rect for t in ("4-1", "4-4", "4-2", "2-2", "4-6")}
    assert rect == {
        "4-1": (-1, -2, 1, 2),
        "4-4": (1, -1, 3, 3),
        "4-2": (-1, 2, 1, 6),
        "2-2": (-2, 6, 2, 8),
        "4-6": (1, -5, 3, -1),
    }
    for a, b in [("4-2", "4-4"), ("4-2", "2-2"), ("4-6", "4-1"), ("4-4", "4-1")]:  # they share an edge
        assert not overlap(rect[a], rect[b])
    assert overlap((1, 3, 3, 7), rect["2-2"])  # a tile on the 4-4's N side would not only touch


def test_ruling_T5_the_rulebook_pictures_are_the_real_layouts():
    book = BOOK.read_text(encoding="utf-8")
    four_arms = [deal(A, None), play(A, "3-2"), draw(A), play(B, "3-1", "2-3:N"), draw(B)]
    four_arms += [play(A, "3-5", "2-3:E"), draw(A), play(B, "2-4", "2-3:S"), draw(B), play(A, "2-6", "2-3:W")]
    layouts = {
        "the set 3-2": [deal(A, None), play(A, "3-2")],
        "the set with four arms": four_arms,
        "a crosswise doublet": blocked()[:5],
        "touching and no room": blocked(),
        "two arms meet": arms(east_first=False),
    }
    for what, events in layouts.items():
        reducer = f39(events)
        assert codes(reducer.report()) == [], what
        assert f"```\n{text_picture(reducer.state.hand.layout)}\n```" in book, what


# -- T6: the preferred suit ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "suit"), [("3-2", "odd"), ("2-2", "even"), ("0-0", "even"), ("6-5", "odd"), ("0-1", "odd")]
)
def test_ruling_T6_the_set_decides_the_first_preferred_suit(setting, suit):
    reducer = f39([deal(A, None), play(A, setting)])
    assert suits(reducer) == [(3, suit)] and reducer.state.hand.extra["preferred"] == suit


def test_ruling_T6_even_and_odd_ends():
    # Odd preferred (set 4-1): a 3 left open scores 0, a 2 or a 6 scores -1
    reducer = f39(arms(east_first=False))
    assert scores(reducer) == [(3, A, 0), (5, B, -1), (7, A, 0), (9, B, 0), (11, A, 3), (13, B, -1)]


# -- T7: matches and declarations --------------------------------------------------------------------------------


def test_ruling_T7_a_match_lets_the_player_declare():
    _, reducer = example_report()
    assert matches(reducer) == [14, 21, 24, 27]
    # the worked example as logged: #6 (seq 13) declares Odd at seq 14, and so on
    log, _ = example_report()
    declares = [(r.seq, r.obj["player"], r.obj["suit"]) for r in log.records if r.type == "declare"]
    assert declares == [(15, B, "odd"), (22, A, "even"), (25, B, "odd"), (28, A, "odd")]


def test_ruling_T7_the_set_sides_do_not_count():
    report = t39(setside())
    assert codes(report) == [(8, "illegal")]
    assert report.violations[0].message == "Ana declares even without a match just made"
    reducer = f39(setside())
    assert scores(reducer) == [(3, A, 0), (5, B, -1), (7, A, -1), (10, B, 0)]
    assert matches(reducer) == [10] and suits(reducer)[-2:] == [(7, "odd"), (10, "even")]


def test_ruling_T7_an_open_end_with_no_room_still_matches():
    reducer = f39(blocked())
    assert matches(reducer) == [17]  # 0-4 leaves 4; the only other 4 is the 4-4's blocked N side
    assert scores(reducer)[-1] == (17, B, 0) and suits(reducer)[-1] == (17, "even")


@pytest.mark.parametrize(
    ("events", "seq", "message"),
    [
        # a declaration after a play that made no match (#5)
        ("after #5", 12, "Ana declares odd without a match just made"),
        # the other player after a match (#6)
        ("other player", 14, "Ana declares even without a match just made"),
        # a second declaration
        ("twice", 15, "Ben declares even without a match just made"),
        # after the refill draw: too late
        ("after the draw", 15, "Ben declares odd without a match just made"),
    ],
)
def test_ruling_T7_declare_without_a_match_is_illegal(events, seq, message):
    ex = example_events()[2:]  # the deal, plays and draws, as after the match_start and the note (seq 2 on)
    base = ex[:12]  # up to #6's play (seq 13)
    if events == "after #5":
        log = [*ex[:10], declare(A, "odd")]
    elif events == "other player":
        log = [*base, declare(A, "even"), declare(B, "odd")]
    elif events == "twice":
        log = [*base, declare(B, "odd"), declare(B, "even")]
    else:
        log = [*base, draw(B, "3-4"), declare(B, "odd")]
    report = t39(log)
    assert codes(report) == [(seq, "illegal")] and report.violations[0].message == message
    if events == "other player":  # Ben keeps his right and uses it
        assert suits(f39(log))[-1] == (13, "odd")


def test_ruling_T7_no_declaration_leaves_the_suit():
    reducer = f39(pass_hand(False))
    assert matches(reducer) == [17, 21] and {s for _, s in suits(reducer)} == {"even"}


def test_ruling_T7_declare_after_the_play_that_empties_the_hand():
    events = domino_hand(ben31=("6-0", "3-6:N"), tail=(declare(A, "even"),))  # 0-3 leaves 0, matches the 6-0
    reducer = f39(events)
    assert codes(reducer.report()) == [] and reducer.state.hand.over == "domino"
    assert scores(reducer)[-2:] == [(31, B, -1), (32, A, 0)] and suits(reducer)[-1] == (32, "even")
    report = t39([*events, declare(A, "odd"), reveal(B, hand_of(reducer, B)), hand_end({A: 28, B: 3}, A)])
    assert codes(report) == [(34, "out-of-order")]  # one declaration only


# -- T8: scoring each play ------------------------------------------------------------------------------------


def test_ruling_T8_doublets_score_their_value_in_the_preferred_suit_only():
    reducer = f39(domino_hand())
    assert scores(reducer) == [
        (3, A, 0),  # the set
        (22, B, 0),  # 3-6 leaves 6
        (23, A, 0),  # 3-4 leaves 4
        (24, B, 4),  # 4-4, Even preferred
        (25, A, -1),  # 3-5 leaves 5
        (26, B, 0),  # 5-6 leaves 6 (and matches)
        (28, A, -1),  # 2-3 leaves 2, Odd preferred
        (29, B, 0),  # 2-1 leaves 1
        (30, A, 0),  # 1-3 leaves 3
        (31, B, 0),  # 6-6, Odd preferred: 0 (its match does not make it score)
        (32, A, -1),  # 0-3 leaves 0
    ]
    assert reducer.state.hand.points == {A: -3, B: 4}


def test_ruling_T8_a_play_scores_before_the_declaration_it_earns():
    # Ben's 6-6 (seq 31) under Odd scores 0 though he then declares Even; Ana's 0-3 then leaves a preferred 0
    reducer = f39(domino_hand()[:29] + [play(B, "6-6", "3-6:N"), declare(B, "even"), play(A, "0-3", "1-3")])
    assert scores(reducer)[-2:] == [(31, B, 0), (33, A, 0)] and suits(reducer)[-2:] == [(31, "even"), (33, "even")]


def test_ruling_T8_zero_zero_scores_the_last_doublet_that_scored():
    reducer = f39(zero())
    assert codes(reducer.report()) == []
    assert scores(reducer) == [(3, A, 0), (5, B, 4), (7, A, -1), (9, B, 0), (11, A, 4)]


@pytest.mark.parametrize(
    ("setting", "plays", "points"),
    [
        ("0-2", [("0-0", "0-2:N")], 0),  # Even, but no doublet has scored yet
        ("0-1", [("0-0", "0-1:N")], 0),  # Odd preferred
        ("4-4", [("4-0", "4-4:N"), ("0-0", "0-4")], 0),  # the set is a doublet but never scores
    ],
)
def test_ruling_T8_zero_zero_scores_nothing_otherwise(setting, plays, points):
    events: list[dict] = [deal(A, None), play(A, setting), draw(A)]
    who = [B, A]
    for i, (tile, end) in enumerate(plays):
        events += [play(who[i % 2], tile, end), draw(who[i % 2])]
    reducer = f39(events)
    assert codes(reducer.report()) == []
    assert scores(reducer)[-1][2] == points


def test_ruling_T8_singlets_zero_or_minus_one_and_the_match_exemption():
    _, reducer = example_report()
    got = {s: pts for s, _, pts in scores(reducer)}
    assert got[6] == -1  # #2: 2-3 leaves 3, Even preferred
    assert got[8] == 0  # #3: 2-4 leaves 4
    assert got[21] == 0  # #9: 1-4 leaves 4 under Odd, but matches
    assert got[24] == 0  # #10: 4-3 leaves 3 under Even, but matches
    assert got[30] == -1  # #12: 1-6 leaves 6 under Odd
    # matching only the set's sides does not protect (set 1-2, the 4-2 leaves 2 under Odd)
    assert scores(f39(setside()))[2] == (7, A, -1)


# -- T9: drawing and passing --------------------------------------------------------------------------------


def test_ruling_T9_draw_until_a_tile_fits_then_play_it():
    reducer = f39(domino_hand()[:20])
    assert codes(reducer.report()) == []
    hand = reducer.state.hand
    assert hand.turn == B and hand.holdings[B].count == 5 + 17 and hand.boneyard.count == 0
    assert hand.extra["refill"] is False
    # one more draw after the 3-6 came would be a renege; so is passing with it
    report = t39([*domino_hand()[:18], draw(B, "3-6"), draw(B, BEN_DRAWS[-1])])
    assert codes(report) == [(21, "renege")]
    assert report.violations[0].message == "Ben draws while holding a legal play (3-6 can be played)"
    # the drawn tile is the one to play: nothing else fits
    report = t39([*domino_hand()[:20], play(B, "0-1")])
    assert codes(report) == [(22, "illegal")] and report.violations[0].message == "0-1 fits no open end; not placed"


def test_ruling_T9_refill_to_five_after_each_play():
    reducer = f39(pass_hand(True)[:4])
    hand = reducer.state.hand
    assert hand.turn == B and hand.holdings[B].count == 4 and hand.extra["refill"] is True
    reducer = f39(pass_hand(True)[:5])
    hand = reducer.state.hand
    assert hand.turn == A and hand.holdings[B].count == 5 and hand.boneyard.count == 16
    # playing again instead of drawing, or the other player going on
    report = t39([*pass_hand(True)[:4], play(B, "6-0", "6-6:S")])
    assert codes(report) == [(6, "illegal")] and report.violations[0].message == (
        "Ben plays again instead of drawing back up to 5"
    )
    report = t39([*pass_hand(True)[:4], play(A, "6-4", "6-6:E")])
    assert codes(report) == [(6, "illegal")] and report.violations[0].message == "not Ana's turn (Ben is on move)"
    # no refill above 5 or from an empty boneyard: after the 3-6 Ben holds 21, and the turn passes
    hand = f39(domino_hand()[:21]).state.hand
    assert hand.holdings[B].count == 21 and hand.turn == A and hand.extra["refill"] is False


def test_ruling_T9_pass_only_with_an_empty_boneyard():
    events = pass_hand(True)
    assert codes(t39(events)) == []
    report = t39([*events[:-3], pass_(A)])  # Ana passes with one tile left to draw
    assert codes(report) == [(31, "illegal")]
    assert report.violations[0].message == (
        "Ana passes while the boneyard still holds 1 tile: must draw (no tile can be played)"
    )


def test_ruling_T9_pass_holding_a_playable_tile_is_a_renege_only():
    report = t39([*pass_hand(True)[:3], pass_(B)])
    assert codes(report) == [(5, "renege")]
    assert report.violations[0].message == "Ben passes while holding a legal play (0-6, 2-6, 3-6, 5-6 can be played)"


def test_ruling_T9_a_pass_instead_of_the_refill_is_illegal():
    events = domino_hand()
    events[2] = pass_(A)  # seq 4: Ana owes a draw
    events.insert(22, draw(A, "3-5"))  # she draws it after her next play (seq 24)
    report = t39([*events, hand_end({A: 24, B: 4}, A)])
    assert codes(report) == [(4, "illegal")]
    assert report.violations[0].message == "Ana passes instead of drawing back up to 5"


def renege_hand() -> list[dict]:
    """Ben draws 15 tiles and the 3-6, then passes (seq 21) with one tile left in the boneyard; Ana goes out."""
    return [
        deal(A, {A: DOMINO_ANA, B: DOMINO_BEN}),  # 2
        *turn(A, "3-3", None, "3-5"),  # 3, 4
        *(draw(B, t) for t in BEN_DRAWS if t != "5-5"),  # 5-19
        draw(B, "3-6"),  # 20
        pass_(B),  # 21: a renege
        *turn(A, "3-4", "3-3:E", "5-5"),  # 22, 23: the boneyard is empty
        play(B, "3-6", "3-3:N"),  # 24
        play(A, "3-5", "3-3:S"),  # 25
        play(B, "4-4", "3-4"),  # 26
        play(A, "5-5", "3-5"),  # 27
        play(B, "6-6", "3-6"),  # 28
        play(A, "2-3", "3-3:W"),  # 29
        play(B, "2-1", "2-3"),  # 30
        play(A, "1-3", "1-2"),  # 31
        play(B, "4-5", "4-4:E"),  # 32
        play(A, "0-3", "1-3"),  # 33: domino
    ]


def test_ruling_T9_hidden_pass_is_a_renege_or_illegal_never_both():
    events = renege_hand()
    reducer = f39(events)
    left = hand_of(reducer, B)
    full = t39([*events, hand_end()])
    assert codes(full) == [(21, "renege")]
    assert full.hands[0].points == {A: 20, B: 9}
    for draws_seen in (True, False):
        report = t39([*hidden(events, draws_seen), reveal(B, left), hand_end()])
        assert codes(report) == [(21, "renege")], draws_seen
        assert report.violations[0].message.startswith("Ben passes while holding a legal play (")
        assert [h.as_dict() for h in report.hands] == [h.as_dict() for h in full.hands]


# -- T10: the end of a hand ----------------------------------------------------------------------------------


def test_ruling_T10_domino_ends_the_hand_at_the_play():
    reducer = f39(domino_hand())
    hand = reducer.state.hand
    assert (hand.over, hand.over_seq) == ("domino", 32) and hand.holdings[A].count == 0
    # one play earlier the hand is not over
    assert f39(domino_hand()[:30]).state.hand.over is None


def test_ruling_T10_two_passes_end_the_hand():
    events = pass_hand(True)
    assert f39(events[:-1]).state.hand.over is None  # one pass is not enough
    hand = f39(events).state.hand
    assert (hand.over, hand.over_seq) == ("passes", 33)
    assert hand_of(f39(events), A) == sorted(PASS_ANA_LEFT) and hand.holdings[B].count == 5
    report = t39([*events, hand_end({A: -1, B: -1}, None)])
    assert codes(report) == [] and report.hands[0].end == "passes"
    # a hand_end before the second pass is too early
    report = t39([*events[:-1], hand_end()])
    assert codes(report) == [(33, "out-of-order")]


# -- T11: the end bonus ----------------------------------------------------------------------------------------


def test_ruling_T11_singlets_one_doublets_their_value_zero_zero_the_last_doublet():
    # 13 singlets + 1-1 2-2 5-5 (8) + 0-0 worth the 6-6 (the last doublet placed, though it scored 0) = 27
    report = t39([*domino_hand(), hand_end({A: 24, B: 4}, A)])
    assert codes(report) == []
    assert report.hands[0].as_dict() == {
        "number": 1,
        "end": "domino",
        "winner": A,
        "points": {A: 24, B: 4},
        "play_points": {A: -3, B: 4},
        "bonus": 27,
    }


def test_ruling_T11_zero_zero_worth_the_last_doublet_placed():
    # the 6-0 instead of the 6-6: the last doublet placed is the 4-4 (seq 24); 12 singlets + 1+2+5+6 + 4 = 30
    events = domino_hand(ben31=("6-0", "3-6:N"))
    report = t39([*events, hand_end({A: 28, B: 3}, A)])
    assert codes(report) == [] and report.hands[0].detail == {"play_points": {A: -2, B: 3}, "bonus": 30}


def test_ruling_T11_zero_zero_worth_the_set_when_no_other_doublet():
    # no doublet but the set 3-3: Ben keeps all six other doublets; 11 singlets + 1+2+4+5+6 + 3 = 32
    events = domino_hand(ben24=("4-5", "3-4"), ben31=("6-4", "3-6:N"))
    reducer = f39(events)
    assert scores(reducer) == [
        (3, A, 0),
        (22, B, 0),
        (23, A, 0),
        (24, B, -1),  # 4-5 leaves 5 under Even
        (25, A, 0),  # 3-5 leaves 5 under Even, but matches the 4-5
        (26, B, 0),
        (28, A, -1),
        (29, B, 0),
        (30, A, 0),
        (31, B, -1),  # 6-4 leaves 4 under Odd
        (32, A, -1),
    ]
    report = t39([*events, hand_end({A: 30, B: -2}, A)])
    assert codes(report) == [] and report.hands[0].detail == {"play_points": {A: -2, B: -2}, "bonus": 32}


def test_ruling_T11_no_bonus_after_two_passes():
    report = t39([*pass_hand(False), hand_end({A: -2, B: -1}, B)])
    assert codes(report) == []
    assert report.hands[0].detail == {"play_points": {A: -2, B: -1}, "bonus": 0}  # Ana holds 13 tiles


# -- T12: the winner of a hand ---------------------------------------------------------------------------------


def test_ruling_T12_more_points_wins_even_below_zero():
    report = t39([*pass_hand(False), hand_end({A: -2, B: -1}, B)])
    assert (report.hands[0].winner, report.hands[0].points) == (B, {A: -2, B: -1})


def test_ruling_T12_equal_points_no_winner():
    events = pass_hand(True)  # Ben's declaration of Odd saves Ana's 0-5
    reducer = f39(events)
    assert scores(reducer) == [
        (3, A, 0),
        (5, B, 0),
        (7, A, 0),
        (9, B, 0),
        (11, A, -1),
        (13, B, -1),
        (15, A, 0),
        (17, B, 0),
        (20, A, 0),
        (22, B, 0),
    ]
    report = t39([*events, hand_end({A: -1, B: -1}, A)])
    assert codes(report) == [(34, "score-mismatch")]
    assert report.violations[0].message == "hand 1 (passes): claimed winner Ana; the rules give no winner"


def test_ruling_T12_the_bonus_counts_for_the_winner():
    report = t39([*domino_hand(), hand_end({A: -3, B: 4}, B)])
    assert codes(report) == [(33, "score-mismatch"), (33, "score-mismatch")]
    assert report.violations[0].message == ("hand 1 (domino): claimed Ana -3, Ben 4; the rules give Ana 24, Ben 4")


# -- hidden information ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("draws_seen", [True, False])
def test_ruling_T11_hidden_hands_score_the_same(draws_seen):
    events = domino_hand()
    full = f39(events)
    report = t39([*hidden(events, draws_seen), reveal(B, DOMINO_BEN_LEFT), hand_end({A: 24, B: 4}, A)])
    assert codes(report) == []
    assert report.hands[0].as_dict() == t39([*events, hand_end()]).hands[0].as_dict()
    assert scores(f39(hidden(events, draws_seen))) == scores(full)
    if draws_seen:  # the reveals give back the deal: every rule is checked
        assert report.unverified == []
    else:  # which of Ben's unseen draws brought the 3-6 stays open
        assert {u.code for u in report.unverified} == {"renege"} and {u.seq for u in report.unverified} <= set(
            range(5, 22)
        )


def test_ruling_T11_hidden_loser_hand_is_known_by_elimination():
    # after a domino the boneyard is empty and the winner holds nothing: every unseen tile is the loser's
    events = hidden(domino_hand(), draws_seen=False)
    report = t39([*events, hand_end({A: 24, B: 4}, A)])
    assert codes(report) == [] and "score-mismatch" not in {u.code for u in report.unverified}
    assert report.hands[0].detail == {"play_points": {A: -3, B: 4}, "bonus": 27}
    wrong = t39([*events, hand_end({A: -3, B: 4}, B)])
    assert codes(wrong) == [(33, "score-mismatch"), (33, "score-mismatch")]


@pytest.mark.parametrize("draws_seen", [True, False])
def test_ruling_T10_hidden_two_passes_score_without_reveals(draws_seen):
    # every end shows 6 and all sixes are on the table: both passes are sure to be forced
    report = t39([*hidden(pass_hand(False), draws_seen), hand_end({A: -2, B: -1}, B)])
    assert codes(report) == [] and report.unverified == []
    assert report.hands[0].as_dict() == t39([*pass_hand(False), hand_end()]).hands[0].as_dict()


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_simulated_matches_verify_and_score_the_same_hidden(seed):
    events = simulate_match("39", seed)
    full = verify(events)
    assert full.valid and full.complete and not full.unverified and len(full.hands) == 5
    for viewer in (None, A):
        seen = verify(hide_match(events, viewer))
        assert seen.valid and seen.complete
        assert [h.as_dict() for h in seen.hands] == [h.as_dict() for h in full.hands]
        assert (seen.totals, seen.winner) == (full.totals, full.winner)


# -- the bundled replays ---------------------------------------------------------------------------------------


def replay_reports(name: str):
    return [verify_match(log) for log in iter_matches(REPLAYS / name)]


def test_39_simulated_replay_is_valid_and_complete():
    (r,) = replay_reports("39-simulated.jsonl")
    assert r.valid and r.complete and not r.unverified and len(r.hands) == 5
    assert r.totals == {A: 5, B: 3} and r.winner == A


def test_39_disputed_replay_flags_the_overlap_the_declaration_and_the_claim():
    (r,) = replay_reports("39-disputed.jsonl")
    assert [(v.seq, v.code) for v in r.violations] == [
        (53, "score-mismatch"),
        (62, "illegal"),
        (200, "illegal"),
        (202, "illegal"),
    ]
    messages = [v.message for v in r.violations]
    assert messages[0] == "hand 1 (domino): claimed Ana 1, Ben 1; the rules give Ana 4, Ben 1"
    assert messages[1] == "Ben declares odd without a match just made"
    assert messages[2] == "0-1 on 0-0:E would overlap 3-3; not placed"
    # the failed attempt cost Ben the turn (the tile is not placed), so his real play is out of turn
    assert messages[3] == "not Ben's turn (Ana is on move)"
    assert r.complete and r.totals == {A: 5, B: 10} and r.winner == B


# -- a wrong end ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upto", "wrong", "message"),
    [
        (3, play(B, "6-2", "left"), "'left' is not an open end of the table; placed on 6-6:N, where it fits"),
        (3, play(B, "6-2", "1-1:N"), "'1-1:N' is not an open end of the table; placed on 6-6:N, where it fits"),
        (5, play(A, "6-4", "2-6"), "4-6 does not match 2-6:N (it shows 2); placed on 6-6:E, where it fits"),
        (5, play(A, "0-0", "2-6"), "0-0 does not match 2-6:N (it shows 2); not placed"),
    ],
)
def test_ruling_C3_a_wrong_end_is_one_violation(upto, wrong, message):
    report = t39([*pass_hand(True)[:upto], wrong])
    assert codes(report) == [(upto + 2, "illegal")] and report.violations[0].message == message
