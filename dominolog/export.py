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
