"""Many recorders at once on a PostgreSQL store: processes appending to their own matches and to one
match together, started at the same moment. No event is lost, no seq has two events, every loser of
a seq is told (ConflictError) and nothing of its is written, and the hash chain stays whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from dominolog.store import open_store, verify_stored
from tests.conftest import ROOT

WRITERS = 4
EVENTS = 25
START = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"%s"}'

#: one recorder (``worker`` of the bench): appends EVENTS notes to a match, each retried after a
#: conflict; with "expect" it names the seq it wants, so that writers race for the same seq
WRITER = ROOT / "bench" / "bench_pg.py"


def run_writers(url: str, tmp_path: Path, targets: list[str], mode: str) -> list[dict[str, Any]]:
    """Start one writer process per target match, release them together, and collect what each won."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(WRITER), "--worker", url, mid, f"w{i}", str(EVENTS), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
        )
        for i, mid in enumerate(targets)
    ]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline() == "ready\n", p.stderr.read() if p.stderr else ""
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stderr[-3000:]
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def notes(url: str, match_id: str) -> list[str]:
    with open_store(url, create=False) as store:
        return [rec.obj["text"] for rec, _ in store.records(match_id)[1:]]  # type: ignore[index]


def test_writers_on_their_own_matches_lose_nothing(pg_url: str, tmp_path: Path) -> None:
    ids = [f"table-{i}" for i in range(WRITERS)]
    with open_store(pg_url) as store:
        for mid in ids:
            store.append(mid, START % mid.encode())
    results = run_writers(pg_url, tmp_path, ids, "expect")
    assert [r["won"] for r in results] == [list(range(2, EVENTS + 2))] * WRITERS
    assert [r["conflicts"] for r in results] == [0] * WRITERS
    with open_store(pg_url, create=False) as store:
        for i, mid in enumerate(ids):
            assert notes(pg_url, mid) == [f"w{i} {n}" for n in range(EVENTS)]
            assert [rec.seq for rec, _ in store.records(mid)] == list(range(1, EVENTS + 2))
            report = verify_stored(store, mid)
            assert not [v for v in report.violations if v.code in ("hash-mismatch", "projection-mismatch")]
            assert report.events == EVENTS + 1
        rows = {r["id"]: r["events"] for r in store.list_matches()}
        assert rows == dict.fromkeys(ids, EVENTS + 1)


def test_writers_on_one_match_get_one_winner_per_seq(pg_url: str, tmp_path: Path) -> None:
    with open_store(pg_url) as store:
        store.append("shared", START % b"shared")
    results = run_writers(pg_url, tmp_path, ["shared"] * WRITERS, "expect")
    won = sorted(seq for r in results for seq in r["won"])
    assert won == list(range(2, WRITERS * EVENTS + 2))  # every seq once: one winner each, none lost
    assert [len(r["won"]) for r in results] == [EVENTS] * WRITERS
    texts = notes(pg_url, "shared")
    assert sorted(texts) == sorted(f"w{i} {n}" for i in range(WRITERS) for n in range(EVENTS))
    for i in range(WRITERS):  # each writer's events in the order it wrote them
        assert [t for t in texts if t.startswith(f"w{i} ")] == [f"w{i} {n}" for n in range(EVENTS)]
    with open_store(pg_url, create=False) as store:
        report = verify_stored(store, "shared")
        assert not [v for v in report.violations if v.code in ("hash-mismatch", "projection-mismatch")]
        (row,) = store.list_matches()
        assert row["events"] == WRITERS * EVENTS + 1 and row["head"] == store.records("shared")[-1][1]


def test_writers_that_name_no_seq_all_get_one_in_turn(pg_url: str, tmp_path: Path) -> None:
    with open_store(pg_url) as store:
        store.append("shared", START % b"shared")
    results = run_writers(pg_url, tmp_path, ["shared"] * WRITERS, "next")
    assert [r["conflicts"] for r in results] == [0] * WRITERS
    assert sorted(seq for r in results for seq in r["won"]) == list(range(2, WRITERS * EVENTS + 2))
    assert len(notes(pg_url, "shared")) == WRITERS * EVENTS
