"""The review of a match as one self-contained HTML page: the players' figures, then a table a hand.
Sampled values (the variants other than Ghost 13) are shown with 2 decimals and their spread."""

from __future__ import annotations

from dominolog.analysis.playout import POLICY
from dominolog.analysis.results import ACCURACY, Decision, HandReview, MatchReview, Number
from dominolog.htmlpage import esc, html_page

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


def _value(d: Decision) -> str:
    text = _num(d.value, True)
    if d.spread is not None:
        text += f" <span class='spread'>±{d.spread:.2f}</span>"
    return text


def _hand(h: HandReview, sampled: bool) -> str:
    known = "recorded with hidden hands" if sampled else "deal made known by the reveals"
    title = f"Hand {h.number}" + (f" ({known})" if h.hidden else "")
    parts = [f"<h2>{esc(title)}</h2>"]
    if h.note:
        parts.append(f"<p>{esc(h.note)}</p>")
    if h.decisions:
        rows = []
        for d in h.decisions:
            cls = ' class="red"' if d.loss >= RED else ' class="amber"' if d.loss > 0 else ""
            rows.append(
                f"<tr{cls}><td class='num'>{d.seq}</td><td>{esc(d.player)}</td><td>{esc(d.played)}</td>"
                f"<td class='num'>{_value(d)}</td><td class='num'>#{d.rank} of {d.count}</td>"
                f"<td class='num'>{_num(d.loss)}</td><td>{esc(d.best_move)} {_num(d.best, True)}</td></tr>"
            )
        parts.append(
            "<table><thead><tr><th class='num'>seq</th><th>player</th><th>played</th><th class='num'>value</th>"
            "<th class='num'>rank</th><th class='num'>lost</th><th>best</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )
    return "\n".join(parts)


def render_html(review: MatchReview) -> str:
    title = f"Analysis: {review.match_id or review.source}"
    body = [f"<h1>{esc(title)}</h1>"]
    if review.note:
        body.append(f"<p>{esc(review.note)}</p>")
        return html_page(title, "\n".join(body), CSS)
    rows = []
    for p in review.summary:
        worst = "; ".join(f"hand {d.hand} seq {d.seq}: {d.played} lost {_num(d.loss)}" for d in p.mistakes) or "none"
        rows.append(
            f"<tr><td>{esc(p.name)}</td><td class='num'>{p.choices} of {p.decisions}</td>"
            f"<td class='num'>{_num(p.total_loss)}</td><td class='num'>{p.average_loss:.2f}</td>"
            f"<td class='num'>{p.match_rate:.1f}%</td><td class='num'>{p.accuracy:.1f}</td><td>{esc(worst)}</td></tr>"
        )
    body.append(
        "<table><thead><tr><th>player</th><th class='num'>choices</th><th class='num'>lost</th>"
        "<th class='num'>avg loss</th><th class='num'>best played</th><th class='num'>accuracy</th>"
        "<th>biggest mistakes</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    from dominolog.analysis.luck import luck_lines

    luck = luck_lines(review)
    if luck:
        body.append("<h2>Luck and skill</h2><ul class='luck'>" + "".join(f"<li>{esc(x)}</li>" for x in luck) + "</ul>")
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
    body.append(
        f"<p class='legend'>{esc(how)} Choices: decisions whose options do not all have the same value. "
        f"{esc(ACCURACY)}. Rows: amber a loss, red a loss of {RED} points or more.</p>"
    )
    body.extend(_hand(h, sampling is not None) for h in review.hands)
    return html_page(title, "\n".join(body), CSS)
