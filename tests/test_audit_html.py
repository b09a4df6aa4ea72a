"""The audit report as HTML (issue 13): one self-contained file, every string from the log escaped, and a
step-through that works in a real browser (Debian's Chromium, driven by Selenium)."""

from __future__ import annotations

import base64
import copy
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from dominolog.audit.document import build_audit
from dominolog.audit.html import render_html
from dominolog.recording.notation import iter_matches_any
from tests.audit_fixture import BEN, sample_doc
from tests.helpers import parsed
from tests.webserver import browser

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


@pytest.fixture
def sample() -> dict[str, Any]:
    """A hand-made document with hostile names and every kind of finding."""
    return sample_doc()


@pytest.fixture(params=["sample", "brettspielnetz-disputed.jsonl"])
def doc(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The hand-made document, and a real one that ``build_audit`` makes of a bundled replay."""
    if request.param == "sample":
        return sample_doc()
    log = next(iter(iter_matches_any(REPLAYS / request.param)))
    return build_audit(log, pictures=True)


def _linked_findings(doc: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """(hand number, finding) for every finding of a hand that points at one of the hand's events."""
    out = []
    for hand in doc["hands"]:
        seqs = {e["seq"] for e in hand["events"]}
        out += [(hand["number"], f) for f in hand["findings"] if f["seq"] in seqs]
    return out


# -- the file itself ---------------------------------------------------------------------------------


def test_every_string_from_the_log_is_escaped(sample: dict[str, Any]) -> None:
    page = render_html(sample)
    assert "<b>Ben" not in page and "[red]x" in page
    assert "&lt;b&gt;Ben&lt;/b&gt;" in page
    assert "\x1b" not in page, "a terminal escape reached the page"
    assert "\\x1b" in page, "the escape character is shown as \\x1b"
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)" in page
    assert page.count("<script") == 1, "only the report's own script"
    assert "<i>" not in page, "the match id's markup is escaped"
    texts = "".join(parsed(page).text)
    assert BEN in texts.replace("\\x1b", "\x1b"), "the name reads as written"


