"""The phone recorder (issue 27, section 3), measured:

- **touches** of the recorder page over whole hands of each variant, hands hidden (as a table recorder
  sees them: ``simulate.hide_match``), against the **keys** of the terminal recorder for the same hands.
  Counted from the recording layer's own answers, as the page uses them (``tests/test_bench_phone.py``
  checks the count against the page's taps in Chromium): a tile that fits one place
  (``recording.pad.tile_places``) is one tap, several places two; a pass or a
  declaration one; an unseen draw two (draw, then "unseen", as the pad also offers each tile to draw);
  a pair play the pair button and its two tiles; the deal one (the prompt's offer, or the leader's
  button when the rules name none; one more for a tile turned up); a reveal its tiles and "reveal" (the pad
  takes it at once at a hand's end; two taps more where the table calls the hand over, "hand over", asked
  once; none when the rules give the result without it); a block call two (it ends the hand: asked
  once); the hand end one (the opponent's "agree"). The terminal's keys, as a person types them there:
  a tile's two digits and Enter (the tile alone goes in where it fits one place; where several, the
  place's key after), a pair play's two tiles and Enter, other turns' notation with the name left out
  (``-``, ``+?``) and Enter, an empty Enter where the prompt offers the event (deal, hand end, match end,
  a reveal the rules do not need), a reveal's tiles and Enter;
- **tap to recorded** (``--taps``, needs Chromium): on loopback, the time from a tap on a tile to its
  entry listed with its ``data-seq`` (recorded, not pending), over a hand; median, p95;
- **page weight** of ``/m/{id}/record``: bytes and requests (and that none leaves the server), and the
  **first render** under Chromium's network throttling (``--latency`` ms, ``--down`` kbit/s, as its
  "Slow 3G"; cache off): from navigation to the page's first contentful paint and to its state drawn.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from dominolog.log.notation_write import format_event
from dominolog.recording.journal import StoreJournal
from dominolog.recording.pad import tile_places
from dominolog.recording.prompt import Flow, expect
from dominolog.recording.session import Session
from dominolog.simulate import hide_match, simulate_match
from dominolog.store import open_store

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout: tests/serving.py
from tests.serving import Served, chromium

VARIANTS = ("ghost13", "brettspielnetz", "39", "double-bergen", "double-draw")
NOW = "2026-11-27T20:00:00Z"


def _bare(e: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in e.items() if k not in ("seq", "hash", "at")}


def _offered(session: Session, event: dict[str, Any]) -> bool:
    default = expect(session, Flow()).default
    return default is not None and all(default.get(k) == v for k, v in _bare(event).items() if k != "hands")


def costs(session: Session, event: dict[str, Any], called: set[int] | None = None) -> tuple[int, int]:
    """(the page's taps, the terminal's keys) to record ``event`` at the point ``session`` is at;
    ``called``: the hands the table called over (the page's "hand over: reveal the tiles", asked once),
    kept by the caller from one event to the next."""
    called = set() if called is None else called
    kind = event["type"]
    typed = format_event(event, session.on_move) or ""
    if kind == "deal":
        taps = 1 + ("start_tile" in event)
        keys = 1 if _offered(session, event) else len(format_event(event, None, session.next_leader()) or "") + 1
        return taps, keys
    if kind == "play" and "tiles" in event:  # a pair play: "26 44" and Enter
        return 1 + len(event["tiles"]), 3 * len(event["tiles"])
    if kind == "play":  # the tile alone goes in where it fits one place; else its place is picked by a key
        places = tile_places(session, event["tile"])
        return (2, 4) if len(places) > 1 else (1, 3)
    if kind in ("pass", "declare"):
        return 1, len(typed) + 1
    if kind == "block_call":  # it ends the hand: asked once, "tap again"
        return 2, len(typed) + 1
    if kind == "draw":
        return 2, len(typed) + 1
    if kind == "reveal":
        if session.outcome() is not None:  # the rules give the result without it
            return 0, 1
        digits = len(" ".join(t.replace("-", "") for t in event["tiles"]))
        hand = session.reducer.hand
        # the hand over by the rules, or called over already: the pad takes the reveal at once (its tiles,
        # then "reveal"); else the table calls it over first (the offer, and "tap again")
        over = hand is not None and (hand.over is not None or hand.number in called)
        if hand is not None:
            called.add(hand.number)
        return (0 if over else 2) + len(event["tiles"]) + 1, digits + 1
    if kind in ("hand_end", "match_end"):
        return 1, 1 if _offered(session, event) else len(typed) + 1
    raise ValueError(f"no tap records {kind}")


def count_match(variant: str, seed: int, folder: Path, hands: int) -> dict[str, list[int]]:
    """Taps and keys per event of the first ``hands`` hands of a simulated, hidden match."""
    events = hide_match(simulate_match(variant, seed))
    store = open_store(folder / f"{variant}-{seed}.db")
    session = Session(StoreJournal(store, f"{variant}-{seed}"), now=lambda: NOW)
    out: dict[str, list[int]] = {"play_taps": [], "play_keys": [], "hand_taps": [], "hand_keys": []}
    hand_taps = hand_keys = done = 0
    called: set[int] = set()
    for e in events:
        if e["type"] == "match_start":
            start = Session.start_event({**_bare(e), "id": f"{variant}-{seed}"})
            assert session.enter_event(start).ok
            continue
        if e["type"] == "note":
            continue
        if e["type"] == "match_end" or done >= hands:
            break
        taps, keys = costs(session, e, called)
        hand_taps, hand_keys = hand_taps + taps, hand_keys + keys
        if e["type"] == "play":
            out["play_taps"].append(taps)
            out["play_keys"].append(keys)
        entered = session.enter_event(_bare(e))
        assert entered.ok, (variant, e, entered.stopped)
        if e["type"] == "hand_end":
            out["hand_taps"].append(hand_taps)
            out["hand_keys"].append(hand_keys)
            hand_taps = hand_keys = 0
            done += 1
    store.close()
    return out


def touches(seeds: int, hands: int, folder: Path) -> None:
    print(f"touches per play, hands hidden ({seeds} simulated matches per variant, first {hands} hand(s) of each)")
    head = f"{'variant':15} {'plays':>6} {'taps/play med':>13} {'max':>4} {'2-tap %':>8} {'keys/play med':>13}"
    print(head + f" {'taps/hand med':>13} {'keys/hand med':>13}")
    for variant in VARIANTS:
        got: dict[str, list[int]] = {"play_taps": [], "play_keys": [], "hand_taps": [], "hand_keys": []}
        for seed in range(1, seeds + 1):
            for k, v in count_match(variant, seed, folder, hands).items():
                got[k] += v
        pt, pk, ht, hk = got["play_taps"], got["play_keys"], got["hand_taps"], got["hand_keys"]
        two = 100 * sum(1 for t in pt if t == 2) / len(pt)
        print(
            f"{variant:15} {len(pt):6d} {statistics.median(pt):13g} {max(pt):4d} {two:7.1f}% "
            f"{statistics.median(pk):13g} {statistics.median(ht):13g} {statistics.median(hk):13g}"
        )


# -- the page in Chromium ---------------------------------------------------------------------------


class Serve(Served):
    """``dominolog serve`` from the installed console script on a free loopback port
    (tests/serving.py), with a client holding the organiser's token."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        super().__init__(folder / "phone.db", folder)
        try:
            self.start()
        except RuntimeError as exc:
            sys.exit(str(exc))
        assert self.organiser is not None, "a new store: serve prints the organiser's token"
        self.client = httpx.Client(base_url=self.url, timeout=30, headers={"Authorization": f"Bearer {self.organiser}"})

    def match(self, mid: str, events: list[dict[str, Any]]) -> str:
        """``events`` (the first a match_start) stored as match ``mid``; a table token for it."""
        lines = [json.dumps({**_bare(e), **({"id": mid} if e["type"] == "match_start" else {})}) for e in events]
        kind = {"Content-Type": "application/x-ndjson"}
        r = self.client.post("/api/matches", content=lines[0] + "\n", headers=kind)
        assert r.status_code == 201, r.text
        if lines[1:]:
            r = self.client.post(f"/api/matches/{mid}/events", content="\n".join(lines[1:]) + "\n", headers=kind)
            assert r.status_code == 201, r.text
        r = self.client.post("/api/tokens", json={"match": mid})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])

    def stop(self) -> None:
        super().stop()
        self.client.close()


