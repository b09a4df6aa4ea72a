"""One table does not slow every spectator (issue 36): the board reads a match's last time from the
store's projection (``matches.last_at``, kept on every write path, given to an older store, rebuilt by
``reindex``, on both backends), ``/tables`` draws a table from the store's fold of the match, the live
parts are made once per change of the store and shared among the pages that ask for them, the
standings read again only the matches that moved, and the limit on writes counts events, not requests.

The large match is built by a bulk import (quick); the tests count what the server reads (the store's
``records``, parts made), never how long it takes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dominolog.store import Store, open_store
from dominolog.store.store import Store as BaseStore

AT = "2026-12-06T20:00:00Z"
START = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "big", "at": AT}
NOTE = b'{"type":"note","text":"n"}'
#: the notes after the start (none with a time): enough that reading them all would show, few enough to stay quick
NOTES = 5_000


def _big_log(path: Path, start: dict[str, Any] = START, notes: int = NOTES) -> Path:
    path.write_bytes(b"\n".join([json.dumps(start).encode(), *[NOTE] * notes]) + b"\n")
    return path


def _last_at(store: Store, match_id: str) -> Any:
    return store.conn.execute("SELECT last_at FROM matches WHERE id = ?", (match_id,)).fetchone()[0]


class LastAtContract:
    """``matches.last_at`` on each backend; a subclass gives the ``target``."""

    @pytest.fixture
    def store(self, target: str | Path) -> Iterator[Store]:
        with open_store(target) as store:
            yield store

    def test_an_import_keeps_the_time_of_the_last_event_that_has_one(self, store: Store, tmp_path: Path) -> None:
        list(store.import_matches([_read(_big_log(tmp_path / "big.jsonl"))], "big.jsonl"))
        assert _last_at(store, "big") == AT

    def test_appends_keep_it_and_an_append_without_a_time_leaves_it(self, store: Store) -> None:
        store.append("m", json.dumps({**START, "id": "m"}).encode())
        assert _last_at(store, "m") == AT
        store.append("m", b'{"type":"note","text":"a","at":"2026-12-06T21:00:00Z"}')
        assert _last_at(store, "m") == "2026-12-06T21:00:00Z"
        store.append("m", NOTE)
        assert _last_at(store, "m") == "2026-12-06T21:00:00Z"
        no_time = {k: v for k, v in START.items() if k != "at"}
        store.append("n", json.dumps({**no_time, "id": "n"}).encode())
        assert _last_at(store, "n") is None

    def test_reindex_rebuilds_it(self, store: Store) -> None:
        store.append("m", json.dumps({**START, "id": "m"}).encode())
        store.append("m", b'{"type":"note","text":"a","at":"2026-12-06T21:00:00Z"}')
        store.append("m", NOTE)
        before = store.projections()
        with store.transaction():
            store.conn.execute("UPDATE matches SET last_at = NULL")
        assert store.reindex() == 1
        assert store.projections() == before and _last_at(store, "m") == "2026-12-06T21:00:00Z"

    def test_an_older_store_is_given_the_column_filled_from_its_events(self, target: str | Path) -> None:
        with open_store(target) as store:
            store.append("m", json.dumps({**START, "id": "m"}).encode())
            store.append("m", b'{"type":"note","text":"a","at":"2026-12-06T21:00:00Z"}')
            store.append("m", NOTE)
            with store.transaction():
                store.conn.execute("ALTER TABLE matches DROP COLUMN last_at")  # (as a store made before it)
        with open_store(target) as store:
            assert _last_at(store, "m") == "2026-12-06T21:00:00Z"
            store.append("m", b'{"type":"note","text":"b","at":"2026-12-06T22:00:00Z"}')
            assert _last_at(store, "m") == "2026-12-06T22:00:00Z"


def _read(path: Path) -> Any:
    from dominolog.log.reader import iter_matches

    (log,) = iter_matches(path)
    return log


class TestSqlite(LastAtContract):
    @pytest.fixture
    def target(self, tmp_path: Path) -> Path:
        return tmp_path / "store.db"


class TestPostgres(LastAtContract):
    @pytest.fixture
    def target(self, pg_url: str) -> str:
        return pg_url


# -- the pages, in the server's process ------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Any, Path]]:
    """A store with the long match ``big`` (its last events without a time: a log imported, or written
    by ``dominolog append``, whose hand is open) and a short one, and the app serving it."""
    from dominolog.web.app import create_app

    deal = '{"type":"deal","leader":"Ana","hands":null}'
    db = tmp_path / "s.db"
    lines = [json.dumps({**START, "meta": {"table": "1"}}), deal, *[NOTE.decode()] * NOTES]
    (tmp_path / "big.jsonl").write_text("\n".join(lines) + "\n")
    small = {**START, "id": "small", "meta": {"table": "2"}, "at": "2026-12-06T20:30:00Z"}
    (tmp_path / "small.jsonl").write_text(json.dumps(small) + "\n" + deal + "\n")
    with open_store(db) as store:
        list(store.import_matches([_read(tmp_path / "big.jsonl"), _read(tmp_path / "small.jsonl")], "x"))
    app = create_app(str(db), analyse=False)
    yield TestClient(app), app.app.state.web, db  # type: ignore[attr-defined]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many events each match's reads of the store returned (``Store.records``)."""
    counted: dict[str, int] = {}
    records = BaseStore.records

    def counting(self: BaseStore, match_id: str, after: int = 0) -> Any:
        got = records(self, match_id, after)
        counted[match_id] = counted.get(match_id, 0) + len(got)
        return got

    monkeypatch.setattr(BaseStore, "records", counting)
    return counted


