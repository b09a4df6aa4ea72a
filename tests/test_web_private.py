"""Private club events, viewing keys, the organiser's page and table cards (issue 26, section 4).

The server runs as a subprocess (``dominolog serve``); every status is the exact one documented:
the write matrix (each write endpoint x no token, wrong, another match's table token, revoked,
viewing key, organiser), the read matrix of a private match (each read route x no key, wrong,
revoked, a viewing key of another event, the right one, the match's table token, another match's,
the organiser), the table cards from ``dominolog token cards`` (one a open match, the QR code
segno's encoding of the link printed under it, names escaped), and in headless Chromium the
organiser's link opening the organiser's page."""

from __future__ import annotations

import html
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from dominolog.store import open_store
from tests.conftest import Ran
from tests.helpers import parsed
from tests.webserver import Server, browser

PRIVATE = "Club Night <b>private</b>"
OTHER_PRIVATE = "Juniors"
OPEN = "Open evening"
#: match id -> (event, players, table)
MATCHES = {
    "sec-1": (PRIVATE, ["Zelda Secret", "Yann Hidden"], "1"),
    "pub-1": (OPEN, ["Ana", "Ben"], "2"),
    "jun-1": (OTHER_PRIVATE, ["Xavi Junior", "Wim Junior"], "3"),
    "m<i>4": (OPEN, ["<script>alert(1)</script>", '"onmouseover=alert(2) x="'], "<b>4</b>"),
}
DEAL = '{"type":"deal","leader":"%s","hands":null}'
DEAL_4 = {"type": "deal", "leader": "<script>alert(1)</script>", "hands": None}


@dataclass
class Club:
    s: Server
    organiser: str
    keys: dict[str, str]
    ids: dict[str, str]


def _start(match_id: str) -> str:
    event, players, table = MATCHES[match_id]
    return json.dumps(
        {
            "type": "match_start",
            "variant": "ghost13",
            "players": players,
            "id": match_id,
            "meta": {"event": event, "table": table},
        }
    )


def _json(token: str | None) -> dict[str, str]:
    return {"Content-Type": "application/json", **({} if token is None else {"Authorization": f"Bearer {token}"})}


def _token(s: Server, organiser: str, body: dict[str, object]) -> tuple[str, str]:
    r = s.client.post("/api/tokens", json=body, headers=_json(organiser))
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    with Server(tmp_path / "club.db", tmp_path, "--rate", "1000") as s:
        assert s.organiser is not None
        org = s.organiser
        for match_id in MATCHES:
            r = s.client.post("/api/matches", content=_start(match_id), headers=_json(org))
            assert r.status_code == 201, r.text
        for event in (PRIVATE, OTHER_PRIVATE):
            r = s.client.post("/api/private", json={"event": event}, headers=_json(org))
            assert r.status_code == 200 and r.json()["changed"] is True, r.text
        keys, ids = {}, {}
        for name, body in {
            "table": {"match": "sec-1", "who": "table 1"},
            "other_table": {"match": "pub-1", "who": "table 2"},
            "revoked_table": {"match": "sec-1"},
            "viewer": {"role": "viewer", "event": PRIVATE, "who": "a parent"},
            "viewer_all": {"role": "viewer", "who": "the press"},
            "viewer_other": {"role": "viewer", "event": OTHER_PRIVATE},
            "revoked_viewer": {"role": "viewer", "event": PRIVATE},
        }.items():
            ids[name], keys[name] = _token(s, org, body)
        for name in ("revoked_table", "revoked_viewer"):
            assert s.client.delete(f"/api/tokens/{ids[name]}", headers=_json(org)).status_code == 200
        yield Club(s, org, keys, ids)


