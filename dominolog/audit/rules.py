"""The rulings behind a finding: the text of the ids of ``docs/rulings.md`` a violation (or an
unverified rule) of the reducer rests on.

The ids themselves are the finding's own (:class:`dominolog.state.Issue` ``rules``): the code
that reports it gives them (:mod:`dominolog.variants.rulings`), and nothing here reads them out of
its words. A finding of the log's form (``malformed``, ``hash-mismatch``, an ``undo`` with nothing
to take back) rests on no ruling: ``docs/format.md`` describes the form.

The rulings are read from the package's copy, ``dominolog/audit/rulings.txt`` (byte for byte
``docs/rulings.md``; a test keeps them equal): a user who installed the package has no ``docs/``.
It is not named ``.md`` so that the repository's link check does not read its relative links
(``../seeds/...``) as links from ``dominolog/audit/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib import resources


@cache
def rulings() -> dict[str, str]:
    """Every ruling of ``docs/rulings.md`` (its package copy): id -> text, in the order written."""
    text = resources.files("dominolog.audit").joinpath("rulings.txt").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        m = re.match(r"- \*\*([A-Z]\d+)\*\* (.*)", line)
        if m:
            current = m.group(1)
            out[current] = m.group(2).strip()
        elif current is not None and line.startswith("  ") and line.strip():
            out[current] += " " + line.strip()
        else:
            current = None
    return out


def ruling_text(rid: str) -> str:
    """The text of one ruling, as one paragraph (KeyError for an id that does not exist)."""
    return rulings()[rid]


def rules_with_text(ids: Iterable[str]) -> list[dict[str, str]]:
    """A finding's ruling ids with each ruling's text: its ``rules`` (``[{"id", "text"}]``)."""
    return [{"id": rid, "text": ruling_text(rid)} for rid in ids]
