"""The score sheet (issue 14): ``dominolog export --format html``, one self-contained printable page per
match, every number the rules give, the table's wrong claims struck beside them, the audit report of a
match with violations written beside it; read back with ``html.parser`` and opened in Debian's Chromium."""

from __future__ import annotations

import base64
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from dominolog.club.sheet import sheet_html
from dominolog.club.summary import summarize
from dominolog.log.hashchain import add_hashes
from dominolog.log.writer import dump_line
from dominolog.recording.notation import iter_matches_any
from dominolog.simulate import hide_match, simulate_match
from dominolog.store import open_store
from tests.conftest import ROOT
from tests.webserver import browser

REPLAYS = ROOT / "replays"
BSN = REPLAYS / "brettspielnetz-disputed.jsonl"
VOID = {"meta", "br", "img", "input", "link", "hr", "wbr", "source"}


class _Page(HTMLParser):
    """Every element with its attributes and text (spaces collapsed), and every table row's cells."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str], str]] = []
        self.rows: list[tuple[dict[str, str], list[tuple[dict[str, str], str]]]] = []
        self._open: list[tuple[str, dict[str, str], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "tr":
            self.rows.append((a, []))
        if tag not in VOID:
            self._open.append((tag, a, []))
        else:
            self.elements.append((tag, a, ""))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            t, a, text = self._open.pop()
            joined = " ".join("".join(text).split())
            self.elements.append((t, a, joined))
            if t in ("td", "th") and self.rows:
                self.rows[-1][1].append((a, joined))
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, _, text in self._open:
            text.append(data)

    def all(self, cls: str = "", tag: str = "") -> list[tuple[str, dict[str, str], str]]:
        return [
            e for e in self.elements if (not cls or cls in e[1].get("class", "").split()) and (not tag or e[0] == tag)
        ]

    def text(self, cls: str = "", tag: str = "") -> list[str]:
        return [e[2] for e in self.all(cls, tag)]

    def hands(self) -> list[dict[str, list[str]]]:
        """Each hand's row: its cells' texts by class (``pts`` and ``run`` one per side)."""
        out = []
        for attrs, cells in self.rows:
            if "hand" in attrs.get("class", "").split():
                row: dict[str, list[str]] = {}
                for a, text in cells:
                    for c in a.get("class", "").split():
                        row.setdefault(c, []).append(text)
                out.append(row)
        return out


def _parse(page: str) -> _Page:
    p = _Page()
    p.feed(page)
    p.close()
    return p


def _written(path: Path, events: list[dict[str, Any]]) -> Any:
    """Write ``events`` as a log file and read its match back."""
    path.write_text("".join(dump_line(e) + "\n" for e in events), encoding="utf-8")
    (log,) = iter_matches_any(path)
    return log


def _match(path: Path, k: int = 1) -> Any:
    return list(iter_matches_any(path))[k - 1]


def _sheet(path: Path, k: int = 1, **kw: Any) -> str:
    log = _match(path, k)
    return sheet_html(log.records, f"{path.name}:{log.line}", **kw)


def _self_contained(page: str) -> None:
    """No script, nothing that loads anything, no handler: the whole sheet is in the file."""
    for tag, attrs, _ in _parse(page).elements:
        assert tag not in ("script", "link", "img", "iframe", "object", "embed"), tag
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
        for name in ("src", "href", "xlink:href"):
            value = attrs.get(name, "").lower()
            assert not value.startswith(("http:", "https:", "//", "javascript:", "data:")), (tag, value)
    assert "@import" not in page and "url(" not in page


# -- what the sheet says -------------------------------------------------------------------------------


def test_the_disputed_brettspielnetz_sheet_written_beside_its_audit_report(cli: Any, tmp_path: Path) -> None:
    work = tmp_path / "work"
    ran = cli("export", BSN, "--format", "html", "--out", "sheet.html")
    assert (ran.code, ran.out) == (0, "")
    page = (work / "sheet.html").read_text(encoding="utf-8")
    _self_contained(page)
    p = _parse(page)
    rows = p.hands()
    assert [r["no"] for r in rows] == [["1"], ["2 1"], ["3"], ["4 1"]], "hands 2 and 4 flag their violation"
    assert [r["end"][0] for r in rows] == ["domino", "domino", "stock-out", "stock-out"]
    assert [r["winner"][0] for r in rows] == ["Ana", "Ana", "Ana", "Ben"]
    assert all("aggressor" not in r for r in rows), "Brettspielnetz has no aggressor: no column"
    assert [r["pts"] for r in rows] == [["0", "15"], ["0", "16 table wrote 11"], ["8", "37"], ["14", "3"]]
    assert [r["run"] for r in rows] == [["0", "15"], ["0", "31"], ["8", "68"], ["22", "71"]]
    assert p.text("claim") == ["table wrote 11"] and p.text(tag="s") == ["11"]
    assert [a.get("data-hand") for a, _ in p.rows if "disputed" in a.get("class", "")] == ["2"]
    summary = summarize("bsn-disputed-6", _match(BSN).records)
    assert [r["fp"][0] for r in rows] == [h.fingerprint for h in summary.hands]
    assert rows[0]["fp"] == ["b48e41bb75"] == [summary.hands[0].fingerprint]
    assert p.text("side", "th") == ["Ana", "Ben"]
    assert "penalty" in p.text(tag="th") and "aggressor" not in " ".join(p.text(tag="th")).lower()
    totals = next(cells for a, cells in p.rows if a.get("class") == "totals")
    assert [t for a, t in totals if "run" in a.get("class", "")] == ["22", "71"]
    assert p.text("outcome") == ["winner: Ana"]
    assert [(e[1]["data-place"], e[2]) for e in p.all(tag="li") if "data-place" in e[1]] == [
        ("1", "1. Ana 22"),
        ("2", "2. Ben 71"),
    ]
    assert "Penalty points: the lowest total wins." in p.text("note")
    # the header
    facts = dict(zip(p.text(tag="dt"), p.text(tag="dd"), strict=True))
    assert facts["Event"] == "league round 3" and facts["Game"] == "Brettspielnetz Domino"
    assert facts["Players"] == "Ana vs Ben" and facts["Match"] == "bsn-disputed-6"
    assert facts["Date"] == "2026-01-01 18:00 UTC" and facts["Table"] == "—"
    assert facts["Fingerprint"] == f"{summary.fingerprint} after 131 events" and summary.fingerprint == "76fdedee1b"
    # validity: a red badge, the violations, the audit report beside the sheet
    (verdict,) = [e for e in p.all(tag="span") if e[1].get("id") == "verdict"]
    assert verdict[1]["class"] == "badge bad" and verdict[2] == "2 violations"
    assert "verified: every score" not in page
    assert p.text("violation", "li") == [
        "seq 60: score-mismatch: hand 2 (domino): claimed Ana 0, Ben 11; the rules give Ana 0, Ben 16",
        "seq 120: renege: Ben draws while holding a legal play (shown by the reveals: Ben must have held one of "
        "1-5, 4-5, 5-5)",
    ]
    links = [e[1]["href"] for e in p.all("audit", "a")]
    assert links == ["sheet.audit.html", "sheet.audit.html"]
    audit = (work / links[0]).read_text(encoding="utf-8")
    assert audit.startswith("<!DOCTYPE html>") and "2 violations, 32 possible violations" in audit
    assert sorted(f.name for f in work.iterdir()) == ["sheet.audit.html", "sheet.html"]
    # to standard output: the command that makes the audit report, and no file
    out = cli("export", BSN, "--format", "html")
    assert out.code == 0 and out.out.startswith("<!DOCTYPE html>") and 'class="audit"' not in out.out
    assert _parse(out.out).text("hint") == [
        f"dominolog audit {BSN} --match 1 --format html --out brettspielnetz-disputed-1.audit.html"
    ]
    assert sorted(f.name for f in work.iterdir()) == ["sheet.audit.html", "sheet.html"]


def test_a_partnership_sheet_has_a_column_per_side_and_the_target_on_the_chart() -> None:
    page = _sheet(REPLAYS / "double-draw-simulated.jsonl", 4)
    _self_contained(page)
    p = _parse(page)
    facts = dict(zip(p.text(tag="dt"), p.text(tag="dd"), strict=True))
    assert facts["Partnerships"] == "Ana & Cleo vs Ben & Dev" and facts["Game"] == "Double Draw"
    assert facts["Match"] == "sim-double-draw-7-4"
    assert p.text("side", "th") == ["Ana & Cleo", "Ben & Dev"]
    rows = p.hands()
    assert [r["end"][0] for r in rows] == ["passes", "domino", "domino", "domino", "passes", "passes", "passes"]
    assert [r["winner"][0] for r in rows] == ["—", *["Ben & Dev"] * 2, "Ana & Cleo", *["Ben & Dev"] * 3]
    assert [r["pts"] for r in rows] == [
        ["0", "0"],
        ["0", "54"],
        ["0", "24"],
        ["17", "0"],
        ["0", "7"],
        ["0", "4"],
        ["0", "19"],
    ]
    assert [r["run"][1] for r in rows] == ["0", "54", "78", "78", "85", "89", "108"]
    assert [r["run"][0] for r in rows][-1] == "17"
    assert p.text("outcome") == ["winner: Ben & Dev"]
    (verdict,) = [e for e in p.all(tag="span") if e[1].get("id") == "verdict"]
    assert (verdict[1]["class"], verdict[2]) == ("badge good", "verified: every score recomputed from the rules")
    assert not p.all("violations") and not p.all("audit")
    # the chart: one line per side from "start", and Double Draw's target for partnerships (E7: 100)
    assert [e[1]["data-name"] for e in p.all("series", "g")] == ["Ana & Cleo", "Ben & Dev"]
    svg = page[page.index("<svg") : page.index("</svg>")]
    assert [len(re.findall(r"<circle", g)) for g in svg.split('class="series"')[1:]] == [8, 8]
    labels = re.findall(r'text-anchor="middle" fill="#5b6570">([^<]+)<', svg)
    assert labels == ["start", "H1", "H2", "H3", "H4", "H5", "H6", "H7"]
    assert 'class="target"' in svg and ">100</text>" in svg


def test_a_three_player_double_bergen_sheet_and_where_there_is_no_target() -> None:
    page = _sheet(REPLAYS / "double-bergen-simulated.jsonl", 2)
    p = _parse(page)
    assert p.text("side", "th") == ["Ana", "Ben", "Cleo"]
    rows = p.hands()
    assert len(rows) == 10 and [r["end"][0] for r in rows].count("block") == 1
    assert rows[1]["pts"] == ["12", "17", "19"] and rows[1]["run"] == ["25", "25", "27"]
    assert rows[-1]["end"] == ["target"] and rows[-1]["winner"] == ["—"]
    assert rows[-1]["run"] == ["100", "92", "95"]
    assert p.text("outcome") == ["winner: Ana"]
    assert [e[2] for e in p.all(tag="li") if "data-place" in e[1]] == ["1. Ana 100", "2. Cleo 95", "3. Ben 92"]
    assert 'class="target"' in page and ">100</text>" in page, "Double Bergen is played to 100 (D8)"
    # Ghost 13 has an aggressor (a column); 39 is played over a number of hands (no target line)
    ghost_page = _sheet(REPLAYS / "ghost13-simulated.jsonl")
    assert [r["aggressor"][0] for r in _parse(ghost_page).hands()] == ["Ana", "Ana", "Ben", "—", "—", "Ana"]
    assert 'class="target"' in ghost_page
    assert 'class="target"' not in _sheet(REPLAYS / "39-simulated.jsonl")


def test_how_a_match_ended_abandoned_by_the_table_or_in_progress_without_a_match_end() -> None:
    ghost = _parse(_sheet(REPLAYS / "ghost13-disputed.jsonl"))
    assert ghost.text("outcome") == ["abandoned: the table ended the match without a winner"]
    assert [r["winner"][0] for r in ghost.hands()] == ["Ben", "Ben table wrote Ana"]
    log = _match(REPLAYS / "brettspielnetz-simulated.jsonl")
    cut = [r for r in log.records if r.event is None or r.event.type != "match_end"]
    p = _parse(sheet_html(cut, "cut.jsonl:1"))
    assert p.text("outcome") == ["in progress: no match_end yet"]
    assert [r["run"] for r in p.hands()][-1] == ["69", "34"]


def test_points_the_rules_cannot_check_are_marked_as_the_tables(tmp_path: Path) -> None:
    """A hand whose tiles were never shown: its points are the table's claim, and the badge says so."""
    events = [
        {k: v for k, v in e.items() if k not in ("hash", "seq")} for e in hide_match(simulate_match("ghost13", 7))
    ]
    end = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    kept = [e for i, e in enumerate(events) if e["type"] != "reveal" or i > end]  # hand 1 never shown
    log = _written(tmp_path / "hidden.jsonl", add_hashes([{**e, "seq": i} for i, e in enumerate(kept, 1)]))
    page = sheet_html(log.records, "hidden.jsonl:1")
    p = _parse(page)
    (verdict,) = [e for e in p.all(tag="span") if e[1].get("id") == "verdict"]
    assert verdict[1]["class"] == "badge warn"
    assert verdict[2] == "valid; the points of hand 1 are the table's: not checkable (hidden tiles)"
    assert p.text("open") == ["points as the table wrote them (hidden tiles)"]
    assert p.hands()[0]["pts"] == ["0", "18"] and "verified: every score" not in page


