"""Benchmark of the match store: ``dominolog import``, ``verify --db`` and ``export`` on a simulated corpus.

Run as a script (it is not a test)::

    python bench/bench_store.py [--matches N] [--seed S] [--variant ghost13] [--repeat 3] [--profile]

It simulates ``N`` matches with :func:`dominolog.simulate.simulate_lines` into a temporary file, pins itself
to one CPU, and times, each best of ``--repeat`` runs:

- the import into a fresh database every run: in-process, as the command runs it
  (:meth:`dominolog.store.Store.import_matches` over :func:`~dominolog.log.reader.iter_matches` inside
  ``batch_gc()``), and the whole ``dominolog import FILE --db NEW -q`` command as a child process (start-up
  included; its own summary's events/s is shown too);
- ``verify --db`` over every match: in-process (:meth:`Store.verify` of each stored match, inside
  ``batch_gc()``) and as the whole command;
- ``export --all --format jsonl`` as the command does it in-process, and as the whole command;
- the size of the database (after the WAL is checkpointed) against the size of the log file.

It then splits one import into its stages (reading and validating the lines, the reducer and row building,
SQLite), measures what the per-commit fsync costs (the same import with ``PRAGMA synchronous=OFF`` set by
this script on its own connection: a measurement only, the store never runs so), and with ``--profile``
prints a cProfile top of one import.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import platform
import pstats
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_verify import best_of, code_state, fmt_int, pin_one_core, print_table, write_corpus

import dominolog.cli.export as export_cli
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.reducer import MatchReducer
from dominolog.store import Store, open_store, verify_stored
from dominolog.verify import batch_gc

DEFAULT_MATCHES = 1400  # ghost13: about 140 events a match, so about 195,000 events
TARGET_IMPORT_EVENTS_PER_S = 50_000
CLI = [sys.executable, "-c", "from dominolog.cli import main; main()"]
SUMMARY = re.compile(r"(\d[\d,]*) events in ([\d.]+) s, ([\d,]+) events/s")


# -- machine ---------------------------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "?"
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    model = fields.get("Model name", "?").strip()
    hyper = fields.get("Hypervisor vendor", "").strip()
    return f"{model}{f' ({hyper} guest)' if hyper else ''}"


def machine_lines(cpu: int | None) -> Iterator[str]:
    yield f"cpu      {cpu_model()}"
    yield f"cpus     {os.cpu_count()} logical; {pin_one_core(cpu)}"
    yield f"python   {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}"
    yield f"sqlite   {sqlite3.sqlite_version} (the sqlite3 module's library)"
    yield f"code     {code_state()}"


# -- the runs --------------------------------------------------------------------------------------------------


class Fresh:
    """Fresh database paths in a folder; asking for a new one deletes the previous one (and its WAL) unless
    it was asked to be kept."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.n = 0
        self.last: Path | None = None

    def __call__(self, keep: bool = False) -> Path:
        if self.last is not None:
            for p in (self.last, *(self.last.with_name(self.last.name + s) for s in ("-wal", "-shm"))):
                p.unlink(missing_ok=True)
        self.n += 1
        path = self.folder / f"store-{self.n}.db"
        self.last = None if keep else path
        return path


def import_in_process(corpus: Path, db: Path, gc_batch: bool = True, synchronous: str | None = None) -> int:
    """What ``dominolog import`` does between opening the store and printing: every match imported, the
    store closed (the last commit's fsync and the WAL checkpoint included). Returns the events imported."""
    store = open_store(db)
    if synchronous is not None:
        store.conn.execute(f"PRAGMA synchronous={synchronous}")
    try:
        if gc_batch:
            with batch_gc():
                results = list(store.import_matches(iter_matches(corpus)))
        else:
            results = list(store.import_matches(iter_matches(corpus)))
    finally:
        store.close()
    if any(r.status != "imported" for r in results):
        raise AssertionError("the corpus did not import cleanly")
    return sum(r.events for r in results)


