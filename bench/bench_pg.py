"""Benchmark of the PostgreSQL store: appends per second against the number of writer processes.

Run as a script (it is not a test)::

    python bench/bench_pg.py [--db postgresql://...] [--writers 1,2,4,8] [--events 300]

Each writer is a process of its own with its own connection, as recorders at several tables are; the
writers start together and each appends ``--events`` events (``dominolog append``'s path:
:meth:`dominolog.store.Store.append`, one transaction and one durable commit each). Measured, for
every number of writers:

- distinct matches: each writer on a match of its own (the tables of a club night);
- the same match, no seq named: every writer on one match, the store giving each event the next seq
  (appends to one match are serialized by its advisory lock);
- the same match, each seq named: every writer asks for the seq it last read plus one, as a recorder
  does; a loser gets a conflict (counted) and reads again, so every event is written once.

Without ``--db`` it starts a throwaway PostgreSQL server of its own (tests/pgserver.py: Debian's
``postgresql`` package, a Unix socket in a temp folder) with fsync on, as a real server has it, and a
fresh database. Every measurement appends to new matches (ids ``bench-...``): with ``--db`` they are
left in that store (events cannot be deleted). The figures are the wall time from the start signal to the last
writer's end; the rate is all the writers' appends over it. With 2 cores, more than 2 writers compete
with the server for the CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"%s"}'


def worker(url: str, match_id: str, name: str, count: int, mode: str) -> None:
    """One writer (``--worker``; ``tests/test_pg_concurrency.py`` runs it too): say ready, wait for the
    start, append ``count`` notes (each retried after a conflict; with ``mode`` "expect" naming the seq
    it wants, the next one as it last read it, so that writers race for it), print the seqs it won and
    the conflicts it met as JSON."""
    from dominolog.store import ConflictError, open_store

    won: list[int] = []
    conflicts = 0
    with open_store(url, create=False) as store:
        print("ready", flush=True)
        sys.stdin.readline()
        for i in range(count):
            line = json.dumps({"type": "note", "text": f"{name} {i}"}).encode()
            while True:
                want = None
                if mode == "expect":
                    last = store.conn.execute("SELECT max(seq) FROM events WHERE match_id = ?", (match_id,)).fetchone()
                    want = last[0] + 1
                try:
                    won.append(store.append(match_id, line, expected_seq=want).seq)
                    break
                except ConflictError:
                    conflicts += 1
    print(json.dumps({"won": won, "conflicts": conflicts}), flush=True)


def race(procs: list[subprocess.Popen[str]]) -> tuple[list[dict[str, Any]], float]:
    """The writers started together: each says "ready", all are told "go" at once; their last lines
    (a JSON report each) and the seconds from "go" to the last one done."""
    for p in procs:
        assert p.stdout is not None
        if p.stdout.readline() != "ready\n":
            raise SystemExit(f"a writer did not start (exit {p.wait()})")
    start = time.perf_counter()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    done = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    elapsed = time.perf_counter() - start
    if any(p.returncode for p in procs):
        raise SystemExit("a writer failed")
    return done, elapsed


def measure(url: str, writers: int, events: int, mode: str) -> tuple[float, int, int]:
    """Seconds for ``writers`` processes to append ``events`` each (``mode``: distinct, next, expect),
    the events written, and the conflicts met."""
    from dominolog.store import open_store

    run = f"bench-{time.time_ns()}-{mode}-{writers}"  # new matches every time: nothing is ever dropped
    ids = [f"{run}-table-{i}" for i in range(writers)] if mode == "distinct" else [f"{run}-shared"] * writers
    with open_store(url) as store:
        for mid in dict.fromkeys(ids):
            store.append(mid, (START % mid).encode())
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", url, mid, f"w{i}", str(events), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, mid in enumerate(ids)
    ]
    done, elapsed = race(procs)
    written = sum(len(d["won"]) for d in done)
    with open_store(url, create=False) as store:
        stored = sum(len(store.records(mid)) - 1 for mid in dict.fromkeys(ids))
    if written != writers * events or stored != written:
        raise SystemExit(f"lost events: {writers * events} appended, {written} acknowledged, {stored} stored")
    return elapsed, written, sum(d["conflicts"] for d in done)


def server_version(url: str) -> str:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SHOW server_version").fetchone()
        fsync = conn.execute("SHOW fsync").fetchone()
    return f"PostgreSQL {row[0] if row else '?'} (fsync {fsync[0] if fsync else '?'})"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", help="a PostgreSQL database to measure in (default: a throwaway server of its own)")
    ap.add_argument("--writers", default="1,2,4,8", help="numbers of writer processes, comma-separated")
    ap.add_argument("--events", type=int, default=300, help="events each writer appends")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6])
        return 0
    args = parse_args(argv)
    counts = [int(n) for n in args.writers.split(",")]
    cluster: Any = None
    if args.db is None:
        sys.path.insert(0, str(ROOT))
        from tests.pgserver import INSTALL, Cluster, find_bin

        bin_dir = find_bin()
        if bin_dir is None:
            print(f"bench_pg: PostgreSQL is not installed: {INSTALL}", file=sys.stderr)
            return 2
        cluster = Cluster(bin_dir, durable=True).start()

    try:
        url = args.db if cluster is None else cluster.new_database()
        print(f"bench_pg: {datetime.now(UTC):%Y-%m-%d}, {platform.node()}, {os.cpu_count()} logical CPUs,")
        server = server_version(url)
        print(f"  Python {platform.python_version()}, {server} on a Unix socket, {args.events} events a writer")
        rows = []
        for n in counts:
            cells = [str(n)]
            for mode in ("distinct", "next", "expect"):
                elapsed, written, conflicts = measure(url, n, args.events, mode)
                cells.append(f"{written / elapsed:,.0f}")
                if mode == "expect":
                    cells.append(str(conflicts))
            rows.append(tuple(cells))
        header = ("writers", "distinct matches /s", "same match /s", "same match, seq named /s", "conflicts")
        widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
        print()
        print("appends per second (all writers together), each append one durable transaction")
        for r in (header, *rows):
            print("  " + "  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))
    finally:
        if cluster is not None:
            cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
