"""Benchmark of one hostile table among many (issue 36, "one table slows every spectator"): the other
tables' appends and the pages' times with and without a table writing at its limit, in the same run.
Loopback only, bounded in count and time.

Run as a script (it is not a test)::

    python bench/bench_hostile.py [--tables 50] [--followers 500] [--watchers 10] [--big 100000]
                                  [--seconds 10] [--pace 1] [--burst 50] [--rate 20] [--old-ref REF]

For each code measured (the installed package; with ``--old-ref``, also that commit's ``dominolog/``
taken out of git into a temp folder and put first on ``PYTHONPATH``, as bench_import.py does), a new
SQLite store is made by ``dominolog import`` holding the hostile table's match of ``--big`` events (its
notes without a time: an imported log), and ``dominolog serve --rate RATE`` started on a free loopback
port. ``--tables`` matches are begun, each with a table's token of its own. Then twice, for ``--seconds``
each: without, and with, the hostile table:

- the tables each append one event every ``1/--pace`` seconds (their append latency: p50, p99);
- ``--followers`` Server-Sent Events streams follow the board (``/api/board/stream``), and
  ``--watchers`` of them fetch the board's live part (``/part``) again at every message, as
  ``static/live.js`` does (the time of each fetch: p50, p99);
- a prober fetches ``/part``, ``/tables/part`` and ``/standings/part`` twice a second (p50 of each);
- the hostile table, with its own token, posts bodies of ``--burst`` notes to its long match as fast as
  the server takes them, waiting the ``Retry-After`` it is told on a ``429`` (the events it stored).
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
from urllib.parse import quote

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout: tests/serving.py
from bench_import import old_tree  # type: ignore[import-not-found]
from bench_serve import Raw, _pct  # type: ignore[import-not-found]

from tests.serving import Served, clean_env, console_script

NOTE = '{"type":"note","text":"n%d"}'
START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"%s","meta":{"table":"%d"}}'
BIG = "hostile"


class Serve(Served):
    def __init__(self, db: Path, folder: Path, rate: int, env: dict[str, str]) -> None:
        super().__init__(db, folder, "--rate", str(rate), "--no-analyse", env=env)
        self.start()
        if self.organiser is None:
            raise RuntimeError("the store had an organiser's token already")
        self.headers = {"Authorization": f"Bearer {self.organiser}"}


def _store(folder: Path, big: int, env: dict[str, str]) -> Path:
    """A new store holding the hostile table's long match (``big`` events, notes without a time)."""
    log = folder / "big.jsonl"
    start = START % (BIG, 99)
    log.write_text(
        "\n".join([start.replace("}}", '}, "at": "2026-12-06T19:00:00Z"}'), *[NOTE % i for i in range(big - 1)]]) + "\n"
    )
    db = folder / "bench.db"
    subprocess.run([console_script(), "import", str(log), "--db", str(db)], env=env, check=True, capture_output=True)
    return db


def _post(client: httpx.Client, path: str, body: str, headers: dict[str, str]) -> httpx.Response:
    """A write that waits out the organiser's rate limit (the setup's many writes)."""
    deadline = time.monotonic() + 60
    while True:
        r = client.post(path, content=body, headers={**headers, "Content-Type": "application/json"})
        if r.status_code != 429 or time.monotonic() > deadline:
            return r
        time.sleep(float(r.headers.get("retry-after", "1")))


def _setup(s: Serve, tables: int) -> tuple[list[str], dict[str, str]]:
    """The tables' matches and a table's token for each (and for the hostile match)."""
    ids = [f"t{i}" for i in range(tables)]
    tokens: dict[str, str] = {}
    with httpx.Client(base_url=s.url, timeout=30) as client:
        for i, mid in enumerate(ids):
            r = _post(client, "/api/matches", START % (mid, i + 1), s.headers)
            if r.status_code != 201:
                raise RuntimeError(f"{mid}: {r.status_code} {r.text}")
        for mid in [*ids, BIG]:
            r = _post(client, "/api/tokens", f'{{"match":"{mid}"}}', s.headers)
            if r.status_code != 201:
                raise RuntimeError(f"token {mid}: {r.status_code} {r.text}")
            tokens[mid] = r.json()["token"]
    return ids, tokens


