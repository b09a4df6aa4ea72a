"""The audit document (``dominolog-audit/1``, see :mod:`dominolog.audit.document`) as one HTML file.

The file stands alone: its style sheet (``report.css``), its script (``report.js``) and the table
pictures (SVG) are inline, and nothing is loaded from a network. It reads top down: the verdict, the
hash chain, the match's notes (the disputed question first), then each hand with its verdict, its
findings, its scoring and a step-through replay (arrow keys, the previous/next buttons, a click on an
event or on a finding's link). Printed, it keeps the findings, the scoring and the event list.

Every string that comes from the log is escaped here (control characters shown as ``\\xNN`` by
:func:`dominolog.textsafe.shown`, then :func:`html.escape`); the SVG pictures are made by the
project's own code (:func:`dominolog.layouts.picture.svg_picture`, which escapes its text) and go in
as they are.

With an analysis of the match (:class:`~dominolog.analysis.shown.ShownReview`: ``audit --analysis
REVIEW.json``, or the one the store keeps), the report also has each player's figures under the
verdict (points lost per choice, best moves, accuracy), a column in each hand's event list (the
decision's rank ``#k/N``, the points it lost, the best move when another was played) and, in the
viewer, every option of the decision shown with its value.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.analysis.shown import ShownDecision, ShownReview

__all__ = ["render_html"]

#: how much of one string from the log is shown (a note or a message may be long; a name rarely is)
LIMIT = 2000
CERTAINTIES = ("certain", "possible", "unverifiable")


def esc(value: object, limit: int = LIMIT) -> str:
    """Any value as HTML text: cut, control characters made visible, then ``html.escape`` (quotes too)."""
    return html.escape(shown("" if value is None else value, limit), quote=True)


@cache
def _asset(name: str) -> str:
    text = resources.files("dominolog.audit").joinpath(name).read_text(encoding="utf-8")
    assert "</" + "style" not in text.lower() and "</" + "script" not in text.lower(), name
    return text


def event_id(hand: int, seq: int) -> str:
    """The id of an event's row in the replay (what a finding links to)."""
    return f"h{int(hand)}-e{int(seq)}"


def _tiles(tiles: Iterable[object], hot: Mapping[str, str] | None = None) -> str:
    """Tiles as small boxes; a tile in ``hot`` is coloured by the certainty of the finding it makes."""
    hot = hot or {}
    items = [f'<span class="tile{" " + hot[str(t)] if str(t) in hot else ""}">{esc(t, 20)}</span>' for t in tiles]
    return "".join(items) if items else '<span class="muted">none</span>'


def _players(players: Iterable[object]) -> str:
    return ", ".join(f"<strong>{esc(p, 200)}</strong>" for p in players)


def _winner(winner: object) -> str:
    if winner is None:
        return "no winner"
    if isinstance(winner, list):
        return " and ".join(esc(w, 200) for w in winner)
    return esc(winner, 200)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _verdict_badges(v: Mapping[str, Any]) -> str:
    """The counts of a verdict as coloured badges (a clean one as one green badge)."""
    parts = []
    if v.get("violations"):
        parts.append(f'<span class="badge certain">{_plural(int(v["violations"]), "violation")}</span>')
    if v.get("possible"):
        parts.append(f'<span class="badge possible">{int(v["possible"])} possible</span>')
    if v.get("unsettled"):
        parts.append(f'<span class="badge unverifiable">{int(v["unsettled"])} unsettled</span>')
    if not parts:
        parts.append(
            '<span class="badge clean">valid</span>' if v.get("valid") else '<span class="badge zero">-</span>'
        )
    return " ".join(parts)


def _tone(v: Mapping[str, Any]) -> str:
    if v.get("violations"):
        return "bad"
    return "doubt" if v.get("possible") or v.get("unsettled") or not v.get("valid") else ""


