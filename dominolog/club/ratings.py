"""Ratings for the standings: OpenSkill's Plackett-Luce model, updated match by match.

Why OpenSkill: it rates any number of sides of any size in one update (two players, four players
each alone, two partnerships), it gives an uncertainty (sigma) beside the skill (mu), so a newcomer
with one lucky win is not put above a regular, and it is open (no patent, unlike TrueSkill). Players
are ordered by the ordinal, ``mu - 3 * sigma``: a skill the player is very likely above.

One rating pool per variant: the games differ (a Ghost 13 block is not a Brettspielnetz stock-out,
points are penalties in one and scores in another), so a rating earned at one game says little about
another. The standings keep one table per variant anyway.

Only complete matches are rated (an abandoned match has no result), in the order they were played:
their date (``MatchSummary.date``), ties by match id; a match without a date comes after the dated
ones. Each side of the match is a team (partners rated together), ranked by ``MatchSummary.ranks()``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from openskill.models import PlackettLuce, PlackettLuceRating

from dominolog.club.summary import MatchSummary, parse_time


@dataclass(slots=True)
class RatingPoint:
    """A player's rating just after one rated match."""

    match_id: str
    date: str | None
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(slots=True)
class PlayerRating:
    """A player's rating after every rated match of a pool, and how it got there."""

    mu: float
    sigma: float
    history: list[RatingPoint] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def matches(self) -> int:
        return len(self.history)


def new_rating() -> PlackettLuceRating:
    """Where OpenSkill starts every player (mu 25, sigma 25/3)."""
    return PlackettLuce().rating()


def play_order_key(summary: MatchSummary) -> tuple[int, datetime, str]:
    """When a match was played, for sorting: dated matches first (by their time in UTC; a date alone
    is its midnight), then those without a date; ties by match id."""
    when = parse_time(summary.date) if summary.date else None
    if when is None:
        return (1, datetime.min, summary.match_id)
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return (0, when, summary.match_id)


def rated_in_order(summaries: Iterable[MatchSummary]) -> list[MatchSummary]:
    """The matches that get rated (complete ones, with at least two sides), in the order they are rated."""
    return sorted((s for s in summaries if s.complete and len(s.sides) > 1), key=play_order_key)


def rate(summaries: Iterable[MatchSummary]) -> tuple[dict[str, PlayerRating], list[MatchSummary]]:
    """Rate one pool: each player's rating after the matches (only those who played a rated one), and
    the matches rated, in order. The caller picks the matches (one variant; valid ones or all)."""
    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    out: dict[str, PlayerRating] = {}
    order = rated_in_order(summaries)
    for s in order:
        teams = [[current.get(p) or model.rating(name=p) for p in side] for side in s.sides]
        new_teams = model.rate(teams, ranks=[float(r) for r in s.ranks()])
        for side, team in zip(s.sides, new_teams, strict=True):
            for p, r in zip(side, team, strict=True):
                current[p] = r
                rating = out.setdefault(p, PlayerRating(r.mu, r.sigma))
                rating.mu, rating.sigma = r.mu, r.sigma
                rating.history.append(RatingPoint(s.match_id, s.date, r.mu, r.sigma))
    return out, order
