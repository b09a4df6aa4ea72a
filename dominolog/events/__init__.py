"""The events of the dominolog log format (``FORMAT.md``, docs/format.md) as plain Python objects.

One class per event type, each a slotted dataclass with the fields of the format; :data:`Event` is
any of them. Tiles stay strings here (``"3-5"``), so that an event reads back as what was written;
:mod:`dominolog.tiles` turns them into :class:`~dominolog.tiles.Tile`. Treat events as read-only.

:func:`parse_event` turns a decoded JSON object into an event. The common shapes are checked by
hand (:mod:`dominolog.events.checks`: no pydantic imported, a few hundred nanoseconds a line); any
object those checks are not sure of goes to the pydantic models of :mod:`dominolog.events.models`,
the format's reference (and its JSON Schema), which accept it or say what is wrong. A differential
test holds the two to the same answers (``tests/test_event_checks.py``).
"""

from __future__ import annotations

from typing import Any

from dominolog.events.checks import fast_event
from dominolog.events.kinds import (
    COMMON_KEYS,
    EVENT_CLASSES,
    EVENT_TYPES,
    UNDOABLE,
    VARIANT_NAMES,
    BlockCall,
    Deal,
    Declare,
    Draw,
    Event,
    EventBase,
    HandEnd,
    MatchEnd,
    MatchStart,
    Note,
    Pass,
    Play,
    Reveal,
    Undo,
)

__all__ = [
    "COMMON_KEYS",
    "EVENT_CLASSES",
    "EVENT_TYPES",
    "UNDOABLE",
    "VARIANT_NAMES",
    "BlockCall",
    "Deal",
    "Declare",
    "Draw",
    "Event",
    "EventBase",
    "EventError",
    "HandEnd",
    "MatchEnd",
    "MatchStart",
    "Note",
    "Pass",
    "Play",
    "Reveal",
    "Undo",
    "check_event",
    "parse_event",
]


class EventError(ValueError):
    """An object that is not an event of the format; the message says why, for a person."""


def parse_event(obj: Any) -> Event:
    """Validate one decoded JSON object as an event (raises :class:`EventError`)."""
    event, error = check_event(obj)
    if event is None:
        raise EventError(error)
    return event


def check_event(obj: Any) -> tuple[Event, None] | tuple[None, str]:
    """``(event, None)`` for an event of the format, else ``(None, why not)``: the hand-written
    checks first, the pydantic models for whatever they are not sure of."""
    event = fast_event(obj)
    if event is not None:
        return event, None
    from dominolog.events.models import validate

    return validate(obj)


def __getattr__(name: str) -> Any:
    """The pydantic side under its old names (``EVENT_ADAPTER``, ``EVENT_MODELS``,
    ``describe_validation_error``), imported only when asked for."""
    if name in ("EVENT_ADAPTER", "EVENT_MODELS", "describe_validation_error"):
        from dominolog.events import models

        return getattr(models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
