"""The HTTP API: reading (open, but for private events: :func:`dominolog.web.auth.sight`) and writing
(a token: :mod:`dominolog.web.auth`).

- ``GET /api/matches``: ``dominolog list --json``'s document;
- ``GET /api/matches/{id}``: ``dominolog verify --db --json ID``'s document;
- ``GET /api/matches/{id}/events?after=SEQ``: the stored lines (JSON Lines), byte for byte;
- ``GET /api/matches/{id}/stream``: Server-Sent Events, one a stored event (``id:`` its seq, ``data:``
  its line), from the head, or after ``Last-Event-ID`` / ``?after=SEQ``;
- ``POST /api/matches`` (the organiser): a match_start or a header, and any events after it;
- ``POST /api/matches/{id}/events`` (the match's table, or the organiser; ``404`` for a match not
  begun, whoever asks): events, each durable before
  the answer ``201 {"seqs": [...], "head": "..."}`` (:mod:`dominolog.web.writing`); ``?seq=N`` the
  seq the first must get; ``Idempotency-Key``: a retry gets the first answer (kept in the transaction
  of the events: both or neither), another request with the key is ``422``; a key is kept a day.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from dominolog.web.auth import bearer, error_responses, sight, write_target, writer
from dominolog.web.ids import MatchId
from dominolog.web.shared import WebState
from dominolog.web.writing import Answer, BadBody, append_lines, first_match, kind_of, lines_of

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.web.shared import Web

#: one event of a stream, as the server sends it (``retry`` alone, or an ``id``, an ``event`` kind and its
#: ``data``): the schema of each event the OpenAPI document names for ``text/event-stream``
SSE_EVENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "event": {"type": "string"},
        "data": {"type": "string"},
        "retry": {"type": "integer", "minimum": 0},
    },
}

#: the answer of a stream (the OpenAPI document): its media type and its events
SSE: dict[int | str, dict[str, Any]] = {
    200: {"description": "the stream", "content": {"text/event-stream": {"schema": SSE_EVENT}}}
}

router = APIRouter(prefix="/api")
#: the largest seq a store can hold (a signed 64-bit integer in both databases)
MAX_SEQ = (1 << 63) - 1


def in_range(name: str, value: int | None) -> int | None:
    """``value`` (a seq given as ``name``), or ``422`` when no store could hold it."""
    if value is not None and value > MAX_SEQ:
        raise HTTPException(422, f"{name}: {value} is past the largest seq a store holds ({MAX_SEQ})")
    return value


#: how long a stream stays quiet before a comment keeps it open (seconds)
KEEPALIVE = 15.0
#: the board stream's pace: at most one message a second per stream; the moves made meanwhile are told by
#: the next (its id the mark after them all). A page refetches at each message: a table writing at its
#: limit makes each page fetch once a second, not at every move
BOARD_EVERY = 1.0


@router.get("/matches", summary="The stored matches (the document of `dominolog list --json`)")
async def list_matches(
    request: Request,
    app: WebState,
    variant: str | None = None,
    player: str | None = None,
    status: str | None = None,
) -> Response:
    from dominolog.club.summary import listed_matches
    from dominolog.jsontext import dumps

    def read(store: Store) -> list[dict[str, Any]]:
        return sight(request, store).rows(listed_matches(store, variant, player, status))

    rows = await app.stores.run(read)
    return Response(dumps({"matches": rows}, indent=2), media_type="application/json")


@router.get("/matches/{match_id}", summary="One match verified (the document of `dominolog verify --json`)")
async def verify_match(request: Request, match_id: MatchId, app: WebState) -> Response:
    from dominolog.build_info import described
    from dominolog.store import verify_stored
    from dominolog.verify import document_chunks

    def read(store: Store) -> str:
        sight(request, store).match(store, match_id)
        return "".join(document_chunks([verify_stored(store, match_id).as_dict()], described()))

    return Response(await app.stores.run(read), media_type="application/json")


@router.get("/matches/{match_id}/events", summary="The stored lines after seq `after` (JSON Lines, byte for byte)")
async def events(
    request: Request, match_id: MatchId, app: WebState, after: Annotated[int, Query(ge=0)] = 0
) -> Response:
    in_range("after", after)

    def read(store: Store) -> bytes:
        sight(request, store).match(store, match_id)
        return b"".join(rec.data + b"\n" for rec, _ in store.records(match_id, after))

    return Response(await app.stores.run(read), media_type="application/x-ndjson")


def _message(seq: int, data: bytes) -> str:
    text = data.decode("utf-8", "replace").replace("\r", "\\r")
    return "".join(f"data: {part}\n" for part in text.split("\n")).join((f"id: {seq}\n", "\n"))


@router.get(
    "/matches/{match_id}/stream",
    summary="Server-Sent Events of new events: `id:` the seq, `data:` the stored line",
    response_class=StreamingResponse,
    responses=SSE,
)
async def stream(
    request: Request,
    match_id: MatchId,
    app: WebState,
    after: Annotated[int | None, Query(ge=0)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    in_range("after", after)
    if last_event_id is not None and last_event_id.strip().isdigit():
        after = in_range("Last-Event-ID", int(last_event_id.strip()))
    await app.stores.run(lambda s: sight(request, s).match(s, match_id))
    if after is None:  # from the head: only what comes next
        after = await app.stores.run(lambda s: s.fold_of(match_id).seq)

    def newer(store: Store, since: int) -> list[tuple[Any, str]] | None:
        """The events after ``since``, or None when this request may no longer read the match (its key
        revoked, its event made private): asked again at each message and each keep-alive."""
        try:
            sight(request, store).match(store, match_id)
        except HTTPException:
            return None
        return store.records(match_id, since)

    async def events() -> AsyncIterator[str]:
        last = after
        yield "retry: 1000\n\n"
        while True:
            version = app.poller.version
            found = await app.stores.run(lambda s, since=last: newer(s, since))
            if found is None:
                return  # (the stream ends; the browser's reconnection is refused as any new request)
            for rec, _ in found:
                yield _message(rec.seq, rec.data)
                last = rec.seq
            if await app.poller.wait(version, KEEPALIVE) == version:
                if await app.stores.run(lambda s: newer(s, 1 << 62)) is None:
                    return
                yield ": keep-alive\n\n"

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


@router.get(
    "/board/stream",
    summary="Server-Sent Events: one message each time any match moves (`id:` the store's mark)",
    include_in_schema=True,
    response_class=StreamingResponse,
    responses=SSE,
)
async def board_stream(
    request: Request,
    app: WebState,
    after: Annotated[str | None, Query(max_length=100)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    """Each message's id is the store's mark (:meth:`~dominolog.store.store.Store.mark`) after the move:
    a page that shows the store as of a mark (``?after=MARK``, or ``Last-Event-ID`` when the browser
    reconnects, after a restart of the server too) is told at once when the store has moved since."""
    await app.stores.run(lambda s: sight(request, s))  # (a wrong key: 401; the stream names no match)
    behind = (last_event_id or "").strip() or after

    given = bearer(request) or request.query_params.get("key") or None

    def look(store: Store, moved: set[str]) -> tuple[bool | None, str]:
        """Whether one of the ``moved`` matches may be read by this request (None: nothing may be read
        any more, its key revoked), and the store's mark as it sees it (a private match's moves change
        nothing of it). A private match moving is not told to whom may not read it."""
        try:
            sees = sight(request, store)
        except HTTPException:
            return None, ""
        if not any(sees.sees(m, store.event_of(m)) for m in moved):
            return False, ""
        return True, sees.mark(store)

    def marked(store: Store) -> str:
        try:
            return sight(request, store).mark(store)
        except HTTPException:
            return ""

    async def events() -> AsyncIterator[str]:
        version, quiet = app.poller.version, time.monotonic()
        yield "retry: 1000\n\n"
        mark = await app.stores.run(marked)
        if behind is not None and behind != mark:  # the page is behind: it catches up now
            yield f"id: {mark}\nevent: board\ndata: {mark}\n\n"
        while True:
            now = await app.poller.wait(version, KEEPALIVE)
            moved = app.poller.moved_since(version)
            # (every stream with the same key wakes at the same move: the store is asked once for them all)
            shown, mark = await app.board.get(
                (given, version, now), lambda moved=moved: app.stores.run(lambda s: look(s, moved))
            )
            version = now
            if shown is None:
                return
            if shown:
                yield f"id: {mark}\nevent: board\ndata: {mark}\n\n"
                quiet = time.monotonic()
                await asyncio.sleep(BOARD_EVERY)
            elif time.monotonic() - quiet >= KEEPALIVE:
                yield ": keep-alive\n\n"
                quiet = time.monotonic()

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


WRITE_DOC = (
    "Content-Type: application/json (one event), application/x-ndjson or application/jsonl (events, one a "
    "line), text/x-dominolog-notation (the notation). Authorization: Bearer TOKEN. Idempotency-Key: a retry "
    "with the same key gets the first answer (the same request: method, path, query and body; another request "
    "with it is 422); a key is kept 24 hours."
)


#: the request body of a write of events: its media types (the OpenAPI document)
_LINES = {"type": "string", "description": "events, one a line"}
WRITE_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}}
            },
            "application/x-ndjson": {"schema": _LINES},
            "application/jsonl": {"schema": _LINES},
            "text/x-dominolog-notation": {"schema": {"type": "string", "description": "the notation"}},
        },
    }
}

#: the error statuses of a write of events (a new match: all but 404)
WRITE_ERRORS = error_responses(400, 401, 403, 404, 409, 413, 415, 422, 429)
CREATE_ERRORS = error_responses(400, 401, 403, 409, 413, 415, 422, 429)


@router.post(
    "/matches",
    summary="Create a match (the organiser): a match_start or a header",
    description=WRITE_DOC,
    status_code=201,
    responses=CREATE_ERRORS,
    openapi_extra=WRITE_BODY,
)
async def create_match(
    request: Request, app: WebState, idempotency_key: Annotated[str | None, Header()] = None
) -> Response:
    body = await request.body()
    return await app.stores.write(lambda s: _write(app, s, request, None, body, None, idempotency_key))


@router.post(
    "/matches/{match_id}/events",
    summary="Append events (the match's table, or the organiser)",
    description=WRITE_DOC,
    status_code=201,
    responses=WRITE_ERRORS,
    openapi_extra=WRITE_BODY,
)
async def append_events(
    request: Request,
    match_id: MatchId,
    app: WebState,
    seq: Annotated[int | None, Query(ge=1)] = None,
    idempotency_key: Annotated[str | None, Header()] = None,
) -> Response:
    in_range("seq", seq)
    return await append_to(request, app, match_id, seq, idempotency_key)


async def append_to(request: Request, app: Web, match_id: str, seq: int | None, key: str | None) -> Response:
    """The append of :func:`append_events` once its request is read (FastAPI's route, and the plain one
    ahead of it: :mod:`dominolog.web.plain`)."""
    body = await request.body()

    def may(store: Store) -> bool:
        try:
            writer(request, store, match_id, found=write_target(request, store, match_id))
        except HTTPException:
            return False
        return True

    await app.stores.warm(match_id, may)  # (a long match is folded off the one writer's thread, which others wait for)
    return await app.stores.write(lambda s: _write(app, s, request, match_id, body, seq, key), match_id)


def _write(
    app: Web, store: Store, request: Request, match_id: str | None, body: bytes, seq: int | None, key: str | None
) -> Response:
    """A write, in one transaction (with SQLite, one of a group committed together:
    :class:`~dominolog.web.stores.Stores`): who may (401/403: the token read in the transaction, so a
    revocation committed before it counts), how often (429), the key's first answer if it has one,
    else the events appended (:func:`dominolog.web.writing.append_lines`) and the answer kept under the
    key: committed together, or neither."""
    from dominolog.store.access import KEY_LIMIT, ReusedKey, TakenKey, fingerprint

    with store.transaction():
        found = None
        if match_id is not None:
            found = write_target(request, store, match_id, appending=True)  # (404: not begun, or private)
        token = writer(request, store, match_id, found=found)
        app.rate.check(token.id, request.state)
        if key is not None and not (0 < len(key) <= KEY_LIMIT and key.isascii() and key.isprintable()):
            raise HTTPException(400, f"an Idempotency-Key is 1 to {KEY_LIMIT} printable ASCII characters")
        request_print = fingerprint(request.method, _target(request), body)
        if key is not None:
            store.lock_key(token.id, key)
            try:
                before = store.answer_of(token.id, key, request_print)
            except TakenKey:
                raise HTTPException(
                    409, "a request with this Idempotency-Key was cut short by an older server: send it with a new key"
                ) from None
            except ReusedKey:
                raise HTTPException(
                    422,
                    "this Idempotency-Key was sent with another request (another match, query or body): a key "
                    "names one request; send this one with a new key",
                ) from None
            if before is not None:
                return Response(before[1], status_code=before[0], media_type="application/json")
        answer = _answer(app, store, match_id, body, request.headers.get("content-type"), seq, token.id, request.state)
        text = json.dumps(answer.body, ensure_ascii=False)
        if key is not None:
            store.keep_answer(token.id, key, answer.status, text, request_print)
        if answer.status == 201 and match_id is not None and request.query_params.get("state") == "recorder":
            text = _with_recorder_state(app, request, match_id, answer.body)
    return Response(text, status_code=answer.status, media_type="application/json")


def _with_recorder_state(app: Web, request: Request, match_id: str, body: dict[str, object]) -> str:
    """The write's answer with the phone recorder's state document after it (``?state=recorder``: one round
    trip a tap, docs/recorder-phone.md); the answer kept under the key is the bare one (a retry reads the
    state again)."""
    from dominolog.web.recorder_state import recorder_state

    q = request.query_params
    skipped = tuple(s[:200] for s in q.getlist("skip")[:8])
    state = recorder_state(app.stores.session(match_id), match_id, q.get("revealing") == "true", skipped)
    return json.dumps({**body, "recorder": state}, ensure_ascii=False)


def _target(request: Request) -> str:
    """The request's path and query as sent (the match's id percent-encoded as it came)."""
    path = request.scope.get("raw_path") or request.url.path.encode()
    query = request.scope.get("query_string") or b""
    return (path + (b"?" + query if query else b"")).decode("latin-1")


def _answer(
    app: Web,
    store: Store,
    match_id: str | None,
    body: bytes,
    content_type: str | None,
    seq: int | None,
    token: str,
    state: object = None,
) -> Answer:
    try:
        kind = kind_of(content_type)
        lines = lines_of(body, kind)
    except BadBody as exc:
        return Answer(exc.status, {"error": str(exc)})
    app.rate.charge(token, len(lines) - 1, state)  # (the rate counts events: the request was counted as one)
    if match_id is not None:
        if not lines:
            return Answer(422, {"error": "no event given"})
        return _appended(app, match_id, lines, kind, seq)
    made = first_match(lines, kind)
    if isinstance(made, Answer):
        return made
    if store.has_match(made):
        head = store.fold_of(made).head
        return Answer(409, {"error": f"the match {made} exists already", "match": made, "head": head})
    answer = _appended(app, made, lines, kind, None)
    answer.body["match"] = made
    return answer


def _appended(app: Web, match_id: str, lines: list[tuple[int, str]], kind: str, seq: int | None) -> Answer:
    try:
        return append_lines(app.stores.session(match_id), match_id, lines, kind, seq)
    except BaseException:
        app.stores.forget(match_id)
        raise


def answer_json(status: int, body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, status_code=status)