def _finding(f: Mapping[str, Any], hand: int | None, seqs: set[int]) -> str:
    """One finding: certainty, code, message, rules, proof, tiles, and a link to its event."""
    certainty = f.get("certainty") if f.get("certainty") in CERTAINTIES else "unverifiable"
    seq = f.get("seq")
    where = f"seq {esc(seq)}" + (f", line {esc(f['line'])}" if f.get("line") is not None else "")
    if hand is not None and isinstance(seq, int) and seq in seqs:
        where = f'<a class="jump" href="#{event_id(hand, seq)}">{where}<span class="show"> &rarr; show</span></a>'
    rules = "".join(
        f'<div class="rule"><code>{esc(r.get("id"), 40)}</code>{esc(r.get("text"))}</div>' for r in f.get("rules") or []
    )
    proof = "".join(f"<li>{esc(p)}</li>" for p in f.get("proof") or [])
    tiles = f"<div>Tiles: {_tiles(f['tiles'])}</div>" if f.get("tiles") else ""
    likely = ""
    if isinstance(f.get("likelihood"), Mapping) and isinstance(f["likelihood"].get("share"), int | float):
        from dominolog.audit.text import likely_words

        likely = (
            '<span class="likely" title="a violation in this share of the hands the log allows">'
            f"{esc(likely_words(f['likelihood']), 80)}</span>"
        )
    if isinstance(f.get("others_honest"), Mapping) and isinstance(f["others_honest"].get("share"), int | float):
        from dominolog.audit.text import likely_words

        likely += (
            '<span class="likely" title="a violation in this share of the hands the log allows in which the '
            "player's other passes and draws were honest\">"
            f"{esc(likely_words(f['others_honest']), 80)} if the others were honest</span>"
        )
    return (
        f'<div class="finding {certainty}" data-seq="{esc(seq)}">'
        f'<div class="head"><span class="badge {certainty}">{certainty}</span>{likely}'
        f"<code>{esc(f.get('code'), 80)}</code><span>{where}</span></div>"
        f'<div class="msg">{esc(f.get("message"))}</div>{rules}'
        + (f"<ol>{proof}</ol>" if proof else "")
        + f"{tiles}</div>"
    )


def _head(doc: Mapping[str, Any]) -> str:
    title = f"Match {esc(doc.get('match_id'), 200)}" if doc.get("match_id") else "Match (no id)"
    variant = esc(doc.get("variant_title") or doc.get("variant"), 200)
    meta = " &middot; ".join(f"{esc(k, 200)}: {esc(v)}" for k, v in (doc.get("meta") or {}).items())
    source = f"{esc(doc.get('source'), 500)}" + (f", line {esc(doc.get('line'))}" if doc.get("line") else "")
    return (
        f"<header><h1>Audit: {title}</h1>"
        f'<p class="sub">{variant} &middot; {_players(doc.get("players") or [])} &middot; '
        f'<span class="mono">{source}</span></p>' + (f'<p class="sub meta">{meta}</p>' if meta else "") + "</header>"
    )


def _verdict(doc: Mapping[str, Any]) -> str:
    v = doc.get("verdict") or {}
    big = "Valid: no violations" if v.get("valid") else esc(v.get("text") or "not valid")
    rows = []
    for h in doc.get("hands") or []:
        hv = h.get("verdict") or {}
        rows.append(
            f'<tr><td><a href="#hand-{int(h["number"])}">Hand {int(h["number"])}</a></td>'
            f"<td>{_verdict_badges(hv)}</td><td>{esc(hv.get('text'))}</td></tr>"
        )
    totals = ", ".join(f"{esc(p, 200)} {esc(n)}" for p, n in (doc.get("totals") or {}).items())
    return (
        f'<section class="card verdict {_tone(v)}" id="verdict"><h2>Verdict</h2>'
        f'<p class="big" id="verdict-text">{big}</p><div class="counts">{_verdict_badges(v)}</div>'
        f"<p>Totals: {totals or 'none'} &middot; winner: <strong>{_winner(doc.get('winner'))}</strong></p>"
        f'<table class="grid">{"".join(rows)}</table></section>'
    )


