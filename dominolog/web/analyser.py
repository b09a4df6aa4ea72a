"""The server's analyser: keeps each match's analysis current as its hands end.

Started beside the poller (``dominolog serve``, unless ``--no-analyse``). When a match's number of
ended hands grows or the match ends, it analyses the match as it stands with ``dominolog analyze``'s
default settings (:func:`dominolog.analysis.run.review_in_child`, the code the command runs) in ONE
separate process at a time, at a low priority (``nice``), so that the server's appends and streams are
not slowed; the review is kept in the store (``save_analysis``) by the head it was made at, and the
pages waiting for it are told (the poller's streams). At its first start it analyses the matches with
ended hands that have no kept analysis, newest first.

With PostgreSQL and several workers, each worker has an analyser; only one analyses a given head: it
holds a PostgreSQL advisory lock on (match, head) on a connection of its own while it works (released
if that worker dies), and looks again whether the head's analysis is kept once it holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

import anyio.to_thread

if TYPE_CHECKING:
    from dominolog.web.stores import Poller, Stores

#: how much lower the analysing process runs than the server (``os.nice``)
NICENESS = 10
#: prctl's option: a signal when the parent ends
PR_SET_PDEATHSIG = 1
#: the longest the analyser waits for a move before looking again (seconds)
LOOK_SECONDS = 5.0

log = logging.getLogger("dominolog.analyser")


def _lower_priority(server: int) -> None:
    """The analysing process's start: a lower priority, and (Linux) ended with the server however it ends."""
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != server:  # (the server ended before the line above)
            os._exit(1)


def _state(row: dict[str, Any]) -> tuple[int, bool]:
    """What makes a new analysis due: the ended hands, and whether the match ended."""
    return int(row["hands"] or 0), bool(row["complete"])


def _to_analyse(store: Any) -> list[dict[str, Any]]:
    """The matches with ended hands and no kept analysis, newest first (first start)."""
    from dominolog.analysis.run import newest_kept
    from dominolog.club.summary import listed_matches

    rows = [r for r in listed_matches(store) if r["hands"] > 0]
    rows.sort(key=lambda r: (r["date"] or "", r["id"]), reverse=True)
    return [r for r in rows if newest_kept(store, r["id"], r["variant"]) is None]


class Claims:
    """Who analyses a head: with PostgreSQL an advisory lock on a connection of the analyser's own;
    with a SQLite file (one worker) always this one."""

    def __init__(self, target: str) -> None:
        from dominolog.store.target import is_url

        self.target = target
        self.listens = is_url(target)
        self._conn: Any = None

    def take(self, key: str) -> bool:
        if not self.listens:
            return True
        import psycopg

        try:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(self.target, autocommit=True, connect_timeout=10)
            row = self._conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (key,)).fetchone()
            return bool(row and row[0])
        except psycopg.Error:
            self.close()
            return False

    def give_back(self, key: str) -> None:
        if not self.listens or self._conn is None:
            return
        import psycopg

        try:
            self._conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (key,))
        except psycopg.Error:
            self.close()  # (the lock goes with the connection)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None


class Analyser:
    """The background task (:meth:`run`) of one server process."""

    def __init__(self, stores: Stores, poller: Poller) -> None:
        self.stores = stores
        self.poller = poller
        self.claims = Claims(stores.target)
        self.seen: dict[str, tuple[int, bool]] = {}
        self.due: list[str] = []
        self._executor: ProcessPoolExecutor | None = None
        self._pid: int | None = None
        self.made = 0

    async def _pool(self) -> ProcessPoolExecutor:
        """The analysing process, started when first needed (a server with nothing to analyse has none)."""
        if self._executor is None:
            import multiprocessing

            context = multiprocessing.get_context("spawn")  # (not a fork of the server's threads)
            self._executor = ProcessPoolExecutor(
                1, mp_context=context, initializer=_lower_priority, initargs=(os.getpid(),)
            )
            self._pid = await asyncio.get_running_loop().run_in_executor(self._executor, os.getpid)
        return self._executor

    async def run(self) -> None:
        try:
            first = await self._rows_or_none(_to_analyse)
            rows = await self._rows_or_none(lambda s: s.list_matches())
            self.due = [r["id"] for r in first or []]
            self.seen = {r["id"]: _state(r) for r in rows or []}
            while True:
                version = self.poller.version
                await self._notice()
                while self.due:
                    match_id = self.due.pop(0)
                    try:
                        await self._analyse(match_id)
                    except Exception:  # (the store failed as it was kept): tried again at the match's next end
                        log.exception("could not keep the analysis of match %r", match_id)
                    await self._notice()
                await self.poller.wait(version, LOOK_SECONDS)
        finally:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            if self._pid is not None:  # (a long analysis would hold the server's exit)
                with contextlib.suppress(OSError):
                    os.kill(self._pid, signal.SIGTERM)
            self.claims.close()

    async def _rows_or_none(self, work: Any) -> Any:
        try:
            return await self.stores.run(work)
        except Exception:  # the database failed for a moment: looked at again at the next move
            log.exception("the analyser could not read the store")
            return None

    async def _notice(self) -> None:
        """Mark due each match whose ended hands grew or that ended since it was last seen."""
        rows = await self._rows_or_none(lambda s: s.list_matches())
        for r in rows or []:
            now, before = _state(r), self.seen.get(r["id"], (0, False))
            self.seen[r["id"]] = now
            if now[0] > 0 and (now[0] > before[0] or (now[1] and not before[1])) and r["id"] not in self.due:
                self.due.append(r["id"])

    async def _analyse(self, match_id: str) -> None:
        from dominolog.analysis.cache import VERSION, settings_for
        from dominolog.analysis.run import review_in_child

        rows = await self._rows_or_none(lambda s: [r for r in s.list_matches() if r["id"] == match_id])
        if not rows:
            return
        row = rows[0]
        settings = settings_for(row["variant"])
        key = f"dominolog-analysis {row['head']} {match_id}"  # (the head first: its form is fixed)
        if not await anyio.to_thread.run_sync(self.claims.take, key):
            return  # another worker analyses this head
        try:
            kept = await self._rows_or_none(lambda s: s.analysis(match_id, row["head"], VERSION, settings))
            if kept is not None:
                return
            try:
                pool = await self._pool()
                made = await asyncio.get_running_loop().run_in_executor(
                    pool, review_in_child, self.stores.target, match_id, int(row["events"])
                )
            except BrokenProcessPool:  # the analysing process died (killed): a new one for the next
                log.error("the analysing process stopped while analysing match %r", match_id)
                self._executor, self._pid = None, None
                return
            except Exception:  # a match the analysis cannot take: said in the server's log, not retried
                log.exception("could not analyse match %r", match_id)
                return
            if made is None:
                return
            head, review = made
            await self.stores.write(lambda s: s.save_analysis(match_id, head, VERSION, settings, review))
            self.made += 1
            self.poller.moved(match_id)
        finally:
            await anyio.to_thread.run_sync(self.claims.give_back, key)
