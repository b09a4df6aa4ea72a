"""What a review of a match holds: its decisions, hands and per-player figures (exact or sampled).

A :class:`Decision` is one move of a player with every legal option valued in points for that
player, the move played, its rank (``#k of N``, ``k`` = 1 + the number of options worth strictly
more) and the points it lost (best minus played). Ghost 13 values are exact integers
(:mod:`dominolog.analysis.review`); the other variants' values are means over sampled deals
(:mod:`dominolog.analysis.sampling`), rounded to 2 decimals, with their spread (the standard
deviation over the deals) and how many deals they are over (``samples``: the same for every option
of a decision).

Per player, only the decisions with something at stake count (a *choice*: the options do not all
have the same value; for sampled values, the rounded means differ); forced moves are listed but
counted apart. The figures:

- ``match rate``: the share of choices where a best move was played;
- ``average loss``: points lost per choice;
- ``accuracy = 100 * mean over choices of (1 - loss / max(1, best - worst))``: how much of each
  decision's range (best minus worst option) was kept. Hands swing by tens of points, so a
  scale-free share is used rather than an exponential in raw points (KaTrain's
  ``100 * 0.75 ** average_loss``), which would call a 10-point slip in a 100-point range as bad
  as one that throws away the whole of a 10-point range.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from dominolog.analysis.playout import POLICY

ACCURACY = "accuracy = 100 x mean over choices of (1 - loss / max(1, best - worst))"
#: how many of a player's mistakes are listed
TOP = 5

Number = int | float


def rounded(x: Number) -> Number:
    """An exact value as it is; a sampled one to 2 decimals (never ``-0.0``)."""
    return x if isinstance(x, int) else round(x, 2) + 0.0


@dataclass
class Decision:
    seq: int
    player: str
    played: str
    value: Number
    #: every legal option with its value, in the variant's order
    options: list[tuple[str, Number]]
    best: Number
    worst: Number
    best_move: str
    rank: int
    hand: int = 0
    #: play, pass, draw, declare, block_call
    kind: str = "play"
    #: sampled values: how many deals were sampled (None: exact)
    samples: int | None = None
    #: sampled values: each option's standard deviation over the deals
    spreads: list[float] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.options)

    @property
    def loss(self) -> Number:
        return rounded(self.best - self.value)

    @property
    def choice(self) -> bool:
        """Something was at stake: the options do not all have the same value."""
        return self.best != self.worst

    @property
    def kept(self) -> float:
        """The share of the decision's range kept (1 for a best move)."""
        return 1 - self.loss / max(1, self.best - self.worst)

    @property
    def spread(self) -> float | None:
        """The played option's standard deviation over the deals (None: exact)."""
        if self.samples is None:
            return None
        i = next(k for k, (m, _) in enumerate(self.options) if m == self.played)
        return self.spreads[i]

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "seq": self.seq,
            "kind": self.kind,
            "player": self.player,
            "played": self.played,
            "value": self.value,
            "best": self.best,
            "best_move": self.best_move,
            "worst": self.worst,
            "rank": self.rank,
            "options": [{"move": m, "value": v} for m, v in self.options],
            "loss": self.loss,
        }
        if self.samples is not None:
            out["samples"] = self.samples
            out["spread"] = self.spread
            for o, s in zip(out["options"], self.spreads, strict=True):
                o["spread"] = s
                o["samples"] = self.samples
        return out


@dataclass
class LuckPart:
    """The luck of one deal or draw for one player, sampled (:mod:`dominolog.analysis.luck_hidden`):
    the value after it less the mean over what could have come, and the standard error of that."""

    seq: int
    #: deal or draw
    kind: str
    player: str
    #: the tile drawn (None: a deal)
    tile: str | None
    value: float
    mean: float
    error: float
    #: the deals the value is over, and those the mean is over
    samples: int
    others: int

    @property
    def luck(self) -> float:
        return self.value - self.mean

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "player": self.player,
            "tile": self.tile,
            "value": round(self.value, 2),
            "mean": round(self.mean, 2),
            "luck": round(self.luck, 2),
            "error": round(self.error, 2),
            "samples": self.samples,
            "others": self.others,
        }


@dataclass
class SampledLuck:
    """A hidden game's hand: the luck of its deal and of its draws seen, each player's result (points
    as :func:`~dominolog.analysis.playout.value_for` counts them; None: the hand did not end) and what
    was left out."""

    parts: list[LuckPart] = field(default_factory=list)
    result: dict[str, float] | None = None
    notes: list[str] = field(default_factory=list)
    #: who led the hand (the deal says it)
    leader: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "parts": [p.as_dict() for p in self.parts],
            "result": None if self.result is None else {p: round(x, 2) for p, x in self.result.items()},
            "notes": list(self.notes),
        }


def luck_from_dict(doc: dict[str, Any]) -> SampledLuck:
    parts = [
        LuckPart(
            int(p["seq"]),
            str(p["kind"]),
            str(p["player"]),
            p["tile"],
            float(p["value"]),
            float(p["mean"]),
            float(p["error"]),
            int(p["samples"]),
            int(p["others"]),
        )
        for p in doc["parts"]
    ]
    result = doc["result"]
    played = None if result is None else {str(k): float(v) for k, v in dict(result).items()}
    leader = doc.get("leader")
    return SampledLuck(parts, played, [str(n) for n in doc["notes"]], None if leader is None else str(leader))


