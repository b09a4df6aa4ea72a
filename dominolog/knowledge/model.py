"""Who could have held which tile: a hand as a matching of tiles to the places they came from.

Within a hand a tile has one life: dealt to a player or left in the boneyard; drawn
from the boneyard by one player (at one draw); played by that player or still in
that hand at the end. So a *world* consistent with the log is an assignment of each
tile to one **slot**, a place a tile entered a hand: one of a player's dealt tiles,
one draw, or the boneyard to the end of the hand. Every slot takes exactly one tile.
What the log shows only says which slots a tile can take: a play by Ben means Ben's
deal or one of Ben's draws before it; a reveal means a slot of the revealing player;
a seen draw, that draw; a tile never played nor revealed, any hand still hidden at
the end or the boneyard.

The consistent worlds are then exactly the perfect matchings of tiles to slots, and
the tiles a player *may* hold at an event are the tiles with a matching edge that
puts them in that hand then. Which edges lie in some perfect matching is a classic
question (Dulmage-Mendelsohn): take one perfect matching; an edge outside it lies in
another exactly when its two ends are in the same strongly connected component of
the graph that points matched edges from slot to tile and the others from tile to
slot. So each tile's possible slots are exact, not estimated, whatever the log
leaves hidden.

A rule "held none of these tiles just before seq s" (an honest pass) forbids edges
and is handled the same way; rules that are not of that form are judged by asking
whether a perfect matching exists with some edges forbidden (:class:`Before`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from dominolog.frozen import by_fields
from dominolog.tiles import Tile, mask_of
from dominolog.variants.judges import HandQuestion, tiles_of

#: the seq of "never": a tile never played leaves no hand before the end
NEVER = 1 << 60


@dataclass(init=False, frozen=True, slots=True)
class Slot:
    """A place a tile entered a hand: ``owner`` (None: the boneyard to the end) from seq ``entry``.

    ``draw`` is the seq of the draw for a draw slot, 0 for a dealt tile or the boneyard.
    """

    owner: str | None
    entry: int
    draw: int = 0

    def __init__(self, owner: str | None, entry: int, draw: int = 0) -> None:  # written out: made per hand
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "draw", draw)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)


Forbid = Callable[[Tile, Slot], bool]


class HandModel:
    """The worlds consistent with what a hand's log shows (see the module's docstring).

    ``edges[t]`` are the slot indexes tile ``t`` can take by the facts; ``exit[t]`` the seq it
    left its hand (its play), NEVER when it was not played. ``allowed[t]`` are the slots it takes
    in at least one world; empty for every tile when no world exists (``feasible`` False).
    """

    def __init__(
        self,
        slots: list[Slot],
        edges: dict[Tile, list[int]],
        exit: dict[Tile, int],
        start: dict[Tile, int] | None = None,
        previous: HandModel | None = None,
        entries: dict[str | None, tuple[list[int], list[int]]] | None = None,
    ) -> None:
        self.slots = slots
        self.edges = edges
        self.exit = exit
        self.tiles = sorted(edges)
        self._owners: list[Tile | None] | None = None
        #: each holder's slots in order of entry: (the entries, the slot indexes), :func:`by_entry`
        #: of ``slots`` (worked out when first asked, unless given)
        self._entries = entries
        #: a world of the model (a perfect matching), None when there is none: the one the questions
        #: of feasibility, of the edges in some world and of worlds with tiles narrowed start from.
        #: Taken over from ``previous`` and augmented for the new facts when given (a perfect matching,
        #: though not always the one found from nothing: see :attr:`match`)
        self.world: dict[Tile, int] | None
        #: the world found from nothing (:attr:`match`), once worked out
        self._match: dict[Tile, int] | None = None
        self._match_known = False
        #: each tile's slots in some world as a bit set (slot ``i`` is bit ``i``): what the matching
        #: gives; :attr:`allowed`, the same as sets, is made from it when first asked
        self._allowed_bits: dict[Tile, int]
        self._allowed: dict[Tile, frozenset[int]] | None = None
        #: each holder's entries and the slots entered before each, as bit sets (:meth:`entered_bits`)
        self._prefix: dict[str | None, tuple[list[int], list[int]]] | None = None
        #: :meth:`by_index`, once worked out
        self._by_index: tuple[list[int], list[int], list[int]] | None = None
        self.graph: object
        if (
            previous is not None
            and start is None
            and len(previous.slots) == len(slots)
            and previous.edges == edges
            and previous.exit == exit
        ):
            # The same tiles, slots by number and edges as ``previous`` (e.g. an unseen draw that
            # turned a boneyard slot into a draw slot, a pass): the worlds and the edges in some
            # world are functions of those alone, so they are the previous model's
            self.world = previous.world
            self._match, self._match_known = previous._match, previous._match_known
            self._allowed_bits, self._allowed = previous._allowed_bits, previous._allowed
            self.graph = previous.graph
        else:
            if previous is not None and start is None and previous.world is not None:
                # one matching a hand, augmented for the new facts: the previous world's edges the
                # facts still allow are kept, and only the tiles they leave out are placed again
                self.world = perfect_matching(self.tiles, len(slots), edges, previous.world)
            else:
                self.world = self._match = perfect_matching(self.tiles, len(slots), edges, start)
                self._match_known = True
            world = self.world
            self._allowed_bits = allowed_bits_of(self.tiles, len(slots), edges, world) if world is not None else {}
            #: the same object for models of equal tiles, slots by number, edges and exits (``previous``):
            #: a question that reads only those and the slots it names has the same answer in both
            self.graph = object()
        self.feasible = self.world is not None
        #: the facts set aside because they contradict the others (:mod:`dominolog.knowledge.facts`)
        self.contradictions: list[Any] = []
        #: player -> the seq of a play of theirs set aside: past it, the tiles of their hand are open
        #: (one of them left the hand then, but which is not known), so nothing about it is certain
        self.unsure: dict[str, int] = {}
        #: the counting's :class:`~dominolog.knowledge.groups.Shape` of this model, made when first
        #: asked (a hand's rules are asked of one model); kept here, since a compiled model (setup.py)
        #: takes no weak reference
        self.shape: object | None = None
        #: the :class:`~dominolog.knowledge.facts.Skeleton` the model was made on, when it was: the
        #: next model of the hand takes it over when the deal and the draws are the same
        self.skeleton: object | None = None

    @property
    def match(self) -> dict[Tile, int] | None:
        """The world found from nothing (Kuhn's augmenting paths over the tiles in order, the fewest
        choices first; from ``start`` when one was given), None when there is none. It is the world
        that is shown (the pair a rule names when no tile of it is certain, where sampling starts), so
        it is always this one, whatever world :attr:`world` the model was augmented to; it is solved
        only when asked."""
        if not self._match_known:
            self._match = perfect_matching(self.tiles, len(self.slots), self.edges) if self.world is not None else None
            self._match_known = True
        return self._match

    # -- derived models --------------------------------------------------
    def without(self, forbid: Forbid) -> HandModel:
        """The model with the edges ``forbid`` names taken out."""
        slots = self.slots
        edges = {t: [i for i in e if not forbid(t, slots[i])] for t, e in self.edges.items()}
        model = HandModel(slots, edges, self.exit, self.match, entries=self._entries)
        model.contradictions, model.unsure = self.contradictions, self.unsure
        return model

    def has_world_without(self, forbid: Forbid, touched: Iterable[Tile] | None = None) -> bool:
        """Whether a world exists that uses none of the edges ``forbid`` names (``touched``: the only
        tiles whose edges it may name, when the caller knows them)."""
        slots, match = self.slots, self.world
        if match is None:
            return False
        which = self.edges.keys() if touched is None else [t for t in touched if t in self.edges]
        if not any(forbid(t, slots[match[t]]) for t in which):
            return True  # the world at hand already does
        return self.has_world_with({t: [i for i in self.edges[t] if not forbid(t, slots[i])] for t in which})

    def has_world_with(self, narrowed: dict[Tile, list[int]]) -> bool:
        """Whether a world exists with the tiles of ``narrowed`` in the slots it gives them (each a
        part of the tile's ``edges``), the other tiles as the facts allow. The world at hand is where
        the search starts: when it already keeps within ``narrowed`` no matching is solved."""
        match = self.world
        if match is None:
            return False
        moved = [t for t, inside in narrowed.items() if match[t] not in inside]
        if not moved:
            return True
        # the world at hand with the tiles that leave ``narrowed`` taken out of their slots, then
        # each put back by an augmenting path (Kuhn's), the fewest choices first
        edges = {**self.edges, **narrowed}
        owner = self._owner()
        mine = dict(match)
        for t in moved:
            owner[mine.pop(t)] = None
        moved.sort(key=lambda x: len(edges[x]))
        n = len(owner)
        return all(augment(t, [False] * n, edges, owner, mine) for t in moved)

    def _owner(self) -> list[Tile | None]:
        """A new list of the tile each slot takes in the world at hand (:attr:`world`)."""
        if self._owners is None:
            owners: list[Tile | None] = [None] * len(self.slots)
            for t, i in (self.world or {}).items():
                owners[i] = t
            self._owners = owners
        return list(self._owners)

    def entered(self, player: str, seq: int) -> frozenset[int]:
        """The slots of ``player``'s hand entered before ``seq`` (by the slots of each player in order
        of entry, worked out once a model)."""
        if self._entries is None:
            self._entries = by_entry(self.slots)
        return entered_before(self._entries, player, seq)

    def entered_bits(self, player: str, seq: int) -> int:
        """:meth:`entered` as a bit set (slot ``i`` is bit ``i``)."""
        prefix = self._prefix
        if prefix is None:
            if self._entries is None:
                self._entries = by_entry(self.slots)
            prefix = self._prefix = {}
            for owner, (at, which) in self._entries.items():
                bits, upto = 0, [0]
                for i in which:
                    bits |= 1 << i
                    upto.append(bits)
                prefix[owner] = (at, upto)
        found = prefix.get(player)
        if found is None:
            return 0
        at, upto = found
        return upto[bisect_left(at, seq)]

    @property
    def allowed(self) -> dict[Tile, frozenset[int]]:
        """Each tile's slots in some world (empty for every tile when no world exists), made once from
        :meth:`allowed_bits` when first asked (the rules ask the bit sets)."""
        found = self._allowed
        if found is None:
            found = self._allowed = {t: frozenset(slots_of(bits)) for t, bits in self._allowed_bits.items()}
        return found

    def allowed_bits(self) -> dict[Tile, int]:
        """Each tile's slots in some world, as bit sets (slot ``i`` is bit ``i``)."""
        return self._allowed_bits

    def by_index(self) -> tuple[list[int], list[int], list[int]]:
        """By tile index (0-27, :attr:`~dominolog.tiles.Tile.index`): the slots each tile takes in some
        world, as a bit set (0: a tile not in the model, on the table); the seq it left its hand (0 for a
        tile not in the model, so that it is in no hand); and its slot in the world at hand (-1: none).
        Worked out once a model: the questions of :class:`Before` on bit sets of tiles read them."""
        found = self._by_index
        if found is None:
            allowed, exit, world = [0] * 28, [0] * 28, [-1] * 28
            for t, bits in self.allowed_bits().items():
                allowed[t.index] = bits
            for t, e in self.exit.items():
                exit[t.index] = e
            for t, i in (self.world or {}).items():
                world[t.index] = i
            found = self._by_index = (allowed, exit, world)
        return found

    # -- knowledge --------------------------------------------------------
    def in_hand(self, tile: Tile, slot: Slot, player: str, seq: int) -> bool:
        """In the world that puts ``tile`` in ``slot``, is it in ``player``'s hand after event ``seq``?"""
        return slot.owner == player and slot.entry <= seq < self.exit[tile]

    def knowledge(self, player: str, seq: int) -> tuple[frozenset[Tile], frozenset[Tile]]:
        """(certainly holds, may also hold) for ``player`` after the event at ``seq``."""
        holds: set[Tile] = set()
        may: set[Tile] = set()
        slots = self.slots
        for t, allowed in self.allowed.items():
            inside = [self.in_hand(t, slots[i], player, seq) for i in allowed]
            if all(inside):
                holds.add(t)
            elif any(inside):
                may.add(t)
        if self.is_unsure(player, seq):
            return frozenset(), frozenset(holds | may)
        return frozenset(holds), frozenset(may)

    def is_unsure(self, player: str, seq: int) -> bool:
        """Whether ``player``'s hand after the event at ``seq`` is left open by a play set aside."""
        at = self.unsure.get(player)
        return at is not None and seq >= at

    def count(self, player: str, seq: int) -> int:
        """How many tiles ``player`` held after the event at ``seq`` in the worlds of the model (the
        same in all of them: a tile that left a hand by then is in that hand's slots in every world)."""
        slots = self.slots
        n = sum(1 for s in slots if s.owner == player and s.entry <= seq)
        if self.world is not None:
            n -= sum(1 for t, i in self.world.items() if self.exit[t] <= seq and slots[i].owner == player)
        return n

    def places(self, tile: Tile) -> list[Slot]:
        """The slots ``tile`` takes in some world, in slot order."""
        return [self.slots[i] for i in sorted(self.allowed.get(tile, ()))]


