"""``dominolog serve`` as a user runs it: the installed console script, a subprocess on a free loopback
port, waited for (bounded) and always stopped (:class:`Server`, a context manager)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import clean_env, console_script

START_SECONDS = 15.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``dominolog serve --db DB --port PORT ARGS`` in ``cwd``; ``url``, the ``organiser`` token it
    printed (None when the store had one), ``client`` (httpx)."""

    def __init__(self, db: str | Path, cwd: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.db, self.cwd, self.args = str(db), cwd, args
        self.env = env if env is not None else clean_env()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.organiser: str | None = None
        self.out = ""

    def start(self) -> Server:
        out = self.cwd / f"serve-{self.port}.out"
        self._out = open(out, "wb")  # noqa: SIM115 (closed in stop)
        self._out_path = out
        argv = [console_script(), "serve", "--db", self.db, "--port", str(self.port), *self.args]
        self.proc = subprocess.Popen(
            argv, cwd=self.cwd, env=self.env, stdout=self._out, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve stopped at start: {out.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/matches", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            self.stop()
            raise RuntimeError(f"serve did not answer within {START_SECONDS} s: {out.read_text()}")
        self.out = out.read_text()
        for line in self.out.splitlines():
            if line.startswith("the organiser's token"):
                self.organiser = line.rsplit(" ", 1)[-1]
        self.client = httpx.Client(base_url=self.url, timeout=10)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        if hasattr(self, "client"):
            self.client.close()
        if hasattr(self, "_out"):
            self._out.close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def auth(self, token: str | None) -> dict[str, str]:
        return {} if token is None else {"Authorization": f"Bearer {token}"}
