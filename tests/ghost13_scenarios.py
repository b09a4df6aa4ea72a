"""Hand-built Ghost 13 hands with known outcomes, shared by the tests and the replays.

The tiles left in hand after the ten plays of the 6-6 line below are always the
same 18 (90 pips); splitting them differently between the players gives the
successful, failed and tied blocks.
"""

from __future__ import annotations

from typing import Any

from tests.helpers import deal, play, tiles

LOW = tiles("0-0 0-2 0-3 0-4 0-5 1-1 1-2 1-3 1-4")  # 28 pips
HIGH = tiles("1-5 2-2 2-4 2-5 3-3 3-4 3-5 4-4 5-5")  # 62 pips
EVEN_A = tiles("5-5 4-4 3-5 3-4 0-0 0-2 1-1 0-3 0-5")  # 45 pips
EVEN_B = tiles("0-4 1-2 1-3 1-4 1-5 2-2 2-4 2-5 3-3")  # 45 pips

# Puppeteer: Ana's 4-6 leaves 6 on both ends; Ben's only legal tile is 6-6, and it locks.
PUPPET_ANA = tiles("0-1 6-2 3-6 6-5 4-6")
PUPPET_BEN = tiles("1-6 2-3 0-6 5-4 6-6")
PUPPET_PLAYS = [
    play("Ana", "0-1"),  # seq 3
    play("Ben", "1-6", "right"),  # 4
    play("Ana", "6-2", "right"),  # 5
    play("Ben", "2-3", "right"),  # 6
    play("Ana", "3-6", "right"),  # 7
    play("Ben", "0-6", "left"),  # 8
    play("Ana", "6-5", "left"),  # 9
    play("Ben", "5-4", "left"),  # 10
    play("Ana", "4-6", "left"),  # 11: both ends show 6
    play("Ben", "6-6", "left"),  # 12: the lock
]

# Direct: Ben's locking 5-6 was not his only legal tile (he also holds 0-5).
DIRECT_ANA = tiles("6-6 6-2 2-3 3-6 4-5")
DIRECT_BEN = tiles("6-1 1-0 0-6 6-4 5-6")
DIRECT_PLAYS = [
    play("Ana", "6-6"),
    play("Ben", "6-1", "left"),
    play("Ana", "6-2", "right"),
    play("Ben", "1-0", "left"),
    play("Ana", "2-3", "right"),
    play("Ben", "0-6", "left"),
    play("Ana", "3-6", "right"),
    play("Ben", "6-4", "left"),
    play("Ana", "4-5", "left"),
    play("Ben", "5-6", "left"),  # 12: the lock
]

# Ghost: all six of 0-1..0-6 end up on the line, ends show 6; Ben keeps the 0-0.
GHOST_ANA = tiles("0-1 6-2 0-3 6-0 5-0 4-6")
GHOST_BEN = tiles("1-6 2-0 3-6 6-5 0-4 6-6")
GHOST_ANA_LEFT = tiles("2-4 2-5 3-3 3-4 3-5 4-4 4-5 5-5")  # 61 pips
GHOST_BEN_LEFT = tiles("0-0 1-1 1-2 1-3 1-4 1-5 2-2 2-3")  # 29 pips + the ghost 13
GHOST_PLAYS = [
    play("Ana", "0-1"),
    play("Ben", "1-6", "right"),
    play("Ana", "6-2", "right"),
    play("Ben", "2-0", "right"),
    play("Ana", "0-3", "right"),
    play("Ben", "3-6", "right"),
    play("Ana", "6-0", "left"),
    play("Ben", "6-5", "left"),
    play("Ana", "5-0", "left"),
    play("Ben", "0-4", "left"),
    play("Ana", "4-6", "left"),
    play("Ben", "6-6", "left"),  # 14: the lock
]


def puppet_hand(ana_left: list[str], ben_left: list[str], leader: str = "Ana") -> list[dict[str, Any]]:
    return [deal(leader, {"Ana": PUPPET_ANA + ana_left, "Ben": PUPPET_BEN + ben_left}), *PUPPET_PLAYS]


def direct_hand(ana_left: list[str], ben_left: list[str]) -> list[dict[str, Any]]:
    return [deal("Ana", {"Ana": DIRECT_ANA + ana_left, "Ben": DIRECT_BEN + ben_left}), *DIRECT_PLAYS]


def ghost_hand() -> list[dict[str, Any]]:
    return [deal("Ana", {"Ana": GHOST_ANA + GHOST_ANA_LEFT, "Ben": GHOST_BEN + GHOST_BEN_LEFT}), *GHOST_PLAYS]
