"""The standings as one self-contained HTML page: per variant, the tables of the text output, the
rating history of its players as an inline SVG chart (mu, with a band of one sigma either side) and
each player's history (the rating after each match) under it. No script, nothing loaded."""

from __future__ import annotations

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
from dominolog.htmlpage import esc, html_page
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


def _row(cells: list[str], first_text: int) -> str:
    """A table row: the first ``first_text`` cells text, the others numbers (cells already escaped)."""
    return (
        "<tr>"
        + "".join(f"<td>{c}</td>" if i < first_text else f'<td class="num">{c}</td>' for i, c in enumerate(cells))
        + "</tr>"
    )


def _head(headers: list[str], first_text: int) -> str:
    return (
        "<thead><tr>"
        + "".join(
            f'<th scope="col">{esc(h)}</th>' if i < first_text else f'<th scope="col" class="num">{esc(h)}</th>'
            for i, h in enumerate(headers)
        )
        + "</tr></thead>"
    )


def _table(caption: str, headers: list[str], first_text: int, rows: list[str], pairs: list[str]) -> str:
    tail = f'<tbody class="pairs">{"".join(pairs)}</tbody>' if pairs else ""
    return (
        f'<div class="scroll"><table class="standings"><caption>{esc(caption)}</caption>'
        f"{_head(headers, first_text)}<tbody>{''.join(rows)}</tbody>{tail}</table></div>"
    )


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


def _history(r: PlayerRow) -> str:
    if r.rating is None or not r.rating.history:
        return ""
    rows = [
        _row([esc(h.date or "-"), esc(h.match_id, 120), fixed(h.mu), fixed(h.sigma), fixed(h.ordinal)], 2)
        for h in r.rating.history
    ]
    return (
        f'<details class="history"><summary>{esc(r.name)}: rating after each match</summary>'
        + _table("", ["date", "match", "mu", "sigma", "ordinal"], 2, rows, [])
        + "</details>"
    )


def _losses(t: VariantTable) -> str:
    """The points lost table (``--loss``) and how many matches were analysed."""
    line = f'<p class="analysed">{esc(analysed_line(len(t.counted), len(t.analysed), t.partial))}</p>'
    if not t.analysed:
        return line
    table = _table(
        "Points lost (analysis)",
        [
            "player",
            "analysed matches",
            "choices",
            "lost per choice",
            "best move",
            "accuracy",
            "non-forced",
            "play rating",
        ],
        1,
        [_row([esc(r.name), *loss_cells(r.loss)], 1) for r in t.players],
        [],
    )
    return table.replace('class="standings"', 'class="standings losses"', 1) + line


def _fair_play(t: VariantTable) -> str:
    """The fair-play table (``--fairplay``): each player's evidence of reneging, season and by event."""
    return _table(
        "Fair play (evidence of reneging, not a finding)",
        ["player", "evidence", "hands", "turns", "by event"],
        1,
        [_row([esc(r.name), *(esc(c) for c in fairplay.text_cells(r.fairplay))], 1) for r in t.players],
        [],
    )


def _variant(t: VariantTable, include_invalid: bool, loss: bool = False, fair: bool = False) -> str:
    if not t.players:
        return (
            f'<section class="card variant" data-variant="{esc(t.variant)}"><h2>{esc(t.title)}</h2>'
            f'<p class="sub">{esc(counts_line(t, include_invalid))}</p></section>'
        )
    invalid = "invalid (counted)" if include_invalid else "invalid (not counted)"
    rows = []
    for r in t.players:
        cells = rating_cells(r.rating)
        rows.append(_row([str(r.place or "-"), esc(r.name), *cells, *record_cells(r.tally)], 2))
    pairs = [_row(["", esc(p.name), "", "", "", "", *record_cells(p.tally)], 2) for p in t.partnerships]
    standings = _table(
        "Record and rating",
        ["#", "player", "ordinal", "mu", "sigma", "rated", "played", "won", "lost", "drawn", "aband.", invalid],
        2,
        rows,
        pairs,
    )
    word = "points" if t.higher_wins else "penalties"
    points = _table(
        "Hands and points",
        [
            "player",
            "hands",
            "won by domino",
            "won by block",
            "won other",
            f"{word} for",
            f"{word} against",
            "for per hand",
            "against per hand",
        ],
        1,
        [_row([esc(r.name), *points_cells(r.tally)], 1) for r in t.players],
        [_row([esc(p.name), *points_cells(p.tally)], 1) for p in t.partnerships],
    )
    play_rows = [
        _row(
            [
                esc(r.name),
                fixed(r.block_pips_average, 1),
                fixed(r.passes_per_hand),
                fixed(r.draws_per_hand),
                str(r.reneges),
                str(r.possible_reneges),
                fixed(r.seconds_per_move, 1),
            ],
            1,
        )
        for r in t.players
    ]
    play = _table(
        "Play",
        [
            "player",
            "pips left at a block",
            "passes per hand",
            "draws per hand",
            "reneges",
            "possible reneges",
            "seconds per move",
        ],
        1,
        play_rows,
        [],
    )
    chart = _chart(t)
    history = "".join(_history(r) for r in t.players)
    rating = f'<div class="rating-chart">{chart}</div>{history}' if chart else ""
    return (
        f'<section class="card variant" data-variant="{esc(t.variant)}">'
        f'<h2>{esc(t.title)} <span class="muted">({esc(t.variant)})</span></h2>'
        f'<p class="sub">{esc(counts_line(t, include_invalid))}</p>'
        f"{standings}{points}{play}{_losses(t) if loss else ''}{_fair_play(t) if fair else ''}{rating}</section>"
    )


def render_html(st: Standings) -> str:
    """The whole page."""
    n = st.matches
    filters = filters_line(st)
    sub = f"{n} match{'es' * (n != 1)}" + (f"; {filters}" if filters else "")
    body = [f'<h1>Standings</h1><p class="sub">{esc(sub, 1000)}</p>']
    if not st.tables:
        body.append(f'<p class="card">No matches (of {st.read} read).</p>')
    body += [_variant(t, st.include_invalid, st.loss, st.fairplay) for t in st.tables]
    legend = list(LEGEND)
    if st.loss:
        legend += [LOSS_LEGEND, "points lost: " + analysed_line(st.counted, st.analysed, st.partial) + "."]
    if st.fairplay:
        legend.append(fairplay.FAIRPLAY_LEGEND)
    body.append('<ul class="legend">' + "".join(f"<li>{esc(line, 1000)}</li>" for line in legend) + "</ul>")
    return html_page("Standings", "".join(body), EXTRA_CSS + (LOSS_CSS if st.loss else ""))