class Before(HandQuestion):
    """``player``'s hand just before the event at ``seq``, in the worlds of ``model``: the questions
    a rule about that hand asks (:mod:`dominolog.variants.judges`)."""

    def __init__(self, model: HandModel, player: str, seq: int) -> None:
        self.model = model
        self.player = player
        self.seq = seq
        #: :meth:`entered_bits`, -1 until worked out
        self._bits = -1
        #: :meth:`in_some_world_bits`, -1 until worked out
        self._held = -1

    def entered_bits(self) -> int:
        """The slots of the player's hand entered before ``seq``, as a bit set (slot ``i`` is bit ``i``):
        a tile in one of them is in the hand just before ``seq`` exactly when it had not left it yet
        (``seq < exit``). Worked out once: the rules ask several questions of the same hand, and with it
        each tile is one test of bits instead of a walk over its slots."""
        if self._bits < 0:
            self._bits = self.model.entered_bits(self.player, self.seq)
        return self._bits

    def possible_bits(self, tiles: int) -> int:
        """The tiles of ``tiles`` (a bit set of tile indexes) the hand holds in some world: a tile not yet
        played by ``seq`` with some slot of the worlds among those :meth:`entered_bits`."""
        allowed, exit, _ = self.model.by_index()
        seq, entered = self.seq, self.entered_bits()
        out = 0
        while tiles:
            bit = tiles & -tiles
            tiles ^= bit
            k = bit.bit_length() - 1
            if allowed[k] & entered and seq < exit[k]:
                out |= bit
        return out

    def certain_bits(self, tiles: int) -> int:
        """The tiles of ``tiles`` (a bit set) the hand holds in every world: a tile not yet played by
        ``seq`` whose every slot of the worlds is among those :meth:`entered_bits`."""
        allowed, exit, _ = self.model.by_index()
        seq, outside = self.seq, ~self.entered_bits()
        out = 0
        while tiles:
            bit = tiles & -tiles
            tiles ^= bit
            k = bit.bit_length() - 1
            slots = allowed[k]
            if slots and not slots & outside and seq < exit[k]:
                out |= bit
        return out

    def in_some_world_bits(self) -> int:
        """The tiles the hand holds in the world at hand (:attr:`HandModel.world`), as a bit set (0 when
        there is no world): worked out once, the world questions below ask it first."""
        if self._held < 0:
            held = 0
            if self.model.world is not None:
                _, exit, world = self.model.by_index()
                seq, entered = self.seq, self.entered_bits()
                for k in range(28):
                    i = world[k]
                    if i >= 0 and entered >> i & 1 and seq < exit[k]:
                        held |= 1 << k
            self._held = held
        return self._held

    def avoidable_bits(self, tiles: int) -> bool:
        """Whether some world has none of ``tiles`` (a bit set) in the hand: at once when the world at
        hand has none of them, else by moving those it has (:meth:`HandModel.has_world_with`)."""
        if self.model.world is None:
            return False
        if not self.in_some_world_bits() & tiles:
            return True
        return self.model.has_world_with(self._outside(tiles_of(tiles)))

    def together_bits(self, tiles: int) -> bool:
        """Whether some world has all of ``tiles`` (a bit set) in the hand (a tile not in the model is not
        asked about): at once when the world at hand has them all."""
        if self.model.world is None:
            return False
        if self.in_some_world_bits() & tiles == tiles:
            return True
        m, seq, entered = self.model, self.seq, self.entered_bits()
        inside = {
            t: [i for i in m.edges[t] if entered >> i & 1] if seq < m.exit[t] else []
            for t in tiles_of(tiles)
            if t in m.edges
        }
        return m.has_world_with(inside)

    def possible(self, tiles: Iterable[Tile]) -> frozenset[Tile]:
        """:meth:`possible_bits` of tiles."""
        return tiles_of(self.possible_bits(mask_of(tiles)))

    def certain(self, tiles: Iterable[Tile]) -> frozenset[Tile]:
        """:meth:`certain_bits` of tiles."""
        return tiles_of(self.certain_bits(mask_of(tiles)))

    def avoidable(self, tiles: Iterable[Tile]) -> bool:
        """Whether some world has none of ``tiles`` in the hand."""
        return self.avoidable_bits(mask_of(tiles))

    def avoidable_but(self, tiles: Iterable[Tile], keep: Tile) -> bool:
        """Whether some world has none of ``tiles`` in the hand except perhaps ``keep``."""
        return self.avoidable_bits(mask_of(tiles) & ~(1 << keep.index))

    def _outside(self, tiles: frozenset[Tile]) -> dict[Tile, list[int]]:
        """The slots that leave each of ``tiles`` out of the hand just before ``seq`` (those not
        :meth:`entered_bits`; a tile played by then is out of it in every slot)."""
        m, seq, entered = self.model, self.seq, self.entered_bits()
        return {
            t: [i for i in m.edges[t] if not entered >> i & 1] if seq < m.exit[t] else m.edges[t]
            for t in tiles
            if t in m.edges
        }

    def in_one_world(self) -> frozenset[Tile]:
        """The tiles the hand holds in the world found from nothing (:attr:`HandModel.match`: the
        world that is shown; empty when there is none)."""
        m = self.model
        if m.match is None:
            return frozenset()
        seq, entered, exit = self.seq, self.entered_bits(), m.exit
        return frozenset(t for t, i in m.match.items() if entered >> i & 1 and seq < exit[t])

    def in_some_world(self) -> frozenset[Tile]:
        """The tiles the hand holds in some world the log allows, any (empty when there is none):
        the world at hand (:attr:`HandModel.world`), for a question whose answer does not show it."""
        return tiles_of(self.in_some_world_bits())

    def together(self, *tiles: Tile) -> bool:
        """Whether some world has all of ``tiles`` in the hand."""
        return self.together_bits(mask_of(tiles))


