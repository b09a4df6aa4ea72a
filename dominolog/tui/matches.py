"""The matches the replay viewer can switch between (``ctrl+o``): those of the file it was opened on,
or those of the store.

A source lists its matches (:meth:`MatchSource.entries`: id, variant, players, valid or not) and
opens one (:meth:`MatchSource.open`: its log and the viewer's title for it), by a key: the match's
number in the file (``"1"``, ``"2"`` ...) or its id in the store.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from dominolog.log.reader import MatchLog
from dominolog.reducer import verify_match


@dataclass(slots=True, frozen=True)
class MatchEntry:
    """One match of the list."""

    key: str
    match_id: str | None
    variant: str
    players: tuple[str, ...]
    #: no violation (None: not known)
    valid: bool | None
    status: str = ""


class MatchSource(Protocol):
    def entries(self) -> list[MatchEntry]:
        """Every match, in order."""
        ...

    def open(self, key: str) -> tuple[MatchLog, str]:
        """The match ``key`` and its title (KeyError: no such match)."""
        ...


def _start_of(log: MatchLog) -> tuple[str | None, str, tuple[str, ...]]:
    """(id, variant, players) from the match's ``match_start``."""
    for rec in log.records:
        ev = rec.event
        if ev is not None and ev.type == "match_start":
            return getattr(ev, "id", None), ev.variant, tuple(ev.players)  # type: ignore[union-attr]
    return None, "?", ()


class FileMatches:
    """The matches of one log file (already read); each is verified the first time the list is shown."""

    def __init__(self, path: Path | str, logs: list[MatchLog]) -> None:
        self.path = Path(path)
        self.logs = logs
        self._entries: list[MatchEntry] | None = None

    def title(self, k: int) -> str:
        """The viewer's title for match ``k`` (from 1), as ``dominolog replay`` gives it."""
        name = self.path.name
        return name if len(self.logs) == 1 else f"{name} #{k}/{len(self.logs)}"

    def entries(self) -> list[MatchEntry]:
        if self._entries is None:
            out = []
            for k, log in enumerate(self.logs, 1):
                match_id, variant, players = _start_of(log)
                try:
                    report = verify_match(log)
                    valid: bool | None = report.valid
                    status = "complete" if report.complete else "open"
                except Exception:
                    valid, status = None, ""
                out.append(MatchEntry(str(k), match_id, variant, players, valid, status))
            self._entries = out
        return list(self._entries)

    def open(self, key: str) -> tuple[MatchLog, str]:
        k = int(key)
        if not 1 <= k <= len(self.logs):
            raise KeyError(key)
        return self.logs[k - 1], self.title(k)


class StoreMatches:
    """The matches of a store, read again each time the list is shown (another program may add some)."""

    def __init__(self, db: Path | str) -> None:
        self.db = db  # a SQLite file, or a postgresql:// URL (which a Path would spoil)

    def entries(self) -> list[MatchEntry]:
        from dominolog.store import open_store

        with open_store(self.db, create=False, write=False) as store:
            rows = store.list_matches()
        out = []
        for r in rows:
            players = tuple(json.loads(r.get("players") or "[]"))
            status = str(r.get("status") or "")
            out.append(MatchEntry(r["id"], r["id"], r.get("variant") or "?", players, status != "invalid", status))
        return out

    def open(self, key: str) -> tuple[MatchLog, str]:
        from dominolog.store import open_store

        with open_store(self.db, create=False, write=False) as store:
            if not store.has_match(key):
                raise KeyError(key)
            records = [rec for rec, _ in store.records(key)]
            name = store.path  # (a URL without its password)
        return MatchLog(f"{name}#{key}", 1, records), key
