"""The share of a rule's worlds by sequential importance sampling, when counting them would take too
long (:mod:`dominolog.knowledge.likelihood` says how and why)."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable

from dominolog.knowledge.groups import Worlds
from dominolog.knowledge.model import HandModel
from dominolog.state import Likelihood
from dominolog.tiles import Tile

#: how many worlds are sampled when the exact count would take more than its budget
SAMPLES = 1_000
#: 95%: the normal quantile of the margin
Z = 1.959963984540054


def seed_of(model: HandModel, player: str, seq: int) -> int:
    """A seed made of the hand's facts and the rule's place (the same hand and rule: the same
    figures, whatever file, order or process they come from)."""
    h = hashlib.sha256()
    h.update(f"{player}\x00{seq}\x00".encode())
    for s in model.slots:
        h.update(f"{s.owner}\x00{s.entry}\x00{s.draw}\x01".encode())
    for t in model.tiles:
        h.update(f"{t}:{model.exit[t]}:{','.join(map(str, sorted(model.edges[t])))}\x02".encode())
    return int.from_bytes(h.digest()[:8], "big")


def sample(worlds: Worlds, samples: int = SAMPLES, seed: int = 0) -> Likelihood:
    """The share estimated from ``samples`` worlds drawn by sequential importance sampling."""
    rng = random.Random(seed)
    order = sorted(worlds.tiles, key=lambda t: (len(worlds.adj[t]), t))
    weights: list[float] = []
    hits: list[bool] = []
    for _ in range(samples):
        w, broken = _one_world(worlds, order, rng)
        weights.append(w)
        hits.append(broken)
    return estimate(weights, hits)


def _one_world(worlds: Worlds, order: list[Tile], rng: random.Random) -> tuple[float, bool]:
    """One world, placed tile by tile, and its weight (the product of the slots each tile chose
    among); whether the rule is broken in it."""
    tr = worlds.tracker
    inside = worlds.inside
    log_w, placed = place_world(worlds, order, rng)
    state = tr.start
    for t in order:
        if placed[t] in inside[t]:
            state = tr.add(state, tr.role(t), 1)
    return log_w, tr.broken(state)


def place_world(worlds: Worlds, order: list[Tile], rng: random.Random) -> tuple[float, dict[Tile, int]]:
    """One world drawn by sequential importance sampling: the tiles of ``order`` placed one at a
    time, each in a group drawn with its free places as weight among those that still leave a world
    for the rest; the log of its weight (the product of the places each tile chose among) and each
    tile's group."""
    adj = worlds.adj
    placed: dict[Tile, int] = {}
    where = dict(worlds.start)  # a world of the tiles not yet placed: tile -> group
    members: list[set[Tile]] = [set() for _ in worlds.caps]
    for t, g in where.items():
        members[g].add(t)
    log_w = 0.0
    for t in order:
        home = where[t]
        # the groups from which a chain of moves (a tile of g to another of its groups, ...) ends
        # in ``home``, which t leaves: t can go to any of them and the others still have a world
        via: dict[int, tuple[Tile, int] | None] = {home: None}
        queue = [home]
        for h in queue:
            for g in range(len(members)):
                if g in via:
                    continue
                for u in members[g]:
                    if u is not t and h in adj[u]:
                        via[g] = (u, h)
                        queue.append(g)
                        break
        choices = [g for g in adj[t] if g in via]
        sizes = [len(members[g]) for g in choices]
        total = sum(sizes)
        pick = rng.randrange(total)
        k = 0
        while pick >= sizes[k]:
            pick -= sizes[k]
            k += 1
        g = choices[k]
        log_w += math.log(total)
        # move the chain: from g, each tile on the way steps to the next group, ending at home
        members[home].discard(t)
        at = g
        while at != home:
            step = via[at]
            assert step is not None
            u, nxt = step
            members[at].discard(u)
            members[nxt].add(u)
            where[u] = nxt
            at = nxt
        del where[t]
        placed[t] = g
    return log_w, placed


def estimate(log_weights: list[float], hits: Iterable[bool]) -> Likelihood:
    """The self-normalised estimate of the share from weighted samples (weights given as logs),
    with its 95% margin (see the module's docstring)."""
    top = max(log_weights)
    w = [math.exp(x - top) for x in log_weights]
    f = [1.0 if h else 0.0 for h in hits]
    # sums of floats started at 0.0 (the same figures): compiled (setup.py), a sum started at 0 is an int
    sw = sum(w, 0.0)
    share = sum((wi * fi for wi, fi in zip(w, f, strict=True)), 0.0) / sw
    var = sum(((wi * (fi - share)) ** 2 for wi, fi in zip(w, f, strict=True)), 0.0) / sw**2
    ess = sw * sw / sum((wi * wi for wi in w), 0.0)
    wilson = _wilson_half(share, ess)
    margin = max(Z * math.sqrt(var), wilson)
    return Likelihood(share, False, margin, len(w))


def _wilson_half(p: float, n: float) -> float:
    """The largest distance from ``p`` to an end of the 95% Wilson score interval for ``n`` trials."""
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(abs(centre - half - p), abs(centre + half - p))
