"""The projector does not go stale (issue 35): after a restart of the server, with an event stored
before the pages reconnect, the board and /tables catch up within a few seconds (their stream resumes
from what the page shows: its id is the store's mark), in Debian's headless Chromium, on loopback."""

from __future__ import annotations

import json
import time
from pathlib import Path

from dominolog.store import open_store
from tests.webserver import Server, browser

START = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "r1", "meta": {"table": "1"}}


def _wait(driver: object, ok: object, seconds: float) -> float:
    """Seconds until ``ok()`` held (bounded: fails after ``seconds``)."""
    began = time.monotonic()
    while not ok():  # type: ignore[operator]
        assert time.monotonic() - began < seconds, "not within the time allowed"
        time.sleep(0.05)
    return time.monotonic() - began


def test_the_board_and_tables_catch_up_after_a_restart_of_the_server(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    db = tmp_path / "r.db"
    first = Server(db, tmp_path, "--no-analyse").start()
    port = first.port
    driver = browser(tmp_path)
    again: Server | None = None
    try:
        r = first.client.post(
            "/api/matches",
            content=json.dumps(START),
            headers={"Content-Type": "application/json", **first.auth(first.organiser)},
        )
        assert r.status_code == 201, r.text
        driver.set_page_load_timeout(20)
        tabs = {}
        for path in ("/", "/tables"):
            if tabs:
                driver.switch_to.new_window("tab")
            driver.get(f"{first.url}{path}")
            tabs[path] = driver.current_window_handle
            _wait(driver, lambda: driver.find_element(By.ID, "live-state").text == "live", 10)
            assert "waiting for the deal" in driver.find_element(By.ID, "live").text
        first.stop()
        # stored while no server runs: before any page can reconnect
        with open_store(db, write=True) as store:
            store.append("r1", b'{"type":"deal","leader":"Ana","hands":null}')
        again = Server(db, tmp_path, "--no-analyse", port=port).start()
        for path, handle in tabs.items():
            driver.switch_to.window(handle)
            took = _wait(driver, lambda: "Ana to play" in driver.find_element(By.ID, "live").text, 8)
            assert took < 8, path
            assert driver.find_element(By.ID, "live-state").text == "live"
        # and it goes on: the next event, written through the new server, shows as before
        r = again.client.post(
            "/api/matches/r1/events",
            content='{"type":"play","player":"Ana","tile":"6-6"}',
            headers={"Content-Type": "application/json", **again.auth(first.organiser)},
        )
        assert r.status_code == 201, r.text
        for handle in tabs.values():
            driver.switch_to.window(handle)
            _wait(driver, lambda: "Ben to play" in driver.find_element(By.ID, "live").text, 3)
    finally:
        driver.quit()
        first.stop()
        if again is not None:
            again.stop()


def test_the_board_stream_says_at_once_when_the_page_is_behind(tmp_path: Path) -> None:
    """``?after=MARK`` (or ``Last-Event-ID``): a mark other than the store's is answered at once with
    the store's mark; the page's own mark waits for the next move."""
    with Server(tmp_path / "s.db", tmp_path, "--no-analyse") as s:
        headers = {"Content-Type": "application/json", **s.auth(s.organiser)}
        assert s.client.post("/api/matches", content=json.dumps(START), headers=headers).status_code == 201
        with open_store(tmp_path / "s.db", create=False, write=False) as store:
            mark = store.mark()
        assert mark == "1-1"
        page = s.client.get("/").text
        assert f'data-stream="/api/board/stream?after={mark}"' in page

        def first_message(**kw: object) -> str:
            with s.client.stream("GET", "/api/board/stream", timeout=5, **kw) as r:  # type: ignore[arg-type]
                lines = r.iter_lines()
                got = [next(lines) for _ in range(5)]
            return "\n".join(got)

        assert first_message(params={"after": "1-0"}).endswith("id: 1-1\nevent: board\ndata: 1-1")
        assert first_message(headers={"Last-Event-ID": "0-0"}).endswith("id: 1-1\nevent: board\ndata: 1-1")
