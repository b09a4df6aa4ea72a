"""The dominolog notation (``.dn``), pure syntax: one event object as its compact token.

:func:`format_event` writes the compact form of one event given who is on move (and who the rules
say leads a deal), or None when the compact form cannot say it (an unknown field, a value of the
wrong type, ``points: {}``, ...): the writer then uses an escape. :func:`format_header` writes a
``match_start`` as tags. Nothing here checks that the token reads back to the same object; the
writer (:mod:`dominolog.recording.notation`) does, in context, and escapes when it does not.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from dominolog.log.notation import KEYWORDS, META_TAGS, Clock, is_bare_name

_TILE = re.compile(r"[0-6]-[0-6]")
_END = re.compile(r"([0-6])-([0-6])(?::([NESW]))?")
#: characters a written JSON string or note never holds as they are: controls, bidi controls, line
#: and paragraph separators, lone surrogates, non-characters (a person reads the file)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
_NOTE_UNSAFE = re.compile(
    "[\\\\{}\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)
_NOTE_NAMED: Final = {"\\": "\\\\", "{": "\\{", "}": "\\}", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_COMMON: Final = frozenset({"type", "seq", "at", "hash"})
_FIELDS: Final = {
    "play": {"player", "tile", "tiles", "end"},
    "pass": {"player"},
    "draw": {"player", "tile"},
    "declare": {"player", "suit"},
    "block_call": {"player"},
    "note": {"player", "text"},
    "undo": {"reason"},
    "reveal": {"player", "tiles"},
    "deal": {"leader", "hands", "dealer", "chooser", "start_tile"},
    "hand_end": {"points", "winner"},
    "match_end": {"totals", "winner", "reason"},
    "match_start": {"variant", "players", "options", "id", "meta"},
}
_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def _u(m: re.Match[str]) -> str:
    return f"\\u{ord(m[0]):04x}"


def json_text(value: Any) -> str | None:
    """``value`` as JSON, every character a reader should not meet raw written as ``\\uXXXX``; None
    when it is not JSON (NaN, a float too big) or nested too deep."""
    try:
        return _UNSAFE.sub(_u, _json(value))
    except (ValueError, TypeError, RecursionError):
        return None


def note_text(text: str) -> str:
    """The inside of ``{...}``: ``\\``, ``{``, ``}`` and unsafe characters escaped."""
    return _NOTE_UNSAFE.sub(lambda m: _NOTE_NAMED.get(m[0]) or _u(m), text)


def name_text(name: Any) -> str | None:
    """A player name as written: bare when it may be, else in double quotes."""
    if not isinstance(name, str):
        return None
    return name if is_bare_name(name) else json_text(name)


def tile_text(tile: Any) -> str | None:
    """``"5-3"`` as ``53``."""
    if not isinstance(tile, str) or not _TILE.fullmatch(tile):
        return None
    return tile[0] + tile[2]


def end_text(end: Any) -> str | None:
    if end == "left":
        return "L"
    if end == "right":
        return "R"
    m = _END.fullmatch(end) if isinstance(end, str) else None
    return None if m is None else f"@{m[1]}{m[2]}{m[3] or ''}"


def time_text(at: Any, clock: Clock) -> str | None:
    """``(19:31:40)`` (short, when that gives back ``at`` exactly) or ``(2026-...)``; None when ``at``
    cannot be written in parentheses. Does not change the clock."""
    if not isinstance(at, str) or ")" in at or _UNSAFE.search(at):
        return None
    short = clock.short(at)
    return f"({short})" if short is not None else f"({at})"


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _pairs(points: Any) -> str | None:
    if not isinstance(points, dict) or not points:
        return None
    out = []
    for k, v in points.items():
        name = name_text(k)
        if name is None or not _int(v):
            return None
        out.append(f"{name} {v}")
    return " ".join(out)


def _winner(winner: Any) -> str | None:
    if winner is None:
        return ">-"
    if isinstance(winner, list):
        if len(winner) < 2:
            return None
        names = [name_text(w) for w in winner]
        return None if None in names else ">" + "+".join(names)  # type: ignore[arg-type]
    name = name_text(winner)
    return None if name is None else ">" + name


def _tiles(tiles: Any) -> str | None:
    if not isinstance(tiles, list):
        return None
    out = [tile_text(t) for t in tiles]
    return None if None in out else " ".join(out)  # type: ignore[arg-type]


def format_event(event: Mapping[str, Any], on_move: str | None = None, leader: str | None = None) -> str | None:
    """The compact token of one event (without its time), or None when it has none.

    ``on_move``: the player on move before it (a turn event by that player is written without a
    name); ``leader``: who the rules say leads the next hand (a deal by that leader is written
    without one). ``seq``, ``at`` and ``hash`` are not written here."""
    kind = event.get("type")
    allowed = _FIELDS.get(kind) if isinstance(kind, str) else None
    if allowed is None or kind == "match_start" or not set(event) <= allowed | _COMMON:
        return None
    body = _body(kind, event, leader)
    if body is None:
        return None
    if kind in ("play", "pass", "draw", "declare", "block_call") or (kind == "note" and "player" in event):
        player = event.get("player")
        if not isinstance(player, str):
            return None
        if player != on_move or kind == "note":
            return f"{name_text(player)}:{body}"
    return body


def _body(kind: str, e: Mapping[str, Any], leader: str | None) -> str | None:
    if kind == "play":
        if "tiles" in e:
            tiles = e["tiles"]
            if "tile" in e or "end" in e or not isinstance(tiles, list) or len(tiles) != 2:
                return None
            a, b = tile_text(tiles[0]), tile_text(tiles[1])
            return None if a is None or b is None else f"{a}&{b}"
        tile = tile_text(e.get("tile"))
        if tile is None:
            return None
        if "end" not in e:
            return tile
        end = end_text(e["end"])
        return None if end is None else tile + end
    if kind == "pass":
        return "-"
    if kind == "draw":
        if "tile" not in e:
            return "+"
        if e["tile"] is None:
            return "+?"
        tile = tile_text(e["tile"])
        return None if tile is None else "+" + tile
    if kind == "declare":
        return "!" + e["suit"] if e.get("suit") in ("odd", "even") else None
    if kind == "block_call":
        return "#"
    if kind == "note":
        text = e.get("text")
        return "{" + note_text(text) + "}" if isinstance(text, str) else None
    if kind == "undo":
        if "reason" not in e:
            return "~"
        reason = e["reason"]
        return "~{" + note_text(reason) + "}" if isinstance(reason, str) else None
    if kind == "reveal":
        name, tiles = name_text(e.get("player")), _tiles(e.get("tiles"))
        return None if name is None or tiles is None else f"{name}=[{tiles}]"
    if kind == "deal":
        return _deal(e, leader)
    key = "points" if kind == "hand_end" else "totals"
    parts = ["*" if kind == "hand_end" else "**"]
    if key in e:
        pairs = _pairs(e[key])
        if pairs is None:
            return None
        parts.append(pairs)
    if "winner" in e:
        winner = _winner(e["winner"])
        if winner is None:
            return None
        parts.append(winner)
    if "reason" in e:
        if e["reason"] != "abandoned":
            return None
        parts.append("abandoned")
    return " ".join(parts)


def _deal(e: Mapping[str, Any], leader: str | None) -> str | None:
    who = e.get("leader")
    if not isinstance(who, str):
        return None
    parts = ["deal"]
    if who != leader or leader is None:
        parts.append(name_text(who))  # type: ignore[arg-type]
    for key, value in e.items():
        if key in ("dealer", "chooser"):
            name = name_text(value)
            if name is None:
                return None
            parts.append(f"{key}={name}")
        elif key == "start_tile":
            tile = tile_text(value)
            if tile is None:
                return None
            parts.append(f"start={tile}")
        elif key == "hands":
            if value is None:
                parts.append("[?]")
            elif not isinstance(value, dict):
                return None
            elif not value:
                parts.append("[]")
            for name, tiles in (value or {}).items():
                shown = name_text(name)
                if shown is None:
                    return None
                if tiles is None:
                    parts.append(f"[{shown} ?]")
                    continue
                text = _tiles(tiles)
                if text is None:
                    return None
                parts.append(f"[{shown} {text}]" if text else f"[{shown}]")
    return " ".join(parts)


def format_header(event: Mapping[str, Any], log: tuple[str, ...] = ()) -> list[str] | None:
    """A ``match_start`` as its tags (one string each), or None when tags cannot say it."""
    if event.get("type") != "match_start" or not set(event) <= _FIELDS["match_start"] | _COMMON:
        return None
    variant, players = event.get("variant"), event.get("players")
    if not isinstance(variant, str) or not isinstance(players, list) or not players:
        return None
    tags = [f"[Variant {json_text(variant)}]", "[Players " + " ".join(map(_value, players)) + "]"]
    if "id" in event:
        tags.append(f"[Id {_value(event['id'])}]")
    for key, tag in (("options", "Option"), ("meta", "Meta")):
        if key not in event:
            continue
        entries = event[key]
        if not isinstance(entries, dict) or not entries:
            return None
        for k, v in entries.items():
            named = next((t for t, m in META_TAGS.items() if m == k), None) if key == "meta" else None
            tags.append(f"[{named} {_value(v)}]" if named else f"[{tag} {json_text(k)} {_value(v)}]")
    if "at" in event:
        tags.append(f"[At {_value(event['at'])}]")
    if log:
        tags.append("[Log " + " ".join(f'"{x}"' for x in log) + "]")
    return None if any("\x00" in t for t in tags) else tags


def _value(v: Any) -> str:
    text = json_text(v)
    return text if text is not None else "\x00"  # never read back: the header is refused


__all__ = [
    "KEYWORDS",
    "end_text",
    "format_event",
    "format_header",
    "json_text",
    "name_text",
    "note_text",
    "tile_text",
    "time_text",
]
