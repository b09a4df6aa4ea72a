"""Hand and match boundaries (ruling C4): deals, hand ends, match ends, reveals, and the
re-check of hands recorded with hidden tiles once the reveals are in (docs/format.md 8.5, 8.6)."""

from __future__ import annotations

from dominolog.events import Deal, Event, HandEnd, MatchEnd, Reveal
from dominolog.knowledge.worlds import end_fillings
from dominolog.reducer.claims import check_claim, check_claim_names, fmt_points
from dominolog.reducer.context import QuietCtx
from dominolog.reducer.history import HandHistory
from dominolog.reducer.judging import HiddenJudging
from dominolog.reducer.verdicts import fill_hands
from dominolog.state import HandResult, HandState
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants.rulings import (
    CLOSING,
    MATCH,
    REVEAL,
    REVEAL_TILE,
    SCORE,
    claim,
    ids,
    unsettled_end,
)


class HandLifecycle(HiddenJudging):
    """The part of :class:`~dominolog.reducer.fold.MatchReducer` that opens and closes hands."""

    def _apply_in_hand(self, ev: Event) -> None:
        raise NotImplementedError

    def _deal(self, ev: Deal) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        self._close_open_hand(ev)
        if state.over:
            self.ctx.violation(
                "out-of-order", "deal after the match is over; this hand is not counted", ids(MATCH, variant.name)
            )
            self.skipping = True
            return
        self.skipping = False
        self._last_model = self._decided = None
        hand = variant.start_hand(state, ev, self.ctx)
        state.hand = hand
        f = self.findings
        self.history = HandHistory(ev, (len(f.violations), len(f.unverified)))
        f.pending = []

    def _close_open_hand(self, ev: Event) -> None:
        """A deal or match_end while a hand is open: close it as well as the rules allow."""
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        hand = state.hand
        if hand is None:
            return
        if isinstance(ev, MatchEnd) and ev.reason == "abandoned" and hand.over is None:
            self._finish_hand(variant.abandoned_result(state, hand))
            return
        self._prepare_end(hand)
        hand = state.hand
        assert hand is not None
        if hand.over is not None:
            self.ctx.violation(
                "out-of-order", f"hand {hand.number} ended without a hand_end before this {ev.type}", CLOSING
            )
            self._finish_hand(self._result(hand))
        else:
            self.ctx.violation(
                "out-of-order",
                f"{ev.type} while hand {hand.number} is still being played; the hand is closed as abandoned",
                CLOSING,
            )
            self._finish_hand(variant.abandoned_result(state, hand))

    def _prepare_end(self, hand: HandState) -> None:
        """At the end of a hand recorded with hidden tiles, check what the reveals now make checkable.

        The hand's facts (deal, plays, draws, reveals) are matched tile by tile
        (:mod:`dominolog.knowledge`): a hand they leave only one way to fill is
        filled. When then every player's tiles are known and every draw was seen,
        the deal follows (tiles played, plus tiles left, minus tiles drawn) and the
        whole hand is re-folded from it. Otherwise each unverified rule is judged
        in every world the facts allow: broken in all of them is a violation, in
        none is no finding, in some stays unverified, naming the tiles it turns on.
        """
        if not hand.hidden or self.history.deal is None:
            return
        hand.settle()
        start = self._hand_start()
        model = self._model(start, hand)
        self.findings.violations.extend(self._contradiction_issues(model))
        if not hand.hands_known:
            fill_hands(model, hand)
        if model.contradictions or not hand.hands_known or any(t is None for _, _, t in hand.draws):
            self._rejudge(hand, start, model)
            return
        if start.fully_known:
            return
        held: set[Tile] = set()
        for p, h in start.holdings.items():
            drawn = {t for _, q, t in hand.draws if q == p}
            h.known = (set(hand.played_by[p]) | hand.holdings[p].known) - drawn
            h.unknown = 0
            held |= h.known
        start.boneyard.known = set(DOUBLE_SIX) - held - start.layout.on_board if self.variant.has_boneyard else set()  # type: ignore[union-attr]
        start.boneyard.unknown = 0
        start.unaccounted = set()
        self._refold(start)

    def _refold(self, base: HandState) -> None:
        """Re-apply the open hand's standing events to ``base``, a starting state with the deal the
        reveals made known: every rule of the hand is judged again."""
        state, hist, f = self.state, self.history, self.findings
        assert state is not None
        del f.violations[hist.marks[0] :]
        del f.unverified[hist.marks[1] :]
        f.pending = []
        state.hand = base
        ctx = self.ctx
        seq, line = ctx.seq, ctx.line
        for rec, ev in hist.records:
            if rec.seq in hist.retracted:
                continue
            ctx.seq, ctx.line = rec.seq, rec.line
            if ev.type == "undo":
                if hist.undo_targets.get(rec.seq) is None:
                    ctx.violation("illegal", "undo with nothing to retract in this hand")
                continue
            self._apply_in_hand(ev)
        ctx.seq, ctx.line = seq, line
        hist.saved = {}  # the hand is closing: nothing goes back past this

    def _result(self, hand: HandState) -> HandResult:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        self.outcomes = None
        result = variant.score_hand(state, hand, self.ctx)
        if result is None:
            outcomes = self._outcomes(hand)
            if outcomes is not None and len(outcomes) == 1:
                return outcomes[0]  # every way to fill the hidden hands scores the same
            self.outcomes = outcomes
            hidden = ", ".join(p for p, h in hand.holdings.items() if h.unknown) or "the boneyard"
            why = f"the rules give one of {len(outcomes)} results, by the hidden tiles" if outcomes else ""
            self.ctx.unverified(
                "score-mismatch",
                f"the points of hand {hand.number} cannot be checked: tiles of {hidden} were never revealed; "
                "the table's claim is taken" + (f" ({why})" if why else ""),
                None,
                ids(SCORE, variant.name),
                tuple(p for p, h in hand.holdings.items() if h.unknown),
                why,
            )
            result = HandResult(hand.number, hand.over or "block", None, {p: 0 for p in state.players}, verified=False)
        return result

    def _outcomes(self, hand: HandState) -> list[HandResult] | None:
        """The distinct results the rules give over every way to fill the hand's hidden holdings
        (None when there are too many ways, or none)."""
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        if self.history.deal is None:
            return None
        fillings = end_fillings(self._model(self._hand_start(), hand), hand)
        if not fillings:
            return None
        quiet = QuietCtx(self.ctx.seq)
        seen: dict[tuple, HandResult] = {}
        for filled in fillings:
            r = variant.score_hand(state, filled, quiet)
            if r is None:
                return None
            key = (r.end, repr(r.winner), tuple(sorted(r.points.items())))
            seen.setdefault(key, r)
        return list(seen.values())

    def _hand_end(self, ev: HandEnd) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        hand = state.hand
        ctx = self.ctx
        if hand is None:
            if self.skipping:
                self.skipping = False
            else:
                ctx.violation("out-of-order", "hand_end with no hand open", CLOSING)
            return
        self._prepare_end(hand)
        hand = state.hand
        assert hand is not None
        if hand.over is None:
            maybe = variant.may_be_over(hand)
            if maybe is True:  # the reveals show the hand was over after its last turn event
                hand.over = variant.unverified_end(hand)
                hand.over_seq = hand.actions[-1][0] if hand.actions else ctx.seq
                result = self._result(hand)
            elif maybe is None:
                ctx.unverified(
                    "out-of-order",
                    f"whether hand {hand.number} was over cannot be checked: hidden tiles were never revealed",
                    None,
                    unsettled_end(variant.name),
                )
                hand.over, hand.over_seq = variant.unverified_end(hand), ctx.seq
                result = self._result(hand)
            else:
                ctx.violation(
                    "out-of-order", f"hand_end before hand {hand.number} is over; closed as abandoned", CLOSING
                )
                result = variant.abandoned_result(state, hand)
        else:
            result = self._result(hand)
        check_claim_names(ev, state.players, ctx)
        if not result.verified:
            self._judge_claim_on_hidden(ev, hand)
            if ev.points is not None:
                result.points = {p: ev.points.get(p, 0) for p in state.players}
            if "winner" in ev.given:
                result.winner = ev.winner
        else:
            number, name = hand.number, variant.name  # (a closure does not keep their narrowed types)

            def explain() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
                points_rules, winner_rules = claim(name, result.end, "aggressor" in result.detail)
                return f"hand {number} ({describe(result)})", points_rules, winner_rules

            check_claim(ev, state.players, result.points, result.winner, ctx, explain)
        self._finish_hand(result, ev)

    def _judge_claim_on_hidden(self, ev: HandEnd, hand: HandState) -> None:
        """A claimed score the hidden tiles kept from being checked: wrong whatever they were when no
        way to fill the hidden hands gives it (a violation); else it stays unverified."""
        outcomes, self.outcomes = self.outcomes, None
        state = self.state
        if not outcomes or ev.points is None or state is None:
            return
        claimed = {p: ev.points.get(p, 0) for p in state.players}
        if any(r.points == claimed for r in outcomes):
            return
        f = self.findings
        for i in range(len(f.unverified) - 1, -1, -1):
            if f.unverified[i].seq == self.ctx.seq and f.unverified[i].code == "score-mismatch":
                del f.unverified[i]
                break
        given = "; ".join(fmt_points(r.points) for r in outcomes[:4]) + ("; ..." if len(outcomes) > 4 else "")
        self.ctx.violation(
            "score-mismatch",
            f"hand {hand.number}: claimed {fmt_points(claimed)}; no way to fill the hidden hands gives that "
            f"(the rules give {given})",
            ids(SCORE, self.ctx.variant),
        )

    def _finish_hand(self, result: HandResult, end: HandEnd | None = None) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        if state.hand is not None:
            if self.listener is not None:
                self.listener.hand_closed(state.hand, result, end)
            result.leader, result.dealer = state.hand.leader, state.hand.dealer
        state.results.append(result)
        state.totals = {p: v + result.points.get(p, 0) for p, v in state.totals.items()}
        state.hand = None
        f = self.findings
        self.history = HandHistory(marks=(len(f.violations), len(f.unverified)))
        variant.after_hand(state)

    def _match_end(self, ev: MatchEnd) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        self._close_open_hand(ev)
        state.ended = True
        check_claim_names(ev, state.players, self.ctx)
        if ev.reason == "abandoned":
            state.abandoned = True
            state.winner = None
        elif not state.over:
            self.ctx.violation(
                "out-of-order",
                f"match_end too early: the match is not over after {len(state.results)} "
                f"hand{'s' * (len(state.results) != 1)}",
                ids(MATCH, variant.name),
            )
            state.winner = None
        else:
            state.winner = variant.match_winner(state)
        name = variant.name

        def explain() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
            rules = ids(MATCH, name)
            return "match", rules, rules

        check_claim(ev, state.players, dict(state.totals), state.winner, self.ctx, explain)

    def _reveal(self, hand: HandState, ev: Reveal) -> None:
        ctx, variant = self.ctx, self.variant
        assert variant is not None
        player = ev.player
        if hand.over is None and variant.may_be_over(hand) is False:
            ctx.violation("out-of-order", f"{player} reveals before hand {hand.number} is over", CLOSING, (), (player,))
        tiles = [Tile.parse(t) for t in ev.tiles]
        shown = set(tiles)
        if len(shown) != len(tiles):
            ctx.violation("bad-reveal", f"{player}'s reveal lists a tile twice", REVEAL_TILE, (), (player,))
        h = hand.holdings[player]
        problems = []
        missing = h.known - shown
        if missing:
            problems.append(f"leaves out {', '.join(map(str, sorted(missing)))}, which {player} holds")
        fresh = shown - h.known
        elsewhere = False  # a tile shown that is somewhere else (C1)
        for t in sorted(fresh):
            if t in hand.layout.on_board:
                problems.append(f"shows {t}, which is on the table")
                elsewhere = True
            elif t not in hand.unaccounted:
                elsewhere = True
                holder = hand.holder_of(t)
                problems.append(
                    f"shows {t}, which is in {holder}'s hand" if holder else f"shows {t}, which is in the boneyard"
                )
        if len(shown) != h.count:
            problems.append(f"shows {len(shown)} tiles, but {player} holds {h.count}")
        if problems:
            ctx.violation(
                "bad-reveal",
                f"{player}'s reveal " + "; ".join(problems),
                REVEAL_TILE if elsewhere else REVEAL,
                (),
                (player,),
            )
        hand.reveals.append((ctx.seq, player, frozenset(shown)))
        take = [t for t in sorted(fresh) if t in hand.unaccounted][: h.unknown]
        h.known.update(take)
        h.unknown -= len(take)
        hand.unaccounted.difference_update(take)
        hand.revealed.add(player)
        hand.settle()


def describe(result: HandResult) -> str:
    """How a hand ended, for a message: ``block, aggressor Ana as Puppeteer``."""
    out = result.end
    if "aggressor" in result.detail:
        out += f", aggressor {result.detail['aggressor']}"
        if result.detail.get("puppeteer"):
            out += " as Puppeteer"
    return out
