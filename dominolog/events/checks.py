"""Hand-written checks of the common event shapes: the fast path of :func:`dominolog.events.parse_event`.

:func:`fast_event` returns the event when it is *sure* the pydantic models of
:mod:`dominolog.events.models` would accept the object, and ``None`` otherwise: then the models
decide, and give the message when something is wrong. So these checks may be stricter than the
models (a timestamp with a non-ASCII digit, a number beyond 64 bits: left to the models), never
looser. ``tests/test_event_checks.py`` holds them to that on every line of the bundled replays, on
simulated matches and on hypothesis-made objects, valid and broken.

Each check mirrors one model field for field: the limits are the models' (FORMAT.md, Limits).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from dominolog.events.kinds import (
    COMMON_KEYS,
    VARIANT_NAMES,
    BlockCall,
    Deal,
    Declare,
    Draw,
    Event,
    HandEnd,
    MatchEnd,
    MatchStart,
    Note,
    Pass,
    Play,
    Reveal,
    Undo,
)

_TILES: Final = frozenset(f"{a}-{b}" for a in range(7) for b in range(7))
_ENDS: Final = frozenset({"left", "right"} | _TILES | {f"{t}:{d}" for t in _TILES for d in "NESW"})
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})")
#: what a hash is (the floor of bench/bench_builds.py times it); _hash decides it without the pattern
_HEX = re.compile("[0-9a-f]{64}")
#: a hash's bytes with each lowercase hex digit made "0": 64 zeros exactly when it is 64 lowercase hex digits
_HEX_TO_ZERO: Final = bytes.maketrans(b"123456789abcdef", b"0" * 15)
_HEX_ZEROS: Final = b"0" * 64
#: a timestamp's bytes with each digit made "0"; _TIME_SHAPES: the common spellings of a time so made (with
#: a second's fraction of up to 9 digits, in UTC or at an offset): one of them is a time _TIME takes
_DIGIT_TO_ZERO: Final = bytes.maketrans(b"123456789", b"0" * 9)
_TIME_SHAPES: Final = frozenset(
    f"0000-00-00{sep}00:00:00{frac}{zone}".encode()
    for sep in "Tt "
    for frac in ("", *("." + "0" * n for n in range(1, 10)))
    for zone in ("Z", "z", "+00:00", "-00:00")
)
_INT64 = 1 << 63
#: names already found good (1-40 characters, no control character): a log repeats a few of them
_good_names: set[str] = set()


def _hash(value: str) -> bool:
    """64 lowercase hex digits (what ``[0-9a-f]{64}`` takes, without a pattern: a translation and a compare)."""
    return len(value) == 64 and value.isascii() and value.encode().translate(_HEX_TO_ZERO) == _HEX_ZEROS


def _time(value: str) -> bool:
    """An RFC 3339 time as ``_TIME`` takes it: a common spelling by its shape, any other by the pattern."""
    if not value.isascii():  # (the pattern's digits and marks are all ASCII)
        return False
    return value.encode().translate(_DIGIT_TO_ZERO) in _TIME_SHAPES or _TIME.fullmatch(value) is not None


def _name(value: Any) -> bool:
    """A player name: 1-40 characters, no control characters (C0, DEL, C1)."""
    if type(value) is not str:
        return False
    if value in _good_names:
        return True
    if not 0 < len(value) <= 40 or _CONTROL.search(value):
        return False
    if len(_good_names) > 10_000:  # a file of many players: never grow without bound
        _good_names.clear()
    _good_names.add(value)
    return True


def _opt_name(value: Any) -> bool:
    return value is None or _name(value)


def _tile(value: Any) -> bool:
    return type(value) is str and value in _TILES


def _opt_tile(value: Any) -> bool:
    return value is None or (type(value) is str and value in _TILES)


def _tiles(value: Any) -> bool:
    return type(value) is list and all(type(t) is str and t in _TILES for t in value)


def _text(value: Any, most: int) -> bool:
    return type(value) is str and len(value) <= most


def _int(value: Any) -> bool:
    return type(value) is int and -_INT64 <= value < _INT64


def _scores(value: Any) -> bool:
    """``points``/``totals``: null, or at most 4 players, each with a whole number."""
    return value is None or (
        type(value) is dict and len(value) <= 4 and all(_name(k) and _int(v) for k, v in value.items())
    )


def _winner(value: Any) -> bool:
    return value is None or _name(value) or (type(value) is list and all(_name(p) for p in value))


def _play(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Play | None:
    tile, end, tiles = o.get("tile"), o.get("end"), o.get("tiles")
    if not _name(o.get("player")):
        return None
    if tiles is None:  # one tile, maybe an end
        if not _tile(tile) or not (end is None or (type(end) is str and end in _ENDS)):
            return None
    elif tile is not None or end is not None or not (type(tiles) is list and len(tiles) == 2 and _tiles(tiles)):
        return None
    else:
        tiles = list(tiles)
    return Play(o["player"], tile, end, tiles, s, at, h, o)


def _draw(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Draw | None:
    if not (_name(o.get("player")) and _opt_tile(o.get("tile"))):
        return None
    return Draw(o["player"], o.get("tile"), s, at, h, o)


def _pass(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Pass | None:
    if not _name(o.get("player")):
        return None
    return Pass(o["player"], s, at, h, o)


def _block_call(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> BlockCall | None:
    if not _name(o.get("player")):
        return None
    return BlockCall(o["player"], s, at, h, o)


def _declare(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Declare | None:
    suit = o.get("suit")
    if not (_name(o.get("player")) and type(suit) is str and suit in ("even", "odd")):
        return None
    return Declare(o["player"], suit, s, at, h, o)


def _reveal(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Reveal | None:
    if not (_name(o.get("player")) and _tiles(o.get("tiles"))):
        return None
    return Reveal(o["player"], list(o["tiles"]), s, at, h, o)


def _deal(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Deal | None:
    hands = o.get("hands")
    if not (
        _name(o.get("leader"))
        and _opt_name(o.get("dealer"))
        and _opt_name(o.get("chooser"))
        and _opt_tile(o.get("start_tile"))
    ):
        return None
    if hands is not None:
        if not (
            type(hands) is dict
            and len(hands) <= 4
            and all(_name(p) and (h is None or _tiles(h)) for p, h in hands.items())
        ):
            return None
        hands = {p: None if h is None else list(h) for p, h in hands.items()}
    return Deal(
        o["leader"], o.get("dealer"), hands, o.get("start_tile"), o.get("chooser"),
        s, at, h, o,
    )  # fmt: skip


def _hand_end(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> HandEnd | None:
    points, winner = o.get("points"), o.get("winner")
    if not (_scores(points) and _winner(winner)):
        return None
    return HandEnd(
        None if points is None else dict(points), list(winner) if type(winner) is list else winner,
        s, at, h, o,
    )  # fmt: skip


def _match_end(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> MatchEnd | None:
    totals, winner, reason = o.get("totals"), o.get("winner"), o.get("reason")
    abandoned = reason is None or (type(reason) is str and reason == "abandoned")
    if not (abandoned and _scores(totals) and _winner(winner)):
        return None
    return MatchEnd(
        None if totals is None else dict(totals), list(winner) if type(winner) is list else winner, reason,
        s, at, h, o,
    )  # fmt: skip


def _note(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Note | None:
    if not (_text(o.get("text"), 2000) and _opt_name(o.get("player"))):
        return None
    return Note(o["text"], o.get("player"), s, at, h, o)


def _undo(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> Undo | None:
    reason = o.get("reason")
    if not (reason is None or _text(reason, 2000)):
        return None
    return Undo(reason, s, at, h, o)


def _match_start(o: dict[str, Any], s: int | None, at: str | None, h: str | None) -> MatchStart | None:
    variant, players, options, mid, meta = (o.get(k) for k in ("variant", "players", "options", "id", "meta"))
    if not (
        type(variant) is str
        and variant in VARIANT_NAMES
        and type(players) is list
        and 2 <= len(players) <= 4
        and all(_name(p) for p in players)
        and len(set(players)) == len(players)
    ):
        return None
    if options is not None and not (type(options) is dict and all(type(k) is str for k in options)):
        return None
    if mid is not None and not (type(mid) is str and 0 < len(mid) <= 100 and not _CONTROL.search(mid)):
        return None
    if meta is not None and not (
        type(meta) is dict and len(meta) <= 50 and all(_text(k, 40) and _text(v, 500) for k, v in meta.items())
    ):
        return None
    return MatchStart(
        variant, list(players), None if options is None else dict(options), mid,
        None if meta is None else dict(meta), s, at, h, o,
    )  # fmt: skip


_Check = Callable[[dict[str, Any], Any, Any, Any], Event | None]
#: each event type: its check, and the keys its object may hold
_CHECKS: Final[dict[str, tuple[_Check, frozenset[str]]]] = {
    kind: (check, frozenset((*COMMON_KEYS, *fields)))
    for kind, check, fields in (
        ("play", _play, ("player", "tile", "end", "tiles")),
        ("draw", _draw, ("player", "tile")),
        ("pass", _pass, ("player",)),
        ("block_call", _block_call, ("player",)),
        ("declare", _declare, ("player", "suit")),
        ("reveal", _reveal, ("player", "tiles")),
        ("deal", _deal, ("leader", "dealer", "hands", "start_tile", "chooser")),
        ("hand_end", _hand_end, ("points", "winner")),
        ("match_end", _match_end, ("totals", "winner", "reason")),
        ("note", _note, ("text", "player")),
        ("undo", _undo, ("reason",)),
        ("match_start", _match_start, ("variant", "players", "options", "id", "meta")),
    )
}


def fast_event(obj: Any) -> Event | None:
    """The event, when the checks are sure the models accept ``obj`` as it; else None (ask the models)."""
    if type(obj) is not dict:
        return None
    kind = obj.get("type")
    found = _CHECKS.get(kind) if type(kind) is str else None
    if found is None or not found[1].issuperset(obj):  # (every key of obj: one of the type's)
        return None
    # what every event may have: seq (a whole number from 1), at (RFC 3339), hash (64 lowercase hex digits)
    seq, at, h = obj.get("seq"), obj.get("at"), obj.get("hash")
    if (
        (seq is not None and not (type(seq) is int and 1 <= seq < _INT64))
        or (at is not None and not (type(at) is str and _time(at)))
        or (h is not None and not (type(h) is str and _hash(h)))
    ):
        return None
    # (the turn events, most of a log, called directly: a call through the table is a Python call)
    if kind == "play":
        return _play(obj, seq, at, h)
    if kind == "draw":
        return _draw(obj, seq, at, h)
    if kind == "pass":
        return _pass(obj, seq, at, h)
    return found[0](obj, seq, at, h)
