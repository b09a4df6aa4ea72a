"""``dominolog verify``: check every match of log files (FORMAT.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import fail, store_or_fail
from dominolog.log.reader import PathError
from dominolog.verify import batch_gc, report_lines, verify_document, verify_paths


def verify(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Log files (JSON Lines) or folders (every *.jsonl in them); with --db, match ids (none: all).",
            show_default=False,
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Verify matches stored in this database instead of files (also each row's hash)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document (FORMAT.md's shape).")] = False,
) -> None:
    """Check every match: rules, scores, seq and hash chain. Exit 0 all valid, 1 any violation, 2 usage error."""
    if db is None and not paths:
        fail("give log files or folders to verify, or --db PATH for the store")
    try:
        with batch_gc():
            if db is not None:
                with store_or_fail(db, create=False) as store:
                    known = store.match_ids()
                    wanted = paths or known
                    missing = [m for m in wanted if m not in known]
                    if missing:
                        fail(f"{db}: no match {', '.join(missing)}")
                    reports = [store.verify(m) for m in wanted]
            else:
                reports = list(verify_paths([Path(p) for p in paths or []]))
    except PathError as exc:
        fail(str(exc), 2)
    if as_json:
        typer.echo(json.dumps(verify_document(reports), indent=2, ensure_ascii=False))
    else:
        for r in reports:
            for line in report_lines(r):
                typer.echo(line)
        valid = sum(r.valid for r in reports)
        unverified = sum(len(r.unverified) for r in reports)
        summary = f"{len(reports)} matches: {valid} valid, {len(reports) - valid} invalid"
        if unverified:
            summary += f"; {unverified} rules unverified (hidden tiles)"
        typer.echo(summary)
    if any(not r.valid for r in reports):
        raise typer.Exit(1)
