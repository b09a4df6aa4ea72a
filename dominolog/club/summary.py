"""One match as a club reads it: the score sheet's rows and each player's figures, from one fold.

Every number here is what the rules give (the reducer's results), never what the table wrote; the
table's claim is kept beside a hand's points only where it differs, so a sheet can show both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from dominolog.club.agreement import Agreement, agreement_words, read_agreement
from dominolog.log.reader import Record
from dominolog.reducer import MatchReducer
from dominolog.state import Issue, WinnerValue

if TYPE_CHECKING:
    from dominolog.store import Store

#: the events a player makes on their turn (what "time per move" measures)
MOVES = frozenset({"play", "pass", "draw", "declare", "block_call"})
#: a gap longer than this between two events is a break at the table, not thinking time
LONGEST_MOVE_SECONDS = 15 * 60
#: how a hand ends when nobody can play (Brettspielnetz calls it a stock-out)
BLOCKED = frozenset({"block", "stock-out"})


def listed_matches(
    store: Store,
    variant: str | None = None,
    player: str | None = None,
    status: str | None = None,
    last_at: bool = False,
) -> list[dict[str, Any]]:
    """The stored matches as ``list --json`` gives them (its ``matches``): each row of ``matches`` with
    its JSON columns read, ``complete`` a boolean, and the match's ``date``; with ``last_at``, the time
    of its last event that has one too (the projection's ``matches.last_at``: the board's)."""
    rows = store.list_matches(variant, player, status)
    for r in rows:
        for key in ("players", "meta", "totals", "winner"):
            r[key] = json.loads(r[key]) if r[key] is not None else None
        r["complete"] = bool(r["complete"])
        r["date"] = match_date(r["meta"], store.first_at(r["id"]))
        kept = r.pop("last_at", _NOT_KEPT)
        if last_at:  # (a store opened read-only before it was given the column: read from the events)
            r["last_at"] = store.last_at(r["id"]) if kept is _NOT_KEPT else kept
    return rows


_NOT_KEPT = object()


def status_words(status: str, abandoned: bool) -> str:
    """A stored match's status (``open``, ``complete``, ``invalid``: the store's) as a page says it: a
    match with no ``match_end`` yet is ``in progress``; only a ``match_end`` with ``reason: abandoned``
    (``abandoned``, the reducer's) makes it ``abandoned``."""
    if status == "invalid":
        return "invalid"
    if abandoned:
        return "abandoned"
    return "complete" if status == "complete" else "in progress"


def match_date(meta: dict[str, Any] | None, first_at: str | None) -> str | None:
    """When a match was played, as an ISO 8601 string: its ``meta.date`` when that is an ISO date or
    date-time, else the time of its first event that has one (``at``), else None."""
    given = (meta or {}).get("date")
    if isinstance(given, str) and parse_time(given) is not None:
        return given
    return first_at if first_at is not None and parse_time(first_at) is not None else None


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 date or date-time (``Z`` allowed) as a datetime, else None."""
    try:
        if "T" in text:
            return datetime.fromisoformat(text.replace("Z", "+00:00"))
        d = date.fromisoformat(text)
        return datetime(d.year, d.month, d.day)
    except ValueError:
        return None


@dataclass(slots=True)
class SheetHand:
    """One row of the score sheet."""

    number: int
    end: str
    winner: WinnerValue
    aggressor: str | None
    points: dict[str, int]
    running: dict[str, int]
    pips: dict[str, int]
    seq: int  # the hand_end's seq (0: the hand had none)
    fingerprint: str  # the head hash's first 10 characters after the hand_end
    verified: bool = True
    #: what the table wrote, where it differs from the rules: points, winner
    claimed: dict[str, Any] | None = None
    #: the players' answers to the result (agreement notes, docs/format.md 8.9): "agreed by Ben"
    agreements: list[str] = field(default_factory=list)


@dataclass(slots=True)
class PlayerFigures:
    """One player's play in one match (added up over matches by the standings)."""

    hands: int = 0
    plays: int = 0
    passes: int = 0
    draws: int = 0
    block_hands: int = 0  # hands that ended in a block with this player's pips known
    block_pips: int = 0
    move_seconds: float = 0.0
    timed_moves: int = 0
    reneges: int = 0  # certain (violations)
    possible_reneges: int = 0  # open (unverified)

    def add(self, other: PlayerFigures) -> None:
        for name in self.__slots__:  # type: ignore[attr-defined]
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass(slots=True)
class MatchSummary:
    match_id: str
    source: str
    date: str | None
    meta: dict[str, str]
    variant: str | None
    title: str
    players: list[str]
    sides: list[tuple[str, ...]]
    higher_wins: bool
    valid: bool
    complete: bool
    totals: dict[str, int]
    winner: WinnerValue
    hands: list[SheetHand]
    violations: list[Issue]
    unverified: list[Issue]
    head: str
    events: int
    figures: dict[str, PlayerFigures] = field(default_factory=dict)
    #: the score the match is played to, where the variant has one (Ghost 13, Double Bergen, Double Draw)
    target: int | None = None
    #: the table ended it as abandoned (a ``match_end`` with ``reason: abandoned``): no result, not rated
    abandoned: bool = False
    #: who made the event at each seq (to name the player of a violation)
    by_seq: dict[int, str] = field(default_factory=dict)

    @property
    def fingerprint(self) -> str:
        return self.head[:10]

    @property
    def event(self) -> str:
        return self.meta.get("event", "")

    @property
    def table(self) -> str:
        return self.meta.get("table", "")

    @property
    def in_progress(self) -> bool:
        """No ``match_end`` yet: the match is being played (or was left without one), not abandoned."""
        return not self.complete and not self.abandoned

    @property
    def status(self) -> str:
        """``invalid``, ``abandoned`` (only a ``match_end`` with ``reason: abandoned``), ``complete``, or
        ``in_progress`` (no ``match_end`` yet)."""
        if not self.valid:
            return "invalid"
        if self.abandoned:
            return "abandoned"
        return "complete" if self.complete else "in_progress"

    def side_total(self, side: tuple[str, ...]) -> int:
        return self.totals.get(side[0], 0)

    def ranks(self) -> list[int]:
        """Each side's place by its total (1 is best; equal totals share a place), as the variant
        ranks them: the highest total first, or the lowest where points are penalties. The winner
        the rules name is always first."""
        sign = -1 if self.higher_wins else 1
        winners = set(self.winner if isinstance(self.winner, list) else [self.winner] if self.winner else [])

        def key(side: tuple[str, ...]) -> tuple[int, int]:
            return (0 if winners & set(side) else 1, sign * self.side_total(side))

        keys = [key(s) for s in self.sides]
        return [1 + sum(k < mine for k in keys) for mine in keys]

    def won(self, player: str) -> bool:
        winners = self.winner if isinstance(self.winner, list) else [self.winner] if self.winner else []
        return player in winners


def summarize(match_id: str, records: list[Record], source: str | None = None) -> MatchSummary:
    """Fold the match once and keep what its score sheet and the standings need."""
    reducer = MatchReducer(source or match_id, records[0].line if records else 1)
    hands: list[SheetHand] = []
    figures: dict[str, PlayerFigures] = {}
    by_seq: dict[int, str] = {}
    running: dict[str, int] = {}
    first_at: str | None = None
    last_time: datetime | None = None
    abandoned = False
    answers: dict[int, list[Agreement]] = {}
    for rec in records:
        before = len(reducer.state.results) if reducer.state is not None else 0
        obj = rec.obj if isinstance(rec.obj, dict) else {}
        reducer.feed(rec)
        at = obj.get("at")
        when = parse_time(at) if isinstance(at, str) else None
        if when is not None and first_at is None:
            first_at = at
        state = reducer.state
        if state is None or rec.event is None:
            continue
        kind = rec.event.type
        if kind == "match_end":
            abandoned = getattr(rec.event, "reason", None) == "abandoned"
        player = obj.get("player")
        answer = read_agreement(obj, rec.seq) if kind == "note" else None
        if answer is not None and answer.player in state.players:
            answers.setdefault(answer.hand, []).append(answer)
        if isinstance(player, str) and player in state.players:
            by_seq[rec.seq] = player
            if kind in MOVES:
                f = figures.setdefault(player, PlayerFigures())
                if kind == "play":
                    f.plays += 1
                elif kind == "pass":
                    f.passes += 1
                elif kind == "draw":
                    f.draws += 1
                if when is not None and last_time is not None:
                    gap = (when - last_time).total_seconds()
                    if 0 <= gap <= LONGEST_MOVE_SECONDS:
                        f.move_seconds += gap
                        f.timed_moves += 1
        if when is not None:
            last_time = when
        if len(state.results) > before:
            result = state.results[-1]
            for p in state.players:
                running[p] = running.get(p, 0) + result.points.get(p, 0)
            pips = {p: v for p, v in (result.detail.get("pips") or {}).items() if isinstance(v, int)}
            claimed: dict[str, Any] | None = None
            if kind == "hand_end":
                said_points, said_winner = obj.get("points"), obj.get("winner", ...)
                differs_points = isinstance(said_points, dict) and said_points != result.points
                differs_winner = said_winner is not ... and said_winner != result.winner
                if differs_points or differs_winner:
                    claimed = {"points": said_points, "winner": None if said_winner is ... else said_winner}
            hands.append(
                SheetHand(
                    result.number,
                    result.end,
                    result.winner,
                    result.detail.get("aggressor"),
                    dict(result.points),
                    dict(running),
                    pips,
                    rec.seq if kind == "hand_end" else 0,
                    reducer.head[:10],
                    result.verified,
                    claimed,
                    agreement_words(answers.pop(result.number, [])),
                )
            )
            if result.end != "abandoned":
                for p in state.players:
                    f = figures.setdefault(p, PlayerFigures())
                    f.hands += 1
                    if result.end in BLOCKED and p in pips:
                        f.block_hands += 1
                        f.block_pips += pips[p]
    report = reducer.report()
    state = reducer.state
    variant = reducer.variant
    meta = dict(state.meta) if state is not None else {}
    for p in report.players:
        figures.setdefault(p, PlayerFigures())
    for issue in report.violations:
        if issue.code == "renege" and issue.seq in by_seq:
            figures[by_seq[issue.seq]].reneges += 1
    for issue in report.unverified:
        if issue.code == "renege" and issue.seq in by_seq:
            figures[by_seq[issue.seq]].possible_reneges += 1
    return MatchSummary(
        match_id=match_id,
        source=source or match_id,
        date=match_date(meta, first_at),
        meta=meta,
        variant=report.variant,
        title=variant.title if variant is not None else (report.variant or "unknown variant"),
        players=list(report.players),
        sides=variant.sides() if variant is not None else [(p,) for p in report.players],
        higher_wins=variant.higher_wins if variant is not None else True,
        valid=report.valid,
        complete=report.complete,
        totals=dict(report.totals),
        winner=report.winner,
        hands=hands,
        violations=list(report.violations),
        unverified=list(report.unverified),
        head=report.head,
        events=report.events,
        figures=figures,
        target=variant.target if variant is not None else None,
        abandoned=abandoned,
        by_seq=by_seq,
    )
