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
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from dominolog.htmlpage import render
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


def _likelihoods(f: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """A finding's likelihood in words, and the same where the player's other turns were honest."""
    from dominolog.audit.text import likely_words

    def words(key: str) -> str | None:
        value = f.get(key)
        return (
            likely_words(value) if isinstance(value, Mapping) and isinstance(value.get("share"), int | float) else None
        )

    return words("likelihood"), words("others_honest")


def _decision_tone(decisions: Sequence[ShownDecision]) -> str:
    return "mistake" if any(d.mistake for d in decisions) else "best" if any(d.choice for d in decisions) else "even"


def _decision_title(decisions: Sequence[ShownDecision]) -> str:
    """An event's analysis cell's title: each decision in words."""
    from dominolog.analysis.shown import loss_word, rank_text, signed

    return "; ".join(
        f"{shown(d.player, 80)} played {shown(d.played, 80)} ({signed(d.value)}): {rank_text(d)}, "
        + (f"lost {loss_word([d])[1:]}, best {shown(d.best_move, 80)} ({signed(d.best)})" if d.mistake else "best")
        for d in decisions
    )


def _found_in(hand: Mapping[str, Any], ev: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The findings of the hand an event makes."""
    return [hand["findings"][i] for i in ev.get("findings") or [] if 0 <= i < len(hand.get("findings") or [])]


def _hot_tiles(found: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The tiles of the findings, each coloured by the most certain finding it is in."""
    severity = {c: i for i, c in enumerate(reversed(CERTAINTIES))}
    ranked = sorted((f for f in found if f.get("certainty") in severity), key=lambda f: severity[f["certainty"]])
    return {str(t): str(f["certainty"]) for f in ranked for t in f.get("tiles") or []}


def _worst(hand: Mapping[str, Any], ev: Mapping[str, Any]) -> str:
    found = {hand["findings"][i].get("certainty") for i in ev.get("findings") or [] if i < len(hand["findings"])}
    return next((c for c in CERTAINTIES if c in found), "")


def _tone(v: Mapping[str, Any]) -> str:
    if v.get("violations"):
        return "bad"
    return "doubt" if v.get("possible") or v.get("unsettled") or not v.get("valid") else ""


def _result_names(players: Sequence[str], points: Mapping[str, Any], claimed: Mapping[str, Any]) -> list[str]:
    return list(dict.fromkeys([*players, *points, *claimed]))


def render_html(doc: dict[str, Any], analysis: ShownReview | None = None) -> str:
    """The audit document as one self-contained HTML5 page (``templates/audit/report.html``: inline
    style, script and pictures); ``analysis``: a review of the match, shown beside it."""
    from dominolog.analysis.shown import loss_word, number, rank_text, signed

    players = [str(p) for p in doc.get("players") or []]
    hands = doc.get("hands") or []
    title = f"Audit {shown(doc.get('match_id') or 'match', 200)}: {shown(doc.get('variant_title') or '', 200)}"
    title += " (" + ", ".join(shown(p, 200) for p in players) + ")"
    return render(
        "audit/report.html",
        limit=LIMIT,
        doc=doc,
        analysis=analysis,
        players=players,
        title=title,
        where={int(e["seq"]): int(h["number"]) for h in hands for e in h.get("events") or []},
        first_seq=next((str(int(h["events"][0]["seq"])) for h in hands if h.get("events")), "-"),
        first_hand=next((str(int(h["number"])) for h in hands if h.get("events")), "-"),
        css=Markup(_asset("report.css")),
        script=Markup(_asset("report.js")),
        certainties=CERTAINTIES,
        chain_words={"ok": "intact", "broken": "broken", "absent": "no hash chain"},
        event_id=event_id,
        likelihoods=_likelihoods,
        decision_tone=_decision_tone,
        decision_title=_decision_title,
        found_in=_found_in,
        hot_tiles=_hot_tiles,
        worst_in=_worst,
        tone=_tone,
        result_names=_result_names,
        rank_text=rank_text,
        loss_word=loss_word,
        signed=signed,
        number=number,
    )
