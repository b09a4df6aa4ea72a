"""Rebuild the dispute replays: ``python replays/disputes/build.py`` with dominolog installed.

Each file is one small match whose question (the ``note`` after ``match_start``) the log settles;
``README.md`` gives the answers and why. Each scenario is written here as it was played, every tile known,
so that its moves can be checked; :func:`hidden` turns it into what a recorder who sees no hand and no
draw writes, and :func:`finished` adds times, ``seq`` and the hash chain. ``tests/test_disputes.py``
checks what ``verify`` says of each file, and that this script writes them byte for byte. Run as a
script, it finds ``replays`` through the repository root, added at the END of ``sys.path``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if not __package__:  # run as a script
    sys.path.append(str(ROOT))

from dominolog.log.hashchain import add_hashes  # noqa: E402
from dominolog.log.writer import dump_line  # noqa: E402
from dominolog.simulate import hide_match, simulate_match  # noqa: E402
from replays.editing import strip  # noqa: E402

OUT = Path(__file__).resolve().parent

Events = list[dict[str, Any]]


def turns(text: str) -> Events:
    """Turn events, separated by new lines or ``;``: ``Ana 3-4`` (a play, no end), ``Ana 6-2 right`` or
    ``Ben 2-4 4-4:W`` (a play on that end), ``Ben pass``, ``Cleo draw 4-5`` (a draw, the tile as drawn),
    ``Ana pair 6-2 5-1`` (Double Draw: the left tile, then the right one). ``#`` starts a comment."""
    out: Events = []
    for part in (part for line in text.splitlines() for part in line.split("#")[0].split(";")):
        words = part.split()
        if not words:
            continue
        player, *rest = words
        if rest == ["pass"]:
            out.append({"type": "pass", "player": player})
        elif rest[0] == "draw":
            out.append({"type": "draw", "player": player, "tile": rest[1]})
        elif rest[0] == "pair":
            out.append({"type": "play", "player": player, "tiles": rest[1:3]})
        else:
            e: dict[str, Any] = {"type": "play", "player": player, "tile": rest[0]}
            if len(rest) > 1:
                e["end"] = rest[1]
            out.append(e)
    return out


def tiles(text: str) -> list[str]:
    """``"0-1 2-3"`` -> ``["0-1", "2-3"]``."""
    return text.split()


def start(variant: str, players: list[str], match_id: str, meta: dict[str, str], **options: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "match_start", "variant": variant, "players": players}
    if options:
        e["options"] = options
    return {**e, "id": match_id, "meta": meta}


def note(text: str, player: str | None = None) -> dict[str, Any]:
    return {"type": "note", "text": text, **({"player": player} if player else {})}


def hidden(events: Events) -> Events:
    """What a recorder who sees no hand and no draw writes (``hide_match``: reveals, Ghost 13's confirming
    passes), without seq or hashes; notes just before a hand's end go after its passes and reveals."""
    out = strip(hide_match(events))
    rank = {"pass": 0, "reveal": 1, "note": 2}
    for i, e in enumerate(out):
        if e["type"] == "hand_end":
            j = i
            while j > 0 and out[j - 1]["type"] in rank:
                j -= 1
            out[j:i] = sorted(out[j:i], key=lambda e: rank[e["type"]])
    return out


def finished(events: Events, day: str, start: str, seed: int) -> Events:
    """The events with ``seq``, times (``day``, from ``start``, 8 to 45 s apart) and the hash chain."""
    rng = random.Random(seed)
    h, m = map(int, start.split(":"))
    secs = h * 3600 + m * 60
    out = []
    for i, e in enumerate(events, 1):
        secs += rng.randint(8, 45)
        at = f"{day}T{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}Z"
        body = {k: v for k, v in e.items() if k not in ("type", "seq", "at", "hash")}
        out.append({"type": e["type"], "seq": i, **body, "at": at})
    return add_hashes(out)


# -- Ghost 13 ----------------------------------------------------------------------------------------------


