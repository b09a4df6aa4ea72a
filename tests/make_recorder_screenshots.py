"""Retake the pictures of the phone recorder in docs/recorder-phone.md (not a test): a Ghost 13 match
(simulated, seed 1, hands hidden for the hand end) served by the installed ``dominolog serve``, the
recorder opened in Debian's headless Chromium as a phone (360 x 640 CSS px, tests/phone.py) at the
deal, with a tile that fits two places, offline with plays waiting, and at a hand's end (the reveal on
the pad), each the whole page, into ``docs/recorder-*.png``.

    python tests/make_recorder_screenshots.py
"""

from __future__ import annotations

import base64
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def shoot(phone: Any, name: str) -> None:
    shot = phone.cdp("Page.captureScreenshot", format="png", captureBeyondViewport=True)
    (ROOT / "docs" / f"recorder-{name}.png").write_bytes(base64.b64decode(shot["data"]))
    print("docs/recorder-" + name + ".png")


def main() -> None:
    from tests.conftest import run_cli
    from tests.phone import Phone
    from tests.webserver import Server

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        seen = [json.loads(line) for line in run_cli("simulate", "--seed", "1", cwd=tmp).out.splitlines()]
        hidden = [json.loads(x) for x in run_cli("simulate", "--seed", "3", "--hide", cwd=tmp).out.splitlines()]
        with Server(tmp / "r.db", tmp, "--no-analyse") as s:
            org = {"Content-Type": "application/x-ndjson", **s.auth(s.organiser)}

            def begin(match: str, events: list[dict[str, Any]]) -> str:
                start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": match}
                body = "".join(json.dumps(e) + "\n" for e in [start, *events])
                s.client.post("/api/matches", content=body, headers=org).raise_for_status()
                r = s.client.post("/api/tokens", json={"match": match}, headers=s.auth(s.organiser))
                return f"{s.url}/m/{match}/record#token={r.json()['token']}"

            def bare(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
                return [{k: v for k, v in e.items() if k not in ("seq", "hash", "at")} for e in events]

            phone = Phone(tmp)
            try:
                phone.open(begin("table-1", []))
                shoot(phone, "deal")
                phone.open(begin("table-2", bare(seen[1:3])))  # the deal, Ben 4-4: Ana's 3-4 fits two places
                phone.tap('button[data-tile="3-4"]')
                phone.wait(lambda: phone.js("return document.querySelectorAll('#picture .lit').length") == 2, "lit")
                shoot(phone, "two-places")
                phone.tap('#places [data-place="left"]')
                phone.settled()
                phone.offline(True)
                phone.tap('button[data-tile="3-6"]')
                phone.wait(lambda: phone.root("state") == "offline", "offline")
                phone.tap('button[data-tile="1-4"]')
                phone.tap('#places [data-place="right"]')
                shoot(phone, "offline")
                phone.offline(False)
                phone.settled()
                end = next(i for i, e in enumerate(hidden) if e["type"] == "reveal")
                phone.open(begin("table-3", bare(hidden[1:end])))
                phone.wait(lambda: "tiles" in phone.text("#places"), "the reveal")
                phone.tap(f'button[data-tile="{hidden[end]["tiles"][0]}"]')
                shoot(phone, "hand-end")
            finally:
                phone.quit()


if __name__ == "__main__":
    main()
