"""The rulings behind a finding (dominolog.audit.rules): their text from the package's copy of
docs/rulings.md, and the ids behind every violation the reducer can give.

Coverage is checked on what the reducer really says, not on message templates read from the
source: every replay of replays/, and simulated matches of every variant and table size, full and
hidden, with disputes staged (reneges chosen by a policy) and wrong events mixed in (a tile not
held, an end that does not fit, a pass out of turn, a wrong claim, a bad deal or reveal...).
Every finding of a rule gets at least one ruling, and every id given exists in docs/rulings.md.
"""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from dominolog.audit.rules import TABLE, rules_for, rules_with_text, ruling_text, rulings
from dominolog.log.reader import iter_matches
from dominolog.reducer import MatchReport, verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import HandState, MatchState
from dominolog.tiles import DOUBLE_SIX
from tests.helpers import to_bytes

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rulings.md"
DOC_IDS = re.findall(r"^- \*\*([A-Z]\d+)\*\* ", DOCS.read_text(encoding="utf-8"), re.M)
#: the codes of the log's form: the rulings do not cover them (docs/format.md does)
FORM_CODES = {"malformed", "hash-mismatch", "internal-error", "projection-mismatch"}
#: findings of a rule code that are still about the log's form
FORM_MESSAGES = re.compile(r"undo with nothing to retract|before any match_start")
CONFIGS: list[tuple[str, tuple[str, ...], dict[str, Any] | None]] = [
    ("ghost13", ("Ana", "Ben"), None),
    ("brettspielnetz", ("Ana", "Ben"), None),
    ("39", ("Ana", "Ben"), None),
    ("double-bergen", ("Ana", "Ben", "Cleo"), None),
    ("double-bergen", ("Ana", "Ben", "Cleo", "Dev"), {"reserve": 2}),
    ("double-draw", ("Ana", "Ben", "Cleo"), None),
    ("double-draw", ("Ana", "Ben", "Cleo", "Dev"), {"partners": True}),
]


def reports_of(data: bytes, name: str = "test.jsonl") -> list[MatchReport]:
    return [verify_match(log) for log in iter_matches(name, data)]


def findings(reports: list[MatchReport]) -> list[tuple[str, str, str]]:
    return [(str(r.variant), i.code, i.message) for r in reports for i in [*r.violations, *r.unverified]]


def uncovered(found: list[tuple[str, str, str]]) -> list[tuple[str, str, str, list[str]]]:
    """The findings of a rule with no ruling, or with an id that docs/rulings.md does not have."""
    out = []
    for variant, code, message in found:
        ids = rules_for(variant, code, message)
        unknown = any(i not in DOC_IDS for i in ids)
        if unknown or (not ids and code not in FORM_CODES and not FORM_MESSAGES.search(message)):
            out.append((variant, code, message, ids))
    return out


# -- the text -------------------------------------------------------------------------------------


def test_the_package_copy_of_the_rulings_is_docs_rulings_byte_for_byte() -> None:
    shipped = resources.files("dominolog.audit").joinpath("rulings.txt").read_bytes()
    assert shipped == DOCS.read_bytes(), "copy docs/rulings.md to dominolog/audit/rulings.txt"


def test_every_ruling_of_the_docs_is_read_in_order() -> None:
    assert list(rulings()) == DOC_IDS
    assert len(DOC_IDS) == 49


def test_ruling_C1_text_is_one_paragraph_of_the_wrapped_bullet() -> None:
    assert ruling_text("C1") == (
        "The set is one double-six: 28 tiles, each written `a-b` with both numbers from 0 to 6; "
        "`a-b` and `b-a` name the same tile. A tile's pips are a + b."
    )
    for rid in DOC_IDS:
        text = ruling_text(rid)
        assert text and "\n" not in text and "  " not in text and not text.startswith("-"), rid
    assert ruling_text("E7").endswith("if several reach it, the highest wins.")


def test_ruling_G8_text_is_whole() -> None:
    text = ruling_text("G8")
    assert text.startswith("The aggressor of a block. The locking placement is the hand's last placement.")
    assert text.endswith("notes and undone events are skipped.")


def test_an_unknown_ruling_id_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        ruling_text("Z9")


def test_every_id_of_the_table_exists_in_the_docs() -> None:
    ids = {i for *_, row in TABLE for i in row}
    assert ids <= set(DOC_IDS), sorted(ids - set(DOC_IDS))
    for variant, code, pattern, _ in TABLE:
        re.compile(pattern)
        assert variant in ("*", "ghost13", "brettspielnetz", "39", "double-bergen", "double-draw"), variant
        assert code


