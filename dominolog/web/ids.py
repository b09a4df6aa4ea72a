"""Match ids in addresses. An id may hold any character but a control one (docs/format.md), ``/`` too,
and a server decodes ``%2F`` before routing: so ``/m/a%2Fb/part`` would be routed as the match ``a``
and the page ``b/part``. :class:`MatchIds` routes on the path as it was sent: the segment after
``/m/`` or ``/api/matches/`` is the id, still percent-encoded, whatever it holds; the routes see it
as one segment (:func:`segment`) and take it back with :data:`MatchId`. Every link to a match is made
with :func:`href` (the id percent-encoded, ``/`` and ``.`` too)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote, unquote

from fastapi import Depends, HTTPException, Path
from starlette.types import ASGIApp, Receive, Scope, Send

#: the prefixes whose next segment is a match id
PREFIXES = ("/m/", "/api/matches/")


def segment(match_id: str) -> str:
    """The id as one path segment: every character but letters, digits, ``_``, ``-`` and ``~``
    percent-encoded (``.`` too: ``/m/..`` would be folded away by a browser)."""
    return quote(match_id, safe="").replace(".", "%2E")


def href(match_id: str, suffix: str = "") -> str:
    """The address of a match's page (``/m/ID``) or of one of its parts (``suffix``: ``/part``, ...)."""
    return f"/m/{segment(match_id)}{suffix}"


def api_href(match_id: str, suffix: str = "") -> str:
    """The address of a match in the API (``/api/matches/ID``), with ``suffix``."""
    return f"/api/matches/{segment(match_id)}{suffix}"


class MatchIds:
    """Pure ASGI middleware: for ``/m/...`` and ``/api/matches/...``, the routed path is made from the
    path as sent (``raw_path``), its id segment kept percent-encoded as :func:`segment` writes it (so
    it holds no ``/``); the rest of the path decoded as usual."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PREFIXES):
            raw = scope.get("raw_path")
            sent = raw.decode("latin-1").split("?", 1)[0] if raw else quote(scope["path"], safe="/")
            for prefix in PREFIXES:
                if sent.startswith(prefix):
                    first, slash, rest = sent[len(prefix) :].partition("/")
                    try:
                        match_id = unquote(first, errors="strict")
                    except UnicodeDecodeError:
                        match_id = None
                    if match_id is not None:
                        scope = {**scope, "path": prefix + segment(match_id) + slash + unquote(rest)}
                    break
        await self.app(scope, receive, send)


def taken_back(match_id: str) -> str:
    try:
        return unquote(match_id, errors="strict")
    except UnicodeDecodeError:
        raise HTTPException(404, "no such match") from None


async def _decoded(match_id: Annotated[str, Path(description="The match id, percent-encoded (`/` as `%2F`)")]) -> str:
    """The id of a route's ``{match_id}`` segment (as :class:`MatchIds` left it), decoded. (``async``: FastAPI
    runs a plain function dependency on a worker thread, a hop that cost a write about a tenth of its CPU.)"""
    return taken_back(match_id)


#: a route's match id, decoded
MatchId = Annotated[str, Depends(_decoded)]
