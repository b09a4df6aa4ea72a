"""Benchmark of ``dominolog serve`` on PostgreSQL: appends a second over HTTP, old code and new in the same
run (issue 39: several appends a durable commit).

Run as a script (it is not a test)::

    python bench/bench_serve_pg.py [--old-ref main | --old CHECKOUT] [--new DIR] [--workers 2] [--tables 8,32,64]
                                   [--events 40] [--seconds 15] [--rounds 1] [--no-fsync]

It starts a throwaway PostgreSQL server (tests/pgserver.py, fsync on unless ``--no-fsync``), and for each
number of tables and each code (the old one, ``--old-ref``'s ``dominolog/`` or ``--old``'s checkout,
and this checkout or ``--new``'s folder: a ``pip install --target`` of a wheel runs the compiled build),
taking turns: a new database, ``dominolog serve --workers N`` on a free loopback port run from that code
(``PYTHONPATH``), each match begun, then ``--tables`` simulated tables at once (one connection each,
bench_serve.py's lean client) each posting notes one after the other, each answered once durable, up to
``--events`` each or for ``--seconds`` at most. For each run: appends a second over the wall time, the
latency (p50, p99), the server's CPU an append (its processes and PostgreSQL's, read from ``/proc``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # (tests/pgserver.py, tests/serving.py)

from bench_pg_append import cpu_model, old_tree  # type: ignore[import-not-found]  # noqa: E402
from bench_serve import NOTE, START, Raw, _cpu_seconds, _pct  # type: ignore[import-not-found]  # noqa: E402

from tests.serving import Served, clean_env  # noqa: E402

#: how a checkout's serve is run (its console script is the installed one: this runs the code given)
SERVE = "import sys; from dominolog.cli import main; sys.argv[0] = 'dominolog'; main()"


class Server(Served):
    """``dominolog serve`` from ``checkout`` on ``url``, ``workers`` processes, the rate limit out of the way
    (tests/serving.py's server, run from the checkout's code); ``headers`` hold the organiser's token."""

    def __init__(self, checkout: Path, url: str, workers: int, folder: Path) -> None:
        args = ("--workers", str(workers), "--rate", "100000", "--no-analyse")
        env = clean_env(PYTHONPATH=str(checkout))
        super().__init__(url, folder, *args, env=env, command=[sys.executable, "-c", SERVE])
        try:
            self.start()
        except RuntimeError as exc:
            raise SystemExit(str(exc)) from None
        if self.organiser is None:
            self.stop()
            raise SystemExit(f"serve printed no organiser's token: {self.out}")
        self.headers = {"Authorization": f"Bearer {self.organiser}", "Content-Type": "application/json"}


def _postgres_cpu(data: Path) -> float:
    """The CPU time (s) of every process of the PostgreSQL server (the postmaster's and its children)."""
    try:
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return _cpu_seconds(postmaster)


async def _tables(server: Server, ids: list[str], events: int, seconds: float) -> tuple[list[float], float]:
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def table(mid: str) -> None:
        async with Raw(server.url, server.headers) as client:
            for i in range(events):
                if time.perf_counter() > stop_at:
                    return
                t0 = time.perf_counter()
                status, body = await client.post(f"/api/matches/{quote(mid, safe='')}/events", (NOTE % i).encode())
                latencies.append(time.perf_counter() - t0)
                if status != 201:
                    raise RuntimeError(f"{mid}: {status} {body!r}")

    t0 = time.perf_counter()
    await asyncio.gather(*(table(mid) for mid in ids))
    return latencies, time.perf_counter() - t0


def run(cluster: Any, checkout: Path, args: argparse.Namespace, tables: int, folder: Path) -> dict[str, float]:
    url = cluster.new_database()
    server = Server(checkout, url, args.workers, folder)
    try:
        ids = [f"table-{i}" for i in range(tables)]
        with httpx.Client(base_url=server.url, headers=server.headers, timeout=60) as client:
            for mid in ids:
                r = client.post("/api/matches", content=START % mid)
                if r.status_code != 201:
                    raise SystemExit(f"{mid}: {r.status_code} {r.text}")
        assert server.proc is not None
        pg_cpu, serve_cpu = _postgres_cpu(cluster.data), _cpu_seconds(server.proc.pid)
        latencies, wall = asyncio.run(_tables(server, ids, args.events, args.seconds))
        n = max(1, len(latencies))
        return {
            "appends": len(latencies),
            "rate": len(latencies) / wall,
            "p50": _pct(latencies, 50) * 1000,
            "p99": _pct(latencies, 99) * 1000,
            "serve_ms": (_cpu_seconds(server.proc.pid) - serve_cpu) * 1000 / n,
            "pg_ms": (_postgres_cpu(cluster.data) - pg_cpu) * 1000 / n,
        }
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, help="the older code: a checkout (the folder holding its dominolog/)")
    ap.add_argument("--old-ref", default="main", help="else the older code: this commit's dominolog/ (default main)")
    ap.add_argument(
        "--new", type=Path, default=ROOT, help="the newer code: a folder holding its dominolog/ (default this checkout)"
    )
    ap.add_argument("--workers", type=int, default=2, help="serve's worker processes")
    ap.add_argument("--tables", default="8,32,64", help="numbers of tables writing at once, comma-separated")
    ap.add_argument("--events", type=int, default=40, help="the most events a table posts")
    ap.add_argument("--seconds", type=float, default=15.0, help="the longest a run posts")
    ap.add_argument("--rounds", type=int, default=1, help="times each code is measured, taking turns")
    ap.add_argument("--no-fsync", action="store_true", help="the PostgreSQL server with fsync off")
    args = ap.parse_args(argv)
    from tests.pgserver import INSTALL, Cluster, find_bin

    bin_dir = find_bin()
    if bin_dir is None:
        print(f"bench_serve_pg: PostgreSQL is not installed: {INSTALL}", file=sys.stderr)
        return 2
    print(f"bench_serve_pg: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} logical CPUs ({cpu_model()}),")
    print(f"  Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}, --workers {args.workers},")
    fsync = "off" if args.no_fsync else "on"
    print(f"  PostgreSQL fsync {fsync}, at most {args.events} events a table, {args.seconds:g} s")
    print("tables  code  appends  appends/s  p50 ms  p99 ms  serve CPU ms/append  PostgreSQL CPU ms/append")
    with tempfile.TemporaryDirectory() as work, Cluster(bin_dir, durable=not args.no_fsync) as cluster:
        folder = Path(work)
        old = args.old if args.old is not None else old_tree(args.old_ref, folder)
        for tables in (int(t) for t in args.tables.split(",")):
            for _ in range(args.rounds):
                for name, checkout in (("old", old.resolve()), ("new", args.new.resolve())):
                    got = run(cluster, checkout, args, tables, folder)
                    print(
                        f"{tables:>6}  {name:>4}  {got['appends']:>7}  {got['rate']:>9,.0f}  {got['p50']:>6.1f}  "
                        f"{got['p99']:>6.1f}  {got['serve_ms']:>19.2f}  {got['pg_ms']:>24.2f}",
                        flush=True,
                    )
        print(f"  load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
