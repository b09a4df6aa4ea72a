"""What a recorder refuses: an entry that cannot be what happened at the table.

A recorder (``dominolog record``, ``dominolog append``) tries each entry on its
reducer (:meth:`~dominolog.reducer.fold.MatchReducer.attempt`) before writing it. An
entry whose violations are certain (decided from what is known: a malformed line, an
unknown player, an event outside a hand, a tile already on the table or not in a
known hand, a wrong place, a pass while holding a play, a reveal that does not fit)
is refused and nothing is written. What hidden tiles keep from being decided is
recorded as it happened and marked unverified; the reveals settle it later. A claim
that differs from the rules (``score-mismatch``) is what the table agreed: it is
kept, and ``verify`` reports it.
"""

from __future__ import annotations

from collections.abc import Iterable

from dominolog.state import Issue

#: violations a recorder keeps (the table's agreement stands; verify reports it)
KEPT_CODES = frozenset({"score-mismatch"})


def refusals(issues: Iterable[Issue]) -> list[Issue]:
    """The violations among ``issues`` for which an entry is refused."""
    return [i for i in issues if i.code not in KEPT_CODES]


def refusal_message(issues: Iterable[Issue]) -> str:
    """``illegal: Ben does not hold 6-6; ...`` (one clause per violation)."""
    return "; ".join(f"{i.code}: {i.message}" for i in issues)
