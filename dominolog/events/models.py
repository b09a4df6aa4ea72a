"""The events of the dominolog log format (``FORMAT.md``) as pydantic v2 models: the reference.

Every event type of every variant is here, as one discriminated union on ``type``
(:data:`ModelEvent`). The models validate the *shape* of an event; whether it is allowed by the
rules at that point of the match is the reducer's job. They are the format's JSON Schema
(``dominolog schema``) and the judge of every object the hand-written checks of
:mod:`dominolog.events.checks` are not sure of: :func:`validate` accepts it (as the plain event of
:mod:`dominolog.events.kinds`) or says what is wrong with it, for a person. Importing this module
builds the validators (about 150 ms with pydantic itself), so nothing imports it until it is needed.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError, core_schema

from dominolog.events.kinds import EVENT_CLASSES, EVENT_TYPES, VARIANT_NAMES, Event
from dominolog.textsafe import cut

TileStr = Annotated[
    str,
    StringConstraints(pattern=r"^[0-6]-[0-6]$"),
    Field(description="A tile of the double-six set, `a-b` with digits 0-6; `b-a` is the same tile."),
]
#: FORMAT.md, Limits: names and ids hold no control characters (C0, DEL, C1)
NO_CONTROLS = r"^[^\x00-\x1f\x7f-\x9f]+$"
PlayerName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=40, pattern=NO_CONTROLS),
    Field(description="A name from `match_start.players` (1-40 characters, no control characters)."),
]
MatchId = Annotated[
    str,
    StringConstraints(min_length=1, max_length=100, pattern=NO_CONTROLS),
    Field(description="The match's id (1-100 characters, no control characters)."),
]
MetaKey = Annotated[str, StringConstraints(max_length=40)]
MetaValue = Annotated[str, StringConstraints(max_length=500)]
#: a note's text, an undo's reason
FreeText = Annotated[str, StringConstraints(max_length=2000)]
#: an object keyed by player: at most 4 (FORMAT.md: 2 to 4 players)
ByPlayer = Field(max_length=4)
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


def _variant_name(value: Any) -> str:
    """``value`` if it is a registered variant's name (:data:`~dominolog.events.kinds.VARIANT_NAMES`)."""
    if isinstance(value, str) and value in VARIANT_NAMES:
        return value
    names = [repr(n) for n in VARIANT_NAMES]
    expected = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names) or "a variant's name"
    raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})


class VariantName:
    """A registered variant's name: judged, and listed in the JSON Schema, from the registry's names
    as they are when asked (a variant registered after this module was imported included)."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(_variant_name)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return {"enum": list(VARIANT_NAMES), "type": "string"}


class MatchStart(_Event):
    """Begins a match."""

    type: Literal["match_start"]
    variant: Annotated[str, VariantName]
    players: Annotated[list[PlayerName], Field(min_length=2, max_length=4)]
    options: dict[str, Any] | None = None
    id: MatchId | None = None
    meta: Annotated[dict[MetaKey, MetaValue], Field(max_length=50)] | None = None

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
    hands: Annotated[dict[PlayerName, list[TileStr] | None], ByPlayer] | None = None
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
    points: Annotated[dict[PlayerName, int], ByPlayer] | None = None
    winner: Winner = None


class MatchEnd(_Event):
    """Closes the match; early only with ``reason: abandoned``."""

    type: Literal["match_end"]
    totals: Annotated[dict[PlayerName, int], ByPlayer] | None = None
    winner: Winner = None
    reason: Literal["abandoned"] | None = None


class Note(_Event):
    """A free comment; changes nothing."""

    type: Literal["note"]
    text: FreeText
    player: PlayerName | None = None


class Undo(_Event):
    """Retracts the latest play, draw, pass, declare, block_call or reveal not yet retracted in the hand."""

    type: Literal["undo"]
    reason: FreeText | None = None


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

ModelEvent = Annotated[
    MatchStart | Deal | Play | Draw | Pass | Declare | BlockCall | Reveal | HandEnd | MatchEnd | Note | Undo,
    Field(discriminator="type"),
]
EVENT_ADAPTER: Final[TypeAdapter[ModelEvent]] = TypeAdapter(ModelEvent)
_validate = EVENT_ADAPTER.validate_python


def validate(obj: Any) -> tuple[Event, None] | tuple[None, str]:
    """``(event, None)`` if the models accept ``obj``, else ``(None, why not)``."""
    try:
        model = _validate(obj)
    except ValidationError as exc:
        return None, describe_validation_error(obj, exc)
    return to_event(model), None


def to_event(model: _Event) -> Event:
    """The plain event (:mod:`dominolog.events.kinds`) of a validated model."""
    kind = model.type  # type: ignore[attr-defined]
    values = {name: getattr(model, name) for name in type(model).model_fields if name != "type"}
    return EVENT_CLASSES[kind](**values, given=frozenset(model.model_fields_set))  # type: ignore[call-arg, return-value]


def describe_validation_error(obj: Any, exc: ValidationError) -> str:
    if not isinstance(obj, dict):
        return f"an event is a JSON object, got {type(obj).__name__}"
    kind = obj.get("type")
    if "type" not in obj:
        return "event has no `type`"
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        return f"unknown event type {_quote(kind)}"
    parts = []
    for err in exc.errors(include_url=False)[:_MAX_ERRORS]:
        loc = cut(".".join(str(p) for p in err["loc"][1:] if p != kind) or "event", 80)
        msg = err["msg"]
        val = err.get("input")
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        elif err["type"] == "string_pattern_mismatch":
            if any(str(p) in ("tile", "tiles", "start_tile") for p in err["loc"]) or (
                "hands" in err["loc"] and err["loc"][-1] != "[key]"
            ):
                msg = f"{_quote(val)} is not a tile of the double-six set (a-b, digits 0-6)"
            elif err.get("ctx", {}).get("pattern") == NO_CONTROLS:
                msg = f"{_quote(val)} holds a control character"
            else:
                msg = f"bad value {_quote(val)}"
        elif err["type"] == "missing":
            msg = "missing"
        elif err["type"] == "string_too_long":
            msg = f"{len(val):,} characters, at most {err['ctx']['max_length']:,} allowed"
        elif err["type"] == "too_long":
            n = len(val) if hasattr(val, "__len__") else err["ctx"].get("actual_length")
            msg = f"{n:,} entries, at most {err['ctx']['max_length']:,} allowed"
        parts.append(f"{loc}: {msg}")
    more = len(exc.errors(include_url=False)) - _MAX_ERRORS
    if more > 0:
        parts.append(f"and {more:,} more")
    return f"{kind}: " + "; ".join(parts)


#: a message names at most this many problems of one line
_MAX_ERRORS = 5


def _quote(value: Any) -> str:
    """A value of the line for a message: its repr, cut (a 20 MB name must not make a 20 MB message)."""
    return cut(repr(value) if not isinstance(value, str) else repr(cut(value, 60)), 80)
