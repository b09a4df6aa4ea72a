"""The review of a match as one self-contained HTML page: the players' figures, then a table a hand.
Sampled values (the variants other than Ghost 13) are shown with 2 decimals and their spread."""

from __future__ import annotations

from dominolog.analysis.playout import POLICY
from dominolog.analysis.results import ACCURACY, HandReview, MatchReview, Number, PlayerReview
from dominolog.htmlpage import html_page, render

#: a loss at least this big is shown red (a smaller one amber)
RED = 10

CSS = """
tr.amber td { background: #fff3cd; }
tr.red td { background: #f8d7da; }
td.num, th.num { text-align: right; }
p.legend { font-size: 0.9em; }
span.spread { color: #555; font-size: 0.9em; }
"""


def _num(x: Number, sign: bool = False) -> str:
    if isinstance(x, int):
        return f"{x:+d}" if sign else str(x)
    return f"{x:+.2f}" if sign else f"{x:.2f}"


def _hand_title(h: HandReview, sampled: bool) -> str:
    known = "recorded with hidden hands" if sampled else "deal made known by the reveals"
    return f"Hand {h.number}" + (f" ({known})" if h.hidden else "")


def render_html(review: MatchReview, as_of: str | None = None) -> str:
    """The page (``templates/analysis/review.html``); ``as_of``: what it is of, when the match has moved
    on since (said under the heading)."""
    from dominolog.analysis.luck import luck_lines

    title = f"Analysis: {review.match_id or review.source}"
    sampling = review.sampling
    if sampling is None:
        how = "Values are exact, in points for the player on move (their points for the hand minus the opponent's)."
    else:
        how = (
            f"Values are sampled: each is the mean over {sampling.samples} deals (seed {sampling.seed}) consistent "
            f"with what the player on move knew then, with {POLICY}; in points for that player (their side's for the "
            f"rest of the hand minus the mean of the others'; penalties turned round, so higher is better); "
            f"± is the standard deviation over the deals."
        )

    def worst(p: PlayerReview) -> str:
        return "; ".join(f"hand {d.hand} seq {d.seq}: {d.played} lost {_num(d.loss)}" for d in p.mistakes) or "none"

    body = render(
        "analysis/review.html",
        title=title,
        as_of=as_of,
        review=review,
        luck=[] if review.note else luck_lines(review),
        how=how,
        accuracy=ACCURACY,
        red=RED,
        num=_num,
        worst=worst,
        hand_title=lambda h: _hand_title(h, sampling is not None),
    )
    return html_page(title, body, CSS)
