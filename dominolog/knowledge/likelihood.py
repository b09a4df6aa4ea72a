"""How likely a possible violation is: the share of the worlds the log allows in which it is one.

**The worlds.** A hand's worlds are the assignments of its tiles to the places they entered a
hand that the log's facts allow (:mod:`dominolog.knowledge.model`). The set is taken as shuffled
uniformly: before anything is seen, every order of the shuffled tiles is equally likely, so every
assignment of tiles to the deals, the draws and the boneyard is equally likely; the facts then
rule some assignments out and leave the others as likely as each other (the posterior is uniform
over the assignments the facts allow). What the players chose to play is taken as telling
nothing more (a pass or a play is a fact, not evidence weighed by how likely a player was to make
it), and no rule of play is assumed kept, as for the verdicts.

**Interchangeable slots.** A world is which tiles each player was dealt, which tile each draw
brought, and which tiles stayed in the boneyard: a player's dealt tiles are a set, not a sequence.
A :class:`~dominolog.knowledge.model.HandModel` gives every dealt tile its own slot, so one world
is ``k!`` perfect matchings for a deal of ``k`` tiles (and likewise the boneyard's slots). Every
world is the same number of matchings (the product of those factorials, whatever the world), so
the share of worlds is the share of perfect matchings: counting either gives the same answer.
Here slots that no fact tells apart (the same tiles may take them, and each such tile is in the
hand asked about in both or in neither) are merged into one *group* with a capacity, and what is
counted is the assignments of tiles to groups, each group filled to its capacity.

**The share.** For a rule about ``player``'s hand just before ``seq`` (a :class:`PendingCheck`),
the hand in a world is the tiles whose slot is that player's, entered before ``seq``, and left
(played) after it (:class:`~dominolog.knowledge.model.Before`); the rule is broken in that world
when its judge says so of a hand known exactly (``judge(H, H, len(H))``).

**Exactly, within a budget.** Tiles that take the same groups and play the same part in the rule
(for "held a tile that fits": fits or not) are interchangeable too: a dynamic program places the
tiles class by class, group by group, counting with binomial coefficients, over the states
(capacities left, what the hand holds so far as far as the rule cares). A group no later class
can take must be full, so the states stay few where the facts are nested, as a hand's are (a tile
played at seq 30 took the deal or a draw before 30). The counts are exact integers. When the
program would take more than ``budget`` steps (``BUDGET``: a step is one state carried over one
choice), it stops and the share is estimated by sampling instead.

**By sampling, otherwise.** Sequential importance sampling (Chen, Diaconis, Holmes and Liu,
*Sequential Monte Carlo methods for statistical analysis of tables*, JASA 2005, for 0-1 tables and
permanents): the tiles are placed one at a time, the most constrained first, each in a slot drawn
uniformly from the free slots that still leave a world for the tiles after it (checked exactly,
with an augmenting path in the current matching), so every sample is a world the log allows. A
world that took choices among ``n1, n2, ...`` slots was drawn with probability ``1/(n1 n2 ...)``,
so it is weighted ``n1 n2 ...``: the weighted samples estimate the counts without bias, and the
share is the ratio of the weighted broken samples to all (self-normalised). Its margin is a 95%
interval: 1.96 standard errors of the ratio by the delta method (the usual one for a
self-normalised estimate), and never less than the half-width of the Wilson interval for the
effective sample size ``(sum w)^2 / sum w^2`` (so a sample that is all one way still says how
far it can be trusted). The random numbers come from a generator seeded by the facts of the hand
and the rule (not by file names, nor by the order the matches are read in), so ``verify``, with
or without ``--jobs``, and ``audit`` give the same figures byte for byte.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from dominolog.knowledge.groups import Worlds
from dominolog.knowledge.model import HandModel
from dominolog.knowledge.sampled import SAMPLES, sample, seed_of
from dominolog.state import Judge, Likelihood

__all__ = ["BUDGET", "SAMPLES", "Budget", "Likelihood", "count", "likelihood"]

#: the most steps the exact count may take (a step: one state carried over one choice)
BUDGET = 200_000


class Budget(Exception):
    """The exact count would take more steps than allowed."""


def likelihood(
    model: HandModel,
    player: str,
    seq: int,
    judge: Judge,
    budget: int = BUDGET,
    samples: int = SAMPLES,
) -> Likelihood | None:
    """The share of the worlds of ``model`` in which ``judge``'s rule about ``player``'s hand just
    before ``seq`` is broken: counted when that takes at most ``budget`` steps, else estimated from
    ``samples`` sampled worlds (see the module's docstring). None when the facts leave no world."""
    if not model.feasible:
        return None
    worlds = Worlds.of(model, player, seq, judge)
    try:
        broken, total = count(worlds, budget)
    except Budget:
        return sample(worlds, samples, seed_of(model, player, seq))
    return Likelihood(broken / total, True)


# -- counting -----------------------------------------------------------------------------------
def classes(worlds: Worlds) -> list[tuple[int, tuple[int, ...], frozenset[int], Hashable]]:
    """The tiles by class (same groups, same groups inside the hand, same role), as (how many,
    groups, inside, role), in the order the count takes them: the classes of one connected part of
    the facts together, and in it those taking fewer groups first (a hand's facts are nested: a
    tile played early took the deal or an early draw, one played later also a later draw)."""
    found: dict[tuple, int] = {}
    for t in worlds.tiles:
        inside = worlds.inside[t]
        key = (worlds.adj[t], inside, worlds.tracker.role(t) if inside else None)
        found[key] = found.get(key, 0) + 1
    parent = list(range(len(worlds.caps)))

    def root(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    for groups, _, _ in found:
        for g in groups[1:]:
            parent[root(g)] = root(groups[0])
    todo = [(m, groups, ins, role) for (groups, ins, role), m in found.items()]
    todo.sort(key=lambda c: (root(c[1][0]), len(c[1]), c[1], sorted(c[2]), repr(c[3])))
    return todo


def count(worlds: Worlds, budget: int = BUDGET) -> tuple[int, int]:
    """(worlds in which the rule is broken, all worlds), counted exactly; :class:`Budget` when that
    takes more than ``budget`` steps."""
    tr = worlds.tracker
    order = [(m, list(groups), set(inside), role) for m, groups, inside, role in classes(worlds)]
    member: dict[int, int] = {}
    within: dict[int, int] = {}
    #: supply[g][k]: the tiles of the k-th class and those after it that can take group g
    supply = [[0] * (len(order) + 1) for _ in worlds.caps]
    for i, (m, groups, inside, _) in enumerate(order):
        for g in groups:
            member[g] = member.get(g, 0) | 1 << i
            within[g] = within.get(g, 0) | (1 << i if g in inside else 0)
            supply[g][i] = m
    for row in supply:
        for i in range(len(order) - 1, -1, -1):
            row[i] += row[i + 1]
    states: dict[tuple[tuple[int, ...], Hashable], int] = {(tuple(worlds.caps), tr.start): 1}
    steps = 0
    comb, add = math.comb, tr.add
    for k, (m, groups, inside, role) in enumerate(order):
        later = order[k + 1 :]
        # the class's tiles, group by group: (capacities, rule state, tiles of the class left)
        part: dict[tuple[tuple[int, ...], Hashable, int], int] = {(c, s, m): n for (c, s), n in states.items()}
        for j, g in enumerate(groups):
            last = j == len(groups) - 1
            more = supply[g][k + 1]
            counts = g in inside
            nxt: dict[tuple[tuple[int, ...], Hashable, int], int] = {}
            for (caps, state, rest), n in part.items():
                cap = caps[g]
                low = cap - more if cap > more else 0  # what later classes cannot fill, this one must
                high = cap if cap < rest else rest
                if last and rest > low:
                    low = rest  # the class's last group takes the rest
                if high < low:
                    continue
                steps += high - low + 1
                if steps > budget:
                    raise Budget
                head, tail = caps[:g], caps[g + 1 :]
                for take in range(low, high + 1):
                    key = (head + (cap - take,) + tail, add(state, role, take) if counts else state, rest - take)
                    nxt[key] = nxt.get(key, 0) + n * comb(rest, take)
            part = nxt
        states = {}
        for (caps, state, rest), n in part.items():
            if rest == 0:
                states[(caps, state)] = states.get((caps, state), 0) + n
        states = _merge(states, later, member, within, k + 1)
    total = broken = 0
    for (caps, state), n in states.items():
        if any(caps):
            continue  # pragma: no cover - every group is filled by then (checked as it closes)
        total += n
        if tr.broken(state):
            broken += n
    if not total:  # pragma: no cover - a feasible model has a world
        raise ValueError("no world: the model is not feasible")
    return broken, total


def _merge(
    states: dict[tuple[tuple[int, ...], Hashable], int],
    later: list[tuple[int, list[int], set[int], Hashable]],
    member: dict[int, int],
    within: dict[int, int],
    shift: int,
) -> dict[tuple[tuple[int, ...], Hashable], int]:
    """Merge the groups that the classes still to place no longer tell apart (each takes both or
    neither, and puts a tile of it in the hand in both or in neither): ``a`` places left in one and
    ``b`` in the other are then ``a + b`` places in one, in ``C(a + b, a)`` ways. So the states the
    count carries stay few where the facts are nested (every later class takes every group open).
    ``member[g]``, ``within[g]``: bit ``i`` for each class ``i`` that takes group ``g``, that puts
    its tile in the hand there; the classes still to place are those from bit ``shift``. The merged
    groups are taken out of ``later``'s classes."""
    into: dict[tuple[int, int], int] = {}
    merged: dict[int, int] = {}
    for g, bits in member.items():
        rest = bits >> shift
        if not rest:
            continue
        h = into.setdefault((rest, within[g] >> shift), g)
        if h != g:
            merged[g] = h
    if not merged:
        return states
    for g in merged:
        del member[g]
    out: dict[tuple[tuple[int, ...], Hashable], int] = {}
    for (caps, state), n in states.items():
        c = list(caps)
        for g, h in merged.items():
            n *= math.comb(c[h] + c[g], c[g])
            c[h] += c[g]
            c[g] = 0
        key = (tuple(c), state)
        out[key] = out.get(key, 0) + n
    for cls in later:
        cls[1][:] = [g for g in cls[1] if g not in merged]
        cls[2].difference_update(merged)
    return out
