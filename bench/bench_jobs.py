"""Benchmark of ``dominolog verify --jobs N`` over an archive of many files.

Run as a script (it is not a test)::

    python bench/bench_jobs.py [--files 8] [--matches 40] [--variant ghost13] [--jobs 1 2]

It simulates ``--files`` log files of ``--matches`` matches each into a temporary folder, then runs
the installed console script ``dominolog verify FOLDER --jobs N -q`` for each N (whole process, best
of ``--repeat``), and prints the wall time, events per second, the speed-up against ``--jobs 1``
and whether the output is byte for byte the same.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dominolog.simulate import simulate_lines


def _script() -> list[str]:
    found = shutil.which("dominolog", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-c", "from dominolog.cli import main; main()"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=8, help="log files in the archive (8)")
    ap.add_argument("--matches", type=int, default=40, help="matches per file (40)")
    ap.add_argument("--variant", default="ghost13", help="rule variant to simulate (ghost13)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="the --jobs values to time (1 2)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per value; the best is kept (2)")
    args = ap.parse_args(argv)

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print("dominolog verify --jobs benchmark")
    print(f"machine  {os.cpu_count()} logical cpus, load average {load}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        events = 0
        for k in range(args.files):
            lines = list(simulate_lines(args.variant, args.matches, f"bench-jobs-{k}"))
            events += len(lines)
            (folder / f"archive-{k:03}.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"archive  {args.files} files x {args.matches} {args.variant} matches, {events:,} events")
        base_time = None
        base_out = None
        for jobs in args.jobs:
            best = float("inf")
            out = b""
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                done = subprocess.run(
                    [*_script(), "verify", str(folder), "-q", "--jobs", str(jobs)], capture_output=True, check=False
                )
                best = min(best, time.perf_counter() - t0)
                out = done.stdout
                if done.returncode != 0:
                    print(done.stderr.decode(errors="replace"))
                    return 1
            base_time = base_time or best
            base_out = out if base_out is None else base_out
            print(
                f"--jobs {jobs:<3} {best:7.2f} s  {events / best:>10,.0f} events/s  x{base_time / best:.2f}  "
                f"output {'identical' if out == base_out else 'DIFFERENT'}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
