"""``dominolog serve`` as a user runs it, for the tests: :class:`tests.serving.Served` (the installed
console script, a subprocess on a free loopback port, waited for and always stopped) with an httpx
``client`` on it, and the browser that looks at it; a failure of the test, saying why, when either
cannot start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serving import START_SECONDS, Served, chromium, free_port

__all__ = ["START_SECONDS", "Server", "browser", "free_port"]


def browser(tmp_path: Path, *, phone: bool = False) -> Any:
    """Debian's headless Chromium through its own chromedriver (:func:`tests.serving.chromium`: nothing
    downloaded; ``phone``: a phone's screen and touch), or a failure of the test saying what to install."""
    try:
        return chromium(tmp_path, phone=phone)
    except RuntimeError as exc:
        pytest.fail(str(exc))


class Server(Served):
    """``dominolog serve --db DB --port PORT ARGS`` in ``cwd``; ``url``, the ``organiser`` token it
    printed (None when the store had one), ``client`` (httpx)."""

    def __init__(
        self, db: str | Path, cwd: Path, *args: str, env: dict[str, str] | None = None, port: int | None = None
    ) -> None:
        super().__init__(db, cwd, *args, env=env, port=port)
        self.client: httpx.Client

    def start(self) -> Server:
        try:
            super().start()
        except RuntimeError as exc:
            pytest.fail(str(exc))
        self.client = httpx.Client(base_url=self.url, timeout=10)
        return self

    def stop(self) -> None:
        super().stop()
        if hasattr(self, "client"):
            self.client.close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def auth(self, token: str | None) -> dict[str, str]:
        return {} if token is None else {"Authorization": f"Bearer {token}"}
