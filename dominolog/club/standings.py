"""The club's standings: each player's (and each partnership's) record, hands, points, play and
rating over many matches, one table per variant. Pure: summaries in, tables out (no files, no CLI).

What the figures mean (the output's legend says the same):

- **played**: matches counted (valid ones; every one with ``include_invalid``); **won**, **lost**,
  **drawn** (complete, no winner), **abandoned** (a ``match_end`` saying ``reason: abandoned``, what
  a director's forfeit writes: see :func:`match_summary`) split them. A match **in progress** (no
  ``match_end`` yet) is not counted in any figure: it is neither played nor abandoned; the
  ``in_progress`` count says how many there are.
- **invalid**: matches with a violation the player played. Not counted in any other figure (but
  reneges) unless ``include_invalid``; their scores are then what the rules give, as always.
- **hands**: hands played to an end (abandoned hands left out); **hands won** by ``domino``, by a
  block (a hand ending ``block`` or ``stock-out``: nobody can play) or other ends (``passes``,
  ``target``, ...). A hand's winner is who the rules name: in partnership games a domino may be won
  by one partner alone or by the side.
- **points for**: the sum of the player's own points in every hand of the counted matches (the match
  totals the rules give: partners score together, so each partner has the side's points).
  **points against**: in the same hands, the sum over each opposing side of that side's points
  (with four players each alone, all three opponents' points). **per hand**: divided by ``hands``.
  Where the variant scores penalties (``higher_wins`` False, Brettspielnetz), points for are the
  player's penalties: lower is better.
- **play**: average pips left in the player's hand at a block (over blocked hands with the pips
  known), passes and draws per hand, average seconds per move (where the log has times), all over
  the counted matches; **reneges** (certain) and **possible reneges** (hidden tiles leave them
  open) over every match the player played, invalid ones too: a certain renege is what makes a
  match invalid.
- **rating**: OpenSkill (``dominolog.club.ratings``), one pool per variant, the counted complete
  matches in the order played; players are ordered by the ordinal ``mu - 3 sigma``.
- **points lost** (``standings --loss``): over the counted matches that have an analysis (``dominolog
  analyze ID --db DB`` keeps one in the store), each player's decisions with something at stake (a
  *choice*: the options are not all worth the same): the points lost per choice (the best option's
  value minus the move's), the share of choices where a best move was played, and the accuracy
  ``100 x mean over choices of (1 - loss / max(1, best - worst))`` (the analysis's own figure). The
  matches without an analysis are counted apart (``analysed 3 of 9``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Protocol

from dominolog.club.ratings import PlayerRating, rate
from dominolog.club.summary import BLOCKED, MatchSummary, PlayerFigures, parse_time, summarize
from dominolog.knowledge.evidence import Evidence, HandWeights, combine
from dominolog.log.reader import Record

#: the key of matches whose variant could not be read
UNKNOWN = "unknown"


@dataclass(slots=True)
class Filters:
    """Which matches the standings count: all of these must hold."""

    variant: str | None = None
    meta: dict[str, str] = field(default_factory=dict)
    since: date | None = None  # inclusive
    until: date | None = None  # inclusive

    def keeps(self, s: MatchSummary) -> bool:
        if self.variant is not None and s.variant != self.variant:
            return False
        if any(k not in s.meta or str(s.meta[k]) != v for k, v in self.meta.items()):
            return False
        if self.since is not None or self.until is not None:
            day = match_day(s)
            if day is None:
                return False
            if self.since is not None and day < self.since:
                return False
            if self.until is not None and day > self.until:
                return False
        return True


def match_summary(match_id: str, records: list[Record], source: str | None = None) -> MatchSummary:
    """:func:`summarize`, with a match the table ended as abandoned (a ``match_end`` with ``reason:
    abandoned``) marked not complete: for the standings it is abandoned (not drawn) and not rated."""
    s = summarize(match_id, records, source)
    if s.abandoned:
        s.complete = False
    return s


def parse_day(text: str) -> date:
    """An ISO date (``2026-09-17``); ValueError saying why not."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO date (YYYY-MM-DD)") from None


