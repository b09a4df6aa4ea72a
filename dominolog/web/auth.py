"""Who may write: a bearer token (``Authorization: Bearer TOKEN``, never a cookie, so no CSRF surface),
looked up in the store by its hash (:mod:`dominolog.store.access`), and how often a token may write.

- no token, a token the store does not know, or a revoked one: ``401``;
- a table's token on another match, or on an organiser's endpoint (a new match): ``403``;
- the organiser's token: every write.

Spectators need no token: reading is open.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import TYPE_CHECKING

from fastapi import HTTPException, Request

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.store.access import Token

#: writes a token may make per second by default (a fast table enters a play in about a second;
#: a burst of a whole hand sent again after a lost connection is one request of many lines)
RATE = 20


def bearer(request: Request) -> str | None:
    """The token of the ``Authorization: Bearer`` header, or None."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def unauthorized(message: str) -> HTTPException:
    return HTTPException(401, message, headers={"WWW-Authenticate": 'Bearer realm="dominolog"'})


def writer(request: Request, store: Store, match_id: str | None, what: str = "creates a match") -> Token:
    """The token allowed to write to ``match_id`` (None: what only the organiser does, ``what``), or
    the HTTP error saying why not."""
    given = bearer(request)
    if given is None:
        raise unauthorized("a write needs a token: Authorization: Bearer TOKEN (dominolog token create)")
    token = store.find_token(given)
    if token is None:
        raise unauthorized("the token is not known here")
    if not token.active:
        raise unauthorized("the token was revoked")
    if token.role == "organiser":
        return token
    if match_id is None:
        raise HTTPException(403, f"only the organiser's token {what}")
    if token.match_id != match_id:
        raise HTTPException(403, "this table's token writes to its own match only")
    return token


class Rate:
    """At most ``per_second`` writes a second per token (a sliding window of one second): ``429``."""

    def __init__(self, per_second: int = RATE) -> None:
        self.per_second = per_second
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, token_id: str) -> None:
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
            seen.append(now)
