"""The pages of ``dominolog serve`` (issue 26): every string from a log escaped (hostile names), nothing
loaded from elsewhere, readable without JavaScript; and in headless Chromium an event appended through
the API appears on ``/m/{id}`` within 1 s without a reload, a hostile name does not execute, and the
CSP blocks an inline script."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import Tags, parsed
from tests.webserver import Server, browser

HOSTILE = [
    "<script>alert(1)</script>",
    '"onmouseover=alert(2) x="',
    "\x1b[31mred\x1b]0;title\x07",
    "\u202eevil\u2066",
]
MATCH = "m<i>1"
DEAL = '{"type":"deal","leader":"%s","hands":null}'


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "p.db", tmp_path) as s:
        start = {
            "type": "match_start",
            "variant": "ghost13",
            "players": HOSTILE[:2],
            "id": MATCH,
            "meta": {"table": HOSTILE[2], "event": HOSTILE[3]},
        }
        r = s.client.post("/api/matches", content=json.dumps(start), headers=_json(s))
        assert r.status_code == 201, r.text
        yield s


def _json(s: Server) -> dict[str, str]:
    return {"Content-Type": "application/json", **s.auth(s.organiser)}


def _checked(page: str) -> Tags:
    tags = parsed(page)
    scripts = [a for t, a in tags.tags if t == "script"]
    assert scripts == [{"src": "/static/live.js", "defer": None}]
    for tag, attrs in tags.tags:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        for name in ("src", "href"):
            assert attrs.get(name) is None or attrs[name].startswith("/"), attrs  # nothing from elsewhere
    text = "".join(tags.text)
    assert "\x1b" not in page and "\u202e" not in page and "\u2066" not in page and "\x07" not in page
    assert "<script>alert(1)</script>" in text  # shown as written, as text
    return tags


def test_the_board_and_the_match_page_escape_every_name(server: Server) -> None:
    board = server.client.get("/")
    assert board.status_code == 200 and board.headers["content-type"].startswith("text/html")
    tags = _checked(board.text)
    text = "".join(tags.text)
    assert "\\x1b[31mred" in text  # the table's name, its controls made visible, and the event's
    assert "\\u202eevil\\u2066, no round (tonight)" in text
    assert MATCH in text and ("a", {"href": "/m/m%3Ci%3E1"}) in tags.tags
    page = server.client.get("/m/m%3Ci%3E1")
    assert page.status_code == 200
    _checked(page.text)
    assert server.client.get("/m/nope").status_code == 404


def test_the_match_page_reads_without_javascript(server: Server) -> None:
    for line in (DEAL % HOSTILE[0], json.dumps({"type": "play", "player": HOSTILE[0], "tile": "6-6"})):
        r = server.client.post("/api/matches/m%3Ci%3E1/events", content=line, headers=_json(server))
        assert r.status_code == 201, r.text
    page = server.client.get("/m/m%3Ci%3E1").text
    tags = _checked(page)
    assert any(t == "svg" for t, _ in tags.tags)  # the table, as export --format svg draws it
    assert [a["id"] for t, a in tags.tags if t == "li"] == ["seq-3", "seq-2", "seq-1"]
    items = page[page.index('<ol class="events">') : page.index("</ol>")]
    said = [t.strip() for t in parsed(items).text if t.strip()]
    stamped = [t for t in said if re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", t)]
    assert len(stamped) == 3  # every event was written over HTTP: its time, the server's clock
    said = [t for t in said if t not in stamped]
    assert said == [
        "3",
        "play <script>alert(1)</script> 6-6",
        "2",
        "deal leader <script>alert(1)</script>",
        "1",
        'match_start ghost13 <script>alert(1)</script> vs "onmouseover=alert(2) x="',
    ]
    board = "".join(parsed(server.client.get("/").text).text)
    assert "Ana" not in board and '"onmouseover=alert(2) x="' in board  # on move: the second player
    part = server.client.get("/m/m%3Ci%3E1/part")
    assert part.status_code == 200 and "<html" not in part.text and "seq-3" in part.text
    css = server.client.get("/static/web.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


def test_a_followed_match_in_a_real_browser(server: Server, tmp_path: Path) -> None:
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    driver = browser(tmp_path)
    try:
        driver.set_page_load_timeout(20)
        driver.get(f"{server.url}/m/m%3Ci%3E1")
        deadline = time.monotonic() + 10
        while driver.find_element(By.ID, "live-state").text != "live" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert driver.find_element(By.ID, "live-state").text == "live"
        driver.execute_script("window.stillHere = 'yes';")  # gone if the page were loaded again
        r = server.client.post("/api/matches/m%3Ci%3E1/events", content=DEAL % HOSTILE[0], headers=_json(server))
        assert r.status_code == 201, r.text
        answered = time.monotonic()
        while not driver.find_elements(By.ID, "seq-2") and time.monotonic() - answered < 5:
            time.sleep(0.02)
        seen = time.monotonic() - answered
        assert driver.find_elements(By.ID, "seq-2"), "the event never appeared"
        assert seen < 1.0, f"the event appeared after {seen:.2f} s"
        assert driver.execute_script("return window.stillHere") == "yes"
        # the hostile names did not execute: no alert, no element made from them
        with pytest.raises(NoAlertPresentException):
            driver.switch_to.alert.text  # noqa: B018
        assert len(driver.find_elements(By.CSS_SELECTOR, "script")) == 1
        assert not driver.find_elements(By.CSS_SELECTOR, "[onmouseover], main script, main i")
        assert "<script>alert(1)</script>" in driver.find_element(By.ID, "seq-2").text
        # the CSP blocks an inline script
        ran = driver.execute_script(
            "var s = document.createElement('script'); s.textContent = 'window.inlineRan = 1;';"
            "document.body.appendChild(s); return window.inlineRan === 1;"
        )
        assert ran is False
    finally:
        driver.quit()


def test_the_season_board_tables_and_standings(tmp_path: Path) -> None:
    """The club season imported and served: the board lists every match, /tables draws every table as
    export --format svg does, /standings is the page standings --format html writes (its inline style
    allowed by its hash in the CSP, nothing else)."""
    import base64
    import hashlib
    import re

    from tests.conftest import ROOT, run_cli

    db = tmp_path / "season.db"
    assert run_cli("import", ROOT / "replays" / "club-season", "--db", db, cwd=tmp_path).code == 0
    ids = json.loads(run_cli("list", "--json", "--db", db, cwd=tmp_path).out)["matches"]
    tonight = [m for m in ids if m["meta"]["date"] == "2026-10-01"]  # the last evening of the season
    with Server(db, tmp_path) as s:
        board = "".join(parsed(s.client.get("/").text).text)
        assert [m["id"] for m in ids if m["id"] in board] == [m["id"] for m in tonight] and len(tonight) == 3
        assert "Thursday club, evening 1" in board  # the finished evenings: a link each
        tables = s.client.get("/tables")
        assert tables.status_code == 200
        first = tonight[0]["id"]
        svg = run_cli("export", first, "--db", db, "--format", "svg", cwd=tmp_path).out
        assert svg in tables.text
        assert tables.text.count("<svg") == len(tonight)
        evening = ids[0]["meta"]["event"]
        earlier = s.client.get("/tables", params={"event": evening})
        assert earlier.text.count("<svg") == sum(m["meta"]["event"] == evening for m in ids)
        page = s.client.get("/standings?include_invalid=true")
        written = run_cli("standings", "--db", db, "--format", "html", "--include-invalid", cwd=tmp_path).out
        live = '<main id="live" data-stream="/api/board/stream" data-part="/standings/part?include_invalid=true">'
        served = written.replace("</head>", '<script src="/static/live.js" defer></script></head>').replace(
            "<main>", live
        )
        assert page.status_code == 200 and page.text == served  # the page written, with its live part named
        assert s.client.get("/api/standings?format=html&include_invalid=true").text == written
        style = re.search(r"<style>(.*?)</style>", page.text, re.S)
        assert style is not None
        digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
        csp = page.headers["content-security-policy"]
        assert f"style-src 'self' 'sha256-{digest}';" in csp and "unsafe-inline" not in csp
        assert "script-src 'self';" in csp
        assert s.client.get("/standings?since=nope").status_code == 422
        variant = ids[0]["variant"]
        one = run_cli("standings", "--db", db, "--format", "html", "--variant", variant, cwd=tmp_path).out
        assert s.client.get(f"/api/standings?format=html&variant={variant}").text == one


def test_the_board_shows_the_last_time_written_and_whose_turn_in_words(server: Server) -> None:
    """The last event column: the time of the last event that has one (not "-" when only the last has
    none); the turn in words."""
    lines = [
        json.dumps({"type": "deal", "leader": HOSTILE[0], "hands": None, "at": "2026-11-27T19:00:00Z"}),
        json.dumps({"type": "play", "player": HOSTILE[0], "tile": "6-6", "at": "2026-11-27T19:00:07Z"}),
        json.dumps({"type": "play", "player": HOSTILE[1], "tile": "6-5", "end": "right"}),
    ]
    for line in lines[:2]:
        r = server.client.post("/api/matches/m%3Ci%3E1/events", content=line, headers=_json(server))
        assert r.status_code == 201, r.text
    from dominolog.store import open_store

    with open_store(server.db, write=True) as store:  # (over HTTP it would get the server's time)
        store.append("m<i>1", lines[2].encode())
    tags = parsed(server.client.get("/").text)
    cells = [t for t in tags.text if t.strip()]
    row = cells[cells.index("last event") + 1 :]
    assert row[-3:] == [f"{HOSTILE[0]} to play", "in progress", "2026-11-27T19:00:07Z"]
    page = "".join(parsed(server.client.get("/m/m%3Ci%3E1").text).text)
    assert "2026-11-27T19:00:07Z" in page and f"play {HOSTILE[1]} 6-5 right" in page


def test_the_favicon_is_the_packages_domino(server: Server) -> None:
    """``/favicon.ico``, which a browser asks for on every page (a 404 there is an error in its console): the
    package's icon (one 32 x 32 PNG image in an ICO), kept a day, under the same headers as every answer."""
    import struct
    from importlib import resources

    r = server.client.get("/favicon.ico")
    assert r.status_code == 200
    assert r.content == (resources.files("dominolog.web") / "static" / "favicon.ico").read_bytes()
    assert r.headers["content-type"] == "image/x-icon"
    assert r.headers["cache-control"] == "public, max-age=86400"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["content-security-policy"].startswith("default-src 'self';")
    reserved, kind, count = struct.unpack("<HHH", r.content[:6])
    width, height, _colours, _zero, _planes, bits, size, offset = struct.unpack("<BBBBHHII", r.content[6:22])
    assert (reserved, kind, count, width, height, bits) == (0, 1, 1, 32, 32, 32)
    image = r.content[offset : offset + size]
    assert offset + size == len(r.content) and image.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", image[16:24]) == (32, 32)
    assert "/favicon.ico" not in server.client.get("/openapi.json").json()["paths"]
