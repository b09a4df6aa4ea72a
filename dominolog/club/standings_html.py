"""The standings as one self-contained HTML page: per variant, the tables of the text output, the
rating history of its players as an inline SVG chart (mu, with a band of one sigma either side) and
each player's history (the rating after each match) under it. No script, nothing loaded."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from dominolog.club import standings_fairplay as fairplay
from dominolog.club.chart import Series, line_chart
from dominolog.club.ratings import new_rating
from dominolog.club.standings import PlayerRow, Standings, VariantTable
from dominolog.club.standings_render import (
    LEGEND,
    LOSS_LEGEND,
    analysed_line,
    counts_line,
    filters_line,
    fixed,
    loss_cells,
    points_cells,
    rating_cells,
    record_cells,
)
from dominolog.htmlpage import Live, html_page, render
from dominolog.textsafe import shown

EXTRA_CSS = """
.scroll { overflow-x: auto; }
table.standings { margin: 0 0 .8rem; }
table.standings caption { text-align: left; font-weight: 600; padding: .2rem 0; }
table.standings tbody.pairs tr:first-child td { border-top: 2px solid var(--line); }
details.history { margin: .3rem 0; }
details.history summary { cursor: pointer; }
ul.legend { color: var(--muted); font-size: .85rem; padding-left: 1.1rem; }
@media print { details.history { display: none; } }
"""


#: with the points lost (``--loss``)
LOSS_CSS = """
p.analysed { color: var(--muted); font-size: .9rem; margin: 0 0 .8rem; }
"""


def _table(
    caption: str,
    headers: list[str],
    first_text: int,
    rows: list[list[str]],
    pairs: list[list[str]] | None = None,
    cls: str = "standings",
) -> dict[str, Any]:
    """A table of the page (``templates/club/standings.html``): the first ``first_text`` columns text,
    the others numbers; ``pairs``: the partnerships' rows, in a body of their own."""
    return dict(caption=caption, headers=headers, first_text=first_text, rows=rows, pairs=pairs or [], cls=cls)


def _chart(t: VariantTable) -> str:
    """The rating (mu, band of sigma) of each rated player after each rated match they played."""
    rated = [r for r in t.players if r.rating is not None]
    if not t.rated or not rated:
        return ""
    ids = {s.match_id: i for i, s in enumerate(t.rated, 1)}
    start = new_rating()
    series = []
    for r in rated:
        assert r.rating is not None
        # every line starts where OpenSkill starts everyone (mu 25, sigma 25/3), then one point per match
        mus: list[float | None] = [start.mu] + [None] * len(t.rated)
        sigmas: list[float | None] = [start.sigma] + [None] * len(t.rated)
        for point in r.rating.history:
            i = ids[point.match_id]
            mus[i], sigmas[i] = point.mu, point.sigma
        series.append(Series(shown(r.name, 60), mus, spread=sigmas))  # (the chart escapes it for HTML)
    labels = ["start"] + [(s.date or "?")[:10] for s in t.rated]
    return line_chart(
        series,
        [shown(x, 20) for x in labels],
        f"{t.title}: rating after each match (mu; band: one sigma either side)",
        "rating (mu)",
    )


def _history(r: PlayerRow) -> dict[str, Any] | None:
    if r.rating is None or not r.rating.history:
        return None
    rows = [
        [h.date or "-", shown(h.match_id, 120), fixed(h.mu), fixed(h.sigma), fixed(h.ordinal)] for h in r.rating.history
    ]
    return {"name": r.name, "table": _table("", ["date", "match", "mu", "sigma", "ordinal"], 2, rows)}


def _variant(t: VariantTable, include_invalid: bool, loss: bool = False, fair: bool = False) -> dict[str, Any]:
    """One variant's part of the page: its tables, the chart and each player's history."""
    part: dict[str, Any] = {"variant": t.variant, "title": t.title, "counts": counts_line(t, include_invalid)}
    part.update(tables=[], analysed_line=None, after=[], chart="", histories=[])
    if not t.players:
        return part
    invalid = "invalid (counted)" if include_invalid else "invalid (not counted)"
    rows = [[str(r.place or "-"), r.name, *rating_cells(r.rating), *record_cells(r.tally)] for r in t.players]
    pairs = [["", p.name, "", "", "", "", *record_cells(p.tally)] for p in t.partnerships]
    headers = ["#", "player", "ordinal", "mu", "sigma", "rated", "played", "won", "lost", "drawn", "aband.", invalid]
    word = "points" if t.higher_wins else "penalties"
    points_headers = ["player", "hands", "won by domino", "won by block", "won other", f"{word} for"]
    points_headers += [f"{word} against", "for per hand", "against per hand"]
    play_rows = [
        [
            r.name,
            fixed(r.block_pips_average, 1),
            fixed(r.passes_per_hand),
            fixed(r.draws_per_hand),
            str(r.reneges),
            str(r.possible_reneges),
            fixed(r.seconds_per_move, 1),
        ]
        for r in t.players
    ]
    play_headers = ["player", "pips left at a block", "passes per hand", "draws per hand", "reneges"]
    play_headers += ["possible reneges", "seconds per move"]
    part["tables"] = [
        _table("Record and rating", headers, 2, rows, pairs),
        _table(
            "Hands and points",
            points_headers,
            1,
            [[r.name, *points_cells(r.tally)] for r in t.players],
            [[p.name, *points_cells(p.tally)] for p in t.partnerships],
        ),
        _table("Play", play_headers, 1, play_rows),
    ]
    if loss:  # the points lost (--loss) and how many matches were analysed
        part["analysed_line"] = analysed_line(len(t.counted), len(t.analysed), t.partial)
        if t.analysed:
            loss_headers = ["player", "analysed matches", "choices", "lost per choice", "best move", "accuracy"]
            loss_headers += ["non-forced", "play rating", "luck", "luck-adjusted"]
            loss_rows = [[r.name, *loss_cells(r.loss)] for r in t.players]
            part["tables"].append(_table("Points lost (analysis)", loss_headers, 1, loss_rows, cls="standings losses"))
    if fair:  # each player's evidence of reneging, season and by event
        fair_rows = [[r.name, *fairplay.text_cells(r.fairplay)] for r in t.players]
        fair_headers = ["player", "evidence", "hands", "turns", "by event"]
        part["after"] = [_table("Fair play (evidence of reneging, not a finding)", fair_headers, 1, fair_rows)]
    chart = _chart(t)
    if chart:
        part["chart"] = Markup(chart)
        part["histories"] = [h for h in map(_history, t.players) if h is not None]
    return part


def render_body(st: Standings) -> str:
    """The page's ``<main>`` inside: what the server's standings page fetches again as it moves."""
    n = st.matches
    filters = filters_line(st)
    sub = f"{n} match{'es' * (n != 1)}" + (f"; {filters}" if filters else "")
    legend = list(LEGEND)
    if st.loss:
        legend += [LOSS_LEGEND, "points lost: " + analysed_line(st.counted, st.analysed, st.partial) + "."]
    if st.fairplay:
        legend.append(fairplay.FAIRPLAY_LEGEND)
    variants = [_variant(t, st.include_invalid, st.loss, st.fairplay) for t in st.tables]
    return render("club/standings.html", sub=sub, read=st.read, variants=variants, legend=legend)


def page(body: str, loss: bool = False, live: Live | None = None) -> str:
    """The whole page around :func:`render_body`; ``live``: the server's page, kept current."""
    return html_page("Standings", body, EXTRA_CSS + (LOSS_CSS if loss else ""), live)


def render_html(st: Standings) -> str:
    """The whole page."""
    return page(render_body(st), st.loss)
