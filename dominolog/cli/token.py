"""``dominolog token``: who may write to the store over HTTP (``dominolog serve``): create, list and
revoke tokens (:mod:`dominolog.store.access`: only their hashes are stored)."""

from __future__ import annotations

from typing import Annotated

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, fail, store_or_fail
from dominolog.textsafe import shown

app = typer.Typer(
    name="token",
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Tokens for writing over HTTP (dominolog serve): create, list, revoke. Only their hashes are stored.",
)


@app.command("create")
def create(
    db: DbOption = DEFAULT_DB,
    match: Annotated[str | None, typer.Option("--match", help="A table's token: it writes to this match only.")] = None,
    organiser: Annotated[
        bool, typer.Option("--organiser", help="The organiser's token: creates matches, writes to every match.")
    ] = False,
    who: Annotated[str, typer.Option(help="Who it is for (shown by token list).")] = "",
) -> None:
    """Make a token and print it alone on standard output (it is shown once: the store keeps its hash).
    Exit 0, 2 a usage error."""
    if organiser == (match is not None):
        fail("give --match ID (a table's token) or --organiser")
    with store_or_fail(db, create=True, write=True) as store:
        if match is not None and not store.has_match(match):
            typer.echo(f"dominolog: note: no match {shown(match, 100)} is stored yet", err=True)
        row, token = store.create_token("organiser" if organiser else "table", match, who)
    typer.echo(f"dominolog: token {row.id} made ({row.role}{'' if match is None else ' of ' + shown(match)})", err=True)
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
    if as_json:
        typer.echo(dumps({"tokens": [t.as_dict() for t in tokens]}, indent=2))
        return
    table = [("id", "role", "match", "who", "made", "revoked")]
    for t in tokens:
        table.append(
            tuple(
                shown(c, 60) for c in (t.id, t.role, t.match_id or "-", t.who or "-", t.created_at, t.revoked_at or "-")
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    typer.echo(f"{len(tokens)} token{'s' * (len(tokens) != 1)}")


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
