"""The phone recorder (issue 27, docs/recorder-phone.md):

- ``GET /m/{id}/record``: the page, rendered on the server (names escaped), its script and style from
  the package (``static/record.js``, an ES module importing those of ``static/record/``: the CSP's
  ``'self'``; ``static/record.css`` inline, named by its
  hash in the page's CSP);
  opened from the table card's link ``/m/ID/record#token=TOKEN``; for a match not stored, or private
  to the request (its token is in the fragment), ``404`` with the same frame, without names, for both;
- ``GET /api/matches/{id}/recorder``: what the page shows, as JSON
  (:func:`dominolog.web.recorder_state.recorder_state`), open to readers like every read;
- ``GET /record-sw.js``: the page's service worker (``static/record-sw.js``), at the root so that its
  scope covers ``/m/``: it keeps the page, its script, modules and style for a reload while the server is out of reach.

The page writes through ``POST /api/matches/{id}/events`` with the table's token, as any client.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from markupsafe import Markup

from dominolog.htmlpage import render
from dominolog.web.assets import asset_url, modules
from dominolog.web.auth import sight
from dominolog.web.ids import MatchId, api_href, href
from dominolog.web.shared import WebState, inline_csp

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.web.shared import Web

router = APIRouter()
#: on every recorder page, its frame of a match not to be read too (``404``): the service worker keeps it
FRAME_HEADER = "X-Dominolog-Recorder"


def _state(
    request: Request, web: Web, store: Store, match_id: str, revealing: bool, skipped: tuple[str, ...]
) -> dict[str, Any] | None:
    from dominolog.web.recorder_state import recorder_state

    sight(request, store).match(store, match_id)  # 404 for a match not stored or not to be read
    return recorder_state(web.stores.session(match_id), match_id, revealing, skipped)


@router.get(
    "/api/matches/{match_id}/recorder",
    summary="What the phone recorder shows: the table, hands, pad, prompt and its offer (JSON)",
)
async def recorder_document(
    request: Request,
    match_id: MatchId,
    web: WebState,
    revealing: bool = False,
    skip: Annotated[list[str] | None, Query(max_length=8)] = None,
) -> JSONResponse:
    skipped = tuple(s[:200] for s in (skip or []))
    doc = await web.stores.run(lambda s: _state(request, web, s, match_id, revealing, skipped))
    if doc is None:
        raise HTTPException(404, "no such match")
    return JSONResponse(doc, headers={"Cache-Control": "no-store"})


ACTIONS = [
    ("pass", "pass"),
    ("draw", "draw"),
    ("pair", "pair"),
    ("block", "block"),
    ("reveal", "reveal"),
    ("note", "note"),
    ("undo", "undo"),
]


@cache
def _css() -> str:
    """``static/record.css``, put inline (the CSP names its hash: :func:`~dominolog.web.shared.inline_csp`):
    on a slow network a first visit then waits for one round trip, not two (the page, then its style)."""
    text = resources.files("dominolog.web").joinpath("static/record.css").read_text(encoding="utf-8")
    assert "</" + "style" not in text.lower()
    return text


def _shown_actions(variant: str | None) -> list[str]:
    """The action buttons meaning something in the variant (all of them for a variant not known)."""
    from dominolog.variants import VariantError, find_variant
    from dominolog.web.recorder_state import shown_actions

    try:
        return shown_actions(find_variant(variant)) if variant else shown_actions(None)
    except VariantError:
        return shown_actions(None)


def page(match_id: str, players: list[str], variant: str | None) -> str:
    """The recorder page (``templates/web/recorder.html``): its frame, filled in by ``record.js`` from the
    state document."""
    return render(
        "web/recorder.html",
        match_id=match_id,
        api=api_href(match_id),
        match_url=href(match_id),
        css=Markup(_css()),
        script=asset_url("record.js"),
        modules=[f"/static/record/{name}" for name in modules()],
        variant=variant,
        players=players,
        actions=ACTIONS,
        shown=_shown_actions(variant),
    )


@router.get("/record-sw.js", include_in_schema=False)
async def service_worker() -> Response:
    from importlib import resources

    script = (resources.files("dominolog.web") / "static" / "record-sw.js").read_bytes()
    # no-cache: the browser asks again at each registration, so that a new version is taken at once
    return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/m/{match_id}/record", response_class=HTMLResponse, include_in_schema=False)
async def record_page(request: Request, match_id: MatchId, web: WebState) -> HTMLResponse:
    def read(store: Store) -> tuple[list[str], str | None] | None:
        if not store.has_match(match_id) or not sight(request, store).sees(match_id, store.event_of(match_id)):
            return None
        state = store.fold_of(match_id).reducer.state
        if state is None:
            return [], None
        return list(state.players), state.variant

    found = await web.stores.run(read)
    # a match not stored, or private to this request: 404, with the same frame for both (no names), so
    # that nothing tells them apart. A private match's table card opens it so (its token is in the
    # fragment, which the browser does not send): the script fills the frame in, reading the match
    # with the token
    status = 200 if found is not None else 404
    text = page(match_id, *(found or ([], None)))
    headers = {"Cache-Control": "no-store", "Content-Security-Policy": inline_csp(text), FRAME_HEADER: "yes"}
    return HTMLResponse(text, status_code=status, headers=headers)
