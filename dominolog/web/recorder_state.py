"""What the phone recorder page shows, as one JSON document (``GET /api/matches/{id}/recorder``).

Every figure and every choice comes from the recording layer (:class:`~dominolog.recording.session.Session`,
the recorder's prompt :mod:`dominolog.recording.prompt` and its pad :mod:`dominolog.recording.pad`, the
terminal recorder's too): the legal tiles, the places a tile fits, the prompt and its offer, the rules'
result of a hand and the totals; the page holds no rules and only sends back the entries this document
spells out (``body`` and ``type``, as the write takes them).

The document:

- ``match``, ``seq`` (events stored), ``head``, ``variant``, ``players``, ``hand`` (its number), ``turn``;
- ``picture``: the table as ``export --format svg`` draws it (None before a deal), ``picture_note``;
- ``hands``: each player's known tiles and hidden count; ``boneyard`` likewise;
- ``points`` (the hand's, as the rules give them so far, when they can) and ``totals``;
- ``events``: the last events in words, each with its ``seq`` and, for an event of the hand in play
  that a correction reaches, ``undo``: the entry undoing back to it (undos, nothing deleted);
- ``pad``: the 28 tiles (:func:`dominolog.recording.pad.pad`), each with its ``state`` (``table``,
  ``legal``, ``held``: in the hand on move but not playable now, ``elsewhere``: known out of its reach,
  ``unknown``), ``holder``, ``active`` (a tap plays it), its ``places`` (each ``id``
  ``left|right|<cell>:<side>``, ``first`` for a hand's first tile, the entry playing it there, and
  ``end``: the open end of the picture it is, its ``data-end``) and
  its ``draw`` entry (None when it cannot be drawn);
- ``prompt``: ``kind``, ``text``, ``offer`` (an entry, or ``{"action": "reveal"}``), ``reveal`` (whose
  tiles are asked for), ``deal``: a deal to make by taps where the prompt has no offer (None else):
  ``leaders`` (the one the rules name, or every player when they name none) and ``start`` (the variant
  turns a tile up: the deal waits for it, tapped on the pad);
- ``agreement``: at a hand's end the rules can give, who is asked to agree (the side that did not
  win), the result in words, and the two entries: the agreement note and the hand_end
  (:mod:`dominolog.club.agreement`);
- ``actions``: the entries of the buttons (pass, draw, block, declare, undo), None where there is no
  hand to act in (a pass the rules still take once the hand is over is offered, named; a declaration is
  named for the player who just made a match, when the rules say who); ``pair``: true where a turn may
  be a pair play (two tiles tapped, sent as ``ab&cd``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dominolog.recording.session import Session

JSONL = "application/x-ndjson"
DN = "text/x-dominolog-notation"
#: how many of the last events the page lists
LAST_EVENTS = 12


def _entry(label: str, body: str, kind: str = DN) -> dict[str, str]:
    return {"label": label, "body": body, "type": kind}


def _lines(*events: dict[str, Any]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


def _name(t: Any) -> str:
    return str(t)


def recorder_state(
    session: Session, match_id: str, revealing: bool = False, skipped: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The document of the match ``session`` records (see the module's text). ``revealing``: the table
    said the hand is over (hidden tiles: the reveals are asked for); ``skipped``: players whose reveal
    the table passed over."""
    from dominolog.export import NoPicture, hand_picture, table_picture
    from dominolog.log.words import describe_record
    from dominolog.recording.prompt import Flow, expect, match_totals, outcome_text

    reducer = session.reducer
    flow = Flow()
    flow.sync(session)
    flow.revealing, flow.skipped = revealing, set(skipped)
    prompt = expect(session, flow)
    outcome = session.outcome()
    # (read after the rules' trials above: a trial rolls the fold back to copies of its state)
    state, variant, hand = reducer.state, reducer.variant, reducer.hand
    records = session.records()
    doc: dict[str, Any] = {
        "match": match_id,
        "seq": reducer.events,
        "head": session.head,
        "variant": variant.name if variant is not None else None,
        "players": list(state.players) if state is not None else [],
        "hand": hand.number if hand is not None else None,
        "turn": hand.turn if hand is not None and hand.over is None else None,
        "picture": None,
        "picture_note": None,
    }
    try:
        if hand is not None and state is not None and records:
            # the hand in play as the session's fold holds it (table_picture would fold the match again
            # to reach the same state: the same picture, byte for byte)
            doc["picture"] = hand_picture(state, hand, records[-1].seq)
        elif hand is not None:
            doc["picture"] = table_picture(match_id, records)
    except NoPicture as exc:
        doc["picture_note"] = str(exc)
    doc["hands"] = (
        [
            {"player": p, "known": sorted(_name(t) for t in h.known), "hidden": h.unknown, "count": h.count}
            for p, h in hand.holdings.items()
        ]
        if hand is not None
        else []
    )
    doc["boneyard"] = (
        {"known": sorted(_name(t) for t in hand.boneyard.known), "hidden": hand.boneyard.unknown}
        if hand is not None and variant is not None and variant.has_boneyard
        else None
    )
    totals, _ = match_totals(session)
    doc["totals"] = totals
    doc["points"] = dict(outcome.points) if outcome is not None else None
    standing = {r.seq for r in session.correctable()}
    after_deal = [r.seq for r in session.correctable()]
    events = []
    for rec in records[-LAST_EVENTS:]:
        item: dict[str, Any] = {"seq": rec.seq, "words": describe_record(rec)}
        if rec.seq in standing:
            count = len(after_deal) - after_deal.index(rec.seq)
            item["undo"] = _entry(f"undo back to #{rec.seq}", _lines(*[{"type": "undo"}] * count), JSONL)
        events.append(item)
    doc["events"] = events
    doc["pad"] = _pad(session)
    doc["places"] = _places(hand)
    offer: dict[str, Any] | None = None
    if prompt.default is not None and prompt.kind in ("deal", "match_end"):
        offer = _entry(_offer_label(prompt.kind, prompt.default), _lines(prompt.default), JSONL)
    elif prompt.kind == "turn" and prompt.reveals:
        offer = {"label": "hand over: reveal the tiles", "action": "reveal"}
    deal: dict[str, Any] | None = None
    if prompt.kind == "deal" and offer is None and state is not None and variant is not None:
        leader = session.next_leader()
        deal = {"leaders": [leader] if leader is not None else list(state.players), "start": variant.uses_start_tile}
    doc["prompt"] = {
        "kind": prompt.kind,
        "text": page_text(prompt, state, variant, hand, offer, deal),
        "offer": offer,
        "reveal": prompt.player if prompt.kind == "reveal" else None,
        "deal": deal,
    }
    doc["agreement"] = None
    if prompt.kind == "outcome" and prompt.default is not None and outcome is not None and state is not None:
        doc["agreement"] = _agreement(state, variant, outcome, prompt.default, outcome_text)
    in_play = hand is not None and hand.over is None
    pass_entry: dict[str, str] | None = _entry("pass", "-") if in_play else None
    if hand is not None and not in_play and variant is not None and variant.accepts_after_over(hand, "pass"):
        # a pass the rules still take once the hand is over (Ghost 13: a lock confirmed by two passes)
        pass_entry = _entry(f"{hand.turn} passes", _lines({"type": "pass", "player": hand.turn}), JSONL)
    declarer = hand.extra.get("declare") if hand is not None else None
    declares = None
    if hand is not None and variant is not None and variant.declared_suits:
        # by the player who just made a match (the rules'), else as typed: by the player on move
        declares = [
            _entry(f"{declarer} declares {s}", _lines({"type": "declare", "player": declarer, "suit": s}), JSONL)
            if isinstance(declarer, str)
            else _entry(f"declare {s}", f"!{s}")
            for s in variant.declared_suits
        ]
    doc["actions"] = {
        "pass": pass_entry,
        "draw": _entry("draw (unseen)", "+?") if in_play and variant is not None and variant.has_drawing else None,
        "block": _entry("block", "#") if in_play else None,
        "declare": declares,
        "undo": _entry("undo", _lines({"type": "undo"}), JSONL) if hand is not None and standing else None,
        "pair": in_play and variant is not None and variant.has_pair_plays,
        # the buttons that mean something in this variant (the others are not shown)
        "shown": shown_actions(variant),
    }
    # offline, the page draws its queued entries as pending: whose turn each moves on to (the rules' order
    # of play from the player on move; a draw, a declaration, a note or a reveal leaves the turn)
    doc["order"] = _order(state, hand) if in_play else []
    return doc


