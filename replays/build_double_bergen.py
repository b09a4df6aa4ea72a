"""The bundled replays of `double-bergen` (called by ``replays/build.py``).

- ``double-bergen-simulated.jsonl``: three random legal matches (2 players; 3 players; 4 players with
  the two-tile reserve of the variation), every claim right.
- ``double-bergen-tabletop-hidden.jsonl``: a 4-player match as a spectator records it (no hand and no
  draw seen, reveals at the end of each hand); it scores exactly like the full match.
- ``double-bergen-disputed.jsonl``: a 3-player match with three disputes: a pass for want of a double by
  a player who holds one (D3), a play on an arm while the spinner still has a free side (D4), and a hand
  closed at the target with the +1 claimed (D8).
"""

from __future__ import annotations

from typing import Any

from dominolog.layouts.grid import GridLayout
from dominolog.simulate import Policy, hide_match, simulate_match
from dominolog.state import HandState, MatchState
from replays.editing import dressed, renumber, strip, verified

PLAYERS = ["Ana", "Ben", "Cleo", "Dev"]
#: the seeds of the bundled matches (the disputed one is the first seed that stages all three disputes)
SIMULATED = 7
HIDDEN = 12
DISPUTED_SEEDS = range(100)


def disputing() -> Policy:
    """A policy staging two table mistakes, once each (from hand 2 on):

    - D3: the player on move at the very start of a hand holds a double but passes (the next player
      holds one too, so the hand goes on at once);
    - D4: a player plays on an arm while the spinner still has a free side.
    """
    done: set[str] = set()

    def policy(match: MatchState, hand: HandState, who: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        if hand.number < 2:
            return None
        layout: GridLayout = hand.layout
        held = hand.holdings[who].known
        if "opening" not in done and layout.empty and not hand.actions:
            nxt = hand.holdings[match.next_player(who)].known
            if any(t.is_double for t in held) and any(t.is_double for t in nxt):
                done.add("opening")
                return {"type": "pass", "player": who}
        if "arm" not in done and "opening" in done and not layout.empty:
            spinner_free = any(s.first for s in layout.open_sides())
            arms = [s for s in layout.open_sides() if not s.first]
            for side in arms if spinner_free else ():
                for t in sorted(held):
                    if layout.fits_side(t, side):
                        done.add("arm")
                        return {"type": "play", "player": who, "tile": str(t), "end": side.name}
        return None

    return policy


def disputed() -> list[dict[str, Any]]:
    """Three players: the opening renege and the early arm play of :func:`disputing`, and the hand that
    ends at the target claimed with the +1 for the player who reached it (D8: no winner, no +1)."""
    for seed in DISPUTED_SEEDS:
        events = strip(simulate_match("double-bergen", seed, 0, PLAYERS[:3], policy=disputing()))
        report = verified(renumber(events))
        codes = [v.code for v in report.violations]
        if codes != ["renege", "illegal"] or report.hands[-1].end != "target":
            continue
        passer, armer = (events[v.seq - 1]["player"] for v in report.violations)
        last = max(i for i, e in enumerate(events) if e["type"] == "hand_end")
        hand = report.hands[-1]
        reached = max(hand.points, key=lambda p: report.totals[p])
        events[0]["id"] = f"bergen-disputed-{seed}"
        events[0]["meta"] = {
            "event": "kitchen table",
            "dispute": f"{passer}'s pass for want of a double; {armer}'s play on an arm; {reached}'s +1 at the target",
        }
        events[last] = {**events[last], "points": {**hand.points, reached: hand.points[reached] + 1}, "winner": reached}
        note = {"type": "note", "text": f"{reached} reached the target: +1 for the hand", "player": reached}
        events.insert(last, {**note, "at": events[last]["at"]})
        return renumber(events)
    raise SystemExit("no seed gives the double-bergen dispute")


def replays() -> dict[str, list[list[dict[str, Any]]]]:
    """File name -> its matches (event objects, in order)."""
    return {
        "double-bergen-simulated.jsonl": [
            simulate_match("double-bergen", SIMULATED),
            simulate_match("double-bergen", SIMULATED, 1, PLAYERS[:3]),
            simulate_match("double-bergen", SIMULATED, 2, PLAYERS, {"reserve": 2}),
        ],
        "double-bergen-tabletop-hidden.jsonl": [
            dressed(
                hide_match(simulate_match("double-bergen", HIDDEN, 0, PLAYERS)),
                "club-2026-11-22-bergen",
                {"event": "club night", "table": "4", "recorder": "a spectator"},
            )
        ],
        "double-bergen-disputed.jsonl": [disputed()],
    }
