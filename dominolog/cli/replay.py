"""``dominolog replay``: step through a match in the terminal (the Textual replay viewer)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import MatchNumber, MatchStore, MatchTarget, fail, match_of


def replay(
    target: MatchTarget,
    match: MatchNumber = 1,
    db: MatchStore = None,
    at: Annotated[int | None, typer.Option("--at", min=1, help="Open at this event (seq); default: the first.")] = None,
) -> None:
    """Step through a match in the terminal: the table, the hands, the scores and every event,
    violations marked. Keys are shown at the bottom (? lists them all)."""
    log, count, where = match_of(target, match, db)
    name = Path(target).name
    title = target if db is not None else name if count == 1 else f"{name} #{match}/{count}"
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
