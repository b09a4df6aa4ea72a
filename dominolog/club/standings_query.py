"""The standings as ``dominolog standings`` is asked for them, shared by the command and the server
(``GET /api/standings``, ``/standings``): the filters checked with the command's messages, the store's
matches (and with ``loss`` the analyses it keeps), the result in one of the command's formats."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from dominolog.textsafe import shown
from dominolog.variants import VARIANTS

if TYPE_CHECKING:
    from dominolog.club.standings import Analysed, Filters, Standings
    from dominolog.club.summary import MatchSummary
    from dominolog.store import Store

#: the formats (``--format``)
FORMATS = ("text", "csv", "json", "html")
#: the width of the text tables when not written to a terminal
WIDTH = 100


def filters_of(variant: str | None, meta: list[str] | None, since: str | None, until: str | None) -> Filters:
    """The filters, or ValueError with the command's message (an unknown variant, a day or a
    ``key=value`` that is not one, ``--since`` after ``--until``)."""
    from dominolog.club.standings import Filters, parse_day, parse_meta

    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"unknown variant {shown(variant, 100)!r} (known: {', '.join(sorted(VARIANTS))})")
    try:
        filters = Filters(
            variant,
            parse_meta(meta or []),
            parse_day(since) if since is not None else None,
            parse_day(until) if until is not None else None,
        )
    except ValueError as exc:
        raise ValueError(shown(str(exc), 400)) from None
    if filters.since and filters.until and filters.since > filters.until:
        raise ValueError(f"--since {filters.since} is after --until {filters.until}")
    return filters


def store_summaries(
    store: Store, loss: bool = False, ids: list[str] | None = None, kept: MutableMapping[Any, Any] | None = None
) -> tuple[list[MatchSummary], dict[str, Analysed], list[str]]:
    """Every match of the store (or those of ``ids``, in the store's order), with ``loss`` the analysis
    it keeps of each (at the match's head), and what to warn of (a kept analysis that cannot be read:
    not counted). ``kept``: the summaries made before, by match and head (``dominolog serve``'s): a
    match that has not moved since is not read again; those made now are added to it."""
    from dominolog.club.standings import Analysed, match_summary

    analyses: dict[str, Analysed] = {}
    warnings: list[str] = []
    wanted = None if ids is None else set(ids)
    heads = {r["id"]: r["head"] for r in store.list_matches()} if kept is not None else {}
    out = []
    for mid in store.match_ids():
        if wanted is not None and mid not in wanted:
            continue
        key = (mid, heads.get(mid))
        summary = kept.get(key) if kept is not None and key[1] is not None else None
        if summary is None:
            summary = match_summary(mid, [rec for rec, _ in store.records(mid)], mid)
            if kept is not None and summary.head == key[1]:  # (not a match that moved while it was read)
                kept[key] = summary
        out.append(summary)
    if loss:
        from dominolog.analysis.shown import ReviewError, kept_shown

        for s in out:
            try:
                review, whole = kept_shown(store, s.match_id, s.head)
            except ReviewError as exc:
                warnings.append(f"{shown(str(exc), 400)}: not counted")
                continue
            if review is not None:
                analyses[s.match_id] = Analysed(review.decisions, whole, review.luck, review.adjusted, review.margin)
    return out, analyses, warnings


def rendered(result: Standings, fmt: str, width: int = WIDTH) -> str:
    """The standings in the format ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "text":
        from dominolog.club.standings_render import render_text

        return render_text(result, max(width, 80))
    if fmt == "csv":
        from dominolog.club.standings_render import render_csv

        return render_csv(result)
    if fmt == "json":
        from dominolog.club.standings_json import render_json

        return render_json(result)
    from dominolog.club.standings_html import render_html

    return render_html(result)
