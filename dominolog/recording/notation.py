"""The dominolog notation (``.dn``) written: matches (records of any log) as ``.dn`` text that reads
back to the same events, field for field (docs/notation.md).

Reading (actions into events: :func:`resolve`, :func:`read_dn`, :func:`iter_matches_any`, ...) is
:mod:`dominolog.reducer.notation`, under ``verify`` and the store; its names are here too, for the
recorder and the faces.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from dominolog.log.notation import parse, starts_match
from dominolog.log.notation_write import format_event, format_header, json_text, time_text
from dominolog.log.reader import MatchLog, Record, iter_matches
from dominolog.reducer.notation import (
    DnMatchLog,
    MatchFold,
    NotationError,
    is_dn,
    iter_matches_any,
    iter_matches_dn,
    line_bytes,
    notation_errors,
    on_move,
    read_dn,
    resolve,
    rules_leader,
)

__all__ = [
    "WIDTH",
    "DnMatchLog",
    "MatchFold",
    "NotationError",
    "NotationWriteError",
    "dn_to_jsonl",
    "is_dn",
    "iter_matches_any",
    "iter_matches_dn",
    "jsonl_to_dn",
    "line_bytes",
    "notation_errors",
    "on_move",
    "read_dn",
    "resolve",
    "rules_leader",
    "same_record",
    "write_dn",
]

#: the width the writer wraps turn events at
WIDTH = 100


class NotationWriteError(ValueError):
    """Records that the notation cannot hold (a line too long to have been read whole, a
    ``match_start`` in the middle of a match, lines before a match that is not the first)."""


# -- writing ---------------------------------------------------------------------------------
def _full(value: Any) -> str | None:
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError):
        return None


def same_record(a: Record, b: Record) -> bool:
    """Whether two records hold the same: the same object, field for field (``seq`` and ``hash``
    included; key order aside), or for a line that is not an object as written, the same bytes."""
    a_obj = a.obj if not a.raw_only else None
    b_obj = b.obj if not b.raw_only else None
    if a_obj is None or b_obj is None:
        return a_obj is None and b_obj is None and a.data == b.data and a.raw_only == b.raw_only
    fa = _full(a.value)
    return fa is not None and fa == _full(b.value)


def _log_of(records: Sequence[Record]) -> tuple[str, ...]:
    objs = [r.obj for r in records if r.obj is not None and not r.raw_only]
    out = tuple(k for k in ("seq", "hash") if objs and 2 * sum(k in o for o in objs) > len(objs))
    return out


def _candidates(rec: Record, fold: MatchFold, first: bool) -> Iterator[list[str]]:
    """What may stand for ``rec``, most compact first (each as its tokens)."""
    obj = rec.obj if not rec.raw_only else None
    prefix = ["[Log " + " ".join(f'"{x}"' for x in fold.log) + "]"] if first and fold.log else []
    if obj is not None:
        if first:
            tags = format_header(obj, fold.log)
            if tags is not None:
                yield tags
        else:
            token = format_event(obj, on_move(fold.reducer), rules_leader(fold.reducer))
            at = time_text(obj["at"], fold.clock) if "at" in obj else ""
            if token is not None and at is not None:
                yield [token + at]
        escaped = json_text(obj)
        if escaped is not None:
            yield [*prefix, "$" + escaped]
    yield [*prefix, "$" + (json_text(rec.data.decode("utf-8", "surrogateescape")) or '""')]


def _write_match(records: Sequence[Record], layout: _Layout, orphan: bool) -> None:
    fold = MatchFold("<dn>", 1, () if orphan else _log_of(records), orphan)
    for i, rec in enumerate(records):
        first = i == 0 and not orphan
        if rec.truncated:
            raise NotationWriteError(f"line {rec.line}: {rec.error}; the notation cannot hold it")
        if rec.type == "match_start" and not first:
            raise NotationWriteError(f"line {rec.line}: a match_start in the middle of a match")
        for tokens in _candidates(rec, fold, first):
            parsed = parse(" ".join(tokens))
            if parsed.errors or len(parsed.actions) != 1 or starts_match(parsed.actions[0]) != first:
                continue
            action = parsed.actions[0]
            if first and action.log != fold.log:
                continue
            produced, clock, err = fold.produce(action)
            if err is None and same_record(produced, rec):
                break
        else:  # pragma: no cover - the escaped line always reads back
            raise NotationWriteError(f"line {rec.line}: the record cannot be written in the notation")
        fold.commit(produced, clock)
        layout.add("header" if first else rec.type or "", tokens)


class _Layout:
    """One hand a paragraph: the deal on its line, turn events wrapped, reveals and hand end on a line."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[str] = []
        self.cur = ""
        self.last = ""

    def newline(self) -> None:
        if self.cur:
            self.lines.append(self.cur)
            self.cur = ""

    def paragraph(self) -> None:
        self.newline()
        if self.lines and self.lines[-1]:
            self.lines.append("")

    def word(self, w: str) -> None:
        if self.cur and len(self.cur) + 1 + len(w) > self.width:
            self.newline()
        self.cur = f"{self.cur} {w}" if self.cur else w

    def add(self, role: str, tokens: list[str]) -> None:
        if role in ("header", "deal", "match_end"):
            self.paragraph()
        elif role in ("reveal", "hand_end") and self.last not in ("reveal",):
            self.newline()
        for t in tokens:
            self.word(t)
        if role in ("header", "deal", "hand_end", "match_end"):
            self.newline()
        self.last = role

    def text(self) -> str:
        self.newline()
        return "".join(line + "\n" for line in self.lines)


def write_dn(matches: Iterable[MatchLog | Sequence[Record]], width: int = WIDTH) -> str:
    """``.dn`` text for matches given as their records (from any reader or the store): each event
    in its compact form where that reads back to exactly the same object, else escaped.
    :class:`NotationWriteError` for what the notation cannot hold."""
    layout = _Layout(width)
    started = False
    for m in matches:
        records = m.records if isinstance(m, MatchLog) else list(m)
        if not records:
            continue
        orphan = records[0].type != "match_start"
        if orphan and started:
            raise NotationWriteError(
                f"line {records[0].line}: lines before any match_start can only open a .dn text, not follow a match"
            )
        _write_match(records, layout, orphan)
        started = True
    return layout.text()


def jsonl_to_dn(data: bytes, source: str = "<jsonl>") -> str:
    """JSON Lines (every match of them) as ``.dn`` text."""
    return write_dn(iter_matches(source, data))


def dn_to_jsonl(text: str | bytes, source: str = "<dn>") -> bytes:
    """``.dn`` text as JSON Lines: one line per record (a notation error is written as its text)."""
    return b"".join(rec.data + b"\n" for log in read_dn(text, source) for rec in log.records)
