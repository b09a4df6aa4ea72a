"""One fold of a match that keeps what an audit needs: every event's table, each hand's facts as a
:class:`~dominolog.knowledge.HandModel`, what each player could hold after every event, and each
rule hidden tiles kept open with its verdict in every world the log allows.

Knowledge (``holds`` / ``may_hold``) uses the facts and, on top of them, the passes and draws
taken as honest (a player who passed held no playable tile then) wherever the facts leave that
possible; the verdicts use the facts alone, so a pass is never judged by assuming another honest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dominolog.audit.scoring import ScoredHand, scoring_reducer
from dominolog.knowledge import Before, HandModel, count_after, hand_model
from dominolog.knowledge.honest import Rule, kept_rules, with_rules
from dominolog.log.reader import MatchLog, Record
from dominolog.reducer import MatchReducer, MatchReport
from dominolog.state import HandResult, HandState, Issue, PendingCheck
from dominolog.tiles import Tile
from dominolog.variants.judges import Decision, HoldsOne

CLOSES_A_HAND = frozenset({"hand_end", "deal", "match_end"})


@dataclass(slots=True)
class EventView:
    """One record of the match as the audit shows it."""

    record: Record
    hand: int | None
    ends: tuple[int, ...] | None = None
    turn: str | None = None
    boneyard: int | None = None
    layout: object | None = None
    retracted: bool = False


@dataclass(slots=True)
class Judged:
    """An unverified rule of a hand and its verdict in the worlds of the log (None: not decidable so)."""

    issue: Issue
    check: PendingCheck
    decision: Decision | None


@dataclass
class HandAudit:
    """One hand: its states after the deal and at its end, its facts, and the verdicts on its rules."""

    number: int
    start: HandState
    end: HandState
    facts: HandModel
    known: HandModel
    judged: list[Judged]
    result: HandResult | None = None
    #: the hand as the rules scored it (reveals and the facts filled in) and its claim, when scored
    scored: ScoredHand | None = None
    end_seq: int | None = None
    events: list[EventView] = field(default_factory=list)

    @property
    def players(self) -> list[str]:
        return list(self.start.holdings)

    def knowledge(self, player: str, seq: int) -> tuple[frozenset[Tile], frozenset[Tile], int]:
        """What ``player`` certainly held, may also have held, and how many tiles, after event ``seq``."""
        count = self.count(player, seq)
        model = self.known if self.known.feasible else self.facts
        if not model.feasible:  # the facts contradict each other: what the fold knew going forward
            h = self.end.holdings[player]
            return frozenset(), frozenset(self.end.possible(player)) if h.unknown else frozenset(h.known), count
        holds, may = model.knowledge(player, seq)
        return holds, may, count

    def count(self, player: str, seq: int) -> int:
        """How many tiles ``player`` held after event ``seq``: by the facts when they hold together (a
        play the rules did not place took its tile out of the hand), else by the standing events."""
        if self.facts.feasible and not self.facts.contradictions:
            return self.facts.count(player, seq)
        return count_after(self.start, self.end, player, seq)

    def before(self, player: str, seq: int) -> Before:
        """``player``'s hand just before event ``seq``, by the facts alone."""
        return Before(self.facts, player, seq)

    def decision_of(self, issue: Issue) -> Judged | None:
        """The verdict of the rule an unverified ``issue`` left open: its check's, by the event, the
        code and the player (the issue's fields, not its words)."""
        for j in self.judged:
            if j.issue.seq == issue.seq and j.issue.code == issue.code and j.check.player in issue.players:
                return j
        return None


@dataclass
class MatchAudit:
    log: MatchLog
    report: MatchReport
    reducer: MatchReducer
    events: list[EventView]
    hands: list[HandAudit]
    #: the chain head after each event, by seq
    heads: dict[int, str]


def _honest_rules(judged: list[Judged]) -> list[Rule]:
    """(player, seq, tiles held none of just before) for each pass or draw that may have been honest."""
    out = []
    for j in judged:
        judge = j.check.judge
        if isinstance(judge, HoldsOne) and not (j.decision is not None and j.decision[0] is True):
            out.append((j.check.player, j.check.seq, judge.tiles))
    return out


