"""Evidence of reneging: how much more likely a player's log is if they sometimes pass or draw while
holding a play than if they never do (a likelihood ratio, or Bayes factor), over one hand, a match
or a season.

**The model.** The tiles are shuffled uniformly (every world the log allows is equally likely, as
for the likelihood of one possible violation). At each turn where the player holds a play, an
*honest* player plays; a player who *reneges at rate r* passes or draws instead with probability
``r``, independently from turn to turn, and plays otherwise. How the player chooses among plays is
the same under both and cancels out. So in a world where ``k`` of the player's passes and draws of a
hand were reneges and the player made ``P`` plays, the player's choices have probability ``r^k
(1 - r)^P`` (times what cancels); an honest player's, 1 when ``k = 0`` and 0 otherwise. The rate
is not known: it is taken as uniform between 0 and 1 (the *prior*). Over the hands of a match or a
season (each its own shuffle, the same rate), the ratio of the two likelihoods is

    B = integral over r of  prod over hands h of  (1 - r)^P_h * sum_k (N_h,k / N_h,0) r^k  dr,

with ``N_h,k`` the worlds of hand ``h`` where exactly ``k`` of the player's passes and draws were
reneges (:mod:`dominolog.knowledge.reneges`). The product is a polynomial in ``r``; ``integral of
r^a (1 - r)^b`` is ``a! b! / (a + b + 1)!``. ``B > 1``: the log is more likely from a player who
sometimes reneges; ``B < 1`` from an honest one (a hand without a possible renege gives ``1 / (P +
1)``: the plays speak for honesty). When no world keeps every pass of a hand honest (a renege the
log proves), ``B`` is infinite: the hand is *proven*.

A hand whose tallies were sampled gives its ratios ``N_k / N_0`` with 95% margins; the evidence is
then worked out also with every sampled ratio at the low and at the high end of its margin (``B``
grows with each ratio), and those two are its bounds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Evidence", "HandWeights", "combine", "hand_bayes_factor"]


@dataclass(frozen=True, slots=True)
class HandWeights:
    """What one hand of one player weighs: ``ratios[k]`` = worlds with ``k`` reneges / worlds with
    none (``ratios[0]`` is 1), ``plays`` (P), the passes and draws (``turns``) and how many the facts
    left open (``open``); ``proven``: no world keeps every pass honest. ``low``/``high``: the ratios
    at the ends of their 95% margins (sampled; None when counted: ``exact``). ``counts``: the worlds
    by reneges (integers) when counted."""

    ratios: tuple[float, ...]
    plays: int
    turns: int
    open: int
    exact: bool = True
    proven: bool = False
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    counts: tuple[int, ...] | None = None

    @property
    def decisions(self) -> int:
        """The turns the evidence rests on: plays, passes and draws."""
        return self.plays + self.turns


@dataclass(frozen=True, slots=True)
class Evidence:
    """The evidence over some hands: ``log10`` of the Bayes factor (None when a hand is proven),
    its bounds (equal to it when every hand was counted), the hands, the decisions (plays, passes
    and draws) and the passes and draws the facts left open that it rests on, the hands proven, and
    the exact factor as a fraction when every hand was counted (and it was asked for)."""

    log10: float | None
    low: float | None
    high: float | None
    hands: int
    decisions: int
    open: int
    proven: int
    exact: bool
    fraction: Fraction | None = None

    @property
    def factor(self) -> float | None:
        """The Bayes factor itself (None when proven; ``inf`` past what a float holds)."""
        if self.log10 is None:
            return None
        return 10.0**self.log10 if self.log10 < 300 else math.inf

    def as_dict(self) -> dict[str, object]:
        """The evidence as the documents carry it (its model: knowledge/evidence_doc.py, EvidenceDoc)."""
        d: dict[str, object] = {
            "bayes_factor": None if self.log10 is None else _round(self.factor),
            "log10": None if self.log10 is None else round(self.log10, 4),
            "exact": self.exact,
            "hands": self.hands,
            "decisions": self.decisions,
            "open": self.open,
            "proven": self.proven,
        }
        if not self.exact and self.log10 is not None:
            d["log10_low"] = None if self.low is None else round(self.low, 4)
            d["log10_high"] = None if self.high is None else round(self.high, 4)
        if self.fraction is not None:
            d["fraction"] = {"numerator": self.fraction.numerator, "denominator": self.fraction.denominator}
        return d


def _round(x: float | None) -> float | None:
    if x is None or math.isinf(x):
        return x
    return float(f"{x:.4g}")


def _log_beta(a: int, b: int) -> float:
    """log of the integral of r^a (1 - r)^b over [0, 1] = a! b! / (a + b + 1)!."""
    return math.lgamma(a + 1) + math.lgamma(b + 1) - math.lgamma(a + b + 2)


def _log_factor(polys: Iterable[Sequence[float]], plays: int) -> float:
    """log of the integral of (1 - r)^plays times the product of the polynomials (coefficients from
    r^0 up; each scaled to its largest, the scales kept as logs)."""
    coef = [1.0]
    scale = 0.0
    for p in polys:
        top = max(p)
        scale += math.log(top)
        q = [x / top for x in p]
        out = [0.0] * (len(coef) + len(q) - 1)
        for i, a in enumerate(coef):
            if a:
                for j, b in enumerate(q):
                    out[i + j] += a * b
        top = max(out)
        scale += math.log(top)
        coef = [x / top for x in out]
    terms = [math.log(c) + _log_beta(k, plays) for k, c in enumerate(coef) if c > 0]
    m = max(terms)
    return scale + m + math.log(sum(math.exp(t - m) for t in terms))


def hand_bayes_factor(counts: Sequence[int], plays: int) -> Fraction:
    """One counted hand's factor exactly: ``sum_k N_k k! P! / (k + P + 1)!`` over ``N_0``."""
    return _exact([tuple(counts)], plays)


