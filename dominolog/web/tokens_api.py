"""The organiser's tokens over HTTP (what ``dominolog token`` does): ``POST /api/tokens`` makes a
table's token (``{"match": ID, "who": TEXT}``; answered once with the token itself), ``GET
/api/tokens`` lists them (never the tokens), ``DELETE /api/tokens/{id}`` revokes one. The
organiser's token alone (401 without a valid token, 403 with a table's)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import JSONResponse

from dominolog.web.auth import writer

router = APIRouter(prefix="/api/tokens")
WHAT = "manages tokens"


@router.post("", summary="Make a table's token (the organiser)", status_code=201)
def create(
    request: Request,
    match: Annotated[str, Body(embed=True, min_length=1, max_length=200)],
    who: Annotated[str, Body(embed=True, max_length=200)] = "",
) -> JSONResponse:
    web = request.app.state.web
    store = web.stores.get()
    token = writer(request, store, None, WHAT)
    web.rate.check(token.id)
    row, secret = store.create_token("table", match, who)
    return JSONResponse({**row.as_dict(), "token": secret}, status_code=201)


@router.get("", summary="The tokens made, never the tokens themselves (the organiser)")
def listed(request: Request) -> JSONResponse:
    store = request.app.state.web.stores.get()
    writer(request, store, None, WHAT)
    return JSONResponse({"tokens": [t.as_dict() for t in store.tokens()]})


@router.delete("/{token_id}", summary="Revoke a token (the organiser)")
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
