"""``dominolog serve`` and its HTTP API (issue 26), against the server started from the installed
console script on a free loopback port, exercised with httpx; SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import Ran, clean_env
from tests.webserver import Server

START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"%s"}'
DEAL = '{"type":"deal","leader":"Ana","hands":null}'
PLAYS = [
    '{"type":"play","player":"Ana","tile":"6-6"}',
    '{"type":"play","player":"Ben","tile":"6-5","end":"right"}',
    '{"type":"pass","player":"Ana"}',
]
DN = "text/x-dominolog-notation"
NDJSON = "application/x-ndjson"


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "work" / "s.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def server(db: str, tmp_path: Path) -> Iterator[Server]:
    (tmp_path / "work").mkdir(exist_ok=True)
    with Server(db, tmp_path / "work") as s:
        yield s


def post(s: Server, path: str, body: str, kind: str = "application/json", token: str | None = "", **kw: object):
    token = s.organiser if token == "" else token
    headers = {"Content-Type": kind, **s.auth(token), **kw.pop("headers", {})}  # type: ignore[arg-type]
    return s.client.post(path, content=body.encode(), headers=headers, **kw)  # type: ignore[arg-type]


def begin(s: Server, mid: str = "m1") -> None:
    r = post(s, "/api/matches", START % mid)
    assert r.status_code == 201, r.text
    assert r.json()["match"] == mid and r.json()["seqs"] == [1]


def test_serve_prints_the_url_and_the_organisers_token_once(tmp_path: Path) -> None:
    with Server(tmp_path / "o.db", tmp_path) as s:
        assert f"{s.url}/" in s.out and s.organiser is not None and len(s.organiser) >= 43
        assert "organiser's link" in s.out
        assert s.client.get("/openapi.json").json()["paths"]["/api/matches/{match_id}/events"]["post"]
        assert s.client.get("/docs").status_code == 404  # Swagger UI would load from a CDN
    with Server(tmp_path / "o.db", tmp_path) as again:
        assert again.organiser is None and "organiser" not in again.out


def test_sqlite_is_served_by_one_worker(cli: Callable[..., Ran]) -> None:
    done = cli("serve", "--db", "w.db", "--workers", "2", timeout=30)
    assert done.code == 2 and "one worker" in done.err and "PostgreSQL" in done.err


def test_the_api_reads_what_the_command_line_prints(server: Server, db: str, cli: Callable[..., Ran]) -> None:
    begin(server)
    r = post(server, "/api/matches/m1/events", "\n".join([DEAL, *PLAYS]) + "\n", NDJSON)
    assert r.status_code == 201, r.text
    assert r.json()["seqs"] == [2, 3, 4, 5]
    listed = json.loads(cli("list", "--json", "--db", db).out)
    assert server.client.get("/api/matches").json() == listed
    verified = json.loads(cli("verify", "--json", "--db", db, "m1").out)
    assert server.client.get("/api/matches/m1").json() == verified
    assert r.json()["head"] == verified["matches"][0]["head"]
    exported = cli("export", "m1", "--db", db, "--format", "jsonl").stdout
    assert server.client.get("/api/matches/m1/events").content == exported
    assert server.client.get("/api/matches/m1/events?after=3").content == b"".join(exported.splitlines(True)[3:])
    assert server.client.get("/api/matches/nope").status_code == 404


def test_writes_in_json_lines_and_notation_with_the_recorders_checks(server: Server) -> None:
    r = post(server, "/api/matches", '[Variant "ghost13"] [Players "Ana" "Ben"]\n[Id "dn-1"]\ndeal Ana [?]\n', DN)
    assert r.status_code == 201, r.text
    assert (r.json()["match"], r.json()["seqs"]) == ("dn-1", [1, 2])
    assert post(server, "/api/matches/dn-1/events", "66 65R", DN).json()["seqs"] == [3, 4]
    refused = post(server, "/api/matches/dn-1/events", PLAYS[0])  # 6-6 is on the table already
    assert refused.status_code == 422 and "nothing was written" in refused.json()["error"]
    assert refused.json()["seqs"] == []
    events = server.client.get("/api/matches/dn-1/events").content
    assert events.count(b"\n") == 4
    # the lines before a refused one are stored, each durable; the answer says which
    mixed = post(server, "/api/matches/dn-1/events", PLAYS[2] + "\n" + PLAYS[2] + "\n", NDJSON)
    assert mixed.status_code == 422 and mixed.json()["seqs"] == [5] and mixed.json()["line"] == 2
    assert post(server, "/api/matches/dn-1/events", "{not json").status_code == 422
    assert post(server, "/api/matches/dn-1/events", "x", "text/plain").status_code == 415
    assert post(server, "/api/matches", START % "dn-1").status_code == 409  # exists already


def test_a_taken_seq_is_409_with_the_head_and_never_a_fork(server: Server) -> None:
    begin(server)
    assert post(server, "/api/matches/m1/events?seq=2", DEAL).status_code == 201
    taken = post(server, "/api/matches/m1/events?seq=2", PLAYS[0])
    assert taken.status_code == 409
    head = server.client.get("/api/matches/m1").json()["matches"][0]["head"]
    assert taken.json()["head"] == head
    assert server.client.get("/api/matches/m1/events").content.count(b"\n") == 2


def test_two_writers_on_one_seq_make_one_winner(server: Server) -> None:
    begin(server)
    _, table = _table_token(server, "m1")
    answers: list[int] = []

    def write(token: str | None) -> None:
        answers.append(post(server, "/api/matches/m1/events?seq=2", DEAL, token=token).status_code)

    threads = [threading.Thread(target=write, args=(t,)) for t in (server.organiser, table)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sorted(answers) == [201, 409]
    assert server.client.get("/api/matches/m1/events").content.count(b"\n") == 2


def _table_token(server: Server, match: str) -> tuple[str, str]:
    from dominolog.store import open_store

    with open_store(server.db) as store:
        row, token = store.create_token("table", match)
    return row.id, token


def test_a_retry_with_the_idempotency_key_gets_the_first_answer_across_a_restart(db: str, tmp_path: Path) -> None:
    (tmp_path / "work").mkdir(exist_ok=True)
    with Server(db, tmp_path / "work") as s:
        organiser = s.organiser
        begin(s)
        first = post(s, "/api/matches/m1/events", DEAL, headers={"Idempotency-Key": "k-1"})
        again = post(s, "/api/matches/m1/events", DEAL, headers={"Idempotency-Key": "k-1"})
        assert (again.status_code, again.content) == (first.status_code, first.content) == (201, first.content)
        refused = post(s, "/api/matches/m1/events", DEAL, headers={"Idempotency-Key": "k-2"})
        assert refused.status_code == 422  # a second deal while the hand is open
    with Server(db, tmp_path / "work") as s:
        s.organiser = organiser
        after = post(s, "/api/matches/m1/events", DEAL, headers={"Idempotency-Key": "k-1"})
        assert (after.status_code, after.content) == (201, first.content)
        assert post(s, "/api/matches/m1/events", DEAL, headers={"Idempotency-Key": "k-2"}).content == refused.content
        assert s.client.get("/api/matches/m1/events").content.count(b"\n") == 2  # stored once
        long_key = post(s, "/api/matches/m1/events", DEAL, headers={"Idempotency-Key": "k" * 300})
        assert long_key.status_code == 400


def _sse(
    url: str, headers: dict[str, str], want: int, timeout: float = 10, opened: threading.Event | None = None
) -> list[tuple[int, str]]:
    """The first ``want`` messages of a stream (id, data), read by a real client, within ``timeout``;
    ``opened`` is set at the stream's first line (its ``retry:``, sent once the server has fixed where the
    stream starts)."""
    got: list[tuple[int, str]] = []
    with httpx.stream("GET", url, headers=headers, timeout=httpx.Timeout(timeout)) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        seq, data = None, []
        deadline = time.monotonic() + timeout
        for line in r.iter_lines():
            if opened is not None:
                opened.set()
            if time.monotonic() > deadline:
                break
            if line.startswith("id: "):
                seq = int(line[4:])
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and seq is not None:
                got.append((seq, "\n".join(data)))
                seq, data = None, []
                if len(got) >= want:
                    break
    return got


def test_the_stream_starts_at_the_head_or_after_the_seq_given(server: Server) -> None:
    begin(server)
    assert post(server, "/api/matches/m1/events", DEAL).status_code == 201
    url = f"{server.url}/api/matches/m1/stream"
    stored = server.client.get("/api/matches/m1/events").text.splitlines()
    # with Last-Event-ID (a reconnection) or ?after: what came after that seq first, then the new
    assert _sse(url, {"Last-Event-ID": "0"}, 2) == [(1, stored[0]), (2, stored[1])]
    assert _sse(url + "?after=1", {}, 1) == [(2, stored[1])]
    # from the head: only what comes next, each once
    reader, got = _following(server, "m1", 2)
    start = time.monotonic()
    assert post(server, "/api/matches/m1/events", PLAYS[0]).status_code == 201
    assert post(server, "/api/matches/m1/events", PLAYS[1]).status_code == 201
    reader.join(15)
    assert time.monotonic() - start < 3
    lines = server.client.get("/api/matches/m1/events").text.splitlines()
    assert got == [[(3, lines[2]), (4, lines[3])]]


def test_an_event_appended_by_the_command_line_reaches_the_stream(
    server: Server, db: str, cli: Callable[..., Ran]
) -> None:
    begin(server)
    reader, got = _following(server, "m1", 1)
    assert cli("append", "m1", DEAL, "--db", db).code == 0
    reader.join(15)
    assert got == [[(2, DEAL)]]


@pytest.mark.parametrize("endpoint", ["/api/matches", "/api/matches/m1/events"])
def test_who_may_write(server: Server, endpoint: str) -> None:
    """Every write endpoint x no token, a wrong one, another match's, a revoked one, the table's own,
    the organiser's."""
    from dominolog.store import open_store

    begin(server, "m1")
    begin(server, "m2")
    with open_store(server.db) as store:
        _, own = store.create_token("table", "m1")
        _, other = store.create_token("table", "m2")
        revoked_row, revoked = store.create_token("table", "m1")
        store.revoke_token(revoked_row.id)
        _, revoked_organiser = store.create_token("organiser")
        store.revoke_token(revoked_organiser)
    body = START % "m9" if endpoint == "/api/matches" else DEAL
    expected = {
        None: 401,
        "not-a-token": 401,
        revoked: 401,
        revoked_organiser: 401,
        other: 403,
        own: 403 if endpoint == "/api/matches" else 201,
        server.organiser: 201,
    }
    for token, status in expected.items():
        r = post(server, endpoint, body, token=token)
        assert r.status_code == status, (token, r.text)
        assert "error" in r.json() or status == 201
        if status == 401:
            assert r.headers["www-authenticate"].startswith("Bearer")
        if status == 201:
            body = PLAYS[0] if endpoint != "/api/matches" else START % "m10"
    cookie = server.client.post(
        endpoint, content=body.encode(), headers={"Content-Type": "application/json", "Cookie": f"token={own}"}
    )
    assert cookie.status_code == 401  # no cookie authentication


