"""The standings of a club event: one row per entrant, placed by match points and the tie-breaks.

Each match counts for both sides (``Result``). A win is 1 match point, a draw 0.5, a loss 0.

- **Bye** (``second`` is None): a win for ``first``, scored 0 for and 0 against (whatever points the
  result carries), so a bye never changes an entrant's points difference.
- **Forfeit** (``forfeit=True``, the director ended it): ``winner`` wins by forfeit, and both sides
  count 0 for and 0 against (the match's points so far are left out); the loser's ``forfeits``
  counts it. A double forfeit (``forfeit=True``, ``winner=None``): a loss for both, 0-0, and a
  forfeit lost for both.
- A draw that was not a forfeit: ``winner=None``; both get 0.5.

The order, each tie-break only between entrants equal on everything before it:

1. match points (more first);
2. the points difference (``points_for - points_against``; "efectividad");
3. points for (more first);
4. head to head: the match points in the games between exactly the entrants still tied, if every
   two of them met; those still equal are looked at again among themselves, the same way (so
   two left of a three-way tie are settled by their own game); if they did not all meet, or it is
   still equal, they share the place;
5. the entrant's id, only to list those sharing a place in a stable order (they keep the same place).

``lower_is_better=True`` is for penalty-point variants (Brettspielnetz: fewer is better): ``points_for``
are the penalty points an entrant took, ``difference`` is ``points_against - points_for``, and fewer
points for come first at step 3.

``played`` is ``wins + draws + losses``; byes and forfeit wins are in ``wins`` (and ``byes`` counts the
byes). Withdrawn entrants keep their rows and results: the caller decides whether to show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Result:
    """One match of an event (or a bye), as the standings count it."""

    round: int
    first: str
    second: str | None  # None: a bye for `first`
    points_first: int  # the match's final totals (what each side scored); a bye or a forfeit counts 0-0
    points_second: int
    winner: str | None  # the winning entrant id; None: a draw (or both lost a double forfeit)
    forfeit: bool = False  # the director ended it: `winner` wins by forfeit (None: both lose)


@dataclass(frozen=True, slots=True)
class Row:
    """One entrant's line of the standings."""

    place: int  # 1-based; equal entrants (every tie-break equal) share a place
    id: str
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    forfeits: int  # forfeits lost
    match_points: float  # wins + 0.5 draws (byes and forfeit wins count as wins)
    points_for: int
    points_against: int
    difference: int  # points_for - points_against ("efectividad"); lower_is_better: against - for


@dataclass(slots=True)
class _Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0
    points_for: int = 0
    points_against: int = 0
    met: list[tuple[str, float]] = field(default_factory=list)  # (opponent, match points won)

    @property
    def match_points(self) -> float:
        return self.wins + 0.5 * self.draws


def _check(result: Result, known: set[str]) -> None:
    sides = [result.first] if result.second is None else [result.first, result.second]
    for side in sides:
        if side not in known:
            raise ValueError(f"round {result.round}: {side!r} is not an entrant")
    if result.second is not None and result.first == result.second:
        raise ValueError(f"round {result.round}: {result.first!r} cannot meet themselves")
    if result.winner is not None and result.winner not in sides:
        raise ValueError(f"round {result.round}: the winner {result.winner!r} did not play in this match")
    if result.second is None and result.forfeit:
        raise ValueError(f"round {result.round}: a bye cannot be forfeited ({result.first!r})")


def _tally(entrants: Sequence[str], results: Sequence[Result]) -> dict[str, _Tally]:
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant appears twice")
    known = set(entrants)
    tallies = {e: _Tally() for e in entrants}
    for r in results:
        _check(r, known)
        a = tallies[r.first]
        if r.second is None:
            a.wins += 1
            a.byes += 1
            continue
        b = tallies[r.second]
        if not r.forfeit:
            a.points_for += r.points_first
            a.points_against += r.points_second
            b.points_for += r.points_second
            b.points_against += r.points_first
        if r.winner is None and r.forfeit:
            a.losses += 1
            b.losses += 1
            a.forfeits += 1
            b.forfeits += 1
            a.met.append((r.second, 0.0))
            b.met.append((r.first, 0.0))
        elif r.winner is None:
            a.draws += 1
            b.draws += 1
            a.met.append((r.second, 0.5))
            b.met.append((r.first, 0.5))
        else:
            win, lose = (a, b) if r.winner == r.first else (b, a)
            win.wins += 1
            lose.losses += 1
            if r.forfeit:
                lose.forfeits += 1
            win.met.append((r.second if win is a else r.first, 1.0))
            lose.met.append((r.second if lose is a else r.first, 0.0))
    return tallies


def _head_to_head(tied: list[str], tallies: dict[str, _Tally]) -> list[list[str]]:
    """Split entrants tied on everything before head to head into tiers (each tier shares a place)."""
    if len(tied) < 2:
        return [tied]
    group = set(tied)
    points: dict[str, float] = {}
    for e in tied:
        opponents = {o for o, _ in tallies[e].met if o in group}
        if opponents != group - {e}:
            return [sorted(tied)]  # they did not all meet
        points[e] = sum(p for o, p in tallies[e].met if o in group)
    levels = sorted(set(points.values()), reverse=True)
    if len(levels) == 1:
        return [sorted(tied)]
    tiers: list[list[str]] = []
    for level in levels:
        tiers.extend(_head_to_head(sorted(e for e in tied if points[e] == level), tallies))
    return tiers


def rank(entrants: Sequence[str], results: Sequence[Result], lower_is_better: bool = False) -> list[Row]:
    """The standings of ``entrants`` after ``results``: the rows in order, places as the module says."""
    tallies = _tally(entrants, results)

    def difference(t: _Tally) -> int:
        return t.points_against - t.points_for if lower_is_better else t.points_for - t.points_against

    def key(e: str) -> tuple[float, int, int]:
        t = tallies[e]
        return (-t.match_points, -difference(t), t.points_for if lower_is_better else -t.points_for)

    by_key: dict[tuple[float, int, int], list[str]] = {}
    for e in entrants:
        by_key.setdefault(key(e), []).append(e)
    rows: list[Row] = []
    for k in sorted(by_key):
        for tier in _head_to_head(sorted(by_key[k]), tallies):
            place = len(rows) + 1
            for e in tier:
                t = tallies[e]
                rows.append(
                    Row(
                        place=place,
                        id=e,
                        played=t.wins + t.draws + t.losses,
                        wins=t.wins,
                        draws=t.draws,
                        losses=t.losses,
                        byes=t.byes,
                        forfeits=t.forfeits,
                        match_points=t.match_points,
                        points_for=t.points_for,
                        points_against=t.points_against,
                        difference=difference(t),
                    )
                )
    return rows


def standings_after(
    entrants: Sequence[str], results: Sequence[Result], round_no: int, lower_is_better: bool = False
) -> list[Row]:
    """The standings counting only the results of rounds ``1..round_no``."""
    return rank(entrants, [r for r in results if r.round <= round_no], lower_is_better)