def _chain(doc: Mapping[str, Any]) -> str:
    c = doc.get("chain") or {}
    status = c.get("status", "absent")
    word = {"ok": "intact", "broken": "broken", "absent": "no hash chain"}.get(status, esc(status, 40))
    rows = "".join(
        f"<tr><td>Hand {esc(h.get('hand'))}</td><td>seq {esc(h.get('seq'))}</td>"
        f'<td class="mono">{esc(h.get("fingerprint"), 80)}</td></tr>'
        for h in c.get("hands") or []
    )
    expect = ""
    if c.get("expect"):
        e = c["expect"]
        mark = '<span class="ok-text">matches</span>' if e.get("ok") else '<span class="bad-text">does not match</span>'
        expect = f"<p>Expected head <code>{esc(e.get('given'), 200)}</code>: {mark} ({esc(e.get('message'))})</p>"
    return (
        f'<section class="card" id="chain"><h2>Hash chain <span class="badge {esc(status, 40)}">{word}</span></h2>'
        + (
            f'<p>Head <code class="hash">{esc(c.get("head"), 80)}</code><br>'
            f"Fingerprint <code>{esc(c.get('fingerprint'), 80)}</code></p>"
            if c.get("head")
            else ""
        )
        + (
            f'<table class="grid"><tr><th>Hand</th><th>Ends at</th><th>Fingerprint</th></tr>{rows}</table>'
            if rows
            else ""
        )
        + f"{expect}</section>"
    )


def _notes(doc: Mapping[str, Any], where: Mapping[int, int]) -> str:
    items = []
    for i, n in enumerate(doc.get("notes") or []):
        seq = n.get("seq")
        at = f"seq {esc(seq)}"
        if isinstance(seq, int) and seq in where:
            at = f'<a href="#{event_id(where[seq], seq)}">{at}</a>'
        items.append(f'<p class="note{" first" if i == 0 else ""}">{esc(n.get("text"))} <small>({at})</small></p>')
    return f'<section class="card" id="notes"><h2>Notes</h2>{"".join(items)}</section>' if items else ""


def _result(h: Mapping[str, Any], players: Sequence[str]) -> str:
    r, claim = h.get("result") or {}, h.get("claim") or {}
    points, claimed = r.get("points") or {}, claim.get("points") or {}
    names = list(dict.fromkeys([*players, *points, *claimed]))
    rows = []
    for p in names:
        got, said = points.get(p), claimed.get(p)
        same = "" if not claimed or got == said else ' class="bad-text"'
        rows.append(f"<tr><td>{esc(p, 200)}</td><td>{esc(got)}</td><td{same}>{esc(said) if claimed else '-'}</td></tr>")
    checked = (
        '<span class="ok-text">verified</span>' if r.get("verified") else '<span class="bad-text">not verified</span>'
    )
    claim_winner = _winner(claim.get("winner")) if claim else "no claim"
    return (
        f"<p>Hand ends: <strong>{esc(r.get('end'), 80)}</strong> &middot; winner {_winner(r.get('winner'))} "
        f"({checked}) &middot; claimed winner: {claim_winner}</p>"
        f'<table class="grid"><tr><th>Player</th><th>Result</th><th>Claimed</th></tr>{"".join(rows)}</table>'
    )


def _knowledge(knowledge: Mapping[str, Any], hot: Mapping[str, str]) -> str:
    rows = []
    for p, k in knowledge.items():
        may = k.get("may_hold") or []
        may_text = f'<span class="may">{len(may)} tiles: </span>{_tiles(may, hot)}' if may else _tiles([])
        rows.append(
            f'<tr data-player="{esc(p, 200)}"><th>{esc(p, 200)}</th><td>{esc(k.get("count"))}</td>'
            f"<td>{_tiles(k.get('holds') or [], hot)}</td><td>{may_text}</td></tr>"
        )
    head = "<tr><th>Player</th><th>In hand</th><th>Holds</th><th>May hold</th></tr>"
    return f'<table class="knowledge">{head}{"".join(rows)}</table>'