def test_the_write_matrix(club: Club) -> None:
    """Every write endpoint x every kind of credential: the exact status."""
    s, org, keys = club.s, club.organiser, club.keys
    n = iter(range(1000))

    def new_match() -> tuple[str, str, dict[str, object] | None, str]:
        return ("POST", "/api/matches", None, _start("pub-1").replace('"pub-1"', f'"new-{next(n)}"'))

    def victim() -> str:
        return _token(s, org, {"match": "pub-1", "who": "victim"})[0]

    endpoints: dict[str, Callable[[], tuple[str, str, dict[str, object] | None, str | None]]] = {
        "create match": new_match,
        "append": lambda: ("POST", "/api/matches/m%3Ci%3E4/events", None, json.dumps(DEAL_4)),
        "make token": lambda: ("POST", "/api/tokens", {"match": "sec-1"}, None),
        "list tokens": lambda: ("GET", "/api/tokens", None, None),
        "revoke token": lambda: ("DELETE", f"/api/tokens/{victim()}", None, None),
        "list private": lambda: ("GET", "/api/private", None, None),
        "make private": lambda: ("POST", "/api/private", {"event": "Some night", "private": True}, None),
        "table cards": lambda: ("POST", "/api/cards", {"matches": ["pub-1"], "loopback": True}, None),
    }
    ok = {
        "create match": 201,
        "append": 201,
        "make token": 201,
        "list tokens": 200,
        "revoke token": 200,
        "list private": 200,
        "make private": 200,
        "table cards": 201,
    }
    who = {
        "no token": None,
        "wrong token": "x" * 43,
        "other match's table token": keys["other_table"],
        "revoked": keys["revoked_table"],
        "viewing key": keys["viewer_all"],
        "organiser": org,
    }
    expected = {
        "no token": 401,
        "wrong token": 401,
        "other match's table token": 403,
        "revoked": 401,
        "viewing key": 403,
    }
    got, want = {}, {}
    for endpoint, make in endpoints.items():
        for name, token in who.items():
            method, url, body, content = make()
            r = s.client.request(method, url, json=body, content=content, headers=_json(token))
            got[endpoint, name] = r.status_code
            want[endpoint, name] = ok[endpoint] if name == "organiser" else expected[name]
            if r.status_code == 401:
                assert r.headers["www-authenticate"] == 'Bearer realm="dominolog"'
            assert r.status_code < 300 or "error" in r.json()
    assert got == want
    # the table's own token appends to its own match (and nothing more)
    r = s.client.post(
        "/api/matches/sec-1/events", content='{"type":"hand_end","reason":"x"}', headers=_json(keys["table"])
    )
    assert r.status_code in (201, 422)  # the recorder judges the event; the token was taken
    assert s.client.get("/api/tokens", headers=_json(keys["table"])).status_code == 403
    viewer = s.client.post("/api/matches/sec-1/events", content=DEAL % "Zelda Secret", headers=_json(keys["viewer"]))
    assert viewer.status_code == 403 and viewer.json() == {"error": "a viewing key reads only: it never writes"}
    # a write to a private match does not confirm it to whoever may not read it: 404, as for a match not begun
    private_write = {
        name: s.client.post("/api/matches/sec-1/events", content=DEAL % "Zelda Secret", headers=_json(t)).status_code
        for name, t in {
            "none": None,
            "wrong": "~" * 43,
            "other table": keys["other_table"],
            "viewer of another event": keys["viewer_other"],
            "viewer": keys["viewer"],
        }.items()
    }
    assert private_write == {
        "none": 404,
        "wrong": 404,
        "other table": 404,
        "viewer of another event": 404,
        "viewer": 403,
    }


READS = [
    "/api/matches/{id}",
    "/api/matches/{id}/events",
    "/api/matches/{id}/audit",
    "/api/matches/{id}/export",
    "/api/matches/{id}/recorder",
    "/m/{id}",
    "/m/{id}/part",
    "/m/{id}/sheet",
    "/m/{id}/audit",
    "/m/{id}/analysis",
    "/m/{id}/analysis/part",
]
#: the pages of every match show one event's round (tonight's unless the address picks one): here the
#: private event's
PICKED = "?event=" + quote(PRIVATE, safe="")
LISTS = [
    "/api/matches",
    "/" + PICKED,
    "/part" + PICKED,
    "/tables" + PICKED,
    "/tables/part" + PICKED,
    "/standings?include_invalid=true",
    "/standings/part?include_invalid=true",
    "/api/standings?include_invalid=true",
]


