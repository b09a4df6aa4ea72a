"""The luck of the deals and draws of the hidden games (Brettspielnetz, 39, Double Bergen, Double
Draw), sampled with the analysis's own sampler and playouts.

**The value of a position for a player** is the estimator the sampled review gives its options
(:mod:`dominolog.analysis.sampling`): the mean, over complete deals drawn from what that player could
know then (:mod:`dominolog.analysis.deals`), of the playout value (:func:`~dominolog.analysis.playout.value`:
the hand played out by the policy, the player's side's points less the mean of the other sides',
turned where points are penalties).

**A deal's luck**, for each player: the value of the position right after the deal, as that player
could know it (their own hand, the start tile, nothing else), less its mean over other deals: the
same seat, leader, dealer and chooser as the log's, the tiles shuffled uniformly and dealt by the
variant's own code (its ``simulate_deal``, then ``start_hand``), so every player's hand, the start
tile and the boneyard are uniformly random. The other deals are the same for every player of the
hand (common random numbers).

**A draw's luck**, for the player who drew, when the log shows the tile: the value after the draw
less the mean over the tiles that could have been drawn. Both come from the same worlds, drawn from
what the player knew just before the draw: the mean is over those worlds, each drawing the first
tile of its shuffled boneyard; the value after is over those of them whose boneyard holds the tile
drawn, with that tile drawn first (the worlds the player could then still believe in). A draw whose
tile the log does not show has no luck figure.

**Zero in expectation.** Each luck is a value given what came less the mean over what could have
come, drawn from the same distribution, so over deals and draws it averages zero (the tests check it
over many simulated hands). Each is an estimate: ``error`` is its standard error,
``sqrt(s1²/n1 + s2²/n2)`` over the two sets of deals (for a draw the two sets share worlds, and
their correlation only makes that figure larger than the truth); a hand's or a match's total has
the root of the summed squares, and the reviews write a 95% margin, 1.96 times that.

**Reproducible.** Each deal and draw draws from its own generator, seeded with ``--seed``, the hand
and the seq, so the figures are the same in every process and run.

**The luck-adjusted result.** A player's result in a hand is the value of the points the rules
scored (``value_for`` from nothing to the hand's points); their luck-adjusted result is that less
their luck (the deal's and their draws'). A hand is weighed only when it was analysed whole and ended.
"""

from __future__ import annotations

import math
import statistics
from random import Random

from dominolog.analysis.deals import Skip, Walk
from dominolog.analysis.moves import Move, SampledHand
from dominolog.analysis.playout import World, value, value_for
from dominolog.analysis.results import LuckPart, SampledLuck
from dominolog.events import Deal
from dominolog.reducer.context import QuietCtx
from dominolog.state import Holding
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants import Variant

#: at most this many worlds drawn, per value asked, to find those whose boneyard holds the tile drawn
TRIES = 20
#: the 95% margin of a standard error
Z95 = 1.96


def _spread(xs: list[float]) -> float:
    return statistics.variance(xs) if len(xs) > 1 else 0.0


def error(after: list[float], before: list[float]) -> float:
    """The standard error of ``mean(after) - mean(before)`` (independent samples)."""
    return math.sqrt(_spread(after) / len(after) + _spread(before) / len(before))


def part(seq: int, kind: str, player: str, tile: str | None, after: list[float], before: list[float]) -> LuckPart:
    """One luck figure from the values after and the values it is weighed against (rounded to 2 decimals,
    as the review keeps them, so a kept review gives the same totals)."""
    return LuckPart(
        seq,
        kind,
        player,
        tile,
        round(statistics.fmean(after), 2),
        round(statistics.fmean(before), 2),
        round(error(after, before), 2),
        len(after),
        len(before),
    )


