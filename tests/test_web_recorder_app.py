"""The phone recorder reads like an app (issue 36, section 2), in headless Chromium as a phone against
``dominolog serve``: at a hand's end the pad takes the reveal at once and no terminal wording is left;
a refused entry in the banner with what to do, cleared when fixed; offline, a tile tapped on entries not
stored asks its place, the plays waiting are drawn greyed on the table, name their player and move the
turn on; draw and pair not shown where they mean nothing; a tap that ends a hand asks once; the lit ends
44 px; one round trip a tap (the write's answer carries the state, the stream's echo not read again);
text compressed and the script kept under a fingerprinted name; one whole hidden hand of each variant."""

from __future__ import annotations

import gzip
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.phone import Phone, record_by_taps
from tests.test_web_recorder import MATCH, _append, _organiser, _sim, _start, _stored, _table_token
from tests.test_web_recorder_taps import _simulated, _verified
from tests.webserver import Server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "r.db", tmp_path) as s:
        yield s


def _open(server: Server, tmp_path: Path) -> Phone:
    phone = Phone(tmp_path)
    phone.open(f"{server.url}/m/{MATCH}/record#token={_table_token(server)}")
    return phone


def _recorder_reads(phone: Phone) -> int:
    """The state documents the page read (GET .../recorder), as the browser's resource timing lists them."""
    script = (
        "return performance.getEntriesByType('resource')"
        ".filter(e => new URL(e.name).pathname.endsWith('/recorder')).length"
    )
    return int(phone.js(script))


# -- over HTTP --------------------------------------------------------------------------------------


def test_text_is_compressed_and_the_script_kept_under_its_fingerprint(server: Server) -> None:
    _start(server)
    page = server.client.get(f"/m/{MATCH}/record", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    [src] = re.findall(r'<script type="module" src="([^"]+)">', page.text)
    assert re.fullmatch(r"/static/record\.[0-9a-f]{12}\.js", src)
    script = server.client.get(src, headers={"Accept-Encoding": "gzip"})
    assert script.status_code == 200 and script.headers["content-encoding"] == "gzip"
    assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.text == server.client.get("/static/record.js").text  # the same file, under its fingerprint
    doc = server.client.get(f"/api/matches/{MATCH}/recorder", headers={"Accept-Encoding": "gzip"})
    assert doc.headers["content-encoding"] == "gzip"
    raw = server.client.get(f"/api/matches/{MATCH}/recorder", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers and len(gzip.compress(raw.content)) < len(raw.content)
    # Ghost 13 has no boneyard and no pair play: its page does not show draw or pair
    hidden = re.findall(r'data-action="(\w+)" disabled hidden', page.text)
    assert hidden == ["draw", "pair"]


def test_the_writes_answer_carries_the_state(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])  # the deal, Ben 4-4
    token = _table_token(server)
    headers = {"Content-Type": "text/x-dominolog-notation", "Authorization": f"Bearer {token}"}
    r = server.client.post(f"/api/matches/{MATCH}/events?seq=4&state=recorder", content="34L", headers=headers)
    assert r.status_code == 201, r.text
    answer = r.json()
    assert answer["seqs"] == [4] and answer["recorder"]["seq"] == 4 and answer["recorder"]["turn"] == "Ben"
    assert answer["recorder"] == server.client.get(f"/api/matches/{MATCH}/recorder").json()
    plain = server.client.post(f"/api/matches/{MATCH}/events?seq=5", content="36L", headers=headers)
    assert plain.status_code == 201 and "recorder" not in plain.json()


# -- on the phone -----------------------------------------------------------------------------------


def test_one_round_trip_a_tap_and_the_streams_echo_not_read_again(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])
    phone = _open(server, tmp_path)
    try:
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"3\"]')"), "the state")
        time.sleep(1.0)  # the stream opened (its first message reads the state once)
        before = _recorder_reads(phone)
        phone.tap('button[data-tile="3-4"]')
        phone.tap('#places [data-place="left"]')
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"4\"]')"), "the play")
        phone.tap('button[data-tile="3-6"]')  # Ben: one place
        phone.settled()
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"5\"]')"), "the play")
        time.sleep(1.0)  # the stream's echoes of seqs 4 and 5 have come
        assert _recorder_reads(phone) == before  # each tap: its write, nothing read again
        # another writer's event is read (its echo is news)
        r = server.client.post(
            f"/api/matches/{MATCH}/events", content="14R", headers=_organiser(server, "text/x-dominolog-notation")
        )
        assert r.status_code == 201
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"6\"]')"), "theirs")
        assert _recorder_reads(phone) == before + 1
    finally:
        phone.quit()