def _exact(hands: Sequence[Sequence[int]], plays: int) -> Fraction:
    poly = [Fraction(1)]
    for counts in hands:
        n0 = counts[0]
        out = [Fraction(0)] * (len(poly) + len(counts) - 1)
        for i, a in enumerate(poly):
            for j, b in enumerate(counts):
                out[i + j] += a * Fraction(b, n0)
        poly = out
    f = math.factorial
    return sum((c * Fraction(f(k) * f(plays), f(k + plays + 1)) for k, c in enumerate(poly)), Fraction(0))


def combine(hands: Sequence[HandWeights], fraction: bool = False) -> Evidence:
    """The evidence over ``hands`` (one player's, the same rate in all; see the module's docstring).
    ``fraction``: also the exact factor when every hand was counted (small sets of hands: a match)."""
    plays = sum(h.plays for h in hands)
    decisions = sum(h.decisions for h in hands)
    opened = sum(h.open for h in hands)
    proven = sum(1 for h in hands if h.proven)
    exact = all(h.exact for h in hands)
    if proven:
        return Evidence(None, None, None, len(hands), decisions, opened, proven, exact)
    ln10 = math.log(10)
    mid = _log_factor([h.ratios for h in hands], plays) / ln10
    if exact:
        low = high = mid
    else:
        low = _log_factor([h.low or h.ratios for h in hands], plays) / ln10
        high = _log_factor([h.high or h.ratios for h in hands], plays) / ln10
    frac = None
    if fraction and exact and all(h.counts is not None for h in hands):
        frac = _exact([h.counts for h in hands if h.counts is not None], plays)
    return Evidence(mid, low, high, len(hands), decisions, opened, proven, exact, frac)


def words(ev: Evidence, player: str) -> str:
    """What the figure means, in a sentence (never an accusation)."""
    rests = (
        f"over {ev.hands} hand{'s' * (ev.hands != 1)}, {ev.decisions} turn{'s' * (ev.decisions != 1)}, "
        f"{ev.open} of them pass{'es' * (ev.open != 1)} or draw{'s' * (ev.open != 1)} the log leaves open"
    )
    if ev.log10 is None:
        return (
            f"{player}: the log proves a renege in {ev.proven} hand{'s' * (ev.proven != 1)} "
            f"(no way to fill the hidden hands makes every pass and draw honest; {rests})."
        )
    f = ev.factor or 0.0
    shown = _times(f)
    margin = ""
    if not ev.exact and ev.low is not None and ev.high is not None:
        margin = f" (between {_times(10**ev.low)} and {_times(10**ev.high)}, sampled)"
    if f >= 1:
        how = f"{shown} as likely{margin} if {player} sometimes passed or drew while holding a play as if never"
    else:
        inverse = _times(1 / f) if f > 0 else "infinitely"
        how = f"{inverse} as likely{margin} if {player} never passed or drew while holding a play as if sometimes"
    return f"{player}: the log is {how} ({rests}). Evidence, not a finding: honest play gives such figures too."


def _times(x: float) -> str:
    if math.isinf(x) or x >= 1e6:
        return f"{x:.1e} times"
    if x >= 100:
        return f"{x:,.0f} times"
    return f"{x:.2g} times" if x < 10 else f"{x:.1f} times"
