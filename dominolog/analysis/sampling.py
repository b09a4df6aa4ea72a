"""The review of a match of the variants with hidden tiles, by sampling deals (perfect-information
Monte Carlo): Brettspielnetz, 39, Double Bergen, Double Draw.

**Decisions.** The match is folded once (:func:`~dominolog.analysis.moves.plan_sampled`). Every turn
event that stands (not undone) is a move of its player: a play, a pass, a draw, a declaration (39),
a block call (Double Draw). In 39 a play that makes a match is followed by a declaration decision of
its own, at the play's seq, when no ``declare`` event follows it (the move played is then ``no
declaration``). A move is a *decision* when the player had at least two options: a forced draw, the
draw back up to five in 39, a lone play or a pass with nothing else allowed are not listed. The
options are the variant's ``legal_actions`` for the player on move
(:func:`dominolog.analysis.playout.options`); a declaration's options are ``declare even``,
``declare odd`` and ``no declaration``; a block call by a player not on move is valued against ``no
call``. A first tile is one option whichever way round it is laid (its value is taken as the variant
lists it). A move the rules do not allow there (no option is it: a renege, a play out of turn) is
not analysed, and the hand's note says so.

**Worlds.** At a decision, ``K`` complete deals (``--samples``) are drawn from what the player on
move could know then (:mod:`dominolog.analysis.deals`: the log up to that moment as that player saw
it, with their own hand; never a later event). Each deal is set into the table as it stood
(the fold's own state: layout, turn, points, totals), giving a full-information world.

**Values.** Each option is taken in each world and the hand is played out with a fixed policy
(:mod:`dominolog.analysis.playout`), then scored by the variant's own rules; the value is the
player's side's points for the rest of the hand minus the mean of the other sides' (penalties:
turned, so higher is better). All the options of a decision are valued in the same ``K`` worlds
(common random numbers), so their differences are meaningful. Per option: the mean (rounded to 2
decimals), the standard deviation over the worlds (the *spread*) and the number of worlds. The rank
is 1 + the options with a strictly higher mean; the loss is the best mean minus the played one; a
decision is a *choice* when the rounded means are not all equal.

**The player's own hand, when the log leaves it open** (a spectator's log: only plays and the reveals
at the end say what a player held), is sampled too (:mod:`dominolog.analysis.deals`), and the hand's
note says at which seqs. Only the deals in which the move played is legal are kept (the player knew
their hand and made that move; at most :data:`TRIES` draws for each deal kept, and ``samples`` says
how many were), and only the options legal in every kept deal are valued: those the player surely
had. So an honest draw in Double Draw, which shows the player had no pair play, is no decision.

**Cost.** Nearly all of it is the playouts (``bench/bench_sampling.py``): with 20 deals, about 20 ms
a decision in the line games and 100-200 ms in the spinner games, whose hands are longer and whose
tables cost more to search for plays; a bundled replay of each variant takes 1 to 20 seconds.

**Luck.** When a whole hand is reviewed, the luck of its deal and of its draws is sampled too, with
the same ``--samples`` and ``--seed`` (:mod:`dominolog.analysis.luck_hidden`).

**Reproducible.** Each decision draws from its own generator, seeded with ``--seed``, the hand and
the seq (text seeds: the same in every process), so a review is the same byte for byte whatever
``--jobs`` spreads the hands over.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator
from itertools import islice
from random import Random

from dominolog.analysis.deals import Knowledge, Skip, Walk
from dominolog.analysis.luck_hidden import hand_luck
from dominolog.analysis.moves import Move, SampledHand, SampledPlan, plan_sampled
from dominolog.analysis.playout import Action, World, options, value
from dominolog.analysis.results import Decision, HandReview, MatchReview, Sampling, assemble, rounded
from dominolog.log.reader import MatchLog
from dominolog.variants import Variant, find_variant

#: the variants reviewed by sampling
SAMPLED = frozenset({"brettspielnetz", "39", "double-bergen", "double-draw"})
SAMPLES = 20
SEED = 0
#: with the player's own hand sampled too, at most this many deals are drawn for each one kept
TRIES = 20


def worlds(h: SampledHand, move: Move, known: Knowledge, seed: int) -> Iterator[World]:
    """The worlds sampled for ``move``, one after another (each move draws from its own generator)."""
    rng = Random(f"dominolog-sampling:{seed}:{h.number}:{move.seq}:{move.kind}")
    while True:
        yield known.world(rng, h.players)


def _draw(
    variant: Variant, h: SampledHand, move: Move, known: Knowledge, samples: int, seed: int
) -> tuple[list[World], list[list[tuple[str, Action | None]]]]:
    """The worlds of one move and the options in each. With the player's own hand sampled too, only
    the worlds where the move played is legal are kept (the player knew their hand, and the log shows
    the move), drawing at most :data:`TRIES` times as many as asked for."""
    drawn = worlds(h, move, known, seed)
    first = next(drawn)
    named = options(first, variant, move.player, move.kind)
    if known.whole is None:  # the player's own hand is known: the same options in every world
        if len(named) < 2:
            raise Skip()
        sampled = [first, *islice(drawn, samples - 1)]
        return sampled, [named] + [options(w, variant, move.player, move.kind) for w in sampled[1:]]
    kept: list[World] = []
    legal: list[list[tuple[str, Action | None]]] = []
    w, here = first, named
    for _ in range(samples * TRIES):
        if any(name == move.played for name, _ in here):
            kept.append(w)
            legal.append(here)
            if len(kept) == samples:
                break
        w = next(drawn)
        here = options(w, variant, move.player, move.kind)
    if not kept:
        raise Skip(f"seq {move.seq}: no deal the log allows makes {move.played} legal; not analysed")
    return kept, legal


def _decide(variant: Variant, h: SampledHand, move: Move, known: Knowledge, samples: int, seed: int) -> Decision:
    """Sample the worlds of one move and value its options in each (see the module's docstring)."""
    sampled, legal = _draw(variant, h, move, known, samples, seed)
    everywhere = set.intersection(*({name for name, _ in here} for here in legal))
    common = [(name, action) for name, action in legal[0] if name in everywhere]
    if len(common) < 2:
        raise Skip()
    if move.played not in everywhere:
        raise Skip(f"seq {move.seq}: {move.played} is not a move the rules allow there; not analysed")
    got: dict[str, list[float]] = {name: [] for name, _ in common}
    for w, here in zip(sampled, legal, strict=True):
        actions = dict(here)
        for name in got:
            got[name].append(value(w, variant, move.player, actions[name], move.seq))
    means = {name: rounded(statistics.fmean(v)) for name, v in got.items()}
    played = means[move.played]
    best, worst = max(means.values()), min(means.values())
    return Decision(
        move.seq,
        move.player,
        move.played,
        played,
        list(means.items()),
        best,
        worst,
        next(name for name, v in means.items() if v == best),
        1 + sum(v > played for v in means.values()),
        h.number,
        kind=move.kind,
        samples=len(sampled),
        spreads=[round(statistics.stdev(v), 2) if len(v) > 1 else 0.0 for v in got.values()],
    )


# -- a hand, a match ------------------------------------------------------------------------------------
def _candidate(variant: Variant, move: Move) -> bool:
    """Whether a move may be a decision (exactly, when the fold knows the player's hand then)."""
    if move.played is None:
        return True
    hand = move.hand
    if hand.over is not None and move.kind != "declare":
        return False  # after the hand's end (the passes that confirm a block)
    if hand.holdings[move.player].unknown:
        return True
    return len(options(World(move.match, hand, ()), variant, move.player, move.kind)) >= 2


def _chosen(variant: Variant, h: SampledHand, from_seq: int, last: int | None) -> list[Move]:
    moves = [m for m in h.moves if m.seq >= from_seq and _candidate(variant, m)]
    return moves if last is None else moves[len(moves) - last :] if last else []


def variant_of(plan: SampledPlan) -> Variant:
    assert plan.variant is not None
    return find_variant(plan.variant)(plan.players, plan.options)


def review_sampled_hand(
    plan: SampledPlan,
    h: SampledHand,
    samples: int = SAMPLES,
    seed: int = SEED,
    on_move: Callable[[], None] | None = None,
    from_seq: int = 0,
    last: int | None = None,
) -> HandReview:
    """Sample every decision of the hand from seq ``from_seq`` on (only its ``last`` moves that may
    be decisions, if given)."""
    variant = variant_of(plan)
    out = HandReview(h.number, hidden=h.hidden)
    notes: list[str] = []
    sampled_own: list[str] = []
    walk = Walk(h)
    for move in _chosen(variant, h, from_seq, last):
        try:
            known = walk.knowledge(move)
            out.decisions.append(_decide(variant, h, move, known, samples, seed))
            if known.own is None:
                sampled_own.append(str(move.seq))
        except Skip as skip:
            if skip.why:
                notes.append(skip.why)
        if on_move is not None:
            on_move()
    if sampled_own:
        seqs = ", ".join(dict.fromkeys(sampled_own))
        notes.insert(0, f"the log leaves the mover's own hand open at seq {seqs}: sampled too")
    out.note = "; ".join(notes) or None
    if from_seq == 0 and last is None:
        out.luck = hand_luck(variant, h, samples, seed)
    return out


def moves_to_sample(plan: SampledPlan, h: SampledHand, from_seq: int = 0, last: int | None = None) -> int:
    """How many moves the review of the hand samples (for a progress bar)."""
    return len(_chosen(variant_of(plan), h, from_seq, last))


def review_sampled_hand_of(
    log: MatchLog, number: int, samples: int, seed: int, from_seq: int = 0, last: int | None = None
) -> HandReview:
    """The review of hand ``number`` of the match (what a worker process runs)."""
    plan = plan_sampled(log)
    h = next(x for x in plan.hands if x.number == number)
    return review_sampled_hand(plan, h, samples, seed, None, from_seq, last)


def review_sampled(
    log: MatchLog,
    hand: int | None = None,
    samples: int = SAMPLES,
    seed: int = SEED,
    on_move: Callable[[], None] | None = None,
    from_seq: int = 0,
    last: int | None = None,
) -> MatchReview:
    """Review the match by sampling (or only hand ``hand``), in this process."""
    plan = plan_sampled(log)
    hands = [
        review_sampled_hand(plan, h, samples, seed, on_move, from_seq, last)
        for h in plan.hands
        if hand is None or h.number == hand
    ]
    return assemble(plan, hands, Sampling(samples, seed))