# -- single findings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "message", "ids"),
    [
        ("ghost13", "Ben passes while holding a legal play (6-6 left, 6-6 right)", ["C3", "G4"]),
        ("ghost13", "Ben passes; Ben's hand is hidden, so the pass cannot be checked yet", ["C3", "G4"]),
        ("brettspielnetz", "Ben draws while holding a legal play (1-5 fits)", ["C3", "B3"]),
        ("39", "Ana draws while holding a legal play (shown by the reveals: 2-3 can be played)", ["C3", "T9"]),
        ("double-bergen", "Ben passes while holding a legal play (2-5, 6-6 can be played)", ["C3", "D5"]),
        ("double-draw", "Cleo draws while a pair play exists (3-5 on the left and 1-2 on the right)", ["C3", "E3"]),
        (
            "double-draw",
            "Cleo draws; it turns on whether Cleo held 0-5, 0-6 then (the log leaves open ...)",
            ["C3", "E3"],
        ),
    ],
)
def test_ruling_C3_a_renege_is_C3_and_the_variants_own_ruling(variant: str, message: str, ids: list[str]) -> None:
    assert rules_for(variant, "renege", message) == ids


def test_ruling_D3_a_renege_in_the_opening_names_the_doubles_rule() -> None:
    only_doubles = "Ben passes while holding a legal play (5-5, 6-6 can be played)"
    assert rules_for("double-bergen", "renege", only_doubles) == ["C3", "D3", "D5"]
    shown = "Ben passes while holding a legal play (shown by the reveals: Ben must have held one of 5-5, 6-6)"
    assert rules_for("double-bergen", "renege", shown) == ["C3", "D3", "D5"]
    assert rules_for("double-bergen", "renege", "Ana draws instead of setting 3-3 (D3)") == ["C3", "D3"]


@pytest.mark.parametrize(
    ("variant", "code", "message", "ids"),
    [
        (
            "ghost13",
            "score-mismatch",
            "hand 2 (block, aggressor Ben): claimed Ana 102, Ben 0; the rules give Ana 0, Ben 148",
            ["C5", "G7", "G8", "G9"],
        ),
        (
            "ghost13",
            "score-mismatch",
            "hand 2 (block, aggressor Ben): claimed winner Ana; the rules give Ben",
            ["G8", "G9"],
        ),
        (
            "ghost13",
            "score-mismatch",
            "hand 1 (domino): claimed Ana 5, Ben 0; the rules give Ana 6, Ben 0",
            ["C5", "G7", "G9"],
        ),
        ("ghost13", "score-mismatch", "match: claimed Ana 102, Ben 124; the rules give Ana 0, Ben 272", ["G10"]),
        ("ghost13", "illegal", "Ana has no drawing", ["G3", "G4"]),
        ("ghost13", "illegal", "6-3 matches neither end (left shows 1, right shows 2); not placed", ["C2"]),
        ("ghost13", "illegal", "Ben does not hold 6-6", ["C1"]),
        ("ghost13", "out-of-order", "pass after hand 1 was over (domino at seq 30); ignored", ["C4", "G5"]),
        ("ghost13", "bad-deal", "Ben leads hand 2, but Ana should lead it", ["G2"]),
        ("brettspielnetz", "bad-deal", "the start tile 3-3 is a double; it never may be", ["B1"]),
        ("brettspielnetz", "illegal", "Ana draws a 4th tile this turn; the limit is 3", ["B3"]),
        (
            "brettspielnetz",
            "illegal",
            "Ana passes after 0 draws while a draw is still allowed, with 9 tiles in the boneyard",
            ["B4"],
        ),
        ("brettspielnetz", "out-of-order", "draw after hand 1 was over (stock-out at seq 18); ignored", ["C4", "B4"]),
        (
            "brettspielnetz",
            "score-mismatch",
            "hand 1 (domino): claimed Ana 0, Ben 5; the rules give Ana 0, Ben 10",
            ["C5", "B6"],
        ),
        ("brettspielnetz", "score-mismatch", "match: claimed winner Ana; the rules give Ben", ["B1", "B7"]),
        ("39", "illegal", "Ben declares odd without a match just made", ["T7"]),
        ("39", "illegal", "0-1 on 0-0:E would overlap 3-3; not placed", ["T5"]),
        ("39", "illegal", "Ana passes while the boneyard still holds 3 tiles: must draw", ["T9"]),
        ("39", "illegal", "Ana passes; it turns on whether Ana held 1-2 then (the log leaves open ...)", ["T9"]),
        ("39", "bad-deal", "Ana chose the leader, but Ben lost hand 1", ["T2"]),
        ("double-bergen", "illegal", "1-2:S is played on before all four sides of the spinner (D4)", ["D4"]),
        ("double-bergen", "illegal", "Ana passes with tiles left to draw: must draw (D5)", ["D5"]),
        (
            "double-bergen",
            "score-mismatch",
            "hand 10 (target): claimed winner Ben; the rules give no winner",
            ["D6", "D8"],
        ),
        (
            "double-draw",
            "illegal",
            "Ana calls a blocked game, but no end is dead (left 3: 1 of 7 on the line); play goes on",
            ["E4"],
        ),
        ("double-draw", "bad-deal", "Ben deals hand 2, but Ana (the last leader) should", ["E2"]),
        (
            "double-draw",
            "score-mismatch",
            "the points of hand 2 cannot be checked: tiles of Ana were never revealed; the table's claim is taken",
            ["C5", "E6"],
        ),
        (
            "double-draw",
            "out-of-order",
            "whether hand 1 was over cannot be checked: hidden tiles were never revealed",
            ["C4", "E4", "E5"],
        ),
        ("double-draw", "ambiguous", "6-3 fits both ends and no end is given; taken as left", ["C2"]),
        ("39", "ambiguous", "3-3 fits 3-4:N, 3-4:E and no end is given; taken as 3-4:N", ["T4"]),
        ("double-draw", "bad-reveal", "Cleo's reveal shows 6-6, which is on the table", ["C1", "C5"]),
        ("double-draw", "malformed", "hand_end claim names unknown players: Zed", []),
        ("double-draw", "hash-mismatch", "event has no hash, but earlier events of the match do", []),
        ("thirty_nine", "illegal", "Ben declares odd without a match just made", ["T7"]),
    ],
)
def test_findings_map_to_their_rulings(variant: str, code: str, message: str, ids: list[str]) -> None:
    assert rules_for(variant, code, message) == ids


