"""The events a match may hold (docs/format.md, Limits: 100,000) on every write path (issue 36): the
store's append on both backends, ``dominolog append`` (exit 2), ``POST /api/matches/ID/events``
(``422``); and ``verify --db`` reads a match stored past the limit as the file reader reads its
export. In-process tests lower the limit (:data:`dominolog.log.reader.MAX_MATCH_EVENTS`); the
installed command and server get a store of 100,000 events by a bulk import (about 2 s)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dominolog.log import reader
from dominolog.store import FullMatchError, Store, open_store, verify_stored
from dominolog.verify import verify_paths
from tests.conftest import Ran
from tests.webserver import Server

START = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"m"}'
NOTE = b'{"type":"note","text":"n"}'


class LimitContract:
    """The tests each backend passes; a subclass gives the ``target``."""

    @pytest.fixture
    def store(self, target: str | Path) -> Iterator[Store]:
        with open_store(target) as store:
            yield store

    def test_the_event_past_the_limit_is_refused_and_nothing_written(
        self, store: Store, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(reader, "MAX_MATCH_EVENTS", 4)
        store.append("m", START)
        for _ in range(3):
            store.append("m", NOTE)
        with pytest.raises(FullMatchError, match=r"a match holds at most 4 events.*nothing was written"):
            store.append("m", NOTE)
        assert [rec.seq for rec, _ in store.records("m")] == [1, 2, 3, 4]
        assert verify_stored(store, "m").valid

    def test_verify_db_reads_a_match_stored_past_the_limit_as_the_file_reader(
        self, store: Store, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        store.append("m", START)
        for _ in range(6):
            store.append("m", NOTE)
        monkeypatch.setattr(reader, "MAX_MATCH_EVENTS", 4)  # (a store written before the limit was kept)
        report = verify_stored(store, "m")
        assert not report.valid
        assert [(v.seq, v.code) for v in report.violations] == [(5, "malformed")]
        assert "a match holds at most 4 events: seqs 5-7 (3 events) not read" in report.violations[0].message
        exported = tmp_path / "m.jsonl"
        exported.write_bytes(b"".join(line + b"\n" for line in store.lines("m")))
        (from_file,) = verify_paths([exported])
        assert [(v.seq, v.code) for v in from_file.violations] == [(5, "malformed")]


def test_append_to_a_file_refuses_the_event_past_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dominolog.recording.journal import FileJournal

    monkeypatch.setattr(reader, "MAX_MATCH_EVENTS", 3)
    log = tmp_path / "m.jsonl"
    journal = FileJournal(log)
    for line in (START, NOTE, NOTE):
        journal.append(line)
    with pytest.raises(FullMatchError, match="a match holds at most 3 events"):
        journal.append(NOTE)
    assert log.read_bytes().count(b"\n") == 3
    journal.append(START.replace(b'"m"', b'"m2"'))  # (a new match begins: it has room)
    assert log.read_bytes().count(b"\n") == 4


class TestSqlite(LimitContract):
    @pytest.fixture
    def target(self, tmp_path: Path) -> Path:
        return tmp_path / "store.db"


class TestPostgres(LimitContract):
    @pytest.fixture
    def target(self, pg_url: str) -> str:
        return pg_url


@pytest.fixture
def full_store(tmp_path: Path, cli: Callable[..., Ran]) -> Path:
    """A SQLite store holding the match ``big`` of exactly 100,000 events (imported at once)."""
    assert reader.MAX_MATCH_EVENTS == 100_000
    log = tmp_path / "big.jsonl"
    start = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"big"}'
    log.write_bytes(b"\n".join([start, *[NOTE] * 99_999]) + b"\n")
    db = tmp_path / "big.db"
    assert cli("import", log, "--db", db).code == 0
    return db


def test_append_and_the_api_refuse_the_event_past_the_limit(full_store: Path, cli: Callable[..., Ran]) -> None:
    ran = cli("append", "--db", full_store, "big", NOTE.decode())
    assert ran.code == 2, ran.err
    assert "a match holds at most 100,000 events" in ran.err and "nothing was written" in ran.err
    with Server(full_store, full_store.parent, "--no-analyse") as s:
        organiser = s.organiser
        for path, body in (
            ("/api/matches/big/events", NOTE.decode()),
            ("/api/matches/big/events", "\n".join([NOTE.decode()] * 3)),
        ):
            kind = "application/json" if "\n" not in body else "application/x-ndjson"
            r = s.client.post(path, content=body, headers={"Content-Type": kind, **s.auth(organiser)})
            assert r.status_code == 422, r.text
            assert "a match holds at most 100,000 events" in r.json()["error"] and r.json()["seqs"] == []
        r = s.client.get("/api/matches/big/events", params={"after": 99_999})
        assert r.status_code == 200 and r.content == NOTE + b"\n"
    assert cli("verify", "--db", full_store, "big").code == 0


def test_verify_db_reports_a_match_stored_past_the_limit(
    full_store: Path, cli: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "MAX_MATCH_EVENTS", 100_002)  # (as a store written before the limit was kept)
    with open_store(full_store) as store:
        store.append("big", NOTE)
        store.append("big", NOTE)
    ran = cli("verify", "--db", full_store, "big")
    assert ran.code == 1, ran.out
    assert "a match holds at most 100,000 events: seqs 100,001-100,002 (2 events) not read" in ran.out
