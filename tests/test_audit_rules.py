"""The rulings behind a finding: their text from the package's copy of docs/rulings.md
(dominolog.audit.rules), and the ids every finding the reducer gives carries as data
(dominolog.findings.Issue ``rules``, given where it is reported from dominolog.variants.rulings).

Coverage is checked on what the reducer really says, not on message templates read from the
source: every replay of replays/, and simulated matches of every variant and table size, full and
hidden, with disputes staged (reneges chosen by a policy) and wrong events mixed in (a tile not
held, an end that does not fit, a pass out of turn, a wrong claim, a bad deal or reveal...).
Every finding of a rule gets at least one ruling, and every id given exists in docs/rulings.md.
A finding's words are for a reader only: reworded, the audit's data stays the same.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import dominolog.reducer.context as context_module
import dominolog.reducer.judging as judging_module
from dominolog.audit.document import build_audit
from dominolog.audit.rules import rules_with_text, ruling_text, rulings
from dominolog.build_info import compiled_modules
from dominolog.log.reader import iter_matches
from dominolog.reducer import MatchReport, verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import HandState, Issue, MatchState
from dominolog.tiles import DOUBLE_SIX
from dominolog.variants import rulings as variant_rulings
from dominolog.verify import report_lines, verify_paths
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

#: a finding as the tests look at it: variant, the issue
Found = tuple[str, Issue]


def reports_of(data: bytes, name: str = "test.jsonl") -> list[MatchReport]:
    return [verify_match(log) for log in iter_matches(name, data)]


def findings(reports: list[MatchReport]) -> list[Found]:
    return [(str(r.variant), i) for r in reports for i in [*r.violations, *r.unverified]]


def uncovered(found: list[Found]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """The findings of a rule with no ruling, or with an id that docs/rulings.md does not have."""
    out = []
    for variant, i in found:
        unknown = any(rid not in DOC_IDS for rid in i.rules)
        if unknown or (not i.rules and i.code not in FORM_CODES and not FORM_MESSAGES.search(i.message)):
            out.append((variant, i.code, i.message, i.rules))
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


def test_every_id_the_reporting_code_can_give_exists_in_the_docs() -> None:
    """The ids are the variant classes' (``rulings``, ``end_rulings``) and the shared ones of
    dominolog/variants/rulings.py: every one is a ruling of docs/rulings.md."""
    from dominolog.variants import VARIANTS

    ids: set[str] = set()
    for name in dir(variant_rulings):
        value = getattr(variant_rulings, name)
        if name.isupper() and isinstance(value, tuple):
            ids |= set(value)
    for cls in VARIANTS.values():
        ids |= {i for rule in cls.rulings.values() for i in rule}
        ids |= {i for rule in cls.end_rulings.values() for i in rule}
    assert len(ids) > 40
    assert ids <= set(DOC_IDS), sorted(ids - set(DOC_IDS))


# -- single findings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "code", "words", "ids"),
    [
        ("ghost13", "renege", r"passes while holding a legal play \(", ("C3", "G4")),
        ("ghost13", "out-of-order", r"whether hand \d+ was over cannot be checked", ("C4", "G5", "G6")),
        ("brettspielnetz", "renege", r"draws while holding a legal play", ("C3", "B3")),
        ("39", "renege", r"draws while holding a legal play", ("C3", "T9")),
        ("double-draw", "renege", r"draws while a pair play exists", ("C3", "E3")),
        ("ghost13", "score-mismatch", r"^hand \d+ \(block, aggressor [^)]*\): claimed [A-Z]", ("C5", "G7", "G8", "G9")),
        ("ghost13", "score-mismatch", r"^hand \d+ \(domino\): claimed [A-Z]", ("C5", "G7", "G9")),
        ("ghost13", "score-mismatch", r"^match: claimed", ("G10",)),
        ("ghost13", "illegal", r"matches neither end", ("C2",)),
        ("double-draw", "illegal", r"does not hold", ("C1",)),
        ("ghost13", "out-of-order", r"was over \(block at seq", ("C4", "G6")),
        ("brettspielnetz", "out-of-order", r"was over \(domino at seq", ("C4", "B5")),
        ("brettspielnetz", "bad-deal", r"leads hand \d+, but", ("B2",)),
        ("brettspielnetz", "illegal", r"passes after \d+ draws? while a draw is still allowed", ("B4",)),
        ("brettspielnetz", "score-mismatch", r"^hand \d+ \(domino\): claimed [A-Z]", ("C5", "B6")),
        ("39", "illegal", r"declares \w+ without a match", ("T7",)),
        ("39", "illegal", r"passes while the boneyard still holds", ("T9",)),
        ("39", "illegal", r"draws before the set is laid", ("T3", "T9")),
        ("double-bergen", "illegal", r"must draw \(D5\)", ("D5",)),
        ("double-draw", "illegal", r"pair play is not possible", ("C2", "E3")),
        ("double-draw", "illegal", r"calls a blocked game", ("E4",)),
        ("double-draw", "score-mismatch", r"cannot be checked: tiles of", ("C5", "E6")),
        ("brettspielnetz", "out-of-order", r"whether hand \d+ was over cannot be checked", ("C4", "B4", "B5")),
        ("double-draw", "malformed", r"bad value", ()),
        ("double-draw", "illegal", r"undo with nothing to retract", ()),
        ("brettspielnetz", "bad-reveal", r"shows \d-\d, which is", ("C1", "C5")),
        ("brettspielnetz", "contradiction", r"", ("C1",)),
    ],
)
def test_findings_carry_their_rulings(variant: str, code: str, words: str, ids: tuple[str, ...]) -> None:
    """Findings of every kind, as the reducer gives them in the corpus: each carries its variant's ids."""
    alike = [i for v, i in corpus() if v == variant and i.code == code and re.search(words, i.message)]
    assert alike, (variant, code, words)
    assert {i.rules for i in alike} == {ids}


