"""A table's append (``POST /api/matches/{id}/events``) goes through a plain Starlette route ahead of
FastAPI's (issue 39: FastAPI's routing and dependency solving were about a sixth of a PostgreSQL
append's CPU in ``serve``): every request gets the same answer as from the FastAPI route alone, status,
body and headers, whichever route takes it; the plain one takes the plain requests only."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dominolog.store import open_store
from dominolog.web.plain import NOT_PLAIN, PlainAppend, plain_seq

AT = "2026-12-06T20:00:00Z"
START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"%s","at":"' + AT + '"}'
NOTE = '{"type":"note","text":"%s","at":"' + AT + '"}'
#: the headers whose values are compared (the rest: the date, the server's name)
HEADERS = ("content-type", "content-length", "allow", "www-authenticate", "retry-after", "content-security-policy")


@pytest.mark.parametrize(
    ("query", "seq"),
    [
        (b"", None),
        (b"state=recorder", None),
        (b"seq=1", 1),
        (b"seq=42&state=recorder", 42),
        (b"s%65q=7", 7),
        (b"seq=9223372036854775807", (1 << 63) - 1),
        (b"seq=9223372036854775808", NOT_PLAIN),
        (b"seq=99999999999999999999", NOT_PLAIN),
        (b"seq=0", NOT_PLAIN),
        (b"seq=05", NOT_PLAIN),
        (b"seq=%2B5", NOT_PLAIN),
        (b"seq=+5", NOT_PLAIN),
        (b"seq=", NOT_PLAIN),
        (b"seq", NOT_PLAIN),
        (b"seq=abc", NOT_PLAIN),
        (b"seq=%D9%A3", NOT_PLAIN),  # (an Arabic-Indic three: a digit to str.isdigit, not ASCII)
        (b"seq=3&seq=3", NOT_PLAIN),
    ],
)
def test_the_plain_route_takes_a_seq_only_as_plain_digits(query: bytes, seq: object) -> None:
    assert plain_seq(query) == seq if seq is not NOT_PLAIN else plain_seq(query) is NOT_PLAIN
    scope = {"type": "http", "method": "POST", "path": "/api/matches/m1/events", "query_string": query}
    taken = PlainAppend().matches(scope)[0].name
    assert taken == ("NONE" if seq is NOT_PLAIN else "FULL")
    assert PlainAppend().matches({**scope, "method": "GET"})[0].name == "NONE"
    assert PlainAppend().matches({**scope, "path": "/api/matches/m1/events/x"})[0].name == "NONE"


def _apps(tmp_path: Path) -> tuple[TestClient, TestClient, dict[str, str]]:
    """Two apps on two copies of one store (the same tokens): the app as made, and the app without its
    plain route (FastAPI's alone); the tokens by name."""
    from dominolog.web.app import create_app

    db = tmp_path / "plain.db"
    with open_store(db) as store:
        for mid in ("m1", "m2"):
            store.append(mid, (START % mid).encode())
        tokens = {
            "organiser": store.create_token("organiser")[1],
            "m1": store.create_token("table", "m1")[1],
            "m2": store.create_token("table", "m2")[1],
        }
        gone, tokens["revoked"] = store.create_token("table", "m1")
        store.revoke_token(gone.id)
    shutil.copy(db, tmp_path / "fastapi.db")
    plain = create_app(str(db), analyse=False)
    alone = create_app(str(tmp_path / "fastapi.db"), analyse=False)
    inner: Any = alone
    while not hasattr(inner, "router"):
        inner = inner.app
    assert isinstance(inner.router.routes[0], PlainAppend)
    del inner.router.routes[0]
    return TestClient(plain), TestClient(alone), tokens


def test_every_append_is_answered_as_fastapis_route_alone_answers_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dominolog.web.plain

    taken: list[str] = []
    to = dominolog.web.plain.append_to

    async def counted(request: Any, *args: Any) -> Any:
        taken.append(request.url.query)
        return await to(request, *args)

    monkeypatch.setattr(dominolog.web.plain, "append_to", counted)
    plain, alone, tokens = _apps(tmp_path)
    org = {"Authorization": f"Bearer {tokens['organiser']}", "Content-Type": "application/json"}
    lines = {**org, "Content-Type": "application/x-ndjson"}
    asked: list[tuple[str, str, dict[str, str], bytes]] = [
        ("POST", "/api/matches/m1/events", org, (NOTE % "a").encode()),
        ("POST", "/api/matches/m1/events?seq=3", org, (NOTE % "b").encode()),
        ("POST", "/api/matches/m1/events?seq=3", org, (NOTE % "again").encode()),  # (409: taken)
        ("POST", "/api/matches/m1/events?seq=0", org, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events?seq=abc", org, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events?seq=99999999999999999999", org, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events?seq=9223372036854775807", org, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events?seq=9223372036854775808", org, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events?seq=4&seq=4", org, (NOTE % "twice").encode()),
        ("POST", "/api/matches/m1/events?seq=05", org, (NOTE % "zero first").encode()),
        ("POST", "/api/matches/m1/events?s%65q=6", org, (NOTE % "escaped").encode()),
        ("POST", "/api/matches/m1/events?state=recorder", org, (NOTE % "recorder").encode()),
        ("POST", "/api/matches/m1/events", lines, f"{NOTE % 'c'}\n{NOTE % 'd'}\n".encode()),
        ("POST", "/api/matches/m1/events", lines, f"{NOTE % 'e'}\n{{broken\n".encode()),
        ("POST", "/api/matches/m1/events", {"Content-Type": "application/json"}, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events", {**org, "Authorization": "Bearer nope"}, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events", {**org, "Authorization": f"Bearer {tokens['m2']}"}, b"{}"),
        ("POST", "/api/matches/m1/events", {**org, "Authorization": f"Bearer {tokens['revoked']}"}, b"{}"),
        ("POST", "/api/matches/m1/events", {**org, "Authorization": f"Bearer {tokens['m1']}"}, (NOTE % "f").encode()),
        ("POST", "/api/matches/nope/events", org, (NOTE % "x").encode()),
        ("POST", "/api/matches/%FF/events", org, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events", {**org, "Content-Type": "text/plain"}, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events", org, b'{"type":"note","text":"\xff"}'),
        ("POST", "/api/matches/m1/events", org, b""),
        ("POST", "/api/matches/m1/events", org, b" " * (2 << 20)),  # (413: over 1 MiB)
        ("POST", "/api/matches/m1/events", {**org, "Idempotency-Key": "k1"}, (NOTE % "keyed").encode()),
        ("POST", "/api/matches/m1/events", {**org, "Idempotency-Key": "k1"}, (NOTE % "keyed").encode()),
        ("POST", "/api/matches/m1/events", {**org, "Idempotency-Key": "k1"}, (NOTE % "other").encode()),
        ("POST", "/api/matches/m1/events", {**org, "Idempotency-Key": "k" * 201}, (NOTE % "x").encode()),
        ("POST", "/api/matches/m1/events", org, b'{"type":"play","player":"Ana","tile":"6-6"}'),
        ("POST", "/api/matches/m2/events?seq=2", org, (NOTE % "m2").encode()),
        ("PUT", "/api/matches/m1/events", org, b"{}"),
        ("GET", "/api/matches/m1/events", {}, b""),
    ]
    for method, target, headers, body in asked:
        got = [client.request(method, target, headers=headers, content=body) for client in (plain, alone)]
        mine, theirs = ((r.status_code, r.content, {h: r.headers.get(h) for h in HEADERS}) for r in got)
        assert mine == theirs, (method, target)
        assert got[0].status_code != 500, got[0].text
    statuses = [
        client.post("/api/matches/m1/events", headers=org, content=(NOTE % "last").encode()).json()
        for client in (plain, alone)
    ]
    assert statuses[0] == statuses[1] and statuses[0]["seqs"] == [13]
    assert taken == [
        "",
        "seq=3",
        "seq=3",
        "seq=9223372036854775807",
        "s%65q=6",
        "state=recorder",
        *[""] * 17,
        "seq=2",
        "",
    ]
