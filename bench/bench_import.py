"""Benchmark of ``dominolog import`` into SQLite, old code against new in one run (issue 28, section 3).

Run as a script (it is not a test)::

    python bench/bench_import.py [--matches 1400] [--files 8] [--variant ghost13] [--old-ref main]
                                 [--repeat 3] [--jobs 1 2] [--stages] [--profile]

It simulates ``--matches`` matches split over ``--files`` files into a temporary folder, then runs the
whole command ``dominolog import FOLDER --db NEW --jobs N`` as a child process for each ``--jobs`` value,
the new code (the installed package) and the old one (``--old-ref``: that commit's ``dominolog/`` taken
out of git into the folder and put first on ``PYTHONPATH``; or ``--old DIR``, a folder holding a
``dominolog/``) in turn, ``--repeat`` rounds, each run into a fresh database. ``--jobs 1`` runs are pinned
to one CPU; the others may use every CPU. For each it prints the best wall time, events/s over the whole
process (start-up included) and by the command's own summary line, the CPU seconds of the process and its
workers, and the load average around the runs (the machine may be shared). The old and the new database
must hold the same rows in every table (the import times aside): checked after the first round.

``--stages`` splits one in-process import of the new code into its stages by CPU time (reading and
checking the lines, the fold and the rows, the writes to SQLite), and the writes by statement (each
statement's CPU time, taken around its call: the commits hold SQLite's checkpoints); ``--profile`` prints a
cProfile top of it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import os
import platform
import pstats
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_store import cpu_model
from bench_verify import fmt_int, print_table

from dominolog.log.reader import iter_matches
from dominolog.simulate import simulate_lines
from dominolog.store import Prepared, open_store, prepare_import
from dominolog.verify import batch_gc

SUMMARY = re.compile(r"(\d[\d,]*) events in ([\d.]+) s, ([\d,]+) events/s")
CLI = [sys.executable, "-c", "from dominolog.cli import main; main()"]
GOALS = {1: 100_000, 2: 150_000}
_ORDER = {"old": 0, "new": 1}


def write_files(folder: Path, variant: str, matches: int, files: int, seed: str, hide: bool) -> int:
    """``matches`` simulated matches dealt round the ``files`` files; returns the lines written."""
    folder.mkdir(parents=True, exist_ok=True)
    handles = [open(folder / f"{i:03d}.jsonl", "w", encoding="utf-8", newline="\n") for i in range(files)]  # noqa: SIM115
    n, match = 0, -1
    try:
        for line in simulate_lines(variant, matches, seed, hide=hide):
            if '"match_start"' in line:
                match += 1
            handles[match % files].write(line + "\n")
            n += 1
    finally:
        for h in handles:
            h.close()
    return n


def old_tree(ref: str, into: Path) -> Path:
    """The ``dominolog/`` of commit ``ref``, taken out of the git checkout this script is in."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "archive", ref, "dominolog"], cwd=root, capture_output=True, check=True).stdout
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def fresh_db(folder: Path, name: str) -> Path:
    db = folder / name
    for p in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        p.unlink(missing_ok=True)
    return db


def run_import(
    folder: Path, db: Path | None, jobs: int, old: Path | None, cpu: int | None
) -> tuple[float, float, float]:
    """One whole ``dominolog import`` (with no ``db``: ``dominolog verify -q``, the same reading and
    fold without the store): (wall s, CPU s of it and its workers, events/s by its summary)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINOLOG_")}
    if old is not None:
        env["PYTHONPATH"] = str(old)
    else:
        env.pop("PYTHONPATH", None)

    def pin() -> None:
        if cpu is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {cpu})

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [*CLI, "import", str(folder), "--db", str(db), "--jobs", str(jobs)]
        if db is not None
        else [*CLI, "verify", str(folder), "-q", "--jobs", str(jobs)],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=pin,
        check=False,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{'import' if db else 'verify'} failed ({done.returncode}):\n{done.stderr}")
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = SUMMARY.search(done.stdout)
    return wall, cpu_s, float(m.group(3).replace(",", "")) if m else float("nan")


def table_digest(db: Path) -> dict[str, str]:
    """Every table's rows (the import times left out), as a sha256 each."""
    out = {}
    with sqlite3.connect(db) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for name in names:
            cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")') if r[1] != "imported_at"]
            sel = ", ".join(f'"{c}"' for c in cols)
            h = hashlib.sha256()
            for row in conn.execute(f'SELECT {sel} FROM "{name}" ORDER BY {sel}'):
                h.update(repr(row).encode())
            out[name] = h.hexdigest()
    conn.close()
    return out


