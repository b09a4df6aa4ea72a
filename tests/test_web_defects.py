"""Defects of ``dominolog serve`` found by the review of issue 36, each tested from outside: the
installed server on a loopback port, driven by httpx and raw sockets (bounded in count and time)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_web_api import DEAL, START, begin, post
from tests.webserver import Server

NOTE = '{"type":"note","text":"%s"}'


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    (tmp_path / "work").mkdir(exist_ok=True)
    with Server(tmp_path / "work" / "s.db", tmp_path / "work", "--no-analyse") as s:
        yield s


def test_an_idempotency_key_answers_only_the_request_it_was_sent_with(server: Server) -> None:
    s = server
    begin(s, "m1")
    begin(s, "m2")
    key = {"Idempotency-Key": "k-1"}
    first = post(s, "/api/matches/m1/events", DEAL, headers=key)
    assert first.status_code == 201
    assert post(s, "/api/matches/m1/events", DEAL, headers=key).content == first.content  # a retry
    for path, body in (
        ("/api/matches/m2/events", DEAL),  # another match
        ("/api/matches/m1/events", NOTE % "another body"),
        ("/api/matches/m1/events?seq=3", DEAL),  # another query
        ("/api/matches", START % "m3"),  # a new match
    ):
        r = post(s, path, body, headers=key)
        assert r.status_code == 422, (path, r.text)
        assert "Idempotency-Key was sent with another request" in r.json()["error"]
    assert s.client.get("/api/matches/m1/events").content.count(b"\n") == 2
    assert s.client.get("/api/matches/m2/events").content.count(b"\n") == 1
    assert s.client.get("/api/matches/m3").status_code == 404
