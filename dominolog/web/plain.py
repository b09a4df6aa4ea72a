"""``POST /api/matches/{id}/events`` answered without FastAPI's routing and dependency solving: the
write every table makes at every play (issue 39: with PostgreSQL, FastAPI's work was about a sixth of
an append's CPU in ``serve``).

:class:`PlainAppend` is a Starlette route put first in the app's routes. It takes only the requests
whose every parameter it reads as FastAPI would, with nothing to refuse in them (no ``seq``, or one
``seq`` of plain digits within a store's range); any other request to that address (another method, a
``seq`` FastAPI would refuse or read otherwise) is not matched here and goes on to the FastAPI route,
which answers it as before. Both call the same :func:`~dominolog.web.api.append_to`, so a request gets
the same answer whichever route takes it (``tests/test_web_plain.py`` compares them). The OpenAPI
document is the FastAPI route's.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route

from dominolog.web.api import MAX_SEQ, append_to
from dominolog.web.ids import taken_back
from dominolog.web.shared import web

#: the address, as the FastAPI route's (``api.router``'s prefix and path)
PATH = "/api/matches/{match_id}/events"


class _NotPlain:
    """A query this route leaves to FastAPI's."""


NOT_PLAIN = _NotPlain()


def plain_seq(query_string: bytes) -> int | _NotPlain | None:
    """The request's ``seq``: None when there is none, the number when there is one of plain digits
    (``1`` to the largest a store holds), else :data:`NOT_PLAIN` (two of them, a sign, a space, a zero
    first, a value FastAPI refuses: FastAPI's route reads it and answers)."""
    if not query_string:
        return None
    found = [v for k, v in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True) if k == "seq"]
    if not found:
        return None
    if len(found) > 1:
        return NOT_PLAIN
    text = found[0]
    if not (0 < len(text) <= 19 and text.isascii() and text.isdigit() and text[0] != "0"):
        return NOT_PLAIN
    value = int(text)
    return value if value <= MAX_SEQ else NOT_PLAIN


#: where :meth:`PlainAppend.matches` leaves the request's ``seq`` in its scope (read once)
SEQ_KEY = "dominolog.seq"


async def append_plain(request: Request) -> Response:
    """:func:`~dominolog.web.api.append_events`, its parameters read by hand."""
    match_id = taken_back(request.path_params["match_id"])
    seq = request.scope[SEQ_KEY]
    return await append_to(request, await web(request), match_id, seq, request.headers.get("idempotency-key"))


class PlainAppend(Route):
    """The route of :func:`append_plain`: a full match only for a ``POST`` whose ``seq`` is plain (no
    partial match: another method is the FastAPI routes' to answer, ``405`` and all)."""

    def __init__(self) -> None:
        super().__init__(PATH, append_plain, methods=["POST"], include_in_schema=False)

    def matches(self, scope: Any) -> tuple[Match, Any]:
        match, child = super().matches(scope)
        if match is not Match.FULL:
            return Match.NONE, {}
        seq = plain_seq(scope.get("query_string", b""))
        if isinstance(seq, _NotPlain):
            return Match.NONE, {}
        return match, {**child, SEQ_KEY: seq}
