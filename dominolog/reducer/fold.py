"""The fold: :class:`MatchReducer` applies one record after another to the match's state.

It owns what is the same in every variant: the ``seq`` and hash checks, names, the
dispatch of each event, ``undo`` (through :mod:`~dominolog.reducer.history`) and
hand and match boundaries (:mod:`~dominolog.reducer.hands`). What the rules say
about a play, a draw or a pass is asked of the variant (:mod:`dominolog.variants`).

The fold is incremental: :meth:`MatchReducer.feed` costs what its event costs, not
what the match costs, so a recorder keeps one reducer and feeds it each new event.
:meth:`MatchReducer.attempt` feeds an event and can take it back (:meth:`rollback`):
that is how a recorder refuses an entry without writing it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Final

from dominolog.events import Draw, Event, MatchStart, Pass, Play
from dominolog.frozen import by_fields
from dominolog.log.reader import MatchLog, Record
from dominolog.reducer.chain import HashChain
from dominolog.reducer.context import Ctx, Findings, FoldListener
from dominolog.reducer.hands import HandLifecycle
from dominolog.reducer.history import SAVE_EVERY, HandHistory, Saved
from dominolog.reducer.judging import ChecksHook
from dominolog.reducer.report import MatchReport
from dominolog.state import HandResult, HandState, Issue, MatchState
from dominolog.tiles import tile_or_none
from dominolog.variants import Variant, VariantError, find_variant
from dominolog.variants.rulings import CLOSING, MATCH, ids, over

TURN_EVENTS: Final = frozenset({"play", "draw", "pass", "declare", "block_call"})
_NAME_FIELDS: Final = {
    "deal": ("leader", "dealer", "chooser"),
    **{kind: ("player",) for kind in ("play", "draw", "pass", "declare", "block_call", "reveal", "note")},
}


#: DOMINOLOG_DEBUG set: a bug met in the fold is raised, not reported as an ``internal-error`` finding
_LOUD = os.environ.get("DOMINOLOG_DEBUG", "").strip() not in ("", "0")


@dataclass(init=False, slots=True, frozen=True)
class Mark:
    """What one event can change in a reducer, saved so that it can be taken back. Costs a copy
    of the open hand and of its findings (never of the match): earlier hands' findings are final."""

    events: int
    chain: tuple[bool | None, str | None, str]
    format_issues: int
    #: where the open hand's findings begin, and their copies from there
    marks: tuple[int, int]
    violations: list[Issue]
    unverified: list[Issue]
    pending: list[Any]
    flags: tuple[bool, bool, bool]
    state: MatchState | None
    variant: Variant | None
    match: tuple[Any, ...] | None
    history: HandHistory
    snapshot: tuple[Any, ...]

    def __init__(
        self,
        events: int,
        chain: tuple[bool | None, str | None, str],
        format_issues: int,
        marks: tuple[int, int],
        violations: list[Issue],
        unverified: list[Issue],
        pending: list[Any],
        flags: tuple[bool, bool, bool],
        state: MatchState | None,
        variant: Variant | None,
        match: tuple[Any, ...] | None,
        history: HandHistory,
        snapshot: tuple[Any, ...],
    ) -> None:
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "chain", chain)
        object.__setattr__(self, "format_issues", format_issues)
        object.__setattr__(self, "marks", marks)
        object.__setattr__(self, "violations", violations)
        object.__setattr__(self, "unverified", unverified)
        object.__setattr__(self, "pending", pending)
        object.__setattr__(self, "flags", flags)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "match", match)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "snapshot", snapshot)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)


