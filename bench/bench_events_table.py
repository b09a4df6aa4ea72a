"""Benchmark of the SQLite ``events`` table's layout for an import (issue 39): rows written a second.

Run as a script (it is not a test)::

    python bench/bench_events_table.py [--matches 150] [--rounds 5]

The rows an import writes (simulated Ghost 13 matches, one row an event, as ``store/rows.py`` makes
them) are inserted, 20,000 a transaction as ``import`` commits them, in a new file (WAL,
``synchronous=FULL``, as the store runs) with each layout in turn, ``--rounds`` times, taking turns:

- ``without rowid``: today's table, clustered on its primary key (match_id, seq);
- ``rowid + unique index``: a rowid table with (match_id, seq) as a unique index;
- ``no copied columns``: today's table written without the columns copied out of each event
  (``type``, ``player``, ``tile``, ``at``: the views would read them from ``json``);
- the first and the last again in a file of 8 KiB pages (SQLite's default is 4 KiB; a new store's since
  issue 39: ``store/opening.py`` ``PAGE_SIZE``).

Each layout's rows/s by the wall clock and its CPU µs a row (the process's CPU time: on a shared machine
the wall clock counts the other programs' turns too).

It measures the table alone, not the rest of an import (reading, verifying, folding: bench_import.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

COLUMNS = (
    "match_id TEXT NOT NULL, seq INTEGER NOT NULL CHECK (seq >= 1), type TEXT, player TEXT, tile TEXT, "
    "json TEXT NOT NULL, raw BLOB, at TEXT, hash TEXT NOT NULL"
)
LAYOUTS = {
    "without rowid (today)": [f"CREATE TABLE events ({COLUMNS}, PRIMARY KEY (match_id, seq)) WITHOUT ROWID"],
    "rowid + unique index": [
        f"CREATE TABLE events ({COLUMNS})",
        "CREATE UNIQUE INDEX events_match_seq ON events (match_id, seq)",
    ],
    "no copied columns": [f"CREATE TABLE events ({COLUMNS}, PRIMARY KEY (match_id, seq)) WITHOUT ROWID"],
    "without rowid, 8 KiB pages": [f"CREATE TABLE events ({COLUMNS}, PRIMARY KEY (match_id, seq)) WITHOUT ROWID"],
    "no copied columns, 8 KiB pages": [f"CREATE TABLE events ({COLUMNS}, PRIMARY KEY (match_id, seq)) WITHOUT ROWID"],
    "8 KiB pages, None bound (before)": [f"CREATE TABLE events ({COLUMNS}, PRIMARY KEY (match_id, seq)) WITHOUT ROWID"],
}
BATCH = 20_000


def rows_of(matches: int) -> list[tuple[Any, ...]]:
    from dominolog.log.reader import iter_matches
    from dominolog.simulate import simulate_lines
    from dominolog.store.rows import prepare_import

    rows: list[tuple[Any, ...]] = []
    with tempfile.TemporaryDirectory() as work:
        log = Path(work) / "season.jsonl"
        log.write_text("".join(line + "\n" for line in simulate_lines("ghost13", matches, "events-table")))
        for m in iter_matches(log):
            rows.extend(prepare_import(m).rows)
    return rows


def insert(path: Path, layout: str, rows: list[tuple[Any, ...]]) -> tuple[float, float]:
    """Seconds to write ``rows`` into a new file with ``layout``: by the wall clock, and CPU seconds."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    if "8 KiB pages" in layout:
        conn.execute("PRAGMA page_size = 8192")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    for ddl in LAYOUTS[layout]:
        conn.execute(ddl)
    from dominolog.store.rows import EVENTS_INSERT, held

    copied = not layout.startswith("no copied columns")
    statement = EVENTS_INSERT
    if layout.endswith("None bound (before)"):  # (the rows as the store bound them before: None, adapted)
        rows = [(r[0], r[1], r[2], held(r[3]), held(r[4]), r[5], held(r[6]), held(r[7]), r[8]) for r in rows]
        statement = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(rows), BATCH):
        conn.execute("BEGIN")
        if copied:
            conn.executemany(statement, rows[i : i + BATCH])
        else:
            conn.executemany(
                "INSERT INTO events (match_id, seq, json, raw, hash) VALUES (?, ?, ?, NULLIF(?, 0), ?)",
                [(r[0], r[1], r[5], r[6], r[8]) for r in rows[i : i + BATCH]],
            )
        conn.execute("COMMIT")
    conn.close()
    return time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=150, help="simulated Ghost 13 matches (about 140 events each)")
    ap.add_argument("--rounds", type=int, default=5, help="times each layout is measured, taking turns")
    args = ap.parse_args(argv)
    rows = rows_of(args.matches)
    print(f"bench_events_table: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} logical CPUs,")
    print(f"  Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, load {os.getloadavg()[0]:.1f},")
    print(f"  {len(rows):,} rows of {args.matches} matches")
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in LAYOUTS}
    with tempfile.TemporaryDirectory() as work:
        for _ in range(args.rounds):
            for name in LAYOUTS:
                got[name].append(insert(Path(work) / "events.db", name, rows))
    for name, runs in got.items():
        rates = [len(rows) / wall for wall, _ in runs]
        cpus = sorted(1e6 * cpu / len(rows) for _, cpu in runs)
        print(
            f"{name:>30}: median {statistics.median(rates):>9,.0f} rows/s, CPU µs a row: median "
            f"{statistics.median(cpus):.2f}, least {cpus[0]:.2f} ({', '.join(f'{c:.2f}' for c in cpus)})"
        )
    print(f"  load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
