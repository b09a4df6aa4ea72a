"""Issue 15: the review of Brettspielnetz, 39, Double Bergen and Double Draw by sampling deals
(``dominolog.analysis.sampling``): the decisions it finds, the options it values, how it samples the
hidden tiles (never where the player on move could know a tile is not, never from a later event),
its reproducibility, and the console script."""

from __future__ import annotations

import json
from itertools import islice
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.analysis.deals import Skip, Walk
from dominolog.analysis.moves import plan_sampled
from dominolog.analysis.playout import World, apply, gain, name_of, policy
from dominolog.analysis.review import review_match
from dominolog.analysis.sampling import worlds
from dominolog.audit.engine import audit_match
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.reducer import MatchReducer
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import HandState, MatchState
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants import find_variant
from tests.conftest import ROOT, Ran
from tests.helpers import match_log, to_bytes

PLAYERS = {
    "brettspielnetz": ["Ana", "Ben"],
    "39": ["Ana", "Ben"],
    "double-bergen": ["Ana", "Ben", "Cleo"],
    "double-draw": ["Ana", "Ben", "Cleo", "Dev"],
}
TURNS = frozenset({"play", "pass", "draw", "declare", "block_call"})


def _log(events: list[dict[str, Any]]) -> MatchLog:
    (log,) = list(iter_matches("t.jsonl", to_bytes(events)))
    return log


def _simulated(variant: str, seed: int, hide: str = "open", viewer: str | None = None) -> list[dict[str, Any]]:
    events = simulate_match(variant, seed, players=PLAYERS[variant])
    if hide == "spectator":
        return hide_match(events)
    if hide == "viewer":
        return hide_match(events, viewer)
    return events


# -- which moves are decisions -----------------------------------------------------------------------------
def _expected(events: list[dict[str, Any]], hand_number: int) -> list[tuple[int, str, str, str]]:
    """(seq, kind, player, move played) of every decision of the hand, worked out from the fold and the
    variant's legal_actions alone: a turn event with at least two legal options (declarations left
    out), an explicit declare, and in 39 a play that makes a match with no declare after it."""
    reducer = MatchReducer("<t>")
    out: list[tuple[int, str, str, str]] = []
    log = _log(events)
    records = log.records
    for i, rec in enumerate(records):
        state = reducer.state
        hand = state.hand if state is not None else None
        ev = rec.event
        assert ev is not None
        if hand is not None and hand.number == hand_number and ev.type in TURNS:
            assert state is not None and reducer.variant is not None
            player = ev.player  # type: ignore[union-attr]
            legal = [a for a in reducer.variant.legal_actions(state, hand, player) if a["type"] != "declare"]
            reducer.feed(rec)
            after = state.hand
            assert after is not None
            if ev.type == "declare":
                out.append((rec.seq, "declare", player, f"declare {ev.suit}"))  # type: ignore[union-attr]
            elif len(legal) >= 2:
                if ev.type == "play" and ev.tiles is not None:  # type: ignore[union-attr]
                    played = " + ".join(str(Tile.parse(t)) for t in ev.tiles)  # type: ignore[union-attr]
                elif ev.type == "play":
                    placed = after.placements[-1]
                    played = f"{placed.tile} {placed.end}".rstrip()
                else:
                    played = name_of({"type": ev.type})
                out.append((rec.seq, ev.type, player, played))
            if ev.type == "play" and after.extra.get("declare") == player:
                nxt = records[i + 1].event if i + 1 < len(records) else None
                if not (nxt is not None and nxt.type == "declare"):
                    out.append((rec.seq, "declare", player, "no declaration"))
            continue
        reducer.feed(rec)
    return out


@pytest.mark.parametrize(
    ("variant", "seed"), [("brettspielnetz", 3), ("39", 2), ("double-bergen", 1), ("double-draw", 7)]
)
def test_decisions_are_found_at_the_right_seqs_with_the_right_kinds(variant: str, seed: int) -> None:
    events = _simulated(variant, seed)
    review = review_match(_log(events), hand=1, samples=2, seed=5)
    [hand] = review.hands
    assert hand.note is None
    found = [(d.seq, d.kind, d.player, d.played) for d in hand.decisions]
    assert found == _expected(events, 1)
    kinds = {d.kind for d in hand.decisions}
    assert "play" in kinds
    if variant == "39":
        assert "declare" in kinds
    for d in hand.decisions:
        names = [m for m, _ in d.options]
        assert d.played in names and len(names) == len(set(names)) >= 2
        assert d.samples == 2 and len(d.spreads) == len(names)
        assert d.value == dict(d.options)[d.played]
        assert d.best == max(v for _, v in d.options) and d.worst == min(v for _, v in d.options)
        assert d.rank == 1 + sum(v > d.value for _, v in d.options)
        assert d.loss == round(d.best - d.value, 2) >= 0 and (d.loss == 0) == (d.rank == 1)
    assert review.sampling is not None and review.as_dict()["sampling"]["samples"] == 2