def test_hardening(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    with Server(tmp_path / "h.db", tmp_path / "work", "--rate", "5") as s:
        begin(s)
        big = post(s, "/api/matches/m1/events", "x" * (1 << 20 + 1), NDJSON)
        assert big.status_code == 413 and "error" in big.json()
        statuses = [post(s, "/api/matches/m1/events", "{}").status_code for _ in range(8)]
        assert 429 in statuses and statuses[:4] == [422] * 4
        time.sleep(1.1)
        assert post(s, "/api/matches/m1/events", DEAL).status_code == 201  # a second later: writes again
        long_name = json.dumps({"type": "match_start", "variant": "ghost13", "players": ["Ana", "B" * 41], "id": "x"})
        over = post(s, "/api/matches", long_name)
        assert over.status_code == 422 and "at most 40 allowed" in over.json()["error"]  # the format's limits
        long_note = post(s, "/api/matches/m1/events", json.dumps({"type": "note", "text": "x" * 200_000}))
        assert long_note.status_code == 422 and "allowed" in long_note.json()["error"]
        for r in (s.client.get("/"), s.client.get("/api/matches"), s.client.get("/nope"), big):
            assert "script-src 'self'" in r.headers["content-security-policy"]
            assert "unsafe-inline" not in r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
            assert r.headers["x-content-type-options"] == "nosniff"
        missing = s.client.get("/nope")
        assert missing.status_code == 404 and missing.json() == {"error": "Not Found"}
        bad = s.client.get("/api/matches/m1/events?after=-1")
        assert bad.status_code == 422 and "Traceback" not in bad.text and "error" in bad.json()


@pytest.mark.parametrize("debug", [False, True])
def test_no_stack_trace_in_an_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, debug: bool) -> None:
    """A bug under a request is a JSON error without a trace (the trace only with DOMINOLOG_DEBUG)."""
    import asyncio

    from dominolog.store import open_store
    from dominolog.web.app import create_app

    if debug:
        monkeypatch.setenv("DOMINOLOG_DEBUG", "1")
    else:
        monkeypatch.delenv("DOMINOLOG_DEBUG", raising=False)
    open_store(tmp_path / "b.db").close()
    guarded = create_app(str(tmp_path / "b.db"))

    def broken() -> None:
        raise RuntimeError("a bug")

    guarded.app.add_api_route("/broken", broken)  # type: ignore[attr-defined]

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=guarded, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/broken")

    r = asyncio.run(ask())
    assert r.status_code == 500 and "error" in r.json()
    assert ("Traceback" in r.text) is debug
    assert r.headers["x-content-type-options"] == "nosniff"


