"""What the rules find in a match, as data: an :class:`Issue` (a violation, or a rule hidden tiles leave
unverified) with the rulings it names, its tiles, players and reason; the :class:`Likelihood` of a
possible one; a :class:`PendingCheck`, a rule kept to be judged once the hidden tiles are known. The
reducer's state (:mod:`dominolog.state`) carries them; the audit, verify and the faces read them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dominolog.frozen import by_fields
from dominolog.tiles import Tile


@dataclass(init=False, slots=True, frozen=True)
class Likelihood:
    """How likely a possible violation is: the ``share`` (0 to 1) of the worlds the log allows in
    which the rule is broken (:mod:`dominolog.knowledge.likelihood` says which worlds, and how).

    ``exact``: the worlds were counted; otherwise ``share`` is an estimate from ``samples`` sampled
    worlds, within ``margin`` of the share with 95% confidence.
    """

    share: float
    exact: bool
    margin: float | None = None
    samples: int | None = None

    def __init__(
        self,
        share: float,
        exact: bool,
        margin: float | None = None,
        samples: int | None = None,
    ) -> None:
        object.__setattr__(self, "share", share)
        object.__setattr__(self, "exact", exact)
        object.__setattr__(self, "margin", margin)
        object.__setattr__(self, "samples", samples)

    def as_dict(self) -> dict[str, Any]:
        """``{"share", "exact"}``, and ``"margin"`` and ``"samples"`` for an estimate (shares rounded
        to 4 decimals)."""
        d: dict[str, Any] = {"share": round(self.share, 4), "exact": self.exact}
        if self.margin is not None:
            d["margin"] = round(self.margin, 4)
        if self.samples is not None:
            d["samples"] = self.samples
        return d

    def clause(self, code: str) -> str:
        """The likelihood in words, for a message: ``a renege in 42% of the hands the log allows``
        (``a violation`` for another code)."""
        what = "a renege" if code == "renege" else "a violation"
        return f"{what} in {self.percent()} of the hands the log allows"

    def percent(self) -> str:
        """The share in words: ``42%``, ``0.3%``, ``about 42% (± 3%)`` for an estimate."""
        text = percent(self.share)
        if self.exact or self.margin is None:
            return text
        return f"about {text} (± {percent(self.margin, floor=False)})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)


def percent(share: float, floor: bool = True) -> str:
    """A share as a percentage for a reader: whole percents from 1% to 99%, else two significant
    digits (``0.37%``, ``99.6%``); with ``floor``, a share strictly between 0 and 1 never reads
    0% or 100% (``under 0.01%``)."""
    p = 100 * share
    if floor and 0 < p < 0.01:
        return "under 0.01%"
    if floor and 99.99 < p < 100:
        return "over 99.99%"
    if 1 <= p <= 99 or p == 0 or p == 100:
        return f"{p:.0f}%"
    if p < 1:
        return f"{float(f'{p:.2g}'):g}%"
    return f"{100 - float(f'{100 - p:.2g}'):g}%"


def hidden_line(hidden: int, least: float) -> str:
    """What ``--min-likelihood`` left out: ``12 possible violations under 50% likely not shown
    (--min-likelihood 0.5)``."""
    return (
        f"{hidden} possible violation{'s' * (hidden != 1)} under {percent(least)} likely not shown "
        f"(--min-likelihood {least:g})"
    )


@dataclass(init=False, slots=True, frozen=True)
class Issue:
    """A violation (or an unverified rule) at one event of a match; a possible violation may carry
    its :class:`Likelihood`.

    A finding is data where it is found: besides its words (``message``, for a reader; nothing reads
    it back), the reporting code gives ``rules``, the ids of ``docs/rulings.md`` it rests on (none for
    the log's form: ``malformed``, ``hash-mismatch``...), ``tiles``, the tiles it names as its
    evidence (a renege's tiles that could be played), ``players``, whom it is about, and for a rule
    left unverified, ``reason``, why it could not be checked (``""``: hidden tiles, no more said).
    """

    seq: int
    line: int
    code: str
    message: str
    likelihood: Likelihood | None = None
    rules: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    reason: str = ""

    def __init__(
        self,
        seq: int,
        line: int,
        code: str,
        message: str,
        likelihood: Likelihood | None = None,
        rules: tuple[str, ...] = (),
        tiles: tuple[str, ...] = (),
        players: tuple[str, ...] = (),
        reason: str = "",
    ) -> None:
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "likelihood", likelihood)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "reason", reason)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": self.seq, "line": self.line, "code": self.code, "message": self.message}
        if self.likelihood is not None:
            d["likelihood"] = self.likelihood.as_dict()
        return d

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)


#: A rule that hidden tiles kept from being checked, re-judged once the reveals are in:
#: given what the player surely held, what they may have held, and how many tiles they
#: held, it answers (True: broken, False: kept, None: still unknown; what the tiles show, in words,
#: and the tiles those words name).
Judge = Callable[[frozenset[Tile], frozenset[Tile], int], tuple[bool | None, str, tuple[Tile, ...]]]


@dataclass(init=False, slots=True, frozen=True)
class PendingCheck:
    """An unverified rule about ``player``'s hand just before the event at ``seq``.

    ``known`` and ``possible`` are what was known of the hand then, going forward
    (tiles known to be there; tiles that could be there); ``count`` how many it held.
    ``action`` is what the player did (``"Ben draws"``), ``message`` the violation's text should
    the reveals show the rule broken, and ``rules`` the rulings it would break.
    """

    seq: int
    player: str
    count: int
    known: frozenset[Tile]
    possible: frozenset[Tile]
    judge: Judge
    message: str
    action: str
    rules: tuple[str, ...]

    def __init__(
        self,
        seq: int,
        player: str,
        count: int,
        known: frozenset[Tile],
        possible: frozenset[Tile],
        judge: Judge,
        message: str,
        action: str,
        rules: tuple[str, ...],
    ) -> None:
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "known", known)
        object.__setattr__(self, "possible", possible)
        object.__setattr__(self, "judge", judge)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "rules", rules)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)
