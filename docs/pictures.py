"""Rebuild the table pictures in docs/: ``python docs/pictures.py`` with dominolog installed.

``tests/test_pictures.py`` checks that the files are what this writes, and parses them. The same
run saves the recorder's screenshot (``docs/recorder.svg``, for the README) with Textual's
``save_screenshot``.
"""

from __future__ import annotations

import asyncio
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dominolog.layouts.picture import svg_picture
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import reduce_match
from dominolog.simulate import simulate_match

ROOT = Path(__file__).resolve().parent.parent

DOCS = ROOT / "docs"
#: (file, title, where the log comes from, the seq to draw)
PICTURES = [
    ("39-worked-example.svg", "39: the rule text's worked example, after play #12", "replay", 0),
    ("double-bergen-4-players.svg", "Double Bergen, 4 players: hand 1 after seq 24", "simulated", 24),
]


def table_at(source: str, seq: int):
    if source == "replay":
        (log,) = iter_matches(ROOT / "replays" / "39-worked-example.jsonl")
    else:
        events = simulate_match("double-bergen", 3, 0, ["Ana", "Ben", "Cleo", "Dev"])
        (log,) = iter_matches("simulated", "".join(dump_line(e) + "\n" for e in events).encode())
    upto = seq or log.records[-1].seq
    hand = reduce_match(log, upto).state.hand
    return hand.layout


def pictures() -> dict[str, str]:
    out = {}
    for name, title, source, seq in PICTURES:
        layout = table_at(source, seq)
        ends = ", ".join(f"{s.name} {s.value}" for s in layout.open_sides())
        out[name] = svg_picture(layout, title, f"open ends: {ends}")
    return out


#: the recorder's screenshot: Ghost 13 recorded with hidden hands, hand 2 under way, a tile typed
#: that fits both ends (its places offered, one key each)
RECORDER = "recorder.svg"


def save_recorder(folder: Path = DOCS, name: str = RECORDER) -> None:
    from dominolog.log.notation_write import format_event
    from dominolog.recording.journal import FileJournal
    from dominolog.recording.session import Session
    from dominolog.simulate import hide_match
    from dominolog.tui.recorder_app import RecorderApp

    start = datetime(2026, 11, 20, 19, 30, tzinfo=UTC)
    ticks = iter(range(10_000))

    def now() -> str:
        return (start + timedelta(seconds=17 * next(ticks))).strftime("%Y-%m-%dT%H:%M:%SZ")

    events = hide_match(simulate_match("ghost13", 1, 0, ["Ana", "Ben"]))
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(FileJournal(Path(tmp) / "club.jsonl"), now=now)
        head = {k: v for k, v in events[0].items() if k not in ("seq", "hash", "at")}
        session.enter_event(Session.start_event({**head, "id": "club-2026-11-20-t3"}))
        deals = 0
        for e in events[1:]:
            body = {k: v for k, v in e.items() if k not in ("seq", "hash", "at")}
            deals += body["type"] == "deal"
            tile = body.get("tile")
            if deals == 2 and tile and "end" in body and len(session.places(tile)) > 1:
                typed = tile.replace("-", "")
                break
            session.enter(format_event(body, session.on_move, session.next_leader()) or "")
        app = RecorderApp(session, "club-2026-11-20-t3", poll=None)

        async def shoot() -> None:
            async with app.run_test(size=(100, 32)) as pilot:
                await pilot.pause()
                app.recorder.entry.cursor_blink = False
                await pilot.press(*typed, "enter")
                await pilot.pause()
                app.save_screenshot(name, str(folder))

        asyncio.run(shoot())


AUDIT = "audit-report.png"
DISPUTE = ROOT / "replays" / "disputes" / "brettspielnetz-renege-proven-by-order.jsonl"


