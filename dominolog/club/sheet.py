"""The score sheet of one match as one self-contained HTML page (``dominolog export --format html``).

Like the paper sheet a club keeps: who played where and when, one row per hand (how it ended, who
won, the points and the running totals), the result, and the chart of the totals. Every number is
what the rules give (:mod:`dominolog.club.summary`); where the table wrote something else, its claim
is shown beside the points, struck out. Each hand's fingerprint (the log's hash chain after its
``hand_end``) lets anyone check a printed sheet against the log (``dominolog audit --expect-head``).
Nothing is loaded and no script runs; the page prints on A4.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from dominolog.club.chart import Series, line_chart
from dominolog.club.summary import MatchSummary, SheetHand, parse_time, summarize
from dominolog.htmlpage import esc, html_page
from dominolog.log.reader import MatchLog, Record
from dominolog.state import Issue, WinnerValue
from dominolog.store import match_id_of

#: the sheet's own styles, after page.css (screen, then print: one A4 page for 4 players and 10+ hands)
SHEET_CSS = """
.sheet-head h1 { margin-bottom: .4rem; }
.sheet-head .verdict { margin: .6rem 0 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: .1rem .9rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table.sheet { width: 100%; font-size: .92rem; }
table.sheet th, table.sheet td { padding: .22rem .45rem; }
table.sheet th.side { text-align: center; color: var(--ink); }
table.sheet .first { border-left: 2px solid var(--line); }
table.sheet td.run { font-weight: 650; }
table.sheet td.fp code { font-size: .85em; }
table.sheet tfoot td { font-weight: 700; border-top: 2px solid var(--ink); border-bottom: none; }
tr.disputed td { background: var(--bad-bg); }
.claim { color: var(--bad); font-size: .78em; font-weight: 600; white-space: nowrap; display: block; }
.claim s { text-decoration-thickness: 2px; }
.flag { color: #fff; background: var(--bad); border-radius: 4px; padding: 0 .3rem; font-size: .75em; font-weight: 700; }
.open { color: var(--warn); font-size: .78em; display: block; }
.agreed, .disputed { font-size: .78em; display: block; }
.disputed { color: var(--warn); }
p.outcome { font-size: 1.1rem; margin: 0 0 .3rem; }
ol.places { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .2rem 1.6rem; }
ol.places .place { color: var(--muted); }
ol.places .total { font-weight: 700; font-variant-numeric: tabular-nums; }
.card > h2:first-child { margin-top: 0; }
ol.violations { margin: .4rem 0; padding-left: 1.4rem; }
ol.violations li { margin: .15rem 0; overflow-wrap: anywhere; }
ol.violations code { color: var(--bad); font-weight: 600; }
p.note { font-size: .85em; color: var(--muted); margin: .4rem 0 0; }
p.note code { white-space: nowrap; }
.tip { font-size: .85em; color: var(--muted); margin: 0 0 .6rem; }

@media print {
  body { font-size: 9.5pt; line-height: 1.3; }
  h1 { font-size: 14pt; }
  h2 { font-size: 11pt; margin: 0 0 1.5mm; }
  .card { margin: 0 0 3.5mm; }
  table.sheet { font-size: 8.5pt; }
  table.sheet th, table.sheet td { padding: .5mm 1.5mm; }
  svg.chart { width: 100%; height: auto; max-height: 58mm; }
  footer { margin-top: 2mm; font-size: 7.5pt; }
  .badge, .flag, tr.disputed td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def side_name(side: Sequence[str]) -> str:
    """A side as the sheet names it: one player, or a partnership as "Ana & Cleo"."""
    return " & ".join(side)


def _who(winner: WinnerValue) -> str:
    if winner is None:
        return "—"
    return " & ".join(winner) if isinstance(winner, list) else winner


def sheet_summary(records: list[Record], source: str, match_id: str | None = None) -> MatchSummary:
    """The match folded for its sheet (see :func:`summarize`), named by ``match_id`` (a match of the
    store), else as the store would name it: its ``match_start`` id, else one made of its head hash."""
    summary = summarize(match_id or source, records, source)
    if match_id is None:
        summary.match_id = match_id_of(MatchLog(source, records[0].line if records else 1, records), summary.head)
    return summary


def sheet_html(
    records: list[Record],
    source: str,
    match_id: str | None = None,
    audit_href: str | None = None,
    audit_hint: str | None = None,
) -> str:
    """The score sheet of a match given as its records (``source``: where they were read)."""
    return render_sheet(sheet_summary(records, source, match_id), audit_href, audit_hint)


def _when(text: str | None) -> str:
    when = parse_time(text) if text else None
    if text is None or when is None:
        return ""
    if "T" not in text:
        return when.strftime("%Y-%m-%d")
    zone = "" if when.tzinfo is None else " UTC" if when.utcoffset() == timedelta(0) else when.strftime(" %z")
    return when.strftime("%Y-%m-%d %H:%M") + zone


def _claim_of(hand: SheetHand, side: tuple[str, ...]) -> str:
    """The table's claim for a side's points in this hand, where it differs from the rules."""
    said = hand.claimed.get("points") if hand.claimed else None
    if not isinstance(said, dict):
        return ""
    wrong = [p for p in side if p in said and said[p] != hand.points.get(p, 0)]
    if not wrong:
        return ""
    values = [said.get(p) for p in side if p in said]
    if all(v == values[0] for v in values):
        text = esc(values[0], 40)
    else:
        text = ", ".join(f"{esc(p, 40)} {esc(said[p], 40)}" for p in side if p in said)
    return f' <span class="claim">table wrote <s>{text}</s></span>'


def _winner_claim(hand: SheetHand) -> str:
    said = hand.claimed.get("winner") if hand.claimed else None
    if said is None or said == hand.winner:
        return ""
    shown = _who(said) if isinstance(said, str | list) and all(isinstance(x, str) for x in said) else said
    return f' <span class="claim">table wrote <s>{esc(shown, 80)}</s></span>'


def _hand_issues(summary: MatchSummary) -> dict[int, list[Issue]]:
    """The violations of each hand (by hand number): those after the previous hand_end, up to its own."""
    out: dict[int, list[Issue]] = {}
    before = 0
    for h in summary.hands:
        if h.seq:
            out[h.number] = [v for v in summary.violations if before < v.seq <= h.seq]
            before = h.seq
    return out


def _rows(summary: MatchSummary, with_aggressor: bool) -> str:
    sides = summary.sides
    issues = _hand_issues(summary)
    out = []
    for h in summary.hands:
        found = issues.get(h.number, [])
        classes = ["hand"] + (["disputed"] if h.claimed else []) + (["violation"] if found else [])
        flag = (
            f' <span class="flag" title="{len(found)} violation{"s" * (len(found) != 1)} in this hand">'
            f"{len(found)}</span>"
            if found
            else ""
        )
        cells = [
            f'<td class="num no">{h.number}{flag}</td>',
            f'<td class="end">{esc(h.end, 40)}'
            + ("" if h.verified else '<span class="open">points as the table wrote them (hidden tiles)</span>')
            + "".join(f'<span class="{w.split(" ", 1)[0]}">{esc(w, 60)}</span>' for w in h.agreements)
            + "</td>",
            f'<td class="winner">{esc(_who(h.winner), 100)}{_winner_claim(h)}</td>',
        ]
        if with_aggressor:
            cells.append(f'<td class="aggressor">{esc(h.aggressor or "—", 40)}</td>')
        for k, side in enumerate(sides):
            cells.append(
                f'<td class="num pts first" data-side="{k}">{h.points.get(side[0], 0)}{_claim_of(h, side)}</td>'
                f'<td class="num run" data-side="{k}">{h.running.get(side[0], 0)}</td>'
            )
        cells.append(f'<td class="fp" title="after seq {h.seq}"><code>{esc(h.fingerprint, 20)}</code></td>')
        out.append(f'<tr class="{" ".join(classes)}" data-hand="{h.number}">{"".join(cells)}</tr>')
    return "".join(out)


def _hands_table(summary: MatchSummary) -> str:
    if not summary.hands:
        return '<section class="card" id="hands"><h2>Hands</h2><p class="muted">No hand was played.</p></section>'
    with_aggressor = any(h.aggressor for h in summary.hands)
    lead = 4 if with_aggressor else 3
    top = (
        f'<tr><th colspan="{lead}"></th>'
        + "".join(f'<th class="side first" colspan="2">{esc(side_name(s), 200)}</th>' for s in summary.sides)
        + "<th></th></tr>"
    )
    unit = "penalty" if not summary.higher_wins else "points"
    names = ["Hand", "End", "Winner"] + (["Aggressor"] if with_aggressor else [])
    second = (
        "<tr>"
        + "".join(f'<th class="{"num" if n == "Hand" else ""}">{n}</th>' for n in names)
        + "".join(f'<th class="num first">{unit}</th><th class="num">total</th>' for _ in summary.sides)
        + '<th title="the first 10 characters of the log\'s hash chain after the hand">fingerprint</th></tr>'
    )
    foot = (
        f'<tr class="totals"><td colspan="{lead}">Total</td>'
        + "".join(
            f'<td class="first"></td><td class="num run" data-side="{k}">{summary.side_total(s)}</td>'
            for k, s in enumerate(summary.sides)
        )
        + f'<td class="fp"><code>{esc(summary.fingerprint, 20)}</code></td></tr>'
    )
    last = summary.hands[-1]
    check = (
        f'<p class="note">Fingerprint: the log\'s hash chain after the hand; to check a log against it: '
        f"<code>dominolog audit LOG --expect-head {esc(last.fingerprint, 20)}@{last.seq}</code></p>"
        if last.seq
        else ""
    )
    return (
        '<section class="card" id="hands"><h2>Hands</h2>'
        f'<table class="sheet"><thead>{top}{second}</thead><tbody>{_rows(summary, with_aggressor)}</tbody>'
        f"<tfoot>{foot}</tfoot></table>{check}</section>"
    )


def _outcome(summary: MatchSummary, abandoned: bool) -> str:
    if abandoned:
        return "abandoned: the table ended the match without a winner"
    if not summary.complete:
        return "in progress: no match_end yet"
    if summary.winner is not None:
        return f"winner: <strong>{esc(_who(summary.winner), 200)}</strong>"
    totals = [summary.side_total(s) for s in summary.sides]
    best = max(totals) if summary.higher_wins else min(totals)
    return "no winner: a tie" if totals.count(best) > 1 else "no winner"


def _result(summary: MatchSummary, abandoned: bool) -> str:
    ranks = summary.ranks()
    places = "".join(
        f'<li data-side="{k}" data-place="{rank}"><span class="place">{rank}.</span> '
        f'<span class="name">{esc(side_name(s), 200)}</span> <span class="total">{summary.side_total(s)}</span></li>'
        for k, (rank, s) in sorted(enumerate(zip(ranks, summary.sides, strict=True)), key=lambda x: (x[1][0], x[0]))
    )
    penalty = "" if summary.higher_wins else '<p class="note">Penalty points: the lowest total wins.</p>'
    return (
        '<section class="card" id="result"><h2>Result</h2>'
        f'<p class="outcome">{_outcome(summary, abandoned)}</p><ol class="places">{places}</ol>{penalty}</section>'
    )


def _pairs(summary: MatchSummary) -> bool:
    return any(len(s) > 1 for s in summary.sides)


def _verdict(summary: MatchSummary, link: str = "") -> str:
    """The badge: verified, or the count of violations (``link``: to the audit report)."""
    n, open_ = len(summary.violations), len(summary.unverified)
    taken = [str(h.number) for h in summary.hands if not h.verified]
    notes = []
    if n == 0 and not taken:
        badge = '<span class="badge good" id="verdict">verified: every score recomputed from the rules</span>'
    elif n == 0:
        badge = (
            f'<span class="badge warn" id="verdict">valid; the points of hand{"s" * (len(taken) > 1)} '
            f"{', '.join(taken)} are the table's: not checkable (hidden tiles)</span>"
        )
    else:
        badge = f'<span class="badge bad" id="verdict">{n} violation{"s" * (n != 1)}</span>'
        notes.append("the log breaks the rules; the scores are what the rules give")
    if open_:
        notes.append(f"{open_} rule{'s' * (open_ != 1)} not checkable (hidden tiles)")
    note = f' <span class="muted">{"; ".join(notes)}</span>' if notes else ""
    return f'<p class="verdict">{badge}{note}{"; " + link if link else ""}</p>'


def _violations(summary: MatchSummary, audit_href: str | None, audit_hint: str | None) -> str:
    if not summary.violations:
        return ""
    items = "".join(
        f'<li class="violation"><span class="seq">seq {v.seq}</span>: <code class="code">{esc(v.code, 60)}</code>: '
        f'<span class="msg">{esc(v.message, 2000)}</span></li>'
        for v in summary.violations
    )
    proof = ""
    if audit_href is not None:
        proof = f'<a class="audit" href="{esc(audit_href, 2000)}">the audit report</a>'
    elif audit_hint is not None:
        proof = f'the audit report, made by <code class="hint">{esc(audit_hint, 2000)}</code>'
    if proof:
        proof = f"<p>Each one with its rule and proof: {proof}</p>"
    n = len(summary.violations)
    return (
        f'<section class="card" id="violations"><h2>Violations <span class="badge bad">{n}</span></h2>'
        f'<ol class="violations">{items}</ol>{proof}</section>'
    )


def _chart(summary: MatchSummary, target: int | None) -> str:
    if not summary.hands:
        return ""
    series = [Series(side_name(s), [0, *(h.running.get(s[0], 0) for h in summary.hands)]) for s in summary.sides]
    labels = ["start", *(f"H{h.number}" for h in summary.hands)]
    svg = line_chart(
        series,
        labels,
        "Running totals",
        "penalty points" if not summary.higher_wins else "points",
        target=target,
    )
    return f'<section class="card" id="chart">{svg}</section>'


def _head(summary: MatchSummary, audit_href: str | None) -> str:
    players = " vs ".join(side_name(s) for s in summary.sides)
    facts: list[tuple[str, str]] = [
        ("Event", esc(summary.event) if summary.event else '<span class="muted">—</span>'),
        ("Date", esc(_when(summary.date)) or '<span class="muted">—</span>'),
        ("Table", esc(summary.table) if summary.table else '<span class="muted">—</span>'),
        ("Game", esc(summary.title, 100)),
        ("Partnerships" if _pairs(summary) else "Players", esc(players, 400)),
        ("Match", f'<code class="match-id">{esc(summary.match_id, 200)}</code>'),
        (
            "Fingerprint",
            f'<code class="head" title="{esc(summary.head, 80)}">{esc(summary.fingerprint, 20)}</code> '
            f'<span class="muted">after {summary.events} events</span>',
        ),
    ]
    if summary.source != summary.match_id:
        facts.append(("Log", f'<code class="source">{esc(summary.source, 300)}</code>'))
    dl = "".join(f'<dt>{k}</dt><dd class="{k.lower()}">{v}</dd>' for k, v in facts)
    link = (
        f'<a class="audit" href="{esc(audit_href, 2000)}">audit report</a>'
        if audit_href is not None and summary.violations
        else ""
    )
    title = esc(summary.event) if summary.event else "Score sheet"
    return (
        f'<header class="card sheet-head"><h1>{title}: {esc(players, 400)}</h1>'
        f'<dl class="facts">{dl}</dl>{_verdict(summary, link)}</header>'
    )


def render_sheet(
    summary: MatchSummary,
    audit_href: str | None = None,
    audit_hint: str | None = None,
) -> str:
    """The whole page. ``audit_href``: where the audit report was written (a relative address), or
    ``audit_hint``: the command that makes it, for a match with violations. The chart's dashed line is
    the score the match is played to (``summary.target``)."""
    body = (
        '<p class="tip no-print">Print this page for the paper copy: each hand\'s fingerprint lets anyone '
        "check it against the log.</p>"
        + _head(summary, audit_href)
        + _hands_table(summary)
        + _result(summary, summary.abandoned)
        + _violations(summary, audit_href, audit_hint)
        + _chart(summary, summary.target)
    )
    title = f"Score sheet: {summary.event or summary.title}, {' vs '.join(side_name(s) for s in summary.sides)}"
    return html_page(title, body, SHEET_CSS)


__all__ = [
    "SHEET_CSS",
    "render_sheet",
    "sheet_html",
    "sheet_summary",
    "side_name",
]
