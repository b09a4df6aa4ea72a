"""``dominolog replay``: step through a match in the terminal (the Textual replay viewer)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import (
    MatchNumber,
    MatchStore,
    MatchTarget,
    fail,
    match_id_or_fail,
    match_of,
    read_matches,
    store_or_fail,
)
from dominolog.log.reader import MatchLog
from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.tui.follow import Follower
    from dominolog.tui.matches import MatchSource


def _followed(target: str, db: Path | None) -> tuple[MatchLog, Follower, str]:
    """The match to follow and who asks for its new events: a match of the store, or the last match
    of a file."""
    from dominolog.tui.follow import FileFollower, StoreFollower

    if db is not None:
        store = store_or_fail(db, create=False)
        match_id_or_fail(store, db, target)
        log = MatchLog(f"{db}#{target}", 1, [rec for rec, _ in store.records(target)])
        return log, StoreFollower(store, target, log), f"{shown(db)}: match {shown(target, 100)}"
    path = Path(target)
    logs = read_matches(path)
    if not logs:
        fail(f"{shown(path)}: no events in the file")
    return logs[-1], FileFollower(path, logs[-1]), f"{shown(target)}: match {len(logs)}"


def replay(
    target: MatchTarget,
    match: MatchNumber = 1,
    db: MatchStore = None,
    at: Annotated[int | None, typer.Option("--at", min=1, help="Open at this event (seq); default: the first.")] = None,
    follow: Annotated[
        bool,
        typer.Option(
            "--follow",
            help="Show the match as it is recorded: new events appear within a second (a file: its last match); "
            "opens at the newest event.",
        ),
    ] = False,
) -> None:
    """Step through a match in the terminal: the table, the hands, the scores and every event,
    violations marked. Keys are shown at the bottom (? lists them all)."""
    follower: Follower | None = None
    matches: MatchSource | None = None
    if follow:
        log, follower, where = _followed(target, db)
        count = 1
    elif db is not None:
        from dominolog.tui.matches import StoreMatches  # no Textual: only the match list's sources

        log, count, where = match_of(target, match, db)
        matches = StoreMatches(db)
    else:
        from dominolog.tui.matches import FileMatches

        logs = read_matches(Path(target))
        if not logs:
            fail(f"{shown(target)}: no events in the file")
        if match > len(logs):
            fail(f"{shown(target)}: there is no match {match} (the file holds {len(logs)})")
        log, count, where = logs[match - 1], len(logs), f"{shown(target)}: match {match}"
        matches = FileMatches(Path(target), logs)
    name = Path(target).name
    title = target if db is not None else name if count == 1 else f"{name} #{match}/{count}"
    if not log.records:
        fail(f"{where}: the match has no events")
    last = log.records[-1].seq
    if at is not None and at > last:
        fail(f"{where} has {last} events; there is no seq {at}")
    if follow and at is None:
        at = last
    from dominolog.tui.app import ReplayApp  # Textual is imported only when a replay is opened

    current = target if db is not None else str(match)
    app = ReplayApp(log, title, at, follow=follower, matches=matches, current=current)
    # the match's states are built and never freed while the app runs: keep the collector from
    # scanning them again and again (a full collection of 2,000 states is a visible pause)
    gc.collect()
    gc.freeze()
    try:
        app.run()
    finally:
        if follower is not None:
            follower.close()
    if app.return_code:  # the viewer failed (Textual has printed why)
        fail(f"the replay viewer stopped on an error (exit status {app.return_code})", app.return_code)
