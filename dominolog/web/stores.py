"""The store as the server's threads use it, and the poller that tells live streams a match moved.

A SQLite connection belongs to the thread that opened it: each worker thread opens the store once and
keeps it (:class:`Stores`). The poller reads every match's head from the store's ``matches``
projection (written in the same transaction as each event) a few times a second and wakes the streams
waiting on a change, whichever process or command stored the event.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import anyio.to_thread

if TYPE_CHECKING:
    from dominolog.store import Store

T = TypeVar("T")
#: how often the poller looks for new events (seconds): a follower sees an event within this
POLL_SECONDS = 0.2


class Stores:
    """One open store per thread, for the store ``target`` (a SQLite file or a PostgreSQL URL)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._local = threading.local()
        self._all: list[Store] = []
        self._lock = threading.Lock()

    def get(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            from dominolog.store import open_store

            store = open_store(self.target, create=False, write=True)
            self._local.store = store
            with self._lock:
                self._all.append(store)
        return store

    async def run(self, work: Callable[[Store], T]) -> T:
        """``work(store)`` in a worker thread, with that thread's store."""
        return await anyio.to_thread.run_sync(lambda: work(self.get()))

    def close(self) -> None:
        with self._lock:
            for store in self._all:
                with contextlib.suppress(Exception):  # a connection of a thread gone: nothing to keep
                    store.close()
            self._all.clear()


def heads(store: Store) -> dict[str, str]:
    """Every match's head, from the ``matches`` projection."""
    return {r["id"]: r["head"] for r in store.list_matches()}


class Poller:
    """Wakes whoever waits when any match's head changes (:meth:`wait`)."""

    def __init__(self, stores: Stores, interval: float = POLL_SECONDS) -> None:
        self.stores = stores
        self.interval = interval
        self.version = 0
        self.heads: dict[str, str] = {}
        self._changed = asyncio.Event()

    async def run(self) -> None:
        while True:
            try:
                now = await self.stores.run(heads)
            except Exception:  # the database failed for a moment: the next look may see it back
                now = self.heads
            if now != self.heads:
                self.heads = now
                self.version += 1
                changed, self._changed = self._changed, asyncio.Event()
                changed.set()
            await asyncio.sleep(self.interval)

    async def wait(self, version: int, timeout: float) -> int:
        """The version once it is past ``version`` (at once if it is already), or after ``timeout``."""
        if self.version == version:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)
        return self.version
