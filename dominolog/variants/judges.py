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
from functools import cache
from typing import Any

from dominolog.state import Holding, Judge
from dominolog.tiles import DOUBLE_SIX, DOUBLE_SIX_SET, Tile, mask_of, tiles_in


def tiles_of(bits: int) -> frozenset[Tile]:
    """The tiles of a bit set (:func:`~dominolog.tiles.mask_of`), as a set."""
    return frozenset(tiles_in(bits))


def names(tiles: Iterable[Tile], limit: int = 4) -> str:
    ts = sorted(tiles)
    text = ", ".join(map(str, ts[:limit]))
    return text + (", ..." if len(ts) > limit else "")


def named(tiles: Iterable[Tile], limit: int = 4) -> tuple[Tile, ...]:
    """The tiles :func:`names` writes out (the first ``limit``, in order)."""
    return tuple(sorted(tiles)[:limit])


def _judge_holding(select: Callable[[frozenset[Tile]], set[Tile]], verb: str, verbs: str, none: str) -> Judge:
    """The hand holds one of the tiles ``select`` picks out of those it may hold."""

    def judge(sure: frozenset[Tile], upper: frozenset[Tile], n: int) -> tuple[bool | None, str, tuple[Tile, ...]]:
        fitting = select(upper)
        held = fitting & sure
        if held:
            return True, f"{names(held)} {verbs if len(held) == 1 else verb}", named(held)
        room = n - len(sure)
        if not fitting or room <= 0:
            return False, none, ()
        if len(upper - sure - fitting) < room:
            return True, f"the hand must hold one of {names(fitting)}, which {verb}", named(fitting)
        return None, "", ()

    return judge


class HoldingRule:
    """A rule broken by what the hand holds (one of some tiles, a pair play), asked of the worlds of
    a hand's log (:meth:`decide`). Holding more never mends it: a hand that breaks it still breaks it
    with more tiles (so a player's rules of a run of draws can be judged at once:
    :func:`dominolog.reducer.verdicts.decide_checks`)."""

    __slots__ = ()

    def __call__(
        self, sure: frozenset[Tile], upper: frozenset[Tile], n: int
    ) -> tuple[bool | None, str, tuple[Tile, ...]]:
        """The rule as a bounds judge (:data:`~dominolog.state.Judge`)."""
        raise NotImplementedError

    def broken_somewhere(self, hand: HandQuestion) -> bool:
        """Whether some world breaks the rule."""
        raise NotImplementedError

    def kept_somewhere(self, hand: HandQuestion) -> bool:
        """Whether some world keeps the rule."""
        raise NotImplementedError

    def shown(self, hand: HandQuestion, verdict: bool | None) -> frozenset[Tile]:
        """The tiles named with a verdict: for a rule broken in every world (True), the tiles that
        show it; for one broken in some (None), the tiles that would make it broken."""
        raise NotImplementedError

    def decide(self, hand: HandQuestion) -> Decision:
        """Broken (True) in every world, in some (None), in none (False), and the tiles it names."""
        if not self.broken_somewhere(hand):
            return False, frozenset()
        if self.kept_somewhere(hand):
            return None, self.shown(hand, None)
        return True, self.shown(hand, True)


class HoldsOne(HoldingRule):
    """The rule "the hand holds one of ``tiles``" (a legal play), as a bounds judge and as a question
    to the worlds of a hand's log (:meth:`decide`: broken when every world holds one of the tiles)."""

    __slots__ = ("_bits", "_judge", "tiles", "verb")

    def __init__(self, tiles: frozenset[Tile], verb: str, verbs: str, none: str) -> None:
        self.tiles = tiles
        self._bits = mask_of(tiles)
        self.verb = verb
        self._judge = _judge_holding(lambda upper: set(upper & tiles), verb, verbs, none)

    def __call__(
        self, sure: frozenset[Tile], upper: frozenset[Tile], n: int
    ) -> tuple[bool | None, str, tuple[Tile, ...]]:
        return self._judge(sure, upper, n)

    def broken_somewhere(self, hand: HandQuestion) -> bool:
        return hand.possible_bits(self._bits) != 0

    def kept_somewhere(self, hand: HandQuestion) -> bool:
        return hand.avoidable_bits(self._bits)

    def shown(self, hand: HandQuestion, verdict: bool | None) -> frozenset[Tile]:
        """The tiles the hand may hold; broken in every world, those it surely holds when there are."""
        could = hand.possible_bits(self._bits)
        return tiles_of((hand.certain_bits(self._bits) or could) if verdict else could)


