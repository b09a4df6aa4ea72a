"""A club event's results, read from its matches as stored: each table's state (not started, the
hand it is at, ended, disputed, not agreed, forfeit, abandoned, bye), each finished match's result
for the standings, and the standings themselves (:mod:`dominolog.tournament.ranking`).

A match counts when it has been played out (a ``match_end`` that is not ``reason: abandoned``): its
totals as the rules compute them and the rules' winner, violations or not (a disputed match is shown
as such; the director settles it by a forfeit, which then counts instead). A match the table closed
as abandoned counts only once the director has ended it by a forfeit. A match in progress never
counts: it is "in progress", not abandoned.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from dominolog.club.agreement import read_agreement
from dominolog.tournament.event import ClubEvent, Round, Table, table_options
from dominolog.tournament.ranking import Result, Row, rank

if TYPE_CHECKING:
    from dominolog.store import Store


def _json(text: Any) -> Any:
    if not isinstance(text, str):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _partners(ev: ClubEvent) -> bool:
    return ev.team_size > 1 and bool(table_options(ev.variant, ev.options, ev.team_size).get("partners"))


def higher_wins(ev: ClubEvent) -> bool:
    """Whether the event's variant ranks the highest total first (False: penalty points)."""
    from dominolog.variants import VariantError, find_variant

    try:
        return bool(find_variant(ev.variant).higher_wins)
    except VariantError:
        return True


def side_points(ev: ClubEvent, entrant: str, totals: dict[str, Any]) -> int:
    """What a side scored in a match: a player's total; a partnership's (both partners are credited
    the side's points: one of them); a team that is not a partnership, the sum of its players'."""
    players = ev.entrants[entrant].players
    values = [int(totals.get(p, 0)) if isinstance(totals.get(p, 0), int) else 0 for p in players]
    return values[0] if _partners(ev) else sum(values)


def _winner(ev: ClubEvent, table: Table, winner: Any, points: tuple[int, int]) -> str | None:
    assert table.second is not None
    sides = (table.first, table.second)
    if ev.team_size > 1 and not _partners(ev):  # (teams scored as the sum of their players)
        if points[0] == points[1]:
            return None
        best = max if higher_wins(ev) else min
        return sides[points.index(best(points))]
    named = set(winner) if isinstance(winner, list) else {winner} if isinstance(winner, str) else set()
    for side in sides:
        if named and named <= set(ev.entrants[side].players):
            return side
    return None


def _played(ev: ClubEvent, table: Table, row: dict[str, Any]) -> tuple[tuple[int, int], str | None]:
    assert table.second is not None
    totals = _json(row.get("totals")) or {}
    totals = totals if isinstance(totals, dict) else {}
    points = (side_points(ev, table.first, totals), side_points(ev, table.second, totals))
    return points, _winner(ev, table, _json(row.get("winner")), points)


def _read(store: Store, tables: list[Table]) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
    """What the tables' states and results are made of, read once: each match's marks and its row
    (one query for the rows of them all)."""
    ids = [t.match for t in tables if t.second is not None and t.match is not None]
    rows = store.match_rows(ids) if ids else {}
    return {m: (store.match_marks(m), rows.get(m)) for m in ids}


def _state(
    ev: ClubEvent, table: Table, read: tuple[dict[str, Any], dict[str, Any] | None]
) -> tuple[str, str, tuple[int, int] | None]:
    if table.second is None:
        return "bye", f"{table.first} has the bye", None
    assert table.match is not None
    if table.match in ev.forfeits:
        w = ev.forfeits[table.match]
        return "forfeit", f"{w} wins by forfeit" if w else "double forfeit: both lose", None
    marks, row = read
    if row is None:
        return "missing", "the match is not in the store", None
    points, winner = _played(ev, table, row)
    score = f"{table.first} {points[0]} - {points[1]} {table.second}"
    if marks["end"] == "abandoned":
        return "abandoned", "closed without a result: the director decides (forfeit)", points
    if marks["end"] == "":
        won = f"{winner} wins" if winner else "drawn"
        if int(row.get("violations") or 0):
            return "disputed", f"ended, {won}, {score}; the rules find {row['violations']} violation(s)", points
        disagreed = [
            a for a in (read_agreement(_json(t)) for t in marks["disagreed"]) if a is not None and not a.agrees
        ]
        if disagreed:
            return (
                "not agreed",
                f"ended, {won}, {score}; {disagreed[0].player} disagreed with hand {disagreed[0].hand}",
                points,
            )
        return "ended", f"ended, {won}, {score}", points
    if marks["deals"] == 0:
        return "not started", "not started", None
    return "playing", f"hand {marks['hands'] + 1}, {score}", points


def _result(
    ev: ClubEvent, rnd: Round, table: Table, read: tuple[dict[str, Any], dict[str, Any] | None]
) -> Result | None:
    if table.second is None:
        return Result(rnd.number, table.first, None, 0, 0, table.first)
    assert table.match is not None
    if table.match in ev.forfeits:
        return Result(rnd.number, table.first, table.second, 0, 0, ev.forfeits[table.match], forfeit=True)
    marks, row = read
    if marks["end"] != "" or row is None:
        return None
    points, winner = _played(ev, table, row)
    return Result(rnd.number, table.first, table.second, points[0], points[1], winner)


_NOTHING: tuple[dict[str, Any], None] = ({}, None)


def match_state(store: Store, ev: ClubEvent, table: Table) -> tuple[str, str, tuple[int, int] | None]:
    """The table's state, in words, and its points so far (first, second) where it has some."""
    reads = _read(store, [table])
    return _state(ev, table, reads.get(table.match or "", _NOTHING))


def match_states(store: Store, ev: ClubEvent, tables: list[Table]) -> list[tuple[str, str, tuple[int, int] | None]]:
    """:func:`match_state` of each table, the matches read once (one query for their rows)."""
    reads = _read(store, tables)
    return [_state(ev, t, reads.get(t.match or "", _NOTHING)) for t in tables]


def table_result(store: Store, ev: ClubEvent, rnd: Round, table: Table) -> Result | None:
    """The table's result for the standings (None: none yet)."""
    reads = _read(store, [table])
    return _result(ev, rnd, table, reads.get(table.match or "", _NOTHING))


def event_results(store: Store, ev: ClubEvent) -> list[Result]:
    """Every result of the event's rounds so far (each match read once)."""
    reads = _read(store, [t for rnd in ev.paired for t in rnd.tables])
    out = []
    for rnd in ev.paired:
        for t in rnd.tables:
            r = _result(ev, rnd, t, reads.get(t.match or "", _NOTHING))
            if r is not None:
                out.append(r)
    return out


def round_complete(store: Store, ev: ClubEvent, rnd: Round) -> list[str]:
    """What the round still waits for (empty: complete), each as ``table N: state`` (each match read once)."""
    reads = _read(store, rnd.tables)
    waiting = []
    for t in rnd.tables:
        read = reads.get(t.match or "", _NOTHING)
        if _result(ev, rnd, t, read) is None:
            waiting.append(f"table {t.table}: {_state(ev, t, read)[1]}")
    return waiting


def standings_rows(ev: ClubEvent, results: list[Result], round_no: int | None = None) -> list[Row]:
    """The standings after ``round_no`` (None: every result)."""
    kept = [r for r in results if round_no is None or r.round <= round_no]
    return rank(list(ev.entrants), kept, lower_is_better=not higher_wins(ev))
