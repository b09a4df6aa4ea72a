"""``dominolog token``: who may write to the store over HTTP (``dominolog serve``) and who may read its
private events: create, list and revoke tokens and viewing keys (:mod:`dominolog.store.access`: only
their hashes are stored), make an event private or public, print table cards
(:mod:`dominolog.club.cards`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, fail, store_or_fail
from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.store import Store

app = typer.Typer(
    name="token",
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Tokens for writing over HTTP (dominolog serve) and viewing keys of private events: create, list, "
    "revoke; private and public events; table cards. Only the tokens' hashes are stored.",
)


@app.command("create")
def create(
    db: DbOption = DEFAULT_DB,
    match: Annotated[str | None, typer.Option("--match", help="A table's token: it writes to this match only.")] = None,
    organiser: Annotated[
        bool, typer.Option("--organiser", help="The organiser's token: creates matches, writes to every match.")
    ] = False,
    viewer: Annotated[
        bool, typer.Option("--viewer", help="A viewing key: reads private events (never writes).")
    ] = False,
    event: Annotated[
        str | None, typer.Option("--event", help="With --viewer: the event it reads (default: every event).")
    ] = None,
    who: Annotated[str, typer.Option(help="Who it is for (shown by token list).")] = "",
    new: Annotated[
        bool, typer.Option("--new", help="With --match: a match not begun yet (the organiser begins it later).")
    ] = False,
) -> None:
    """Make a token and print it alone on standard output (it is shown once: the store keeps its hash).
    Exit 0, 2 a usage error (a match the store does not hold: --new makes a token for it anyway)."""
    if organiser + viewer + (match is not None) != 1:
        fail("give --match ID (a table's token), --organiser or --viewer [--event EVENT]")
    if event is not None and not viewer:
        fail("--event goes with --viewer (a viewing key of that event)")
    if new and match is None:
        fail("--new goes with --match (a table's token of a match not begun yet)")
    role = "organiser" if organiser else "viewer" if viewer else "table"
    with store_or_fail(db, create=True, write=True) as store:
        if match is not None and not store.has_match(match):
            if not new:
                fail(
                    f"no match {shown(match, 100)} is stored (dominolog list --db {shown(str(db), 100)} lists them; "
                    "--new: a token for a match the organiser begins later)"
                )
            typer.echo(f"dominolog: note: no match {shown(match, 100)} is stored yet", err=True)
        try:
            row, token = store.create_token(role, match if match is not None else event, who)
        except ValueError as exc:
            fail(str(exc))
    scope = f" of {shown(match)}" if match is not None else f" of event {shown(row.event)}" if row.event else ""
    typer.echo(f"dominolog: token {row.id} made ({row.role}{scope})", err=True)
    typer.echo(token)


@app.command("list")
def list_(
    db: DbOption = DEFAULT_DB,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON document instead of a table.")] = False,
) -> None:
    """The tokens made (never the tokens themselves): id, role, match, who, made, revoked."""
    from dominolog.jsontext import dumps

    with store_or_fail(db, create=False, write=False) as store:
        tokens = store.tokens()
        private = sorted(store.private_events())
    if as_json:
        typer.echo(dumps({"tokens": [t.as_dict() for t in tokens], "private": private}, indent=2))
        return
    table = [("id", "role", "match/event", "who", "made", "revoked")]
    for t in tokens:
        scope = t.match_id or ("every event" if t.role == "viewer" else "-")
        table.append(
            tuple(shown(c, 60) for c in (t.id, t.role, scope, t.who or "-", t.created_at, t.revoked_at or "-"))
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    typer.echo(f"{len(tokens)} token{'s' * (len(tokens) != 1)}")
    if private:
        typer.echo(f"private events: {', '.join(shown(e, 60) for e in private)}")


@app.command("revoke")
def revoke(
    token: Annotated[str, typer.Argument(help="The token, or its id (token list).", metavar="TOKEN|ID")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Revoke a token: every write with it is refused from now on (401). Exit 0, 1 no such token."""
    with store_or_fail(db, create=False, write=True) as store:
        found = store.revoke_token(token)
    if found is None:
        fail("no such token (give the token itself or its id: dominolog token list)", 1)
    said = "was revoked already" if found.revoked_at else "revoked"
    typer.echo(
        f"token {found.id} ({found.role}{'' if found.match_id is None else ' of ' + shown(found.match_id)}) {said}"
    )