# -- hostile names ---------------------------------------------------------------------------------------


def _hostile(path: Path, red_player: bool) -> None:
    events = [
        {k: v for k, v in e.items() if k != "hash"} for e in simulate_match("ghost13", 5, players=[SCRIPT, "Ben"])
    ]
    events[0]["meta"] = {"event": EVENT, "table": "\x1b[31m3"}
    hand_end = next(e for e in events if e["type"] == "hand_end")
    hand_end["points"] = {k: v + 5 for k, v in hand_end["points"].items()}  # a wrong claim: a violation
    if red_player:
        events = [{k: ("\x1b[31mBen" if v == "Ben" else v) for k, v in e.items()} for e in events]
        events[0]["players"] = [SCRIPT, "\x1b[31mBen"]
    path.write_text("".join(dump_line(e) + "\n" for e in add_hashes(events)), encoding="utf-8")


SCRIPT = "<script>alert(1)</script>"
EVENT = '"><img src=x onerror=alert(1)>'


@pytest.mark.parametrize("red_player", [False, True])
def test_hostile_names_and_meta_are_escaped(tmp_path: Path, red_player: bool) -> None:
    log_file = tmp_path / "hostile.jsonl"
    _hostile(log_file, red_player)
    page = _sheet(log_file, audit_hint=f"dominolog audit {SCRIPT}")
    _self_contained(page)
    assert "<script" not in page and "<img" not in page and "\x1b" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    p = _parse(page)
    messages = " ".join(p.text("violation", "li"))
    assert p.text("hint", "code") == [f"dominolog audit {SCRIPT}"]
    if red_player:  # the log cannot name the player: every line about him is malformed, shown as read
        assert "'\\x1b[31mBen' holds a control character" in messages
    else:
        assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in page
        facts = dict(zip(p.text(tag="dt"), p.text(tag="dd"), strict=True))
        assert facts["Event"] == EVENT and facts["Table"] == "\\x1b[31m3", "as written, the escape made visible"
        assert p.text("side", "th") == [SCRIPT, "Ben"]
        assert f"claimed {SCRIPT} 5, Ben 20" in messages
        assert p.text("claim")[:2] == ["table wrote 5", "table wrote 20"]
        assert [e[1]["data-name"] for e in p.all("series", "g")] == [SCRIPT, "Ben"]


