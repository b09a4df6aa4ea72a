"""Rebuild the bundled replays: ``python replays/build.py`` from the repository root.

Every file is deterministic; ``tests/test_replays.py`` checks what ``verify`` says of each.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dominolog.log.hashchain import add_hashes  # noqa: E402
from dominolog.log.writer import dump_line  # noqa: E402
from dominolog.simulate import hide_match, simulate_match  # noqa: E402
from tests.ghost13_scenarios import HIGH, LOW, PUPPET_ANA, PUPPET_BEN, PUPPET_PLAYS, direct_hand  # noqa: E402

OUT = ROOT / "replays"


def write(name: str, matches: list[list[dict[str, Any]]]) -> None:
    lines = [dump_line(e) for events in matches for e in events]
    (OUT / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def numbered(events: list[dict[str, Any]], start: str, step: int = 25) -> list[dict[str, Any]]:
    """Give events seq numbers and clock times from ``start`` (HH:MM) on a fixed evening."""
    h, m = map(int, start.split(":"))
    out = []
    for i, e in enumerate(events, 1):
        secs = h * 3600 + m * 60 + i * step
        at = f"2026-11-20T{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}Z"
        out.append({"type": e["type"], "seq": i, **{k: v for k, v in e.items() if k != "type"}, "at": at})
    return out


def swap(e: dict[str, Any]) -> dict[str, Any]:
    names = {"Ana": "Ben", "Ben": "Ana"}
    return {k: names.get(v, v) if k in ("player", "leader") else v for k, v in e.items()}


def tabletop() -> list[dict[str, Any]]:
    """A simulated match as a table recorder writes it: hands unseen, reveals, notes, a corrected slip."""
    events = hide_match(simulate_match("ghost13", 11))
    events = [{k: v for k, v in e.items() if k not in ("hash", "seq", "at")} for e in events]
    events[0]["id"] = "club-2026-11-20-table-3"
    events[0]["meta"] = {"event": "Thursday club night", "site": "Café Domino", "table": "3", "recorder": "Cleo"}
    events[0]["players"] = ["Ana", "Ben"]
    first_play = next(i for i, e in enumerate(events) if e["type"] == "play")
    slip = dict(events[first_play + 3])
    real = slip["tile"]
    slip_tile = next(t for t in ("0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6") if t != real)
    slip["tile"] = slip_tile
    events[first_play + 3 : first_play + 3] = [
        slip,
        {"type": "undo", "reason": f"recorder slip: the tile was {real}"},
    ]
    events.insert(1, {"type": "note", "text": "Ana won the draw for the lead (recorded by Cleo)"})
    return numbered(events, "19:30")


def disputed_full() -> list[dict[str, Any]]:
    """Two hands: the second has a renege (Ana passes holding 6-6) and wrong claims."""
    hand2_plays = [swap(p) for p in PUPPET_PLAYS[:9]]
    events: list[dict[str, Any]] = [
        {
            "type": "match_start",
            "variant": "ghost13",
            "players": ["Ana", "Ben"],
            "options": {"target": 250},
            "id": "disputed-2026-11-20",
            "meta": {"event": "Thursday club night", "table": "1", "dispute": "hand 2 claimed for Ana"},
        },
        *direct_hand(HIGH, LOW),
        {"type": "hand_end", "points": {"Ana": 0, "Ben": 124}, "winner": "Ben"},
        {"type": "deal", "leader": "Ben", "hands": {"Ben": PUPPET_ANA + LOW, "Ana": PUPPET_BEN + HIGH}},
        *hand2_plays,
        {"type": "pass", "player": "Ana"},  # holds 6-6 on a line showing 6 and 6: a renege
        {"type": "pass", "player": "Ben"},
        {"type": "note", "text": "Ana: blocked, Ben's block failed", "player": "Ana"},
        {"type": "hand_end", "points": {"Ana": 102, "Ben": 0}, "winner": "Ana"},
        {"type": "match_end", "totals": {"Ana": 102, "Ben": 124}, "reason": "abandoned"},
    ]
    return add_hashes(numbered(events, "21:05"))


def disputed_hidden() -> list[dict[str, Any]]:
    """Recorded with hidden hands: Ben's pass is a renege that only the reveals prove."""
    events: list[dict[str, Any]] = [
        {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "disputed-hidden-2026-11-20"},
        {"type": "deal", "leader": "Ana", "hands": None},
        *PUPPET_PLAYS[:9],
        {"type": "pass", "player": "Ben"},
        {"type": "pass", "player": "Ana"},
        {"type": "reveal", "player": "Ana", "tiles": LOW},
        {"type": "reveal", "player": "Ben", "tiles": [*HIGH, "6-6"]},
        {"type": "hand_end", "points": {"Ana": 56, "Ben": 0}, "winner": "Ana"},
        {"type": "match_end", "totals": {"Ana": 56, "Ben": 0}, "winner": "Ana"},
    ]
    return numbered(events, "22:10")


def main() -> None:
    write("ghost13-simulated.jsonl", [simulate_match("ghost13", 7)])
    write("ghost13-tabletop-hidden.jsonl", [tabletop()])
    write("ghost13-disputed.jsonl", [disputed_full(), disputed_hidden()])


if __name__ == "__main__":
    main()
