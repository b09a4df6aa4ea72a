"""Benchmark of ``dominolog verify`` on a simulated corpus.

Run as a script (it is not a test)::

    python bench/bench_verify.py [--matches N] [--seed S] [--variant ghost13] [--profile]

It simulates ``N`` matches with :func:`dominolog.simulate.simulate_lines` into a
temporary file, pins itself to one CPU, and times
:func:`dominolog.verify.verify_paths` over that file (best of ``--repeat``
runs, every report consumed). It then times the stages of a verify on their own
(reading and decoding, the events' checks, the hash chain, the reducer) to show
where the time goes, measures peak memory (``ru_maxrss`` of a fresh child
process that only verifies, and the ``tracemalloc`` peak of one verify run, kept
apart from the timings since tracing slows everything down), and with
``--profile`` prints the cProfile top functions by own time. Last, python-chess (the ``bench``
extra) reads and validates as many moves of random legal games from a PGN file, side by side in the
same run (issue 16 asks verify for at least 5 times its moves per second).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import platform
import pstats
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

import dominolog
import dominolog.verify
from dominolog.events import parse_event
from dominolog.log import hashchain
from dominolog.log.reader import MatchLog, Record, iter_matches
from dominolog.reducer import MatchReducer, MatchReport, verify_match
from dominolog.simulate import simulate_lines
from dominolog.verify import verify_paths

DEFAULT_MATCHES = 1400  # ghost13: about 142 events a match (5 hands), so about 200,000 events
TARGET_EVENTS_PER_S = 250_000  # issue 16 (issue 2 asked for 100,000)

# Newer dominolog versions have these; the benchmark also runs against older checkouts without them.
_CANONICAL_BYTES: Callable[..., bytes] | None = getattr(hashchain, "canonical_bytes", None)
_BATCH_GC: Callable[[], AbstractContextManager[None]] | None = getattr(dominolog.verify, "batch_gc", None)


# -- helpers -------------------------------------------------------------------------------


@dataclass(slots=True)
class Totals:
    """What a verify run saw."""

    events: int = 0
    hands: int = 0
    matches: int = 0
    invalid: int = 0

    @classmethod
    def of(cls, reports: list[MatchReport]) -> Totals:
        return cls(
            events=sum(r.events for r in reports),
            hands=sum(len(r.hands) for r in reports),
            matches=len(reports),
            invalid=sum(not r.valid for r in reports),
        )


def pin_one_core(cpu: int | None = None) -> str:
    """Run on a single CPU (Linux; the first allowed one unless ``cpu`` is given); says what was done."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpus = sorted(os.sched_getaffinity(0))
    chosen = cpus[0] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen} (of {len(cpus)} available)"


