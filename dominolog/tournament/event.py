"""A club event's log folded into its state: the roster, the teams, the rounds paired, the forfeits.

A club event (the ``meta.event`` its matches carry) keeps its own append-only log in the store
(:mod:`dominolog.store.clublog`), one record a line, each with ``type``, ``seq`` and ``at``:

- ``event_create``: ``format`` (``swiss`` or ``round-robin``), ``rounds``, ``variant``, ``options``,
  ``team_size`` (1: each player on their own; 2: teams of two, seats 1 and 3 against 2 and 4),
  ``date`` (optional, ISO), ``title`` (optional);
- ``player_add``: ``name`` (the name the matches use), ``club`` and ``member`` (optional);
- ``team_add``: ``team``, ``players`` (two registered players in no other team);
- ``withdraw``: ``entrant`` (a player, or a team in a team event): not paired from the next round;
- ``round_pair``: ``round``, ``tables``: ``[{"table", "first", "second", "match"}]`` (``second``
  null: ``first`` has the bye; ``first`` leads the match's first hand);
- ``round_undo``: ``round``: the round's pairing withdrawn before its first deal (its matches are
  closed as abandoned, and the round is paired again);
- ``forfeit``: ``match``, ``winner`` (an entrant, or null: both lose), ``reason`` (optional): the
  director ends the match;
- ``event_end``: the event is over (no more rounds).

:func:`fold` reads the records in order into a :class:`ClubEvent`; a record that does not fit
(written by hand, or by a tool that did not check) is left out and named in ``problems``, and the
rest is read, as the match reader does. :func:`check_record` is what a writer asks before storing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

FORMATS = ("swiss", "round-robin")
#: how long an event's name may be (its matches' ids are made from it: the format allows 100)
EVENT_NAME_LIMIT = 60
#: a player's name, as the format allows it
NAME_LIMIT = 40
#: a club's name or a member number
LABEL_LIMIT = 100
#: the most rounds an event may plan, and entrants it may hold
MAX_ROUNDS = 50
MAX_ENTRANTS = 1000
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class ClubEventError(ValueError):
    """A record that does not fit the event as it stands (the message says why, in words)."""


def clean_name(value: Any, what: str, limit: int = NAME_LIMIT) -> str:
    """A name as it will be stored: a string, stripped, 1 to ``limit`` characters, no control
    character, valid Unicode (NFC); :class:`ClubEventError` otherwise."""
    if not isinstance(value, str):
        raise ClubEventError(f"{what} must be text")
    text = unicodedata.normalize("NFC", value.strip())
    if not text:
        raise ClubEventError(f"{what} is empty")
    if len(text) > limit:
        raise ClubEventError(f"{what} is longer than {limit} characters")
    if _CONTROL.search(text):
        raise ClubEventError(f"{what} holds a control character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ClubEventError(f"{what} is not valid Unicode") from None
    return text


@dataclass(slots=True)
class Player:
    name: str
    club: str | None = None
    member: str | None = None


@dataclass(slots=True)
class Entrant:
    """Who is paired: a player, or a team of two in a team event."""

    name: str
    players: tuple[str, ...]
    #: the rounds already paired when it entered (0: from the start; a late entry: more)
    entered_after: int = 0
    #: the round after which it withdrew (None: still playing)
    withdrawn_after: int | None = None

    @property
    def active(self) -> bool:
        return self.withdrawn_after is None


@dataclass(frozen=True, slots=True)
class Table:
    table: int
    first: str
    second: str | None
    match: str | None

    @property
    def bye(self) -> bool:
        return self.second is None


@dataclass(slots=True)
class Round:
    number: int
    tables: list[Table]
    seq: int
    at: str


@dataclass(slots=True)
class ClubEvent:
    """An event's state after its records."""

    name: str
    format: str = "swiss"
    rounds: int = 1
    variant: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    team_size: int = 1
    date: str | None = None
    title: str | None = None
    created_at: str | None = None
    players: dict[str, Player] = field(default_factory=dict)
    entrants: dict[str, Entrant] = field(default_factory=dict)
    #: each player's team (team events)
    team_of: dict[str, str] = field(default_factory=dict)
    paired: list[Round] = field(default_factory=list)
    #: rounds paired and then undone, in the order they were undone
    undone: list[Round] = field(default_factory=list)
    #: the director's ends: match -> the entrant who wins by forfeit (None: both lose)
    forfeits: dict[str, str | None] = field(default_factory=dict)
    ended: bool = False
    #: the last record's seq
    seq: int = 0
    #: the records left out, each ``seq N: why``
    problems: list[str] = field(default_factory=list)

    @property
    def teams(self) -> bool:
        return self.team_size > 1

    @property
    def current_round(self) -> Round | None:
        return self.paired[-1] if self.paired else None

    def active_entrants(self) -> list[str]:
        """Who is paired next round, in the order they entered."""
        return [e.name for e in self.entrants.values() if e.active]

    def table_of_match(self, match_id: str) -> tuple[Round, Table] | None:
        for rnd in self.paired:
            for t in rnd.tables:
                if t.match == match_id:
                    return rnd, t
        return None

    def matches(self) -> list[str]:
        return [t.match for rnd in self.paired for t in rnd.tables if t.match is not None]

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "format": self.format,
            "rounds": self.rounds,
            "variant": self.variant,
            "options": self.options,
            "team_size": self.team_size,
            "date": self.date,
            "created_at": self.created_at,
            "ended": self.ended,
            "players": [
                {"name": p.name, "club": p.club, "member": p.member, "team": self.team_of.get(p.name)}
                for p in self.players.values()
            ],
            "entrants": [
                {
                    "name": e.name,
                    "players": list(e.players),
                    "entered_after": e.entered_after,
                    "withdrawn_after": e.withdrawn_after,
                }
                for e in self.entrants.values()
            ],
            "paired": [
                {
                    "round": r.number,
                    "at": r.at,
                    "tables": [
                        {"table": t.table, "first": t.first, "second": t.second, "match": t.match} for t in r.tables
                    ],
                }
                for r in self.paired
            ],
            "undone": [r.number for r in self.undone],
            "forfeits": [{"match": m, "winner": w} for m, w in self.forfeits.items()],
            "problems": list(self.problems),
        }


