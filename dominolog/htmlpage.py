"""The frame of the club's HTML pages (score sheets, standings): one self-contained file each, its
style sheet inline, nothing loaded from a network, a print stylesheet for the paper copy."""

from __future__ import annotations

import html
from functools import cache
from importlib import resources

from dominolog import __version__
from dominolog.textsafe import shown

#: how much of one string from a log is shown on a page
LIMIT = 500


def esc(value: object, limit: int = LIMIT) -> str:
    """Any value as HTML text: cut, control characters made visible, then ``html.escape`` (quotes too)."""
    return html.escape(shown("" if value is None else value, limit), quote=True)


@cache
def page_css() -> str:
    text = resources.files("dominolog").joinpath("page.css").read_text(encoding="utf-8")
    assert "</" + "style" not in text.lower(), "page.css"
    return text


def html_page(title: str, body: str, extra_css: str = "") -> str:
    """A whole HTML document: ``title`` (plain text, escaped here) and ``body`` (HTML made by the
    caller, every string from a log already escaped with :func:`esc`)."""
    assert "</" + "style" not in extra_css.lower()
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="dominolog {esc(__version__)}">'
        f"<title>{esc(title)}</title>"
        f"<style>{page_css()}{extra_css}</style></head>"
        f"<body><main>{body}"
        f"<footer>Made by dominolog {esc(__version__)} from the match logs.</footer>"
        "</main></body></html>\n"
    )
