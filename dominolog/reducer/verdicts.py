"""A hidden hand's unverified rules judged in the worlds its log allows (:mod:`dominolog.knowledge`),
the hands the facts fill, and the words that show a rule broken (for
:class:`~dominolog.reducer.hands.HandLifecycle`)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from dominolog.knowledge import NEVER, Before, HandModel
from dominolog.state import HandState, PendingCheck
from dominolog.tiles import Tile
from dominolog.variants.judges import Decision, HoldingRule, decide, judge_tiles, named, names


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
    """Each of ``checks`` judged as :func:`decide_check` judges it: the same verdicts and tiles, with
    fewer questions to the worlds.

    A player's rules of a run of draws are most often the same rule (the ends do not move while
    nobody plays) of a hand that only grows: the hand just before a later draw is, in every world,
    the hand before an earlier one plus the tiles drawn in between, as long as no tile that can be
    in the hand leaves it in between. A rule broken by holding (:class:`~dominolog.variants.judges.
    HoldingRule`) that some world breaks for the smaller hand, that world breaks for the larger; one
    that some world keeps for the larger hand, that world keeps for the smaller. So along a run
    "broken in some world" is false up to a rule and true from it on, and "kept in some world" true
    up to a rule and false after it: each is found by bisection (the ends asked first: most runs are
    broken somewhere from the first rule and kept somewhere up to the last), and every rule of the
    run takes its verdict from where it stands, as :meth:`~dominolog.variants.judges.HoldingRule.
    decide` would give it. A hand left open by a play set aside (:meth:`~dominolog.knowledge.model.
    HandModel.is_unsure`) is judged alone."""
    out: list[Decision | None] = [None] * len(checks)
    exits = sorted(model.exit.values())
    for run in _runs(model, exits, checks):
        judge = checks[run[0]].judge
        if len(run) == 1 or not isinstance(judge, HoldingRule):
            for k in run:
                out[k] = decide_check(model, checks[k])
            continue
        hands = [Before(model, checks[k].player, checks[k].seq) for k in run]
        for k, decision in zip(run, _judge_run(judge, hands), strict=True):
            out[k] = decision
    return out


def _judge_run(judge: HoldingRule, hands: list[Before]) -> list[Decision]:
    """The verdicts of ``judge`` for each of ``hands``, a run in which the hand only grows (see
    :func:`decide_checks`)."""
    first = _first(len(hands), lambda j: judge.broken_somewhere(hands[j]))
    last = _first(len(hands), lambda j: not judge.kept_somewhere(hands[j])) - 1 if first < len(hands) else -1
    out: list[Decision] = []
    for j, hand in enumerate(hands):
        if j < first:
            out.append((False, frozenset()))
        elif j <= last:
            out.append((None, judge.shown(hand, None)))
        else:
            out.append((True, judge.shown(hand, True)))
    return out


def _runs(model: HandModel, exits: list[int], checks: list[PendingCheck]) -> list[list[int]]:
    """``checks`` (by index) in runs, in order of seq: each a player's rules with the same judge, the
    hand growing from one to the next (:func:`_hand_grows`), none left open by a play set aside; a
    rule that is in no run is a run of its own."""
    runs: list[list[int]] = []
    #: (player, judge) -> the run still open for it
    open_runs: dict[tuple[str, object], list[int]] = {}
    for k in sorted(range(len(checks)), key=lambda k: checks[k].seq):
        check = checks[k]
        if not model.feasible or model.is_unsure(check.player, check.seq - 1):
            runs.append([k])
            continue
        key = (check.player, check.judge)
        run = open_runs.get(key)
        if run is not None and _hand_grows(model, exits, check.player, checks[run[-1]].seq, check.seq):
            run.append(k)
            continue
        run = open_runs[key] = [k]
        runs.append(run)
    return runs


def _first(n: int, holds: Callable[[int], bool]) -> int:
    """The first of ``0 .. n - 1`` at which ``holds`` is true (false before it, true from it on), or
    ``n``: the ends asked first, then by bisection."""
    if holds(0):
        return 0
    if not holds(n - 1):
        return n
    low, high = 1, n - 1  # holds(low - 1) is false, holds(high) true
    while low < high:
        mid = (low + high) // 2
        if holds(mid):
            high = mid
        else:
            low = mid + 1
    return low


def _hand_grows(model: HandModel, exits: list[int], player: str, early: int, late: int) -> bool:
    """Whether ``player``'s hand just before ``late`` holds, in every world, the hand just before
    ``early`` (``early <= late``): no tile that can be in the earlier hand leaves it in between."""
    if bisect_right(exits, early) == bisect_right(exits, late):
        return True  # no tile leaves any hand in between
    entered, allowed, exit = model.entered_bits(player, early), model.allowed_bits(), model.exit
    return not any(early < exit[t] <= late and entered & allowed.get(t, 0) for t in model.tiles)


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


def shown_by(check: PendingCheck, tiles: frozenset[Tile], model: HandModel) -> tuple[str, tuple[Tile, ...]]:
    """In a few words, what shows a rule broken: the tiles surely held, as the rule's own judge says
    it, or the tiles one of which the hand must have held; and the tiles those words name."""
    if not tiles:  # broken for holding nothing that fits: the rule's own words for an empty hand
        verdict, detail, named_ = check.judge(frozenset(), frozenset(), 0)
        return (detail, named_) if verdict else (f"{check.player} held no tile that could be played", ())
    before = Before(model, check.player, check.seq)
    sure = before.certain(tiles)
    verdict, detail, named_ = check.judge(sure, sure, len(sure)) if sure else (None, "", ())
    if verdict:
        return detail, named_
    # The tiles the player is seen with later (played, or revealed) are the proof an arbiter can check.
    later = frozenset(
        t
        for t in before.possible(tiles)
        if model.allowed.get(t) and all(model.slots[i].owner == check.player for i in model.allowed[t])
    )
    if later and later < tiles and not before.avoidable(later):
        return (
            f"{check.player} must have held one of {names(later)}, each seen later in {check.player}'s hand",
            named(later),
        )
    return f"{check.player} must have held one of {names(tiles)}", named(tiles)
