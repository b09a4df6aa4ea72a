"""The frame of a live page: the header, and its ``<main>`` that ``static/live.js`` fetches again
(``data-part``) each time its stream (``data-stream``) says something moved. Used by the pages
(:mod:`dominolog.web.pages`) and by the analysis page while its analysis is made
(:mod:`dominolog.web.results`)."""

from __future__ import annotations

from dominolog.htmlpage import esc


def frame(title: str, body: str, stream: str, part: str, wide: bool = False) -> str:
    """The page; ``wide``: its main part takes the whole width (a projector's page)."""
    wide_class = ' class="wide"' if wide else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title>"
        '<link rel="stylesheet" href="/static/web.css"><script src="/static/live.js" defer></script></head>'
        f'<body><header><a href="/">dominolog</a> <nav><a href="/">board</a> <a href="/tables">tables</a> '
        '<a href="/standings">standings</a> <a href="/events">events</a></nav> '
        '<span class="live-state" id="live-state"></span></header>'
        f'<main id="live"{wide_class} data-stream="{esc(stream)}" data-part="{esc(part)}">'
        f"{body}</main></body></html>\n"
    )
