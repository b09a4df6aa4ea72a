"""Text from a log, made safe for a person to read.

Names, ids, notes and meta come from files anyone can write. Printed raw, a
name could hold terminal escape sequences (clear the screen, set the window
title, fake a line of output), control characters, bidirectional overrides
that reorder what is shown, or megabytes of text. Everything the tool prints
for a person (``verify``, ``show``, ``list``, the viewer, pictures) goes
through :func:`shown`; machine output (JSON) keeps the text as it was, with
JSON's own escapes and the C1 controls escaped (:mod:`dominolog.jsontext`).

- C0 controls (U+0000-U+001F, tab and newline included), DEL (U+007F) and C1
  controls (U+0080-U+009F) are written as ``\\xNN``;
- bidirectional controls (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), lone
  surrogates and the non-characters U+FFFE, U+FFFF as ``\\uNNNN``;
- a backslash stays a backslash (the escapes are for reading, not for parsing
  back);
- text longer than ``limit`` characters is cut: its first ``limit`` characters,
  then ``...(N chars)`` with N the length of the whole text.
"""

from __future__ import annotations

import re

#: how many characters of a name, id, note or value a person is shown before it is cut
LIMIT = 200

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def cut(text: str, limit: int = LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: ``abc...(5000 chars)``."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}...({len(text)} chars)"


def shown(text: object, limit: int = LIMIT) -> str:
    """``text`` (anything: it is turned into a string) as a person may safely see it: cut to
    ``limit`` characters, then every control, bidi-override and lone-surrogate character escaped."""
    s = text if isinstance(text, str) else str(text)
    return _UNSAFE.sub(_escape, cut(s, limit))


def shown_markup(text: object, limit: int = LIMIT) -> str:
    """:func:`shown`, then escaped for Rich/Textual markup, so ``[bold]`` or ``[@click=app.quit]``
    in a name is shown as written and never interpreted."""
    from rich.markup import escape

    return escape(shown(text, limit))


def _picture(m: re.Match[str]) -> str:
    code = ord(m.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures: "\x1b" is drawn as "␛"
    return "\u2421" if code == 0x7F else "\ufffd"


def visible(text: str, lines: bool = False) -> str:
    """``text`` with every character :func:`shown` would escape drawn as ONE visible character (the
    Unicode control pictures for C0 and DEL, U+FFFD for the others): the same length, so styles laid
    over a Rich ``Text`` stay in place (the viewer uses it; nothing is cut). With ``lines``, a newline
    stays a newline (a panel's own line breaks)."""
    if lines:
        return "\n".join(_UNSAFE.sub(_picture, part) for part in text.split("\n"))
    return _UNSAFE.sub(_picture, text)


def has_unsafe(text: str) -> bool:
    """Whether ``text`` holds a character :func:`shown` would escape."""
    return _UNSAFE.search(text) is not None