def _following(server: Server, match_id: str, want: int) -> tuple[threading.Thread, list[list[tuple[int, str]]]]:
    """A client following the match's stream on ``server`` in a thread of its own (for its first
    ``want`` messages), its stream open once this returns; what it got is in the list once joined."""
    got: list[list[tuple[int, str]]] = []
    opened = threading.Event()
    url = f"{server.url}/api/matches/{match_id}/stream"
    reader = threading.Thread(target=lambda: got.append(_sse(url, {}, want, opened=opened)))
    reader.start()
    assert opened.wait(15), "the stream did not open"
    return reader, got


def test_two_servers_on_one_postgres_database(pg_url: str, tmp_path: Path) -> None:
    """An event stored through one server (two workers) reaches a stream of the other within 1 s."""
    with Server(pg_url, tmp_path, "--workers", "2") as first, Server(pg_url, tmp_path) as second:
        second.organiser = first.organiser
        begin(first)
        reader, got = _following(second, "m1", 1)
        assert post(first, "/api/matches/m1/events", DEAL).status_code == 201
        answered = time.monotonic()
        reader.join(15)
        assert time.monotonic() - answered < 1.0
        assert [[(seq, _timeless(line)) for seq, line in batch] for batch in got] == [[(2, DEAL)]]
        assert post(second, "/api/matches/m1/events?seq=2", DEAL).status_code == 409  # one seq, one writer