def ghost13_puppeteer() -> Events:
    """(c) Ben's 2-5 locks the line on either end (every 2 and every 5 is then on it), it was his only
    tile that fitted, and Ana placed a tile just before: Ana is the Puppeteer. 42 pips each, so the
    aggressor takes the hand; the table gave it to Ben, who placed the locking tile."""
    return [
        start(
            "ghost13",
            ["Ana", "Ben"],
            "g13-puppeteer-2026-11-26",
            {"event": "Thursday club night", "table": "2", "recorder": "Cleo", "match": "a short game to 50"},
            target=50,
        ),
        note(
            "Question for the arbiter: Ben locked the line with 2-5 at seq 17, and the count is 42 pips each. "
            "Who is the aggressor, Ben who placed the locking tile or Ana as the Puppeteer, and so who wins?"
        ),
        {
            "type": "deal",
            "leader": "Ana",
            "hands": {
                "Ana": tiles("0-0 0-1 0-2 0-4 0-5 1-1 1-2 1-5 1-6 3-4 3-6 5-5 5-6 6-6"),
                "Ben": tiles("0-3 0-6 1-3 1-4 2-2 2-3 2-4 2-5 2-6 3-3 3-5 4-4 4-5 4-6"),
            },
        },
        *turns(
            """
            Ana 1-2; Ben 2-3 right; Ana 5-1 left; Ben 3-5 right  # seq 4 to 7
            Ana 5-5 left; Ben 5-4 right; Ana 0-5 left; Ben 4-2 right
            Ana 0-0 left; Ben 2-6 right; Ana 2-0 left; Ben 2-2 left
            Ana 6-5 right     # seq 16: the ends show 2 and 5
            Ben 2-5 left      # seq 17: 5 and 5, every 5 on the line: locked
            """
        ),
        note("Ben: I locked it, and a tie goes to the aggressor", "Ben"),
        {"type": "hand_end", "points": {"Ana": 0, "Ben": 84}, "winner": "Ben"},
        {"type": "match_end", "totals": {"Ana": 0, "Ben": 84}, "winner": "Ben"},
    ]


def ghost13_forced() -> Events:
    """(c2) Ben's 2-5 was again the only tile he could play and locked the line, but Ana still held 0-2 and
    1-2: on the other end it would have left 2 and 2, not a lock. No Puppeteer: Ben is the aggressor, and
    his block fails. Ana claimed double Ben's pips, as the Puppeteer."""
    return [
        start(
            "ghost13",
            ["Ana", "Ben"],
            "g13-forced-2026-11-26",
            {"event": "Thursday club night", "table": "4", "recorder": "Dev", "match": "a short game to 50"},
            target=50,
        ),
        note(
            "Question for the arbiter: Ben's 2-5 at seq 17 locked the line, and it was the only tile he could "
            "play. Does that make Ana the Puppeteer, the aggressor, who scores double Ben's pips?"
        ),
        {
            "type": "deal",
            "leader": "Ana",
            "hands": {
                "Ana": tiles("0-2 0-3 0-4 0-5 0-6 1-1 1-2 1-4 1-6 2-3 3-4 3-5 4-5 5-5"),
                "Ben": tiles("0-0 0-1 1-3 1-5 2-2 2-4 2-5 2-6 3-3 3-6 4-4 4-6 5-6 6-6"),
            },
        },
        *turns(
            """
            Ana 0-4; Ben 4-4 right; Ana 5-0 left; Ben 4-2 right  # seq 4 to 7
            Ana 5-5 left; Ben 2-6 right; Ana 3-5 left; Ben 6-5 right
            Ana 2-3 left; Ben 5-1 right; Ana 1-4 right; Ben 2-2 left
            Ana 4-5 right     # seq 16: the ends show 2 and 5
            Ben 2-5 left      # seq 17: 5 and 5, every 5 on the line: locked (on the right: 2 and 2)
            """
        ),
        note("Ana: he had nothing else, I forced the lock", "Ana"),
        {"type": "hand_end", "points": {"Ana": 84, "Ben": 0}, "winner": "Ana"},
        {"type": "match_end", "totals": {"Ana": 84, "Ben": 0}, "winner": "Ana"},
    ]