def save_audit_report(folder: Path = DOCS, name: str = AUDIT) -> None:
    """The HTML audit report of a dispute, in Debian's headless Chromium, at its first certain
    renege (needs selenium, chromium and chromium-driver, as the browser test does)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    from dominolog.audit.document import build_audit
    from dominolog.audit.html import render_html

    (log,) = list(iter_matches(DISPUTE))
    doc = build_audit(log, pictures=True)
    hand, finding = next((h, f) for h in doc["hands"] for f in h["findings"] if f["certainty"] == "certain")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "audit.html"
        page.write_text(render_html(doc), encoding="utf-8")
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
                    "--disable-background-networking", "--disable-component-update", "--window-size=1280,900",
                    f"--user-data-dir={tmp}/profile"):  # fmt: skip
            options.add_argument(arg)
        driver = webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))
        try:
            driver.get(page.as_uri())
            link = driver.find_element(
                By.CSS_SELECTOR, f'#hand-{hand["number"]} .findings a.jump[href="#h{hand["number"]}-e{finding["seq"]}"]'
            )
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
            link.click()
            replay = driver.find_element(By.CSS_SELECTOR, f'.replay[data-hand="{hand["number"]}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", replay)
            driver.save_screenshot(str(folder / name))
        finally:
            driver.quit()


SHEET = "score-sheet.png"
STANDINGS = "standings.png"
SEASON = ROOT / "replays" / "club-season"


def _chromium(tmp: str, width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
                "--disable-background-networking", "--disable-component-update", f"--window-size={width},{height}",
                "--hide-scrollbars", f"--user-data-dir={tmp}/profile"):  # fmt: skip
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))


def save_club_pages(folder: Path = DOCS) -> None:
    """The score sheet of the season's Double Bergen match and the season's standings (Ghost 13 first),
    in Debian's headless Chromium (needs selenium, chromium and chromium-driver)."""
    from selenium.webdriver.common.by import By

    from dominolog.club.sheet import sheet_html
    from dominolog.club.standings import match_summary, standings
    from dominolog.club.standings_html import render_html

    logs = [log for day in sorted(SEASON.glob("*.jsonl")) for log in iter_matches(day)]
    bergen = next(log for log in logs if log.records[0].obj["id"] == "club-2026-10-01-table-2")
    season = standings(match_summary(log.records[0].obj["id"], log.records) for log in logs)
    with tempfile.TemporaryDirectory() as tmp:
        sheet = Path(tmp) / "sheet.html"
        sheet.write_text(sheet_html(bergen.records, "2026-10-01.jsonl"), encoding="utf-8")
        table = Path(tmp) / "standings.html"
        table.write_text(render_html(season), encoding="utf-8")
        driver = _chromium(tmp, 1100, 1250)
        try:
            driver.get(sheet.as_uri())
            driver.save_screenshot(str(folder / SHEET))
            driver.set_window_size(1100, 1050)
            driver.get(table.as_uri())
            ghost = driver.find_element(By.XPATH, "//h2[contains(., 'Ghost 13')]")
            driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", ghost)
            driver.save_screenshot(str(folder / STANDINGS))
        finally:
            driver.quit()


REPLAY_ANALYSIS = "replay-analysis.png"


def save_replay_analysis(folder: Path = DOCS, name: str = REPLAY_ANALYSIS, seq: int = 6) -> None:
    """The replay viewer on the tabletop Ghost 13 match with its whole analysis (exact: about half a
    minute), at Ana's mistake at seq 6: the points each decision lost, the options with their values.
    Textual's SVG screenshot, drawn as PNG by Debian's headless Chromium (selenium, chromium and
    chromium-driver, as the browser tests)."""
    from selenium.webdriver.common.by import By

    from dominolog.analysis.review import review_match
    from dominolog.analysis.shown import parse_review
    from dominolog.tui.app import ReplayApp

    (log,) = list(iter_matches(ROOT / "replays" / "ghost13-tabletop-hidden.jsonl"))
    review = parse_review(review_match(log).as_dict())
    app = ReplayApp(log, "ghost13-tabletop-hidden.jsonl", start_seq=seq, analysis=review)
    with tempfile.TemporaryDirectory() as tmp:

        async def shoot() -> None:
            async with app.run_test(size=(100, 34)) as pilot:
                await pilot.pause()
                app.save_screenshot("replay-analysis.svg", tmp)

        asyncio.run(shoot())
        driver = _chromium(tmp, 1400, 1100)
        try:
            driver.get((Path(tmp) / "replay-analysis.svg").as_uri())
            driver.find_element(By.TAG_NAME, "svg").screenshot(str(folder / name))
        finally:
            driver.quit()


def main(only: list[str] | None = None) -> None:
    """Every picture; ``only``: just these (``python docs/pictures.py replay-analysis``)."""
    if only:
        steps = {"replay-analysis": save_replay_analysis, "recorder": save_recorder, "audit": save_audit_report,
                 "club": save_club_pages}  # fmt: skip
        for step in only:
            steps[step]()
        return
    for name, text in pictures().items():
        (DOCS / name).write_text(text, encoding="utf-8")
    save_recorder()
    save_audit_report()
    save_club_pages()
    save_replay_analysis()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