def phone(folder: Path) -> Any:
    """Headless Chromium as a phone (360 x 640, touch), through Debian's chromedriver (tests/serving.py)."""
    try:
        return chromium(folder, phone=True)
    except RuntimeError as exc:
        sys.exit(str(exc))


def _wait(driver: Any, script: str, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if driver.execute_script(script):
            return
        time.sleep(0.01)
    sys.exit(f"timed out waiting for {what}")


def _tap(driver: Any, css: str) -> None:
    _wait(driver, f"var b = document.querySelector('{css}'); return !!b && !b.disabled", f"{css} active")
    x, y = driver.execute_script(
        "var b = document.querySelector(arguments[0]); b.scrollIntoView({block: 'center'});"
        "var r = b.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
        css,
    )
    point = [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 1}]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


#: in the page: the time of the last touch, and of each event listed with its data-seq (recorded)
WATCH = """
window.__taps = {touch: 0, listed: {}};
document.addEventListener('touchend', function () { window.__taps.touch = performance.now(); }, true);
new MutationObserver(function () {
  document.querySelectorAll('#events [data-seq]').forEach(function (li) {
    var s = li.dataset.seq;
    if (!(s in window.__taps.listed)) window.__taps.listed[s] = performance.now();
  });
}).observe(document.getElementById('events'), {childList: true, subtree: true});
"""


