"""What a director does to a club event, against a store: make it, register players and teams,
withdraw, pair the next round (making its matches), undo a pairing, end a match by forfeit, end the
event. Each step is checked against the event as it stands, then stored as one record of the event's
log (:mod:`dominolog.store.clublog`), with the matches it makes, in one transaction.

The faces (``dominolog event``, the organiser's page and its API) call these and nothing else: the
terminal and the browser always agree.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from dominolog.store.clublog import ClubLogConflict
from dominolog.tournament.event import (
    EVENT_NAME_LIMIT,
    ClubEvent,
    ClubEventError,
    Round,
    Table,
    check_record,
    clean_name,
    fold,
    new_event,
    table_options,
)
from dominolog.tournament.outcomes import event_results, round_complete, standings_rows
from dominolog.tournament.pairing import NoPairing, SwissEntrant, round_robin_round, swiss_round

if TYPE_CHECKING:
    from dominolog.store import Store


class DirectorError(ValueError):
    """A step refused; ``status`` says how a server answers it (404 no such thing, 409 not now,
    422 does not fit)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def load(store: Store, name: str) -> ClubEvent:
    """The event ``name`` as its log stands (:class:`DirectorError` 404 when there is none)."""
    ev = fold(name, store.club_records(name)) if isinstance(name, str) else None
    if ev is None:
        raise DirectorError(f"no club event {name!r} is stored", 404)
    return ev


def events(store: Store) -> list[ClubEvent]:
    """Every club event, the most recently made first."""
    out = []
    for name in store.club_events():
        ev = fold(name, store.club_records(name))
        if ev is not None:
            out.append(ev)
    return out


def _store(store: Store, ev: ClubEvent, rec: dict[str, Any]) -> dict[str, Any]:
    try:
        check_record(ev, rec)
    except ClubEventError as exc:
        raise DirectorError(str(exc)) from None
    try:
        return store.append_club_record(ev.name, rec, ev.seq + 1)
    except ClubLogConflict as exc:
        raise DirectorError(f"{exc}: someone else changed the event; look again", 409) from None


def _check_variant(variant: str, options: dict[str, Any], team_size: int) -> None:
    from dominolog.variants import VariantError, find_variant

    try:
        cls = find_variant(variant)
    except VariantError as exc:
        raise DirectorError(str(exc)) from None
    seats = 2 * team_size
    if not cls.min_players <= seats <= cls.max_players:
        raise DirectorError(f"{variant} is not played by {seats} players: a table is two sides of {team_size}")
    try:
        cls([f"p{i}" for i in range(seats)], table_options(variant, options, team_size))
    except VariantError as exc:
        raise DirectorError(str(exc)) from None


def create_event(
    store: Store,
    name: str,
    *,
    format: str = "swiss",
    rounds: int = 3,
    variant: str = "ghost13",
    options: dict[str, Any] | None = None,
    team_size: int = 1,
    date: str | None = None,
    title: str | None = None,
) -> ClubEvent:
    """Make an event (:class:`DirectorError` 409 when the name is taken)."""
    try:
        name = clean_name(name, "an event's name", EVENT_NAME_LIMIT)
    except ClubEventError as exc:
        raise DirectorError(str(exc)) from None
    if "/" in name:
        raise DirectorError("an event's name holds no '/' (it is part of the event's address)")
    if store.club_records(name):
        raise DirectorError(f"an event {name!r} exists already", 409)
    if date is None:
        date = datetime.now(UTC).date().isoformat()
    elif not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise DirectorError("the date is written YYYY-MM-DD")
    rec: dict[str, Any] = {
        "type": "event_create",
        "name": name,
        "format": format,
        "rounds": rounds,
        "variant": variant,
        "options": options or {},
        "team_size": team_size,
        "date": date,
    }
    if title:
        rec["title"] = title
    try:
        new_event(rec)
    except ClubEventError as exc:
        raise DirectorError(str(exc)) from None
    _check_variant(variant, options or {}, team_size)
    try:
        stored = store.append_club_record(name, rec, 1)
    except ClubLogConflict:
        raise DirectorError(f"an event {name!r} exists already", 409) from None
    return fold(name, [stored]) or load(store, name)


