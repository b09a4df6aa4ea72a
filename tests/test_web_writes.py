"""The write path of ``dominolog serve`` under concurrent writers (issue 26): the group commit of a
SQLite store's writer thread (a failed write among good ones leaves nothing of itself and takes none
of the others down), and two server processes on one PostgreSQL database appending to the same match
at once (never a fork: one winner a seq, the others 409 with the head)."""

from __future__ import annotations

import json
import sqlite3
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from dominolog.store import RefusedError, StoreError, open_store
from dominolog.web.stores import Stores
from tests.test_web_api import DEAL, START, begin, post
from tests.webserver import Server

NOTE = '{"type":"note","text":"%s"}'


def _texts(db: Path, match_id: str) -> list[tuple[int, str | None]]:
    with open_store(db) as store:
        return [(rec.seq, (rec.obj or {}).get("text")) for rec, _ in store.records(match_id)]


def test_a_group_commit_keeps_the_good_writes_and_nothing_of_a_failed_one(tmp_path: Path) -> None:
    """Writes waiting together on the writer thread are committed at once (one COMMIT, counted by the
    connection's own trace); one that raises after appending and one the rules refuse leave nothing
    of themselves, the others get their exact seqs."""
    db = tmp_path / "g.db"
    with open_store(db) as store:
        for mid in ("m1", "m2"):
            store.append(mid, (START % mid).encode())
    stores = Stores(str(db), one_writer=True)
    writer = stores._writer
    assert writer is not None
    running, release = threading.Event(), threading.Event()
    said: list[str] = []

    def blocker(store: Any) -> int:
        store.conn.set_trace_callback(said.append)
        running.set()
        release.wait(10)
        return int(store.append("m1", (NOTE % "first").encode()).seq)

    def note(mid: str, text: str) -> Any:
        return lambda store: store.append(mid, (NOTE % text).encode(), check=True).seq

    def broken(store: Any) -> int:
        store.append("m1", (NOTE % "undone").encode())
        raise RuntimeError("this write fails after its append")

    try:
        first = writer.submit(blocker)
        assert running.wait(10)
        futures: list[Future[Any]] = [
            writer.submit(note("m1", "a")),
            writer.submit(note("m2", "b")),
            writer.submit(broken),
            writer.submit(note("m1", "c")),
            writer.submit(lambda store: store.append("m2", b'{"type":"play","player":"Ana","tile":"6-6"}', check=True)),
            writer.submit(note("m2", "d")),
        ]
        release.set()
        assert first.result(10) == 2
        assert [f.result(10) for f in futures[:2]] == [3, 2]
        with pytest.raises(RuntimeError, match="fails after its append"):
            futures[2].result(10)
        assert futures[3].result(10) == 4
        with pytest.raises(RefusedError):  # a play before any deal
            futures[4].result(10)
        assert futures[5].result(10) == 3
    finally:
        stores.close()
    assert sum(1 for s in said if s.strip().upper().startswith("COMMIT")) == 2  # the blocker's, then the group's
    assert _texts(db, "m1") == [(1, None), (2, "first"), (3, "a"), (4, "c")]
    assert _texts(db, "m2") == [(1, None), (2, "b"), (3, "d")]


def test_a_group_whose_commit_fails_stores_none_of_it_and_the_next_one_goes_on(tmp_path: Path) -> None:
    """Another program holding the file's write lock past the busy wait: every write of the group is
    told (StoreError), none is stored, and the writes after it get the seqs the file has."""
    db = tmp_path / "f.db"
    with open_store(db) as store:
        store.append("m1", (START % "m1").encode())
    stores = Stores(str(db), one_writer=True)
    writer = stores._writer
    assert writer is not None
    try:
        assert writer.submit(lambda s: s.append("m1", (NOTE % "warm").encode()).seq).result(10) == 2
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        failing = [writer.submit(lambda s, t=t: s.append("m1", (NOTE % t).encode()).seq) for t in ("x", "y")]
        for f in failing:
            with pytest.raises(StoreError, match="another program holds it"):
                f.result(30)
        holder.execute("ROLLBACK")
        holder.close()
        assert writer.submit(lambda s: s.append("m1", (NOTE % "after").encode()).seq).result(10) == 3
    finally:
        stores.close()
    assert _texts(db, "m1") == [(1, None), (2, "warm"), (3, "after")]


