"""The open hand's history: its events since the deal, what ``undo`` withdrew, and saved states.

``undo`` withdraws the latest standing play, draw, pass, declare, block_call or reveal of
the hand. Instead of folding the hand again from its deal, the reducer goes back to a
state saved before that event: a state is saved before every :data:`SAVE_EVERY`-th
standing event, so an undo restores the nearest one and applies at most
``SAVE_EVERY - 1`` (15) events again. Its cost does not grow with the match or the hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from dominolog.events import Deal, Event
from dominolog.frozen import by_fields
from dominolog.log.reader import Record
from dominolog.state import HandState

#: a state is saved before every this many standing events (a trade: saving costs a hand's copy)
SAVE_EVERY: Final = 16


@dataclass(init=False, slots=True, frozen=True)
class Saved:
    """The hand before a standing event, and how many findings there were then. Never changed:
    going back to it copies the hand."""

    hand: HandState
    violations: int
    unverified: int
    pending: int

    def __init__(
        self,
        hand: HandState,
        violations: int,
        unverified: int,
        pending: int,
    ) -> None:
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "violations", violations)
        object.__setattr__(self, "unverified", unverified)
        object.__setattr__(self, "pending", pending)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)


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

    def snapshot(self) -> tuple[Any, ...]:
        """What one more event can change here, saved for :meth:`restore` (costs the standing list)."""
        k = len(self.standing)
        return (self.saved, len(self.records), list(self.standing), len(self.undo_targets), k, self.saved.get(k))

    def restore(self, snap: tuple[Any, ...]) -> None:
        """Take back the event fed since :meth:`snapshot` (one event: it adds one record, one undo,
        and saves at most the state before the standing index it appends at)."""
        saved, n_records, standing, n_undos, k, at_k = snap
        self.saved = saved  # a hand end replaces the dict, never clears it
        if at_k is None:
            saved.pop(k, None)
        else:
            saved[k] = at_k
        del self.records[n_records:]
        self.standing = standing
        while len(self.undo_targets) > n_undos:
            _, target = self.undo_targets.popitem()
            if target is not None:
                self.retracted.discard(target)

    def standing_records(self) -> list[Record]:
        """The hand's events that stand (not withdrawn), in order: what undos can still reach."""
        return [self.records[p][0] for p in self.standing]
