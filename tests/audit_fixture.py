"""A sample audit document (``dominolog-audit/1``, the shape ``build_audit`` returns) for the renderers' tests.

Two hands of Brettspielnetz Domino between Ana and a player with a hostile name (HTML, Rich markup and
a terminal escape in one string). Hand 1 was recorded with the hands open: Ben draws at seq 9 while
holding three tiles that fit (a certain renege). Hand 2 was recorded from the table only: Ben draws
twice and then plays 0-2, which he may have held before the first draw (a possible renege); the
unrecorded deal leaves the hand sizes unverifiable. The pictures are the project's own SVG.
"""

from __future__ import annotations

import hashlib
from typing import Any

from dominolog.layouts.line import LineLayout
from dominolog.layouts.picture import line_as_grid, svg_picture
from dominolog.tiles import DOUBLE_SIX, Tile

ANA = "Ana"
BEN = "<b>Ben</b>[red]x\x1b[31m"
PLAYERS = [ANA, BEN]
RULE_C3 = {
    "id": "C3",
    "text": "Play is compulsory: whoever can play must. Passing or drawing while a legal play is in hand is a renege.",
}
RULE_B3 = {
    "id": "B3",
    "text": "A player who can play must play one tile. A player who cannot draws one tile at a time "
    "and stops at the first tile that fits.",
}
NOTE = f"{BEN} says he had no 0 or 5 when he drew at seq 43"
RULE_B1 = {"id": "B1", "text": "In each hand both players get 7 tiles."}

Step = tuple[Any, ...]


def _other(player: str) -> str:
    return BEN if player == ANA else ANA


def _hand_events(
    first_seq: int, leader: str, hands: dict[str, list[str]], script: list[Step], hidden: bool
) -> list[dict[str, Any]]:
    """The events of one hand, deal first: ends, turn, boneyard, knowledge and picture after each.

    ``hands`` is what was really dealt; with ``hidden`` the log records neither the deal nor the tiles
    drawn, so the knowledge is what the table shows. A step is ``("play", player, tile, end)``,
    ``("draw", player, tile)``, ``("reveal", player)``, ``("note", text)``, ``("retracted", player, text)``
    or ``("hand_end",)``.
    """
    held = {p: list(ts) for p, ts in hands.items()}
    revealed: dict[str, set[str]] = {p: set() for p in hands}
    line = LineLayout()
    boneyard = len(DOUBLE_SIX) - sum(len(ts) for ts in hands.values())
    turn: str | None = leader
    events: list[dict[str, Any]] = []

    def knowledge() -> dict[str, Any]:
        on_table = {str(t) for t in line.on_board}
        unseen = sorted(
            str(t) for t in DOUBLE_SIX if str(t) not in on_table and not any(str(t) in r for r in revealed.values())
        )
        out = {}
        for p, ts in held.items():
            if not hidden:
                out[p] = {"holds": sorted(ts), "may_hold": [], "count": len(ts)}
            else:
                holds = sorted(t for t in ts if t in revealed[p])
                may = unseen if len(ts) > len(holds) else []
                out[p] = {"holds": holds, "may_hold": may, "count": len(ts)}
        return out

    def add(kind: str, player: str | None, text: str, retracted: bool = False) -> None:
        seq = first_seq + len(events)
        ev: dict[str, Any] = {
            "seq": seq,
            "line": seq,
            "type": kind,
            "player": player,
            "text": text,
            "retracted": retracted,
            "ends": [line.left, line.right] if not line.empty else [],
            "turn": turn,
            "boneyard": boneyard,
            "knowledge": knowledge(),
            "findings": [],
        }
        if not line.empty:
            ev["svg"] = svg_picture(line_as_grid(line))
        events.append(ev)

    add("deal", None, f"deal leader {leader}")
    for step in script:
        kind = step[0]
        if kind == "play":
            _, player, tile, end = step
            t = Tile.parse(tile)
            if line.empty:
                line.place_first(t.lo, t.hi, t)
            else:
                line.place(t, end)
            held[player].remove(tile)
            turn = _other(player) if held[player] else None
            add("play", player, f"play {player} {tile}" + (f" {end}" if end else ""))
        elif kind == "draw":
            _, player, tile = step
            held[player].append(tile)
            boneyard -= 1
            add("draw", player, f"draw {player} {'(unseen)' if hidden else tile}")
        elif kind == "reveal":
            revealed[step[1]] = set(held[step[1]])
            add("reveal", step[1], f"reveal {step[1]} {' '.join(sorted(held[step[1]]))}")
        elif kind == "note":
            add("note", None, f"note {step[1]!r}")
        elif kind == "retracted":
            add(step[2].split()[0], step[1], step[2], retracted=True)
        else:
            turn = None
            add("hand_end", None, "hand_end")
    return events


