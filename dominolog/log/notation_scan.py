"""The dominolog notation (``.dn``): the scanner under the parser, and the header of tags.

:class:`Scanner` keeps the position in the text, turns a failure into an ``error`` action with
its line and column, and reads the small pieces (names, tiles, braces, JSON values, time
stamps); it also reads a match's header of tags into one ``match_start`` action. The actions
themselves are read by :mod:`dominolog.log.notation`.
"""

from __future__ import annotations

import bisect
import json
import re
from json.decoder import scanstring
from typing import Any

from dominolog.log.notation_tokens import (
    KEYWORDS,
    META_TAGS,
    NOTE_ESCAPES,
    RE_BAD_BYTE,
    RE_BARE,
    RE_NOTE_STOP,
    RE_SPACE,
    RE_TAG_NAME,
    RE_TILE,
    RE_TOKEN,
    TAGS,
    Action,
    NotationError,
    ParseFail,
    hex4,
    is_short_time,
    split_tile,
)
from dominolog.textsafe import shown


class _Twice(ValueError):
    pass


def _pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(items)
    if len(out) != len(items):
        seen: set[str] = set()
        for k, _ in items:
            if k in seen:
                raise _Twice(k)
            seen.add(k)
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant)


class Scanner:
    """The text being read, the position in it, and the header being read."""

    def __init__(self, text: str) -> None:
        if text.startswith("\ufeff"):  # a byte order mark: not content
            text = " " + text[1:]
        self.text, self.n, self.pos = text, len(text), 0
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.bad = [m.start() for m in RE_BAD_BYTE.finditer(text)]
        self.actions: list[Action] = []
        #: the header being read: its tags (name, values, where), and the errors met in it
        self.tags: list[tuple[str, list[tuple[int, Any]], int]] | None = None
        self.tag_errors: list[Action] = []
        self.header_end = 0

    def where(self, pos: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, pos) - 1
        return i + 1, pos - self.starts[i] + 1

    def found(self, at: int) -> tuple[str, int]:
        """What stands at ``at``, for a message, and where its token ends."""
        if at >= self.n:
            return "the end of the file", at
        if self.text[at] == "\n":
            return "the end of the line", at
        if self.text[at].isspace():
            return "white space", at
        end = RE_TOKEN.match(self.text, at).end()  # type: ignore[union-attr]
        return f"'{shown(self.text[at:end], 40)}'", end

    def error(self, exc: ParseFail, start: int) -> Action:
        found, end = self.found(exc.at)
        resume = max(exc.skip if exc.skip is not None else end, start + 1)
        expected, at = exc.expected, exc.at
        i = bisect.bisect_left(self.bad, start)
        if i < len(self.bad) and self.bad[i] < max(resume, end):
            at = self.bad[i]
            expected, found = "UTF-8 text", f"the byte 0x{ord(self.text[at]) - 0xDC00:02x}"
        line, col = self.where(at)
        self.pos = min(resume, self.n)
        err = NotationError(line, col, expected, found)
        return Action("error", line=line, column=col, text=self.text[start : self.pos], error=err)

    def skip_ws(self) -> bool:
        m = RE_SPACE.match(self.text, self.pos)
        moved = m.end() > self.pos  # type: ignore[union-attr]
        self.pos = m.end()  # type: ignore[union-attr]
        return moved

    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.text[i] if i < self.n else ""

    def line_end(self, pos: int) -> int:
        j = self.text.find("\n", pos)
        return self.n if j < 0 else j

    def after_bracket(self, pos: int) -> int | None:
        """Just after the next ``]`` on the line (where to go on after a bad bracketed item)."""
        j = self.text.find("]", pos, self.line_end(pos))
        return None if j < 0 else j + 1

    def check_bytes(self, start: int) -> None:
        i = bisect.bisect_left(self.bad, start)
        if i < len(self.bad) and self.bad[i] < self.pos:
            raise ParseFail("UTF-8 text", start, self.pos)

    def tag(self) -> None:
        text, start = self.text, self.pos
        self.pos += 1
        m = RE_TAG_NAME.match(text, self.pos)
        if m is None:
            raise ParseFail(f"a tag name ({', '.join(TAGS)})", start)
        name = m[0]
        self.pos = m.end()
        values: list[tuple[int, Any]] = []
        while True:
            spaced = self.skip_ws()
            if self.pos >= self.n:
                raise ParseFail(f"']' to close the tag [{name}", self.pos, self.n)
            if text[self.pos] == "]":
                self.pos += 1
                break
            if not spaced:
                raise ParseFail(f"white space after [{name}", self.pos)
            values.append((self.pos, self.json_value("a JSON value (a string in double quotes, a number, ...)")))
        assert self.tags is not None
        self.check_tag(name, values, start)
        self.tags.append((name, values, start))
        self.header_end = self.pos

    def check_tag(self, name: str, values: list[tuple[int, Any]], start: int) -> None:
        if name not in TAGS:
            raise ParseFail(f"a tag name ({', '.join(TAGS)})", start)
        assert self.tags is not None
        end = self.pos
        keyed = name in ("Option", "Meta")
        if name == "Players":
            if not values:
                raise ParseFail("the players' names after [Players", end - 1)
        elif name == "Log":
            if not values or any(v not in ("seq", "hash") for _, v in values):
                raise ParseFail('"seq", "hash" or both after [Log', values[0][0] if values else end - 1)
            if len({v for _, v in values}) != len(values):
                raise ParseFail('"seq" and "hash" once each', values[0][0])
        elif len(values) != 1 + keyed:
            what = "a key (a string) and a value" if keyed else "one value"
            raise ParseFail(f"{what} in [{name}]", values[1 + keyed][0] if len(values) > 1 + keyed else end - 1)
        if keyed and not isinstance(values[0][1], str):
            raise ParseFail(f"a key in double quotes after [{name}", values[0][0])
        meta_key = META_TAGS.get(name) or (values[0][1] if name == "Meta" else None)
        for other, ovalues, _ in self.tags:
            if other == name and not keyed:
                raise ParseFail(f"one [{name}] tag in a header", start, end)
            if other == name == "Option" and ovalues[0][1] == values[0][1]:
                raise ParseFail(f"each option once (the option {shown(values[0][1], 40)!r} is given twice)", start, end)
            other_key = META_TAGS.get(other) or (ovalues[0][1] if other == "Meta" else None)
            if meta_key is not None and other_key == meta_key:
                raise ParseFail(f"each meta key once ({shown(meta_key, 40)!r} is given twice)", start, end)

    def flush_header(self) -> None:
        """The header read so far, if any, as one ``match_start`` action (then its tag errors)."""
        tags, self.tags = self.tags, None
        if tags:
            self.actions.append(self.header(tags))
        self.actions.extend(self.tag_errors)
        self.tag_errors = []

    def header(self, tags: list[tuple[str, list[tuple[int, Any]], int]]) -> Action:
        action = Action("match_start")
        got: dict[str, Any] = {}
        options: dict[str, Any] = {}
        meta: dict[str, Any] = {}
        at: list[Any] = []
        for name, values, _ in tags:
            v = [x for _, x in values]
            if name == "Variant":
                got["variant"] = v[0]
            elif name == "Players":
                got["players"] = v
            elif name == "Id":
                got["id"] = v[0]
            elif name == "At":
                if isinstance(v[0], str):
                    action.time = v[0]
                else:
                    at.append(v[0])
            elif name == "Log":
                action.log = self.header_log(tags)
            elif name == "Option":
                options[v[0]] = v[1]
            elif name == "Meta":
                meta[v[0]] = v[1]
            else:
                meta[META_TAGS[name]] = v[0]
        if options:
            got["options"] = options
        if meta:
            got["meta"] = meta
        if at:
            got["at"] = at[0]
        action.fields = got
        start = tags[0][2]
        action.line, action.column = self.where(start)
        action.text = self.text[start : self.header_end]
        for need, tag in (("variant", '[Variant "..."]'), ("players", '[Players "..." "..."]')):
            if need not in got:
                found = f"a header without one (tags {', '.join(n for n, _, _ in tags)})"
                action.error = NotationError(action.line, action.column, f"a {tag} tag in the match header", found)
                break
        return action

    @staticmethod
    def header_log(tags: list[tuple[str, list[tuple[int, Any]], int]] | None) -> tuple[str, ...]:
        for name, values, _ in tags or ():
            if name == "Log":
                return tuple(sorted((v for _, v in values), key=("seq", "hash").index))
        return ()

    def json_value(self, expected: str) -> Any:
        start = self.pos
        try:
            value, end = _DECODER.raw_decode(self.text, start)
        except _Twice as exc:
            raise ParseFail(
                f"each key once in a JSON object ({shown(str(exc), 40)!r} is written twice)", start
            ) from None
        except (ValueError, RecursionError):
            raise ParseFail(expected, start) from None
        self.pos = end
        return value

    def name(self, what: str = "a player name") -> tuple[str, bool]:
        """A name, bare or in double quotes; and whether it was bare."""
        text, start = self.text, self.pos
        c = self.peek()
        if c == '"':
            try:
                value, end = scanstring(text, start + 1, True)
            except ValueError:
                raise ParseFail(f"{what} in double quotes (a JSON string)", start) from None
            self.pos = end
            return value, False
        m = RE_BARE.match(text, start)
        if m is None:
            raise ParseFail(what, start)
        self.pos = m.end()
        return m[0], True

    def player(self, what: str = "a player name") -> str:
        start = self.pos
        name, bare = self.name(what)
        if bare and name in KEYWORDS:
            raise ParseFail(f"{what} (the word {name!r} is a keyword: write a player so named in double quotes)", start)
        return name

    def tile(self) -> str:
        m = RE_TILE.match(self.text, self.pos)
        if m is None:
            raise ParseFail("a tile (two digits 0 to 6: 53 or 5-3)", self.pos)
        self.pos = m.end()
        return split_tile(m[0])

    def braces(self, what: str) -> str:
        """``{text}`` with its backslash escapes; the position is at ``{``."""
        text, start = self.text, self.pos
        out: list[str] = []
        i = start + 1
        while True:
            m = RE_NOTE_STOP.search(text, i)
            if m is None or m[0] == "\n":
                end = self.line_end(start)
                raise ParseFail(f"'}}' to close the {what} before the end of the line", start, end)
            j = m.start()
            out.append(text[i:j])
            if m[0] == "}":
                self.pos = j + 1
                return "".join(out)
            esc = text[j + 1 : j + 2]
            if esc in NOTE_ESCAPES and esc:
                out.append(NOTE_ESCAPES[esc])
                i = j + 2
                continue
            code = hex4(text[j + 2 : j + 6]) if esc == "u" else None
            if code is None:
                close = text.find("}", j, self.line_end(j))
                raise ParseFail(
                    f"an escape in the {what} (\\\\, \\{{, \\}}, \\n, \\r, \\t or \\uXXXX)", j,
                    close + 1 if close >= 0 else self.line_end(j),
                )  # fmt: skip
            i = j + 6
            low = hex4(text[i + 2 : i + 6]) if 0xD800 <= code < 0xDC00 and text.startswith("\\u", i) else None
            if low is not None and 0xDC00 <= low < 0xE000:  # a surrogate pair: one character
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            out.append(chr(code))

    def time(self, action: Action) -> None:
        save = self.pos
        self.skip_ws()
        if self.peek() != "(":
            self.pos = save
            return
        start = self.pos
        end = self.text.find(")", start, self.line_end(start))
        if end < 0:
            raise ParseFail("')' to close the time stamp on its line", start, self.line_end(start))
        action.time = self.text[start + 1 : end]
        action.short_time = is_short_time(action.time)
        self.pos = end + 1
