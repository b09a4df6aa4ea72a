"""How likely a possible violation is (dominolog/knowledge/likelihood.py), against brute force: every
perfect matching of tiles to slots of small random hands, enumerated."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.knowledge import NEVER, HandModel, Slot
from dominolog.knowledge.groups import Shape, Worlds, relevant, tracker
from dominolog.knowledge.likelihood import Budget, count, likelihood
from dominolog.knowledge.nested import chain_count, chain_of
from dominolog.knowledge.sampled import sample
from dominolog.log.reader import iter_matches
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import Judge, Likelihood
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants.judges import HoldsOne, HoldsPair, Opposite, judge_fit, judge_not, judge_pair
from tests.helpers import to_bytes

PLAYERS = ("Ana", "Ben")


def heavy(sure: frozenset[Tile], upper: frozenset[Tile], n: int) -> tuple[bool | None, str, tuple[Tile, ...]]:
    """A judge the module knows nothing of: "held two tiles of 7 pips or more" (a judge says what it
    decided, in words, and the tiles its words name: state.Judge)."""
    return sum(1 for t in sure if t.pips >= 7) >= 2, "", ()


def random_model(rng: random.Random, n_tiles: int) -> HandModel:
    """A hand of ``n_tiles`` tiles: each player's deal (slots alike), a few draws, the boneyard;
    a random world, and random edges besides it (whole kinds of slot, or single slots)."""
    tiles = rng.sample(DOUBLE_SIX, n_tiles)
    slots: list[Slot] = []
    left = n_tiles
    for p in PLAYERS:
        k = rng.randint(1, max(1, left // 3))
        slots += [Slot(p, 1)] * k
        left -= k
    draws = rng.randint(0, max(0, left - 1))
    for _ in range(draws):
        seq = rng.randint(2, 20)
        slots.append(Slot(rng.choice(PLAYERS), seq, seq))
    slots += [Slot(None, 0)] * (n_tiles - len(slots))
    order = list(range(n_tiles))
    rng.shuffle(order)
    edges: dict[Tile, list[int]] = {t: [order[k]] for k, t in enumerate(tiles)}
    kinds: dict[Slot, list[int]] = {}
    for i, s in enumerate(slots):
        kinds.setdefault(s, []).append(i)
    for t in tiles:
        for same in kinds.values():
            if rng.random() < 0.35:
                edges[t] = sorted(set(edges[t]) | set(same))
        if rng.random() < 0.3:
            edges[t] = sorted(set(edges[t]) | {rng.randrange(n_tiles)})
    exit = {t: NEVER if rng.random() < 0.4 else rng.randint(2, 24) for t in tiles}
    return HandModel(slots, edges, exit)


def random_judge(rng: random.Random) -> Judge:
    kind = rng.randrange(6)
    if kind == 0:
        return judge_fit(tuple(rng.sample(range(7), rng.randint(1, 2))))
    if kind == 1:
        return judge_pair(rng.randrange(7), rng.randrange(7))
    if kind == 2:
        return judge_not(judge_fit((rng.randrange(7),)))
    if kind == 3:
        return judge_not(judge_pair(rng.randrange(7), rng.randrange(7)))
    if kind == 4:
        return HoldsOne(frozenset(rng.sample(DOUBLE_SIX, rng.randint(1, 8))), "fit", "fits", "none")
    return heavy


def brute(model: HandModel, player: str, seq: int, judge: Judge) -> Fraction:
    """The share of the perfect matchings (slot by slot) in which ``judge`` is broken."""
    tiles, slots, exit = model.tiles, model.slots, model.exit
    used = [False] * len(slots)
    hand: list[Tile] = []
    broken = total = 0

    def walk(k: int) -> None:
        nonlocal broken, total
        if k == len(tiles):
            h = frozenset(hand)
            total += 1
            broken += judge(h, h, len(h))[0] is True
            return
        t = tiles[k]
        for i in model.edges[t]:
            if used[i]:
                continue
            used[i] = True
            s = slots[i]
            inside = s.owner == player and s.entry < seq < exit[t]
            if inside:
                hand.append(t)
            walk(k + 1)
            if inside:
                hand.pop()
            used[i] = False

    walk(0)
    assert total
    return Fraction(broken, total)


def a_case(seed: int, n_tiles: int) -> tuple[HandModel, str, int, Judge]:
    rng = random.Random(seed)
    model = random_model(rng, n_tiles)
    return model, rng.choice(PLAYERS), rng.randint(2, 22), random_judge(rng)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), n_tiles=st.integers(4, 9))
def test_the_exact_share_is_the_share_of_every_perfect_matching(seed: int, n_tiles: int) -> None:
    model, player, seq, judge = a_case(seed, n_tiles)
    broken, total = count(Worlds.of(model, player, seq, judge))
    assert Fraction(broken, total) == brute(model, player, seq, judge)
    found = likelihood(model, player, seq, judge)
    assert found is not None and found.exact and found.margin is None and found.samples is None
    assert found.share == broken / total


@settings(max_examples=300, deadline=None)
@given(data=st.data(), ends=st.lists(st.integers(0, 6), min_size=1, max_size=2))
def test_the_trackers_judge_a_known_hand_as_the_judges_do(data: st.DataObject, ends: list[int]) -> None:
    hand = frozenset(data.draw(st.lists(st.sampled_from(DOUBLE_SIX), max_size=9, unique=True)))
    for judge in (
        judge_fit(tuple(ends)),
        judge_pair(ends[0], ends[-1]),
        judge_not(judge_fit(tuple(ends))),
        judge_not(judge_pair(ends[0], ends[-1])),
        heavy,
    ):
        tr = tracker(judge)
        state = tr.start
        for t in sorted(hand):  # one at a time, or all of a role at once: the same
            state = tr.add(state, tr.role(t), 1)
        assert tr.broken(state) == (judge(hand, hand, len(hand))[0] is True)


def test_the_variants_judges_get_compact_trackers() -> None:
    assert type(tracker(judge_fit((3,)))).__name__ == "_One"
    assert type(tracker(judge_pair(1, 2))).__name__ == "_Pair"
    assert type(tracker(judge_not(judge_pair(1, 2)))).__name__ == "_Not"
    assert type(tracker(heavy)).__name__ == "_Any"
    assert isinstance(judge_not(judge_fit(())), Opposite) and isinstance(judge_pair(0, 0), HoldsPair)


def sampled_cases(n: int, n_tiles: int = 9) -> list[tuple[HandModel, str, int, Judge, Fraction]]:
    """``n`` seeded random hands whose share is strictly between 0 and 1, with it (brute force)."""
    out = []
    seed = 0
    while len(out) < n:
        seed += 1
        model, player, seq, judge = a_case(seed, n_tiles)
        share = brute(model, player, seq, judge)
        if 0 < share < 1:
            out.append((model, player, seq, judge, share))
    return out


def test_sampled_shares_lie_within_their_95_percent_margin() -> None:
    cases = sampled_cases(60)
    inside = 0
    for k, (model, player, seq, judge, share) in enumerate(cases):
        est = sample(Worlds.of(model, player, seq, judge), 400, seed=k)
        assert not est.exact and est.samples == 400 and est.margin is not None and 0 < est.margin < 0.25
        assert abs(est.share - float(share)) <= 2.5 * est.margin  # never far out
        inside += abs(est.share - float(share)) <= est.margin
    assert inside >= 0.85 * len(cases)  # 95% intervals: about 57 of 60 (seeded: the same every run)


def test_a_tiny_budget_samples_and_comes_near_the_exact_share() -> None:
    for model, player, seq, judge, share in sampled_cases(15, 10):
        with pytest.raises(Budget):
            count(Worlds.of(model, player, seq, judge), budget=1)
        est = likelihood(model, player, seq, judge, budget=1, samples=3000)
        assert est is not None and not est.exact and est.samples == 3000
        assert abs(est.share - float(share)) < 0.06
        again = likelihood(model, player, seq, judge, budget=1, samples=3000)
        assert again == est  # seeded by the facts: the same figures every time


def test_a_sample_all_one_way_still_has_a_margin() -> None:
    model, player, seq, judge, _ = sampled_cases(1)[0]
    est = sample(Worlds.of(model, player, seq, judge), 5, seed=3)
    assert est.margin is not None and est.margin > 0.1


def test_no_world_no_likelihood() -> None:
    a, b = Tile(1, 2), Tile(3, 4)
    model = HandModel([Slot("Ana", 1), Slot("Ana", 1)], {a: [0], b: [0]}, {a: NEVER, b: NEVER})
    assert not model.feasible
    assert likelihood(model, "Ana", 5, judge_fit((1,))) is None


def test_a_hand_by_hand() -> None:
    """Ana was dealt two tiles (seq 1) and drew one unseen at seq 5; she played 1-2 at seq 9, and the
    reveal shows 3-4 and 5-6. The rule: at seq 7 she held a tile with a 1 (1-2). 1-2 was dealt or
    drawn: with the draw before seq 7 every world has it. Asked at seq 3 (before the draw): 1-2 was
    in her hand only when dealt, which is 2 of the 3 ways to choose the drawn tile."""
    t12, t34, t56 = Tile(1, 2), Tile(3, 4), Tile(5, 6)
    slots = [Slot("Ana", 1), Slot("Ana", 1), Slot("Ana", 5, 5)]
    model = HandModel(slots, {t: [0, 1, 2] for t in (t12, t34, t56)}, {t12: 9, t34: NEVER, t56: NEVER})
    assert likelihood(model, "Ana", 3, judge_fit((1,))) == Likelihood(2 / 3, True)
    assert likelihood(model, "Ana", 7, judge_fit((1,))) == Likelihood(1.0, True)
    # "held two tiles, one with a 1 and another with a 3 or 4": 1-2 and 3-4 both dealt: 1 way of 3
    assert likelihood(model, "Ana", 3, judge_pair(1, 4)) == Likelihood(1 / 3, True)


# -- the chain: a player's own tiles, all known, the draws unseen ------------------------------------


def chain_model(rng: random.Random, n_tiles: int) -> HandModel:
    """Ana's tiles only, all known: a deal (seq 1) and unseen draws; a tile played at seq e was dealt
    or drawn before e; one never played, dealt or drawn at any of them. A world must exist: each
    draw brings a tile played after it."""
    tiles = rng.sample(DOUBLE_SIX, n_tiles)
    k = rng.randint(0, n_tiles - 1)
    seqs = sorted(rng.sample(range(2, 30), k))
    slots = [Slot("Ana", 1)] * (n_tiles - k) + [Slot("Ana", s, s) for s in seqs]
    exit: dict[Tile, int] = {}
    for j, t in enumerate(tiles):  # tile j (of the first k) came at the j-th draw or later
        exit[t] = NEVER if j >= k or rng.random() < 0.3 else rng.randint(seqs[j] + 1, 40)
    edges = {t: [i for i, s in enumerate(slots) if s.entry < exit[t]] for t in tiles}
    return HandModel(slots, edges, exit)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), n_tiles=st.integers(2, 9))
def test_the_chain_in_closed_form_is_the_share_of_every_perfect_matching(seed: int, n_tiles: int) -> None:
    rng = random.Random(seed)
    model = chain_model(rng, n_tiles)
    assert model.feasible
    seq, judge = rng.randint(2, 32), random_judge(rng)
    shape = Shape.of(model)
    parts = relevant(shape, "Ana", seq)
    expected = brute(model, "Ana", seq, judge)
    if len(parts) == 1:
        chain = chain_of(shape, model, next(iter(parts)))
        assert chain is not None  # the facts of one player's own hand are a chain
        assert Fraction(*chain_count(chain, seq, tracker(judge))) == expected
        assert Fraction(*count(Worlds.of(model, "Ana", seq, judge))) == expected
    found = likelihood(model, "Ana", seq, judge)
    assert found is not None and found.exact and found.share == float(expected)


@pytest.mark.parametrize(
    ("variant", "players", "viewer"),
    [("double-draw", 2, None), ("double-draw", 4, None), ("double-draw", 2, "Ana"), ("brettspielnetz", 2, None)],
)
def test_the_chain_and_the_general_count_agree_on_simulated_hidden_matches(
    variant: str, players: int, viewer: str | None
) -> None:
    """Every possible violation of a few honest hidden matches: the closed form, where it applies,
    gives the general count's share exactly. The cases are those whose likelihood the reducer asks: the
    hand's model and each rule its worlds leave open (read from the audit, not by replacing a function of the
    reducer, which the compiled build calls directly)."""
    from dominolog.audit.engine import audit_match

    seen: list[tuple[HandModel, str, int, Judge]] = []
    names = ["Ana", "Ben", "Cleo", "Dev"][:players]
    for k in range(3):
        events = hide_match(simulate_match(variant, "chain", k, names), viewer)
        (log,) = list(iter_matches("m.jsonl", to_bytes(events)))
        for hand in audit_match(log).hands:
            for j in hand.judged:
                if j.decision is not None and j.decision[0] is None and hand.facts.feasible:  # left open
                    seen.append((hand.facts, j.check.player, j.check.seq, j.check.judge))
    chained = 0
    for model, player, seq, judge in seen:
        shape = Shape.of(model)
        parts = relevant(shape, player, seq)
        chain = chain_of(shape, model, next(iter(parts))) if len(parts) == 1 else None
        general = Fraction(*count(Worlds.of(model, player, seq, judge)))
        if chain is not None and chain.owner == player:
            chained += 1
            assert Fraction(*chain_count(chain, seq, tracker(judge))) == general
    assert seen and chained >= len(seen) // 2


def test_no_likelihood_past_a_play_set_aside() -> None:
    """A play of Ana's set aside as a contradiction at seq 3 (``HandModel.unsure``): her hand after it
    is open in a way the worlds do not count (a tile left it, which is not known): no share then."""
    t12, t34 = Tile(1, 2), Tile(3, 4)
    model = HandModel([Slot("Ana", 1), Slot("Ana", 5, 5)], {t: [0, 1] for t in (t12, t34)}, {t12: NEVER, t34: NEVER})
    assert likelihood(model, "Ana", 4, judge_fit((1,))) == Likelihood(0.5, True)  # 1-2 dealt, or drawn at 5
    model.unsure["Ana"] = 3
    assert likelihood(model, "Ana", 3, judge_fit((1,))) == Likelihood(0.5, True)  # just before the play
    assert likelihood(model, "Ana", 4, judge_fit((1,))) is None
