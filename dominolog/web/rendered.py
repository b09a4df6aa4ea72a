"""The live parts rendered once per change of the store and shared among the requests that ask for the
same part (issue 36: every spectator's page fetches its part again at each move of any table; a
hundred spectators made the server render the same board a hundred times).

A part is kept under the store's mark (:meth:`~dominolog.store.store.Store.mark`: it changes at every
append), the route, the query as sent and what the request may read (the token's id and the private
events: :class:`~dominolog.web.auth.Sight`). While one request renders a part, the others asking for
the same one wait for it rather than render it too. A new mark makes the kept parts stale: they are
dropped as new ones come (at most :data:`KEPT` parts are kept, the oldest dropped first).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.store.appending import Fold

T = TypeVar("T")

#: how many parts are kept (a few pages, picks and keys at the store's current mark)
KEPT = 256


class Rendered:
    """Parts kept by key (:func:`key_of`), each made once."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._parts: OrderedDict[Hashable, str] = OrderedDict()
        self._making: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        #: how many parts were made, and how many answered from those kept (the tests read them)
        self.made = 0
        self.shared = 0

    def get(self, key: Hashable, make: Callable[[], str]) -> str:
        """The part under ``key``, made by ``make`` unless it is kept (or being made: then waited for)."""
        with self._lock:
            if key in self._parts:
                self.shared += 1
                return self._parts[key]
            making = self._making.setdefault(key, threading.Lock())
        with making:
            with self._lock:
                if key in self._parts:
                    self.shared += 1
                    return self._parts[key]
            text = make()  # (an error is raised to this request; the next one makes it again)
            with self._lock:
                self.made += 1
                self._parts[key] = text
                while len(self._parts) > self.kept:
                    self._parts.popitem(last=False)
                self._making.pop(key, None)
        return text


class Once:
    """Work shared by key among the coroutines of the server's loop: the first to ask starts it, the others
    await the same answer (the board streams: every stream that follows the board wakes at the same move,
    and those that read with the same key ask the store the same thing). At most ``kept`` answers are kept,
    the oldest dropped first."""

    def __init__(self, kept: int = 64) -> None:
        self.kept = kept
        self._answers: OrderedDict[Hashable, asyncio.Future[object]] = OrderedDict()
        #: how many times the work was done, and how many answers were shared (the tests read them)
        self.made = 0
        self.shared = 0

    async def get(self, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        answer = self._answers.get(key)
        if answer is None:
            self.made += 1
            answer = asyncio.ensure_future(make())
            self._answers[key] = answer  # type: ignore[assignment]
            while len(self._answers) > self.kept:
                self._answers.popitem(last=False)
        else:
            self.shared += 1
        # (shielded: one stream closed while it waits does not cancel the work the others wait for)
        return await asyncio.shield(answer)  # type: ignore[return-value]


class Kept(dict):  # type: ignore[type-arg]
    """A dict of at most ``size`` items, the oldest put dropped first (what a match's summary or picture
    is at a head: :func:`dominolog.club.standings_query.store_summaries`'s ``kept``)."""

    def __init__(self, size: int = 4096) -> None:
        super().__init__()
        self.size = size
        self._lock = threading.Lock()

    def __setitem__(self, key: Hashable, value: object) -> None:
        with self._lock:
            super().__setitem__(key, value)
            while len(self) > self.size:
                super().__delitem__(next(iter(self)))


class Folds:
    """The matches kept folded for the pages, shared by the server's threads (each has its own connection
    to the store, and would fold every match once of its own): a page reads a match's fold brought up to
    date with the events stored since (:meth:`~dominolog.store.appending.Appending.fold_kept`), one thread
    at a time."""

    def __init__(self) -> None:
        self._folds: dict[str, dict[str, Fold]] = {}
        self._lock = threading.Lock()

    def read(self, store: Store, match_id: str, look: Callable[[Fold], T]) -> T:
        """What ``look`` reads of the match's fold (called with it up to date, under the lock)."""
        with self._lock:
            folds = self._folds.setdefault(str(store.path), {})
            return look(store.fold_kept(match_id, folds))


#: the pages' folds (by store: an app per store, one process may serve several in the tests)
FOLDS = Folds()
