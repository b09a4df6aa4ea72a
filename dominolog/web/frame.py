"""The frame of a live page: the header, and its ``<main>`` that ``static/live.js`` fetches again
(``data-part``) each time its stream (``data-stream``) says something moved. Used by the pages
(:mod:`dominolog.web.pages`) and by the analysis page while its analysis is made
(:mod:`dominolog.web.results`)."""

from __future__ import annotations

from markupsafe import Markup

from dominolog.htmlpage import render


def frame(title: str, body: str, stream: str, part: str, wide: bool = False) -> str:
    """The page (``templates/web/frame.html``); ``wide``: its main part takes the whole width (a
    projector's page)."""
    return render("web/frame.html", title=title, body=Markup(body), stream=stream, part=part, wide=wide)