def test_nothing_is_loaded_from_a_network(doc: dict[str, Any]) -> None:
    page = render_html(doc)
    for tag, attrs in parsed(page).tags:
        for name in ("src", "href", "xlink:href", "action", "poster", "data"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith(("http:", "https:", "//", "ftp:")), f"<{tag} {name}={value!r}>"
        assert tag not in ("link", "iframe", "img", "object", "embed"), f"<{tag}> in a self-contained page"
    assert not re.search(r"url\(\s*['\"]?\s*(https?:|//)", page, re.I)
    assert "@import" not in page
    assert not re.search(r"(fetch|XMLHttpRequest|WebSocket)\s*\(", page)


def test_ids_are_unique_and_every_event_and_finding_has_its_anchor(doc: dict[str, Any]) -> None:
    page = render_html(doc)
    tags = parsed(page).tags
    ids = [a["id"] for _, a in tags if a.get("id")]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert {"current-seq", "current-hand", "verdict", "chain"} <= set(ids)
    rows = {a["id"]: a for t, a in tags if t == "tr" and a.get("id")}
    for hand in doc["hands"]:
        for ev in hand["events"]:
            row = rows[f"h{hand['number']}-e{ev['seq']}"]
            assert row["data-seq"] == str(ev["seq"])
            assert ("retracted" in row["class"].split()) == ev["retracted"]
            found = {hand["findings"][i]["certainty"] for i in ev["findings"]}
            worst = next((c for c in ("certain", "possible", "unverifiable") if c in found), None)
            if worst:
                assert worst in row["class"].split(), "the event's row is marked with its worst finding"
    links = {a["href"] for t, a in tags if t == "a" and "jump" in (a.get("class") or "")}
    linked = _linked_findings(doc)
    assert linked, "the document has findings to link"
    for number, finding in linked:
        assert f"#h{number}-e{finding['seq']}" in links
    current = [a for _, a in tags if a.get("aria-current") == "true"]
    assert len(current) == len([h for h in doc["hands"] if h["events"]]), "one current event per replay"


def test_the_page_says_the_verdict_chain_notes_findings_and_scoring(sample: dict[str, Any]) -> None:
    doc = sample
    page = render_html(doc)
    text = " ".join(parsed(page).text)
    assert doc["verdict"]["text"] in text
    assert doc["chain"]["head"] in text and doc["chain"]["fingerprint"] in text
    for hand in doc["hands"]:
        assert hand["verdict"]["text"] in text
        for finding in hand["findings"]:
            assert f'class="badge {finding["certainty"]}"' in page
            for rule in finding["rules"]:
                assert rule["id"] in text
    assert page.index('id="verdict"') < page.index('id="chain"') < page.index('id="notes"') < page.index('id="hand-1"')
    assert "Ends: empty table" in page, "an event without a picture shows its ends as text"
    for hand in doc["hands"]:  # the tiles a finding names are coloured where the viewer shows them in a hand
        for ev in hand["events"]:
            known = {t for k in ev["knowledge"].values() for t in k["holds"] + k["may_hold"]}
            for i in ev["findings"]:
                for tile in set(hand["findings"][i]["tiles"]) & known:
                    assert re.search(rf'class="tile [a-z]+">{re.escape(tile)}<', page), tile
    assert "<svg" in page


def test_a_clean_match_and_missing_parts_render(sample: dict[str, Any]) -> None:
    doc = sample
    clean = copy.deepcopy(doc)
    clean.update(match_id=None, notes=[], winner=["Ana", BEN], findings=[])
    clean["verdict"] = {"valid": True, "violations": 0, "possible": 0, "unsettled": 0, "text": "valid"}
    clean["chain"] = {"status": "absent", "head": None, "fingerprint": None, "hands": [], "expect": None}
    for hand in clean["hands"]:
        hand.update(findings=[], claim=None, end_seq=None, scoring=[])
        hand["verdict"] = clean["verdict"]
        for ev in hand["events"]:
            ev["findings"] = []
            ev.pop("svg", None)
    page = render_html(clean)
    assert "Valid: no violations" in page and 'class="badge clean"' in page
    assert "no hash chain" in page and "Match (no id)" in page
    assert "badge certain" not in page and "&lt;b&gt;Ben" in page


# -- in a browser --------------------------------------------------------------------------------------


def test_the_report_in_a_real_browser(doc: dict[str, Any], tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "audit.html"
    page.write_text(render_html(doc), encoding="utf-8")
    driver = browser(tmp_path)
    try:
        driver.get(page.as_uri())
        seq = lambda: driver.find_element(By.ID, "current-seq").text  # noqa: E731
        hand_no = lambda: driver.find_element(By.ID, "current-hand").text  # noqa: E731

        def press(key: str) -> None:
            ActionChains(driver).send_keys(key).perform()

        def click(css: str) -> None:  # in the middle of the window, clear of the status bar
            element = driver.find_element(By.CSS_SELECTOR, css)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()

        verdict = driver.find_element(By.ID, "verdict-text")
        assert verdict.is_displayed()
        expected = "Valid: no violations" if doc["verdict"]["valid"] else doc["verdict"]["text"]
        assert verdict.text == expected

        first = doc["hands"][0]["events"]
        assert (hand_no(), seq()) == (str(doc["hands"][0]["number"]), str(first[0]["seq"]))
        press(Keys.ARROW_RIGHT)
        assert seq() == str(first[1]["seq"])
        assert driver.find_element(By.ID, f"h{doc['hands'][0]['number']}-e{first[1]['seq']}").get_attribute(
            "aria-current"
        ) == ("true")
        press(Keys.ARROW_LEFT)
        assert seq() == str(first[0]["seq"])

        # a finding's link moves the viewer of its hand to its event, with that event's knowledge
        linked = _linked_findings(doc)
        chosen = [x for x in linked if x[1]["certainty"] == "certain"] + [
            x for x in linked if x[1]["certainty"] != "certain"
        ][:3]
        for number, finding in chosen:
            click(f'#hand-{number} .findings a.jump[href="#h{number}-e{finding["seq"]}"]')
            assert (hand_no(), seq()) == (str(number), str(finding["seq"]))
            row = driver.find_element(By.ID, f"h{number}-e{finding['seq']}")
            assert row.get_attribute("aria-current") == "true"
            frame = driver.find_element(By.CSS_SELECTOR, f'.replay[data-hand="{number}"] .frame:not([hidden])')
            assert frame.get_attribute("data-seq") == str(finding["seq"])
            assert frame.is_displayed()
            hand = next(h for h in doc["hands"] if h["number"] == number)
            event = next(e for e in hand["events"] if e["seq"] == finding["seq"])
            shown = frame.find_element(By.CSS_SELECTOR, ".knowledge").text
            for knowledge in event["knowledge"].values():
                for tile in knowledge["holds"] + knowledge["may_hold"]:
                    assert tile in shown, (tile, shown)
                if knowledge["may_hold"]:
                    assert f"{len(knowledge['may_hold'])} tiles" in shown
            assert finding["message"].replace("\x1b", "\\x1b") in frame.text, "the viewer shows the finding"

        # the arrow keys step the hand last used; the buttons and a click on a row do too
        number, finding = _linked_findings(doc)[-1]
        hand = next(h for h in doc["hands"] if h["number"] == number)
        seqs = [e["seq"] for e in hand["events"]]
        click(f'#hand-{number} .findings a.jump[href="#h{number}-e{finding["seq"]}"]')
        at = seqs.index(finding["seq"])
        press(Keys.ARROW_RIGHT)
        assert seq() == str(seqs[min(at + 1, len(seqs) - 1)])
        click(f'.replay[data-hand="{number}"] button[data-step="-1"]')
        assert seq() == str(seqs[at])
        click(f"#h{number}-e{seqs[-1]} td.text")
        assert seq() == str(seqs[-1])
        press(Keys.ARROW_RIGHT)
        assert seq() == str(seqs[-1]), "the last event stays the last"

        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], errors
        loaded = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert loaded == [], f"the page loaded {loaded}"

        # screenshots: the top of the report, and the replay at the first finding (the README's picture)
        driver.execute_script("window.scrollTo(0, 0)")
        top = tmp_path / "audit-report.png"
        assert driver.save_screenshot(str(top))
        number, finding = _linked_findings(doc)[0]
        click(f'#hand-{number} .findings a.jump[href="#h{number}-e{finding["seq"]}"]')
        replay = tmp_path / "audit-replay.png"
        assert driver.save_screenshot(str(replay))
        for shot in (top, replay):
            assert shot.exists() and shot.stat().st_size > 5_000, shot

        # printed: no buttons and no viewer, every hand's findings and scoring and event list
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        assert not any(b.is_displayed() for b in driver.find_elements(By.TAG_NAME, "button"))
        assert not any(v.is_displayed() for v in driver.find_elements(By.CSS_SELECTOR, ".viewer"))
        for h in doc["hands"]:
            section = driver.find_element(By.ID, f"hand-{h['number']}")
            assert all(f.is_displayed() for f in section.find_elements(By.CSS_SELECTOR, ".findings .finding"))
            assert all(li.is_displayed() for li in section.find_elements(By.CSS_SELECTOR, ".scoring li"))
            assert all(r.is_displayed() for r in section.find_elements(By.CSS_SELECTOR, "tr.ev"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": True})["data"])
        assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
        (tmp_path / "audit.pdf").write_bytes(pdf)
    finally:
        driver.quit()


# -- with an analysis of the match (issue 15) ----------------------------------------------------------------

HIDDEN = REPLAYS / "ghost13-tabletop-hidden.jsonl"


@pytest.fixture(scope="module")
def analysed() -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The tabletop Ghost 13 match, its audit document (with pictures) and its review (each hand's last 4
    decisions, exact: fast), made in this process."""
    from dominolog.analysis.review import review_match

    log = next(iter(iter_matches_any(HIDDEN)))
    return log, build_audit(log, pictures=True), review_match(log, last=4).as_dict()


class _Cells(HTMLParser):
    """Each table row's cells (class and text) by the row's id, and each element's text by its id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: dict[str, list[tuple[str, str]]] = {}
        self.row: str | None = None
        self.cell: list[str] | None = None
        self.cls = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "tr":
            self.row = a.get("id") or a.get("data-player")
            if self.row:
                self.rows[self.row] = []
        elif tag == "td" and self.row:
            self.cell, self.cls = [], a.get("class") or ""
        elif tag == "br" and self.cell is not None:
            self.cell.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.row and self.cell is not None:
            self.rows[self.row].append((self.cls, " ".join("".join(self.cell).split())))
            self.cell = None
        elif tag == "tr":
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def _cells(page: str) -> dict[str, list[tuple[str, str]]]:
    parser = _Cells()
    parser.feed(page)
    parser.close()
    return parser.rows


def _decisions(review: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {d["seq"]: d for h in review["hands"] for d in h["decisions"]}


def test_the_analysis_column_has_each_decisions_rank_loss_and_best_move(
    analysed: tuple[Any, dict[str, Any], dict[str, Any]],
) -> None:
    from dominolog.analysis.shown import parse_review

    _, doc, review = analysed
    page = render_html(doc, parse_review(review))
    rows = _cells(page)
    decisions = _decisions(review)
    mistake = decisions[29]
    assert (mistake["rank"], len(mistake["options"]), mistake["loss"], mistake["best_move"]) == (3, 3, 16, "2-4 right")
    assert rows["h1-e29"] == [
        ("seq", "29"),
        ("text", "play Ben 3-5 left"),
        ("an mistake", "#3/3 -16 best 2-4 right"),
        ("", ""),
    ]
    assert rows["h1-e30"][2] == ("an best", "#1/2 best")
    assert rows["h1-e31"][2] == ("an even", "#1/1 =")  # one option: nothing at stake
    assert rows["h1-e33"][2] == ("an", "")  # the reveal: no decision
    for h in doc["hands"]:  # every event has the column; the decisions' cells say what the review says
        for ev in h["events"]:
            cls, text = rows[f"h{h['number']}-e{ev['seq']}"][2]
            d = decisions.get(ev["seq"])
            if d is None:
                assert (cls, text) == ("an", "")
                continue
            word = f"-{d['loss']}" if d["loss"] else "best" if d["best"] != d["worst"] else "="
            best = f" best {d['best_move']}" if d["loss"] else ""
            assert text == f"#{d['rank']}/{len(d['options'])} {word}{best}"
            assert cls == "an " + ("mistake" if d["loss"] else "best" if d["best"] != d["worst"] else "even")
    # each player's figures, near the top
    assert page.index('id="verdict"') < page.index('id="analysis"') < page.index('id="chain"')
    figures = _cells(page[page.index('id="analysis"') : page.index('id="chain"')])
    for p in review["summary"]:
        assert [text for _, text in figures[p["name"]]] == [
            p["name"],
            str(p["decisions"]),
            str(p["choices"]),
            str(p["total_loss"]),
            f"{p['average_loss']:.2f}",
            f"{p['match_rate']:.1f}%",
            f"{p['accuracy']:.1f}",
        ]
    # the viewer's frame of the decision lists its options, the best and the move played marked
    frame = page[page.index('<div class="frame" data-seq="29"') :]
    frame = frame[: frame.index('<table class="knowledge">')]
    assert "Ben</strong> played 3-5 left (-6): #3 of 3, lost 16" in frame
    assert '<tr class="best"><td>2-4 right</td><td class="num">+10</td></tr>' in frame
    assert '<tr class="best"><td>3-3 left</td><td class="num">+10</td></tr>' in frame
    assert '<tr class="played"><td>&#9654; 3-5 left</td><td class="num">-6</td></tr>' in frame


def test_without_an_analysis_the_report_is_unchanged(analysed: tuple[Any, dict[str, Any], dict[str, Any]]) -> None:
    _, doc, _ = analysed
    page = render_html(doc)
    assert page == render_html(doc, None)
    assert 'class="an' not in page and 'id="analysis"' not in page and 'class="options"' not in page
    assert all(len(cells) == 3 for key, cells in _cells(page).items() if key.startswith("h"))


def test_audit_command_takes_the_analysis_from_a_file_or_the_store(
    analysed: tuple[Any, dict[str, Any], dict[str, Any]], tmp_path: Path
) -> None:
    import json

    from typer.testing import CliRunner

    from dominolog.analysis.cache import VERSION, settings_of
    from dominolog.cli import app
    from dominolog.store import open_store

    log, _, review = analysed
    runner = CliRunner()
    path = tmp_path / "review.json"
    path.write_text(json.dumps(review), encoding="utf-8")
    out = tmp_path / "audit.html"
    done = runner.invoke(app, ["audit", str(HIDDEN), "--format", "html", "--analysis", str(path), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert _cells(out.read_text(encoding="utf-8"))["h1-e29"][2] == ("an mistake", "#3/3 -16 best 2-4 right")
    text = runner.invoke(app, ["audit", str(HIDDEN), "--analysis", str(path)])
    assert text.exit_code == 2
    assert text.stderr == "dominolog: --analysis: the analysis is shown in the HTML report (--format html)\n"
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**review, "match_id": "another"}), encoding="utf-8")
    refused = runner.invoke(app, ["audit", str(HIDDEN), "--format", "html", "--analysis", str(other)])
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr == (
        f"dominolog: {other}: an analysis of match 'another', not of this match ('club-2026-11-20-table-3')\n"
    )
    # the store: the analysis it keeps for the match at its head
    db = tmp_path / "club.db"
    with open_store(db) as store:
        list(store.import_matches([log]))
        (row,) = store.list_matches()
    html_of = lambda: runner.invoke(app, ["audit", "--db", str(db), row["id"], "--format", "html"]).stdout  # noqa: E731
    assert 'class="an' not in html_of()
    with open_store(db, create=False) as store:
        store.save_analysis(row["id"], row["head"], VERSION, settings_of(last=4), review)
    assert _cells(html_of())["h1-e29"][2] == ("an mistake", "#3/3 -16 best 2-4 right")


def test_the_analysis_in_a_real_browser(analysed: tuple[Any, dict[str, Any], dict[str, Any]], tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    from dominolog.analysis.shown import parse_review

    _, doc, review = analysed
    page = tmp_path / "audit.html"
    page.write_text(render_html(doc, parse_review(review)), encoding="utf-8")
    driver = browser(tmp_path)
    try:
        driver.get(page.as_uri())
        summary = driver.find_element(By.ID, "analysis")
        assert summary.is_displayed() and "Lost per choice" in summary.text
        row = driver.find_element(By.ID, "h1-e29")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        cell = row.find_element(By.CSS_SELECTOR, "td.an")
        assert cell.is_displayed() and cell.text.split() == ["#3/3", "-16", "best", "2-4", "right"]
        row.find_element(By.CSS_SELECTOR, "td.text").click()
        assert driver.find_element(By.ID, "current-seq").text == "29"
        frame = driver.find_element(By.CSS_SELECTOR, '.replay[data-hand="1"] .frame:not([hidden])')
        options = frame.find_element(By.CSS_SELECTOR, ".options")
        assert options.is_displayed()
        best = [r.text for r in options.find_elements(By.CSS_SELECTOR, "tr.best")]
        assert best == ["2-4 right +10", "3-3 left +10"]
        assert options.find_element(By.CSS_SELECTOR, "tr.played").text == "▶ 3-5 left -6"
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], errors
    finally:
        driver.quit()


def test_names_and_moves_of_the_analysis_are_escaped(analysed: tuple[Any, dict[str, Any], dict[str, Any]]) -> None:
    import json

    from dominolog.analysis.shown import parse_review

    _, doc, review = analysed
    review = json.loads(json.dumps(review))
    hostile = '<b>Eve</b> "x" <script>alert(1)</script> \x1b[2J'
    d = _decisions(review)[29]
    d["player"] = d["best_move"] = hostile
    for o in d["options"]:
        if o["value"] == d["best"]:
            o["move"] = hostile
    review["summary"][0]["name"] = hostile
    page = render_html(doc, parse_review(review))
    assert "<b>Eve" not in page and "\x1b" not in page and page.count("<script") == 1
    shown = "&lt;b&gt;Eve&lt;/b&gt; &quot;x&quot; &lt;script&gt;alert(1)&lt;/script&gt; \\x1b[2J"
    assert f'<span class="best-move">best {shown}</span>' in page
    assert f'<tr data-player="{shown}"><td>{shown}</td>' in page
    assert f"<strong>{shown}</strong> played 3-5 left" in page