def code_state() -> str:
    """Where the dominolog being measured lives, its commit, and whether it has local changes."""
    root = Path(dominolog.__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "dominolog"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"{root} (not a git checkout)"
    return f"{root} at {head}{' + uncommitted changes under dominolog/' if dirty else ''}"


def best_of(runs: int, fn: Callable[[], object]) -> tuple[float, object]:
    """The fastest wall time of ``runs`` calls of ``fn`` (garbage collected before each), and its result."""
    best = float("inf")
    result: object = None
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - t0
        best = min(best, elapsed)
    return best, result


def write_corpus(
    path: Path, variant: str, matches: int, seed: str, players: int | None = None, hide: bool = False
) -> int:
    """Simulate ``matches`` matches into ``path``; returns the number of lines written."""
    n = 0
    names = ["Ana", "Ben", "Cleo", "Dev"][:players] if players else None
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for line in (
            simulate_lines(variant, matches, seed, names, hide=hide)
            if hide or names
            else simulate_lines(variant, matches, seed)
        ):
            fh.write(line)
            fh.write("\n")
            n += 1
    return n


def fmt_int(n: float) -> str:
    return f"{n:,.0f}"


def fmt_mib(kib: float) -> str:
    return f"{kib / 1024:,.1f} MiB"


def print_table(title: str, header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    """A plain fixed-width table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(len(header))]
    print()
    print(title)

    def line(cells: tuple[str, ...]) -> str:
        parts = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  " + "  ".join(parts).rstrip()

    print(line(header))
    print("  " + "  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


# -- the stages ------------------------------------------------------------------------------


def run_verify(path: Path) -> list[MatchReport]:
    """What ``dominolog verify`` does before printing: every report of the file, kept in a list."""
    return list(verify_paths([path]))


def run_verify_batch_gc(path: Path) -> list[MatchReport]:
    """The same inside ``dominolog.verify.batch_gc()``, as the command line runs it (when the code has it)."""
    assert _BATCH_GC is not None
    with _BATCH_GC():
        return run_verify(path)


def run_read_json(path: Path) -> int:
    """Read the lines and decode them with orjson only (no validation, no records)."""
    n = 0
    loads = orjson.loads
    with open(path, "rb") as fh:
        for line in fh:
            stripped = line.strip()
            if stripped:
                loads(stripped)
                n += 1
    return n


def run_iter_matches(path: Path) -> int:
    """The reader as verify uses it (lines -> orjson -> checked events -> records grouped in matches), streamed."""
    return sum(len(log.records) for log in iter_matches(path))


def run_parse_events(objs: list[dict[str, Any]]) -> int:
    """The events' checks alone (hand-written, pydantic for what they are not sure of), on decoded objects."""
    for obj in objs:
        parse_event(obj)
    return len(objs)


def run_canonical(records: list[Record]) -> int:
    """The canonical form alone, as the reducer asks for it (its fast path for validated events, if it has one)."""
    fast_form = _CANONICAL_BYTES
    if fast_form is None:
        for r in records:
            hashchain.canonical(r.value)
    else:
        for r in records:
            fast_form(r.value, fast=r.event is not None and r.event.type != "match_start")
    return len(records)


def run_hash_chain(log: MatchLog) -> str:
    """The hash chain alone: the reducer's own chain step (head, and each stored hash checked) over one match."""
    reducer = MatchReducer(log.source, log.line)
    issues = []
    for rec in log.records:
        issues.extend(reducer.chain.check(rec))
    if issues:
        raise AssertionError("the simulated corpus has a bad hash chain")
    return reducer.head


def run_reduce(log: MatchLog) -> MatchReport:
    """The reducer alone (hash chain and rules), on records already read and validated."""
    return verify_match(log)


def per_match_times(path: Path) -> dict[str, float]:
    """One streamed pass over the file: per match, time each in-memory stage on that match's records only.

    Stages run match by match, as in verify, so that no stage pays for a whole corpus kept alive
    (a list of 200,000 records and models makes the cyclic GC's full collections dominate).
    """
    out = {"parse_event": 0.0, "canonical": 0.0, "chain": 0.0, "reduce": 0.0}
    clock = time.perf_counter
    for log in iter_matches(path):
        objs: list[dict[str, Any]] = [r.value for r in log.records]
        t0 = clock()
        run_parse_events(objs)
        t1 = clock()
        run_canonical(log.records)
        t2 = clock()
        run_hash_chain(log)
        t3 = clock()
        run_reduce(log)
        t4 = clock()
        out["parse_event"] += t1 - t0
        out["canonical"] += t2 - t1
        out["chain"] += t3 - t2
        out["reduce"] += t4 - t3
    return out


def stage_times(path: Path, repeat: int) -> dict[str, float]:
    """Each stage of a verify timed on its own (best of ``repeat``), in seconds."""
    out: dict[str, float] = {}
    out["read"], _ = best_of(repeat, lambda: run_read_json(path))
    out["iter_matches"], _ = best_of(repeat, lambda: run_iter_matches(path))
    passes = []
    for _ in range(repeat):
        gc.collect()
        passes.append(per_match_times(path))
    for key in passes[0]:
        out[key] = min(p[key] for p in passes)
    return out


def tracemalloc_peak(path: Path) -> int:
    """Peak traced Python memory (bytes) of one verify run."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        reports = run_verify(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del reports
    return peak


def rss_child(path: Path, cpu: int | None) -> None:
    """Child mode: verify the file once in a fresh process and print its ru_maxrss (KiB) as JSON."""
    pin_one_core(cpu)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    reports = run_verify(path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"baseline_kib": base, "peak_kib": peak, "matches": len(reports)}))


def measure_rss(path: Path, cpu: int | None) -> dict[str, int]:
    """ru_maxrss of a fresh process that imports dominolog and verifies the file once."""
    cpu_args = [] if cpu is None else ["--cpu", str(cpu)]
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--rss-child", str(path), *cpu_args],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"the memory child process failed:\n{out.stderr}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def profile_verify(path: Path, top: int) -> None:
    """cProfile one verify run; print the top functions by own time, and dominolog's by cumulative time."""
    prof = cProfile.Profile()
    gc.collect()
    prof.enable()
    run_verify(path)
    prof.disable()
    stats = pstats.Stats(prof)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values())

    def name(key: tuple[str, int, str]) -> str:
        file, line, func = key
        if file == "~":
            return func
        parts = Path(file).parts
        if "dominolog" in parts:
            short = "/".join(parts[len(parts) - 1 - parts[::-1].index("dominolog") :])
        else:
            short = "/".join(parts[-2:])
        return f"{short}:{line}({func})"

    by_tt = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    rows = [
        (
            name(k),
            fmt_int(v[1]),
            f"{v[2]:.3f}",
            f"{100 * v[2] / total:.1f}%",
            f"{v[3]:.3f}",
            f"{100 * v[3] / total:.0f}%",
        )
        for k, v in by_tt
    ]
    print_table(
        f"cProfile of one verify run, top {top} by tottime (profiled total {total:.2f} s; the profiler inflates it)",
        ("function", "ncalls", "tottime", "share", "cumtime", "cum share"),
        rows,
    )
    ours = [kv for kv in raw.items() if "dominolog" in Path(kv[0][0]).parts]
    by_ct = sorted(ours, key=lambda kv: kv[1][3], reverse=True)[:top]
    rows = [(name(k), fmt_int(v[1]), f"{v[3]:.3f}", f"{100 * v[3] / total:.1f}%") for k, v in by_ct]
    print_table(
        f"cProfile, dominolog functions, top {top} by cumtime",
        ("function", "ncalls", "cumtime", "cum share"),
        rows,
    )


# -- main ------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--matches", type=int, default=DEFAULT_MATCHES, help=f"matches to simulate ({DEFAULT_MATCHES})")
    ap.add_argument("--seed", default="bench", help="simulation seed (bench)")
    ap.add_argument("--variant", default="ghost13", help="rule variant to simulate (ghost13)")
    ap.add_argument("--players", type=int, help="players per match (default: the variant's fewest)")
    ap.add_argument("--hide", action="store_true", help="simulate as a table recorder sees it (hidden, reveals)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per stage; the best is kept (3)")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of one verify run")
    ap.add_argument("--top", type=int, default=15, help="rows of the profile tables (15)")
    ap.add_argument("--cpu", type=int, help="the CPU to pin to (default: the first one allowed)")
    ap.add_argument("--corpus", type=Path, help="verify this existing .jsonl file instead of simulating one")
    ap.add_argument("--rss-child", type=Path, help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def machine_lines(cpu: int | None) -> Iterator[str]:
    yield f"python   {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}"
    yield f"cpus     {os.cpu_count()} logical; {pin_one_core(cpu)}"
    yield f"code     {code_state()}"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.rss_child is not None:
        rss_child(args.rss_child, args.cpu)
        return 0

    print("dominolog verify benchmark")
    for line in machine_lines(args.cpu):
        print(line)

    with tempfile.TemporaryDirectory(prefix="dominolog-bench-") as tmp:
        if args.corpus is not None:
            path = args.corpus
            print(f"corpus   {path} (given)")
        else:
            path = Path(tmp) / f"{args.variant}-{args.matches}-{args.seed}.jsonl"
            t0 = time.perf_counter()
            n_lines = write_corpus(path, args.variant, args.matches, args.seed, args.players, args.hide)
            sim_s = time.perf_counter() - t0
            how = f"{args.players or 'default'} players{', hidden' if args.hide else ''}"
            print(
                f"corpus   {args.matches:,} {args.variant} matches ({how}), seed {args.seed!r}: {n_lines:,} lines, "
                f"{path.stat().st_size / 2**20:,.1f} MiB, simulated in {sim_s:.1f} s"
            )

        # Memory first, while the process holds nothing else large.
        rss = measure_rss(path, args.cpu)
        traced_peak = tracemalloc_peak(path)

        # The full verify: best of N.
        verify_s, result = best_of(args.repeat, lambda: run_verify(path))
        assert isinstance(result, list)
        totals = Totals.of(result)
        del result

        eps = totals.events / verify_s
        hps = totals.hands / verify_s
        gc_rows: list[tuple[str, str]] = []
        cli_eps = eps
        if _BATCH_GC is not None:
            gc_s, _ = best_of(args.repeat, lambda: run_verify_batch_gc(path))
            cli_eps = totals.events / gc_s
            gc_rows = [
                ("seconds inside batch_gc() (as the CLI)", f"{gc_s:.3f}"),
                ("events/s inside batch_gc() (as the CLI)", fmt_int(cli_eps)),
            ]
        rows = [
            ("events", fmt_int(totals.events)),
            ("hands", fmt_int(totals.hands)),
            ("matches", f"{fmt_int(totals.matches)} ({totals.invalid} invalid)"),
            (f"seconds (best of {args.repeat})", f"{verify_s:.3f}"),
            ("events/s", fmt_int(eps)),
            ("hands/s", fmt_int(hps)),
            ("matches/s", fmt_int(totals.matches / verify_s)),
            ("µs per event", f"{1e6 * verify_s / totals.events:.2f}"),
            *gc_rows,
            ("ru_maxrss, fresh process after imports", fmt_mib(rss["baseline_kib"])),
            ("ru_maxrss, same process after verify", fmt_mib(rss["peak_kib"])),
            ("tracemalloc peak during verify", fmt_mib(traced_peak / 1024)),
            (
                f"target >= {TARGET_EVENTS_PER_S:,} events/s (as the CLI runs)",
                "MET" if cli_eps >= TARGET_EVENTS_PER_S else f"NOT MET ({cli_eps / TARGET_EVENTS_PER_S:.0%} of it)",
            ),
        ]
        print_table("verify_paths([file]), one core", ("measure", "value"), rows)

        # The breakdown: each stage on its own, best of N.
        st = stage_times(path, args.repeat)
        read_s, iter_s, parse_s = st["read"], st["iter_matches"], st["parse_event"]
        canon_s, chain_s, reduce_s = st["canonical"], st["chain"], st["reduce"]

        n = totals.events

        def row(label: str, seconds: float, note: str = "") -> tuple[str, ...]:
            return (
                label,
                f"{seconds:.3f}",
                f"{100 * seconds / verify_s:.0f}%",
                f"{1e6 * seconds / n:.2f}",
                fmt_int(n / seconds) if seconds > 0 else "-",
                note,
            )

        rows = [
            row("read lines + orjson.loads", read_s, "I/O and JSON only"),
            row("iter_matches (read + decode + parse_event)", iter_s, "the reader verify uses"),
            row("  parse_event alone (event checks)", parse_s, "on decoded objects"),
            row("  iter_matches - read/json - parse_event", max(iter_s - read_s - parse_s, 0.0), "derived"),
            row("hash chain alone (MatchReducer._chain)", chain_s, "canonical form + sha256"),
            row("  canonical form alone", canon_s, "as _chain asks for it"),
            row("reducer alone (verify_match)", reduce_s, "chain + rules, records in memory"),
            row("  reducer - hash chain", max(reduce_s - chain_s, 0.0), "derived: the rules"),
            row("full verify_paths", verify_s, ""),
            row("  iter_matches + reducer", iter_s + reduce_s, "sum of the two halves"),
        ]
        print_table(
            f"where the time goes (each stage timed on its own, best of {args.repeat})",
            ("stage", "seconds", "% of verify", "µs/event", "events/s", "note"),
            rows,
        )

        print_table(
            "side by side: python-chess reading and validating PGN, in the same run",
            ("measure", "value"),
            chess_rows(totals.events, cli_eps, args.repeat, Path(tmp)),
        )

        if args.profile:
            profile_verify(path, args.top)
    return 0


#: issue 16: verify at least this many times python-chess's moves per second
CHESS_FACTOR = 5


def chess_rows(events: int, events_per_s: float, repeat: int, tmp: Path) -> list[tuple[str, str]]:
    """python-chess (the bench extra) reading random legal games from a PGN file, every move parsed
    from SAN and played (so checked legal), about as many moves as the dominolog corpus has events."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return [("python-chess", "not installed: pip install '.[bench]' to measure it side by side")]
    import random

    rng = random.Random("bench-verify-chess")
    pgn = tmp / "games.pgn"
    moves = 0
    with open(pgn, "w", encoding="utf-8") as fh:
        while moves < max(events, 200):
            board = chess.Board()
            for _ in range(rng.randint(20, 120)):
                legal = list(board.legal_moves)
                if not legal:
                    break
                board.push(rng.choice(legal))
            moves += len(board.move_stack)
            print(chess.pgn.Game.from_board(board), file=fh, end="\n\n")

    def read_all() -> int:
        n = 0
        with open(pgn, encoding="utf-8") as fh:
            while (game := chess.pgn.read_game(fh)) is not None:
                assert not game.errors, game.errors
                n += len(list(game.mainline_moves()))
        return n

    chess_s, read = best_of(repeat, read_all)
    assert read == moves
    mps = moves / chess_s
    factor = events_per_s / mps
    return [
        ("python-chess version", chess.__version__),
        ("moves (random legal games)", fmt_int(moves)),
        (f"seconds (best of {repeat})", f"{chess_s:.3f}"),
        ("moves/s", fmt_int(mps)),
        ("dominolog events/s (as the CLI runs, above)", fmt_int(events_per_s)),
        (
            f"dominolog / python-chess (goal >= {CHESS_FACTOR}x)",
            f"{factor:.2f}x " + ("MET" if factor >= CHESS_FACTOR else "NOT MET"),
        ),
    ]


if __name__ == "__main__":
    sys.exit(main())
