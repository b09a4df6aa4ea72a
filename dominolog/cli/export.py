"""``dominolog export``: matches out of the store or out of log files, as logs, CSV, JSON or pictures."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, fail, read_matches, store_or_fail
from dominolog.export import csv_rows, csv_text, scored_lines
from dominolog.layouts.grid import GridLayout
from dominolog.layouts.picture import line_as_grid, svg_picture, text_picture
from dominolog.log.reader import Record
from dominolog.reducer import MatchReducer, MatchReport
from dominolog.store import Store
from dominolog.verify import verify_document


class Format(StrEnum):
    jsonl = "jsonl"
    csv = "csv"
    json = "json"
    svg = "svg"
    text = "text"


class _Match:
    """A match to export: from a file (its records, read) or from the store (read when needed)."""

    def __init__(self, name: str, records: list[Record] | None = None, store: Store | None = None) -> None:
        self.name = name
        self._records = records
        self.store = store

    @property
    def records(self) -> list[Record]:
        if self._records is None:
            assert self.store is not None
            self._records = [rec for rec, _ in self.store.records(self.name)]
        return self._records

    def lines(self) -> list[bytes]:
        if self._records is None and self.store is not None:
            return list(self.store.lines(self.name))  # as stored, without decoding them
        return [r.data for r in self.records]


def _gather(targets: list[str], every: bool, db: Path) -> tuple[list[_Match], Store | None]:
    """The matches asked for: files as they are, match ids from the store."""
    out: list[_Match] = []
    ids = [t for t in targets if not Path(t).is_file()]
    store = store_or_fail(db, create=False) if ids or every else None
    for t in targets:
        if Path(t).is_file():
            out += [_Match(f"{t}:{log.line}", log.records) for log in read_matches(Path(t))]
    if store is not None:
        known = set(store.match_ids())
        for mid in ids:
            if mid not in known:
                fail(f"{mid}: no such file, and no such match in {db}")
        out += [_Match(mid, store=store) for mid in (sorted(known) if every else ids)]
    return out, store


def _report(name: str, records: list[Record]) -> MatchReport:
    reducer = MatchReducer(name, 1)
    for rec in records:
        reducer.feed(rec)
    return reducer.report()


def export(
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="Log files, or ids of matches in the store.", show_default=False),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every match in the store.")] = False,
    fmt: Annotated[
        Format | None,
        typer.Option(
            "--format",
            help="jsonl: the log as stored, byte for byte; csv: one row per hand; json: the verify document; "
            "svg or text: a picture of the table at --at. Default: svg with --at, else jsonl.",
            show_default=False,
        ),
    ] = None,
    scored: Annotated[
        bool, typer.Option("--scored", help="jsonl: hand_end and match_end claim what the rules give.")
    ] = False,
    at: Annotated[
        int | None, typer.Option("--at", min=1, help="svg/text: the table after this event (seq); default: the last.")
    ] = None,
    match: Annotated[
        int | None, typer.Option("--match", min=1, help="Only this match of the file (1 = the first).")
    ] = None,
    db: DbOption = DEFAULT_DB,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of standard output.")] = None,
) -> None:
    """Export matches from the store (ids, or --all) or from log files."""
    targets = targets or []
    if fmt is None:
        fmt = Format.svg if at is not None else Format.jsonl
    if not targets and not every:
        fail("give log files or match ids, or --all for every match in the store")
    matches, store = _gather(targets, every, db)
    if match is not None:
        if match > len(matches):
            fail(f"{targets[0] if targets else db}: there is no match {match} (it holds {len(matches)})")
        matches = [matches[match - 1]]
    if fmt in (Format.svg, Format.text):
        if not matches:
            fail(f"{targets[0] if targets else db}: no match to draw")
        data = _picture(matches[0].name, matches[0].records, at, fmt)
    elif fmt is Format.jsonl:
        lines: list[bytes] = []
        for m in matches:
            lines += list(scored_lines(m.records)) if scored else m.lines()
        data = b"".join(line + b"\n" for line in lines)
    elif fmt is Format.csv:
        data = csv_text(row for m in matches for row in csv_rows(m.name, _report(m.name, m.records))).encode()
    else:
        document = verify_document(_report(m.name, m.records) for m in matches)
        data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
    if store is not None:
        store.close()
    if out is None:
        typer.echo(data.decode("utf-8", "replace"), nl=False)
        return
    try:
        out.write_bytes(data)
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}")


def _picture(name: str, records: list[Record], at: int | None, fmt: Format) -> bytes:
    last = records[-1].seq if records else 0
    if at is not None and at > last:
        fail(f"{name}: the match has {last} events; there is no seq {at}")
    seq = at if at is not None else last
    reducer = MatchReducer(name, 1)
    for rec in records:
        if rec.seq > seq:
            break
        reducer.feed(rec)
    state = reducer.state
    hand = state.hand if state is not None else None
    if state is None or hand is None:
        fail(f"{name}: no hand is open at seq {seq} (between hands, or the match is over)")
    layout = hand.layout
    grid = layout if isinstance(layout, GridLayout) else line_as_grid(layout)
    if fmt is Format.text:
        return (text_picture(grid) + "\n").encode()
    title = f"{state.variant}: {' vs '.join(state.players)}, hand {hand.number}, after seq {seq}"
    ends = ", ".join(f"{s.name} {s.value}" for s in grid.open_sides()) if isinstance(layout, GridLayout) else ""
    return svg_picture(grid, title, f"open ends: {ends}" if ends else "").encode()
