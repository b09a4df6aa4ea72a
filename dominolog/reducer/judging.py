"""The hidden hands judged (docs/format.md 8.5, 8.6): each unverified rule of a hand recorded with hidden
tiles decided in every world its facts allow (:mod:`dominolog.knowledge`), while the hand is open (its
facts so far, for a recorder) and at its end (with the reveals, and the likelihood of what stays open).
The part of :class:`~dominolog.reducer.fold.MatchReducer` that :class:`~dominolog.reducer.hands.HandLifecycle`
builds on."""

from __future__ import annotations

from collections.abc import Callable

from dominolog.knowledge import HandModel, hand_model
from dominolog.knowledge.likelihood import likelihood
from dominolog.reducer.chain import HashChain
from dominolog.reducer.context import Ctx, Findings, FoldListener, QuietCtx
from dominolog.reducer.history import HandHistory
from dominolog.reducer.verdicts import decide_check, decide_checks, shown_by
from dominolog.state import HandResult, HandState, Issue, MatchState, PendingCheck, bounds_before
from dominolog.tiles import Tile
from dominolog.variants import Variant
from dominolog.variants.judges import Decision, names
from dominolog.variants.rulings import SAME_TILE, renege

#: called with the hand and its unverified rules as judged at its end (the audit listens)
ChecksHook = Callable[[HandState, list[tuple[Issue, PendingCheck, "Decision | None"]]], None]


