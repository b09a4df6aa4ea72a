"""The results ``dominolog serve`` serves (issue 26 sections 2 and 3): the score sheet, the audit report,
the analysis and the standings pages, and ``/api/matches/{id}/audit``, ``/export``, ``/api/standings``,
each equal byte for byte to what the installed console script writes against the same store; match
ids with any character (``/`` too) reached on every per-match route; the audit report's script runs
under the policy in headless Chromium; the standings page kept current."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.conftest import ROOT, run_cli
from tests.helpers import parsed
from tests.webserver import Server

VALID = "club-2026-09-03-table-1"
INVALID = "disputed-2026-11-20"
ODD = ["a", "a/b", "a/part", "x y", "é", "<script>", "..", "a?b#c", "100%"]
START = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"]}


def seg(match_id: str) -> str:
    return quote(match_id, safe="").replace(".", "%2E")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The club season and the disputed Ghost 13 matches imported, served; a match for each odd id."""
    work = tmp_path_factory.mktemp("results")
    db = work / "season.db"
    for source in (ROOT / "replays" / "club-season", ROOT / "replays" / "ghost13-disputed.jsonl"):
        assert run_cli("import", source, "--db", db, cwd=work).code == 0
    with Server(db, work, "--no-analyse") as s:  # (what is kept is what the commands keep)
        for mid in ODD:
            r = s.client.post(
                "/api/matches",
                content=json.dumps({**START, "id": mid}),
                headers={"Content-Type": "application/json", **s.auth(s.organiser)},
            )
            assert r.status_code == 201, r.text
        yield s


def cli(s: Server, *args: object) -> bytes:
    done = run_cli(*args, "--db", s.db, cwd=s.cwd)
    assert done.code in (0, 1), done.err
    return done.stdout


@pytest.mark.parametrize("mid", [VALID, INVALID])
def test_audit_and_export_answer_what_the_command_line_writes(served: Server, mid: str) -> None:
    s = served
    media = {"text": "text/plain; charset=utf-8", "json": "application/json", "html": "text/html; charset=utf-8"}
    for fmt, kind in media.items():
        r = s.client.get(f"/api/matches/{mid}/audit", params={"format": fmt})
        assert r.status_code == 200 and r.headers["content-type"] == kind
        assert r.content == cli(s, "audit", mid, "--format", fmt), fmt
    assert s.client.get(f"/m/{mid}/audit").content == cli(s, "audit", mid, "--format", "html")
    one = s.client.get(f"/api/matches/{mid}/audit", params={"format": "text", "hand": 1, "min_likelihood": 0.5})
    assert one.content == cli(s, "audit", mid, "--hand", "1", "--min-likelihood", "0.5")
    exports = {
        "jsonl": "application/x-ndjson",
        "csv": "text/csv; charset=utf-8",
        "json": "application/json",
        "svg": "image/svg+xml",
        "text": "text/plain; charset=utf-8",
        "dn": "text/x-dominolog-notation; charset=utf-8",
    }
    for fmt, kind in exports.items():
        r = s.client.get(f"/api/matches/{mid}/export", params={"format": fmt})
        assert r.status_code == 200 and r.headers["content-type"] == kind, (fmt, r.text[:200])
        assert r.content == cli(s, "export", mid, "--format", fmt), fmt
    for params, args in [
        ({"format": "csv", "long": "true"}, ("--format", "csv", "--long")),
        ({"format": "jsonl", "scored": "true"}, ("--format", "jsonl", "--scored")),
        ({"format": "svg", "at": 5}, ("--format", "svg", "--at", "5")),
        ({"format": "text", "at": 5}, ("--format", "text", "--at", "5")),
    ]:
        assert s.client.get(f"/api/matches/{mid}/export", params=params).content == cli(s, "export", mid, *args)
    sheet = s.client.get(f"/m/{mid}/sheet")
    assert sheet.status_code == 200 and sheet.content == s.client.get(f"/api/matches/{mid}/export?format=html").content
    written = cli(s, "export", mid, "--format", "html")
    if mid == VALID:
        assert sheet.content == written
    else:  # the audit report linked as served, where the command names the command that writes it
        assert ("a", {"class": "audit", "href": "audit"}) in parsed(sheet.text).tags
        assert b'<code class="hint">dominolog audit' in written and b'class="hint"' not in sheet.content


