"""The JSON Schemas of a club event: one record of its log (``dominolog event log``, one a line) and the
document of ``dominolog event show --json`` (written to ``schemas/``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from dominolog.docschema import document_schema
from dominolog.tournament.event import EVENT_NAME_LIMIT, FORMATS, LABEL_LIMIT, MAX_ROUNDS, NAME_LIMIT

_NAME = {"type": "string", "minLength": 1, "maxLength": NAME_LIMIT}
_COMMON = {
    "seq": {"type": "integer", "minimum": 1, "description": "The record's place in its event's log, from 1."},
    "at": {"type": "string", "description": "When it was stored (RFC 3339, UTC)."},
}


def _record(kind: str, description: str, fields: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "required": ["type", "seq", "at", *required],
        "properties": {"type": {"const": kind}, **_COMMON, **fields},
    }


def record_schema(base_uri: str) -> dict[str, Any]:
    """One record of a club event's log."""
    table = {
        "type": "object",
        "required": ["table", "first", "second", "match"],
        "properties": {
            "table": {"type": "integer", "minimum": 1},
            "first": {**_NAME, "description": "The entrant who leads the match's first hand."},
            "second": {"anyOf": [_NAME, {"type": "null"}], "description": "null: `first` has the bye."},
            "match": {"type": ["string", "null"], "description": "The match made for the table (null: a bye)."},
        },
    }
    kinds = [
        _record(
            "event_create",
            "Makes the event; always the first record.",
            {
                "name": {"type": "string", "minLength": 1, "maxLength": EVENT_NAME_LIMIT},
                "format": {"enum": list(FORMATS)},
                "rounds": {"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS},
                "variant": {"type": "string"},
                "options": {"type": "object", "description": "The options of every match (match_start.options)."},
                "team_size": {"enum": [1, 2], "description": "1: players; 2: teams of two."},
                "date": {"type": "string", "description": "YYYY-MM-DD."},
                "title": {"type": "string"},
            },
            ["name", "format", "rounds", "variant"],
        ),
        _record(
            "player_add",
            "Registers a player (a late entry once rounds are paired).",
            {
                "name": _NAME,
                "club": {"type": "string", "maxLength": LABEL_LIMIT},
                "member": {"type": "string", "maxLength": LABEL_LIMIT},
            },
            ["name"],
        ),
        _record(
            "team_add",
            "Registers a team of registered players (team events).",
            {"team": _NAME, "players": {"type": "array", "items": _NAME, "minItems": 2, "maxItems": 2}},
            ["team", "players"],
        ),
        _record("withdraw", "Not paired from the next round on.", {"entrant": _NAME}, ["entrant"]),
        _record(
            "round_pair",
            "A round's pairing, with the matches made for it.",
            {"round": {"type": "integer", "minimum": 1}, "tables": {"type": "array", "items": table, "minItems": 1}},
            ["round", "tables"],
        ),
        _record(
            "round_undo",
            "The last round's pairing withdrawn before its first deal.",
            {"round": {"type": "integer", "minimum": 1}},
            ["round"],
        ),
        _record(
            "forfeit",
            "The director ends a match: `winner` wins by forfeit; null: both lose.",
            {"match": {"type": "string"}, "winner": {"anyOf": [_NAME, {"type": "null"}]}, "reason": {"type": "string"}},
            ["match", "winner"],
        ),
        _record("event_end", "No more rounds.", {}, []),
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{base_uri}club-record.schema.json",
        "title": "dominolog club event record",
        "description": "One record of a club event's log (`dominolog event log`, one a line), chosen by `type`.",
        "oneOf": kinds,
    }


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
