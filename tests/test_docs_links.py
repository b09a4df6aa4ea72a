"""All the documentation lives in the repository: every relative link of every Markdown file resolves
(its file, and its #anchor to a heading there), and nothing points outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def _markdown_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked archive)
        listed = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.md") if ".venv" not in p.parts]
    return [ROOT / name for name in listed]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return {_slug(m) for m in re.findall(r"^#+\s+(.*)$", text, re.M)}


def test_there_are_markdown_files_to_check() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _markdown_files()}
    assert {"README.md", "docs/format.md", "docs/rulings.md", "seeds/ghost13.md"} <= names


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path: Path) -> None:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    for m in LINK.finditer(text):
        target = m.group(1) or m.group(2)
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto: are not files of ours
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        assert dest.exists(), f"{path.name}: link to {target}: no such file"
        assert dest.is_relative_to(ROOT), f"{path.name}: link to {target} leaves the repository"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{path.name}: link to {target}: no such heading"


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_points_outside_the_repository(path: Path) -> None:
    assert "../shared" not in path.read_text(encoding="utf-8"), f"{path.name} mentions ../shared"
