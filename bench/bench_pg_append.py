"""Benchmark of an append to the PostgreSQL store, old code and new in the same run (issue 39).

Run as a script (it is not a test)::

    python bench/bench_pg_append.py [--old-ref main | --old CHECKOUT] [--writers 1,2] [--events 300] [--rounds 2]

Each writer is a process of its own (``PYTHONPATH`` the checkout measured) with its own connection,
appending ``--events`` notes one at a time to a match of its own (:meth:`dominolog.store.Store.append`:
one durable transaction each, ``dominolog append``'s path). The two checkouts take turns, ``--rounds``
times, against the same throwaway PostgreSQL server (tests/pgserver.py, fsync on). For each run: the
appends a second of all the writers together, and the CPU an append of the writers (the client:
Python, psycopg) and of their server processes (PostgreSQL's backends, read from ``/proc``): on a
machine shared with other work the rate moves with the disk's fsyncs and the load; the CPU an append
moves far less, and is what says how many appends a core can carry.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WRITER = r"""
import json, os, sys, time
from dominolog.store import open_store

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

url, mid, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open_store(url) as s:
    s.append(mid, ('{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"%s"}' % mid).encode())
    pid = s.conn.raw.info.backend_pid
    print("ready", flush=True)
    sys.stdin.readline()
    server, mine, start = cpu(pid), time.process_time(), time.perf_counter()
    for i in range(n):
        s.append(mid, json.dumps({"type": "note", "text": f"note {i}"}).encode())
    wall = time.perf_counter() - start
    print(json.dumps({"wall": wall, "client": time.process_time() - mine, "server": cpu(pid) - server}))
"""


def run(url: str, checkout: Path, writers: int, events: int, tag: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, f"{tag}-{i}", str(events)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(writers)
    ]
    from bench_pg import race  # type: ignore[import-not-found]

    done, wall = race(procs)
    n = writers * events
    return {
        "rate": n / wall,
        "client_ms": sum(d["client"] for d in done) / n * 1000,
        "server_ms": sum(d["server"] for d in done) / n * 1000,
    }


def old_tree(ref: str, into: Path) -> Path:
    """The ``dominolog/`` of commit ``ref``, taken out of the git checkout this script is in."""
    archive = subprocess.run(["git", "archive", ref, "dominolog"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, help="the older code: a checkout (the folder holding its dominolog/)")
    ap.add_argument("--old-ref", default="main", help="else the older code: this commit's dominolog/ (default main)")
    ap.add_argument("--writers", default="1,2", help="numbers of writer processes, comma-separated")
    ap.add_argument("--events", type=int, default=300, help="events each writer appends")
    ap.add_argument("--rounds", type=int, default=2, help="times each checkout is measured, taking turns")
    ap.add_argument(
        "--no-fsync", action="store_true", help="the server with fsync off: the round trips and CPU, not the disk"
    )
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.pgserver import INSTALL, Cluster, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        print(f"bench_pg_append: PostgreSQL is not installed: {INSTALL}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    print(f"bench_pg_append: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} logical CPUs ({cpu_model()}),")
    print(f"  Python {platform.python_version()}, load average {load:.1f}, {args.events} events a writer")
    print("writers  code  appends/s  client CPU ms/append  server CPU ms/append")
    print(f"  server fsync {'off' if args.no_fsync else 'on'}")
    with tempfile.TemporaryDirectory() as work, Cluster(bin_dir, durable=not args.no_fsync) as cluster:
        old = args.old if args.old is not None else old_tree(args.old_ref, Path(work))
        url = cluster.new_database()
        for writers in (int(w) for w in args.writers.split(",")):
            for r in range(args.rounds):
                for name, checkout in (("old", old.resolve()), ("new", ROOT)):
                    got = run(url, checkout, writers, args.events, f"{name}-{writers}-{r}")
                    print(
                        f"{writers:>7}  {name:>4}  {got['rate']:>9,.0f}  {got['client_ms']:>20.2f}  "
                        f"{got['server_ms']:>20.2f}",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
