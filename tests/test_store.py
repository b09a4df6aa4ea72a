"""The match store: import, skip, list, export (byte for byte, scored, CSV, JSON), reindex, record, verify --db."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dominolog.cli import app
from dominolog.log.reader import iter_matches
from dominolog.reducer import verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.store import ConflictError, StoreError, match_id_of, open_store, verify_stored
from tests.helpers import to_bytes

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def ids_of(path: Path) -> list[str]:
    return [match_id_of(log, verify_match(log).head) for log in iter_matches(path)]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture
def filled(db: Path) -> Path:
    result = invoke("import", str(REPLAYS), "--db", str(db))
    assert result.exit_code == 0, result.output
    return db


# -- import -------------------------------------------------------------------------------------


def test_import_the_replays_then_list_and_export_csv(filled: Path) -> None:
    files = sorted(REPLAYS.glob("*.jsonl"))
    n = sum(len(ids_of(f)) for f in files)
    listed = invoke("list", "--db", str(filled))
    assert listed.exit_code == 0
    header = ["id", "variant", "players", "status", "hands", "totals", "winner", "head"]
    assert listed.stdout.splitlines()[0].split() == header
    assert listed.stdout.splitlines()[-1] == f"{n} matches"
    with open_store(filled) as store:
        head = store.conn.execute("SELECT head FROM matches WHERE id = 'club-2026-11-20-table-3'").fetchone()[0]
    club = next(line for line in listed.stdout.splitlines() if line.startswith("club-2026-11-20-table-3 "))
    assert club.endswith(f"  {head[:10]}")  # the head fingerprint, as the recorder shows it
    assert "disputed-2026-11-20" in listed.stdout and " invalid " in listed.stdout
    exported = invoke("export", "--all", "--format", "csv", "--db", str(filled))
    assert exported.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    with open_store(filled) as store:
        hands = store.conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    assert len([r for r in rows if r["hand"] != "final"]) == hands
    assert len([r for r in rows if r["hand"] == "final"]) == 22  # one final row per match
    club = [r for r in rows if r["match"] == "club-2026-11-20-table-3"]
    assert [(r["hand"], r["end"], r["winner"]) for r in club][:2] == [("1", "domino", "Ana"), ("2", "domino", "Ana")]
    assert (club[-1]["player_1"], club[-1]["total_1"], club[-1]["total_2"]) == ("Ana", "128", "46")


def test_import_twice_skips_every_match_and_says_so(filled: Path) -> None:
    again = invoke("import", str(REPLAYS), "--db", str(filled))
    assert again.exit_code == 0
    assert again.stdout.startswith("0 stored, 22 already there; 0 events in ")
    assert again.stdout.count("\n") == 1  # one line, not one per match


def test_a_match_without_id_is_stored_under_its_head_and_the_same_content_is_skipped(db: Path, tmp_path: Path) -> None:
    events = [{k: v for k, v in e.items() if k != "id"} for e in simulate_match("ghost13", 3)]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(to_bytes(events))
    b.write_bytes(to_bytes(events))
    assert invoke("import", str(a), "--db", str(db)).exit_code == 0
    second = invoke("import", str(b), "--db", str(db))
    (mid,) = ids_of(a)
    assert mid.startswith("head-") and second.stdout.startswith("0 stored, 1 already there;")


def test_an_invalid_match_is_stored_and_marked_invalid(filled: Path) -> None:
    with open_store(filled) as store:
        rows = store.list_matches()
    invalid = {r["id"] for r in rows if r["status"] == "invalid"}
    assert {"disputed-2026-11-20", "disputed-hidden-2026-11-20", "bsn-disputed-6", "dd-disputed-11"} <= invalid
    assert all((r["violations"] > 0) == (r["id"] in invalid) for r in rows)
    assert all(r["status"] == "complete" for r in rows if r["id"] not in invalid and r["variant"] != "39")


def test_lines_before_any_match_start_are_reported_as_failed(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "orphan.jsonl"
    path.write_bytes(b'{"type":"note","text":"hello"}\n' + to_bytes(simulate_match("ghost13", 1)))
    result = invoke("import", str(path), "--db", str(db))
    assert result.exit_code == 1
    assert f"{path}:1: failed: lines before any match_start: not a match" in result.stderr
    assert "1 stored, 0 already there, 1 failed" in result.stdout


def test_list_filters(filled: Path) -> None:
    out = invoke("list", "--db", str(filled), "--variant", "double-draw", "--player", "Dev", "--json").stdout
    rows = json.loads(out)["matches"]
    assert rows and all(r["variant"] == "double-draw" and "Dev" in r["players"] for r in rows)
    assert all(isinstance(r["totals"], dict) for r in rows)


# -- export ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*.jsonl")), ids=lambda p: p.name)
def test_export_jsonl_gives_back_each_replay_byte_for_byte(filled: Path, path: Path) -> None:
    result = invoke("export", *ids_of(path), "--db", str(filled))
    assert result.exit_code == 0
    assert result.stdout.encode() == path.read_bytes()


def test_export_scored_fills_the_claims_with_the_rules_results(filled: Path, tmp_path: Path) -> None:
    out = tmp_path / "scored.jsonl"
    assert invoke("export", "disputed-2026-11-20", "--scored", "--out", str(out), "--db", str(filled)).exit_code == 0
    (report,) = [verify_match(log) for log in iter_matches(out)]
    assert [v.code for v in report.violations] == ["renege"]  # the claims are now right, the hashes redone
    ends = [json.loads(line) for line in out.read_text().splitlines() if '"hand_end"' in line]
    assert ends[1]["points"] == {"Ana": 0, "Ben": 148} and ends[1]["winner"] == "Ben"


def test_export_json_is_the_verify_document(filled: Path) -> None:
    doc = json.loads(invoke("export", "bsn-disputed-6", "--format", "json", "--db", str(filled)).stdout)
    (m,) = doc["matches"]
    assert [(v["seq"], v["code"]) for v in m["violations"]] == [(60, "score-mismatch"), (120, "renege")]


def test_export_an_unknown_match_is_a_clear_error(filled: Path) -> None:
    result = invoke("export", "no-such-match", "--db", str(filled))
    assert result.exit_code == 1 and f"{filled}: no match 'no-such-match'" in result.stderr


# -- reindex, verify --db, record ---------------------------------------------------------------------


def test_reindex_rebuilds_the_same_projections_from_the_events(filled: Path) -> None:
    with open_store(filled) as store:
        before = store.projections()
    assert invoke("reindex", "--db", str(filled)).exit_code == 0
    with open_store(filled) as store:
        assert store.projections() == before
        store.conn.execute("DELETE FROM hands")
        store.conn.execute("UPDATE matches SET status = 'complete', totals = '{}'")
        store.reindex()
        assert store.projections() == before


def test_verify_db_says_what_verify_says_of_the_files(filled: Path) -> None:
    files = invoke("verify", "--json", str(REPLAYS))
    stored = invoke("verify", "--json", "--db", str(filled))
    assert files.exit_code == stored.exit_code == 1
    by_id = {m.get("id") or m["head"]: m for m in json.loads(stored.stdout)["matches"]}
    for m in json.loads(files.stdout)["matches"]:
        s = by_id[m.get("id") or f"head-{m['head'][:16]}"]
        for key in ("variant", "players", "valid", "complete", "hands", "totals", "winner", "head"):
            assert s[key] == m[key], key
        assert [(v["seq"], v["code"]) for v in s["violations"]] == [(v["seq"], v["code"]) for v in m["violations"]]
    one = invoke("verify", "--db", str(filled), "club-2026-11-20-table-3")
    assert one.exit_code == 0 and one.stdout.splitlines()[-1].startswith("1 matches: 1 valid")


def test_append_writes_the_next_event_and_refuses_a_taken_seq_and_an_unknown_player(db: Path) -> None:
    start = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"live-1"}'
    assert invoke("append", "live-1", start, "--db", str(db)).stdout == "live-1: seq 1 stored\n"
    deal = '{"type":"deal","leader":"Ana","hands":null}'
    assert invoke("append", "live-1", deal, "--db", str(db), "--seq", "2").exit_code == 0
    late = invoke("append", "live-1", '{"type":"note","text":"x"}', "--db", str(db), "--seq", "2")
    assert late.exit_code == 4
    assert "conflict: match live-1: seq 2 is taken (the match has 2 events); nothing was written" in late.stderr
    bad = invoke("append", "live-1", '{"type":"play","player":"Zed","tile":"1-2"}', "--db", str(db))
    assert bad.exit_code == 1
    assert "refused: seq 3: malformed: play: unknown player 'Zed' (players: Ana, Ben); event ignored" in bad.stderr
    assert "nothing was written" in bad.stderr
    with open_store(db) as store:
        assert [r.seq for r, _ in store.records("live-1")] == [1, 2]
        (row,) = store.list_matches()
        assert (row["id"], row["status"], row["events"]) == ("live-1", "open", 2)


def test_append_conflict_and_triggers_in_the_library(db: Path) -> None:
    with open_store(db) as store:
        store.append("m", b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"]}')
        with pytest.raises(ConflictError):
            store.append("m", b'{"type":"note","text":"a","seq":5}')
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.conn.execute("UPDATE events SET json = '{}'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.conn.execute("DELETE FROM events")


def test_a_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    result = invoke("list", "--db", str(tmp_path / "none.db"))
    assert result.exit_code == 2 and "no such database (import something first)" in result.stderr
    with pytest.raises(StoreError):
        open_store(tmp_path / "none.db", create=False)


def test_the_db_can_come_from_the_environment(filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINOLOG_DB", str(filled))
    assert invoke("list").stdout.splitlines()[-1].endswith("matches")


# -- round trips (hypothesis) --------------------------------------------------------------------------

variants = st.sampled_from(
    [
        ("ghost13", None),
        ("brettspielnetz", None),
        ("double-draw", ["Ana", "Ben", "Cleo"]),
        ("39", None),
        ("double-bergen", ["Ana", "Ben", "Cleo", "Dev"]),
    ]
)
junk = st.sampled_from(
    [b"not json", b"\xff\xfe", b'{"type":"play"}', b"[1, 2]", b'{"type":"note","text":"\\u00e9t\xc3\xa9"}']
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 10**6),
    config=variants,
    hidden=st.booleans(),
    noise=st.lists(st.tuples(st.integers(1, 10**6), junk), max_size=3),
)
def test_import_then_export_gives_identical_bytes_and_reindex_identical_rows(
    tmp_path_factory: pytest.TempPathFactory, seed: int, config: Any, hidden: bool, noise: list[tuple[int, bytes]]
) -> None:
    variant, players = config
    events = simulate_match(variant, seed, 0, players)
    if hidden:
        events = hide_match(events)
    lines = to_bytes(events).splitlines(keepends=True)
    for pos, line in noise:
        lines.insert(1 + pos % len(lines), line + b"\n")
    data = b"".join(lines)
    folder = tmp_path_factory.mktemp("rt")
    path = folder / "m.jsonl"
    path.write_bytes(data)
    with open_store(folder / "s.db") as store:
        (result,) = store.import_matches(iter_matches(path))
        assert result.status == "imported"
        assert b"".join(line + b"\n" for line in store.lines(result.match_id or "")) == data
        before = store.projections()
        store.reindex()
        assert store.projections() == before
        (log,) = iter_matches(path)
        stored = verify_stored(store, result.match_id or "")
        assert stored.as_dict() | {"source": ""} == verify_match(log).as_dict() | {"source": ""}


def test_record_onto_a_hashed_match_writes_seq_and_hash_and_the_match_stays_valid(filled: Path) -> None:
    mid = "sim-ghost13-7-1"
    with open_store(filled) as store:
        n = len(store.records(mid))
    note = invoke("append", mid, '{"type":"note","text":"checked by the arbiter"}', "--db", str(filled))
    assert note.stdout == f"{mid}: seq {n + 1} stored\n"
    with open_store(filled) as store:
        last = json.loads(list(store.lines(mid))[-1])
        assert last["seq"] == n + 1 and isinstance(last["hash"], str)
        report = verify_stored(store, mid)
    assert report.valid and report.head == last["hash"]


def test_list_json_fits_its_schema_with_booleans_and_iso_dates(filled: Path, tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads((REPLAYS.parent / "schemas" / "list.schema.json").read_text(encoding="utf-8"))
    doc = json.loads(invoke("list", "--db", str(filled), "--json").stdout)
    jsonschema.validate(doc, schema)
    by_id = {m["id"]: m for m in doc["matches"]}
    assert by_id["disputed-2026-11-20"]["date"] == "2026-11-20T21:05:25Z"  # the first event's `at`
    assert by_id["disputed-2026-11-20"]["complete"] is True
    # meta.date wins when it is an ISO date; anything else falls back to the first `at`
    for written, expected in (("2026-11-19", "2026-11-19"), ("Thursday", "2026-11-20T21:05:25Z")):
        lines = (REPLAYS / "ghost13-disputed.jsonl").read_text(encoding="utf-8").splitlines()
        first = json.loads(lines[0])
        first.update(id=f"dated-{written}", meta={**first["meta"], "date": written})
        first.pop("hash")
        src = tmp_path / f"{written}.jsonl"
        src.write_text("\n".join([json.dumps(first), *lines[1:16]]) + "\n", encoding="utf-8")
        assert invoke("import", str(src), "--db", str(filled)).exit_code in (0, 1)
        rows = json.loads(invoke("list", "--db", str(filled), "--json").stdout)["matches"]
        assert {m["id"]: m["date"] for m in rows}[f"dated-{written}"] == expected