class TimedConnection:
    """A store's connection that adds up each statement's CPU time (by its first words) around the call."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.spent: Counter[str] = Counter()

    def _timed(self, run: Any, sql: str, args: Any) -> Any:
        t0 = time.process_time()
        try:
            return run(sql, args)
        finally:
            self.spent[" ".join(sql.split()[:3]).removesuffix("(").strip()] += time.process_time() - t0

    def execute(self, sql: str, args: Any = ()) -> Any:
        return self._timed(self.conn.execute, sql, args)

    def executemany(self, sql: str, rows: Any) -> Any:
        return self._timed(self.conn.executemany, sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def stages(folder: Path, db: Path, profile: int) -> None:
    """One in-process import of the new code, split into its stages by CPU time, and its writes by
    statement."""
    files = sorted(folder.glob("*.jsonl"))
    clock = time.process_time
    spent = {"read": 0.0, "fold": 0.0, "store": 0.0}
    store = open_store(db)
    timed = TimedConnection(store.conn)
    store.conn = timed
    prof = cProfile.Profile() if profile else None
    events = 0
    pending: list[Prepared] = []
    gc.collect()
    if prof is not None:
        prof.enable()
    with batch_gc():
        for f in files:
            logs = iter_matches(f)
            while True:
                t0 = clock()
                log = next(logs, None)
                t1 = clock()
                spent["read"] += t1 - t0
                if log is None:
                    break
                prep = prepare_import(log)
                spent["fold"] += clock() - t1
                events += len(prep.rows)
                pending.append(prep)
                if sum(len(p.rows) for p in pending) >= 20_000:  # a batch, as the import commits them
                    t2 = clock()
                    list(store.import_matches(pending))
                    spent["store"] += clock() - t2
                    pending.clear()
        t2 = clock()
        list(store.import_matches(pending))
        t3 = clock()
        store.close()
        timed.spent["(closing the store: its last checkpoint)"] += clock() - t3
        spent["store"] += clock() - t2
    if prof is not None:
        prof.disable()
    total = sum(spent.values())
    rows = [
        (name, f"{s:.3f}", f"{100 * s / total:.0f}%", f"{1e6 * s / events:.2f}")
        for name, s in (
            ("read and check the lines (iter_matches)", spent["read"]),
            ("fold: rules, hash chain, rows (prepare_import)", spent["fold"]),
            ("store: SQLite writes, commits (import_matches)", spent["store"]),
            ("total", total),
        )
    ]
    print_table(
        f"where one in-process import's CPU time goes ({fmt_int(events)} events, {fmt_int(events / total)} "
        "events per CPU second)",
        ("stage", "CPU s", "share", "µs/event"),
        rows,
    )
    statements = sorted(timed.spent.items(), key=lambda kv: -kv[1])
    rest = spent["store"] - sum(timed.spent.values())
    print_table(
        "the store's writes by statement (CPU time around each call)",
        ("statement", "calls' CPU s", "share of the store", "µs/event"),
        [
            (name, f"{s:.3f}", f"{100 * s / spent['store']:.0f}%", f"{1e6 * s / events:.2f}")
            for name, s in [*statements, ("(the rest: Python between the statements)", rest)]
        ],
    )
    if prof is not None:
        stats = pstats.Stats(prof)
        raw = stats.stats  # type: ignore[attr-defined]
        top = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:profile]
        ptotal = sum(v[2] for v in raw.values())
        prow = [
            (f"{Path(k[0]).name}:{k[1]}({k[2]})", fmt_int(v[1]), f"{v[2]:.3f}", f"{100 * v[2] / ptotal:.1f}%")
            for k, v in top
        ]
        print_table(f"cProfile, top {profile} by own time", ("function", "calls", "tottime", "share"), prow)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--matches", type=int, default=1400, help="matches to simulate (1400)")
    ap.add_argument("--files", type=int, default=8, help="files to spread them over (8)")
    ap.add_argument("--variant", default="ghost13", help="rule variant (ghost13)")
    ap.add_argument("--hide", action="store_true", help="as a table recorder sees the matches")
    ap.add_argument("--seed", default="bench", help="simulation seed (bench)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="the --jobs values (1 2)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the best of each is kept (3)")
    ap.add_argument("--old-ref", help="measure this commit's code too (a ref of this checkout)")
    ap.add_argument("--old", type=Path, help="measure this folder's dominolog/ too")
    ap.add_argument("--cpu", type=int, help="the CPU the --jobs 1 runs are pinned to (the first allowed)")
    ap.add_argument("--verify", action="store_true", help="time `dominolog verify -q` (new code) too")
    ap.add_argument("--stages", action="store_true", help="split an in-process import into its stages")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="with --stages: a cProfile top N")
    args = ap.parse_args(argv)
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    cpu = args.cpu if args.cpu is not None else allowed[0] if allowed else None

    print("dominolog import benchmark, old code against new")
    print(f"cpu      {cpu_model()}")
    print(f"cpus     {os.cpu_count()} logical; the --jobs 1 runs pinned to CPU {cpu}, the others on CPUs {allowed}")
    print(f"python   {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}")
    print(f"sqlite   {sqlite3.sqlite_version}; date {time.strftime('%Y-%m-%d %H:%M %Z')}")
    with tempfile.TemporaryDirectory(prefix="dominolog-bench-import-") as tmp:
        work = Path(tmp)
        logs = work / "logs"
        n = write_files(logs, args.variant, args.matches, args.files, args.seed, args.hide)
        size = sum(f.stat().st_size for f in logs.iterdir())
        print(
            f"corpus   {args.matches:,} {args.variant}{' hidden' if args.hide else ''} matches in {args.files} files, "
            f"{n:,} events, {size / 2**20:,.1f} MiB"
        )
        old = args.old if args.old is not None else old_tree(args.old_ref, work / "old") if args.old_ref else None
        codes: list[tuple[str, Path | None]] = [("new", None)] + ([("old", old)] if old is not None else [])
        best: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
        loads = [os.getloadavg()]
        for r in range(args.repeat):
            order = codes if r % 2 == 0 else codes[::-1]
            for jobs in args.jobs:
                for name, tree in order:
                    db = fresh_db(work, f"{name}-{jobs}.db")
                    best.setdefault((name, jobs), []).append(
                        run_import(logs, db, jobs, tree, cpu if jobs == 1 else None)
                    )
                    loads.append(os.getloadavg())
            if args.verify:
                for jobs in args.jobs:
                    best.setdefault(("verify -q (new)", jobs), []).append(
                        run_import(logs, None, jobs, None, cpu if jobs == 1 else None)
                    )
            if r == 0 and old is not None:
                for jobs in args.jobs:
                    same = table_digest(work / f"new-{jobs}.db") == table_digest(work / f"old-{jobs}.db")
                    print(f"--jobs {jobs}: the old and the new store hold the same rows: {'yes' if same else 'NO'}")
                    if not same:
                        return 1
        rows = []
        for (name, jobs), runs in sorted(
            best.items(), key=lambda kv: (kv[0][1], ["old", "new"].index(kv[0][0]) if kv[0][0] in ("old", "new") else 2)
        ):
            wall = min(w for w, _, _ in runs)
            cpu_s = min(c for _, c, _ in runs)
            own = max(o for _, _, o in runs)
            goal = GOALS.get(jobs)
            rows.append(
                (
                    f"{name}, --jobs {jobs}{' (pinned to one CPU)' if jobs == 1 else ''}",
                    f"{wall:.2f}",
                    fmt_int(n / wall),
                    fmt_int(own),
                    f"{cpu_s:.2f}",
                    fmt_int(n / cpu_s),
                    f"{goal:,}" if goal and name in ("old", "new") else "",
                    " ".join(f"{w:.2f}" for w, _, _ in runs),
                )
            )
        lo, hi = min(x[0] for x in loads), max(x[0] for x in loads)
        print_table(
            f"dominolog import FOLDER, whole process, best of {args.repeat} (load average {lo:.1f}-{hi:.1f})",
            ("code", "wall s", "events/s", "by its summary", "CPU s", "events/CPU s", "goal", "every run (wall s)"),
            rows,
        )
        if args.stages:
            stages(logs, fresh_db(work, "stages.db"), args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
