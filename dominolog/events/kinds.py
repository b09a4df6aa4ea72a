"""The event classes of the log format, one per type (see :mod:`dominolog.events`)."""

from __future__ import annotations

from collections.abc import Container  # at run time: the compiled dataclasses resolve their annotations
from dataclasses import dataclass, field
from typing import Any, Final

from dominolog.frozen import by_fields

#: the variant names a ``match_start`` may give, in the order registered: the variant registry's, which
#: adds each (:func:`dominolog.variants.register_variant`); the log's layer is below the rules, so it
#: holds their names rather than ask for them
VARIANT_NAMES: list[str] = []

#: the keys an event object may hold besides its own fields
COMMON_KEYS: Final = ("type", "seq", "at", "hash")


class EventBase:
    """What every event has: its ``type`` (the same for every event of a class), ``seq``, ``at``,
    ``hash``, and ``given``, the keys its line wrote (``"winner" in ev.given`` tells an explicit
    ``null`` from no key).

    ``type`` is a property of each class rather than a ``ClassVar`` in the dataclass body: mypyc, which
    compiles this module (``dominolog/build_info.py``), takes a dataclass's ``ClassVar`` with a value for
    a field (mypyc issue 1122). For the same reason each class writes its ``given`` field out in full
    instead of sharing one ``field()`` object.

    Each class also writes its ``__init__`` out (``init=False``): the one ``@dataclass`` would make is
    Python run by the interpreter even in the compiled build (four times slower, and one is made per
    line of a log). ``tests/test_event_checks.py`` holds each one to its fields: their order, their
    defaults. ``__reduce__`` rebuilds an event by its ``__init__`` (for pickle and copy: a compiled
    class with required arguments cannot be made empty first)."""

    __slots__ = ()
    seq: int | None
    at: str | None
    hash: str | None
    given: Container[str]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)

    @property
    def type(self) -> str:
        """The event's ``type`` as the log writes it (``"play"``, ``"hand_end"``, ...)."""
        raise NotImplementedError


@dataclass(slots=True, eq=True, init=False)
class MatchStart(EventBase):
    """Begins a match."""

    variant: str
    players: list[str]
    options: dict[str, Any] | None = None
    id: str | None = None
    meta: dict[str, str] | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        variant: str,
        players: list[str],
        options: dict[str, Any] | None = None,
        id: str | None = None,
        meta: dict[str, str] | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.variant = variant
        self.players = players
        self.options = options
        self.id = id
        self.meta = meta
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "match_start"


@dataclass(slots=True, eq=True, init=False)
class Deal(EventBase):
    """Begins a hand. ``hands`` may be ``None`` (nothing seen) or map some players to ``None``."""

    leader: str
    dealer: str | None = None
    hands: dict[str, list[str] | None] | None = None
    start_tile: str | None = None
    chooser: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        leader: str,
        dealer: str | None = None,
        hands: dict[str, list[str] | None] | None = None,
        start_tile: str | None = None,
        chooser: str | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.leader = leader
        self.dealer = dealer
        self.hands = hands
        self.start_tile = start_tile
        self.chooser = chooser
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "deal"


@dataclass(slots=True, eq=True, init=False)
class Play(EventBase):
    """One tile placed (``tile``, ``end``), or a double-draw pair (``tiles: [left, right]``)."""

    player: str
    tile: str | None = None
    end: str | None = None
    tiles: list[str] | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        player: str,
        tile: str | None = None,
        end: str | None = None,
        tiles: list[str] | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.player = player
        self.tile = tile
        self.end = end
        self.tiles = tiles
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "play"


@dataclass(slots=True, eq=True, init=False)
class Draw(EventBase):
    """One tile taken from the boneyard; ``tile`` is ``None`` when the recorder did not see it."""

    player: str
    tile: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        player: str,
        tile: str | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.player = player
        self.tile = tile
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "draw"


@dataclass(slots=True, eq=True, init=False)
class Pass(EventBase):
    """No play."""

    player: str
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        player: str,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.player = player
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "pass"


@dataclass(slots=True, eq=True, init=False)
class Declare(EventBase):
    """39: the preferred suit chosen after a match."""

    player: str
    suit: str
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        player: str,
        suit: str,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.player = player
        self.suit = suit
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "declare"


@dataclass(slots=True, eq=True, init=False)
class BlockCall(EventBase):
    """double-draw: a player calls "blocked game"."""

    player: str
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        player: str,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.player = player
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "block_call"


@dataclass(slots=True, eq=True, init=False)
class Reveal(EventBase):
    """The tiles left in a player's hand at the end of the hand."""

    player: str
    tiles: list[str]
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        player: str,
        tiles: list[str],
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.player = player
        self.tiles = tiles
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "reveal"


@dataclass(slots=True, eq=True, init=False)
class HandEnd(EventBase):
    """Closes the hand; ``points`` and ``winner`` are what the table claims."""

    points: dict[str, int] | None = None
    winner: str | list[str] | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        points: dict[str, int] | None = None,
        winner: str | list[str] | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.points = points
        self.winner = winner
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "hand_end"


@dataclass(slots=True, eq=True, init=False)
class MatchEnd(EventBase):
    """Closes the match; early only with ``reason: abandoned``."""

    totals: dict[str, int] | None = None
    winner: str | list[str] | None = None
    reason: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        totals: dict[str, int] | None = None,
        winner: str | list[str] | None = None,
        reason: str | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.totals = totals
        self.winner = winner
        self.reason = reason
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "match_end"


@dataclass(slots=True, eq=True, init=False)
class Note(EventBase):
    """A free comment; changes nothing."""

    text: str
    player: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        text: str,
        player: str | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.text = text
        self.player = player
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "note"


@dataclass(slots=True, eq=True, init=False)
class Undo(EventBase):
    """Retracts the latest play, draw, pass, declare, block_call or reveal not yet retracted in the hand."""

    reason: str | None = None
    seq: int | None = None
    at: str | None = None
    hash: str | None = None
    given: Container[str] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        reason: str | None = None,
        seq: int | None = None,
        at: str | None = None,
        hash: str | None = None,
        given: Container[str] = (),
    ) -> None:
        self.reason = reason
        self.seq = seq
        self.at = at
        self.hash = hash
        self.given = given

    @property
    def type(self) -> str:
        return "undo"


Event = MatchStart | Deal | Play | Draw | Pass | Declare | BlockCall | Reveal | HandEnd | MatchEnd | Note | Undo

#: the class of each event type
EVENT_CLASSES: Final[dict[str, type[EventBase]]] = {
    "match_start": MatchStart,
    "deal": Deal,
    "play": Play,
    "draw": Draw,
    "pass": Pass,
    "declare": Declare,
    "block_call": BlockCall,
    "reveal": Reveal,
    "hand_end": HandEnd,
    "match_end": MatchEnd,
    "note": Note,
    "undo": Undo,
}
EVENT_TYPES: Final[frozenset[str]] = frozenset(EVENT_CLASSES)

#: Event types that ``undo`` can retract.
UNDOABLE: Final[frozenset[str]] = frozenset({"play", "draw", "pass", "declare", "block_call", "reveal"})
