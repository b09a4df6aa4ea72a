"""The luck of a Ghost 13 deal: its expected value, and luck summing to zero in expectation.

Run as a script (it is not a test)::

    python bench/bench_luck.py [--deals 300] [--check 100] [--seed S]

A Ghost 13 deal gives every tile to one of the two players, so once dealt the hand is a game of full
information and its value is exact (:mod:`dominolog.analysis.ghost13`: the points the leader scores
minus the other's, both playing perfectly). The luck of a deal is that value minus its expected value
over every deal (:mod:`dominolog.analysis.luck`). The leader does not depend on the tiles, so that
expectation is one number; it is estimated here from ``--deals`` uniformly random deals (the mean and
its 95% margin, 1.96 standard errors), which is what ``GHOST13_DEAL_MEAN`` records. Then, on
``--check`` other random deals, the mean luck (value minus the recorded mean) is printed with its
margin: zero in expectation.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from pathlib import Path

from dominolog.analysis.ghost13 import Position, Solver
from dominolog.analysis.luck import GHOST13_DEAL_MARGIN, GHOST13_DEAL_MEAN, deal_value
from dominolog.tiles import DOUBLE_SIX

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_verify import code_state


def deal_values(n: int, seed: str) -> list[int]:
    """The exact value, for the leader, of ``n`` uniformly random deals."""
    rng = random.Random(f"luck:{seed}")
    out = []
    for _ in range(n):
        tiles = list(DOUBLE_SIX)
        rng.shuffle(tiles)
        out.append(deal_value(Position.deal(tiles[:14], tiles[14:], 0), Solver()))
    return out


def mean_margin(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.inf
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m, 1.96 * sd / math.sqrt(len(xs))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--check", type=int, default=100)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args(argv)
    print("dominolog luck benchmark (issue 38, section 2)")
    print(f"python   {platform.python_version()} on {platform.platform()}; {os.cpu_count()} logical cpus")
    print(f"load     {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min) at the start")
    print(f"code     {code_state()}")
    t0 = time.perf_counter()
    values = deal_values(args.deals, args.seed)
    m, h = mean_margin([float(v) for v in values])
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / max(1, len(values) - 1))
    print(
        f"Ghost 13 deal, for the leader: mean {m:.2f} ± {h:.2f} (95%) over {len(values)} random deals; "
        f"sd {sd:.1f}, min {min(values)}, max {max(values)}; {time.perf_counter() - t0:.1f} s"
    )
    print(f"recorded GHOST13_DEAL_MEAN {GHOST13_DEAL_MEAN} ± {GHOST13_DEAL_MARGIN}")
    t0 = time.perf_counter()
    check = deal_values(args.check, args.seed + ":check")
    luck = [v - GHOST13_DEAL_MEAN for v in check]
    lm, lh = mean_margin(luck)
    print(
        f"luck on {len(check)} other deals: mean {lm:+.2f} ± {lh:.2f} (95%; zero in expectation), "
        f"within: {abs(lm) <= lh + GHOST13_DEAL_MARGIN}; {time.perf_counter() - t0:.1f} s"
    )
    print(f"load     {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