def slots_of(bits: int) -> list[int]:
    """The slot indexes of a bit set (slot ``i`` is bit ``i``), in order."""
    out: list[int] = []
    while bits:
        bit = bits & -bits
        bits ^= bit
        out.append(bit.bit_length() - 1)
    return out


def by_entry(slots: list[Slot]) -> dict[str | None, tuple[list[int], list[int]]]:
    """Each holder's slots in order of entry: (their entries, their indexes in ``slots``)."""
    out: dict[str | None, tuple[list[int], list[int]]] = {}
    for entry, i, owner in sorted((s.entry, i, s.owner) for i, s in enumerate(slots)):
        at, which = out.setdefault(owner, ([], []))
        at.append(entry)
        which.append(i)
    return out


def entered_before(entries: dict[str | None, tuple[list[int], list[int]]], player: str, seq: int) -> frozenset[int]:
    """The slots of ``player`` entered before ``seq`` (the slots a tile is in when it was in the
    player's hand just before ``seq``, had it not left it), by :func:`by_entry`."""
    found = entries.get(player)
    if found is None:
        return frozenset()
    at, which = found
    return frozenset(which[: bisect_left(at, seq)])


# -- matching ----------------------------------------------------------------
def perfect_matching(
    tiles: list[Tile], n_slots: int, edges: dict[Tile, list[int]], start: dict[Tile, int] | None = None
) -> dict[Tile, int] | None:
    """A perfect matching of ``tiles`` to ``n_slots`` slots (Kuhn's augmenting paths), or None.
    ``start``: a matching to begin from (its edges still in ``edges`` are kept to start with)."""
    if len(tiles) != n_slots:
        return None
    owner: list[Tile | None] = [None] * n_slots
    match: dict[Tile, int] = {}
    if start:
        for t, i in start.items():
            if t in edges and i in edges[t] and owner[i] is None:
                owner[i] = t
                match[t] = i

    # the tiles left unmatched, those with the fewest choices first: fewer dead ends (a tile of
    # ``start`` stays matched, so only the others are sorted; the sort is stable, so they come in
    # the same order as in the sort of all ``tiles``)
    for t in sorted((t for t in tiles if t not in match), key=lambda x: len(edges[x])):
        if not augment(t, [False] * n_slots, edges, owner, match):
            return None
    return match