def test_concurrent_tables_through_one_sqlite_server(tmp_path: Path) -> None:
    """Eight tables posting at once, with refused and unauthorized writes among theirs: each good
    event stored once at its exact seq, nothing of the others."""
    (tmp_path / "work").mkdir()
    with Server(tmp_path / "c.db", tmp_path / "work", "--rate", "1000") as s:
        tables = [f"t{i}" for i in range(8)]
        for mid in tables:
            begin(s, mid)
        answers: dict[str, list[tuple[int, Any]]] = {mid: [] for mid in tables}

        def table(mid: str) -> None:
            for n in range(10):
                r = post(
                    s,
                    f"/api/matches/{mid}/events?seq={n + 2}",
                    NOTE % f"{mid}-{n}",
                    headers={"Idempotency-Key": f"{mid}-{n}"},  # (a key is the token's: one a request)
                )
                answers[mid].append((r.status_code, r.json()))
                refused = post(s, f"/api/matches/{mid}/events", '{"type":"play","player":"Ana","tile":"6-6"}')
                answers[mid].append((refused.status_code, None))
                nobody = post(s, f"/api/matches/{mid}/events", NOTE % "intruder", token="not-a-token")
                answers[mid].append((nobody.status_code, None))

        threads = [threading.Thread(target=table, args=(mid,)) for mid in tables]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        for mid in tables:
            got = answers[mid]
            assert [status for status, _ in got] == [201, 422, 401] * 10
            assert [body["seqs"] for status, body in got if status == 201] == [[n + 2] for n in range(10)]
            lines = s.client.get(f"/api/matches/{mid}/events").text.splitlines()
            assert [json.loads(x).get("text") for x in lines] == [None, *(f"{mid}-{n}" for n in range(10))]
            assert got[-3][1]["head"] == s.client.get(f"/api/matches/{mid}").json()["matches"][0]["head"]


def test_two_postgres_servers_appending_to_one_match_never_fork(pg_url: str, tmp_path: Path) -> None:
    """Two server processes (one of two workers) on one database, four writers on one match naming
    the seq they want: one winner a seq, the others 409 with a head the match had; the events end
    1..N without a gap, each 201 one of them."""
    with (
        Server(pg_url, tmp_path, "--workers", "2", "--rate", "1000") as first,
        Server(pg_url, tmp_path, "--rate", "1000") as second,
    ):
        second.organiser = first.organiser
        begin(first)
        heads = {first.client.get("/api/matches/m1").json()["matches"][0]["head"]}
        won: list[int] = []
        lost: list[str] = []
        lock = threading.Lock()

        def writer(s: Server, name: str) -> None:
            for n in range(15):
                count = s.client.get("/api/matches/m1/events").text.count("\n")
                r = post(s, f"/api/matches/m1/events?seq={count + 1}", NOTE % f"{name}-{n}")
                with lock:
                    if r.status_code == 201:
                        won.extend(r.json()["seqs"])
                        heads.add(r.json()["head"])
                    else:
                        assert r.status_code == 409, r.text
                        lost.append(r.json()["head"])

        threads = [threading.Thread(target=writer, args=(s, f"w{i}")) for i, s in enumerate((first, second) * 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        stored = first.client.get("/api/matches/m1/events").text.splitlines()
        assert sorted(won) == list(range(2, len(stored) + 1))  # each seq one winner, no gap
        assert len(won) + len(lost) == 60 and lost  # (four writers on one match: some lose)
        assert set(lost) <= heads  # a 409 names a head the match had
        verified = second.client.get("/api/matches/m1").json()["matches"][0]
        assert verified["valid"] and verified["events"] == len(stored)
        assert post(second, "/api/matches/m1/events?seq=2", DEAL).status_code == 409
