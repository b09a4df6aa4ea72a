"""Benchmark of ``dominolog serve`` (issue 26): appends over HTTP, the fan-out of live streams, the
weight of the pages. Loopback only, bounded runs.

Run as a script (it is not a test)::

    python bench/bench_serve.py [--db PATH|postgresql://...] [--workers N] [--tables 50] [--events 20]
                                [--followers 500] [--rounds 5] [--pace 10]

It starts the installed ``dominolog serve`` (the console script beside this Python) on a free loopback
port, on a new SQLite store in a temp folder unless ``--db`` names one, with the rate limit raised out
of the way, and measures:

- appends: ``--tables`` simulated tables at once (one asyncio task and connection each), each posting
  ``--events`` events one after the other (each durable before its answer): appends a second over the
  wall time, the latency of each (p50, p99), and the server's CPU time an append (which the other
  jobs of a shared machine move less than the wall time); then again with each table sending ``--pace`` events
  a second at most (an offered load of tables x pace: the latency at a given rate, which the first
  run, where 50 tables wait on each other, cannot show: there the mean latency is tables / rate);
- fan-out: ``--followers`` Server-Sent Events streams spread over the tables' matches; ``--rounds``
  times an event is appended to every match, and the time from each append's answer to the event
  reaching every stream of its match is taken (p50, p99, max); and the server's resident memory with
  every stream open;
- the weight of ``/`` and ``/m/ID``: bytes of the page and of what it loads (its CSS and JS), and the
  requests it makes that leave the server (none: everything is the server's own).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout: tests/serving.py
from tests.serving import Served, console_script

NOTE = '{"type":"note","text":"bench %d"}'
START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"%s"}'


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if ordered else 0.0


def _family(pid: int) -> list[int]:
    """A process and its children (uvicorn's workers)."""
    try:
        found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    except OSError:
        return [pid]
    return [pid, *(int(p) for p in found)]


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process and its children (uvicorn's workers) have used, s."""
    total = 0.0
    for p in _family(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def _rss_kib(pid: int) -> int:
    """The resident memory of a process and its children (uvicorn's workers), KiB."""
    total = 0
    for p in _family(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class Serve(Served):
    """``dominolog serve`` from the installed console script on a free loopback port (tests/serving.py),
    ``headers`` holding the organiser's token."""

    def __init__(self, db: str, workers: int, folder: Path) -> None:
        super().__init__(db, folder, "--rate", "100000", "--workers", str(workers))
        try:
            self.start()
        except RuntimeError as exc:
            sys.exit(str(exc))
        token = self.organiser
        if token is None:  # a store that has one: a new one for the bench
            token = subprocess.run(
                [console_script(), "token", "create", "--organiser", "--db", db],
                capture_output=True,
                text=True,
                env=self.env,
            ).stdout.strip()
        self.headers = {"Authorization": f"Bearer {token}"}


class Raw:
    """A lean HTTP/1.1 client on one kept-alive loopback connection: a request written whole, the
    answer's status line, headers and Content-Length body read back. The load generator runs on the
    same cores as the server: httpx spent 2.3-2.8 ms of CPU an append, more than the server itself,
    so the figures measured the client; this one spends a few tenths of a millisecond."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Raw:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.writer is not None:
            self.writer.close()

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{self.head}"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = next((int(x.split(":", 1)[1]) for x in lines[1:] if x.lower().startswith("content-length:")), 0)
        return status, await self.reader.readexactly(length)


async def appends(s: Serve, ids: list[str], events: int, pace: float = 0.0) -> dict[str, float]:
    """Each table posts ``events`` events one after the other, as fast as the answers come, or (with
    ``pace``) at most ``pace`` a second (an offered load of tables x pace)."""
    latencies: list[float] = []
    headers = {**s.headers, "Content-Type": "application/json"}

    async def table(mid: str, phase: float) -> None:
        # (paced tables start spread over one period, as real tables do, not all in the same instant:
        # 50 requests landing together would measure a burst the room never makes)
        begun = time.perf_counter() + phase
        async with Raw(s.url, headers) as client:
            for i in range(events):
                if pace:
                    await asyncio.sleep(max(0.0, begun + i / pace - time.perf_counter()))
                t0 = time.perf_counter()
                status, body = await client.post(f"/api/matches/{quote(mid, safe='')}/events", (NOTE % i).encode())
                latencies.append(time.perf_counter() - t0)
                if status != 201:
                    raise RuntimeError(f"{mid}: {status} {body!r}")

    cpu, mine = _cpu_seconds(s.proc.pid), time.process_time()
    t0 = time.perf_counter()
    await asyncio.gather(*(table(mid, k / (len(ids) * pace) if pace else 0.0) for k, mid in enumerate(ids)))
    wall = time.perf_counter() - t0
    return {
        "cpu_ms": (_cpu_seconds(s.proc.pid) - cpu) * 1000 / max(1, len(latencies)),
        "client_ms": (time.process_time() - mine) * 1000 / max(1, len(latencies)),
        "appends": len(latencies),
        "per_second": len(latencies) / wall,
        "p50_ms": _pct(latencies, 50) * 1000,
        "p99_ms": _pct(latencies, 99) * 1000,
    }


async def fan_out(s: Serve, ids: list[str], followers: int, rounds: int) -> dict[str, float]:
    seen: dict[tuple[str, int], list[float]] = {}
    ready = 0
    limits = httpx.Limits(max_connections=followers + 10)

    async def follow(client: httpx.AsyncClient, mid: str, stop: asyncio.Event) -> None:
        nonlocal ready
        async with client.stream("GET", f"/api/matches/{mid}/stream") as r:
            ready += 1
            async for line in r.aiter_lines():
                if line.startswith("id: "):
                    seen.setdefault((mid, int(line[4:])), []).append(time.perf_counter())
                if stop.is_set():
                    return

    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=s.url, timeout=httpx.Timeout(60), limits=limits) as client:
        tasks = [asyncio.create_task(follow(client, ids[i % len(ids)], stop)) for i in range(followers)]
        deadline = time.monotonic() + 60
        while ready < followers and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        memory = _rss_kib(s.proc.pid)
        per_match = {mid: sum(1 for i in range(followers) if ids[i % len(ids)] == mid) for mid in ids}
        delays: list[float] = []
        headers = {**s.headers, "Content-Type": "application/json"}
        for n in range(rounds):
            answered: dict[tuple[str, int], float] = {}

            async def one(mid: str, n: int, answered: dict[tuple[str, int], float]) -> None:
                r = await client.post(f"/api/matches/{mid}/events", content=NOTE % n, headers=headers)
                if r.status_code != 201:
                    raise RuntimeError(f"{mid}: {r.status_code} {r.text}")
                answered[(mid, r.json()["seqs"][0])] = time.perf_counter()

            await asyncio.gather(*(one(mid, n, answered) for mid in ids))
            wait_until = time.monotonic() + 10
            while time.monotonic() < wait_until and any(len(seen.get(k, [])) < per_match[k[0]] for k in answered):
                await asyncio.sleep(0.01)
            for k, at in answered.items():
                got = seen.get(k, [])
                if len(got) < per_match[k[0]]:
                    raise RuntimeError(f"{k}: reached {len(got)} of {per_match[k[0]]} streams within 10 s")
                delays.append(max(got) - at)
            await asyncio.sleep(0.3)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "streams": followers,
        "events": len(delays),
        "p50_ms": _pct(delays, 50) * 1000,
        "p99_ms": _pct(delays, 99) * 1000,
        "max_ms": max(delays) * 1000 if delays else 0.0,
        "memory_mib": memory / 1024,
    }


def weight(s: Serve, mid: str) -> list[tuple[str, int, int, int]]:
    """(page, bytes with what it loads, requests, requests leaving the server)."""
    import re

    out = []
    with httpx.Client(base_url=s.url, timeout=30) as client:
        for path in ("/", f"/m/{mid}"):
            page = client.get(path).text
            loads = re.findall(r'(?:src|href)="([^"]+)"', page)
            assets = [u for u in loads if u.startswith("/static/")]
            leaving = [u for u in loads if u.startswith(("http:", "https:", "//"))]
            size = len(page.encode()) + sum(len(client.get(u).content) for u in assets)
            out.append((path, size, 1 + len(assets), len(leaving)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="the store (default: a new SQLite file in a temp folder)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--events", type=int, default=20)
    ap.add_argument("--followers", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pace", type=float, default=10.0, help="events a second a table sends in the paced run (0: none)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        folder = Path(tmp)
        db = args.db or str(folder / "bench.db")
        s = Serve(db, args.workers, folder)
        try:
            stamp = f"{time.time_ns() % 10**9}"
            ids = [f"bench-{stamp}-{i}" for i in range(args.tables)]
            for mid in ids:
                r = httpx.post(
                    f"{s.url}/api/matches",
                    content=START % mid,
                    headers={**s.headers, "Content-Type": "application/json"},
                )
                if r.status_code != 201:
                    sys.exit(f"cannot create {mid}: {r.status_code} {r.text}")
            kind = "PostgreSQL" if db.startswith("postgres") else "SQLite"
            print(
                f"dominolog serve: {kind}, {args.workers} worker(s); {platform.python_version()}, {os.cpu_count()} CPUs"
            )
            a = asyncio.run(appends(s, ids, args.events))
            print(
                f"appends: {args.tables} tables x {args.events} events = {a['appends']:.0f}, "
                f"{a['per_second']:.0f} /s, p50 {a['p50_ms']:.1f} ms, p99 {a['p99_ms']:.1f} ms; "
                f"server CPU {a['cpu_ms']:.2f} ms an append (the load generator's {a['client_ms']:.2f})"
            )
            if args.pace:
                a = asyncio.run(appends(s, ids, args.events, args.pace))
                print(
                    f"appends paced at {args.pace:g} /s a table ({args.tables * args.pace:.0f} /s offered): "
                    f"{a['appends']:.0f}, {a['per_second']:.0f} /s, p50 {a['p50_ms']:.1f} ms, "
                    f"p99 {a['p99_ms']:.1f} ms; server CPU {a['cpu_ms']:.2f} ms an append"
                )
            f = asyncio.run(fan_out(s, ids, args.followers, args.rounds))
            print(
                f"fan-out: {f['streams']:.0f} streams over {len(ids)} matches, {f['events']:.0f} events: "
                f"answer to every follower p50 {f['p50_ms']:.0f} ms, p99 {f['p99_ms']:.0f} ms, "
                f"max {f['max_ms']:.0f} ms; "
                f"server memory {f['memory_mib']:.0f} MiB"
            )
            for path, size, requests, leaving in weight(s, ids[0]):
                print(f"page {path}: {size / 1024:.1f} KiB with what it loads, {requests} requests, {leaving} leaving")
        finally:
            s.stop()


if __name__ == "__main__":
    main()