def test_postgres_tells_the_streams_of_a_commit_they_do_not_wait_for_a_poll(pg_url: str, tmp_path: Path) -> None:
    """LISTEN/NOTIFY: with the poller's look set to once a minute, an event stored through one server,
    and one stored by ``dominolog append`` (another process), still reach a stream of the other server
    within 1 s: every commit that writes to a match notifies the servers listening."""
    from tests.conftest import run_cli

    slow = clean_env(DOMINOLOG_POLL_SECONDS="60")
    with Server(pg_url, tmp_path, env=slow) as first, Server(pg_url, tmp_path, env=slow) as second:
        second.organiser = first.organiser
        begin(first)
        reader, got = _following(second, "m1", 1)
        assert post(first, "/api/matches/m1/events", DEAL).status_code == 201
        answered = time.monotonic()
        reader.join(15)
        assert time.monotonic() - answered < 1.0
        assert [seq for seq, _ in got[0]] == [2]
        # the command line's commit, timed from when it ended (starting a process is not the server's time)
        reader, got = _following(second, "m1", 1)
        note = '{"type":"note","text":"from the command line"}'
        assert run_cli("append", "m1", note, "--db", pg_url, cwd=tmp_path).code == 0
        stored = time.monotonic()
        reader.join(15)
        assert time.monotonic() - stored < 1.0
        assert [seq for seq, _ in got[0]] == [3]