def test_offline_plays_are_drawn_pending_ask_their_place_and_move_the_turn_on(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])  # the deal, Ben 4-4; Ana to play
    phone = _open(server, tmp_path)
    try:
        assert phone.text("#status").startswith("Ana to play")
        phone.offline(True)
        phone.tap('button[data-tile="3-4"]')
        phone.tap('#places [data-place="left"]')
        phone.wait(lambda: phone.root("state") == "offline", "offline")
        assert phone.text("#status").startswith("Ben to play")  # the turn moved on
        phone.tap('button[data-tile="3-6"]')  # built on a play not stored: where? asked now, not guessed
        phone.wait(lambda: phone.js("return document.querySelectorAll('#places [data-place]').length") == 2, "places")
        assert phone.js("return [...document.querySelectorAll('#places [data-place]')].map(b => b.dataset.place)") == [
            "left",
            "right",
        ]
        assert phone.root("pending") == "1"  # nothing queued before the place is picked
        phone.tap('#places [data-place="left"]')
        phone.tap('button[data-tile="1-4"]')
        phone.tap('#places [data-place="right"]')
        assert phone.text("#status").startswith("Ben to play")
        assert phone.text("#prompt") == "hand 1: Ben to play · 3 waiting to be sent (greyed on the table)"
        pending = phone.js("return [...document.querySelectorAll('#queue li.pending')].map(l => l.textContent)")
        assert pending == [
            "Ana: play 3-4 left · pending, #4",
            "Ben: play 3-6 left · pending, #5",
            "Ana: play 1-4 right · pending, #6",
        ]
        drawn = phone.js(
            "return [...document.querySelectorAll('#picture .pending-tile')].map(t => [t.dataset.pendingTile,"
            " t.textContent, getComputedStyle(t).borderStyle])"
        )
        assert drawn == [
            ["3-4", "Ana 3-4 left", "dashed"],
            ["3-6", "Ben 3-6 left", "dashed"],
            ["1-4", "Ana 1-4 right", "dashed"],
        ]
        assert phone.js("return document.querySelector('button[data-tile=\"3-6\"]').dataset.state") == "pending"
        phone.offline(False)
        phone.settled()
        phone.wait(lambda: not phone.js("return document.querySelectorAll('#picture .pending-tile').length"), "drawn")
        assert phone.text("#status").startswith("Ben to play")
    finally:
        phone.quit()
    assert _stored(server)[3:] == [
        {"type": "play", "player": "Ana", "tile": "3-4", "end": "left"},
        {"type": "play", "player": "Ben", "tile": "3-6", "end": "left"},
        {"type": "play", "player": "Ana", "tile": "1-4", "end": "right"},
    ]


def test_a_refused_entry_is_in_the_banner_until_fixed(server: Server, tmp_path: Path) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])
    phone = _open(server, tmp_path)
    try:
        phone.js("document.getElementById('entry-line').value = '66L'")  # not Ana's tile to play
        phone.tap('#entry button[type="submit"]')
        phone.wait(lambda: phone.text("#banner").startswith("refused: 66L: "), "the refusal")
        banner = phone.text("#banner")
        assert banner.endswith(" · fix it in the line and tap enter"), banner
        assert "refused" in phone.js("return document.getElementById('banner').className")
        assert phone.js("return document.getElementById('entry-line').value") == "66L"  # back in the line
        phone.js("document.getElementById('entry-line').value = '34L'")
        phone.tap('#entry button[type="submit"]')
        phone.settled()
        phone.wait(lambda: phone.text("#banner") == "", "the banner cleared")
    finally:
        phone.quit()


