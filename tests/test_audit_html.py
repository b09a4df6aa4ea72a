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

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
INSTALL = "apt-get install chromium chromium-driver"


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


class _Tags(HTMLParser):
    """Every start tag with its attributes, and the text outside tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    parser.close()
    return parser


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
    texts = "".join(_parse(page).text)
    assert BEN in texts.replace("\\x1b", "\x1b"), "the name reads as written"


def test_nothing_is_loaded_from_a_network(doc: dict[str, Any]) -> None:
    page = render_html(doc)
    for tag, attrs in _parse(page).tags:
        for name in ("src", "href", "xlink:href", "action", "poster", "data"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith(("http:", "https:", "//", "ftp:")), f"<{tag} {name}={value!r}>"
        assert tag not in ("link", "iframe", "img", "object", "embed"), f"<{tag}> in a self-contained page"
    assert not re.search(r"url\(\s*['\"]?\s*(https?:|//)", page, re.I)
    assert "@import" not in page
    assert not re.search(r"(fetch|XMLHttpRequest|WebSocket)\s*\(", page)


def test_ids_are_unique_and_every_event_and_finding_has_its_anchor(doc: dict[str, Any]) -> None:
    page = render_html(doc)
    tags = _parse(page).tags
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
    text = " ".join(_parse(page).text)
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


def _driver(tmp_path: Path) -> Any:
    """Debian's headless Chromium through its own chromedriver (nothing downloaded), or a failure that
    says what to install."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is not installed: pip install '.[test]' (it needs selenium>=4.20)")
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: the browser test needs Debian's Chromium ({INSTALL})")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))


def test_the_report_in_a_real_browser(doc: dict[str, Any], tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "audit.html"
    page.write_text(render_html(doc), encoding="utf-8")
    driver = _driver(tmp_path)
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