def _at(events: list[dict[str, Any]], seq: int, index: int) -> None:
    next(e for e in events if e["seq"] == seq)["findings"].append(index)


def _hand_one() -> dict[str, Any]:
    hands = {
        ANA: ["6-6", "4-6", "2-4", "0-2", "5-5", "0-3", "2-6"],
        BEN: ["3-6", "1-3", "4-4", "1-1", "2-5", "0-5", "1-5"],
    }
    script: list[Step] = [
        ("play", ANA, "6-6", ""),  # 4
        ("play", BEN, "3-6", "right"),
        ("play", ANA, "4-6", "left"),
        ("play", BEN, "1-3", "right"),
        ("play", ANA, "2-4", "left"),  # 8: ends 2 and 1
        ("draw", BEN, "2-3"),  # 9: the renege (1-1, 1-5, 2-5 fit)
        ("play", BEN, "2-3", "left"),
        ("play", ANA, "0-3", "left"),
        ("play", BEN, "1-1", "right"),
        ("play", ANA, "0-2", "left"),
        ("play", BEN, "2-5", "left"),
        ("play", ANA, "5-5", "left"),
        ("play", BEN, "1-5", "right"),
        ("retracted", ANA, "play Ana 2-6 left"),  # 17: entered by mistake
        ("retracted", ANA, "undo"),  # 18
        ("draw", ANA, "3-5"),
        ("play", ANA, "3-5", "left"),
        ("play", BEN, "0-5", "right"),
        ("draw", ANA, "1-4"),
        ("draw", ANA, "0-6"),
        ("play", ANA, "0-6", "right"),
        ("draw", BEN, "4-5"),
        ("draw", BEN, "3-4"),
        ("play", BEN, "3-4", "left"),
        ("play", ANA, "2-6", "right"),
        ("play", BEN, "4-4", "left"),
        ("play", ANA, "1-4", "left"),  # 30: domino
        ("hand_end",),  # 31
    ]
    events = _hand_events(3, ANA, hands, script, hidden=False)
    _at(events, 9, 0)
    finding = {
        "seq": 9,
        "line": 9,
        "code": "renege",
        "certainty": "certain",
        "message": f"{BEN} draws while holding a legal play (1-1, 1-5 and 2-5 fit)",
        "rules": [RULE_C3, RULE_B3],
        "proof": [
            f"{BEN} drew at seq 9 with the ends 2 and 1.",
            "The deal at seq 3 gave him 1-1, 1-5 and 2-5, and he had played none of them: each fits an end.",
        ],
        "tiles": ["1-1", "1-5", "2-5"],
    }
    return {
        "number": 1,
        "deal_seq": 3,
        "end_seq": 31,
        "leader": ANA,
        "verdict": {"valid": False, "violations": 1, "possible": 0, "unsettled": 0, "text": "1 violation"},
        "result": {"end": "domino", "winner": ANA, "points": {ANA: 0, BEN: 14}, "verified": True},
        "claim": {"points": {ANA: 0, BEN: 14}, "winner": ANA},
        "scoring": [
            "Ana played her last tile, 1-4, at seq 30: a domino (B5).",
            f"{BEN} keeps 4-5: 9 pips, plus 5 after a domino: penalty 14 (B6).",
            "Ana keeps nothing: penalty 0. The claim at seq 31 agrees.",
        ],
        "findings": [finding],
        "events": events,
    }


