"""Passes and draws taken as honest: rules "``player`` held none of ``tiles`` just before ``seq``"
laid over a hand's facts (:class:`~dominolog.knowledge.model.HandModel`). The audit engine takes
them to show what each player could hold; the analysis takes them, from one player's view, to draw
the deals that player could have faced."""

from __future__ import annotations

from dominolog.knowledge.model import HandModel, Slot
from dominolog.tiles import Tile

#: (player, seq, tiles): ``player`` held none of ``tiles`` just before ``seq``
Rule = tuple[str, int, frozenset[Tile]]


def with_rules(facts: HandModel, rules: list[Rule]) -> HandModel:
    """The facts with every rule of ``rules`` taken as kept (may leave no world)."""
    exit = facts.exit

    def forbid(t: Tile, s: Slot) -> bool:
        return any(t in tiles and s.owner == p and s.entry < seq < exit[t] for p, seq, tiles in rules)

    return facts.without(forbid)


def kept_rules(facts: HandModel, rules: list[Rule]) -> HandModel:
    """The facts with the rules taken as kept: all at once when some world keeps them all (the common
    case), else one by one in order, each kept when it leaves a world (two reneges that cannot both
    have been honest: the later one is not taken)."""
    if not facts.feasible or not rules:
        return facts
    every = with_rules(facts, rules)
    if every.feasible:
        return every
    model = facts
    for rule in rules:
        narrower = with_rules(model, [rule])
        if narrower.feasible:
            model = narrower
    return model