def ghost13_ghost() -> Events:
    """(d) Ana locks the line on 6 and 6 after Ben's pass (a direct block) with all six of 0-1 to 0-6 on it;
    Ben keeps the [0-0]: the ghost, worth 13. Counted as 0 (the table's claim), Ana's block fails and Ben
    scores 90; counted as 13, it succeeds and Ana scores 110, which also ends the match (target 100)."""
    return [
        start(
            "ghost13",
            ["Ana", "Ben"],
            "g13-ghost-2026-11-27",
            {"event": "league round 5", "table": "1", "recorder": "Dev"},
        ),
        note(
            "Question for the arbiter: Ana locked the line at seq 16 and Ben kept the [0-0]. Does it count 0 "
            "or 13, and so did Ana's block fail (Ben scores 90) or succeed?"
        ),
        {
            "type": "deal",
            "leader": "Ana",
            "hands": {
                "Ana": tiles("0-1 0-2 0-5 1-1 1-5 1-6 2-4 2-5 3-5 3-6 4-5 5-5 5-6 6-6"),
                "Ben": tiles("0-0 0-3 0-4 0-6 1-2 1-3 1-4 2-2 2-3 2-6 3-3 3-4 4-4 4-6"),
            },
        },
        *turns(
            """
            Ana 6-6; Ben 6-2 right; Ana 2-0 right; Ben 0-3 right  # seq 4 to 7
            Ana 3-6 right; Ben 6-0 left; Ana 0-1 left; Ben 6-4 right
            Ana 1-6 left; Ben 4-0 right
            Ana 0-5 right     # seq 14: the ends show 6 and 5
            Ben pass          # seq 15
            Ana 5-6 right     # seq 16: 6 and 6, every 6 on the line: locked
            """
        ),
        note("Ben: 48 against 42, your block fails; my double blank is a blank", "Ben"),
        {"type": "hand_end", "points": {"Ana": 0, "Ben": 90}, "winner": "Ben"},
        note("the arbiter is called before the next deal"),
    ]


# -- Brettspielnetz --------------------------------------------------------------------------------------


def bsn_renege() -> Events:
    """(a) Ben draws three tiles, none seen, and passes on 6 and 6; his reveal holds 3-6, and he drew nothing
    after that pass: he held 3-6 when he passed. Which draw brought it, if any, the log cannot tell."""
    return [
        start(
            "brettspielnetz",
            ["Ana", "Ben"],
            "bsn-renege-2026-11-28",
            {"event": "café league, deciding hand", "table": "5", "recorder": "Cleo (sees no hand)"},
            hands=1,
        ),
        note(
            "Question for the arbiter: Ben drew three times and passed on 6 and 6 (seq 14). His reveal shows "
            "3-6, and he says it came in those three draws. Did he renege, and where?"
        ),
        {
            "type": "deal",
            "leader": "Ana",
            "hands": {
                "Ana": tiles("0-5 0-6 1-1 2-3 2-6 4-6 5-6"),
                "Ben": tiles("0-3 0-4 1-4 1-5 2-2 3-6 4-4"),
            },
            "start_tile": "2-5",
        },
        *turns(
            """
            Ana 5-0 right; Ben 0-4 right; Ana 2-6 left; Ben 4-1 right  # seq 4 to 7
            Ana 1-1 right; Ben 1-5 right
            Ana 5-6 right     # seq 10: the ends show 6 and 6
            Ben draw 1-2; Ben draw 3-5; Ben draw 0-0  # seq 11 to 13
            Ben pass          # seq 14
            Ana 6-0 left; Ben 0-3 left; Ana 3-2 left; Ben 2-2 left
            Ana 6-4 right     # seq 19: Ana's last tile, a domino
            """
        ),
        note("Ana: you passed with a six in your hand", "Ana"),
        note("Ben: it came in my three draws", "Ben"),
        {"type": "hand_end", "points": {"Ana": 0, "Ben": 33}, "winner": "Ana"},
        {"type": "match_end", "totals": {"Ana": 0, "Ben": 33}, "winner": "Ana"},
    ]


