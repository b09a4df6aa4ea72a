"""How likely a possible violation is, as ``verify``, ``audit`` and the replay viewer show it: in
words and in JSON, the most likely first, and ``--min-likelihood`` hiding the less likely ones (issue
25). Through the installed console script, and the viewer driven by keys (Textual's Pilot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from dominolog.log.reader import iter_matches
from dominolog.tui.app import ReplayApp
from dominolog.tui.screens.audit import AuditScreen
from dominolog.tui.widgets import EventList
from tests.conftest import ROOT, Ran
from tests.test_tui import drive

#: Double Draw, hidden: Ben leads and goes out at seq 7; Ana drew twice unseen (seq 4 and 6) and
#: reveals her 8 tiles. A renege at seq 4 in 15 of 28 worlds (54%), at seq 6 in 6 of 8 (75%)
#: (tests/test_double_draw_rulings.py, test_ruling_E3_unseen_draw_stays_unverified, works them out).
EVENTS: list[dict[str, Any]] = [
    {"type": "match_start", "variant": "double-draw", "players": ["Ana", "Ben"], "id": "e3"},
    {"type": "deal", "dealer": "Ana", "leader": "Ben", "hands": None, "start_tile": "3-4"},
    {"type": "play", "player": "Ben", "tiles": ["3-5", "4-6"]},
    {"type": "draw", "player": "Ana", "tile": None},
    {"type": "play", "player": "Ben", "tiles": ["5-1", "6-2"]},
    {"type": "draw", "player": "Ana", "tile": None},
    {"type": "play", "player": "Ben", "tiles": ["1-0", "2-2"]},
    {"type": "reveal", "player": "Ana", "tiles": ["0-0", "0-3", "3-3", "0-4", "4-4", "0-2", "5-5", "1-6"]},
    {"type": "hand_end"},
]
WHY = "(draws not seen leave open which tiles were held then)"
AT_4 = f"Ana draws; it turns on whether Ana held 1-6, 5-5 then: a renege in 54% of the hands the log allows {WHY}"
AT_6 = f"Ana draws; it turns on whether Ana held 0-2, 1-6 then: a renege in 75% of the hands the log allows {WHY}"
HEAD = "OK e3.jsonl:1 double-draw Ana vs Ben | 1 hand, totals Ana 0, Ben 40, winner none | incomplete | head"
SCHEMA = json.loads((ROOT / "schemas" / "audit.schema.json").read_text(encoding="utf-8"))


def write(tmp_path: Path) -> Path:
    """The log, where the console script runs (the ``cli`` fixture's folder)."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    path = work / "e3.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in EVENTS), encoding="utf-8")
    return path


def lines(ran: Ran) -> list[str]:
    return [line.split(" head ")[0] + " head" if line.startswith("OK ") else line for line in ran.out.splitlines()]


def test_verify_says_how_likely_each_possible_renege_is(cli: Any, tmp_path: Path) -> None:
    write(tmp_path)
    ran = cli("verify", "e3.jsonl", "--verbose")
    assert ran.code == 0 and ran.err == ""
    assert lines(ran) == [
        HEAD,
        f"e3.jsonl:4: seq 4: unverified renege: {AT_4}",
        f"e3.jsonl:6: seq 6: unverified renege: {AT_6}",
        "1 matches: 1 valid, 0 invalid; 2 rules unverified (hidden tiles)",
    ]
    doc = json.loads(cli("verify", "e3.jsonl", "--json").out)
    (m,) = doc["matches"]
    assert m["unverified"] == [
        {"seq": 4, "line": 4, "code": "renege", "message": AT_4, "likelihood": {"share": 0.5357, "exact": True}},
        {"seq": 6, "line": 6, "code": "renege", "message": AT_6, "likelihood": {"share": 0.75, "exact": True}},
    ]
    assert "unverified_hidden" not in m  # only with --min-likelihood


def test_verify_min_likelihood_hides_the_less_likely_and_says_how_many(cli: Any, tmp_path: Path) -> None:
    write(tmp_path)
    ran = cli("verify", "e3.jsonl", "--min-likelihood", "0.6")
    assert ran.code == 0
    assert lines(ran) == [
        HEAD,
        "  1 rule not checkable: draws not seen leave open which tiles were held then (--verbose lists them)",
        "  1 possible violation under 60% likely not shown (--min-likelihood 0.6)",
        "1 matches: 1 valid, 0 invalid; 1 rules unverified (hidden tiles); "
        "1 possible violation under 60% likely not shown (--min-likelihood 0.6)",
    ]
    (m,) = json.loads(cli("verify", "e3.jsonl", "--json", "--min-likelihood", "0.6").out)["matches"]
    assert [u["seq"] for u in m["unverified"]] == [6] and m["unverified_hidden"] == 1
    (m,) = json.loads(cli("verify", "e3.jsonl", "--json", "--min-likelihood", "0.5").out)["matches"]
    assert [u["seq"] for u in m["unverified"]] == [4, 6] and m["unverified_hidden"] == 0
    assert cli("verify", "e3.jsonl", "-q", "--min-likelihood", "0.9").out == ""  # nothing but violations
    bad = cli("verify", "e3.jsonl", "--min-likelihood", "1.5")
    assert bad.code == 2 and "--min-likelihood" in bad.err


def test_verify_jobs_give_the_same_likelihoods_byte_for_byte(cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path)
    for k in range(3):
        (path.parent / f"e3-{k}.jsonl").write_bytes(path.read_bytes())
    one = cli("verify", ".", "--json")
    two = cli("verify", ".", "--json", "--jobs", "2")
    assert one.stdout == two.stdout and one.stdout.count(b'"share": 0.5357') == 4


def test_audit_ranks_the_possible_violations_most_likely_first(cli: Any, tmp_path: Path) -> None:
    write(tmp_path)
    ran = cli("audit", "e3.jsonl")
    assert ran.code == 0
    out = ran.out.splitlines()
    assert out[1] == "VERDICT: valid as far as the log shows; 2 possible violations"
    heads = [line for line in out if line.startswith("  POSSIBLE")]
    assert heads == [
        "  POSSIBLE 75% seq 6 (line 6), renege: Ana draws; it turns on whether Ana held 0-2, 1-6 then: a",
        "  POSSIBLE 54% seq 4 (line 4), renege: Ana draws; it turns on whether Ana held 1-6, 5-5 then: a",
    ]
    assert (
        "    - Taking every hand the log allows as equally likely, the rule was broken in 75% of them" in out
        and "        (counted exactly)." in out
    )
    doc = json.loads(cli("audit", "e3.jsonl", "--format", "json").out)
    jsonschema.validate(doc, SCHEMA)
    (hand,) = doc["hands"]
    assert [(f["seq"], f["certainty"], f["likelihood"]) for f in hand["findings"]] == [
        (6, "possible", {"share": 0.75, "exact": True}),
        (4, "possible", {"share": 0.5357, "exact": True}),
    ]
    assert "hidden" not in doc["verdict"] and "min_likelihood" not in doc
    html = cli("audit", "e3.jsonl", "--format", "html").out
    at_6, at_4 = html.index('data-seq="6"><div class="head"'), html.index('data-seq="4"><div class="head"')
    assert at_6 < at_4 and '<span class="likely" title=' in html and ">75%</span>" in html


def test_audit_min_likelihood_leaves_out_the_less_likely(cli: Any, tmp_path: Path) -> None:
    write(tmp_path)
    ran = cli("audit", "e3.jsonl", "--min-likelihood", "0.6")
    assert ran.code == 0
    out = ran.out.splitlines()
    assert out[1] == (
        "VERDICT: valid as far as the log shows; 1 possible violation, 1 possible violation under 60% likely not shown"
    )
    assert [line[:20] for line in out if line.startswith("  POSSIBLE")] == ["  POSSIBLE 75% seq 6"]
    doc = json.loads(cli("audit", "e3.jsonl", "--format", "json", "--min-likelihood", "0.6").out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["min_likelihood"] == 0.6
    assert doc["verdict"]["possible"] == 1 and doc["verdict"]["hidden"] == 1
    assert doc["hands"][0]["verdict"]["hidden"] == 1
    assert [f["seq"] for f in doc["hands"][0]["findings"]] == [6]
    events = {e["seq"]: e["findings"] for e in doc["hands"][0]["events"]}
    assert events[4] == [] and events[6] == [0]
    html = cli("audit", "e3.jsonl", "--format", "html", "--min-likelihood", "0.9").out
    assert "2 possible violations under 90% likely not shown" in html and '<span class="likely"' not in html


# -- the replay viewer ----------------------------------------------------------------------------------


def e3_log(tmp_path: Path) -> Any:
    path = tmp_path / "e3.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in EVENTS), encoding="utf-8")
    return next(iter(iter_matches(path)))


def test_pilot_min_likelihood_hides_the_less_likely_marks(tmp_path: Path) -> None:
    log = e3_log(tmp_path)
    app = ReplayApp(log, min_likelihood=0.6)

    async def body(pilot: Any) -> None:
        screen = app.replay
        assert screen.query_one(EventList).border_subtitle == "0 ✗  1 ?  1 under 60% hidden"
        assert [n.message for n in app._notifications] == [
            "1 possible violation under 60% likely not shown (--min-likelihood 0.6)"
        ]
        await pilot.press("v")
        assert screen.seq == 6  # seq 4 (54%) is passed over
        await pilot.press("V")
        assert screen.seq == 6  # nothing before it: it stays
        screen.goto_seq(4)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, AuditScreen)
        assert app.screen.text.split("\n")[2] == (
            "no finding shown at this event: 1 possible violation under 60% likely not shown (--min-likelihood 0.6)"
        )
        await pilot.press("escape")
        screen.goto_seq(6)
        await pilot.press("a")
        await pilot.pause()
        assert "a renege in 75% of the hands the log allows" in app.screen.text

    drive(app, body)


def test_pilot_without_a_threshold_every_possible_violation_is_marked(tmp_path: Path) -> None:
    app = ReplayApp(e3_log(tmp_path))

    async def body(pilot: Any) -> None:
        screen = app.replay
        assert screen.query_one(EventList).border_subtitle == "0 ✗  2 ?"
        assert not list(app._notifications)
        await pilot.press("v")
        assert screen.seq == 4

    drive(app, body)
