"""The recorder page's touches as ``bench/bench_phone.py`` counts them (issue 27, section 3): a whole
hidden Ghost 13 hand recorded by taps in headless Chromium as a phone takes exactly the taps the
bench counts from the recording layer's answers for the same hand."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from dominolog.simulate import hide_match, simulate_match
from tests.conftest import ROOT
from tests.phone import Phone, record_by_taps
from tests.webserver import Server

MATCH = "club-taps"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_phone", ROOT / "bench" / "bench_phone.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CountingPhone(Phone):
    taps = 0

    def tap(self, css: str) -> None:
        super().tap(css)
        self.taps += 1


def test_the_page_takes_the_taps_the_bench_counts(tmp_path: Path) -> None:
    events = hide_match(simulate_match("ghost13", 1))
    end = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    hand = [e for e in events[1 : end + 1] if e["type"] != "note"]
    counted = _bench().count_match("ghost13", 1, tmp_path, 1)
    with Server(tmp_path / "t.db", tmp_path) as server:
        start = {"type": "match_start", "variant": "ghost13", "players": events[0]["players"], "id": MATCH}
        headers = {"Content-Type": "application/x-ndjson", **server.auth(server.organiser)}
        r = server.client.post("/api/matches", content=json.dumps(start) + "\n", headers=headers)
        assert r.status_code == 201, r.text
        r = server.client.post("/api/tokens", json={"match": MATCH}, headers=server.auth(server.organiser))
        assert r.status_code == 201, r.text
        phone = CountingPhone(tmp_path)
        try:
            phone.open(f"{server.url}/m/{MATCH}/record#token={r.json()['token']}")
            record_by_taps(phone, hand, 2)
            taps = phone.taps
        finally:
            phone.quit()
    assert counted["hand_taps"] == [taps], (counted, taps)
    assert len(counted["play_taps"]) == sum(1 for e in hand if e["type"] == "play")
