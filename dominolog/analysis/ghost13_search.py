"""The search behind :mod:`dominolog.analysis.ghost13`: bitboards, the Ghost 13 scoring of a
finished hand, and an exact alpha-beta over the hand's game tree.

A side of the search is a 28-bit mask of the tiles held (bit ``Tile.index``). The open ends
are one number ``e = 7 * lo + hi`` (``lo <= hi``: the game does not care which end is left),
and ``EMPTY`` (49) stands for the empty table, on which every tile fits. A node is
``(me, opp, e, passed)``: the hand of the player on move, the other hand, the ends, and
whether the last action was a pass. That is all the scoring needs: the tiles on the table
are the ones in neither hand (all 28 are dealt), and the Puppeteer rule (G8) asks only
whether the player on move has exactly one legal tile, whether every placement of it locks,
and whether the opponent's last action was a play (``not passed``).

The search runs in C where the extension :file:`_ghost13c.c` was built when the package was
installed (:data:`BACKEND`; the same search line for line, about 50 times faster), else in Python;
``DOMINOLOG_PURE_PYTHON=1`` or ``Search(pure=True)`` asks for the Python one, the reference.

Values are points, for the player on move: what they score for the hand minus what the
opponent scores (one of the two is 0). :class:`Search` keeps a transposition table of
bounds ``(lower, upper, best move)`` keyed on the node, so a table serves every position
of every hand (the key has no player names). The value is found by null-window tests
(MTD(f)); every test is an alpha-beta with fail-soft bounds, enhanced transposition
cutoffs near the root and cheap bounds on what either side can still score.
"""

from __future__ import annotations

import os
from typing import Any

from dominolog.tiles import DOUBLE_SIX

#: the ends value of the empty table
EMPTY = 49
#: no bound yet (values are far inside: at most 2 * (168 + 13) points)
INF = 1000
_M14 = (1 << 14) - 1

BIT = tuple(1 << t.index for t in DOUBLE_SIX)
PIPS = tuple(t.pips for t in DOUBLE_SIX)
SUIT = tuple(sum(1 << t.index for t in DOUBLE_SIX if t.has(v)) for v in range(7))
#: 0-1 .. 0-6 (the ghost needs all six on the table); 0-0 is bit 0
ZEROS = SUIT[0] & ~1
_PL = tuple(sum(PIPS[i] for i in range(14) if m >> i & 1) for m in range(1 << 14))
_PH = tuple(sum(PIPS[14 + i] for i in range(14) if m >> i & 1) for m in range(1 << 14))


def ends_key(left: int, right: int) -> int:
    return 7 * left + right if left <= right else 7 * right + left


def _tables() -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    fit = [0] * 50
    nxt: list[tuple[int, ...]] = [()] * (50 * 28)
    for a in range(7):
        for b in range(a, 7):
            e = 7 * a + b
            fit[e] = SUIT[a] | SUIT[b]
            for t in DOUBLE_SIX:
                out: list[int] = []
                for v, keep in ((a, b), (b, a)):
                    if t.has(v):
                        ne = ends_key(t.other(v), keep)
                        if ne not in out:
                            out.append(ne)
                nxt[28 * e + t.index] = tuple(out)
    fit[EMPTY] = (1 << 28) - 1
    for t in DOUBLE_SIX:
        nxt[28 * EMPTY + t.index] = (7 * t.lo + t.hi,)
    return tuple(fit), tuple(nxt)


#: the tiles that fit the ends ``e``
FIT, _NEXT = _tables()


