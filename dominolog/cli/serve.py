"""``dominolog serve``: the club night in the browser and over HTTP (:mod:`dominolog.web`)."""

from __future__ import annotations

import os
import socket
import sys
from typing import Annotated

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, db_name, fail, is_db_url, store_or_fail
from dominolog.textsafe import shown


def serve(
    db: DbOption = DEFAULT_DB,
    host: Annotated[
        str, typer.Option(help="The address to listen on: 127.0.0.1 this machine only; 0.0.0.0 the room's network.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="The port to listen on.")] = 8000,
    workers: Annotated[
        int, typer.Option(min=1, help="Server processes (PostgreSQL only: a SQLite file takes one writer).")
    ] = 1,
    rate: Annotated[
        int,
        typer.Option(
            min=1, help="Events a second one token may store (each of a body counts; more: 429), counted per process."
        ),
    ] = 20,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse/--no-analyse",
            help="Keep each match's analysis current as its hands end (one low-priority process at a time).",
        ),
    ] = True,
) -> None:
    """Serve the store: the evening's board (/), each match followed live (/m/ID), and the HTTP API
    (/api/..., described at /openapi.json). Reading is open; writing needs a token (dominolog token).
    Prints the URL, and the organiser's token the first time (when the store has none). Exit 0 when
    stopped (Ctrl-C), 2 a usage error or a store or address that cannot be used."""
    if workers > 1 and not is_db_url(db):
        fail(
            f"--workers {workers}: a SQLite store takes one writer at a time, so it is served by one worker; "
            "for more, use a PostgreSQL store (--db postgresql://...)"
        )
    try:
        import uvicorn

        from dominolog.web.app import create_app
        from dominolog.web.limits import GuardedHttp
    except ImportError as exc:
        fail(f"serve needs FastAPI and uvicorn ({exc.name} is missing): pip install dominolog")
    with store_or_fail(db, create=True, write=True) as store:
        token = None
        if not store.has_organiser():
            _, token = store.create_token("organiser", None, who="dominolog serve")
    _check_address(host, port)
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown_host}:{port}/"
    typer.echo(f"serving {db_name(db)} at {url}")
    if host in ("0.0.0.0", "::"):
        typer.echo(f"listening on every address of this machine ({host}): the room's network can reach it")
    if token is not None:
        typer.echo(f"the organiser's token (shown once; keep it): {token}")
        typer.echo(f"the organiser's link: {url}organiser#organiser={token}")
    from dominolog.club.cards import is_loopback, served_url

    cards_url = served_url(host, port)
    if is_loopback(cards_url):
        typer.echo("table cards: this address is this machine's only; --host 0.0.0.0 serves the room's network")
    else:
        typer.echo(f"table cards point at {cards_url}")
    typer.echo("Ctrl-C stops the server")
    sys.stdout.flush()
    target = str(db)
    if workers > 1:
        os.environ["DOMINOLOG_SERVE_DB"] = target
        os.environ["DOMINOLOG_SERVE_RATE"] = str(rate)
        os.environ["DOMINOLOG_SERVE_ANALYSE"] = "1" if analyse else "0"
        os.environ["DOMINOLOG_SERVE_URL"] = cards_url
        uvicorn.run(
            "dominolog.web.app:from_env",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            timeout_graceful_shutdown=2,
            http=GuardedHttp,
        )
    else:
        uvicorn.run(
            create_app(target, rate, analyse, cards_url),
            host=host,
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=2,
            http=GuardedHttp,
        )


def _check_address(host: str, port: int) -> None:
    """Exit 2 now, in words, when the address cannot be listened on (taken, not this machine's)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        fail(f"--host {shown(host)}: not an address of this machine ({exc.strerror or exc})")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            fail(f"cannot listen on {shown(host)}:{port}: {exc.strerror or exc}")
