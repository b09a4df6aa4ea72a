"""The organiser's page and table cards.

- ``/organiser``: a shell page, open to all and holding no data; its script (``static/organiser.js``)
  takes the organiser's token from the link's fragment (``#organiser=TOKEN``, never sent to the
  server), keeps it in the tab's ``sessionStorage``, removes the fragment from the address bar, and
  fetches ``/organiser/part`` with ``Authorization: Bearer``;
- ``/organiser/part`` (the organiser's token: 401 without a valid one, 403 with a table's or a
  viewing key): every match (table, players, status), every token (who, role, match or event, made,
  revoked; never a token), the private events, and the forms that make a table's token or a viewing
  key, revoke a token, make an event private or public, and print the table cards;
- ``POST /api/cards`` (the organiser; ``{"matches": [ID, ...]}``, none: every open match): the
  printable page of table cards (:mod:`dominolog.club.cards`, as ``dominolog token cards``), each
  with a new table token, the earlier cards' tokens of its table revoked (said in the header
  ``X-Dominolog-Revoked`` and on each card). Their address is the one the server listens on (its host
  and port; the room's address when it listens on every address: :func:`~dominolog.club.cards.served_url`);
  a loopback one is refused (``409``) unless the body says ``"loopback": true``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from dominolog.htmlpage import render
from dominolog.web.auth import error_responses, writer
from dominolog.web.shared import WebState

if TYPE_CHECKING:
    from dominolog.store import Store

router = APIRouter()


@router.get("/organiser", response_class=HTMLResponse, include_in_schema=False)
async def shell() -> HTMLResponse:
    return HTMLResponse(render("web/organiser.html"), headers={"Cache-Control": "no-store"})


def _players(value: Any) -> str:
    return ", ".join(str(p) for p in value) if isinstance(value, list) else ""


def _status(store: Store, row: dict[str, Any]) -> str:
    """The match's status in words (``in progress`` until its ``match_end``)."""
    from dominolog.club.summary import status_words

    state = store.fold_of(row["id"]).reducer.state
    return status_words(row["status"], state is not None and state.abandoned)


def organiser_part(store: Store, url: str | None = None, event: str | None = None) -> str:
    """The organiser's view: the club events (``event``, else tonight's, first), matches, tokens,
    private events and the forms (every string escaped)."""
    from dominolog.club.summary import listed_matches
    from dominolog.web.organiser_events import events_part

    matches = []
    for r in listed_matches(store):
        meta = r["meta"] if isinstance(r["meta"], dict) else {}
        players, status = _players(r["players"]), _status(store, r)
        matches.append({"id": r["id"], "table": meta.get("table", ""), "event": meta.get("event", "")})
        matches[-1].update(players=players, status=status)
    tokens = [
        {
            "id": t.id,
            "who": t.who,
            "role": t.role,
            "scope": t.match_id if t.role == "table" else (t.event or "every event") if t.role == "viewer" else "-",
            "created_at": t.created_at,
            "revoked_at": t.revoked_at,
            "active": t.active,
        }
        for t in store.tokens()
    ]
    return render(
        "web/organiser_part.html",
        events=Markup(events_part(store, event, url)),
        matches=matches,
        url=url,
        tokens=tokens,
        private=sorted(store.private_events()),
    )


@router.get("/organiser/part", response_class=HTMLResponse, include_in_schema=False)
async def part(request: Request, app: WebState) -> HTMLResponse:
    event = request.query_params.get("event") or None

    def read(store: Store) -> str:
        writer(request, store, None, "opens the organiser's page")
        return organiser_part(store, app.url, event)

    return HTMLResponse(await app.stores.run(read), headers={"Cache-Control": "no-store"})


@router.get("/organiser/events", response_class=HTMLResponse, include_in_schema=False)
async def events(request: Request, app: WebState) -> HTMLResponse:
    """The club events part alone (``?event=``): the page fetches it again when a match moves."""
    from dominolog.web.organiser_events import events_part

    event = request.query_params.get("event") or None

    def read(store: Store) -> str:
        writer(request, store, None, "opens the organiser's page")
        return events_part(store, event, app.url)

    return HTMLResponse(await app.stores.run(read), headers={"Cache-Control": "no-store"})


@router.post(
    "/api/cards",
    summary="Table cards (the organiser): a printable page, a new table token a card",
    response_class=HTMLResponse,
    status_code=201,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
async def cards(
    request: Request,
    app: WebState,
    matches: Annotated[list[Annotated[str, Body(min_length=1, max_length=200)]] | None, Body(embed=True)] = None,
    loopback: Annotated[bool, Body(embed=True, strict=True)] = False,
) -> HTMLResponse:
    from dominolog.club.cards import LoopbackURL, NoSuchMatch, cards_html, make_cards, revoked_line
    from dominolog.web.shared import inline_csp

    url = app.url or str(request.base_url)

    def printed(store: Store) -> Any:
        token = writer(request, store, None, "prints table cards")
        app.rate.check(token.id, request.state)
        if matches is not None and len(matches) > 500:
            raise HTTPException(422, "at most 500 matches a request")
        try:
            return make_cards(store, url, matches, allow_loopback=loopback)
        except NoSuchMatch as exc:
            raise HTTPException(404, str(exc)) from None
        except LoopbackURL as exc:
            raise HTTPException(409, f"{exc}; or ask for it: loopback true") from None

    made = await app.stores.write(printed)
    page = cards_html(made)
    headers = {"Content-Security-Policy": inline_csp(page), "X-Dominolog-Revoked": revoked_line(made) or "none"}
    return HTMLResponse(page, status_code=201, headers=headers)
