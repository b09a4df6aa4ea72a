"""Defects of ``dominolog serve`` found by the review of issue 36, each tested from outside: the
installed server on a loopback port, driven by httpx and raw sockets (bounded in count and time)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tests.test_web_api import DEAL, START, begin, post
from tests.test_web_private import PRIVATE, Club, _json, _token, club  # noqa: F401 (the fixture)
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


def _raw(s: Server, data: bytes, wait: float = 10.0) -> bytes:
    """What the server answers ``data`` sent on a socket of its own, until it closes it (or ``wait``)."""
    with socket.create_connection(("127.0.0.1", s.port), timeout=wait) as sock:
        with contextlib.suppress(OSError):  # (closed while we sent: what it said is read below)
            sock.sendall(data)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except OSError:
            pass
        return got


def test_a_request_head_too_large_is_431_and_the_server_serves_the_others(server: Server) -> None:
    s = server
    huge = b"GET /api/matches HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"
    said = _raw(s, huge)
    assert said == b"" or said.startswith(b"HTTP/1.1 431 "), said[:200]
    lines = b"".join(b"X-%d: %s\r\n" % (i, b"b" * 1000) for i in range(200))
    many = b"GET /api/matches HTTP/1.1\r\nHost: x\r\n" + lines
    assert _raw(s, many + b"\r\n").startswith(b"HTTP/1.1 431 ")
    ok = b"GET /api/matches HTTP/1.1\r\nHost: x\r\nX-Fine: " + b"c" * 8000 + b"\r\nConnection: close\r\n\r\n"
    assert _raw(s, ok).startswith(b"HTTP/1.1 200 ")
    assert s.client.get("/api/matches").status_code == 200


def test_a_head_that_trickles_in_is_closed_within_the_documented_time(server: Server) -> None:
    from dominolog.web.limits import HEAD_SECONDS

    s = server
    start = time.monotonic()
    idle = socket.create_connection(("127.0.0.1", s.port), timeout=HEAD_SECONDS + 5)  # sends nothing at all
    with idle, socket.create_connection(("127.0.0.1", s.port), timeout=HEAD_SECONDS + 5) as sock:
        sock.sendall(b"GET /api/matches HTTP/1.1\r\nHost: x\r\n")
        got = b""
        for _ in range(int(HEAD_SECONDS * 2) + 10):  # a header line every half second, for longer than allowed
            try:
                sock.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
            time.sleep(0.5)
            sock.setblocking(False)
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                chunk = None
            except OSError:
                break
            finally:
                sock.setblocking(True)
            if chunk is not None:
                got += chunk
                if chunk == b"":
                    break
        took = time.monotonic() - start
        assert took < HEAD_SECONDS + 3, took
        assert got == b"" or got.startswith(b"HTTP/1.1 408 "), got[:200]
        assert idle.recv(65536).startswith(b"HTTP/1.1 408 ")  # (closed already, at the same time)
        assert time.monotonic() - start < HEAD_SECONDS + 3
    assert s.client.get("/api/matches").status_code == 200


def test_out_of_file_descriptors_is_said_so_and_the_server_serves_again(server: Server) -> None:
    """The server's limit on open files lowered to what it holds and two more (``prlimit``, as a
    ``ulimit -n`` too low would): the first write, whose thread opens the store, is told the process has
    too many open files (not that the store is damaged); with the limit back, it writes."""
    s = server
    assert s.proc is not None
    pid = s.proc.pid
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    held = len(os.listdir(f"/proc/{pid}/fd"))
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (held + 2, hard))
    try:
        r = post(s, "/api/matches", START % "m1")
        assert r.status_code == 503, r.text
        assert "too many open files" in r.json()["error"] and "damaged" not in r.json()["error"]
    finally:
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
    s.client.close()
    s.client = httpx.Client(base_url=s.url, timeout=10)
    begin(s, "m1")
    assert s.client.get("/api/matches/m1/events").status_code == 200
    assert "damaged" not in s.out_path.read_text()


class Listener:
    """A stream read on a thread of its own: its lines as they come, and whether it ended."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.lines: list[str] = []
        self.status = 0
        self.ended = threading.Event()
        self.opened = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(url, headers or {}), daemon=True)
        self._thread.start()
        assert self.opened.wait(10)

    def _read(self, url: str, headers: dict[str, str]) -> None:
        try:
            with httpx.stream("GET", url, headers=headers, timeout=httpx.Timeout(30)) as r:
                self.status = r.status_code
                self.opened.set()
                for line in r.iter_lines():
                    self.lines.append(line)
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.ended.set()

    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, what: str, timeout: float = 10) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if what in self.text():
                return True
            time.sleep(0.05)
        return False


