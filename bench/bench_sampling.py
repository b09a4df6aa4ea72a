"""Benchmark of the sampled review (``dominolog.analysis.sampling``): what one decision costs, per variant.

Run as a script (it is not a test)::

    python bench/bench_sampling.py [--samples 20] [--decisions 40] [--seed 0] [--replays]

For each sampled variant it simulates matches (full information: every hand dealt open) and copies
recorded by a spectator (hands hidden, draws unseen, reveals at the ends: the players' own hands
then come from the whole log, or are sampled too), walks the first ``--decisions`` decisions of
each and prints, per decision, the milliseconds spent (median, mean, worst) and how they split:

- **knowing**: the view of the player on move folded to the decision and its worlds modelled (the
  knowledge engine: perfect matchings, honest passes);
- **dealing**: the ``--samples`` deals drawn from it (random matchings);
- **playing**: every option played out in every deal and scored (the rules' own hooks).

With ``--replays`` it also times ``dominolog analyze`` of one bundled replay per variant
(``review_match``, one process), as a user runs it: seconds for the whole match and decisions
reviewed. Times are wall-clock on one core; a Python loop timed first says how busy the machine was.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from itertools import islice
from pathlib import Path
from typing import Any

from dominolog.analysis.deals import Skip, Walk
from dominolog.analysis.moves import plan_sampled
from dominolog.analysis.playout import options, value
from dominolog.analysis.review import review_match
from dominolog.analysis.sampling import variant_of, worlds
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.log.writer import dump_line
from dominolog.simulate import hide_match, simulate_match

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {
    "brettspielnetz": ["Ana", "Ben"],
    "39": ["Ana", "Ben"],
    "double-bergen": ["Ana", "Ben", "Cleo"],
    "double-draw": ["Ana", "Ben", "Cleo", "Dev"],
}
#: at most this many simulated matches a variant are walked to find the decisions timed
MATCHES = 10
REPLAYS = {
    "brettspielnetz": "brettspielnetz-simulated.jsonl",
    "39": "39-simulated.jsonl",
    "double-bergen": "double-bergen-simulated.jsonl",
    "double-draw": "double-draw-simulated.jsonl",
}


def calibration() -> float:
    """Seconds for a plain Python loop of ten million additions (about 0.3-0.5 s on an idle core)."""
    t0 = time.perf_counter()
    x = 0
    for i in range(10_000_000):
        x += i
    return time.perf_counter() - t0


def _log(events: list[dict[str, Any]]) -> MatchLog:
    data = ("\n".join(dump_line(e) for e in events) + "\n").encode()
    return next(iter(iter_matches("bench.jsonl", data)))


def per_decision(log: MatchLog, samples: int, decisions: int, seed: int) -> list[tuple[float, float, float]]:
    """(knowing, dealing, playing) seconds of each of the first ``decisions`` decisions."""
    plan = plan_sampled(log)
    variant = variant_of(plan)
    out: list[tuple[float, float, float]] = []
    for h in plan.hands:
        walk = Walk(h)
        for move in h.moves:
            if len(out) >= decisions:
                return out
            t0 = time.perf_counter()
            try:
                known = walk.knowledge(move)
            except Skip:
                continue
            t1 = time.perf_counter()
            drawn = list(islice(worlds(h, move, known, seed), samples))
            t2 = time.perf_counter()
            named = [options(w, variant, move.player, move.kind) for w in drawn]
            if max(len(n) for n in named) < 2:
                continue
            for w, here in zip(drawn, named, strict=True):
                for _, action in here:
                    value(w, variant, move.player, action, move.seq)
            t3 = time.perf_counter()
            out.append((t1 - t0, t2 - t1, t3 - t2))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=20, help="deals sampled at each decision")
    parser.add_argument("--decisions", type=int, default=40, help="decisions timed per variant and log")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the matches and of the sampling")
    parser.add_argument("--replays", action="store_true", help="also time the review of a bundled replay each")
    args = parser.parse_args(argv)

    print("dominolog sampled review benchmark")
    print(f"python   {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"machine  {os.cpu_count()} logical cpus, load average {load}; calibration loop {calibration():.2f} s")
    print(f"{args.samples} deals a decision; ms per decision (median / mean / worst) and its split (mean ms)")
    print(f"{'variant':<15} {'log':<9} {'n':>3} {'median':>8} {'mean':>8} {'worst':>8}  knowing  dealing  playing")
    for name, players in PLAYERS.items():
        for kind in ("open", "hidden"):
            rows: list[tuple[float, float, float]] = []
            for index in range(MATCHES):  # matches until there are enough decisions
                events = simulate_match(name, args.seed, index, players=players)
                if kind == "hidden":
                    events = hide_match(events)
                rows += per_decision(_log(events), args.samples, args.decisions - len(rows), args.seed)
                if len(rows) >= args.decisions:
                    break
            totals = [sum(r) * 1000 for r in rows]
            split = [statistics.fmean(r[i] for r in rows) * 1000 for i in range(3)] if rows else [0.0] * 3
            print(
                f"{name:<15} {kind:<9} {len(rows):>3} {statistics.median(totals) if totals else 0:>8.1f} "
                f"{statistics.fmean(totals) if totals else 0:>8.1f} {max(totals, default=0):>8.1f}"
                f"  {split[0]:>7.1f}  {split[1]:>7.1f}  {split[2]:>7.1f}"
            )
    if args.replays:
        print(f"whole replays (review_match, one process, {args.samples} deals a decision)")
        for file in REPLAYS.values():
            log = next(iter(iter_matches(ROOT / "replays" / file)))
            t0 = time.perf_counter()
            review = review_match(log, samples=args.samples, seed=args.seed)
            dt = time.perf_counter() - t0
            n = sum(len(h.decisions) for h in review.hands)
            print(f"  {file:<34} {dt:6.1f} s  {n:4d} decisions  {dt / max(n, 1) * 1000:6.1f} ms each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