def verify_in_process(db: Path) -> tuple[int, int]:
    """What ``dominolog verify --db`` does before printing; (events, invalid matches)."""
    with open_store(db, create=False) as store, batch_gc():
        reports = [verify_stored(store, m) for m in store.match_ids()]
    return sum(r.events for r in reports), sum(not r.valid for r in reports)


def export_in_process(db: Path) -> bytes:
    """What ``dominolog export --all`` (jsonl) does: every stored match's lines, joined."""
    matches, store = export_cli._gather([], True, db)
    data = b"".join(line + b"\n" for m in matches for line in m.lines())
    if store is not None:
        store.close()
    return data


def export_lines(db: Path) -> bytes:
    """The stored lines as :meth:`Store.lines` gives them (no decoding): what jsonl export needs at least."""
    with open_store(db, create=False) as store:
        return b"".join(line + b"\n" for mid in store.match_ids() for line in store.lines(mid))


def run_cli(*args: str | Path) -> tuple[float, str]:
    """The whole command as a child process (start-up included): (wall seconds, stdout)."""
    t0 = time.perf_counter()
    done = subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"dominolog {' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")
    return elapsed, done.stdout


def best_fresh(repeat: int, fresh: Fresh, fn: Callable[[Path], object]) -> tuple[float, object]:
    """Best wall time of ``fn(new_db)`` over ``repeat`` runs, each into a database of its own."""
    best, result = float("inf"), None
    for _ in range(repeat):
        db = fresh()
        gc.collect()
        t0 = time.perf_counter()
        result = fn(db)
        best = min(best, time.perf_counter() - t0)
    return best, result


def checkpoint(db: Path) -> None:
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# -- where an import's time goes -------------------------------------------------------------------------------


def import_stages(corpus: Path) -> dict[str, float]:
    """One streamed pass over the file, timing per match what the import does before SQLite: reading and
    validating (``iter_matches``), then the reducer and the row tuples (as ``Store._import_one`` builds them)."""
    out = {"read": 0.0, "reduce": 0.0}
    clock = time.perf_counter
    with batch_gc():
        logs = iter_matches(corpus)
        while True:
            t0 = clock()
            log: MatchLog | None = next(logs, None)
            t1 = clock()
            out["read"] += t1 - t0
            if log is None:
                break
            reducer = MatchReducer(log.source, log.line)
            rows: list[tuple[Any, ...]] = []
            for rec in log.records:
                reducer.feed(rec)
                rows.append(Store.row_of(rec, reducer.head))
            reducer.report()
            out["reduce"] += clock() - t1
    return out


def profile_import(corpus: Path, db: Path, top: int) -> None:
    prof = cProfile.Profile()
    gc.collect()
    prof.enable()
    import_in_process(corpus, db)
    prof.disable()
    stats = pstats.Stats(prof)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values())

    def name(key: tuple[str, int, str]) -> str:
        file, line, func = key
        if file == "~":
            return func
        parts = Path(file).parts
        short = "/".join(parts[len(parts) - 1 - parts[::-1].index("dominolog") :]) if "dominolog" in parts else ""
        return f"{short or '/'.join(parts[-2:])}:{line}({func})"

    by_tt = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    rows = [(name(k), fmt_int(v[1]), f"{v[2]:.3f}", f"{100 * v[2] / total:.1f}%") for k, v in by_tt]
    print_table(
        f"cProfile of one in-process import, top {top} by tottime (profiled total {total:.2f} s)",
        ("function", "ncalls", "tottime", "share"),
        rows,
    )