@cache
def judge_fit(values: tuple[int, ...]) -> Judge:
    """The hand holds a tile that fits one of the open ``values`` (any tile when there are none)."""
    mask = 0
    for v in values:
        mask |= 1 << v
    tiles = frozenset(t for t in DOUBLE_SIX if not mask or t.mask & mask)
    return HoldsOne(tiles, "fit", "fits", "no tile fits")


def judge_holds(tiles: frozenset[Tile]) -> Judge:
    """The hand holds one of ``tiles`` (e.g. the tiles that can be played somewhere on a 2-D table)."""
    return HoldsOne(frozenset(tiles), "can be played", "can be played", "no tile can be played")


def open_without_any(h: Holding, judge: Any) -> bool:
    """Whether ``h`` is an open hand (no unknown tile) holding none of the tiles of ``judge``, a
    :class:`HoldsOne` rule: what the judge finds of such a hand (the rule kept), told by a disjoint
    test, so that the common draw is not judged (any other judge, or a hidden tile: False)."""
    return isinstance(judge, HoldsOne) and not h.unknown and h.known.isdisjoint(judge.tiles)


def _distinct_bits(a: int, b: int) -> bool:
    """:func:`_distinct_pair` of bit sets of tiles."""
    return a != 0 and b != 0 and not (a == b and not a & (a - 1))


def _distinct_pair(a: set[Tile], b: set[Tile]) -> bool:
    """Whether some x in ``a`` and some other tile y in ``b`` exist."""
    return bool(a) and bool(b) and not (len(a) == 1 and a == b)


def _a_pair(a: set[Tile], b: set[Tile]) -> tuple[Tile, Tile]:
    """The first such pair, in tile order."""
    return next((x, y) for x in sorted(a) for y in sorted(b) if x != y)


class HoldsPair(HoldingRule):
    """Double Draw's rule "the hand holds two tiles, one fitting ``left`` and another ``right``"."""

    __slots__ = ("_both", "_common", "_judge", "_left", "_right", "left", "right")

    def __init__(self, left: int, right: int) -> None:
        self.left = frozenset(t for t in DOUBLE_SIX if t.has(left))
        self.right = frozenset(t for t in DOUBLE_SIX if t.has(right))
        self._judge = _pair_bounds(left, right)
        # the same as bit sets of tiles (:func:`~dominolog.tiles.mask_of`), and the tiles that fit both ends, in order
        self._left, self._right = mask_of(self.left), mask_of(self.right)
        self._both = self._left | self._right
        self._common = [t.index for t in sorted(self.left & self.right)]

    def __call__(
        self, sure: frozenset[Tile], upper: frozenset[Tile], n: int
    ) -> tuple[bool | None, str, tuple[Tile, ...]]:
        return self._judge(sure, upper, n)

    def _some_pair(self, hand: HandQuestion) -> bool:
        """Whether some world holds a pair play: asked first of the world at hand, whichever it is; then
        of each pair the hand may hold, in tile order."""
        held = hand.in_some_world_bits()
        if _distinct_bits(held & self._left, held & self._right):
            return True
        rights = hand.possible_bits(self._right)
        lefts = hand.possible_bits(self._left)
        while lefts:
            x = lefts & -lefts
            lefts ^= x
            ys = rights & ~x
            while ys:
                y = ys & -ys
                ys ^= y
                if hand.together_bits(x | y):
                    return True
        return False

    def _has_pair(self, hand: HandQuestion) -> frozenset[Tile]:
        """The tiles of the pair play that is shown: the first of the world found from nothing, else
        the first pair (in tile order) some world holds (empty: no world holds one)."""
        held = hand.in_one_world()
        if _distinct_pair(set(held & self.left), set(held & self.right)):
            return frozenset(_a_pair(set(held & self.left), set(held & self.right)))
        rights = sorted(hand.possible(self.right))
        for x in sorted(hand.possible(self.left)):
            for y in rights:
                if y is not x and hand.together(x, y):
                    return frozenset({x, y})
        return frozenset()

    def _can_lack_pair(self, hand: HandQuestion) -> bool:
        if hand.avoidable_bits(self._left) or hand.avoidable_bits(self._right):
            return True
        return any(hand.avoidable_bits(self._both & ~(1 << z)) for z in self._common)

    def broken_somewhere(self, hand: HandQuestion) -> bool:
        return self._some_pair(hand)

    def kept_somewhere(self, hand: HandQuestion) -> bool:
        return self._can_lack_pair(hand)

    def shown(self, hand: HandQuestion, verdict: bool | None) -> frozenset[Tile]:
        """Broken in some world: the tiles that fit either end. In every world: those the hand surely
        holds, else the pair play of the world found from nothing (worked out only then: the other
        questions do not need that world)."""
        if verdict:
            return tiles_of(hand.certain_bits(self._both)) or self._has_pair(hand)
        return tiles_of(hand.possible_bits(self._both))


