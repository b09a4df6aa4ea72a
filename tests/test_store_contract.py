"""The store's contract, one test case run against every backend (eventsourcing's pattern): the tests
are in :class:`StoreContract`; :class:`TestSqliteStore` and :class:`TestPostgresStore` each give the
store (a target for :func:`open_store`) and the backend's ways past its own guards (a test may tamper
as a database owner can).

Every test also holds the backend to the SQLite store of today: the same files imported into a fresh
SQLite file give the same projections, row for row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from dominolog.log.reader import iter_matches
from dominolog.store import ConflictError, ReadOnlyError, RefusedError, Store, StoreError, open_store, verify_stored
from tests.conftest import ROOT, statements_of

REPLAYS = sorted((ROOT / "replays").glob("*.jsonl"))
SEASON = sorted((ROOT / "replays" / "club-season").glob("*.jsonl"))
#: projection rows edited behind the store's back (as an owner may): JSON that is not valid, of the wrong
#: type, a winner that is no player; the views must read them, each backend alike
EDITS = [
    ("UPDATE hands SET points = '{broken' WHERE match_id = 'sim-ghost13-7-1' AND number = 1", ()),
    ("UPDATE hands SET points = '[1, 2]', winner = '[7, \"Ana\"]' WHERE match_id = ? AND number = 2", ("Zeta-1",)),
    ("UPDATE hands SET winner = 'null' WHERE match_id = 'club-2026-09-03-table-1' AND number = 1", ()),
    ("UPDATE matches SET meta = ? WHERE id = 'club-2026-09-03-table-1'", ('{"date": 5, "event": "x"}',)),
    ("UPDATE matches SET meta = ? WHERE id = 'club-2026-09-17-table-1'", ('{"date": "2026-02-30", "table": "2"}',)),
    ("UPDATE matches SET players = '\"Ana\"' WHERE id = 'alpha-2'", ()),
    ("UPDATE matches SET winner = 'not json' WHERE id = 'Éclair'", ()),
    ("UPDATE matches SET players = '[\"Ana\", \"Nobody\"]' WHERE id = 'zeta-1'", ()),
]
GHOST = ROOT / "replays" / "ghost13-disputed.jsonl"
GHOST_ID = "disputed-2026-11-20"
START = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"m"}'
DEAL = b'{"type":"deal","leader":"Ana","hands":null}'
#: lines a store must give back byte for byte: not UTF-8, an escaped NUL in a copied column, a
#: non-ASCII name, odd spacing
HOSTILE = [
    b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"hostile","at":"2026-11-20T21:05:25Z"}',
    b'{"type":"deal",  "leader":"Ana","hands":null,"at":"2026\\u0000-11"}',
    b'{"type":"note","text":"caf\xe9 \xff not UTF-8"}',
    '{"type":"note","text":"Zoë ♠ \\u00e9"}'.encode(),
]


#: matches stored under ids (and with players) that differ in case or are not ASCII, which a linguistic
#: collation orders otherwise than their bytes (ICU en-US: alpha-2, Alpha-1, éclair, Éclair, zeta-1,
#: Zeta-1, Ωmega): the order of every backend is the bytes' (SQLite's), ``sorted`` in Python
RENAMED = {
    "Zeta-1": ("Ana", "Ben"),
    "alpha-2": ("Ana", "ben"),
    "Alpha-1": ("Åsa", "Ben"),
    "éclair": ("Ana", "Ben"),
    "Éclair": ("zoë", "Zoe"),
    "Ωmega": ("Ana", "Ben"),
    "zeta-1": ("Ana", "Ben"),
    "_10": ("ana", "Ben"),
}


def renamed_file(tmp_path: Path) -> Path:
    """The simulated Ghost 13 match once under each id of :data:`RENAMED`, with its players (no hashes:
    each copy is a valid match of its own)."""
    lines = (ROOT / "replays" / "ghost13-simulated.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for mid, (ana, ben) in RENAMED.items():
        for line in lines:
            obj = json.loads(line)
            obj.pop("hash", None)
            if obj["type"] == "match_start":
                obj["id"] = mid
            text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
            out.append(text.replace('"Ana"', json.dumps(ana, ensure_ascii=False)).replace('"Ben"', json.dumps(ben)))
    path = tmp_path / "renamed.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def views_of(store: Store) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Each view's column names and rows, as the store's database gives them (in the view's order)."""
    out = {}
    for view in ("hand_scores", "standings"):
        cur = store.conn.execute(f"SELECT * FROM {view}")
        out[view] = ([d[0] for d in cur.description], [tuple(r) for r in cur.fetchall()])
    return out