def bsn_renege_by_order() -> Events:
    """(a2) Ben passes on 6 and 6 after three unseen draws, then places two sixes (3-6, 1-6) with only one
    unseen draw before them: at most one of the two came with that draw, so he held a six when he passed,
    and again when he drew. No count of the tiles he shows proves it (he drew as many tiles after the pass
    as he placed sixes); the order of the events does."""
    return [
        start(
            "brettspielnetz",
            ["Ana", "Ben"],
            "bsn-order-2026-11-28",
            {"event": "café league, deciding hand", "table": "6", "recorder": "Cleo (sees no hand)"},
            hands=1,
        ),
        note(
            "Question for the arbiter: Ben passed on 6 and 6 at seq 12 after three draws. Later he drew one "
            "tile (seq 14) and then placed two sixes, 3-6 and 1-6. He says both came from the boneyard after his "
            "pass. Did he renege?"
        ),
        {
            "type": "deal",
            "leader": "Ana",
            "hands": {
                "Ana": tiles("0-2 0-5 0-6 1-3 2-6 4-6 5-6"),
                "Ben": tiles("0-4 1-1 1-6 2-2 3-4 3-6 4-4"),
            },
            "start_tile": "2-5",
        },
        *turns(
            """
            Ana 5-0 right; Ben 0-4 right; Ana 2-6 left; Ben 4-4 right  # seq 4 to 7
            Ana 4-6 right     # seq 8: the ends show 6 and 6
            Ben draw 1-2; Ben draw 2-4; Ben draw 1-4  # seq 9 to 11
            Ben pass          # seq 12
            Ana 6-0 left      # 0 and 6
            Ben draw 2-3      # seq 14
            Ben 6-3 right     # seq 15: 0 and 3
            Ana 3-1 right
            Ben 1-6 right     # seq 17: 0 and 6
            Ana 6-5 right     # 0 and 5
            Ben draw 3-5      # seq 19
            Ben 3-5 right
            Ana 0-2 left      # seq 21: Ana's last tile, a domino
            """
        ),
        note("Ana: two sixes, and one draw between your pass and them", "Ana"),
        {"type": "hand_end", "points": {"Ana": 0, "Ben": 37}, "winner": "Ana"},
        {"type": "match_end", "totals": {"Ana": 0, "Ben": 37}, "winner": "Ana"},
    ]


# -- Double Bergen ---------------------------------------------------------------------------------------

BERGEN = ("double-bergen", ["Ana", "Ben", "Cleo"])
KITCHEN = {"event": "kitchen table", "recorder": "Dev (sees no hand)"}


def bergen_opening_proven() -> Events:
    """(a) Ben leads and passes for want of a double; Cleo sets the spinner. Ben never draws in the hand, and
    his reveal holds 2-2: he was dealt it, so the opening pass was a renege (D3)."""
    return [
        start(*BERGEN, "bergen-opening-2026-11-29", KITCHEN),
        note(
            "Question for the arbiter: Ben led and passed at seq 4, saying he had no double; at the end he shows "
            "2-2. He says he drew it later. Was his pass a renege?"
        ),
        {
            "type": "deal",
            "leader": "Ben",
            "hands": {
                "Ana": tiles("0-1 0-3 1-4 3-3 3-4 6-6"),
                "Ben": tiles("1-6 2-2 2-3 2-4 2-5 5-6"),
                "Cleo": tiles("0-0 0-2 0-6 1-5 2-6 4-4"),
            },
        },
        *turns(
            """
            Ben pass          # seq 4: no double, he says
            Cleo 4-4; Ana 3-4 4-4:N; Ben 2-4 4-4:W  # seq 5: the spinner
            Cleo draw 4-5; Cleo 4-5 4-4:E; Ana 1-4 4-4:S; Ben 5-6 4-5:E
            Cleo 0-6 5-6:E; Ana 0-1 0-6:E; Ben 1-6 0-1:E
            Cleo 1-5 1-4:S; Ana 0-3 3-4:N; Ben 2-5 1-5:S
            Cleo 2-6 2-5:S; Ana 6-6 1-6:E; Ben 2-3 2-4:W
            Cleo 0-0 0-3:N
            Ana 3-3 2-3:W     # seq 22: Ana's last tile, a domino
            """
        ),
        note("Cleo: you had a double all along", "Cleo"),
        note("Ben: I must have drawn it", "Ben"),
        {"type": "hand_end", "points": {"Ana": 11, "Ben": 7, "Cleo": 9}, "winner": "Ana"},
    ]