def test_a_block_call_is_a_decision_beside_the_other_options() -> None:
    """Double Draw: a dead end makes "blocked game" an option beside the draw or the play; the call
    at seq 22 of this match is one."""
    events = simulate_match("double-draw", 3, players=["Ana", "Ben", "Cleo"])
    call = next(e for e in events if e["type"] == "block_call")
    assert call["seq"] == 22
    review = review_match(_log(events), samples=3, seed=0)
    [hand] = [h for h in review.hands if any(d.seq == 22 for d in h.decisions)]
    assert [(d.seq, d.kind, d.player, d.played) for d in hand.decisions] == _expected(events, hand.number)
    [d] = [d for d in hand.decisions if d.seq == 22]
    assert d.kind == "block_call" and d.played == "block call" and len(d.options) >= 2
    assert {m for m, _ in d.options} - {"block call"} <= {"draw", "pass"} | {m for m, _ in d.options if "+" in m}


# -- one option clearly best -----------------------------------------------------------------------------------
ANA = ["6-6", "2-6", "4-6", "2-2", "4-4", "2-4"]
BEN = ["1-6", "3-6", "1-5", "0-3", "2-5", "0-0"]


def _play(who: str, tile: str, end: str | None = None) -> dict[str, Any]:
    return {"type": "play", "player": who, "tile": tile, **({"end": end} if end else {})}


def _bergen(hidden: bool) -> list[dict[str, Any]]:
    """A Double Bergen hand in which Ana's last tile, 2-4, goes out on three open ends: on the 4-4 it
    makes the 2s count 2 x 1 + 2 = 4 points (D6), elsewhere 3; with the +1 for going out, 5 against 4,
    whatever Ben holds. She plays it on the 2-5 (3 points)."""
    hands = {"Ana": ANA} if hidden else {"Ana": ANA, "Ben": BEN}
    events = [
        {"type": "deal", "leader": "Ana", "hands": hands},
        _play("Ana", "6-6"),
        _play("Ben", "1-6", "6-6:N"),
        _play("Ana", "2-6", "6-6:E"),
        _play("Ben", "3-6", "6-6:S"),
        _play("Ana", "4-6", "6-6:W"),
        _play("Ben", "1-5", "1-6:N"),
        _play("Ana", "2-2", "2-6:E"),
        _play("Ben", "0-3", "3-6:S"),
        _play("Ana", "4-4", "4-6:W"),
        _play("Ben", "2-5", "1-5:N"),
        _play("Ana", "2-4", "2-5:N"),
    ]
    out = match_log(events, variant="double-bergen")
    for i, e in enumerate(out, 1):
        e["seq"] = i
    return out


@pytest.mark.parametrize("hidden", [False, True])
def test_a_clearly_better_option_ranks_first_with_no_loss(hidden: bool) -> None:
    review = review_match(_log(_bergen(hidden)), samples=6, seed=3)
    [hand] = review.hands
    last = hand.decisions[-1]
    assert (last.seq, last.player, last.played) == (13, "Ana", "2-4 2-5:N")
    assert dict(last.options) == {"2-4 2-2:E": 4.0, "2-4 4-4:W": 5.0, "2-4 2-5:N": 4.0}
    assert (last.best_move, last.best, last.rank, last.loss) == ("2-4 4-4:W", 5.0, 2, 1.0)
    assert last.spreads == [0.0, 0.0, 0.0]  # Ben's tiles, sampled or not, change nothing here
    ana = next(p for p in review.summary if p.name == "Ana")
    assert last in ana.mistakes


# -- reproducible ----------------------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_review_and_another_seed_another() -> None:
    log = _log(_simulated("brettspielnetz", 4, "viewer", "Ana"))
    one = review_match(log, samples=4, seed=11).as_dict()
    again = review_match(log, samples=4, seed=11).as_dict()
    other = review_match(log, samples=4, seed=12).as_dict()
    assert one == again

    def values(doc: dict[str, Any]) -> dict[tuple[int, int, str], list[float]]:
        """Ana's decisions (her own hand is in the log: the same decisions whatever the seed)."""
        return {
            (d["hand"], d["seq"], d["kind"]): [o["value"] for o in d["options"]]
            for h in doc["hands"]
            for d in h["decisions"]
            if d["player"] == "Ana"
        }

    mine, changed = values(one), values(other)
    assert mine.keys() == changed.keys() and len(mine) > 10
    differ = [k for k in mine if mine[k] != changed[k]]
    assert len(differ) > len(mine) // 2
    assert one["sampling"] == {"samples": 4, "seed": 11, "policy": one["sampling"]["policy"]}


