"""Club events over HTTP (what ``dominolog event`` does, through the same calls of
:mod:`dominolog.tournament.director`): the organiser's page runs the evening with these.

- ``GET /api/events``: every event (name, format, variant, rounds, entrants), the newest first;
  ``GET /api/events/{name}``: the event's document (``dominolog event show --json``): roster, each
  round's tables and their state, the standings (``?round=N``: after round N). A private event
  (:mod:`dominolog.web.auth`) is read with a key that sees it, else it is absent (404).
- The organiser's token alone writes (401 without a valid token, 403 with a table's or a viewing
  key): ``POST /api/events`` (make one), ``POST /api/events/{name}/players`` (``{"names": [...],
  "club": ...}``), ``.../teams`` (``{"team", "players"}``), ``.../withdrawals`` (``{"entrant"}``),
  ``.../rounds`` (pair the next round: its matches are made), ``DELETE .../rounds/last`` (undo the
  last pairing before its first deal), ``.../forfeits`` (``{"match", "winner"}``, winner null: both
  lose), ``.../end``. A step the event refuses is ``409`` (not now: a round still open) or ``422``
  (does not fit), with the reason; an event that does not exist ``404``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import JSONResponse

from dominolog.tournament.event import EVENT_NAME_LIMIT, LABEL_LIMIT, NAME_LIMIT
from dominolog.web.auth import error_responses, sight, writer
from dominolog.web.shared import WebState

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.tournament.event import ClubEvent
    from dominolog.web.shared import Web

router = APIRouter(prefix="/api/events")
WHAT = "runs club events"
Name = Annotated[str, Body(min_length=1, max_length=NAME_LIMIT)]
#: what the routes answer besides their success (the OpenAPI document): a read, a write with a body, one without
READ = error_responses(401, 404, 422)
WRITE = error_responses(400, 401, 403, 404, 409, 413, 422, 429)
STEP = error_responses(401, 403, 404, 409, 422, 429)


async def _organised(request: Request, app: Web, work: Callable[[Store], dict[str, Any]]) -> dict[str, Any]:
    """``work(store)``, the organiser's steps, on the store's writer (:meth:`~dominolog.web.stores.Stores.write`)
    once the request's token is the organiser's (401/403) and within its rate (429). A step refused
    (:func:`_step`: 404, 409, 422) is answered after the steps before it are stored, as each step is
    a transaction of its own (a list of players: those before the one refused stay registered)."""

    def organised(store: Store) -> dict[str, Any] | HTTPException:
        token = writer(request, store, None, WHAT)
        app.rate.check(token.id, request.state)
        try:
            return work(store)
        except HTTPException as exc:
            return exc

    done = await app.stores.write(organised)
    if isinstance(done, HTTPException):
        raise done
    return done


def _step(call: Any, *args: Any, **kwargs: Any) -> Any:
    from dominolog.tournament.director import DirectorError

    try:
        return call(*args, **kwargs)
    except DirectorError as exc:
        raise HTTPException(exc.status, str(exc)) from None


def _visible(request: Request, store: Store, ev: ClubEvent) -> bool:
    seen = sight(request, store)
    return seen.sees("", ev.name)


def _document(store: Store, name: str, round_no: int | None = None) -> dict[str, Any]:
    from dominolog.tournament.director import event_document, load

    return _step(lambda: event_document(store, load(store, name), round_no))


@router.get("", summary="The club events, the newest first", responses=error_responses(401))
async def listed(request: Request, app: WebState) -> JSONResponse:
    from dominolog.tournament.director import events, planned_rounds

    def read(store: Store) -> list[dict[str, Any]]:
        seen = sight(request, store)
        return [
            {
                "name": ev.name,
                "title": ev.title,
                "date": ev.date,
                "format": ev.format,
                "variant": ev.variant,
                "team_size": ev.team_size,
                "rounds": planned_rounds(ev),
                "paired": len(ev.paired),
                "entrants": len(ev.entrants),
                "ended": ev.ended,
            }
            for ev in events(store)
            if seen.sees("", ev.name)
        ]

    return JSONResponse({"events": await app.stores.run(read)})


@router.get("/{name}", summary="A club event: roster, rounds and their tables, standings", responses=READ)
async def one(request: Request, name: str, app: WebState, round: int | None = None) -> JSONResponse:
    from dominolog.tournament.director import load

    def read(store: Store) -> dict[str, Any]:
        ev = _step(load, store, name)
        if not _visible(request, store, ev):
            raise HTTPException(404, f"no club event {name!r} is stored")
        return _document(store, name, round)

    return JSONResponse(await app.stores.run(read))


@router.post("", summary="Make a club event (the organiser)", status_code=201, responses=WRITE)
async def create(
    request: Request,
    app: WebState,
    name: Annotated[str, Body(embed=True, min_length=1, max_length=EVENT_NAME_LIMIT)],
    format: Annotated[Literal["swiss", "round-robin"], Body(embed=True)] = "swiss",
    rounds: Annotated[int, Body(embed=True, ge=1, le=50)] = 3,
    variant: Annotated[str, Body(embed=True, min_length=1, max_length=40)] = "ghost13",
    options: Annotated[dict[str, int | bool | str | None] | None, Body(embed=True, max_length=20)] = None,
    teams: Annotated[bool, Body(embed=True, strict=True)] = False,
    date: Annotated[str | None, Body(embed=True, max_length=10)] = None,
    title: Annotated[str | None, Body(embed=True, max_length=200)] = None,
) -> JSONResponse:
    from dominolog.tournament.director import create_event

    def made(store: Store) -> dict[str, Any]:
        _step(
            create_event,
            store,
            name,
            format=format,
            rounds=rounds,
            variant=variant,
            options=dict(options or {}),
            team_size=2 if teams else 1,
            date=date or None,
            title=title or None,
        )
        return _document(store, name.strip())

    return JSONResponse(await _organised(request, app, made), status_code=201)


@router.post("/{name}/players", summary="Register players (the organiser)", status_code=201, responses=WRITE)
async def players(
    request: Request,
    app: WebState,
    name: str,
    names: Annotated[list[Name], Body(embed=True, min_length=1, max_length=200)],
    club: Annotated[str | None, Body(embed=True, max_length=LABEL_LIMIT)] = None,
) -> JSONResponse:
    from dominolog.tournament.director import add_player

    def added(store: Store) -> dict[str, Any]:
        for player in names:
            _step(add_player, store, name, player, club or None)
        return _document(store, name)

    return JSONResponse(await _organised(request, app, added), status_code=201)


@router.post(
    "/{name}/teams",
    summary="Register a team of two registered players (the organiser)",
    status_code=201,
    responses=WRITE,
)
async def teams(
    request: Request,
    app: WebState,
    name: str,
    team: Annotated[str, Body(embed=True, min_length=1, max_length=NAME_LIMIT)],
    players: Annotated[list[Name], Body(embed=True, min_length=2, max_length=2)],
) -> JSONResponse:
    from dominolog.tournament.director import add_team

    def added(store: Store) -> dict[str, Any]:
        _step(add_team, store, name, team, players)
        return _document(store, name)

    return JSONResponse(await _organised(request, app, added), status_code=201)


@router.post(
    "/{name}/withdrawals", summary="Withdraw a player or team from the next round (the organiser)", responses=WRITE
)
async def withdrawals(
    request: Request,
    app: WebState,
    name: str,
    entrant: Annotated[str, Body(embed=True, min_length=1, max_length=NAME_LIMIT)],
) -> JSONResponse:
    from dominolog.tournament.director import withdraw

    def done(store: Store) -> dict[str, Any]:
        _step(withdraw, store, name, entrant)
        return _document(store, name)

    return JSONResponse(await _organised(request, app, done))


@router.post(
    "/{name}/rounds",
    summary="Pair the next round and make its matches (the organiser)",
    status_code=201,
    responses=STEP,
)
async def pair(request: Request, name: str, app: WebState) -> JSONResponse:
    from dominolog.tournament.director import pair_next_round

    def paired(store: Store) -> dict[str, Any]:
        rnd = _step(pair_next_round, store, name)
        return {"round": rnd.number, **_document(store, name)}

    return JSONResponse(await _organised(request, app, paired), status_code=201)


@router.delete(
    "/{name}/rounds/last", summary="Undo the last round's pairing before its first deal (the organiser)", responses=STEP
)
async def unpair(request: Request, name: str, app: WebState) -> JSONResponse:
    from dominolog.tournament.director import undo_round

    def undone(store: Store) -> dict[str, Any]:
        rnd = _step(undo_round, store, name)
        return {"undone": rnd.number, **_document(store, name)}

    return JSONResponse(await _organised(request, app, undone))


@router.post("/{name}/forfeits", summary="End a match by forfeit (the organiser)", responses=WRITE)
async def forfeits(
    request: Request,
    app: WebState,
    name: str,
    match: Annotated[str, Body(embed=True, min_length=1, max_length=200)],
    winner: Annotated[str | None, Body(embed=True, max_length=NAME_LIMIT)] = None,
    reason: Annotated[str, Body(embed=True, max_length=500)] = "",
) -> JSONResponse:
    from dominolog.tournament.director import forfeit

    def done(store: Store) -> dict[str, Any]:
        _step(forfeit, store, name, match, winner or None, reason)
        return _document(store, name)

    return JSONResponse(await _organised(request, app, done))


@router.post("/{name}/end", summary="Close the event (the organiser)", responses=STEP)
async def end(request: Request, name: str, app: WebState) -> JSONResponse:
    from dominolog.tournament.director import end_event

    def done(store: Store) -> dict[str, Any]:
        _step(end_event, store, name)
        return _document(store, name)

    return JSONResponse(await _organised(request, app, done))
