"""What a user installs: the package imported from the environment, not the checkout, with every
file it reads at run time shipped."""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

import dominolog
from tests.conftest import ROOT

#: every non-Python file the package reads at run time
DATA_FILES = [
    "py.typed",
    "tui/recorder.tcss",
    "tui/replay.tcss",
    "audit/report.css",
    "audit/report.js",
    "audit/rulings.txt",
    "page.css",
    "web/static/favicon.ico",
    "web/static/live.js",
    "web/static/organiser.js",
    "web/static/record-sw.js",
    "web/static/record.css",
    "web/static/record.js",
    "web/static/record/pad.js",
    "web/static/record/prompts.js",
    "web/static/record/queue.js",
    "web/static/record/reading.js",
    "web/static/record/state.js",
    "web/static/record/table.js",
    "web/static/web.css",
    # the HTML of every page (dominolog/htmlpage.py)
    "templates/analysis/review.html",
    "templates/audit/report.html",
    "templates/club/cards.html",
    "templates/club/sheet.html",
    "templates/club/standings.html",
    "templates/page.html",
    "templates/page_main.html",
    "templates/web/analysis_pending.html",
    "templates/web/board.html",
    "templates/web/event.html",
    "templates/web/event_macros.html",
    "templates/web/events_list.html",
    "templates/web/frame.html",
    "templates/web/heading.html",
    "templates/web/match.html",
    "templates/web/note.html",
    "templates/web/organiser.html",
    "templates/web/organiser_events.html",
    "templates/web/organiser_part.html",
    "templates/web/recorder.html",
    "templates/web/tables.html",
]


def test_the_installed_package_is_tested_not_the_checkout() -> None:
    where = Path(dominolog.__file__).resolve()
    if os.environ.get("DOMINOLOG_TEST_CHECKOUT"):  # a developer's editable install, said so on purpose
        return
    assert not where.is_relative_to(ROOT / "dominolog"), (
        f"the tests imported {where}, the checkout's dominolog/: run them as .ci/run does "
        "(pip install '.[test]' then the pytest script), or set DOMINOLOG_TEST_CHECKOUT=1 for an editable install"
    )


def test_the_checkout_is_not_on_the_import_path() -> None:
    """Nothing (a test, a script the tests load) put the checkout on sys.path: its dominolog/ stays out."""
    if os.environ.get("DOMINOLOG_TEST_CHECKOUT"):
        return
    on_path = [p for p in sys.path if p in ("", ".") or Path(p).resolve() == ROOT]
    assert on_path == [], f"the checkout is on sys.path: {on_path}"


def test_every_data_file_is_shipped() -> None:
    root = resources.files("dominolog")
    for name in DATA_FILES:
        item = root.joinpath(*name.split("/"))
        assert item.is_file(), f"{name} is not in the installed package"
        item.read_bytes()  # readable (py.typed is empty by design)


def test_no_data_file_is_forgotten() -> None:
    """Every non-Python file of the source tree is in DATA_FILES (so it is checked as shipped); a C
    source is compiled into the package instead (tests/test_analysis_ghost13c.py checks it is there)."""
    found = sorted(
        str(p.relative_to(ROOT / "dominolog"))
        for p in (ROOT / "dominolog").rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc", ".c", ".so") and "__pycache__" not in p.parts
    )
    assert found == sorted(DATA_FILES)
