"""The app factory: FastAPI (OpenAPI for the API from the same code, on Starlette), the store, the
poller of live streams, and what every answer gets:

- a body over :data:`MAX_BODY` bytes is ``413`` before the app reads it;
- security headers on every response: a strict ``Content-Security-Policy`` (everything from the
  server itself, no inline script, no framing), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer``; ``Cache-Control: no-store`` on every answer to a request that
  carries a token or a key (``Authorization``, ``?key=``): a token made, the tokens listed, the cards,
  what a key reads;
- every error is a JSON body ``{"error": "..."}``, never a stack trace (``DOMINOLOG_DEBUG`` set: the
  trace, for a developer).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dominolog.web.auth import RATE
from dominolog.web.shared import MAX_BODY, SECURITY_HEADERS, Web


class Guard:
    """Pure ASGI middleware: the security headers on every response (streams too), and bodies over
    ``limit`` bytes refused with ``413`` (read whole before the app sees them)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        keyed = _keyed(scope)

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if keyed:  # (what a key reads, or a token made, is kept by no cache: the browser's neither)
                    headers = [h for h in headers if h[0].lower() != b"cache-control"] + [NO_STORE]
                names = {k.lower() for k, _ in headers}
                message["headers"] = [*headers, *(h for h in SECURITY_HEADERS if h[0] not in names)]
            await send(message)

        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await _too_large(self.limit, send_guarded)
            return
        if scope["method"] in ("POST", "PUT", "PATCH"):
            chunks, size = [], 0
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.limit:
                    await _too_large(self.limit, send_guarded)
                    return
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
            whole = b"".join(chunks)
            given = False

            async def replay() -> Message:
                nonlocal given
                if not given:
                    given = True
                    return {"type": "http.request", "body": whole, "more_body": False}
                return await receive()

            await self.app(scope, replay, send_guarded)
            return
        await self.app(scope, receive, send_guarded)


NO_STORE = (b"cache-control", b"no-store")


def _keyed(scope: Scope) -> bool:
    """Whether the request carries a token or a key (``Authorization``, or ``?key=``): its answer may
    hold a token or what only that key reads."""
    if any(name.lower() == b"authorization" for name, _ in scope.get("headers", [])):
        return True
    query = scope.get("query_string", b"")
    return any(part.split(b"=", 1)[0] == b"key" for part in query.split(b"&"))


async def _too_large(limit: int, send: Send) -> None:
    body = f'{{"error": "the body is larger than {limit} bytes"}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _allowed(routes: list[Any], path: str) -> str:
    """Every method the ``routes`` of ``path`` take (``Allow`` of a ``405``)."""
    methods: set[str] = set()
    for route in routes:
        regex, taken = getattr(route, "path_regex", None), getattr(route, "methods", None)
        if regex is not None and taken and regex.match(path):
            methods |= set(taken)
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def create_app(target: str, rate: int = RATE, analyse: bool = True, url: str | None = None) -> FastAPI:
    """The app serving the store ``target`` (a SQLite file or a PostgreSQL URL, which must exist); with
    ``analyse``, keeping the matches' analyses current as hands end (:mod:`dominolog.web.analyser`);
    ``url``: the address it is reached at (the table cards')."""
    from dominolog import __version__
    from dominolog.web import api, assets, event_pages, events_api, organiser, pages, recorder, results, tokens_api
    from dominolog.web.ids import MatchIds
    from dominolog.web.plain import PlainAppend

    web = Web(target, rate, url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from dominolog.web.analyser import Analyser

        tasks = [asyncio.create_task(web.poller.run())]
        if analyse:
            tasks.append(asyncio.create_task(Analyser(web.stores, web.poller).run()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:  # (their own clean-up done: the analysing process ended)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            web.stores.close()

    app = FastAPI(
        title="dominolog",
        version=__version__,
        description="A club night's matches: read them, follow them live, append events with a token.",
        docs_url=None,  # Swagger UI would load from a CDN: /openapi.json is served, from the package alone
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.web = web
    app.state.analysing = analyse

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 405:  # every method of the path, not those of the first route that matched
            allowed = _allowed(routes, request.scope["path"])
            return _error(405, f"{request.method} is not allowed here: {allowed}", {"Allow": allowed})
        return _error(exc.status_code, str(exc.detail), getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        said = "; ".join(f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors())
        return _error(422, said or "invalid request")

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        from dominolog.store.errors import StoreError, database_failure, is_database_error
        from dominolog.textsafe import shown

        if isinstance(exc, StoreError):
            return _error(503, shown(str(exc), 400))
        if is_database_error(exc):
            return _error(503, shown(str(database_failure(exc, "the store")), 400))
        if os.environ.get("DOMINOLOG_DEBUG"):
            return _error(500, "".join(traceback.format_exception(exc)))
        return _error(500, "internal error (the server's log says more; DOMINOLOG_DEBUG=1 shows it here)")

    routers = (
        assets.router,
        api.router,
        tokens_api.router,
        events_api.router,
        recorder.router,
        results.router,
        pages.router,
        organiser.router,
        event_pages.router,
    )
    for router in routers:
        app.include_router(router)
    routes: list[Any] = [route for router in routers for route in router.routes]
    app.router.routes.insert(0, PlainAppend())  # (a table's append, FastAPI's machinery skipped: web/plain.py)
    favicon = (resources.files("dominolog.web") / "static" / "favicon.ico").read_bytes()

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon_ico() -> Response:
        # every browser asks for it on every page (a 404 is an error in its console): a domino, from the
        # package, kept a day (the security headers as on every answer: Guard)
        return Response(favicon, media_type="image/x-icon", headers={"Cache-Control": "public, max-age=86400"})

    routes += [route for route in app.router.routes if getattr(route, "path_regex", None) is not None]
    app.mount("/static", StaticFiles(directory=str(resources.files("dominolog.web") / "static")), name="static")
    app.add_middleware(MatchIds)
    # text compressed (HTML, scripts, JSON; never a stream: Starlette leaves text/event-stream alone)
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.openapi = lambda: _every_status(app)  # type: ignore[method-assign]
    return Guard(app)  # type: ignore[return-value]


def _every_status(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, each operation of the API listing what every route may answer besides its
    own: ``401`` (a key or token not known here, or revoked: :func:`dominolog.web.auth.sight`), ``404``
    for an address naming a match, an event or a token (none such, or one the request may not read)."""
    from fastapi.openapi.utils import get_openapi

    from dominolog.web.auth import error_responses

    if app.openapi_schema is None:
        doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        for path, operations in doc.get("paths", {}).items():
            for op in operations.values():
                answers = op.setdefault("responses", {})
                wanted = [401, 404] if "{" in path else [401]
                for status, said in error_responses(*wanted).items():
                    answers.setdefault(str(status), said)
        app.openapi_schema = doc
    return app.openapi_schema


def from_env() -> Any:
    """The app of ``dominolog serve --workers N`` (uvicorn imports it in each worker process)."""
    return create_app(
        os.environ["DOMINOLOG_SERVE_DB"],
        int(os.environ.get("DOMINOLOG_SERVE_RATE", RATE)),
        os.environ.get("DOMINOLOG_SERVE_ANALYSE", "1") != "0",
        os.environ.get("DOMINOLOG_SERVE_URL") or None,
    )