def _decision_cell(decisions: Sequence[ShownDecision]) -> str:
    """The analysis cell of an event: per decision, its rank, the points lost and the best move when
    another was played (``#3/5 -16 best 2-4 right``); empty where no decision was analysed."""
    if not decisions:
        return '<td class="an"></td>'
    from dominolog.analysis.shown import loss_word, rank_text, signed

    parts = []
    for d in decisions:
        word = loss_word([d])
        best = f' <span class="best-move">best {esc(d.best_move, 80)}</span>' if d.mistake else ""
        parts.append(
            f'<span class="rank">{rank_text(d, short=True)}</span> <span class="loss">{esc(word)}</span>{best}'
        )
    tone = "mistake" if any(d.mistake for d in decisions) else "best" if any(d.choice for d in decisions) else "even"
    title = "; ".join(
        f"{shown(d.player, 80)} played {shown(d.played, 80)} ({signed(d.value)}): {rank_text(d)}, "
        + (f"lost {loss_word([d])[1:]}, best {shown(d.best_move, 80)} ({signed(d.best)})" if d.mistake else "best")
        for d in decisions
    )
    return f'<td class="an {tone}" title="{html.escape(title, quote=True)}">{"<br>".join(parts)}</td>'


def _options(decisions: Sequence[ShownDecision]) -> str:
    """The options of the decisions at an event (the viewer's frame): each with its value, the best
    ones marked, the one played marked."""
    from dominolog.analysis.shown import number, rank_text, signed

    out = []
    for d in decisions:
        lost = f"lost {number(d.loss)}" if d.mistake else "best move" if d.choice else "nothing at stake"
        sampled = (
            f" &plusmn;{d.spread:.2f} ({d.samples} samples)" if d.samples is not None and d.spread is not None else ""
        )
        rows = []
        for o in d.options:
            cls = " ".join(
                c for c in ("best" if o.value == d.best else "", "played" if o.move == d.played else "") if c
            )
            spread = f" &plusmn;{o.spread:.2f}" if o.spread is not None else ""
            mark = "&#9654; " if o.move == d.played else ""
            attr = f' class="{cls}"' if cls else ""
            rows.append(
                f'<tr{attr}><td>{mark}{esc(o.move, 80)}</td><td class="num">{signed(o.value)}{spread}</td></tr>'
            )
        out.append(
            f'<div class="options" data-seq="{int(d.seq)}"><p><strong>{esc(d.player, 200)}</strong> played '
            f"{esc(d.played, 80)} ({signed(d.value)}{sampled}): {rank_text(d)}, {lost}</p>"
            f'<table class="opts">{"".join(rows)}</table></div>'
        )
    return "".join(out)


def _frame(hand: Mapping[str, Any], ev: Mapping[str, Any], first: bool, analysis: ShownReview | None = None) -> str:
    seq = int(ev["seq"])
    ends = ev.get("ends") or []
    ends_text = " &middot; ".join(esc(e) for e in ends) or "empty table"
    picture = ev.get("svg") or f'<div class="ends">Ends: {ends_text}</div>'
    found = [hand["findings"][i] for i in ev.get("findings") or [] if 0 <= i < len(hand.get("findings") or [])]
    here = "".join(_finding(f, None, set()) for f in found)
    severity = {c: i for i, c in enumerate(reversed(CERTAINTIES))}
    ranked = sorted((f for f in found if f.get("certainty") in severity), key=lambda f: severity[f["certainty"]])
    hot = {str(t): str(f["certainty"]) for f in ranked for t in f.get("tiles") or []}
    facts = [f"ends {ends_text}", f"boneyard {esc(ev.get('boneyard'))}"]
    if ev.get("turn"):
        facts.append(f"{esc(ev['turn'], 200)} to play")
    return (
        f'<div class="frame" data-seq="{seq}"{"" if first else " hidden"}>'
        f"<h4>seq {seq} &middot; {esc(ev.get('text'))}{' (retracted)' if ev.get('retracted') else ''}</h4>"
        f'<div class="table">{picture}</div><p class="facts">{" &middot; ".join(facts)}</p>'
        + (_options(analysis.at(seq)) if analysis is not None else "")
        + f"{_knowledge(ev.get('knowledge') or {}, hot)}{here}</div>"
    )