async def _phase(
    s: Serve, ids: list[str], tokens: dict[str, str], args: argparse.Namespace, hostile: bool
) -> dict[str, float]:
    stop = asyncio.Event()
    appends: list[float] = []
    refetches: list[float] = []
    probes: dict[str, list[float]] = {"/part": [], "/tables/part": [], "/standings/part": []}
    stored = 0
    ready = 0
    limits = httpx.Limits(max_connections=args.followers + args.watchers + 20)

    async def table(k: int, mid: str) -> None:
        headers = {"Authorization": f"Bearer {tokens[mid]}", "Content-Type": "application/json"}
        begun = time.perf_counter() + k / (len(ids) * args.pace)
        async with Raw(s.url, headers) as client:
            i = 0
            while not stop.is_set():
                await asyncio.sleep(max(0.0, begun + i / args.pace - time.perf_counter()))
                if stop.is_set():
                    return
                t0 = time.perf_counter()
                status, body = await client.post(f"/api/matches/{quote(mid, safe='')}/events", (NOTE % i).encode())
                appends.append(time.perf_counter() - t0)
                if status != 201:
                    raise RuntimeError(f"{mid}: {status} {body!r}")
                i += 1

    async def hostile_table() -> None:
        nonlocal stored
        headers = {"Authorization": f"Bearer {tokens[BIG]}", "Content-Type": "application/x-ndjson"}
        body = "\n".join(NOTE % i for i in range(args.burst)).encode()
        async with httpx.AsyncClient(base_url=s.url, timeout=60) as client:
            while not stop.is_set():
                r = await client.post(f"/api/matches/{BIG}/events", content=body, headers=headers)
                if r.status_code == 429:
                    await asyncio.sleep(min(float(r.headers.get("retry-after", "1")), 1.0))
                elif r.status_code == 201:
                    stored += len(r.json()["seqs"])
                elif r.status_code == 422 and "at most" in r.text:  # (its match is full)
                    return
                else:
                    raise RuntimeError(f"hostile: {r.status_code} {r.text}")

    async def follower(client: httpx.AsyncClient, refetch: bool) -> None:
        nonlocal ready
        try:
            async with client.stream("GET", "/api/board/stream") as r:
                ready += 1
                async for line in r.aiter_lines():
                    if stop.is_set():
                        return
                    if refetch and line.startswith("id: "):
                        t0 = time.perf_counter()
                        await client.get("/part")
                        refetches.append(time.perf_counter() - t0)
        except httpx.HTTPError:  # (the stream cut as the phase ends)
            return

    async def prober(client: httpx.AsyncClient) -> None:
        while not stop.is_set():
            for path, times in probes.items():
                t0 = time.perf_counter()
                await client.get(path)
                times.append(time.perf_counter() - t0)
            await asyncio.sleep(0.5)

    async with httpx.AsyncClient(base_url=s.url, timeout=httpx.Timeout(60), limits=limits) as client:
        followers = [
            asyncio.create_task(follower(client, i < args.watchers)) for i in range(max(args.followers, args.watchers))
        ]
        deadline = time.monotonic() + 60
        while ready < len(followers) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        work = [asyncio.create_task(table(k, mid)) for k, mid in enumerate(ids)]
        work.append(asyncio.create_task(prober(client)))
        if hostile:
            work.append(asyncio.create_task(hostile_table()))
        await asyncio.sleep(args.seconds)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*work), 120)
        for t in followers:
            t.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
    out = {
        "appends": len(appends),
        "append_p50": _pct(appends, 50) * 1000,
        "append_p99": _pct(appends, 99) * 1000,
        "refetches": len(refetches),
        "refetch_p50": _pct(refetches, 50) * 1000,
        "refetch_p99": _pct(refetches, 99) * 1000,
        "hostile_events": stored,
    }
    for path, times in probes.items():
        out[path] = _pct(times, 50) * 1000
    return out


def _line(name: str, r: dict[str, float]) -> str:
    return (
        f"  {name}: other tables' appends {r['appends']:.0f}, "
        f"p50 {r['append_p50']:.1f} ms, p99 {r['append_p99']:.1f} ms; "
        f"board refetches {r['refetches']:.0f}, p50 {r['refetch_p50']:.0f} ms, p99 {r['refetch_p99']:.0f} ms; "
        f"/part {r['/part']:.0f} ms, /tables/part {r['/tables/part']:.0f} ms, "
        f"/standings/part {r['/standings/part']:.0f} ms "
        f"(p50); hostile events stored {r['hostile_events']:.0f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--followers", type=int, default=500)
    ap.add_argument("--watchers", type=int, default=10)
    ap.add_argument(
        "--big", type=int, default=90_000, help="events of the hostile table's match (it has room for more)"
    )
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--pace", type=float, default=1.0, help="events a second each other table sends")
    ap.add_argument("--burst", type=int, default=50, help="notes in each of the hostile table's requests")
    ap.add_argument("--rate", type=int, default=20, help="the server's --rate")
    ap.add_argument("--old-ref", help="measure this commit's code too (a ref of this checkout)")
    args = ap.parse_args()
    print(
        f"bench_hostile: {args.tables} tables at {args.pace:g} event/s, {args.followers} board streams "
        f"({args.watchers} refetching), hostile match of {args.big:,} events, bursts of {args.burst}, "
        f"--rate {args.rate}, {args.seconds:g} s a phase; {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as tmp:
        codes: list[tuple[str, dict[str, str]]] = [("new", clean_env())]
        if args.old_ref:
            old = old_tree(args.old_ref, Path(tmp) / "old-tree")
            codes.insert(0, (f"old ({args.old_ref})", clean_env(PYTHONPATH=str(old))))
        for name, env in codes:
            folder = Path(tmp) / f"run-{name.split()[0]}"
            folder.mkdir()
            s = Serve(_store(folder, args.big, env), folder, args.rate, env)
            try:
                ids, tokens = _setup(s, args.tables)
                quiet = asyncio.run(_phase(s, ids, tokens, args, hostile=False))
                loud = asyncio.run(_phase(s, ids, tokens, args, hostile=True))
            finally:
                s.stop()
            print(f"{name}:")
            print(_line("without the hostile table", quiet))
            print(_line("with the hostile table   ", loud))
            ratio = loud["append_p99"] / quiet["append_p99"] if quiet["append_p99"] else 0.0
            print(f"  append p99 with / without: {ratio:.2f}x")


if __name__ == "__main__":
    main()
