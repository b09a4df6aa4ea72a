"""Retake the pictures of a club evening in docs/guides/club-night.md (not a test): a new store served by
the installed ``dominolog serve``, tonight's Swiss made through the API as the organiser's page makes it
(12 players), round 1 played out, round 2 paired and under way (tables at different hands, one not
started), then the organiser's page, tonight's board and every table photographed in Debian's headless
Chromium, the board and the tables at a projector's 1920 x 1080, into ``docs/club-*.png``.

    python tests/make_club_screenshots.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]
NAME = "Club night"


def events_of(s: Any, match: str) -> list[dict[str, Any]]:
    from dominolog.simulate import simulate_match

    start = json.loads(s.client.get(f"/api/matches/{match}/events").text.splitlines()[0])
    events = simulate_match(start["variant"], match, players=start["players"], options=start.get("options"))
    return [{k: v for k, v in e.items() if k not in ("seq", "hash", "at")} for e in events[1:]]


def post(s: Any, match: str, events: list[dict[str, Any]]) -> None:
    token = s.client.post("/api/tokens", json={"match": match, "who": "table"}, headers=s.auth(s.organiser))
    body = "".join(json.dumps(e) + "\n" for e in events)
    headers = {"Content-Type": "application/x-ndjson", **s.auth(token.json()["token"])}
    r = s.client.post(f"/api/matches/{match}/events", content=body, headers=headers)
    r.raise_for_status()


def tables(s: Any) -> list[dict[str, Any]]:
    return list(s.client.get(f"/api/events/{NAME}").json()["rounds"][-1]["tables"])


def evening(s: Any) -> None:
    org = s.auth(s.organiser)
    s.client.post("/api/events", json={"name": NAME, "rounds": 3, "variant": "ghost13"}, headers=org).raise_for_status()
    s.client.post(f"/api/events/{NAME}/players", json={"names": PLAYERS, "club": "Oaks"}, headers=org)
    s.client.post(f"/api/events/{NAME}/rounds", headers=org).raise_for_status()
    for t in tables(s):
        post(s, t["match"], events_of(s, t["match"]))
    s.client.post(f"/api/events/{NAME}/rounds", headers=org).raise_for_status()
    for i, t in enumerate(tables(s)):
        events = events_of(s, t["match"])
        ends = [n for n, e in enumerate(events) if e["type"] == "hand_end"]
        # table 1 done, then tables at their second, third ... hand, and the last one not started
        cut = {0: len(events), 5: 0}.get(i, ends[min(i - 1, len(ends) - 1)] + 9)
        if cut:
            post(s, t["match"], events[:cut])


def main() -> None:
    from selenium.webdriver.common.by import By

    from tests.serving import chromium
    from tests.webserver import Server

    with tempfile.TemporaryDirectory(prefix="dominolog-club-shots-") as folder:
        tmp = Path(folder)
        with Server(tmp / "club.db", tmp, "--no-analyse") as s:
            evening(s)
            driver = chromium(tmp, extra=("--hide-scrollbars",))
            try:
                driver.set_window_size(1280, 1600)
                driver.get(f"{s.url}/organiser#organiser={s.organiser}")
                deadline = time.monotonic() + 10
                while not driver.find_elements(By.ID, "event-name") and time.monotonic() < deadline:
                    time.sleep(0.1)
                time.sleep(0.5)
                driver.save_screenshot(str(ROOT / "docs" / "club-organiser.png"))
                # a projector's screen: 1920 x 1080 CSS px, whatever the headless window's own frame
                metrics = {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False}
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
                for name, path in (("board", "/"), ("tables", "/tables"), ("event", f"/events/{NAME}")):
                    driver.get(s.url.rstrip("/") + path)
                    time.sleep(1.0)
                    driver.save_screenshot(str(ROOT / "docs" / f"club-{name}.png"))
            finally:
                driver.quit()


if __name__ == "__main__":
    main()
