"""Append latency of a served SQLite store while the server's analyser works through the club season
(sampled variants: minutes of work in its niced process) against ``serve --no-analyse``: 300 notes, one
at a time, to a match of their own. Run: ``python bench/bench_analyser.py [--appends 300] [--work DIR]``."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
BIN = shutil.which("dominolog", path=str(Path(sys.executable).parent)) or "dominolog"


def port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(flag: list[str], work: Path, appends: int = 300) -> tuple[float, float, float]:
    """One server (the analyser on, or ``flag``): the median, 95th percentile and worst append (ms)."""
    work.mkdir(parents=True, exist_ok=True)
    db = work / "s.db"
    if db.exists():
        db.unlink()
    subprocess.run([BIN, "import", str(ROOT / "replays/club-season"), "--db", str(db)], check=True, capture_output=True)
    p = port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINOLOG_")}
    proc = subprocess.Popen(
        [BIN, "serve", "--db", str(db), "--port", str(p), "--rate", "100000", *flag],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=env,
    )
    token = None
    while token is None:
        line = proc.stdout.readline().decode() if proc.stdout else ""
        if line.startswith("the organiser's token"):
            token = line.split()[-1]
    c = httpx.Client(base_url=f"http://127.0.0.1:{p}", timeout=30)
    for _ in range(100):
        try:
            c.get("/api/matches")
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    h = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    c.post(
        "/api/matches",
        content=json.dumps({"type": "match_start", "variant": "ghost13", "players": ["A", "B"], "id": "bench"}),
        headers=h,
    )
    time.sleep(3)  # the analyser under way
    lat: list[float] = []
    for i in range(appends):
        t = time.perf_counter()
        r = c.post("/api/matches/bench/events", content=json.dumps({"type": "note", "text": f"n{i}"}), headers=h)
        lat.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 201, r.text
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(10)
    lat.sort()
    return statistics.median(lat), lat[int(len(lat) * 0.95)], lat[-1]


def main() -> None:
    import argparse
    import platform
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--appends", type=int, default=300, help="notes appended one at a time (each run)")
    ap.add_argument("--work", type=Path, help="the folder of the stores (default: a temp folder)")
    args = ap.parse_args()
    print(f"bench_analyser: {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="bench-analyser-") as tmp:
        work = args.work or Path(tmp)
        for flag in ([], ["--no-analyse"]):
            med, p95, mx = run(flag, work / ("on" if not flag else "off"), args.appends)
            print(f"{' '.join(flag) or 'analysing':14} append ms: median {med:.1f}, p95 {p95:.1f}, max {mx:.1f}")


if __name__ == "__main__":
    main()