def _compiled() -> Any:
    """The C search (:file:`_ghost13c.c`), or None: not built (no compiler when installed), or
    ``DOMINOLOG_PURE_PYTHON=1`` set."""
    if os.environ.get("DOMINOLOG_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        from dominolog.analysis import _ghost13c  # type: ignore[attr-defined]
    except ImportError:
        return None
    _ghost13c.init(FIT, _NEXT, PIPS, ZEROS)
    return _ghost13c


_C = _compiled()
#: which search runs: "c" (the compiled extension) or "python"
BACKEND = "c" if _C is not None else "python"


def next_ends(e: int, i: int) -> tuple[int, ...]:
    """The ends after tile ``i`` is placed on ``e``, one per distinct result (empty: it does not fit)."""
    return _NEXT[28 * e + i]


def pips(mask: int) -> int:
    return _PL[mask & _M14] + _PH[mask >> 14]


def ghost_counts(held: int, e: int) -> bool:
    """G7: a [0-0] left in a hand counts 13 (``held``: both hands; ``e``: the final ends)."""
    return bool(held & 1) and not held & ZEROS and e >= 7


def forced_lock(me: int, opp: int, e: int) -> bool:
    """G8 for the player on move with hand ``me``: exactly one legal tile, not their last, and
    every placement of it locks. (The caller checks that the opponent's last action was a play.)"""
    cand = me & FIT[e]
    if e == EMPTY or not cand or cand & (cand - 1) or cand == me:
        return False
    rest = (me ^ cand) | opp
    return all(not rest & FIT[ne] for ne in _NEXT[28 * e + cand.bit_length() - 1])


class Search:
    """An exact solver with its transposition table; ``nodes`` counts the nodes searched."""

    #: enhanced transposition cutoffs while at least this many tiles are in the hands
    ETC_TILES = 16
    #: how fast the step between tests grows
    GROW = 3

    def __init__(self, pure: bool = False) -> None:
        """``pure``: the Python search even where the C one is built (the reference, for tests)."""
        self.backend = "python" if pure or _C is None else "c"
        if self.backend == "c":
            table = _C.Table()
            self.table: Any = table
            self.test = table.search
            self._count = lambda: table.nodes
        else:
            self.table = {}
            self.test, self._count = self._build()

    @property
    def nodes(self) -> int:
        return self._count()

    def clear(self) -> None:
        self.table.clear()

    def _build(self):  # type: ignore[no-untyped-def]
        tt = self.table
        tt_get = tt.get
        fit = FIT
        rows = tuple(_NEXT[28 * e : 28 * e + 28] for e in range(50))
        pl, ph = _PL, _PH
        tp = PIPS
        zeros = ZEROS
        etc_tiles = self.ETC_TILES
        nodes = 0

        def count() -> int:
            return nodes

        def search(me: int, opp: int, e: int, passed: bool, alpha: int, beta: int) -> int:
            """Alpha-beta (fail-soft) of a position that is not over; the player on move is ``me``."""
            nonlocal nodes
            nodes += 1
            cand = me & fit[e]
            if not cand:  # a pass (G4): the opponent can play, or the table would be locked
                return -search(opp, me, e, True, -beta, -alpha)
            row = rows[e]
            single = not cand & (cand - 1)
            if single and cand != me:
                after = row[cand.bit_length() - 1]
                if len(after) == 1 and (me ^ cand | opp) & fit[after[0]]:
                    # one legal placement, and the hand goes on: no choice to remember
                    return -search(opp, me ^ cand, after[0], False, -beta, -alpha)
            key = me | opp << 28 | e << 56
            if passed and single:
                key |= 1 << 62
            ent = tt_get(key)
            if ent is not None:
                lo, hi, ttm = ent
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                lo, hi, ttm = -INF, INF, -1
            po = pl[opp & 0x3FFF] + ph[opp >> 14]
            bound = 2 * po + 26 * (opp & 1)
            if bound <= alpha:
                return bound
            pm = pl[me & 0x3FFF] + ph[me >> 14]
            bound = -2 * pm - 26 * (me & 1)
            if bound >= beta:
                return bound
            best = -INF
            bestm = -1
            a = alpha
            if ttm >= 0:  # the table's move first, before the others are even generated
                me2 = me ^ 1 << (ttm >> 6)
                ne = ttm & 63
                if me2 and (me2 | opp) & fit[ne]:
                    best = -search(opp, me2, ne, False, -beta, -alpha)
                    bestm = ttm
                    if best >= beta:
                        tt[key] = (best if best > lo else lo, hi, ttm)  # the entry exists
                        return best
                    if best > a:
                        a = best
                else:
                    ttm = -1
            puppet = single and not passed and e != EMPTY and cand != me
            if puppet:
                rest = (me ^ cand) | opp
                for ne in row[cand.bit_length() - 1]:
                    if rest & fit[ne]:
                        puppet = False
            etc = (me | opp).bit_count() >= etc_tiles
            kids = []
            c = cand
            while c:
                bit = c & -c
                c ^= bit
                i = bit.bit_length() - 1
                me2 = me ^ bit
                rest = me2 | opp
                for ne in row[i]:
                    if not me2:  # domino (G5)
                        v = po + 13 if opp & 1 and not opp & zeros and ne >= 7 else po
                    elif rest & fit[ne]:
                        m = i << 6 | ne
                        if m == ttm:
                            continue
                        if etc:
                            ce = tt_get(opp | me2 << 28 | ne << 56)
                            if ce is not None and -ce[1] >= beta:
                                return -ce[1]
                        kids.append(((opp & fit[ne]).bit_count() * 16 - tp[i], me2, ne, m))
                        continue
                    else:  # block (G6, G8, G9)
                        p1 = pl[me2 & 0x3FFF] + ph[me2 >> 14]
                        p2 = po
                        if rest & 1 and not rest & zeros and ne >= 7:
                            if me2 & 1:
                                p1 += 13
                            else:
                                p2 += 13
                        # the aggressor: the opponent (puppet) or me; they win with no more pips
                        v = (-2 * p1 if p2 <= p1 else p1 + p2) if puppet else (2 * p2 if p1 <= p2 else -(p1 + p2))
                    if v > best:
                        best = v
                        bestm = i << 6 | ne
            if best > a:
                a = best
            if a < beta and kids:
                if len(kids) > 1:
                    kids.sort()
                first = ttm < 0
                for _, me2, ne, m in kids:
                    if first:
                        v = -search(opp, me2, ne, False, -beta, -a)
                        first = False
                    else:
                        v = -search(opp, me2, ne, False, -a - 1, -a)
                        if a < v < beta:
                            v = -search(opp, me2, ne, False, -beta, -v)
                    if v > best:
                        best = v
                        bestm = m
                        if v > a:
                            a = v
                            if a >= beta:
                                break
            if best <= alpha:
                if best < hi:
                    hi = best
                if ttm >= 0:
                    bestm = ttm
            elif best >= beta:
                if best > lo:
                    lo = best
            else:
                lo = hi = best
            tt[key] = (lo, hi, bestm)
            return best

        return search, count

    def value(self, me: int, opp: int, e: int, passed: bool) -> int:
        """The exact value of a position that is not over (kept in the table, with its best move).

        The first move (the table's, else the one the move ordering likes best) is solved
        exactly by :meth:`mtd`; every other move is tested once against the best value so
        far, and solved only if it does better. (At the root that is cheaper than null-window
        tests of the whole position: each proves every move of the root no better than the
        test's bound, again and again; here that proof is made once, at the final bound.)
        """
        if not me & FIT[e]:  # a pass
            return -self.value(opp, me, e, True)
        key = node_key(me, opp, e, passed)
        ent = self.table.get(key)
        if ent is not None and ent[0] == ent[1]:
            return ent[0]
        best, bestm, kids = self.children(me, opp, e, passed)
        test = self.test
        for n, (m, o, mine, ne) in enumerate(kids):
            if n == 0:
                guess = self.known(o, mine, ne, False)
                v = -self.mtd(o, mine, ne, False, 0 if guess is None else guess)
            else:
                g = test(o, mine, ne, False, -best - 1, -best)
                if g >= -best:
                    continue
                v = -self.mtd(o, mine, ne, False, g)
            if v > best:
                best, bestm = v, m
        self.table[key] = (best, best, bestm)
        return best

    def mtd(self, me: int, opp: int, e: int, passed: bool, guess: int = 0) -> int:
        """The exact value of a position that is not over, by null-window tests.

        As MTD(f), each test's fail-soft answer narrows the range; the step from the last
        bound grows while the tests keep failing the same way, so a value far from the first
        guess takes a few tests, not one per point.
        """
        lo, hi = -INF, INF
        b = guess
        step, last = 1, 0
        search = self.test
        grow = self.GROW
        while True:
            g = search(me, opp, e, passed, b - 1, b)
            if g >= b:
                lo, way = g, 1
            else:
                hi, way = g, -1
            if lo >= hi:
                return lo
            step = step * grow if way == last else 1
            last = way
            b = lo + step if way > 0 else hi - step + 1
            if b <= lo:
                b = lo + 1
            elif b > hi:
                b = hi

    def children(self, me: int, opp: int, e: int, passed: bool) -> tuple[int, int, list[tuple[int, int, int, int]]]:
        """The moves of a node that has a play: the best value and move among the moves that end
        the hand (-INF, -1 if none), and every other move ``(move, opp, me after it, ends)``,
        the table's move first, then as the search orders them."""
        cand = me & FIT[e]
        puppet = not passed and forced_lock(me, opp, e)
        po = pips(opp)
        best, bestm = -INF, -1
        kids: list[tuple[int, int, int, int, int]] = []
        ttm = self.best_move(me, opp, e, passed)
        for i in range(28):
            bit = 1 << i
            if not cand & bit:
                continue
            me2 = me ^ bit
            rest = me2 | opp
            for ne in _NEXT[28 * e + i]:
                m = i << 6 | ne
                if not me2:  # domino
                    v = po + 13 if ghost_counts(opp, ne) else po
                elif rest & FIT[ne]:
                    order = -1000 if m == ttm else (opp & FIT[ne]).bit_count() * 16 - PIPS[i]
                    kids.append((order, m, opp, me2, ne))
                    continue
                else:  # block
                    p1, p2 = pips(me2), po
                    if ghost_counts(rest, ne):
                        if me2 & 1:
                            p1 += 13
                        else:
                            p2 += 13
                    v = (-2 * p1 if p2 <= p1 else p1 + p2) if puppet else (2 * p2 if p1 <= p2 else -(p1 + p2))
                if v > best:
                    best, bestm = v, m
        kids.sort()
        return best, bestm, [k[1:] for k in kids]

    def at_least(self, me: int, opp: int, e: int, passed: bool, b: int) -> bool:
        """Whether the value of the position is at least ``b`` (one null-window test)."""
        return self.test(me, opp, e, passed, b - 1, b) >= b

    def best_move(self, me: int, opp: int, e: int, passed: bool) -> int:
        """The table's best move at a node (``tile_index << 6 | ends``), or -1."""
        ent = self.table.get(node_key(me, opp, e, passed))
        return -1 if ent is None else ent[2]

    def known(self, me: int, opp: int, e: int, passed: bool) -> int | None:
        """A bound on the value that the table holds already (a first guess), or None."""
        ent = self.table.get(node_key(me, opp, e, passed))
        if ent is None:
            return None
        lo, hi, _ = ent
        return lo if lo > -INF else hi if hi < INF else None


def node_key(me: int, opp: int, e: int, passed: bool) -> int:
    """The table's key of a node (as the search builds it)."""
    cand = me & FIT[e]
    single = cand and not cand & (cand - 1)
    return me | opp << 28 | e << 56 | (1 << 62 if passed and single else 0)