def tap_latency(folder: Path, plays: int) -> list[float]:
    """Milliseconds from the last tap of each turn of a hidden Ghost 13 hand to its entry listed as
    recorded (``#events [data-seq=N]``), on loopback."""
    events = hide_match(simulate_match("ghost13", 1))
    deal = next(i for i, e in enumerate(events) if e["type"] == "deal")
    s = Serve(folder)
    driver = phone(folder)
    times: list[float] = []
    try:
        token = s.match("bench-taps", events[: deal + 1])
        driver.get(f"{s.url}/m/bench-taps/record#token={token}")
        _wait(driver, f"return !!document.querySelector('#events [data-seq=\"{deal + 1}\"]')", "the page")
        driver.execute_script(WATCH)
        mirrored, seq = False, deal + 2
        for e in events[deal + 1 :]:
            if e["type"] not in ("play", "pass") or len(times) >= plays:
                break
            if e["type"] == "pass":
                _tap(driver, '[data-action="pass"]')
            else:
                tile, end = e["tile"], e.get("end")
                if end is None:  # the pad lays a hand's first tile low end left: the ends are the log's mirror
                    a, b = tile.split("-")
                    mirrored, tile = a > b, f"{min(a, b)}-{max(a, b)}"
                elif mirrored:
                    end = {"left": "right", "right": "left"}[end]
                _tap(driver, f'button[data-tile="{tile}"]')
                time.sleep(0.05)
                if driver.execute_script("return document.querySelectorAll('#places [data-place]').length"):
                    _tap(driver, f'#places [data-place="{end}"]')
            _wait(driver, f"return {seq} in window.__taps.listed", f"seq {seq} recorded")
            got = driver.execute_script(f"return window.__taps.listed[{seq}] - window.__taps.touch")
            times.append(float(got))
            seq += 1
    finally:
        driver.quit()
        s.stop()
    return times


def weight_and_render(folder: Path, latency: int, down: int, up: int) -> tuple[list[tuple[str, int]], dict[str, float]]:
    """A first visit of the recorder page (a fresh profile: no service worker yet; cache off) with the
    network throttled: its requests (address, bytes on the wire) and its first render (ms to the first
    contentful paint and, from the navigation's start, to the match's state drawn)."""
    events = hide_match(simulate_match("ghost13", 1))
    s = Serve(folder)
    driver = phone(folder)
    try:
        token = s.match("bench-page", events[:6])
        kbit = 1000 / 8  # bytes per second in a kbit/s
        throttled = {
            "offline": False,
            "latency": latency,
            "downloadThroughput": down * kbit,
            "uploadThroughput": up * kbit,
        }
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", throttled)
        drawn = "return !!document.querySelector('#events [data-seq=\"6\"]')"
        start = time.perf_counter()  # a first visit: a fresh profile, no service worker yet, cache off
        driver.get(f"{s.url}/m/bench-page/record#token={token}")
        _wait(driver, drawn, "the page throttled", 60)
        state_ms = (time.perf_counter() - start) * 1000
        fcp = driver.execute_script(
            "var p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : -1"
        )
        time.sleep(1)
        loads = driver.execute_script(
            "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
            ".map(e => [e.name.split('#')[0], e.transferSize])"
        )
    finally:
        driver.quit()
        s.stop()
    return [(str(n), int(b)) for n, b in loads], {"first contentful paint": float(fcp), "state drawn": state_ms}


def page(folder: Path, taps: int, latency: int, down: int, up: int) -> None:
    before = os.getloadavg()
    times = tap_latency(folder / "taps", taps)
    after = os.getloadavg()
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"\ntap to recorded, loopback, a hidden Ghost 13 hand: {len(times)} turns")
    print(f"  the machine's load average (1 min) {before[0]:.2f} before, {after[0]:.2f} after, {os.cpu_count()} cores")
    print(f"  median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms")
    loads, render = weight_and_render(folder / "page", latency, down, up)
    leaving = [n for n, _ in loads if not n.startswith("http://127.0.0.1:")]
    print(
        f"\nthe recorder page (/m/<id>/record, a hand in play, cache off): {len(loads)} requests, "
        f"{sum(b for _, b in loads)} bytes on the wire, {len(leaving)} leaving the server"
    )
    for name, size in loads:
        print(f"  {size:7d}  {name.split('127.0.0.1:', 1)[-1].split('/', 1)[-1][:70]}")
    print(f"first render throttled (latency {latency} ms, {down} kbit/s down, {up} kbit/s up; cache off):")
    for what, ms in render.items():
        print(f"  {what}: {ms:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="simulated matches per variant")
    parser.add_argument("--hands", type=int, default=3, help="hands counted per match")
    parser.add_argument("--taps", type=int, default=40, help="turns timed in Chromium (0: no browser)")
    parser.add_argument("--latency", type=int, default=400, help="throttled round trip, ms")
    parser.add_argument("--down", type=int, default=400, help="throttled download, kbit/s")
    parser.add_argument("--up", type=int, default=400, help="throttled upload, kbit/s")
    args = parser.parse_args(argv)
    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, {platform.system()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        touches(args.seeds, args.hands, Path(tmp))
        if args.taps:
            page(Path(tmp), args.taps, args.latency, args.down, args.up)
    return 0


if __name__ == "__main__":
    sys.exit(main())