def _get(s: Server, url: str, key: str | None, page: bool) -> tuple[int, str]:
    """A page takes a viewing key as ?key= (its links and streams cannot set a header); a token that
    writes goes in the header, on a page as in the API."""
    in_url = page and key is not None and (key == WRONG or key in VIEWING)
    if in_url:
        url += ("&" if "?" in url else "?") + "key=" + quote(key or "", safe="")
    r = s.client.get(url, headers=_json(None if in_url else key))
    return r.status_code, r.text


def _stream_status(s: Server, match_id: str, key: str | None) -> int:
    with s.client.stream("GET", f"/api/matches/{quote(match_id, safe='')}/stream", headers=_json(key)) as r:
        return r.status_code


VIEWING: set[str] = set()
#: a key the store does not know
WRONG = "~" * 43


def test_the_read_matrix_of_a_private_match(club: Club) -> None:
    s, org, keys = club.s, club.organiser, club.keys
    VIEWING.clear()
    VIEWING.update(keys[k] for k in ("viewer", "viewer_all", "viewer_other", "revoked_viewer"))
    who = {
        "no key": (None, 404),
        "wrong key": (WRONG, 401),
        "revoked key": (keys["revoked_viewer"], 401),
        "viewing key of another event": (keys["viewer_other"], 404),
        "the event's viewing key": (keys["viewer"], 200),
        "every event's viewing key": (keys["viewer_all"], 200),
        "the match's table token": (keys["table"], 200),
        "another match's table token": (keys["other_table"], 404),
        "organiser": (org, 200),
    }
    got, want = {}, {}
    for name, (key, status) in who.items():
        for route in READS:
            url = route.format(id="sec-1")
            for page in (False, True) if route.startswith("/api") else (True,):
                got[name, url, page] = _get(s, url, key, page)[0]
                want[name, url, page] = status
        got[name, "stream"] = _stream_status(s, "sec-1", key)
        want[name, "stream"] = status
        for url in LISTS:
            code, text = _get(s, url, key, not url.startswith("/api"))
            shown = "Zelda Secret" in text or "sec-1" in text
            got[name, url] = (code, shown)
            want[name, url] = (401, False) if status == 401 else (200, status == 200)
    assert got == want
    # the analysis over the API: while none is kept, 202 for whoever may read; without a key, 404 all the same
    assert s.client.get("/api/matches/sec-1/analysis").json() == {"error": "no such match"}
    assert s.client.get("/api/matches/sec-1/analysis", headers=_json(org)).status_code in (200, 202)
    # the page waiting for it (or the analysis) with a viewing key: its part and stream carry the key
    keyed = s.client.get(f"/m/sec-1/analysis?key={quote(keys['viewer'], safe='')}")
    assert keyed.status_code == 200
    if "data-part" in keyed.text:
        assert f"/m/sec-1/analysis/part?key={quote(keys['viewer'], safe='')}" in keyed.text
    # a token that writes never goes in an address
    for token in (org, keys["table"]):
        r = s.client.get(f"/m/sec-1?key={quote(token, safe='')}")
        assert r.status_code == 401 and "only a viewing key goes in an address" in r.json()["error"]
    # a public match reads without a key; an unknown one is 404 as a private one is
    assert s.client.get("/api/matches/pub-1").status_code == 200
    no_such = s.client.get("/api/matches/nope")
    assert no_such.status_code == 404 and no_such.json() == s.client.get("/api/matches/sec-1").json()
    # nothing of the private events shows without a key: not the match, its players, nor the event's name
    for url in [*LISTS, "/", "/part", "/tables", "/tables/part"]:
        text = s.client.get(url).text
        assert not any(x in text for x in ("Zelda", "Xavi", "sec-1", "jun-1", "Club Night", "Juniors")), url