def _apply(ev: ClubEvent, rec: dict[str, Any]) -> None:
    """Fold one record into ``ev`` (which it changes only when the whole record fits)."""
    kind = rec.get("type")
    if kind == "event_create":
        raise ClubEventError("the event is made already")
    if ev.ended:
        raise ClubEventError("the event has ended")
    if kind == "player_add":
        name = clean_name(rec.get("name"), "a player's name")
        if name in ev.players:
            raise ClubEventError(f"{name} is registered already")
        if len(ev.players) >= MAX_ENTRANTS:
            raise ClubEventError(f"an event holds at most {MAX_ENTRANTS} players")
        club = rec.get("club")
        member = rec.get("member")
        club = None if club in (None, "") else clean_name(club, "a club", LABEL_LIMIT)
        member = None if member in (None, "") else clean_name(member, "a member number", LABEL_LIMIT)
        ev.players[name] = Player(name, club, member)
        if not ev.teams:
            ev.entrants[name] = Entrant(name, (name,), len(ev.paired))
    elif kind == "team_add":
        if not ev.teams:
            raise ClubEventError("this event pairs players, not teams")
        team = clean_name(rec.get("team"), "a team's name")
        if team in ev.entrants:
            raise ClubEventError(f"a team {team} is registered already")
        players = rec.get("players")
        if not isinstance(players, list) or len(players) != ev.team_size:
            raise ClubEventError(f"a team is {ev.team_size} registered players")
        names = [clean_name(p, "a player's name") for p in players]
        if len(set(names)) != len(names):
            raise ClubEventError("a team's players are two different players")
        for p in names:
            if p not in ev.players:
                raise ClubEventError(f"{p} is not registered")
            if p in ev.team_of:
                raise ClubEventError(f"{p} plays in team {ev.team_of[p]} already")
        ev.entrants[team] = Entrant(team, tuple(names), len(ev.paired))
        for p in names:
            ev.team_of[p] = team
    elif kind == "withdraw":
        name = rec.get("entrant")
        entrant = ev.entrants.get(name) if isinstance(name, str) else None
        if entrant is None:
            raise ClubEventError(f"no entrant {name!r} in the event")
        if not entrant.active:
            raise ClubEventError(f"{entrant.name} has withdrawn already")
        entrant.withdrawn_after = len(ev.paired)
    elif kind == "round_pair":
        _pair(ev, rec)
    elif kind == "round_undo":
        number = rec.get("round")
        if ev.current_round is None or number != ev.current_round.number:
            raise ClubEventError("only the last round paired can be undone")
        ev.undone.append(ev.paired.pop())
    elif kind == "forfeit":
        match = rec.get("match")
        found = ev.table_of_match(match) if isinstance(match, str) else None
        if found is None:
            raise ClubEventError(f"no match {match!r} in the event's rounds")
        _, table = found
        winner = rec.get("winner")
        if winner is not None and winner not in (table.first, table.second):
            raise ClubEventError(f"{winner!r} does not play match {match}")
        if match in ev.forfeits:
            raise ClubEventError(f"match {match} was ended already")
        ev.forfeits[match] = winner
    elif kind == "event_end":
        ev.ended = True
    else:
        raise ClubEventError(f"no record type {kind!r}")


