"""Luck and skill, as backgammon players have them (GNU Backgammon): a result split into what the
tiles gave (luck) and what the players made of them (skill).

**Luck of a Ghost 13 deal.** Ghost 13 deals every tile to one of the two players, so once dealt a
hand is a game of full information: the deal's value is exact (:func:`deal_value`: the points the
leader scores minus the other's with both playing perfectly, :mod:`dominolog.analysis.ghost13`). Its
luck is that value minus the value expected over every deal possible then: the leader does not
depend on the tiles, so that expectation is one number for every hand, :data:`GHOST13_DEAL_MEAN`,
estimated over uniformly random deals with its 95% margin (``bench/bench_luck.py``; the figures in
``bench/RESULTS.md``). The leader's luck is ``value - mean``; the other player's is its opposite
(the value is a difference of points). Summed over deals, luck is zero in expectation.

**The luck-adjusted result.** With exact values, each decision moves the hand's value (for the
player on move) by exactly the points it lost, so the result of a hand played to its end is the
deal's value less the leader's losses plus the other's. The luck-adjusted result is the result less
the luck: ``mean - the leader's losses + the other's`` for the leader. A hand is weighed only when
every decision of it was analysed from the deal.

**Skill.** An *error rate*: the mean points lost per non-forced decision (one with more than one
legal option; a forced move loses nothing and says nothing), and a *play rating*: the same per 100
non-forced decisions (0 is perfect play; lower is better), with how many decisions they rest on,
per match and, in ``standings --loss``, over a season.

**The hidden games** (Brettspielnetz, 39, Double Bergen, Double Draw): the luck of each deal and of
each draw the log shows is sampled with the review (:mod:`dominolog.analysis.luck_hidden`), with a
95% margin; a player's luck in a hand is that of the deal for them plus that of their own draws, and
the luck-adjusted result is their result (the hand's points, as the review values them) less it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from dominolog.analysis.ghost13 import Position, Solver
from dominolog.analysis.luck_hidden import Z95
from dominolog.analysis.results import Decision, HandReview, MatchReview, SampledLuck

#: the expected value of a Ghost 13 deal for the leader (points, theirs minus the other's, both playing
#: perfectly) over uniformly random deals, and its 95% margin: bench/bench_luck.py, 600 deals (sd 52.3;
#: bench/RESULTS.md): leading is worth about 36 points
GHOST13_DEAL_MEAN = 35.90
GHOST13_DEAL_MARGIN = 4.19
#: how many random deals the mean was estimated from
GHOST13_DEAL_SAMPLES = 600


def deal_value(pos: Position, solver: Solver | None = None) -> int:
    """The exact value of a dealt position for the player on move (the leader)."""
    return (solver or Solver()).solve(pos).value


@dataclass
class HandLuck:
    """One hand's luck: the deal's exact value for the leader (Ghost 13; None: sampled), each player's
    luck (value less the mean), result (points, theirs minus the others') and luck-adjusted result;
    sampled: each luck's standard error, and the deal's and draws' parts."""

    number: int
    leader: str
    value: int | None
    luck: dict[str, float]
    result: dict[str, float]
    adjusted: dict[str, float]
    #: the standard error of each player's luck (sampled; empty: exact)
    error: dict[str, float] = field(default_factory=dict)
    sampled: SampledLuck | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.number, "leader": self.leader}
        if self.value is not None:
            out["deal_value"] = self.value
        out |= {
            "luck": {p: round(x, 2) for p, x in self.luck.items()},
            "result": {p: round(x, 2) for p, x in self.result.items()},
            "adjusted": {p: round(x, 2) for p, x in self.adjusted.items()},
        }
        if self.sampled is not None:
            out["margin"] = {p: round(Z95 * x, 2) for p, x in self.error.items()}
        return out