def parse_meta(pairs: Iterable[str]) -> dict[str, str]:
    """``key=value`` filters as a dict; ValueError naming the first that is not one."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"{pair!r} is not key=value")
        out[key] = value
    return out


def match_day(s: MatchSummary) -> date | None:
    """The day a match was played, as written (a time's own date, whatever its offset), or None."""
    when = parse_time(s.date) if s.date else None
    return when.date() if when is not None else None


def winners_of(value: object) -> set[str]:
    return set(value) if isinstance(value, list) else {value} if isinstance(value, str) else set()


@dataclass(slots=True)
class Tally:
    """The record of a player or a partnership over the matches of one variant."""

    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    abandoned: int = 0
    invalid: int = 0
    #: matches with no match_end yet: not counted in any other figure
    in_progress: int = 0
    hands: int = 0
    won_domino: int = 0
    won_block: int = 0
    won_other: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def hands_won(self) -> int:
        return self.won_domino + self.won_block + self.won_other

    def per_hand(self, value: float) -> float | None:
        return value / self.hands if self.hands else None

    def count(self, s: MatchSummary, side: tuple[str, ...], counted: bool) -> None:
        """Add one match, seen from ``side`` (one player alone, or a partnership)."""
        if not s.valid:
            self.invalid += 1
        if s.in_progress:
            self.in_progress += 1
        if not counted or s.in_progress:
            return
        self.played += 1
        winners = winners_of(s.winner)
        if not s.complete:
            self.abandoned += 1
        elif not winners:
            self.drawn += 1
        elif winners & set(side):
            self.won += 1
        else:
            self.lost += 1
        mine = next((x for x in s.sides if set(side) <= set(x)), side)
        others = [x for x in s.sides if x != mine]
        for h in s.hands:
            self.points_for += h.points.get(side[0], 0)
            self.points_against += sum(h.points.get(x[0], 0) for x in others)
            if h.end == "abandoned":
                continue
            self.hands += 1
            if winners_of(h.winner) & set(side):
                if h.end == "domino":
                    self.won_domino += 1
                elif h.end in BLOCKED:
                    self.won_block += 1
                else:
                    self.won_other += 1


class Decided(Protocol):
    """One analysed decision, as the standings read it (an analysis's decision: player, points lost,
    the best and the worst option's values)."""

    @property
    def player(self) -> str: ...
    @property
    def loss(self) -> int | float: ...
    @property
    def best(self) -> int | float: ...
    @property
    def worst(self) -> int | float: ...
    @property
    def count(self) -> int: ...


@dataclass(slots=True)
class Analysed:
    """The analysis of one match, as the standings count it: its decisions, and whether the whole match
    was analysed (not only some hands or decisions)."""

    decisions: Sequence[Decided]
    whole: bool = True
    #: each player's luck and luck-adjusted result over the match's weighed hands (Ghost 13; empty: none)
    luck: Mapping[str, float] = field(default_factory=dict)
    adjusted: Mapping[str, float] = field(default_factory=dict)
    #: the 95% margin of each player's sampled luck (the hidden games; empty: exact, or none)
    margin: Mapping[str, float] = field(default_factory=dict)


@dataclass(slots=True)
class LossFigures:
    """A player's points lost over the analysed matches."""

    matches: int = 0
    decisions: int = 0
    choices: int = 0
    total_loss: float = 0
    best_played: int = 0
    kept: float = 0.0
    #: decisions with more than one legal option, and the points lost over them (skill: error rate)
    unforced: int = 0
    unforced_loss: float = 0
    #: luck and luck-adjusted result over the matches with a luck figure, and how many (analysis.luck)
    luck: float = 0.0
    adjusted: float = 0.0
    lucky_matches: int = 0
    #: the sum of the squared 95% margins of the sampled matches' luck (their errors are independent)
    luck_squares: float = 0.0

    def add(self, d: Decided) -> None:
        self.decisions += 1
        if d.count > 1:
            self.unforced += 1
            self.unforced_loss += d.loss
        if d.best == d.worst:
            return  # nothing at stake
        self.choices += 1
        self.total_loss += d.loss
        self.best_played += d.loss == 0
        self.kept += 1 - d.loss / max(1, d.best - d.worst)

    @property
    def average_loss(self) -> float | None:
        return self.total_loss / self.choices if self.choices else None

    @property
    def match_rate(self) -> float | None:
        return 100 * self.best_played / self.choices if self.choices else None

    @property
    def accuracy(self) -> float | None:
        return 100 * self.kept / self.choices if self.choices else None

    @property
    def error_rate(self) -> float | None:
        """Mean points lost per non-forced decision (analysis.luck)."""
        return self.unforced_loss / self.unforced if self.unforced else None

    @property
    def luck_margin(self) -> float | None:
        """The 95% margin of the summed luck, where some of it was sampled (None: all exact, or none)."""
        return math.sqrt(self.luck_squares) if self.luck_squares > 0 else None

    @property
    def play_rating(self) -> float | None:
        """Points lost per 100 non-forced decisions: 0 is perfect play."""
        rate = self.error_rate
        return None if rate is None else 100 * rate


#: a match's fair-play weights: by player, what each hand weighs (:mod:`dominolog.knowledge.evidence`)
FairPlayWeights = Mapping[str, Sequence[HandWeights]]


@dataclass(slots=True)
class FairPlayFigures:
    """A player's evidence of reneging over every match of the table (the season, as filtered) and
    over each event's (by the matches' ``meta.event``; "" when none is given), and the matches weighed."""

    season: Evidence
    events: dict[str, Evidence]
    matches: int


@dataclass(slots=True)
class PlayerRow:
    name: str
    tally: Tally = field(default_factory=Tally)
    #: play over the counted matches
    figures: PlayerFigures = field(default_factory=PlayerFigures)
    #: over every match played, invalid ones too
    reneges: int = 0
    possible_reneges: int = 0
    rating: PlayerRating | None = None
    place: int | None = None  # by the ordinal, among the rated players
    #: points lost over the counted matches with an analysis (None: not asked, ``--loss``)
    loss: LossFigures | None = None
    #: evidence of reneging over every match played, invalid ones too (None: not asked, ``--fairplay``)
    fairplay: FairPlayFigures | None = None

    @property
    def block_pips_average(self) -> float | None:
        f = self.figures
        return f.block_pips / f.block_hands if f.block_hands else None

    @property
    def passes_per_hand(self) -> float | None:
        return self.figures.passes / self.figures.hands if self.figures.hands else None

    @property
    def draws_per_hand(self) -> float | None:
        return self.figures.draws / self.figures.hands if self.figures.hands else None

    @property
    def seconds_per_move(self) -> float | None:
        f = self.figures
        return f.move_seconds / f.timed_moves if f.timed_moves else None


@dataclass(slots=True)
class PartnershipRow:
    players: tuple[str, ...]
    tally: Tally = field(default_factory=Tally)

    @property
    def name(self) -> str:
        return " & ".join(self.players)


@dataclass(slots=True)
class VariantTable:
    """The standings of one variant (one rating pool)."""

    variant: str
    title: str
    higher_wins: bool
    matches: list[MatchSummary]  # every match of this variant the filters kept, invalid ones too
    counted: list[MatchSummary]
    rated: list[MatchSummary]  # in the order rated
    players: list[PlayerRow]
    partnerships: list[PartnershipRow]
    #: the counted matches with an analysis (``--loss``), and how many of them in part only
    analysed: list[MatchSummary] = field(default_factory=list)
    partial: int = 0

    @property
    def invalid(self) -> int:
        return sum(not s.valid for s in self.matches)

    @property
    def in_progress(self) -> int:
        """Matches with no ``match_end`` yet (not counted: neither played nor abandoned)."""
        return sum(s.in_progress for s in self.matches)


@dataclass(slots=True)
class Standings:
    tables: list[VariantTable]
    filters: Filters
    include_invalid: bool
    #: matches read before the filters
    read: int = 0
    #: the points lost are shown (``--loss``)
    loss: bool = False
    #: the evidence of reneging is shown (``--fairplay``)
    fairplay: bool = False

    @property
    def matches(self) -> int:
        return sum(len(t.matches) for t in self.tables)

    @property
    def counted(self) -> int:
        return sum(len(t.counted) for t in self.tables)

    @property
    def analysed(self) -> int:
        return sum(len(t.analysed) for t in self.tables)

    @property
    def partial(self) -> int:
        return sum(t.partial for t in self.tables)


def standings(
    summaries: Iterable[MatchSummary],
    filters: Filters | None = None,
    include_invalid: bool = False,
    analyses: Mapping[str, Analysed] | None = None,
    fairplay: Mapping[str, FairPlayWeights] | None = None,
) -> Standings:
    """The standings of the matches the filters keep, one table per variant (sorted by name).
    ``analyses``: the analysis of each match that has one, by match id (the points lost, ``--loss``);
    ``fairplay``: each match's fair-play weights, by its head hash (the evidence of reneging, ``--fairplay``)."""
    filters = filters or Filters()
    every = list(summaries)
    kept = [s for s in every if filters.keeps(s)]
    groups: dict[str, list[MatchSummary]] = {}
    for s in kept:
        groups.setdefault(s.variant or UNKNOWN, []).append(s)
    order = sorted(groups, key=lambda v: (v == UNKNOWN, v))
    tables = [_table(v, groups[v], include_invalid, analyses) for v in order]
    if fairplay is not None:
        for t in tables:
            _fair_play(t, fairplay)
    return Standings(tables, filters, include_invalid, len(every), analyses is not None, fairplay is not None)


def _fair_play(table: VariantTable, fairplay: Mapping[str, FairPlayWeights]) -> None:
    """Each player's evidence of reneging over every match of the table weighed (invalid ones too: a
    renege makes a match invalid), and by event."""
    season: dict[str, list[HandWeights]] = {}
    events: dict[str, dict[str, list[HandWeights]]] = {}
    weighed: dict[str, int] = {}
    for s in table.matches:
        found = fairplay.get(s.head)
        if found is None:
            continue
        for p, hands in found.items():
            season.setdefault(p, []).extend(hands)
            events.setdefault(p, {}).setdefault(s.event, []).extend(hands)
            weighed[p] = weighed.get(p, 0) + 1
    for row in table.players:
        if row.name in season:
            by_event = {e: combine(h) for e, h in sorted(events[row.name].items())}
            row.fairplay = FairPlayFigures(combine(season[row.name]), by_event, weighed[row.name])


def _losses(table: VariantTable, analyses: Mapping[str, Analysed]) -> None:
    """Each player's points lost over the counted matches with an analysis."""
    for row in table.players:
        row.loss = LossFigures()
    rows = {r.name: r for r in table.players}
    for s in table.counted:
        found = analyses.get(s.match_id)
        if found is None:
            continue
        table.analysed.append(s)
        table.partial += not found.whole
        for p in s.players:
            row = rows.get(p)
            if row is not None and row.loss is not None:
                row.loss.matches += 1
                if p in found.luck and p in found.adjusted:
                    row.loss.lucky_matches += 1
                    row.loss.luck += found.luck[p]
                    row.loss.adjusted += found.adjusted[p]
                    row.loss.luck_squares += found.margin.get(p, 0.0) ** 2
        for d in found.decisions:
            row = rows.get(d.player)
            if row is not None and row.loss is not None:
                row.loss.add(d)


def _table(
    variant: str, matches: list[MatchSummary], include_invalid: bool, analyses: Mapping[str, Analysed] | None = None
) -> VariantTable:
    players: dict[str, PlayerRow] = {}
    pairs: dict[tuple[str, ...], PartnershipRow] = {}
    counted: list[MatchSummary] = []
    for s in matches:
        count = (s.valid or include_invalid) and not s.in_progress
        if count:
            counted.append(s)
        for p in s.players:
            row = players.setdefault(p, PlayerRow(p))
            side = next((x for x in s.sides if p in x), (p,))
            row.tally.count(s, (p, *[q for q in side if q != p]), count)
            f = s.figures.get(p, PlayerFigures())
            row.reneges += f.reneges
            row.possible_reneges += f.possible_reneges
            if count:
                row.figures.add(f)
        for side in s.sides:
            if len(side) > 1:
                key = tuple(sorted(side))
                pairs.setdefault(key, PartnershipRow(key)).tally.count(s, key, count)
    ratings, rated = rate(counted)
    for name, row in players.items():
        row.rating = ratings.get(name)
    ranked = sorted(
        (r for r in players.values() if r.rating is not None),
        key=lambda r: (-r.rating.ordinal, -r.rating.mu, r.name),  # type: ignore[union-attr]
    )
    for place, row in enumerate(ranked, 1):
        row.place = place
    unrated = sorted((r for r in players.values() if r.rating is None), key=lambda r: r.name)
    partnerships = sorted(pairs.values(), key=lambda r: (-r.tally.won, r.tally.lost, -r.tally.played, r.name))
    first = matches[0]
    title = first.title if variant != UNKNOWN else "Unknown variant"
    table = VariantTable(variant, title, first.higher_wins, matches, counted, rated, ranked + unrated, partnerships)
    if analyses is not None:
        _losses(table, analyses)
    return table
