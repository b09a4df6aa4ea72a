"""What each player could hold (issue 13, part 1): sound at every event of simulated matches
recorded hidden, exact where the log determines the hands, and the verdicts never accuse an honest log."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.audit.engine import audit_match
from dominolog.audit.soundness import alongside, log_of, true_hands, unsound
from dominolog.reducer import verify_match
from dominolog.simulate import hide_match, simulate_match

CONFIGS: list[tuple[str, tuple[str, ...], dict[str, Any] | None]] = [
    ("ghost13", ("Ana", "Ben"), None),
    ("brettspielnetz", ("Ana", "Ben"), None),
    ("brettspielnetz", ("Ana", "Ben"), {"draw_limit": None}),
    ("double-draw", ("Ana", "Ben"), None),
    ("double-draw", ("Ana", "Ben", "Cleo"), None),
    ("double-draw", ("Ana", "Ben", "Cleo", "Dev"), {"partners": True}),
    ("39", ("Ana", "Ben"), None),
    ("double-bergen", ("Ana", "Ben"), None),
    ("double-bergen", ("Ana", "Ben", "Cleo"), None),
    ("double-bergen", ("Ana", "Ben", "Cleo", "Dev"), {"reserve": 2}),
]


def check_sound(events: list[dict[str, Any]], viewer: str | None = None) -> int:
    """Hide the match, audit it, and compare with the truth at every event; returns events checked."""
    checked, bad = unsound(audit_match(log_of(hide_match(events, viewer))), true_hands(events))
    assert bad == [], bad[:5]
    return checked


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6), viewer=st.booleans())
def test_knowledge_is_sound_at_every_event_of_hidden_simulated_matches(config: Any, seed: int, viewer: bool) -> None:
    variant, players, options = config
    events = simulate_match(variant, seed, 0, list(players), options)
    assert check_sound(events, players[0] if viewer else None) > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6))
def test_no_honest_hidden_log_gets_a_certain_renege(config: Any, seed: int) -> None:
    variant, players, options = config
    events = simulate_match(variant, seed, 0, list(players), options)
    report = verify_match(log_of(hide_match(events)))
    assert report.violations == [], [v.message for v in report.violations]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_hidden_ghost13_log_with_its_reveals_determines_every_hand(seed: int) -> None:
    events = simulate_match("ghost13", seed, 0, ["Ana", "Ben"])
    audit = audit_match(log_of(hide_match(events)))
    hands = {ha.number: ha for ha in audit.hands}
    for number, seq, p, tiles in alongside(audit, true_hands(events)):
        holds, may, _ = hands[number].knowledge(p, seq)
        assert (holds, may) == (tiles, frozenset()), (number, seq, p)


def without_reveals(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in events if e["type"] != "reveal"]
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10**6))
def test_a_true_claim_on_never_revealed_tiles_is_never_a_violation(config: Any, seed: int) -> None:
    variant, players, options = config
    events = without_reveals(hide_match(simulate_match(variant, seed, 0, list(players), options)))
    report = verify_match(log_of(events))
    assert report.violations == [], [v.message for v in report.violations]


def test_a_claim_no_filling_of_the_hidden_hands_gives_is_a_violation() -> None:
    """Brettspielnetz hands recorded hidden and never revealed: where few ways remain to fill the
    hidden hands, a claimed score none of them gives is a score-mismatch; the true one stays open."""
    found = 0
    for seed in range(60):
        events = without_reveals(hide_match(simulate_match("brettspielnetz", seed, 0, ["Ana", "Ben"])))
        report = verify_match(log_of(events))
        open_scores = [
            u for u in report.unverified if u.code == "score-mismatch" and "the rules give one of" in u.message
        ]
        if not open_scores:
            continue
        seq = open_scores[0].seq
        k = seq - 1  # hand_end's index in events
        assert events[k]["type"] == "hand_end"
        forged = [dict(e) for e in events]
        forged[k]["points"] = {"Ana": 999, "Ben": 999}
        bad = verify_match(log_of(forged))
        (v,) = [v for v in bad.violations if v.seq == seq]
        assert v.code == "score-mismatch"
        assert (
            v.message.startswith("hand ") and "claimed Ana 999, Ben 999; no way to fill the hidden hands" in v.message
        )
        assert not [u for u in bad.unverified if u.seq == seq and u.code == "score-mismatch"]
        found += 1
        if found == 3:
            break
    assert found, "no simulated hand left its score open among a few fillings"
