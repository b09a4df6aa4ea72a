"""Rebuild the bundled replays: ``python replays/build.py`` with dominolog installed.

Every file is deterministic; ``tests/test_replays.py`` checks what ``verify`` says of each. Run as a
script, it finds its siblings (``replays``, ``tests``) through the repository root, added at the END
of ``sys.path`` so that ``dominolog`` is still the installed package; imported by the tests, it
changes nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if not __package__:  # run as a script
    sys.path.append(str(ROOT))

from dominolog.log.hashchain import add_hashes  # noqa: E402
from dominolog.log.writer import dump_line  # noqa: E402
from dominolog.simulate import Policy, hide_match, simulate_match  # noqa: E402
from dominolog.state import HandState, MatchState  # noqa: E402
from replays import build_39, build_double_bergen  # noqa: E402
from replays.editing import dressed, numbered, renumber, strip, verified  # noqa: E402
from tests.ghost13_scenarios import HIGH, LOW, PUPPET_ANA, PUPPET_BEN, PUPPET_PLAYS, direct_hand  # noqa: E402

OUT = ROOT / "replays"


def write(name: str, matches: list[list[dict[str, Any]]]) -> None:
    lines = [dump_line(e) for events in matches for e in events]
    (OUT / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


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


# -- the draw games ----------------------------------------------------------------------------------


def once_reneging(player: str, from_hand: int, wants: Callable[[HandState, str], bool]) -> Policy:
    """A policy: the first time ``player`` could play (in hand ``from_hand`` or later) and ``wants`` says so,
    they draw instead."""
    done: list[bool] = []

    def policy(match: MatchState, hand: HandState, who: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        if done or who != player or hand.number < from_hand or hand.boneyard.count <= 2:
            return None
        if not any(a["type"] == "play" for a in actions) or not wants(hand, who):
            return None
        done.append(True)
        return {"type": "draw", "player": who}

    return policy


def fitting(hand: HandState, who: str) -> int:
    values = hand.layout.open_values()
    return sum(1 for t in hand.holdings[who].known if any(t.has(v) for v in values))


def bsn_disputed() -> list[dict[str, Any]]:
    """Recorded hidden: Ben draws while holding two playable tiles (a renege only the reveals prove), and the
    table forgets the +5 after a domino."""
    for seed in range(200):
        policy = once_reneging("Ben", 2, lambda hand, who: fitting(hand, who) >= 2 and hand.boneyard.count <= 6)
        events = strip(hide_match(simulate_match("brettspielnetz", seed, policy=policy)))
        report = verified(renumber(events))
        proven = [v for v in report.violations if v.code == "renege" and "shown by the reveals" in v.message]
        dominoes = [h.number for h in report.hands if h.end == "domino" and h.number >= 2]
        if len(report.violations) != 1 or not proven or not dominoes:
            continue
        events[0]["id"] = f"bsn-disputed-{seed}"
        events[0]["meta"] = {"event": "league round 3", "dispute": "Ben's draws; the penalty after a domino"}
        ends = [i for i, e in enumerate(events) if e["type"] == "hand_end"]
        i = ends[dominoes[0] - 1]
        hand = report.hands[dominoes[0] - 1]
        loser = next(p for p, v in hand.points.items() if v)
        events[i] = {**events[i], "points": {**hand.points, loser: hand.points[loser] - 5}}
        events.insert(i, {"type": "note", "text": f"{loser}: no +5, we never play with that", "player": loser})
        return renumber(events)
    raise SystemExit("no seed gives the brettspielnetz dispute")


def dd_disputed() -> list[dict[str, Any]]:
    """Three players recorded hidden: Cleo draws while holding a pair play (only the reveals prove it), Ana
    calls a blocked game that is not blocked, and a hand is claimed without subtracting the winner's pips."""
    players = ["Ana", "Ben", "Cleo"]

    def wants(hand: HandState, who: str) -> bool:
        return hand.boneyard.count <= 3

    for seed in range(300):
        policy = once_reneging("Cleo", 1, wants)
        events = strip(hide_match(simulate_match("double-draw", seed, 0, players, policy=policy)))
        plays = [i for i, e in enumerate(events) if e["type"] == "play"]
        events.insert(plays[1] + 1, {"type": "block_call", "player": "Ana", "at": events[plays[1]]["at"]})
        report = verified(renumber(events))
        proven = [v for v in report.violations if v.code == "renege" and "shown by the reveals" in v.message]
        called = [v for v in report.violations if v.code == "illegal" and "blocked game" in v.message]
        kept = [h for h in report.hands if h.winner is not None and h.detail["pips"][h.winner] > 0]
        if len(report.violations) != 2 or not proven or not called or not kept:
            continue
        events[0]["id"] = f"dd-disputed-{seed}"
        events[0]["meta"] = {"event": "kitchen table", "dispute": "Cleo's draw; Ana's call; hand scoring"}
        ends = [i for i, e in enumerate(events) if e["type"] == "hand_end"]
        hand = kept[0]
        i = ends[hand.number - 1]
        winner = hand.winner
        assert isinstance(winner, str)
        others = sum(v for p, v in hand.detail["pips"].items() if p != winner)
        events[i] = {**events[i], "points": {**hand.points, winner: others}}
        return renumber(events)
    raise SystemExit("no seed gives the double-draw dispute")


def main() -> None:
    write("ghost13-simulated.jsonl", [simulate_match("ghost13", 7)])
    write("ghost13-tabletop-hidden.jsonl", [tabletop()])
    write("ghost13-disputed.jsonl", [disputed_full(), disputed_hidden()])
    write("brettspielnetz-simulated.jsonl", [simulate_match("brettspielnetz", 7)])
    write(
        "brettspielnetz-tabletop-hidden.jsonl",
        [
            dressed(
                hide_match(simulate_match("brettspielnetz", 12), viewer="Ana"),
                "ana-vs-ben-2026-11-19",
                {"event": "evening game", "recorder": "Ana (her own hand and draws)"},
            )
        ],
    )
    write("brettspielnetz-disputed.jsonl", [bsn_disputed()])
    dd_players = ["Ana", "Ben", "Cleo", "Dev"]
    write(
        "double-draw-simulated.jsonl",
        [
            simulate_match("double-draw", 7, 0),
            simulate_match("double-draw", 7, 1, dd_players[:3]),
            simulate_match("double-draw", 7, 2, dd_players),
            simulate_match("double-draw", 7, 3, dd_players, {"partners": True}),
        ],
    )
    write(
        "double-draw-tabletop-hidden.jsonl",
        [
            dressed(
                hide_match(simulate_match("double-draw", 12, 0, dd_players, {"partners": True})),
                "club-2026-11-21-partners",
                {"event": "club pairs night", "table": "2", "recorder": "a spectator"},
            ),
            dressed(
                hide_match(simulate_match("double-draw", 12, 1, dd_players[:3]), viewer="Cleo"),
                "cleo-records-2026-11-21",
                {"event": "three-handed", "recorder": "Cleo (her own hand and draws)"},
            ),
        ],
    )
    write("double-draw-disputed.jsonl", [dd_disputed()])
    for module in (build_39, build_double_bergen):
        for name, matches in module.replays().items():
            write(name, matches)


if __name__ == "__main__":
    main()
