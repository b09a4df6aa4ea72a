"""The dispute replays (``replays/disputes/``): each small match puts one arbiter's question, in a ``note``
right after ``match_start``; ``replays/disputes/README.md`` gives the answer the log supports and why.

``EXPECTED`` is what an audit of each file must conclude: ``certain`` the violations the log proves,
``possible`` the rules that some hands consistent with the log break and others keep (as (seq, code); a
``score-mismatch`` is listed once per wrong claim: the points, then the winner). The tests below check what
``verify`` reports today: its violations are exactly the certain ones and its unverified rules exactly the
possible ones, for every file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dominolog.recording.notation import iter_matches_any
from dominolog.reducer import MatchReport, verify_match
from dominolog.verify import verify_paths

DISPUTES = Path(__file__).resolve().parent.parent / "replays" / "disputes"

EXPECTED: dict[str, dict] = {
    "ghost13-puppeteer.jsonl": {
        "certain": [(23, "score-mismatch"), (23, "score-mismatch"), (24, "score-mismatch"), (24, "score-mismatch")],
        "possible": [],
        "question": "Question for the arbiter: Ben locked the line with 2-5 at seq 17, and the count is 42 pips "
        "each. Who is the aggressor, Ben who placed the locking tile or Ana as the Puppeteer, and so who wins?",
    },
    "ghost13-forced-not-puppeteer.jsonl": {
        "certain": [(23, "score-mismatch"), (24, "score-mismatch")],
        "possible": [],
        "question": "Question for the arbiter: Ben's 2-5 at seq 17 locked the line, and it was the only tile he "
        "could play. Does that make Ana the Puppeteer, the aggressor, who scores double Ben's pips?",
    },
    "ghost13-ghost-at-a-block.jsonl": {
        "certain": [(22, "score-mismatch"), (22, "score-mismatch")],
        "possible": [],
        "question": "Question for the arbiter: Ana locked the line at seq 16 and Ben kept the [0-0]. Does it "
        "count 0 or 13, and so did Ana's block fail (Ben scores 90) or succeed?",
    },
    "brettspielnetz-renege-after-unseen-draws.jsonl": {
        "certain": [(14, "renege")],
        "possible": [(11, "renege"), (12, "renege"), (13, "renege")],
        "question": "Question for the arbiter: Ben drew three times and passed on 6 and 6 (seq 14). His reveal "
        "shows 3-6, and he says it came in those three draws. Did he renege, and where?",
    },
    "brettspielnetz-renege-proven-by-order.jsonl": {
        "certain": [(12, "renege"), (14, "renege")],
        "possible": [(9, "renege"), (10, "renege"), (11, "renege"), (19, "renege")],
        "question": "Question for the arbiter: Ben passed on 6 and 6 at seq 12 after three draws. Later he drew "
        "one tile (seq 14) and then placed two sixes, 3-6 and 1-6. He says both came from the boneyard after "
        "his pass. Did he renege?",
    },
    "double-bergen-opening-pass-proven.jsonl": {
        "certain": [(4, "renege")],
        "possible": [(8, "renege")],
        "question": "Question for the arbiter: Ben led and passed at seq 4, saying he had no double; at the end "
        "he shows 2-2. He says he drew it later. Was his pass a renege?",
    },
    "double-bergen-opening-pass-unprovable.jsonl": {
        "certain": [],
        "possible": [(4, "renege"), (7, "renege"), (8, "renege")],
        "question": "Question for the arbiter: Ben led and passed at seq 4, saying he had no double; at the end "
        "he shows 4-4. He says he drew it at seq 7 or 8. Was his pass a renege?",
    },
    "39-block-bonus-claim.jsonl": {
        "certain": [(49, "score-mismatch"), (49, "score-mismatch"), (50, "score-mismatch"), (50, "score-mismatch")],
        "possible": [],
        "question": "Question for the arbiter: the hand ended on two passes (seq 46 and 47). Ana holds fewer "
        "tiles, so she took the end bonus for Ben's tiles, 7, and claims the hand 5 to 4. Is that right?",
    },
    "double-draw-partners-claim.jsonl": {
        "certain": [(13, "score-mismatch"), (13, "score-mismatch")],
        "possible": [],
        "question": "Question for the arbiter: Ana went out with her pair play at seq 8. Does her side (Ana and "
        "Cleo) win the hand, as the table wrote, or Ben and Dev?",
    },
}


def report(name: str) -> MatchReport:
    (log,) = list(iter_matches_any(DISPUTES / name))
    return verify_match(log)


def found(issues: list) -> list[tuple[int, str]]:
    return [(v.seq, v.code) for v in issues]


# -- the files as files ----------------------------------------------------------------------------------


def test_every_file_is_expected_and_in_the_readme():
    names = sorted(p.name for p in DISPUTES.glob("*.jsonl"))
    assert names == sorted(EXPECTED)
    readme = (DISPUTES / "README.md").read_text(encoding="utf-8")
    for name in names:
        assert f"`{name}`" in readme, name
    variants = {report(name).variant for name in names}
    assert variants == {"ghost13", "brettspielnetz", "39", "double-bergen", "double-draw"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_question_is_a_note_right_after_match_start(name: str):
    lines = [json.loads(line) for line in (DISPUTES / name).read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "match_start"
    assert lines[1]["type"] == "note" and lines[1]["seq"] == 2
    assert lines[1]["text"] == EXPECTED[name]["question"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_file_is_one_match_with_seq_and_a_whole_hash_chain(name: str):
    reports = list(verify_paths([DISPUTES / name]))
    assert len(reports) == 1
    (r,) = reports
    assert "hash-mismatch" not in {v.code for v in r.violations}
    lines = [json.loads(line) for line in (DISPUTES / name).read_text(encoding="utf-8").splitlines()]
    assert [e["seq"] for e in lines] == list(range(1, len(lines) + 1))
    assert all(isinstance(e.get("hash"), str) and isinstance(e.get("at"), str) for e in lines)
    assert lines[-1]["hash"] == r.head


def test_the_files_are_what_build_py_writes(tmp_path, monkeypatch):
    import replays.disputes.build as build

    monkeypatch.setattr(build, "OUT", tmp_path)
    build.main()
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(EXPECTED)
    for name in written:
        assert (tmp_path / name).read_bytes() == (DISPUTES / name).read_bytes(), name


def test_the_hidden_recordings_show_no_hand_and_no_draw():
    for name in EXPECTED:
        lines = [json.loads(line) for line in (DISPUTES / name).read_text(encoding="utf-8").splitlines()]
        deals = [e for e in lines if e["type"] == "deal"]
        draws = [e for e in lines if e["type"] == "draw"]
        if name.startswith("39-"):  # recorded with both hands shown: the question is the rule, not the tiles
            assert all(e["hands"] is not None for e in deals) and all(e["tile"] for e in draws)
            continue
        assert deals and all(e["hands"] is None for e in deals), name
        assert all(e["tile"] is None for e in draws), name
        assert any(e["type"] == "reveal" for e in lines), name


def test_a_folder_is_read_without_its_subfolders():
    """``dominolog verify replays/`` reads the files directly in ``replays/``, not this folder."""
    sources = {Path(r.source).parent.name for r in verify_paths([DISPUTES.parent])}
    assert sources == {"replays"}
    assert len(list(verify_paths([DISPUTES]))) == len(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_as_played_every_tile_known_the_moves_are_legal_but_for_the_dispute(name: str):
    """The scenario build.py plays out (deal and draws known) breaks no rule but the ones disputed."""
    from dominolog.log.hashchain import add_hashes
    from replays.disputes.build import SCENARIOS
    from replays.editing import verified

    scenario, _, _, _ = SCENARIOS[name]
    events = scenario()
    r = verified(add_hashes([{"seq": i, **e} for i, e in enumerate(events, 1)]))
    assert {v.code for v in r.violations} <= {"renege", "score-mismatch"}
    assert not r.unverified


# -- what verify says today ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_verify_finds_what_the_audit_must(name: str):
    """Today the proven violations are exactly the certain ones, and the unverified rules exactly the
    possible ones (what hidden tiles leave open, the reveals included)."""
    r = report(name)
    assert found(r.violations) == EXPECTED[name]["certain"]
    assert found(r.unverified) == EXPECTED[name]["possible"]


def test_puppeteer():
    r = report("ghost13-puppeteer.jsonl")
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("block", "Ana", {"Ana": 84, "Ben": 0})
    assert hand.detail == {"pips": {"Ana": 42, "Ben": 42}, "aggressor": "Ana", "puppeteer": True}
    assert r.totals == {"Ana": 84, "Ben": 0} and r.winner == "Ana" and r.complete
    messages = [v.message for v in r.violations]
    assert messages == [
        "hand 1 (block, aggressor Ana as Puppeteer): claimed Ana 0, Ben 84; the rules give Ana 84, Ben 0",
        "hand 1 (block, aggressor Ana as Puppeteer): claimed winner Ben; the rules give Ana",
        "match: claimed Ana 0, Ben 84; the rules give Ana 84, Ben 0",
        "match: claimed winner Ben; the rules give Ana",
    ]


def test_forced_but_not_puppeteer():
    r = report("ghost13-forced-not-puppeteer.jsonl")
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("block", "Ana", {"Ana": 72, "Ben": 0})
    assert hand.detail == {"pips": {"Ana": 30, "Ben": 42}, "aggressor": "Ben", "puppeteer": False}
    assert r.totals == {"Ana": 72, "Ben": 0} and r.winner == "Ana" and r.complete
    assert [v.message for v in r.violations] == [
        "hand 1 (block, aggressor Ben): claimed Ana 84, Ben 0; the rules give Ana 72, Ben 0",
        "match: claimed Ana 84, Ben 0; the rules give Ana 72, Ben 0",
    ]


def test_ghost():
    r = report("ghost13-ghost-at-a-block.jsonl")
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("block", "Ana", {"Ana": 110, "Ben": 0})
    # Ben's 42 pips of tiles, plus 13 for the [0-0]
    assert hand.detail == {"pips": {"Ana": 48, "Ben": 55}, "aggressor": "Ana", "puppeteer": False}
    assert [v.message for v in r.violations] == [
        "hand 1 (block, aggressor Ana): claimed Ana 0, Ben 90; the rules give Ana 110, Ben 0",
        "hand 1 (block, aggressor Ana): claimed winner Ben; the rules give Ana",
    ]
    # 110 reaches the target (100), but the log stops before any match_end
    assert r.totals == {"Ana": 110, "Ben": 0} and not r.complete and r.winner is None


def test_renege_after_unseen_draws():
    r = report("brettspielnetz-renege-after-unseen-draws.jsonl")
    (renege,) = r.violations
    assert renege.message.startswith("Ben passes while holding a legal play (shown by the reveals")
    assert "3-6" in renege.message
    assert all(v.message.startswith("Ben draws; ") for v in r.unverified)
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("domino", "Ana", {"Ana": 0, "Ben": 33})
    assert r.totals == {"Ana": 0, "Ben": 33} and r.winner == "Ana" and r.complete


def test_order_renege():
    """Ben's pass (seq 12) and his draw at seq 14: only the order of the events proves them (two sixes
    placed after one unseen draw, his other draw after both). Bounds worked back from the reveals, which
    count the draws after an event but not where they fall, leave both open; judging every way the log
    allows the hidden tiles to lie proves both."""
    r = report("brettspielnetz-renege-proven-by-order.jsonl")
    assert found(r.violations) == [(12, "renege"), (14, "renege")]
    for v in r.violations:
        assert "shown by the reveals" in v.message and "1-6, 3-6" in v.message
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("domino", "Ana", {"Ana": 0, "Ben": 37})
    assert r.totals == {"Ana": 0, "Ben": 37} and r.winner == "Ana" and r.complete


def test_opening_pass_proven():
    r = report("double-bergen-opening-pass-proven.jsonl")
    (renege,) = r.violations
    assert renege.message.startswith("Ben passes while holding a legal play (shown by the reveals")
    assert "2-2" in renege.message
    (draw,) = r.unverified
    assert draw.message.startswith("Cleo draws; ")
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("domino", "Ana", {"Ana": 11, "Ben": 7, "Cleo": 9})
    assert hand.detail == {"play_points": {"Ana": 10, "Ben": 7, "Cleo": 9}}
    assert r.valid is False and not r.complete


def test_opening_pass_unprovable():
    r = report("double-bergen-opening-pass-unprovable.jsonl")
    assert r.valid and not r.violations
    assert r.unverified[0].message.startswith("Ben passes; ")
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("domino", "Cleo", {"Ana": 7, "Ben": 11, "Cleo": 10})


def test_39_block_claim():
    r = report("39-block-bonus-claim.jsonl")
    (hand,) = r.hands
    assert (hand.end, hand.winner, hand.points) == ("passes", "Ben", {"Ana": -2, "Ben": 4})
    assert hand.detail == {"play_points": {"Ana": -2, "Ben": 4}, "bonus": 0}
    assert [v.message for v in r.violations] == [
        "hand 1 (passes): claimed Ana 5, Ben 4; the rules give Ana -2, Ben 4",
        "hand 1 (passes): claimed winner Ana; the rules give Ben",
        "match: claimed Ana 5, Ben 4; the rules give Ana -2, Ben 4",
        "match: claimed winner Ana; the rules give Ben",
    ]
    assert r.totals == {"Ana": -2, "Ben": 4} and r.winner == "Ben" and r.complete


def test_partners_claim():
    r = report("double-draw-partners-claim.jsonl")
    (hand,) = r.hands
    assert (hand.end, hand.winner) == ("domino", ["Ben", "Dev"])
    assert hand.points == {"Ana": 0, "Ben": 42, "Cleo": 0, "Dev": 42}
    assert hand.detail == {"pips": {"Ana": 0, "Ben": 2, "Cleo": 51, "Dev": 7}}
    assert [v.message for v in r.violations] == [
        "hand 1 (domino): claimed Ana 9, Ben 0, Cleo 9, Dev 0; the rules give Ana 0, Ben 42, Cleo 0, Dev 42",
        "hand 1 (domino): claimed winner Ana and Cleo; the rules give Ben and Dev",
    ]
    assert not r.unverified  # Cleo's unseen draw: her reveal has no 3 and no 1, so she had no pair play
    assert not r.complete
