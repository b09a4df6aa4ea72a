"""``dominolog verify``: check every match of log files (FORMAT.md), or of the store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import fail, match_id_or_fail, store_or_fail
from dominolog.cli.progress import LateProgress
from dominolog.log.reader import PathError, expand_paths
from dominolog.recording.notation import iter_matches_any
from dominolog.reducer import MatchReport, verify_match
from dominolog.store import verify_stored
from dominolog.textsafe import shown
from dominolog.verify import batch_gc, report_lines, verify_document


def verify(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Log files (JSON Lines, or the .dn notation) or folders (every *.jsonl and *.dn in them); "
            "with --db, match ids (none: all).",
            show_default=False,
            metavar="PATH",
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Verify matches stored in this database instead of files (also each row's hash)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON document (docs/format.md, section 7).")
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="List every rule hidden tiles kept from being checked.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only the violations: no match lines, no summary.")
    ] = False,
) -> None:
    """Check every match: rules, scores, seq and hash chain. Exit 0 all valid, 1 any violation, 2 usage error."""
    if db is None and not paths:
        fail("give log files or folders to verify, or --db PATH for the store")
    valid = total = unverified = 0
    reports: list[MatchReport] = []
    with batch_gc():
        for r in _reports(paths or [], db):
            total += 1
            valid += r.valid
            unverified += len(r.unverified)
            if as_json:
                reports.append(r)
                continue
            lines = report_lines(r, verbose)
            for line in lines[1:] if quiet else lines:
                if not (quiet and line.startswith("  ")):
                    typer.echo(line)
    if as_json:
        typer.echo(json.dumps(verify_document(reports), indent=2, ensure_ascii=False))
    elif not quiet:
        summary = f"{total} matches: {valid} valid, {total - valid} invalid"
        if unverified:
            summary += f"; {unverified} rules unverified (hidden tiles)"
        typer.echo(summary)
    if valid != total:
        raise typer.Exit(1)


def _reports(paths: list[str], db: Path | None) -> Iterator[MatchReport]:
    """The report of every match asked for, as each is checked (a progress bar on a terminal)."""
    if db is not None:
        with store_or_fail(db, create=False) as store:
            wanted = [match_id_or_fail(store, db, m) for m in paths] if paths else store.match_ids()
            for m in wanted:
                yield verify_stored(store, m)
        return
    try:
        files = expand_paths(paths)
        size = sum(f.stat().st_size for f in files if f.is_file())
        with LateProgress(size, "verifying") as progress:
            for f in files:
                for log in iter_matches_any(f):
                    progress.advance(sum(len(r.data) + 1 for r in log.records), len(log.records))
                    yield verify_match(log)
    except PathError as exc:
        fail(shown(str(exc), 2000))