class MatchReducer(HandLifecycle):
    """Folds the records of one match. Feed records in order, then call :meth:`report`."""

    def __init__(self, source: str = "<log>", line: int = 1, likelihoods: bool = True) -> None:
        self.source = source
        self.line = line
        #: whether a rule left open at a hand's end is given its likelihood (the share of the worlds in
        #: which it is broken, in its message and ``likelihood``). False for a fold whose unverified
        #: rules are only counted (``verify`` without ``--verbose``, ``--json`` or ``--min-likelihood``;
        #: ``import``): no verdict, count, reason or figure changes, only that figure is not worked out
        self.likelihoods = likelihoods
        self.state: MatchState | None = None
        self.variant: Variant | None = None
        self.findings = Findings()
        #: violations of the events' form (malformed, seq, hash): never taken back by an undo
        self.format_issues: list[Issue] = []
        self.broken = False
        self.orphan = False
        self.ctx = Ctx(self.findings)
        self.events = 0
        self.chain = HashChain()
        #: the open hand since its deal
        self.history = HandHistory()
        #: a hand that is not counted is being skipped up to its hand_end
        self.skipping = False
        #: told each hand's unverified rules as judged at its end (:mod:`dominolog.audit` listens)
        self.on_checks: ChecksHook | None = None
        #: told what the fold does at the points a job needs (each hand closed, as scored: the audit)
        self.listener: FoldListener | None = None
        self.outcomes: list[HandResult] | None = None

    @property
    def violations(self) -> list[Issue]:
        return self.findings.violations

    @property
    def unverified(self) -> list[Issue]:
        return self.findings.unverified

    @property
    def head(self) -> str:
        """The head hash over every record fed so far (docs/format.md, section 6)."""
        return self.chain.head

    # -- feeding -------------------------------------------------------------
    def feed(self, rec: Record) -> None:
        """Apply one record. A bug met here is reported as ``internal-error``, never raised (raised
        when ``DOMINOLOG_DEBUG`` is set: the differential test of the builds sets it, so that a bug
        cannot pass as a finding)."""
        try:
            self._feed(rec)
        except Exception as exc:  # pragma: no cover - the property tests keep this unreachable
            if _LOUD:
                raise
            self.format_issues.append(
                Issue(rec.seq, rec.line, "internal-error", f"dominolog failed here ({type(exc).__name__}: {exc})")
            )
            self.broken = True

    def mark(self) -> Mark:
        """Save what the next event may change (see :meth:`rollback`)."""
        f, state, hist = self.findings, self.state, self.history
        match = None
        if state is not None:
            hand = state.hand.clone() if state.hand is not None else None
            match = (hand, len(state.results), state.totals, state.over, state.ended, state.abandoned, state.winner)
        v0, u0 = hist.marks
        return Mark(
            self.events,
            self.chain.state(),
            len(self.format_issues),
            hist.marks,
            f.violations[v0:],
            f.unverified[u0:],
            list(f.pending),
            (self.broken, self.orphan, self.skipping),
            state,
            self.variant,
            match,
            hist,
            hist.snapshot(),
        )

    def rollback(self, mark: Mark) -> None:
        """Take back the one event fed since ``mark``: the reducer is as it was then."""
        f = self.findings
        self.events = mark.events
        self.chain.restore(mark.chain)
        del self.format_issues[mark.format_issues :]
        v0, u0 = mark.marks
        f.violations[v0:] = mark.violations
        f.unverified[u0:] = mark.unverified
        f.pending[:] = mark.pending
        self.broken, self.orphan, self.skipping = mark.flags
        self.state, self.variant = mark.state, mark.variant
        self.ctx.variant = mark.variant.name if mark.variant is not None else ""
        if self.state is not None and mark.match is not None:
            hand, results, totals, over, ended, abandoned, winner = mark.match
            s = self.state
            s.hand = hand.clone() if hand is not None else None
            del s.results[results:]
            s.totals, s.over, s.ended, s.abandoned, s.winner = totals, over, ended, abandoned, winner
        self.history = mark.history
        self.history.restore(mark.snapshot)

    def attempt(self, rec: Record) -> tuple[Mark, list[Issue], list[Issue]]:
        """Feed ``rec`` and say what it brought: the mark to roll it back with, its violations
        (of its form and of the rules) and its unverified rules."""
        mark = self.mark()
        judged = self.open_findings()
        shown = {(i.seq, i.code, i.message) for i in judged[0]} if judged is not None else set()
        self.feed(rec)
        v0, u0 = mark.marks
        before = {(i.seq, i.code, i.message) for i in mark.violations}
        new = self.format_issues[mark.format_issues :] + [
            i for i in self.findings.violations[v0:] if (i.seq, i.code, i.message) not in before
        ]
        was = {(i.seq, i.code, i.message) for i in mark.unverified}
        unverified = [i for i in self.findings.unverified[u0:] if (i.seq, i.code, i.message) not in was]
        judged = self.open_findings()
        if judged is not None:  # what this event proves of the open hand's earlier events (issue 25)
            seen = before | shown | {(i.seq, i.code, i.message) for i in new}
            new += [i for i in judged[0] if (i.seq, i.code, i.message) not in seen]
        return mark, new, unverified

    def _feed(self, rec: Record) -> None:
        self.events += 1
        found = self.chain.check(rec)
        if found:
            self.format_issues.extend(found)
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

    def _start(self, ev: MatchStart) -> None:
        try:
            self.variant = find_variant(ev.variant)(ev.players, ev.options)
        except VariantError as exc:
            self.format_issues.append(Issue(self.ctx.seq, self.ctx.line, "malformed", f"match_start: {exc}"))
            self.broken = True
            return
        self.ctx.variant = self.variant.name
        self.state = MatchState(
            variant=ev.variant,
            players=list(ev.players),
            options=dict(self.variant.options),
            match_id=ev.id,
            meta=dict(ev.meta or {}),
            totals={p: 0 for p in ev.players},
        )

    def unknown_names(self, ev: Event) -> tuple[str, ...]:
        """The fields of ``ev`` naming someone who is not a player (``("player 'Zed'",)``; none: the
        empty tuple, which is made once)."""
        assert self.state is not None
        players = self.state.players
        # (the turn events, most of a log, read their one name without a look-up of the field by its name)
        if isinstance(ev, (Play, Draw, Pass)):
            player = ev.player
            return () if player is None or player in players else (f"player {player!r}",)
        names = []
        for attr in _NAME_FIELDS.get(ev.type, ()):
            value = getattr(ev, attr)
            if value is not None and value not in players:
                names.append(f"{attr} {value!r}")
        return tuple(names)

    def _apply(self, rec: Record, ev: Event) -> None:
        state = self.state
        assert state is not None and self.variant is not None
        ctx = self.ctx
        unknown = self.unknown_names(ev)
        if unknown:
            # a fault of the event's form: an undo later in the hand does not take it back
            self.format_issues.append(
                Issue(
                    rec.seq,
                    rec.line,
                    "malformed",
                    f"{ev.type}: unknown {', '.join(unknown)} (players: {', '.join(state.players)}); event ignored",
                )
            )
            if ev.type == "deal":
                self._close_open_hand(ev)
                self.skipping = True
            return
        kind = ev.type
        if kind == "note":
            return
        if state.ended:
            ctx.violation("out-of-order", f"{kind} after match_end; ignored", ids(MATCH, ctx.variant))
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
                ctx.violation("out-of-order", f"{kind} after the match is over; ignored", ids(MATCH, ctx.variant))
            elif state.results:
                ctx.violation(
                    "out-of-order",
                    f"{kind} after hand {len(state.results)} ended and before the next deal; ignored",
                    CLOSING,
                )
            else:
                ctx.violation("out-of-order", f"{kind} before the first deal; ignored", CLOSING)
            return
        hist = self.history
        hist.records.append((rec, ev))
        if kind == "undo":
            self._undo(rec)
            return
        k = len(hist.standing)
        if k % SAVE_EVERY == 0:
            f = self.findings
            hist.saved[k] = Saved(state.hand.clone(), len(f.violations), len(f.unverified), len(f.pending))
        hist.standing.append(len(hist.records) - 1)
        self._apply_in_hand(ev)

    def _apply_in_hand(self, ev: Event) -> None:
        """Apply a turn event or a reveal to the open hand (also used when re-folding)."""
        state, variant = self.state, self.variant
        assert state is not None and variant is not None and state.hand is not None
        hand = state.hand
        kind = ev.type
        if kind in TURN_EVENTS:
            if hand.over is not None and not variant.accepts_after_over(hand, kind):
                self.ctx.violation(
                    "out-of-order",
                    f"{kind} after hand {hand.number} was over ({hand.over} at seq {hand.over_seq}); ignored",
                    over(variant.name, hand.over),
                )
                return
            if kind == "play":
                placed = len(hand.placements)
                variant.on_play(state, hand, ev, self.ctx)  # type: ignore[arg-type]
                self._note_tried(hand, ev, placed)  # type: ignore[arg-type]
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

    def _note_tried(self, hand: HandState, ev: Play, placed: int) -> None:
        """Keep the tiles of a play the rules did not place (a play stays evidence of a holding)."""
        n = len(ev.tiles) if ev.tiles is not None else 1 if ev.tile is not None else 0
        if len(hand.placements) - placed == n:
            return  # the common case: every tile placed (no list of the texts made for it)
        texts = ev.tiles if ev.tiles is not None else [ev.tile] if ev.tile is not None else []
        laid = {pl.tile for pl in hand.placements[placed:]}
        for text in texts:
            tile = tile_or_none(text)
            if tile is not None and tile not in laid:
                hand.tried.append((self.ctx.seq, ev.player, tile))

    def _undo(self, rec: Record) -> None:
        """Withdraw the latest standing event of the hand: go back to the state saved nearest
        before it and apply the (at most SAVE_EVERY - 1) standing events between."""
        state, hist, f, ctx = self.state, self.history, self.findings, self.ctx
        assert state is not None
        if not hist.standing:
            hist.undo_targets[rec.seq] = None
            ctx.violation("illegal", "undo with nothing to retract in this hand")
            return
        target = hist.records[hist.standing.pop()][0]
        hist.undo_targets[rec.seq] = target.seq
        hist.retracted.add(target.seq)
        k = len(hist.standing)
        base = k - k % SAVE_EVERY
        saved = hist.saved[base]
        del f.violations[saved.violations :]
        del f.unverified[saved.unverified :]
        del f.pending[saved.pending :]
        state.hand = saved.hand.clone()
        seq, line = ctx.seq, ctx.line
        for pos in hist.standing[base:]:
            r, e = hist.records[pos]
            ctx.seq, ctx.line = r.seq, r.line
            self._apply_in_hand(e)
        ctx.seq, ctx.line = seq, line

    # -- what the recorder asks -------------------------------------------------------
    @property
    def hand(self) -> HandState | None:
        return self.state.hand if self.state is not None else None

    # -- results -------------------------------------------------------------------
    def report(self, view: bool = False) -> MatchReport:
        """What ``verify`` says now. ``view``: the issues unsorted and the hands and unverified rules
        as the reducer's own lists, to read before the next feed (cheap: a store's projection)."""
        state = self.state
        violations = self.format_issues + self.findings.violations
        unverified = self.findings.unverified
        judged = self.open_findings()
        if judged is not None:  # an open hand with hidden tiles, judged on its facts so far
            violations = violations + judged[0]
            unverified = judged[1]
        if not view:
            violations = sorted(violations, key=lambda i: i.seq)
            unverified = sorted(unverified, key=lambda i: i.seq)
        return MatchReport(
            source=self.source,
            line=self.line,
            variant=state.variant if state else None,
            players=list(state.players) if state else [],
            valid=not violations,
            complete=bool(state and state.ended),
            violations=violations,
            unverified=unverified,
            hands=(state.results if view else list(state.results)) if state else [],
            totals=dict(state.totals) if state else {},
            winner=state.winner if state else None,
            head=self.chain.head,
            match_id=state.match_id if state else None,
            events=self.events,
        )


def reduce_match(log: MatchLog, upto_seq: int | None = None, likelihoods: bool = True) -> MatchReducer:
    """Fold one match (up to and including ``upto_seq``) and return the reducer (``likelihoods``: see
    :attr:`MatchReducer.likelihoods`)."""
    reducer = MatchReducer(log.source, log.line, likelihoods)
    reducer.orphan = log.orphan
    for rec in log.records:
        if upto_seq is not None and rec.seq > upto_seq:
            break
        reducer.feed(rec)
    return reducer


def verify_match(log: MatchLog, likelihoods: bool = True) -> MatchReport:
    """The report of one match (``likelihoods`` False: its unverified rules without their likelihood,
    :attr:`MatchReducer.likelihoods`)."""
    return reduce_match(log, likelihoods=likelihoods).report()
