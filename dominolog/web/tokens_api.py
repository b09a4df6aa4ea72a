"""The organiser's tokens over HTTP (what ``dominolog token`` does): ``POST /api/tokens`` makes a
table's token (``{"match": ID, "who": TEXT}``) or a viewing key (``{"role": "viewer", "event":
EVENT}``, no event: every event), answered once with the token itself; ``GET /api/tokens`` lists
them (never the tokens); ``DELETE /api/tokens/{id}`` revokes one; ``GET /api/private`` and ``POST
/api/private`` (``{"event": EVENT, "private": true|false}``, ``*``: every match) the private events.
The organiser's token alone (401 without a valid token, 403 with a table's or a viewing key)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import JSONResponse

from dominolog.store.access import EVENT_LIMIT
from dominolog.web.auth import error_responses, writer
from dominolog.web.shared import WebState

if TYPE_CHECKING:
    from dominolog.store import Store

router = APIRouter(prefix="/api")
WHAT = "manages tokens"


@router.post(
    "/tokens",
    summary="Make a table's token or a viewing key (the organiser)",
    status_code=201,
    responses=error_responses(400, 401, 403, 413, 422, 429),
)
async def create(
    request: Request,
    app: WebState,
    match: Annotated[str | None, Body(embed=True, min_length=1, max_length=200)] = None,
    who: Annotated[str, Body(embed=True, max_length=200)] = "",
    role: Annotated[Literal["table", "viewer"], Body(embed=True)] = "table",
    event: Annotated[str | None, Body(embed=True, min_length=1, max_length=EVENT_LIMIT)] = None,
) -> JSONResponse:

    def made(store: Store) -> dict[str, Any]:
        token = writer(request, store, None, WHAT)
        app.rate.check(token.id, request.state)
        if role == "table" and (match is None or event is not None):
            raise HTTPException(422, "a table's token names its match (and no event)")
        if role == "viewer" and match is not None:
            raise HTTPException(422, "a viewing key names an event (or none: every event), not a match")
        row, secret = store.create_token(role, match if role == "table" else event, who)
        return {**row.as_dict(), "token": secret}

    return JSONResponse(await app.stores.write(made), status_code=201)


@router.get(
    "/tokens",
    summary="The tokens made, never the tokens themselves (the organiser)",
    responses=error_responses(401, 403),
)
async def listed(request: Request, app: WebState) -> JSONResponse:
    def read(store: Store) -> list[dict[str, Any]]:
        writer(request, store, None, WHAT)
        return [t.as_dict() for t in store.tokens()]

    return JSONResponse({"tokens": await app.stores.run(read)})


@router.delete(
    "/tokens/{token_id}", summary="Revoke a token (the organiser)", responses=error_responses(401, 403, 404, 429)
)
async def revoke(request: Request, token_id: str, app: WebState) -> JSONResponse:
    def revoked(store: Store) -> dict[str, Any]:
        token = writer(request, store, None, WHAT)
        app.rate.check(token.id, request.state)
        if not token_id.startswith("t-"):  # by its id only: a token itself never travels in a URL
            raise HTTPException(404, "no such token id")
        found = store.revoke_token(token_id)
        if found is None:
            raise HTTPException(404, "no such token id")
        return {**found.as_dict(), "revoked": True}

    return JSONResponse(await app.stores.write(revoked))


@router.get("/private", summary="The private events (the organiser)", responses=error_responses(401, 403))
async def private_events(request: Request, app: WebState) -> JSONResponse:
    def read(store: Store) -> list[str]:
        writer(request, store, None, "lists the private events")
        return sorted(store.private_events())

    return JSONResponse({"private": await app.stores.run(read)})


@router.post(
    "/private",
    summary="Make an event private or public again (the organiser); `*`: every match",
    responses=error_responses(400, 401, 403, 413, 422, 429),
)
async def set_private(
    request: Request,
    app: WebState,
    event: Annotated[str, Body(embed=True, min_length=1, max_length=EVENT_LIMIT)],
    private: Annotated[bool, Body(embed=True, strict=True)] = True,
) -> JSONResponse:

    def made(store: Store) -> dict[str, Any]:
        token = writer(request, store, None, "makes an event private")
        app.rate.check(token.id, request.state)
        changed = store.set_private(event, private, token.who)
        return {
            "event": event,
            "private": private,
            "changed": changed,
            "private_events": sorted(store.private_events()),
        }

    return JSONResponse(await app.stores.write(made))
