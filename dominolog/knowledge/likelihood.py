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
can take must be full; two groups no later class tells apart are merged (``a`` places left in one
and ``b`` in the other are ``a + b`` in one, in ``C(a + b, a)`` ways). So the states stay few
where the facts are nested, as a hand's are (a tile played at seq 30 took the deal or a draw
before 30, one played later also a later draw). Parts of the facts that cannot put a tile in the
hand asked about multiply every count alike and are left out (:class:`~dominolog.knowledge.
groups.Worlds`). The counts are exact integers. When the program would take more than ``budget``
steps (``BUDGET``, 50,000: a step is one state carried over one choice, a few microseconds; the
simulated logs of every variant need at most about 800), it stops and the share is estimated by
sampling instead (``SAMPLES``, 1,000 worlds).

**In closed form, most often.** When the facts that can put a tile in the hand are one player's
own tiles, every one known (played, or revealed at the end), with only the draws unseen, the share
is counted over the ways to fill the draws from ``seq`` on alone (:mod:`dominolog.knowledge.nested`
says why that is the same share): a few dozen steps. Every possible violation of the simulated
hidden logs with reveals is of that kind.

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

from dominolog.knowledge.groups import Shape, Worlds, relevant, tracker
from dominolog.knowledge.model import HandModel
from dominolog.knowledge.nested import chain_count, chain_of
from dominolog.knowledge.sampled import SAMPLES, sample, seed_of
from dominolog.state import Judge, Likelihood

#: not yet in the table of moved states (a state may be any hashable value, None included)
_UNSEEN: Hashable = object()

__all__ = ["BUDGET", "SAMPLES", "Budget", "Likelihood", "count", "likelihood"]