def _round_matches(store: Store, event: str, round_no: int | None) -> list[str]:
    """The matches of a club event's round (the last paired by default), or exit 1 saying why."""
    from dominolog.tournament.director import DirectorError, load

    try:
        ev = load(store, event)
    except DirectorError as exc:
        fail(str(exc), 1)
    rounds = {r.number: r for r in ev.paired}
    n = round_no if round_no is not None else max(rounds, default=None)
    if n is None or n not in rounds:
        fail(f"no round {n} of {shown(event)} is paired" if n is not None else f"{shown(event)} has no round paired", 1)
    return [t.match for t in rounds[n].tables if t.match is not None]


EventArgument = Annotated[str, typer.Argument(help="The event (match_start.meta.event); * every match.")]


@app.command("private")
def private(event: EventArgument, db: DbOption = DEFAULT_DB) -> None:
    """Make an event private: its matches are read only with a viewing key (token create --viewer),
    the organiser's token or their table's token. Exit 0, 2 a usage error."""
    _set_private(db, event, True)


@app.command("public")
def public(event: EventArgument, db: DbOption = DEFAULT_DB) -> None:
    """Make a private event public again. Exit 0, 2 a usage error."""
    _set_private(db, event, False)


def _set_private(db: DbOption, event: str, private: bool) -> None:
    with store_or_fail(db, create=True, write=True) as store:
        try:
            changed = store.set_private(event, private, "dominolog token")
        except ValueError as exc:
            fail(str(exc))
    what = "private" if private else "public"
    typer.echo(f"event {shown(event, 100)} {'is now' if changed else 'was already'} {what}")


@app.command("cards")
def cards(
    out: Annotated[Path, typer.Option("--out", help="The HTML file to write (printable, no script).")],
    url: Annotated[
        str,
        typer.Option(
            help="The server's address as the phones reach it (dominolog serve --host 0.0.0.0 prints it: "
            "http://192.168.1.20:8000/)."
        ),
    ],
    db: DbOption = DEFAULT_DB,
    match: Annotated[
        list[str] | None,
        typer.Option("--match", help="A match to print a card for (again: more); default every open one."),
    ] = None,
    allow_loopback: Annotated[
        bool,
        typer.Option("--allow-loopback", help="Take an address of this machine only (127.0.0.1): for a test."),
    ] = False,
    event: Annotated[
        str | None,
        typer.Option("--event", help="A club event's round of tables (dominolog event): its last round's matches."),
    ] = None,
    round_no: Annotated[int | None, typer.Option("--round", help="With --event: this round instead.")] = None,
) -> None:
    """Print one card per table (a NEW table token each, the tokens of the table's earlier cards revoked):
    its round, table, match, players, who leads first, variant and a QR code of its recorder link
    URL/m/ID/record#token=TOKEN. Exit 0, 1 no such match (or event round), 2 a usage error (a loopback
    --url without --allow-loopback)."""
    from dominolog.club.cards import LoopbackURL, NoSuchMatch, cards_html, make_cards, revoked_line

    if not url.startswith(("http://", "https://")):
        fail("--url: give the server's address, http://HOST:PORT/")
    if event is None and round_no is not None:
        fail("--round goes with --event")
    if event is not None and match:
        fail("give --event or --match, not both")
    with store_or_fail(db, create=False, write=True) as store:
        if event is not None:
            match = _round_matches(store, event, round_no)
        try:
            made = make_cards(store, url, match, allow_loopback=allow_loopback)
        except NoSuchMatch as exc:
            fail(str(exc), 1)
        except LoopbackURL as exc:
            fail(f"--url {exc} (--allow-loopback takes it)")
    try:
        out.write_text(cards_html(made), encoding="utf-8")
    except OSError as exc:
        fail(f"{shown(str(out))}: {exc.strerror or exc}")
    typer.echo(f"{len(made)} table card{'s' * (len(made) != 1)} written to {shown(str(out))} (a new table token each)")
    revoked = revoked_line(made)
    if revoked is not None:
        typer.echo(revoked)