def test_the_standings_over_the_api_with_the_commands_filters(served: Server) -> None:
    s = served
    cases = [
        ({}, ()),
        ({"include_invalid": "true"}, ("--include-invalid",)),
        ({"variant": "ghost13"}, ("--variant", "ghost13")),
        ({"meta": ["table=1"]}, ("--meta", "table=1")),
        ({"since": "2026-09-17", "until": "2026-10-01"}, ("--since", "2026-09-17", "--until", "2026-10-01")),
        ({"loss": "true"}, ("--loss",)),
        ({"fairplay": "true"}, ("--fairplay",)),  # issue 38
    ]
    media = {"text": "text/plain", "csv": "text/csv", "json": "application/json", "html": "text/html"}
    for fmt, kind in media.items():
        # every filter in the text and the JSON; in the CSV and the page, those that change what a row shows
        shown = (
            cases
            if fmt in ("text", "json")
            else [c for c in cases if c[1] in ((), ("--include-invalid",), ("--loss",), ("--fairplay",))]
        )
        for params, args in shown:
            r = s.client.get("/api/standings", params={"format": fmt, **params})
            assert r.status_code == 200 and r.headers["content-type"].startswith(kind)
            assert r.content == cli(s, "standings", "--format", fmt, *args), (fmt, params)
    page = s.client.get("/standings", params={"variant": "ghost13"})
    written = cli(s, "standings", "--format", "html", "--variant", "ghost13").decode()
    body = written[written.index("<main>") + 6 : written.rindex("</main>")]
    assert page.status_code == 200 and body in page.text
    part = s.client.get("/standings/part", params={"variant": "ghost13"})
    assert part.text == body
    assert (
        "main",
        {"id": "live", "data-stream": "/api/board/stream", "data-part": "/standings/part?variant=ghost13"},
    ) in (parsed(page.text).tags)


def test_bad_formats_filters_and_unknown_matches(served: Server) -> None:
    s = served
    for path in ("/api/matches/nope/audit", "/api/matches/nope/export", "/m/nope/audit", "/m/nope/sheet"):
        r = s.client.get(path)
        assert (r.status_code, r.json()) == (404, {"error": "no such match"}), path
    assert s.client.get("/m/nope/analysis").status_code == 404
    bad = s.client.get(f"/api/matches/{VALID}/audit", params={"format": "pdf"})
    assert (bad.status_code, bad.json()) == (422, {"error": "--format 'pdf': choose text, json or html"})
    bad = s.client.get(f"/api/matches/{VALID}/export", params={"format": "pdf"})
    assert bad.status_code == 422 and bad.json()["error"].startswith("--format 'pdf': choose jsonl, csv")
    for params, args in [
        ({"since": "nope"}, ("--since", "nope")),
        ({"meta": "table"}, ("--meta", "table")),
        ({"variant": "chess"}, ("--variant", "chess")),
        ({"since": "2026-10-02", "until": "2026-10-01"}, ("--since", "2026-10-02", "--until", "2026-10-01")),
    ]:
        r = s.client.get("/api/standings", params=params)
        done = run_cli("standings", "--db", s.db, *args, cwd=s.cwd)
        assert done.code == 2
        assert r.status_code == 422 and f"dominolog: {r.json()['error']}\n" == done.err, params
    for params, args in [
        ({"format": "svg", "long": "true"}, ("--format", "svg", "--long")),
        ({"format": "json", "at": 3}, ("--format", "json", "--at", "3")),
    ]:
        r = s.client.get(f"/api/matches/{VALID}/export", params=params)
        done = run_cli("export", VALID, "--db", s.db, *args, cwd=s.cwd)
        assert r.status_code == 422 and f"dominolog: {r.json()['error']}\n" == done.err, params
    far = s.client.get(f"/api/matches/{VALID}/export", params={"format": "svg", "at": 10_000})
    assert far.status_code == 422 and "there is no seq 10000" in far.json()["error"]


def test_the_analysis_page_serves_what_the_store_keeps(served: Server) -> None:
    s = served
    before = s.client.get(f"/m/{INVALID}/analysis")
    assert before.status_code == 404 and "dominolog analyze ID --db DB" in before.json()["error"]
    written = cli(s, "analyze", INVALID, "--format", "html")  # analysed, and kept in the store
    page = s.client.get(f"/m/{INVALID}/analysis")
    assert page.status_code == 200 and page.content == written
    assert page.content == cli(s, "analyze", INVALID, "--format", "html")  # (the kept one, not analysed again)
    audit = s.client.get(f"/m/{INVALID}/audit")  # the audit report shows it beside the events
    assert audit.content == cli(s, "audit", INVALID, "--format", "html") and b"points lost" in audit.content


