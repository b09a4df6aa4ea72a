"""Tonight first: which club event and round the board shows, and the others to pick from.

The matches are grouped by their event (``match_start.meta.event``; the matches without one form one
group) and, in an event, by round (``meta.round``: ``"1"``, ``"2"``, ...; the matches without one
form one group, before the numbered rounds). The **current event** is the event of the match with the
most recent activity: the time of its last event that has one (``at``), else its ``meta.date``, else
its place in the store's order (the last one). Its **current round** is its highest round, read as a
number (a round that is not a number comes after the numbered ones, in text order).

Pure: rows in (``list --json``'s rows, each with its ``last_at``: the board's), a selection out. The
pages (``/``, ``/tables``) show the current round of the current event unless the address picks
another (``?event=E&round=R``; ``event=`` empty: the matches with no event).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dominolog.club.summary import parse_time

#: what a page says of the matches with no ``meta.event``
NO_EVENT = "(no event)"


def _meta(row: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = row.get("meta")
    return meta if isinstance(meta, dict) else {}


def event_of(row: Mapping[str, Any]) -> str:
    """The match's event (``meta.event``), ``""`` when it has none."""
    value = _meta(row).get("event")
    return "" if value is None else str(value)


def round_of(row: Mapping[str, Any]) -> str:
    """The match's round (``meta.round``), ``""`` when it has none."""
    value = _meta(row).get("round")
    return "" if value is None else str(value)


def round_key(text: str) -> tuple[int, int, str]:
    """How rounds are ordered: none first, then by number, then the others by their text."""
    if text == "":
        return (0, 0, "")
    stripped = text.strip()
    if stripped.isdigit():
        return (1, int(stripped), text)
    return (2, 0, text)


def _table_key(row: Mapping[str, Any]) -> tuple[int, int, str, str]:
    table = str(_meta(row).get("table", ""))
    return (0, int(table), table, str(row.get("id"))) if table.isdigit() else (1, 0, table, str(row.get("id")))


def activity(row: Mapping[str, Any], place: int) -> tuple[float, int]:
    """How recent a match's activity is: its last event's time (``last_at``), else its ``meta.date``,
    else none (``-inf``); then its place in the list."""
    for text in (row.get("last_at"), _meta(row).get("date")):
        when = parse_time(text) if isinstance(text, str) else None
        if when is not None:
            if when.tzinfo is None:
                from datetime import UTC

                when = when.replace(tzinfo=UTC)
            return (when.timestamp(), place)
    return (float("-inf"), place)


@dataclass(slots=True)
class Evening:
    """One club event: its name (``""``: no event), its rounds in order, how recent its activity is."""

    event: str
    rounds: list[str]
    latest: tuple[float, int]

    @property
    def name(self) -> str:
        return self.event or NO_EVENT

    @property
    def current_round(self) -> str:
        return self.rounds[-1]


@dataclass(slots=True)
class Tonight:
    """What a page shows: the event and round picked (``current``: the current ones, no choice made),
    their matches (by table), and every event (most recent first) for the selector."""

    event: str | None
    round: str | None
    matches: list[dict[str, Any]]
    evenings: list[Evening] = field(default_factory=list)
    current_event: str | None = None
    #: the address picked an event or a round that no match has
    unknown: bool = False

    @property
    def evening(self) -> Evening | None:
        return next((e for e in self.evenings if e.event == self.event), None)

    @property
    def current(self) -> bool:
        e = self.evening
        return e is not None and self.event == self.current_event and self.round == e.current_round


def evenings_of(rows: Sequence[Mapping[str, Any]]) -> list[Evening]:
    """The events of ``rows``, the one with the most recent activity first."""
    found: dict[str, Evening] = {}
    for place, row in enumerate(rows):
        event = event_of(row)
        when = activity(row, place)
        e = found.get(event)
        if e is None:
            found[event] = Evening(event, [round_of(row)], when)
            continue
        if round_of(row) not in e.rounds:
            e.rounds.append(round_of(row))
        e.latest = max(e.latest, when)
    for e in found.values():
        e.rounds.sort(key=round_key)
    return sorted(found.values(), key=lambda e: e.latest, reverse=True)


def tonight(rows: Sequence[dict[str, Any]], event: str | None = None, round_: str | None = None) -> Tonight:
    """The matches a page shows: the round ``round_`` of ``event`` (None: the current event; its current
    round when ``round_`` is None), ordered by table; every event for the selector."""
    evenings = evenings_of(rows)
    if not evenings:
        return Tonight(None, None, [])
    current = evenings[0].event
    chosen = next((e for e in evenings if e.event == (current if event is None else event)), None)
    if chosen is None:
        return Tonight(event, round_, [], evenings, current, unknown=True)
    picked = chosen.current_round if round_ is None else round_
    if picked not in chosen.rounds:
        return Tonight(chosen.event, picked, [], evenings, current, unknown=True)
    matches = [r for r in rows if event_of(r) == chosen.event and round_of(r) == picked]
    return Tonight(chosen.event, picked, sorted(matches, key=_table_key), evenings, current)