@cache
def judge_pair(left: int, right: int) -> Judge:
    """Double Draw: the hand holds two tiles, one fitting ``left`` and another fitting ``right``."""
    return HoldsPair(left, right)


def _pair_bounds(left: int, right: int) -> Judge:
    ml, mr = 1 << left, 1 << right

    def judge(sure: frozenset[Tile], upper: frozenset[Tile], n: int) -> tuple[bool | None, str, tuple[Tile, ...]]:
        if not sure:  # a hand of which nothing is known (a draw of a hidden hand): counts, no sets
            return _pair_nothing_known(ml, mr, upper, n)
        return _pair_judged(ml, mr, sure, upper, n)

    return judge


def _pair_judged(
    ml: int, mr: int, sure: frozenset[Tile], upper: frozenset[Tile], n: int
) -> tuple[bool | None, str, tuple[Tile, ...]]:
    """Double Draw's pair rule judged from the bounds (the numbers of the ends as masks ``ml``, ``mr``)."""
    sl = {t for t in sure if t.mask & ml and t in upper}
    sr = {t for t in sure if t.mask & mr and t in upper}
    if _distinct_pair(sl, sr):
        x, y = _a_pair(sl, sr)
        return True, f"{x} on the left and {y} on the right", (x, y)
    room = n - len(sure)
    if room <= 0:  # (an open hand, the common case: no room for a tile that would make a pair)
        return False, "no pair play", ()
    fl = {t for t in upper if t.mask & ml}
    fr = {t for t in upper if t.mask & mr}
    # Can the hand hold a pair at all? The fewest tiles to add for one:
    if _distinct_pair(sl, fr - sure) or _distinct_pair(fl - sure, sr):
        need = 1
    elif _distinct_pair(fl - sure, fr - sure):
        need = 2
    else:
        need = n + 3  # no pair at all: more than any room
    if need > room:
        return False, "no pair play", ()
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
        return True, f"the hand must hold a pair play among {names(fl | fr, 6)}", named(fl | fr, 6)
    return None, "", ()


def count_fits(tiles: Iterable[Tile], ml: int, mr: int) -> tuple[int, int, int]:
    """How many of ``tiles`` fit the left end, the right end (``ml``, ``mr``: the masks of their numbers),
    and both."""
    fit_left = fit_right = fit_both = 0
    for t in tiles:
        m = t.mask
        if m & ml:
            fit_left += 1
            if m & mr:
                fit_both += 1
        if m & mr:
            fit_right += 1
    return fit_left, fit_right, fit_both


def holds_pair(fit_left: int, fit_right: int, fit_both: int) -> bool:
    """Whether tiles so counted (:func:`count_fits`) hold a pair play: a tile for each end, unless the one
    tile for each is the same tile."""
    return fit_left > 0 and fit_right > 0 and not (fit_left == 1 and fit_right == 1 and fit_both == 1)