def test_ruling_D3_a_renege_on_doubles_only_names_the_opening_rule() -> None:
    """Double Bergen: a renege shown by doubles alone is also D3's (the first tile set is a double)."""
    assert variant_rulings.renege("double-bergen", ("5-5", "6-6")) == ("C3", "D3", "D5")
    assert variant_rulings.renege("double-bergen", ("2-5", "6-6")) == ("C3", "D5")
    assert variant_rulings.renege("double-bergen") == ("C3", "D5")
    assert variant_rulings.renege("ghost13", ("5-5",)) == ("C3", "G4")
    reneges = [i for v, i in corpus() if v == "double-bergen" and i.code == "renege" and i.tiles]
    assert reneges and all(i.rules == variant_rulings.renege("double-bergen", i.tiles) for i in reneges)


def test_rules_with_text_gives_each_id_and_its_text() -> None:
    rules = rules_with_text(("C3", "G4"))
    assert [r["id"] for r in rules] == ["C3", "G4"]
    assert rules[0]["text"].startswith("Play is compulsory: whoever can play must")
    assert rules[1]["text"] == "A player who has no legal play passes."


# -- every finding the reducer gives -----------------------------------------------------------------


def test_every_finding_of_the_replays_has_a_ruling() -> None:
    found = []
    for path in sorted((ROOT / "replays").glob("*.jsonl")):
        found += findings(reports_of(path.read_bytes(), path.name))
    assert len(found) > 100
    assert {"renege", "illegal", "score-mismatch"} <= {i.code for _, i in found}
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


def disputes(variant: str, players: tuple[str, ...], options: dict[str, Any] | None) -> list[Found]:
    """The findings of simulated matches of a table, full and hidden, with reneges staged and wrong
    events mixed in (one at a time, anywhere after match_start)."""
    rng = random.Random(f"audit-rules:{variant}:{len(players)}")
    found: list[Found] = []
    for k in range(3):
        events = simulate_match(variant, 13, k, list(players), options, policy=reneging(3, rng))
        for shown in (events, hide_match(events)):
            plain = [{key: v for key, v in e.items() if key not in ("seq", "hash")} for e in shown]
            found += findings(reports_of(to_bytes(plain)))
            for _ in range(12):
                mixed = list(plain)
                mixed.insert(rng.randint(1, len(mixed)), wrong_event(rng, players))
                found += findings(reports_of(to_bytes(mixed)))
    return found


@cache
def corpus() -> list[Found]:
    """Every finding of the replays, of replays/disputes and of the simulated disputes of every table."""
    found: list[Found] = []
    for path in sorted([*(ROOT / "replays").glob("*.jsonl"), *(ROOT / "replays" / "disputes").glob("*.jsonl")]):
        found += findings(reports_of(path.read_bytes(), path.name))
    for variant, players, options in CONFIGS:
        found += disputes(variant, players, options)
    return found


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS, ids=[f"{c[0]}-{len(c[1])}" for c in CONFIGS])
def test_ruling_C3_every_finding_of_simulated_disputes_has_a_ruling(
    variant: str, players: tuple[str, ...], options: dict[str, Any] | None
) -> None:
    found = disputes(variant, players, options)
    codes = {i.code for _, i in found}
    assert {"renege", "illegal", "out-of-order", "score-mismatch"} <= codes, codes
    assert uncovered(found) == []


# -- the words are for a reader: nothing reads them back ----------------------------------------------

#: the replays whose audits hold findings of every certainty (violations, possible ones, unsettled)
REWORDED = [
    *sorted((ROOT / "replays").glob("*-disputed.jsonl")),
    *sorted((ROOT / "replays").glob("*-tabletop-hidden.jsonl")),
    *sorted((ROOT / "replays" / "disputes").glob("*.jsonl")),
]


def _reworded(seq: int, line: int, code: str, message: str, *fields: Any) -> Issue:
    """An issue whose words no parse could read: the message turned back to front."""
    return Issue(seq, line, code, f"<<{message[::-1]}>>", *fields)


def _without_words(value: Any) -> Any:
    """The audit document with every finding's message left out (everything else stays)."""
    if isinstance(value, dict):
        return {k: _without_words(v) for k, v in value.items() if k != "message"}
    if isinstance(value, list):
        return [_without_words(v) for v in value]
    return value


@pytest.mark.skipif(bool(compiled_modules()), reason="rewords by patching the pure build's reducer")
def test_rewording_every_finding_changes_no_field_of_the_audit_or_of_verify(monkeypatch: pytest.MonkeyPatch) -> None:
    logs = [log for path in REWORDED for log in iter_matches(path.name, path.read_bytes())]
    before = [build_audit(log) for log in logs]
    reasons = [line for line in report_lines_of(REWORDED) if "not checkable" in line]
    monkeypatch.setattr(context_module, "Issue", _reworded)
    monkeypatch.setattr(judging_module, "Issue", _reworded)
    after = [build_audit(log) for log in logs]
    found = [f for doc in after for f in [*doc["findings"], *(f for h in doc["hands"] for f in h["findings"])]]
    assert len(found) > 40
    assert {f["certainty"] for f in found} == {"certain", "possible"}
    assert any(f["tiles"] for f in found) and all(f["message"].startswith("<<") for f in found if f["rules"])
    assert json.dumps(_without_words(after)) == json.dumps(_without_words(before))
    assert [line for line in report_lines_of(REWORDED) if "not checkable" in line] == reasons
    assert reasons


def report_lines_of(paths: list[Path]) -> list[str]:
    return [line for r in verify_paths(paths) for line in report_lines(r)]