def others_honest(ha: HandAudit, judged: Judged) -> HandModel | None:
    """The facts with every other pass or draw of the hand taken as honest (None: no such world)."""
    rules = [r for r in _honest_rules(ha.judged) if (r[0], r[1]) != (judged.check.player, judged.check.seq)]
    model = with_rules(ha.facts, rules)
    return model if model.feasible else None


def honest_model(facts: HandModel, judged: list[Judged]) -> HandModel:
    """The facts, plus each pass or draw that may have been honest taken as honest (no playable tile
    in hand just then). A pass the facts prove a renege is left out; so is one that, with those taken
    before it, would leave no world (two reneges that cannot both have been honest)."""
    return kept_rules(facts, _honest_rules(judged))


def audit_match(log: MatchLog, pictures: bool = False) -> MatchAudit:
    """Fold ``log`` once, keeping each hand's facts and verdicts (``pictures``: keep each event's table)."""
    reducer, kept = scoring_reducer(log.source, log.line)
    reducer.orphan = log.orphan
    views: list[EventView] = []
    hands: list[HandAudit] = []
    heads: dict[int, str] = {}
    caught: list[tuple[HandState, list]] = []
    reducer.on_checks = lambda hand, decided: caught.append((hand, decided))
    hand_views: list[EventView] = []
    for rec in log.records:
        state = reducer.state
        open_hand = state.hand if state is not None else None
        closing = open_hand is not None and rec.event is not None and rec.event.type in CLOSES_A_HAND
        if closing:
            assert open_hand is not None
            start, end = reducer._hand_start(), open_hand.clone()
            retracted = set(reducer.history.retracted)
            caught.clear()
            n_results = len(reducer.state.results)  # type: ignore[union-attr]
        reducer.feed(rec)
        heads[rec.seq] = reducer.head
        state = reducer.state
        hand = state.hand if state is not None else None
        number = hand.number if hand is not None else (open_hand.number if closing and open_hand else None)
        view = EventView(rec, number)
        shown = hand if hand is not None else (open_hand if closing else None)
        if shown is not None:
            view.ends = tuple(shown.layout.open_values())
            view.turn = shown.turn
            view.boneyard = shown.boneyard.count
            if pictures:
                view.layout = shown.layout.clone()
        views.append(view)
        if closing:
            assert open_hand is not None and state is not None
            decided = caught[0][1] if caught else []
            result = state.results[n_results] if len(state.results) > n_results else None
            ha = _hand_audit(open_hand.number, start, end, decided, result)
            scored = [sh for sh in kept.scored if sh.hand.number == open_hand.number]
            ha.scored = scored[-1] if scored else None
            ha.end_seq = rec.seq if rec.event is not None and rec.event.type == "hand_end" else None
            if rec.event is not None and rec.event.type == "hand_end":
                hand_views.append(view)
            for v in hand_views:
                v.retracted = v.record.seq in retracted
            ha.events = hand_views
            hands.append(ha)
            hand_views = []
            if hand is not None:  # a deal that closed the hand before it opened the next
                hand_views = [view]
            continue
        if hand is not None:
            hand_views.append(view)
    state = reducer.state
    if state is not None and state.hand is not None:
        hand = state.hand
        start = reducer._hand_start()
        decided = reducer.decide_pending(hand, start)
        ha = _hand_audit(hand.number, start, hand.clone(), decided, None)
        retracted = set(reducer.history.retracted)
        for v in hand_views:
            v.retracted = v.record.seq in retracted
        ha.events = hand_views
        hands.append(ha)
    return MatchAudit(log, reducer.report(), reducer, views, hands, heads)


def _hand_audit(number: int, start: HandState, end: HandState, decided: list, result: HandResult | None) -> HandAudit:
    facts = hand_model(start, end)
    judged = [Judged(issue, check, decision) for issue, check, decision in decided]
    return HandAudit(number, start, end, facts, honest_model(facts, judged), judged, result)