def _worst(hand: Mapping[str, Any], ev: Mapping[str, Any]) -> str:
    found = {hand["findings"][i].get("certainty") for i in ev.get("findings") or [] if i < len(hand["findings"])}
    return next((c for c in CERTAINTIES if c in found), "")


def _replay(hand: Mapping[str, Any], analysis: ShownReview | None = None) -> str:
    n, events = int(hand["number"]), hand.get("events") or []
    if not events:
        return ""
    rows = []
    for i, ev in enumerate(events):
        seq = int(ev["seq"])
        cls = " ".join(c for c in ("ev", _worst(hand, ev), "retracted" if ev.get("retracted") else "") if c)
        text = f"<del>{esc(ev.get('text'))}</del>" if ev.get("retracted") else esc(ev.get("text"))
        current = ' aria-current="true"' if i == 0 else ""
        cell = _decision_cell(analysis.at(seq)) if analysis is not None else ""
        rows.append(
            f'<tr id="{event_id(n, seq)}" class="{cls}" data-seq="{seq}"{current}>'
            f'<td class="seq"><a href="#{event_id(n, seq)}">{seq}</a></td><td class="text">{text}</td>'
            f"{cell}<td></td></tr>"
        )
    frames = "".join(_frame(hand, ev, i == 0, analysis) for i, ev in enumerate(events))
    return (
        f'<h3>Replay</h3><div class="replay" data-hand="{n}">'
        f'<div class="events"><table><tbody>{"".join(rows)}</tbody></table></div>'
        f'<div class="viewer" aria-live="polite"><div class="controls">'
        f'<button type="button" data-step="-1">previous</button><span class="pos">seq {int(events[0]["seq"])}</span>'
        f'<button type="button" data-step="1">next</button></div>{frames}</div></div>'
    )


def _hand(h: Mapping[str, Any], players: Sequence[str], analysis: ShownReview | None = None) -> str:
    n = int(h["number"])
    seqs = {int(e["seq"]) for e in h.get("events") or []}
    v = h.get("verdict") or {}
    findings = "".join(_finding(f, n, seqs) for f in h.get("findings") or [])
    scoring = "".join(f"<li>{esc(s)}</li>" for s in h.get("scoring") or [])
    ends = f"seq {esc(h.get('deal_seq'))} to {esc(h.get('end_seq')) if h.get('end_seq') is not None else 'unfinished'}"
    return (
        f'<section class="card hand" id="hand-{n}"><h2>Hand {n} {_verdict_badges(v)}</h2>'
        f'<p class="sub">{esc(v.get("text"))} &middot; {ends} &middot; leader {esc(h.get("leader"), 200)}</p>'
        f'<h3>Findings</h3><div class="findings">{findings or "<p>No findings.</p>"}</div>'
        f"<h3>Scoring</h3>{_result(h, players)}"
        + (f'<ol class="scoring">{scoring}</ol>' if scoring else "")
        + _replay(h, analysis)
        + "</section>"
    )


