"""A streaming JSON Lines reader that keeps line numbers and never dies on bad input.

Each non-blank line becomes a :class:`Record`: the decoded object and the
validated event when the line is good, or the reason it is not. Records are
grouped into matches (:class:`MatchLog`), a new one at every ``match_start``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from dominolog.events import EVENT_ADAPTER, Event, describe_validation_error

_NO_VALUE = object()
_BOM = b"\xef\xbb\xbf"
_validate = EVENT_ADAPTER.validate_python


class PathError(Exception):
    """A path given by the user that does not exist or cannot be read."""


@dataclass(slots=True)
class Record:
    """One non-blank line of a log, as read."""

    line: int
    seq: int
    data: bytes  # the line as read, without surrounding white space
    value: Any = _NO_VALUE  # the decoded JSON value, if the line is JSON
    event: Event | None = None
    error: str | None = None

    @property
    def raw(self) -> str:
        """The line as text (bytes that are not UTF-8 shown as U+FFFD)."""
        return self.data.decode("utf-8", "replace")

    @property
    def is_json(self) -> bool:
        return self.value is not _NO_VALUE

    @property
    def obj(self) -> dict[str, Any] | None:
        return self.value if isinstance(self.value, dict) else None

    @property
    def type(self) -> str | None:
        v = self.value
        if isinstance(v, dict):
            t = v.get("type")
            return t if isinstance(t, str) else None
        return None


@dataclass(slots=True)
class MatchLog:
    """The records of one match (or of lines before any ``match_start``: ``orphan``)."""

    source: str
    line: int
    records: list[Record] = field(default_factory=list)
    orphan: bool = False


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode_line(data: bytes, lineno: int, seq: int) -> Record:
    """Decode one line (without its newline) into a record; never raises."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as uexc:
            return Record(lineno, seq, data, error=f"not UTF-8 (bad byte at column {uexc.start + 1})")
        try:  # orjson refuses integers beyond 64 bits and lone surrogates; json does not
            value = json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            return Record(lineno, seq, data, error=f"not JSON: {str(exc).split(':')[0]}")
    try:
        return Record(lineno, seq, data, value, _validate(value))
    except ValidationError as exc:
        return Record(lineno, seq, data, value, None, describe_validation_error(value, exc))


def iter_matches(path: Path | str, data: bytes | None = None) -> Iterator[MatchLog]:
    """Yield the matches of one file, streaming it line by line."""
    source = str(path)
    current: MatchLog | None = None
    seq = 0
    lines: Iterable[bytes]
    if data is None:
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed in finally
        except OSError as exc:
            raise PathError(f"{source}: cannot read: {exc.strerror or exc}") from None
    else:
        fh = None
    try:
        # Lines end at "\n" only (a stray "\r" stays in its line), from a file or from bytes alike.
        lines = fh if fh is not None else io.BytesIO(data)  # type: ignore[arg-type]
        for lineno, line in enumerate(lines, 1):
            stripped = line.strip()
            if not stripped:
                continue
            if lineno == 1 and stripped.startswith(_BOM):  # written by some editors; not content
                stripped = stripped[len(_BOM) :].strip()
                if not stripped:
                    continue
            rec = decode_line(stripped, lineno, seq + 1)
            if rec.type == "match_start":
                if current is not None:
                    yield current
                current = MatchLog(source, lineno)
                seq = 0
                rec.seq = 1
            elif current is None:
                current = MatchLog(source, lineno, orphan=True)
            seq += 1
            rec.seq = seq
            current.records.append(rec)
    except OSError as exc:
        raise PathError(f"{source}: read failed: {exc.strerror or exc}") from None
    finally:
        if fh is not None:
            fh.close()
    if current is not None:
        yield current


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files named, and every ``*.jsonl`` of each folder named (sorted); PathError if missing."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.glob("*.jsonl") if q.is_file()))
        elif path.exists():
            out.append(path)
        else:
            raise PathError(f"{p}: no such file or folder")
    return out
