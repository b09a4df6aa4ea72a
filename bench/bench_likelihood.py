"""How likely the possible violations of honest hidden logs are, and what working it out costs.

Run as a script (it is not a test)::

    python bench/bench_likelihood.py [--matches 1000] [--variant double-draw] [--players N] [--seed S]

It simulates ``N`` matches (``dominolog simulate --hide``: hands and draws not seen, reveals at the
end) into a temporary file, verifies them once, and counts the possible violations (unverified
rules that the hands the log allows split on): how many, how many with a likelihood of 50% or more,
counted exactly or sampled, the steps the general count takes for each (against its budget; most
are counted in closed form, :mod:`dominolog.knowledge.nested`), and the shares by tenth. Then,
pinned to one CPU, it times ``verify`` of the whole file with the likelihood and
without it (the reducer's call replaced by one that returns nothing: the code as it was before),
alternately, best of ``--repeat``: the cost of the likelihood in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import dominolog.reducer.hands as hands
from dominolog.knowledge import HandModel
from dominolog.knowledge.groups import Worlds
from dominolog.knowledge.likelihood import BUDGET, Budget, count, likelihood
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import Issue, Judge, Likelihood
from dominolog.verify import batch_gc

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_verify import fmt_int, machine_lines, print_table, write_corpus


def write_unrevealed(path: Path, variant: str, matches: int, seed: str, players: int | None) -> int:
    """Simulated matches as a recorder who saw no hand and no reveal writes them (no seq, no hash:
    the events left keep a valid match); the number of lines."""
    names = ["Ana", "Ben", "Cleo", "Dev"][:players] if players else None
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for k in range(matches):
            for e in hide_match(simulate_match(variant, seed, k, names)):
                if e["type"] != "reveal":
                    fh.write(dump_line({key: v for key, v in e.items() if key not in ("seq", "hash")}) + "\n")
                    n += 1
    return n


def verify_file(path: Path) -> list[Issue]:
    """Verify every match of the file; its unverified rules."""
    return [u for log in iter_matches(path) for u in verify_match(log).unverified]


def tally(path: Path) -> dict[str, Any]:
    """One verify of the file, every likelihood worked out kept with its time and steps."""
    seen: list[tuple[Likelihood | None, float, int | None]] = []

    def measured(model: HandModel, player: str, seq: int, judge: Judge, *a: Any, **kw: Any) -> Likelihood | None:
        t0 = time.perf_counter()
        found = likelihood(model, player, seq, judge, *a, **kw)
        elapsed = time.perf_counter() - t0
        meter: list[int] = []
        if model.feasible:
            with contextlib.suppress(Budget):
                count(Worlds.of(model, player, seq, judge), BUDGET, meter)
        seen.append((found, elapsed, meter[0] if meter else None))
        return found

    hands.likelihood = measured  # type: ignore[assignment]
    try:
        unverified = verify_file(path)
    finally:
        hands.likelihood = likelihood
    possible = [u for u in unverified if u.likelihood is not None]
    found = [u.likelihood for u in possible if u.likelihood is not None]
    steps = sorted(s for _, _, s in seen if s is not None)
    times = sorted(t for _, t, _ in seen)
    return {
        "unverified": len(unverified),
        "possible": len(found),
        "by_code": Counter(u.code for u in possible),
        "likely_by_code": Counter(u.code for u in possible if u.likelihood and u.likelihood.share >= 0.5),
        "likely": sum(f.share >= 0.5 for f in found),
        "exact": sum(f.exact for f in found),
        "sampled": sum(not f.exact for f in found),
        "steps": steps,
        "times": times,
        "tenths": Counter(min(9, int(f.share * 10)) for f in found),
        "mean": sum(f.share for f in found) / len(found) if found else 0.0,
    }


def timed(path: Path, repeat: int) -> dict[bool, tuple[float, float]]:
    """Best-of-``repeat`` (wall, CPU) seconds of verifying the file with the likelihood (True) and
    without it (False), alternately, inside ``batch_gc()`` as the command line runs. The CPU time of
    the process is the steadier one on a machine that others share."""
    best = {True: (float("inf"), float("inf")), False: (float("inf"), float("inf"))}
    with batch_gc():
        for on in (True, False) * repeat:
            wall, cpu = _once(path, on)
            best[on] = (min(best[on][0], wall), min(best[on][1], cpu))
    return best


def _once(path: Path, on: bool) -> tuple[float, float]:
    hands.likelihood = likelihood if on else (lambda *a, **kw: None)  # type: ignore[assignment]
    try:
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        verify_file(path)
        return time.perf_counter() - t0, time.process_time() - c0
    finally:
        hands.likelihood = likelihood


def pct(values: list[float] | list[int], q: float) -> float:
    return float(values[min(len(values) - 1, int(q * len(values)))]) if values else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--matches", type=int, default=1000, help="matches to simulate (1000)")
    ap.add_argument("--variant", default="double-draw", help="rule variant (double-draw)")
    ap.add_argument("--players", type=int, help="players per match (default: the variant's fewest)")
    ap.add_argument("--seed", default="bench", help="simulation seed (bench)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each; the best is kept (3)")
    ap.add_argument("--cpu", type=int, help="the CPU to pin to (default: the first one allowed)")
    ap.add_argument("--corpus", type=Path, help="a hidden .jsonl file to use instead of simulating one")
    ap.add_argument(
        "--no-reveals", action="store_true", help="leave the reveals out: hands never revealed (the general count)"
    )
    args = ap.parse_args(argv)
    print("dominolog likelihood benchmark")
    for line in machine_lines(args.cpu):
        print(line)
    with tempfile.TemporaryDirectory(prefix="dominolog-bench-") as tmp:
        path = args.corpus
        if path is None:
            path = Path(tmp) / f"{args.variant}-{args.matches}-hidden.jsonl"
            if args.no_reveals:
                n = write_unrevealed(path, args.variant, args.matches, args.seed, args.players)
            else:
                n = write_corpus(path, args.variant, args.matches, args.seed, args.players, hide=True)
            how = "hidden, never revealed" if args.no_reveals else "hidden, revealed at the end"
            print(f"corpus   {args.matches} {args.variant} matches, {how}, seed {args.seed!r}: {fmt_int(n)} lines")
        else:
            print(f"corpus   {path} (given)")
        t = tally(path)
        steps, times = t["steps"], t["times"]
        rows = [
            ("unverified rules", fmt_int(t["unverified"])),
            ("possible violations (with a likelihood)", fmt_int(t["possible"])),
            ("  likelihood >= 50%", f"{fmt_int(t['likely'])} ({t['likely'] / max(1, t['possible']):.1%})"),
            *(
                (f"  {code}: all / >= 50%", f"{fmt_int(n)} / {fmt_int(t['likely_by_code'][code])}")
                for code, n in sorted(t["by_code"].items())
            ),
            ("  mean likelihood", f"{t['mean']:.1%}"),
            ("  counted exactly / sampled", f"{fmt_int(t['exact'])} / {fmt_int(t['sampled'])}"),
            (
                f"  steps the general count takes (budget {fmt_int(BUDGET)}): median / p99 / max",
                f"{pct(steps, 0.5):,.0f} / {pct(steps, 0.99):,.0f} / {pct(steps, 1.0):,.0f}",
            ),
            (
                "  time a rule, ms: median / p99 / max",
                f"{1e3 * pct(times, 0.5):.2f} / {1e3 * pct(times, 0.99):.2f} / {1e3 * pct(times, 1.0):.2f}",
            ),
            ("  time of all likelihoods, s", f"{sum(times):.2f}"),
        ]
        print_table("possible violations and their likelihood", ("measure", "value"), rows)
        tenths = t["tenths"]
        print_table(
            "likelihoods by tenth",
            ("share", "possible violations"),
            [(f"{10 * k}-{10 * k + 10}%", fmt_int(tenths.get(k, 0))) for k in range(10)],
        )
        best = timed(path, args.repeat)
        (with_s, with_cpu), (without_s, without_cpu) = best[True], best[False]
        print_table(
            f"verify of the file, one core, inside batch_gc() as the CLI, best of {args.repeat} (alternately)",
            ("measure", "wall s", "CPU s"),
            [
                ("without the likelihood (as before)", f"{without_s:.2f}", f"{without_cpu:.2f}"),
                ("with the likelihood", f"{with_s:.2f}", f"{with_cpu:.2f}"),
                (
                    "cost",
                    f"+{with_s - without_s:.2f} (+{(with_s / without_s - 1):.0%})",
                    f"+{with_cpu - without_cpu:.2f} (+{(with_cpu / without_cpu - 1):.0%})",
                ),
            ],
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
