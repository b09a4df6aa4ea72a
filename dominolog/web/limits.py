"""What a request's head may take of the server: at most :data:`MAX_HEAD` bytes (the request line and
its headers), read within :data:`HEAD_SECONDS` of its first byte (or of the connection, for the first
request). uvicorn's HTTP parser (httptools) has neither limit: :class:`GuardedHttp` is its protocol with
them, given to ``uvicorn.run(http=...)`` by ``dominolog serve``.

A head too large is answered ``431`` and the connection closed; a head not read in time is answered
``408`` and the connection closed (a socket that trickles its headers holds no file descriptor for
long). Each is said in the server's log once, with the client's address.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: the largest request head taken (the request line and its headers, bytes)
MAX_HEAD = 64 * 1024
#: how long a request's head may take to arrive (seconds)
HEAD_SECONDS = 10.0

_log = logging.getLogger("dominolog.serve")
_REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a limit on the size of a request's head and on the time it
    takes to arrive."""

    max_head = MAX_HEAD
    head_seconds = HEAD_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0
        self._ends = 0  # (the heads and the requests read whole on this connection)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head and self._head_timer is None:
            self._arm()  # (a keep-alive connection's next request: its head from its first byte)
        ends = self._ends
        super().data_received(data)
        # bytes of a head still incomplete (a chunk that ended a head or a request is not counted: it
        # may hold a body; the next request's head begun in it is counted from its next chunk)
        if self._in_head and ends == self._ends and self.transport is not None and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > self.max_head:
                self._refuse(431, f"the request's head (its line and headers) is larger than {self.max_head} bytes")

    def on_headers_complete(self) -> None:
        self._in_head, self._head_bytes = False, 0
        self._ends += 1
        self._disarm()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._ends += 1
        self._in_head = True  # (what comes next is the next request's head)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.head_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        waiting = self._head_bytes or self.cycle is None or self.cycle.response_complete
        if self._in_head and waiting and self.transport is not None and not self.transport.is_closing():
            self._refuse(408, f"the request's head did not arrive within {self.head_seconds:g} s")

    def _refuse(self, status: int, why: str) -> None:
        """Answer ``status`` with ``{"error": why}`` and close the connection."""
        self._disarm()
        client = "%s:%d" % self.client if self.client else "a client"  # noqa: UP031
        _log.warning("%s: %s: connection closed", client, why)
        body = json.dumps({"error": why}).encode()
        head = b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])
        self.transport.write(
            head
            + b"content-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n" % len(body)
            + body
        )
        self.transport.close()