class HiddenJudging:
    """The part of :class:`~dominolog.reducer.fold.MatchReducer` that judges a hidden hand's rules."""

    # what it shares with the rest of the reducer
    state: MatchState | None
    variant: Variant | None
    ctx: Ctx
    findings: Findings
    history: HandHistory
    skipping: bool
    on_checks: ChecksHook | None
    listener: FoldListener | None
    #: the results the rules give over the ways to fill a hand's hidden tiles, while its end is judged
    outcomes: list[HandResult] | None
    #: whether a rule left open at a hand's end is given its likelihood (``MatchReducer.likelihoods``)
    likelihoods: bool
    events: int
    chain: HashChain
    #: the open hand judged on its facts so far, for the records fed: ((events, head), the judgment)
    _open_judged: tuple[tuple[int, str], tuple[list[Issue], list[Issue]] | None] | None = None
    #: the open hand's last model: the next one takes its matching over when the facts leave every
    #: tile the same slots (an unseen draw, a pass: :class:`~dominolog.knowledge.model.HandModel`)
    _last_model: HandModel | None = None
    #: the verdicts of the open hand's rules in the worlds of one graph (``HandModel.graph``): by the
    #: rule's identity, (the rule, the slots of its hand, its verdict)
    _decided: tuple[object, dict[int, tuple[PendingCheck, frozenset[int], Decision | None]]] | None = None

    def _contradiction_issues(self, model: HandModel) -> list[Issue]:
        """Each fact of the hand set aside because it contradicts the others: a violation at its event,
        with the facts it contradicts (:func:`dominolog.knowledge.facts.kept_facts`)."""
        if not model.contradictions:
            return []
        lines = {rec.seq: rec.line for rec, _ in self.history.records}
        return [
            Issue(c.seq, lines.get(c.seq, self.ctx.line), "contradiction", c.words(), None, SAME_TILE)
            for c in model.contradictions
        ]

    def open_findings(self) -> tuple[list[Issue], list[Issue]] | None:
        """The open hand (recorded with hidden tiles) judged on the facts so far, as a closed one is at
        its end: (violations to add, the unverified list to show), or None when nothing changes.
        Nothing is kept in the findings: the hand goes on, and its end judges it again with everything.
        The judgment is kept for the records fed (a recorder asks before and after each entry, and the
        store's projection once more)."""
        key = (self.events, self.chain.head)
        cached = self._open_judged
        if cached is None or cached[0] != key:
            cached = self._open_judged = (key, self._judge_open())
        judged = cached[1]
        return None if judged is None else (list(judged[0]), list(judged[1]))

    def _judge_open(self) -> tuple[list[Issue], list[Issue]] | None:
        state, f = self.state, self.findings
        hand = state.hand if state is not None else None
        if hand is None or not hand.hidden or self.history.deal is None or not (f.pending or hand.tried):
            return None
        start = self._hand_start()
        model = self._model(start, hand)
        added = self._contradiction_issues(model)
        replace = self._judged(hand, model, self.decide_pending(hand, start, model), added, still_open=True)
        if not added and not replace:
            return None
        kept = (replace.get(id(u), u) for u in f.unverified)
        return added, [u for u in kept if u is not None]

    def _judged(
        self,
        hand: HandState,
        model: HandModel,
        decided: list[tuple[Issue, PendingCheck, Decision | None]],
        violations: list[Issue],
        still_open: bool,
    ) -> dict[int, Issue | None]:
        """The verdicts of ``decided`` as findings: a rule broken in every world is added to
        ``violations``; the hand's unverified entries, by identity, to replace (a rule open in some
        worlds) or drop (kept or broken in every world). ``still_open``: the hand is not over (its
        facts so far), else its end (the reveals in, and the likelihood of what stays open)."""
        replace: dict[int, Issue | None] = {}
        for issue, check, decision in decided:
            if decision is None:
                if not still_open:
                    self._rejudge_by_bounds(hand, issue, check)
                continue
            verdict, tiles = decision
            if verdict is None:
                likely = (
                    None
                    if still_open or not self.likelihoods
                    else likelihood(model, check.player, check.seq, check.judge)
                )
                if still_open:
                    why = "the hand is not over: its facts so far leave it open"
                elif not hand.holdings[check.player].unknown:
                    why = "draws not seen leave open which tiles were held then"
                else:
                    why = "tiles never revealed leave open which were held then"
                replace[id(issue)] = Issue(
                    issue.seq,
                    issue.line,
                    issue.code,
                    f"{check.action}; it turns on whether {check.player} held {names(tiles)} then"
                    + (f": {likely.clause(issue.code)}" if likely is not None else "")
                    + f" ({why})",
                    likely,
                    issue.rules,
                    (),
                    issue.players,
                    why,
                )
                continue
            replace[id(issue)] = None
            if verdict:
                shown = "the log so far" if still_open else "the reveals"
                words, named = shown_by(check, tiles, model)
                violations.append(self._broken(issue, check, f"{check.message} (shown by {shown}: {words})", named))
        return replace

    def _model(self, start: HandState, hand: HandState) -> HandModel:
        """The worlds of the open hand's facts (:func:`~dominolog.knowledge.facts.hand_model`), from
        the last model of the hand when the facts leave every tile the same slots."""
        model = self._last_model = hand_model(start, hand, self._last_model)
        return model

    def _hand_start(self) -> HandState:
        """The open hand's state right after its deal (its deal violations were reported then)."""
        assert self.state is not None and self.variant is not None and self.history.deal is not None
        quiet = QuietCtx(self.state.hand.deal_seq if self.state.hand else 0)
        return self.variant.start_hand(self.state, self.history.deal, quiet)

    def decide_pending(
        self, hand: HandState, start: HandState | None = None, model: HandModel | None = None
    ) -> list[tuple[Issue, PendingCheck, Decision | None]]:
        """The open hand's unverified rules, each judged in every world its facts allow (None: the
        facts contradict each other, or the rule cannot be asked that way)."""
        if model is None:
            model = self._model(start or self._hand_start(), hand)
        out: list[tuple[Issue, PendingCheck, Decision | None]] = []
        if model.contradictions or not model.feasible:
            for issue, check in self.findings.pending:
                out.append((issue, check, decide_check(model, check)))
            return out
        # A verdict reads the graph (tiles, edges, exits, the matching) and the slots of the rule's
        # hand alone: in a model of the same graph, with the same slots for that hand, it is the same
        # (a rule judged at the last event, before an unseen draw or a pass, is not judged again)
        if self._decided is None or self._decided[0] is not model.graph:
            self._decided = (model.graph, {})
        known = self._decided[1]
        pending = self.findings.pending
        decisions: list[Decision | None] = []
        todo: list[int] = []
        for k, (_, check) in enumerate(pending):
            hit = known.get(id(check))
            if hit is not None and hit[0] is check and hit[1] == model.entered(check.player, check.seq):
                decisions.append(hit[2])
            else:
                decisions.append(None)
                todo.append(k)
        for k, decision in zip(todo, decide_checks(model, [pending[k][1] for k in todo]), strict=True):
            check = pending[k][1]
            decisions[k] = decision
            known[id(check)] = (check, model.entered(check.player, check.seq), decision)
        return [(issue, check, decision) for (issue, check), decision in zip(pending, decisions, strict=True)]

    def _rejudge(self, hand: HandState, start: HandState, model: HandModel | None) -> None:
        """Judge the open hand's unverified rules again, in the worlds its facts allow."""
        f = self.findings
        if not f.pending:
            return
        if model is None:
            model = self._model(start, hand)
        decided = self.decide_pending(hand, start, model)
        if self.on_checks is not None:
            self.on_checks(hand, decided)
        #: the hand's unverified entries by identity: each is replaced, dropped or kept
        replace = self._judged(hand, model, decided, f.violations, still_open=False)
        if replace:
            kept = (replace.get(id(u), u) for u in f.unverified)
            f.unverified[:] = [u for u in kept if u is not None]
        f.pending = []

    def _rejudge_by_bounds(self, hand: HandState, issue: Issue, check: PendingCheck) -> None:
        """The old way, when the facts contradict each other: bounds worked back from the reveals."""
        f = self.findings
        if hand.holdings[check.player].unknown:
            return
        sure, upper = bounds_before(hand, check.player, check.seq)
        sure |= check.known
        upper &= check.possible
        if not sure <= upper:
            return  # the records contradict each other (reported elsewhere)
        verdict, detail, named = check.judge(frozenset(sure), frozenset(upper), check.count)
        i = f.unverified.index(issue)
        if verdict is None:
            why = "draws not seen leave open which tiles were held then"
            f.unverified[i] = Issue(
                issue.seq,
                issue.line,
                issue.code,
                f"{check.action}; {check.player}'s hand was hidden, and the reveals do not settle this ({why})",
                None,
                issue.rules,
                (),
                issue.players,
                why,
            )
            return
        del f.unverified[i]
        if verdict:
            f.violations.append(self._broken(issue, check, f"{check.message} (shown by the reveals: {detail})", named))

    def _broken(self, issue: Issue, check: PendingCheck, message: str, named: tuple[Tile, ...]) -> Issue:
        """The violation of an unverified rule the facts show broken, naming the tiles ``named``."""
        tiles = tuple(map(str, named))
        rules = check.rules
        if issue.code == "renege":  # the tiles that show a renege may say which rule (Double Bergen's D3)
            rules = renege(self.variant.name if self.variant is not None else "", tiles)
        return Issue(issue.seq, issue.line, issue.code, message, None, rules, tiles, issue.players)
