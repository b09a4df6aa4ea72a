"""``dominolog show``: the state of a match at an event, for a person."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import fail, match_of_file
from dominolog.reducer import reduce_match
from dominolog.render import render_state


def show(
    file: Annotated[Path, typer.Argument(help="A log file (JSON Lines).", show_default=False)],
    match: Annotated[int, typer.Option("--match", min=1, help="Which match of the file (1 = the first).")] = 1,
    at: Annotated[
        int | None, typer.Option("--at", min=1, help="Show the state after this event (seq); default: the last.")
    ] = None,
) -> None:
    """Print the table, each hand, whose turn, the scores and the violations so far."""
    log, count = match_of_file(file, match)
    last = log.records[-1].seq
    if at is not None and at > last:
        fail(f"{file}: match {match} has {last} events; there is no seq {at}")
    seq = at if at is not None else last
    reducer = reduce_match(log, seq)
    width = max(40, min(shutil.get_terminal_size((80, 24)).columns, 120) - 2)
    typer.echo(render_state(reducer, log, seq, match, count, width))
