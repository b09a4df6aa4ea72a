"""The JSON Schemas of a club event: one record of its log (``dominolog event log``, one a line) and the
document of ``dominolog event show --json`` (written to ``schemas/``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from dominolog.docschema import document_schema
from dominolog.tournament.event import EVENT_NAME_LIMIT, FORMATS, LABEL_LIMIT, MAX_ROUNDS, NAME_LIMIT

#: an entrant's (a player's or a team's) name
Name = Annotated[str, Field(min_length=1, max_length=NAME_LIMIT)]
#: a round's number
Round = Annotated[int, Field(ge=1)]


class Record(BaseModel):
    # what every record of the log has (its ``type`` each kind's own)
    type: str
    seq: int = Field(ge=1, description="The record's place in its event's log, from 1.")
    at: str = Field(description="When it was stored (RFC 3339, UTC).")


class EventCreate(Record):
    """Makes the event; always the first record."""

    type: Literal["event_create"]
    name: str = Field(min_length=1, max_length=EVENT_NAME_LIMIT)
    format: str = Field(json_schema_extra={"enum": list(FORMATS)})  # (one of tournament.event.FORMATS)
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    variant: str
    options: dict[str, Any] = Field({}, description="The options of every match (match_start.options).")
    team_size: Literal[1, 2] = Field(1, description="1: players; 2: teams of two.")
    date: str = Field("", description="YYYY-MM-DD.")
    title: str = ""


class PlayerAdd(Record):
    """Registers a player (a late entry once rounds are paired)."""

    type: Literal["player_add"]
    name: Name
    club: str = Field("", max_length=LABEL_LIMIT)
    member: str = Field("", max_length=LABEL_LIMIT)


class TeamAdd(Record):
    """Registers a team of registered players (team events)."""

    type: Literal["team_add"]
    team: Name
    players: list[Name] = Field(min_length=2, max_length=2)


class Withdraw(Record):
    """Not paired from the next round on."""

    type: Literal["withdraw"]
    entrant: Name


class PairedTable(BaseModel):
    # a table of a round's pairing
    table: int = Field(ge=1)
    first: Name = Field(description="The entrant who leads the match's first hand.")
    second: Name | None = Field(description="null: `first` has the bye.")
    match: str | None = Field(description="The match made for the table (null: a bye).")


class RoundPair(Record):
    """A round's pairing, with the matches made for it."""

    type: Literal["round_pair"]
    round: Round
    tables: list[PairedTable] = Field(min_length=1)


class RoundUndo(Record):
    """The last round's pairing withdrawn before its first deal."""

    type: Literal["round_undo"]
    round: Round


class Forfeit(Record):
    """The director ends a match: `winner` wins by forfeit; null: both lose."""

    type: Literal["forfeit"]
    match: str
    winner: Name | None
    reason: str = ""


class EventEnd(Record):
    """No more rounds."""

    type: Literal["event_end"]


#: one record of the log, chosen by its ``type``
AnyRecord = Annotated[
    EventCreate | PlayerAdd | TeamAdd | Withdraw | RoundPair | RoundUndo | Forfeit | EventEnd,
    Field(discriminator="type"),
]


def record_schema(base_uri: str) -> dict[str, Any]:
    """One record of a club event's log, from its models."""
    return document_schema(
        TypeAdapter(AnyRecord),
        f"{base_uri}club-record.schema.json",
        "dominolog club event record",
        "One record of a club event's log (`dominolog event log`, one a line), chosen by `type`.",
    )


#: the states of a round's table
TableState = Literal[
    "bye", "not started", "playing", "ended", "disputed", "not agreed", "forfeit", "abandoned", "missing"
]


class StandingRow(BaseModel):
    # an entrant's row of the standings
    place: int = Field(ge=1, description="Equal entrants share a place.")
    entrant: str
    players: list[str]
    withdrawn: bool
    played: int = Field(ge=0)
    wins: int = Field(ge=0)
    draws: int = Field(ge=0)
    losses: int = Field(ge=0)
    byes: int = Field(ge=0)
    forfeits: int = Field(0, ge=0, description="Forfeits lost.")
    match_points: float = Field(0, description="A win 1, a draw 0.5, a bye or a forfeit won 1.")
    points_for: int = 0
    points_against: int = 0
    difference: int = Field(0, description="Points for minus points against.")


class RoundTable(BaseModel):
    # a table of a round, and how its match stands
    round: int
    table: int
    first: str
    second: str | None
    match: str | None
    players: list[str] = Field(description="In seat order.")
    leads: str = Field(description="Who leads the first hand.")
    state: TableState
    words: str
    points: list[int] | None


class EventRound(BaseModel):
    round: int
    tables: list[RoundTable]


class EventStandings(BaseModel):
    after_round: int | None
    rows: list[StandingRow]


class EventShown(BaseModel):
    """A club event: its log's state, each round's tables and their state, the standings."""

    event: dict[str, Any] = Field(
        json_schema_extra={"required": ["name", "format", "rounds", "variant", "entrants", "paired"]}
    )
    planned_rounds: int = Field(ge=0)
    rounds: list[EventRound]
    standings: EventStandings


def event_schema(base_uri: str) -> dict[str, Any]:
    """The document of ``dominolog event show --json`` (and ``GET /api/events/NAME``), from its model."""
    return document_schema(EventShown, f"{base_uri}club-event.schema.json", "dominolog event show --json")