@dataclass
class Skill:
    """A player's skill over some decisions: the non-forced ones, the points lost over them."""

    name: str
    decisions: int = 0
    unforced: int = 0
    lost: float = 0.0

    @property
    def error_rate(self) -> float | None:
        """Mean points lost per non-forced decision (None: none)."""
        return self.lost / self.unforced if self.unforced else None

    @property
    def rating(self) -> float | None:
        """Points lost per 100 non-forced decisions (0: perfect play)."""
        rate = self.error_rate
        return None if rate is None else 100 * rate

    def add(self, d: Decision) -> None:
        self.decisions += 1
        if d.count > 1:
            self.unforced += 1
            self.lost += d.loss

    def as_dict(self) -> dict[str, Any]:
        rate, rating = self.error_rate, self.rating
        return {
            "name": self.name,
            "decisions": self.decisions,
            "unforced": self.unforced,
            "points_lost": round(self.lost, 2),
            "error_rate": None if rate is None else round(rate, 4),
            "play_rating": None if rating is None else round(rating, 2),
        }


@dataclass
class LuckAndSkill:
    """A match's luck by hand and in total, each player's luck-adjusted result, and skill."""

    hands: list[HandLuck] = field(default_factory=list)
    skill: list[Skill] = field(default_factory=list)
    #: hands not weighed for luck, and why
    skipped: dict[int, str] = field(default_factory=dict)
    #: the luck was sampled (the hidden games)
    sampled: bool = False

    def total(self, what: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for h in self.hands:
            for p, x in getattr(h, what).items():
                out[p] = out.get(p, 0.0) + x
        return out

    def margin(self) -> dict[str, float]:
        """The 95% margin of each player's total luck (sampled: the hands' errors are independent)."""
        squares: dict[str, float] = {}
        for h in self.hands:
            for p, x in h.error.items():
                squares[p] = squares.get(p, 0.0) + x * x
        return {p: Z95 * math.sqrt(x) for p, x in squares.items()}

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.sampled:
            out["method"] = "sampled"
        else:
            out["deal_mean"] = {
                "value": GHOST13_DEAL_MEAN,
                "margin": GHOST13_DEAL_MARGIN,
                "deals": GHOST13_DEAL_SAMPLES,
            }
        out |= {
            "hands": [h.as_dict() for h in self.hands],
            "skipped": [{"hand": n, "why": why} for n, why in sorted(self.skipped.items())],
            "luck": {p: round(x, 2) for p, x in self.total("luck").items()},
            "result": {p: round(x, 2) for p, x in self.total("result").items()},
            "adjusted": {p: round(x, 2) for p, x in self.total("adjusted").items()},
            "skill": [s.as_dict() for s in self.skill],
        }
        if self.sampled:
            out["margin"] = {p: round(x, 2) for p, x in self.margin().items()}
        return out


def luck_lines(review: MatchReview) -> list[str]:
    """Luck and skill in words, a line each (the text review and the HTML page)."""
    found = luck_and_skill(review)
    if found is None:
        return []
    out = []
    for sk in found.skill:
        rate, rating = sk.error_rate, sk.rating
        words = (
            "no non-forced decision" if rate is None else f"error rate {rate:.2f} points lost per non-forced decision"
        )
        if rating is not None:
            words += f", play rating {rating:.1f} (per 100; 0 is perfect)"
        out.append(f"{sk.name}: {words}, over {sk.unforced} non-forced of {sk.decisions} decisions")
    if found.hands:
        luck, result, adjusted = found.total("luck"), found.total("result"), found.total("adjusted")
        margin = found.margin()
        for p in review.players:
            if p in luck:
                pm = f" ± {margin[p]:.1f}" if p in margin else ""
                out.append(
                    f"{p}: luck {luck[p]:+.1f}{pm}, result {result[p]:+.1f}, luck-adjusted {adjusted[p]:+.1f}{pm} "
                    f"points over {len(found.hands)} hand{'s' * (len(found.hands) != 1)}"
                )
        if found.sampled:
            out.append(
                "Luck (sampled, ± a 95% margin): each deal's value for each player, as they could know it, less its "
                "mean over random deals, and each draw's value for the drawer less its mean over the tiles that "
                "could have been drawn; luck-adjusted: the result less the luck."
            )
        else:
            out.append(
                f"Luck: each deal's exact value for the leader less its mean over random deals "
                f"({GHOST13_DEAL_MEAN:+.2f} ± {GHOST13_DEAL_MARGIN:.2f}, {GHOST13_DEAL_SAMPLES} deals); "
                "luck-adjusted: the result less the luck."
            )
    for n, why in sorted(found.skipped.items()):
        out.append(f"hand {n}: no luck figure ({why})")
    return out


def skill_of(review: MatchReview) -> list[Skill]:
    """Each player's skill over the analysed decisions of the match."""
    out = {p: Skill(p) for p in review.players}
    for h in review.hands:
        for d in h.decisions:
            if d.player in out:
                out[d.player].add(d)
    return list(out.values())


def hand_luck(h: HandReview, players: list[str]) -> HandLuck | str:
    """A Ghost 13 hand's luck (see the module's docstring), or why it is not weighed."""
    if h.note is not None:
        return "not every decision was analysed"
    if not h.decisions or len(players) != 2:
        return "no decision analysed"
    first = h.decisions[0]
    if first.samples is not None:
        return "sampled values: luck is exact for Ghost 13 only"
    if any(d.kind not in ("play", "pass") for d in h.decisions):
        return "not a Ghost 13 hand"
    leader = first.player
    other = players[1] if players[0] == leader else players[0]
    value = int(first.best)
    lost = {p: sum(d.loss for d in h.decisions if d.player == p) for p in players}
    result = value - lost[leader] + lost[other]
    luck = value - GHOST13_DEAL_MEAN
    return HandLuck(
        h.number,
        leader,
        value,
        {leader: luck, other: -luck},
        {leader: result, other: -result},
        {leader: result - luck, other: luck - result},
    )


def sampled_hand_luck(h: HandReview, players: list[str]) -> HandLuck | str:
    """A hidden game's hand's sampled luck (:mod:`dominolog.analysis.luck_hidden`), or why it is not weighed."""
    found = h.luck
    if found is None:
        return "luck not sampled (only part of the hand analysed, or an analysis kept from before)"
    if found.result is None:
        return "the hand did not end"
    luck = {p: 0.0 for p in players}
    squares = {p: 0.0 for p in players}
    for part in found.parts:
        if part.player in luck:
            luck[part.player] += part.luck
            squares[part.player] += part.error * part.error
    result = found.result
    deal = {part.player for part in found.parts if part.kind == "deal"}
    if deal != set(players):
        return "; ".join(found.notes) or "the deal's luck not measured for every player"
    leader = found.leader or (h.decisions[0].player if h.decisions else players[0])
    return HandLuck(
        h.number,
        leader,
        None,
        luck,
        {p: result.get(p, 0.0) for p in players},
        {p: result.get(p, 0.0) - luck[p] for p in players},
        {p: math.sqrt(x) for p, x in squares.items()},
        found,
    )


def luck_and_skill(review: MatchReview) -> LuckAndSkill | None:
    """The match's luck (Ghost 13: exact values; the hidden games: sampled) and skill."""
    out = LuckAndSkill(skill=skill_of(review))
    if review.sampling is not None:
        if review.note is not None:
            return None
        out.sampled = True
        for h in review.hands:
            sampled = sampled_hand_luck(h, review.players)
            if isinstance(sampled, str):
                out.skipped[h.number] = sampled
            else:
                out.hands.append(sampled)
        return out
    if review.variant != "ghost13":
        return out if review.note is None else None
    for h in review.hands:
        found = hand_luck(h, review.players)
        if isinstance(found, str):
            out.skipped[h.number] = found
        else:
            out.hands.append(found)
    return out


def review_document(review: MatchReview) -> dict[str, Any]:
    """The review as ``analyze --json`` writes it (and the store keeps it): its own document, with the
    luck and skill of the match where they can be told."""
    doc = review.as_dict()
    found = luck_and_skill(review)
    if found is not None:
        doc["luck_and_skill"] = found.as_dict()
    return doc
