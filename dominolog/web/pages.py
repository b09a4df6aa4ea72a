"""The pages, rendered on the server (every name, note and meta value escaped: :func:`esc`), readable
without JavaScript; ``static/live.js`` keeps them current through one Server-Sent Events stream a
page, fetching the page's live part again (``.../part``) when the stream says something moved.

- ``/``: the evening's board, tonight first: the current round of the current club event
  (:mod:`dominolog.club.tonight`; ``?event=E&round=R`` another, with links to every event and round
  the request may read), each match's table, players, variant, hand, totals, whose turn, status, the
  time of its last event;
- ``/m/{id}``: one match: the table as ``export --format svg`` draws it, the scores, the events
  in words (as ``show`` says them) with the violations ``verify`` finds marked, links to its
  results (:mod:`dominolog.web.results`);
- ``/tables``: the same round's tables, each picture and score at once, large (a projector);
- ``/standings``: the page ``dominolog standings --format html`` writes (the same filters), its
  ``<main>`` the live part (``/standings/part``), fetched again when any match moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from dominolog.htmlpage import part, render
from dominolog.web.auth import Sight, sight
from dominolog.web.frame import frame as _frame
from dominolog.web.ids import MatchId, api_href, href
from dominolog.web.rendered import FOLDS, Kept
from dominolog.web.results import StandingsAsked, StandingsQuery
from dominolog.web.shared import WebState

if TYPE_CHECKING:
    from dominolog.club.tonight import Tonight
    from dominolog.store import Store
    from dominolog.store.appending import Fold
    from dominolog.web.shared import Web

#: what the pages of every match are given: the event and round the address picked (None: tonight's)
Pick = tuple[str | None, str | None]

router = APIRouter(include_in_schema=False)


def _players(value: Any) -> str:
    return ", ".join(str(p) for p in value) if isinstance(value, list) else ""


def _totals(value: Any) -> str:
    return ", ".join(f"{p} {v}" for p, v in value.items()) if isinstance(value, dict) else ""


def board_rows(store: Store, seen: Sight) -> list[dict[str, Any]]:
    """Every match as the board shows it: its ``list --json`` row, the hand in play and who is on move
    (the store's fold of the match), the time of its last event."""
    from dominolog.club.summary import listed_matches, status_words
    from dominolog.recording.notation import on_move

    def look(fold: Fold) -> tuple[int, str | None, bool, bool]:
        reducer = fold.reducer
        state = reducer.state
        hand = state.hand if state is not None else None
        number = hand.number if hand is not None else (len(state.results) if state is not None else 0)
        return number, on_move(reducer), hand is not None, state is not None and state.abandoned

    rows = seen.rows(listed_matches(store, last_at=True))
    for r in rows:
        r["hand"], r["turn"], open_hand, abandoned = FOLDS.read(store, r["id"], look)
        r["turn_words"] = _turn_words(r["turn"], r["status"], open_hand, r["events"])
        r["status_words"] = status_words(r["status"], abandoned)
    return rows


def _turn_words(turn: str | None, status: str, open_hand: bool, events: int) -> str:
    """Whose turn, in words."""
    if turn is not None:
        return f"{turn} to play"
    if status == "complete":
        return "match over"
    if open_hand:
        return "hand in play"
    return "waiting for the deal" if events else "not started"


def picked(request: Request) -> Pick:
    """The event and round an address picks (``?event=&round=``; None: not given)."""
    q = request.query_params
    return q.get("event"), q.get("round")


def pick_query(pick: Pick) -> str:
    """``?event=E&round=R`` of a pick (what was given), or ``""``."""
    pairs = [(k, v) for k, v in zip(("event", "round"), pick, strict=True) if v is not None]
    return "?" + urlencode(pairs, quote_via=quote) if pairs else ""


def _round_name(round_: str | None) -> str:
    return f"round {round_}" if round_ else "no round"


def _heading(title: str, t: Tonight, seen: Sight, base: str) -> Markup:
    """The page's heading, the event and round shown, and the links to the other rounds of that event and
    to the other events (plain links: read without JavaScript); the current round of the current event
    is ``base`` itself."""
    from dominolog.club.tonight import NO_EVENT

    now = next((e for e in t.evenings if e.event == t.current_event), None)
    current_round = now.current_round if now is not None else None

    def link(event: str, round_: str | None, text: str, here: bool) -> dict[str, Any]:
        url = base if event == t.current_event and (round_ is None or round_ == current_round) else None
        url = url or base + pick_query((event, round_))
        return {"url": seen.keyed(url), "text": text, "here": here}

    evening = t.evening
    rounds = []
    if evening is not None and len(evening.rounds) > 1:
        rounds = [link(evening.event, r, _round_name(r), r == t.round) for r in evening.rounds]
    others = [link(e.event, None, e.name, False) for e in t.evenings if e.event != t.event]
    back = None if t.current else link(t.current_event or "", None, "back to tonight", False)
    # (an event no match the request may read has: not repeated)
    what = None if t.event is None or t.unknown else f"{t.event or NO_EVENT}, {_round_name(t.round)}"
    return part(
        "web/heading.html",
        title=title,
        what=what,
        tonight=t.current,
        evening=evening.name if evening is not None else "",
        rounds=rounds,
        others=others,
        back=back,
    )


def _tonight(store: Store, seen: Sight, pick: Pick) -> Tonight:
    from dominolog.club.tonight import tonight

    return tonight(board_rows(store, seen), *pick)


def board_part(store: Store, seen: Sight, pick: Pick = (None, None)) -> str:
    t = _tonight(store, seen, pick)
    heading = _heading("Tonight's board" if t.current or t.event is None else "Board", t, seen, "/")
    rows = [
        {
            "status": r["status"],
            "table": _meta(r).get("table", ""),
            "url": seen.keyed(href(r["id"])),
            "id": r["id"],
            "players": _players(r["players"]),
            "variant": r["variant"] or "?",
            "hand": r["hand"],
            "totals": _totals(r["totals"]),
            "turn_words": r["turn_words"],
            "status_words": r["status_words"],
            "last_at": r["last_at"] or "-",
        }
        for r in t.matches
    ]
    return render("web/board.html", heading=heading, unknown=t.unknown, rows=rows)


def _meta(row: dict[str, Any]) -> dict[str, Any]:
    return row["meta"] if isinstance(row["meta"], dict) else {}


async def _every_match_page(
    request: Request,
    app: Web,
    title: str,
    part: Callable[[Store, Sight, Pick], str],
    part_url: str,
    wide: bool = False,
) -> HTMLResponse:
    """A page of the matches the request may read (the board, every table): the round the address
    picks, else tonight's; kept current by the board's stream; its live part is ``part_url`` with the
    same pick (without one, the part follows tonight as it moves on to the next round)."""
    pick = picked(request)

    def read(store: Store) -> HTMLResponse:
        seen = sight(request, store)
        mark = seen.mark(store)  # (before the part: what the page shows is at least as new)
        body = _kept(request, app, seen, mark, part_url, lambda: part(store, seen, pick))
        live = seen.keyed(part_url + pick_query(pick))
        stream = seen.keyed(f"/api/board/stream?after={quote(mark, safe='')}")
        return HTMLResponse(_frame(title, body, stream, live, wide))

    return await app.stores.run(read)


async def _every_match_part(request: Request, app: Web, part: Callable[[Store, Sight, Pick], str]) -> HTMLResponse:
    """The live part of such a page, fetched again by ``static/live.js``."""
    pick = picked(request)

    def read(store: Store) -> str:
        seen = sight(request, store)
        return _kept(request, app, seen, store.mark(), request.url.path, lambda: part(store, seen, pick))

    return HTMLResponse(await app.stores.run(read), headers={"Cache-Control": "no-store"})


def _kept(request: Request, app: Web, seen: Sight, mark: str, part: str, make: Callable[[], str]) -> str:
    """The live part ``part`` of the page the request asks for, as the store stands at ``mark``: made
    once and shared among the requests for it (:class:`~dominolog.web.rendered.Rendered`), by the
    query as sent and what the request may read (its token, the private events, its page key)."""
    token = seen.token.id if seen.token is not None else None
    key = (mark, part, request.url.query, token, seen.private, seen.page_key)
    return app.rendered.get(key, make)


@router.get("/", response_class=HTMLResponse)
async def board(request: Request, app: WebState) -> HTMLResponse:
    return await _every_match_page(request, app, "Tonight's board", board_part, "/part")


@router.get("/part", response_class=HTMLResponse)
async def board_fragment(request: Request, app: WebState) -> HTMLResponse:
    return await _every_match_part(request, app, board_part)


def match_part(store: Store, match_id: str, seen: Sight) -> tuple[str, int]:
    """The live part of ``/m/{id}`` and the seq of its last event."""
    from dominolog.club.summary import status_words
    from dominolog.export import NoPicture, table_picture
    from dominolog.log.words import describe_record
    from dominolog.store import verify_stored

    seen.match(store, match_id)
    records = [rec for rec, _ in store.records(match_id)]
    report = verify_stored(store, match_id)
    try:
        picture = Markup(table_picture(match_id, records))
    except NoPicture as exc:
        picture = part("web/note.html", note=str(exc))
    marked: dict[int, list[str]] = {}
    for v in report.violations:
        marked.setdefault(v.seq, []).append(f"{v.code}: {v.message}")
    status = "invalid" if not report.valid else "complete" if report.complete else "open"
    ended = [r for r in records if r.event is not None and r.event.type == "match_end"]
    words = status_words(status, bool(ended) and getattr(ended[-1].event, "reason", None) == "abandoned")
    links = {
        "sheet": seen.keyed(href(match_id, "/sheet")),
        "audit": seen.keyed(href(match_id, "/audit")),
        "analysis": seen.keyed(href(match_id, "/analysis")),
        "log": seen.keyed(api_href(match_id, "/export?format=jsonl")),
    }
    hands = [
        {"number": h.number, "end": h.end, "winner": _winner(h.winner), "points": _totals(h.points)}
        for h in report.hands
    ]
    events = [
        {"seq": rec.seq, "words": describe_record(rec), "at": _at(rec), "issues": marked.get(rec.seq, [])}
        for rec in reversed(records)
    ]
    text = render(
        "web/match.html",
        match_id=match_id,
        variant=report.variant or "?",
        players=", ".join(report.players),
        status=status,
        words=words,
        hands=hands,
        head=report.head[:10],
        links=links,
        picture=picture,
        totals=_totals(report.totals),
        violations=len(report.violations),
        events=events,
    )
    return text, records[-1].seq if records else 0


def _at(rec: Any) -> str | None:
    at = rec.obj.get("at") if rec.obj is not None else None
    return at if isinstance(at, str) else None


def _winner(value: Any) -> str:
    if value is None:
        return "-"
    return "+".join(str(x) for x in value) if isinstance(value, list) else str(value)


@router.get("/m/{match_id}", response_class=HTMLResponse)
async def follow(request: Request, match_id: MatchId, app: WebState) -> HTMLResponse:
    def read(store: Store) -> HTMLResponse:
        seen = sight(request, store)
        seen.match(store, match_id)
        part, last = match_part(store, match_id, seen)
        stream = api_href(match_id, f"/stream?after={last}")
        return HTMLResponse(_frame(match_id, part, seen.keyed(stream), seen.keyed(href(match_id) + "/part")))

    return await app.stores.run(read)


@router.get("/m/{match_id}/part", response_class=HTMLResponse)
async def follow_fragment(request: Request, match_id: MatchId, app: WebState) -> HTMLResponse:
    def read(store: Store) -> str:
        seen = sight(request, store)
        seen.match(store, match_id)  # (a 404 is not kept)
        return _kept(
            request, app, seen, store.mark(), href(match_id, "/part"), lambda: match_part(store, match_id, seen)[0]
        )

    return HTMLResponse(await app.stores.run(read), headers={"Cache-Control": "no-store"})


def tables_part(store: Store, seen: Sight, pick: Pick = (None, None)) -> str:
    """The round's tables at once, for a projector (a broadcast's multi-board): each match's picture
    as ``export --format svg`` draws it, its players and running totals, large."""
    t = _tonight(store, seen, pick)
    rows = [
        {
            "table": _meta(r).get("table"),
            "has_table": "table" in _meta(r),
            "url": seen.keyed(href(r["id"])),
            "id": r["id"],
            "score": _totals(r["totals"]) or _players(r["players"]),
            "hand": r["hand"],
            "turn_words": r["turn_words"],
            "status_words": r["status_words"],
            "picture": Markup(_picture(store, r["id"])),
        }
        for r in t.matches
    ]
    heading = _heading("Every table", t, seen, "/tables")
    return render("web/tables.html", heading=heading, unknown=t.unknown, rows=rows)


@router.get("/tables", response_class=HTMLResponse)
async def tables(request: Request, app: WebState) -> HTMLResponse:
    return await _every_match_page(request, app, "Every table", tables_part, "/tables/part", wide=True)


@router.get("/tables/part", response_class=HTMLResponse)
async def tables_fragment(request: Request, app: WebState) -> HTMLResponse:
    return await _every_match_part(request, app, tables_part)


#: the picture of a match between hands (its last hand played), by store, match and hands ended
_BETWEEN_HANDS = Kept(1024)


def _picture(store: Store, match_id: str) -> str:
    """The match's table as ``export --format svg`` draws it (:func:`~dominolog.export.table_picture`),
    drawn from the store's fold of the match (kept, and brought up to date with the new events only:
    a long match is not read again at each move), or, between hands, the last hand played (kept until
    another hand ends)."""
    from dominolog.export import NoPicture, hand_picture, table_picture

    def look(fold: Fold) -> str | tuple[Any, ...]:
        state = fold.reducer.state
        if state is not None and state.hand is not None:
            return hand_picture(state, state.hand, fold.seq)
        results = state.results if state is not None else []
        last = (results[-1].number, results[-1].end, tuple(sorted(results[-1].points.items()))) if results else None
        return (str(store.path), match_id, len(results), last)

    key = FOLDS.read(store, match_id, look)
    if isinstance(key, str):
        return key
    kept = _BETWEEN_HANDS.get(key)
    if kept is None:
        try:
            kept = table_picture(match_id, [rec for rec, _ in store.records(match_id)])
        except NoPicture:
            kept = render("web/note.html", note="no hand yet")
        _BETWEEN_HANDS[key] = kept
    return kept


async def _standings_body(request: Request, app: Web, asked: StandingsQuery) -> str:
    """The ``<main>`` inside of the page ``dominolog standings --format html`` writes (the same filters),
    of the matches the request may read."""
    from dominolog.club.standings_html import render_body
    from dominolog.web.results import standings_result

    def read(store: Store) -> str:
        seen = sight(request, store)

        def make() -> str:
            made = standings_result(store, asked, seen=seen, kept=app.kept)
            return render_body(made)

        return _kept(request, app, seen, store.mark(), "/standings", make)

    return await app.stores.run(read)


@router.get("/standings", response_class=HTMLResponse)
async def standings_page(request: Request, app: WebState, asked: StandingsAsked) -> HTMLResponse:
    """The page ``dominolog standings --db --format html`` writes (``GET /api/standings?format=html``,
    the same filters), made afresh at each request, kept current: its ``<main>`` is the live part
    (``/standings/part``, same query), fetched again each time any match moves. Its style sheet is
    inline: the policy names its hash."""
    from dominolog.club.standings_html import page
    from dominolog.web.shared import inline_csp

    body = await _standings_body(request, app, asked)
    query = request.url.query
    part = "/standings/part" + (f"?{query}" if query else "")
    key = request.query_params.get("key")
    stream = "/api/board/stream" + (f"?key={quote(key, safe='')}" if key else "")
    text = page(body, live=(stream, part))
    return HTMLResponse(text, headers={"Content-Security-Policy": inline_csp(text)})


@router.get("/standings/part", response_class=HTMLResponse)
async def standings_fragment(request: Request, app: WebState, asked: StandingsAsked) -> HTMLResponse:
    from dominolog.htmlpage import page_main

    text = page_main(await _standings_body(request, app, asked))
    return HTMLResponse(text, headers={"Cache-Control": "no-store"})
