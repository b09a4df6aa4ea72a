"""The replay model: the state of a match after any of its events, at once.

The match is folded once, from its first event to its last. After every event
the open hand is cloned (:meth:`HandState.clone`: the layout, the holdings,
a few lists) into a :class:`Frame`, with the totals and how many hand results
stand; so moving to any event is a list lookup, whatever the distance. A
frame between two hands shows the hand just closed, as it was at its end.

The model also keeps what the whole log says and no single event does: the
final report (violations and unverified rules, each with its seq), and the
audit of the match (:class:`~dominolog.tui.knowing.Knowing`, made when first
asked), from which "what the log only knows later" follows: the tiles a
hidden hand held at an event, and may have held, deduced from the whole log
(passes, reveals, plays, counts), and the plays a player had or may have had.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from dominolog.log.reader import MatchLog, Record
from dominolog.log.words import describe_record
from dominolog.reducer import MatchReducer, MatchReport
from dominolog.state import HandResult, HandState, Issue, WinnerValue, hidden_line
from dominolog.textsafe import cut, visible
from dominolog.tiles import Tile
from dominolog.tui.knowing import CERTAIN, Knowing, Known, Plays
from dominolog.variants import Variant


@dataclass(slots=True, frozen=True)
class Frame:
    """The state of the match right after the event at ``index`` (``seq``)."""

    index: int
    seq: int
    #: the hand open after the event, or (``closed``) the hand that the event or an earlier one closed
    hand: HandState | None
    closed: bool
    totals: dict[str, int]
    #: how many hand results stand (a prefix of :attr:`Timeline.results`)
    results: int
    ended: bool
    winner: WinnerValue


@dataclass(slots=True, frozen=True)
class Mark:
    """A violation (``kind`` "violation") or an unverified rule ("unverified") at one event."""

    kind: str
    issue: Issue


@dataclass(slots=True, frozen=True)
class Row:
    """One line of the event list."""

    seq: int
    player: str
    text: str
    points: str


@dataclass(slots=True)
class Later:
    """What the log knows only later of a hidden hand at one event: tiles it surely held then
    (``tiles``: beyond those known then), and each player's whole :class:`Known` (``known``)."""

    tiles: dict[str, frozenset[Tile]] = field(default_factory=dict)
    known: dict[str, Known] = field(default_factory=dict)


