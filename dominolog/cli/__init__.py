"""The ``dominolog`` command line (Typer). One module per command group."""

from __future__ import annotations

import os
import sqlite3
import sys

import typer

from dominolog.cli import export as export_cmd
from dominolog.cli import replay as replay_cmd
from dominolog.cli import schema as schema_cmd
from dominolog.cli import show as show_cmd
from dominolog.cli import simulate as simulate_cmd
from dominolog.cli import store as store_cmd
from dominolog.cli import verify as verify_cmd
from dominolog.cli.common import OPENED

app = typer.Typer(
    name="dominolog",
    help="Record domino matches as append-only event logs; replay, audit and score them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("verify")(verify_cmd.verify)
app.command("simulate")(simulate_cmd.simulate)
app.command("show")(show_cmd.show)
app.command("replay")(replay_cmd.replay)
app.command("export")(export_cmd.export)
app.command("import")(store_cmd.import_)
app.command("list")(store_cmd.list_)
app.command("reindex")(store_cmd.reindex)
app.command("record")(store_cmd.record)
app.command("schema")(schema_cmd.schema)


def main() -> None:
    """Console entry point: domain errors become exit codes, never tracebacks."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("dominolog: interrupted\n")
        raise SystemExit(130) from None
    except sqlite3.DatabaseError as exc:  # found damaged after it opened: a clear error, not a bug
        where = OPENED[-1] if OPENED else "the database"
        sys.stderr.write(f"dominolog: {where}: the database is damaged ({exc})\n")
        raise SystemExit(2) from None
    except Exception as exc:  # last resort: a bug must not show a user a traceback
        if os.environ.get("DOMINOLOG_DEBUG"):
            raise
        sys.stderr.write(
            f"dominolog: internal error: {type(exc).__name__}: {exc} (set DOMINOLOG_DEBUG=1 for details)\n"
        )
        raise SystemExit(3) from None
