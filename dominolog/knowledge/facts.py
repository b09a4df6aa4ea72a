"""The facts of one hand's log as a :class:`~dominolog.knowledge.model.HandModel`, and what to set
aside when they cannot all hold.

The skeleton of a hand comes from two states the reducer already has: the hand right after its
deal (``start``: who was dealt how many tiles, which tiles the deal showed) and the hand now
(``end``: its standing draws, seen or not, and the boneyard left). It gives the slots (the places a
tile entered a hand) and, for each tile, the slots the deal and the draws leave it.

On that skeleton lie the facts the table recorded, each of which narrows where a tile can be
(:class:`Fact`):

* ``laid``: a tile placed on the table by a player (it came from that player's hand, entered before
  the play, and left the hand at the play);
* ``tried``: a play the rules did not place (illegal, not placed): the tile still came from that
  player's hand (it left the hand at the first such play, unless placed later);
* ``revealed``: a reveal: the player's hand just after it was exactly the tiles shown.

Undone events are not in ``end``, so they are no facts.

When the facts leave no world (a reveal of a tile on the table or in another hand, a reveal of the
wrong count, a play of a tile known elsewhere), the facts are taken in order of trust and each one
that would leave no world with those already taken is set aside (:func:`kept_facts`):

1. what was laid on the table, in the order of play (everybody saw it);
2. plays the rules did not place, in order (the tile was seen leaving the hand);
3. reveals, in order (the table's later claims yield to the plays).

Each fact set aside comes with a smallest set of the facts taken that it contradicts
(:class:`Contradiction`): drop any one of them and the rest hold together with it. Every finding is
then judged on the facts taken, which do hold together.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dominolog.frozen import by_fields
from dominolog.knowledge.model import NEVER, HandModel, Slot, by_entry, perfect_matching, slots_of
from dominolog.state import HandState
from dominolog.tiles import DOUBLE_SIX, Tile

#: the kinds of fact, most trusted first
LAID, TRIED, REVEALED = "laid", "tried", "revealed"
RANK = {LAID: 0, TRIED: 1, REVEALED: 2}


@dataclass(init=False, frozen=True, slots=True)
class Fact:
    """One thing the log says about where tiles were: see the module's docstring. (Made per play
    each time a hand is judged: its ``__init__`` is written out, docs/design/architecture.md.)"""

    kind: str
    seq: int
    player: str
    tiles: frozenset[Tile]

    def __init__(self, kind: str, seq: int, player: str, tiles: frozenset[Tile]) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "tiles", tiles)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)

    @property
    def tile(self) -> Tile:
        """The tile of a play (``laid`` or ``tried``)."""
        return next(iter(self.tiles))

    def words(self) -> str:
        if self.kind == LAID:
            return f"{self.player} played {self.tile} at seq {self.seq}"
        if self.kind == TRIED:
            return f"{self.player} played {self.tile} at seq {self.seq} (not placed, but from {self.player}'s hand)"
        shown = " ".join(map(str, sorted(self.tiles))) or "no tile"
        return f"{self.player}'s reveal at seq {self.seq} shows {shown}"


@dataclass(frozen=True, slots=True)
class Contradiction:
    """A fact set aside (``aside``) and the facts taken that it contradicts (``against``: a smallest
    such set; empty when it contradicts the deal and the draws alone)."""

    aside: Fact
    against: tuple[Fact, ...]
    #: the plays that had put tiles of ``aside`` on the table before it
    on_table: tuple[Fact, ...] = ()
    #: tiles of ``aside`` on the table from the deal (a start tile)
    from_deal: tuple[Tile, ...] = ()

    @property
    def seq(self) -> int:
        return self.aside.seq

    def words(self) -> str:
        """The proof, in words, for an arbiter."""
        facts = [*self.against, self.aside]
        facts.sort(key=lambda f: f.seq)
        said = "; ".join(f.words() for f in facts)
        base = "the tiles each player was dealt and drew"
        table = "; ".join(
            [*(f.words() for f in self.on_table), *(f"{t} was on the table from the deal" for t in self.from_deal)]
        )
        if table and not self.against:
            head = f"{self.aside.words()}, but {table}"
        elif not self.against:
            head = f"{self.aside.words()}: that cannot hold with {base}"
        else:
            head = f"these cannot all hold with {base}: {said}" + (f" ({table})" if table else "")
        why = {
            REVEALED: "a reveal yields to the tiles played",
            TRIED: "a play the rules did not place yields to the tiles placed",
            LAID: "a play yields to the deal, the draws seen and the plays before it",
        }[self.aside.kind]
        return f"{head}. Set aside: {self.aside.words()} ({why}); every other finding of the hand is judged without it"


class Skeleton:
    """A hand's slots and, for each tile, the slots its deal and draws leave it (no fact applied).
    ``laid``: the hand's :func:`laid_facts`, when the caller has them already. ``reuse``: the skeleton
    of the same hand a few events before (the recorder's path asks after every event): when the deal
    and the standing draws are the same, its slots and each tile's slots are taken over, not worked
    out again (only who laid each tile is new).

    Inside, sets of slots are bit sets (slot ``i`` is bit ``i``): each tile's slots (``bits``), and
    for each holder the slots entered before each point of their hand (``prefix``, by entry)."""

    __slots__ = ("base", "bits", "bone", "deal", "draws", "entries", "on_board", "placed", "prefix", "slots")

    slots: list[Slot]
    #: each holder's slots in order of entry (:func:`~dominolog.knowledge.model.by_entry`)
    entries: dict[str | None, tuple[list[int], list[int]]]
    #: each tile's slots by the deal and the draws, in slot order
    base: dict[Tile, list[int]]
    #: the tiles on the table from the deal (a start tile): in no hand, so no fact can put one there
    on_board: frozenset[Tile]
    #: each tile's slots of ``base`` as a bit set (the lists are in slot order: the bits give them back)
    bits: dict[Tile, int]
    #: each holder's entries, and the slots entered before each of them as a bit set
    prefix: dict[str | None, tuple[list[int], list[int]]]
    #: the play that put each tile on the table: its seq is when the tile left its hand (seen by
    #: everybody: never set aside); who laid it is a fact of its own (``laid``)
    placed: dict[Tile, Fact]
    #: what the skeleton is a function of: the deal as ``start`` shows it (:func:`skeleton_key`), the
    #: standing draws and the boneyard left
    deal: tuple[object, ...]
    draws: tuple[tuple[int, str, Tile | None], ...]
    bone: int

    def __init__(
        self, start: HandState, end: HandState, laid: list[Fact] | None = None, reuse: Skeleton | None = None
    ) -> None:
        self.deal = deal = skeleton_key(start)
        self.draws = draws = tuple(end.draws)
        self.bone = end.boneyard.count
        if reuse is not None and reuse.bone == self.bone and reuse.draws == draws and reuse.deal == deal:
            self.slots, self.entries, self.base = reuse.slots, reuse.entries, reuse.base
            self.on_board, self.bits, self.prefix = reuse.on_board, reuse.bits, reuse.prefix
        elif reuse is not None and reuse.deal == deal and drawn_unseen(reuse, draws, self.bone):
            # only draws not seen since ``reuse``: each turned the first boneyard slot into its draw
            # slot, the same index (the draws' slots come before the boneyard's), and a tile that could
            # be in the one could be in the other: every tile keeps its slots, only who holds them moves
            n_old = len(reuse.draws)
            first = len(reuse.slots) - reuse.bone
            slots = list(reuse.slots)
            for k, (seq, p, _) in enumerate(draws[n_old:]):
                slots[first + k] = Slot(p, seq, seq)
            self.slots, self.base, self.on_board, self.bits = slots, reuse.base, reuse.on_board, reuse.bits
            self.entries = by_entry(slots)
            self.prefix = {owner: (at, prefix_bits(which)) for owner, (at, which) in self.entries.items()}
        else:
            self._build(start, end)
        self.placed = {}
        for f in laid_facts(end) if laid is None else laid:
            self.placed.setdefault(f.tile, f)

    def _build(self, start: HandState, end: HandState) -> None:
        players = list(start.holdings)
        slots: list[Slot] = []
        deal_slots: dict[str, list[int]] = {}
        for p in players:
            deal_slots[p] = list(range(len(slots), len(slots) + start.holdings[p].count))
            slots.extend([Slot(p, start.deal_seq)] * start.holdings[p].count)  # one value, as many places
        unseen: list[int] = []
        seen_draw: dict[Tile, int] = {}
        for seq, p, tile in end.draws:
            if tile is None:
                unseen.append(len(slots))
            else:
                seen_draw[tile] = len(slots)
            slots.append(Slot(p, seq, seq))
        bone_slots = list(range(len(slots), len(slots) + end.boneyard.count))
        slots.extend([Slot(None, 0)] * len(bone_slots))
        dealt_to = {t: p for p, h in start.holdings.items() for t in h.known}
        hidden_deals = [i for p in players if start.holdings[p].unknown for i in deal_slots[p]]
        bone = start.boneyard
        could_bone = set(bone.known) | (start.unaccounted if bone.unknown else set())
        on_board = frozenset(start.layout.on_board)
        self.on_board = on_board
        base: dict[Tile, list[int]] = {}
        for t in DOUBLE_SIX:
            if t in on_board:
                continue
            if t in seen_draw:
                base[t] = [seen_draw[t]]
            elif t in dealt_to:
                base[t] = list(deal_slots[dealt_to[t]])
            else:
                out = list(hidden_deals) if t in start.unaccounted else []
                if t in could_bone:
                    out += unseen
                    out += bone_slots
                base[t] = out
        self.slots = slots
        self.entries = by_entry(slots)
        self.base = base
        self.bits = {t: to_bits(e) for t, e in base.items()}
        self.prefix = {owner: (at, prefix_bits(which)) for owner, (at, which) in self.entries.items()}

    def before(self, player: str, seq: int) -> int:
        """The slots of ``player`` entered before ``seq``, as a bit set
        (:func:`~dominolog.knowledge.model.entered_before`)."""
        found = self.prefix.get(player)
        if found is None:
            return 0
        at, bits = found
        return bits[bisect_left(at, seq)]

    def edges(self, facts: Iterable[Fact]) -> tuple[dict[Tile, list[int]], dict[Tile, int]]:
        """Each tile's slots under ``facts``, and the seq each tile left its hand (NEVER: not played)."""
        laid: dict[Tile, Fact] = {}
        tried: dict[Tile, list[Fact]] = {}
        reveals: list[Fact] = []
        for f in facts:
            if f.kind == LAID:
                laid[f.tile] = f
            elif f.kind == TRIED:
                tried.setdefault(f.tile, []).append(f)
            else:
                reveals.append(f)
        exit: dict[Tile, int] = {}
        placed = self.placed
        for t in self.base:
            if t in placed:
                exit[t] = placed[t].seq
            elif t in tried:
                exit[t] = min(f.seq for f in tried[t])
            else:
                exit[t] = NEVER
        #: the slots a tile held before each reveal is in (the reveals apply to every tile)
        shown = [(f.tiles, f.seq, self.before(f.player, f.seq)) for f in reveals]
        edges: dict[Tile, list[int]] = {}
        base_lists = self.base
        for t, base in self.bits.items():
            out = base
            gone = exit[t]
            played = laid.get(t)
            if played is not None:
                out &= self.before(played.player, played.seq)
            for f in tried.get(t, ()):
                if gone < f.seq:
                    out = 0
                    break
                out &= self.before(f.player, f.seq)
            for tiles, seq, inside in shown:
                if t in tiles:
                    if gone <= seq:
                        out = 0
                        break
                    out &= inside
                elif gone > seq:
                    out &= ~inside
            edges[t] = list(base_lists[t]) if out == base else slots_of(out)
        return edges, exit

    def feasible(self, facts: Iterable[Fact]) -> bool:
        facts = list(facts)
        if any(f.tiles & self.on_board for f in facts):
            return False  # a play or a reveal of a tile on the table since the deal
        edges, _ = self.edges(facts)
        return perfect_matching(sorted(edges), len(self.slots), edges) is not None

    def model(self, facts: Iterable[Fact], previous: HandModel | None = None) -> HandModel:
        edges, exit = self.edges(facts)
        return HandModel(self.slots, edges, exit, previous=previous, entries=self.entries)


def laid_facts(end: HandState) -> list[Fact]:
    """Who laid each tile placed on the table, in the order of play."""
    return [Fact(LAID, pl.seq, pl.player, frozenset((pl.tile,))) for pl in end.placements]


def hand_facts(end: HandState, laid: list[Fact] | None = None) -> list[Fact]:
    """The hand's facts (:class:`Fact`), most trusted first (``laid``: :func:`laid_facts`, when the
    caller has them)."""
    out = laid_facts(end) if laid is None else list(laid)
    out += [Fact(TRIED, seq, p, frozenset((t,))) for seq, p, t in end.tried]
    out += [Fact(REVEALED, seq, p, tiles) for seq, p, tiles in end.reveals]
    out.sort(key=lambda f: (RANK[f.kind], f.seq))
    return out


def kept_facts(skeleton: Skeleton, facts: Sequence[Fact]) -> tuple[list[Fact], list[Contradiction]]:
    """The facts taken in order of trust, each set aside when it would leave no world with those
    taken before it; for each set aside, a smallest set of the facts taken that it contradicts."""
    kept: list[Fact] = []
    out: list[Contradiction] = []
    for kind in (LAID, TRIED, REVEALED):
        group = [f for f in facts if f.kind == kind]
        if not group:
            continue
        if skeleton.feasible([*kept, *group]):
            kept.extend(group)
            continue
        for f in group:
            if skeleton.feasible([*kept, f]):
                kept.append(f)
                continue
            out.append(
                Contradiction(
                    f,
                    tuple(_core(skeleton, kept, f)),
                    _on_table(skeleton, f),
                    tuple(sorted(f.tiles & skeleton.on_board)),
                )
            )
    return kept, out


def _on_table(skeleton: Skeleton, f: Fact) -> tuple[Fact, ...]:
    """The plays that put tiles of ``f`` on the table before it (what a fact alone contradicts)."""
    placed = skeleton.placed
    return tuple(placed[t] for t in sorted(f.tiles) if t in placed and placed[t].seq < f.seq)


def _core(skeleton: Skeleton, kept: list[Fact], aside: Fact) -> list[Fact]:
    """A smallest set of ``kept`` that leaves no world with ``aside`` (each one needed), most trusted
    kept longest."""
    core = list(kept)
    for f in reversed(core):
        trial = [g for g in core if g is not f]
        if not skeleton.feasible([*trial, aside]):
            core = trial
    return core


def hand_model(start: HandState, end: HandState, previous: HandModel | None = None) -> HandModel:
    """The worlds consistent with the hand's facts (no rule of play assumed). When the facts cannot
    all hold, the worlds of the facts kept (:func:`kept_facts`); ``model.contradictions`` lists what
    was set aside and why. When even the deal and the draws leave no world, the model has none.
    ``previous``: a model of the hand a few events before, whose matching is taken over when the
    facts leave every tile the same slots (:class:`HandModel`)."""
    laid = laid_facts(end)
    reuse = previous.skeleton if previous is not None else None
    skeleton = Skeleton(start, end, laid, reuse if isinstance(reuse, Skeleton) else None)
    facts = hand_facts(end, laid)
    model = skeleton.model(facts, previous)
    model.skeleton = skeleton
    if not facts or (model.feasible and not any(f.tiles & skeleton.on_board for f in facts)):
        return model
    if not skeleton.feasible(()):
        return model  # the deal and the draws alone leave no world: nothing to set aside
    kept, contradictions = kept_facts(skeleton, facts)
    model = skeleton.model(kept)
    model.skeleton = skeleton
    model.contradictions = contradictions
    for c in contradictions:
        if c.aside.kind in (LAID, TRIED):
            # The log says a tile left this hand then, but which one is no longer known: what the hand
            # held after it is left open (a rule about it is never certain; see Before.unsure)
            p = c.aside.player
            model.unsure[p] = min(model.unsure.get(p, c.seq), c.seq)
    return model


def drawn_unseen(reuse: Skeleton, draws: tuple[tuple[int, str, Tile | None], ...], bone: int) -> bool:
    """Whether ``draws`` are the draws of ``reuse`` and then only draws not seen, each taken from
    its boneyard (of ``bone`` tiles left now)."""
    n = len(reuse.draws)
    if len(draws) <= n or bone != reuse.bone - (len(draws) - n) or draws[:n] != reuse.draws:
        return False
    return all(t is None for _, _, t in draws[n:])


def skeleton_key(start: HandState) -> tuple[object, ...]:
    """What of ``start`` a hand's :class:`Skeleton` is made of: the deal as it shows it (each hand's
    count and tiles known, the boneyard's, the tiles unaccounted for, the tiles on the table)."""
    bone = start.boneyard
    return (
        start.deal_seq,
        tuple((p, h.count, frozenset(h.known), h.unknown) for p, h in start.holdings.items()),
        frozenset(bone.known),
        bone.unknown,
        frozenset(start.unaccounted),
        frozenset(start.layout.on_board),
    )


def to_bits(slots: Iterable[int]) -> int:
    """A set of slot indexes as a bit set (slot ``i`` is bit ``i``)."""
    bits = 0
    for i in slots:
        bits |= 1 << i
    return bits


def prefix_bits(which: list[int]) -> list[int]:
    """For ``k`` from 0 to ``len(which)``: the first ``k`` slots of ``which`` as a bit set."""
    out = [0]
    bits = 0
    for i in which:
        bits |= 1 << i
        out.append(bits)
    return out


def count_after(start: HandState, end: HandState, player: str, seq: int) -> int:
    """How many tiles ``player`` held after the event at ``seq`` (by the standing events)."""
    n = start.holdings[player].count
    n += sum(1 for s, p, _ in end.draws if p == player and s <= seq)
    n -= sum(1 for pl in end.placements if pl.player == player and pl.seq <= seq)
    return n
