"""A write request done as ``dominolog append`` does it: a :class:`~dominolog.recording.session.Session`
on the match in the store (:class:`~dominolog.recording.journal.StoreJournal`), the recorder's
checks, each event appended in a savepoint of the request's transaction (``api._write``: committed,
with the Idempotency-Key's answer, before the answer is sent); the first line refused stops the
request, and nothing of it is written (the lines before it are stored, and the answer says which).

The server stamps the time: an event stored without an ``at`` gets the server's clock (RFC 3339 UTC,
``2026-11-21T19:04:11Z``) before the store computes its chain ``hash`` (when the match's events carry
one); an event sent with its own ``at`` keeps it, and one sent with its own ``hash`` is stored as sent
(a time added would break the hash the writer computed).

What a body may be (its ``Content-Type``):

- ``application/json``: one event object;
- ``application/x-ndjson``, ``application/jsonl``, ``application/x-jsonlines``: events, one a line;
- ``text/x-dominolog-notation`` (or ``text/x-dn``): lines of the notation (docs/notation.md); a
  header may be written over several lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dominolog.recording.session import Session

JSON_TYPES = ("application/json",)
LINES_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json-seq")
NOTATION_TYPES = ("text/x-dominolog-notation", "text/x-dn")
#: every type a write takes
TYPES = JSON_TYPES + LINES_TYPES + NOTATION_TYPES


class BadBody(Exception):
    """A body that cannot be taken at all: ``status`` (415: its type, 400: not text) and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class Answer:
    """The answer of a write: its status and JSON body."""

    status: int
    body: dict[str, Any] = field(default_factory=dict)


def kind_of(content_type: str | None) -> str:
    """``json``, ``lines`` or ``dn`` from a Content-Type, or :class:`BadBody` (415)."""
    base = (content_type or "").split(";", 1)[0].strip().lower()
    if base in JSON_TYPES:
        return "json"
    if base in LINES_TYPES:
        return "lines"
    if base in NOTATION_TYPES:
        return "dn"
    raise BadBody(415, f"Content-Type {base or '(none)'} is not taken here: one of {', '.join(TYPES)}")


def lines_of(body: bytes, kind: str) -> list[tuple[int, str]]:
    """The non-blank lines of a body (number from 1, text); one JSON object is one line whatever its
    layout. :class:`BadBody` (400) when it is not UTF-8."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadBody(400, f"the body is not UTF-8 (bad byte at offset {exc.start})") from None
    if kind == "json":
        return [(1, " ".join(text.split("\n")))] if text.strip() else []
    lines = [(n, t.rstrip("\r")) for n, t in enumerate(text.split("\n"), 1) if t.strip()]
    if kind == "dn":
        from dominolog.recording.begin import headers_joined

        lines = list(headers_joined(lines, lambda x: x[1], lambda a, b: (a[0], f"{a[1]} {b[1]}")))
    return lines


def first_match(lines: list[tuple[int, str]], kind: str) -> Answer | str:
    """The id of the match the first line begins (``POST /api/matches``), or the answer refusing it."""
    from dominolog.recording.begin import begun_by

    if not lines:
        return Answer(422, {"error": "no event given"})
    begun = begun_by(lines[0][1], kind == "dn")
    if begun is None:
        return Answer(422, {"error": "a new match begins with a match_start (or a header)", "line": lines[0][0]})
    if begun.refused is not None or begun.name is None:
        return Answer(422, {"error": begun.refused or "refused", "line": lines[0][0]})
    return begun.name


def append_lines(session: Session, match_id: str, lines: list[tuple[int, str]], kind: str, seq: int | None) -> Answer:
    """Append the lines to the match through its recording session (``dominolog append``'s), in
    the order given, with the recorder's checks (in the caller's transaction, if it holds one):
    ``201`` every line stored; ``422`` a line refused or the match full (``409`` a seq another writer took), with the
    seqs stored before it; the store failing raises its :class:`~dominolog.store.StoreError`."""
    from dominolog.recording.session import Entered, stamped_line
    from dominolog.store import FullMatchError

    written: list[int] = []
    if not lines:
        return Answer(422, {"error": "no event given", "seqs": [], "head": session.head})
    if kind == "dn" and seq is not None and seq != session.reducer.events + 1:
        return _conflict(
            match_id, session.head, f"seq {seq} is taken (the match has {session.reducer.events} events)", lines[0][0]
        )
    now = session.clock.now
    for n, text in lines:
        if kind == "dn":
            done = session.enter(text)
        else:
            done = Entered()
            line = stamped_line(text.strip(), now()) if now is not None else text.strip()
            session.write_line(line.encode("utf-8"), done, expected_seq=seq if not written else None)
        written.extend(s for s, _ in done.written)
        if isinstance(done.unusable, FullMatchError):  # the match takes no more: this request's fault, not the store's
            return Answer(422, {"error": str(done.unusable), "line": n, "seqs": written, "head": session.head})
        if done.unusable is not None:
            raise done.unusable
        if done.stopped is not None:
            if done.conflict:
                return _conflict(match_id, session.head, done.stopped, n, written)
            return Answer(422, {"error": done.stopped, "line": n, "seqs": written, "head": session.head})
    return Answer(201, {"seqs": written, "head": session.head})


def _conflict(match_id: str, head: str, why: str, line: int, written: list[int] | None = None) -> Answer:
    return Answer(409, {"error": why, "line": line, "seqs": written or [], "head": head, "match": match_id})