def test_killed_mid_append_a_retry_with_its_key_stores_each_event_once(tmp_path: Path) -> None:
    """The server killed (SIGKILL) while a client sends keyed notes: every acknowledged note is stored,
    and once the server is back, retrying every request with its key stores each of them exactly once
    (the key's answer and the events are committed together: a request cut short left neither)."""
    import os
    import signal

    (tmp_path / "work").mkdir()
    db = tmp_path / "k.db"
    acknowledged: list[int] = []
    with Server(db, tmp_path / "work", "--rate", "1000") as s:
        organiser = s.organiser
        begin(s)

        def send() -> None:
            for i in range(400):
                try:
                    r = post(
                        s,
                        "/api/matches/m1/events",
                        json.dumps({"type": "note", "text": f"n-{i}"}),
                        headers={"Idempotency-Key": f"k-{i}"},
                    )
                except httpx.HTTPError:
                    return
                if r.status_code == 201:
                    acknowledged.append(i)

        sender = threading.Thread(target=send)
        sender.start()
        deadline = time.monotonic() + 10
        while len(acknowledged) < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert s.proc is not None
        os.killpg(s.proc.pid, signal.SIGKILL)
        sender.join(20)
    assert 20 <= len(acknowledged) < 400
    with Server(db, tmp_path / "work", "--rate", "1000") as s:
        s.organiser = organiser
        stored = [json.loads(x)["text"] for x in s.client.get("/api/matches/m1/events").text.splitlines()[1:]]
        assert all(f"n-{i}" in stored for i in acknowledged)  # what was acknowledged is stored
        answers = {}
        for i in range(max(acknowledged) + 3):
            r = post(
                s,
                "/api/matches/m1/events",
                json.dumps({"type": "note", "text": f"n-{i}"}),
                headers={"Idempotency-Key": f"k-{i}"},
            )
            answers[i] = r.status_code
            time.sleep(0.01)
        assert set(answers.values()) == {201}  # the first answer, or (cut short: nothing kept) stored now
        again = [json.loads(x)["text"] for x in s.client.get("/api/matches/m1/events").text.splitlines()[1:]]
        assert sorted(again) == sorted(f"n-{i}" for i in range(max(acknowledged) + 3))  # each exactly once


def test_the_organiser_manages_tokens_over_http(server: Server) -> None:
    begin(server)
    made = server.client.post(
        "/api/tokens", json={"match": "m1", "who": "table 1"}, headers=server.auth(server.organiser)
    )
    assert made.status_code == 201, made.text
    table = made.json()["token"]
    assert (made.json()["role"], made.json()["match"], made.json()["who"]) == ("table", "m1", "table 1")
    assert post(server, "/api/matches/m1/events", DEAL, token=table).status_code == 201
    listed = server.client.get("/api/tokens", headers=server.auth(server.organiser))
    assert table not in listed.text
    assert sorted(str(t["match"]) for t in listed.json()["tokens"]) == ["None", "m1"]
    for token, status in ((None, 401), ("nope", 401), (table, 403)):
        assert server.client.get("/api/tokens", headers=server.auth(token)).status_code == status
        assert server.client.post("/api/tokens", json={"match": "m1"}, headers=server.auth(token)).status_code == status
        assert (
            server.client.delete(f"/api/tokens/{made.json()['id']}", headers=server.auth(token)).status_code == status
        )
    gone = server.client.delete(f"/api/tokens/{made.json()['id']}", headers=server.auth(server.organiser))
    assert gone.status_code == 200 and gone.json()["revoked"]
    assert post(server, "/api/matches/m1/events", PLAYS[0], token=table).status_code == 401
    assert server.client.delete("/api/tokens/t-nothing", headers=server.auth(server.organiser)).status_code == 404