def _pair_nothing_known(ml: int, mr: int, upper: frozenset[Tile], n: int) -> tuple[bool | None, str, tuple[Tile, ...]]:
    """:func:`_pair_judged` of a hand none of whose tiles is known (``sure`` empty), from how many of the
    tiles it may hold fit the left, the right and both (``tests/test_judges.py`` holds the two to the
    same answers and words): no pair without a tile for each end, one tile being the only fit for both;
    none in a hand of fewer than two; avoidable with room enough outside one end's tiles, or outside
    both ends' but for one tile that fits both."""
    if n <= 0:
        return False, "no pair play", ()
    fit_left, fit_right, fit_both = count_fits(upper, ml, mr)
    if n < 2 or not holds_pair(fit_left, fit_right, fit_both):
        return False, "no pair play", ()
    free = len(upper)
    if free - fit_left >= n or free - fit_right >= n:
        return None, "", ()
    if fit_both and free - fit_left - fit_right + fit_both >= n - 1:
        return None, "", ()
    fits = {t for t in upper if t.mask & (ml | mr)}
    return True, f"the hand must hold a pair play among {names(fits, 6)}", named(fits, 6)


class Opposite:
    """The opposite rule: broken exactly when ``judge`` says the hand kept its rule (unknown stays unknown).

    E.g. "passes while a draw is allowed" is broken when the hand had *no* legal play.
    """

    __slots__ = ("judge",)

    def __init__(self, judge: Judge) -> None:
        self.judge = judge

    def __call__(
        self, sure: frozenset[Tile], upper: frozenset[Tile], n: int
    ) -> tuple[bool | None, str, tuple[Tile, ...]]:
        verdict, detail, tiles = self.judge(sure, upper, n)
        return (None if verdict is None else not verdict), detail, tiles

    def decide(self, hand: HandQuestion) -> Decision:
        verdict, tiles = self.judge.decide(hand)  # type: ignore[attr-defined]
        return (None if verdict is None else not verdict), tiles


def judge_not(judge: Judge) -> Judge:
    """The opposite of ``judge`` (see :class:`Opposite`)."""
    return Opposite(judge)


class HandQuestion:
    """A hand just before an event, in every world its log allows
    (:class:`dominolog.knowledge.model.Before` answers). A base class, not a protocol: compiled,
    a rule's questions go straight to the answering methods."""

    def possible(self, tiles: Iterable[Tile]) -> frozenset[Tile]:
        raise NotImplementedError

    def certain(self, tiles: Iterable[Tile]) -> frozenset[Tile]:
        raise NotImplementedError

    # the same questions of bit sets of tiles (:func:`~dominolog.tiles.mask_of`), which the rules above ask
    def possible_bits(self, tiles: int) -> int:
        raise NotImplementedError

    def certain_bits(self, tiles: int) -> int:
        raise NotImplementedError

    def avoidable_bits(self, tiles: int) -> bool:
        raise NotImplementedError

    def together_bits(self, tiles: int) -> bool:
        raise NotImplementedError

    def in_some_world_bits(self) -> int:
        raise NotImplementedError

    def avoidable(self, tiles: Iterable[Tile]) -> bool:
        raise NotImplementedError

    def avoidable_but(self, tiles: Iterable[Tile], keep: Tile) -> bool:
        raise NotImplementedError

    def in_one_world(self) -> frozenset[Tile]:
        raise NotImplementedError

    def in_some_world(self) -> frozenset[Tile]:
        raise NotImplementedError

    def together(self, *tiles: Tile) -> bool:
        raise NotImplementedError


#: a rule's verdict in the worlds of a log (True broken in all, None in some, False in none) and the
#: tiles that decide it (broken: the tiles that show it; open: the tiles that would make it broken)
Decision = tuple[bool | None, frozenset[Tile]]


def judge_tiles(judge: Judge) -> frozenset[Tile]:
    """The tiles ``judge``'s rule turns on (every tile for a judge that does not say)."""
    if isinstance(judge, HoldsOne):
        return judge.tiles
    if isinstance(judge, HoldsPair):
        return judge.left | judge.right
    if isinstance(judge, Opposite):
        return judge_tiles(judge.judge)
    return DOUBLE_SIX_SET


def decide(judge: Judge, hand: HandQuestion) -> Decision | None:
    """``judge``'s verdict in the worlds of the hand's log; None for a judge that cannot answer that."""
    if isinstance(judge, HoldingRule):
        return judge.decide(hand)
    if isinstance(judge, Opposite):
        return judge.decide(hand)
    method = getattr(judge, "decide", None)
    return method(hand) if method is not None else None
