"""The reducer: folds a match's records into its state, event by event.

It owns everything that is the same in every variant: the ``seq`` and hash
checks, hand and match boundaries (ruling C4), ``undo``, ``reveal`` and what is
known of hidden hands, and the comparison of claimed scores with the rules'.
What the rules say about a play, a draw or a pass is asked of the variant
(:mod:`dominolog.variants`).

Undo and hidden hands both work by *re-folding* the open hand from its deal:
``undo`` marks the retracted event and re-applies the rest; when a hand that
was recorded with hidden tiles is fully known at its ``hand_end`` (through
reveals), the hand is re-folded from the reconstructed deal, so every rule is
checked after the fact, reneges included, and what was unverified is settled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dominolog.events import UNDOABLE, Deal, Event, HandEnd, MatchEnd, MatchStart, Reveal
from dominolog.log.hashchain import canonical_bytes, chain_hash_bytes
from dominolog.log.reader import MatchLog, Record
from dominolog.state import HandResult, HandState, Issue, MatchState, PendingCheck, WinnerValue, bounds_before
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants import Variant, VariantError, find_variant

TURN_EVENTS = frozenset({"play", "draw", "pass", "declare", "block_call"})
_NAME_FIELDS = {
    "deal": ("leader", "dealer", "chooser"),
    **{kind: ("player",) for kind in ("play", "draw", "pass", "declare", "block_call", "reveal", "note")},
}


@dataclass(slots=True)
class MatchReport:
    """What ``verify`` says about one match."""

    source: str
    line: int
    variant: str | None
    players: list[str]
    valid: bool
    complete: bool
    violations: list[Issue]
    unverified: list[Issue]
    hands: list[HandResult]
    totals: dict[str, int]
    winner: WinnerValue
    head: str
    match_id: str | None = None
    events: int = 0

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "source": self.source,
            "line": self.line,
            "variant": self.variant,
            "players": list(self.players),
            "valid": self.valid,
            "complete": self.complete,
            "violations": [v.as_dict() for v in self.violations],
            "unverified": [v.as_dict() for v in self.unverified],
            "hands": [h.as_dict() for h in self.hands],
            "totals": dict(self.totals),
            "winner": self.winner,
            "head": self.head,
        }
        if self.match_id is not None:
            d["id"] = self.match_id
        d["events"] = self.events
        return d


class _Ctx:
    """The event being applied, and where its violations go."""

    __slots__ = ("line", "reducer", "seq")

    def __init__(self, reducer: MatchReducer) -> None:
        self.reducer = reducer
        self.seq = 0
        self.line = 0

    def violation(self, code: str, message: str) -> None:
        self.reducer.violations.append(Issue(self.seq, self.line, code, message))

    def unverified(self, code: str, message: str, check: PendingCheck | None = None) -> None:
        issue = Issue(self.seq, self.line, code, message)
        self.reducer.unverified.append(issue)
        if check is not None:
            self.reducer.pending.append((issue, check))


class _QuietCtx:
    """A context that drops what it is told (rebuilding a state whose violations were already reported)."""

    __slots__ = ("line", "seq")

    def __init__(self, seq: int) -> None:
        self.seq = seq
        self.line = 0

    def violation(self, code: str, message: str) -> None:
        pass

    def unverified(self, code: str, message: str, check: PendingCheck | None = None) -> None:
        pass


def record_canon(rec: Record) -> bytes:
    """What a record contributes to the hash chain: its canonical form (FORMAT.md), or for a line
    that is not a JSON object, its value's canonical JSON or the line's own bytes (docs/format.md 8.2).
    A line whose value is not what was written (a lone surrogate, a key written twice) enters as read;
    a line too long to read, as the sha256 of its bytes."""
    if rec.raw_only:
        return rec.digest if rec.digest is not None else rec.data
    obj = rec.obj
    try:
        if obj is not None:
            return canonical_bytes(obj, fast=rec.event is not None and rec.event.type != "match_start")
        if rec.is_json:
            return canonical_bytes({"": rec.value})[4:-1]
    except RecursionError:  # nested too deep to re-encode: fingerprint the line as read
        pass
    return rec.data


def _same_winner(claim: WinnerValue, actual: WinnerValue) -> bool:
    if isinstance(claim, list) and isinstance(actual, list):
        return sorted(claim) == sorted(actual)
    return claim == actual


def _fmt_points(points: dict[str, int]) -> str:
    return ", ".join(f"{p} {v}" for p, v in points.items())


def _fmt_winner(w: WinnerValue) -> str:
    if w is None:
        return "no winner"
    return " and ".join(w) if isinstance(w, list) else w


class MatchReducer:
    """Folds the records of one match. Feed records in order, then call :meth:`report`."""

    def __init__(self, source: str = "<log>", line: int = 1) -> None:
        self.source = source
        self.line = line
        self.state: MatchState | None = None
        self.variant: Variant | None = None
        self.violations: list[Issue] = []
        self.unverified: list[Issue] = []
        self.format_issues: list[Issue] = []
        self.broken = False
        self.orphan = False
        self.ctx = _Ctx(self)
        self.events = 0
        # hash chain
        self._hashed: bool | None = None
        self._prev_stored: str | None = ""
        self._head = ""
        # the open hand
        #: the open hand's deal, from which its starting state is rebuilt when re-folding
        self.hand_deal: Deal | None = None
        self._marks = (0, 0)
        self.hand_records: list[tuple[Record, Event]] = []
        self.retracted: set[int] = set()
        self.undo_targets: dict[int, int | None] = {}
        self.skipping = False
        #: the open hand's unverified rules, to re-judge when the reveals are in
        self.pending: list[tuple[Issue, PendingCheck]] = []

    # -- feeding -------------------------------------------------------------
    def feed(self, rec: Record) -> None:
        """Apply one record. A bug met here is reported as ``internal-error``, never raised."""
        try:
            self._feed(rec)
        except Exception as exc:  # pragma: no cover - the property tests keep this unreachable
            self.format_issues.append(
                Issue(rec.seq, rec.line, "internal-error", f"dominolog failed here ({type(exc).__name__}: {exc})")
            )
            self.broken = True

    def _feed(self, rec: Record) -> None:
        self.events += 1
        self._chain(rec)
        ctx = self.ctx
        ctx.seq, ctx.line = rec.seq, rec.line
        if self.orphan:
            if rec.error is not None:
                self.format_issues.append(
                    Issue(rec.seq, rec.line, "malformed", f"{rec.error} (before any match_start)")
                )
            else:
                self.format_issues.append(
                    Issue(rec.seq, rec.line, "out-of-order", f"{rec.type} before any match_start; not part of a match")
                )
            return
        if rec.error is not None or rec.event is None:
            self.format_issues.append(Issue(rec.seq, rec.line, "malformed", rec.error or "not an event"))
            if rec.seq == 1:
                self.broken = True
            return
        ev = rec.event
        if ev.seq is not None and ev.seq != rec.seq:
            self.format_issues.append(
                Issue(rec.seq, rec.line, "malformed", f"seq is {ev.seq}, but this is event {rec.seq} of the match")
            )
        if isinstance(ev, MatchStart):
            self._start(ev)
            return
        if self.broken or self.state is None:
            return
        self._apply(rec, ev)

    def _chain(self, rec: Record) -> None:
        obj = rec.obj if not rec.raw_only else None  # a value not as written carries no hash to trust
        canon = record_canon(rec)
        prev_head = self._head
        self._head = chain_hash_bytes(prev_head, canon)
        if obj is None:
            self._prev_stored = None
            return
        stored = obj.get("hash")
        if self._hashed is None:
            self._hashed = stored is not None
        if stored is None:
            if self._hashed:
                self.format_issues.append(
                    Issue(rec.seq, rec.line, "hash-mismatch", "event has no hash, but earlier events of the match do")
                )
            self._prev_stored = None
            return
        if not self._hashed:
            self.format_issues.append(
                Issue(rec.seq, rec.line, "hash-mismatch", "event has a hash, but the match's first event has none")
            )
        if isinstance(stored, str) and self._prev_stored is not None:
            expected = self._head if self._prev_stored == prev_head else self._rehash(self._prev_stored, canon)
            if stored != expected:
                self.format_issues.append(
                    Issue(
                        rec.seq,
                        rec.line,
                        "hash-mismatch",
                        f"hash {stored[:12]}... does not match the event (expected {expected[:12]}...): "
                        "the event was changed after it was written",
                    )
                )
        self._prev_stored = stored if isinstance(stored, str) else None

    @staticmethod
    def _rehash(prev: str, canon: bytes) -> str:
        try:
            return chain_hash_bytes(prev, canon)
        except UnicodeEncodeError:  # a stored "hash" that is not hex cannot match anyway
            return ""

    def _start(self, ev: MatchStart) -> None:
        try:
            self.variant = find_variant(ev.variant)(ev.players, ev.options)
        except VariantError as exc:
            self.format_issues.append(Issue(self.ctx.seq, self.ctx.line, "malformed", f"match_start: {exc}"))
            self.broken = True
            return
        self.state = MatchState(
            variant=ev.variant,
            players=list(ev.players),
            options=dict(self.variant.options),
            match_id=ev.id,
            meta=dict(ev.meta or {}),
            totals={p: 0 for p in ev.players},
        )

    def _unknown_names(self, ev: Event) -> list[str]:
        assert self.state is not None
        players = self.state.players
        fields = ev.__dict__  # pydantic's getattr on a field a model lacks is slow
        names = []
        for attr in _NAME_FIELDS.get(ev.type, ()):
            value = fields.get(attr)
            if value is not None and value not in players:
                names.append(f"{attr} {value!r}")
        return names

    def _apply(self, rec: Record, ev: Event) -> None:
        state = self.state
        assert state is not None and self.variant is not None
        ctx = self.ctx
        unknown = self._unknown_names(ev)
        if unknown:
            ctx.violation(
                "malformed",
                f"{ev.type}: unknown {', '.join(unknown)} (players: {', '.join(state.players)}); event ignored",
            )
            if ev.type == "deal":
                self._close_open_hand(ev)
                self.skipping = True
            return
        kind = ev.type
        if kind == "note":
            return
        if state.ended:
            ctx.violation("out-of-order", f"{kind} after match_end; ignored")
            return
        if kind == "match_end":
            self._match_end(ev)  # type: ignore[arg-type]
            return
        if kind == "deal":
            self._deal(ev)  # type: ignore[arg-type]
            return
        if kind == "hand_end":
            self._hand_end(ev)  # type: ignore[arg-type]
            return
        if state.hand is None:
            if self.skipping:
                return
            if state.over:
                ctx.violation("out-of-order", f"{kind} after the match is over; ignored")
            elif state.results:
                ctx.violation(
                    "out-of-order", f"{kind} after hand {len(state.results)} ended and before the next deal; ignored"
                )
            else:
                ctx.violation("out-of-order", f"{kind} before the first deal; ignored")
            return
        self.hand_records.append((rec, ev))
        if kind == "undo":
            self._undo(rec)
            return
        self._apply_in_hand(ev)

    def _apply_in_hand(self, ev: Event) -> None:
        """Apply a turn event or a reveal to the open hand (also used when re-folding)."""
        state, variant, hand = self.state, self.variant, self.state.hand if self.state else None
        assert state is not None and variant is not None and hand is not None
        kind = ev.type
        if kind in TURN_EVENTS:
            if hand.over is not None and not variant.accepts_after_over(hand, kind):
                self.ctx.violation(
                    "out-of-order",
                    f"{kind} after hand {hand.number} was over ({hand.over} at seq {hand.over_seq}); ignored",
                )
                return
            if kind == "play":
                variant.on_play(state, hand, ev, self.ctx)  # type: ignore[arg-type]
            elif kind == "pass":
                variant.on_pass(state, hand, ev, self.ctx)  # type: ignore[arg-type]
            elif kind == "draw":
                variant.on_draw(state, hand, ev, self.ctx)  # type: ignore[arg-type]
            elif kind == "declare":
                variant.on_declare(state, hand, ev, self.ctx)  # type: ignore[arg-type]
            else:
                variant.on_block_call(state, hand, ev, self.ctx)  # type: ignore[arg-type]
        elif kind == "reveal":
            self._reveal(hand, ev)  # type: ignore[arg-type]

    # -- hands ---------------------------------------------------------------
    def _deal(self, ev: Deal) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        self._close_open_hand(ev)
        if state.over:
            self.ctx.violation("out-of-order", "deal after the match is over; this hand is not counted")
            self.skipping = True
            return
        self.skipping = False
        hand = variant.start_hand(state, ev, self.ctx)
        state.hand = hand
        self.hand_deal = ev
        self._marks = (len(self.violations), len(self.unverified))
        self.hand_records = []
        self.retracted = set()
        self.undo_targets = {}
        self.pending = []

    def _close_open_hand(self, ev: Event) -> None:
        """A deal or match_end while a hand is open: close it as well as the rules allow."""
        state = self.state
        assert state is not None
        hand = state.hand
        if hand is None:
            return
        if isinstance(ev, MatchEnd) and ev.reason == "abandoned" and hand.over is None:
            self._finish_hand(self.variant.abandoned_result(state, hand))  # type: ignore[union-attr]
            return
        self._prepare_end(hand)
        hand = state.hand
        assert hand is not None
        if hand.over is not None:
            self.ctx.violation("out-of-order", f"hand {hand.number} ended without a hand_end before this {ev.type}")
            self._finish_hand(self._result(hand))
        else:
            self.ctx.violation(
                "out-of-order",
                f"{ev.type} while hand {hand.number} is still being played; the hand is closed as abandoned",
            )
            self._finish_hand(self.variant.abandoned_result(state, hand))  # type: ignore[union-attr]

    def _prepare_end(self, hand: HandState) -> None:
        """At the end of a hand recorded with hidden tiles, check what the reveals now make checkable.

        When the reveals give every player's tiles and every draw was seen, the deal
        follows (tiles played, plus tiles left, minus tiles drawn) and the whole hand
        is re-folded from it. Otherwise (draws not seen) each unverified rule is
        judged again from what the reveals prove the player held at that event.
        """
        if not hand.hidden or self.hand_deal is None:
            return
        hand.settle()
        if not hand.hands_known:
            self._rejudge(hand)
            return
        if any(t is None for _, _, t in hand.draws):
            self._rejudge(hand)
            return
        start = self._hand_start()
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

    def _rejudge(self, hand: HandState) -> None:
        """Judge the open hand's unverified rules again, from what the reveals prove (draws not seen)."""
        for issue, check in self.pending:
            if hand.holdings[check.player].unknown:
                continue
            sure, upper = bounds_before(hand, check.player, check.seq)
            sure |= check.known
            upper &= check.possible
            if not sure <= upper:
                continue  # the records contradict each other (reported elsewhere)
            verdict, detail = check.judge(frozenset(sure), frozenset(upper), check.count)
            i = self.unverified.index(issue)
            if verdict is None:
                self.unverified[i] = Issue(
                    issue.seq,
                    issue.line,
                    issue.code,
                    f"{check.action}; {check.player}'s hand was hidden, and the reveals do not settle this "
                    "(draws not seen leave open which tiles were held then)",
                )
                continue
            del self.unverified[i]
            if verdict:
                self.violations.append(
                    Issue(issue.seq, issue.line, issue.code, f"{check.message} (shown by the reveals: {detail})")
                )
        self.pending = []

    def _result(self, hand: HandState) -> HandResult:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        result = variant.score_hand(state, hand, self.ctx)
        if result is None:
            hidden = ", ".join(p for p, h in hand.holdings.items() if h.unknown) or "the boneyard"
            self.ctx.unverified(
                "score-mismatch",
                f"the points of hand {hand.number} cannot be checked: tiles of {hidden} were never revealed; "
                "the table's claim is taken",
            )
            result = HandResult(hand.number, hand.over or "block", None, {p: 0 for p in state.players}, verified=False)
        return result

    def _hand_end(self, ev: HandEnd) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        hand = state.hand
        ctx = self.ctx
        if hand is None:
            if self.skipping:
                self.skipping = False
            else:
                ctx.violation("out-of-order", "hand_end with no hand open")
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
                )
                hand.over, hand.over_seq = variant.unverified_end(hand), ctx.seq
                result = self._result(hand)
            else:
                ctx.violation("out-of-order", f"hand_end before hand {hand.number} is over; closed as abandoned")
                result = variant.abandoned_result(state, hand)
        else:
            result = self._result(hand)
        claims_points = ev.points
        self._check_claim_names(ev)
        if not result.verified:
            if claims_points is not None:
                result.points = {p: claims_points.get(p, 0) for p in state.players}
            if "winner" in ev.model_fields_set:
                result.winner = ev.winner
        else:
            self._check_claim(ev, result.points, result.winner, f"hand {hand.number} ({self._describe(result)})")
        self._finish_hand(result)

    def _describe(self, result: HandResult) -> str:
        out = result.end
        if "aggressor" in result.detail:
            out += f", aggressor {result.detail['aggressor']}"
            if result.detail.get("puppeteer"):
                out += " as Puppeteer"
        return out

    def _check_claim_names(self, ev: HandEnd | MatchEnd) -> None:
        state = self.state
        assert state is not None
        claimed = ev.points if isinstance(ev, HandEnd) else ev.totals
        names = list(claimed or ())
        winner = ev.winner
        names += [winner] if isinstance(winner, str) else list(winner or ())
        unknown = sorted({p for p in names if p not in state.players})
        if unknown:
            self.ctx.violation("malformed", f"{ev.type} claim names unknown players: {', '.join(unknown)}")

    def _check_claim(self, ev: HandEnd | MatchEnd, points: dict[str, int], winner: WinnerValue, what: str) -> None:
        state = self.state
        assert state is not None
        claimed = ev.points if isinstance(ev, HandEnd) else ev.totals
        if claimed is not None:
            full = {p: claimed.get(p, 0) for p in state.players}
            if full != points:
                self.ctx.violation(
                    "score-mismatch", f"{what}: claimed {_fmt_points(full)}; the rules give {_fmt_points(points)}"
                )
        if "winner" in ev.model_fields_set and not _same_winner(ev.winner, winner):
            self.ctx.violation(
                "score-mismatch",
                f"{what}: claimed winner {_fmt_winner(ev.winner)}; the rules give {_fmt_winner(winner)}",
            )

    def _finish_hand(self, result: HandResult) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        if state.hand is not None:
            result.leader, result.dealer = state.hand.leader, state.hand.dealer
        state.results.append(result)
        for p, v in result.points.items():
            if p in state.totals:
                state.totals[p] += v
        state.hand = None
        self.hand_deal = None
        self.hand_records = []
        variant.after_hand(state)

    def _match_end(self, ev: MatchEnd) -> None:
        state, variant = self.state, self.variant
        assert state is not None and variant is not None
        self._close_open_hand(ev)
        state.ended = True
        self._check_claim_names(ev)
        if ev.reason == "abandoned":
            state.abandoned = True
            state.winner = None
        elif not state.over:
            self.ctx.violation(
                "out-of-order",
                f"match_end too early: the match is not over after {len(state.results)} "
                f"hand{'s' * (len(state.results) != 1)}",
            )
            state.winner = None
        else:
            state.winner = variant.match_winner(state)
        self._check_claim(ev, dict(state.totals), state.winner, "match")

    # -- reveal and undo ---------------------------------------------------------
    def _reveal(self, hand: HandState, ev: Reveal) -> None:
        ctx, variant = self.ctx, self.variant
        assert variant is not None
        player = ev.player
        if hand.over is None:
            maybe = variant.may_be_over(hand)
            if maybe is False:
                ctx.violation("out-of-order", f"{player} reveals before hand {hand.number} is over")
        tiles = [Tile.parse(t) for t in ev.tiles]
        shown = set(tiles)
        if len(shown) != len(tiles):
            ctx.violation("bad-reveal", f"{player}'s reveal lists a tile twice")
        h = hand.holdings[player]
        problems = []
        missing = h.known - shown
        if missing:
            problems.append(f"leaves out {', '.join(map(str, sorted(missing)))}, which {player} holds")
        fresh = shown - h.known
        for t in sorted(fresh):
            if t in hand.layout.on_board:
                problems.append(f"shows {t}, which is on the table")
            elif t not in hand.unaccounted:
                holder = hand.holder_of(t)
                problems.append(
                    f"shows {t}, which is in {holder}'s hand" if holder else f"shows {t}, which is in the boneyard"
                )
        if len(shown) != h.count:
            problems.append(f"shows {len(shown)} tiles, but {player} holds {h.count}")
        if problems:
            ctx.violation("bad-reveal", f"{player}'s reveal " + "; ".join(problems))
        take = [t for t in sorted(fresh) if t in hand.unaccounted][: h.unknown]
        h.known.update(take)
        h.unknown -= len(take)
        hand.unaccounted.difference_update(take)
        hand.revealed.add(player)
        hand.settle()

    def _undo(self, rec: Record) -> None:
        target = None
        for r, e in reversed(self.hand_records):
            if e.type in UNDOABLE and r.seq not in self.retracted:
                target = r.seq
                break
        self.undo_targets[rec.seq] = target
        if target is None:
            self.ctx.violation("illegal", "undo with nothing to retract in this hand")
            return
        self.retracted.add(target)
        self._refold()

    def _hand_start(self) -> HandState:
        """The open hand's state right after its deal (its deal violations were reported then)."""
        assert self.state is not None and self.variant is not None and self.hand_deal is not None
        quiet = _QuietCtx(self.state.hand.deal_seq if self.state.hand else 0)
        return self.variant.start_hand(self.state, self.hand_deal, quiet)

    def _refold(self, base: HandState | None = None) -> None:
        """Re-apply the open hand's standing events from its deal (after an undo), or from ``base``,
        a starting state with the deal the reveals made known."""
        state = self.state
        assert state is not None
        if base is None:
            base = self._hand_start()
        del self.violations[self._marks[0] :]
        del self.unverified[self._marks[1] :]
        self.pending = []
        state.hand = base
        ctx = self.ctx
        seq, line = ctx.seq, ctx.line
        for rec, ev in self.hand_records:
            if rec.seq in self.retracted:
                continue
            ctx.seq, ctx.line = rec.seq, rec.line
            if ev.type == "undo":
                if self.undo_targets.get(rec.seq) is None:
                    ctx.violation("illegal", "undo with nothing to retract in this hand")
                continue
            self._apply_in_hand(ev)
        ctx.seq, ctx.line = seq, line

    # -- results -------------------------------------------------------------------
    def report(self) -> MatchReport:
        state = self.state
        violations = sorted(self.format_issues + self.violations, key=lambda i: i.seq)
        unverified = sorted(self.unverified, key=lambda i: i.seq)
        return MatchReport(
            source=self.source,
            line=self.line,
            variant=state.variant if state else None,
            players=list(state.players) if state else [],
            valid=not violations,
            complete=bool(state and state.ended),
            violations=violations,
            unverified=unverified,
            hands=list(state.results) if state else [],
            totals=dict(state.totals) if state else {},
            winner=state.winner if state else None,
            head=self._head,
            match_id=state.match_id if state else None,
            events=self.events,
        )


def reduce_match(log: MatchLog, upto_seq: int | None = None) -> MatchReducer:
    """Fold one match (up to and including ``upto_seq``) and return the reducer."""
    reducer = MatchReducer(log.source, log.line)
    reducer.orphan = log.orphan
    for rec in log.records:
        if upto_seq is not None and rec.seq > upto_seq:
            break
        reducer.feed(rec)
    return reducer


def verify_match(log: MatchLog) -> MatchReport:
    return reduce_match(log).report()