def other_deals(variant: Variant, h: SampledHand, samples: int, seed: int) -> list[World]:
    """``samples`` uniformly random deals of the hand's seat, leader, dealer and chooser, by the
    variant's own dealing, as full-information worlds."""
    assert h.dealt is not None
    match = h.dealt[0]
    ev = h.records[0].event
    assert isinstance(ev, Deal)
    seq = h.records[0].seq
    rng = Random(f"dominolog-luck:{seed}:{h.number}:{seq}:deal")
    out = []
    for _ in range(samples):
        tiles = list(DOUBLE_SIX)
        rng.shuffle(tiles)
        made = variant.simulate_deal(match, tiles, rng)
        deal = Deal(ev.leader, ev.dealer, made["hands"], made.get("start_tile"), ev.chooser, seq)
        hand = variant.start_hand(match, deal, QuietCtx(seq))
        hand.boneyard = Holding(set(hand.unaccounted), 0)
        hand.unaccounted = set()
        hand.hidden = False
        order = sorted(hand.boneyard.known)
        rng.shuffle(order)
        out.append(World(match, hand, tuple(order)))
    return out


def _deal_parts(
    variant: Variant, h: SampledHand, walk: Walk, samples: int, seed: int, notes: list[str]
) -> list[LuckPart]:
    assert h.dealt is not None
    match, dealt = h.dealt
    seq = h.records[0].seq
    others = other_deals(variant, h, samples, seed)
    out = []
    for p in h.players:
        before = [value(w, variant, p, None, seq) for w in others]
        move = Move(seq, p, "deal", "deal", seq, match, dealt)
        rng = Random(f"dominolog-luck:{seed}:{h.number}:{seq}:deal:{p}")
        try:
            known = walk.knowledge(move)
            after = [value(known.world(rng, h.players), variant, p, None, seq) for _ in range(samples)]
        except Skip as skip:
            notes.append(f"the deal's luck for {p}: {skip.why or 'not measured'}")
            continue
        out.append(part(seq, "deal", p, None, after, before))
    return out


def _drawn(h: SampledHand, move: Move) -> Tile | None:
    rec = next((r for r in h.records if r.seq == move.seq), None)
    text = getattr(rec.event, "tile", None) if rec is not None else None
    return Tile.parse(text) if text else None


def _draw_part(
    variant: Variant, h: SampledHand, move: Move, tile: Tile, walk: Walk, samples: int, seed: int
) -> LuckPart:
    known = walk.knowledge(move)
    p = move.player
    action = {"type": "draw", "player": p}
    rng = Random(f"dominolog-luck:{seed}:{h.number}:{move.seq}:draw")
    before: list[float] = []
    after: list[float] = []
    for _ in range(samples * TRIES):
        w = known.world(rng, h.players)
        if len(before) < samples:
            before.append(value(w, variant, p, action, move.seq))
        if tile in w.hand.boneyard.known and len(after) < samples:
            first = World(w.match, w.hand, (tile, *(t for t in w.order if t != tile)))
            after.append(value(first, variant, p, action, move.seq))
        if len(before) == samples and len(after) == samples:
            break
    if not after:
        raise Skip(f"seq {move.seq}: no deal drawn from what {p} knew had {tile} in the boneyard")
    return part(move.seq, "draw", p, str(tile), after, before)


def hand_luck(variant: Variant, h: SampledHand, samples: int, seed: int) -> SampledLuck:
    """The sampled luck of one hand's deal and draws, and each player's result (see the module's docstring)."""
    out = SampledLuck()
    if h.dealt is None or h.records[0].event is None:
        out.notes.append("the deal could not be read")
        return out
    out.leader = h.records[0].event.leader  # type: ignore[union-attr]
    walk = Walk(h)
    out.parts = _deal_parts(variant, h, walk, samples, seed, out.notes)
    unseen: list[str] = []
    for move in h.moves:
        if move.kind != "draw" or move.played is None:
            continue
        tile = _drawn(h, move)
        if tile is None:
            unseen.append(str(move.seq))
            continue
        try:
            out.parts.append(_draw_part(variant, h, move, tile, walk, samples, seed))
        except Skip as skip:
            out.notes.append(skip.why or f"seq {move.seq}: the draw's luck not measured")
    if unseen:
        out.notes.insert(
            0, f"the log does not show the tiles drawn at seq {', '.join(unseen)}: no luck figure for them"
        )
    if h.points is not None:
        out.result = {p: round(value_for(variant, p, {}, h.points), 2) for p in h.players}
    return out
