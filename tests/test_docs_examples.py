"""Every shell example of the README and of the guides runs, from a temp folder, with the installed console
script, against the bundled replays; where a page shows the output, the output is compared
(tests/doc_examples.py says how a page marks what varies, and what cannot run here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doc_examples import ROOT, blocks, check_output, run, workspace

PAGES = [
    ROOT / "README.md",
    ROOT / "docs" / "index.md",
    *sorted((ROOT / "docs" / "guides").glob("*.md")),
    ROOT / "docs" / "reference" / "commands.md",
]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_example_of_the_page_runs(page: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    examples = blocks(page)
    # a page whose examples need PostgreSQL gets a fresh database of the tests' throwaway server
    pg = request.getfixturevalue("pg_url") if any("{pg}" in c for b in examples for c in b.commands) else None
    assert any(b.kind == "sh" for b in examples), f"{page.name}: no shell example found"
    cwd = workspace(tmp_path / "1")
    printed = None
    for block in examples:
        if block.kind == "sh" and block.fresh:
            cwd = workspace(tmp_path / str(int(cwd.name) + 1))
        if block.kind == "sh":
            printed = run(block, cwd, pg)
        else:
            assert printed is not None, f"{block.page}:{block.line}: output shown before any command"
            check_output(block, printed)


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