def test_rules_with_text_gives_each_id_and_its_text() -> None:
    rules = rules_with_text("ghost13", "renege", "Ben passes while holding a legal play (6-3 left)")
    assert [r["id"] for r in rules] == ["C3", "G4"]
    assert rules[0]["text"].startswith("Play is compulsory: whoever can play must")
    assert rules[1]["text"] == "A player who has no legal play passes."


# -- every finding the reducer gives -----------------------------------------------------------------


def test_every_finding_of_the_replays_has_a_ruling() -> None:
    found = []
    for path in sorted((ROOT / "replays").glob("*.jsonl")):
        found += findings(reports_of(path.read_bytes(), path.name))
    assert len(found) > 100
    assert {"renege", "illegal", "score-mismatch"} <= {code for _, code, _ in found}
    assert uncovered(found) == []


def reneging(times: int, rng: random.Random):
    """A policy: at most ``times`` times a match, a player who can play passes or draws instead."""
    left = [times]

    def policy(match: MatchState, hand: HandState, player: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        plays = [a for a in actions if a["type"] == "play"]
        if not plays or left[0] == 0 or rng.random() > 0.1:
            return None
        left[0] -= 1
        kind = "draw" if match.variant != "ghost13" and hand.boneyard.count > 2 else "pass"
        action: dict[str, Any] = {"type": kind, "player": player}
        if kind == "draw" and hand.boneyard.known:
            action["tile"] = str(rng.choice(sorted(hand.boneyard.known)))
        return action

    return policy


def wrong_event(rng: random.Random, players: tuple[str, ...]) -> dict[str, Any]:
    """An event that is most likely wrong where it lands."""
    p = rng.choice(players)
    tile = str(rng.choice(DOUBLE_SIX))
    ends = ["left", "right", f"{tile}:N", "9-9:E", "sideways", None]
    kind = rng.choice(["play", "play", "pair", "pass", "draw", "declare", "call", "reveal", "hand_end", "deal", "undo"])
    if kind == "play":
        e: dict[str, Any] = {"type": "play", "player": p, "tile": tile}
        end = rng.choice(ends)
        return {**e, "end": end} if end else e
    if kind == "pair":
        return {"type": "play", "player": p, "tiles": [tile, str(rng.choice(DOUBLE_SIX))]}
    if kind == "draw":
        return {"type": "draw", "player": p, "tile": rng.choice([tile, None])}
    if kind == "declare":
        return {"type": "declare", "player": p, "suit": rng.choice(["even", "odd"])}
    if kind == "call":
        return {"type": "block_call", "player": p}
    if kind == "reveal":
        return {"type": "reveal", "player": p, "tiles": [str(t) for t in rng.sample(DOUBLE_SIX, rng.randint(0, 3))]}
    if kind == "hand_end":
        return {"type": "hand_end", "points": {q: rng.randint(0, 30) for q in players}, "winner": p}
    if kind == "deal":
        return {"type": "deal", "leader": p, "hands": None, "start_tile": tile}
    return {"type": kind, "player": p} if kind == "pass" else {"type": "undo"}


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS, ids=[f"{c[0]}-{len(c[1])}" for c in CONFIGS])
def test_ruling_C3_every_finding_of_simulated_disputes_has_a_ruling(
    variant: str, players: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    rng = random.Random(f"audit-rules:{variant}:{len(players)}")
    found: list[tuple[str, str, str]] = []
    for k in range(3):
        events = simulate_match(variant, 13, k, list(players), options, policy=reneging(3, rng))
        for shown in (events, hide_match(events)):
            plain = [{key: v for key, v in e.items() if key not in ("seq", "hash")} for e in shown]
            found += findings(reports_of(to_bytes(plain)))
            for _ in range(12):  # one wrong event at a time, anywhere after match_start
                mixed = list(plain)
                mixed.insert(rng.randint(1, len(mixed)), wrong_event(rng, players))
                found += findings(reports_of(to_bytes(mixed)))
    codes = {code for _, code, _ in found}
    assert {"renege", "illegal", "out-of-order", "score-mismatch"} <= codes, codes
    assert uncovered(found) == []