def test_a_hand_the_log_does_not_show_samples_the_movers_own_hand_and_says_so() -> None:
    """A spectator's log: what a player held is known only from their plays and the reveals; where that
    leaves it open, it is sampled too, keeping the deals in which the move played is legal and valuing
    the options legal in all of them. A draw is never one (it shows the player had no tile to play)."""
    log = _log(_simulated("brettspielnetz", 0, "spectator"))
    review = review_match(log, hand=1, samples=5, seed=0)
    [hand] = review.hands
    assert hand.hidden and hand.note == "the log leaves the mover's own hand open at seq 3, 5: sampled too"
    assert {3, 5} <= {d.seq for d in hand.decisions}
    for d in hand.decisions:
        assert d.samples == 5 and d.played in dict(d.options) and d.kind == "play"


# -- the worlds ------------------------------------------------------------------------------------------------
def _seen_by(events: list[dict[str, Any]], player: str, upto: int) -> list[dict[str, Any]]:
    """The log up to seq ``upto`` as ``player`` saw it (written here, apart from the module's own)."""
    out = []
    for e in events:
        if e["seq"] > upto:
            break
        e = {k: v for k, v in e.items() if k != "hash"}
        if e["type"] == "deal":
            hands = e.get("hands") or {}
            e["hands"] = {player: hands[player]} if hands.get(player) is not None else None
        elif e["type"] == "draw" and e["player"] != player:
            e["tile"] = None
        out.append(e)
    return out


def _truth(events: list[dict[str, Any]], at: int) -> tuple[MatchState, HandState]:
    """The full-information state after seq ``at`` (the simulated match before it was hidden)."""
    reducer = MatchReducer("<truth>")
    for rec in _log(events).records:
        if rec.seq > at:
            break
        reducer.feed(rec)
    assert reducer.state is not None and reducer.state.hand is not None
    return reducer.state, reducer.state.hand


def _check_world(w: World, knows: dict[str, tuple[frozenset[Tile], frozenset[Tile], int]], table: set[Tile]) -> None:
    hand = w.hand
    seen: set[Tile] = set(hand.layout.on_board)
    assert seen == table
    for p, (holds, may, count) in knows.items():
        tiles = hand.holdings[p].known
        assert hand.holdings[p].unknown == 0 and len(tiles) == count
        assert holds <= tiles <= holds | may, (p, sorted(tiles), sorted(holds), sorted(may))
        assert not tiles & seen
        seen |= tiles
    bone = hand.boneyard.known
    assert hand.boneyard.unknown == 0 and not bone & seen and seen | bone == set(DOUBLE_SIX)
    assert sorted(w.order) == sorted(bone)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(sorted(PLAYERS)),
    seed=st.integers(0, 10_000),
    hide=st.sampled_from(["open", "spectator", "viewer"]),
    pick=st.integers(0, 10_000),
)
def test_every_sampled_world_agrees_with_what_the_mover_could_know(
    variant: str, seed: int, hide: str, pick: int
) -> None:
    """Each world puts every tile where the knowledge engine, given the log up to the decision as the player
    on move saw it, says it may be; the mover's own hand is theirs; the table and the counts are the
    fold's; and the worlds do not change when the log is cut right after the decision."""
    players = PLAYERS[variant]
    viewer = players[pick % len(players)]
    full = simulate_match(variant, seed, players=players)
    events = hide_match(full, viewer if hide == "viewer" else None) if hide != "open" else full
    plan = plan_sampled(_log(events))
    moves = [(h, m) for h in plan.hands for m in h.moves if m.played is not None]
    h, move = moves[pick % len(moves)]
    walk = Walk(h)
    try:
        known = walk.knowledge(move)
    except Skip:
        return  # not on move (Double Bergen's opening): no worlds drawn
    drawn = list(islice(worlds(h, move, known, seed), 3))
    view = audit_match(_log(_seen_by(events, move.player, move.at)))
    ha = view.hands[-1]
    assert ha.number == h.number
    knows = {p: ha.knowledge(p, move.at) for p in players}
    table = set(move.hand.layout.on_board)
    shown = hide == "open" or (hide == "viewer" and move.player == viewer)
    for w in drawn:
        _check_world(w, knows, table)
        assert w.hand.points == move.hand.points and w.hand.turn == move.hand.turn
    if not shown:
        whole = audit_match(_log(events)).hands[h.number - 1]
        holds, may, _ = whole.knowledge(move.player, move.at)
        for w in drawn:
            assert holds <= w.hand.holdings[move.player].known <= holds | may
        return
    # the mover's own hand is the one they held (the log shows it)
    own = _truth(events, move.at)[1].holdings[move.player]
    assert own.unknown == 0
    assert all(w.hand.holdings[move.player].known == own.known for w in drawn)
    # cut the log right after the decision: the same worlds
    cut = plan_sampled(_log([e for e in events if e["seq"] <= move.seq]))
    h2 = next(x for x in cut.hands if x.number == h.number)
    move2 = next(m for m in h2.moves if (m.seq, m.kind, m.implicit) == (move.seq, move.kind, move.implicit))
    again = list(islice(worlds(h2, move2, Walk(h2).knowledge(move2), seed), 3))
    for a, b in zip(drawn, again, strict=True):
        assert {p: x.known for p, x in a.hand.holdings.items()} == {p: x.known for p, x in b.hand.holdings.items()}
        assert a.order == b.order


