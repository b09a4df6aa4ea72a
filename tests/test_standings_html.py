"""``dominolog standings --format html``: one self-contained page, every name escaped, the rating history
as inline SVG; and the page in a real browser (Debian's Chromium, driven by Selenium)."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dominolog.cli import app
from dominolog.log.hashchain import add_hashes
from dominolog.log.writer import dump_line
from dominolog.simulate import simulate_match
from tests.test_standings import SPRING, _build
from tests.webserver import browser

HOSTILE = "<b>Eve</b> [bold]x[/bold]"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The spring season's standings page, with one more Ghost 13 match for a player with a hostile name."""
    folder = tmp_path_factory.mktemp("standings-html")
    lines = [dump_line(e) for spec in SPRING for e in _build(spec)[1]]
    extra = [{k: v for k, v in e.items() if k != "hash"} for e in simulate_match("ghost13", 1, 0, [HOSTILE, "Ana"])]
    extra[0]["meta"] = {"date": "2026-04-09", "table": "5"}
    lines += [dump_line(e) for e in add_hashes(extra)]
    source = folder / "spring.jsonl"
    source.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    out = folder / "standings.html"
    done = CliRunner().invoke(app, ["standings", str(source), "--out", str(out)])  # html: from the suffix
    assert done.exit_code == 0, done.output
    return out


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_the_page_is_self_contained_and_escaped(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "<b>Eve" not in text and "&lt;b&gt;Eve&lt;/b&gt; [bold]x[/bold]" in text
    parser = _Tags()
    parser.feed(text)
    tags = [t for t, _ in parser.tags]
    assert "script" not in tags and "img" not in tags and "link" not in tags
    assert not [a for _, attrs in parser.tags for k, a in attrs.items() if k in ("src", "href") and a]
    sections = re.findall(r'<section class="card variant" data-variant="([^"]+)"', text)
    assert sections == ["39", "brettspielnetz", "double-draw", "ghost13"]
    ghost = text[text.index('data-variant="ghost13"') :]
    chart = ghost[ghost.index("<svg") : ghost.index("</svg>")]
    # one line per rated player, x labels the match dates in the order rated
    assert re.findall(r'data-name="([^"]+)"', chart) == ["Ana", "&lt;b&gt;Eve&lt;/b&gt; [bold]x[/bold]", "Ben", "Cleo"]
    labels = re.findall(r'text-anchor="middle" fill="#5b6570">(\d{4}-\d\d-\d\d)<', chart)
    assert labels == ["2026-03-05", "2026-03-12", "2026-03-19", "2026-04-09"]
    assert ghost.count('<details class="history">') == 4


def test_the_page_in_a_real_browser(page: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver = browser(tmp_path)
    try:
        driver.get(page.as_uri())
        assert driver.title == "Standings"
        loads = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert loads == []  # nothing fetched: no font, no script, no image
        chart = driver.find_element(By.CSS_SELECTOR, '[data-variant="ghost13"] .rating-chart svg.chart')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", chart)
        assert chart.is_displayed() and chart.size["width"] > 300 and chart.size["height"] > 100
        first = driver.find_element(By.CSS_SELECTOR, '[data-variant="ghost13"] table.standings tbody tr td + td')
        assert first.text == "Ana"
        shot = os.environ.get("DOMINOLOG_STANDINGS_SCREENSHOT")
        if shot:
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(shot)
    finally:
        driver.quit()
