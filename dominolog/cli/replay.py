"""``dominolog replay``: step through a match in the terminal (the Textual replay viewer)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import fail, match_of_file, stored_match
from dominolog.log.reader import MatchLog
from dominolog.textsafe import shown


def _from_file(file: Path, match: int) -> tuple[MatchLog, str]:
    log, count = match_of_file(file, match)
    return log, file.name if count == 1 else f"{file.name} #{match}/{count}"


def _from_store(db: Path, match_id: str) -> tuple[MatchLog, str]:
    return stored_match(db, match_id), match_id


def replay(
    target: Annotated[
        str,
        typer.Argument(
            help="A log file (JSON Lines); with --db, a match id of the store.",
            show_default=False,
            metavar="FILE|MATCH",
        ),
    ],
    match: Annotated[int, typer.Option("--match", min=1, help="Which match of the file (1 = the first).")] = 1,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Replay a match of this store (a SQLite file): TARGET is then its id."),
    ] = None,
    at: Annotated[int | None, typer.Option("--at", min=1, help="Open at this event (seq); default: the first.")] = None,
) -> None:
    """Step through a match in the terminal: the table, the hands, the scores and every event,
    violations marked. Keys are shown at the bottom (? lists them all)."""
    log, title = _from_store(db, target) if db is not None else _from_file(Path(target), match)
    where = shown(log.source) if db is not None else f"{shown(log.source)}: match {match}"
    if not log.records:
        fail(f"{where}: the match has no events")
    last = log.records[-1].seq
    if at is not None and at > last:
        fail(f"{where} has {last} events; there is no seq {at}")
    from dominolog.tui.app import ReplayApp  # Textual is imported only when a replay is opened

    app = ReplayApp(log, title, at)
    # the match's states are built and never freed while the app runs: keep the collector from
    # scanning them again and again (a full collection of 2,000 states is a visible pause)
    gc.collect()
    gc.freeze()
    app.run()
    if app.return_code:  # the viewer failed (Textual has printed why): say so in the exit status
        fail(f"the replay viewer stopped on an error (exit status {app.return_code})", app.return_code)
