"""Helpers shared by the CLI commands."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported where used: `dominolog --help` loads no command's machinery
    from dominolog.log.reader import MatchLog
    from dominolog.store import Store

#: how every help text names the value of --db: a file or a database URL
DB_METAVAR = "PATH|URL"
DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="DOMINOLOG_DB",
        metavar=DB_METAVAR,
        help="The match store: a SQLite file, or a PostgreSQL database as postgresql://USER@HOST/NAME; "
        "also DOMINOLOG_DB.",
    ),
]
DEFAULT_DB = "dominolog.db"


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``dominolog: message`` on stderr and exit with ``code``."""
    sys.stderr.write(f"dominolog: {message}\n")
    raise typer.Exit(code)


#: the store the command opened, as a message names it (if the database fails later: see dominolog.cli.main)
OPENED: list[str] = []


def is_db_url(db: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL database (``postgresql://``, ``postgres://``) rather than a file."""
    return isinstance(db, str) and db.lower().startswith(("postgresql://", "postgres://"))


def db_name(db: str | Path) -> str:
    """``--db`` as a message shows it: a URL without its password (:func:`dominolog.store.redacted`),
    escaped."""
    return shown(_unsecret(db))


def _unsecret(db: str | Path) -> str:
    if not is_db_url(db):
        return str(db)
    from dominolog.store.target import redacted

    return redacted(db)


def store_or_fail(path: str | Path, create: bool = True, write: bool | None = None) -> Store:
    """Open the store (``create``: make it if missing; ``write``: the command will write, default
    ``create``), or exit with the reason: 1 for a damaged store, else 2."""
    from dominolog.store import DamagedStoreError, StoreError, open_store

    try:
        store = open_store(path, create=create, write=write)
    except DamagedStoreError as exc:
        fail(shown(str(exc), 2000), 1)
    except StoreError as exc:
        fail(shown(str(exc), 2000))
    OPENED.append(_unsecret(path))
    return store


def read_matches(file: Path) -> list[MatchLog]:
    """Every match of a log file (JSON Lines, or ``.dn`` by its suffix), or exit 2 saying why it
    cannot be read."""
    from dominolog.log.reader import PathError
    from dominolog.recording.notation import iter_matches_any

    if not file.is_file():
        fail(f"{shown(file)}: no such file")
    try:
        return list(iter_matches_any(file))
    except PathError as exc:
        fail(shown(str(exc), 2000))


def match_of_file(file: Path, match: int) -> tuple[MatchLog, int]:
    """Match number ``match`` (from 1) of a log file and how many the file holds, or exit 2."""
    logs = read_matches(file)
    if not logs:
        fail(f"{shown(file)}: no events in the file")
    if match > len(logs):
        fail(f"{shown(file)}: there is no match {match} (the file holds {len(logs)})")
    return logs[match - 1], len(logs)


def match_id_or_fail(store: Store, db: str | Path, match_id: str) -> str:
    """``match_id`` if the store holds it, else exit 1 naming the closest ids it holds."""
    if store.has_match(match_id):
        return match_id
    close = store.close_ids(match_id)
    hint = f"; did you mean {', '.join(shown(c, 100) for c in close)}?" if close else ""
    if not close:
        count = len(store.match_ids())
        hint = f" (it holds {count}: dominolog list --db {db_name(db)})" if count else " (it is empty)"
    fail(f"{db_name(db)}: no match {shown(match_id, 100)!r}{hint}", 1)


def stored_match(db: str | Path, match_id: str) -> MatchLog:
    """A match of the store as a log (its records as stored), or exit: 2 if the store cannot be
    used, 1 if it holds no such match (naming the closest ids)."""
    from dominolog.log.reader import MatchLog

    with store_or_fail(db, create=False) as store:
        match_id_or_fail(store, db, match_id)
        records = [rec for rec, _ in store.records(match_id)]
    return MatchLog(f"{store.path}#{match_id}", 1, records)


#: the match a command shows: a file (with ``--match K``), or with ``--db`` an id of the store
MatchTarget = Annotated[
    str,
    typer.Argument(
        help="A log file (JSON Lines, or the .dn notation); with --db, a match id of the store.",
        show_default=False,
        metavar="FILE|MATCH",
    ),
]
MatchNumber = Annotated[int, typer.Option("--match", min=1, help="Which match of the file (1 = the first).")]
#: the matches a command takes: log files, or with ``--db`` ids of the store (``--all``: every one)
MatchTargets = Annotated[
    list[str] | None,
    typer.Argument(
        help="Log files, or ids of matches in the store (with --db: always ids).",
        show_default=False,
        metavar="FILE|MATCH",
    ),
]
EveryMatch = Annotated[bool, typer.Option("--all", help="Every match in the store.")]
MatchStore = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar=DB_METAVAR,
        help="Take the match from this store (a SQLite file, or a postgresql:// URL): the argument is then its id.",
    ),
]


