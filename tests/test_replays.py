"""The bundled replays: each says exactly what it was made to say."""

from __future__ import annotations

from pathlib import Path

import pytest

from dominolog.log.reader import iter_matches
from dominolog.reducer import verify_match
from dominolog.simulate import simulate_match
from dominolog.verify import verify_paths
from tests.helpers import to_bytes

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def reports(name: str):
    return [verify_match(log) for log in iter_matches(REPLAYS / name)]


def test_every_variant_file_is_there():
    names = sorted(p.name for p in REPLAYS.glob("*.jsonl"))
    assert {"ghost13-simulated.jsonl", "ghost13-tabletop-hidden.jsonl", "ghost13-disputed.jsonl"} <= set(names)


def test_simulated_replay_is_clean_and_complete():
    (r,) = reports("ghost13-simulated.jsonl")
    assert r.valid and r.complete and not r.unverified
    assert r.totals == {"Ana": 171, "Ben": 50} and r.winner == "Ana"


def test_tabletop_replay_scores_like_the_full_match():
    (r,) = reports("ghost13-tabletop-hidden.jsonl")
    assert r.valid and r.complete and not r.unverified
    (full,) = [verify_match(log) for log in iter_matches("full", to_bytes(simulate_match("ghost13", 11)))]
    assert [h.as_dict() for h in r.hands] == [h.as_dict() for h in full.hands]
    assert r.totals == full.totals == {"Ana": 128, "Ben": 46}


def test_disputed_replay_flags_the_renege_and_the_wrong_claims():
    first, second = reports("ghost13-disputed.jsonl")
    assert [(v.line, v.seq, v.code) for v in first.violations] == [
        (24, 24, "renege"),
        (27, 27, "score-mismatch"),
        (27, 27, "score-mismatch"),
        (28, 28, "score-mismatch"),
    ]
    assert first.hands[1].points == {"Ana": 0, "Ben": 148} and first.hands[1].detail["aggressor"] == "Ben"
    assert first.totals == {"Ana": 0, "Ben": 272} and first.winner is None  # abandoned
    # recorded with hidden hands: Ben's pass is a renege only the reveals prove
    assert [(v.line, v.seq, v.code) for v in second.violations] == [
        (40, 12, "renege"),
        (44, 16, "score-mismatch"),
        (45, 17, "score-mismatch"),
    ]
    assert second.unverified == [] and second.totals == {"Ana": 148, "Ben": 0}


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*.jsonl")), ids=lambda p: p.name)
def test_head_does_not_depend_on_stored_hashes(path: Path):
    import json

    stripped = b"".join(
        (json.dumps({k: v for k, v in json.loads(line).items() if k != "hash"}) + "\n").encode()
        for line in path.read_bytes().splitlines()
        if line.strip()
    )
    with_hashes = [r.head for r in verify_paths([path])]
    without = [verify_match(log).head for log in iter_matches("x", stripped)]
    assert with_hashes == without