def bergen_opening_unprovable() -> Events:
    """(b) The same question, but Ben drew two tiles (unseen) after his opening pass, at a time when 4-4 could
    not be placed: the 4-4 he shows at the end may have come then. A possible renege, not a proven one."""
    return [
        start(*BERGEN, "bergen-opening-2026-11-30", KITCHEN),
        note(
            "Question for the arbiter: Ben led and passed at seq 4, saying he had no double; at the end he shows "
            "4-4. He says he drew it at seq 7 or 8. Was his pass a renege?"
        ),
        {
            "type": "deal",
            "leader": "Ben",
            "hands": {
                "Ana": tiles("1-1 2-2 3-4 3-5 4-6 6-6"),
                "Ben": tiles("0-1 0-5 1-5 2-4 4-5 5-6"),
                "Cleo": tiles("0-2 0-3 1-6 2-5 2-6 3-3"),
            },
        },
        *turns(
            """
            Ben pass          # seq 4: no double
            Cleo 3-3; Ana 3-4 3-3:S  # seq 5: the spinner
            Ben draw 4-4      # seq 7: only the spinner's free sides (3) may be played on
            Ben draw 1-3; Ben 1-3 3-3:N
            Cleo 0-3 3-3:E; Ana 3-5 3-3:W; Ben 4-5 3-4:S
            Cleo 2-5 3-5:W; Ana 2-2 2-5:W; Ben 0-5 4-5:S
            Cleo 0-2 0-3:E; Ana 1-1 1-3:N; Ben 2-4 0-2:E
            Cleo 2-6 2-2:W; Ana 4-6 2-6:W; Ben 0-1 0-5:S
            Cleo 1-6 1-1:N    # seq 22: Cleo's last tile, a domino
            """
        ),
        note("Ana: you had a double at the start", "Ana"),
        note("Ben: no, I drew the 4-4 when the spinner was still open", "Ben"),
        {"type": "hand_end", "points": {"Ana": 7, "Ben": 11, "Cleo": 10}, "winner": "Cleo"},
    ]


# -- 39 ----------------------------------------------------------------------------------------------------

#: the simulated match of one hand that ends on two passes (seed of ``dominolog.simulate``)
THIRTY_NINE_SEED = 256


def thirty_nine_block() -> Events:
    """(e) A hand of 39 ends on two passes. Ana holds fewer tiles (3 against 4), and the table gave her the
    end bonus for Ben's tiles, as after a domino: 7, making her 5 to 4 the winner. Two passes earn no bonus
    (T11): Ana -2, Ben 4, Ben wins. Recorded with every tile known (the question is the rule, not the
    tiles)."""
    events = strip(simulate_match("39", THIRTY_NINE_SEED, options={"hands": 1}))
    meta = {"event": "club night, one-hand playoff", "recorder": "the club's tablet (both hands shown)"}
    events[0] = start("39", ["Ana", "Ben"], "39-block-2026-12-01", meta, hands=1)
    events = [{k: v for k, v in e.items() if k != "at"} for e in events]
    events.insert(
        1,
        note(
            "Question for the arbiter: the hand ended on two passes (seq 46 and 47). Ana holds fewer tiles, so "
            "she took the end bonus for Ben's tiles, 7, and claims the hand 5 to 4. Is that right?"
        ),
    )
    end = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    events[end] = {"type": "hand_end", "points": {"Ana": 5, "Ben": 4}, "winner": "Ana"}
    events[end:end] = [note("Ana: I have 3 tiles left and Ben 4, so the bonus for his tiles is mine", "Ana")]
    events[-1] = {"type": "match_end", "totals": {"Ana": 5, "Ben": 4}, "winner": "Ana"}
    return events