def match_of(target: str, match: int, db: str | Path | None) -> tuple[MatchLog, int, str]:
    """The match a command was given, a file's or the store's, or exit saying why not: its log, how
    many matches its file holds (1 for the store), and how to name it in a message."""
    if db is not None:
        return stored_match(db, target), 1, f"{db_name(db)}: match {shown(target, 100)}"
    log, count = match_of_file(Path(target), match)
    return log, count, f"{shown(target)}: match {match}"


def to_one_place(count: int, out: Path | None) -> bool:
    """Whether ``count`` reports go to one place, standard output or the file ``out``, rather than one
    file each into the folder ``out``."""
    return count == 1 and not (out is not None and out.is_dir())


def output_folder(out: Path | None, many: str, each: str, need: str) -> Path:
    """The folder ``out`` for one file per match (made if missing), or exit 2: ``many`` says what there
    is (``6 matches``), ``each`` what one file holds (``score sheet``), ``need`` what needs the folder."""
    if out is None:
        fail(f"{many}: give --out FOLDER to write one {each} per match")
    if out.exists() and not out.is_dir():
        fail(f"{shown(out)}: {need} need a folder, and this is a file")
    out.mkdir(parents=True, exist_ok=True)
    return out


def file_name_of(name: str) -> str:
    """A match id made safe as a file name: letters, digits, ``.``, ``-`` and ``_`` only."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[:100].lstrip(".")
    return safe or "match"


def write_report(text: str, out: Path | None, said: str) -> None:
    """A report to ``out`` (then ``said`` on stderr, after the file's name) or to standard output."""
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{shown(out)}: cannot write the report ({exc.strerror or exc})")
    typer.echo(f"{shown(out)}: {said}", err=True)


#: the options a report command (audit, analyze) shares
ReportHand = Annotated[int | None, typer.Option("--hand", min=1, help="Only this hand (1 = the first).")]
ReportFormat = Annotated[str, typer.Option("--format", help="text, json or html.", metavar="FORMAT")]
ReportOut = Annotated[
    Path | None, typer.Option("--out", help="Write the report to this file instead of printing it.", metavar="PATH")
]
#: ``--min-likelihood``: hide the possible violations less likely than this (verify, audit, replay)
MinLikelihood = Annotated[
    float | None,
    typer.Option(
        "--min-likelihood",
        min=0.0,
        max=1.0,
        help="Hide the possible violations less likely than this share (0 to 1, e.g. 0.5): the share of the "
        "hands the log allows in which the rule is broken. Violations, and rules whose likelihood is not known, "
        "are always shown; how many were hidden is said. Default: show all.",
        metavar="SHARE",
        show_default=False,
    ),
]


def key_values(values: list[str] | None, what: str, as_json: bool) -> dict[str, Any]:
    """``KEY=VALUE`` options: with ``as_json``, a value that reads as JSON is taken as such
    (``target=100``, ``draw_limit=null``, ``partners=true``), else as text."""
    out: dict[str, Any] = {}
    for item in values or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            fail(f"{what} takes KEY=VALUE, not {shown(item, 100)!r}")
        if as_json:
            try:
                out[key] = json.loads(value)
            except ValueError:
                out[key] = value
        else:
            out[key] = value
    return out
