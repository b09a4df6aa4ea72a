"""The organiser's tokens over HTTP (what ``dominolog token`` does): ``POST /api/tokens`` makes a
table's token (``{"match": ID, "who": TEXT}``) or a viewing key (``{"role": "viewer", "event":
EVENT}``, no event: every event), answered once with the token itself; ``GET /api/tokens`` lists
them (never the tokens); ``DELETE /api/tokens/{id}`` revokes one; ``GET /api/private`` and ``POST
/api/private`` (``{"event": EVENT, "private": true|false}``, ``*``: every match) the private events.
The organiser's token alone (401 without a valid token, 403 with a table's or a viewing key)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import JSONResponse

from dominolog.store.access import EVENT_LIMIT
from dominolog.web.auth import error_responses, writer

router = APIRouter(prefix="/api")
WHAT = "manages tokens"


@router.post(
    "/tokens",
    summary="Make a table's token or a viewing key (the organiser)",
    status_code=201,
    responses=error_responses(400, 401, 403, 413, 422, 429),
)
def create(
    request: Request,
    match: Annotated[str | None, Body(embed=True, min_length=1, max_length=200)] = None,
    who: Annotated[str, Body(embed=True, max_length=200)] = "",
    role: Annotated[Literal["table", "viewer"], Body(embed=True)] = "table",
    event: Annotated[str | None, Body(embed=True, min_length=1, max_length=EVENT_LIMIT)] = None,
) -> JSONResponse:
    web = request.app.state.web
    store = web.stores.get()
    token = writer(request, store, None, WHAT)
    web.rate.check(token.id)
    if role == "table" and (match is None or event is not None):
        raise HTTPException(422, "a table's token names its match (and no event)")
    if role == "viewer" and match is not None:
        raise HTTPException(422, "a viewing key names an event (or none: every event), not a match")
    row, secret = store.create_token(role, match if role == "table" else event, who)
    return JSONResponse({**row.as_dict(), "token": secret}, status_code=201)


@router.get(
    "/tokens",
    summary="The tokens made, never the tokens themselves (the organiser)",
    responses=error_responses(401, 403),
)
def listed(request: Request) -> JSONResponse:
    store = request.app.state.web.stores.get()
    writer(request, store, None, WHAT)
    return JSONResponse({"tokens": [t.as_dict() for t in store.tokens()]})


@router.delete(
    "/tokens/{token_id}", summary="Revoke a token (the organiser)", responses=error_responses(401, 403, 404, 429)
)
def revoke(request: Request, token_id: str) -> JSONResponse:
    web = request.app.state.web
    store = web.stores.get()
    token = writer(request, store, None, WHAT)
    web.rate.check(token.id)
    if not token_id.startswith("t-"):  # by its id only: a token itself never travels in a URL
        raise HTTPException(404, "no such token id")
    found = store.revoke_token(token_id)
    if found is None:
        raise HTTPException(404, "no such token id")
    return JSONResponse({**found.as_dict(), "revoked": True})


@router.get("/private", summary="The private events (the organiser)", responses=error_responses(401, 403))
def private_events(request: Request) -> JSONResponse:
    store = request.app.state.web.stores.get()
    writer(request, store, None, "lists the private events")
    return JSONResponse({"private": sorted(store.private_events())})


@router.post(
    "/private",
    summary="Make an event private or public again (the organiser); `*`: every match",
    responses=error_responses(400, 401, 403, 413, 422, 429),
)
def set_private(
    request: Request,
    event: Annotated[str, Body(embed=True, min_length=1, max_length=EVENT_LIMIT)],
    private: Annotated[bool, Body(embed=True, strict=True)] = True,
) -> JSONResponse:
    web = request.app.state.web
    store = web.stores.get()
    token = writer(request, store, None, "makes an event private")
    web.rate.check(token.id)
    changed = store.set_private(event, private, token.who)
    return JSONResponse(
        {"event": event, "private": private, "changed": changed, "private_events": sorted(store.private_events())}
    )