def names_of(store: Store) -> set[str]:
    """The names of the tables and views of the store's database (its schema's)."""
    if isinstance(store.path, Path):
        return {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")}
    sql = "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'"
    return {r[0] for r in store.conn.execute(sql)}


def import_files(store: Store, files: list[Path]) -> list[str]:
    """Import ``files``; the statuses of the matches, in order."""
    out = []
    for f in files:
        out += [r.status for r in store.import_matches(iter_matches(f))]
    return out


def hostile_file(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"\n".join(HOSTILE) + b"\n")
    return path


class StoreContract:
    """The tests every backend passes. A subclass gives the ``target`` fixture and :meth:`tamper`."""

    @pytest.fixture
    def target(self, tmp_path: Path) -> str | Path:
        raise NotImplementedError

    @pytest.fixture
    def store(self, target: str | Path) -> Iterator[Store]:
        with open_store(target) as s:
            yield s

    def tamper(self, store: Store, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run an UPDATE or DELETE on ``events`` past the database's own guards (as an owner can)."""
        raise NotImplementedError

    #: what the database raises when it refuses a statement
    refused: tuple[type[BaseException], ...] = ()

    def reference_matches(self, tmp_path: Path, files: list[Path]) -> list[dict[str, Any]]:
        """The rows of ``list_matches`` a fresh SQLite store gives for ``files``."""
        with open_store(tmp_path / "reference-list.db") as ref:
            import_files(ref, files)
            return ref.list_matches()

    def reference_views(
        self, tmp_path: Path, files: list[Path], edits: Sequence[tuple[str, tuple[Any, ...]]] = ()
    ) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
        """The columns and rows of the views a fresh SQLite store gives for ``files``, its projections
        edited with ``edits`` first."""
        db = tmp_path / f"reference-views-{len(edits)}.db"
        with open_store(db) as ref:
            import_files(ref, files)
            with ref._write():
                for sql, params in edits:
                    ref.conn.execute(sql, params)
            return views_of(ref)

    def reference(self, tmp_path: Path, files: list[Path]) -> tuple[list[Any], list[Any]]:
        """The projections a fresh SQLite store gives for ``files``."""
        with open_store(tmp_path / "reference.db") as ref:
            import_files(ref, files)
            return ref.projections()

    # -- import and read back ---------------------------------------------------------------------------------
    def test_import_gives_every_line_back_byte_for_byte(self, store: Store, tmp_path: Path) -> None:
        files = [*REPLAYS, hostile_file(tmp_path)]
        assert import_files(store, files) == ["imported"] * 23
        for f in files:
            for log in iter_matches(f):
                mid = log.records[0].obj["id"]  # type: ignore[index]
                assert list(store.lines(mid)) == [r.data for r in log.records]
                assert [rec.data for rec, _ in store.records(mid)] == [r.data for r in log.records]
                assert store.start_of(mid).data == log.records[0].data  # type: ignore[union-attr]
        assert list(store.lines("hostile")) == HOSTILE
        assert len(store.match_ids()) == 23 and store.has_match("hostile") and not store.has_match("nope")
        assert store.projections() == self.reference(tmp_path, files)
        assert import_files(store, [GHOST]) == ["skipped", "skipped"]  # the same lines again

    def test_a_column_with_no_value_is_null_whether_imported_or_appended(self, store: Store, tmp_path: Path) -> None:
        """An import binds a column with no value as 0 made NULL by its statement (SQLite: not None, which
        Python's sqlite3 adapts slowly); every such column reads back NULL, as an append stores it, and
        never the 0: the events' player, tile, raw and at, of every row of every replay and the hostile
        lines, imported and appended."""
        files = [*REPLAYS, hostile_file(tmp_path)]
        import_files(store, files)
        from dominolog.simulate import simulate_lines

        mid = ""
        for variant in ("ghost13", "double-draw"):
            for line in simulate_lines(variant, 2, "no-value"):
                mid = json.loads(line)["id"] if '"match_start"' in line else mid
                store.append(mid, line.encode())
        flags = {
            tuple(row)
            for row in store.conn.execute(
                "SELECT match_id LIKE 'sim-%', player IS NULL, tile IS NULL, raw IS NULL, at IS NULL FROM events"
            )
        }
        for appended in (False, True):  # (both ways, a column left empty in some row, filled in another)
            rows = [f[1:] for f in flags if bool(f[0]) == appended]
            assert {bool(r[0]) for r in rows} == {bool(r[1]) for r in rows} == {True, False}
            assert any(r[2] for r in rows)
        assert {bool(f[4]) for f in flags} == {True, False}  # (the replays' lines without a time)
        zeros = "SELECT count(*) FROM events WHERE player = '0' OR tile = '0' OR at = '0'"
        assert store.conn.execute(zeros).fetchone() == (0,)
        if type(store).__name__ == "SqliteStore":  # (and in SQLite's columns, which take any type: no integer)
            typed = "SELECT DISTINCT typeof(player), typeof(tile), typeof(raw), typeof(at) FROM events"
            assert {t for row in store.conn.execute(typed) for t in row} <= {"null", "text", "blob"}

    def test_verify_finds_the_stored_matches_as_the_files_are(self, store: Store, tmp_path: Path) -> None:
        import_files(store, [*REPLAYS, hostile_file(tmp_path)])
        invalid = sorted(m for m in store.match_ids() if not verify_stored(store, m).valid)
        with open_store(tmp_path / "reference.db") as ref:
            import_files(ref, [*REPLAYS, hostile_file(tmp_path)])
            assert invalid == sorted(m for m in ref.match_ids() if not verify_stored(ref, m).valid)
        assert all("hash-mismatch" not in str(verify_stored(store, m).violations) for m in store.match_ids())

    def test_other_lines_under_a_stored_id_are_a_conflict(self, store: Store, tmp_path: Path) -> None:
        import_files(store, [GHOST])
        lines = GHOST.read_bytes().splitlines()
        lines[5] = lines[5].replace(b'"at":"', b'"at":"1')
        other = tmp_path / "other.jsonl"
        other.write_bytes(b"\n".join(lines) + b"\n")
        result, same = store.import_matches(iter_matches(other))
        assert result.status == "conflict" and "first difference at seq 6" in result.reason
        assert same.status == "skipped"
        assert list(store.lines(GHOST_ID)) == GHOST.read_bytes().splitlines()[: len(store.records(GHOST_ID))]

    def test_matches_are_listed_in_the_order_of_their_ids_bytes(self, store: Store, tmp_path: Path) -> None:
        """Ids that differ in case or are not ASCII come back in one order on every backend, their bytes'
        (SQLite's): ``Zeta-1`` before ``alpha-2``, whatever the database's collation (PostgreSQL's runs
        on an ICU en-US database here, which would put ``alpha-2`` first)."""
        files = [*REPLAYS, renamed_file(tmp_path), hostile_file(tmp_path)]
        assert import_files(store, files) == ["imported"] * 31
        reference = self.reference_matches(tmp_path, files)
        ids = sorted(m["id"] for m in reference)
        assert ids.index("Alpha-1") < ids.index("Zeta-1") < ids.index("_10") < ids.index("alpha-2")
        assert ids.index("alpha-2") < ids.index("zeta-1") < ids.index("Éclair") < ids.index("éclair")
        assert ids[-1] == "Ωmega"
        assert store.match_ids() == ids
        assert store.list_matches() == reference
        assert [r["id"] for r in reference] == ids
        complete = [r["id"] for r in reference if r["variant"] == "ghost13" and r["status"] == "complete"]
        assert [r["id"] for r in store.list_matches(variant="ghost13", status="complete")] == complete
        assert complete[:4] == ["Alpha-1", "Zeta-1", "_10", "alpha-2"]
        with_ben = [r["id"] for r in reference if "Ben" in json.loads(r["players"])]
        assert [r["id"] for r in store.list_matches(player="Ben")] == with_ben
        assert [r["id"] for r in store.list_matches(player="ben")] == ["alpha-2"]  # (names are not folded)
        assert store.projections() == self.reference(tmp_path, files)
        hands = [h[0] for h in store.projections()[1]]
        assert hands == sorted(hands) and hands.index("Zeta-1") < hands.index("alpha-2")

    # -- appending -----------------------------------------------------------------------------------------------
    def test_append_writes_each_event_in_sequence(self, store: Store) -> None:
        assert store.append("m", START, expected_seq=1).seq == 1
        assert store.append("m", DEAL, expected_seq=2).seq == 2
        done = store.append("m", b'{"type":"play","player":"Ana","tile":"6-6"}')
        assert done.seq == 3 and done.head == store.records("m")[-1][1]
        assert [rec.seq for rec, _ in store.records("m")] == [1, 2, 3]
        assert [rec.seq for rec, _ in store.records("m", after=2)] == [3]
        (row,) = store.list_matches()
        assert (row["id"], row["events"], row["status"], row["head"]) == ("m", 3, "open", done.head)
        assert verify_stored(store, "m").valid

    def test_the_fold_after_an_append_in_a_transaction_is_the_one_kept_without_a_read(self, store: Store) -> None:
        store.append("m", START)
        with store.transaction():
            done = store.append("m", DEAL)
            with statements_of(store) as read:
                fold = store.fold_after("m", done)
            assert read == [] and (fold.seq, fold.head, fold.reducer.events) == (2, done.head, 2)
        done = store.append("m", b'{"type":"note","text":"alone"}')  # (its own transaction, committed)
        with statements_of(store) as read:
            fold = store.fold_after("m", done)
        assert len(read) == 1 and (fold.seq, fold.head, fold.reducer.events) == (3, done.head, 3)
        assert fold.head == store.records("m")[-1][1]

    def test_a_taken_seq_is_a_conflict_and_nothing_is_written(self, store: Store) -> None:
        store.append("m", START)
        store.append("m", DEAL)
        with pytest.raises(ConflictError, match="seq 2 is taken"):
            store.append("m", b'{"type":"note","text":"late"}', expected_seq=2)
        assert len(store.records("m")) == 2
        with pytest.raises(RefusedError):
            store.append("m", b"not json")
        assert len(store.records("m")) == 2

    def test_two_recorders_on_one_seq_make_one_winner_not_a_fork(self, target: str | Path) -> None:
        with open_store(target) as first, open_store(target) as second:
            first.append("m", START)
            second.append("m", DEAL, expected_seq=2)  # each has folded the match
            first.append("m", b'{"type":"play","player":"Ana","tile":"6-6"}', expected_seq=3)
            with pytest.raises(ConflictError):
                second.append("m", b'{"type":"play","player":"Ana","tile":"5-5"}', expected_seq=3)
            assert b"6-6" in list(second.lines("m"))[2] and len(second.records("m")) == 3
            assert second.append("m", b'{"type":"pass","player":"Ben"}').seq == 4  # folds the match again
            assert verify_stored(first, "m").valid

    # -- append-only, guarded by the database itself -------------------------------------------------------------
    def test_update_and_delete_of_events_are_refused_by_the_database(self, store: Store) -> None:
        store.append("m", START)
        before = list(store.lines("m"))
        for sql in ("UPDATE events SET json = '{}'", "DELETE FROM events", "UPDATE events SET hash = '' WHERE seq = 1"):
            with pytest.raises(self.refused, match="append-only"):
                store.conn.execute(sql)
            store._rollback()
        assert list(store.lines("m")) == before

    # -- the club events' logs (issue 35): append-only, in sequence, one writer a seq ----------------------------
    def test_club_records_are_kept_in_sequence_and_refused_to_change(self, store: Store) -> None:
        from dominolog.store.clublog import ClubLogConflict

        first = store.append_club_record("Club night", {"type": "event_create", "name": "Club night"}, 1)
        second = store.append_club_record("Club night", {"type": "player_add", "name": "Zoë <b>"})
        assert (first["seq"], second["seq"]) == (1, 2)
        assert list(first) == ["type", "seq", "at", "name"]
        with pytest.raises(ClubLogConflict, match="record 2 is taken"):
            store.append_club_record("Club night", {"type": "player_add", "name": "Ben"}, 2)
        store.append_club_record("Later", {"type": "event_create", "name": "Later"}, 1)
        assert store.club_records("Club night") == [first, second]
        assert set(store.club_events()) == {"Club night", "Later"}
        for sql in ("UPDATE club_log SET json = '{}'", "DELETE FROM club_log"):
            with pytest.raises(self.refused, match="append-only"):
                store.conn.execute(sql)
            store._rollback()
        assert store.club_records("Club night") == [first, second]

    def test_a_round_is_paired_with_its_matches_in_one_transaction(self, store: Store) -> None:
        from dominolog.tournament.director import add_player, create_event, load, pair_next_round

        create_event(store, "Club night", rounds=2, variant="ghost13", date="2026-12-06")
        for name in ("Ana", "Ben", "Cy", "Dee", "Eve"):
            add_player(store, "Club night", name)
        rnd = pair_next_round(store, "Club night")
        assert [(t.table, t.first, t.second, t.match) for t in rnd.tables] == [
            (1, "Ana", "Cy", "club-night-r1-t1"),
            (2, "Ben", "Dee", "club-night-r1-t2"),
            (3, "Eve", None, None),
        ]
        start = store.start_of("club-night-r1-t2")
        assert start is not None and start.obj["players"] == ["Ben", "Dee"]
        assert start.obj["meta"] == {
            "event": "Club night",
            "round": "1",
            "table": "2",
            "leads": "Ben",
            "date": "2026-12-06",
        }
        assert [r["type"] for r in store.club_records("Club night")][-1] == "round_pair"
        assert load(store, "Club night").problems == []

    def test_verify_finds_a_row_changed_behind_the_store(self, store: Store) -> None:
        import_files(store, [GHOST])
        assert verify_stored(store, GHOST_ID).valid is False  # (a disputed match: invalid by its rules)
        clean = {i.code for i in verify_stored(store, GHOST_ID).violations}
        assert "hash-mismatch" not in clean
        self.tamper(
            store,
            "UPDATE events SET json = replace(json, '\"6-6\"', '\"5-5\"') WHERE match_id = ? AND seq = 3",
            (GHOST_ID,),
        )
        found = [i for i in verify_stored(store, GHOST_ID).violations if i.code == "hash-mismatch"]
        assert {i.seq for i in found} == {3}
        assert any("changed in the database after it was written" in i.message for i in found)

    def test_verify_finds_a_deleted_tail(self, store: Store) -> None:
        import_files(store, [GHOST])
        events = len(store.records(GHOST_ID))
        self.tamper(store, "DELETE FROM events WHERE match_id = ? AND seq > ?", (GHOST_ID, events - 2))
        found = [i for i in verify_stored(store, GHOST_ID).violations if i.code == "hash-mismatch"]
        assert len(found) == 1 and "events were deleted or changed" in found[0].message

    # -- projections ---------------------------------------------------------------------------------------------
    def test_reindex_rebuilds_the_projections_it_had(self, store: Store, tmp_path: Path) -> None:
        import_files(store, REPLAYS)
        store.append("m", START)
        before = store.projections()
        with store._write():
            store.conn.execute("DELETE FROM hands")
            store.conn.execute("UPDATE matches SET status = 'complete', totals = '{}'")
        assert store.projections() != before
        assert store.reindex() == 23
        assert store.projections() == before

    def test_list_filters_and_first_times(self, store: Store) -> None:
        import_files(store, REPLAYS)
        every = store.list_matches()
        assert len(every) == 22
        assert store.list_matches(variant="ghost13") == [r for r in every if r["variant"] == "ghost13"] != []
        assert store.list_matches(status="invalid") == [r for r in every if r["violations"]] != []
        assert store.list_matches(player="Nobody") == []
        with_ana = store.list_matches(player="Ana")
        assert with_ana and all("Ana" in json.loads(r["players"]) for r in with_ana)
        assert store.first_at(GHOST_ID) == "2026-11-20T21:05:25Z"
        assert store.close_ids("disputed-2026-11-2")[0] == GHOST_ID

    def test_the_views_give_the_rows_a_sqlite_store_gives(self, store: Store, tmp_path: Path) -> None:
        """``hand_scores`` and ``standings`` hold, column for column and row for row in the same order,
        what a SQLite store's views hold for the same matches (the club season, the replays, ids and
        players differing in case): the same values of the same Python types; and again once rows of
        the projections are edited behind the store's back (JSON not valid or of the wrong type, a
        date that is no day): no view fails, both read them alike."""
        files = [*SEASON, *REPLAYS, renamed_file(tmp_path), hostile_file(tmp_path)]
        import_files(store, files)
        got = views_of(store)
        assert got == self.reference_views(tmp_path, files)
        hand_scores, standings = got["hand_scores"][1], got["standings"][1]
        assert len(hand_scores) == 653 and len(standings) == 32
        club = next(r for r in hand_scores if r[0] == "club-2026-09-03-table-1")
        assert club == ("club-2026-09-03-table-1", "2026-09-03", "Thursday club, evening 1", "1", "ghost13", "complete",
                        1, 1, "block", "Ben", "Ana", 1, 0, 0, 0)  # fmt: skip
        assert [type(v) for v in club] == [str] * 6 + [int, int, str, str, str, int, int, int, int]
        ghost13 = [r[1] for r in standings if r[0] == "ghost13"]
        assert ghost13 == ["Ana", "Ben", "Cleo", "Gus", "Zoe", "ana", "ben", "zoë", "Åsa"]  # (the bytes' order)
        assert [type(v) for v in standings[0]] == [str, str] + [int] * 7 + [float, int]
        ids = [r[0] for r in hand_scores]
        assert ids == sorted(ids) and ids.index("Zeta-1") < ids.index("alpha-2")
        with store._write():
            for sql, params in EDITS:
                store.conn.execute(sql, params)
        edited = views_of(store)
        assert edited == self.reference_views(tmp_path, files, EDITS) != got

    # -- analyses ------------------------------------------------------------------------------------------------
    def test_analyses_are_kept_by_head_version_and_settings(self, store: Store) -> None:
        store.append("m", START)
        head = store.records("m")[-1][1]
        store.save_analysis("m", head, "1", {"samples": 8}, {"review": 1})
        store.save_analysis("m", head, "1", {"samples": 8}, {"review": 2})  # replaces
        store.save_analysis("m", head, "1", {"samples": 16}, {"review": 3})
        assert store.analysis("m", head, "1", {"samples": 8}) == {"review": 2}
        assert store.analysis("m", head, "2", {"samples": 8}) is None
        assert store.analysis("m", "other", "1", {"samples": 8}) is None
        assert sorted(r["review"] for _, r in store.analyses_of("m", head, "1")) == [2, 3]

    # -- opening -------------------------------------------------------------------------------------------------
    def test_nothing_there_is_a_clear_error_without_create(self, target: str | Path) -> None:
        with pytest.raises(StoreError, match="import something first"):
            open_store(target, create=False)

    def test_a_store_can_be_opened_again_and_read(self, target: str | Path) -> None:
        with open_store(target) as s:
            import_files(s, [GHOST])
        with open_store(target, create=False, write=False) as s:
            assert s.match_ids() == [GHOST_ID, "disputed-hidden-2026-11-20"] and not s.read_only

    def test_a_recorder_whose_database_fails_is_told_and_loses_nothing(self, target: str | Path) -> None:
        """The recorder's journal turns what the driver raises (a server gone, a file busy) into a
        StoreError, which the recorder screen shows: the entry stays in its line, nothing half written."""
        from dominolog.recording.journal import StoreJournal

        store = open_store(target)
        store.append("m", START)
        journal = StoreJournal(store, "m")
        journal.append(DEAL)
        store.conn.close()
        with pytest.raises(StoreError, match=r"#m: the database failed"):
            journal.append(b'{"type":"note","text":"lost?"}')
        with pytest.raises(StoreError, match=r"#m: the database failed"):
            journal.refresh()
        with open_store(target) as again:
            assert [rec.seq for rec, _ in again.records("m")] == [1, 2]


class TestSqliteStore(StoreContract):
    refused = (sqlite3.IntegrityError,)

    @pytest.fixture
    def target(self, tmp_path: Path) -> Path:
        return tmp_path / "store.db"

    def tamper(self, store: Store, sql: str, params: tuple[Any, ...] = ()) -> None:
        with store._write():
            store.conn.execute("DROP TRIGGER events_append_only_update")
            store.conn.execute("DROP TRIGGER events_append_only_delete")
            store.conn.execute(sql, params)


class TestPostgresStore(StoreContract):
    """On a database whose collation orders text as a person does (ICU en-US), not by its bytes: what
    the store orders must not follow it."""

    @pytest.fixture
    def target(self, pg_linguistic_url: str) -> str:
        return pg_linguistic_url

    @property
    def refused(self) -> tuple[type[BaseException], ...]:  # type: ignore[override]
        import psycopg

        return (psycopg.errors.InsufficientPrivilege,)

    def tamper(self, store: Store, sql: str, params: tuple[Any, ...] = ()) -> None:
        """As the table's owner (here a superuser): the triggers disabled for one transaction."""
        with store._write():
            store.conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
            store.conn.execute(sql, params)
            store.conn.execute("ALTER TABLE events ENABLE TRIGGER USER")

    @staticmethod
    def make_old(store: Store) -> None:
        """Make the store as a store made before issue 25 was: no views (nor their functions), the id
        columns in the database's collation (ICU en-US here)."""
        store.conn.execute("DROP VIEW hand_scores, standings")
        store.conn.execute("DROP FUNCTION dominolog_json, dominolog_iso_time")
        for table, column in (("events", "match_id"), ("matches", "id"), ("hands", "match_id")):
            store.conn.execute(f'ALTER TABLE {table} ALTER COLUMN {column} TYPE text COLLATE "default"')
        assert not {"hand_scores", "standings"} & names_of(store)

    def test_a_store_made_before_lists_in_the_bytes_order_and_gets_the_views(
        self, store: Store, target: str, tmp_path: Path
    ) -> None:
        """A store made before its id columns were in the "C" collation has them in the database's: the
        queries ask for the bytes' order themselves, so it lists as a new one does. Made before the
        views too, it gets them the next time its owner opens it (for reading, as SQLite's does), with
        the rows a SQLite store's views hold."""
        self.make_old(store)
        assert store.conn.execute("SELECT max(id) FROM (VALUES ('alpha-2'), ('Zeta-1')) AS v(id)").fetchone() == (
            "Zeta-1",
        )  # (the database's collation puts Zeta-1 last)
        files = [*REPLAYS, renamed_file(tmp_path)]
        import_files(store, files)
        ids = sorted(m["id"] for m in self.reference_matches(tmp_path, files))
        assert store.match_ids() == ids and [r["id"] for r in store.list_matches()] == ids
        assert store.projections() == self.reference(tmp_path, files)
        assert not {"hand_scores", "standings"} & names_of(store)
        with open_store(target, create=False, write=False) as again:
            assert {"hand_scores", "standings"} <= names_of(again)
            assert views_of(again) == self.reference_views(tmp_path, files)
            assert again.projections() == self.reference(tmp_path, files)

    def test_the_views_come_with_a_role_that_may_create_and_a_users_name_is_left_alone(
        self, store: Store, target: str
    ) -> None:
        """A recorder's role (SELECT and INSERT, no CREATE in the schema: PostgreSQL 15's default) and a
        reader's open a store made before the views, use it and leave it without them, no error; its
        owner's opening adds them, but not over a table of the user's named ``standings``."""
        import psycopg

        self.make_old(store)
        store.append("m", START)
        store.conn.execute("CREATE TABLE standings (note text)")
        store.conn.execute("INSERT INTO standings VALUES ('mine')")
        suffix = target.split("/")[3].split("?")[0]
        recorder, reader = f"rec_{suffix}", f"read_{suffix}"
        store.conn.execute(f"CREATE ROLE {recorder} LOGIN")
        store.conn.execute(f"CREATE ROLE {reader} LOGIN")
        store.conn.execute(f"GRANT SELECT, INSERT ON events TO {recorder}")
        store.conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON matches, hands, imports, analyses TO {recorder}")
        store.conn.execute(f"GRANT SELECT ON events, matches, hands, imports, analyses TO {reader}")
        with open_store(target.replace("postgres@", f"{recorder}@"), create=False) as rec:
            assert not rec.read_only
            assert rec.append("m", DEAL).seq == 2
        with open_store(target.replace("postgres@", f"{reader}@"), create=False, write=False) as read:
            assert read.read_only and read.match_ids() == ["m"]
        assert "hand_scores" not in names_of(store)
        with open_store(target, create=False, write=False) as owner:
            assert "hand_scores" in names_of(owner)
            assert owner.conn.execute("SELECT * FROM standings").fetchall() == [("mine",)]
            assert owner.conn.execute("SELECT relkind FROM pg_class WHERE relname = 'standings'").fetchone() == ("r",)
            assert owner.conn.execute("SELECT count(*) FROM hand_scores").fetchone() == (0,)
        as_reader = target.replace("postgres@", f"{reader}@")
        with psycopg.connect(as_reader) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM hand_scores")
        store.conn.execute(f"GRANT SELECT ON hand_scores TO {reader}")  # (what docs/README tell an owner to do)
        with psycopg.connect(as_reader) as conn:
            assert conn.execute("SELECT count(*) FROM hand_scores").fetchone() == (0,)

    def test_truncate_is_refused_too(self, store: Store) -> None:
        store.append("m", START)
        with pytest.raises(self.refused, match="append-only: TRUNCATE refused"):
            store.conn.execute("TRUNCATE events")
        assert len(store.records("m")) == 1

    def test_a_role_with_select_and_insert_appends_but_cannot_update_even_without_triggers(
        self, store: Store, target: str
    ) -> None:
        """The privileges guard too: a recorder's role (SELECT and INSERT on events) is refused an UPDATE
        by PostgreSQL even while the owner has the triggers off."""
        import psycopg

        conn = store.conn
        conn.execute("CREATE ROLE recorder LOGIN")
        conn.execute("GRANT SELECT, INSERT ON events TO recorder")
        conn.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON matches, hands, imports, analyses TO recorder")
        conn.execute("ALTER TABLE events DISABLE TRIGGER USER")
        as_recorder = target.replace("postgresql://postgres@", "postgresql://recorder@")
        with open_store(as_recorder, create=False) as rec:
            rec.append("m", START)
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                rec.conn.execute("UPDATE events SET json = '{}'")
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                rec.conn.execute("DELETE FROM events")
        conn.execute("ALTER TABLE events ENABLE TRIGGER USER")
        assert [r.seq for r, _ in store.records("m")] == [1]
        conn.execute("REVOKE INSERT ON events FROM recorder")
        with pytest.raises(ReadOnlyError, match="read-only for this role"):
            open_store(as_recorder, create=False, write=True)
        with open_store(as_recorder, create=False, write=False) as reader:
            assert reader.read_only and reader.match_ids() == ["m"]