def shown_actions(variant: Any) -> list[str]:
    """The action buttons that mean something in ``variant`` (None: all): no draw without drawing,
    no pair without pair plays, declarations where the variant has suits to declare."""
    names = ["pass", "draw", "pair", "block", "reveal", "note", "undo"]
    if variant is None:
        return names
    return [n for n in names if (n != "draw" or variant.has_drawing) and (n != "pair" or variant.has_pair_plays)]


def _order(state: Any, hand: Any) -> list[str]:
    """The players in the order they move from the one on move (each play or pass moves the turn on)."""
    players = list(state.players)
    if hand.turn not in players:
        return []
    i = players.index(hand.turn)
    return players[i:] + players[:i]


def page_text(prompt: Any, state: Any, variant: Any, hand: Any, offer: Any, deal: Any) -> str:
    """The prompt in the page's words: what a tap does (the terminal's \"Enter writes\" is not the page's)."""
    kind, number = prompt.kind, hand.number if hand is not None else None
    if kind == "ended":
        return "the match is over and recorded"
    if kind == "match_end":
        return prompt.text.split(":")[0] + ": tap end the match, or type the table's totals in the line (* Ana 100 ...)"
    if kind == "deal":
        count = len(state.results) + 1 if state is not None else 1
        if offer is not None:
            return f"hand {count}: tap {offer['label']} (hands not seen)"
        if deal is not None and deal["start"]:
            return f"hand {count}: tap who leads, then the tile turned up on the pad"
        return f"hand {count}: tap who leads (hands not seen)"
    if kind == "reveal":
        return (
            f"hand {number} is over: tap {prompt.player}'s tiles on the pad, then reveal "
            "(or not shown if they were not shown)"
        )
    if kind == "points":
        names = " ".join(f"{p} 0" for p in state.players)
        return (
            f"hand {number} is over; the rules cannot tell the points (hidden tiles): "
            f"type the agreed ones in the line, then tap enter: * {names}"
        )
    if kind == "outcome":
        result = prompt.text.split(" · Enter")[0].split("the rules give ", 1)[-1]
        return f"hand {number} is over, the rules give {result}: tap agree or disagree below"
    if kind == "turn":
        text = prompt.text.split(" · hand over?")[0]
        if variant is not None and not variant.has_drawing:
            text = text.replace("none (pass or draw)", "none: tap pass")
        else:
            text = text.replace("none (pass or draw)", "none: tap draw or pass")
        if prompt.reveals:
            text += " · hand over? tap hand over: reveal the tiles"
        return text
    return prompt.text