def test_a_revoked_viewing_key_ends_its_open_streams(club: Club) -> None:  # noqa: F811 (the fixture)
    s, org = club.s, club.organiser
    key_id, key = _token(s, org, {"role": "viewer", "event": PRIVATE, "who": "a parent"})
    match = Listener(f"{s.url}/api/matches/sec-1/stream?key={quote(key, safe='')}")
    board = Listener(f"{s.url}/api/board/stream?key={quote(key, safe='')}")
    assert match.status == board.status == 200
    r = s.client.post("/api/matches/sec-1/events", content=NOTE % "before", headers=_json(org))
    assert r.status_code == 201, r.text
    assert match.wait_for("before") and board.wait_for("event: board")
    assert s.client.delete(f"/api/tokens/{key_id}", headers=_json(org)).status_code == 200
    r = s.client.post("/api/matches/sec-1/events", content=NOTE % "after the revocation", headers=_json(org))
    assert r.status_code == 201, r.text
    assert match.ended.wait(5) and board.ended.wait(5)
    assert "after the revocation" not in match.text()
    assert board.text().count("event: board") == 1


def test_a_seq_past_what_a_store_holds_is_422(server: Server) -> None:
    s = server
    begin(s, "m1")
    huge = str(1 << 63)
    for r in (
        s.client.get(f"/api/matches/m1/events?after={huge}"),
        s.client.get(f"/api/matches/m1/stream?after={huge}"),
        s.client.get("/api/matches/m1/stream", headers={"Last-Event-ID": huge}),
        s.client.get("/api/matches/m1/stream", headers={"Last-Event-ID": "9" * 40}),
        post(s, f"/api/matches/m1/events?seq={huge}", DEAL),
    ):
        assert r.status_code == 422, (r.request.url, r.status_code, r.text)
        assert "past the largest seq a store holds (9223372036854775807)" in r.json()["error"]
    assert s.client.get(f"/api/matches/m1/events?after={(1 << 63) - 1}").content == b""
    assert s.client.get("/api/matches/m1/events").content.count(b"\n") == 1


def test_a_private_matchs_recorder_page_is_a_missing_matchs(club: Club) -> None:  # noqa: F811 (the fixture)
    """Without a key that reads it, the recorder page of a private match is the one of a match not
    stored: 404, the same frame (no names), the same headers; with the table's token, its page."""
    s, keys = club.s, club.keys
    private, missing = s.client.get("/m/sec-1/record"), s.client.get("/m/sec-9/record")
    assert private.status_code == missing.status_code == 404
    assert private.text.replace("sec-1", "sec-9") == missing.text
    skip = {"date", "content-length"}
    assert {k: v for k, v in private.headers.items() if k not in skip} == {
        k: v for k, v in missing.headers.items() if k not in skip
    }
    assert "Zelda Secret" not in private.text
    other = s.client.get("/m/sec-1/record", headers=_json(keys["other_table"]))
    assert other.status_code == 404 and other.text == private.text
    mine = s.client.get("/m/sec-1/record", headers=_json(keys["table"]))
    assert mine.status_code == 200 and "Zelda Secret" in mine.text


def test_the_anonymous_boards_stream_is_quiet_when_only_a_private_match_moves(club: Club) -> None:  # noqa: F811 (the fixture)
    s, org = club.s, club.organiser
    board = Listener(f"{s.url}/api/board/stream")
    viewer = Listener(f"{s.url}/api/board/stream?key={quote(club.keys['viewer'], safe='')}")
    assert board.status == viewer.status == 200

    def note(match_id: str, text: str) -> None:
        r = s.client.post(f"/api/matches/{match_id}/events", content=NOTE % text, headers=_json(org))
        assert r.status_code == 201, r.text

    def ticks(stream: Listener) -> int:
        return stream.text().count("event: board")

    note("pub-1", "public")
    assert board.wait_for("event: board") and viewer.wait_for("event: board")
    time.sleep(1.0)  # (what the poller saw of the club's making told: five looks)
    quiet, seen = ticks(board), ticks(viewer)
    for text in ("one", "two"):
        note("sec-1", text)
    deadline = time.monotonic() + 10
    while ticks(viewer) == seen and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ticks(viewer) > seen
    time.sleep(1.0)
    assert ticks(board) == quiet, board.text()
    note("pub-1", "public again")
    deadline = time.monotonic() + 10
    while ticks(board) == quiet and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ticks(board) == quiet + 1
    # its ids are the store's mark as this reader sees it (matches-events): the private match's two notes
    # are nowhere in it, only the public note
    ids = [line.removeprefix("id: ") for line in board.text().splitlines() if line.startswith("id: ")]
    before, after = (tuple(int(n) for n in i.split("-")) for i in ids[-2:])
    assert after == (before[0], before[1] + 1), ids


def test_the_phone_records_a_private_table_from_its_card_link(club: Club, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    """The card's link of a private match (its token in the fragment): the page comes as a missing
    match's (404, no names), and the script reads and writes the match with the table's token."""
    from tests.phone import Phone

    s, token = club.s, club.keys["table"]
    phone = Phone(tmp_path)
    try:
        phone.open(f"{s.url}/m/sec-1/record#token={token}")
        phone.wait(
            lambda: "Zelda Secret" in phone.text("#hands") + phone.text("#offer"), "the names, read with the token"
        )  # (before a deal: the leader's buttons, "deal, Zelda Secret leads")
        phone.js("document.getElementById('entry-line').value = arguments[0]", "{from the phone}")
        phone.tap('#entry button[type="submit"]')
        phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"2\"]')"), "the note stored")
        assert phone.csp_violations() == []
    finally:
        phone.quit()
    r = s.client.get("/api/matches/sec-1/events", headers=_json(token))
    stored = json.loads(r.text.splitlines()[1])
    assert stored.pop("at").endswith("Z")  # (the server's time, stamped)
    assert stored == {"type": "note", "text": "from the phone"}


