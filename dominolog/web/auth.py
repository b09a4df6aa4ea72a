"""Who may write and who may read: a bearer token (``Authorization: Bearer TOKEN``, never a cookie,
so no CSRF surface), looked up in the store by its hash (:mod:`dominolog.store.access`), and how
often a token may write.

Writing (:func:`writer`):

- no token, a token the store does not know, or a revoked one: ``401``;
- a table's token on another match, or on an organiser's endpoint (a new match): ``403``;
- a viewing key: ``403`` (it never writes);
- the organiser's token: every write.

Reading (:func:`sight`, the one check every read route makes): open, except the matches of a
private event (``match_start.meta.event`` made private by the organiser; ``*``: every match). Those
are read only with a viewing key of their event (or of every event), the organiser's token, or the
table token of that very match; without one they are absent from every list, board and standings,
and their own URLs answer ``404`` (their existence is not confirmed). A key given that the store
does not know, or a revoked one, is ``401``. The key travels as ``Authorization: Bearer`` or, for
pages, whose links and streams cannot set a header, as ``?key=``: a viewing key only (a token that
writes, in an address, would stay in histories and logs: ``401``).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import HTTPException, Request

from dominolog.store.access import EVERY_EVENT, event_in

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.store.access import Token

#: writes a token may make per second by default (a fast table enters a play in about a second;
#: a burst of a whole hand sent again after a lost connection is one request of many lines)
RATE = 20


#: what each error status of a write says (its body is ``{"error": "..."}``), for the OpenAPI document
ERRORS = {
    400: "an Idempotency-Key that is not 1 to 200 printable ASCII characters, a body that is not UTF-8, or a JSON "
    "body that cannot be parsed",
    401: "no token, or one not known here, or a revoked one (`WWW-Authenticate: Bearer`)",
    403: "a token that may not make this write (another match's table token, a viewing key)",
    404: "no such match (or a private one the token may not read)",
    409: "another writer took the seq (`?seq=`), the match exists already, or a request with the key was cut short",
    413: "a body larger than 1 MiB",
    415: "a Content-Type not taken here",
    422: "a line or a value refused (the recorder's message), the match full, an Idempotency-Key sent with another "
    "request, a seq past 2^63 - 1",
    429: "more writes a second with this token than the server's --rate, or more events over time "
    "(`Retry-After`: the seconds to wait)",
}
_ERROR_BODY = {"application/json": {"schema": {"type": "object", "properties": {"error": {"type": "string"}}}}}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route's OpenAPI operation: what each of its error ``statuses`` says."""
    return {status: {"description": ERRORS[status], "content": _ERROR_BODY} for status in statuses}


