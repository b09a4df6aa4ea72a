"""A hand's worlds grouped for counting (:mod:`dominolog.knowledge.likelihood`): slots that no
fact tells apart merged into groups with capacities, the tiles' groups, and what the rule asked
about needs to know of the hand (a :class:`Tracker`)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, cast

from dominolog.knowledge.model import HandModel, Slot
from dominolog.state import Judge
from dominolog.tiles import Tile
from dominolog.variants.judges import HoldsOne, HoldsPair, Opposite


# -- what the rule cares about ---------------------------------------------------------------
class Tracker:
    """What a rule needs to know of a hand built up tile by tile: each tile's part in it (``role``),
    a state that starts at ``start``, grows by ``add`` (``k`` tiles of one role; adding ``a`` then
    ``b`` is adding ``a + b``) and says at the end whether the rule is ``broken``. A state and a
    role are any values that can key a dict. (A base class, not a protocol: compiled, the count's
    calls go straight to the rule's methods.)"""

    def __init__(self, start: Hashable) -> None:
        self.start = start

    def role(self, tile: Tile) -> Hashable:
        raise NotImplementedError

    def add(self, state: Hashable, role: Hashable, k: int) -> Hashable:
        raise NotImplementedError

    def broken(self, state: Hashable) -> bool:
        raise NotImplementedError


class _One(Tracker):
    """ "Holds one of ``tiles``": the state is whether it does yet."""

    def __init__(self, tiles: frozenset[Tile]) -> None:
        super().__init__(False)
        self.tiles = tiles

    def role(self, tile: Tile) -> Hashable:
        return tile in self.tiles

    def add(self, state: Hashable, role: Hashable, k: int) -> Hashable:
        return state or (bool(role) and k > 0)

    def broken(self, state: Hashable) -> bool:
        return bool(state)


_PAIR = (9, 9, 9)  # the state once the hand holds a pair
#: a tile's role in the pair rule: (fits the left, fits the right)
_NEITHER, _BOTH, _LEFT = (False, False), (True, True), (True, False)


class _Pair(Tracker):
    """Double Draw's "holds a tile fitting ``left`` and another fitting ``right``": the state counts
    the tiles held that fit the left only (up to 1), the right only (up to 1), and both (up to 2)."""

    def __init__(self, left: frozenset[Tile], right: frozenset[Tile]) -> None:
        super().__init__((0, 0, 0))
        self.left, self.right = left, right

    def role(self, tile: Tile) -> Hashable:
        return (tile in self.left, tile in self.right)

    def add(self, state: Hashable, role: Hashable, k: int) -> Hashable:
        if state == _PAIR or not k or role == _NEITHER:
            return state
        a, b, c = cast(tuple[int, int, int], state)
        if role == _BOTH:
            c = min(2, c + k)
        elif role == _LEFT:
            a = 1
        else:
            b = 1
        if (a and (b or c)) or (b and c) or c >= 2:
            return _PAIR
        return (a, b, c)

    def broken(self, state: Hashable) -> bool:
        return state == _PAIR


class _Not(Tracker):
    """The opposite rule (:class:`~dominolog.variants.judges.Opposite`)."""

    def __init__(self, inner: Tracker) -> None:
        super().__init__(inner.start)
        self.inner = inner

    def role(self, tile: Tile) -> Hashable:
        return self.inner.role(tile)

    def add(self, state: Hashable, role: Hashable, k: int) -> Hashable:
        return self.inner.add(state, role, k)

    def broken(self, state: Hashable) -> bool:
        return not self.inner.broken(state)


class _Any(Tracker):
    """Any judge: the state is the hand itself (each tile its own role), judged at the end."""

    def __init__(self, judge: Judge) -> None:
        super().__init__(frozenset())
        self.judge = judge

    def role(self, tile: Tile) -> Hashable:
        return tile

    def add(self, state: Hashable, role: Hashable, k: int) -> Hashable:
        return state | {role} if k else state  # type: ignore[operator]

    def broken(self, state: Hashable) -> bool:
        hand: frozenset[Tile] = state  # type: ignore[assignment]
        return self.judge(hand, hand, len(hand))[0] is True


def tracker(judge: Judge) -> Tracker:
    """The rule ``judge`` as a :class:`Tracker` (compact for the judges the variants use)."""
    if isinstance(judge, HoldsOne):
        return _One(judge.tiles)
    if isinstance(judge, HoldsPair):
        return _Pair(judge.left, judge.right)
    if isinstance(judge, Opposite):
        return _Not(tracker(judge.judge))
    return _Any(judge)


# -- the worlds as groups ----------------------------------------------------------------------
@dataclass(slots=True)
class Shape:
    """What every rule of one hand asks of its model, worked out once: the slots that no fact tells
    apart as one *pre-group* (the same kind of slot, the same tiles may take it), how many slots
    each has and which tiles (``takers``), each tile's pre-groups, the connected part (of tiles and
    pre-groups linked by the facts) each pre-group is in, and each tile's pre-group in the model's
    matching."""

    kinds: list[Slot]
    sizes: list[int]
    takers: list[tuple[Tile, ...]]
    adj: dict[Tile, tuple[int, ...]]
    part: list[int]
    start: dict[Tile, int]
    #: each connected part's pre-groups and tiles, by the part's id
    parts: dict[int, tuple[list[int], list[Tile]]]
    #: each pre-group's takers' exits, in order (how many are still in a hand at seq: a bisection)
    exits: list[list[int]]
    #: each part as a chain of one player's deal and draws, or None (:mod:`dominolog.knowledge.nested`)
    chains: dict[int, Any] = field(default_factory=dict)
    #: each rule's :class:`Tracker`, by its judge (made once a hand: the counts kept with a chain are
    #: found again by it)
    trackers: dict[object, Tracker] = field(default_factory=dict)

    @classmethod
    def of(cls, model: HandModel) -> Shape:
        found = model.shape
        if isinstance(found, Shape):
            return found
        assert model.match is not None
        # each slot's takers as a bit set of the tiles' places in the set (so the key below hashes
        # an int, not a tuple of tiles), and as the list of them (in tile order) for a new pre-group
        taken = [0] * len(model.slots)
        for t, bits in model.allowed_bits().items():
            one = 1 << t.index
            while bits:
                low = bits & -bits
                taken[low.bit_length() - 1] |= one
                bits ^= low
        keys: dict[tuple[str | None, int, int, int], int] = {}
        of_slot: list[int] = []
        kinds: list[Slot] = []
        sizes: list[int] = []
        takers: list[tuple[Tile, ...]] = []
        tiles = model.tiles
        for i, slot in enumerate(model.slots):
            # the slot's fields, not the slot: a dataclass's hash and equality are Python calls
            key = (slot.owner, slot.entry, slot.draw, taken[i])
            q = keys.setdefault(key, len(kinds))
            if q == len(kinds):
                kinds.append(slot)
                sizes.append(0)
                mine = taken[i]
                takers.append(tuple([t for t in tiles if mine >> t.index & 1]))
            sizes[q] += 1
            of_slot.append(q)
        adj = {t: tuple(sorted({of_slot[i] for i in model.allowed[t]})) for t in model.tiles}
        parent = list(range(len(kinds)))

        def root(q: int) -> int:
            while parent[q] != q:
                parent[q] = parent[parent[q]]
                q = parent[q]
            return q

        for qs in adj.values():
            if len(qs) > 1:
                first = root(qs[0])  # stays a root: only the other roots are hung under it
                for q in qs[1:]:
                    parent[root(q)] = first
        part = [root(q) for q in range(len(kinds))]
        parts: dict[int, tuple[list[int], list[Tile]]] = {}
        for q in range(len(kinds)):
            parts.setdefault(part[q], ([], []))[0].append(q)
        for t in model.tiles:
            parts[part[adj[t][0]]][1].append(t)
        start = {t: of_slot[i] for t, i in model.match.items()}
        exits = [sorted(model.exit[t] for t in ts) for ts in takers]
        shape = cls(kinds, sizes, takers, adj, part, start, parts, exits)
        model.shape = shape
        return shape


def relevant(shape: Shape, player: str, seq: int) -> dict[int, dict[int, int]]:
    """The parts of the facts that can put a tile in ``player``'s hand just before ``seq``: for each,
    its pre-groups that are the player's and entered before seq, with how many of their takers are
    still in a hand at seq (those whose exit is the latest). The other parts leave the share as it is."""
    kinds, exits = shape.kinds, shape.exits
    out: dict[int, dict[int, int]] = {}
    for p, (qs, _) in shape.parts.items():
        opens = {
            q: len(exits[q]) - bisect_right(exits[q], seq)
            for q in qs
            if kinds[q].owner == player and kinds[q].entry < seq
        }
        if any(opens.values()):
            out[p] = opens
    return out


@dataclass(slots=True)
class Worlds:
    """A hand's worlds, for one rule: slots merged into groups (``caps``), each tile's groups
    (``adj``, in group order) and those that put it in the hand asked about (``inside``).

    Only the connected parts of the facts that can put a tile in that hand are kept: the others
    multiply the worlds where the rule is broken and all the worlds alike, and leave the share as
    it is (with reveals, the other players' tiles and the boneyard's)."""

    tiles: list[Tile]
    caps: list[int]
    adj: dict[Tile, tuple[int, ...]]
    inside: dict[Tile, frozenset[int]]
    #: a world to start from: each tile's group in the model's matching
    start: dict[Tile, int]
    tracker: Tracker
    #: each group's connected part (groups of different parts are independent)
    part: list[int]

    @classmethod
    def of(cls, model: HandModel, player: str, seq: int, judge: Judge) -> Worlds:
        shape = Shape.of(model)
        exit = model.exit
        takers, sizes = shape.takers, shape.sizes
        group_of: dict[int, int] = {}
        keys: dict[tuple, int] = {}
        caps: list[int] = []
        part: list[int] = []
        tiles: list[Tile] = []
        # only the parts with a pre-group that puts a tile in the hand: the player's, entered
        # before seq, taken by a tile still in hand at seq
        mine: set[int] = set()  # the pre-groups that put a tile still in hand at seq in the hand
        for p, opens in relevant(shape, player, seq).items():
            qs, ts = shape.parts[p]
            mine.update(opens)
            for q in qs:
                key = (opens.get(q, -1), takers[q])
                g = keys.get(key)
                if g is None:
                    g = keys[key] = len(caps)
                    caps.append(0)
                    part.append(p)
                caps[g] += sizes[q]
                group_of[q] = g
            tiles += ts
        adj: dict[Tile, tuple[int, ...]] = {}
        inside: dict[Tile, frozenset[int]] = {}
        none: frozenset[int] = frozenset()
        for t in tiles:
            near = shape.adj[t]
            adj[t] = tuple(sorted({group_of[q] for q in near}))
            inside[t] = frozenset(group_of[q] for q in near if q in mine) if exit[t] > seq else none
        start = {t: group_of[shape.start[t]] for t in tiles}
        worlds = cls(sorted(tiles), caps, adj, inside, start, tracker(judge), part)
        worlds.drop_outsiders()
        return worlds

    def drop_outsiders(self) -> None:
        """Leave out the tiles that no world puts in the hand asked about, when the other tiles do
        not tell their places apart: the *outsiders* ``X`` (in a player's own hand: the tiles played
        before seq) take ``|X|`` of the places ``S`` they can take; when every other tile can take
        all of ``S`` or none of it, and is in the hand in all of it or in none, the others see ``S``
        as one group of ``|S| - |X|`` places. Each world of the others is then as many worlds of the
        hand (the ways to place ``X`` in ``S``, and the others' tiles in what is left of ``S``,
        whatever the others' world), so the share stays as it is, and the count is smaller."""
        adj, inside = self.adj, self.inside
        out = [t for t in self.tiles if not inside[t]]
        if not out:
            return
        places = {g for t in out for g in adj[t]}
        rest = [t for t in self.tiles if inside[t]]
        for t in rest:
            seen = places.intersection(adj[t])
            if seen and (seen != places or (inside[t] & places and not places <= inside[t])):
                return  # another tile tells the places apart: keep them all
        into = min(places)
        self.caps[into] = sum(self.caps[g] for g in places) - len(out)
        for g in places - {into}:
            self.caps[g] = 0
        for t in out:
            del adj[t], inside[t], self.start[t]
        for t in rest:
            if places.intersection(adj[t]):
                adj[t] = tuple(sorted({into if g in places else g for g in adj[t]}))
                if places <= inside[t]:
                    inside[t] = (inside[t] - places) | {into}
            if self.start[t] in places:
                self.start[t] = into
        self.tiles = rest
