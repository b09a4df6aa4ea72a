"""Building small logs by hand for tests."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import MatchReducer, MatchReport, reduce_match
from dominolog.tiles import DOUBLE_SIX, Tile

ALL_TILES = [str(t) for t in DOUBLE_SIX]


def tiles(text: str) -> list[str]:
    return text.split()


def rest(*used: list[str]) -> list[str]:
    """The tiles of the set not in any of the given lists."""
    taken = {Tile.parse(t) for group in used for t in group}
    return [str(t) for t in DOUBLE_SIX if t not in taken]


def match_log(
    events: list[dict[str, Any]],
    variant: str = "ghost13",
    players: tuple[str, ...] = ("Ana", "Ben"),
    options: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    start: dict[str, Any] = {"type": "match_start", "variant": variant, "players": list(players)}
    if options:
        start["options"] = options
    return [start, *events]


def to_bytes(events: list[dict[str, Any]]) -> bytes:
    return ("\n".join(dump_line(e) for e in events) + "\n").encode()


def run(events: list[dict[str, Any]], **kw: Any) -> MatchReport:
    """Verify a match given as its events after match_start."""
    data = to_bytes(match_log(events, **kw))
    (log,) = list(iter_matches("test.jsonl", data))
    return reduce_match(log).report()


def fold(events: list[dict[str, Any]], upto: int | None = None, **kw: Any) -> MatchReducer:
    data = to_bytes(match_log(events, **kw))
    (log,) = list(iter_matches("test.jsonl", data))
    return reduce_match(log, upto)


def codes(report: MatchReport) -> list[tuple[int, str]]:
    return [(v.seq, v.code) for v in report.violations]


def play(player: str, tile: str, end: str | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "play", "player": player, "tile": tile}
    if end:
        e["end"] = end
    return e


def pass_(player: str) -> dict[str, Any]:
    return {"type": "pass", "player": player}


def deal(leader: str, hands: dict[str, list[str]] | None, **kw: Any) -> dict[str, Any]:
    return {"type": "deal", "leader": leader, "hands": hands, **kw}


def hand_end(points: dict[str, int] | None = None, winner: Any = ..., **kw: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "hand_end"}
    if points is not None:
        e["points"] = points
    if winner is not ...:
        e["winner"] = winner
    e.update(kw)
    return e


class Tags(HTMLParser):
    """Every start tag of a page with its attributes, and the text outside tags."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(page: str) -> Tags:
    """The tags and text of an HTML page (:class:`Tags`)."""
    tags = Tags()
    tags.feed(page)
    tags.close()
    return tags
