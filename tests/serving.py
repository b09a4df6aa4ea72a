"""``dominolog serve`` as a user runs it, and Debian's headless Chromium to look at what it serves: shared by
the tests (tests/webserver.py, tests/phone.py, tests/doc_examples.py) and the bench (bench/bench_serve.py,
bench/bench_phone.py put the checkout on ``sys.path`` for it, as bench/bench_pg.py does for
tests/pgserver.py).

No pytest here and nothing of dominolog imported (the server is the installed console script): what cannot
be had is a :class:`RuntimeError` saying what to install, which a test turns into a failure and a bench
script into its exit message.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

START_SECONDS = 20.0
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: how to get the browser on Debian or Ubuntu (what .ci/run does)
INSTALL_CHROMIUM = "apt-get install chromium chromium-driver"


def free_port() -> int:
    """A TCP port free on the loopback address now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def console_script() -> str:
    """The installed ``dominolog`` console script beside this Python; RuntimeError saying how to install it."""
    found = shutil.which("dominolog", path=str(Path(sys.executable).parent))
    if found is None:
        raise RuntimeError(f"the dominolog console script is not installed beside {sys.executable}: pip install .")
    return found


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a run of the console script: no DOMINOLOG_* from the developer's shell."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINOLOG_")}
    env.update(extra)
    return env


class Served:
    """``dominolog serve --db DB --port PORT ARGS`` in ``cwd``, a subprocess of its own session on a free
    loopback port: :meth:`start` waits (bounded) until ``/api/matches`` answers, :meth:`stop` always ends it
    (its workers too). ``url``; ``organiser``, the organiser's token it printed (None when the store had
    one already); ``out``, what it printed at start. ``command``: what runs ``dominolog`` (the installed
    console script; a bench runs a checkout's code as ``python -c ...``)."""

    def __init__(
        self,
        db: str | Path,
        cwd: Path,
        *args: str,
        env: dict[str, str] | None = None,
        port: int | None = None,
        command: list[str] | None = None,
    ) -> None:
        self.db, self.cwd, self.args = str(db), Path(cwd), args
        self.command = command
        self.env = env if env is not None else clean_env()
        self.port = port if port is not None else free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.organiser: str | None = None
        self.out = ""
        self.out_path = self.cwd / f"serve-{self.port}.out"

    def start(self) -> Served:
        argv = [*(self.command or [console_script()]), "serve", "--db", self.db, "--port", str(self.port), *self.args]
        with open(self.out_path, "wb") as out:
            self.proc = subprocess.Popen(
                argv, cwd=self.cwd, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve stopped at start (exit {self.proc.returncode}): {self.out_path.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/matches", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            self.stop()
            raise RuntimeError(f"serve did not answer within {START_SECONDS:g} s: {self.out_path.read_text()}")
        self.out = self.out_path.read_text()
        for line in self.out.splitlines():
            if line.startswith("the organiser's token"):
                self.organiser = line.rsplit(" ", 1)[-1]
        return self

    def stop(self) -> None:
        """SIGTERM to the server's process group (its workers too), SIGKILL if it has not ended in 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def __enter__(self) -> Served:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def chromium(profile: Path, *, phone: bool = False, extra: tuple[str, ...] = ()) -> Any:
    """Debian's headless Chromium through its own chromedriver (nothing downloaded), its profile in
    ``profile``, the browser console logged; with ``phone`` a phone's screen (360 x 640 CSS px, touch) and
    the network domain on (for its emulation); ``extra`` command-line switches added (the screenshots'
    ``--hide-scrollbars``). RuntimeError saying what to install when it cannot start."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise RuntimeError("selenium is not installed: pip install '.[test]' (it needs selenium>=4.20)") from None
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        raise RuntimeError(f"{' and '.join(missing)} not found: it needs Debian's Chromium ({INSTALL_CHROMIUM})")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        f"--user-data-dir={profile / 'chromium-profile'}",
        *extra,
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    if phone:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 360, "height": 640, "deviceScaleFactor": 2, "mobile": True}
        )
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        driver.execute_cdp_cmd("Network.enable", {})
    return driver
