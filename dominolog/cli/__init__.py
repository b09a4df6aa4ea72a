"""The ``dominolog`` command line (Typer). One module per command group."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer

from dominolog.cli import analyze as analyze_cmd
from dominolog.cli import append as append_cmd
from dominolog.cli import audit as audit_cmd
from dominolog.cli import event as event_cmd
from dominolog.cli import export as export_cmd
from dominolog.cli import record as record_cmd
from dominolog.cli import replay as replay_cmd
from dominolog.cli import schema as schema_cmd
from dominolog.cli import serve as serve_cmd
from dominolog.cli import show as show_cmd
from dominolog.cli import simulate as simulate_cmd
from dominolog.cli import standings as standings_cmd
from dominolog.cli import store as store_cmd
from dominolog.cli import token as token_cmd
from dominolog.cli import verify as verify_cmd
from dominolog.cli.common import OPENED
from dominolog.textsafe import shown

app = typer.Typer(
    name="dominolog",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from dominolog.build_info import described

        typer.echo(described())
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Record domino matches as append-only event logs; replay, audit and score them.

    Exit status: 0 all good; 1 a match is invalid or an input was refused (or the store is damaged);
    2 a usage error, a missing path, a store that cannot be used or that failed under the command
    (a server stopped, a disk full); 3 an internal error (a bug); 4 a seq taken by another writer.
    """


app.command("verify")(verify_cmd.verify)
app.command("simulate")(simulate_cmd.simulate)
app.command("show")(show_cmd.show)
app.command("audit")(audit_cmd.audit)
app.command("analyze")(analyze_cmd.analyze)
app.command("replay")(replay_cmd.replay)
app.command("export")(export_cmd.export)
app.command("import")(store_cmd.import_)
app.command("list")(store_cmd.list_)
app.command("reindex")(store_cmd.reindex)
app.command("record")(record_cmd.record)
app.command("append")(append_cmd.append)
app.command("schema")(schema_cmd.schema)
app.command("standings")(standings_cmd.standings_cmd)
app.command("serve")(serve_cmd.serve)
app.add_typer(token_cmd.app, name="token")
app.add_typer(event_cmd.app, name="event")


def _english(command: Any) -> Any:
    """The help texts as a person reads them: value names in words (``--at N``, ``--db PATH|URL``,
    ``FILE...``) instead of Python types (``<int range>``, ``<list[str]>``), no ``[x>=1]``. An option
    that names its value (``metavar``) keeps that name."""
    for cmd in [command, *getattr(command, "commands", {}).values()]:
        for param in cmd.params:
            if getattr(param, "is_flag", False) or param.name == "help":
                continue
            desc = param.type_descriptor
            if param.param_type_name == "option" and param.metavar:
                name = param.metavar
            elif desc.is_choice:
                name = "[" + "|".join(str(getattr(c, "value", c)) for c in desc.choices or ()) + "]"
            elif desc.is_path:
                name = "PATH"
            elif desc.annotation is int or desc.is_ranged:
                name = "N"
            else:
                name = "TEXT"
            if param.param_type_name == "argument":
                name = (param.metavar or param.name.upper()).removesuffix("...")
                many = "..." if param.nargs != 1 else ""
                usage = f"{name}{many}" if param.required else f"[{name}{many}]"
                param._usage_display_name = lambda usage=usage: usage
                param._rich_display_name = lambda shown=name + many: shown
                param.display_type_rich = lambda ctx: None
            param.metavar = name
            param._get_number_range_help_str = lambda: None
    return command


def command() -> Any:
    """The click command the console script runs (the Typer app, with help texts in words)."""
    return _english(typer.main.get_command(app))


def _run() -> None:
    """Run the command; a usage error is shown in words (Typer hands on pydantic's "Value error, ..."
    for a bad choice), with exit status 2."""
    # click's base of every usage error, found from Typer's public BadParameter (Typer may vendor click)
    click_exception = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    try:
        code = command().main(prog_name="dominolog", standalone_mode=False)
    except click_exception as exc:
        exc.message = exc.message.replace("Value error, ", "")
        exc.show()
        raise SystemExit(exc.exit_code) from None
    except typer.Abort:
        sys.stderr.write("dominolog: aborted\n")
        raise SystemExit(1) from None
    raise SystemExit(code if isinstance(code, int) else 0)


def _bad_argument() -> int | None:
    """The position (from 1) of the first command-line argument that is not valid UTF-8, or None.
    (Python hands such bytes on as lone surrogates: printing them would fail later.)"""
    for i, arg in enumerate(sys.argv[1:], 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return i
    return None


def main() -> None:
    """Console entry point: domain errors become exit codes, never tracebacks."""
    bad = _bad_argument()
    if bad is not None:
        sys.stderr.write(f"dominolog: usage error: argument {bad} is not valid UTF-8 text\n")
        raise SystemExit(2)
    try:
        _run()
    except KeyboardInterrupt:
        sys.stderr.write("dominolog: interrupted\n")
        raise SystemExit(130) from None
    except Exception as exc:  # last resort: a bug must not show a user a traceback
        from dominolog.store.errors import DamagedStoreError, database_failure, is_database_error

        if is_database_error(exc) and not os.environ.get("DOMINOLOG_DEBUG"):
            # the database failed under the command, after the store opened (a PostgreSQL server gone, a
            # disk full, a lock waited for too long: exit 2), or says it is damaged (exit 1)
            failed = database_failure(exc, shown(OPENED[-1]) if OPENED else "the database")
            sys.stderr.write(f"dominolog: {failed}\n")
            raise SystemExit(1 if isinstance(failed, DamagedStoreError) else 2) from None
        if os.environ.get("DOMINOLOG_DEBUG"):
            raise
        sys.stderr.write(
            f"dominolog: internal error: {type(exc).__name__}: {shown(exc)} (set DOMINOLOG_DEBUG=1 for details)\n"
        )
        raise SystemExit(3) from None