def bearer(request: Request) -> str | None:
    """The token of the ``Authorization: Bearer`` header, or None."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def unauthorized(message: str) -> HTTPException:
    return HTTPException(401, message, headers={"WWW-Authenticate": 'Bearer realm="dominolog"'})


def writer(
    request: Request, store: Store, match_id: str | None, what: str = "creates a match", found: Token | None = None
) -> Token:
    """The token allowed to write to ``match_id`` (None: what only the organiser does, ``what``), or
    the HTTP error saying why not. ``found``: the request's token as :func:`write_target` read it in
    the same transaction (not read again)."""
    given = bearer(request)
    if given is None:
        raise unauthorized("a write needs a token: Authorization: Bearer TOKEN (dominolog token create)")
    token = found if found is not None else store.find_token(given)
    if token is None:
        raise unauthorized("the token is not known here")
    if not token.active:
        raise unauthorized("the token was revoked")
    if token.role == "organiser":
        return token
    if token.role == "viewer":
        raise HTTPException(403, "a viewing key reads only: it never writes")
    if match_id is None:
        raise HTTPException(403, f"only the organiser's token {what}")
    if token.match_id != match_id:
        raise HTTPException(403, "this table's token writes to its own match only")
    return token


@dataclass(frozen=True, slots=True)
class Sight:
    """What one request may read: its key's token (None: no key), the private events, and the key
    when it came as ``?key=`` (a page carries it into its links, part and stream)."""

    token: Token | None
    private: frozenset[str]
    page_key: str | None = None

    def sees(self, match_id: str, event: str | None) -> bool:
        """Whether the match (of the club event ``event``) may be read."""
        if EVERY_EVENT not in self.private and (event is None or event not in self.private):
            return True
        t = self.token
        if t is None:
            return False
        if t.role == "organiser":
            return True
        if t.role == "table":
            return t.match_id == match_id
        return t.role == "viewer" and (t.match_id is None or t.match_id == event)

    def mark(self, store: Store) -> str:
        """The store's mark as this reader sees it: a private match it may not read moves nothing of it."""
        if not self.private:
            return store.mark()
        return store.mark(lambda match_id, meta: self.sees(match_id, event_in(meta)))

    def rows(self, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows (of ``matches``: ``id`` and ``meta``) this request may read."""
        return [r for r in rows if self.sees(r["id"], event_in(r.get("meta")))]

    def match(self, store: Store, match_id: str) -> None:
        """``404`` unless the match is stored and may be read (a private one is not confirmed)."""
        if not store.has_match(match_id) or not self.sees(match_id, store.event_of(match_id)):
            raise HTTPException(404, "no such match")

    def keyed(self, url: str) -> str:
        """``url`` with the page's ``?key=`` (a link, a part or a stream of a page opened with one)."""
        if self.page_key is None:
            return url
        return f"{url}{'&' if '?' in url else '?'}key={quote(self.page_key, safe='')}"


def sight(request: Request, store: Store) -> Sight:
    """What the request may read (:class:`Sight`): the one check of every read route. A key given
    (``Authorization: Bearer``, else ``?key=``) that the store does not know, or that was revoked,
    is ``401``; no key reads the public matches."""
    page_key = request.query_params.get("key") or None
    given = bearer(request) or page_key
    private = frozenset(store.private_events())
    if given is None:
        return Sight(None, private)
    token = store.find_token(given)
    if token is None:
        raise unauthorized("the key is not known here")
    if not token.active:
        raise unauthorized("the key was revoked")
    if given is page_key and token.role != "viewer":  # (an address is kept in histories and logs)
        raise unauthorized("only a viewing key goes in an address (?key=): send a token that writes as Bearer")
    return Sight(token, private, page_key if bearer(request) is None else None)


def write_target(request: Request, store: Store, match_id: str, appending: bool = False) -> Token | None:
    """``404`` for a write to a match not stored (for everyone: the organiser begins a match, ``POST
    /api/matches``), or to a private one the request may not read (:meth:`Sight.sees`; a wrong or
    revoked token counts as none here, so that no status tells a private match from a missing one);
    who may write is :func:`writer`'s, after this (given the token read here: ``found``). ``appending``:
    the write appends to the match in this transaction (with PostgreSQL its lock goes with this read)."""
    view = store.write_view(match_id, bearer(request), appending)  # (with PostgreSQL, one round trip)
    if not view.stored:
        raise HTTPException(404, "no such match")
    token = view.token
    if view.private:  # (with no private event every match may be read)
        seen = Sight(token if token is not None and token.active else None, view.private)
        if not seen.sees(match_id, view.event):
            raise HTTPException(404, "no such match")
    return token


#: how many seconds of events at the rate a token may send at once (a whole match sent again after a
#: lost connection is one request): the bucket's size, ``--rate`` times this
BURST_SECONDS = 50


class Rate:
    """At most ``per_second`` writes a second per token (a sliding window of one second), and at most
    ``per_second`` events a second over time: a write of events counts as many as it stores (its lines;
    any other write: one), taken from a bucket of ``per_second * BURST_SECONDS`` events that fills again
    at ``per_second`` a second. A request is taken while the bucket is not empty, and then takes its
    events from it, going into debt when it holds more than is left; the token's writes are ``429``
    until the debt is paid (``Retry-After``: the seconds that takes). So a table sending a hundred
    events a request stores no more a second, over time, than one sending one. Counted in this server
    process: with ``--workers N`` a token may make N times as many."""

    def __init__(self, per_second: int = RATE) -> None:
        self.per_second = per_second
        self.burst = float(per_second * BURST_SECONDS)
        self._seen: dict[str, deque[float]] = {}
        #: each token's bucket of events: what it holds, and when that was (monotonic seconds)
        self._level: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _now_level(self, token_id: str, now: float) -> float:
        level, then = self._level.get(token_id, (self.burst, now))
        return min(self.burst, level + (now - then) * self.per_second)

    def check(self, token_id: str, request: object = None) -> None:
        """Take one write by the token (one event), or ``429``. ``request`` (its ``state``): a write run
        again in the same request (undone because a lock was held elsewhere: ``Busy``) is counted once."""
        if request is not None and getattr(request, "rate_checked", False):
            return
        now = time.monotonic()
        with self._lock:
            seen = self._seen.setdefault(token_id, deque())
            while seen and now - seen[0] >= 1.0:
                seen.popleft()
            if len(seen) >= self.per_second:
                raise HTTPException(
                    429,
                    f"more than {self.per_second} writes a second with this token: slow down",
                    headers={"Retry-After": "1"},
                )
            level = self._now_level(token_id, now)
            if level < 1.0:
                wait = max(1, math.ceil((1.0 - level) / self.per_second))
                raise HTTPException(
                    429,
                    f"more than {self.per_second} events a second with this token: slow down",
                    headers={"Retry-After": str(wait)},
                )
            seen.append(now)
            self._level[token_id] = (level - 1.0, now)
        if request is not None:
            request.rate_checked = True  # type: ignore[attr-defined]

    def charge(self, token_id: str, events: int, request: object = None) -> None:
        """Take ``events`` more from the token's bucket (the rest of a request's events, once counted;
        ``request``: as for :meth:`check`, once a request)."""
        if events <= 0 or (request is not None and getattr(request, "rate_charged", False)):
            return
        now = time.monotonic()
        with self._lock:
            self._level[token_id] = (self._now_level(token_id, now) - events, now)
        if request is not None:
            request.rate_charged = True  # type: ignore[attr-defined]
