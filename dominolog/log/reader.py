"""A streaming JSON Lines reader that keeps line numbers and never dies on bad input.

Each non-blank line becomes a :class:`Record`: the decoded object and the
validated event when the line is good, or the reason it is not. Records are
grouped into matches (:class:`MatchLog`), a new one at every ``match_start``.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import orjson
from mypy_extensions import mypyc_attr

from dominolog.events import Event, MatchStart, check_event
from dominolog.events.checks import fast_event
from dominolog.frozen import by_fields
from dominolog.textsafe import shown

_NO_VALUE = object()
_BOM = b"\xef\xbb\xbf"

#: FORMAT.md, Limits: a longer line is malformed, and is never decoded
MAX_LINE_BYTES: Final = 1 << 20
#: FORMAT.md, Limits: the events of one match; the lines after them are counted, not kept
MAX_MATCH_EVENTS = 100_000
#: the longest line (without its "\n") read whole, so that white space around a line of MAX_LINE_BYTES
#: still reads; a longer one is read in pieces, never decoded (binary_lines; log/parts.py cuts no file there)
LONGEST_READ_WHOLE = MAX_LINE_BYTES + 1
#: how much of a line too long to read is kept (for messages)
_KEPT_OF_LONG_LINE = 200
#: orjson's calls of every line, looked up once (compiled, ``orjson.loads`` is an attribute lookup a call)
_loads: Final = orjson.loads
_dumps: Final = orjson.dumps
_SORT_KEYS: Final = orjson.OPT_SORT_KEYS
_SURROGATE = re.compile(f"[{chr(0xD800)}-{chr(0xDFFF)}]")  # chr(): no surrogate in a literal (mypyc)


class PathError(Exception):
    """A path given by the user that does not exist or cannot be read."""


@dataclass(slots=True, init=False)
class Record:
    """One non-blank line of a log, as read. (Its ``__init__`` is written out: see
    :class:`dominolog.events.kinds.EventBase`.)"""

    line: int
    seq: int
    data: bytes  # the line as read, without surrounding white space
    value: Any = _NO_VALUE  # the decoded JSON value, if the line is JSON
    event: Event | None = None
    error: str | None = None
    #: the line enters the hash chain as the bytes read, not as its decoded value: its value is not
    #: what was written (a lone surrogate replaced, a key given twice) or was never decoded (too long)
    raw_only: bool = False
    #: for a line longer than MAX_LINE_BYTES: its length; ``data`` then holds only its first bytes and
    #: ``digest`` the sha256 of the whole line (what enters the chain)
    length: int = 0
    digest: bytes | None = None
    #: only part of what the file holds here was kept (a line too long, or the lines past the events a
    #: match may hold): such a match can be verified but not stored
    truncated: bool = False
    #: the value without its ``hash``, keys sorted, written by orjson (made once while reading, for the
    #: duplicate-key check; the hash chain takes it as the canonical form of events other than
    #: ``match_start``, which hold no floats: see :func:`dominolog.log.hashchain.canonical_bytes`)
    canon: bytes | None = None

    def __init__(
        self,
        line: int,
        seq: int,
        data: bytes,
        value: Any = _NO_VALUE,
        event: Event | None = None,
        error: str | None = None,
        raw_only: bool = False,
        length: int = 0,
        digest: bytes | None = None,
        truncated: bool = False,
        canon: bytes | None = None,
    ) -> None:
        self.line = line
        self.seq = seq
        self.data = data
        self.value = value
        self.event = event
        self.error = error
        self.raw_only = raw_only
        self.length = length
        self.digest = digest
        self.truncated = truncated
        self.canon = canon

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)

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


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py): the notation's DnMatchLog extends it
@dataclass(slots=True)
class MatchLog:
    """The records of one match (or of lines before any ``match_start``: ``orphan``)."""

    source: str
    line: int
    records: list[Record] = field(default_factory=list)
    orphan: bool = False


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _sorted_body(value: Any) -> bytes | None:
    """``value`` without its ``hash`` key, keys sorted, as orjson writes it (None if it cannot)."""
    if type(value) is not dict:
        return None
    if "hash" in value:  # (a copy without it: twice as fast as a comprehension over its items)
        body = value.copy()
        del body["hash"]
    else:
        body = value
    try:
        written = _dumps(body, option=_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):  # an integer beyond 64 bits
        return None
    # orjson hands back its write buffer (4 KiB for a short line): a copy of the exact size is kept instead
    return bytes(memoryview(written))


def _twice(data: bytes, value: Any, canon: bytes | None = None) -> str | None:
    """The first key written twice in one object of the line, or None.

    Cheap in the common case. orjson writes one ``:`` after each key and every ``:`` inside a string
    as it is, so its output holds (keys kept + colons in the strings kept). The line holds (keys
    written + colons in the strings written), and a key written twice adds at least its own colon.
    So when the two counts are equal (and the line spells no colon as ``\\u003a``), no key was
    lost. Otherwise the line is decoded again, keeping every pair, to name the key. ``canon`` (the
    value without its hash, as orjson writes it) saves writing the value again when the hash is text.
    The line never holds fewer colons than what was kept of it, so when it holds as many as the
    sorted form and the hash's key, the hash holds none: its own colons are counted only otherwise.
    """
    # (92, a backslash: one byte looked for, a quick memchr; most lines hold none, and so no "\u00")
    if 92 not in data or b"\\u00" not in data:
        h = value.get("hash") if canon is not None else None
        if canon is not None and (h is None or type(h) is str):
            colons = data.count(b":")
            kept = canon.count(b":") + (1 if h is not None else 0)
            if colons == kept or (h is not None and colons == kept + h.count(":")):
                return None
        else:
            try:
                if data.count(b":") == orjson.dumps(value).count(b":"):
                    return None
            except (TypeError, orjson.JSONEncodeError):  # an integer beyond 64 bits: the slow way
                pass
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        names = [k for k, _ in items]
        if not found and len(set(names)) != len(names):
            found.append(next(k for i, k in enumerate(names) if k in names[:i]))
        return dict(items)

    try:
        json.loads(data.decode("utf-8", "surrogatepass"), object_pairs_hook=pairs, parse_constant=_reject_constant)
    except (ValueError, RecursionError):  # pragma: no cover - it decoded once already
        return None
    return found[0] if found else None


def _surrogate_at(value: Any, path: str = "") -> str | None:
    """Where a lone surrogate sits in a decoded value (``meta.key``), or None."""
    if isinstance(value, str):
        return path or "the value" if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for k, v in value.items():
            where = f"{path}.{k}" if path else str(k)
            if _SURROGATE.search(k):
                return f"a key of {path or 'the event'}"
            found = _surrogate_at(v, where)
            if found:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _surrogate_at(v, f"{path}[{i}]")
            if found:
                return found
    return None


def _replace_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_SURROGATE.sub("\ufffd", k): _replace_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_surrogates(v) for v in value]
    return value


def decode_line(data: bytes, lineno: int, seq: int) -> Record:
    """Decode one line (without its newline) into a record; never raises.

    A line that is JSON but not valid Unicode text (a lone surrogate such as ``\\ud800``) or that
    writes a key twice in one object is ``malformed``; its value is kept for what can be read of it
    (the type, the seq; surrogates replaced by U+FFFD) and it enters the hash chain as read.
    """
    if len(data) > MAX_LINE_BYTES:
        return long_line(data[:_KEPT_OF_LONG_LINE], len(data), hashlib.sha256(data).digest(), lineno, seq)
    try:
        value = _loads(data)
    except orjson.JSONDecodeError as exc:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as uexc:
            return Record(lineno, seq, data, error=f"not UTF-8 (bad byte at column {uexc.start + 1})")
        try:  # orjson refuses integers beyond 64 bits and lone surrogates; json does not
            value = json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError):
            return Record(lineno, seq, data, error=f"not JSON: {str(exc).split(':')[0]}")
        where = _surrogate_at(value)
        if where is not None:
            error = f"not valid Unicode text: a lone surrogate in {shown(where, 60)}"
            return Record(lineno, seq, data, _replace_surrogates(value), error=error, raw_only=True)
    try:
        canon = _sorted_body(value)
        twice = _twice(data, value, canon)
    except RecursionError:  # nested deeper than a Python stack: no event is
        return Record(lineno, seq, data, error="not an event: nested too deep")
    if twice is not None:
        error = f"the key {shown(twice, 60)!r} is written twice in one object"
        return Record(lineno, seq, data, value, error=error, raw_only=True)
    event = fast_event(value)
    if event is not None:
        return Record(lineno, seq, data, value, event, canon=canon)
    event, checked = check_event(value)  # the models decide what the hand-written checks are not sure of
    return Record(lineno, seq, data, value, event, checked, canon=canon)


def long_line(head: bytes, length: int, digest: bytes, lineno: int, seq: int) -> Record:
    """A line longer than :data:`MAX_LINE_BYTES`: malformed, never decoded, only its first bytes kept."""
    error = f"the line is {length:,} bytes long; a line may hold at most {MAX_LINE_BYTES:,} (1 MiB)"
    return Record(lineno, seq, head, error=error, raw_only=True, length=length, digest=digest, truncated=True)


def binary_lines(fh: Any) -> Iterator[tuple[bytes, int, bytes | None]]:
    """The lines of a binary file as (bytes, length, digest): a line longer than MAX_LINE_BYTES is read
    in pieces and given as its first bytes, its length and its sha256, never held whole."""
    readline = fh.readline
    while True:
        line = readline(LONGEST_READ_WHOLE + 1)
        if not line:
            return
        if len(line) <= LONGEST_READ_WHOLE or line.endswith(b"\n"):
            yield line, len(line), None
        else:
            yield _rest_of_long_line(readline, line)


def _rest_of_long_line(readline: Any, line: bytes) -> tuple[bytes, int, bytes]:
    """A line too long to read whole, of which ``line`` was read: its first bytes, its length (without
    its "\n") and the sha256 of the whole line, the rest read in pieces with ``readline``."""
    digest = hashlib.sha256(line.rstrip(b"\n"))
    head, length = line[:_KEPT_OF_LONG_LINE], len(line)
    while not line.endswith(b"\n"):
        line = readline(MAX_LINE_BYTES)
        if not line:
            break
        length += len(line)
        digest.update(line.rstrip(b"\n"))
    return head, length - line.endswith(b"\n"), digest.digest()


def iter_matches(path: Path | str, data: bytes | None = None, first_line: int = 1) -> Iterator[MatchLog]:
    """Yield the matches of one file, streaming it line by line (or of ``data``, read from it). ``data``
    may be a part of the file that begins at line ``first_line`` (:mod:`dominolog.log.parts`)."""
    source = str(path)
    current: MatchLog | None = None
    seq = 0
    if data is None:
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed in finally
        except OSError as exc:
            raise PathError(f"{source}: cannot read: {exc.strerror or exc}") from None
    else:
        fh = None
    try:
        # Lines end at "\n" only (a stray "\r" stays in its line), from a file or from bytes alike.
        # (binary_lines' loop, written out: no generator, tuple or enumerate a line)
        readline = (fh if fh is not None else io.BytesIO(data or b"")).readline
        skipped: Record | None = None  # the record that stands for the lines past MAX_MATCH_EVENTS
        lineno = first_line - 1
        while True:
            line: bytes = readline(LONGEST_READ_WHOLE + 1)
            if not line:
                break
            lineno += 1
            if len(line) > LONGEST_READ_WHOLE and not line.endswith(b"\n"):
                # too long to read: a malformed line, whatever it holds
                line, length, digest = _rest_of_long_line(readline, line)
                if skipped is None:
                    rec = long_line(line, length, digest, lineno, seq + 1)
                    current = current or MatchLog(source, lineno, orphan=True)
                    seq += 1
                    current.records.append(rec)
                else:
                    _skip(skipped, lineno)
                continue
            stripped = line.strip()
            if not stripped:
                continue
            if lineno == 1 and stripped.startswith(_BOM):  # written by some editors; not content
                stripped = stripped[len(_BOM) :].strip()
                if not stripped:
                    continue
            if skipped is not None and b"match_start" not in stripped:
                _skip(skipped, lineno)
                continue
            rec = decode_line(stripped, lineno, seq + 1)
            event = rec.event
            if (rec.type == "match_start") if event is None else isinstance(event, MatchStart):
                if current is not None:
                    yield current
                current = MatchLog(source, lineno)
                seq = 0
                rec.seq = 1
                skipped = None
            elif skipped is not None:
                _skip(skipped, lineno)
                continue
            elif current is None:
                current = MatchLog(source, lineno, orphan=True)
            if current is not None and len(current.records) >= MAX_MATCH_EVENTS:
                skipped = Record(lineno, seq + 1, b"", error="", raw_only=True, truncated=True)
                _skip(skipped, lineno, first=True)
                current.records.append(skipped)
                seq += 1
                continue
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


def _skip(rec: Record, lineno: int, first: bool = False) -> None:
    """Count one more line past the events a match may hold, in the record that stands for them."""
    rec.length = 1 if first else rec.length + 1
    last = f"lines {rec.line}-{lineno} ({rec.length:,} lines)" if rec.length > 1 else f"line {rec.line}"
    rec.error = f"a match holds at most {MAX_MATCH_EVENTS:,} events: {last} not read"


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files named, and every ``*.jsonl`` and ``*.dn`` (the notation) of each folder named (sorted by
    name); PathError if missing."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(q for q in path.iterdir() if q.suffix in (".jsonl", ".dn") and q.is_file())
            if not found:
                raise PathError(f"{p}: no .jsonl or .dn files in the folder")
            out.extend(found)
        elif path.exists():
            out.append(path)
        else:
            raise PathError(f"{p}: no such file or folder")
    return out
