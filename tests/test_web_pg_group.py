"""The group commit of ``dominolog serve`` on a PostgreSQL store (issue 39): the writes waiting together
are committed at once, each in a savepoint of its own (a refused one undone alone, with its own answer);
a later write of a group that finds its match or its Idempotency-Key locked by another process is not
made to wait (no deadlock between groups) but run again first in the next group; and many tables
writing at once through two workers each get their exact seqs, every event stored once, in order."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from dominolog.store import ConflictError, RefusedError, open_store
from dominolog.web.stores import Stores
from tests.conftest import statements_of
from tests.test_web_api import START, post
from tests.webserver import Server

NOTE = '{"type":"note","text":"%s"}'
PLAY = '{"type":"play","player":"Ana","tile":"6-6"}'


def _texts(url: str, match_id: str) -> list[tuple[int, str | None]]:
    with open_store(url, create=False) as store:
        return [(rec.seq, (rec.obj or {}).get("text")) for rec, _ in store.records(match_id)]


def _begun(url: str, *mids: str) -> None:
    with open_store(url) as store:
        for mid in mids:
            store.append(mid, (START % mid).encode())


def _note(mid: str, text: str, seq: int | None = None) -> Any:
    return lambda store: store.append(mid, (NOTE % text).encode(), expected_seq=seq, check=True).seq


def test_a_postgres_group_commit_keeps_the_good_writes_and_undoes_each_refused_one_alone(pg_url: str) -> None:
    """Writes waiting behind a blocked one are committed together (one COMMIT for the group, counted on
    the writer's store); a wrong seq, a play the rules refuse, a second match_start and a write that
    fails after its append each get their own error and leave nothing; the others their exact seqs."""
    _begun(pg_url, "m1", "m2")
    stores = Stores(pg_url, one_writer=True)
    writer = stores._writer
    assert writer is not None
    running, release = threading.Event(), threading.Event()
    commits: list[int] = []

    def blocker(store: Any) -> int:
        kept = store._commit

        def counted() -> None:
            kept()
            commits.append(1)

        store._commit = counted  # (on this store only: the writer thread's)
        running.set()
        release.wait(10)
        return int(store.append("m1", (NOTE % "first").encode()).seq)

    def broken(store: Any) -> int:
        store.append("m1", (NOTE % "undone").encode())
        raise RuntimeError("this write fails after its append")

    try:
        first = writer.submit(blocker)
        assert running.wait(10)
        futures: list[Future[Any]] = [
            writer.submit(_note("m1", "a")),
            writer.submit(_note("m2", "b")),
            writer.submit(_note("m1", "wrong seq", seq=2)),
            writer.submit(broken),
            writer.submit(lambda store: store.append("m2", PLAY.encode(), check=True)),
            writer.submit(lambda store: store.append("m1", (START % "m1").encode(), check=True)),
            writer.submit(_note("m1", "c")),
            writer.submit(_note("m2", "d", seq=3)),
        ]
        release.set()
        assert first.result(20) == 2
        assert [f.result(20) for f in futures[:2]] == [3, 2]
        with pytest.raises(ConflictError, match="seq 2 is taken"):
            futures[2].result(20)
        with pytest.raises(RuntimeError, match="fails after its append"):
            futures[3].result(20)
        with pytest.raises(RefusedError):  # a play before any deal
            futures[4].result(20)
        with pytest.raises(RefusedError, match="has begun already"):
            futures[5].result(20)
        assert [f.result(20) for f in futures[6:]] == [4, 3]
    finally:
        stores.close()
    assert commits == [1, 1]  # the blocker's group, then the eight writes' one
    assert _texts(pg_url, "m1") == [(1, None), (2, "first"), (3, "a"), (4, "c")]
    assert _texts(pg_url, "m2") == [(1, None), (2, "b"), (3, "d")]


def test_a_later_write_of_a_group_does_not_wait_for_a_lock_held_elsewhere(pg_url: str) -> None:
    """Another connection holds m3's lock and an Idempotency-Key's: the group's first write (m1) goes,
    the later writes to m3 and under that key are put back, the others committed and answered at once;
    the locks released, the two put back are stored in the next group (the first of it waits for its
    lock), each once."""
    import psycopg

    _begun(pg_url, "m1", "m2", "m3")
    stores = Stores(pg_url, one_writer=True)
    writer = stores._writer
    assert writer is not None
    running, release = threading.Event(), threading.Event()
    holder = psycopg.connect(pg_url, autocommit=True)
    try:
        holder.execute("BEGIN")
        holder.execute("SELECT pg_advisory_xact_lock(hashtextextended('m3', 0))")
        holder.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", ("tok\nkey-1",))

        def blocker(store: Any) -> int:
            running.set()
            release.wait(10)
            return int(store.append("m1", (NOTE % "first").encode()).seq)

        def keyed(store: Any) -> int:
            store.lock_key("tok", "key-1")
            return int(store.append("m2", (NOTE % "keyed").encode()).seq)

        first = writer.submit(blocker)
        assert running.wait(10)
        futures = [
            writer.submit(_note("m1", "lead")),  # (the group's first write: it may wait; the later ones may not)
            writer.submit(_note("m3", "held")),
            writer.submit(keyed),
            writer.submit(_note("m2", "free")),
        ]
        release.set()
        assert first.result(20) == 2
        assert futures[0].result(20) == 3 and futures[3].result(20) == 2  # (not held by m3's lock)
        time.sleep(0.3)
        assert not futures[1].done() and not futures[2].done()  # each waits in the next group, none lost
        holder.execute("ROLLBACK")
        assert futures[1].result(20) == 2
        assert futures[2].result(20) == 3
    finally:
        holder.close()
        stores.close()
    assert _texts(pg_url, "m2") == [(1, None), (2, "free"), (3, "keyed")]
    assert _texts(pg_url, "m3") == [(1, None), (2, "held")]


def test_many_tables_through_two_postgres_workers_each_in_sequence(pg_url: str, tmp_path: Path) -> None:
    """Sixteen tables posting at once to a server of two workers, each with its Idempotency-Keys, a key
    sent again, a play the rules refuse, a wrong seq and a second match_start among its writes: every
    answer exact, every good event stored once at its seq (read back by another connection once the
    server is stopped), nothing of the refused ones."""
    tables = [f"t{i}" for i in range(16)]
    with Server(pg_url, tmp_path, "--workers", "2", "--rate", "1000") as s:
        for mid in tables:
            assert post(s, "/api/matches", START % mid).status_code == 201
        answers: dict[str, list[tuple[int, Any]]] = {mid: [] for mid in tables}

        def table(mid: str) -> None:
            got = answers[mid]
            for n in range(8):
                key = {"Idempotency-Key": f"{mid}-{n}"}
                r = post(s, f"/api/matches/{mid}/events?seq={n + 2}", NOTE % f"{mid}-{n}", headers=key)
                got.append((r.status_code, r.json()))
                again = post(s, f"/api/matches/{mid}/events?seq={n + 2}", NOTE % f"{mid}-{n}", headers=key)
                got.append((again.status_code, again.json()))
                refused = post(s, f"/api/matches/{mid}/events", PLAY)
                got.append((refused.status_code, refused.json().get("seqs")))
                late = post(s, f"/api/matches/{mid}/events?seq={n + 1}", NOTE % "late")
                got.append((late.status_code, late.json().get("seqs")))
            twice = post(s, "/api/matches", START % mid)
            got.append((twice.status_code, twice.json().get("match")))

        threads = [threading.Thread(target=table, args=(mid,)) for mid in tables]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        for mid in tables:
            got = answers[mid]
            assert [status for status, _ in got] == [201, 201, 422, 409] * 8 + [409], (mid, got)
            firsts = [body for status, body in got[0:-1:4]]
            assert [b["seqs"] for b in firsts] == [[n + 2] for n in range(8)]
            assert [body for _, body in got[1:-1:4]] == firsts  # the key's answer, as first given
            assert [body for _, body in got[2:-1:4]] == [[]] * 8
            assert [body for _, body in got[3:-1:4]] == [[]] * 8
            assert got[-1][1] == mid
    for mid in tables:
        assert _texts(pg_url, mid) == [(1, None), *((n + 2, f"{mid}-{n}") for n in range(8))]
    with open_store(pg_url, create=False) as store:
        heads = dict(store.conn.execute("SELECT id, head FROM matches").fetchall())
        assert {mid: heads[mid] for mid in tables} == {mid: store.fold_of(mid).head for mid in tables}
        assert sorted(heads) == sorted(tables)


def test_a_commit_the_server_turned_into_a_rollback_is_an_error(pg_url: str) -> None:
    """A transaction the server failed (an error its savepoint did not undo, caught and passed over)
    is rolled back by its COMMIT without an error from the server: the store raises, so that no write
    of it is answered as stored, and nothing of it is."""
    import psycopg

    from dominolog.store import StoreError

    _begun(pg_url, "m1")
    with open_store(pg_url, create=False) as store:
        with pytest.raises(StoreError, match="rolled back"), store.transaction():
            store.append("m1", (NOTE % "lost").encode())
            with pytest.raises(psycopg.Error):
                store.conn.execute("SELECT 1 / 0")
        assert store.append("m1", (NOTE % "after").encode()).seq == 2
    assert _texts(pg_url, "m1") == [(1, None), (2, "after")]


def test_a_matchs_writes_go_to_one_writer_thread_and_the_others_take_turns(pg_url: str) -> None:
    """With two writer threads, every write to one match runs on the same thread (whose session on it
    its own appends keep up to date); writes that name no match go to each thread in turn."""
    _begun(pg_url, "m1", "m2")
    stores = Stores(pg_url, one_writer=True, writers=2)
    writer = stores._writer
    assert writer is not None

    def where(store: Any) -> str:
        return threading.current_thread().name

    try:
        for mid in ("m1", "m2", "table-7", "Zoë ♠"):
            names = {writer.submit(where, mid).result(30) for _ in range(6)}
            assert len(names) == 1, (mid, names)
        turns = [writer.submit(where).result(30) for _ in range(4)]
        assert sorted(set(turns)) == ["dominolog-writer-0", "dominolog-writer-1"] and turns[0::2] == [turns[0]] * 2
        assert writer.submit(_note("m1", "a"), "m1").result(30) == 2
    finally:
        stores.close()
    assert _texts(pg_url, "m1") == [(1, None), (2, "a")]


def _read(sent: list[str]) -> list[str]:
    """The statements of ``sent`` but the append's own savepoint's (sent with the next statement read) and
    the read of the names of ``matches``' columns (once a connection)."""
    return [q for q in sent if not q.startswith(("SAVEPOINT", "RELEASE")) and not q.endswith("FROM matches LIMIT 0")]


def test_a_writes_checks_take_its_matchs_lock_and_its_append_neither_locks_nor_reads(
    pg_url: str, tmp_path: Path
) -> None:
    """``serve``'s write on PostgreSQL: the checks (``write_view`` with ``lock``) send the match's lock
    first, in their round trip, and read its last event under it; the append in the same savepoint then
    executes nothing of its own but its savepoint (its rows go with the flush), and its seq and chain
    follow that event. A request with no token takes no lock; without ``lock`` the append locks and
    reads as before."""
    _begun(pg_url, "m1", "m2")
    with open_store(pg_url, create=False) as store:
        _, token = store.create_token("organiser")
        store.append("m1", (NOTE % "a").encode())  # (the match's first event, read once, is kept from here)
        store.append("m2", (NOTE % "a").encode())
        sent: list[str] = []

        def counted(match_id: str, text: str) -> int:
            with statements_of(store) as these:
                seq = int(store.append(match_id, (NOTE % text).encode()).seq)
            sent.extend(these)
            return seq

        with store.transaction():
            with store.transaction():
                store.write_view("m1", None, lock=True)
                assert "m1" not in store._locked  # (no token: no lock)
            with store.transaction():
                store.write_view("m1", token, lock=True)
                assert "m1" in store._locked
                store.fold_of("m1")
                assert (counted("m1", "b"), _read(sent)) == (3, [])
            sent.clear()
            with store.transaction():  # (m1 locked already: the second write to it reads under that lock)
                store.write_view("m1", token, lock=True)
                assert (counted("m1", "c"), _read(sent)) == (4, [])
            sent.clear()
            with store.transaction():
                store.write_view("m2", token)  # (no lock asked: the append takes it and reads the last event)
                assert counted("m2", "b") == 3
                assert sum("ORDER BY seq DESC" in q for q in sent) == 1
        pg_hashes = [h for (h,) in store.conn.execute("SELECT hash FROM events WHERE match_id = 'm1' ORDER BY seq")]
    assert _texts(pg_url, "m1") == [(1, None), (2, "a"), (3, "b"), (4, "c")]
    assert _texts(pg_url, "m2") == [(1, None), (2, "a"), (3, "b")]
    with open_store(tmp_path / "same.sqlite") as same:  # (the same lines appended plainly: the same chain)
        for line in (START % "m1", NOTE % "a", NOTE % "b", NOTE % "c"):
            same.append("m1", line.encode())
        assert [h for (h,) in same.conn.execute("SELECT hash FROM events ORDER BY seq")] == pg_hashes


def test_a_lock_taken_with_the_checks_waits_for_another_writer_and_reads_what_it_committed(pg_url: str) -> None:
    """Another process's transaction has appended to m1 and holds its lock: a group's first write to m1
    waits for it in its checks, and reads the last event that writer committed (the read is a statement
    after the lock, not one whose snapshot was taken before it), so its append follows it; a later write
    of a group, which holds another match already, is not made to wait: :class:`Busy` from its checks,
    and nothing of it holds m1."""
    from dominolog.store.store import Busy

    _begun(pg_url, "m1", "m2")
    with open_store(pg_url, create=False) as other, open_store(pg_url, create=False) as store:
        _, token = store.create_token("organiser")
        got: list[Any] = []
        with other.transaction():
            other.append("m1", (NOTE % "other").encode())  # (holds m1's lock until its commit)
            with store.transaction():
                with store.transaction():
                    store.write_view("m2", token, lock=True)
                    assert store.append("m2", (NOTE % "m2").encode()).seq == 2
                with pytest.raises(Busy), store.transaction():
                    store.write_view("m1", token, lock=True)
                assert store._locked == {"m2"}

            def first_of_a_group() -> None:
                with store.transaction(), store.transaction():
                    store.write_view("m1", token, lock=True)
                    got.append(store.append("m1", (NOTE % "after").encode()).seq)

            waiting = threading.Thread(target=first_of_a_group)
            waiting.start()
            time.sleep(0.5)
            assert got == []  # (waiting for the other's lock)
        waiting.join(20)
        assert got == [3]
    assert _texts(pg_url, "m1") == [(1, None), (2, "other"), (3, "after")]
    assert _texts(pg_url, "m2") == [(1, None), (2, "m2")]


def test_a_serve_write_on_postgres_is_two_round_trips_of_few_statements(pg_url: str) -> None:
    """What the server is sent for two writes of a group to one match (``serve``'s path: the checks with
    the lock, the append): two round trips a write and the commit's; the append's savepoint released
    with the request's (one RELEASE), the flush ended by the last row's statement (no ``SELECT 1``)."""
    _begun(pg_url, "m1")
    with open_store(pg_url, create=False) as store:
        _, token = store.create_token("organiser")
        store.append("m1", (NOTE % "a").encode())  # (the match's first event, read once, is kept from here)
        store.write_view("m1", token)  # (the tables seen, once a connection)
        raw = store.conn.raw
        sent: list[str] = []

        class Recording:
            def execute(self, query: str, params: object = None) -> object:
                sent.append(query.split("(", 1)[0].split(" FROM ", 1)[0].strip())
                return raw.execute(query, params)  # type: ignore[arg-type]

            def pipeline(self) -> object:
                sent.append("|")
                return raw.pipeline()

            def __getattr__(self, name: str) -> object:
                return getattr(raw, name)

        store.conn.raw = Recording()  # type: ignore[assignment]
        try:
            with store.transaction():
                for text in ("b", "c"):
                    with store.transaction():
                        store.write_view("m1", token, lock=True)
                        store.fold_of("m1")
                        store.append("m1", (NOTE % text).encode())
        finally:
            store.conn.raw = raw
    trips = " ".join(sent).split("|")[1:]
    assert [t.split() for t in trips] == [
        ["BEGIN", "SAVEPOINT", "w1", "SELECT", "pg_advisory_xact_lock", "SELECT", "EXISTS"],
        ["SAVEPOINT", "w2", "INSERT", "INTO", "events", "VALUES", "INSERT", "INTO", "matches", "VALUES"],
        ["RELEASE", "w1", "SAVEPOINT", "w1", "SELECT", "EXISTS"],
        ["SAVEPOINT", "w2", "INSERT", "INTO", "events", "VALUES", "INSERT", "INTO", "matches", "VALUES"],
        ["RELEASE", "w1", "COMMIT"],
    ]
    assert _texts(pg_url, "m1") == [(1, None), (2, "a"), (3, "b"), (4, "c")]


def test_a_write_refused_after_its_checks_took_the_lock_releases_it_with_its_savepoint(pg_url: str) -> None:
    """A request with a token that is not known (or may not write) takes the match's lock with its checks
    and is then refused (its savepoint undone): the lock goes with the savepoint, not at the group's
    commit, so another process's writer has the match at once."""
    import psycopg

    _begun(pg_url, "m1", "m2")
    probe = psycopg.connect(pg_url, autocommit=True)
    try:
        with open_store(pg_url, create=False) as store:
            _, token = store.create_token("organiser")
            with store.transaction():
                with store.transaction():
                    store.write_view("m2", token, lock=True)
                    store.append("m2", (NOTE % "kept").encode())
                with pytest.raises(PermissionError), store.transaction():
                    view = store.write_view("m1", "not-a-token", lock=True)
                    assert view.token is None and "m1" in store._locked
                    raise PermissionError("401")  # (what serve's writer() raises, undoing the savepoint)
                assert store._locked == {"m2"}
                with probe.transaction():
                    took = probe.execute("SELECT pg_try_advisory_xact_lock(hashtextextended('m1', 0))").fetchone()
                    assert took == (True,)
                    held = probe.execute("SELECT pg_try_advisory_xact_lock(hashtextextended('m2', 0))").fetchone()
                    assert held == (False,)
    finally:
        probe.close()
    assert _texts(pg_url, "m2") == [(1, None), (2, "kept")]
