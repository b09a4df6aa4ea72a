"""The director runs the evening from the organiser's page (issue 35), in Debian's headless Chromium
against ``dominolog serve`` on an empty store: tonight's event made, 12 players registered, round 1
paired, its pairing undone and paired again, each round's tables followed live on the page (not
started, hand N, ended) while they record (one table on an emulated phone by taps, the others over the
API with their tables' tokens, as the phones' queues send them), rounds 2 and 3 paired with one
button, the standings with their tie-breaks; then a partner round of 3 teams, and a forfeit."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dominolog.simulate import hide_match, simulate_match
from tests.phone import Phone, record_by_taps
from tests.test_club_events import EXPECTED_PAIRS, EXPECTED_SWISS, PLAYERS
from tests.webserver import Server, browser

NDJSON = {"Content-Type": "application/x-ndjson"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "club.db", tmp_path) as s:
        yield s


def wait(ok: Callable[[], Any], what: str, seconds: float = 15.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            got = ok()
        except Exception:  # (an element replaced while it was read: the page refreshed it)
            got = None
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Organiser:
    """The organiser's page in a browser, driven as the director clicks it."""

    def __init__(self, server: Server, tmp_path: Path) -> None:
        from selenium.webdriver.common.by import By

        self.by = By
        self.s = server
        self.driver = browser(tmp_path)
        self.driver.set_page_load_timeout(20)
        self.driver.set_window_size(1280, 1000)
        self.driver.get(f"{server.url}/organiser#organiser={server.organiser}")
        wait(lambda: self.driver.find_elements(By.ID, "events"), "the events part")

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def said(self) -> str:
        return str(self.driver.find_element(self.by.ID, "said").text)

    def click(self, css: str, confirm: bool = False) -> None:
        """Click the element as a person does (found again if the page refreshed its part meanwhile);
        ``confirm``: accept the question it asks."""
        from selenium.common.exceptions import StaleElementReferenceException

        def clicked() -> bool:
            found = self.driver.find_elements(self.by.CSS_SELECTOR, css)
            if not found:
                return False
            try:
                found[0].click()
            except StaleElementReferenceException:
                return False
            return True

        wait(clicked, css)
        if confirm:
            wait(lambda: self.driver.switch_to.alert, "the confirmation").accept()

    def fill(self, form: str, **fields: str | bool) -> None:
        """Fill the form and send it (filled again from the start if the page refreshed it meanwhile)."""
        from selenium.common.exceptions import StaleElementReferenceException

        before = self.said()

        def sent() -> bool:
            try:
                for name, value in fields.items():
                    field = self.driver.find_element(self.by.CSS_SELECTOR, f"#{form} [name={name}]")
                    if isinstance(value, bool):
                        if field.is_selected() != value:
                            field.click()
                    elif field.tag_name == "select":
                        self.js("arguments[0].value = arguments[1]", field, value)
                    else:
                        field.clear()
                        field.send_keys(value)
                self.driver.find_element(self.by.CSS_SELECTOR, f"#{form} button[type=submit]").click()
            except StaleElementReferenceException:
                return False
            return True

        wait(sent, f"{form} sent")
        wait(lambda: self.said() != before, f"{form}'s answer")

    def states(self, round_no: int) -> list[str]:
        css = f'table.round[data-round="{round_no}"] tbody tr'
        return list(self.js("return [...document.querySelectorAll(arguments[0])].map(r => r.className)", css))

    def rows(self, css: str) -> list[list[str]]:
        """The rows' cells as shown (read at once: the page may refresh the part meanwhile)."""
        script = "return [...document.querySelectorAll(arguments[0])].map(r => [...r.cells].map(c => c.innerText))"
        return [list(r) for r in self.js(script, f"{css} tbody tr")]

    def print_cards(self, round_no: int, folder: Path) -> dict[str, dict[str, str]]:
        """Print the round's cards from the page (the server is on loopback: the page refuses until the
        director says so); each card's match, round, table, players, who leads and recorder link."""
        import html
        import re

        folder.mkdir(exist_ok=True)
        self.driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
        self.click(f'button[data-action="round-cards"][data-round="{round_no}"]')
        wait(lambda: self.said().startswith("Refused: 409"), "the loopback address refused")
        assert "is an address of this machine only" in self.said()
        self.click("#round-cards-loopback")
        self.click(f'button[data-action="round-cards"][data-round="{round_no}"]')
        file = folder / f"round-{round_no}-cards.html"
        wait(lambda: file.exists() and file.read_text().endswith("</html>\n"), "the cards' file", 20)
        # the page then loads its part again (the tokens changed): the box is unticked once it has
        wait(lambda: not self.driver.find_element(self.by.ID, "round-cards-loopback").is_selected(), "the part again")
        page = file.read_text()
        cards = {}
        for section in re.findall(r'<section class="card">(.*?)</section>', page, re.S):
            field = {k: html.unescape(v) for k, v in re.findall(r'<p class="(\w+)">(.*?)</p>', section)}
            title = html.unescape(re.search(r"<h2>(.*?)</h2>", section).group(1))  # type: ignore[union-attr]
            match = html.unescape(re.search(r"<strong>(.*?)</strong>", section).group(1))  # type: ignore[union-attr]
            cards[match] = {"title": title, **field}
        return cards

    def quit(self) -> None:
        self.driver.quit()


