"""``dominolog audit`` (issue 13, section 3): the verdict first, findings with certainty, rule and
proof, the scoring worked out, the chain with fingerprints, JSON that fits its schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from dominolog.audit.document import build_audit, without_pictures
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.recording.notation import iter_matches_any
from tests.conftest import ROOT

REPLAYS = ROOT / "replays"
SCHEMA = json.loads((ROOT / "schemas" / "audit.schema.json").read_text(encoding="utf-8"))
BSN_DISPUTED = REPLAYS / "brettspielnetz-disputed.jsonl"
G13_DISPUTED = REPLAYS / "ghost13-disputed.jsonl"


def every_replay() -> list[Path]:
    return sorted(REPLAYS.glob("*.jsonl")) + sorted((REPLAYS / "disputes").glob("*.jsonl"))


def doc_of(path: Path, **kw: Any) -> dict[str, Any]:
    (log,) = list(iter_matches_any(path))[:1]
    return build_audit(log, **kw)


@pytest.mark.parametrize("path", every_replay(), ids=lambda p: p.name)
def test_the_json_of_every_replay_fits_the_schema_and_agrees_with_verify(path: Path) -> None:
    from dominolog.reducer import verify_match

    for log in iter_matches_any(path):
        doc = without_pictures(build_audit(log))
        jsonschema.validate(doc, SCHEMA)
        report = verify_match(log)
        assert doc["verdict"]["violations"] == len(report.violations)
        assert doc["verdict"]["possible"] + doc["verdict"]["unsettled"] == len(report.unverified)
        assert doc["verdict"]["valid"] == report.valid
        assert doc["chain"]["head"] == report.head
        for hand in doc["hands"]:
            seqs = [e["seq"] for e in hand["events"]]
            assert seqs == sorted(seqs) and seqs[0] == hand["deal_seq"]
            for e in hand["events"]:
                for k in e["knowledge"].values():
                    assert not set(k["holds"]) & set(k["may_hold"])
                    assert len(k["holds"]) <= k["count"] <= len(k["holds"]) + len(k["may_hold"])


def test_a_renege_proved_by_counting_draws_names_the_tiles_and_the_draws() -> None:
    doc = doc_of(BSN_DISPUTED)
    assert doc["verdict"] == {
        "valid": False,
        "violations": 2,
        "possible": 32,
        "unsettled": 0,
        "text": "2 violations, 32 possible violations",
    }
    hand = doc["hands"][3]
    (renege,) = [f for f in hand["findings"] if f["certainty"] == "certain"]
    assert (renege["seq"], renege["code"], renege["tiles"]) == (120, "renege", ["1-5", "4-5", "5-5"])
    assert renege["message"] == (
        "Ben draws while holding a legal play (shown by the reveals: Ben must have held one of 1-5, 4-5, 5-5)"
    )
    assert [r["id"] for r in renege["rules"]] == ["C3", "B3"]
    assert renege["proof"] == [
        "Ben drew at seq 120 with the ends 4 and 5.",
        "Ben played or showed 4-5 at seq 121, 5-5 at seq 124, and drew only 1 unseen (seq 120) from seq 120 to "
        "seq 124: a draw brings one tile, so at least 1 of 4-5, 5-5 was in the hand at seq 120.",
        "Ben could play it: the rules required a play.",
    ]
    assert renege["before"]["Ben"] == {"holds": [], "may_hold": ["1-2", "1-5", "4-5", "5-5"], "count": 3}
    event = next(e for e in hand["events"] if e["seq"] == 120)
    assert event["findings"] == [hand["findings"].index(renege)]


def test_a_renege_in_view_is_proved_by_the_deal_and_the_tile_left_at_the_end() -> None:
    doc = doc_of(G13_DISPUTED)
    (renege,) = [f for f in doc["hands"][1]["findings"] if f["code"] == "renege"]
    assert renege["certainty"] == "certain" and renege["seq"] == 24 and renege["tiles"] == ["6-6"]
    assert renege["proof"] == [
        "Ana passed at seq 24 with the ends 6 and 6.",
        "The deal shows 6-6 in Ana's hand; 6-6 is still in Ana's hand at the end; Ana drew no tile unseen "
        "between seq 24 and the end, so it was in the hand then.",
        "Ana could play 6-6: the rules required a play.",
    ]
    assert [r["id"] for r in renege["rules"]] == ["C3", "G4"]


def test_the_scoring_of_a_ghost13_block_is_worked_out_with_the_aggressor_rule() -> None:
    hand = doc_of(G13_DISPUTED)["hands"][0]
    assert hand["result"] == {"end": "block", "winner": "Ben", "points": {"Ana": 0, "Ben": 124}, "verified": True}
    assert (
        hand["scoring"][-1]
        == "The table wrote Ana 0, Ben 124, winner Ben, as the rules give Ana 0, Ben 124, winner Ben."
    )
    assert any("is the aggressor" in s and "(G8)" in s for s in hand["scoring"])


def test_fingerprints_at_each_hand_end_are_the_chain_after_that_event() -> None:
    from dominolog.reducer import reduce_match

    (log,) = list(iter_matches(BSN_DISPUTED))
    doc = build_audit(log)
    assert doc["chain"]["status"] == "ok"
    for fp in doc["chain"]["hands"]:
        assert fp["fingerprint"] == reduce_match(log, fp["seq"]).head[:10]
    assert [fp["seq"] for fp in doc["chain"]["hands"]] == [h["end_seq"] for h in doc["hands"]]


# -- the command ---------------------------------------------------------------------------------
def test_audit_text_puts_the_verdict_first_and_exits_like_verify(cli: Any) -> None:
    ran = cli("audit", BSN_DISPUTED)
    assert ran.code == 1
    lines = ran.out.splitlines()
    assert lines[1] == "VERDICT: 2 violations, 32 possible violations"
    assert "  VIOLATION seq 120 (line 120), renege: Ben draws while holding a legal play (shown by the" in lines
    assert any(line.startswith("CHAIN: every stored hash chains; head ") for line in lines)
    clean = cli("audit", REPLAYS / "39-worked-example.jsonl")
    assert clean.code == 0 and clean.out.splitlines()[1] == "VERDICT: valid"


def test_audit_json_and_html_and_out(cli: Any, tmp_path: Path) -> None:
    ran = cli("audit", BSN_DISPUTED, "--format", "json", "--hand", "4")
    assert ran.code == 1
    doc = json.loads(ran.out)
    jsonschema.validate(doc, SCHEMA)
    assert [h["number"] for h in doc["hands"]] == [4]
    out = tmp_path / "report.html"
    ran = cli("audit", BSN_DISPUTED, "--format", "html", "--out", out)
    assert ran.code == 1 and ran.out == ""
    assert ran.err.strip() == f"{out}: 2 violations, 32 possible violations"
    page = out.read_text(encoding="utf-8")
    assert (
        page.startswith("<!DOCTYPE html>")
        and "<svg" in page
        and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    )


def test_expect_head_checks_a_fingerprint_from_a_score_sheet(cli: Any, tmp_path: Path) -> None:
    (log,) = list(iter_matches(BSN_DISPUTED))
    doc = build_audit(log)
    head, hand2 = doc["chain"]["fingerprint"], doc["chain"]["hands"][1]
    assert (
        cli("audit", BSN_DISPUTED, "--expect-head", f"{hand2['fingerprint']}@{hand2['seq']}", "--hand", "2").code == 1
    )
    ok = cli("audit", REPLAYS / "ghost13-simulated.jsonl", "--format", "json")
    sim = json.loads(ok.out)
    good = cli("audit", REPLAYS / "ghost13-simulated.jsonl", "--expect-head", sim["chain"]["fingerprint"])
    assert good.code == 0 and "OK: the head starts" in good.out
    bad = cli("audit", REPLAYS / "ghost13-simulated.jsonl", "--expect-head", "0000000000")
    assert bad.code == 1 and "MISMATCH" in bad.out
    # a truncated log: the sheet's hand-end fingerprint names a seq the log no longer has
    lines = BSN_DISPUTED.read_bytes().splitlines(keepends=True)
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"".join(lines[:50]))
    cut = cli("audit", short, "--expect-head", f"{head}@{doc['chain']['hands'][-1]['seq']}", "--format", "json")
    assert cut.code == 1
    assert json.loads(cut.out)["chain"]["expect"]["message"].startswith("the log has no seq ")
    usage = cli("audit", BSN_DISPUTED, "--expect-head", "not-hex")
    assert usage.code == 2 and "--expect-head" in usage.err


def test_usage_errors_are_exit_2(cli: Any) -> None:
    assert cli("audit", "missing.jsonl").code == 2
    assert cli("audit", BSN_DISPUTED, "--format", "xml").code == 2
    ran = cli("audit", BSN_DISPUTED, "--hand", "9")
    assert ran.code == 2 and "no hand 9" in ran.err


def test_hostile_names_are_shown_escaped(cli: Any, tmp_path: Path) -> None:
    evil = "\x1b[31mEvil[bold]<b>"
    events = [
        {"type": "match_start", "variant": "ghost13", "players": [evil, "Ben"]},
        {"type": "note", "text": "did \x1b]0;pwned\x07 renege?"},
    ]
    path = tmp_path / "evil.jsonl"
    path.write_text("".join(dump_line(e) + "\n" for e in events), encoding="utf-8")
    ran = cli("audit", path)
    assert "\x1b" not in ran.out and "Evil" in ran.out
    html = tmp_path / "evil.html"
    cli("audit", path, "--format", "html", "--out", html)
    page = html.read_text(encoding="utf-8")
    assert "Evil[bold]<b>" not in page and "Evil[bold]&lt;b&gt;" in page
    assert "\x1b" not in page


def test_verify_expect_head_checks_each_match_against_the_score_sheet(cli: Any) -> None:
    path = REPLAYS / "ghost13-simulated.jsonl"
    fp = json.loads(cli("audit", path, "--format", "json").out)["chain"]["fingerprint"]
    good = cli("verify", path, "--expect-head", fp)
    assert good.code == 0 and f"  fingerprint OK: the head starts {fp}, as the score sheet says" in good.out
    bad = cli("verify", path, "--expect-head", "abcdef1234", "-q")
    assert bad.code == 1
    assert bad.out.splitlines() == [
        f"  fingerprint MISMATCH: the head starts {fp}, not abcdef1234: the log is not the one the sheet was "
        "written from"
    ]
    doc = json.loads(cli("verify", path, "--expect-head", f"{fp}@9999", "--json").out)
    last = doc["matches"][0]["events"]
    assert doc["matches"][0]["expect"] == {
        "given": f"{fp}@9999",
        "ok": False,
        "message": f"the log has no seq 9999 (it ends at seq {last}): truncated, or the wrong log",
    }
