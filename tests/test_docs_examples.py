"""Every example of every page (the README and all of docs/: shell, Python, PostgreSQL's SQL) runs, from a
temp folder, with the installed console script, against the bundled replays (a server it starts on a free
port); where a page shows the output, the output is compared (tests/doc_examples.py says how a page marks
what varies, and what cannot run here). A page with a command that no test runs fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.doc_examples import ROOT, RUN, blocks, check_output, fences, run, workspace
from tests.serving import Served

#: every page of the site, and the README
ALL_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: the pages with an example to run
PAGES = [page for page in ALL_PAGES if any(b.kind == "sh" for b in blocks(page))]
#: the language of a fenced block that no test runs: not for a command (a synopsis is ```text)
NOT_RUN = {"", "text", "json", "ebnf"}
#: how a command starts, in a plain fence that should have been an example
COMMAND = re.compile(r"^\s*(\$ |(?:\S*/)?(?:dominolog|curl|pip|python3?|psql|sqlite-utils|datasette|dask)\s)")


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_example_of_the_page_runs(page: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    examples = blocks(page)
    # a page whose examples need PostgreSQL gets a fresh database of the tests' throwaway server
    pg = request.getfixturevalue("pg_url") if any("{pg}" in c for b in examples for c in b.commands) else None
    cwd = workspace(tmp_path / "1")
    printed = None
    servers: list[Served] = []
    try:
        for block in examples:
            if block.kind == "sh" and block.fresh:
                cwd = workspace(tmp_path / str(int(cwd.name) + 1))
            if block.kind == "sh":
                printed = run(block, cwd, pg, servers)
            else:
                assert printed is not None, f"{block.page}:{block.line}: output shown before any command"
                check_output(block, printed)
    finally:
        for served in servers:
            served.stop()


def commands_no_test_runs(page: Path) -> list[str]:
    """Where a page holds a command that no test runs: a fence of a command is an example (```sh, ```python
    or ```sql), each collected by :func:`blocks`; a plain fence (output, a synopsis as ```text, JSON, a
    grammar) starts with no command."""
    text = page.read_text(encoding="utf-8")
    name = _name(page) if page.is_relative_to(ROOT) else page.name
    found = fences(text)
    collected = {b.line for b in blocks(page) if b.kind == "sh"}
    problems = []
    for m in found:
        line = text.count("\n", 0, m.start()) + 1
        lang, body = m.group(2), m.group(3)
        first = next((x for x in body.splitlines() if x.strip()), "")
        if lang in RUN and line not in collected:
            problems.append(f"{name}:{line}: an example that is not collected")
        elif lang not in RUN and lang not in NOT_RUN:
            problems.append(
                f"{name}:{line}: a ```{lang} block is run by no test: write it as ```sh, ```python or ```sql"
            )
        elif lang not in RUN and lang != "text" and COMMAND.match(first):
            problems.append(
                f"{name}:{line}: a plain fence that starts with a command ({first.strip()!r}): make it an example "
                "(```sh, run by tests/test_docs_examples.py) or, for a synopsis, ```text"
            )
    return problems


@pytest.mark.parametrize("page", ALL_PAGES, ids=_name)
def test_every_command_of_the_page_is_an_example_the_tests_run(page: Path) -> None:
    assert commands_no_test_runs(page) == []


def test_a_page_with_a_command_that_no_test_runs_fails(tmp_path: Path) -> None:
    """The guard itself: a ```bash block, or a plain fence that starts with a command, is refused; a synopsis
    as ```text and an example as ```sh are not."""
    page = tmp_path / "page.md"
    page.write_text(
        "```bash\ndominolog list\n```\n\n```\n$ dominolog list\n```\n\n```text\ndominolog list [OPTIONS]\n```\n\n"
        "```sh\ndominolog list\n```\n",
        encoding="utf-8",
    )
    assert commands_no_test_runs(page) == [
        "page.md:1: a ```bash block is run by no test: write it as ```sh, ```python or ```sql",
        "page.md:5: a plain fence that starts with a command ('$ dominolog list'): make it an example "
        "(```sh, run by tests/test_docs_examples.py) or, for a synopsis, ```text",
    ]


def test_every_page_with_an_example_is_run() -> None:
    """The README and the guides hold examples (a page that loses every one would drop out unseen)."""
    names = {_name(p) for p in PAGES}
    for page in ["README.md", "docs/index.md", *(_name(p) for p in (ROOT / "docs" / "guides").glob("*.md"))]:
        assert page in names, page


def test_every_example_not_run_says_why() -> None:
    for page in PAGES:
        for block in blocks(page):
            if block.skipped:
                assert len(block.skipped) > len("not run here ("), f"{block.page}:{block.line}: say why"


def test_a_changed_output_or_exit_status_fails(tmp_path: Path) -> None:
    """The runner itself: a page whose shown output, or exit status, is not what the command gives fails."""
    page = tmp_path / "page.md"
    page.write_text(
        "```sh\necho 'total 12.5 s'\n```\n\n<!-- output: contains -->\n```\ntotal 12.5 s\n```\n\n"
        "<!-- output: varies -->\n```\ntotal 3.25 s\n```\n\n<!-- output: contains -->\n```\ntotal 3.25 s\n```\n\n"
        "<!-- example: exit 1 -->\n```sh\ntrue\n```\n",
        encoding="utf-8",
    )
    first, same, varies, changed, wrong_exit = blocks(page)
    cwd = workspace(tmp_path / "work")
    printed = run(first, cwd)
    check_output(same, printed)
    check_output(varies, printed)  # a figure marked as varying may differ
    with pytest.raises(AssertionError, match="which the command did not print"):
        check_output(changed, printed)
    with pytest.raises(AssertionError, match="exit 0, the page says 1"):
        run(wrong_exit, cwd)
