"""A hidden hand's unverified rules judged in the worlds its log allows (:mod:`dominolog.knowledge`),
the hands the facts fill, and the words that show a rule broken (for
:class:`~dominolog.reducer.hands.HandLifecycle`)."""

from __future__ import annotations

from bisect import bisect_right

from dominolog.knowledge import NEVER, Before, HandModel
from dominolog.state import HandState, PendingCheck
from dominolog.tiles import Tile
from dominolog.variants.judges import Decision, HoldsOne, HoldsPair, decide, judge_tiles, names


def decide_check(model: HandModel, check: PendingCheck) -> Decision | None:
    """``check``'s verdict in the worlds of ``model`` (None: no world, or a judge that cannot be asked
    so). Past a play of the player's that was set aside, the hand is left open: never certain."""
    if not model.feasible:
        return None
    before = Before(model, check.player, check.seq)
    decision = decide(check.judge, before)
    if decision is not None and decision[0] is not None and model.is_unsure(check.player, check.seq - 1):
        return None, before.possible(judge_tiles(check.judge))
    return decision


def decide_checks(model: HandModel, checks: list[PendingCheck]) -> list[Decision | None]:
    """Each of ``checks`` judged as :func:`decide_check` judges it, the same verdicts and tiles.

    A player's rules of a run of draws are the same rule (the ends do not move while nobody plays) of
    a hand that only grows: the hand just before a later draw is the hand before an earlier one plus
    the tiles drawn between, in every world, as long as no tile that can be in that hand leaves it
    between the two. A rule "holds one of these tiles" or "holds a pair play" broken by the smaller
    hand is broken by the larger one; so, taken from the last back: when no world breaks the later
    rule, none breaks the earlier one (not broken, no tile named); when some world keeps the later
    rule, that world keeps the earlier one too, and only whether some world breaks it is left to ask
    (:meth:`~dominolog.variants.judges.HoldsPair.decide_kept_somewhere`)."""
    out: list[Decision | None] = [None] * len(checks)
    exits = sorted(model.exit.values())
    #: player -> the latest rule judged so far (taken from the last back) that says something of
    #: the earlier ones: (the check, its verdict)
    later: dict[str, tuple[PendingCheck, bool | None]] = {}
    for k in sorted(range(len(checks)), key=lambda k: checks[k].seq, reverse=True):
        check = checks[k]
        judge, player = check.judge, check.player
        decision: Decision | None = None
        carried = False
        found = later.get(player)
        if (
            found is not None
            and found[0].judge is judge
            and isinstance(judge, (HoldsOne, HoldsPair))
            and model.feasible
            and not model.is_unsure(player, check.seq - 1)
            and _hand_grows(model, exits, player, check.seq, found[0].seq)
        ):
            carried = True
            if found[1] is False:
                decision = False, frozenset()
            else:
                decision = judge.decide_kept_somewhere(Before(model, player, check.seq))
        else:
            decision = decide_check(model, check)
        out[k] = decision
        if (
            decision is not None
            and decision[0] is not True
            and (carried or (model.feasible and not model.is_unsure(player, check.seq - 1)))
        ):
            later[player] = (check, decision[0])
        else:
            later.pop(player, None)
    return out


def _hand_grows(model: HandModel, exits: list[int], player: str, early: int, late: int) -> bool:
    """Whether ``player``'s hand just before ``late`` holds, in every world, the hand just before
    ``early`` (``early <= late``): no tile that can be in the earlier hand leaves it in between."""
    if bisect_right(exits, early) == bisect_right(exits, late):
        return True  # no tile leaves any hand in between
    entered = model.entered(player, early)
    return not any(
        early < model.exit[t] <= late and not entered.isdisjoint(model.allowed.get(t, ())) for t in model.tiles
    )


def fill_hands(model: HandModel, hand: HandState) -> None:
    """Fill in each hidden hand that the facts leave only one way to fill (at the hand's end)."""
    if not model.feasible:
        return
    for p, h in hand.holdings.items():
        if not h.unknown:
            continue
        holds, may = model.knowledge(p, NEVER - 1)
        if may or len(holds) != h.count or not h.known <= holds:
            continue
        hand.unaccounted -= holds - h.known
        h.known = set(holds)
        h.unknown = 0
    hand.settle()


def shown_by(check: PendingCheck, tiles: frozenset[Tile], model: HandModel) -> str:
    """In a few words, what shows a rule broken: the tiles surely held, as the rule's own judge says
    it, or the tiles one of which the hand must have held."""
    if not tiles:  # broken for holding nothing that fits: the rule's own words for an empty hand
        verdict, detail = check.judge(frozenset(), frozenset(), 0)
        return detail if verdict else f"{check.player} held no tile that could be played"
    before = Before(model, check.player, check.seq)
    sure = before.certain(tiles)
    verdict, detail = check.judge(sure, sure, len(sure)) if sure else (None, "")
    if verdict:
        return detail
    # The tiles the player is seen with later (played, or revealed) are the proof an arbiter can check.
    later = frozenset(
        t
        for t in before.possible(tiles)
        if model.allowed.get(t) and all(model.slots[i].owner == check.player for i in model.allowed[t])
    )
    if later and later < tiles and not before.avoidable(later):
        return f"{check.player} must have held one of {names(later)}, each seen later in {check.player}'s hand"
    return f"{check.player} must have held one of {names(tiles)}"
