"""Exporting matches: the log as stored, the scored log, one CSV row per hand, the verify document."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

import orjson

from dominolog.log.hashchain import add_hashes
from dominolog.log.reader import Record
from dominolog.log.writer import dump_line
from dominolog.reducer import MatchReducer, MatchReport
from dominolog.reducer.claims import fmt_points, fmt_winner

SEATS = 4


def _claim_words(points: dict[str, int] | None, winner: Any) -> str:
    """A claim as a person reads it: ``Ana 0, Ben 11, winner Ana``."""
    parts = [fmt_points(points)] if points is not None else ["no points"]
    parts.append(f"winner {fmt_winner(winner)}" if winner is not ... else "no winner written")
    return ", ".join(parts)


def scored_lines(records: list[Record]) -> Iterator[bytes]:
    """The log with every ``hand_end`` and ``match_end`` claiming what the rules give.

    The scored log stays honest about what the table wrote: each claim it replaces is named in a
    ``note`` ("rescored hand 2: the table wrote Ana 0, Ben 11, winner Ana; the rules give Ana 0,
    Ben 16, winner Ana"), the notes together just before ``match_end`` (at the end when there is
    none, so every event of the hands keeps its seq), and ``match_start`` gets ``meta.rescored``
    saying how many claims were replaced. Other lines are given back as they were. When the match carries hashes,
    they are computed again over the scored events, so the scored log verifies on its own. A
    log with a line that is not an event keeps its lines and seqs: its notes are not inserted and
    ``meta.rescored`` names the replaced claims instead.
    """
    reducer = MatchReducer("<scored>")
    objs: list[dict[str, Any] | None] = []
    notes: dict[int, dict[str, Any]] = {}  # position in objs of the rewritten event -> its note
    for rec in records:
        hands_before = len(reducer.state.results) if reducer.state else 0
        reducer.feed(rec)
        obj = rec.obj
        state = reducer.state
        if obj is None or state is None or rec.event is None:
            objs.append(None)
            continue
        obj = dict(obj)
        said: str | None = None
        if rec.event.type == "hand_end" and len(state.results) > hands_before:
            result = state.results[-1]
            before = (obj.get("points"), obj.get("winner", ...))
            obj["points"] = dict(result.points)
            obj["winner"] = result.winner
            if result.verified and before != (obj["points"], obj["winner"]):
                said = (
                    f"rescored hand {result.number}: the table wrote {_claim_words(*before)}; "
                    f"the rules give {_claim_words(obj['points'], obj['winner'])}"
                )
        elif rec.event.type == "match_end" and state.ended:
            before = (obj.get("totals"), obj.get("winner", ...))
            obj["totals"] = dict(state.totals)
            obj["winner"] = state.winner
            if before != (obj["totals"], obj["winner"]):
                said = (
                    f"rescored match_end: the table wrote {_claim_words(*before)}; "
                    f"the rules give {_claim_words(obj['totals'], obj['winner'])}"
                )
        if said is not None:
            note: dict[str, Any] = {"type": "note", "text": said}
            if "at" in obj:
                note["at"] = obj["at"]
            notes[len(objs)] = note
        objs.append(obj)
    if not notes:
        yield from _as_lines(list(records), objs)
        return
    every_event = all(o is not None for o in objs)
    first = objs[0] if objs else None
    if first is not None and first.get("type") == "match_start":
        n = len(notes)
        meta = dict(first.get("meta") or {})
        meta["rescored"] = f"{n} claim{'s' * (n != 1)} replaced by the rules' results (dominolog export --scored)"
        if not every_event:
            meta["rescored"] += ": " + "; ".join(note["text"] for note in notes.values())
        first["meta"] = meta
    if not every_event:
        yield from _as_lines(list(records), objs)
        return
    # the notes go together just before match_end (or at the end): every event of the hands keeps its seq
    at = next((i for i in range(len(objs) - 1, -1, -1) if (objs[i] or {}).get("type") == "match_end"), len(objs))
    out: list[dict[str, Any] | None] = [*objs[:at], *notes.values(), *objs[at:]]
    recs: list[Record | None] = [*records[:at], *([None] * len(notes)), *records[at:]]
    if any(o is not None and "seq" in o for o in objs):  # the notes take seqs: match_end moves up
        for k, o in enumerate(out, 1):
            assert o is not None
            if o.get("seq") != k:
                out[k - 1] = {
                    "type": o["type"],
                    "seq": k,
                    **{key: v for key, v in o.items() if key not in ("type", "seq")},
                }
    yield from _as_lines(recs, out)


def _as_lines(records: list[Record | None], objs: list[dict[str, Any] | None]) -> Iterator[bytes]:
    """The scored events as lines: re-hashed when the match carries hashes, else each line as it was
    unless its event changed."""
    first = records[0] if records else None
    hashed = first is not None and first.obj is not None and "hash" in first.obj
    if hashed and all(o is not None for o in objs):
        rehashed = add_hashes([{k: v for k, v in o.items() if k != "hash"} for o in objs if o is not None])
        for o in rehashed:
            yield dump_line(o).encode("utf-8")
        return
    for rec, o in zip(records, objs, strict=True):
        if o is None:
            assert rec is not None
            yield rec.data
        elif rec is not None and o == rec.obj:
            yield rec.data
        else:
            yield orjson.dumps({k: v for k, v in o.items() if k != "hash"} if hashed else o)


#: what every row of a match repeats: which match, when and where, and whether it verified
MATCH_COLUMNS = ["match", "date", "event", "table", "variant", "valid"]
CSV_HEADER = [
    *MATCH_COLUMNS,
    "hand",
    "end",
    "winner",
    "aggressor",
    *[f"{k}_{i}" for i in range(1, SEATS + 1) for k in ("player", "points", "total", "pips")],
]
#: ``--long``: one row per hand and player (tidy data)
LONG_HEADER = [*MATCH_COLUMNS, "hand", "end", "winner", "aggressor", "player", "seat", "points", "total", "pips", "won"]


def match_columns(match_id: str, report: MatchReport, meta: dict[str, str], first_at: str | None) -> list[Any]:
    """The columns every row of a match starts with: id, date (ISO 8601: ``meta.date``, else the first
    event's ``at``), event and table (from ``meta``), variant, valid."""
    return [
        match_id,
        meta.get("date") or first_at or "",
        meta.get("event", ""),
        meta.get("table", ""),
        report.variant or "",
        report.valid,
    ]


def _winner_text(winner: Any) -> str:
    return "+".join(winner) if isinstance(winner, list) else (winner or "")


def csv_rows(
    match_id: str, report: MatchReport, meta: dict[str, str] | None = None, first_at: str | None = None
) -> Iterator[list[Any]]:
    """One row per hand (how it ended, its winner and aggressor, each seat's points, running total and
    pips left), then a ``final`` row with the match's totals and winner."""
    head = match_columns(match_id, report, meta or {}, first_at)
    running = dict.fromkeys(report.players, 0)
    for h in report.hands:
        for p, v in h.points.items():
            running[p] = running.get(p, 0) + v
        pips = h.detail.get("pips") or {}
        seats: list[Any] = []
        for i in range(SEATS):
            if i < len(report.players):
                p = report.players[i]
                seats += [p, h.points.get(p, 0), running[p], pips.get(p, "")]
            else:
                seats += ["", "", "", ""]
        yield [*head, h.number, h.end, _winner_text(h.winner), h.detail.get("aggressor", ""), *seats]
    seats = []
    for i in range(SEATS):
        if i < len(report.players):
            p = report.players[i]
            seats += [p, "", report.totals.get(p, 0), ""]
        else:
            seats += ["", "", "", ""]
    end = "complete" if report.complete else "open"
    yield [*head, "final", end, _winner_text(report.winner), "", *seats]


def csv_long_rows(
    match_id: str, report: MatchReport, meta: dict[str, str] | None = None, first_at: str | None = None
) -> Iterator[list[Any]]:
    """One row per (hand, player): the tidy form for pandas, R or a pivot table."""
    head = match_columns(match_id, report, meta or {}, first_at)
    running = dict.fromkeys(report.players, 0)
    for h in report.hands:
        pips = h.detail.get("pips") or {}
        winners = h.winner if isinstance(h.winner, list) else [h.winner] if h.winner else []
        for seat, p in enumerate(report.players, 1):
            running[p] += h.points.get(p, 0)
            yield [
                *head,
                h.number,
                h.end,
                _winner_text(h.winner),
                h.detail.get("aggressor", ""),
                p,
                seat,
                h.points.get(p, 0),
                running[p],
                pips.get(p, ""),
                p in winners,
            ]


#: a text cell starting with one of these could be run as a formula by a spreadsheet
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(cell: Any) -> Any:
    """A CSV cell a spreadsheet will not run (OWASP, "CSV injection"): text that starts with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``. Numbers stay numbers (a
    score of -1 is a number, not a formula)."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def csv_text(rows: Iterable[list[Any]], header: list[str] = CSV_HEADER) -> str:
    return "".join(csv_chunks(rows, header))


def csv_chunks(rows: Iterable[list[Any]], header: list[str] = CSV_HEADER, size: int = 1 << 16) -> Iterator[str]:
    """:func:`csv_text` in pieces of about ``size`` characters, written as the rows come."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([formula_safe(_cell(c)) for c in row])
        if buf.tell() >= size:
            yield buf.getvalue()
            buf.seek(0)
            buf.truncate()
    yield buf.getvalue()


def _cell(value: Any) -> Any:
    """Booleans as ``true``/``false`` (what spreadsheets, pandas and sqlite-utils read as such)."""
    return ("true" if value else "false") if isinstance(value, bool) else value


class NoPicture(ValueError):
    """There is no table to draw at the seq asked for (the message says why)."""


def table_picture(name: str, records: list[Record], at: int | None = None, svg: bool = True) -> str:
    """The table of a match after event ``at`` (default: the last; as the match ended, the last hand
    played): an SVG document (``export --format svg``), or with ``svg`` False the box-character
    picture (``--format text``). :class:`NoPicture` when there is no such seq or no hand to draw."""
    from dominolog.textsafe import shown

    last = records[-1].seq if records else 0
    if at is not None and at > last:
        raise NoPicture(f"{shown(name)}: the match has {last} events; there is no seq {at}")
    seq = at if at is not None else last
    reducer = MatchReducer(name, 1)
    drawn = None  # the open hand after the last event fed (or, as the match ended, the last hand played)
    for rec in records:
        if rec.seq > seq:
            break
        reducer.feed(rec)
        state = reducer.state
        if state is not None and state.hand is not None:
            drawn = (state, state.hand, rec.seq)
        elif at is not None:
            drawn = None
    if drawn is None:
        if at is not None:
            raise NoPicture(f"{shown(name)}: no hand is open at seq {seq} (between hands, or the match is over)")
        raise NoPicture(f"{shown(name)}: no hand was played: there is no table to draw")
    return hand_picture(*drawn, svg=svg)


def hand_picture(state: Any, hand: Any, seq: int, svg: bool = True) -> str:
    """The table of the hand ``hand`` of a match (its reducer's ``state``) after event ``seq``: what
    :func:`table_picture` draws."""
    from dominolog.layouts.grid import GridLayout
    from dominolog.layouts.picture import line_as_grid, svg_picture, text_picture

    layout = hand.layout
    grid = layout if isinstance(layout, GridLayout) else line_as_grid(layout)
    if not svg:
        return text_picture(grid) + "\n"
    title = f"{state.variant}: {' vs '.join(state.players)}, hand {hand.number}, after seq {seq}"
    ends = ", ".join(f"{s.name} {s.value}" for s in grid.open_sides()) if isinstance(layout, GridLayout) else ""
    return svg_picture(grid, title, f"open ends: {ends}" if ends else "")


def folded(name: str, records: list[Record]) -> tuple[MatchReport, dict[str, str], str | None]:
    """The match's report, its ``meta`` and the time of its first event that has one (a CSV row's)."""
    reducer = MatchReducer(name, 1)
    for rec in records:
        reducer.feed(rec)
    meta = dict(reducer.state.meta) if reducer.state is not None else {}
    first_at = next((rec.obj["at"] for rec in records if rec.obj and isinstance(rec.obj.get("at"), str)), None)
    return reducer.report(), meta, first_at


class Exported(Protocol):
    """A match to export: its name, its records and its lines as stored."""

    name: str

    @property
    def records(self) -> list[Record]: ...

    def lines(self) -> list[bytes]: ...


#: the formats :func:`export_chunks` writes (``export --format``; svg, text and html are a match's picture
#: and score sheet, one a match)
LOG_FORMATS = ("jsonl", "csv", "json", "dn")


def export_chunks(matches: Iterable[Exported], fmt: str, scored: bool = False, long: bool = False) -> Iterable[bytes]:
    """What ``dominolog export --format FMT`` writes for ``matches`` (one of :data:`LOG_FORMATS`), in
    pieces: written a match at a time (memory flat in the size of the store), the notation whole (its
    :class:`~dominolog.recording.notation.NotationWriteError` raised here, before any piece)."""
    from dominolog.verify import document_chunks

    if fmt == "jsonl":
        return (line + b"\n" for m in matches for line in (scored_lines(m.records) if scored else m.lines()))
    if fmt == "dn":
        from dominolog.recording.notation import write_dn

        return [write_dn(m.records for m in matches).encode("utf-8")]
    if fmt == "csv":
        rows_of = csv_long_rows if long else csv_rows
        rows = (row for m in matches for row in rows_of(m.name, *folded(m.name, m.records)))
        return (text.encode() for text in csv_chunks(rows, LONG_HEADER if long else CSV_HEADER))
    if fmt == "json":
        reports = (folded(m.name, m.records)[0].as_dict() for m in matches)
        return (text.encode() for text in itertools.chain(document_chunks(reports), ["\n"]))
    raise ValueError(f"export_chunks writes {', '.join(LOG_FORMATS)}, not {fmt}")
