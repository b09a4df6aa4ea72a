"""The facts of one hand's log as a :class:`~dominolog.knowledge.model.HandModel`.

Built from two states the reducer already has: the hand right after its deal
(``start``: what the deal showed) and the hand now (``end``: its standing plays and
draws, what is known of each hand, reveals included). Undone events are not in
``end``, so they are no facts.
"""

from __future__ import annotations

from dominolog.knowledge.model import NEVER, HandModel, Slot
from dominolog.state import HandState
from dominolog.tiles import DOUBLE_SIX, Tile


def hand_model(start: HandState, end: HandState) -> HandModel:
    """The worlds consistent with the hand's facts (no rule of play assumed)."""
    players = list(start.holdings)
    on_board_at_start = set(start.layout.on_board)
    slots: list[Slot] = []
    deal_slots: dict[str, list[int]] = {}
    for p in players:
        deal_slots[p] = list(range(len(slots), len(slots) + start.holdings[p].count))
        slots.extend(Slot(p, start.deal_seq) for _ in range(start.holdings[p].count))
    draw_slot: dict[int, int] = {}
    seen_draw: dict[Tile, int] = {}
    for seq, p, tile in end.draws:
        draw_slot[seq] = len(slots)
        slots.append(Slot(p, seq, seq))
        if tile is not None:
            seen_draw[tile] = len(slots) - 1
    bone_slots = list(range(len(slots), len(slots) + end.boneyard.count))
    slots.extend(Slot(None, 0) for _ in bone_slots)

    played: dict[Tile, tuple[str, int]] = {}
    for pl in end.placements:
        played.setdefault(pl.tile, (pl.player, pl.seq))
    end_holder: dict[Tile, str | None] = {}
    for p, h in end.holdings.items():
        for t in h.known:
            end_holder[t] = p
    for t in end.boneyard.known:
        end_holder[t] = None
    dealt_to = {t: p for p, h in start.holdings.items() for t in h.known}
    could_deal = start.unaccounted
    could_draw = start.unaccounted | start.boneyard.known

    def owner_ok(t: Tile, p: str) -> bool:
        if t in played:
            return played[t][0] == p
        if t in end_holder:
            return end_holder[t] == p
        return end.holdings[p].unknown > 0 and t in end.unaccounted

    edges: dict[Tile, list[int]] = {}
    exit: dict[Tile, int] = {}
    for t in DOUBLE_SIX:
        if t in on_board_at_start:
            continue
        exit[t] = played[t][1] if t in played else NEVER
        if t in seen_draw:
            edges[t] = [seen_draw[t]]
            continue
        if t in dealt_to:
            edges[t] = list(deal_slots[dealt_to[t]])
            continue
        out: list[int] = []
        if t in could_deal:
            for p in players:
                if start.holdings[p].unknown and owner_ok(t, p):
                    out.extend(deal_slots[p])
        if t in could_draw:
            for seq, p, tile in end.draws:
                if tile is None and exit[t] > seq and owner_ok(t, p):
                    out.append(draw_slot[seq])
        if t not in played and (
            end_holder.get(t, "") is None or (t not in end_holder and end.boneyard.unknown and t in end.unaccounted)
        ):
            out.extend(bone_slots)
        edges[t] = out
    return HandModel(slots, edges, exit)


def count_after(start: HandState, end: HandState, player: str, seq: int) -> int:
    """How many tiles ``player`` held after the event at ``seq`` (by the standing events)."""
    n = start.holdings[player].count
    n += sum(1 for s, p, _ in end.draws if p == player and s <= seq)
    n -= sum(1 for pl in end.placements if pl.player == player and pl.seq <= seq)
    return n
