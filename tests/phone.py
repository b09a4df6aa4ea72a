"""Headless Chromium as a phone for the recorder's tests (tests/test_web_recorder.py): 360 x 640 CSS px,
touch emulation, taps sent as touch events through the DevTools protocol, offline through its network
emulation."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.webserver import browser


class Phone:
    """Headless Chromium as a phone: 360 x 640 CSS px, touch, taps sent as touch events (CDP)."""

    def __init__(self, tmp_path: Path, name: str = "phone") -> None:
        (tmp_path / name).mkdir(exist_ok=True)
        self.driver = browser(tmp_path / name, phone=True)
        self.driver.set_page_load_timeout(20)

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


def _listed(phone: Phone, seq: int) -> None:
    phone.settled()
    listed = f"return !!document.querySelector('#events [data-seq=\"{seq}\"]')"
    phone.wait(lambda: phone.js(listed), f"seq {seq} listed")


def _shown(phone: Phone, css: str) -> bool:
    return bool(phone.js("var n = document.querySelector(arguments[0]); return !!n && !n.closest('[hidden]')", css))


def record_by_taps(phone: Phone, events: list[dict[str, Any]], seq: int) -> list[dict[str, Any]]:
    """Record ``events`` (a simulated match as seen at the table, without its ``match_start``) by taps
    alone, the first to get ``seq``; the events the server should then hold from ``seq`` on: each as
    simulated, but a deal without the ``dealer`` the rules name, each hand's end after its agreement note
    (agreed), no reveal the rules did not ask for (they could give the result without it), and a hand whose
    first tile the log wrote high end first as its mirror (the pad lays it low end left: its ``left``
    and ``right`` swapped, as the recorder taps the ends of the page's picture)."""
    expected: list[dict[str, Any]] = []
    mirrored = False
    for simulated in events:
        event = dict(simulated)
        if event["type"] == "deal":
            mirrored = False
        elif event["type"] == "play" and "tile" in event and "end" not in event and _first(expected):
            a, b = event["tile"].split("-")
            mirrored = a > b  # the pad lays a hand's first tile low end left: the line is the mirror of the log's
            event["tile"] = f"{min(a, b)}-{max(a, b)}"
        elif mirrored and event["type"] == "play" and event.get("end") in ("left", "right"):
            event["end"] = {"left": "right", "right": "left"}[event["end"]]
        try:
            seq = _record_one(phone, event, seq, expected)
        except AssertionError as exc:
            refused = phone.text("#queue")
            said = f"at seq {seq} recording {event}; prompt {phone.text('#prompt')!r}; {refused}"
            raise AssertionError(f"{exc}; {said}") from exc
    return expected


def _record_one(phone: Phone, event: dict[str, Any], seq: int, expected: list[dict[str, Any]]) -> int:
    """Record one event by taps (see :func:`record_by_taps`); the next seq."""
    if True:
        kind = event["type"]
        bare = {k: v for k, v in event.items() if k not in ("seq", "hash", "at")}
        if kind == "deal":
            phone.wait(lambda: _shown(phone, "#offer [data-action]"), "the deal's buttons")
            offered = phone.text('#offer [data-action="offer"]')
            if offered == f"deal, {event['leader']} leads" and "start_tile" not in event:
                phone.tap('#offer [data-action="offer"]')
            else:
                phone.tap(f'#offer [data-action="deal"][data-leader="{event["leader"]}"]')
                if "start_tile" in event:
                    phone.tap(f'button[data-tile="{event["start_tile"]}"]')
            bare.pop("dealer", None)
        elif kind == "play" and "tiles" in event:
            phone.tap('[data-action="pair"]')
            for tile in event["tiles"]:
                phone.tap(f'button[data-tile="{tile}"]')
        elif kind in ("play", "pass"):
            tap_event(phone, event, seq)
        elif kind == "draw":
            assert event["tile"] is None, event
            phone.tap('[data-action="draw"]')
            time.sleep(0.05)
            if _shown(phone, '#places [data-draw="unseen"]'):
                phone.tap('#places [data-draw="unseen"]')
        elif kind == "declare":
            phone.tap(f'[data-action="declare"][data-suit="{event["suit"]}"]')
        elif kind == "block_call":
            phone.tap('[data-action="block"]')  # it ends the hand: asked once
            phone.wait(lambda: "ends the hand" in phone.text('[data-action="block"]'), "block asked again")
            phone.tap('[data-action="block"]')
        elif kind == "reveal":
            player = event["player"]
            asked = f"{player}'s tiles"

            def ready(asked: str = asked) -> bool:
                if asked in phone.text("#places") or _shown(phone, "#agreement") or _shown(phone, "#offer button"):
                    return True
                return phone.root("state") == "idle" and phone.js(
                    "return !document.querySelector('[data-action=\"reveal\"]').disabled"
                )

            # at a hand's end the pad takes the reveal at once; a hand the rules cannot call over is
            # called so by the offer, "hand over: reveal the tiles", asked once
            phone.wait(ready, f"the hand's end ({player}'s reveal)")
            if _shown(phone, "#agreement"):
                return seq  # the rules give the result without it
            if asked not in phone.text("#places"):
                # the offer where the rules say the hand may be over; else the table says so with reveal
                button = '#offer [data-action="offer"]' if _shown(phone, "#offer button") else '[data-action="reveal"]'
                phone.tap(button)
                phone.wait(lambda: "tap again" in phone.text(button), "the hand's end asked")
                phone.tap(button)
            phone.wait(lambda asked=asked: asked in phone.text("#places"), f"{player}'s reveal asked")
            assert "Enter" not in phone.text("#recorder"), phone.text("#prompt")  # no terminal wording
            for tile in event["tiles"]:
                phone.tap(f'button[data-tile="{tile}"]')
            phone.tap('#places [data-reveal="send"]')
        elif kind == "hand_end":
            phone.wait(lambda: _shown(phone, "#agreement"), "the agreement")
            player = phone.js("return document.getElementById('agreement-text').textContent.split('. ').pop()")
            player = str(player).removesuffix(", do you agree?")
            phone.tap('[data-action="agree"]')
            points = ", ".join(f"{p} {n}" for p, n in event["points"].items())
            expected.append({"type": "note", "player": player, "text": f"agrees: hand {_hands(expected)}: {points}"})
            seq += 1
        elif kind == "match_end":
            phone.wait(lambda: phone.text('#offer [data-action="offer"]') == "end the match", "the match's end")
            phone.tap('#offer [data-action="offer"]')
        else:
            raise AssertionError(f"no tap records {kind}")
        expected.append(bare)
        _listed(phone, seq)
        return seq + 1


def _first(expected: list[dict[str, Any]]) -> bool:
    """No tile played yet in the hand the last deal of ``expected`` began."""
    for e in reversed(expected):
        if e["type"] == "deal":
            return True
        if e["type"] == "play":
            return False
    return True


def _hands(expected: list[dict[str, Any]]) -> int:
    return sum(1 for e in expected if e["type"] == "deal")
