"""Benchmark of the exact Ghost 13 solver (``dominolog.analysis.ghost13``).

Run as a script (it is not a test)::

    python bench/bench_analyze.py [--deals 20] [--seed 0] [--after 6] [--values] [--review N] [--pure]

For ``--deals`` random deals (seeded), it solves each hand from the opening with a fresh
solver (value, best move and principal variation: what an analysis needs first) and prints
the seconds per hand (median, mean, worst), the nodes searched and nodes per second. It
then plays ``--after`` random plays into each deal and solves that position with a fresh
solver (median and worst), and with ``--values`` times the value of every option at the
opening (what ranking the first move costs), and with ``--review N`` the review of every hand of
N simulated matches as ``dominolog analyze`` makes it (every decision's options valued exactly):
seconds per hand. ``--pure`` runs the Python search instead of the C one (the backend is printed).
Times are wall-clock on one core; a Python loop timed first tells how busy the machine was (other
work on it slows everything down).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from dominolog.analysis import ghost13_search
from dominolog.analysis.ghost13 import Position, Solver, moves, play
from dominolog.analysis.review import plan_match, review_hand
from dominolog.log.reader import iter_matches
from dominolog.simulate import simulate_lines
from dominolog.tiles import DOUBLE_SIX


def deal(seed: int, index: int) -> Position:
    rng = random.Random(f"bench-analyze:{seed}:{index}")
    tiles = list(DOUBLE_SIX)
    rng.shuffle(tiles)
    return Position.deal(tiles[:14], tiles[14:], 0)


def into(pos: Position, plays: int, rng: random.Random) -> Position:
    """``pos`` after ``plays`` random placements (passes do not count), or the last position before the end."""
    done = 0
    while done < plays:
        options = moves(pos)
        m = rng.choice(options)
        after = play(pos, m)
        if after.over:
            break
        pos = after
        done += not m.is_pass
    return pos


def calibration() -> float:
    """Seconds for a plain Python loop of ten million additions (about 0.3-0.5 s on an idle core)."""
    t0 = time.perf_counter()
    x = 0
    for i in range(10_000_000):
        x += i
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="random deals to solve from the opening")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the deals")
    parser.add_argument("--after", type=int, default=6, help="also solve each deal after this many random plays")
    parser.add_argument("--values", action="store_true", help="also time the value of every opening option")
    parser.add_argument("--review", type=int, default=0, help="also review every hand of this many simulated matches")
    parser.add_argument("--pure", action="store_true", help="the Python search, not the C one")
    args = parser.parse_args(argv)
    pure = args.pure

    def new_solver() -> Solver:
        return Solver(pure)

    print("dominolog Ghost 13 solver benchmark")
    print(f"python   {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"machine  {os.cpu_count()} logical cpus, load average {load}; calibration loop {calibration():.2f} s")
    print(f"search   {new_solver().search.backend} (built: {ghost13_search.BACKEND})")

    seconds: list[float] = []
    nodes = 0
    for i in range(args.deals):
        pos = deal(args.seed, i)
        solver = new_solver()
        t0 = time.perf_counter()
        solution = solver.solve(pos)
        dt = time.perf_counter() - t0
        seconds.append(dt)
        nodes += solver.nodes
        print(
            f"deal {i:>3}  value {solution.value:>4}  best {solution.best!s:<6} {dt:6.2f} s  "
            f"{solver.nodes:>9,} nodes  {len(solver.search.table):>9,} entries"
        )
    total = sum(seconds)
    print(
        f"opening  {args.deals} hands: median {statistics.median(seconds):.2f} s, mean {total / args.deals:.2f} s, "
        f"worst {max(seconds):.2f} s per hand; {nodes:,} nodes, {nodes / total:,.0f} nodes/s"
    )

    if args.after:
        later: list[float] = []
        for i in range(args.deals):
            pos = into(deal(args.seed, i), args.after, random.Random(f"{args.seed}:{i}"))
            t0 = time.perf_counter()
            new_solver().solve(pos)
            later.append(time.perf_counter() - t0)
        print(
            f"after {args.after} plays  {args.deals} positions: median {statistics.median(later):.3f} s, "
            f"worst {max(later):.3f} s"
        )

    if args.values:
        spent: list[float] = []
        for i in range(args.deals):
            solver = new_solver()
            t0 = time.perf_counter()
            solver.values(deal(args.seed, i))
            spent.append(time.perf_counter() - t0)
        print(
            f"values of the 14 opening options  {args.deals} hands: median {statistics.median(spent):.2f} s, "
            f"worst {max(spent):.2f} s"
        )

    if args.review:
        hands: list[float] = []
        decisions = 0
        data = "".join(line + "\n" for line in simulate_lines("ghost13", args.review, f"bench-review:{args.seed}"))
        for log in iter_matches("<simulated>", data.encode()):
            for plan in plan_match(log).hands:
                t0 = time.perf_counter()
                review = review_hand(plan, new_solver())
                hands.append(time.perf_counter() - t0)
                decisions += len(review.decisions)
        print(
            f"review   {len(hands)} whole hands ({decisions} decisions, every option valued): median "
            f"{statistics.median(hands):.2f} s, mean {sum(hands) / len(hands):.2f} s, worst {max(hands):.2f} s per hand"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