# -- main ------------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--matches", type=int, default=DEFAULT_MATCHES, help=f"matches to simulate ({DEFAULT_MATCHES})")
    ap.add_argument("--seed", default="bench", help="simulation seed (bench)")
    ap.add_argument("--variant", default="ghost13", help="rule variant to simulate (ghost13)")
    ap.add_argument("--players", type=int, help="players per match (default: the variant's fewest)")
    ap.add_argument("--hide", action="store_true", help="simulate as a table recorder sees it (hidden, reveals)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each measure; the best is kept (3)")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of one import")
    ap.add_argument("--top", type=int, default=20, help="rows of the profile table (20)")
    ap.add_argument("--cpu", type=int, help="the CPU to pin to (default: the first one allowed)")
    ap.add_argument("--corpus", type=Path, help="use this existing .jsonl file instead of simulating one")
    ap.add_argument("--dir", type=Path, help="put the databases here instead of a temporary folder")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print("dominolog store benchmark")
    for line in machine_lines(args.cpu):
        print(line)

    with tempfile.TemporaryDirectory(prefix="dominolog-bench-store-", dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"folder   {folder} ({os.statvfs(folder).f_bsize} B blocks)")
        if args.corpus is not None:
            corpus = args.corpus
            print(f"corpus   {corpus} (given)")
        else:
            corpus = folder / f"{args.variant}-{args.matches}-{args.seed}.jsonl"
            t0 = time.perf_counter()
            n_lines = write_corpus(corpus, args.variant, args.matches, args.seed, args.players, args.hide)
            how = f"{args.players or 'default'} players{', hidden' if args.hide else ''}"
            print(
                f"corpus   {args.matches:,} {args.variant} matches ({how}), seed {args.seed!r}: {n_lines:,} lines, "
                f"{corpus.stat().st_size / 2**20:,.1f} MiB, simulated in {time.perf_counter() - t0:.1f} s"
            )
        fresh = Fresh(folder)
        rep = args.repeat

        # -- import ---------------------------------------------------------------------------
        imp_s, events = best_fresh(rep, fresh, lambda db: import_in_process(corpus, db))
        assert isinstance(events, int)
        bare_s, _ = best_fresh(rep, fresh, lambda db: import_in_process(corpus, db, gc_batch=False))
        nosync_s, _ = best_fresh(rep, fresh, lambda db: import_in_process(corpus, db, synchronous="OFF"))
        cli_runs = []
        for _ in range(rep):
            db = fresh()
            wall, out = run_cli("import", corpus, "--db", db, "-q")
            m = SUMMARY.search(out)
            cli_runs.append((wall, float(m.group(2)) if m else float("nan")))
        cli_wall = min(w for w, _ in cli_runs)
        cli_own = min(s for _, s in cli_runs)
        store_db = fresh(keep=True)
        import_in_process(corpus, store_db)  # the store the reading measures use
        wal = store_db.with_name(store_db.name + "-wal")
        wal_size = wal.stat().st_size if wal.exists() else 0
        checkpoint(store_db)
        db_size = store_db.stat().st_size
        with sqlite3.connect(store_db) as c:
            n_matches = c.execute("SELECT count(*) FROM matches").fetchone()[0]
            n_hands = c.execute("SELECT count(*) FROM hands").fetchone()[0]
            pages = dict(
                c.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall() if _has_dbstat(c) else []
            )

        def rate(seconds: float) -> str:
            return fmt_int(events / seconds)

        met = events / imp_s >= TARGET_IMPORT_EVENTS_PER_S
        rows = [
            ("events / hands / matches", f"{fmt_int(events)} / {fmt_int(n_hands)} / {fmt_int(n_matches)}"),
            (f"in-process, as the command (batch_gc), s (best of {rep})", f"{imp_s:.3f}"),
            ("  events/s", rate(imp_s)),
            ("  µs per event", f"{1e6 * imp_s / events:.2f}"),
            ("in-process, without batch_gc: events/s", rate(bare_s)),
            ("in-process, synchronous=OFF (measure only): events/s", rate(nosync_s)),
            ("`dominolog import` child process, wall s (start-up included)", f"{cli_wall:.3f}"),
            ("  events/s over the whole process", rate(cli_wall)),
            ("  events/s by the command's own summary", rate(cli_own)),
            (
                f"target >= {TARGET_IMPORT_EVENTS_PER_S:,} events/s (in-process, as the command)",
                "MET" if met else f"NOT MET ({events / imp_s / TARGET_IMPORT_EVENTS_PER_S:.0%} of it)",
            ),
        ]
        print_table("import into a fresh store, one core", ("measure", "value"), rows)

        # -- verify --db and export ---------------------------------------------------------------
        ver_s, ver = best_of(rep, lambda: verify_in_process(store_db))
        assert isinstance(ver, tuple) and ver[0] == events and ver[1] == 0
        ver_cli = min(run_cli("verify", "--db", store_db)[0] for _ in range(rep))
        exp_s, data = best_of(rep, lambda: export_in_process(store_db))
        assert isinstance(data, bytes) and data.count(b"\n") == events
        lines_s, raw = best_of(rep, lambda: export_lines(store_db))
        assert raw == data
        out_file = folder / "export.jsonl"
        exp_cli = min(run_cli("export", "--all", "--db", store_db, "--out", out_file)[0] for _ in range(rep))
        same_lines = sorted(out_file.read_bytes().splitlines()) == sorted(corpus.read_bytes().splitlines())
        rows = [
            (f"verify --db, in-process (batch_gc), s (best of {rep})", f"{ver_s:.3f}"),
            ("  events/s", rate(ver_s)),
            ("`dominolog verify --db` child process, wall s", f"{ver_cli:.3f}"),
            ("  events/s over the whole process", rate(ver_cli)),
            ("export --all (jsonl), in-process as the command, s", f"{exp_s:.3f}"),
            ("  events/s", rate(exp_s)),
            ("  MiB/s", f"{len(data) / 2**20 / exp_s:,.1f}"),
            ("Store.lines() alone (no decoding), events/s", rate(lines_s)),
            ("`dominolog export --all --out F` child process, wall s", f"{exp_cli:.3f}"),
            ("  events/s over the whole process", rate(exp_cli)),
            ("exported lines == the file's lines (as a multiset)", "yes" if same_lines else "NO"),
        ]
        print_table("reading the store, one core", ("measure", "value"), rows)

        size = corpus.stat().st_size
        rows = [
            ("log file (JSON Lines)", f"{size / 2**20:,.1f} MiB", f"{size / events:,.0f} B"),
            ("store, after the checkpoint", f"{db_size / 2**20:,.1f} MiB", f"{db_size / events:,.0f} B"),
            ("  WAL left once the import closed the store", f"{wal_size / 2**20:,.1f} MiB", ""),
            *[
                (f"  {name}", f"{n / 2**20:,.1f} MiB", f"{n / events:,.0f} B")
                for name, n in sorted(pages.items(), key=lambda kv: -kv[1])[:6]
            ],
        ]
        print_table("size", ("what", "size", "per event"), rows)

        # -- where an import's time goes ----------------------------------------------------------
        runs = []
        for _ in range(rep):
            gc.collect()
            runs.append(import_stages(corpus))
        read_s = min(r["read"] for r in runs)
        reduce_s = min(r["reduce"] for r in runs)
        sql_s = max(imp_s - read_s - reduce_s, 0.0)
        sync_s = max(imp_s - nosync_s, 0.0)

        def row(label: str, seconds: float, note: str = "") -> tuple[str, ...]:
            return (label, f"{seconds:.3f}", f"{100 * seconds / imp_s:.0f}%", f"{1e6 * seconds / events:.2f}", note)

        rows = [
            row("read + validate (iter_matches)", read_s, "orjson + pydantic, as verify"),
            row("reducer + row tuples", reduce_s, "rules and hash chain, as verify"),
            row("SQLite and the rest", sql_s, "derived: import - the two above"),
            row("  of it: fsync of the commits (synchronous=FULL)", sync_s, "derived: import - synchronous=OFF"),
            row("import, in-process", imp_s, ""),
        ]
        print_table(
            f"where an import's time goes (best of {rep})", ("stage", "seconds", "share", "µs/event", "note"), rows
        )
        if args.profile:
            profile_import(corpus, fresh(), args.top)
    return 0


def _has_dbstat(c: sqlite3.Connection) -> bool:
    try:
        c.execute("SELECT 1 FROM dbstat LIMIT 1").fetchall()
    except sqlite3.Error:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