def test_the_board_says_the_last_time_without_reading_the_long_match(
    served: tuple[TestClient, Any, Path], reads: dict[str, int]
) -> None:
    client, _, _ = served
    client.get("/part")  # (the first request folds the matches once: the store keeps them folded)
    reads.clear()
    for _ in range(3):
        r = client.get("/part", params={"event": "", "round": ""})
        assert r.status_code == 200
        assert AT in r.text and "2026-12-06T20:30:00Z" in r.text
    assert reads.get("big", 0) == 0


def test_the_tables_draw_an_open_hand_without_reading_the_long_match(
    served: tuple[TestClient, Any, Path], reads: dict[str, int]
) -> None:
    client, _, db = served
    client.get("/tables/part")
    with open_store(db) as store:
        store.append("big", NOTE)  # (the store moved: the part is made again)
    reads.clear()
    r = client.get("/tables/part")
    assert r.status_code == 200 and r.text.count("<svg") == 2
    assert f"after seq {NOTES + 3}" in r.text  # (the fold brought up to date: the new event read alone)
    assert reads.get("big", 0) <= 1


def test_a_part_is_made_once_per_change_and_shared(served: tuple[TestClient, Any, Path]) -> None:
    client, web, db = served
    made = web.rendered.made
    texts = {client.get("/part").text for _ in range(10)}
    assert len(texts) == 1 and web.rendered.made == made + 1
    with open_store(db) as store:
        store.append("small", NOTE)
    client.get("/part")
    assert web.rendered.made == made + 2
    client.get("/tables/part")
    client.get("/standings/part")
    client.get("/standings/part")
    assert web.rendered.made == made + 4


def test_a_part_is_kept_for_what_the_request_may_read(served: tuple[TestClient, Any, Path]) -> None:
    """A private event's match is not shown to a request without its key from a part made for one with it."""
    client, _, db = served
    with open_store(db) as store:
        _, organiser = store.create_token("organiser", who="o")
        store.set_private("*", True)
    seen = client.get("/part", headers={"Authorization": f"Bearer {organiser}"})
    assert "big" in seen.text
    assert "big" not in client.get("/part").text


def test_the_standings_read_again_only_the_matches_that_moved(
    served: tuple[TestClient, Any, Path], reads: dict[str, int]
) -> None:
    client, _, db = served
    assert client.get("/standings/part").status_code == 200
    reads.clear()
    with open_store(db) as store:
        store.append("small", NOTE)
    assert client.get("/standings/part").status_code == 200
    assert reads.get("big", 0) == 0 and reads.get("small", 0) > 0