#: the most steps the exact count may take (a step: one state carried over one choice)
BUDGET = 50_000
#: the bits of one group's capacity in a packed state (a hand has at most 28 tiles)
BITS = 5
MASK = (1 << BITS) - 1


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
    ``samples`` sampled worlds (see the module's docstring). None when the facts leave no world, or
    when a play of the player's before ``seq`` was set aside as a contradiction (the worlds then do
    not say which tile left the hand with it: :meth:`HandModel.is_unsure`)."""
    if not model.feasible or model.is_unsure(player, seq - 1):
        return None
    shape = Shape.of(model)
    parts = relevant(shape, player, seq)
    if len(parts) == 1:  # the common case: the player's own tiles, all known, only the draws unseen
        chain = chain_of(shape, model, next(iter(parts)))
        if chain is not None and chain.owner == player and chain.dealt < seq:
            tr = shape.trackers.get(judge)
            if tr is None:
                tr = shape.trackers[judge] = tracker(judge)
            broken, total = chain_count(chain, seq, tr)
            return Likelihood(broken / total, True)
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
    role = worlds.tracker.role
    adj, within = worlds.adj, worlds.inside
    for t in worlds.tiles:
        inside = within[t]
        key = (adj[t], inside, role(t) if inside else None)
        found[key] = found.get(key, 0) + 1
    todo = [(m, groups, ins, r) for (groups, ins, r), m in found.items()]
    part = worlds.part
    todo.sort(key=lambda c: (part[c[1][0]], len(c[1]), c[1]))  # ties: the tiles' order (any order counts alike)
    return todo


def count(worlds: Worlds, budget: int = BUDGET, meter: list[int] | None = None) -> tuple[int, int]:
    """(worlds in which the rule is broken, all worlds), counted exactly; :class:`Budget` when that
    takes more than ``budget`` steps (``meter``: the steps taken are appended to it)."""
    tr = worlds.tracker
    order = [(m, list(groups), set(inside), role) for m, groups, inside, role in classes(worlds)]
    member: dict[int, int] = {}
    within: dict[int, int] = {}
    #: supply[g][k]: the tiles of the k-th class and those after it that can take group g
    supply = [[0] * (len(order) + 1) for _ in worlds.caps]
    for i, (m, groups, inside, _) in enumerate(order):
        bit = 1 << i
        for g in groups:
            member[g] = member.get(g, 0) | bit
            if g in inside:
                within[g] = within.get(g, 0) | bit
            supply[g][i] = m
    for row in supply:
        for i in range(len(order) - 1, -1, -1):
            row[i] += row[i + 1]
    # a state: the capacities left, packed BITS bits a group (a hand has at most 28 tiles), and
    # the rule's state; the number of ways to reach it
    caps0 = sum(c << (BITS * g) for g, c in enumerate(worlds.caps))
    states: dict[tuple[int, Hashable], int] = {(caps0, tr.start): 1}
    if order:
        states = _merge(states, order, 0, member, within)  # groups no class tells apart, from the start
    steps = 0
    comb = math.comb
    for k, (m, groups, inside, role) in enumerate(order):
        # the class's m tiles shared out over its groups, every way the capacities allow: the
        # groups in turn, each taking between what later classes cannot fill and what is left
        bounds = [(BITS * g, supply[g][k + 1], g in inside) for g in groups]
        last = len(bounds) - 1
        moved: dict[tuple[Hashable, int], Hashable] = {}
        nxt: dict[tuple[int, Hashable], int] = {}
        for (caps0, state0), n0 in states.items():
            stack = [(0, caps0, state0, m, n0)]
            while stack:
                j, caps, state, rest, n = stack.pop()
                shift, more, counts = bounds[j]
                cap = (caps >> shift) & MASK
                low = cap - more if cap > more else 0  # what later classes cannot fill, this one must
                high = cap if cap < rest else rest
                if j == last:
                    if rest < low or rest > high:
                        continue
                    low = rest  # the class's last group takes the rest
                elif high < low:
                    continue
                steps += high - low + 1
                if steps > budget:
                    raise Budget
                for take in range(low, high + 1):
                    new_caps = caps - (take << shift)
                    new_state = state
                    if counts and take:
                        found = moved.get((state, take), _UNSEEN)
                        if found is _UNSEEN:
                            new_state = moved[(state, take)] = tr.add(state, role, take)
                        else:
                            new_state = found
                    ways = n * comb(rest, take) if take else n
                    if j == last:
                        key = (new_caps, new_state)
                        nxt[key] = nxt.get(key, 0) + ways
                    else:
                        stack.append((j + 1, new_caps, new_state, rest - take, ways))
        states = nxt
        if k + 1 < len(order):
            states = _merge(states, order, k + 1, member, within)
    if meter is not None:
        meter.append(steps)
    total = broken = 0
    for (caps, state), n in states.items():
        if caps:
            continue  # pragma: no cover - every group is filled by then (checked as it closes)
        total += n
        if tr.broken(state):
            broken += n
    if not total:  # pragma: no cover - a feasible model has a world
        raise ValueError("no world: the model is not feasible")
    return broken, total


def _merge(
    states: dict[tuple[int, Hashable], int],
    order: list[tuple[int, list[int], set[int], Hashable]],
    shift: int,
    member: dict[int, int],
    within: dict[int, int],
) -> dict[tuple[int, Hashable], int]:
    """Merge the groups that the classes still to place no longer tell apart (each takes both or
    neither, and puts a tile of it in the hand in both or in neither): ``a`` places left in one and
    ``b`` in the other are then ``a + b`` places in one, in ``C(a + b, a)`` ways. So the states the
    count carries stay few where the facts are nested (every later class takes every group open).
    ``member[g]``, ``within[g]``: bit ``i`` for each class ``i`` that takes group ``g``, that puts
    its tile in the hand there; the classes still to place are those of ``order`` from ``shift``
    (and from bit ``shift``). The merged groups are taken out of those classes."""
    into: dict[tuple[int, int], int] = {}
    merged: dict[int, int] = {}
    for g, bits in member.items():
        rest = bits >> shift
        if not rest:
            continue
        h = into.setdefault((rest, within.get(g, 0) >> shift), g)
        if h != g:
            merged[g] = h
    if not merged:
        return states
    for g in merged:
        del member[g]
    out: dict[tuple[int, Hashable], int] = {}
    for (caps, state), n in states.items():
        for g, h in merged.items():
            a, b = (caps >> (BITS * g)) & MASK, (caps >> (BITS * h)) & MASK
            if a:
                n *= math.comb(a + b, a)
                caps += (a << (BITS * h)) - (a << (BITS * g))
        key = (caps, state)
        out[key] = out.get(key, 0) + n
    for cls in order[shift:]:
        cls[1][:] = [g for g in cls[1] if g not in merged]
        cls[2].difference_update(merged)
    return out