def test_every_answer_to_a_token_or_a_key_is_kept_by_no_cache(club: Club) -> None:  # noqa: F811 (the fixture)
    s, org, keys = club.s, club.organiser, club.keys
    viewer = quote(keys["viewer"], safe="")
    answers = {
        "POST /api/tokens": s.client.post("/api/tokens", json={"match": "sec-1"}, headers=_json(org)),
        "GET /api/tokens": s.client.get("/api/tokens", headers=_json(org)),
        "POST /api/cards": s.client.post(
            "/api/cards", json={"matches": ["sec-1"], "loopback": True}, headers=_json(org)
        ),
        "GET /api/private": s.client.get("/api/private", headers=_json(org)),
        "GET /m/sec-1?key=": s.client.get(f"/m/sec-1?key={viewer}"),
        "GET /m/sec-1/part?key=": s.client.get(f"/m/sec-1/part?key={viewer}"),
        "GET /api/matches/sec-1?key=": s.client.get(f"/api/matches/sec-1?key={viewer}"),
        "GET /api/matches/sec-1/events?key=": s.client.get(f"/api/matches/sec-1/events?key={viewer}"),
        "GET /api/matches?key=": s.client.get(f"/api/matches?key={viewer}"),
        "GET /standings?key=": s.client.get(f"/standings?key={viewer}"),
        "GET /api/matches/sec-1 (Bearer)": s.client.get("/api/matches/sec-1", headers=_json(keys["table"])),
        "GET /api/matches/sec-1/recorder (Bearer)": s.client.get(
            "/api/matches/sec-1/recorder", headers=_json(keys["table"])
        ),
        "GET /favicon.ico?key=": s.client.get(f"/favicon.ico?key={viewer}"),
    }
    for what, r in answers.items():
        assert r.status_code in (200, 201), (what, r.status_code, r.text[:200])
        assert r.headers.get("cache-control") == "no-store", (what, r.headers.get("cache-control"))
        assert len(r.headers.get_list("cache-control")) == 1, what
    assert s.client.get("/favicon.ico").headers["cache-control"] == "public, max-age=86400"  # (nothing private)


def test_a_405_names_every_method_of_the_path(server: Server) -> None:
    s = server
    for method, path, allowed in (
        ("PUT", "/api/tokens", "GET, HEAD, POST"),
        ("DELETE", "/api/matches", "GET, HEAD, POST"),
        ("PATCH", "/api/private", "GET, HEAD, POST"),
        ("PUT", "/api/matches/m1/events", "GET, HEAD, POST"),
        ("POST", "/m/m1", "GET, HEAD"),
        ("PUT", "/api/tokens/t-1", "DELETE"),
        ("POST", "/favicon.ico", "GET, HEAD"),
    ):
        r = s.client.request(method, path)
        assert r.status_code == 405, (method, path, r.text)
        assert r.headers["allow"] == allowed, (method, path)
        assert r.json()["error"] == f"{method} is not allowed here: {allowed}"


def test_the_openapi_document_names_the_write_routes_errors(server: Server) -> None:
    doc = server.client.get("/openapi.json").json()
    every = {"400", "401", "403", "404", "409", "413", "415", "422", "429"}
    append = doc["paths"]["/api/matches/{match_id}/events"]["post"]["responses"]
    assert set(append) == every | {"201"}
    assert set(doc["paths"]["/api/matches"]["post"]["responses"]) == every - {"404"} | {"201"}
    assert append["429"]["content"]["application/json"]["schema"]["properties"]["error"]["type"] == "string"
    for path, method in (("/api/tokens", "post"), ("/api/private", "post"), ("/api/cards", "post")):
        assert {"401", "403", "413", "422", "429"} <= set(doc["paths"][path][method]["responses"]), path


def test_a_body_sent_with_its_head_is_not_counted_as_head(server: Server) -> None:
    """A body's bytes (200 KB of one note, several requests on one connection, on one socket at once)
    are the body's, not the head's: the note's own limit answers each."""
    s = server
    begin(s, "m1")
    note = json.dumps({"type": "note", "text": "x" * 200_000})
    for _ in range(3):  # (one keep-alive connection: the head of each after a request's end)
        r = post(s, "/api/matches/m1/events", note)
        assert r.status_code == 422 and "allowed" in r.json()["error"], r.text[:300]
    body = note.encode()
    head = b"POST /api/matches/m1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    auth = f"Authorization: Bearer {s.organiser}\r\n".encode()
    one = head + auth + b"Content-Length: %d\r\n\r\n" % len(body) + body
    said = _raw(s, one + one, wait=5)
    assert said.count(b"HTTP/1.1 422 ") == 2 and b" 431 " not in said, said[:300]
