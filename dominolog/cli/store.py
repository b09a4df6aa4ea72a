"""The store commands: ``import``, ``list``, ``reindex``."""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, db_name, fail, store_or_fail
from dominolog.cli.progress import LateProgress
from dominolog.jsontext import dumps
from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported when the command runs
    from dominolog.log.parts import Part
    from dominolog.log.reader import MatchLog
    from dominolog.store import ImportResult, Prepared


def import_(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Log files (JSON Lines, or the .dn notation) or folders (every *.jsonl and *.dn).",
            show_default=False,
        ),
    ],
    db: DbOption = DEFAULT_DB,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors: no progress, no summary.")] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Read and check in this many processes (files at once, and a big file in parts of whole "
            "matches); one process writes the store, in the files' order: the same matches stored, the same "
            "messages.",
        ),
    ] = 1,
) -> None:
    """Store every match of the files, each in one transaction. Matches already stored (the same id and
    the same lines) are skipped; the same id with other lines is a conflict (exit 1). Matches with
    violations are stored too (the log is what happened at the table) and marked invalid. A match of a
    .dn file that the notation cannot read (a notation error) is not stored. A store that fails under
    the import (the server stops, the disk fills up) is exit 2, what was committed before staying."""
    from dominolog.log.reader import PathError, expand_paths
    from dominolog.store import DamagedStoreError, StoreError
    from dominolog.store.errors import database_failure
    from dominolog.verify import batch_gc

    try:
        files = list(expand_paths(paths))
    except PathError as exc:
        fail(shown(str(exc), 2000))
    store = store_or_fail(db)
    results: list[ImportResult] = []
    total_bytes = sum(f.stat().st_size for f in files)
    start = time.perf_counter()
    with store, batch_gc(), LateProgress(total_bytes, "importing", enabled=not quiet) as progress:
        for logs, failed in _read_files(files, jobs, progress.advance):
            try:
                results.extend(store.import_matches(logs))
                results.extend(failed)
            except StoreError as exc:  # the store itself cannot be written (locked, damaged): stop here
                progress.stop()
                fail(shown(str(exc), 2000), 1 if isinstance(exc, DamagedStoreError) else 2)
            except store.db_errors as exc:  # the database failed under the import (a server gone, a disk full)
                progress.stop()
                failed = database_failure(exc, str(store.path))
                fail(
                    shown(f"{failed}; the matches committed before stay stored, importing again stores the rest", 2000),
                    1 if isinstance(failed, DamagedStoreError) else 2,
                )
            except PathError as exc:
                progress.stop()
                fail(shown(str(exc), 2000))
    elapsed = time.perf_counter() - start
    imported = [r for r in results if r.status == "imported"]
    events = sum(r.events for r in imported)
    for r in results:
        where = f"{shown(r.source)}:{r.line}"
        if r.status in ("failed", "conflict"):
            typer.echo(f"{where}: {r.status}: {shown(r.reason, 400)}", err=True)
        elif r.status == "imported" and not r.valid and not quiet:
            typer.echo(f"{where}: stored {shown(r.match_id)} (invalid: `dominolog verify --db` tells why)")
    if not quiet:
        rate = f", {events / elapsed:,.0f} events/s" if elapsed > 0 and events else ""
        counts = Counter(r.status for r in results)
        invalid = sum(not r.valid for r in imported)
        parts = [f"{len(imported)} stored" + (f" ({invalid} invalid)" if invalid else "")]
        parts.append(f"{counts['skipped']} already there")
        for status in ("conflict", "failed"):
            if counts[status]:
                parts.append(f"{counts[status]} {status}")
        typer.echo(f"{', '.join(parts)}; {events:,} events in {elapsed:.2f} s{rate} -> {db_name(db)}")
    if any(r.status in ("failed", "conflict") for r in results):
        raise typer.Exit(1)


def _advancing(logs: Iterator[MatchLog], advance: Callable[[int, int], object]) -> Iterator[MatchLog]:
    """The matches of a file, moving the progress bar by each one's bytes and events as it is read."""
    for log in logs:
        advance(sum(len(r.data) + 1 for r in log.records), len(log.records))
        yield log


def _storable(logs: Iterator[MatchLog], failed: list[ImportResult]) -> Iterator[MatchLog]:
    """The matches that can be stored; one failed result for each with a notation error."""
    from dominolog.recording.notation import notation_errors
    from dominolog.store import ImportResult

    for log in logs:
        errors = notation_errors(log)
        if not errors:
            yield log
            continue
        n = len(errors) - 1
        more = f" (and {n} more notation error{'s' * (n != 1)})" if n else ""
        reason = f"{errors[0]}{more}; the match is not stored"
        failed.append(ImportResult(log.source, log.line, None, "failed", len(log.records), False, reason))


