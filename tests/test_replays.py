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
    for variant in ("ghost13", "brettspielnetz", "double-draw", "double-bergen"):
        assert {f"{variant}-simulated.jsonl", f"{variant}-tabletop-hidden.jsonl", f"{variant}-disputed.jsonl"} <= set(
            names
        )
    assert {"39-simulated.jsonl", "39-worked-example.jsonl", "39-disputed.jsonl"} <= set(names)


def test_the_readme_quotes_what_verify_says_of_the_replays():
    reports = list(verify_paths([REPLAYS]))
    valid = sum(r.valid for r in reports)
    summary = f"{len(reports)} matches: {valid} valid, {len(reports) - valid} invalid; "
    # the README's quick start, and the guide that explains every line of it
    for page in ("README.md", "docs/guides/dispute.md"):
        text = (REPLAYS.parent / page).read_text(encoding="utf-8")
        assert f"`{summary}... rules unverified (hidden tiles)`" in text, page
        for line in (
            "replays/ghost13-disputed.jsonl:24: seq 24: renege: Ana passes while holding a legal play",
            "replays/brettspielnetz-disputed.jsonl:120: seq 120: renege: Ben draws while holding a legal play",
        ):
            assert line in text, page


def test_the_files_are_what_build_py_writes(tmp_path, monkeypatch):
    import replays.build as build

    monkeypatch.setattr(build, "OUT", tmp_path)
    build.main()
    for path in sorted(tmp_path.iterdir()):
        assert path.read_bytes() == (REPLAYS / path.name).read_bytes(), path.name


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


# -- brettspielnetz ------------------------------------------------------------------------------


def test_brettspielnetz_simulated_is_clean():
    (r,) = reports("brettspielnetz-simulated.jsonl")
    assert r.valid and r.complete and not r.unverified
    assert [(h.end, h.winner, h.points) for h in r.hands[:2]] == [
        ("stock-out", "Ben", {"Ana": 18, "Ben": 7}),
        ("domino", "Ben", {"Ana": 28, "Ben": 0}),
    ]
    assert r.totals == {"Ana": 69, "Ben": 34} and r.winner == "Ben"  # penalties: lower wins


def test_brettspielnetz_tabletop_scores_like_the_full_match():
    (r,) = reports("brettspielnetz-tabletop-hidden.jsonl")
    (full,) = [verify_match(log) for log in iter_matches("full", to_bytes(simulate_match("brettspielnetz", 12)))]
    assert r.valid and r.complete
    assert [h.as_dict() for h in r.hands] == [h.as_dict() for h in full.hands]
    assert r.totals == full.totals == {"Ana": 58, "Ben": 45} and r.winner == "Ben"
    # Ana recorded her own game: only Ben's draws and passes are left unverified
    assert len(r.unverified) == 8 and all(v.code == "renege" and v.message.startswith("Ben ") for v in r.unverified)


def test_brettspielnetz_disputed_flags_the_missing_bonus_and_the_renege_the_reveals_prove():
    (r,) = reports("brettspielnetz-disputed.jsonl")
    assert [(v.line, v.seq, v.code) for v in r.violations] == [(60, 60, "score-mismatch"), (120, 120, "renege")]
    assert "claimed Ana 0, Ben 11; the rules give Ana 0, Ben 16" in r.violations[0].message
    assert "shown by the reveals" in r.violations[1].message
    assert r.hands[1].points == {"Ana": 0, "Ben": 16} and r.totals == {"Ana": 22, "Ben": 71} and r.winner == "Ana"
    assert r.unverified and all(v.code == "renege" for v in r.unverified)


# -- double-draw -----------------------------------------------------------------------------------


