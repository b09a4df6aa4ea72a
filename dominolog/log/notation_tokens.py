"""The dominolog notation (``.dn``): its vocabulary, shared by the reader and the writer.

The tags, keywords and token shapes, :class:`NotationError`, :class:`Action` (one action as
written) and :class:`Clock` (what a short time stamp means). The parser is
:mod:`dominolog.log.notation`; docs/notation.md describes the notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from dominolog.textsafe import shown

#: bare words that are never player names (a player called so is written quoted: ``"deal":65R``)
KEYWORDS: Final = frozenset({"deal", "dealer", "chooser", "start", "abandoned"})
#: the meta keys that have a tag of their own
META_TAGS: Final = {"Event": "event", "Site": "site", "Date": "date", "Round": "round", "Table": "table",
                    "Recorder": "recorder"}  # fmt: skip
TAGS: Final = ("Variant", "Players", "Id", "Option", "At", "Log", *META_TAGS, "Meta")
#: the actions whose player, when no ``Name:`` is written, is the player on move
TURN_KINDS: Final = frozenset({"play", "pass", "draw", "declare", "block_call"})
#: at most this many digits in a number of points (Python refuses to read very long numbers)
MAX_DIGITS: Final = 1000

DESCRIBE: Final = {
    "play": "a play (53, 5-3, 53L, 53R, 53@66N, 53@64 or 53&61)",
    "pass": "a pass (-)",
    "draw": "a draw (+, +? or +43)",
    "declare": "a declaration (!odd or !even)",
    "block_call": "a block call (#)",
    "note": "a note ({text})",
    "undo": "an undo (~ or ~{reason})",
    "reveal": "a reveal (Ana=[21 10])",
    "deal": "a deal (deal Ana [Ana 01 04 ...])",
    "hand_end": "a hand end (* Ana 6 Ben 0 >Ana)",
    "match_end": "a match end (** Ana 56 Ben 0 >Ana)",
    "escape": "an escape ($ and a JSON object or string)",
}
EXPECTED_ACTION: Final = (
    "a tile, a pass (-), a draw (+), !odd or !even, a block call (#), a note ({...}), an undo (~), "
    "a reveal (Name=[...]), deal, * or **, a tag ([...]), an escape ($) or a player name and ':'"
)
NOTE_ESCAPES: Final = {"\\": "\\", "{": "{", "}": "}", "n": "\n", "r": "\r", "t": "\t"}
RE_TILE = re.compile(r"[0-6]-?[0-6]")
RE_TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")
RE_INT = re.compile(r"-?[0-9]+")
RE_WORD = re.compile(r"[a-z]+")
RE_SPACE = re.compile(r"\s*")
RE_TOKEN = re.compile(r"\S*")
RE_NAME_START = re.compile(r"[^\W\d]")
RE_NAME_CHAR = re.compile(r"[\w.'-]")
RE_BARE = re.compile(r"[^\W\d][\w.'-]*")
RE_BAD_BYTE = re.compile("[\udc80-\udcff]")
RE_NOTE_STOP = re.compile(r"[\\}\n]")
RE_SHORT = re.compile(r"[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?")
RE_FULL = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})([Tt ])([0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?)([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


class NotationError(ValueError):
    """A place in a ``.dn`` text where the notation cannot be read: ``line 3, column 7: expected
    ..., got 'x9'``. Lines and columns count from 1; a column counts characters."""

    def __init__(self, line: int, column: int, expected: str, found: str) -> None:
        self.line, self.column, self.expected, self.found = line, column, expected, found
        super().__init__(f"line {line}, column {column}: expected {expected}, got {found}")


@dataclass(slots=True)
class Action:
    """One action as written: it becomes one event (or, ``kind == "error"``, one malformed record).

    ``kind`` is the event type (``match_start`` for a header of tags), ``escape`` or ``error``;
    ``fields`` the event's fields as written (no ``type``, ``seq``, ``hash`` or ``at``);
    ``context``: the player (turn actions) or the leader (``deal``) was left out, to be taken
    from the match; ``time``: the time stamp written after it, ``short_time`` when it is the
    short form (``19:31:40``); ``log``: what a header's ``[Log]`` tag says the events carry;
    ``value``: an escape's JSON value; ``text``: the source text of the action.
    """

    kind: str
    fields: dict[str, Any] = field(default_factory=dict)
    context: bool = False
    time: str | None = None
    short_time: bool = False
    line: int = 0
    column: int = 0
    text: str = ""
    log: tuple[str, ...] = ()
    value: Any = None
    error: NotationError | None = None


def is_name_start(c: str) -> bool:
    """A bare name starts with a letter or ``_`` (a word character that is not a digit)."""
    return RE_NAME_START.fullmatch(c) is not None


def is_name_char(c: str) -> bool:
    return RE_NAME_CHAR.fullmatch(c) is not None


def is_bare_name(name: str) -> bool:
    """Whether ``name`` may be written without quotes."""
    return RE_BARE.fullmatch(name) is not None and name not in KEYWORDS


class Clock:
    """The time stamps of one match: a short stamp (``19:31:40``) takes its date, separator and zone
    from the last full stamp of the match that is an RFC 3339 time (the ``[At]`` tag counts).

    ``now``, if given, stamps actions written without a time (a recorder's clock)."""

    __slots__ = ("base", "now")

    def __init__(self, now: Any = None) -> None:
        self.base: tuple[str, str, str] | None = None
        self.now = now

    def copy(self) -> Clock:
        c = Clock(self.now)
        c.base = self.base
        return c

    def reset(self) -> None:
        self.base = None

    def note(self, full: str) -> None:
        m = RE_FULL.fullmatch(full)
        if m:
            self.base = (m[1], m[2], m[4])

    def expand(self, short: str) -> str | None:
        """The full stamp of a short one, or None without a full stamp before it."""
        if self.base is None:
            return None
        date, sep, zone = self.base
        return f"{date}{sep}{short}{zone}"

    def short(self, at: str) -> str | None:
        """The short form of ``at`` if it gives back exactly ``at`` here, else None."""
        m = RE_FULL.fullmatch(at)
        if m is None or self.base != (m[1], m[2], m[4]):
            return None
        return m[3]

    def stamp(self, action: Action) -> str | None:
        """The ``at`` of an action (noting a full stamp); NotationError for a short one with no base."""
        if action.time is None:
            return self.now() if self.now is not None else None
        if action.short_time:
            full = self.expand(action.time)
            if full is None:
                raise NotationError(
                    action.line,
                    action.column,
                    "a full time stamp earlier in the match (a short one takes its date and zone from it)",
                    f"'({shown(action.time, 40)})'",
                )
            return full
        self.note(action.time)
        return action.time


def is_short_time(text: str) -> bool:
    return RE_SHORT.fullmatch(text) is not None


def split_tile(text: str) -> str:
    """``53`` or ``5-3`` as ``5-3``."""
    return f"{text[0]}-{text[-1]}"


def hex4(text: str) -> int | None:
    if len(text) != 4 or not all(h in "0123456789abcdefABCDEF" for h in text):
        return None
    return int(text, 16)


class ParseFail(Exception):
    """Raised inside the parser: what was expected at ``at``; ``skip``: where reading resumes."""

    def __init__(self, expected: str, at: int, skip: int | None = None) -> None:
        super().__init__(expected)
        self.expected, self.at, self.skip = expected, at, skip