# -- the command -------------------------------------------------------------------------------------------


def test_every_match_of_a_store_into_a_folder_and_a_file_where_a_folder_is_needed(cli: Any, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    with open_store(db, create=True, write=True) as store:
        for f in ("ghost13-disputed.jsonl", "double-draw-simulated.jsonl"):
            for log in iter_matches_any(REPLAYS / f):
                store.import_match(log, str(REPLAYS / f))
    ran = cli("export", "--all", "--db", db, "--format", "html", "--out", "sheets")
    assert ran.code == 0 and ran.err == "6 score sheets (2 with an audit report) -> sheets\n", ran.err
    folder = tmp_path / "work" / "sheets"
    ids = ["disputed-2026-11-20", "disputed-hidden-2026-11-20", *(f"sim-double-draw-7-{k}" for k in range(1, 5))]
    names = sorted(os.listdir(folder))
    assert names == sorted([*(f"{i}.html" for i in ids), *(f"{i}.audit.html" for i in ids[:2])]), names
    first = _parse((folder / f"{ids[0]}.html").read_text(encoding="utf-8"))
    assert [e[1]["href"] for e in first.all("audit", "a")] == [f"{ids[0]}.audit.html"] * 2
    facts = dict(zip(first.text(tag="dt"), first.text(tag="dd"), strict=True))
    assert facts["Match"] == ids[0] and facts["Table"] == "1" and "Log" not in facts
    assert [r["run"] for r in first.hands()] == [["0", "124"], ["0", "272"]]
    taken = tmp_path / "work" / "taken.html"
    taken.write_text("mine", encoding="utf-8")
    refused = cli("export", "--all", "--db", db, "--out", "taken.html")
    assert (refused.code, refused.err) == (
        2,
        "dominolog: taken.html: 6 score sheets need a folder, and this is a file\n",
    )
    assert taken.read_text(encoding="utf-8") == "mine"
    at = cli("export", REPLAYS / "ghost13-simulated.jsonl", "--out", "x.html", "--at", "3")
    assert at.code == 2 and "--at picks the event to draw" in at.err and not (tmp_path / "work" / "x.html").exists()


# -- in a browser ------------------------------------------------------------------------------------------


def test_the_sheet_in_a_real_browser_and_printed_on_one_a4_page(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    pages = {
        "disputed.html": _sheet(REPLAYS / "double-bergen-disputed.jsonl", audit_href="disputed.audit.html"),
        "four.html": _sheet(REPLAYS / "double-bergen-tabletop-hidden.jsonl"),
    }
    for name, page in pages.items():
        (tmp_path / name).write_text(page, encoding="utf-8")
    driver = browser(tmp_path)
    try:
        for name in pages:
            driver.get((tmp_path / name).as_uri())
            hands = driver.find_elements(By.CSS_SELECTOR, "tr.hand")
            assert len(hands) == (10 if name == "disputed.html" else 12)
            chart = driver.find_element(By.CSS_SELECTOR, "svg.chart")
            assert chart.is_displayed() and chart.size["width"] > 300, chart.size
            tip = driver.find_element(By.CSS_SELECTOR, ".no-print")
            assert tip.is_displayed()
            if name == "disputed.html" and os.environ.get("DOMINOLOG_SHEET_SCREENSHOT"):
                driver.set_window_size(1100, 1400)
                assert driver.save_screenshot(os.environ["DOMINOLOG_SHEET_SCREENSHOT"])
            loaded = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            assert loaded == [], f"the sheet loaded {loaded}"
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert errors == [], errors
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
            assert not tip.is_displayed() and chart.is_displayed()
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
            pdf = base64.b64decode(
                driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": True, "preferCSSPageSize": True})["data"]
            )
            assert pdf.startswith(b"%PDF")
            boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
            assert boxes and all(round(float(w)) == 595 and round(float(h)) == 842 for w, h in boxes), boxes
            pages_in_pdf = len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))
            assert pages_in_pdf == 1, f"{name}: {pages_in_pdf} A4 pages"
            (tmp_path / name).with_suffix(".pdf").write_bytes(pdf)
    finally:
        driver.quit()
