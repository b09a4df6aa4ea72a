"""Checking the knowledge engine against the truth: a simulated match is played with every tile
known, recorded hidden as a table sees it, audited, and what the audit says each player could hold
is compared with what they held (``tests/test_knowledge.py``, ``bench/bench_knowledge.py --check``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dominolog.audit.engine import MatchAudit
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import MatchReducer
from dominolog.tiles import Tile

TURNS = frozenset({"play", "draw", "pass", "declare", "block_call"})

Truth = dict[int, list[dict[str, frozenset[Tile]]]]


def log_of(events: list[dict[str, Any]], name: str = "<simulated>.jsonl") -> MatchLog:
    """The one match of ``events``, read as a file of them would be."""
    data = "".join(dump_line(e) + "\n" for e in events).encode()
    (log,) = list(iter_matches(name, data))
    return log


def true_hands(events: list[dict[str, Any]]) -> Truth:
    """Per hand number, every player's true hand after the deal and after each turn event, in order
    (``events``: a full-information match)."""
    reducer = MatchReducer("<full>")
    out: Truth = {}
    for rec in log_of(events).records:
        reducer.feed(rec)
        hand = reducer.state.hand if reducer.state else None
        if hand is not None and rec.event is not None and (rec.event.type == "deal" or rec.event.type in TURNS):
            out.setdefault(hand.number, []).append({p: frozenset(h.known) for p, h in hand.holdings.items()})
    return out


def alongside(audit: MatchAudit, truth: Truth) -> Iterator[tuple[int, int, str, frozenset[Tile]]]:
    """(hand, seq, player, true hand after that event) for every event of the audited hidden log and
    every player. The hidden log has the same turn events in the same order as the full one (it only
    adds confirming passes and reveals at the end of a hand)."""
    for ha in audit.hands:
        k = -1
        for view in ha.events:
            ev = view.record.event
            if ev is not None and (ev.type == "deal" or ev.type in TURNS):
                k += 1
            real = truth[ha.number][min(max(k, 0), len(truth[ha.number]) - 1)]
            for p, tiles in real.items():
                yield ha.number, view.record.seq, p, tiles


def unsound(audit: MatchAudit, truth: Truth) -> tuple[int, list[tuple[int, int, str]]]:
    """How many (event, player) pairs were checked, and (hand, seq, player) wherever the audit is not
    sound: ``holds`` not inside the true hand, the true hand not inside ``holds`` + ``may_hold``, the
    two overlapping, or a wrong count."""
    checked = 0
    bad: list[tuple[int, int, str]] = []
    hands = {ha.number: ha for ha in audit.hands}
    for number, seq, p, tiles in alongside(audit, truth):
        holds, may, count = hands[number].knowledge(p, seq)
        checked += 1
        if not (holds <= tiles <= holds | may and count == len(tiles) and not holds & may):
            bad.append((number, seq, p))
    return checked, bad
