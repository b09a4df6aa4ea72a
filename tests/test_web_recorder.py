"""The phone recorder (issue 27): its state document over HTTP (httpx), and the page in headless Chromium
as a phone (360 x 640, touch through the DevTools protocol) against ``dominolog serve`` run from the
installed package: a whole hand by taps with the opponent's agreement, a tile that fits two places,
entries made offline stored once each in order, a conflict with another writer, a hostile name, the
touch targets' sizes and no CSP violation."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import parsed
from tests.phone import Phone, tap_event
from tests.webserver import Server

MATCH = "club-t1"
SIM: list[dict[str, Any]] = []  # the simulated match (seed 1), read once


def _sim(tmp_path: Path) -> list[dict[str, Any]]:
    from tests.conftest import run_cli

    if not SIM:
        out = run_cli("simulate", "--seed", "1", cwd=tmp_path).out
        SIM.extend(json.loads(line) for line in out.splitlines())
    return SIM


def _bare(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("seq", "hash", "at")}


def _organiser(s: Server, kind: str = "application/x-ndjson") -> dict[str, str]:
    return {"Content-Type": kind, **s.auth(s.organiser)}


def _start(s: Server, players: list[str] | None = None, match: str = MATCH, variant: str = "ghost13") -> None:
    start = {"type": "match_start", "variant": variant, "players": players or ["Ana", "Ben"], "id": match}
    r = s.client.post("/api/matches", content=json.dumps(start) + "\n", headers=_organiser(s))
    assert r.status_code == 201, r.text


def _table_token(s: Server, match: str = MATCH) -> str:
    r = s.client.post("/api/tokens", json={"match": match}, headers=s.auth(s.organiser))
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def _stored(s: Server, match: str = MATCH) -> list[dict[str, Any]]:
    """The stored events, without the time the server stamped on each (it stamps every event written
    over HTTP without one: the phone sends none)."""
    r = s.client.get(f"/api/matches/{match}/events")
    events = [json.loads(line) for line in r.text.splitlines()]
    assert all(isinstance(e.get("at"), str) and e["at"].endswith("Z") for e in events), r.text
    return [{k: v for k, v in e.items() if k != "at"} for e in events]


def _append(s: Server, events: list[dict[str, Any]]) -> None:
    lines = "".join(json.dumps(_bare(e)) + "\n" for e in events)
    r = s.client.post(f"/api/matches/{MATCH}/events", content=lines, headers=_organiser(s))
    assert r.status_code == 201, r.text


def _deal_notation(deal: dict[str, Any]) -> str:
    hands = " ".join(f"[{p} {' '.join(t.replace('-', '') for t in ts)}]" for p, ts in deal["hands"].items())
    return f"deal {deal['leader']} {hands}"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "r.db", tmp_path) as s:
        yield s


# -- the state document over HTTP -------------------------------------------------------------------


def test_the_state_document(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    assert server.client.get("/api/matches/nope/recorder").status_code == 404
    assert server.client.get("/m/nope/record").status_code == 404
    _start(server)
    doc = server.client.get(f"/api/matches/{MATCH}/recorder").json()
    assert (doc["seq"], doc["hand"], doc["turn"], doc["picture"]) == (1, None, None, None)
    assert doc["prompt"] == {
        "kind": "deal",
        "text": "hand 1: tap who leads (hands not seen)",
        "offer": None,
        "reveal": None,
        "deal": {"leaders": ["Ana", "Ben"], "start": False},
    }
    assert len(doc["pad"]) == 28 and {t["state"] for t in doc["pad"]} == {"unknown"}
    assert doc["actions"] == {
        "pass": None,
        "draw": None,
        "block": None,
        "declare": None,
        "undo": None,
        "pair": False,
        "shown": ["pass", "block", "reveal", "note", "undo"],  # no draw, no pair in Ghost 13
    }
    assert doc["order"] == [] and doc["places"] == []
    bad = server.client.get(f"/api/matches/{MATCH}/recorder?revealing=nope")
    assert bad.status_code == 422 and bad.json()["error"].startswith("query.revealing: ")
    many = server.client.get(f"/api/matches/{MATCH}/recorder?" + "&".join(["skip=Ana"] * 9))
    assert many.status_code == 422 and "at most 8 items" in many.json()["error"]

    lines = "".join(json.dumps(_bare(e)) + "\n" for e in sim[1:4])  # the deal, 4-4, 3-4 left
    r = server.client.post(f"/api/matches/{MATCH}/events", content=lines, headers=_organiser(server))
    assert r.status_code == 201 and r.json()["seqs"] == [2, 3, 4]
    doc = server.client.get(f"/api/matches/{MATCH}/recorder").json()
    assert (doc["seq"], doc["hand"], doc["turn"]) == (4, 1, "Ben")
    assert doc["order"] == ["Ben", "Ana"]  # each play or pass moves the turn on, in this order
    assert doc["places"] == [
        {"id": "left", "suffix": "L", "end": "3-4:W"},
        {"id": "right", "suffix": "R", "end": "4-4:E"},
    ]
    assert doc["prompt"]["text"] == "hand 1: Ben to play · legal 03 04 23 36 45 46"
    assert doc["picture"].startswith("<svg")
    pad = {t["tile"]: t for t in doc["pad"]}
    assert [t for t, v in pad.items() if v["state"] == "table"] == ["3-4", "4-4"]
    legal = sorted(t for t, v in pad.items() if v["state"] == "legal")
    assert legal == ["0-3", "0-4", "2-3", "3-6", "4-5", "4-6"]  # Ben's tiles fitting 3 and 4
    assert pad["0-0"]["state"] == "elsewhere"  # in Ana's hand
    assert pad["3-6"]["places"] == [{"id": "left", "entry": "36L", "end": "3-4:W"}]
    assert pad["4-6"]["places"] == [{"id": "right", "entry": "46R", "end": "4-4:E"}]
    hands = {h["player"]: h for h in doc["hands"]}
    assert (len(hands["Ana"]["known"]), hands["Ana"]["hidden"], hands["Ben"]["count"]) == (13, 0, 13)
    assert [(e["seq"], e["words"]) for e in doc["events"]] == [
        (1, "match_start ghost13 Ana vs Ben"),
        (2, "deal leader Ben"),
        (3, "play Ben 4-4"),
        (4, "play Ana 3-4 left"),
    ]
    assert "undo" not in doc["events"][1]  # the deal is not reached by a correction
    assert doc["events"][2]["undo"]["body"] == '{"type": "undo"}\n{"type": "undo"}\n'
    assert doc["events"][3]["undo"]["body"] == '{"type": "undo"}\n'
    assert doc["totals"] == {"Ana": 0, "Ben": 0}
    assert doc["prompt"]["kind"] == "turn" and doc["agreement"] is None


def test_the_state_document_at_a_hand_end_asks_the_loser(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:29])  # the whole hand but its end
    doc = server.client.get(f"/api/matches/{MATCH}/recorder").json()
    agreement = doc["agreement"]
    assert agreement["player"] == "Ana" and agreement["hand"] == 1
    assert doc["points"] == {"Ana": 0, "Ben": 8}
    assert agreement["agree"]["body"] == (
        '{"type": "note", "player": "Ana", "text": "agrees: hand 1: Ana 0, Ben 8"}\n'
        '{"type": "hand_end", "points": {"Ana": 0, "Ben": 8}, "winner": "Ben"}\n'
    )
    assert agreement["disagree"]["body"].startswith('{"type": "note", "player": "Ana", "text": "disagrees: hand 1')


# -- the page in a phone browser --------------------------------------------------------------------


def test_a_whole_hand_by_taps_with_the_opponents_agreement(server: Server, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    sim = _sim(tmp_path)
    _start(server)
    token = _table_token(server)
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={token}")
        assert phone.js("return location.hash") == ""  # the token left the address bar
        assert phone.js(f"return localStorage.getItem('dominolog.token.{MATCH}')") == json.dumps(token)
        # the deal, typed in the notation line (the rules do not say who leads the first hand)
        phone.js("document.getElementById('entry-line').value = arguments[0]", _deal_notation(sim[1]))
        phone.tap('#entry button[type="submit"]')
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"2\"]')"), "the deal")
        taps: list[int] = []
        for n, event in enumerate(sim[2:29], start=3):
            taps.append(tap_event(phone, event, n))
        assert taps.count(2) >= 1 and taps.count(1) >= 20  # a tile fitting two places took two taps
        # the hand is over: the rules' result, and the other side asked to agree
        phone.wait(lambda: not phone.js("return document.getElementById('agreement').hidden"), "the agreement")
        assert phone.text("#agreement-text") == "Hand 1: domino, winner Ben: Ana 0, Ben 8. Ana, do you agree?"
        assert phone.js("return document.querySelectorAll('[data-action=agree], [data-action=disagree]').length") == 2
        phone.tap('[data-action="agree"]')
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"31\"]')"), "the hand end")
        # the next hand: the prompt's offer deals it, hands not seen, with the leader the rules name
        phone.wait(lambda: phone.text('#offer [data-action="offer"]') == "deal, Ben leads", "the offer")
        phone.tap('#offer [data-action="offer"]')
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"32\"]')"), "the deal")
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    stored = _stored(server)
    assert stored.pop() == {"type": "deal", "leader": "Ben", "hands": None}
    expected = [_bare(e) for e in sim[:29]]
    expected[0] = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": MATCH}
    expected.append({"type": "note", "player": "Ana", "text": "agrees: hand 1: Ana 0, Ben 8"})
    expected.append({"type": "hand_end", "points": {"Ana": 0, "Ben": 8}, "winner": "Ben"})
    assert stored == expected
    sheet = run_cli("export", MATCH, "--db", server.db, "--format", "html", cwd=tmp_path).out
    assert '<span class="agreed">agreed by Ana</span>' in sheet
    served = server.client.get(f"/m/{MATCH}/sheet")
    assert served.status_code == 200 and '<span class="agreed">agreed by Ana</span>' in served.text


def test_a_tile_that_fits_two_places_takes_two_taps(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])  # the deal, Ben 4-4
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.tap('button[data-tile="3-4"]')  # 3-4 on the 4-4: left or right
        phone.wait(lambda: phone.js("return document.querySelectorAll('#places [data-place]').length") == 2, "places")
        places = phone.js("return [...document.querySelectorAll('#places [data-place]')].map(b => b.dataset.place)")
        assert places == ["left", "right"]
        lit = phone.js(
            "return [...document.querySelectorAll('#picture .lit')].map(g => [g.dataset.place, g.dataset.end])"
        )
        assert lit == [["left", "4-4:W"], ["right", "4-4:E"]]  # the places light up on the table
        assert phone.root("pending") == "0" and _stored(server)[-1]["tile"] == "4-4"  # nothing sent yet
        sizes = phone.js(
            "return [...document.querySelectorAll('button[data-tile], button[data-place], [data-action]')]"
            ".filter(b => b.offsetParent !== null).map(b => { var r = b.getBoundingClientRect();"
            " return [b.dataset.tile || b.dataset.place || b.dataset.action, r.width, r.height]; })"
        )
        assert len([s for s in sizes if "-" in s[0]]) == 28
        small = [s for s in sizes if s[1] < 44 or s[2] < 44]
        assert small == [], small
        assert phone.js("return document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
        phone.tap('#places [data-place="left"]')
        phone.settled()
        assert _stored(server)[-1] == {"type": "play", "player": "Ana", "tile": "3-4", "end": "left"}
        assert phone.csp_violations() == []
    finally:
        phone.quit()


def test_entries_made_offline_are_stored_once_each_in_order(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])  # the deal, Ben 4-4
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.offline(True)
        phone.tap('button[data-tile="3-4"]')
        phone.tap('#places [data-place="left"]')
        phone.wait(lambda: phone.root("state") == "offline", "offline")
        # the next plays of the hand (3-6 left, 1-4 right, 1-2 right, 2-4 right), typed and tapped
        for text in ("36L", "14R"):
            phone.js("document.getElementById('entry-line').value = arguments[0]", text)
            phone.tap('#entry button[type="submit"]')
        phone.tap('button[data-tile="1-2"]')  # made on entries not yet stored: its place is asked now
        phone.tap('#places [data-place="right"]')
        assert phone.root("pending") == "4" and phone.root("state") == "offline"
        assert phone.text("#banner") == "offline, 4 waiting: keep tapping, they are sent when the server answers"
        pending = phone.js("return [...document.querySelectorAll('#queue li.pending')].map(l => l.textContent)")
        assert pending == [  # a tap names its player (the server's order of play); a typed line is as typed
            "Ana: play 3-4 left · pending, #4",
            "36L · pending, #5",
            "14R · pending, #6",
            "Ben: play 1-2 right · pending, #7",
        ]
        assert len(_stored(server)) == 3  # nothing reached the server
        # the writes still cut off (the page itself reachable): a reload keeps the queue
        phone.cdp("Network.setBlockedURLs", urls=["*/events?seq=*"])  # (before going online: no retry gets through)
        phone.offline(False)
        phone.driver.refresh()
        phone.wait(lambda: phone.root("pending") == "4", "the queue after a reload")
        phone.cdp("Network.setBlockedURLs", urls=[])
        phone.settled()
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    stored = _stored(server)
    # once each, in order, seqs 4 to 7
    assert stored[3:] == [*(_bare(e) for e in sim[3:7])]
    assert len(stored) == 7


def test_a_conflict_with_another_writer(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.offline(True)
        phone.tap('button[data-tile="3-4"]')
        phone.tap('#places [data-place="right"]')
        phone.wait(lambda: phone.root("state") == "offline", "offline")
        other = json.dumps({"type": "note", "player": "Ben", "text": "Ben recorded this"}) + "\n"
        r = server.client.post(f"/api/matches/{MATCH}/events?seq=4", content=other, headers=_organiser(server))
        assert r.status_code == 201 and r.json()["seqs"] == [4]
        phone.offline(False)
        phone.wait(lambda: phone.root("state") == "conflict", "the conflict")
        assert phone.root("pending") == "1"
        said = phone.text("#conflict-text")
        assert "#4 note Ben 'Ben recorded this'" in said and "play 3-4 right" in said
        assert len(_stored(server)) == 4  # mine not stored
        phone.tap('[data-resolve="keep"]')  # mine after theirs, as played
        phone.settled()
    finally:
        phone.quit()
    stored = _stored(server)
    assert stored[3:] == [
        {"type": "note", "player": "Ben", "text": "Ben recorded this"},
        {"type": "play", "player": "Ana", "tile": "3-4", "end": "right"},
    ]


def test_a_hostile_name_is_shown_as_text(server: Server, tmp_path: Path) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    hostile = ["<script>alert(1)</script>", '"onmouseover=alert(2) x="']
    _start(server, hostile, "m<i>/2")
    page = server.client.get("/m/m%3Ci%3E%2F2/record")
    assert page.status_code == 200
    tags = parsed(page.text)
    [script] = [a for t, a in tags.tags if t == "script"]
    # an ES module (deferred as every module is): no inline script, and nothing but the page's own file
    assert re.fullmatch(r"/static/record\.[0-9a-f]{12}\.js", script.pop("src")) and script == {"type": "module"}
    assert not any(name.startswith("on") for _, attrs in tags.tags for name in attrs)
    assert '<script>alert(1)</script>, "onmouseover=alert(2) x="' in "".join(tags.text)
    deal = {"type": "deal", "leader": hostile[0], "hands": None}
    r = server.client.post(
        "/api/matches/m%3Ci%3E%2F2/events", content=json.dumps(deal), headers=_organiser(server, "application/json")
    )
    assert r.status_code == 201, r.text
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/m%3Ci%3E%2F2/record")
        phone.wait(lambda: "to play" in phone.text("#status"), "whose turn")
        assert phone.text("#status").startswith("<script>alert(1)</script> to play")
        with pytest.raises(NoAlertPresentException):
            phone.driver.switch_to.alert.text  # noqa: B018
        assert phone.js("return document.querySelectorAll('script').length") == 1
        assert phone.js("return document.querySelectorAll('[onmouseover], main i, #hands script').length") == 0
        # opened without the table card's token: an entry stays queued, and the page says why
        phone.tap('[data-action="pass"]')
        phone.wait(lambda: phone.text("#banner").startswith("not sent: a write needs a token"), "the refusal")
        assert phone.root("pending") == "1" and len(_stored(server, "m%3Ci%3E%2F2")) == 2
        assert phone.csp_violations() == []
    finally:
        phone.quit()


def test_a_hidden_hand_by_taps_with_a_disagreement(server: Server, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    hidden = [json.loads(line) for line in run_cli("simulate", "--seed", "1", "--hide", cwd=tmp_path).out.splitlines()]
    assert hidden[29]["type"] == "reveal" and hidden[30]["type"] == "hand_end"
    _start(server)
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.js("document.getElementById('entry-line').value = 'deal Ben [?]'")
        phone.tap('#entry button[type="submit"]')
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"2\"]')"), "the deal")
        assert phone.js("return document.querySelectorAll('#pad button[data-tile]:not(:disabled)').length") == 28
        for n, event in enumerate(hidden[2:29], start=3):
            tap_event(phone, event, n)
        # Ben is out: Ana's last two tiles are the only ones not seen, so the rules give the result
        # without a reveal (the table's reveal, in the simulated log, adds nothing)
        phone.wait(lambda: not phone.js("return document.getElementById('agreement').hidden"), "the agreement")
        assert phone.text("#agreement-text") == "Hand 1: domino, winner Ben: Ana 0, Ben 8. Ana, do you agree?"
        phone.tap('[data-action="disagree"]')
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"31\"]')"), "the hand end")
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    expected = [_bare(e) for e in hidden[:29]]
    expected[0] = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": MATCH}
    expected.append({"type": "note", "player": "Ana", "text": "disagrees: hand 1: Ana 0, Ben 8"})
    expected.append({"type": "hand_end", "points": {"Ana": 0, "Ben": 8}, "winner": "Ben"})
    assert _stored(server) == expected
    sheet = run_cli("export", MATCH, "--db", server.db, "--format", "html", cwd=tmp_path).out
    assert '<span class="disputed">disputed by Ana</span>' in sheet and "agreed by" not in sheet


def test_a_slip_fixed_by_tapping_an_earlier_event_and_a_refused_entry(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])  # the deal, Ben 4-4
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.tap('button[data-tile="3-4"]')
        phone.tap('#places [data-place="left"]')  # the slip: Ana played it on the right
        phone.settled()
        phone.tap('button[data-tile="3-6"]')  # Ben's answer, one place
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events li.undoable[data-seq=\"5\"]')"), "seq 5")
        phone.tap('#events li[data-seq="4"]')  # back to the slip: a first tap asks
        assert phone.text('#events li[data-seq="4"]') == "#4 play Ana 3-4 left · tap again: undo back to #4"
        assert phone.root("pending") == "0"
        phone.tap('#events li[data-seq="4"]')  # the second: two undos, nothing deleted
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"7\"]')"), "the undos")
        phone.tap('button[data-tile="3-4"]')
        phone.tap('#places [data-place="right"]')
        phone.settled()
        # a refused entry: 5-5 is in Ana's hand, Ben is on move
        phone.js("document.getElementById('entry-line').value = '55L'")
        phone.tap('#entry button[type="submit"]')
        phone.wait(lambda: phone.js("return !!document.querySelector('#queue li.refused')"), "the refusal")
        refusal = phone.text("#queue li.refused")
        assert refusal.startswith("55L: refused: ") and "5-5" in refusal
        assert phone.js("return document.getElementById('entry-line').value") == "55L"  # back in the line
        phone.wait(lambda: phone.root("state") == "idle" and phone.root("pending") == "0", "the queue empty")
    finally:
        phone.quit()
    assert _stored(server)[3:] == [
        {"type": "play", "player": "Ana", "tile": "3-4", "end": "left"},
        {"type": "play", "player": "Ben", "tile": "3-6", "end": "left"},
        {"type": "undo"},
        {"type": "undo"},
        {"type": "play", "player": "Ana", "tile": "3-4", "end": "right"},
    ]


def test_an_unseen_draw_and_a_reveal_by_taps_in_double_draw(server: Server, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    out = run_cli("simulate", "--variant", "double-draw", "--seed", "1", "--hide", cwd=tmp_path).out
    sim = [json.loads(line) for line in out.splitlines()]
    assert [e["type"] for e in sim[5:9]] == ["draw", "play", "reveal", "hand_end"]
    _start(server, variant="double-draw")
    _append(server, sim[1:5])  # the deal (2-4 turned up), three pair plays
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.tap('[data-action="draw"]')  # which tile? unseen
        phone.tap('#places [data-draw="unseen"]')
        phone.settled()
        _append(server, sim[6:7])  # Ben's pair play, from another phone: Ben is out
        # the hand's end: the pad takes Ana's reveal at once
        phone.wait(lambda: phone.text("#prompt").startswith("hand 1 is over: tap Ana's tiles"), "the reveal's prompt")
        phone.wait(lambda: "Ana's tiles" in phone.text("#places"), "the reveal on the pad")
        for tile in sim[7]["tiles"]:
            phone.tap(f'button[data-tile="{tile}"]')
        phone.tap('#places [data-reveal="send"]')
        phone.wait(lambda: not phone.js("return document.getElementById('agreement').hidden"), "the agreement")
        phone.tap('[data-action="agree"]')
        phone.settled()
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    stored = _stored(server)
    assert stored[5:] == [
        {"type": "draw", "player": "Ana", "tile": None},
        _bare(sim[6]),
        {"type": "reveal", "player": "Ana", "tiles": sim[7]["tiles"]},
        {"type": "note", "player": "Ana", "text": "agrees: hand 1: Ana 0, Ben 22"},
        _bare(sim[8]),
    ]


def test_two_phones_on_one_match_one_winner_per_seq(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])  # the deal, Ben 4-4
    token = _table_token(server)
    first, second = Phone(tmp_path, "first"), Phone(tmp_path, "second")
    try:
        for phone in (first, second):
            phone.open(f"{server.url}/m/{MATCH}/record#token={token}")
        first.offline(True)
        first.tap('button[data-tile="3-4"]')
        first.tap('#places [data-place="left"]')
        first.wait(lambda: first.root("state") == "offline", "offline")
        second.tap('button[data-tile="3-4"]')
        second.tap('#places [data-place="right"]')
        second.settled()
        first.offline(False)
        first.wait(lambda: first.root("state") == "conflict", "the conflict")
        said = first.text("#conflict-text")
        assert "#4 play Ana 3-4 right" in said and "Yours, not stored: play 3-4 left" in said
        first.tap('[data-resolve="drop"]')  # the other's is right: drop mine
        first.settled()
        first.wait(lambda: first.js("return !!document.querySelector('#events [data-seq=\"4\"]')"), "theirs shown")
        assert first.text('#events [data-seq="4"]') == "#4 play Ana 3-4 right"
        # mine, refused as stale, kept in the line to re-enter; here the table's next play typed over it
        assert first.js("return document.getElementById('entry-line').value") == "34L"
        assert first.js("return document.querySelectorAll('#queue li').length") == 0
        first.js("document.getElementById('entry-line').value = '36R'")
        first.tap('#entry button[type="submit"]')
        first.settled()
        first.wait(lambda: first.js("return !!document.querySelector('#events [data-seq=\"5\"]')"), "mine re-entered")
        assert first.csp_violations() == [] and second.csp_violations() == []
    finally:
        first.quit()
        second.quit()
    assert _stored(server)[3:] == [
        {"type": "play", "player": "Ana", "tile": "3-4", "end": "right"},
        {"type": "play", "player": "Ben", "tile": "3-6", "end": "right"},
    ]


def test_a_spinner_place_and_a_seen_draw_by_taps_in_39(server: Server, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    sim = [
        json.loads(line)
        for line in run_cli("simulate", "--variant", "39", "--seed", "1", cwd=tmp_path).out.splitlines()
    ]
    assert (sim[4]["end"], sim[5]["tile"]) == ("0-1:N", "1-4")
    _start(server, variant="39")
    _append(server, sim[1:4])  # the deal (hands known), Ben 0-1, Ben draws 0-6
    doc = server.client.get(f"/api/matches/{MATCH}/recorder").json()
    assert [d["body"] for d in doc["actions"]["declare"]] == ["!odd", "!even"]
    phone = Phone(tmp_path)
    try:
        phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
        phone.tap('button[data-tile="0-2"]')  # on the spinner 0-1: north or east
        phone.wait(lambda: phone.js("return document.querySelectorAll('#places [data-place]').length") == 2, "places")
        places = phone.js("return [...document.querySelectorAll('#places [data-place]')].map(b => b.dataset.place)")
        assert places == ["0-1:N", "0-1:E"]
        phone.tap('#picture [data-place="0-1:N"]')  # a tap on the end lit on the table
        phone.settled()
        phone.tap('[data-action="draw"]')  # the tile drawn, seen: a tap on it
        phone.tap('button[data-tile="1-4"]')
        phone.settled()
        assert phone.js("return document.querySelectorAll('[data-action=declare]').length") == 2
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    assert _stored(server)[4:] == [_bare(sim[4]), _bare(sim[5])]
