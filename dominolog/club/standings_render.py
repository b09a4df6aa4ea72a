"""The standings as text (Rich tables, one group per variant), CSV (one row per player, or partnership,
per variant) and, in :mod:`dominolog.club.standings_json`, JSON (one document: ``schemas/standings.schema.json``).

Text is for people: every name from a log goes through :func:`dominolog.textsafe.shown` into a Rich
``Text`` (never parsed as markup). CSV cells are made formula-safe; JSON keeps names as written.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from dominolog.club import standings_fairplay as fairplay
from dominolog.club.ratings import PlayerRating
from dominolog.club.standings import UNKNOWN, LossFigures, Standings, Tally, VariantTable
from dominolog.export import csv_text
from dominolog.textsafe import shown

#: what the columns mean, in a few lines (text and HTML show it under the tables)
LEGEND = (
    "#: place by the rating's ordinal, mu - 3 sigma (OpenSkill, one pool per variant, the counted complete "
    "matches in the order played); rated: matches rated.",
    "played = won + lost + drawn (complete, no winner) + aband. (a match_end saying abandoned); a match in "
    "progress (no match_end yet) is not counted. invalid: matches with "
    "violations, not counted in any other column (but reneges) unless --include-invalid.",
    "hands: hands played to an end; won by block: hands ended block or stock-out (nobody could play); "
    "partners win a hand together.",
    "points for: the player's own points in every hand of the counted matches (partners: their side's); "
    "against: the opposing sides' points in those hands; per hand: divided by hands. Where points are "
    "penalties the lowest total wins.",
    "pips left at a block: average over blocked hands; passes, draws per hand; reneges: certain (in every "
    "match, invalid ones too), possible: hidden tiles leave them open; seconds per move: where the log has times.",
)

#: what the points lost mean (``--loss``), under the legend
LOSS_LEGEND = (
    "points lost (--loss): over the counted matches with an analysis kept in the store (dominolog analyze ID "
    "--db DB), per choice (a decision whose options are not all worth the same): the best option's value minus "
    "the move's; best move: the share of choices where one was played; accuracy: 100 x mean over choices of "
    "(1 - loss / max(1, best - worst)); play rating: points lost per 100 non-forced decisions (more than one "
    "legal option), 0 is perfect play; luck: each deal's value less its mean over random deals (Ghost 13: exact, "
    "for the leader; the hidden games: sampled, for each player, and each draw's value for the drawer less its mean "
    "over the tiles that could have been drawn; ± its 95% margin), summed over the analysed hands, and luck-adjusted: "
    "the points less the luck (dominolog/analysis/luck.py, luck_hidden.py)."
)

#: the CSV's columns with --loss, after the others
LOSS_HEADER = [
    "analysed_matches", "decisions", "choices", "points_lost", "points_lost_per_choice", "best_move_rate", "accuracy",
    "unforced", "error_rate", "play_rating",
]  # fmt: skip

#: the CSV's columns: where a figure has no base (no hands, not rated, a partnership's play) the cell is empty
CSV_HEADER = [
    "variant", "title", "higher_wins", "kind", "name", "place", "ordinal", "mu", "sigma", "rated",
    "played", "won", "lost", "drawn", "abandoned", "invalid", "invalid_counted",
    "hands", "hands_won_domino", "hands_won_block", "hands_won_other",
    "points_for", "points_against", "points_for_per_hand", "points_against_per_hand",
    "block_hands", "block_pips_average", "passes_per_hand", "draws_per_hand",
    "reneges", "possible_reneges", "timed_moves", "seconds_per_move",
]  # fmt: skip


def fixed(value: float | None, places: int = 2, none: str = "-") -> str:
    return none if value is None else f"{value:.{places}f}"


def scoring(t: VariantTable) -> str:
    return "the highest total wins" if t.higher_wins else "points are penalties: the lowest total wins"


def counts_line(t: VariantTable, include_invalid: bool) -> str:
    n = len(t.matches)
    if t.variant == UNKNOWN:
        return f"{n} match{'es' * (n != 1)} that could not be read (dominolog verify tells why)"
    parts = [f"{n} match{'es' * (n != 1)}"]
    if t.invalid:
        parts.append(f"{t.invalid} invalid ({'counted' if include_invalid else 'not counted'})")
    if t.in_progress:
        parts.append(f"{t.in_progress} in progress (not counted)")
    parts.append(f"{len(t.rated)} rated")
    return ", ".join(parts) + f"; {scoring(t)}"


def analysed_line(counted: int, analysed: int, partial: int) -> str:
    """``analysed 2 of 3 counted matches (1 in part only: ...)``."""
    text = f"analysed {analysed} of {counted} counted match{'es' * (counted != 1)}"
    return text + (f" ({partial} in part only: some hands or decisions)" if partial else "")


def loss_cells(f: LossFigures | None) -> list[str]:
    """analysed matches, choices, points lost per choice, best move rate, accuracy, non-forced decisions,
    play rating, luck and luck-adjusted result (over the matches with a luck figure; - : none)."""
    if f is None:
        return ["-"] * 9
    rate = fixed(f.match_rate, 1)
    lucky = f.lucky_matches > 0
    margin = f.luck_margin
    pm = "" if margin is None else f"±{margin:.1f}"  # sampled luck (the hidden games): its 95% margin
    return [
        str(f.matches),
        str(f.choices),
        fixed(f.average_loss),
        rate + "%" if rate != "-" else rate,
        fixed(f.accuracy, 1),
        str(f.unforced),
        fixed(f.play_rating, 1),
        f"{f.luck:+.1f}{pm}" if lucky else "-",
        f"{f.adjusted:+.1f}{pm}" if lucky else "-",
    ]


def filters_line(st: Standings) -> str:
    f = st.filters
    parts = [f"variant {f.variant}"] if f.variant else []
    parts += [f"{k}={v}" for k, v in f.meta.items()]
    if f.since:
        parts.append(f"since {f.since.isoformat()}")
    if f.until:
        parts.append(f"until {f.until.isoformat()}")
    if st.include_invalid:
        parts.append("invalid matches counted")
    return ", ".join(parts)


# -- text --------------------------------------------------------------------------------------------


def _name(value: str) -> Text:
    return Text(shown(value, 40), no_wrap=True, overflow="ellipsis")


def rating_cells(rating: PlayerRating | None) -> list[str]:
    """ordinal, mu, sigma, matches rated (dashes for a player with no rated match)."""
    if rating is None:
        return ["-", "-", "-", "0"]
    return [fixed(rating.ordinal), fixed(rating.mu), fixed(rating.sigma), str(rating.matches)]


def record_cells(t: Tally) -> list[str]:
    return [str(x) for x in (t.played, t.won, t.lost, t.drawn, t.abandoned, t.invalid)]


def points_cells(t: Tally) -> list[str]:
    return [
        str(t.hands),
        str(t.won_domino),
        str(t.won_block),
        str(t.won_other),
        str(t.points_for),
        str(t.points_against),
        fixed(t.per_hand(t.points_for)),
        fixed(t.per_hand(t.points_against)),
    ]


def _table(title: str, headers: list[str], first_left: int) -> Table:
    table = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False
    )
    for i, h in enumerate(headers):
        table.add_column(h, justify="left" if i < first_left else "right", no_wrap=i >= first_left)
    return table


def _variant_group(t: VariantTable, include_invalid: bool, loss: bool = False, fair: bool = False) -> Group:
    invalid = "invalid\n(counted)" if include_invalid else "invalid\nnot counted"
    record = _table(
        "Record and rating",
        ["#", "player", "ordinal", "mu", "sigma", "rated", "played", "won", "lost", "drawn", "aband.", invalid],
        2,
    )
    for r in t.players:
        cells = rating_cells(r.rating)
        record.add_row(str(r.place or "-"), _name(r.name), *cells, *record_cells(r.tally))
    pairs = None
    if t.partnerships:  # a table of their own: the rating columns are the players'
        pairs = _table("Partnerships", ["partnership", "played", "won", "lost", "drawn", "aband.", invalid], 1)
        for p in t.partnerships:
            pairs.add_row(_name(p.name), *record_cells(p.tally))
    word = "points" if t.higher_wins else "penalties"
    points = _table(
        "Hands and points",
        [
            "player",
            "hands",
            "won by\ndomino",
            "won by\nblock",
            "won\nother",
            f"{word}\nfor",
            f"{word}\nagainst",
            "for per\nhand",
            "against\nper hand",
        ],
        1,
    )
    for r in t.players:
        points.add_row(_name(r.name), *points_cells(r.tally))
    if t.partnerships:
        points.add_section()
        for p in t.partnerships:
            points.add_row(_name(p.name), *points_cells(p.tally))
    play = _table(
        "Play",
        [
            "player",
            "pips left\nat a block",
            "passes\nper hand",
            "draws\nper hand",
            "reneges",
            "possible\nreneges",
            "seconds\nper move",
        ],
        1,
    )
    for r in t.players:
        play.add_row(
            _name(r.name),
            fixed(r.block_pips_average, 1),
            fixed(r.passes_per_hand),
            fixed(r.draws_per_hand),
            str(r.reneges),
            str(r.possible_reneges),
            fixed(r.seconds_per_move, 1),
        )
    heading = Text(f"{shown(t.title)} ({shown(t.variant)})", style="bold")
    heading.append(f"\n{counts_line(t, include_invalid)}", style="")
    if not t.players:
        return Group(heading)
    parts = [heading, Text(""), record]
    if pairs is not None:
        parts += [Text(""), pairs]
    parts += [Text(""), points, Text(""), play]
    if loss:
        parts.append(Text(""))
        if t.analysed:
            lost = _table(
                "Points lost (analysis)",
                [
                    "player",
                    "analysed\nmatches",
                    "choices",
                    "lost per\nchoice",
                    "best\nmove",
                    "accuracy",
                    "non-\nforced",
                    "play\nrating",
                    "luck",
                    "luck-\nadjusted",
                ],
                1,
            )
            for r in t.players:
                lost.add_row(_name(r.name), *loss_cells(r.loss))
            parts.append(lost)
        parts.append(Text(analysed_line(len(t.counted), len(t.analysed), t.partial)))
    if fair:
        fp = _table(
            "Fair play (evidence of reneging, not a finding)", ["player", "evidence", "hands", "turns", "by event"], 1
        )
        for r in t.players:
            fp.add_row(_name(r.name), *fairplay.text_cells(r.fairplay))
        parts += [Text(""), fp]
    return Group(*parts)


def render_text(st: Standings, width: int = 100) -> str:
    """The standings as plain-text tables for a terminal of ``width`` columns."""
    out = io.StringIO()
    console = Console(
        file=out,
        width=width,
        color_system=None,
        force_terminal=False,
        highlight=False,
        emoji=False,
        markup=False,
    )
    n = st.matches
    filters = filters_line(st)
    head = Text(f"Standings: {n} match{'es' * (n != 1)}", style="bold")
    if filters:
        head.append(f" ({shown(filters, 400)})", style="")
    if not st.tables:
        head.append(f"\nno matches (of {st.read} read)", style="")
        console.print(head)
        return _trimmed(out.getvalue())
    console.print(head)
    for t in st.tables:
        console.print()
        console.print(_variant_group(t, st.include_invalid, st.loss, st.fairplay))
    console.print()
    for line in LEGEND:
        console.print(Text(line))
    if st.loss:
        console.print(Text(LOSS_LEGEND))
        console.print(Text("points lost: " + analysed_line(st.counted, st.analysed, st.partial) + "."))
    if st.fairplay:
        console.print(Text(fairplay.FAIRPLAY_LEGEND))
    return _trimmed(out.getvalue())


def _trimmed(text: str) -> str:
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


# -- CSV ---------------------------------------------------------------------------------------------


def _round(value: float | None, places: int) -> float | None:
    return None if value is None else round(value, places)


def _csv_rows(st: Standings) -> Iterator[list[Any]]:
    for t in st.tables:
        base = [t.variant, t.title, t.higher_wins]
        for r in t.players:
            rating = r.rating
            rated = (
                [fixed(rating.ordinal, 3), fixed(rating.mu, 3), fixed(rating.sigma, 3), rating.matches]
                if rating is not None
                else ["", "", "", 0]
            )
            yield [
                *base,
                "player",
                r.name,
                r.place if r.place is not None else "",
                *rated,
                *_tally_cells(r.tally, st.include_invalid),
                r.figures.block_hands,
                fixed(r.block_pips_average, 2, ""),
                fixed(r.passes_per_hand, 2, ""),
                fixed(r.draws_per_hand, 2, ""),
                r.reneges,
                r.possible_reneges,
                r.figures.timed_moves,
                fixed(r.seconds_per_move, 1, ""),
                *(_loss_csv(r.loss) if st.loss else []),
                *(fairplay.csv_cells(r.fairplay) if st.fairplay else []),
            ]
        for p in t.partnerships:
            yield [*base, "partnership", p.name, "", "", "", "", "", *_tally_cells(p.tally, st.include_invalid)] + [
                ""
            ] * (8 + (len(LOSS_HEADER) if st.loss else 0) + (len(fairplay.FAIRPLAY_HEADER) if st.fairplay else 0))


def _loss_csv(f: LossFigures | None) -> list[Any]:
    if f is None:
        return [""] * len(LOSS_HEADER)
    return [
        f.matches,
        f.decisions,
        f.choices,
        _number(f.total_loss),
        fixed(f.average_loss, 2, ""),
        fixed(f.match_rate, 1, ""),
        fixed(f.accuracy, 1, ""),
        f.unforced,
        fixed(f.error_rate, 4, ""),
        fixed(f.play_rating, 2, ""),
    ]


def _number(value: float) -> int | float:
    """A sum of points lost: an integer when exact, else to 2 decimals."""
    return value if isinstance(value, int) else round(value, 2) + 0.0


def _tally_cells(t: Tally, include_invalid: bool) -> list[Any]:
    return [
        t.played,
        t.won,
        t.lost,
        t.drawn,
        t.abandoned,
        t.invalid,
        include_invalid,
        t.hands,
        t.won_domino,
        t.won_block,
        t.won_other,
        t.points_for,
        t.points_against,
        fixed(t.per_hand(t.points_for), 2, ""),
        fixed(t.per_hand(t.points_against), 2, ""),
    ]


def render_csv(st: Standings) -> str:
    """One row per player per variant, then one per partnership (``kind``); numbers as numbers,
    booleans ``true``/``false``, an empty cell where a figure has no base (no hands, not rated)."""
    extra = (LOSS_HEADER if st.loss else []) + (fairplay.FAIRPLAY_HEADER if st.fairplay else [])
    return csv_text(_csv_rows(st), CSV_HEADER + extra)
