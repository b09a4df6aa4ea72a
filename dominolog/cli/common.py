"""Helpers shared by the CLI commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from dominolog.log.reader import MatchLog, PathError, iter_matches
from dominolog.store import Store, StoreError, open_store

DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="DOMINOLOG_DB",
        help="The match store (a SQLite file); also DOMINOLOG_DB.",
    ),
]
DEFAULT_DB = Path("dominolog.db")


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``dominolog: message`` on stderr and exit with ``code``."""
    sys.stderr.write(f"dominolog: {message}\n")
    raise typer.Exit(code)


#: the store the command opened (named if SQLite reports it damaged later: see dominolog.cli.main)
OPENED: list[Path] = []


def store_or_fail(path: Path, create: bool = True) -> Store:
    """Open the store, or exit 2 with the reason."""
    try:
        store = open_store(path, create=create)
    except StoreError as exc:
        fail(str(exc))
    OPENED.append(path)
    return store


def read_matches(file: Path) -> list[MatchLog]:
    """Every match of a log file, or exit 2 saying why it cannot be read."""
    if not file.is_file():
        fail(f"{file}: no such file")
    try:
        return list(iter_matches(file))
    except PathError as exc:
        fail(str(exc))


def match_of_file(file: Path, match: int) -> tuple[MatchLog, int]:
    """Match number ``match`` (from 1) of a log file and how many the file holds, or exit 2."""
    logs = read_matches(file)
    if not logs:
        fail(f"{file}: no events in the file")
    if match > len(logs):
        fail(f"{file}: there is no match {match} (the file holds {len(logs)})")
    return logs[match - 1], len(logs)
