"""Benchmark of a log recorded with hidden hands against the same game recorded open (issue 28, section 2).

Run as a script (it is not a test)::

    python bench/bench_hidden.py [--matches 30] [--seed bench] [--variant double-draw] [--every 4]

It simulates ``--matches`` matches twice with :func:`dominolog.simulate.simulate_lines`, the same
seed: open (every tile seen) and hidden (as a table recorder sees them: ``--hide``), the corpus of
``bench_verify.py --variant double-draw [--hide]``. It times two paths on each, best of ``--repeat``
runs (wall time and CPU time of this process; on a shared machine the CPU time moves less):

- **verify**: :func:`dominolog.verify.verify_paths` over the file, every report consumed, each rule left
  open with its likelihood (what ``verify --verbose``, ``--json`` and ``--min-likelihood`` need);
- **verify, lines**: the same without the likelihoods (what ``verify``'s default lines and ``--quiet``
  need, and what the command then works out);
- **every event**: the first ``--every`` matches fed record by record to a
  :class:`~dominolog.reducer.MatchReducer`, the open hand judged after each one
  (``open_findings()``), as the recorder and the store's projection do.

and prints events per second and the ratio hidden / open of each path, the CPU time of the same matches (issue
28 asks at most 1.5x).
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from dominolog.log.reader import iter_matches
from dominolog.reducer import MatchReducer
from dominolog.simulate import simulate_lines
from dominolog.verify import verify_paths


def best_of(runs: int, fn: Callable[[], object]) -> tuple[float, float]:
    """The fastest wall time and the fastest CPU time of ``runs`` calls of ``fn`` (collected before each)."""
    wall = cpu = float("inf")
    for _ in range(runs):
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu


def every_event(path: Path, matches: int) -> int:
    """Feed the first ``matches`` matches of ``path`` record by record, judging the open hand after each."""
    n = 0
    for k, log in enumerate(iter_matches(path)):
        if k == matches:
            break
        reducer = MatchReducer(str(path))
        for rec in log.records:
            reducer.feed(rec)
            reducer.open_findings()
            n += 1
    return n


def events_in(path: Path, matches: int | None = None) -> int:
    return sum(len(log.records) for k, log in enumerate(iter_matches(path)) if matches is None or k < matches)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--matches", type=int, default=30, help="matches to simulate (30)")
    ap.add_argument("--seed", default="bench", help="simulation seed (bench)")
    ap.add_argument("--variant", default="double-draw", help="rule variant (double-draw)")
    ap.add_argument("--every", type=int, default=4, help="matches fed event by event (4)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per measure; the best is kept (3)")
    args = ap.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {args.variant}, {args.matches} matches")
    rows: dict[str, dict[str, tuple[int, float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, hide in (("open", False), ("hidden", True)):
            path = Path(tmp) / f"{name}.jsonl"
            path.write_text(
                "".join(line + "\n" for line in simulate_lines(args.variant, args.matches, args.seed, None, hide=hide)),
                encoding="utf-8",
            )
            wall, cpu = best_of(args.repeat, lambda path=path: list(verify_paths([path])))
            rows.setdefault("verify", {})[name] = (events_in(path), wall, cpu)
            wall, cpu = best_of(args.repeat, lambda path=path: list(verify_paths([path], likelihoods=False)))
            rows.setdefault("verify, lines", {})[name] = (events_in(path), wall, cpu)
            wall, cpu = best_of(args.repeat, lambda path=path: every_event(path, args.every))
            rows.setdefault("every event", {})[name] = (events_in(path, args.every), wall, cpu)
    print(f"\n  {'path':<14} {'log':<7} {'events':>7} {'wall s':>8} {'cpu s':>8} {'events/s':>9}")
    for what, by in rows.items():
        for name, (events, wall, cpu) in by.items():
            print(f"  {what:<14} {name:<7} {events:>7,} {wall:>8.3f} {cpu:>8.3f} {events / cpu:>9,.0f}")
    print()
    for what, by in rows.items():
        (he, _, hc), (oe, _, oc) = by["hidden"], by["open"]
        ratio, per_event = hc / oc, (hc / he) / (oc / oe)
        print(f"  {what}: hidden / open {ratio:.2f}x the CPU time of the same matches ({per_event:.2f}x per event)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
