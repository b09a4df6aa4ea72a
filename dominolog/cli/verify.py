"""``dominolog verify``: check every match of log files (FORMAT.md), or of the store."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dominolog.cli.common import DB_METAVAR, MinLikelihood, fail, match_id_or_fail, store_or_fail
from dominolog.cli.progress import LateProgress
from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported when the command runs
    from dominolog.reducer import MatchReport


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
        str | None,
        typer.Option(
            "--db",
            metavar=DB_METAVAR,
            help="Verify matches stored in this database (a SQLite file, or a postgresql:// URL) instead of "
            "files (also each row's hash).",
        ),
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
    expect_head: Annotated[
        str | None,
        typer.Option(
            "--expect-head",
            help="A fingerprint copied from a score sheet, FP or FP@SEQ (the chain after event SEQ): "
            "each match must match it.",
            metavar="FP[@SEQ]",
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Check in this many processes (files at once, and a big file in parts of whole matches); the "
            "output is the same, in the same order.",
        ),
    ] = 1,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            help="Check the files on a Dask cluster, one task a file: its scheduler's address "
            "(tcp://HOST:8786), or local[:N] for N worker processes on this machine; the output is the same, "
            "in the same order (needs pip install 'dominolog[dask]').",
            metavar="ADDRESS|local[:N]",
            show_default=False,
        ),
    ] = None,
    min_likelihood: MinLikelihood = None,
) -> None:
    """Check every match: rules, scores, seq and hash chain. Exit 0 all valid, 1 any violation, 2 usage error."""
    if db is None and not paths:
        fail("give log files or folders to verify, or --db PATH for the store")
    if dask is not None:
        _check_dask(dask, db, jobs)
    if expect_head is not None:
        from dominolog.log.expect import ExpectError, parse_expect

        try:
            parse_expect(expect_head)
        except ExpectError as exc:
            fail(shown(str(exc), 300))
    from dominolog.build_info import described
    from dominolog.state import hidden_line
    from dominolog.verify import batch_gc, document_chunks, report_lines

    tally = _Tally(min_likelihood)
    # a rule left open is given its likelihood only where it is shown or weighed: the default lines
    # count such rules by reason, --quiet leaves them out
    likelihoods = as_json or verbose or min_likelihood is not None
    with batch_gc():
        reports = _reports(paths or [], db, expect_head, bar=not quiet, jobs=jobs, dask=dask, likelihoods=likelihoods)
        checked = tally.count(reports)
        if as_json:  # written a match at a time: no report is kept
            for chunk in document_chunks(_as_dicts(checked, min_likelihood is not None), described()):
                typer.echo(chunk, nl=False)
            typer.echo("")
        for r, expect, hidden in () if as_json else checked:
            lines = report_lines(r, verbose)
            if hidden and min_likelihood is not None:
                lines.append("  " + hidden_line(hidden, min_likelihood))
            if expect is not None:
                lines.append(f"  fingerprint {'OK' if expect['ok'] else 'MISMATCH'}: {expect['message']}")
            for line in lines[1:] if quiet else lines:
                if not (quiet and line.startswith("  ")) or line.startswith("  fingerprint MISMATCH"):
                    typer.echo(line)
    if not as_json and not quiet:
        summary = f"{tally.total} matches: {tally.valid} valid, {tally.total - tally.valid} invalid"
        if tally.unverified:
            summary += f"; {tally.unverified} rules unverified (hidden tiles)"
        if tally.hidden and min_likelihood is not None:
            summary += "; " + hidden_line(tally.hidden, min_likelihood)
        typer.echo(summary)
    if tally.valid != tally.total or tally.mismatched:
        raise typer.Exit(1)


class _Tally:
    """The counts of the summary and of the exit status, kept as the reports go by; with
    ``--min-likelihood`` (``least``), each report without its possible violations less likely than
    that, and how many were left out."""

    def __init__(self, least: float | None = None) -> None:
        self.least = least
        self.total = self.valid = self.unverified = self.mismatched = self.hidden = 0

    def count(
        self, reports: Iterator[tuple[MatchReport, dict[str, Any] | None]]
    ) -> Iterator[tuple[MatchReport, dict[str, Any] | None, int]]:
        from dominolog.verify import above

        for r, expect in reports:
            hidden = 0
            if self.least is not None:
                r, hidden = above(r, self.least)
            self.total += 1
            self.valid += r.valid
            self.unverified += len(r.unverified)
            self.hidden += hidden
            self.mismatched += expect is not None and not expect["ok"]
            yield r, expect, hidden


def _as_dicts(
    checked: Iterator[tuple[MatchReport, dict[str, Any] | None, int]], hiding: bool
) -> Iterator[dict[str, Any]]:
    """Each match as the JSON document has it (with ``expect`` when a fingerprint was checked, and
    ``unverified_hidden`` with ``--min-likelihood``)."""
    for r, expect, hidden in checked:
        d = r.as_dict()
        if hiding:
            d["unverified_hidden"] = hidden
        if expect is not None:
            d["expect"] = expect
        yield d


def _reports(
    paths: list[str],
    db: str | None,
    expect: str | None = None,
    bar: bool = True,
    jobs: int = 1,
    dask: str | None = None,
    likelihoods: bool = True,
) -> Iterator[tuple[MatchReport, dict[str, Any] | None]]:
    """The report of every match asked for, as :mod:`dominolog.verify_jobs` checks it (a progress bar on
    a terminal), with the fingerprint check of ``--expect-head``; no bar with ``bar`` False
    (``--quiet``); ``likelihoods`` False: the unverified rules without their likelihood. A path that
    cannot be read, or a Dask cluster that cannot be used, is exit 2."""
    from dominolog.log.reader import PathError
    from dominolog.verify_jobs import file_reports_all, files_and_sizes, stored_reports

    if db is not None:
        with store_or_fail(db, create=False) as store:
            wanted = [match_id_or_fail(store, db, m) for m in paths] if paths else store.match_ids()
            yield from stored_reports(store, wanted, expect, likelihoods)
        return
    try:
        files, sizes = files_and_sizes(paths)
        with LateProgress(sum(sizes), "verifying", enabled=bar) as progress:
            checked = file_reports_all(
                files, sizes, expect, jobs=jobs, dask=dask, advance=progress.advance, likelihoods=likelihoods
            )
            if dask is None:
                yield from checked
                return
            from dominolog.distributed import ClusterError

            try:
                yield from checked
            except ClusterError as exc:
                fail(shown(str(exc), 2000))
    except PathError as exc:
        fail(shown(str(exc), 2000))


def _check_dask(target: str, db: str | None, jobs: int) -> None:
    """Usage errors of ``--dask``, before anything is read (exit 2)."""
    from dominolog.distributed import ClusterError, parse_target

    if db is not None:
        fail("--dask checks log files; a store (--db) is checked on this machine: drop --dask or --db")
    if jobs != 1:
        fail("--dask and --jobs: give one (with --dask, the cluster's workers set how many files run at once)")
    try:
        parse_target(target)
    except ClusterError as exc:
        fail(shown(str(exc), 300))
