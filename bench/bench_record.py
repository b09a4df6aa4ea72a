"""Benchmark of recording: durable appends at the speed of play, and undo.

Run as a script (it is not a test)::

    python bench/bench_record.py [--events 10000] [--stdin-events 5000] [--undo-pairs 10000] [--window 1000]

It measures, each on a fresh store in a temporary folder:

- **durable appends through the store**: one event per transaction (WAL, ``synchronous=FULL``), with the
  recorder's checks (:meth:`dominolog.store.Store.append` with ``check=True``), over one match of
  ``--events`` events (a simulated Ghost 13 match with a high target), printed per window of
  ``--window`` events: the rate must stay flat as the match grows;
- the same into a JSON Lines file (``--file``: ``write`` + ``fsync`` per event);
- **``dominolog append -``** end to end: the installed console script as a child process, reading a
  ``--stdin-events`` event match from standard input;
- **undo-heavy matches**: ``--undo-pairs`` play/undo pairs folded in memory, and a tenth of them appended
  durably;
- **from key to screen** in the recorder (Textual's Pilot, no terminal): the time from pressing Enter on a
  typed play to the event shown in the event list, median of ``--keys`` plays; the CPU time the app
  spent in it (the rest is waiting: for the disk, for Textual's next frame, for other processes); and
  the time the entry took to be handled (the durable append, the fold, the panels updated). Twice: the
  line put in the entry line and Enter pressed at once (as the first version of this bench did: the
  line's own screen update is drawn just before, and Textual draws at most 60 frames a second, so the
  Enter's update waits one or two frames for its turn), and the line typed key by key with Enter
  ``--gap`` seconds after the last key, as a person types it.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import Any

from dominolog.log.reader import decode_line
from dominolog.log.writer import dump_line
from dominolog.recording.journal import FileJournal
from dominolog.reducer import MatchReducer
from dominolog.simulate import simulate_match
from dominolog.store import open_store


def match_events(n: int) -> list[dict[str, Any]]:
    """The first ``n`` events of a long simulated Ghost 13 match, without seq and hash (the writer adds them)."""
    events = simulate_match("ghost13", "bench-record", options={"target": max(100, n // 2)})
    while len(events) < n:  # a longer match: raise the target
        events = simulate_match("ghost13", "bench-record", options={"target": len(events) * 4})
    out = []
    for e in events[:n]:
        body = {k: v for k, v in e.items() if k not in ("seq", "hash")}
        if e["type"] == "match_start":
            body = {"type": "match_start", "seq": 1, **{k: v for k, v in body.items() if k not in ("type", "id")}}
        out.append(body)
    return out


def windows(times: list[float], window: int) -> list[tuple[int, int, float]]:
    """(first, last, appends/s) per window of events."""
    rows = []
    for i in range(0, len(times), window):
        chunk = times[i : i + window]
        rows.append((i + 1, i + len(chunk), len(chunk) / sum(chunk)))
    return rows


def bench_store(events: list[dict[str, Any]], folder: Path) -> list[float]:
    lines = [dump_line(e).encode() for e in events]
    store = open_store(folder / "store.db", create=True, write=True)
    times = []
    with store:
        for line in lines:
            t = time.perf_counter()
            store.append("bench", line, check=True)
            times.append(time.perf_counter() - t)
    return times


def bench_file(events: list[dict[str, Any]], folder: Path) -> list[float]:
    journal = FileJournal(folder / "match.jsonl")
    times = []
    for e in events:
        line = dump_line(e).encode()
        t = time.perf_counter()
        journal.append(line, check=True)
        times.append(time.perf_counter() - t)
    return times


def bench_stdin(events: list[dict[str, Any]], folder: Path) -> tuple[float, str]:
    script = Path(sys.executable).parent / "dominolog"
    command = [str(script)] if script.exists() else [sys.executable, "-c", "from dominolog.cli import main; main()"]
    data = "".join(dump_line(e) + "\n" for e in events).encode()
    t = time.perf_counter()
    done = subprocess.run(
        [*command, "append", "stdin", "--db", str(folder / "stdin.db"), "-"],
        input=data,
        capture_output=True,
        cwd=folder,
        check=False,
    )
    elapsed = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"dominolog append failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return elapsed, done.stdout.decode().strip()


def undo_lines(pairs: int) -> list[bytes]:
    events = simulate_match("ghost13", "bench-undo")
    plays = [e for e in events if e["type"] == "play"][:2]
    head = [events[0], events[1], plays[0]]
    body = [dump_line({k: v for k, v in e.items() if k not in ("seq", "hash", "id")}).encode() for e in head]
    again = dump_line({k: v for k, v in plays[1].items() if k not in ("seq", "hash")}).encode()
    return body + [again, b'{"type":"undo"}'] * pairs


def bench_undo_memory(lines: list[bytes]) -> float:
    reducer = MatchReducer()
    t = time.perf_counter()
    for n, line in enumerate(lines, 1):
        reducer.feed(decode_line(line, n, n))
    elapsed = time.perf_counter() - t
    assert reducer.report().valid, "the undo-heavy match must stay valid"
    return elapsed


def bench_undo_store(lines: list[bytes], folder: Path) -> list[float]:
    times = []
    with open_store(folder / "undo.db", create=True, write=True) as store:
        for line in lines:
            t = time.perf_counter()
            store.append("undo", line, check=True)
            times.append(time.perf_counter() - t)
    return times


def bench_keys(
    events: list[dict[str, Any]], before: int, plays: int, folder: Path, gap: float = 0.0
) -> list[tuple[float, float, float]]:
    """The recorder under Pilot, on a match of ``before`` events: for each of the next ``plays`` events
    (in the notation, names left out), the time from the Enter key reaching the screen to the end of the
    first screen update drawn after the entry was handled (Textual's compositor refresh), the CPU time
    of the app's thread in it, and the time the entry took to be handled. ``gap``: 0, the line is put in
    the entry line and Enter pressed at once; else the line is typed key by key and Enter pressed
    ``gap`` seconds after the last key."""
    import asyncio

    from textual import events as keys
    from textual.screen import Screen

    from dominolog.log.notation_write import format_event
    from dominolog.recording.journal import StoreJournal
    from dominolog.recording.session import Session
    from dominolog.tui.recorder_app import RecorderApp
    from dominolog.tui.screens.recorder import RecorderScreen

    db = folder / f"keys-{before}-{gap}.db"
    with open_store(db, create=True, write=True) as store:
        for e in events[:before]:
            store.append("keys", dump_line(e).encode())
    typed = events[before : before + plays]
    marks: dict[str, float] = {}
    drawn: list[tuple[float, float]] = []
    handle, refresh = RecorderScreen.on_input_submitted, Screen._compositor_refresh

    def timed_handle(self: Any, message: Any) -> None:
        marks["key"], marks["cpu"] = time.perf_counter(), time.thread_time()
        handle(self, message)
        marks["handled"] = time.perf_counter()

    def timed_refresh(self: Any) -> None:
        refresh(self)
        if "handled" in marks and not drawn:
            drawn.append((time.perf_counter(), time.thread_time()))

    async def run() -> list[tuple[float, float, float]]:
        delays = []
        with open_store(db, write=True) as store:
            session = Session(StoreJournal(store, "keys"), now=lambda: "2026-11-24T20:00:00Z")
            app = RecorderApp(session, "bench", poll=None)
            async with app.run_test(size=(120, 40)) as pilot:
                for e in typed:
                    token = format_event(e, session.on_move) or "{?}"
                    if not gap:
                        app.recorder.entry.value = token
                    else:  # typed: each key drawn as it comes, the last one gap seconds before Enter
                        for ch in token:
                            name = ch if ch.isalnum() else unicodedata.name(ch).lower().replace("-", "_")
                            app.post_message(keys.Key(name.replace(" ", "_"), ch))
                        await pilot.pause(gap)
                        if app.recorder.entry.value != token:
                            raise SystemExit(f"typed {token!r}, the entry line holds {app.recorder.entry.value!r}")
                    count = session.reducer.events
                    marks.clear()
                    drawn.clear()
                    await pilot.press("enter")
                    await pilot.pause()
                    if session.reducer.events != count + 1 or not drawn:
                        raise SystemExit(f"the recorder did not take {token!r} after event {count}")
                    (at, cpu), key = drawn[0], marks["key"]
                    delays.append((at - key, cpu - marks["cpu"], marks["handled"] - key))
        return delays

    RecorderScreen.on_input_submitted = timed_handle  # type: ignore[method-assign]
    Screen._compositor_refresh = timed_refresh  # type: ignore[method-assign]
    try:
        return asyncio.run(run())
    finally:
        RecorderScreen.on_input_submitted = handle  # type: ignore[method-assign]
        Screen._compositor_refresh = refresh  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--stdin-events", type=int, default=5_000)
    parser.add_argument("--undo-pairs", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=1_000)
    parser.add_argument("--keys", type=int, default=20, help="plays typed in the recorder (0: skip)")
    parser.add_argument("--gap", type=float, default=0.1, help="seconds from a line drawn to its Enter, as typed")
    args = parser.parse_args(argv)
    print(f"python   {platform.python_version()} on {platform.platform()}, {os.cpu_count()} logical cpus")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        events = match_events(max(args.events, args.stdin_events))
        times = bench_store(events[: args.events], folder)
        print(f"\ndurable appends through the store ({args.events:,} events, check=True, synchronous=FULL)")
        for first, last, rate in windows(times, args.window):
            print(f"  events {first:>6,}-{last:<6,} {rate:8,.0f} appends/s")
        print(f"  overall {len(times) / sum(times):,.0f} appends/s; median {statistics.median(times) * 1e3:.2f} ms")
        times = bench_file(events[: args.events], folder)
        print(f"\ndurable appends to a JSON Lines file ({args.events:,} events, fsync each)")
        for first, last, rate in windows(times, args.window):
            print(f"  events {first:>6,}-{last:<6,} {rate:8,.0f} appends/s")
        elapsed, said = bench_stdin(events[: args.stdin_events], folder)
        n = args.stdin_events
        print(f"\ndominolog append - ({n:,} events, child process): {elapsed:.2f} s, {n / elapsed:,.0f} events/s")
        print(f"  it said: {said}")
        lines = undo_lines(args.undo_pairs)
        elapsed = bench_undo_memory(lines)
        print(f"\nundo-heavy, in memory: {args.undo_pairs:,} play/undo pairs folded in {elapsed:.2f} s")
        durable = lines[: 3 + 2 * max(1, args.undo_pairs // 10)]
        times = bench_undo_store(durable, folder)
        print(f"undo-heavy, durable: {len(durable):,} appends, {len(times) / sum(times):,.0f} appends/s")
        for first, last, rate in windows(times, max(1, len(times) // 4)):
            print(f"  events {first:>6,}-{last:<6,} {rate:8,.0f} appends/s")
        if args.keys:
            print(f"\nrecorder, Enter to screen drawn (Pilot, {args.keys} entries typed, names left out)")
            ways = ((0.0, "the line set, Enter at once"), (args.gap, f"typed, Enter {args.gap:g} s after the last key"))
            for gap, how in ways:
                print(f"  {how}:")
                for before in sorted({min(50, args.events // 2), args.events - args.keys - 1}):
                    delays = bench_keys(events, before, args.keys, folder, gap)
                    wall, cpu, handled = ([d[k] * 1e3 for d in delays] for k in range(3))
                    median = statistics.median
                    print(
                        f"    after event {before:>6,}: median {median(wall):6.1f} ms, max {max(wall):6.1f} ms;"
                        f" CPU {median(cpu):5.1f} ms; the entry handled in {median(handled):5.1f} ms"
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
