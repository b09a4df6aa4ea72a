"""How many of a player's passes and draws of one hand were reneges, over the worlds the log allows.

The likelihood of one possible violation (:mod:`dominolog.knowledge.likelihood`) asks of each world
one question: was *this* pass a renege? Here every pass and draw of the player that the facts leave
open is asked of the same world at once, so the worlds are tallied by *how many* of them were
reneges (``by_reneges[k]``: the worlds with exactly ``k``), and for each one by whether it was the
*only* one (``alone[seq]``: the worlds where the pass at ``seq`` was a renege and every other pass
and draw of the player honest). The worlds are those of the likelihood (every world the facts allow,
all equally likely: a uniform shuffle), and so are the ways they are worked out:

- **Counted**, when the tiles that can be in the player's hand are the player's own, every one known
  (played, or revealed at the end), and only the draws unseen (a :class:`~dominolog.knowledge.nested.
  Chain`): the draws taken from the last back, each bringing one of the tiles still in hand after
  it; the tiles told apart only by when they left the hand and by their part in each rule, so a
  state is how many of each kind the later draws took. Each pass or draw is judged once every draw
  from it on is placed (the hand just before it is then the tiles still in hand less those). Exact
  integers; past ``budget`` steps, sampled instead.
- **Sampled**, otherwise (hands never revealed): worlds drawn by the likelihood's sequential
  importance sampling (:func:`~dominolog.knowledge.sampled.place_world`), seeded by the hand's facts
  and the player, each pass and draw judged in each; the tallies are weighted shares with a 95%
  margin for each ratio that the evidence uses (the delta method).

The parts of the facts that cannot put a tile in the player's hand multiply every tally alike and
are left out, so the exact tallies are counts of the worlds of the parts that matter (their ratios
are those of all the worlds).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from dominolog.knowledge.groups import Shape, Tracker, Worlds, relevant, tracker
from dominolog.knowledge.model import HandModel
from dominolog.knowledge.nested import Chain, chain_of
from dominolog.knowledge.sampled import SAMPLES, Z, place_world, seed_of
from dominolog.state import Judge
from dominolog.tiles import Tile

__all__ = ["BUDGET", "SAMPLES", "Reneges", "Turn", "reneges"]

#: the most steps the exact tally may take (a step: one state carried over one choice)
BUDGET = 200_000
#: the bits of one kind's count of tiles in a packed state
BITS = 5
MASK = (1 << BITS) - 1


@dataclass(frozen=True, slots=True)
class Turn:
    """A pass or draw of the player at ``seq`` and the rule it keeps (``judge``: broken when the
    hand just before held a play)."""

    seq: int
    judge: Judge


@dataclass(slots=True)
class Reneges:
    """The worlds of one hand tallied by the reneges of one player's passes and draws.

    ``exact``: ``by_reneges`` and ``alone`` are counts of worlds (integers, of the parts of the facts
    that can put a tile in the player's hand); otherwise they are weighted shares of ``samples``
    sampled worlds (floats summing to 1), with ``margins``: the 95% margin of each ratio
    ``by_reneges[k] / by_reneges[0]`` and of each ``alone`` share."""

    seqs: tuple[int, ...]
    exact: bool
    by_reneges: list[float] | list[int]
    #: seq -> the worlds where that pass or draw was the only renege of the player's
    alone: dict[int, float] | dict[int, int]
    samples: int | None = None
    #: k -> the 95% margin of by_reneges[k] / by_reneges[0] (sampled only)
    margins: dict[int, float] = field(default_factory=dict)
    #: seq -> the 95% margin of alone[seq] / (alone[seq] + by_reneges[0]) (sampled only)
    alone_margins: dict[int, float] = field(default_factory=dict)

    @property
    def honest(self) -> float | int:
        """The worlds in which every pass and draw of the player was honest."""
        return self.by_reneges[0]

    def ratios(self) -> list[float] | None:
        """``by_reneges[k] / by_reneges[0]`` for each k (None: no world keeps every one honest)."""
        h = self.by_reneges[0]
        if not h:
            return None
        return [n / h for n in self.by_reneges]


def reneges(
    model: HandModel, player: str, turns: Sequence[Turn], budget: int = BUDGET, samples: int = SAMPLES
) -> Reneges | None:
    """The worlds of ``model`` tallied by how many of ``player``'s ``turns`` were reneges (see the
    module's docstring); None when the facts leave no world or a play of the player's was set aside
    (which tile left the hand with it is then not known)."""
    turns = sorted(turns, key=lambda t: t.seq)
    seqs = tuple(t.seq for t in turns)
    if not model.feasible or any(model.is_unsure(player, s - 1) for s in seqs):
        return None
    if not turns:
        return Reneges(seqs, True, [1], {})
    shape = Shape.of(model)
    parts: set[int] = set()
    for t in turns:
        parts.update(relevant(shape, player, t.seq))
    if not parts:  # no world puts a tile in the hand: every pass was honest in every world
        return Reneges(seqs, True, [1], {s: 0 for s in seqs})
    if len(parts) == 1:
        chain = chain_of(shape, model, next(iter(parts)))
        if chain is not None and chain.owner == player and chain.dealt < seqs[0]:
            try:
                return _counted(chain, turns, budget)
            except _Budget:
                pass
    return _sampled(model, shape, parts, player, turns, samples)


class _Budget(Exception):
    """The exact tally would take more steps than allowed."""


# -- counted: a chain of the player's own tiles --------------------------------------------------
def _counted(chain: Chain, turns: list[Turn], budget: int) -> Reneges:
    trackers = [tracker(t.judge) for t in turns]
    # the tiles by kind: when they left the hand and their part in each rule
    kinds: dict[tuple[int, tuple[Hashable, ...]], int] = {}
    of_kind: list[tuple[int, tuple[Hashable, ...]]] = []
    sizes: list[int] = []
    for t, e in zip(chain.tiles, chain.exits, strict=True):
        key = (e, tuple(tr.role(t) for tr in trackers))
        k = kinds.setdefault(key, len(of_kind))
        if k == len(of_kind):
            of_kind.append(key)
            sizes.append(0)
        sizes[k] += 1
    # a state: how many tiles of each kind the later draws took (packed), the reneges so far, and
    # the one renege when there is exactly one (its index in turns; -1 otherwise)
    states: dict[tuple[int, int, int], int] = {(0, 0, -1): 1}
    todo = list(range(len(turns) - 1, -1, -1))  # the turns from the last back
    steps = 0

    def judge(i: int, states: dict[tuple[int, int, int], int]) -> dict[tuple[int, int, int], int]:
        nonlocal steps
        seq, tr = turns[i].seq, trackers[i]
        alive = [k for k, (e, _) in enumerate(of_kind) if e > seq]
        seen: dict[int, bool] = {}
        out: dict[tuple[int, int, int], int] = {}
        for (used, n, who), ways in states.items():
            broken = seen.get(used)
            if broken is None:
                state = tr.start
                for k in alive:
                    left = sizes[k] - ((used >> (BITS * k)) & MASK)
                    if left:
                        state = tr.add(state, of_kind[k][1][i], left)
                broken = seen[used] = _broken(tr, state)
            steps += 1
            key = (used, n + 1, i if n == 0 else -1) if broken else (used, n, who)
            out[key] = out.get(key, 0) + ways
        return out

    for entry in reversed(chain.draws):
        while todo and turns[todo[0]].seq > entry:
            states = judge(todo.pop(0), states)
        can = [k for k, (e, _) in enumerate(of_kind) if e > entry]
        nxt: dict[tuple[int, int, int], int] = {}
        for (used, n, who), ways in states.items():
            for k in can:
                left = sizes[k] - ((used >> (BITS * k)) & MASK)
                if left > 0:
                    steps += 1
                    key = (used + (1 << (BITS * k)), n, who)
                    nxt[key] = nxt.get(key, 0) + ways * left
            if steps > budget:
                raise _Budget
        states = nxt
    while todo:
        states = judge(todo.pop(0), states)
    by: list[int] = [0] * (len(turns) + 1)
    alone = dict.fromkeys((t.seq for t in turns), 0)
    for (_, n, who), ways in states.items():
        by[n] += ways
        if n == 1:
            alone[turns[who].seq] += ways
    while len(by) > 1 and by[-1] == 0:
        by.pop()
    return Reneges(tuple(t.seq for t in turns), True, by, alone)


def _broken(tr: Tracker, state: Hashable) -> bool:
    return tr.broken(state)


# -- sampled -------------------------------------------------------------------------------------
def _sampled(model: HandModel, shape: Shape, parts: set[int], player: str, turns: list[Turn], samples: int) -> Reneges:
    # the pre-groups of the parts that matter, as the groups of a Worlds (its tracker is not used):
    # those the same tiles may take and that are in the player's hand before the same turns are one
    # group (a world places a tile in a group's free places alike)
    group_of: dict[int, int] = {}
    caps: list[int] = []
    part: list[int] = []
    tiles: list[Tile] = []
    keys: dict[tuple, int] = {}
    entry: list[int] = []
    mine: list[bool] = []
    for p in sorted(parts):
        qs, ts = shape.parts[p]
        for q in qs:
            kind = shape.kinds[q]
            own = kind.owner == player
            key = (shape.takers[q], own, tuple(own and kind.entry < t.seq for t in turns))
            g = keys.get(key)
            if g is None:
                g = keys[key] = len(caps)
                caps.append(0)
                part.append(p)
                entry.append(kind.entry if own else 0)
                mine.append(own)
            caps[g] += shape.sizes[q]
            group_of[q] = g
        tiles += ts
    adj = {t: tuple(sorted(group_of[q] for q in shape.adj[t])) for t in tiles}
    start = {t: group_of[shape.start[t]] for t in tiles}
    none: frozenset[int] = frozenset()
    worlds = Worlds(sorted(tiles), caps, adj, dict.fromkeys(tiles, none), start, tracker(turns[0].judge), part)
    exit = model.exit
    seed = seed_of(model, player, -1)
    for t in turns:
        seed = (seed * 1_000_003 + t.seq) & ((1 << 63) - 1)
    rng = random.Random(seed)
    order = sorted(worlds.tiles, key=lambda t: (len(worlds.adj[t]), t))
    logs: list[float] = []
    counts: list[int] = []
    firsts: list[int] = []
    for _ in range(samples):
        log_w, placed = place_world(worlds, order, rng)
        n, first = 0, -1
        for i, turn in enumerate(turns):
            hand = frozenset(t for t, g in placed.items() if mine[g] and entry[g] < turn.seq < exit[t])
            if turn.judge(hand, hand, len(hand))[0] is True:
                n += 1
                first = i if n == 1 else -1
        logs.append(log_w)
        counts.append(n)
        firsts.append(first)
    top = max(logs)
    w = [math.exp(x - top) for x in logs]
    total = sum(w, 0.0)
    by = [0.0] * (max(counts) + 1)
    for wi, n in zip(w, counts, strict=True):
        by[n] += wi / total
    alone = {t.seq: 0.0 for t in turns}
    for wi, n, first in zip(w, counts, firsts, strict=True):
        if n == 1:
            alone[turns[first].seq] += wi / total
    honest = [1.0 if n == 0 else 0.0 for n in counts]
    margins: dict[int, float] = {}
    alone_margins: dict[int, float] = {}
    h = by[0] * total
    if h > 0:
        for k in range(1, len(by)):
            q = by[k] / by[0]
            var = sum(
                ((wi * ((1.0 if n == k else 0.0) - q * hi)) ** 2 for wi, n, hi in zip(w, counts, honest, strict=True)),
                0.0,
            )
            margins[k] = Z * math.sqrt(var) / h
    for i, turn in enumerate(turns):
        a = alone[turn.seq] * total
        d = a + h
        if d <= 0:
            continue
        s = a / d
        hit = [1.0 if n == 1 and f == i else 0.0 for n, f in zip(counts, firsts, strict=True)]
        var = sum(((wi * (hi2 * (1 - s) - s * hi)) ** 2 for wi, hi2, hi in zip(w, hit, honest, strict=True)), 0.0)
        alone_margins[turn.seq] = Z * math.sqrt(var) / d
    return Reneges(tuple(t.seq for t in turns), False, by, alone, samples, margins, alone_margins)