def test_a_page_carries_its_key_into_its_links_part_and_stream(club: Club) -> None:
    key = club.keys["viewer"]
    q = quote(key, safe="")
    board = parsed(club.s.client.get(f"/{PICKED}&key={q}").text)
    main = next(a for t, a in board.tags if t == "main")
    assert main["data-part"] == f"/part{PICKED}&key={q}" and main["data-stream"].startswith("/api/board/stream?after=")
    assert main["data-stream"].endswith(f"&key={q}")
    assert ("a", {"href": f"/m/sec-1?key={q}"}) in board.tags
    links = [a["href"] for t, a in parsed(club.s.client.get(f"/?key={q}").text).tags if t == "a" and "href" in a]
    assert f"/{PICKED}&key={q}" in links or ("a", {"href": f"/m/sec-1?key={q}"}) in board.tags
    page = parsed(club.s.client.get(f"/m/sec-1?key={q}").text)
    main = next(a for t, a in page.tags if t == "main")
    assert main["data-part"] == f"/m/sec-1/part?key={q}"
    assert main["data-stream"] == f"/api/matches/sec-1/stream?after=1&key={q}"
    with club.s.client.stream("GET", main["data-stream"]) as r:
        assert r.status_code == 200
    assert club.s.client.get("/api/board/stream?key=nope").status_code == 401


def test_every_match_private_and_public_again(club: Club) -> None:
    s, org = club.s, club.organiser
    r = s.client.post("/api/private", json={"event": "*"}, headers=_json(org))
    assert r.status_code == 200 and r.json()["private_events"] == sorted(["*", PRIVATE, OTHER_PRIVATE])
    assert s.client.get("/api/matches").json() == {"matches": []}
    assert s.client.get("/api/matches/pub-1").status_code == 404
    assert s.client.get("/api/matches/pub-1", headers=_json(club.keys["other_table"])).status_code == 200
    assert s.client.get("/api/matches/pub-1", headers=_json(club.keys["viewer"])).status_code == 404
    listed = s.client.get("/api/matches", headers=_json(club.keys["viewer_all"])).json()["matches"]
    assert sorted(m["id"] for m in listed) == sorted(MATCHES)
    r = s.client.post("/api/private", json={"event": "*", "private": False}, headers=_json(org))
    assert r.status_code == 200 and r.json()["changed"] is True
    assert [m["id"] for m in s.client.get("/api/matches").json()["matches"]] == ["m<i>4", "pub-1"]


def test_the_organiser_page(club: Club) -> None:
    s = club.s
    shell = s.client.get("/organiser")
    assert shell.status_code == 200
    assert not any(x in shell.text for x in ("sec-1", "Zelda", club.organiser, "t-"))
    tags = parsed(shell.text)
    assert [a for t, a in tags.tags if t == "script"] == [{"src": "/static/organiser.js", "defer": None}]
    statuses = {
        name: s.client.get("/organiser/part", headers=_json(token)).status_code
        for name, token in {
            "no token": None,
            "wrong": "z" * 43,
            "revoked": club.keys["revoked_table"],
            "table": club.keys["table"],
            "viewer": club.keys["viewer_all"],
            "organiser": club.organiser,
        }.items()
    }
    assert statuses == {"no token": 401, "wrong": 401, "revoked": 401, "table": 403, "viewer": 403, "organiser": 200}
    part = s.client.get("/organiser/part", headers=_json(club.organiser)).text
    assert "<html" not in part
    assert not any(token in part for token in [club.organiser, *club.keys.values()])  # never a token
    for token_id in club.ids.values():
        assert token_id in part
    text = "".join(parsed(part).text)
    assert "Club Night <b>private</b>" in text and "<b>private</b>" not in part  # escaped
    assert "<script>alert(1)</script>" in text and "<script>" not in part
    assert "Zelda Secret" in text  # the organiser sees every match, private or not


