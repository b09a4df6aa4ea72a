"""``dominolog replay``: step through a match in the terminal (the Textual replay viewer)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import (
    MatchNumber,
    MatchStore,
    MatchTarget,
    MinLikelihood,
    db_name,
    fail,
    match_id_or_fail,
    match_of,
    read_matches,
    store_or_fail,
)
from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.analysis.shown import ShownReview
    from dominolog.log.reader import MatchLog
    from dominolog.tui.follow import Follower
    from dominolog.tui.matches import MatchSource

#: ``--analysis``: a review file to show beside the match
AnalysisFile = Annotated[
    Path | None,
    typer.Option(
        "--analysis",
        help="Show this analysis of the match (the JSON `dominolog analyze --format json` writes); it must be of "
        "this match as it stands. With --db, the analysis the store keeps for the match is shown without it.",
        metavar="REVIEW.json",
        show_default=False,
    ),
]


def analysis_or_fail(log: MatchLog, file: Path | None, db: str | None, match_id: str | None) -> ShownReview | None:
    """The analysis to show beside the match (:func:`dominolog.analysis.shown.analysis_for`), or exit 1
    saying in one line why ``file`` is not an analysis of this match; a kept one that cannot be read
    is said on stderr and left out."""
    from dominolog.analysis.shown import ReviewError, analysis_for

    try:
        review, warning = analysis_for(log, file, db, match_id)
    except ReviewError as exc:
        fail(str(exc), 1)
    if warning is not None:
        typer.echo(f"dominolog: {warning}", err=True)
    return review


def _store_analyses(db: str) -> Callable[[str, MatchLog], ShownReview | None]:
    """The analysis the store keeps for a match opened from the list (ctrl+o)."""

    def analysis(key: str, log: MatchLog) -> ShownReview | None:
        from dominolog.analysis.shown import analysis_for

        return analysis_for(log, None, db, key)[0]

    return analysis


def _file_analyses(review: ShownReview | None) -> Callable[[str, MatchLog], ShownReview | None]:
    """The analysis given with --analysis, for the match of the file it is of (ctrl+o)."""

    def analysis(key: str, log: MatchLog) -> ShownReview | None:
        from dominolog.analysis.shown import is_of

        return review if review is not None and is_of(review, log) else None

    return analysis


def _followed(target: str, db: str | None) -> tuple[MatchLog, Follower, str]:
    """The match to follow and who asks for its new events: a match of the store, or the last match
    of a file."""
    from dominolog.log.reader import MatchLog
    from dominolog.tui.follow import FileFollower, StoreFollower

    if db is not None:
        store = store_or_fail(db, create=False)
        match_id_or_fail(store, db, target)
        log = MatchLog(f"{store.path}#{target}", 1, [rec for rec, _ in store.records(target)])
        return log, StoreFollower(store, target, log), f"{db_name(db)}: match {shown(target, 100)}"
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
    analysis: AnalysisFile = None,
    min_likelihood: MinLikelihood = None,
) -> None:
    """Step through a match in the terminal: the table, the hands, the scores and every event,
    violations marked. With an analysis (kept in the store by `dominolog analyze --db`, or --analysis),
    the points each decision lost and the options of the decision shown (m: the next mistake).
    Keys are shown at the bottom (? lists them all)."""
    follower: Follower | None = None
    matches: MatchSource | None = None
    if follow and analysis is not None:
        fail("--analysis and --follow: a followed match grows, its analysis does not")
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
    review = None if follow else analysis_or_fail(log, analysis, db, target if db is not None else None)
    analyses = None
    if not follow:
        analyses = _store_analyses(db) if db is not None and analysis is None else _file_analyses(review)
    app = ReplayApp(
        log,
        title,
        at,
        follow=follower,
        matches=matches,
        current=current,
        analysis=review,
        analyses=analyses,
        min_likelihood=min_likelihood,
    )
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
