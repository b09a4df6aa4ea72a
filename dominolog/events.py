"""The events of the dominolog log format (``FORMAT.md``) as pydantic v2 models.

Every event type of every variant is here, as one discriminated union on
``type`` (:data:`Event`). The models validate the *shape* of an event; whether
it is allowed by the rules at that point of the match is the reducer's job.
Tiles stay strings here (``"3-5"``), so that a parsed event dumps back to what
was written; :mod:`dominolog.tiles` turns them into :class:`~dominolog.tiles.Tile`.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

VARIANT_NAMES: Final = ("ghost13", "brettspielnetz", "39", "double-bergen", "double-draw")

TileStr = Annotated[
    str,
    StringConstraints(pattern=r"^[0-6]-[0-6]$"),
    Field(description="A tile of the double-six set, `a-b` with digits 0-6; `b-a` is the same tile."),
]
PlayerName = Annotated[str, StringConstraints(min_length=1), Field(description="A name from `match_start.players`.")]
Timestamp = Annotated[
    str,
    StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"),
    Field(description="RFC 3339 date-time, e.g. `2026-11-21T19:04:11Z`."),
]
HashHex = Annotated[
    str,
    StringConstraints(pattern=r"^[0-9a-f]{64}$"),
    Field(description="sha256(previous hash + canonical event) as lowercase hex; see FORMAT.md."),
]
End = Annotated[
    str,
    StringConstraints(pattern=r"^(left|right|[0-6]-[0-6](:[NESW])?)$"),
    Field(
        description="Where the tile goes: `left`/`right` in line games; `<tile>:<dir>` (N, E, S, W) "
        "or `<tile>` for a singlet's open end in spinner games."
    ),
]
Winner = Annotated[
    PlayerName | list[PlayerName] | None,
    Field(description="A player, `null` for none, or a partnership's two players in seat order."),
]


class _Event(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    seq: (
        Annotated[int, Field(ge=1, description="Position in the match, 1-based; if present it must be right.")] | None
    ) = None
    at: Timestamp | None = None
    hash: HashHex | None = None


class MatchStart(_Event):
    """Begins a match."""

    type: Literal["match_start"]
    variant: Literal["ghost13", "brettspielnetz", "39", "double-bergen", "double-draw"]
    players: Annotated[list[PlayerName], Field(min_length=2, max_length=4)]
    options: dict[str, Any] | None = None
    id: Annotated[str, StringConstraints(min_length=1)] | None = None
    meta: dict[str, str] | None = None

    @field_validator("players")
    @classmethod
    def _distinct(cls, players: list[str]) -> list[str]:
        if len(set(players)) != len(players):
            raise ValueError("player names must be distinct")
        return players


class Deal(_Event):
    """Begins a hand. ``hands`` may be ``null`` (nothing seen) or map some players to ``null``."""

    type: Literal["deal"]
    leader: PlayerName
    dealer: PlayerName | None = None
    hands: dict[str, list[TileStr] | None] | None = None
    start_tile: TileStr | None = None
    chooser: PlayerName | None = None


class Play(_Event):
    """One tile placed (``tile``, ``end``), or a double-draw pair (``tiles: [left, right]``)."""

    type: Literal["play"]
    player: PlayerName
    tile: TileStr | None = None
    end: End | None = None
    tiles: Annotated[list[TileStr], Field(min_length=2, max_length=2)] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Play:
        if (self.tile is None) == (self.tiles is None):
            raise ValueError("a play has either `tile` or `tiles` (a double-draw pair), not both or neither")
        if self.tiles is not None and self.end is not None:
            raise ValueError("a pair play (`tiles`) takes no `end`: the first tile goes left, the second right")
        return self


class Draw(_Event):
    """One tile taken from the boneyard; ``tile`` is ``null`` when the recorder did not see it."""

    type: Literal["draw"]
    player: PlayerName
    tile: TileStr | None = None


class Pass(_Event):
    """No play."""

    type: Literal["pass"]
    player: PlayerName


class Declare(_Event):
    """39: the preferred suit chosen after a match."""

    type: Literal["declare"]
    player: PlayerName
    suit: Literal["even", "odd"]


class BlockCall(_Event):
    """double-draw: a player calls "blocked game"."""

    type: Literal["block_call"]
    player: PlayerName


class Reveal(_Event):
    """The tiles left in a player's hand at the end of the hand."""

    type: Literal["reveal"]
    player: PlayerName
    tiles: list[TileStr]


class HandEnd(_Event):
    """Closes the hand; ``points`` and ``winner`` are what the table claims."""

    type: Literal["hand_end"]
    points: dict[str, int] | None = None
    winner: Winner = None


class MatchEnd(_Event):
    """Closes the match; early only with ``reason: abandoned``."""

    type: Literal["match_end"]
    totals: dict[str, int] | None = None
    winner: Winner = None
    reason: Literal["abandoned"] | None = None


class Note(_Event):
    """A free comment; changes nothing."""

    type: Literal["note"]
    text: str
    player: PlayerName | None = None


class Undo(_Event):
    """Retracts the latest play, draw, pass, declare, block_call or reveal not yet retracted in the hand."""

    type: Literal["undo"]
    reason: str | None = None


EVENT_MODELS: Final[tuple[type[_Event], ...]] = (
    MatchStart,
    Deal,
    Play,
    Draw,
    Pass,
    Declare,
    BlockCall,
    Reveal,
    HandEnd,
    MatchEnd,
    Note,
    Undo,
)

Event = Annotated[
    MatchStart | Deal | Play | Draw | Pass | Declare | BlockCall | Reveal | HandEnd | MatchEnd | Note | Undo,
    Field(discriminator="type"),
]
EVENT_ADAPTER: Final[TypeAdapter[Event]] = TypeAdapter(Event)
EVENT_TYPES: Final[frozenset[str]] = frozenset(m.model_fields["type"].annotation.__args__[0] for m in EVENT_MODELS)  # type: ignore[union-attr]

#: Event types that ``undo`` can retract.
UNDOABLE: Final[frozenset[str]] = frozenset({"play", "draw", "pass", "declare", "block_call", "reveal"})


def parse_event(obj: Any) -> Event:
    """Validate one decoded JSON object as an event (raises :class:`EventError`)."""
    try:
        return EVENT_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        raise EventError(describe_validation_error(obj, exc)) from None


class EventError(ValueError):
    """An object that is not an event of the format; the message says why, for a person."""


def describe_validation_error(obj: Any, exc: ValidationError) -> str:
    if not isinstance(obj, dict):
        return f"an event is a JSON object, got {type(obj).__name__}"
    kind = obj.get("type")
    if "type" not in obj:
        return "event has no `type`"
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        return f"unknown event type {kind!r}"
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"][1:] if p != kind) or "event"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        elif err["type"] == "string_pattern_mismatch":
            val = err.get("input")
            if any(str(p) in ("tile", "tiles", "start_tile", "hands") for p in err["loc"]):
                msg = f"{val!r} is not a tile of the double-six set (a-b, digits 0-6)"
            else:
                msg = f"bad value {val!r}"
        elif err["type"] == "missing":
            msg = "missing"
        parts.append(f"{loc}: {msg}")
    return f"{kind}: " + "; ".join(parts)