def _hand_two() -> dict[str, Any]:
    hands = {
        BEN: ["0-1", "1-2", "2-2", "3-3", "4-5", "0-4", "6-6"],
        ANA: ["1-6", "2-5", "0-3", "3-5", "1-1", "4-4", "5-6"],
    }
    script: list[Step] = [
        ("play", BEN, "6-6", ""),  # 33
        ("play", ANA, "1-6", "right"),
        ("play", BEN, "0-1", "right"),
        ("play", ANA, "0-3", "right"),
        ("play", BEN, "3-3", "right"),
        ("play", ANA, "3-5", "right"),
        ("play", BEN, "4-5", "right"),
        ("play", ANA, "4-4", "right"),
        ("play", BEN, "0-4", "right"),
        ("play", ANA, "5-6", "left"),  # 42: ends 5 and 0
        ("draw", BEN, "2-6"),  # 43: the possible renege
        ("draw", BEN, "0-2"),
        ("play", BEN, "0-2", "right"),
        ("play", ANA, "2-5", "right"),
        ("draw", BEN, "1-5"),
        ("play", BEN, "1-5", "left"),
        ("play", ANA, "1-1", "left"),  # 49: domino
        ("reveal", BEN),
        ("note", NOTE),  # 51
        ("hand_end",),  # 52
    ]
    events = _hand_events(32, BEN, hands, script, hidden=True)
    _at(events, 32, 0)
    _at(events, 43, 1)
    unverifiable = {
        "seq": 32,
        "line": 32,
        "code": "deal_size",
        "certainty": "unverifiable",
        "message": "The deal is not recorded: whether each player got 7 tiles cannot be checked",
        "rules": [RULE_B1],
        "proof": ["The deal at seq 32 records no hands, and no tile count narrows them."],
        "tiles": [],
    }
    possible = {
        "seq": 43,
        "line": 43,
        "code": "renege",
        "certainty": "possible",
        "message": f"{BEN} may have drawn while holding a legal play (0-2 would fit)",
        "rules": [RULE_C3, RULE_B3],
        "proof": [
            f"{BEN} drew at seq 43 with the ends 5 and 0, then again at seq 44, and played 0-2 at seq 45.",
            "The log does not say whether he drew 0-2 at seq 44 or held it before seq 43: "
            "some deals consistent with the log give him 0-2 at seq 43 (a renege), others do not.",
        ],
        "tiles": ["0-2"],
    }
    return {
        "number": 2,
        "deal_seq": 32,
        "end_seq": 52,
        "leader": BEN,
        "verdict": {
            "valid": False,
            "violations": 0,
            "possible": 1,
            "unsettled": 1,
            "text": "1 possible violation, 1 unsettled",
        },
        "result": {"end": "domino", "winner": ANA, "points": {ANA: 0, BEN: 20}, "verified": True},
        "claim": {"points": {ANA: 0, BEN: 15}, "winner": ANA},
        "scoring": [
            "Ana played her last tile, 1-1, at seq 49: a domino (B5).",
            f"{BEN} reveals 1-2, 2-2 and 2-6 at seq 50: 15 pips, plus 5 after a domino: penalty 20 (B6).",
            "The claim at seq 52 gives him 15: it leaves out the 5 for the domino.",
        ],
        "findings": [unverifiable, possible],
        "events": events,
    }


def sample_doc() -> dict[str, Any]:
    """A realistic audit document in the ``dominolog-audit/1`` shape (a new dict each call)."""
    one, two = _hand_one(), _hand_two()
    head = hashlib.sha256(b"sample audit").hexdigest()
    return {
        "schema": "dominolog-audit/1",
        "source": "replays/brettspielnetz-disputed.jsonl",
        "line": 1,
        "match_id": "club-2026-11-27<i>",
        "variant": "brettspielnetz",
        "variant_title": "Brettspielnetz Domino",
        "players": PLAYERS,
        "meta": {"event": "Thursday club night", "table": "3", "recorder": "a spectator <script>alert(1)</script>"},
        "notes": [
            {"seq": 2, "text": f"Did {BEN} renege when he drew at seq 9?"},
            {"seq": 51, "text": NOTE},
        ],
        "verdict": {
            "valid": False,
            "violations": 1,
            "possible": 1,
            "unsettled": 1,
            "text": "1 violation, 1 possible violation, 1 unsettled",
        },
        "totals": {ANA: 0, BEN: 34},
        "winner": ANA,
        "chain": {
            "status": "ok",
            "head": head,
            "fingerprint": head[:10],
            "hands": [
                {"hand": 1, "seq": 31, "fingerprint": hashlib.sha256(b"hand 1").hexdigest()[:10]},
                {"hand": 2, "seq": 52, "fingerprint": hashlib.sha256(b"hand 2").hexdigest()[:10]},
            ],
            "expect": {"given": f"{head[:10]}@52", "ok": True, "message": "the chain's head at seq 52 matches"},
        },
        "findings": [],
        "hands": [one, two],
    }
