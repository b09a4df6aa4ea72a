"""The store as the server's threads use it, and the poller that tells live streams a match moved.

A SQLite connection belongs to the thread that opened it: each worker thread opens the store once and
keeps it (:class:`Stores`). The poller reads every match's head from the store's ``matches``
projection (written in the same transaction as each event) and wakes the streams waiting on a change,
whichever process or command stored the event: at each PostgreSQL notification of a commit
(LISTEN/NOTIFY), or a few times a second from a SQLite file.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread

if TYPE_CHECKING:
    from dominolog.recording.session import Session
    from dominolog.store import Store
    from dominolog.store.appending import Fold

T = TypeVar("T")
#: how often the poller looks for new events in a SQLite file (seconds): a follower sees an event within this
POLL_SECONDS = 0.2
#: how often it looks all the same when PostgreSQL tells it of each commit (LISTEN/NOTIFY)
LISTENING_POLL_SECONDS = 2.0


def poll_seconds(listens: bool) -> float:
    """The poller's interval: ``DOMINOLOG_POLL_SECONDS`` when set (tests), else by the store's kind."""
    import os

    given = os.environ.get("DOMINOLOG_POLL_SECONDS")
    if given:
        with contextlib.suppress(ValueError):
            return max(0.01, float(given))
    return LISTENING_POLL_SECONDS if listens else POLL_SECONDS


#: how long the poller, told of a commit, waits for the others of the moment before it reads the heads
GATHER_SECONDS = 0.02

#: threads that use the store at once (each has a connection of its own: a PostgreSQL server takes a
#: hundred by default, shared by every worker and every other client)
STORE_THREADS = 8
#: recording sessions a thread keeps (one a match it wrote to lately)
KEPT_SESSIONS = 256
#: the most writes one commit takes (those waiting when it begins)
GROUP_MOST = 100
#: the writer threads of a PostgreSQL store in each server process: while one waits for its commit to be
#: made durable (the WAL's fsync, tens of milliseconds on a slow disk), the other runs the next group's
#: writes (a SQLite file takes one writer at a time: one thread)
PG_WRITERS = 2


class Stores:
    """One open store per thread, for the store ``target`` (a SQLite file or a PostgreSQL URL)."""

    def __init__(self, target: str, one_writer: bool = False, writers: int = 1) -> None:
        self.target = target
        #: the writes go through writer threads of their own, the writes waiting together committed at
        #: once (:class:`GroupCommit`: one durable commit for them all, each answered once it is made).
        #: A SQLite file takes one writer at a time: one thread, every write in the order they came (its
        #: store and sessions kept warm), rather than many threads taking turns in SQLite's busy handler,
        #: whose growing sleeps make the unluckiest append wait long. A PostgreSQL store: ``writers``
        #: threads (:data:`PG_WRITERS`), each committing what waits when it is free
        self._writer = GroupCommit(self, writers) if one_writer else None
        self._local = threading.local()
        self._all: list[Store] = []
        self._lock = threading.Lock()
        self._limiter: anyio.CapacityLimiter | None = None
        #: the matches the one writer holds a session on (read by the event loop), and the folds made on
        #: a reader's thread for it to take (:meth:`warm`)
        self._writing: frozenset[str] = frozenset()
        self._warm: dict[str, Fold] = {}

    def get(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            from dominolog.store import open_store

            store = open_store(self.target, create=False, write=True)
            self._local.store = store
            with self._lock:
                self._all.append(store)
        return store

    def session(self, match_id: str) -> Session:
        """This thread's recording session on the match (``dominolog append``'s checks, with the server's
        clock: every event stored without an ``at`` is stamped, :mod:`dominolog.web.writing`), kept
        between requests so that each reads only the events stored since the last, and brought up to
        what other writers stored first."""
        from dominolog.recording.journal import StoreJournal
        from dominolog.recording.session import Session, utc_now

        sessions: dict[str, Session] = self._local.__dict__.setdefault("sessions", {})
        session = sessions.pop(match_id, None)
        if session is None:
            with self._lock:
                warm = self._warm.pop(match_id, None)
            if warm is not None:
                self.get().adopt_fold(match_id, warm)
            session = Session(StoreJournal(self.get(), match_id), now=utc_now, check=True)
        else:
            session.refresh()
        sessions[match_id] = session  # (the latest last)
        if len(sessions) > KEPT_SESSIONS:
            del sessions[next(iter(sessions))]
        if self._writer is not None and self._writer.is_current():
            self._writing = frozenset(sessions)
        return session

    async def warm(self, match_id: str, may: Callable[[Store], bool]) -> None:
        """Before a write to a match the one writer has no session on (SQLite): fold it on a reader's thread
        and hand the fold over (:meth:`session` takes it), so that the writer, which every table's appends
        wait for, folds only what was stored since. A match of 90,000 events took the writer seconds to
        fold, and every other table's append waited (issue 36's hostile table). ``may``: whether the request
        may write to it (read on the reader's thread first: no fold for a request that will be refused)."""
        if self._writer is None or match_id in self._writing or match_id in self._warm:
            return
        from dominolog.store import StoreError

        def fold(store: Store) -> None:
            try:
                if not may(store):  # (only for a writer allowed to write to it: the work is not anyone's to ask)
                    return
                made = store.fold_kept(match_id, {})
            except (StoreError, *store.db_errors):  # (the write will say what is wrong)
                return
            if made.seq:
                with self._lock:
                    self._warm[match_id] = made
                    while len(self._warm) > KEPT_SESSIONS:
                        del self._warm[next(iter(self._warm))]

        await self.run(fold)

    def forget(self, match_id: str | None = None) -> None:
        """Drop this thread's session on the match (None: on every match) after a failure: the next
        one starts afresh."""
        sessions = self._local.__dict__.get("sessions", {})
        if match_id is None:
            sessions.clear()
        else:
            sessions.pop(match_id, None)
        if self._writer is not None and self._writer.is_current():
            self._writing = frozenset(sessions)

    async def run(self, work: Callable[[Store], T]) -> T:
        """``work(store)`` in a worker thread, with that thread's store."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(STORE_THREADS)
        return await anyio.to_thread.run_sync(lambda: work(self.get()), limiter=self._limiter)

    async def write(self, work: Callable[[Store], T], match_id: str | None = None) -> T:
        """``work(store)`` for a write: on a writer thread, committed with the writes waiting with it
        (:class:`GroupCommit`), else (a :class:`Stores` made without one) as :meth:`run`. ``work`` writes in
        :meth:`~dominolog.store.store.Store.transaction` blocks (committed on return)."""
        if self._writer is None:
            return await self.run(work)
        return await asyncio.wrap_future(self._writer.submit(work, match_id))

    def close(self) -> None:
        if self._writer is not None:
            self._writer.stop()
        with self._lock:
            for store in self._all:
                with contextlib.suppress(Exception):  # a connection of a thread gone: nothing to keep
                    store.close()
            self._all.clear()


class GroupCommit:
    """The writer threads of a store, each committing the writes that wait together at once.

    A thread takes every write waiting (up to :data:`GROUP_MOST`), begins one transaction, runs each
    write in a savepoint of its own, commits once (one durable commit for them all), and only then
    answers each: every event is durable before its answer. A write that raises (refused, unauthorized,
    failed) is rolled back to its savepoint: nothing of it is left, and the others go on; the commit
    failing fails every write of the group (none of them was stored, and each is told so).

    With PostgreSQL, a group's first write may wait for the locks it needs (its match's, its
    Idempotency-Key's) held by another process's transaction; a later one may not (the group holds
    other locks: waiting could close a circle with another group, a deadlock), so a lock held elsewhere
    raises :class:`~dominolog.store.store.Busy` (:class:`~dominolog.store.postgres.PostgresStore`): that
    write is undone and runs again first in the thread's next group, where it may wait."""

    def __init__(self, stores: Stores, threads: int = 1) -> None:
        self.stores = stores
        #: each thread's writes waiting; a match's always go to the same thread (:meth:`submit`)
        self._queues: list[queue.SimpleQueue[tuple[Future[Any], Callable[[Store], Any]] | None]] = [
            queue.SimpleQueue() for _ in range(threads)
        ]
        self._turn = itertools.count()
        self._threads = [
            threading.Thread(target=self._run, args=(q,), name=f"dominolog-writer-{n}", daemon=True)
            for n, q in enumerate(self._queues)
        ]
        for thread in self._threads:
            thread.start()

    def is_current(self) -> bool:
        """Whether the caller is one of the writer threads."""
        return threading.current_thread() in self._threads

    def submit(self, work: Callable[[Store], T], match_id: str | None = None) -> Future[T]:
        """Queue ``work`` for a writer thread: a write to ``match_id`` on the thread of that match (its
        session there is kept up to date by its own appends: not brought up to another thread's, a read
        a write saved), any other write on each thread in turn."""
        done: Future[T] = Future()
        n = len(self._queues)
        at = (zlib.crc32(match_id.encode("utf-8", "surrogatepass")) if match_id is not None else next(self._turn)) % n
        self._queues[at].put((done, work))
        return done

    def stop(self) -> None:
        for q in self._queues:
            q.put(None)

    def _run(self, waiting: queue.SimpleQueue[tuple[Future[Any], Callable[[Store], Any]] | None]) -> None:
        #: the writes of this thread's last group that found a lock held elsewhere (run first in the next)
        carried: list[tuple[Future[Any], Callable[[Store], Any]]] = []
        while True:
            if carried:
                group, carried = carried, []
            else:
                first = waiting.get()
                if first is None:
                    return
                if not first[0].set_running_or_notify_cancel():
                    continue
                group = [first]
            while len(group) < GROUP_MOST:
                try:
                    more = waiting.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    waiting.put(None)
                    break
                if more[0].set_running_or_notify_cancel():
                    group.append(more)
            carried = self._commit(group)

    def _commit(
        self, group: list[tuple[Future[Any], Callable[[Store], Any]]]
    ) -> list[tuple[Future[Any], Callable[[Store], Any]]]:
        """Run and commit the group; the writes to run again (those that found a lock held elsewhere)."""
        from dominolog.store.store import Busy

        results: list[tuple[Future[Any], Any, Exception | None]] = []
        again: list[tuple[Future[Any], Callable[[Store], Any]]] = []
        try:
            store = self.stores.get()
            with store.transaction():
                for done, work in group:
                    try:
                        with store.transaction():  # (a savepoint)
                            results.append((done, work(store), None))
                    except Busy:  # undone; run again first in the next group, where it may wait
                        again.append((done, work))
                    except Exception as exc:  # this write is undone; the others go on
                        results.append((done, None, exc))
        except BaseException as exc:  # the store failed (begin, commit): no write of the group is stored
            self.stores.forget()
            for done, _ in group:
                done.set_exception(exc)
            return []
        for done, value, error in results:
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(value)
        return again


def heads(store: Store) -> dict[str, str]:
    """Every match's head, from the ``matches`` projection (its two columns only: the poller reads
    them at each commit's notification)."""
    return dict(store.conn.execute("SELECT id, head FROM matches").fetchall())


class Poller:
    """Wakes whoever waits when any match's head changes (:meth:`wait`).

    With a PostgreSQL store it listens (``LISTEN dominolog_events``): every commit that writes to a
    match notifies it, whatever process wrote (another worker, another server, ``dominolog append``),
    and the heads are read at once; the look every :data:`LISTENING_POLL_SECONDS` only makes up for a
    connection lost (the notifications of :data:`GATHER_SECONDS` are read together). With a SQLite
    file it looks every :data:`POLL_SECONDS`."""

    def __init__(self, stores: Stores, interval: float | None = None) -> None:
        from dominolog.store.target import is_url

        self.stores = stores
        self.listens = is_url(stores.target)
        self.interval = interval if interval is not None else poll_seconds(self.listens)
        self.version = 0
        self.heads: dict[str, str] = {}
        #: the version at which each match last moved (its head changed, or its analysis was kept)
        self.moved_at: dict[str, int] = {}
        self._changed = asyncio.Event()
        self._kick = asyncio.Event()
        self._stop = threading.Event()

    async def run(self) -> None:
        if self.listens:
            loop = asyncio.get_running_loop()
            threading.Thread(target=self._listen, args=(loop,), name="dominolog-listen", daemon=True).start()
        try:
            while True:
                try:
                    now = await self.stores.run(heads)
                except Exception:  # the database failed for a moment: the next look may see it back
                    now = self.heads
                if now != self.heads:
                    self.version += 1
                    for match_id in now.keys() | self.heads.keys():
                        if now.get(match_id) != self.heads.get(match_id):
                            self.moved_at[match_id] = self.version
                    self.heads = now
                    changed, self._changed = self._changed, asyncio.Event()
                    changed.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._kick.wait(), self.interval)
                    # the commits notified within a moment are read at once: a busy evening's hundreds
                    # of commits a second cost each worker a few reads a second, not one a commit
                    await asyncio.sleep(GATHER_SECONDS)
                self._kick.clear()
        finally:
            self._stop.set()

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """In a thread of its own: LISTEN, and kick the poll loop at each notification (reconnecting,
        after a pause, when the connection is lost; until the poll loop ends)."""
        import psycopg

        from dominolog.store.postgres import NOTIFY_CHANNEL

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.stores.target, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    loop.call_soon_threadsafe(self._kick.set)  # (what was written while not listening)
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=1.0, stop_after=1):
                            loop.call_soon_threadsafe(self._kick.set)
            except (psycopg.Error, OSError, RuntimeError):
                # (RuntimeError: the event loop closed as the server stopped)
                self._stop.wait(1.0)

    def moved(self, match_id: str) -> None:
        """Wake whoever waits though no head changed (the match's analysis was kept: the pages waiting
        for it)."""
        self.version += 1
        self.moved_at[match_id] = self.version
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def moved_since(self, version: int) -> set[str]:
        """The matches that moved after ``version`` (a stream that must tell only of those it may read)."""
        return {m for m, v in self.moved_at.items() if v > version}

    async def wait(self, version: int, timeout: float) -> int:
        """The version once it is past ``version`` (at once if it is already), or after ``timeout``."""
        if self.version == version:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)
        return self.version
