"""``dominolog export``: a picture of the table at an event (SVG, or the terminal's text picture)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import fail
from dominolog.layouts.grid import GridLayout
from dominolog.layouts.picture import line_as_grid, svg_picture, text_picture
from dominolog.log.reader import PathError, iter_matches
from dominolog.reducer import reduce_match


class Format(StrEnum):
    svg = "svg"
    text = "text"


def export(
    file: Annotated[Path, typer.Argument(help="A log file (JSON Lines).", show_default=False)],
    at: Annotated[
        int | None, typer.Option("--at", min=1, help="The table after this event (seq); default: the last.")
    ] = None,
    match: Annotated[int, typer.Option("--match", min=1, help="Which match of the file (1 = the first).")] = 1,
    fmt: Annotated[Format, typer.Option("--format", help="svg: an SVG image; text: box characters.")] = Format.svg,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of standard output.")] = None,
) -> None:
    """Draw the table of a hand at an event: every tile where it lies, with its pips, and the open ends."""
    if not file.is_file():
        fail(f"{file}: no such file")
    try:
        logs = list(iter_matches(file))
    except PathError as exc:
        fail(str(exc))
    if not logs:
        fail(f"{file}: no events in the file")
    if match > len(logs):
        fail(f"{file}: there is no match {match} (the file holds {len(logs)})")
    log = logs[match - 1]
    last = log.records[-1].seq
    if at is not None and at > last:
        fail(f"{file}: match {match} has {last} events; there is no seq {at}")
    seq = at if at is not None else last
    reducer = reduce_match(log, seq)
    state = reducer.state
    hand = state.hand if state is not None else None
    if state is None or hand is None:
        fail(f"{file}: no hand is open at seq {seq} of match {match} (between hands, or the match is over)")
    layout = hand.layout
    grid = layout if isinstance(layout, GridLayout) else line_as_grid(layout)
    if fmt is Format.text:
        text = text_picture(grid) + "\n"
    else:
        title = f"{state.variant}: {' vs '.join(state.players)}, hand {hand.number}, after seq {seq}"
        ends = ", ".join(f"{s.name} {s.value}" for s in grid.open_sides()) if isinstance(layout, GridLayout) else ""
        text = svg_picture(grid, title, f"open ends: {ends}" if ends else "")
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}")
