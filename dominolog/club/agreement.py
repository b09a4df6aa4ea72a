"""The opponent's agreement to a hand's result (docs/format.md 8.9): a ``note`` event, written just
before the ``hand_end``, whose ``player`` is who answers and whose ``text`` says how:

- ``agrees: hand 3: Ana 27, Ben 0``: the player accepts the result about to be written;
- ``disagrees: hand 3: Ana 27, Ben 0``: the player does not; the table's claim is written all the same
  (the log is the record; ``verify`` shows where it differs from the rules).

An ordinary note to any old reader; this module writes and reads the form (the phone recorder writes
it, the score sheet shows it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

#: the text of an agreement note: the verdict, the hand's number, the points as written
AGREEMENT = re.compile(r"(agrees|disagrees): hand ([1-9][0-9]{0,5})(?:: (.*))?", re.S)


@dataclass(frozen=True, slots=True)
class Agreement:
    """One player's answer on one hand."""

    player: str
    agrees: bool
    hand: int
    #: the note's seq
    seq: int = 0


def agreement_text(agrees: bool, hand: int, points: dict[str, int]) -> str:
    """``agrees: hand 3: Ana 27, Ben 0`` (the names as they are: the note is JSON, shown escaped)."""
    said = ", ".join(f"{p} {v}" for p, v in points.items())
    return f"{'agrees' if agrees else 'disagrees'}: hand {hand}: {said}"


def agreement_note(player: str, agrees: bool, hand: int, points: dict[str, int]) -> dict[str, Any]:
    """The note event saying ``player`` agrees (or not) with ``points`` for hand ``hand``."""
    return {"type": "note", "player": player, "text": agreement_text(agrees, hand, points)}


def read_agreement(obj: dict[str, Any] | None, seq: int = 0) -> Agreement | None:
    """The agreement an event (at ``seq``) says, or None (not a note, no player, another text)."""
    if not isinstance(obj, dict) or obj.get("type") != "note":
        return None
    player, text = obj.get("player"), obj.get("text")
    if not isinstance(player, str) or not isinstance(text, str):
        return None
    m = AGREEMENT.fullmatch(text)
    if m is None:
        return None
    return Agreement(player, m.group(1) == "agrees", int(m.group(2)), seq)


def agreement_words(answers: list[Agreement]) -> list[str]:
    """``agreed by Ben``, ``disputed by Ben``: each player's last answer, in the order they answered."""
    last: dict[str, bool] = {}
    for a in answers:
        last.pop(a.player, None)
        last[a.player] = a.agrees
    return [f"{'agreed' if ok else 'disputed'} by {p}" for p, ok in last.items()]
