"""Reliability of the match store under crashes, races, tampering and bad files (issue, point 5).

Every test drives the real ``dominolog`` command line in separate processes (``sys.executable -c "from
dominolog.cli import main; main()"``) and looks at the database afterwards with plain ``sqlite3``, the way
another program (or an auditor) would. No output of any command may hold a traceback or an "internal error".
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
REPLAY = ROOT / "replays" / "ghost13-simulated.jsonl"
CLI = [sys.executable, "-c", "from dominolog.cli import main; main()"]  # the installed package
STORE_TABLES = {
    "dominolog_meta",
    "events",
    "matches",
    "hands",
    "imports",
    "analyses",
    "tokens",
    "idempotency",
    "private_events",
    "club_log",
}


# -- helpers -------------------------------------------------------------------------------------------------


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DOMINOLOG_DB", "DOMINOLOG_DEBUG")}
    return env


def start(*args: object) -> subprocess.Popen[str]:
    """``dominolog ARGS`` as a running process (stdout and stderr piped)."""
    return subprocess.Popen(
        [*CLI, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env()
    )


def run(*args: object, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``dominolog ARGS`` to the end; its output is checked for tracebacks."""
    done = subprocess.run(
        [*CLI, *map(str, args)], capture_output=True, text=True, env=_env(), timeout=timeout, check=False
    )
    no_traceback(done.stdout, done.stderr)
    return done


