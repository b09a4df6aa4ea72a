"""``dominolog standings``: the club's standings and ratings over many matches, from log files or the store."""

from __future__ import annotations

import os
import shutil
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import DB_METAVAR, DEFAULT_DB, fail, read_matches, store_or_fail
from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported when the command runs
    from dominolog.club.standings import Analysed, FairPlayWeights
    from dominolog.club.summary import MatchSummary
    from dominolog.log.reader import MatchLog


class Format(StrEnum):
    text = "text"
    csv = "csv"
    json = "json"
    html = "html"


SUFFIXES = {".txt": "text", ".csv": "csv", ".json": "json", ".html": "html", ".htm": "html"}


def _from_files(paths: list[Path], fair: dict[str, FairPlayWeights] | None = None) -> list[MatchSummary]:
    from dominolog.club.standings import match_summary
    from dominolog.log.reader import PathError, expand_paths
    from dominolog.store import match_id_of

    try:
        files = expand_paths(paths)
    except PathError as exc:
        fail(shown(str(exc), 2000))
    out: list[MatchSummary] = []
    heads: set[str] = set()
    twice = 0
    for f in files:
        for log in read_matches(f):
            if not log.records:
                continue
            s = match_summary(f"{f}:{log.line}", log.records, f"{f}:{log.line}")
            s.match_id = match_id_of(log, s.head)
            if s.head in heads:  # the same match given twice (two copies of a file): counted once
                twice += 1
                continue
            heads.add(s.head)
            out.append(s)
            if fair is not None:
                fair[s.head] = _weights(log)
    if twice:
        typer.echo(f"dominolog: {twice} match{'es' * (twice != 1)} given twice, counted once", err=True)
    return out


def _weights(log: MatchLog) -> FairPlayWeights:
    """A match's fair-play weights (``--fairplay``): each player's hands, as the audit weighs them."""
    from dominolog.audit.fairplay import match_weights

    return match_weights(log)


def _store_weights(db: str, summaries: list[MatchSummary]) -> dict[str, FairPlayWeights]:
    """Each stored match's fair-play weights, by its head (``--fairplay`` with the store)."""
    from dominolog.audit.fairplay import store_weights

    with store_or_fail(db, create=False, write=False) as store:
        return dict(store_weights(store, [(s.match_id, s.head) for s in summaries]))


#: ``--loss`` with log files
NEEDS_A_STORE = "--loss: analyses are kept in a store: dominolog analyze ID --db DB"


def _from_store(db: str, loss: bool = False) -> tuple[list[MatchSummary], dict[str, Analysed]]:
    """Every match of the store, and with ``loss`` the analysis it keeps of each (at the match's head)."""
    from dominolog.club.standings_query import store_summaries

    with store_or_fail(db, create=False, write=False) as store:
        out, analyses, warnings = store_summaries(store, loss)
    for warning in warnings:
        typer.echo(f"dominolog: {warning}", err=True)
    return out, analyses


def standings_cmd(
    files: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Log files (JSON Lines, or the .dn notation) or folders; none: every match of the store.",
            show_default=False,
            metavar="FILE",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar=DB_METAVAR,
            help="The match store to read when no file is given (a SQLite file, or a postgresql:// URL). "
            "Default: DOMINOLOG_DB, else dominolog.db.",
            show_default=False,
        ),
    ] = None,
    variant: Annotated[str | None, typer.Option(help="Only matches of this variant.", show_default=False)] = None,
    meta: Annotated[
        list[str] | None,
        typer.Option(
            "--meta",
            help="Only matches whose match_start meta has KEY=VALUE (repeat: all must hold), e.g. --meta table=3.",
            show_default=False,
        ),
    ] = None,
    since: Annotated[
        str | None, typer.Option(help="Only matches played on or after this date (YYYY-MM-DD).", show_default=False)
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="Only matches played on or before this date (YYYY-MM-DD).", show_default=False)
    ] = None,
    include_invalid: Annotated[
        bool,
        typer.Option(
            "--include-invalid",
            help="Count matches with violations too (their scores as the rules give them); "
            "by default they are only counted apart.",
        ),
    ] = False,
    fmt: Annotated[
        Format | None,
        typer.Option(
            "--format",
            help="text: tables per variant; csv: one row per player (and partnership) per variant; "
            "json: one document (schemas/standings.schema.json); html: a page with the tables and "
            "rating charts. Default: from the suffix of --out, else text.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write to this file instead of standard output.", show_default=False)
    ] = None,
    loss: Annotated[
        bool,
        typer.Option(
            "--loss",
            help="Add each player's points lost per choice, analysed choices and accuracy, over the counted matches "
            "the store keeps an analysis of (dominolog analyze ID --db DB); needs the store.",
        ),
    ] = False,
    fairplay: Annotated[
        bool,
        typer.Option(
            "--fairplay",
            help="Add each player's evidence of reneging over the season (every match of the table, as filtered) "
            "and by event, and the hands and turns it rests on (docs/audit.md, Evidence of reneging): evidence, "
            "not a finding. Audits every match: slower.",
        ),
    ] = False,
) -> None:
    """Standings over many matches, one table per variant: each player's (and partnership's) matches
    won, lost, drawn and abandoned, hands won, points for and against, play figures and an OpenSkill
    rating (one pool per variant, players ordered by mu - 3 sigma). Matches with violations are counted
    apart unless --include-invalid. With --loss, each player's points lost per choice and accuracy by
    the analyses the store keeps. Exit 0 (also when no match is left: the output then says so),
    1 a store that is damaged, 2 a usage error."""
    if files and db is not None:
        fail("give log files or --db, not both")
    if files and loss:
        fail(NEEDS_A_STORE)
    from dominolog.club.standings import standings
    from dominolog.club.standings_query import filters_of, rendered

    try:
        filters = filters_of(variant, meta, since, until)
    except ValueError as exc:
        fail(str(exc))
    if fmt is None:
        by_suffix = SUFFIXES.get(out.suffix.lower()) if out is not None else None
        fmt = Format(by_suffix) if by_suffix else Format.text
    analyses = None
    fair: dict[str, FairPlayWeights] | None = {} if fairplay else None
    if files:
        summaries = _from_files(files, fair)
    else:
        store_path = db if db is not None else os.environ.get("DOMINOLOG_DB") or DEFAULT_DB
        summaries, analyses = _from_store(store_path, loss)
        if fairplay:
            fair = _store_weights(store_path, summaries)
    result = standings(summaries, filters, include_invalid, analyses if loss else None, fair)
    width = shutil.get_terminal_size((100, 24)).columns if out is None and sys.stdout.isatty() else 100
    text = rendered(result, fmt.value, width)
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{shown(out)}: cannot write: {exc.strerror or exc}")
    typer.echo(f"standings of {result.matches} match{'es' * (result.matches != 1)} -> {shown(out)}", err=True)
