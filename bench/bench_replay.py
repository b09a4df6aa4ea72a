"""Benchmark of the replay viewer's stepping: moving to any event of a long match.

Run as a script (it is not a test)::

    python bench/bench_replay.py [--variant 39] [--seed 1] [--jumps 300] [--no-screen]

It simulates ONE long match (39 with ``hands`` 40: 2,114 events; or Double Draw, 4 players,
``target`` 2000: 2,000+ events), then times:

* building the replay model (:class:`dominolog.tui.timeline.Timeline`: one fold of the match,
  a clone of the open hand after every event);
* a jump through the model to random events: the frame, the table drawing, every hand line,
  the legal plays and what the log knows later (everything the screen shows, as Rich text);
* with the screen (default): the same jumps, and as many steps to the next event from a random
  start, in the real app, headless (``App.run_test``) at 100 x 40 and 80 x 24, the garbage
  collector's generations frozen after loading as ``dominolog replay`` does:
  ``ReplayScreen.goto`` (every widget given its new content), and the CPU time from the jump
  until the app is idle again, which includes Textual's layout and paint and the headless
  driver's output (``pilot.pause`` waits in 20 ms slices until the process is idle, so wall
  time would measure the waiting; CPU time measures the work).

It prints the median, the 95th percentile and the maximum in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import platform
import random
import statistics
import time

from dominolog.log.reader import MatchLog, iter_matches
from dominolog.simulate import simulate_match
from dominolog.tui.drawing import draw_table, hand_line
from dominolog.tui.timeline import Timeline

MATCHES = {
    "39": (["Ana", "Ben"], {"hands": 40}),
    "double-draw": (["Ana", "Ben", "Cleo", "Dev"], {"target": 2000}),
    "double-bergen": (["Ana", "Ben", "Cleo", "Dev"], {"target": 1500}),
}


def long_match(variant: str, seed: int) -> MatchLog:
    players, options = MATCHES[variant]
    events = simulate_match(variant, seed, 0, players, options)
    data = "\n".join(json.dumps(e) for e in events).encode()
    return next(iter(iter_matches(f"<{variant} seed {seed}>", data)))


def summary(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms ({len(ms)} jumps)"


def model_jump(tl: Timeline, index: int) -> None:
    """Everything the screen draws for one event, without the screen."""
    frame = tl.frame(index)
    legal = tl.legal(index, reveal=True)
    later = tl.later(index).tiles
    if frame.hand is not None:
        draw_table(frame.hand, 60, None, legal)
        for p, h in frame.hand.holdings.items():
            hand_line(p, h.known, h.unknown, legal=[t for t, _ in legal], later=later.get(p, ()), width=50)


async def screen_jumps(
    tl: Timeline, targets: list[int], size: tuple[int, int], freeze: bool = True
) -> tuple[list[float], list[float]]:
    """For each jump: the time of ``goto`` itself (the screen's widgets updated), and the CPU time
    from the jump until the app is idle again (layout, render, the headless driver's output)."""
    from dominolog.tui.app import ReplayApp

    app = ReplayApp(tl)
    if freeze:  # as `dominolog replay` does once the match is loaded
        gc.collect()
        gc.freeze()
    updates, paints = [], []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.replay
        screen.show_legal = True
        for index in targets:
            cpu = time.process_time()
            start = time.perf_counter()
            screen.goto(index)
            updates.append(time.perf_counter() - start)
            await pilot.pause()
            paints.append(time.process_time() - cpu)
    return updates, paints


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="39", choices=sorted(MATCHES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jumps", type=int, default=300)
    ap.add_argument("--no-screen", action="store_true", help="time the model only")
    args = ap.parse_args()
    log = long_match(args.variant, args.seed)
    print(f"match: {args.variant}, {len(log.records)} events (one match), seed {args.seed}")
    print(f"python {platform.python_version()}, {platform.machine()}, {platform.processor() or platform.system()}")
    start = time.perf_counter()
    tl = Timeline(log)
    print(f"model built in {(time.perf_counter() - start) * 1000:.0f} ms ({len(tl.deal_indexes)} hands)")
    rng = random.Random(args.seed)
    targets = [rng.randrange(len(tl)) for _ in range(args.jumps)]
    times = []
    for index in targets:
        start = time.perf_counter()
        model_jump(tl, index)
        times.append(time.perf_counter() - start)
    print("model jump: " + summary(times))
    if not args.no_screen:
        start = rng.randrange(len(tl) - args.jumps)
        steps = list(range(start, start + args.jumps))
        for size in ((100, 40), (80, 24)):
            for name, where in (("random jumps", targets), ("steps (next event)", steps)):
                updates, paints = asyncio.run(screen_jumps(tl, where, size))
                print(f"screen {size[0]}x{size[1]}, {name}, widgets updated: " + summary(updates))
                print(f"screen {size[0]}x{size[1]}, {name}, updated and painted (CPU until idle): " + summary(paints))


if __name__ == "__main__":
    main()