def augment(
    t: Tile, seen: list[bool], edges: dict[Tile, list[int]], owner: list[Tile | None], match: dict[Tile, int]
) -> bool:
    """Kuhn's augmenting path: put ``t`` in one of its slots (``edges[t]``) not yet ``seen`` (a flag a
    slot: compiled, a list read by index, where a set of ints hashes each), moving the tile there
    (``owner``) to another of its own, recursively; ``owner`` and ``match`` follow."""
    for i in edges[t]:
        if seen[i]:
            continue
        seen[i] = True
        other = owner[i]
        if other is None or augment(other, seen, edges, owner, match):
            owner[i] = t
            match[t] = i
            return True
    return False


def allowed_edges(
    tiles: list[Tile], n_slots: int, edges: dict[Tile, list[int]], match: dict[Tile, int]
) -> dict[Tile, frozenset[int]]:
    """For each tile, the slots it takes in some perfect matching (:func:`allowed_bits_of` as sets)."""
    return {t: frozenset(slots_of(bits)) for t, bits in allowed_bits_of(tiles, n_slots, edges, match).items()}


def allowed_bits_of(
    tiles: list[Tile], n_slots: int, edges: dict[Tile, list[int]], match: dict[Tile, int]
) -> dict[Tile, int]:
    """For each tile, the slots it takes in some perfect matching, as a bit set (slot ``i`` is bit ``i``).

    An edge ``(t, i)`` outside the matching lies in another exactly when it closes an alternating
    cycle: ``t`` takes slot ``i``, the tile ``i`` held takes another of its slots, and so on until a
    tile takes ``t``'s slot (the strongly connected components of the alternating graph, with each
    slot folded into the tile that holds it). On the tiles alone: ``u -> v`` when ``u`` can take
    ``v``'s slot; ``(t, i)`` is allowed when ``t`` and the tile holding ``i`` are in one strongly
    connected component, that is when ``i`` is one of the slots the component's tiles hold. With at
    most 28 tiles each tile's successors and predecessors are one bit set, and each component is what
    a tile reaches and is reached from (two searches over the bit sets, the second within the first's
    reach, on the tiles no component has taken yet): a hand's tiles fall in a few large components
    (each player's, the boneyard's), so a few searches find them all."""
    n = len(tiles)
    holder = [0] * n_slots
    for k, t in enumerate(tiles):  # each slot's tile by its place in ``tiles`` (no dict of places)
        holder[match[t]] = k
    succ = [0] * n
    pred = [0] * n
    reach = [0] * n  # each tile's slots, as a bit set
    for k, t in enumerate(tiles):
        bits, slots, me = 0, 0, 1 << k
        for i in edges[t]:
            h = holder[i]
            bits |= 1 << h
            slots |= 1 << i
            pred[h] |= me
        succ[k] = bits
        reach[k] = slots
    held = [0] * n  # each tile's component, as the bit set of the slots its tiles hold
    left = (1 << n) - 1
    while left:
        low = left & -left
        ahead = _reach(low, succ, left)
        mine = _reach(low, pred, ahead)
        left &= ~mine
        slots, rest = 0, mine
        while rest:
            bit = rest & -rest
            rest ^= bit
            slots |= 1 << match[tiles[bit.bit_length() - 1]]
        rest = mine
        while rest:
            bit = rest & -rest
            rest ^= bit
            held[bit.bit_length() - 1] = slots
    return {t: reach[k] & held[k] for k, t in enumerate(tiles)}


def _reach(start: int, step: list[int], within: int) -> int:
    """The tiles of ``within`` reached from the tile ``start`` (a bit) by the arcs ``step`` (each tile's
    next tiles, a bit set), ``start`` included: a search over bit sets."""
    seen = todo = start
    while todo:
        bit = todo & -todo
        todo ^= bit
        new = step[bit.bit_length() - 1] & within & ~seen
        seen |= new
        todo |= new
    return seen
