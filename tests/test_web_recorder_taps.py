"""The phone recorder (issue 27) in headless Chromium as a phone against ``dominolog serve``: a reload
while the server is out of reach (the service worker), whole hands of each kind by taps alone (a hidden
Ghost 13 match to its end, a Double Draw hand with pair plays and unseen draws, a 39 hand with a
declaration), each verified afterwards, and the second phone's entry refused as stale kept to re-enter."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.phone import Phone, record_by_taps
from tests.test_web_recorder import MATCH, _append, _bare, _sim, _start, _stored, _table_token
from tests.webserver import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "r.db", tmp_path) as s:
        yield s


def _simulated(tmp_path: Path, variant: str, seed: int) -> list[dict[str, Any]]:
    out = run_cli("simulate", "--variant", variant, "--seed", str(seed), "--hide", cwd=tmp_path).out
    return [json.loads(line) for line in out.splitlines()]


def _verified(server: Server, tmp_path: Path) -> dict[str, Any]:
    """``dominolog verify --db DB --json`` (the installed console script) of the stored match."""
    report = json.loads(run_cli("verify", "--db", server.db, "--json", cwd=tmp_path).out)
    [match] = report["matches"]
    assert (match["valid"], match["violations"]) == (True, [])
    return dict(match)


def _by_taps(server: Server, tmp_path: Path, variant: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Start the match, record ``events`` (after the match_start) by taps; what the server should hold."""
    _start(server, variant=variant)
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        expected = record_by_taps(phone, events, 2)
        assert phone.js("return document.querySelectorAll('#entry-line')[0].value") == ""  # nothing typed
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    start = {"type": "match_start", "variant": variant, "players": ["Ana", "Ben"], "id": MATCH}
    return [start, *expected]


def test_a_reload_while_offline_comes_from_the_service_worker(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])  # the deal, Ben 4-4
    worker = server.client.get("/record-sw.js")
    assert worker.status_code == 200 and worker.headers["content-type"].startswith("text/javascript")
    assert "worker-src 'self'" in worker.headers["content-security-policy"]
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.wait(lambda: phone.root("reload") == "offline", "the page kept by the service worker")
        phone.offline(True)
        phone.tap('button[data-tile="3-4"]')
        phone.tap('#places [data-place="left"]')
        phone.wait(lambda: phone.root("state") == "offline", "offline")
        for tile, end in (("3-6", "left"), ("1-4", "right"), ("1-2", "right"), ("2-4", "right")):
            phone.tap(f'button[data-tile="{tile}"]')  # made on entries not yet stored: its place asked now
            phone.tap(f'#places [data-place="{end}"]')
        assert phone.root("pending") == "5" and len(_stored(server)) == 3
        # the page reloaded with the network off and the server stopped: it can only come from the cache
        # (the emulation is the page's: the service worker's own requests still reach a running server,
        # as a fetch through it of a page it never kept shows, a 404 and not a failure; hence the stop)
        server.stop()
        phone.driver.refresh()
        phone.wait(lambda: phone.root("pending") == "5" and phone.root("state") == "offline", "the queue, reloaded")
        assert phone.text("#banner") == "offline, 5 waiting: keep tapping, they are sent when the server answers"
        pending = phone.js("return [...document.querySelectorAll('#queue li.pending')].map(l => l.textContent)")
        assert pending == [
            "Ana: play 3-4 left · pending, #4",
            "Ben: play 3-6 left · pending, #5",
            "Ana: play 1-4 right · pending, #6",
            "Ben: play 1-2 right · pending, #7",
            "Ana: play 2-4 right · pending, #8",
        ]
        # the last state the page saw (Ana to play), moved on by the five plays waiting
        assert phone.text("#status").startswith("Ben to play")
        assert phone.js("return [...document.querySelectorAll('#events li')].map(l => l.dataset.seq)") == [
            "3",
            "2",
            "1",
        ]
        assert phone.js("return !!navigator.serviceWorker.controller")
        server.start()
        phone.offline(False)
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"8\"]')"), "seq 8 listed")
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    # once each, in order, at seqs 4 to 8 (each read after the seq before it), each at the place tapped
    played = [_bare(e) for e in sim[3:8]]
    assert len(_stored(server)) == 8
    for seq, event in enumerate(played, start=4):
        after = server.client.get(f"/api/matches/{MATCH}/events?after={seq - 1}").text.splitlines()
        assert len(after) == 9 - seq and _bare(json.loads(after[0])) == event


