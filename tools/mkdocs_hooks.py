"""MkDocs hook: pages that show a file kept outside docs/ (the rulebooks in seeds/, bench/RESULTS.md).

Such a page holds a line ``<!-- include: PATH -->`` (PATH from the repository's root); on the repository the page
says where the file is, and the site shows the file's text in its place, its links to ``../docs/`` made relative
to the page. Nothing is copied, so the text cannot drift.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r"^<!-- include: (\S+) -->\n.*", re.M | re.S)


def on_page_markdown(markdown: str, page, config, files) -> str:
    match = INCLUDE.search(markdown)
    if match is None:
        return markdown
    text = (ROOT / match.group(1)).read_text(encoding="utf-8")
    depth = page.file.src_uri.count("/")
    text = text.replace("](../docs/", "](" + "../" * depth)
    text = re.sub(r"^# .*\n", "", text, count=1)  # the page's own title stays
    return markdown[: match.start()] + text
