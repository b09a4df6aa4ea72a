"""What ``verify`` says about one match: :class:`MatchReport`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dominolog.state import HandResult, Issue, WinnerValue


@dataclass(slots=True)
class MatchReport:
    """What ``verify`` says about one match."""

    source: str
    line: int
    variant: str | None
    players: list[str]
    valid: bool
    complete: bool
    violations: list[Issue]
    unverified: list[Issue]
    hands: list[HandResult]
    totals: dict[str, int]
    winner: WinnerValue
    head: str
    match_id: str | None = None
    events: int = 0

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "source": self.source,
            "line": self.line,
            "variant": self.variant,
            "players": list(self.players),
            "valid": self.valid,
            "complete": self.complete,
            "violations": [v.as_dict() for v in self.violations],
            "unverified": [v.as_dict() for v in self.unverified],
            "hands": [h.as_dict() for h in self.hands],
            "totals": dict(self.totals),
            "winner": self.winner,
            "head": self.head,
        }
        if self.match_id is not None:
            d["id"] = self.match_id
        d["events"] = self.events
        return d