def add_player(store: Store, name: str, player: str, club: str | None = None, member: str | None = None) -> ClubEvent:
    """Register a player (a late entry once rounds are paired: with no points, paired from the next
    round; a round robin takes none once paired)."""
    ev = load(store, name)
    if ev.format == "round-robin" and ev.paired and not ev.teams:
        raise DirectorError("a round robin takes no late entry: its schedule is fixed from round 1", 409)
    rec: dict[str, Any] = {"type": "player_add", "name": player}
    if club:
        rec["club"] = club
    if member:
        rec["member"] = member
    _store(store, ev, rec)
    return load(store, name)


def add_team(store: Store, name: str, team: str, players: list[str]) -> ClubEvent:
    """Register a team of registered players (team events)."""
    ev = load(store, name)
    if ev.format == "round-robin" and ev.paired:
        raise DirectorError("a round robin takes no late entry: its schedule is fixed from round 1", 409)
    _store(store, ev, {"type": "team_add", "team": team, "players": list(players)})
    return load(store, name)


def withdraw(store: Store, name: str, entrant: str) -> ClubEvent:
    """Take an entrant out from the next round on (its results stay)."""
    ev = load(store, name)
    _store(store, ev, {"type": "withdraw", "entrant": entrant})
    return load(store, name)


def _slug(text: str) -> str:
    slug = re.sub(r"[^0-9a-z]+", "-", text.lower()).strip("-")
    return slug or "event"


def _match_id(store: Store, ev: ClubEvent, number: int, table: int, taken: set[str]) -> str:
    base = f"{_slug(ev.name)[:EVENT_NAME_LIMIT]}-r{number}-t{table}"
    mid, n = base, 1
    while mid in taken or store.has_match(mid):
        n += 1
        mid = f"{base}-{n}"
    taken.add(mid)
    return mid


def _match_start(ev: ClubEvent, number: int, table: Table, mid: str, at: str) -> dict[str, Any]:
    first = ev.entrants[table.first].players
    second = ev.entrants[table.second].players if table.second is not None else ()
    # seats: each side's players alternate (partners sit opposite: seats 1 and 3 against 2 and 4)
    players = [p for pair in zip(first, second, strict=True) for p in pair]
    meta = {"event": ev.name, "round": str(number), "table": str(table.table), "leads": first[0]}
    if ev.date:
        meta["date"] = ev.date
    start: dict[str, Any] = {
        "type": "match_start",
        "seq": 1,
        "at": at,
        "id": mid,
        "variant": ev.variant,
        "players": players,
        "meta": meta,
    }
    options = table_options(ev.variant, ev.options, ev.team_size)
    if options:
        start["options"] = options
    return start


def _swiss_entrants(store: Store, ev: ClubEvent) -> list[SwissEntrant]:
    results = event_results(store, ev)
    rows = standings_rows(ev, results)
    place = {r.id: r.place for r in rows}
    active = set(ev.active_entrants())
    opponents: dict[str, set[str]] = {e: set() for e in ev.entrants}
    byes: set[str] = set()
    leads: dict[str, list[bool]] = {e: [] for e in ev.entrants}
    for rnd in ev.paired:
        for t in rnd.tables:
            if t.second is None:
                byes.add(t.first)
                continue
            opponents[t.first].add(t.second)
            opponents[t.second].add(t.first)
            leads[t.first].append(True)
            leads[t.second].append(False)
    score = {r.id: r.match_points for r in rows}
    entered = {e: i for i, e in enumerate(ev.entrants)}  # (ties: the order they registered in)
    ordered = sorted(active, key=lambda e: (place.get(e, len(place) + 1), entered[e]))
    return [
        SwissEntrant(e, score.get(e, 0.0), i + 1, frozenset(opponents[e]), e in byes, tuple(leads[e]))
        for i, e in enumerate(ordered)
    ]