def _pair(ev: ClubEvent, rec: dict[str, Any]) -> None:
    number = rec.get("round")
    if number != len(ev.paired) + 1:
        raise ClubEventError(f"the next round is {len(ev.paired) + 1}, not {number!r}")
    raw = rec.get("tables")
    if not isinstance(raw, list) or not raw:
        raise ClubEventError("a round's pairing lists its tables")
    seen: set[str] = set()
    tables: list[Table] = []
    for t in raw:
        if not isinstance(t, dict):
            raise ClubEventError("a table is an object")
        first, second, match, number_t = t.get("first"), t.get("second"), t.get("match"), t.get("table")
        for who in (first, second) if second is not None else (first,):
            if not isinstance(who, str) or who not in ev.entrants:
                raise ClubEventError(f"{who!r} is not an entrant")
            if not ev.entrants[who].active:
                raise ClubEventError(f"{who} has withdrawn")
            if who in seen:
                raise ClubEventError(f"{who} is paired twice in round {number}")
            seen.add(who)
        if not isinstance(number_t, int) or isinstance(number_t, bool) or number_t < 1:
            raise ClubEventError("a table's number is a whole number from 1")
        if (second is None) != (match is None):
            raise ClubEventError("a table plays a match, a bye none")
        tables.append(Table(number_t, first, second, match))
    ev.paired.append(Round(number, tables, int(rec.get("seq") or 0), str(rec.get("at") or "")))


def table_options(variant: str, options: dict[str, Any], team_size: int) -> dict[str, Any]:
    """The options of an event's matches: the event's, with ``partners`` on in a team event whose
    variant plays partnerships (Double Draw: a team of two sits in seats 1 and 3, or 2 and 4). A
    variant without partnerships (Double Bergen) scores each player: a team's points are then the
    sum of its two players' (:mod:`dominolog.tournament.outcomes`)."""
    from dominolog.variants import VariantError, find_variant

    out = dict(options)
    try:
        specs = find_variant(variant).option_specs
    except VariantError:
        return out
    if team_size == 2 and "partners" in specs:
        out.setdefault("partners", True)
    return out


def new_event(rec: dict[str, Any]) -> ClubEvent:
    """The event an ``event_create`` record makes (:class:`ClubEventError` if it does not fit)."""
    if rec.get("type") != "event_create":
        raise ClubEventError("an event's log begins with event_create")
    name = clean_name(rec.get("name"), "an event's name", EVENT_NAME_LIMIT)
    fmt = rec.get("format")
    if fmt not in FORMATS:
        raise ClubEventError(f"the format is one of {', '.join(FORMATS)}")
    rounds = rec.get("rounds")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise ClubEventError(f"the rounds are 1 to {MAX_ROUNDS}")
    team_size = rec.get("team_size", 1)
    if team_size not in (1, 2):
        raise ClubEventError("a side is 1 player, or a team of 2")
    options = rec.get("options") or {}
    if not isinstance(options, dict):
        raise ClubEventError("the options are an object")
    variant = rec.get("variant")
    if not isinstance(variant, str) or not variant:
        raise ClubEventError("the event names its variant")
    date = rec.get("date")
    title = rec.get("title")
    return ClubEvent(
        name=name,
        format=fmt,
        rounds=rounds,
        variant=variant,
        options=dict(options),
        team_size=team_size,
        date=date if isinstance(date, str) and date else None,
        title=title if isinstance(title, str) and title else None,
        created_at=rec.get("at") if isinstance(rec.get("at"), str) else None,
        seq=int(rec.get("seq") or 1),
    )


def fold(name: str, records: list[dict[str, Any]]) -> ClubEvent | None:
    """The event after its records (None: no valid ``event_create`` first); records that do not fit
    are left out and named in ``problems``."""
    if not records:
        return None
    try:
        ev = new_event(records[0])
    except ClubEventError:
        return None
    for rec in records[1:]:
        seq = rec.get("seq")
        try:
            _apply(ev, rec)
        except ClubEventError as exc:
            ev.problems.append(f"record {seq}: {exc}")
        if isinstance(seq, int):
            ev.seq = seq
    return ev


def check_record(ev: ClubEvent, rec: dict[str, Any]) -> None:
    """Raise :class:`ClubEventError` when ``rec`` does not fit the event as it stands (the event is
    left as it was)."""
    import copy

    _apply(copy.deepcopy(ev), rec)