@dataclass
class HandReview:
    number: int
    decisions: list[Decision] = field(default_factory=list)
    #: why the hand (or part of it) was not analysed, or what was sampled beyond the usual, if so
    note: str | None = None
    #: the deal was recorded hidden (Ghost 13: and made known by the reveals)
    hidden: bool = False
    #: the sampled luck of the hand's deal and draws (the hidden games, a whole hand analysed)
    luck: SampledLuck | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "hidden_deal": self.hidden,
            "note": self.note,
            "decisions": [d.as_dict() for d in self.decisions],
        }
        if self.luck is not None:
            out["luck"] = self.luck.as_dict()
        return out


@dataclass
class PlayerReview:
    name: str
    decisions: int = 0
    choices: int = 0
    total_loss: Number = 0
    best_played: int = 0
    kept: float = 0.0
    mistakes: list[Decision] = field(default_factory=list)

    @property
    def average_loss(self) -> float:
        return self.total_loss / self.choices if self.choices else 0.0

    @property
    def match_rate(self) -> float:
        return 100 * self.best_played / self.choices if self.choices else 100.0

    @property
    def accuracy(self) -> float:
        return 100 * self.kept / self.choices if self.choices else 100.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "decisions": self.decisions,
            "choices": self.choices,
            "total_loss": rounded(self.total_loss),
            "average_loss": round(self.average_loss, 2),
            "match_rate": round(self.match_rate, 1),
            "accuracy": round(self.accuracy, 1),
            "mistakes": [{"hand": d.hand, "seq": d.seq, "loss": d.loss} for d in self.mistakes],
        }


@dataclass
class Sampling:
    """How a sampled review was made (see :mod:`dominolog.analysis.sampling`)."""

    samples: int
    seed: int

    def as_dict(self) -> dict[str, Any]:
        return {"samples": self.samples, "seed": self.seed, "policy": POLICY}


@dataclass
class MatchReview:
    source: str
    match_id: str | None
    variant: str | None
    players: list[str]
    #: why the match was not analysed, if so
    note: str | None = None
    hands: list[HandReview] = field(default_factory=list)
    summary: list[PlayerReview] = field(default_factory=list)
    #: None: exact values (Ghost 13)
    sampling: Sampling | None = None
    #: the match's head hash when it was analysed (the analysis is of the log up to there)
    head: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source,
            "match_id": self.match_id,
            "variant": self.variant,
            "players": self.players,
            **({"head": self.head} if self.head is not None else {}),
            "note": self.note,
            "accuracy": ACCURACY,
            "summary": [p.as_dict() for p in self.summary],
            "hands": [h.as_dict() for h in self.hands],
        }
        if self.sampling is not None:
            out["method"] = "sampled"
            out["sampling"] = self.sampling.as_dict()
        elif self.note is None:
            out["method"] = "exact"
        return out


class Planned(Protocol):
    source: str
    match_id: str | None
    variant: str | None
    players: list[str]


def assemble(plan: Planned, hands: list[HandReview], sampling: Sampling | None = None) -> MatchReview:
    """The match's review from its hands' reviews: the per-player figures and biggest mistakes."""
    review = MatchReview(plan.source, plan.match_id, plan.variant, plan.players, hands=hands, sampling=sampling)
    players = {p: PlayerReview(p) for p in plan.players}
    for h in hands:
        for d in h.decisions:
            f = players[d.player]
            f.decisions += 1
            if not d.choice:
                continue
            f.choices += 1
            f.total_loss += d.loss
            f.best_played += d.loss == 0
            f.kept += d.kept
            if d.loss > 0:
                f.mistakes.append(d)
    for f in players.values():
        f.total_loss = rounded(f.total_loss)
        f.mistakes = sorted(f.mistakes, key=lambda d: (-d.loss, d.hand, d.seq))[:TOP]
    review.summary = list(players.values())
    return review


def _decision(d: dict[str, Any]) -> Decision:
    options = [(o["move"], o["value"]) for o in d["options"]]
    samples = d.get("samples")
    return Decision(
        d["seq"],
        d["player"],
        d["played"],
        d["value"],
        options,
        d["best"],
        d["worst"],
        d["best_move"],
        d["rank"],
        d["hand"],
        d.get("kind", "play"),
        samples,
        [o["spread"] for o in d["options"]] if samples is not None else [],
    )


def review_from_dict(doc: dict[str, Any]) -> MatchReview:
    """The review :meth:`MatchReview.as_dict` gave (as a store keeps it), whole again: the per-player
    figures are assembled anew from the decisions, as they were the first time. ``KeyError``,
    ``TypeError`` or ``ValueError`` for a document that is not such a review."""
    hands = [
        HandReview(
            h["number"],
            [_decision(d) for d in h["decisions"]],
            h.get("note"),
            bool(h.get("hidden_deal")),
            luck_from_dict(h["luck"]) if h.get("luck") is not None else None,
        )
        for h in doc["hands"]
    ]
    sampling = doc.get("sampling")
    plan = MatchReview(doc["source"], doc.get("match_id"), doc.get("variant"), list(doc["players"]))
    if doc.get("note"):
        plan.note = doc["note"]
        plan.head = doc.get("head")
        return plan
    review = assemble(plan, hands, Sampling(sampling["samples"], sampling["seed"]) if sampling else None)
    review.head = doc.get("head")
    return review
