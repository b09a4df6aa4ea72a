"""What the server's parts share: its settings (the security headers, the largest body) and
:class:`Web`, the store, the poller and the rate of writes every route reaches. The app
(:mod:`dominolog.web.app`) builds it; the routes (:mod:`dominolog.web.api`, :mod:`dominolog.web.pages`)
use it: so neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request

from dominolog.web.auth import RATE, Rate
from dominolog.web.rendered import Kept, Once, Rendered
from dominolog.web.stores import PG_WRITERS, Poller, Stores

#: the largest request body taken (bytes)
MAX_BODY = 1 << 20
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


def inline_csp(page: str) -> str:
    """The policy for a page the CLI writes whole (its style sheet and script inline): :data:`CSP`
    with the hash of each inline ``<style>`` and ``<script>`` block, nothing else allowed inline."""
    import base64
    import hashlib
    import re

    def hashes(tag: str) -> str:
        found = re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)
        return "".join(f" 'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in found)

    return CSP.replace("style-src 'self'", f"style-src 'self'{hashes('style')}").replace(
        "script-src 'self'", f"script-src 'self'{hashes('script')}"
    )


@dataclass
class Web:
    """What the routes share: the store (a connection per thread), the poller, the rate of writes."""

    target: str
    rate_per_second: int = RATE
    #: the address the server is reached at (``dominolog serve``'s host and port: the table cards'), or
    #: None (an app made without one: the address each request came to)
    url: str | None = None
    stores: Stores = field(init=False)
    poller: Poller = field(init=False)
    rate: Rate = field(init=False)
    #: the live parts rendered at the store's mark, shared among the requests for them; the matches'
    #: summaries (the standings') and pictures (``/tables``) by head
    rendered: Rendered = field(init=False)
    kept: Kept = field(init=False)
    #: what the board streams tell at each move, asked of the store once per key and move
    board: Once = field(init=False)

    def __post_init__(self) -> None:
        from dominolog.store.target import is_url

        self.stores = Stores(self.target, one_writer=True, writers=PG_WRITERS if is_url(self.target) else 1)
        self.poller = Poller(self.stores)
        self.rate = Rate(self.rate_per_second)
        self.rendered = Rendered()
        self.kept = Kept()
        self.board = Once()


async def web(request: Request) -> Web:
    """What the routes share (:class:`Web`), as the app keeps it (``async``: no worker thread for it)."""
    return request.app.state.web  # type: ignore[no-any-return]


#: a route's :class:`Web`: the one way a route reaches the store (``await app.stores.run(work)`` to read,
#: ``await app.stores.write(work)`` to write; tests/test_web_routes.py keeps every route to it)
WebState = Annotated[Web, Depends(web)]
