"""The standings' fair-play column (``standings --fairplay``): each player's evidence of reneging over
the season (every match of the table, as filtered) and by event, with how many hands and turns it
rests on, in text, CSV, JSON and HTML. The figures are :mod:`dominolog.knowledge.evidence`'s; the
words say what they mean (evidence, never an accusation)."""

from __future__ import annotations

import math
from typing import Any

from dominolog.club.standings import FairPlayFigures, PlayerRow
from dominolog.knowledge.evidence import Evidence

#: what the fair-play column means, under the legend
FAIRPLAY_LEGEND = (
    "fair play (--fairplay): evidence of reneging, not a finding: how many times more likely the player's logs "
    "are if they sometimes passed or drew while holding a play than if never (a Bayes factor, the rate uniform "
    "on [0, 1], every way to fill the hidden hands equally likely; docs/audit.md), over every match of the table "
    "(invalid ones too) and by event; below 1 leans to honest play; 'proven': a log proves a renege; '~': some "
    "hands sampled; honest players stayed below 100 in the simulated seasons of bench/RESULTS.md."
)

#: the CSV's columns with --fairplay, after the others
FAIRPLAY_HEADER = ["fairplay_bayes_factor", "fairplay_log10", "fairplay_proven", "fairplay_hands", "fairplay_turns"]


def figure(ev: Evidence | None) -> str:
    """The evidence in a few characters: ``0.031``, ``~12``, ``proven``, or ``-``."""
    if ev is None:
        return "-"
    if ev.log10 is None:
        return "proven"
    f = ev.factor or 0.0
    text = f"{f:.2g}" if f < 10 else (f"{f:,.0f}" if f < 1e6 else f"{f:.1e}")
    return text if ev.exact else f"~{text}"


def text_cells(f: FairPlayFigures | None) -> list[str]:
    """The text and HTML cells: the season's figure, the hands and turns it rests on, and by event."""
    if f is None:
        return ["-", "-", "-", "-"]
    s = f.season
    events = "; ".join(f"{e or '(none)'} {figure(ev)}" for e, ev in f.events.items()) if len(f.events) > 1 else ""
    return [figure(s), str(s.hands), str(s.decisions), events or "-"]


def csv_cells(f: FairPlayFigures | None) -> list[Any]:
    if f is None:
        return [""] * len(FAIRPLAY_HEADER)
    s = f.season
    factor = "" if s.factor is None else (float(f"{s.factor:.6g}") if not math.isinf(s.factor) else "inf")
    log10 = "" if s.log10 is None else round(s.log10, 4)
    return [factor, log10, s.proven, s.hands, s.decisions]


def player_json(r: PlayerRow) -> dict[str, Any]:
    """The player's ``fairplay`` key of the standings document (nothing without --fairplay)."""
    f = r.fairplay
    if f is None:
        return {}
    return {
        "fairplay": {
            "matches": f.matches,
            "season": f.season.as_dict(),
            "events": [{"event": e, **ev.as_dict()} for e, ev in f.events.items()],
        }
    }
