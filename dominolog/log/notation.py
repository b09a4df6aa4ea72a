"""The dominolog notation (``.dn``), pure syntax: text into actions, with every error kept.

A ``.dn`` text is white-space separated tokens (docs/notation.md): header tags
(``[Variant "ghost13"]``), actions (``65R``, ``Ben:-``, ``deal Ana [?]``, ``* Ana 6 Ben 0 >Ana``),
optional time stamps (``(19:31:40)``) and escapes (``${...}``). :func:`parse` turns the text into
:class:`Action` objects, as written: who is on move, who leads and what a short time stamp means
are left to :mod:`dominolog.recording.notation`, which folds the match. Parsing never stops at a
bad token: it records a :class:`NotationError` (an ``error`` action) and goes on after the next
white space, python-chess style.

The vocabulary (:class:`NotationError`, :class:`Action`, :class:`Clock`, the tags and keywords) is
:mod:`dominolog.log.notation_tokens`, re-exported here; the scanner under the parser and the
header of tags are :mod:`dominolog.log.notation_scan`; writing one event as a token is
:mod:`dominolog.log.notation_write`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dominolog.log.notation_scan import Scanner
from dominolog.log.notation_tokens import (
    DESCRIBE,
    EXPECTED_ACTION,
    KEYWORDS,
    MAX_DIGITS,
    META_TAGS,
    RE_INT,
    RE_WORD,
    TAGS,
    TURN_KINDS,
    Action,
    Clock,
    NotationError,
    ParseFail,
    is_bare_name,
    is_name_char,
    is_name_start,
    is_short_time,
    split_tile,
)
from dominolog.log.reader import decode_line
from dominolog.textsafe import shown


@dataclass(slots=True)
class Parsed:
    """What :func:`parse` read: every action in order (errors included, as ``error`` actions, and as
    the list ``errors``)."""

    actions: list[Action]
    errors: list[NotationError]


def parse(text: str) -> Parsed:
    """Read a ``.dn`` text. Never raises for anything the text holds.

    Bytes that were not UTF-8 should come in as the surrogate escapes of
    ``bytes.decode("utf-8", "surrogateescape")``: a token holding one is an error (``expected UTF-8
    text, got the byte 0xff``)."""
    p = _Parser(text)
    p.run()
    return Parsed(p.actions, [a.error for a in p.actions if a.error is not None])


def starts_match(action: Action) -> bool:
    """Whether the action begins a match: a header, or an escape whose line is a ``match_start``."""
    if action.kind == "match_start":
        return True
    if action.kind != "escape":
        return False
    value = action.value
    if isinstance(value, dict):
        return value.get("type") == "match_start"
    try:
        data = value.encode("utf-8", "surrogateescape").strip()
    except UnicodeEncodeError:
        return False
    return bool(data) and decode_line(data, 0, 0).type == "match_start"


class _Parser(Scanner):
    """The actions of a text."""

    def run(self) -> None:
        text = self.text
        while True:
            self.skip_ws()
            if self.pos >= self.n:
                break
            start = self.pos
            c = text[start]
            if c == "[":
                if self.tags is None:
                    self.tags = []
                try:
                    self.tag()
                    self.check_bytes(start)
                except ParseFail as exc:
                    if exc.skip is None:
                        exc.skip = self.after_bracket(exc.at)
                    self.tag_errors.append(self.error(exc, start))
                continue
            try:
                action = self.escape() if c == "$" else self.action()
                if action.kind != "escape":
                    self.time(action)
                if self.pos < self.n and not text[self.pos].isspace():
                    raise ParseFail(f"{DESCRIBE.get(action.kind, 'an action')} followed by white space", self.pos)
                self.check_bytes(start)
            except ParseFail as exc:
                self.flush_header()
                self.actions.append(self.error(exc, start))
                continue
            action.line, action.column = self.where(start)
            action.text = text[start : self.pos]
            if (  # [Log ...] before an escaped match_start
                action.kind == "escape"
                and self.tags is not None
                and all(name == "Log" for name, _, _ in self.tags)
                and starts_match(action)
            ):
                action.log = self.header_log(self.tags)
                self.tags = None
            self.flush_header()
            self.actions.append(action)
        self.flush_header()

    def escape(self) -> Action:
        self.pos += 1
        self.skip_ws()
        start = self.pos
        value = self.json_value("a JSON object (an event) or a JSON string (a line of the log) after $")
        if not isinstance(value, dict | str):
            raise ParseFail("a JSON object (an event) or a JSON string (a line of the log) after $", start)
        return Action("escape", value=value)

    def action(self) -> Action:
        text, start = self.text, self.pos
        c = text[start]
        player = None
        if c == '"' or is_name_start(c):
            name, bare = self.name()
            nxt = self.peek()
            keyword = bare and name in KEYWORDS
            if bare and name == "deal" and (not nxt or nxt.isspace() or nxt == "("):
                return self.deal()
            if nxt == ":" and not keyword:
                self.pos += 1
                self.skip_ws()
                player = name
            elif text.startswith("=[", self.pos) and not keyword:
                return self.reveal(name)
            else:
                raise ParseFail(EXPECTED_ACTION, start)
        body = self.pos
        c = self.peek()
        if c in ("", "$", "[") or c.isspace():
            raise ParseFail(f"an action after {shown(player, 40)}: (a play, a pass, a draw, a note, ...)", body)
        if c.isdigit():
            action = self.play()
        elif c == "-":
            self.pos += 1
            action = Action("pass")
        elif c == "+":
            action = self.draw()
        elif c == "!":
            self.pos += 1
            m = RE_WORD.match(text, self.pos)
            if m is None or m[0] not in ("odd", "even"):
                raise ParseFail(DESCRIBE["declare"], body)
            self.pos = m.end()
            action = Action("declare", {"suit": m[0]})
        elif c == "#":
            self.pos += 1
            action = Action("block_call")
        elif c == "{":
            action = Action("note", {"text": self.braces("note")})
        elif c == "~":
            self.pos += 1
            action = Action("undo", {"reason": self.braces("reason")} if self.peek() == "{" else {})
        elif c == "*":
            action = self.ends()
        else:
            raise ParseFail(EXPECTED_ACTION if player is None else f"an action after {shown(player, 40)}:", body)
        if player is not None:
            if action.kind in ("undo", "hand_end", "match_end"):
                raise ParseFail(f"{DESCRIBE[action.kind]} without a player name (it has none)", start, self.pos)
            action.fields = {"player": player, **action.fields}
        elif action.kind in TURN_KINDS:
            action.context = True
        return action

    def play(self) -> Action:
        first = self.tile()
        c = self.peek()
        if c == "&":
            self.pos += 1
            return Action("play", {"tiles": [first, self.tile()]})
        fields: dict[str, Any] = {"tile": first}
        if c and c in "LlRr":
            self.pos += 1
            fields["end"] = "left" if c in "Ll" else "right"
        elif c == "@":
            self.pos += 1
            place = self.tile()
            d = self.peek()
            if d and d in "NESWnesw":
                self.pos += 1
                place += ":" + d.upper()
            fields["end"] = place
        return Action("play", fields)

    def draw(self) -> Action:
        self.pos += 1
        c = self.peek()
        if c == "?":
            self.pos += 1
            return Action("draw", {"tile": None})
        if c.isdigit():
            return Action("draw", {"tile": self.tile()})
        return Action("draw")

    def reveal(self, name: str) -> Action:
        start = self.pos
        self.pos += 2
        tiles = []
        try:
            while True:
                self.skip_ws()
                if self.peek() == "]":
                    self.pos += 1
                    break
                tiles.append(self.tile())
                c = self.peek()
                if c and c != "]" and not c.isspace():
                    raise ParseFail("white space between the tiles of a reveal", self.pos)
        except ParseFail as exc:
            exc.skip = self.after_bracket(start + 1)
            raise
        return Action("reveal", {"player": name, "tiles": tiles})

    def ends(self) -> Action:
        text = self.text
        self.pos += 1
        kind, key = ("hand_end", "points")
        if self.peek() == "*":
            self.pos += 1
            kind, key = ("match_end", "totals")
        c = self.peek()
        if c and not (c.isspace() or c == "("):
            raise ParseFail(DESCRIBE[kind], self.pos)
        fields: dict[str, Any] = {}
        pairs: dict[str, int] = {}
        while True:  # pairs: Name points
            save = self.pos
            self.skip_ws()
            c = self.peek()
            if not (c == '"' or (c and is_name_start(c))):
                self.pos = save
                break
            at = self.pos
            try:
                name, bare = self.name()
            except ParseFail:
                self.pos = save
                break
            if (bare and name in KEYWORDS) or not self.skip_ws():
                self.pos = save
                break
            m = RE_INT.match(text, self.pos)
            if m is None or (m.end() < self.n and not (text[m.end()].isspace() or text[m.end()] == "(")):
                self.pos = save
                break
            if len(m[0]) > MAX_DIGITS:
                raise ParseFail(f"a number of at most {MAX_DIGITS:,} digits", m.start())
            if name in pairs:
                raise ParseFail(f"each player once in the {key} ({shown(name, 40)!r} is given twice)", at, m.end())
            pairs[name] = int(m[0])
            self.pos = m.end()
        if pairs:
            fields[key] = pairs
        save = self.pos
        self.skip_ws()
        if self.peek() == ">":
            self.pos += 1
            if self.peek() == "-":
                self.pos += 1
                fields["winner"] = None
            else:
                names = [self.player("a winner (a player name, Ana+Cleo for partners, or - for none)")]
                while self.peek() == "+":
                    self.pos += 1
                    names.append(self.player("a second partner after +"))
                fields["winner"] = names[0] if len(names) == 1 else names
        else:
            self.pos = save
        if kind == "match_end":
            save = self.pos
            self.skip_ws()
            if text.startswith("abandoned", self.pos) and not is_name_char(self.peek(9) or " "):
                self.pos += 9
                fields["reason"] = "abandoned"
            else:
                self.pos = save
        return Action(kind, fields)

    def deal(self) -> Action:
        fields: dict[str, Any] = {}
        leader: str | None = None
        form = ""  # how the hands were given: "null" ([?]), "empty" ([]), "map"
        items = 0
        while True:
            save = self.pos
            if not self.skip_ws() or self.pos >= self.n:
                self.pos = save
                break
            c = self.peek()
            if c == "[":
                form = self.hand_item(fields, form)
                if not form.startswith("tag"):
                    items += 1
                    continue
                form = form[3:]
                self.pos = save
                break
            if not (c == '"' or is_name_start(c)):
                self.pos = save
                break
            at = self.pos
            name, bare = self.name()
            nxt = self.peek()
            if bare and name in ("dealer", "chooser", "start") and nxt == "=":
                self.pos += 1
                key = "start_tile" if name == "start" else name
                if key in fields:
                    raise ParseFail(f"one {name}= in a deal", at)
                fields[key] = self.tile() if name == "start" else self.player()
            elif (bare and name in KEYWORDS) or nxt in (":", "=") or leader is not None or items:
                self.pos = save
                break
            else:
                leader = name
            items += 1
        action = Action("deal", {"leader": leader, **fields} if leader is not None else fields)
        action.context = leader is None
        return action

    def hand_item(self, fields: dict[str, Any], form: str) -> str:
        """One ``[...]`` of a deal; returns the form of the hands so far, or ``"tag" + form`` when the
        bracket is a tag (a new match's header)."""
        start = self.pos
        self.pos += 1
        c = self.peek()
        try:
            if c in ("?", "]"):
                self.pos += 1
                if c == "?" and self.peek() != "]":
                    raise ParseFail("']' after [?", self.pos)
                self.pos += c == "?"
                if form:
                    raise ParseFail("[?] or [] alone (they say all the hands at once)", start)
                fields["hands"] = None if c == "?" else {}
                return "null" if c == "?" else "empty"
            if not (c == '"' or is_name_start(c)):
                raise ParseFail("a player name, or ? for hands not seen, after [", self.pos)
            name, bare = self.name()
            tiles: list[str] | None = []
            if self.peek() == "]":
                self.pos += 1
            elif self.skip_ws() and self.peek() == "?":
                self.pos += 1
                self.skip_ws()
                if self.peek() != "]":
                    raise ParseFail(f"']' after [{shown(name, 40)} ?", self.pos)
                self.pos += 1
                tiles = None
            elif self.peek().isdigit():
                while True:
                    tiles.append(self.tile())  # type: ignore[union-attr]
                    spaced = self.skip_ws()
                    if self.peek() == "]":
                        self.pos += 1
                        break
                    if not spaced:
                        raise ParseFail("white space between the tiles of a hand", self.pos)
            elif bare and name[0].isupper():
                return "tag" + form
            else:
                raise ParseFail(f"the tiles of {shown(name, 40)}'s hand, ? or ]", self.pos)
            if form in ("null", "empty"):
                raise ParseFail("[?] or [] alone (they say all the hands at once)", start)
            hands = fields.setdefault("hands", {})
            if name in hands:
                raise ParseFail(f"one hand for each player ({shown(name, 40)!r} is given twice)", start)
            hands[name] = tiles
            return "map"
        except ParseFail as exc:
            if exc.skip is None:
                exc.skip = self.after_bracket(start + 1)
            raise


__all__ = [
    "DESCRIBE",
    "KEYWORDS",
    "META_TAGS",
    "TAGS",
    "TURN_KINDS",
    "Action",
    "Clock",
    "NotationError",
    "Parsed",
    "is_bare_name",
    "is_short_time",
    "parse",
    "split_tile",
    "starts_match",
]