def test_double_draw_simulated_two_three_four_players_and_partners():
    two, three, four, pairs = reports("double-draw-simulated.jsonl")
    for r in (two, three, four, pairs):
        assert r.valid and r.complete and not r.unverified
    assert two.totals == {"Ana": 97, "Ben": 106} and two.winner == "Ben"  # 100 for two players
    assert three.totals == {"Ana": 69, "Ben": 0, "Cleo": 0} and three.winner == "Ana"  # 61 for three
    assert four.totals == {"Ana": 0, "Ben": 92, "Cleo": 0, "Dev": 0} and four.winner == "Ben"
    assert pairs.totals == {"Ana": 17, "Ben": 108, "Cleo": 17, "Dev": 108} and pairs.winner == ["Ben", "Dev"]
    assert pairs.hands[1].winner == ["Ben", "Dev"] and pairs.hands[1].points == {
        "Ana": 0,
        "Ben": 54,
        "Cleo": 0,
        "Dev": 54,
    }


def test_double_draw_tabletop_scores_like_the_full_matches():
    partners, three = reports("double-draw-tabletop-hidden.jsonl")
    players = ["Ana", "Ben", "Cleo", "Dev"]
    full = [
        simulate_match("double-draw", 12, 0, players, {"partners": True}),
        simulate_match("double-draw", 12, 1, players[:3]),
    ]
    for r, events in zip((partners, three), full, strict=True):
        (f,) = [verify_match(log) for log in iter_matches("full", to_bytes(events))]
        assert r.valid and r.complete
        assert [h.as_dict() for h in r.hands] == [h.as_dict() for h in f.hands]
        assert (r.totals, r.winner) == (f.totals, f.winner)
    assert partners.winner == ["Ben", "Dev"] and three.winner == "Ana"
    assert not any(v.message.startswith("Cleo ") for v in three.unverified)  # Cleo recorded: hers are checked


def test_double_draw_disputed_flags_the_call_the_renege_and_the_claim():
    (r,) = reports("double-draw-disputed.jsonl")
    assert [(v.line, v.seq, v.code) for v in r.violations] == [
        (11, 11, "illegal"),
        (19, 19, "renege"),
        (61, 61, "score-mismatch"),
    ]
    assert "calls a blocked game, but no end is dead" in r.violations[0].message
    assert "shown by the reveals" in r.violations[1].message
    assert "claimed Ana 0, Ben 0, Cleo 47; the rules give Ana 0, Ben 0, Cleo 33" in r.violations[2].message
    assert r.totals == {"Ana": 37, "Ben": 50, "Cleo": 69} and r.winner == "Cleo"


def test_verify_prints_the_draw_game_disputes_in_text_and_json():
    from typer.testing import CliRunner

    from dominolog.cli import app

    runner = CliRunner()
    paths = [str(REPLAYS / "brettspielnetz-disputed.jsonl"), str(REPLAYS / "double-draw-disputed.jsonl")]
    text = runner.invoke(app, ["verify", *paths])
    assert text.exit_code == 1
    lines = text.stdout.splitlines()
    for path, line, code in [(paths[0], 60, "score-mismatch"), (paths[0], 120, "renege"), (paths[1], 11, "illegal")]:
        assert any(x.startswith(f"{path}:{line}: seq {line}: {code}: ") for x in lines), (path, line)
    assert any(x.startswith("  ") and " rules not checkable: draws not seen" in x for x in lines)
    assert lines[-1].startswith("2 matches: 0 valid, 2 invalid; ")
    doc = __import__("json").loads(runner.invoke(app, ["verify", "--json", *paths]).stdout)
    bsn, dd = doc["matches"]
    assert [(v["seq"], v["code"]) for v in bsn["violations"]] == [(60, "score-mismatch"), (120, "renege")]
    assert [(v["seq"], v["code"]) for v in dd["violations"]] == [
        (11, "illegal"),
        (19, "renege"),
        (61, "score-mismatch"),
    ]
    assert all(u["code"] == "renege" for u in bsn["unverified"] + dd["unverified"])
    assert bsn["hands"][1] == {
        "number": 2,
        "end": "domino",
        "winner": "Ana",
        "points": {"Ana": 0, "Ben": 16},
        "pips": {"Ana": 0, "Ben": 11},
    }