def test_a_whole_hidden_ghost13_match_by_taps(server: Server, tmp_path: Path) -> None:
    sim = _simulated(tmp_path, "ghost13", 3)
    assert [e["type"] for e in sim].count("hand_end") == 3 and sim[-1]["type"] == "match_end"
    expected = _by_taps(server, tmp_path, "ghost13", sim[1:])
    assert _stored(server) == expected
    # the same events as simulated, but the agreement notes and the reveals the rules did not ask for
    kept = [e for e in expected[1:] if e["type"] != "note"]
    asked = [_bare(e) for e in sim[1:] if e["type"] != "reveal" or _bare(e) in kept]
    third = [i for i, e in enumerate(asked) if e["type"] == "deal"][2]
    assert kept[:third] == asked[:third]
    # hand 3 began with 6-3 as the log wrote it: the pad laid it 3-6, so the line is the log's mirror
    assert (asked[third + 1]["tile"], kept[third + 1]["tile"]) == ("6-3", "3-6")
    swap = {"left": "right", "right": "left"}
    mirror = [{**e, "end": swap[e["end"]]} if e.get("end") in swap else e for e in asked[third + 2 :]]
    assert kept[third + 2 :] == mirror and any(e.get("end") for e in mirror)
    assert any(e["type"] == "reveal" for e in kept)  # a blocked hand: its reveals tapped in
    match = _verified(server, tmp_path)
    points = [{"Ana": 0, "Ben": 58}, {"Ana": 0, "Ben": 31}, {"Ana": 0, "Ben": 25}]
    assert [h["points"] for h in match["hands"]] == points
    assert (match["totals"], match["winner"], match["complete"]) == ({"Ana": 0, "Ben": 114}, "Ben", True)


def test_a_double_draw_hand_with_pair_plays_and_unseen_draws_by_taps(server: Server, tmp_path: Path) -> None:
    sim = _simulated(tmp_path, "double-draw", 1)
    end = next(i for i, e in enumerate(sim) if e["type"] == "hand_end")
    hand = sim[1 : end + 1]
    assert {"draw", "play", "reveal"} <= {e["type"] for e in hand} and any("tiles" in e for e in hand)
    expected = _by_taps(server, tmp_path, "double-draw", hand)
    assert _stored(server) == expected
    assert expected[1] == {"type": "deal", "leader": "Ben", "hands": None, "start_tile": "2-4"}  # (dealer: the rules')
    assert expected[2] == {"type": "play", "player": "Ben", "tiles": ["2-6", "4-4"]}
    assert [e for e in expected[2:] if e["type"] != "note"] == [_bare(e) for e in hand[1:]]
    match = _verified(server, tmp_path)
    assert [h["points"] for h in match["hands"]] == [{"Ana": 0, "Ben": 22}]


def test_a_39_hand_with_a_declaration_by_taps(server: Server, tmp_path: Path) -> None:
    sim = _simulated(tmp_path, "39", 1)
    end = next(i for i, e in enumerate(sim) if e["type"] == "hand_end")
    hand = sim[1 : end + 1]
    assert any(e["type"] == "declare" for e in hand)
    expected = _by_taps(server, tmp_path, "39", hand)
    assert _stored(server) == expected
    kept = [e for e in expected[1:] if e["type"] != "note"]
    assert kept == [_bare(e) for e in hand if e["type"] != "reveal" or _bare(e) in kept]
    match = _verified(server, tmp_path)
    assert [h["points"] for h in match["hands"]] == [hand[-1]["points"]]
