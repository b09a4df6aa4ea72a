"""Rules about a hand that may be partly hidden: "had a legal play", judged from bounds.

A hand is described by what it surely holds (``sure``), what it may hold
(``upper``, a superset) and how many tiles it holds (``n``). Every judge answers
True (the rule is broken whatever the hidden tiles are), False (it is kept
whatever they are) or None (it depends on them), with a few words on the tiles
that decide it. The same judges check a hand as the events arrive (from the
deal and the seen draws) and once more at the end of the hand, from the bounds
the reveals give (:func:`dominolog.state.bounds_before`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from dominolog.state import Judge
from dominolog.tiles import Tile


def _names(tiles: Iterable[Tile], limit: int = 4) -> str:
    ts = sorted(tiles)
    text = ", ".join(map(str, ts[:limit]))
    return text + (", ..." if len(ts) > limit else "")


def _judge_holding(select: Callable[[frozenset[Tile]], set[Tile]], verb: str, verbs: str, none: str) -> Judge:
    """The hand holds one of the tiles ``select`` picks out of those it may hold."""

    def judge(sure: frozenset[Tile], upper: frozenset[Tile], n: int) -> tuple[bool | None, str]:
        fitting = select(upper)
        held = fitting & sure
        if held:
            return True, f"{_names(held)} {verbs if len(held) == 1 else verb}"
        room = n - len(sure)
        if not fitting or room <= 0:
            return False, none
        if len(upper - sure - fitting) < room:
            return True, f"the hand must hold one of {_names(fitting)}, which {verb}"
        return None, ""

    return judge


def judge_fit(values: tuple[int, ...]) -> Judge:
    """The hand holds a tile that fits one of the open ``values`` (any tile when there are none)."""
    mask = 0
    for v in values:
        mask |= 1 << v
    return _judge_holding(lambda upper: {t for t in upper if not mask or t.mask & mask}, "fit", "fits", "no tile fits")


def judge_holds(tiles: frozenset[Tile]) -> Judge:
    """The hand holds one of ``tiles`` (e.g. the tiles that can be played somewhere on a 2-D table)."""
    return _judge_holding(lambda upper: set(upper & tiles), "can be played", "can be played", "no tile can be played")


def _distinct_pair(a: set[Tile], b: set[Tile]) -> bool:
    """Whether some x in ``a`` and some other tile y in ``b`` exist."""
    return bool(a) and bool(b) and not (len(a) == 1 and a == b)


def _a_pair(a: set[Tile], b: set[Tile]) -> tuple[Tile, Tile]:
    """The first such pair, in tile order."""
    return next((x, y) for x in sorted(a) for y in sorted(b) if x != y)


def judge_pair(left: int, right: int) -> Judge:
    """Double Draw: the hand holds two tiles, one fitting ``left`` and another fitting ``right``."""

    ml, mr = 1 << left, 1 << right

    def judge(sure: frozenset[Tile], upper: frozenset[Tile], n: int) -> tuple[bool | None, str]:
        fl = {t for t in upper if t.mask & ml}
        fr = {t for t in upper if t.mask & mr}
        sl, sr = fl & sure, fr & sure
        if _distinct_pair(sl, sr):
            x, y = _a_pair(sl, sr)
            return True, f"{x} on the left and {y} on the right"
        room = n - len(sure)
        # Can the hand hold a pair at all? The fewest tiles to add for one:
        if _distinct_pair(sl, fr - sure) or _distinct_pair(fl - sure, sr):
            need = 1
        elif _distinct_pair(fl - sure, fr - sure):
            need = 2
        else:
            need = n + 3  # no pair at all: more than any room
        if need > room:
            return False, "no pair play"
        # Can it avoid one? Either no tile for one end, or one tile that is the only fit for both.
        free = upper - sure
        avoid = False
        if (not fl & sure and len(free - fl) >= room) or (not fr & sure and len(free - fr) >= room):
            avoid = True
        else:
            others = free - fl - fr
            for z in fl & fr:
                if (sure & (fl | fr)) - {z}:
                    continue
                if (z in sure and len(others) >= room) or (z not in sure and len(others) >= room - 1 >= 0):
                    avoid = True
        if not avoid:
            return True, f"the hand must hold a pair play among {_names(fl | fr, 6)}"
        return None, ""

    return judge


def judge_not(judge: Judge) -> Judge:
    """The opposite rule: broken exactly when ``judge`` says the hand kept its rule (unknown stays unknown).

    E.g. "passes while a draw is allowed" is broken when the hand had *no* legal play.
    """

    def negated(sure: frozenset[Tile], upper: frozenset[Tile], n: int) -> tuple[bool | None, str]:
        verdict, detail = judge(sure, upper, n)
        return (None if verdict is None else not verdict), detail

    return negated
