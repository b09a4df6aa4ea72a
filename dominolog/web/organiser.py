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

import html
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import HTMLResponse

from dominolog.htmlpage import esc
from dominolog.web.auth import error_responses, writer

if TYPE_CHECKING:
    from dominolog.store import Store

router = APIRouter()

SHELL = (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<title>The organiser</title>"
    '<link rel="stylesheet" href="/static/web.css"><script src="/static/organiser.js" defer></script></head>'
    '<body><header><a href="/">dominolog</a> <span class="live-state" id="organiser-state"></span></header>'
    '<p class="note" id="said" aria-live="polite"></p>'
    '<main id="organiser"><h1>The organiser</h1><p class="note">Open this page with the organiser\'s link '
    "(<code>dominolog serve</code> prints it: <code>URL#organiser=TOKEN</code>); it needs JavaScript.</p>"
    "</main></body></html>\n"
)


@router.get("/organiser", response_class=HTMLResponse, include_in_schema=False)
def shell() -> HTMLResponse:
    return HTMLResponse(SHELL, headers={"Cache-Control": "no-store"})


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

    rows = listed_matches(store)
    out = [
        "<h1>The organiser</h1>",
        events_part(store, event, url),
        '<h2>Matches</h2><table class="board" id="matches"><thead><tr><th>table</th>'
        "<th>match</th><th>event</th><th>players</th><th>status</th><th></th></tr></thead><tbody>",
    ]
    for r in rows:
        meta = r["meta"] if isinstance(r["meta"], dict) else {}
        out.append(
            f"<tr><td>{esc(meta.get('table', ''))}</td><td>{esc(r['id'])}</td><td>{esc(meta.get('event', ''))}</td>"
            f"<td>{esc(_players(r['players']))}</td><td>{esc(_status(store, r))}</td>"
            f'<td><button type="button" data-action="table-token" data-match="{html.escape(r["id"], quote=True)}">'
            "new table token</button></td></tr>"
        )
    out.append("</tbody></table>")
    if not rows:
        out.append("<p>No match yet.</p>")
    out.append(
        '<p><button type="button" data-action="cards">print table cards (every open match)</button> '
        f"for phones to reach <code>{esc(url or '(the address of this page)')}</code> "
        '<label><input type="checkbox" id="cards-loopback"> even if only this machine reaches it (a test)</label>'
        "</p>"
        '<h2>Tokens</h2><table class="board" id="tokens"><thead><tr><th>id</th><th>who</th><th>role</th>'
        "<th>match or event</th><th>made</th><th>revoked</th><th></th></tr></thead><tbody>"
    )
    for t in store.tokens():
        scope = t.match_id if t.role == "table" else (t.event or "every event") if t.role == "viewer" else "-"
        button = (
            f'<button type="button" data-action="revoke" data-id="{html.escape(t.id, quote=True)}">revoke</button>'
            if t.active
            else ""
        )
        out.append(
            f'<tr class="{"active" if t.active else "revoked"}"><td>{esc(t.id)}</td><td>{esc(t.who or "-")}</td>'
            f"<td>{esc(t.role)}</td><td>{esc(scope)}</td><td>{esc(t.created_at)}</td>"
            f"<td>{esc(t.revoked_at or '-')}</td><td>{button}</td></tr>"
        )
    out.append("</tbody></table>")
    private = sorted(store.private_events())
    shown = ", ".join(f"<code>{esc(e)}</code>" for e in private) or "none"
    out.append(
        f'<h2>Private events</h2><p id="private">Private: {shown}. A private event\'s matches are read only '
        "with a viewing key, the organiser's token or their table's token (<code>*</code>: every match).</p>"
        '<form id="private-form"><label>event <input name="event" required maxlength="200" '
        'placeholder="event (* every match)"></label> '
        '<button type="submit" name="private" value="true">make private</button> '
        '<button type="submit" name="private" value="false">make public</button> '
        '<button type="submit" name="viewer" value="true">new viewing key</button></form>'
    )
    return "".join(out)


@router.get("/organiser/part", response_class=HTMLResponse, include_in_schema=False)
def part(request: Request) -> HTMLResponse:
    store = request.app.state.web.stores.get()
    writer(request, store, None, "opens the organiser's page")
    event = request.query_params.get("event") or None
    return HTMLResponse(organiser_part(store, request.app.state.web.url, event), headers={"Cache-Control": "no-store"})


@router.get("/organiser/events", response_class=HTMLResponse, include_in_schema=False)
def events(request: Request) -> HTMLResponse:
    """The club events part alone (``?event=``): the page fetches it again when a match moves."""
    from dominolog.web.organiser_events import events_part

    store = request.app.state.web.stores.get()
    writer(request, store, None, "opens the organiser's page")
    event = request.query_params.get("event") or None
    return HTMLResponse(events_part(store, event, request.app.state.web.url), headers={"Cache-Control": "no-store"})


@router.post(
    "/api/cards",
    summary="Table cards (the organiser): a printable page, a new table token a card",
    response_class=HTMLResponse,
    status_code=201,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
def cards(
    request: Request,
    matches: Annotated[list[Annotated[str, Body(min_length=1, max_length=200)]] | None, Body(embed=True)] = None,
    loopback: Annotated[bool, Body(embed=True, strict=True)] = False,
) -> HTMLResponse:
    from dominolog.club.cards import LoopbackURL, NoSuchMatch, cards_html, make_cards, revoked_line
    from dominolog.web.shared import inline_csp

    web = request.app.state.web
    store = web.stores.get()
    token = writer(request, store, None, "prints table cards")
    web.rate.check(token.id)
    if matches is not None and len(matches) > 500:
        raise HTTPException(422, "at most 500 matches a request")
    try:
        made = make_cards(store, web.url or str(request.base_url), matches, allow_loopback=loopback)
    except NoSuchMatch as exc:
        raise HTTPException(404, str(exc)) from None
    except LoopbackURL as exc:
        raise HTTPException(409, f"{exc}; or ask for it: loopback true") from None
    page = cards_html(made)
    headers = {"Content-Security-Policy": inline_csp(page), "X-Dominolog-Revoked": revoked_line(made) or "none"}
    return HTMLResponse(page, status_code=201, headers=headers)
