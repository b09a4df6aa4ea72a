"""Random legal matches, played by the reducer itself so that every claim is right.

Each match is driven through a :class:`~dominolog.reducer.MatchReducer`: the
simulator asks the variant for the legal plays of the player on move, picks
one at random, and writes the ``hand_end``/``match_end`` claims the rules give.
The same seed gives the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from dominolog.events import parse_event
from dominolog.log.hashchain import add_hashes
from dominolog.log.reader import Record
from dominolog.log.writer import dump_line
from dominolog.reducer import MatchReducer
from dominolog.state import HandState, MatchState
from dominolog.tiles import DOUBLE_SIX
from dominolog.variants import find_variant

DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dev")
_EPOCH = datetime(2026, 1, 1, 18, 0, 0, tzinfo=UTC)


def _feed(reducer: MatchReducer, event: dict[str, Any]) -> None:
    """Apply one event object to the reducer as the next record of its match."""
    n = reducer.events + 1
    reducer.feed(Record(n, n, b"", value=event, event=parse_event(event)))


class _Recorder:
    def __init__(self, rng: random.Random, start: datetime) -> None:
        self.reducer = MatchReducer("<simulate>")
        self.events: list[dict[str, Any]] = []
        self.rng = rng
        self.clock = start

    def emit(self, event: dict[str, Any]) -> None:
        self.clock += timedelta(seconds=self.rng.randint(3, 40))
        event = {"type": event["type"], "seq": len(self.events) + 1, **{k: v for k, v in event.items() if k != "type"}}
        event["at"] = self.clock.strftime("%Y-%m-%dT%H:%M:%SZ")
        self.events.append(event)
        _feed(self.reducer, event)


#: Chooses a player's action instead of the random legal one (None: leave it to chance).
#: Called with the match, the hand, the player on move and the legal actions.
Policy = Callable[[MatchState, HandState, str, list[dict[str, Any]]], dict[str, Any] | None]


def simulate_match(
    variant_name: str,
    seed: int | str,
    index: int = 0,
    players: list[str] | None = None,
    options: dict[str, Any] | None = None,
    policy: Policy | None = None,
) -> list[dict[str, Any]]:
    """One random legal full-information match, as event objects with hashes.

    A ``policy`` may take over some turns (to stage a dispute: a renege, a slip);
    claims are still the rules' results of what was played.
    """
    rng = random.Random(f"{variant_name}:{seed}:{index}")
    cls = find_variant(variant_name)
    names = list(players or DEFAULT_NAMES[: cls.min_players])
    rec = _Recorder(rng, _EPOCH + timedelta(days=index))
    start: dict[str, Any] = {
        "type": "match_start",
        "variant": variant_name,
        "players": names,
        "id": f"sim-{variant_name}-{seed}-{index + 1}",
        "meta": {"event": "simulated", "seed": str(seed)},
    }
    if options:
        start["options"] = dict(options)
    rec.emit(start)
    reducer = rec.reducer
    state, variant = reducer.state, reducer.variant
    if state is None or variant is None:
        raise ValueError(f"cannot simulate {variant_name} with players {names} and options {options}")
    while not state.over:
        tiles = list(DOUBLE_SIX)
        rng.shuffle(tiles)
        rec.emit(variant.simulate_deal(state, tiles, rng))
        hand = state.hand
        assert hand is not None
        while hand.over is None:
            player = hand.turn
            assert player is not None
            actions = variant.legal_actions(state, hand, player)
            calls = [a for a in actions if a["type"] == "block_call"]
            chosen = policy(state, hand, player, actions) if policy is not None else None
            if chosen is not None:
                action = chosen
            elif calls and (len(calls) == len(actions) or rng.random() < 0.75):
                action = calls[0]
            else:
                choices = [a for a in actions if a["type"] != "block_call"]
                # a lone pass or draw takes no random choice (so older seeds give the same matches)
                action = choices[0] if len(choices) == 1 and choices[0]["type"] != "play" else rng.choice(choices)
            if action["type"] == "play" and "tile" in action and "end" not in action and rng.random() < 0.5:
                tile = action["tile"]
                action = {**action, "tile": f"{tile[2]}-{tile[0]}"}  # the first tile, either way round
            if action["type"] == "draw" and "tile" not in action:
                action = {**action, "tile": str(rng.choice(sorted(hand.boneyard.known)))}
            rec.emit(action)
            hand = state.hand
            assert hand is not None
        result = variant.score_hand(state, hand, reducer.ctx)
        assert result is not None
        rec.emit({"type": "hand_end", "points": result.points, "winner": result.winner})
    winner = variant.match_winner(state)
    rec.emit({"type": "match_end", "totals": dict(state.totals), "winner": winner})
    return add_hashes(rec.events)


def simulate_lines(
    variant_name: str,
    matches: int,
    seed: int | str,
    players: list[str] | None = None,
    options: dict[str, Any] | None = None,
    hide: bool = False,
    viewer: str | None = None,
) -> Iterator[str]:
    """The log lines of ``matches`` simulated matches (as a table recorder saw them, with ``hide``)."""
    for k in range(matches):
        events = simulate_match(variant_name, seed, k, players, options)
        if hide:
            events = hide_match(events, viewer)
        for event in events:
            yield dump_line(event)


def hide_match(events: list[dict[str, Any]], viewer: str | None = None) -> list[dict[str, Any]]:
    """The same match as a table recorder sees it: hands and draws not seen, reveals at the end.

    ``viewer`` names a player whose own hand and draws the recorder sees (a player
    recording their own game); by default nobody's. Ghost 13 locks become
    confirmed locks (a pass by each player after the locking play), and every
    player whose tiles are not all known reveals them before ``hand_end``. The
    result must verify to the same hands and totals as the full match.
    """
    reducer = MatchReducer("<hide>")
    out: list[dict[str, Any]] = []

    def add(e: dict[str, Any]) -> None:
        e = {k: v for k, v in e.items() if k not in ("hash", "seq")}
        out.append(e)

    for e in events:
        body = {k: v for k, v in e.items() if k != "hash"}
        state = reducer.state
        if e["type"] == "hand_end" and state is not None and state.hand is not None:
            hand = state.hand
            if state.variant == "ghost13" and hand.over == "block" and hand.consecutive_passes < 2:
                p = hand.turn or state.players[0]
                q = state.next_player(p)
                add({"type": "pass", "player": p})
                add({"type": "pass", "player": q})
            for p in state.players:
                tiles = sorted(hand.holdings[p].known)
                if tiles and p != viewer:
                    add({"type": "reveal", "player": p, "tiles": [str(t) for t in tiles]})
        _feed(reducer, body)
        if e["type"] == "deal":
            body = dict(body)
            hands = body.get("hands") or {}
            body["hands"] = {viewer: hands.get(viewer)} if viewer in hands else None
        elif e["type"] == "draw" and e.get("player") != viewer:
            body = {**body, "tile": None}
        add(body)
    for i, e in enumerate(out, 1):
        e_seq = {"type": e["type"], "seq": i}
        e_seq.update((k, v) for k, v in e.items() if k != "type")
        out[i - 1] = e_seq
    return add_hashes(out)
