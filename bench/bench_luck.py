"""The luck of a Ghost 13 deal: its expected value, and luck summing to zero in expectation; and the
sampled luck of a hidden game's deals and draws.

Run as a script (it is not a test)::

    python bench/bench_luck.py [--deals 300] [--check 100] [--seed S]
                               [--hidden brettspielnetz] [--hands 40] [--samples 20]

A Ghost 13 deal gives every tile to one of the two players, so once dealt the hand is a game of full
information and its value is exact (:mod:`dominolog.analysis.ghost13`: the points the leader scores
minus the other's, both playing perfectly). The luck of a deal is that value minus its expected value
over every deal (:mod:`dominolog.analysis.luck`). The leader does not depend on the tiles, so that
expectation is one number; it is estimated here from ``--deals`` uniformly random deals (the mean and
its 95% margin, 1.96 standard errors), which is what ``GHOST13_DEAL_MEAN`` records. Then, on
``--check`` other random deals, the mean luck (value minus the recorded mean) is printed with its
margin: zero in expectation.

Then, for the hidden variant ``--hidden`` (``none``: skipped), the first hands of ``--hands`` simulated
matches (open logs, so every draw is seen) are reviewed with ``--samples`` deals a figure
(:mod:`dominolog.analysis.luck_hidden`): the deals' luck and the draws' luck averaged over them, with
their 95% margins (zero in expectation), the typical 95% margin of one player's luck in one hand, and
the time the luck takes beside the whole review's.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
import zlib
from pathlib import Path

from dominolog.analysis.ghost13 import Position, Solver
from dominolog.analysis.luck import GHOST13_DEAL_MARGIN, GHOST13_DEAL_MEAN, deal_value, luck_and_skill
from dominolog.analysis.luck_hidden import Z95, hand_luck
from dominolog.analysis.moves import plan_sampled
from dominolog.analysis.run import review_match
from dominolog.analysis.sampling import variant_of
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.simulate import simulate_match
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


def hidden_figures(variant: str, hands: int, samples: int, seed: str) -> None:
    """The sampled luck of the first hands of ``hands`` simulated matches of ``variant`` (printed)."""
    deals: list[float] = []
    draws: list[float] = []
    margins: list[float] = []
    luck_time = review_time = 0.0
    for k in range(hands):
        events = simulate_match(variant, zlib.crc32(seed.encode()), k, None, None)
        payload = "".join(dump_line(e) + "\n" for e in events).encode()
        (log,) = list(iter_matches("bench.jsonl", payload))
        plan = plan_sampled(log)
        t0 = time.perf_counter()
        found = hand_luck(variant_of(plan), plan.hands[0], samples, 0)
        luck_time += time.perf_counter() - t0
        deals += [p.luck for p in found.parts if p.kind == "deal"]
        draws += [p.luck for p in found.parts if p.kind == "draw"]
        t0 = time.perf_counter()
        review = review_match(log, hand=1, samples=samples)
        review_time += time.perf_counter() - t0
        ls = luck_and_skill(review)
        if ls is not None:
            margins += [m for h in ls.hands for m in (Z95 * e for e in h.error.values())]
    dm, dh = mean_margin(deals)
    print(
        f"{variant}, {hands} hands, {samples} samples: deals' luck mean {dm:+.2f} ± {dh:.2f} (95%) over {len(deals)}"
        f" player-deals"
    )
    if draws:
        wm, wh = mean_margin(draws)
        print(f"{variant}: draws' luck mean {wm:+.2f} ± {wh:.2f} (95%) over {len(draws)} draws")
    if margins:
        margins.sort()
        print(
            f"{variant}: one player's luck in one hand, 95% margin: median {margins[len(margins) // 2]:.1f}, "
            f"max {margins[-1]:.1f}"
        )
    print(
        f"{variant}: luck {luck_time:.1f} s, the whole review (decisions and luck) {review_time:.1f} s: "
        f"luck {100 * luck_time / max(review_time, 1e-9):.0f}% of it"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--check", type=int, default=100)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--hidden", default="brettspielnetz", help="a hidden variant, or none")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--samples", type=int, default=20)
    args = ap.parse_args(argv)
    print("dominolog luck benchmark (issue 38, section 2)")
    print(f"python   {platform.python_version()} on {platform.platform()}; {os.cpu_count()} logical cpus")
    print(f"load     {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min) at the start")
    print(f"code     {code_state()}")
    if args.deals > 0:  # the Ghost 13 figures (--deals 0: only the hidden variant's)
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
    if args.hidden != "none":
        hidden_figures(args.hidden, args.hands, args.samples, args.seed)
    print(f"load     {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
