"""The JSON Schema of ``dominolog standings --format json`` (written to ``schemas/standings.schema.json``),
generated from its typed document model (:mod:`dominolog.docschema`)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dominolog.docschema import Count, Omitted, document_schema, null_in_type
from dominolog.knowledge.evidence_doc import EvidenceDoc

#: what every object of the document forbids: properties it does not name
_CLOSED = ConfigDict(extra="forbid")


class Analysis(BaseModel):
    # standings --loss: how many counted matches are analysed
    model_config = _CLOSED

    counted: Count
    analysed: Count = Field(description="Counted matches the store keeps an analysis of.")
    partial: Count = Field(description="Of those, analysed in part only (some hands or decisions).")


class Luck(BaseModel):
    model_config = _CLOSED

    matches: Count = Field(description="Analysed matches with a luck figure.")
    luck: float = Field(
        description="Sum of the luck: each deal's value less its mean over random deals (Ghost 13: exact; the "
        "hidden games: sampled), and each draw's for the drawer less its mean over the tiles that could have "
        "been drawn."
    )
    adjusted: float = Field(description="The points (theirs minus the others') less the luck.")
    margin: float | None = Field(
        description="The 95% margin of the sampled part of the luck (the root of the matches' margins squared); "
        "null: none of it sampled."
    )


class Loss(BaseModel):
    model_config = _CLOSED

    matches: Count = Field(description="Analysed counted matches the player played.")
    decisions: Count
    choices: Count = Field(description="Decisions whose options are not all worth the same.")
    points_lost: float = Field(ge=0, description="Over the choices: best minus played.")
    per_choice: float | None
    best_move_rate: float | None = Field(description="Percent of choices where a best move was played.")
    accuracy: float | None = Field(
        description="100 x mean over choices of (1 - loss / max(1, best - worst)); null: no choice."
    )
    unforced: Count = Field(description="Decisions with more than one legal option.")
    error_rate: float | None = Field(description="Mean points lost per non-forced decision.")
    play_rating: float | None = Field(description="Points lost per 100 non-forced decisions; 0 is perfect.")
    luck: Luck = Field(
        description="Luck and the luck-adjusted result over the analysed hands (dominolog/analysis/luck.py, "
        "luck_hidden.py)."
    )


class EventName(BaseModel):
    event: str


class EventEvidence(EvidenceDoc, EventName):
    # (the evidence over the matches of one event: its name first, then the evidence)
    __doc__ = EvidenceDoc.__doc__


class FairPlay(BaseModel):
    model_config = _CLOSED

    matches: Count = Field(description="Matches weighed (every match of the table the player played).")
    season: EvidenceDoc = Field(description="Over every match of the table (the season, as filtered).")
    events: list[EventEvidence] = Field(description='By the matches\' meta.event ("" when none is given).')


class Record(BaseModel):
    model_config = _CLOSED

    played: Count
    won: Count
    lost: Count
    drawn: Count
    abandoned: Count
    invalid: Count
    in_progress: Count


class HandsTally(BaseModel):
    model_config = _CLOSED

    played: Count
    won_domino: Count
    won_block: Count
    won_other: Count


class Points(BaseModel):
    model_config = _CLOSED

    for_: int = Field(alias="for")
    against: int
    for_per_hand: float | None
    against_per_hand: float | None


# a player's and a partnership's tally, said alike
RecordTally = Annotated[
    Record,
    Field(
        description="played = won + lost + drawn (complete, no winner) + abandoned (a match_end saying abandoned): "
        "the counted matches. in_progress: matches with no match_end yet, counted in no other figure. invalid: "
        "matches with violations; counted in played only with --include-invalid."
    ),
]
HandsTallied = Annotated[
    HandsTally,
    Field(
        description="Hands played to an end (abandoned hands left out), and those the side won: by domino, by a "
        "block (ended block or stock-out), by another end."
    ),
]
PointsTally = Annotated[
    Points,
    Field(
        description="for: the player's own points (a partnership's: the side's) over every hand of the counted "
        "matches; against: in those hands, each opposing side's points added up. Penalty points where the "
        "variant's higher_wins is false. Per hand: divided by hands.played (null when none)."
    ),
]


class Rating(BaseModel):
    model_config = _CLOSED

    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: what players are ordered by.")
    matches: Count


class Rated(BaseModel):
    model_config = _CLOSED

    match_id: str
    date: str | None
    mu: float
    sigma: float
    ordinal: float


class Play(BaseModel):
    model_config = _CLOSED

    hands: Count
    block_hands: Count
    block_pips: Count
    block_pips_average: float | None
    passes: Count
    draws: Count
    passes_per_hand: float | None
    draws_per_hand: float | None
    timed_moves: Count
    move_seconds: float = Field(ge=0)
    seconds_per_move: float | None
    reneges: Count = Field(description="Certain reneges, in every match played (invalid ones too).")
    possible_reneges: Count = Field(
        description="Reneges hidden tiles leave open, in every match played (invalid ones too)."
    )


class Player(BaseModel):
    model_config = _CLOSED

    name: str
    place: int | None = Field(ge=1, description="By the ordinal; null: not rated.", json_schema_extra=null_in_type)
    rating: (
        Annotated[
            Rating, Field(description="The OpenSkill (Plackett-Luce) rating after the rated matches of this variant.")
        ]
        | Annotated[None, Field(description="No rated match (only abandoned or uncounted ones).")]
    )
    record: RecordTally
    hands: HandsTallied
    points: PointsTally
    play: Play = Field(description="How the player played over the counted matches (reneges: over every match).")
    history: list[Annotated[Rated, Field(description="The rating just after one rated match.")]]
    loss: Loss | Omitted = Field(
        None,
        description="standings --loss: the player's points lost over the counted matches the store keeps an "
        "analysis of.",
    )
    fairplay: FairPlay | Omitted = Field(
        None,
        description="standings --fairplay: the player's evidence of reneging (docs/audit.md, Evidence of reneging): "
        "not a finding.",
    )


class Partnership(BaseModel):
    model_config = _CLOSED

    name: str
    players: list[str] = Field(min_length=2)
    record: RecordTally
    hands: HandsTallied
    points: PointsTally


class Match(BaseModel):
    model_config = _CLOSED

    id: str
    date: str | None
    status: Literal["complete", "abandoned", "in_progress", "invalid"]
    counted: bool
    rated: bool
    analysed: bool | Omitted = Field(None, description="standings --loss: counted and analysed.")


class Counts(BaseModel):
    model_config = _CLOSED

    matches: Count
    counted: Count
    invalid: Count
    in_progress: Count
    rated: Count


class VariantStandings(BaseModel):
    model_config = _CLOSED

    variant: str = Field(description="The variant's name; 'unknown' where it could not be read.")
    title: str
    higher_wins: bool = Field(description="False: points are penalties, the lowest total wins.")
    counts: Counts
    players: list[Player]
    partnerships: list[Partnership]
    matches: list[Match]
    analysis: Analysis | Omitted = Field(
        None, description="standings --loss: how many of the variant's counted matches are analysed."
    )


class Filters(BaseModel):
    model_config = _CLOSED

    variant: str | None
    meta: dict[str, str]
    since: date | None = Field(json_schema_extra=null_in_type)
    until: date | None = Field(json_schema_extra=null_in_type)
    include_invalid: bool


class MatchesRead(BaseModel):
    model_config = _CLOSED

    read: Count
    selected: Count


class StandingsDocument(BaseModel):
    """Each player's and partnership's record, hands, points, play and rating, one group per variant, as
    `dominolog standings --format json` prints them."""

    model_config = _CLOSED

    generator: str
    filters: Filters
    matches: MatchesRead
    variants: list[Annotated[VariantStandings, Field(description="The standings of one variant: one rating pool.")]]
    legend: list[str]
    analysis: Analysis | Omitted = Field(
        None, description="standings --loss: how many of the counted matches are analysed."
    )


def standings_schema(base_uri: str) -> dict[str, Any]:
    return document_schema(StandingsDocument, f"{base_uri}standings.schema.json", "dominolog standings --format json")