def test_the_limit_on_writes_counts_events_not_requests(tmp_path: Path) -> None:
    from dominolog.web.app import create_app

    db = tmp_path / "r.db"
    with open_store(db) as store:
        _, organiser = store.create_token("organiser", who="o")
    client = TestClient(create_app(str(db), rate=5, analyse=False))
    auth = {"Authorization": f"Bearer {organiser}"}
    start = json.dumps({**START, "id": "r"})
    assert client.post("/api/matches", content=start, headers={**auth, "Content-Type": "application/json"}).is_success
    notes = "\n".join([NOTE.decode()] * 300)  # (past the burst a token may send: 5 a second x 50 s)
    many = client.post("/api/matches/r/events", content=notes, headers={**auth, "Content-Type": "application/x-ndjson"})
    assert many.status_code == 201, many.text
    after = client.post("/api/matches/r/events", content=NOTE, headers={**auth, "Content-Type": "application/json"})
    assert after.status_code == 429, after.text
    assert "events a second" in after.json()["error"]
    assert int(after.headers["retry-after"]) >= 9  # (300 events past 249 at 5 a second: 10 seconds to pay)


def test_the_board_streams_woken_by_one_move_ask_the_store_once() -> None:
    """Issue 36: 500 streams follow the board; at each move each asked the store whether it may see the
    match that moved, and the mark as it sees it (two reads on the server's threads a stream and a move).
    Those that read with the same key now share one answer (web.rendered.Once)."""
    import asyncio

    from dominolog.web.rendered import Once

    once = Once(kept=4)
    calls: list[str] = []

    async def look(what: str) -> str:
        calls.append(what)
        await asyncio.sleep(0.01)
        return f"seen {what}"

    async def streams() -> list[str]:
        anonymous = [once.get((None, 1, 2), lambda: look("anonymous")) for _ in range(500)]
        keyed = [once.get(("viewer-key", 1, 2), lambda: look("viewer")) for _ in range(3)]
        return list(await asyncio.gather(*anonymous, *keyed))

    answers = asyncio.run(streams())
    assert answers == ["seen anonymous"] * 500 + ["seen viewer"] * 3
    assert calls == ["anonymous", "viewer"]
    assert (once.made, once.shared) == (2, 501)

    async def later() -> str:  # a later move is asked again; the oldest answers are dropped past `kept`
        for n in range(2, 8):
            await once.get((None, n, n + 1), lambda n=n: look(f"move {n}"))
        return await once.get((None, 1, 2), lambda: look("again"))

    assert asyncio.run(later()) == "seen again"
    assert calls[-1] == "again" and once.made == 9


def test_a_long_match_is_folded_off_the_one_writer_that_every_table_waits_for(
    served: tuple[TestClient, Any, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36: the first write to a long match made the one writer thread of a SQLite store fold it whole
    (and its recording session read every event again for its clock): seconds, while every other table's
    append waited. Now a reader's thread folds it (for a token that may write to it) and hands the fold over;
    the writer reads only what was stored since. A request that will be refused folds nothing."""
    import threading

    client, _web, db = served
    by_thread: list[tuple[str, str, int, int]] = []
    records = BaseStore.records

    def counting(self: BaseStore, match_id: str, after: int = 0) -> Any:
        got = records(self, match_id, after)
        by_thread.append((threading.current_thread().name, match_id, after, len(got)))
        return got

    monkeypatch.setattr(BaseStore, "records", counting)
    body = b"\n".join([NOTE] * 3)
    refused = client.post("/api/matches/big/events", content=body, headers={"Content-Type": "application/x-ndjson"})
    assert refused.status_code == 401 and by_thread == []  # (no token: nothing folded)

    with open_store(db) as store:
        _, table = store.create_token("table", "big")
    ok = client.post(
        "/api/matches/big/events",
        content=body,
        headers={"Content-Type": "application/x-ndjson", "Authorization": f"Bearer {table}"},
    )
    assert ok.status_code == 201 and ok.json()["seqs"] == [NOTES + 3, NOTES + 4, NOTES + 5]
    writer = [(m, after, n) for name, m, after, n in by_thread if name == "dominolog-writer"]
    folded = [(m, after, n) for name, m, after, n in by_thread if name != "dominolog-writer"]
    assert folded == [("big", 0, NOTES + 2)]  # the whole match, once, on a reader's thread
    assert all(n <= 3 for _, _, n in writer), writer  # the writer: only its own events