def test_an_open_log_keeps_the_other_hands_from_the_mover() -> None:
    """The log shows every hand, but the player on move saw only their own: the worlds deal the others
    anew (never simply the hands the log shows)."""
    events = _simulated("39", 5)
    plan = plan_sampled(_log(events))
    h = plan.hands[0]
    move = h.moves[0]
    known = Walk(h).knowledge(move)
    _, real = _truth(events, move.at)
    other = next(p for p in h.players if p != move.player)
    drawn = list(islice(worlds(h, move, known, 0), 6))
    assert all(w.hand.holdings[move.player].known == real.holdings[move.player].known for w in drawn)
    assert len({frozenset(w.hand.holdings[other].known) for w in drawn}) > 1
    assert any(w.hand.holdings[other].known != real.holdings[other].known for w in drawn)


# -- the playout's policy ------------------------------------------------------------------------------------
def test_the_quick_policy_picks_what_legal_actions_would_and_gains_are_the_rules_points() -> None:
    """The policy's short cut in the spinner games (weigh the matching ends, test room for the best
    only) picks the same action as weighing every legal play; the points it weighs a play by are
    those the variant's on_play adds."""
    compared = gains = 0

    def check(match: MatchState, hand: HandState, player: str, actions: list[dict[str, Any]]) -> None:
        nonlocal compared, gains
        variant = find_variant(match.variant)(match.players, match.options)
        w = World(match, hand.clone(), tuple(sorted(hand.boneyard.known)))
        assert policy(w, variant, player, True) == policy(w, variant, player, False)
        compared += 1
        for a in actions:
            if a["type"] == "play" and a.get("end"):
                probe = World(match, hand.clone(), w.order)
                before = probe.hand.points[player]
                apply(probe, variant, a, 0)
                assert probe.hand.points[player] - before == gain(variant, hand, a)
                gains += 1
        return None

    for variant, seed in (("39", 1), ("double-bergen", 2), ("double-bergen", 3)):
        simulate_match(variant, seed, players=PLAYERS[variant][:2] if seed == 3 else PLAYERS[variant], policy=check)
    assert compared > 200 and gains > 500


# -- the console script ----------------------------------------------------------------------------------------
def test_console_script_json_with_samples_and_spread(cli: Any) -> None:
    path = ROOT / "replays" / "double-draw-simulated.jsonl"
    done: Ran = cli("analyze", path, "--match", 1, "--samples", 4, "--seed", 1, "--format", "json")
    assert done.code == 0, done.err
    doc = json.loads(done.out)
    assert doc["variant"] == "double-draw" and doc["method"] == "sampled"
    assert doc["sampling"]["samples"] == 4 and doc["sampling"]["seed"] == 1
    decisions = [d for h in doc["hands"] for d in h["decisions"]]
    assert decisions
    for d in decisions:
        assert d["samples"] == 4 and isinstance(d["spread"], float)
        assert all(set(o) == {"move", "value", "spread", "samples"} and o["samples"] == 4 for o in d["options"])
    assert any(d["spread"] > 0 for d in decisions)
    two = cli("analyze", path, "--match", 1, "--samples", 4, "--seed", 1, "--format", "json", "--jobs", 2)
    assert two.code == 0 and two.stdout == done.stdout
    text = cli("analyze", path, "--match", 1, "--samples", 4, "--seed", 1, "--hand", 2)
    assert text.code == 0 and "Sampled: 4 deals a decision (seed 1)" in text.out and "±" in text.out
