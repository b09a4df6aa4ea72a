"""Exporting matches: the log as stored, the scored log, one CSV row per hand, the verify document."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from dominolog.log.hashchain import add_hashes
from dominolog.log.reader import Record
from dominolog.log.writer import dump_line
from dominolog.reducer import MatchReducer, MatchReport

SEATS = 4


def scored_lines(records: list[Record]) -> Iterator[bytes]:
    """The log with every ``hand_end`` and ``match_end`` claiming what the rules give.

    Other lines are given back as they were. When the match carries hashes, they are
    computed again over the scored events, so the scored log verifies on its own.
    """
    reducer = MatchReducer("<scored>")
    objs: list[dict[str, Any] | None] = []
    for rec in records:
        hands_before = len(reducer.state.results) if reducer.state else 0
        reducer.feed(rec)
        obj = rec.obj
        state = reducer.state
        if obj is None or state is None or rec.event is None:
            objs.append(None)
            continue
        obj = dict(obj)
        if rec.event.type == "hand_end" and len(state.results) > hands_before:
            result = state.results[-1]
            obj["points"] = dict(result.points)
            obj["winner"] = result.winner
        elif rec.event.type == "match_end" and state.ended:
            obj["totals"] = dict(state.totals)
            obj["winner"] = state.winner
        objs.append(obj)
    hashed = bool(records) and records[0].obj is not None and "hash" in (records[0].obj or {})
    if hashed and all(o is not None for o in objs):
        rehashed = add_hashes([{k: v for k, v in o.items() if k != "hash"} for o in objs if o is not None])
        for o in rehashed:
            yield dump_line(o).encode("utf-8")
        return
    for rec, o in zip(records, objs, strict=True):
        yield rec.data if o is None or o == rec.obj else orjson.dumps(o)


CSV_HEADER = [
    "match",
    "variant",
    "hand",
    "end",
    "winner",
    *[f"{k}_{i}" for i in range(1, SEATS + 1) for k in ("player", "points", "total")],
]


def csv_rows(match_id: str, report: MatchReport) -> Iterator[list[Any]]:
    """One row per hand: the match, the hand, how it ended, its winner, each seat's points and running total."""
    running = dict.fromkeys(report.players, 0)
    for h in report.hands:
        for p, v in h.points.items():
            running[p] = running.get(p, 0) + v
        winner = "+".join(h.winner) if isinstance(h.winner, list) else (h.winner or "")
        seats: list[Any] = []
        for i in range(SEATS):
            if i < len(report.players):
                p = report.players[i]
                seats += [p, h.points.get(p, 0), running[p]]
            else:
                seats += ["", "", ""]
        yield [match_id, report.variant or "", h.number, h.end, winner, *seats]


#: a text cell starting with one of these could be run as a formula by a spreadsheet
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(cell: Any) -> Any:
    """A CSV cell a spreadsheet will not run (OWASP, "CSV injection"): text that starts with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``. Numbers stay numbers (a
    score of -1 is a number, not a formula)."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def csv_text(rows: Iterable[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    w.writerows([formula_safe(c) for c in row] for row in rows)
    return buf.getvalue()