def test_a_tap_that_ends_a_hand_asks_once_and_actions_without_meaning_are_not_shown(
    server: Server, tmp_path: Path
) -> None:
    sim = _sim(tmp_path)
    _start(server)
    _append(server, sim[1:3])
    phone = _open(server, tmp_path)
    try:
        shown = phone.js(
            "return [...document.querySelectorAll('#actions [data-action]')].filter(b => b.offsetParent !== null)"
            ".map(b => b.dataset.action)"
        )
        assert shown == ["pass", "block", "reveal", "note", "undo"]  # Ghost 13: no draw, no pair
        # the lit ends of a tile that fits two places are a finger's size (Ana's 3-4 on the 4-4)
        phone.tap('button[data-tile="3-4"]')
        phone.wait(lambda: phone.js("return document.querySelectorAll('#picture .lit').length") == 2, "lit ends")
        sizes = phone.js(
            "return [...document.querySelectorAll('#picture .lit circle')].map(c => {"
            " var r = c.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; })"
        )
        assert len(sizes) == 2 and all(w >= 44 and h >= 44 for w, h in sizes), sizes
        phone.tap('button[data-tile="3-4"]')  # taken back
        phone.tap('[data-action="block"]')
        phone.wait(lambda: "ends the hand" in phone.text('[data-action="block"]'), "asked")
        assert phone.text('[data-action="block"]') == "tap again: block ends the hand"
        assert phone.root("pending") == "0" and len(_stored(server)) == 3  # nothing written by one tap
        phone.tap('button[data-tile="3-4"]')  # anything else goes on
        phone.tap('#places [data-place="left"]')
        phone.settled()
        assert phone.text('[data-action="block"]') == "block"
        assert len(_stored(server)) == 4
    finally:
        phone.quit()


def test_at_a_hands_end_the_pad_takes_the_reveal_and_no_terminal_words(server: Server, tmp_path: Path) -> None:
    sim = _simulated(tmp_path, "ghost13", 3)
    end = next(i for i, e in enumerate(sim) if e["type"] == "reveal")
    _start(server)
    _append(server, sim[1:end])  # the hand up to its reveals (a blocked hand, hands hidden)
    phone = _open(server, tmp_path)
    try:
        words = phone.text("#recorder")
        for terminal in ("Enter", "type them", "ctrl+"):
            assert terminal not in words, words
        player = sim[end]["player"]
        phone.wait(lambda: f"{player}'s tiles" in phone.text("#places"), "the reveal asked on the pad")
        assert phone.text("#prompt").startswith("hand 1 is over: tap ")
        active = phone.js("return [...document.querySelectorAll('#pad button:not([disabled])')].length")
        assert active > 0  # the tiles are there to tap, not every one disabled
        for tile in sim[end]["tiles"]:
            phone.tap(f'button[data-tile="{tile}"]')
        phone.tap('#places [data-reveal="send"]')
        phone.settled()
        assert "Enter" not in phone.text("#recorder")
    finally:
        phone.quit()
    stored = _stored(server)
    assert stored[end] == {k: v for k, v in sim[end].items() if k not in ("seq", "hash", "at")}


@pytest.mark.parametrize("variant", ["ghost13", "brettspielnetz", "39", "double-bergen", "double-draw"])
def test_a_whole_hidden_hand_of_each_variant_by_taps(server: Server, tmp_path: Path, variant: str) -> None:
    sim = _simulated(tmp_path, variant, 2)
    end = next(i for i, e in enumerate(sim) if e["type"] == "hand_end")
    hand = sim[1 : end + 1]
    _start(server, variant=variant)
    phone = _open(server, tmp_path)
    try:
        expected = record_by_taps(phone, hand, 2)
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    assert _stored(server)[1:] == expected
    match: dict[str, Any] = _verified(server, tmp_path)
    assert [h["points"] for h in match["hands"]] == [hand[-1]["points"]]
