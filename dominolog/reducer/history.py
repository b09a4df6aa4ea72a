"""The open hand's history: its events since the deal, what ``undo`` withdrew, and saved states.

``undo`` withdraws the latest standing play, draw, pass, declare, block_call or reveal of
the hand. Instead of folding the hand again from its deal, the reducer goes back to a
state saved before that event: a state is saved before every :data:`SAVE_EVERY`-th
standing event, so an undo restores the nearest one and applies at most
``SAVE_EVERY - 1`` events again. Its cost does not grow with the match or the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from dominolog.events import Deal, Event
from dominolog.log.reader import Record
from dominolog.state import HandState

#: a state is saved before every this many standing events (a trade: saving costs a hand's copy)
SAVE_EVERY = 4


@dataclass(slots=True, frozen=True)
class Saved:
    """The hand before a standing event, and how many findings there were then. Never changed:
    going back to it copies the hand."""

    hand: HandState
    violations: int
    unverified: int
    pending: int


class HandHistory:
    """The open hand since its deal (its deal, the events of the hand, which are withdrawn)."""

    __slots__ = ("deal", "marks", "records", "retracted", "saved", "standing", "undo_targets")

    def __init__(self, deal: Deal | None = None, marks: tuple[int, int] = (0, 0)) -> None:
        #: the hand's deal, from which its starting state is rebuilt
        self.deal = deal
        #: how many violations and unverified rules there were right after the deal
        self.marks = marks
        #: every event of the hand after its deal but notes, in order
        self.records: list[tuple[Record, Event]] = []
        #: positions in ``records`` of the undoable events not withdrawn, in order
        self.standing: list[int] = []
        #: seqs of the events withdrawn by an undo
        self.retracted: set[int] = set()
        #: each undo's seq -> the seq it withdrew (None: nothing to withdraw)
        self.undo_targets: dict[int, int | None] = {}
        #: standing index k -> the state just before ``standing[k]`` (for k a multiple of SAVE_EVERY)
        self.saved: dict[int, Saved] = {}

    def copy(self) -> HandHistory:
        """A copy that later events do not change (for rolling an event back)."""
        other = HandHistory(self.deal, self.marks)
        other.records = list(self.records)
        other.standing = list(self.standing)
        other.retracted = set(self.retracted)
        other.undo_targets = dict(self.undo_targets)
        other.saved = dict(self.saved)
        return other

    def last_standing(self) -> Record | None:
        """The event the next undo would withdraw."""
        return self.records[self.standing[-1]][0] if self.standing else None
