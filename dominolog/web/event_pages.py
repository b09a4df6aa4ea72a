"""The club events for everyone in the room (read-only, live): ``/events`` lists them (the newest
first), ``/events/{name}`` shows one: each round's tables and how far each is, and the standings with
their tie-breaks, as the organiser's page shows them without its buttons; its ``<main>`` is fetched
again (``/events/{name}/part``) each time a match moves. A private event is read with a key that
sees it (``?key=``), else it is absent (404), as a private match is."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from dominolog.htmlpage import render
from dominolog.web.auth import Sight, sight
from dominolog.web.frame import frame
from dominolog.web.shared import WebState

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.tournament.event import ClubEvent

router = APIRouter(include_in_schema=False)


def event_href(name: str) -> str:
    return f"/events/{quote(name, safe='')}"


def _event(store: Store, seen: Sight, name: str) -> ClubEvent:
    from dominolog.tournament.director import DirectorError, load

    try:
        ev = load(store, name)
    except DirectorError:
        raise HTTPException(404, "no such club event") from None
    if not seen.sees("", ev.name):
        raise HTTPException(404, "no such club event")
    return ev


def events_list(store: Store, seen: Sight) -> str:
    from dominolog.tournament.director import events, planned_rounds

    rows = [
        {
            "url": seen.keyed(event_href(ev.name)),
            "ev": ev,
            "state": "ended" if ev.ended else f"round {len(ev.paired)} of {planned_rounds(ev)}",
        }
        for ev in events(store)
        if seen.sees("", ev.name)
    ]
    return render("web/events_list.html", rows=rows)


def event_part(store: Store, seen: Sight, ev: ClubEvent) -> str:
    """One event: its rounds' tables (the last first) and its standings."""
    from dominolog.tournament.director import event_document, planned_rounds

    return render("web/event.html", ev=ev, doc=event_document(store, ev), planned=planned_rounds(ev))


def _page(seen: Sight, title: str, body: str, part: str) -> HTMLResponse:
    return HTMLResponse(frame(title, body, seen.keyed("/api/board/stream"), seen.keyed(part)))


@router.get("/events", response_class=HTMLResponse)
async def listed(request: Request, app: WebState) -> HTMLResponse:
    def read(store: Store) -> HTMLResponse:
        seen = sight(request, store)
        return _page(seen, "Club events", events_list(store, seen), "/events-part")

    return await app.stores.run(read)


@router.get("/events-part", response_class=HTMLResponse)
async def listed_part(request: Request, app: WebState) -> HTMLResponse:
    text = await app.stores.run(lambda store: events_list(store, sight(request, store)))
    return HTMLResponse(text, headers={"Cache-Control": "no-store"})


@router.get("/events/{name}", response_class=HTMLResponse)
async def one(request: Request, name: str, app: WebState) -> HTMLResponse:
    def read(store: Store) -> HTMLResponse:
        seen = sight(request, store)
        ev = _event(store, seen, name)
        return _page(seen, ev.name, event_part(store, seen, ev), event_href(ev.name) + "/part")

    return await app.stores.run(read)


@router.get("/events/{name}/part", response_class=HTMLResponse)
async def one_part(request: Request, name: str, app: WebState) -> HTMLResponse:
    def read(store: Store) -> str:
        seen = sight(request, store)
        return event_part(store, seen, _event(store, seen, name))

    return HTMLResponse(await app.stores.run(read), headers={"Cache-Control": "no-store"})