def test_table_cards_from_the_command_line(club: Club, cli: Callable[..., Ran], tmp_path: Path) -> None:
    import segno

    db = str(club.s.db)
    out = tmp_path / "cards.html"
    url = "http://192.168.1.20:8000/"
    made = cli("token", "cards", "--out", out, "--db", db, "--url", url)
    assert made.code == 0, made.err
    assert made.out == f"4 table cards written to {out} (a new table token each)\n"
    page = out.read_text()
    assert "<script" not in page and page.count('<section class="card">') == 4
    cards = re.findall(r'<section class="card">(.*?)</section>', page, re.S)
    with open_store(db, create=False, write=False) as store:
        for match_id, card in zip(sorted(MATCHES, key=lambda m: m.encode()), cards, strict=True):
            link = html.unescape(re.search(r'<p class="link">(.*?)</p>', card).group(1))  # type: ignore[union-attr]
            prefix = f"{url}m/{quote(match_id, safe='')}/record#token="
            assert link.startswith(prefix)
            token = link[len(prefix) :]
            found = store.find_token(token)
            assert found is not None and (found.role, found.match_id, found.active) == ("table", match_id, True)
            svg = segno.make(link, error="m", micro=False).svg_inline(scale=4, border=2)
            assert svg in card
            _event, players, table = MATCHES[match_id]
            assert f"<h2>Table {html.escape(table)}</h2>" in card
            assert f"match <strong>{html.escape(match_id)}</strong>" in card
            assert html.escape(", ".join(players)) in card and "ghost13" in card
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&quot;onmouseover=alert(2) x=&quot;" in page
    first = {c: re.search(r"token (t-[0-9a-f]+): scan", c).group(1) for c in cards}  # type: ignore[union-attr]
    # --url is required, and a loopback one (no phone reaches it) refused unless asked for
    one = tmp_path / "one.html"
    assert cli("token", "cards", "--out", one, "--db", db, "--match", "pub-1").code == 2
    loop = cli("token", "cards", "--out", one, "--db", db, "--match", "pub-1", "--url", "http://127.0.0.1:8000/")
    assert loop.code == 2 and not one.exists()
    assert loop.err.startswith("dominolog: --url http://127.0.0.1:8000/ is an address of this machine only")
    assert loop.err.endswith("(--allow-loopback takes it)\n")
    again = cli(
        "token", "cards", "--out", one, "--db", db, "--match", "pub-1", "--url", "http://localhost:8000/",
        "--allow-loopback",
    )  # fmt: skip
    assert again.code == 0 and one.read_text().count('<section class="card">') == 1
    assert "http://localhost:8000/m/pub-1/record#token=" in one.read_text()
    # a reprint revokes the table's earlier card token (and says so); the other tables' stay live
    old = next(t for c, t in first.items() if "pub-1</strong>" in c)
    assert again.out.endswith(f"revoked 1 earlier card token of 1 table: {old}\n")
    assert f'<p class="revoked">replaces token {old} (revoked)</p>' in one.read_text()
    with open_store(db, create=False, write=False) as store:
        live = {t.id for t in store.tokens() if t.active}
    assert old not in live and set(first.values()) - {old} <= live
    missing = cli("token", "cards", "--out", tmp_path / "x.html", "--db", db, "--match", "nope", "--url", url)
    assert missing.code == 1 and missing.err == "dominolog: no match 'nope' is stored\n"
    assert not (tmp_path / "x.html").exists()
    # the organiser's page prints the same cards over the API: at the server's own address, which is a
    # loopback one here (serve said so at start): refused (409) unless the body asks for it
    assert "table cards: this address is this machine's only; --host 0.0.0.0 serves the room's network" in club.s.out
    refused = club.s.client.post("/api/cards", json={"matches": ["sec-1"]}, headers=_json(club.organiser))
    assert refused.status_code == 409 and "is an address of this machine only" in refused.json()["error"]
    body = {"matches": ["sec-1"], "loopback": True}
    r = club.s.client.post("/api/cards", json=body, headers=_json(club.organiser))
    assert r.status_code == 201 and r.text.count('<section class="card">') == 1
    assert (
        f"{club.s.url}/m/sec-1/record#token=" in r.text and "unsafe-inline" not in r.headers["content-security-policy"]
    )
    sec = next(t for c, t in first.items() if "sec-1</strong>" in c)
    assert r.headers["x-dominolog-revoked"] == f"revoked 1 earlier card token of 1 table: {sec}"


