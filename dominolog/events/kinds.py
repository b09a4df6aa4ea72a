"""The event classes of the log format, one per type (see :mod:`dominolog.events`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final

if TYPE_CHECKING:
    from collections.abc import Container

VARIANT_NAMES: Final = ("ghost13", "brettspielnetz", "39", "double-bergen", "double-draw")

#: the keys an event object may hold besides its own fields
COMMON_KEYS: Final = ("type", "seq", "at", "hash")


class EventBase:
    """What every event has: its ``type`` (a class constant), ``seq``, ``at``, ``hash``, and ``given``,
    the keys its line wrote (``"winner" in ev.given`` tells an explicit ``null`` from no key)."""

    __slots__ = ()
    type: ClassVar[str]
    seq: int | None
    at: str | None
    hash: str | None
    given: Container[str]


_GIVEN = field(default=(), compare=False, repr=False)


@dataclass(slots=True, eq=True)
class MatchStart(EventBase):
    """Begins a match."""

    type: ClassVar[str] = "match_start"
    variant: str
    players: list[str]
    options: dict[str, Any] | None = None
    id: str | None = None
    meta: dict[str, str] | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Deal(EventBase):
    """Begins a hand. ``hands`` may be ``None`` (nothing seen) or map some players to ``None``."""

    type: ClassVar[str] = "deal"
    leader: str
    dealer: str | None = None
    hands: dict[str, list[str] | None] | None = None
    start_tile: str | None = None
    chooser: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Play(EventBase):
    """One tile placed (``tile``, ``end``), or a double-draw pair (``tiles: [left, right]``)."""

    type: ClassVar[str] = "play"
    player: str
    tile: str | None = None
    end: str | None = None
    tiles: list[str] | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Draw(EventBase):
    """One tile taken from the boneyard; ``tile`` is ``None`` when the recorder did not see it."""

    type: ClassVar[str] = "draw"
    player: str
    tile: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Pass(EventBase):
    """No play."""

    type: ClassVar[str] = "pass"
    player: str
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Declare(EventBase):
    """39: the preferred suit chosen after a match."""

    type: ClassVar[str] = "declare"
    player: str
    suit: str
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class BlockCall(EventBase):
    """double-draw: a player calls "blocked game"."""

    type: ClassVar[str] = "block_call"
    player: str
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Reveal(EventBase):
    """The tiles left in a player's hand at the end of the hand."""

    type: ClassVar[str] = "reveal"
    player: str
    tiles: list[str]
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class HandEnd(EventBase):
    """Closes the hand; ``points`` and ``winner`` are what the table claims."""

    type: ClassVar[str] = "hand_end"
    points: dict[str, int] | None = None
    winner: str | list[str] | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class MatchEnd(EventBase):
    """Closes the match; early only with ``reason: abandoned``."""

    type: ClassVar[str] = "match_end"
    totals: dict[str, int] | None = None
    winner: str | list[str] | None = None
    reason: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Note(EventBase):
    """A free comment; changes nothing."""

    type: ClassVar[str] = "note"
    text: str
    player: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


@dataclass(slots=True, eq=True)
class Undo(EventBase):
    """Retracts the latest play, draw, pass, declare, block_call or reveal not yet retracted in the hand."""

    type: ClassVar[str] = "undo"
    reason: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = _GIVEN


Event = MatchStart | Deal | Play | Draw | Pass | Declare | BlockCall | Reveal | HandEnd | MatchEnd | Note | Undo

#: the class of each event type
EVENT_CLASSES: Final[dict[str, type[EventBase]]] = {
    c.type: c for c in (MatchStart, Deal, Play, Draw, Pass, Declare, BlockCall, Reveal, HandEnd, MatchEnd, Note, Undo)
}
EVENT_TYPES: Final[frozenset[str]] = frozenset(EVENT_CLASSES)

#: Event types that ``undo`` can retract.
UNDOABLE: Final[frozenset[str]] = frozenset({"play", "draw", "pass", "declare", "block_call", "reveal"})
