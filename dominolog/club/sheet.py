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
from typing import Any

from markupsafe import Markup

from dominolog.club.chart import Series, line_chart
from dominolog.club.summary import MatchSummary, SheetHand, parse_time, summarize
from dominolog.htmlpage import html_page, render
from dominolog.log.reader import MatchLog, Record
from dominolog.state import Issue, WinnerValue
from dominolog.store import match_id_of
from dominolog.textsafe import shown

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


def _claim_of(hand: SheetHand, side: tuple[str, ...]) -> str | None:
    """The table's claim for a side's points in this hand, where it differs from the rules."""
    said = hand.claimed.get("points") if hand.claimed else None
    if not isinstance(said, dict):
        return None
    wrong = [p for p in side if p in said and said[p] != hand.points.get(p, 0)]
    if not wrong:
        return None
    values = [said.get(p) for p in side if p in said]
    if all(v == values[0] for v in values):
        return shown(values[0], 40)
    return ", ".join(f"{shown(p, 40)} {shown(said[p], 40)}" for p in side if p in said)


def _winner_claim(hand: SheetHand) -> str | None:
    said = hand.claimed.get("winner") if hand.claimed else None
    if said is None or said == hand.winner:
        return None
    who = _who(said) if isinstance(said, str | list) and all(isinstance(x, str) for x in said) else said
    return shown(who, 80)


def _hand_issues(summary: MatchSummary) -> dict[int, list[Issue]]:
    """The violations of each hand (by hand number): those after the previous hand_end, up to its own."""
    out: dict[int, list[Issue]] = {}
    before = 0
    for h in summary.hands:
        if h.seq:
            out[h.number] = [v for v in summary.violations if before < v.seq <= h.seq]
            before = h.seq
    return out


def _hand_rows(summary: MatchSummary) -> list[dict[str, Any]]:
    """Each hand's row: the hand, its violations, its winner and each side's points and claims."""
    issues = _hand_issues(summary)
    rows = []
    for h in summary.hands:
        found = len(issues.get(h.number, []))
        classes = ["hand"] + (["disputed"] if h.claimed else []) + (["violation"] if found else [])
        sides = [
            {"points": h.points.get(side[0], 0), "running": h.running.get(side[0], 0), "claim": _claim_of(h, side)}
            for side in summary.sides
        ]
        rows.append({"hand": h, "found": found, "classes": classes, "winner": _who(h.winner), "sides": sides})
        rows[-1]["winner_claim"] = _winner_claim(h)
    return rows


def _outcome(summary: MatchSummary, abandoned: bool) -> tuple[str, str | None]:
    """The outcome in words, and the winner (None: no winner to name)."""
    if abandoned:
        return "abandoned: the table ended the match without a winner", None
    if not summary.complete:
        return "in progress: no match_end yet", None
    if summary.winner is not None:
        return "winner", _who(summary.winner)
    totals = [summary.side_total(s) for s in summary.sides]
    best = max(totals) if summary.higher_wins else min(totals)
    return ("no winner: a tie" if totals.count(best) > 1 else "no winner"), None


def _places(summary: MatchSummary) -> list[dict[str, Any]]:
    ranks = summary.ranks()
    return [
        {"k": k, "rank": rank, "name": side_name(s), "total": summary.side_total(s)}
        for k, (rank, s) in sorted(enumerate(zip(ranks, summary.sides, strict=True)), key=lambda x: (x[1][0], x[0]))
    ]


def _pairs(summary: MatchSummary) -> bool:
    return any(len(s) > 1 for s in summary.sides)


def _notes(summary: MatchSummary) -> list[str]:
    """What the verdict's badge adds: the rules broken, the rules not checkable."""
    notes = []
    if summary.violations:
        notes.append("the log breaks the rules; the scores are what the rules give")
    open_ = len(summary.unverified)
    if open_:
        notes.append(f"{open_} rule{'s' * (open_ != 1)} not checkable (hidden tiles)")
    return notes


def _chart(summary: MatchSummary, target: int | None) -> str:
    if not summary.hands:
        return ""
    series = [Series(side_name(s), [0, *(h.running.get(s[0], 0) for h in summary.hands)]) for s in summary.sides]
    labels = ["start", *(f"H{h.number}" for h in summary.hands)]
    return line_chart(
        series,
        labels,
        "Running totals",
        "penalty points" if not summary.higher_wins else "points",
        target=target,
    )


def render_sheet(
    summary: MatchSummary,
    audit_href: str | None = None,
    audit_hint: str | None = None,
) -> str:
    """The whole page (``templates/club/sheet.html``). ``audit_href``: where the audit report was written
    (a relative address), or ``audit_hint``: the command that makes it, for a match with violations. The
    chart's dashed line is the score the match is played to (``summary.target``)."""
    with_aggressor = any(h.aggressor for h in summary.hands)
    outcome, winner = _outcome(summary, summary.abandoned)
    body = render(
        "club/sheet.html",
        s=summary,
        players=" vs ".join(side_name(s) for s in summary.sides),
        players_word="Partnerships" if _pairs(summary) else "Players",
        when=_when(summary.date),
        violations=summary.violations,
        taken=[str(h.number) for h in summary.hands if not h.verified],
        notes=_notes(summary),
        audit_href=audit_href,
        audit_hint=audit_hint,
        hands=_hand_rows(summary),
        last=summary.hands[-1] if summary.hands else None,
        lead=4 if with_aggressor else 3,
        with_aggressor=with_aggressor,
        sides=[side_name(s) for s in summary.sides],
        names=["Hand", "End", "Winner"] + (["Aggressor"] if with_aggressor else []),
        unit="penalty" if not summary.higher_wins else "points",
        totals=[summary.side_total(s) for s in summary.sides],
        outcome=outcome,
        outcome_winner=winner,
        places=_places(summary),
        chart=Markup(_chart(summary, summary.target)),
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