# -- Double Draw ---------------------------------------------------------------------------------------------


def double_draw_partners() -> Events:
    """(f) Partnerships, Ana and Cleo against Ben and Dev. Ana goes out with her second pair play; the table
    gave the hand to her side. The side with the lower pip total wins (E6, rule 12.7): Ben and Dev, 9
    against Cleo's 51, score 42 each."""
    return [
        start(
            "double-draw",
            ["Ana", "Ben", "Cleo", "Dev"],
            "dd-pairs-2026-12-02",
            {"event": "club pairs night", "table": "3", "recorder": "a spectator (sees no hand)"},
            partners=True,
        ),
        note(
            "Question for the arbiter: Ana went out with her pair play at seq 8. Does her side (Ana and Cleo) "
            "win the hand, as the table wrote, or Ben and Dev?"
        ),
        {
            "type": "deal",
            "dealer": "Dev",
            "leader": "Ana",
            "hands": {
                "Ana": tiles("0-4 0-5 1-5 2-6"),
                "Ben": tiles("0-0 0-2 1-1 3-6"),
                "Cleo": tiles("4-4 4-6 5-5 6-6"),
                "Dev": tiles("0-1 0-3 1-2 2-2"),
            },
            "start_tile": "2-5",
        },
        *turns(
            """
            Ana pair 6-2 5-1  # seq 4: the ends show 6 and 1
            Ben pair 6-3 1-1  # 3 and 1
            Cleo draw 5-6     # no 3, no 1: no pair play
            Dev pair 3-0 1-0  # 0 and 0
            Ana pair 0-4 0-5  # seq 8: Ana's last two tiles, a domino
            """
        ),
        note("Cleo: Ana is out, the hand is ours", "Cleo"),
        {"type": "hand_end", "points": {"Ana": 9, "Ben": 0, "Cleo": 9, "Dev": 0}, "winner": ["Ana", "Cleo"]},
    ]


# -- the files -------------------------------------------------------------------------------------------

#: file name -> (the scenario as played, whether the recorder saw no hand, day, start time)
SCENARIOS: dict[str, tuple[Callable[[], Events], bool, str, str]] = {
    "ghost13-puppeteer.jsonl": (ghost13_puppeteer, True, "2026-11-26", "20:10"),
    "ghost13-forced-not-puppeteer.jsonl": (ghost13_forced, True, "2026-11-26", "21:40"),
    "ghost13-ghost-at-a-block.jsonl": (ghost13_ghost, True, "2026-11-27", "19:35"),
    "brettspielnetz-renege-after-unseen-draws.jsonl": (bsn_renege, True, "2026-11-28", "18:05"),
    "brettspielnetz-renege-proven-by-order.jsonl": (bsn_renege_by_order, True, "2026-11-28", "19:20"),
    "double-bergen-opening-pass-proven.jsonl": (bergen_opening_proven, True, "2026-11-29", "16:20"),
    "double-bergen-opening-pass-unprovable.jsonl": (bergen_opening_unprovable, True, "2026-11-30", "16:45"),
    "39-block-bonus-claim.jsonl": (thirty_nine_block, False, "2026-12-01", "20:30"),
    "double-draw-partners-claim.jsonl": (double_draw_partners, True, "2026-12-02", "19:50"),
}


def replays() -> dict[str, Events]:
    """File name -> the match it holds (event objects, in order, with seq, times and hashes)."""
    out = {}
    for k, (name, (scenario, hide, day, start)) in enumerate(SCENARIOS.items()):
        events = scenario()
        out[name] = finished(hidden(events) if hide else events, day, start, seed=k)
    return out


def main() -> None:
    for name, events in replays().items():
        (OUT / name).write_text("".join(dump_line(e) + "\n" for e in events), encoding="utf-8")


if __name__ == "__main__":
    main()