def event_doc(s: Server, name: str) -> dict[str, Any]:
    r = s.client.get(f"/api/events/{name}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def table_token(s: Server, match: str) -> str:
    r = s.client.post("/api/tokens", json={"match": match, "who": "table"}, headers=s.auth(s.organiser))
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def match_events(s: Server, match: str, seed: str) -> list[dict[str, Any]]:
    start = json.loads(s.client.get(f"/api/matches/{match}/events").text.splitlines()[0])
    events = simulate_match(start["variant"], seed, players=start["players"], options=start.get("options"))
    return [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in events[1:]]


def post(s: Server, match: str, token: str, events: list[dict[str, Any]]) -> None:
    body = "".join(json.dumps(e) + "\n" for e in events)
    r = s.client.post(f"/api/matches/{match}/events", content=body, headers={**NDJSON, **s.auth(token)})
    assert r.status_code == 201, r.text


def seed_of(match: str) -> str:
    """The seed of a match's simulated play: its id as first made (a pairing made again ends in -2)."""
    return match.removesuffix("-2")


def test_a_director_runs_the_evening_from_the_organiser_page(server: Server, tmp_path: Path) -> None:
    s = server
    page = Organiser(s, tmp_path)
    try:
        assert "No club event yet" in page.driver.find_element(page.by.ID, "events").text
        page.click("details.new-event summary")
        page.fill("event-form", name="Club night", rounds="3", variant="ghost13")
        assert page.said() == "Event Club night made."
        wait(lambda: page.driver.find_element(page.by.ID, "event-name").text == "Club night", "the event")
        page.fill("players-form", names="\n".join(PLAYERS), club="Oaks")
        assert page.said() == "12 player(s) registered."
        wait(lambda: len(page.driver.find_elements(page.by.CSS_SELECTOR, "#events ul.roster li")) == 12, "the roster")

        # round 1 paired, undone before its first deal, paired again
        page.click('button[data-action="pair"]')
        wait(lambda: len(page.states(1)) == 6, "round 1's tables")
        assert page.said() == "Round 1 paired: print its cards."
        assert set(page.states(1)) == {"state-not-started"}
        page.click('button[data-action="unpair"]', confirm=True)
        wait(lambda: page.states(1) == [], "round 1 undone")
        assert page.said().startswith("Round 1's pairing undone")
        page.click('button[data-action="pair"]')
        wait(lambda: len(page.states(1)) == 6, "round 1 paired again")
        first = page.rows('table.round[data-round="1"]')
        assert first[0][:4] == ["1", "Ana", "Gus", "club-night-r1-t1-2"]
        tokens: dict[str, str] = {}

        for round_no in (1, 2, 3):
            doc = event_doc(s, "Club night")
            tables = doc["rounds"][-1]["tables"]
            assert [t["round"] for t in tables] == [round_no] * 6
            cards = page.print_cards(round_no, tmp_path / "downloads")
            if round_no == 1:  # a reprint: the earlier cards' tokens are revoked, and the page says so
                stale = cards
                cards = page.print_cards(round_no, tmp_path / "reprint")
                assert page.said().endswith(
                    " Reprinted: revoked 6 earlier card tokens of 6 tables: "
                    + ", ".join(
                        c["revoked"].removeprefix("replaces token ").removesuffix(" (revoked)") for c in cards.values()
                    )
                    + "."
                )
                old = stale[tables[0]["match"]]["link"].split("#token=")[1]
                refused = s.client.post(
                    f"/api/matches/{tables[0]['match']}/events", json={"type": "note", "text": "x"}, headers=s.auth(old)
                )
                assert (refused.status_code, refused.json()) == (401, {"error": "the token was revoked"})
            assert sorted(cards) == sorted(t["match"] for t in tables)
            for t in tables:
                card = cards[t["match"]]
                assert card["title"] == f"Round {round_no} · Table {t['table']}"
                assert (card["players"], card["leads"]) == (", ".join(t["players"]), f"{t['leads']} leads first")
                link = f"{s.url}/m/{t['match']}/record#token="
                assert card["link"].startswith(link)
                tokens[t["match"]] = card["link"].removeprefix(link)
            # one table plays its first hand: the page says which hand it is at
            second = tables[1]
            token = tokens[second["match"]]
            events = match_events(s, second["match"], seed_of(second["match"]))
            first_end = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
            post(s, second["match"], token, events[: first_end + 1])
            wait(lambda n=round_no: page.states(n)[1] == "state-playing", "table 2 playing")
            row = page.rows(f'table.round[data-round="{round_no}"]')[1]
            assert row[4].startswith("hand 2, ")
            post(s, second["match"], token, events[first_end + 1 :])
            for t in tables:
                if t is second:
                    continue
                events = match_events(s, t["match"], seed_of(t["match"]))
                if round_no == 1 and t["table"] == 1:  # recorded by taps on a phone, hands hidden
                    phone = Phone(tmp_path)
                    try:
                        phone.open(cards[t["match"]]["link"])  # the card's QR code, scanned
                        start = {"type": "match_start", "variant": "ghost13", "players": t["players"]}
                        record_by_taps(phone, hide_match([start, *events])[1:], 2)
                        assert phone.csp_violations() == []
                    finally:
                        phone.quit()
                else:
                    post(s, t["match"], tokens[t["match"]], events)
            wait(lambda n=round_no: set(page.states(n)) == {"state-ended"}, f"round {round_no} ended", 30)
            if round_no < 3:
                page.click('button[data-action="pair"]')
                wait(lambda n=round_no: len(page.states(n + 1)) == 6, f"round {round_no + 1}'s tables")
        assert not page.driver.find_elements(page.by.CSS_SELECTOR, 'button[data-action="pair"]')
        expected = [(p, e, w, lost, mp, pf, diff) for p, e, w, lost, _, mp, pf, diff in EXPECTED_SWISS]

        def standings_shown() -> list[tuple[Any, ...]]:
            return [
                (int(r[0]), r[1], int(r[3]), int(r[5]), float(r[6]), int(r[7]), int(r[9]))
                for r in page.rows("#event-standings")
            ]

        # (the standings refresh live after the last table's end: on a loaded machine a moment later)
        wait(lambda: standings_shown() == expected, "the standings after round 3", 30)
        assert standings_shown() == expected

        # the partner round: 3 teams of two, Double Draw partnerships, one table and a bye
        page.click("details.new-event summary")
        page.fill("event-form", name="Pairs", rounds="1", variant="double-draw", teams=True)
        wait(lambda: page.driver.find_element(page.by.ID, "event-name").text == "Pairs", "the partner event")
        page.fill("players-form", names="\n".join(PLAYERS[:6]))
        for team, a, b in (("Oaks", "Ana", "Ben"), ("Elms", "Cy", "Dee"), ("Pines", "Eve", "Fay")):
            wait(lambda: page.driver.find_elements(page.by.ID, "team-form"), "the team form")
            page.fill("team-form", team=team, p1=a, p2=b)
            assert page.said() == f"Team {team} registered."
        page.click('button[data-action="pair"]')
        wait(lambda: len(page.states(1)) == 2, "the partner round")
        assert page.rows('table.round[data-round="1"]')[0][:3] == ["1", "Oaks (Ana)", "Elms"]
        [table, bye] = event_doc(s, "Pairs")["rounds"][0]["tables"]
        assert (table["players"], bye["first"], bye["second"]) == (["Ana", "Cy", "Ben", "Dee"], "Pines", None)
        post(s, table["match"], table_token(s, table["match"]), match_events(s, table["match"], table["match"]))
        wait(lambda: page.states(1) == ["state-ended", "bye"], "the partner round ended", 30)
        shown = [(int(r[0]), r[1], int(r[3]), float(r[6]), int(r[7]), int(r[9])) for r in page.rows("#event-standings")]
        assert shown == [(p, e, w, mp, pf, diff) for p, e, w, _, _, mp, pf, diff in EXPECTED_PAIRS]

        # the events picker: tonight's (the newest) first, the other one click away
        page.click('button[data-action="pick-event"][data-event="Club night"]')
        wait(lambda: page.driver.find_element(page.by.ID, "event-name").text == "Club night", "the Swiss again")

        # a forfeit through the page
        page.click("details.new-event summary")
        page.fill("event-form", name="Late game", rounds="1", variant="ghost13")
        page.fill("players-form", names="Ana\nBen")
        page.click('button[data-action="pair"]')
        wait(lambda: len(page.states(1)) == 1, "the late game")
        page.click('button[data-action="forfeit"][data-winner="Ben"]', confirm=True)
        wait(lambda: page.states(1) == ["state-forfeit"], "the forfeit")
        assert page.rows('table.round[data-round="1"]')[0][4] == "Ben wins by forfeit"
        assert [r[:4] for r in page.rows("#event-standings")] == [["1", "Ben", "1", "1"], ["2", "Ana", "1", "0"]]
        ended = s.client.get("/api/matches/late-game-r1-t1/events").text.splitlines()
        assert [json.loads(line)["type"] for line in ended] == ["match_start", "note", "match_end"]
        assert page.driver.get_log("browser") == [] or all(
            "Content Security Policy" not in e["message"] for e in page.driver.get_log("browser")
        )
    finally:
        page.quit()


def test_who_may_run_an_event(server: Server) -> None:
    """The organiser's token alone writes: no token 401, wrong 401, a table's 403, revoked 401."""
    s = server
    made = s.client.post("/api/events", json={"name": "N", "variant": "ghost13"}, headers=s.auth(s.organiser))
    assert made.status_code == 201 and made.json()["event"]["name"] == "N"
    s.client.post("/api/events/N/players", json={"names": ["Ana", "Ben"]}, headers=s.auth(s.organiser))
    paired = s.client.post("/api/events/N/rounds", headers=s.auth(s.organiser))
    assert paired.status_code == 201 and paired.json()["round"] == 1
    match = paired.json()["rounds"][0]["tables"][0]["match"]
    table = table_token(s, match)
    r = s.client.post("/api/tokens", json={"match": match}, headers=s.auth(s.organiser))
    revoked = r.json()["token"]
    assert s.client.delete(f"/api/tokens/{r.json()['id']}", headers=s.auth(s.organiser)).status_code == 200
    writes = [
        ("POST", "/api/events", {"name": "M"}),
        ("POST", "/api/events/N/players", {"names": ["Cy"]}),
        ("POST", "/api/events/N/rounds", None),
        ("DELETE", "/api/events/N/rounds/last", None),
        ("POST", "/api/events/N/forfeits", {"match": match, "winner": "Ana"}),
        ("POST", "/api/events/N/end", None),
    ]
    for method, url, body in writes:
        got = {
            who: s.client.request(method, url, json=body, headers=s.auth(token)).status_code
            for who, token in (("none", None), ("wrong", "x" * 43), ("table", table), ("revoked", revoked))
        }
        assert got == {"none": 401, "wrong": 401, "table": 403, "revoked": 401}, (method, url, got)
    # refusals are said: the round is open, an event that does not exist, a name taken
    again = s.client.post("/api/events/N/rounds", headers=s.auth(s.organiser))
    assert again.status_code == 409 and again.json()["error"].startswith("round 1 is not complete (table 1")
    assert s.client.get("/api/events/Nowhere").status_code == 404
    taken = s.client.post("/api/events", json={"name": "N"}, headers=s.auth(s.organiser))
    assert (taken.status_code, taken.json()) == (409, {"error": "an event 'N' exists already"})
    hostile = s.client.post(
        "/api/events/N/players", json={"names": ["<img src=x onerror=alert(1)>"]}, headers=s.auth(s.organiser)
    )
    assert hostile.status_code == 201
    part = s.client.get("/organiser/events", headers=s.auth(s.organiser)).text
    assert "<img src=x" not in part and "&lt;img src=x onerror=alert(1)&gt;" in part
    assert s.client.get("/api/events").json()["events"][0]["name"] == "N"


def test_the_events_public_pages_and_a_private_event(server: Server) -> None:
    """``/events`` and ``/events/NAME`` for everyone in the room (names escaped); a private event is
    absent without a key that sees it, as a private match is."""
    s = server
    org = s.auth(s.organiser)
    s.client.post("/api/events", json={"name": "Night <i>", "variant": "ghost13"}, headers=org)
    s.client.post("/api/events/Night <i>/players", json={"names": ["Ana", "Ben <b>"]}, headers=org)
    s.client.post("/api/events/Night <i>/rounds", headers=org)
    listed = s.client.get("/events")
    assert listed.status_code == 200 and 'href="/events/Night%20%3Ci%3E"' in listed.text
    page = s.client.get("/events/Night%20%3Ci%3E")
    assert page.status_code == 200 and "<i>" not in page.text and "<b>" not in page.text
    assert "Night &lt;i&gt;" in page.text and "Ben &lt;b&gt;" in page.text
    assert 'data-part="/events/Night%20%3Ci%3E/part"' in page.text and 'data-action="forfeit"' not in page.text
    assert s.client.get("/events/Nowhere").status_code == 404
    assert s.client.post("/api/private", json={"event": "Night <i>"}, headers=org).status_code == 200
    for url in ("/events/Night%20%3Ci%3E", "/events/Night%20%3Ci%3E/part", "/api/events/Night%20%3Ci%3E"):
        assert s.client.get(url).status_code == 404, url
    assert "Night" not in s.client.get("/events").text and s.client.get("/api/events").json() == {"events": []}
    key = s.client.post("/api/tokens", json={"role": "viewer", "event": "Night <i>"}, headers=org).json()["token"]
    assert s.client.get("/events/Night%20%3Ci%3E", params={"key": key}).status_code == 200
    assert s.client.get("/api/events/Night%20%3Ci%3E", headers=s.auth(key)).status_code == 200