def _matches_of(path: Path) -> Iterator[MatchLog]:
    from dominolog.log.reader import iter_matches
    from dominolog.recording.notation import is_dn, iter_matches_dn

    return iter_matches_dn(path) if is_dn(path) else iter_matches(path)


def _prepared_part(path: Path, part: Part | None) -> tuple[list[Prepared], list[ImportResult]]:
    """Every match of one file, or of a part of it, folded for storing (what a worker process of
    ``import --jobs`` runs)."""
    from dominolog.store import prepare_import
    from dominolog.verify import batch_gc, part_matches

    failed: list[ImportResult] = []
    logs = _matches_of(path) if part is None else part_matches(path, part)
    with batch_gc():
        return [prepare_import(log) for log in _storable(logs, failed)], failed


def _read_files(
    files: list[Path], jobs: int, advance: Callable[[int, int], object]
) -> Iterator[tuple[Iterable[MatchLog | Prepared], list[ImportResult]]]:
    """Each file (or part of a big file) with its matches to store (as read, or with ``jobs`` > 1 folded
    in other processes, a few parts ahead) and the failed results of its notation errors (complete once
    its matches are used)."""
    from dominolog.verify import file_parts, task_bytes

    tasks = file_parts(files, jobs) if jobs > 1 else []
    if len(tasks) <= 1:
        for f in files:
            failed: list[ImportResult] = []
            yield _advancing(_storable(_matches_of(f), failed), advance), failed
        return
    from concurrent.futures import Future, ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        ahead: deque[tuple[Path, Part | None, Future[tuple[list[Prepared], list[ImportResult]]]]] = deque()
        queue = iter(tasks)
        for f, part in itertools.islice(queue, 2 * jobs):
            ahead.append((f, part, pool.submit(_prepared_part, f, part)))
        while ahead:
            f, part, future = ahead.popleft()
            prepared, failed = future.result()
            for nxt, nxt_part in itertools.islice(queue, 1):
                ahead.append((nxt, nxt_part, pool.submit(_prepared_part, nxt, nxt_part)))
            advance(task_bytes(f, part), sum(len(p.rows) for p in prepared))
            yield prepared, failed


class Status(StrEnum):
    complete = "complete"
    open = "open"
    invalid = "invalid"


def list_(
    db: DbOption = DEFAULT_DB,
    variant: Annotated[str | None, typer.Option(help="Only this variant.")] = None,
    player: Annotated[str | None, typer.Option(help="Only matches this player played.")] = None,
    status: Annotated[
        Status | None,
        typer.Option(help="Only this status: complete, open (still being recorded) or invalid.", show_default=False),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON document instead of a table.")] = False,
) -> None:
    """The stored matches: id, variant, players, status, hands, totals, winner, and the head
    fingerprint (the first 10 characters of the head hash, as the recorder shows it for the paper sheet)."""
    from dominolog.club.summary import listed_matches
    from dominolog.recording.session import FINGERPRINT

    with store_or_fail(db, create=False) as store:
        if as_json:
            rows = listed_matches(store, variant, player, status.value if status else None)
        else:
            rows = store.list_matches(variant, player, status.value if status else None)
    if as_json:
        typer.echo(dumps({"matches": rows}, indent=2))
        return
    table = [("id", "variant", "players", "status", "hands", "totals", "winner", "head")]
    for r in rows:
        totals = json.loads(r["totals"] or "{}")
        winner = json.loads(r["winner"]) if r["winner"] else None
        table.append(
            tuple(
                shown(c, 60)
                for c in (
                    r["id"],
                    r["variant"] or "?",
                    ", ".join(json.loads(r["players"] or "[]")),
                    r["status"],
                    str(r["hands"]),
                    ", ".join(f"{p} {v}" for p, v in totals.items()),
                    "+".join(winner) if isinstance(winner, list) else winner or "-",
                    (r["head"] or "")[:FINGERPRINT],
                )
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    typer.echo(f"{len(rows)} match{'es' * (len(rows) != 1)}")


def reindex(db: DbOption = DEFAULT_DB) -> None:
    """Rebuild the projections (matches, hands) from the events alone."""
    from dominolog.store import StoreError

    with store_or_fail(db, create=False, write=True) as store:
        try:
            n = store.reindex()
        except StoreError as exc:
            fail(shown(str(exc), 2000))
    typer.echo(f"reindexed {n} match{'es' * (n != 1)} from the events -> {db_name(db)}")