def test_private_and_viewer_commands(cli: Callable[..., Ran], tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    assert cli("token", "private", PRIVATE, "--db", db).out == f"event {PRIVATE} is now private\n"
    assert cli("token", "private", PRIVATE, "--db", db).out == f"event {PRIVATE} was already private\n"
    assert cli("token", "private", "*", "--db", db).code == 0
    assert cli("token", "public", "*", "--db", db).out == "event * is now public\n"
    made = cli("token", "create", "--viewer", "--event", PRIVATE, "--who", "a parent", "--db", db)
    assert made.code == 0 and len(made.out.strip()) >= 43 and f"(viewer of event {PRIVATE})" in made.err
    assert cli("token", "create", "--viewer", "--db", db).code == 0
    listed = json.loads(cli("token", "list", "--json", "--db", db).out)
    assert [(t["role"], t["event"], t["match"]) for t in listed["tokens"]] == [
        ("viewer", PRIVATE, None),
        ("viewer", None, None),
    ]
    assert listed["private"] == [PRIVATE]
    assert f"private events: {PRIVATE}" in cli("token", "list", "--db", db).out
    assert cli("token", "create", "--event", "x", "--organiser", "--db", db).code == 2
    assert cli("token", "create", "--viewer", "--match", "m", "--db", db).code == 2
    assert cli("token", "revoke", listed["tokens"][0]["id"], "--db", db).code == 0


def test_the_organiser_link_in_a_real_browser(club: Club, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver = browser(tmp_path)
    try:
        driver.set_page_load_timeout(20)
        printed = [line for line in club.s.out.splitlines() if line.startswith("the organiser's link: ")]
        link = printed[0].removeprefix("the organiser's link: ")
        assert link == f"{club.s.url}/organiser#organiser={club.organiser}"  # as serve printed it
        driver.get(link)
        deadline = time.monotonic() + 10
        while not driver.find_elements(By.ID, "tokens") and time.monotonic() < deadline:
            time.sleep(0.05)
        rows = driver.find_elements(By.CSS_SELECTOR, "#tokens tbody tr")
        assert len(rows) == len(club.ids) + 1  # the organiser's own, made by serve
        assert "#" not in driver.current_url and driver.current_url == f"{club.s.url}/organiser"
        assert driver.execute_script("return sessionStorage.getItem('dominolog-organiser')") == club.organiser
        assert club.organiser not in driver.page_source
        driver.find_element(By.CSS_SELECTOR, 'button[data-action="table-token"][data-match="pub-1"]').click()
        deadline = time.monotonic() + 10
        while "Table token" not in driver.find_element(By.ID, "said").text and time.monotonic() < deadline:
            time.sleep(0.05)
        said = driver.find_element(By.ID, "said").text
        assert said.startswith("Table token t-") and f"{club.s.url}/m/pub-1/record#token=" in said
        while (
            len(driver.find_elements(By.CSS_SELECTOR, "#tokens tbody tr")) == len(rows) and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#tokens tbody tr")) == len(rows) + 1
        driver.find_element(By.CSS_SELECTOR, 'button[data-action="cards"]').click()  # the server's address:
        deadline = time.monotonic() + 10  # a loopback one here, refused until the box is ticked
        while "Refused" not in driver.find_element(By.ID, "said").text and time.monotonic() < deadline:
            time.sleep(0.05)
        assert driver.find_element(By.ID, "said").text.startswith("Refused: 409: http://127.0.0.1:")
        driver.find_element(By.ID, "cards-loopback").click()
        driver.find_element(By.CSS_SELECTOR, 'button[data-action="cards"]').click()  # a new token a card
        deadline = time.monotonic() + 10
        while "Table cards saved" not in driver.find_element(By.ID, "said").text and time.monotonic() < deadline:
            time.sleep(0.05)
        assert driver.find_element(By.ID, "said").text.startswith("Table cards saved as cards.html")
        while len(driver.find_elements(By.CSS_SELECTOR, "#tokens tbody tr")) < len(rows) + 5:
            assert time.monotonic() < deadline + 5, "the token list did not show the cards' tokens"
            time.sleep(0.05)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#tokens tbody tr")) == len(rows) + 1 + len(MATCHES)
        driver.refresh()  # the token stays in the tab (sessionStorage), not in the address
        deadline = time.monotonic() + 10
        while not driver.find_elements(By.ID, "tokens") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert driver.find_elements(By.ID, "tokens")
    finally:
        driver.quit()


def test_a_private_event_on_postgres_across_two_workers(pg_url: str, tmp_path: Path, cli: Callable[..., Ran]) -> None:
    """The private events and viewing keys are the store's: made by the command line, obeyed by every
    worker of a server on PostgreSQL."""
    with Server(pg_url, tmp_path, "--workers", "2") as s:
        assert s.organiser is not None
        for match_id in ("sec-1", "pub-1"):
            assert (
                s.client.post("/api/matches", content=_start(match_id), headers=_json(s.organiser)).status_code == 201
            )
        assert cli("token", "private", PRIVATE, "--db", pg_url).code == 0
        key = cli("token", "create", "--viewer", "--event", PRIVATE, "--db", pg_url).out.strip()
        for _ in range(4):  # (answered by either worker)
            assert [m["id"] for m in s.client.get("/api/matches").json()["matches"]] == ["pub-1"]
            assert s.client.get("/api/matches/sec-1").status_code == 404
            assert s.client.get("/api/matches/sec-1", headers=_json(key)).status_code == 200
            assert s.client.get(f"/m/sec-1?key={key}").status_code == 200
        write = s.client.post("/api/matches/sec-1/events", content=DEAL % "Zelda Secret", headers=_json(key))
        assert write.status_code == 403
        assert cli("token", "public", PRIVATE, "--db", pg_url).code == 0
        assert s.client.get("/api/matches/sec-1").status_code == 200


def test_a_private_matchs_recorder_page_names_no_one_and_reads_with_the_tables_token(club: Club) -> None:
    """The table card's link carries its token in the fragment, which the browser does not send: the
    recorder's frame of a private match is served without its names, and its state document is read
    with the table's token (404 without it, as every read of a private match)."""
    s, keys = club.s, club.keys
    frame = s.client.get("/m/sec-1/record")  # (404 as for a match not stored: tests/test_web_defects.py)
    assert frame.status_code == 404 and "Zelda Secret" not in frame.text and "Yann Hidden" not in frame.text
    assert "Zelda Secret" in s.client.get("/m/sec-1/record", headers=_json(keys["table"])).text
    assert s.client.get("/api/matches/sec-1/recorder").status_code == 404
    assert s.client.get("/api/matches/sec-1/recorder", headers=_json(keys["other_table"])).status_code == 404
    state = s.client.get("/api/matches/sec-1/recorder", headers=_json(keys["table"]))
    assert state.status_code == 200 and "Zelda Secret" in state.text
    assert s.client.get("/m/nope/record").status_code == 404