def finish(proc: subprocess.Popen[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    out, err = proc.communicate(timeout=timeout)
    no_traceback(out, err)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text
        assert "internal error" not in text, text


def connect(db: Path) -> closing[sqlite3.Connection]:
    return closing(sqlite3.connect(db, isolation_level=None))


def tables(c: sqlite3.Connection) -> set[str]:
    return {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def match_ids_of(path: Path) -> list[str]:
    """The ids of the matches of a log file, in file order."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line)["id"] for line in fh if '"type":"match_start"' in line]


def whole_matches(db: Path, expected_events: dict[str, int]) -> set[str]:
    """Check a store as a crash left it; return the ids of the matches it holds.

    ``PRAGMA integrity_check`` is ok; the schema is all there or not at all; and every match is whole:
    as many events as the match has (seq 1..n, no gap), its ``matches`` row counting them, its hands rows,
    one ``imports`` row, and no events without a ``matches`` row or the reverse.
    """
    if not db.exists():
        return set()
    with connect(db) as c:
        assert c.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        present = tables(c)
        assert present in (set(), STORE_TABLES), present
        if not present:
            return set()
        in_matches = dict(c.execute("SELECT id, events FROM matches").fetchall())
        in_events = {
            mid: (n, top)
            for mid, n, top in c.execute("SELECT match_id, count(*), max(seq) FROM events GROUP BY match_id")
        }
        assert set(in_events) == set(in_matches), "events without their matches row, or the reverse"
        for mid, n in in_matches.items():
            assert in_events[mid] == (n, n) == (expected_events[mid], expected_events[mid]), mid
        hands = dict(c.execute("SELECT match_id, count(*) FROM hands GROUP BY match_id").fetchall())
        for mid, n in c.execute("SELECT id, hands FROM matches"):
            assert hands.get(mid, 0) == n, mid
        imports = dict(c.execute("SELECT match_id, count(*) FROM imports GROUP BY match_id").fetchall())
        assert imports == dict.fromkeys(in_matches, 1)
        return set(in_matches)


def snapshot(db: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every event, match and hands row (imports without their timestamps), in key order."""
    with connect(db) as c:
        return (
            c.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall(),
            c.execute("SELECT * FROM matches ORDER BY id").fetchall()
            + c.execute("SELECT * FROM hands ORDER BY match_id, number").fetchall(),
            c.execute("SELECT match_id, source, line FROM imports ORDER BY match_id").fetchall(),
        )


# -- kill -9 of an importer ------------------------------------------------------------------------------------

KILL_MATCHES = 350  # per simulate process; two of them: about 97,000 events, an import of about 2 s on a 2-core Xeon
KILL_SEEDS = (5, 6)
KILLS = 4
KILL_MOMENT_SEED = 1  # kills at 32%, 72%, 67% and 39% of an uninterrupted import's time


def test_kill_9_mid_import_leaves_whole_matches_and_a_rerun_imports_the_rest(tmp_path: Path) -> None:
    """Proves that a crashed import never leaves a broken store or a half match, and that running it again
    finishes the job.

    An importer (a real process) of a 700-match, ~97,000-event file is SIGKILLed at 4 seeded random moments
    (between 25% and 80% of an uninterrupted import's time), each time into a fresh store. After each kill:
    ``PRAGMA integrity_check`` is ok; every match is fully there (all its events, its ``matches``,
    ``hands`` and ``imports`` rows) or absent; the stored matches are the first ones of the file (only the
    uncommitted batch was lost). Then the same import, run again on the stores killed earliest and latest,
    imports exactly the missing matches, reports each earlier one as skipped, and leaves exactly the rows of
    an uninterrupted import.
    """
    parts = [tmp_path / f"part-{seed}.jsonl" for seed in KILL_SEEDS]
    sims = [
        start("simulate", "--matches", KILL_MATCHES, "--seed", seed, "--out", part)
        for seed, part in zip(KILL_SEEDS, parts, strict=True)
    ]
    for sim in sims:
        assert finish(sim).returncode == 0
    corpus = tmp_path / "big.jsonl"
    corpus.write_bytes(b"".join(part.read_bytes() for part in parts))
    order = match_ids_of(corpus)
    assert len(order) == len(set(order)) == KILL_MATCHES * len(KILL_SEEDS)

    reference = tmp_path / "reference.db"
    t0 = time.perf_counter()
    done = run("import", corpus, "--db", reference, "-q")
    full = time.perf_counter() - t0
    assert done.returncode == 0, done.stdout + done.stderr
    with connect(reference) as c:
        expected_events = dict(c.execute("SELECT id, events FROM matches").fetchall())
    assert whole_matches(reference, expected_events) == set(order)
    wanted = snapshot(reference)

    moments = random.Random(KILL_MOMENT_SEED)
    killed: list[tuple[Path, set[str]]] = []
    for i in range(KILLS):
        db = tmp_path / f"killed-{i}.db"
        delay = moments.uniform(0.25, 0.80) * full
        for _ in range(4):  # if the machine got faster and the import ended first: again, at an earlier moment
            for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
                leftover.unlink(missing_ok=True)
            proc = start("import", corpus, "--db", db, "-q")
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            ended = finish(proc)
            if ended.returncode != 0:
                break
            delay /= 2
        assert ended.returncode == -signal.SIGKILL, (ended.returncode, ended.stdout, ended.stderr)
        stored = whole_matches(db, expected_events)
        assert stored == set(order[: len(stored)]), "a match was stored before an earlier one of the file"
        killed.append((db, stored))
    kept = [len(stored) for _, stored in killed]
    assert any(0 < n < len(order) for n in kept), f"no kill landed mid-import (matches kept: {kept})"

    ends = {len(stored): (db, stored) for db, stored in sorted(killed, key=lambda k: len(k[1]))}
    earliest_latest = {ends[min(ends)][0]: ends[min(ends)], ends[max(ends)][0]: ends[max(ends)]}
    reruns = [(db, stored, start("import", corpus, "--db", db)) for db, stored in earliest_latest.values()]
    for db, stored, proc in reruns:
        done = finish(proc, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        lines = done.stdout.splitlines()
        assert len(lines) == 1, "a re-import prints one summary line, not a line per match"
        assert lines[-1].startswith(f"{len(order) - len(stored)} stored, {len(stored)} already there; "), lines[-1]
        assert whole_matches(db, expected_events) == set(order)
        assert snapshot(db) == wanted


# -- two writers on one match ------------------------------------------------------------------------------------

RACER = r"""
import contextlib, io, json, os, sys, time
from dominolog.cli import main

name, db, match, first, last, go = sys.argv[1:7]
while not os.path.exists(go):
    time.sleep(0.0005)
results = []
for seq in range(int(first), int(last) + 1):
    event = json.dumps({"type": "note", "text": f"{name} {seq}"})
    sys.argv = ["dominolog", "append", match, event, "--db", db, "--seq", str(seq)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    results.append({"seq": seq, "code": code, "out": out.getvalue(), "err": err.getvalue()})
sys.stdout.write(json.dumps(results))
"""

RACE_MATCH = "race-1"
RACE_LAST = 40


def check_race(
    db: Path, match: str, first: int, last: int, attempts: dict[str, dict[int, tuple[int, str, str]]]
) -> None:
    """Every seq first..last stored once, by the one racer whose attempt succeeded; every other attempt a
    conflict (exit 4, said so); the stored chain and projections intact."""
    with connect(db) as c:
        rows = c.execute("SELECT seq, json FROM events WHERE match_id = ? ORDER BY seq", (match,)).fetchall()
        counted = c.execute("SELECT events FROM matches WHERE id = ?", (match,)).fetchone()
    assert [seq for seq, _ in rows] == list(range(1, last + 1)), "a gap or an extra event"
    assert counted == (last,)
    text = {seq: json.loads(j).get("text") for seq, j in rows}
    for seq in range(first, last + 1):
        won = [name for name, by_seq in attempts.items() if by_seq[seq][0] == 0]
        assert len(won) == 1, (seq, {name: by_seq[seq] for name, by_seq in attempts.items()})
        assert text[seq] == f"{won[0]} {seq}"
        assert f"seq {seq} stored" in attempts[won[0]][seq][1]
        for name, by_seq in attempts.items():
            if name != won[0]:
                code, out, err = by_seq[seq]
                assert code == 4, (name, seq, code, out, err)
                assert err.startswith("dominolog: conflict: ") and "nothing was written" in err, err
                assert out == ""
    done = run("verify", "--db", db, match, "--json")
    assert done.returncode == 0, done.stdout
    report = json.loads(done.stdout)["matches"][0]
    assert report["valid"] and report["events"] == last and report["violations"] == []


def test_two_processes_racing_on_the_next_seqs_store_each_once_and_tell_the_loser(tmp_path: Path) -> None:
    """Proves that two processes appending to the same match at once can neither both take a seq nor leave a
    gap, and that the loser is told.

    Two racer processes, released together, each try every seq 2..40 of one match through the command line
    (``record MATCH EVENT --seq N``, run in-process so that attempts follow each other within
    milliseconds). Afterwards the match holds seqs 1..40, each exactly once; each seq was taken by exactly
    one racer, whose event is the stored one; every other attempt ended with exit status 4 and a
    ``conflict: ... nothing was written`` message; no attempt failed any other way; and ``verify --db``
    finds the chain hashes and the match valid.
    """
    db = tmp_path / "race.db"
    start_event = {"type": "match_start", "id": RACE_MATCH, "variant": "ghost13", "players": ["Ana", "Ben"]}
    done = run("append", RACE_MATCH, json.dumps(start_event), "--db", db)
    assert done.returncode == 0, done.stderr
    go = tmp_path / "go"
    racers = {
        name: subprocess.Popen(
            [sys.executable, "-c", RACER, name, str(db), RACE_MATCH, "2", str(RACE_LAST), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
        )
        for name in ("A", "B")
    }
    time.sleep(1.0)  # both have imported dominolog and wait for the signal
    go.touch()
    attempts: dict[str, dict[int, tuple[int, str, str]]] = {}
    for name, proc in racers.items():
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert err == ""
        results = json.loads(out)
        for r in results:
            no_traceback(r["out"], r["err"])
        attempts[name] = {r["seq"]: (r["code"], r["out"], r["err"]) for r in results}
    check_race(db, RACE_MATCH, 2, RACE_LAST, attempts)


def test_two_append_commands_started_together_exit_0_and_4(tmp_path: Path) -> None:
    """Proves the same with one ``dominolog record`` process per attempt, so that the loser's exit status
    really is 4: for each seq 2..5 of a match, two ``record MATCH EVENT --seq N`` processes are started
    at the same moment. Each seq is stored once, by the process that exited 0 (its event is the stored one); the
    other process exited 4 saying ``conflict: ... nothing was written``; nothing else happened."""
    db = tmp_path / "race.db"
    match = "race-2"
    start_event = {"type": "match_start", "id": match, "variant": "ghost13", "players": ["Ana", "Ben"]}
    done = run("append", match, json.dumps(start_event), "--db", db)
    assert done.returncode == 0, done.stderr
    last = 5
    barrier = threading.Barrier(2)
    attempts: dict[str, dict[int, tuple[int, str, str]]] = {"A": {}, "B": {}}

    def loop(name: str) -> None:
        for seq in range(2, last + 1):
            barrier.wait()  # both processes of a seq start together
            event = json.dumps({"type": "note", "text": f"{name} {seq}"})
            proc = start("append", match, event, "--db", db, "--seq", str(seq))
            out, err = proc.communicate(timeout=60)
            attempts[name][seq] = (proc.returncode, out, err)

    threads = [threading.Thread(target=loop, args=(name,)) for name in attempts]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    for by_seq in attempts.values():
        assert sorted(by_seq) == list(range(2, last + 1))
        for _, out, err in by_seq.values():
            no_traceback(out, err)
    check_race(db, match, 2, last, attempts)


# -- tampering -------------------------------------------------------------------------------------------------


def _unhashed_copy(src: Path, dest: Path, new_id: str) -> None:
    """The replay without its per-line ``hash`` fields, as another match (only the store's row hashes remain)."""
    out = []
    for line in src.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        obj.pop("hash", None)
        if obj["type"] == "match_start":
            obj["id"] = new_id
        out.append(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")


def _tamper(c: sqlite3.Connection, match: str, seq: int, old: str, new: str) -> None:
    before = c.execute("SELECT json FROM events WHERE match_id = ? AND seq = ?", (match, seq)).fetchone()[0]
    assert f'"tile":"{old}"' in before
    c.execute(
        "UPDATE events SET json = ?, tile = ? WHERE match_id = ? AND seq = ?",
        (before.replace(f'"tile":"{old}"', f'"tile":"{new}"'), new, match, seq),
    )


def _hash_mismatches(report: dict[str, Any]) -> list[tuple[int, str]]:
    return [(v["seq"], v["message"]) for v in report["violations"] if v["code"] == "hash-mismatch"]


def test_an_event_edited_behind_the_tools_back_is_a_hash_mismatch_at_that_event(tmp_path: Path) -> None:
    """Proves that the append-only triggers refuse edits, and that an edit made anyway (triggers dropped
    with raw SQL) is caught by ``verify --db`` as a ``hash-mismatch`` at exactly the edited event.

    A replay is imported twice (as itself, with per-line hashes, and as a copy without them). While the
    triggers are there, UPDATE and DELETE on ``events`` fail with "append-only" and change nothing. Then the
    triggers are dropped and one tile of seq 10 is changed (``json`` and ``tile``): ``verify --db --json``
    makes that match invalid with exactly one ``hash-mismatch``, at seq 10, saying it was changed in the
    database (the later events keep their hashes: no knock-on mismatches), while the other match stays
    valid. Edited in the hashed match too, every ``hash-mismatch`` is at seq 10, and exactly one of them is
    the store's row check.
    """
    (hashed,) = match_ids_of(REPLAY)
    unhashed = f"{hashed}-unhashed"
    copy = tmp_path / "unhashed.jsonl"
    _unhashed_copy(REPLAY, copy, unhashed)
    db = tmp_path / "store.db"
    done = run("import", REPLAY, copy, "--db", db)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("2 stored, 0 already there;")

    with connect(db) as c:
        before = c.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall()
        for sql in (
            "UPDATE events SET json = replace(json, '0-4', '0-5') WHERE seq = 10",
            "DELETE FROM events WHERE seq = 10",
            "DELETE FROM events",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                c.execute(sql)
        assert c.execute("SELECT * FROM events ORDER BY match_id, seq").fetchall() == before
    assert run("verify", "--db", db).returncode == 0

    with connect(db) as c:
        c.execute("DROP TRIGGER events_append_only_update")
        c.execute("DROP TRIGGER events_append_only_delete")
        _tamper(c, unhashed, 10, "0-4", "0-5")
    done = run("verify", "--db", db, "--json")
    assert done.returncode == 1, done.stderr
    reports = {r["id"]: r for r in json.loads(done.stdout)["matches"]}
    assert reports[hashed]["valid"] is True
    assert reports[unhashed]["valid"] is False
    ((seq, message),) = _hash_mismatches(reports[unhashed])
    assert seq == 10
    assert "changed in the database after it was written" in message
    text = run("verify", "--db", db, unhashed)
    assert text.returncode == 1
    assert f"{db}#{unhashed}:10: seq 10: hash-mismatch: the stored event does not match" in text.stdout

    with connect(db) as c:
        _tamper(c, hashed, 10, "0-4", "0-5")
    done = run("verify", "--db", db, hashed, "--json")
    assert done.returncode == 1
    (report,) = json.loads(done.stdout)["matches"]
    found = _hash_mismatches(report)
    assert {seq for seq, _ in found} == {10}, found
    assert sum("changed in the database" in message for _, message in found) == 1, found


# -- bad files -------------------------------------------------------------------------------------------------


def _all_at_once(commands: list[list[str | Path]]) -> list[subprocess.CompletedProcess[str]]:
    return [finish(p) for p in [start(*args) for args in commands]]


def _store_commands(db: Path) -> list[list[str | Path]]:
    """A command that creates a missing store and one that does not (every store command opens it one of
    these two ways)."""
    return [["import", REPLAY, "--db", db], ["verify", "--db", db]]


def test_not_a_database_another_programs_database_and_a_folder_are_clear_errors(tmp_path: Path) -> None:
    """Proves that a --db that is not a dominolog store is refused with a one-line reason and exit 2 by the
    store commands (import and verify; the others open it the same way), and left as it was: a
    text file ("not a SQLite database"), a SQLite file of another program ("a database of another program",
    naming its tables), a folder ("is a folder"), and a missing file for a command that only reads ("no such
    database")."""
    text = tmp_path / "notes.db"
    text.write_text("these are my notes, not a database\n" * 10, encoding="utf-8")
    other = tmp_path / "other.db"
    with connect(other) as c:
        c.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        c.execute("INSERT INTO users VALUES (1, 'Ana')")
    folder = tmp_path / "folder.db"
    folder.mkdir()
    missing = tmp_path / "missing.db"
    cases = [
        (text, "not a SQLite database (a dominolog store is one)"),
        (other, "a database of another program (tables: users), not a dominolog store"),
        (folder, "is a folder, not a database file"),
    ]
    commands = [args for path, _ in cases for args in _store_commands(path)]
    commands += [["verify", "--db", missing]]
    expected = [f"dominolog: {path}: {msg}\n" for path, msg in cases for _ in range(2)]
    expected += [f"dominolog: {missing}: no such database (import something first)\n"]
    text_before = text.read_bytes()
    for args, done, want in zip(commands, _all_at_once(commands), expected, strict=True):
        assert (done.returncode, done.stderr, done.stdout) == (2, want, ""), args
    assert text.read_bytes() == text_before
    assert not missing.exists()
    assert list(folder.iterdir()) == []
    with connect(other) as c:
        assert c.execute("SELECT * FROM users").fetchall() == [(1, "Ana")]
        assert tables(c) == {"users"}


def test_another_programs_database_is_refused_without_being_modified(tmp_path: Path) -> None:
    """Proves that refusing another program's database leaves it byte for byte as it was (journal mode
    included): ``verify --db`` on a rollback-journal SQLite file of another program."""
    other = tmp_path / "other.db"
    with connect(other) as c:
        c.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    before = other.read_bytes()
    done = run("verify", "--db", other)
    assert done.returncode == 2
    assert "a database of another program" in done.stderr
    with connect(other) as c:
        assert c.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert other.read_bytes() == before


def test_a_damaged_store_is_a_clear_error(tmp_path: Path) -> None:
    """Proves that a store whose ``events`` pages are damaged (overwritten on disk) is a clear error naming
    the file (exit 1, "the store is damaged"), not an internal error, for ``verify --db``."""
    db = tmp_path / "store.db"
    assert run("import", REPLAY, "--db", db).returncode == 0
    with connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = c.execute("PRAGMA page_size").fetchone()[0]
        root = c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()[0]
    data = bytearray(db.read_bytes())
    data[(root - 1) * page : root * page] = b"\xab" * page
    db.write_bytes(bytes(data))
    done = subprocess.run([*CLI, "verify", "--db", str(db)], capture_output=True, text=True, env=_env(), check=False)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"dominolog: {db}: the store is damaged (") and "btreeInitPage" in done.stderr


LockedRuns = dict[str, subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def locked_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, LockedRuns]]:
    """Two stores, each held by another connection for the whole run: ``writing`` by an open ``BEGIN
    EXCLUSIVE`` transaction (WAL: readers may still read), ``exclusive`` by ``PRAGMA locking_mode=EXCLUSIVE``
    (nobody else may even read). Every command runs against them at once; each waits out the store's busy
    timeout (5 s), so the whole takes about that long."""
    tmp = tmp_path_factory.mktemp("locked")
    writing, exclusive = tmp / "writing.db", tmp / "exclusive.db"
    assert run("import", REPLAY, "--db", writing).returncode == 0
    assert not writing.with_name(writing.name + "-wal").exists()  # checkpointed when the import closed it
    shutil.copyfile(writing, exclusive)
    (match,) = match_ids_of(REPLAY)
    other_replay = ROOT / "replays" / "ghost13-disputed.jsonl"
    holder_w = sqlite3.connect(writing, isolation_level=None)
    holder_x = sqlite3.connect(exclusive, isolation_level=None)
    try:
        holder_w.execute("BEGIN EXCLUSIVE")
        holder_x.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder_x.execute("BEGIN EXCLUSIVE")
        holder_x.execute("COMMIT")  # the exclusive lock stays with the connection
        note = '{"type":"note","text":"hello"}'
        commands: dict[str, list[str | Path]] = {
            "import": ["import", other_replay, "--db", writing],
            "append": ["append", match, note, "--db", writing],
            "reindex": ["reindex", "--db", writing],
            "verify": ["verify", "--db", writing],
            "list": ["list", "--db", writing],
            "x-append": ["append", match, note, "--db", exclusive],
            "x-verify": ["verify", "--db", exclusive],
        }
        procs = {key: start(*args) for key, args in commands.items()}
        yield writing, exclusive, {key: finish(p) for key, p in procs.items()}
    finally:
        holder_w.close()
        holder_x.close()


def test_a_locked_database_is_a_clear_error(locked_runs: tuple[Path, Path, LockedRuns]) -> None:
    """Proves that a store another program holds is a clear error after the busy timeout, not a hang or a
    traceback: while a writer holds it, ``record`` and ``reindex`` exit 2 saying "locked" (and that another
    program holds it), ``import`` too (one error, exit 2), and the readers (``verify --db``, ``list``) still
    work (WAL); while it is held in exclusive locking mode, ``record`` and even ``verify --db``
    exit 2 with "the database is locked by another program"."""
    writing, exclusive, runs = locked_runs
    for key in ("append", "reindex"):
        done = runs[key]
        assert done.returncode == 2, (key, done.stdout, done.stderr)
        assert done.stderr == f"dominolog: {writing}: database is locked (another program holds it; tried for 5 s)\n"
    assert runs["import"].returncode == 2
    assert runs["import"].stderr.startswith(f"dominolog: {writing}: database is locked")
    for key in ("verify", "list"):
        assert runs[key].returncode == 0, (key, runs[key].stderr)
    for key in ("x-append", "x-verify"):
        done = runs[key]
        assert (done.returncode, done.stdout) == (2, ""), (key, done.stderr)
        assert done.stderr.startswith(f"dominolog: {exclusive}: the database is locked by another program"), key
    with connect(writing) as c:  # nothing was written by the refused commands
        assert c.execute("SELECT count(*) FROM matches").fetchone() == (1,)
        assert c.execute("SELECT count(*) FROM events").fetchone() == (153,)


def test_import_into_a_locked_database_is_one_error_exit_2(locked_runs: tuple[Path, Path, LockedRuns]) -> None:
    """Proves that ``import`` into a store another writer holds fails like the other store commands: exit 2
    and one ``dominolog: DB: ... locked ...`` line on stderr."""
    writing, _, runs = locked_runs
    done = runs["import"]
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith(f"dominolog: {writing}: ") and "locked" in done.stderr
