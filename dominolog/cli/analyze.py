"""``dominolog analyze``: every decision of a match ranked, Ghost 13 by the exact solver, the other
variants by sampling the deals the player on move could have faced (``--samples``, ``--seed``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dominolog.cli.common import (
    EveryMatch,
    MatchStore,
    MatchTargets,
    ReportFormat,
    ReportHand,
    fail,
    file_name_of,
    output_folder,
    read_matches,
    to_one_place,
    write_report,
)
from dominolog.jsontext import dumps
from dominolog.textsafe import shown

if TYPE_CHECKING:  # the analysis is imported when the command runs
    from collections.abc import Callable

    from dominolog.analysis.results import MatchReview
    from dominolog.log.reader import MatchLog


def _progress(total: int, unit: str):  # type: ignore[no-untyped-def]
    """A progress bar (when it takes a while) as :func:`~dominolog.analysis.run.review_match` reports."""
    from contextlib import contextmanager

    from dominolog.cli.progress import LateProgress

    @contextmanager
    def bar():  # type: ignore[no-untyped-def]
        with LateProgress(total, "analysing", unit=unit, rate_unit=None) as late:
            yield lambda n: late.advance(n, n, n)

    return bar()


def _review_of(
    log: MatchLog,
    where: str,
    hand: int | None,
    jobs: int,
    from_seq: int,
    last: int | None,
    samples: int,
    seed: int,
) -> MatchReview:
    """Analyse one match (a progress bar when it takes a while)."""
    from dominolog.analysis.run import NoSuchHand, review_match

    try:
        return review_match(log, hand, jobs, from_seq, last, samples, seed, _progress)
    except NoSuchHand:
        fail(f"{where} has no hand {hand}")


def _stored_reviews(
    db: str, ids: list[str], every: bool, analyse: Callable[[MatchLog, str], MatchReview], options: tuple[Any, ...]
) -> list[MatchReview]:
    """The reviews of the store's matches ``ids`` (or all): each kept one taken as it is, the others
    analysed and kept (unless the store is read-only here: then said once, on stderr)."""
    from dominolog.analysis.cache import settings_for
    from dominolog.analysis.run import kept_or_made
    from dominolog.cli.common import db_name, match_id_or_fail, store_or_fail

    out = []
    with store_or_fail(db, create=False, write=False) as store:
        rows = {r["id"]: r for r in store.list_matches()}
        if every:
            ids = sorted(rows)
            if not ids:
                fail(f"{db_name(db)}: the store holds no match")
        told = False
        for mid in ids:
            match_id_or_fail(store, db, mid)
            where = f"{db_name(db)}: match {shown(mid, 100)}"
            review, saved = kept_or_made(
                store, rows[mid], settings_for(rows[mid]["variant"], *options), lambda log, w=where: analyse(log, w)
            )
            if saved is False and not told:
                sys.stderr.write(f"dominolog: {db_name(db)} is read-only here: the analyses are not kept\n")
                told = True
            out.append(review)
    return out


def analyze(
    targets: MatchTargets = None,
    every: EveryMatch = False,
    match: Annotated[
        int | None, typer.Option("--match", min=1, help="Only this match of each file (1 = the first).")
    ] = None,
    db: MatchStore = None,
    hand: ReportHand = None,
    format: ReportFormat = "text",
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the report to this file (html of several matches: one page each into this folder).",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Analyse this many hands at once (processes).")] = 1,
    from_seq: Annotated[
        int, typer.Option("--from-seq", min=0, help="Only the decisions from this seq on (earlier moves are replayed).")
    ] = 0,
    last: Annotated[
        int | None, typer.Option("--last", min=0, help="Only each hand's last N decisions (the end game).")
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            min=1,
            max=10_000,
            help="Deals sampled at each decision (every variant but Ghost 13, which is solved exactly).",
        ),
    ] = 20,
    seed: Annotated[
        int, typer.Option("--seed", help="The seed of the sampling: the same seed gives the same review.")
    ] = 0,
) -> None:
    """Rank every decision of a match: each option's value in points, the move played, its rank and the
    points lost, then each player's figures. Ghost 13 is solved exactly (both hands known: dealt open,
    or made known by the reveals); the other variants are valued by sampling deals consistent with what
    the player on move knew (--samples, --seed) and playing each out. With --db the analyses are kept
    in the store (by the match's head, the analysis version and these settings): asked again, or shown
    by replay, audit and standings, they are not recomputed."""
    from dominolog.cli.common import match_of_file

    targets = targets or []
    if format not in ("text", "json", "html"):
        fail(f"--format {shown(format, 40)!r}: choose text, json or html")
    if not targets and not every:
        fail("give log files, or with --db match ids or --all")
    if every and db is None:
        fail("--all analyses every match of a store: give --db")
    if every and targets:
        fail("give match ids or --all, not both")
    options = (hand, from_seq, last, samples, seed)

    def analyse(log: MatchLog, where: str) -> MatchReview:
        if log.orphan:
            fail(f"{shown(log.source)}: not a match: no match_start line", 1)
        return _review_of(log, where, hand, jobs, from_seq, last, samples, seed)

    if db is not None:
        if match is not None:
            fail("--match picks a match of a file: with --db, name the match by its id")
        reviews = _stored_reviews(db, targets, every, analyse, options)
    else:
        reviews = []
        for target in targets:
            logs = read_matches(Path(target))
            if not logs:
                fail(f"{shown(target)}: no events in the file")
            if match is not None:
                logs = [match_of_file(Path(target), match)[0]]
            for k, log in enumerate(logs, start=match or 1):
                reviews.append(analyse(log, f"{shown(target)}: match {k}"))
    _report(reviews, format, out)


def _report(reviews: list[MatchReview], format: str, out: Path | None) -> None:
    said = "analysed" if any(r.note is None for r in reviews) else reviews[0].note or "analysed"
    if format == "json":
        from dominolog.analysis.luck import review_document

        doc = review_document(reviews[0]) if len(reviews) == 1 else {"reviews": [review_document(r) for r in reviews]}
        write_report(dumps(doc, indent=1) + "\n", out, said)
    elif format == "html":
        from dominolog.analysis.review_html import render_html

        if to_one_place(len(reviews), out):
            write_report(render_html(reviews[0]), out, said)
            return
        out = output_folder(out, f"{len(reviews)} matches analysed", "page", f"{len(reviews)} pages")
        names: set[str] = set()
        for r in reviews:
            name = page_name(r.match_id or Path(r.source).stem, names)
            write_report(render_html(r), out / name, "analysed")
    else:
        from dominolog.analysis.review_text import render_text

        write_report("\n".join(render_text(r) for r in reviews), out, said)


def page_name(match_id: str, taken: set[str]) -> str:
    """A file name for a match's page: its id with only safe characters, made unique."""
    base = file_name_of(match_id)
    name, n = f"{base}.analysis.html", 1
    while name in taken:
        n += 1
        name = f"{base}-{n}.analysis.html"
    taken.add(name)
    return name
