"""Analyses kept in the store (:mod:`dominolog.store.analyses`): what ``analyze --db`` writes and what the
viewer, the audit report and the standings read back.

A review is kept under the match's head, :data:`VERSION` and its settings. The settings say what was
analysed and how: ``{"samples": K, "seed": S}`` for the sampled variants, ``{}`` for Ghost 13 (exact),
plus ``hand``, ``from_seq`` or ``last`` when only part of the match was analysed. A reader that wants
"the analysis of this match" takes the newest whole one (no part settings), else the newest of any.
"""

from __future__ import annotations

from typing import Any, Protocol

#: the analysis version: raise it when the values an analysis gives change (a rule fixed, a new
#: decision kind, another playout policy), so that older kept analyses are not shown as current.
#: "2": the sampled reviews of the hidden games carry the luck of their deals and draws (issue 38); a
#: review kept before it has none, so it is analysed again rather than shown without its luck.
VERSION = "2"

#: settings that make an analysis partial
PART = ("hand", "from_seq", "last")


class Kept(Protocol):
    def analyses_of(self, match_id: str, head: str, version: str) -> list[tuple[dict[str, Any], dict[str, Any]]]: ...


def settings_of(
    samples: int | None = None,
    seed: int | None = None,
    hand: int | None = None,
    from_seq: int = 0,
    last: int | None = None,
) -> dict[str, Any]:
    """The settings key of an analysis (only what changes its result)."""
    out: dict[str, Any] = {}
    if samples is not None:
        out["samples"] = samples
        out["seed"] = seed
    if hand is not None:
        out["hand"] = hand
    if from_seq:
        out["from_seq"] = from_seq
    if last is not None:
        out["last"] = last
    return out


def settings_for(
    variant: str | None,
    hand: int | None = None,
    from_seq: int = 0,
    last: int | None = None,
    samples: int = 20,
    seed: int = 0,
) -> dict[str, Any]:
    """The settings key of ``dominolog analyze`` on a match of ``variant`` (samples and seed only for
    the sampled variants; the defaults are the command's)."""
    from dominolog.analysis.sampling import SAMPLED

    sampled = variant in SAMPLED
    return settings_of(samples if sampled else None, seed if sampled else None, hand, from_seq, last)


def is_whole(settings: dict[str, Any]) -> bool:
    return not any(k in settings for k in PART)


def kept_review(store: Kept, match_id: str, head: str) -> dict[str, Any] | None:
    """The analysis of the match at ``head`` the store keeps: the newest whole one, else the newest."""
    found = store.analyses_of(match_id, head, VERSION)
    for settings, review in found:
        if is_whole(settings):
            return review
    return found[0][1] if found else None