def _analysis(review: ShownReview) -> str:
    """Each player's figures by the analysis, under the verdict."""
    from dominolog.analysis.shown import number

    rows = "".join(
        f'<tr data-player="{esc(p.name, 200)}"><td>{esc(p.name, 200)}</td><td class="num">{p.decisions}</td>'
        f'<td class="num">{p.choices}</td><td class="num">{number(p.total_loss)}</td>'
        f'<td class="num">{p.average_loss:.2f}</td><td class="num">{p.match_rate:.1f}%</td>'
        f'<td class="num">{p.accuracy:.1f}</td></tr>'
        for p in review.summary
    )
    table = (
        '<table class="grid"><tr><th>Player</th><th>Decisions</th><th>Choices</th><th>Points lost</th>'
        f"<th>Lost per choice</th><th>Best move</th><th>Accuracy</th></tr>{rows}</table>"
        if rows
        else ""
    )
    note = f'<p class="note">{esc(review.note)}</p>' if review.note else ""
    return (
        f'<section class="card" id="analysis"><h2>Analysis</h2><p class="sub">{esc(review.method_text())} &middot; '
        "a choice is a decision whose options are not all worth the same; points lost: the best option's value "
        "minus the move's; accuracy: 100 &times; the mean share of each choice's range (best minus worst) kept. "
        f"The event lists show each decision's rank and the points it lost.</p>{note}{table}</section>"
    )


def _fair_play(doc: Mapping[str, Any]) -> str:
    """The fair-play card: each player's evidence of reneging over the match, in words, and by hand."""
    fp = doc.get("fairplay")
    if not isinstance(fp, Mapping) or not fp.get("players"):
        return ""
    rows = []
    for p in fp["players"]:
        ev = p.get("evidence") or {}
        figure = "proven" if ev.get("log10") is None else f"{ev.get('bayes_factor', 0):.3g}"
        rows.append(
            f"<tr><td>{esc(p.get('player'), 200)}</td><td>{esc(figure, 40)}</td>"
            f"<td>{esc(ev.get('hands'))}</td><td>{esc(ev.get('decisions'))}</td><td>{esc(ev.get('open'))}</td>"
            f"<td>{esc(p.get('words'))}</td></tr>"
        )
    return (
        '<section class="card" id="fairplay"><h2>Fair play</h2>'
        '<p class="sub">Evidence of reneging, not a finding: how many times more likely the log is if the player '
        "sometimes passed or drew while holding a play than if never (a Bayes factor; above 1 leans to reneging, "
        f"below 1 to honest play). {esc(fp.get('model'))}</p>"
        "<table><thead><tr><th>Player</th><th>Evidence</th><th>Hands</th><th>Turns</th>"
        "<th>Open passes and draws</th><th>What it means</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></section>"
    )


def render_html(doc: dict[str, Any], analysis: ShownReview | None = None) -> str:
    """The audit document as one self-contained HTML5 page (inline style, script and pictures);
    ``analysis``: a review of the match, shown beside it."""
    players = [str(p) for p in doc.get("players") or []]
    hands = doc.get("hands") or []
    where = {int(e["seq"]): int(h["number"]) for h in hands for e in h.get("events") or []}
    first_seq = next((str(int(h["events"][0]["seq"])) for h in hands if h.get("events")), "-")
    first_hand = next((str(int(h["number"])) for h in hands if h.get("events")), "-")
    outside = doc.get("findings") or []
    match_findings = (
        f'<section class="card" id="match-findings"><h2>Match findings</h2>'
        f"{''.join(_finding(f, None, set()) for f in outside)}</section>"
        if outside
        else ""
    )
    title = f"Audit {shown(doc.get('match_id') or 'match', 200)}: {shown(doc.get('variant_title') or '', 200)}"
    title += " (" + ", ".join(shown(p, 200) for p in players) + ")"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="dominolog audit ({esc(doc.get("schema"), 80)})">'
        f"<title>{html.escape(title)}</title><style>{_asset('report.css')}</style></head>\n<body><main>"
        f"{_head(doc)}{_verdict(doc)}{_analysis(analysis) if analysis is not None else ''}{_chain(doc)}"
        f"{_notes(doc, where)}{match_findings}"
        f"{''.join(_hand(h, players, analysis) for h in hands)}{_fair_play(doc)}</main>"
        f'<div class="statusbar" role="status">hand <span id="current-hand">{first_hand}</span> &middot; '
        f'seq <span id="current-seq">{first_seq}</span> &middot; &larr; &rarr; to step</div>'
        f"<script>{_asset('report.js')}</script></body></html>\n"
    )