def _offer_label(kind: str, event: dict[str, Any]) -> str:
    if kind == "deal":
        return f"deal, {event.get('leader')} leads"
    return "end the match"


def _pad(session: Session) -> list[dict[str, Any]]:
    """The 28 tiles (see the module's text): the recording layer's pad, each place with its entry, and
    each tile that may be drawn now (not on the table, not known in a hand) with its draw."""
    from dominolog.recording.pad import pad
    from dominolog.recording.session import end_suffix

    hand = session.reducer.hand
    drawing = hand is not None and hand.over is None and hand.boneyard.count > 0
    ends = _picture_ends(hand.layout) if hand is not None else {}
    out = []
    for t in pad(session):
        typed = t.tile.replace("-", "")
        doc = t.as_dict()
        doc["places"] = [{"id": p or "first", "entry": typed + end_suffix(p), "end": ends.get(p)} for p in t.places]
        held = t.holder is not None and t.holder != "boneyard"
        doc["draw"] = f"+{typed}" if drawing and t.state != "table" and not held else None
        out.append(doc)
    return out


def _places(hand: Any) -> list[dict[str, Any]]:
    """The table's open places (``id``, the notation's ``suffix``, the picture's ``end``): where the page
    asks a tile played while entries wait (their places are not known yet) to go."""
    from dominolog.recording.session import end_suffix

    if hand is None or hand.over is not None:
        return []
    ends = _picture_ends(hand.layout)
    names = _open_places(hand.layout)
    return [{"id": p, "suffix": end_suffix(p), "end": ends.get(p)} for p in names]


def _open_places(layout: Any) -> list[str]:
    from dominolog.layouts.line import LineLayout

    if isinstance(layout, LineLayout):
        return ["left", "right"] if layout.chain else []
    return [s.name for s in layout.open_sides()] if hasattr(layout, "open_sides") else []


def _picture_ends(layout: Any) -> dict[str, str]:
    """Each place's open end in the table's picture (its ``data-end``, as ``export --format svg`` names
    it): a line's ``left`` and ``right`` are the west and east ends of the row it is drawn as; a
    spinner's places are named as the picture's ends."""
    from dominolog.layouts.line import LineLayout
    from dominolog.layouts.picture import line_as_grid

    if isinstance(layout, LineLayout):
        sides = {s.dir: s.name for s in line_as_grid(layout).open_sides()}
        return {place: sides[d] for place, d in (("left", "W"), ("right", "E")) if d in sides}
    return {s.name: s.name for s in layout.open_sides()} if hasattr(layout, "open_sides") else {}


def _agreement(state: Any, variant: Any, outcome: Any, hand_end: dict[str, Any], outcome_text: Any) -> dict[str, Any]:
    """Who is asked to agree with the rules' result and the two answers' entries."""
    from dominolog.club.agreement import agreement_note

    winner = outcome.winner
    won = {winner} if isinstance(winner, str) else set(winner or [])
    side = next((s for s in variant.sides() if won & set(s)), ())
    asked = [p for p in state.players if p not in side] or list(state.players)
    player = asked[0]
    number = outcome.number
    points = dict(outcome.points)
    return {
        "player": player,
        "hand": number,
        "result": outcome_text(outcome),
        "agree": _entry(f"{player} agrees", _lines(agreement_note(player, True, number, points), hand_end), JSONL),
        "disagree": _entry(
            f"{player} disagrees", _lines(agreement_note(player, False, number, points), hand_end), JSONL
        ),
    }