def _round_robin(ev: ClubEvent, number: int) -> list[Table]:
    order = [e.name for e in ev.entrants.values() if e.entered_after == 0]
    planned = len(order) - 1 if len(order) % 2 == 0 else len(order)
    if number > planned:
        raise DirectorError(f"the round robin of {len(order)} has {planned} rounds: every round is paired", 409)
    tables: list[Table] = []
    byes: list[str] = []
    for p in round_robin_round(order, number):
        sides = [s for s in (p.first, p.second) if s is not None and ev.entrants[s].active]
        if len(sides) == 2:
            tables.append(Table(len(tables) + 1, sides[0], sides[1], None))
        elif sides:
            byes.append(sides[0])
    return tables + [Table(len(tables) + 1 + i, b, None, None) for i, b in enumerate(byes)]


def planned_rounds(ev: ClubEvent) -> int:
    """How many rounds the event plays: the Swiss's number, or the round robin's schedule."""
    if ev.format == "round-robin":
        n = len([e for e in ev.entrants.values() if e.entered_after == 0])
        return max(n - 1 if n % 2 == 0 else n, 0)
    return ev.rounds


def pair_next_round(store: Store, name: str) -> Round:
    """Pair the next round and make its matches (each with the event's variant and options, its
    players seated, ``meta``: event, round, table, who leads first, date), one transaction with the
    pairing's record. Refused (409) while a match of the last round has no result, after the last
    round, or with fewer than two entrants."""
    ev = load(store, name)
    if ev.ended:
        raise DirectorError("the event has ended", 409)
    number = len(ev.paired) + 1
    if ev.paired:
        pending = round_complete(store, ev, ev.paired[-1])
        if pending:
            raise DirectorError(
                f"round {ev.paired[-1].number} is not complete ({', '.join(pending)}): "
                "wait for its matches, or end them by forfeit",
                409,
            )
    if number > planned_rounds(ev) and (ev.format == "round-robin" or ev.paired):
        raise DirectorError(f"every round of the event is paired ({planned_rounds(ev)})", 409)
    if len(ev.active_entrants()) < 2:
        raise DirectorError("at least two entrants are needed to pair a round", 409)
    if ev.format == "round-robin":
        tables = _round_robin(ev, number)
    else:
        try:
            pairs = swiss_round(_swiss_entrants(store, ev))
        except NoPairing as exc:
            raise DirectorError(str(exc), 409) from None
        tables = [Table(p.table, p.first, p.second, None) for p in pairs]
    at = _now()
    taken: set[str] = set()
    made = [
        Table(t.table, t.first, t.second, None if t.second is None else _match_id(store, ev, number, t.table, taken))
        for t in tables
    ]
    rec = {
        "type": "round_pair",
        "round": number,
        "tables": [{"table": t.table, "first": t.first, "second": t.second, "match": t.match} for t in made],
    }
    from dominolog.log.writer import dump_line

    with store.transaction():
        for t in made:
            if t.match is not None:
                line = dump_line(_match_start(ev, number, t, t.match, at)).encode()
                store.append(t.match, line, expected_seq=1)
        _store(store, ev, rec)
    return load(store, name).paired[-1]


def _close(store: Store, match_id: str, note: str) -> None:
    """Close a match as abandoned by the director (a note saying why, then ``match_end``)."""
    from dominolog.log.writer import dump_line

    at = _now()
    for event in ({"type": "note", "text": note, "at": at}, {"type": "match_end", "reason": "abandoned", "at": at}):
        store.append(match_id, dump_line(event).encode())


def undo_round(store: Store, name: str) -> Round:
    """Withdraw the last round's pairing before its first deal: its matches are closed as abandoned
    (a note says why) and the round can be paired again."""
    ev = load(store, name)
    rnd = ev.current_round
    if rnd is None:
        raise DirectorError("no round is paired", 409)
    started = [t.match for t in rnd.tables if t.match is not None and store.match_marks(t.match)["deals"] > 0]
    if started:
        raise DirectorError(f"round {rnd.number} has begun (match {started[0]} has a deal): it cannot be undone", 409)
    with store.transaction():
        for t in rnd.tables:
            if t.match is not None and store.match_marks(t.match)["end"] is None:
                _close(store, t.match, f"the pairing of round {rnd.number} was undone by the director")
        _store(store, ev, {"type": "round_undo", "round": rnd.number})
    return rnd