def test_every_per_match_route_reaches_any_id(served: Server) -> None:
    s = served
    board = parsed(s.client.get("/").text)
    links = [a["href"] for t, a in board.tags if t == "a" and a.get("href", "").startswith("/m/")]
    for mid in ODD:
        e = seg(mid)
        assert f"/m/{e}" in links, mid
        page = s.client.get(f"/m/{e}")
        assert page.status_code == 200, mid
        tags = parsed(page.text)
        assert "".join(tags.text).count(mid) >= 1
        main = next(a for t, a in tags.tags if t == "main")
        assert main["data-part"] == f"/m/{e}/part" and main["data-stream"] == f"/api/matches/{e}/stream?after=1"
        hrefs = {a["href"] for t, a in tags.tags if t == "a"}
        assert {f"/m/{e}/sheet", f"/m/{e}/audit", f"/m/{e}/analysis"} <= hrefs
        assert s.client.get(f"/m/{e}/part").status_code == 200
        assert s.client.get(f"/api/matches/{e}").json()["matches"][0]["source"].endswith(f"#{mid}")
        events = s.client.get(f"/api/matches/{e}/events")
        assert json.loads(events.text)["id"] == mid
        assert s.client.get(f"/api/matches/{e}/export").content == events.content
        audit = s.client.get(f"/api/matches/{e}/audit", params={"format": "json"})
        assert audit.status_code == 200 and audit.json()["match_id"] == mid
        assert s.client.get(f"/m/{e}/sheet").status_code == 200
        assert s.client.get(f"/m/{e}/audit").status_code == 200
    # "/m/a/part" is the part of the match "a"; "/m/a%2Fpart" the page of the match "a/part"
    assert "<html" not in s.client.get("/m/a/part").text
    assert "<h1>a/part</h1>" in s.client.get("/m/a%2Fpart").text
    assert "<h1>a/b</h1>" in s.client.get("/m/a%2fb").text  # (either case)
    assert s.client.get("/m/a/b").status_code == 404  # an unencoded "/" ends the id
    assert s.client.get("/m/%FF").status_code == 404  # not UTF-8: no such match


def test_a_write_reaches_an_id_with_a_slash(served: Server) -> None:
    s = served
    deal = '{"type":"deal","leader":"Ana","hands":null}'
    r = s.client.post(
        "/api/matches/a%2Fb/events",
        content=deal,
        headers={"Content-Type": "application/json", **s.auth(s.organiser)},
    )
    assert r.status_code == 201 and r.json()["seqs"] == [2]
    assert s.client.get("/api/matches/a/events").text.count("\n") == 1  # "a" untouched


def _errors(driver: object) -> list[dict[str, object]]:
    """The console's errors (a CSP violation is one; a 404 too, as for the favicon the browser asks for unbidden)."""
    log = driver.get_log("browser")  # type: ignore[attr-defined]
    return [e for e in log if e["level"] == "SEVERE"]


def test_the_audit_report_runs_under_the_policy_in_chromium(served: Server, tmp_path: Path) -> None:
    """The report's inline script and style are allowed by their hashes: the step-through works, and
    the console has no error (no CSP violation)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tests.webserver import browser

    page = served.client.get(f"/m/{INVALID}/audit")
    csp = page.headers["content-security-policy"]
    assert "unsafe-inline" not in csp and "script-src 'self' 'sha256-" in csp and "style-src 'self' 'sha256-" in csp
    driver = browser(tmp_path)
    try:
        driver.set_page_load_timeout(20)
        driver.get(f"{served.url}/m/{INVALID}/audit")
        first = driver.find_element(By.ID, "current-seq").text
        rows = driver.find_elements(By.CSS_SELECTOR, ".replay tr.ev")
        assert len(rows) > 3
        rows[3].click()
        assert driver.find_element(By.ID, "current-seq").text == rows[3].get_attribute("data-seq") != first
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        assert driver.find_element(By.ID, "current-seq").text == rows[4].get_attribute("data-seq")
        style = driver.execute_script("return getComputedStyle(document.querySelector('main')).maxWidth")
        assert style != "none"  # the inline style sheet applied
        assert _errors(driver) == []
    finally:
        driver.quit()


def test_the_standings_page_is_kept_current(served: Server, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    from tests.webserver import browser

    driver = browser(tmp_path)
    try:
        driver.set_page_load_timeout(20)
        driver.get(f"{served.url}/standings?include_invalid=true")
        deadline = time.monotonic() + 10
        while driver.execute_script("return document.getElementById('live') === null") and time.monotonic() < deadline:
            time.sleep(0.05)
        driver.execute_script("window.stillHere = 'yes';")
        time.sleep(1.5)  # the stream open
        assert "Zoe" not in driver.find_element(By.ID, "live").text
        start = {**START, "id": "new-night", "players": ["Zoe", "Yan"], "variant": "ghost13"}
        r = served.client.post(
            "/api/matches",
            content=json.dumps(start),
            headers={"Content-Type": "application/json", **served.auth(served.organiser)},
        )
        assert r.status_code == 201
        answered = time.monotonic()
        while "Zoe" not in driver.find_element(By.ID, "live").text and time.monotonic() - answered < 5:
            time.sleep(0.05)
        assert "Zoe" in driver.find_element(By.ID, "live").text
        assert driver.execute_script("return window.stillHere") == "yes"
        assert _errors(driver) == []
    finally:
        driver.quit()
