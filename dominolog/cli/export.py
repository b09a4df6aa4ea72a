"""``dominolog export``: matches out of the store or out of log files, as logs, CSV, JSON, pictures or score
sheets (HTML, with the audit report of a match that breaks the rules beside each)."""

from __future__ import annotations

import os
import shlex
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated
from urllib.parse import quote

import typer

from dominolog.cli.common import (
    DB_METAVAR,
    DEFAULT_DB,
    EveryMatch,
    MatchTargets,
    db_name,
    fail,
    file_name_of,
    is_db_url,
    match_id_or_fail,
    output_folder,
    read_matches,
    store_or_fail,
    to_one_place,
)
from dominolog.textsafe import shown

if TYPE_CHECKING:  # imported when the command runs
    from collections.abc import Iterable

    from dominolog.log.reader import MatchLog, Record
    from dominolog.store import Store


class Format(StrEnum):
    jsonl = "jsonl"
    csv = "csv"
    json = "json"
    svg = "svg"
    text = "text"
    dn = "dn"
    html = "html"


class _Match:
    """A match to export: from a file (its records, read) or from the store (read when needed)."""

    def __init__(
        self,
        name: str,
        records: list[Record] | None = None,
        store: Store | None = None,
        slug: str | None = None,
        log: MatchLog | None = None,
        audit_args: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self._records = records
        self.store = store
        self.slug = slug or name  # what its picture's file is named after
        self.log = log  # the file's match as read (None: a match of the store)
        self.audit_args = audit_args  # how ``dominolog audit`` is told this match

    @property
    def records(self) -> list[Record]:
        """The match's records; a stored match's are read again each time (not kept: an export of a
        whole store holds one match at a time)."""
        if self._records is None:
            assert self.store is not None
            return [rec for rec, _ in self.store.records(self.name)]
        return self._records

    def lines(self) -> list[bytes]:
        if self._records is None and self.store is not None:
            return list(self.store.lines(self.name))  # as stored, without decoding them
        return [r.data for r in self.records]


def _gather(targets: list[str], every: bool, db: str | None) -> tuple[list[_Match], Store | None]:
    """The matches asked for. With ``--db`` every target is a match id of that store; without it a
    target that is a file is read as a log, and any other is an id of the default store."""
    out: list[_Match] = []
    store_path = db if db is not None else os.environ.get("DOMINOLOG_DB") or DEFAULT_DB
    ids = targets if db is not None else [t for t in targets if not Path(t).is_file()]
    if ids and db is None and not is_db_url(store_path) and not Path(store_path).exists():
        fail(f"{shown(ids[0], 200)}: no such file (and no store {db_name(store_path)} to find it as a match id)")
    store = store_or_fail(store_path, create=False) if ids or every else None
    if db is None:
        for t in targets:
            if Path(t).is_file():
                out += [
                    _Match(
                        f"{t}:{log.line}",
                        log.records,
                        slug=f"{Path(t).stem}-{log.line}",
                        log=log,
                        audit_args=(t, "--match", str(k)),
                    )
                    for k, log in enumerate(read_matches(Path(t)), 1)
                ]
    if store is not None:
        for mid in ids:
            match_id_or_fail(store, store_path, mid)
        out += [
            _Match(mid, store=store, audit_args=(mid, "--db", str(store.path)))
            for mid in (store.match_ids() if every else ids)
        ]
    return out, store


#: the format an ``--out`` file's suffix asks for
SUFFIXES = {
    ".svg": "svg",
    ".txt": "text",
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".dn": "dn",
    ".html": "html",
    ".htm": "html",
}


def export(
    targets: MatchTargets = None,
    every: EveryMatch = False,
    fmt: Annotated[
        Format | None,
        typer.Option(
            "--format",
            help="jsonl: the log as stored, byte for byte; csv: one row per hand; json: the verify document; "
            "svg or text: a picture of the table at --at (default: as the match ended); "
            "dn: the written notation (docs/notation.md), every event as the log has it; "
            "html: a printable score sheet per match (hands, points, running totals, fingerprints, chart), "
            "with the audit report beside it (NAME.audit.html) for a match with violations. "
            "Default: from the suffix of --out, else svg with --at, else jsonl.",
            show_default=False,
        ),
    ] = None,
    scored: Annotated[
        bool, typer.Option("--scored", help="jsonl: hand_end and match_end claim what the rules give.")
    ] = False,
    long: Annotated[
        bool, typer.Option("--long", help="csv: one row per hand and player (tidy data for pandas or R).")
    ] = False,
    at: Annotated[
        int | None, typer.Option("--at", min=1, help="svg/text: the table after this event (seq); default: the last.")
    ] = None,
    match: Annotated[
        int | None, typer.Option("--match", min=1, help="Only this match of the file (1 = the first).")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar=DB_METAVAR,
            help="The match store (a SQLite file, or a postgresql:// URL); the arguments are then match ids. "
            "Default: DOMINOLOG_DB, else dominolog.db.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write to this file instead of standard output (pictures or score sheets of several matches: "
            "one file each into this folder).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Export matches from the store (ids, or --all) or from log files."""
    from dominolog.export import export_chunks
    from dominolog.recording.notation import NotationWriteError

    targets = targets or []
    if fmt is None:
        by_suffix = SUFFIXES.get(out.suffix.lower()) if out is not None else None
        fmt = Format(by_suffix) if by_suffix else Format.svg if at is not None else Format.jsonl
    if not targets and not every:
        fail("give log files or match ids, or --all for every match in the store")
    if long and fmt is not Format.csv:
        fail(f"--long gives one CSV row per hand and player: it works with --format csv, not {fmt.value}")
    if scored and fmt is not Format.jsonl:
        fail(f"--scored rewrites the log's claims: it works with --format jsonl, not {fmt.value}")
    if at is not None and fmt not in (Format.svg, Format.text):
        fail(f"--at picks the event to draw: it works with --format svg or text, not {fmt.value}")
    matches, store = _gather(targets, every, db)
    if match is not None:
        if match > len(matches):
            where = shown(targets[0]) if targets else db_name(db or DEFAULT_DB)
            fail(f"{where}: there is no match {match} (it holds {len(matches)})")
        matches = [matches[match - 1]]
    if fmt in (Format.svg, Format.text):
        _pictures(matches, at, fmt, out)
        if store is not None:
            store.close()
        return
    if fmt is Format.html:
        _sheets(matches, out)
        if store is not None:
            store.close()
        return
    try:
        chunks = export_chunks(matches, fmt.value, scored, long)
    except NotationWriteError as exc:
        if store is not None:
            store.close()
        fail(f"cannot write the notation: {shown(str(exc), 2000)}", 1)
    try:
        _write_chunks(chunks, out)
    finally:
        if store is not None:
            store.close()


def _write(data: bytes, out: Path | None) -> None:
    _write_chunks([data], out)


def _write_chunks(chunks: Iterable[bytes], out: Path | None) -> None:
    """Standard output, or the file ``out`` through a temporary file beside it, renamed once whole (an
    export that fails half way leaves no half-written file, and an older file as it was)."""
    if out is None:
        write = sys.stdout.buffer.write
        for chunk in chunks:
            write(chunk)
        sys.stdout.buffer.flush()
        return
    part = out.with_name(f".{out.name}.{os.getpid()}.part")
    try:
        with open(part, "wb") as fh:
            fh.writelines(chunks)
        os.replace(part, out)
    except OSError as exc:
        part.unlink(missing_ok=True)
        fail(f"{shown(out)}: cannot write: {exc.strerror or exc}")
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def _pictures(matches: list[_Match], at: int | None, fmt: Format, out: Path | None) -> None:
    """One picture, to ``out`` or standard output; several, one file each into the folder ``out``."""
    if not matches:
        fail("no match to draw")
    if to_one_place(len(matches), out):
        _write(_picture(matches[0].name, matches[0].records, at, fmt), out)
        return
    many = f"{len(matches)} matches to draw"
    out = output_folder(out, many, "picture", many)
    suffix = ".svg" if fmt is Format.svg else ".txt"
    for m in matches:
        _write(_picture(m.name, m.records, at, fmt), out / (file_name_of(m.slug) + suffix))
    typer.echo(f"{len(matches)} pictures -> {shown(out)}", err=True)


def _picture(name: str, records: list[Record], at: int | None, fmt: Format) -> bytes:
    from dominolog.export import NoPicture, table_picture

    try:
        return table_picture(name, records, at, svg=fmt is Format.svg).encode()
    except NoPicture as exc:
        fail(str(exc))


def _sheets(matches: list[_Match], out: Path | None) -> None:
    """One score sheet, to ``out`` or standard output; several, one file each into the folder ``out``.
    Beside a sheet written to a file, the audit report of a match with violations (``NAME.audit.html``)."""
    if not matches:
        fail("no match for a score sheet")
    if to_one_place(len(matches), out):
        m = matches[0]
        if out is None:
            hint = shlex.join(["dominolog", "audit", *m.audit_args, "--format", "html", "--out"])
            _write(_sheet(m, None, f"{hint} {shlex.quote(file_name_of(m.slug) + '.audit.html')}")[0], None)
        else:
            _write(_sheet(m, out.with_name(out.stem + ".audit.html"), None)[0], out)
        return
    out = output_folder(out, f"{len(matches)} matches", "score sheet", f"{len(matches)} score sheets")
    audits = 0
    for m in matches:
        name = file_name_of(m.slug)
        page, audited = _sheet(m, out / (name + ".audit.html"), None)
        _write(page, out / (name + ".html"))
        audits += audited
    typer.echo(f"{len(matches)} score sheets ({audits} with an audit report) -> {shown(out)}", err=True)


def _sheet(m: _Match, audit: Path | None, hint: str | None) -> tuple[bytes, bool]:
    """The score sheet of a match; for a match with violations, its audit report written to ``audit``
    (then linked from the sheet by its file name), else the command that makes it (``hint``); and whether
    the audit report was written."""
    from dominolog.club.sheet import render_sheet, sheet_summary
    from dominolog.log.reader import MatchLog

    records = m.records
    log = m.log or MatchLog(f"{m.store.path}#{m.name}" if m.store is not None else m.name, 1, records)
    summary = sheet_summary(records, m.name, m.name if m.log is None else None)
    href = None
    if summary.violations and not log.orphan:
        if audit is not None:
            from dominolog.audit.document import build_audit
            from dominolog.audit.html import render_html

            try:
                audit.write_text(render_html(build_audit(log, pictures=True)), encoding="utf-8")
            except OSError as exc:
                fail(f"{shown(audit)}: cannot write the audit report: {exc.strerror or exc}")
            href = quote(audit.name)
    else:
        hint = None
    page = render_sheet(summary, href, hint)
    return page.encode("utf-8"), href is not None