def test_a_write_to_a_match_not_begun_is_404_for_everyone(server: Server) -> None:
    """A match is begun by the organiser (POST /api/matches): a table's token made for an id not stored
    yet, the organiser's, a wrong one or none, all get 404 there, and nothing is stored."""
    from dominolog.store import open_store

    with open_store(server.db) as store:
        _, table = store.create_token("table", "later")
    for token in (table, server.organiser, "not-a-token", None):
        for body in (START % "later", DEAL):
            r = post(server, "/api/matches/later/events", body, token=token)
            assert (r.status_code, r.json()) == (404, {"error": "no such match"}), token
    assert server.client.get("/api/matches/later").status_code == 404
    assert server.client.get("/api/matches").json() == {"matches": []}
    begin(server, "later")  # the organiser begins it: then its table writes
    assert post(server, "/api/matches/later/events", DEAL, token=table).status_code == 201


def _timeless(line: str) -> str:
    """A stored line without the time the server stamped on it."""
    obj = json.loads(line)
    assert isinstance(obj.pop("at"), str)
    return json.dumps(obj, separators=(",", ":"))


def _stored(server: Server, match: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in server.client.get(f"/api/matches/{match}/events").text.splitlines()]


def _utc(text: object) -> float:
    from datetime import datetime

    assert isinstance(text, str) and len(text) == 20 and text.endswith("Z"), text
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z").timestamp()


def test_the_server_stamps_the_time_of_every_event_it_stores_without_one(server: Server) -> None:
    before = int(time.time())
    begin(server)  # application/json
    assert post(server, "/api/matches/m1/events", DEAL + "\n" + PLAYS[0] + "\n", NDJSON).status_code == 201
    assert post(server, "/api/matches/m1/events", "65R", DN).status_code == 201
    kept = '{"type":"pass","player":"Ana","at":"2026-11-21T19:04:11Z"}'
    assert post(server, "/api/matches/m1/events", kept, "application/jsonl").status_code == 201
    header = '[Variant "ghost13"] [Players "Ana" "Ben"] [Id "dn-2"]\ndeal Ana\n$ {"type":"play","player":"Ana",'
    header += '"tile":"6-6"}'
    assert post(server, "/api/matches", header, DN).status_code == 201
    after = time.time() + 1
    stored = _stored(server, "m1")
    assert [e["type"] for e in stored] == ["match_start", "deal", "play", "play", "pass"]
    assert stored[-1]["at"] == "2026-11-21T19:04:11Z"  # one sent with its time keeps it
    for event in stored[:-1] + _stored(server, "dn-2"):
        assert before <= _utc(event["at"]) <= after, event
    # a match whose events carry the chain hash: the time is stamped before the server hashes the
    # event; one sent with its own hash is stored as sent (a time added would break it)
    from dominolog.log.hashchain import event_hash
    from dominolog.recording.session import Session

    start = Session.start_event(json.loads(START % "h1"), ("seq", "hash"))
    assert post(server, "/api/matches", json.dumps(start)).status_code == 201
    deal = post(server, "/api/matches/h1/events", DEAL)
    assert deal.status_code == 201, deal.text
    own = {"type": "play", "seq": 3, "player": "Ana", "tile": "6-6"}
    own["hash"] = event_hash(deal.json()["head"], own)
    assert post(server, "/api/matches/h1/events", json.dumps(own)).status_code == 201
    chained = _stored(server, "h1")
    assert "at" not in chained[0] and "at" in chained[1] and chained[2] == own
    assert server.client.get("/api/matches/h1").json()["matches"][0]["valid"] is True