def forfeit(store: Store, name: str, match_id: str, winner: str | None, reason: str = "") -> ClubEvent:
    """End a match by the director: ``winner`` (an entrant of it) wins by forfeit, None: both lose.
    The match is closed as abandoned (if it is still open) and the forfeit stored."""
    ev = load(store, name)
    found = ev.table_of_match(match_id)
    if found is None:
        raise DirectorError(f"no match {match_id!r} in the event's rounds", 404)
    rec: dict[str, Any] = {"type": "forfeit", "match": match_id, "winner": winner}
    if reason:
        rec["reason"] = clean_name(reason, "a reason", 500)
    try:
        check_record(ev, rec)
    except ClubEventError as exc:
        raise DirectorError(str(exc)) from None
    said = f"won by {winner} by forfeit" if winner else "lost by both sides (double forfeit)"
    with store.transaction():
        if store.match_marks(match_id)["end"] is None:
            _close(store, match_id, f"ended by the director: {said}" + (f" ({reason})" if reason else ""))
        _store(store, ev, rec)
    return load(store, name)


def end_event(store: Store, name: str) -> ClubEvent:
    """Close the event: no more rounds (its matches still open stay as they are)."""
    ev = load(store, name)
    _store(store, ev, {"type": "event_end"})
    return load(store, name)


@dataclass(frozen=True, slots=True)
class TableState:
    """One table of a round, as the organiser's page and ``event round`` show it."""

    round: int
    table: int
    first: str
    second: str | None
    match: str | None
    players: list[str]
    leads: str
    #: not started | hand N | ended | disputed | not agreed | forfeit | abandoned | bye
    state: str
    words: str
    points: tuple[int, int] | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "first": self.first,
            "second": self.second,
            "match": self.match,
            "players": self.players,
            "leads": self.leads,
            "state": self.state,
            "words": self.words,
            "points": list(self.points) if self.points is not None else None,
        }


def table_states(store: Store, ev: ClubEvent, rnd: Round) -> list[TableState]:
    """Each table of the round: who, and how far its match is."""
    from dominolog.tournament.outcomes import match_states

    out = []
    for t, (state, words, points) in zip(rnd.tables, match_states(store, ev, rnd.tables), strict=True):
        first = ev.entrants[t.first].players
        second = ev.entrants[t.second].players if t.second is not None else ()
        players = [p for pair in zip(first, second, strict=True) for p in pair] if second else list(first)
        out.append(TableState(rnd.number, t.table, t.first, t.second, t.match, players, first[0], state, words, points))
    return out


def event_document(store: Store, ev: ClubEvent, round_no: int | None = None) -> dict[str, Any]:
    """The event as ``dominolog event show --json`` prints it: the log's state, each round's tables,
    and the standings after ``round_no`` (None: after every round)."""
    results = event_results(store, ev)
    rows = standings_rows(ev, results, round_no)
    return {
        "event": ev.as_dict(),
        "planned_rounds": planned_rounds(ev),
        "rounds": [{"round": r.number, "tables": [s.as_dict() for s in table_states(store, ev, r)]} for r in ev.paired],
        "standings": {"after_round": round_no, "rows": [standings_row_dict(r, ev) for r in rows]},
    }


def standings_row_dict(row: Any, ev: ClubEvent) -> dict[str, Any]:
    entrant = ev.entrants.get(row.id)
    return {
        "place": row.place,
        "entrant": row.id,
        "players": list(entrant.players) if entrant else [row.id],
        "withdrawn": bool(entrant and not entrant.active),
        "played": row.played,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "byes": row.byes,
        "forfeits": row.forfeits,
        "match_points": row.match_points,
        "points_for": row.points_for,
        "points_against": row.points_against,
        "difference": row.difference,
    }


def records_text(store: Store, name: str) -> list[str]:
    """The event's log as stored, one JSON line a record (``event log``)."""
    load(store, name)
    return [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in store.club_records(name)]