class Timeline:
    """Every state of one match, indexed by event (0 = the first record). ``min_likelihood``: the
    possible violations less likely than that are not marked (``replay --min-likelihood``; counted
    in :attr:`hidden`)."""

    def __init__(self, log: MatchLog, min_likelihood: float | None = None) -> None:
        self.log = log
        self.min_likelihood = min_likelihood
        #: how many possible violations ``min_likelihood`` leaves unmarked
        self.hidden = 0
        self.records: list[Record] = []
        self.seqs: list[int] = []
        self._index_of: dict[int, int] = {}
        self.reducer = MatchReducer(log.source, log.line)
        self.reducer.orphan = log.orphan
        self.frames: list[Frame] = []
        #: each hand's last state (after its reveals, before the event that closed it), by hand number
        self.final_hands: dict[int, HandState] = {}
        self.deal_indexes: list[int] = []
        self._last_open: HandState | None = None
        self._shown: HandState | None = None
        self.rows: list[Row] = []
        self.marks: dict[int, list[Mark]] = {}
        self._later: dict[int, Later] = {}
        self._knowing: Knowing | None = None
        self._certainty: dict[tuple[str, Issue], str] = {}
        self.extend(log.records)

    def extend(self, records: list[Record]) -> list[int]:
        """Fold the events appended to the match since (a recorder, ``replay --follow``): only they are
        folded. Returns the indexes of the events whose marks changed (the new ones included)."""
        reducer = self.reducer
        first = len(self.records)
        for rec in records:
            i = len(self.records)
            self.records.append(rec)
            self.seqs.append(rec.seq)
            self._index_of[rec.seq] = i
            reducer.feed(rec)
            state = reducer.state
            hand = state.hand if state is not None else None
            last_open = self._last_open
            if last_open is not None and (hand is None or hand.number != last_open.number):
                self.final_hands[last_open.number] = last_open
                self._shown = last_open
            if hand is not None and (last_open is None or hand.number != last_open.number):
                self.deal_indexes.append(i)
            self._last_open = last_open = hand.clone() if hand is not None else None
            if state is None:
                self.frames.append(Frame(i, rec.seq, None, False, {}, 0, False, None))
                continue
            shown = self._shown
            self.frames.append(
                Frame(
                    i,
                    rec.seq,
                    last_open if last_open is not None else shown,
                    last_open is None and shown is not None,
                    dict(state.totals),
                    len(state.results),
                    state.ended,
                    state.winner,
                )
            )
        if self._last_open is not None:
            self.final_hands[self._last_open.number] = self._last_open
        self.variant: Variant | None = reducer.variant
        self.players: list[str] = list(reducer.state.players) if reducer.state else []
        self.results: list[HandResult] = list(reducer.state.results) if reducer.state else []
        self.report: MatchReport = reducer.report()
        marks: dict[int, list[Mark]] = defaultdict(list)
        for v in self.report.violations:
            marks[v.seq].append(Mark("violation", v))
        least = self.min_likelihood
        self.hidden = 0
        for u in self.report.unverified:
            if least is not None and u.likelihood is not None and u.likelihood.share < least:
                self.hidden += 1
                continue
            marks[u.seq].append(Mark("unverified", u))
        old, self.marks = self.marks, dict(marks)
        #: indexes of the events with a violation, in order
        self.violation_indexes = sorted(
            {self._index_of[v.seq] for v in self.report.violations if v.seq in self._index_of}
        )
        #: indexes of the events with a violation or an unverified rule (a possible one), in order
        self.issue_indexes = sorted({self._index_of[q] for q in self.marks if q in self._index_of})
        self._later = {}
        self._knowing = None  # the audit is made again, of the whole match, when next asked
        self._certainty = {}
        self.rows.extend(self._row(i) for i in range(first, len(self.records)))
        changed = {self._index_of.get(q) for q in old.keys() | self.marks.keys() if old.get(q) != self.marks.get(q)}
        return sorted({i for i in changed if i is not None} | set(range(first, len(self.records))))

    # -- navigation ------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.records)

    @property
    def last(self) -> int:
        return len(self.records) - 1

    def index_of(self, seq: int) -> int | None:
        """The index of the event ``seq`` (None if the match has no such event)."""
        return self._index_of.get(seq)

    def frame(self, index: int) -> Frame:
        return self.frames[index]

    def next_hand(self, index: int) -> int:
        """The next deal after ``index`` (or the last event)."""
        k = bisect_right(self.deal_indexes, index)
        return self.deal_indexes[k] if k < len(self.deal_indexes) else self.last

    def previous_hand(self, index: int) -> int:
        """The deal of the hand ``index`` is in, or of the hand before when ``index`` is that deal."""
        k = bisect_right(self.deal_indexes, index) - 1
        if k >= 0 and self.deal_indexes[k] == index:
            k -= 1
        return self.deal_indexes[k] if k >= 0 else 0

    def next_violation(self, index: int) -> int | None:
        """The next event with a violation or an unverified rule (a possible violation)."""
        k = bisect_right(self.issue_indexes, index)
        return self.issue_indexes[k] if k < len(self.issue_indexes) else None

    def previous_violation(self, index: int) -> int | None:
        k = bisect_right(self.issue_indexes, index - 1) - 1
        return self.issue_indexes[k] if k >= 0 else None

    def marks_at(self, index: int) -> list[Mark]:
        return self.marks.get(self.seqs[index], [])

    # -- the audit ------------------------------------------------------------------------
    @property
    def knowing(self) -> Knowing:
        """The audit of the match as it stands (made once, when first asked)."""
        if self._knowing is None:
            log = MatchLog(self.log.source, self.log.line, list(self.records), self.log.orphan)
            self._knowing = Knowing(log, self.min_likelihood)
        return self._knowing

    def certainty(self, mark: Mark) -> str:
        """How sure the finding is: ``certain`` (a violation), ``possible`` or ``unverifiable``."""
        if mark.kind == "violation":
            return CERTAIN
        key = (mark.kind, mark.issue)
        found = self._certainty.get(key)
        if found is None:
            found = self._certainty[key] = self.knowing.certainty(mark.issue, False)
        return found

    def hidden_at(self, index: int) -> str:
        """What ``min_likelihood`` leaves unmarked at the event ``index``, in words ("" for nothing)."""
        least = self.min_likelihood
        if least is None:
            return ""
        seq = self.seqs[index]
        n = sum(
            1
            for u in self.report.unverified
            if u.seq == seq and u.likelihood is not None and u.likelihood.share < least
        )
        return hidden_line(n, least) if n else ""

    def findings_at(self, index: int) -> list[dict[str, Any]]:
        """The audit's findings at the event ``index`` (certainty, code, message, rules, proof)."""
        issues = [(m.issue, m.kind == "violation") for m in self.marks_at(index)]
        return self.knowing.findings_at(self.seqs[index], issues)

    def fair_play(self) -> list[str]:
        """Each player's evidence of reneging over the match, in words (:meth:`Knowing.fair_play`)."""
        return self.knowing.fair_play()

    # -- what the log knows later ------------------------------------------------
    def later(self, index: int) -> Later:
        """The tiles each hidden hand surely held after the event at ``index``, beyond what was known then."""
        cached = self._later.get(index)
        if cached is not None:
            return cached
        out = Later()
        frame = self.frames[index]
        hand = frame.hand
        if hand is not None and not frame.closed and hand.hidden:
            out.known = self.knowing.hands_at(frame.seq, hand.number) or {}
            for p, h in hand.holdings.items():
                if not h.unknown or p not in out.known:
                    continue
                extra = frozenset(out.known[p].holds - h.known - hand.layout.on_board)
                if extra:
                    out.tiles[p] = frozenset(sorted(extra)[: h.unknown])
        self._later[index] = out
        return out

    def legal(self, index: int, reveal: bool = False) -> list[tuple[Tile, str]]:
        """The plays the player on move could make after the event at ``index``, from the tiles known
        (with ``reveal``, also those the log knows only later). Double Draw's pair plays come as
        their two tiles, on ``left`` and ``right``."""
        frame = self.frames[index]
        hand, variant = frame.hand, self.variant
        if hand is None or frame.closed or hand.over is not None or variant is None or hand.turn is None:
            return []
        player = hand.turn
        if player not in hand.holdings:
            return []
        extra = self.later(index).tiles.get(player) if reveal else None
        if extra:
            hand = hand.clone()
            h = hand.holdings[player]
            h.known |= extra
            h.unknown -= len(extra)
        try:
            moves = list(variant.legal_placements(hand, player))
            if variant.has_pair_plays:
                for a, b in variant.pair_plays(hand, player):
                    moves += [(a, "left"), (b, "right")]
        except Exception:  # a half-read log may leave a state the rules cannot judge: show none
            return []
        return list(dict.fromkeys(moves))

    def _refill(self, index: int, player: str | None) -> bool:
        """The draw at ``index`` follows the drawer's own play (39's refill), not a play it replaces."""
        j = index - 1
        while j >= 0 and (ev := self.records[j].event) is not None and ev.type == "draw" and ev.player == player:
            j -= 1
        ev = self.records[j].event if j >= 0 else None
        return ev is not None and ev.type in ("play", "declare") and getattr(ev, "player", None) == player

    def _asked(self, index: int) -> tuple[str | None, int, bool]:
        """Whose plays to show at the event ``index``: (player, index of the state they are taken
        from, before). At a pass, a block call or a draw made instead of a play (not 39's refill
        after a play), the acting player's just before it; elsewhere, the player on move after it."""
        ev = self.records[index].event
        if index > 0 and ev is not None and ev.type in ("pass", "draw", "block_call"):
            previous = self.frames[index - 1].hand
            player = getattr(ev, "player", None)
            refill = ev.type == "draw" and self._refill(index, player)
            if previous is not None and previous.turn == player and previous.over is None and not refill:
                return player, index - 1, True
        hand = self.frames[index].hand
        return (hand.turn if hand is not None else None), index, False

    def legal_here(self, index: int, reveal: bool = False) -> tuple[str | None, list[tuple[Tile, str]], bool]:
        """The legal plays to show at the event ``index``, from the tiles known then (with ``reveal``,
        also those the log knows only later): (player, plays, before). At a pass, a block call or a
        draw made instead of a play, the plays the acting player had just before it (``before`` is
        True): what an arbiter asks about a renege. Elsewhere, the plays of the player on move."""
        player, at, before = self._asked(index)
        return player, self.legal(at, reveal), before

    def plays_here(self, index: int) -> Plays:
        """The plays to show at the event ``index`` (whose: as :meth:`legal_here`). A hand recorded
        with hidden tiles: every play the player had or may have had, by the whole log (just before
        a pass or a draw, by the hand's facts alone), the ones only possible marked; a hand whose
        tiles were known: the legal plays from the hand as it was."""
        player, at, before = self._asked(index)
        frame = self.frames[at]
        hand, variant = frame.hand, self.variant
        if (
            player is not None
            and hand is not None
            and hand.hidden
            and not frame.closed
            and hand.over is None
            and hand.turn == player
            and variant is not None
        ):
            plays = self.knowing.plays(variant, hand, player, self.seqs[index], before, hand.number)
            if plays is not None:
                return plays
        return Plays(player, self.legal(at), before)

    # -- the event list ------------------------------------------------------------
    def _row(self, index: int) -> Row:
        rec = self.records[index]
        ev = rec.event
        text = describe_record(rec)
        player = (getattr(ev, "player", None) or "") if ev is not None else ""
        if ev is not None and ev.type == "deal":
            player = getattr(ev, "leader", "") or ""
            text = "deal"
        elif player and text.startswith(f"{ev.type} {player}"):  # type: ignore[union-attr]
            text = ev.type + text[len(ev.type) + len(player) + 1 :]  # type: ignore[union-attr]
        points = ""
        frame = self.frames[index]
        closed_one = index > 0 and frame.results > self.frames[index - 1].results
        if ev is not None and ev.type == "hand_end" and closed_one:
            result = self.results[frame.results - 1]
            best = max(result.points.values(), default=0)
            if isinstance(result.winner, str):
                player = result.winner
                best = result.points.get(result.winner, best)
            points = str(best)
        elif ev is not None and ev.type in ("play", "draw", "pass", "declare", "block_call") and index > 0:
            before, after = self.frames[index - 1].hand, frame.hand
            if (
                before is not None
                and after is not None
                and not frame.closed
                and before.number == after.number
                and player in after.points
            ):
                gained = after.points[player] - before.points.get(player, 0)
                if gained:
                    points = f"+{gained}" if gained > 0 else str(gained)
        return Row(rec.seq, visible(cut(player, 100)), visible(cut(text, 2000)), points)
