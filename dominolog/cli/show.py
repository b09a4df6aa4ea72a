"""``dominolog show``: the state of a match at an event, for a person."""

from __future__ import annotations

import shutil
from typing import Annotated

import typer

from dominolog.cli.common import MatchNumber, MatchStore, MatchTarget, fail, match_of
from dominolog.textsafe import shown


def show(
    target: MatchTarget,
    match: MatchNumber = 1,
    at: Annotated[
        int | None, typer.Option("--at", min=1, help="Show the state after this event (seq); default: the last.")
    ] = None,
    db: MatchStore = None,
) -> None:
    """Print the table, each hand, whose turn, the scores and the violations so far.
    Exit 1 when the file holds no match (only lines that are not events)."""
    from dominolog.reducer import reduce_match
    from dominolog.render import render_state

    log, count, where = match_of(target, match, db)
    if log.orphan:  # no match_start: nothing to show but what is wrong
        for rec in log.records:
            if rec.error is not None:
                typer.echo(f"{shown(log.source)}:{rec.line}: malformed: {shown(rec.error, 500)}")
        fail(f"{shown(log.source)}: not a match: no match_start line", 1)
    last = log.records[-1].seq
    if at is not None and at > last:
        fail(f"{where} has {last} events; there is no seq {at}")
    seq = at if at is not None else last
    reducer = reduce_match(log, seq)
    width = max(40, min(shutil.get_terminal_size((80, 24)).columns, 120) - 2)
    text = render_state(reducer, log, seq, match, count, width)
    typer.echo("\n".join(shown(line, 2000) for line in text.split("\n")))
