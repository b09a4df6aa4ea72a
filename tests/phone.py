"""Headless Chromium as a phone for the recorder's tests (tests/test_web_recorder.py): 360 x 640 CSS px,
touch emulation, taps sent as touch events through the DevTools protocol, offline through its network
emulation."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.test_audit_html import _driver


class Phone:
    """Headless Chromium as a phone: 360 x 640 CSS px, touch, taps sent as touch events (CDP)."""

    def __init__(self, tmp_path: Path, name: str = "phone") -> None:
        (tmp_path / name).mkdir(exist_ok=True)
        self.driver = _driver(tmp_path / name)
        self.driver.set_page_load_timeout(20)
        self.cdp("Emulation.setDeviceMetricsOverride", width=360, height=640, deviceScaleFactor=2, mobile=True)
        self.cdp("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
        self.cdp("Network.enable")

    def cdp(self, command: str, **args: Any) -> Any:
        return self.driver.execute_cdp_cmd(command, args)

    def open(self, url: str) -> None:
        self.driver.get(url)
        self.wait(lambda: self.js("return !!document.querySelector('#prompt').textContent"), "the page's state")

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def wait(self, ok: Callable[[], Any], what: str, seconds: float = 10.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ok():
                return
            time.sleep(0.03)
        state, banner = self.root("state"), self.text("#banner")
        raise AssertionError(f"timed out waiting for {what}; state {state}, banner {banner!r}")

    def root(self, name: str) -> str:
        return str(self.js(f"return document.getElementById('recorder').dataset.{name}"))

    def text(self, css: str) -> str:
        return str(self.js("var n = document.querySelector(arguments[0]); return n ? n.textContent : ''", css))

    def tap(self, css: str) -> None:
        """A finger's tap in the middle of the element (scrolled into view), through the DevTools protocol."""
        self.wait(
            lambda: self.js("var b = document.querySelector(arguments[0]); return !!b && !b.disabled", css),
            f"{css} to be active",
        )
        x, y = self.js(
            "var b = document.querySelector(arguments[0]); b.scrollIntoView({block: 'center'});"
            "var r = b.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
            css,
        )
        point = [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 1}]
        self.cdp("Input.dispatchTouchEvent", type="touchStart", touchPoints=point)
        self.cdp("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def settled(self) -> None:
        self.wait(lambda: self.root("state") == "idle" and self.root("pending") == "0", "every entry stored", 20.0)

    def offline(self, off: bool) -> None:
        self.cdp("Network.emulateNetworkConditions", offline=off, latency=0, downloadThroughput=-1, uploadThroughput=-1)

    def csp_violations(self) -> list[str]:
        return [e["message"] for e in self.driver.get_log("browser") if "Content Security Policy" in e["message"]]

    def quit(self) -> None:
        self.driver.quit()


def tap_event(phone: Phone, event: dict[str, Any], seq: int) -> int:
    """Record one event of the simulated hand by taps; the taps it took."""
    if event["type"] == "pass":
        phone.tap('[data-action="pass"]')
        taps = 1
    else:
        tile = event["tile"]
        phone.tap(f'button[data-tile="{tile}"]')
        taps = 1
        time.sleep(0.05)
        if phone.js("return document.querySelectorAll('#places [data-place]').length"):
            phone.tap(f'#places [data-place="{event["end"]}"]')
            taps = 2
    phone.wait(lambda: phone.root("pending") == "0" and phone.root("state") == "idle", f"event {seq} stored")
    listed = f"return !!document.querySelector('#events [data-seq=\"{seq}\"]')"
    phone.wait(lambda: phone.js(listed), f"seq {seq} listed")
    return taps
