"""What the whole log shows of a match's hidden hands, for the replay viewer.

One audit of the match (:func:`dominolog.audit.engine.audit_match`) is made the first time it is
asked for and kept with the timeline, so a key press only looks things up:

* each player's tiles after an event: certainly held, may hold, how many (:meth:`Knowing.hands_at`,
  the knowledge the audit document shows);
* the plays a player had, or may have had, at an event (:func:`plays_of`): just before a pass or
  a draw, from the hand's facts alone (a pass is never judged by taking it as honest);
* how sure a finding is (:meth:`Knowing.certainty`): ``certain``, ``possible`` (some hand the log
  allows breaks the rule and some does not) or ``unverifiable``;
* the findings at an event with their rules and proofs (:meth:`Knowing.findings_at`), from the
  audit document (:func:`dominolog.audit.document.build_audit`), made once when first asked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dominolog.audit.engine import HandAudit, MatchAudit, audit_match
from dominolog.log.reader import MatchLog
from dominolog.render import knowledge_words
from dominolog.state import HandState, Issue
from dominolog.tiles import Tile
from dominolog.variants import Variant

#: a finding's certainty, as the audit document names it
CERTAIN, POSSIBLE, UNVERIFIABLE = "certain", "possible", "unverifiable"


@dataclass(slots=True, frozen=True)
class Known:
    """What the whole log shows of one player's hand after an event."""

    holds: frozenset[Tile]
    may: frozenset[Tile]
    count: int

    @property
    def open(self) -> int:
        """How many of the player's tiles the log leaves open (each one of :attr:`may`)."""
        return max(0, self.count - len(self.holds))

    def words(self) -> str:
        """``0-0 3-6 + 3 of 7 possible`` (the tiles held for sure, then how many more among how many),
        as ``dominolog show`` says it."""
        return knowledge_words(self.holds, self.may, self.count)


@dataclass(slots=True, frozen=True)
class Plays:
    """The plays to show at one event: ``player``'s, just before it (``before``) or after it.

    ``moves`` are every play the player had or may have had; the tiles of ``maybe`` are those the
    player only may have held (a hidden hand: ``hidden``). ``surely_one``: the log proves the player
    held one of the plays, though not which.
    """

    player: str | None
    moves: list[tuple[Tile, str]]
    before: bool = False
    maybe: frozenset[Tile] = frozenset()
    hidden: bool = False
    surely_one: bool = False

    @property
    def sure(self) -> list[tuple[Tile, str]]:
        return [m for m in self.moves if m[0] not in self.maybe]

    def words(self) -> str:
        """``legal 2``, ``legal 1 + 2 possible``, ``legal 0 + 2 possible``, or ``legal ≥1 of 3`` (the log
        proves one of the 3 was held, not which)."""
        n_sure = len(self.sure)
        n_maybe = len(self.moves) - n_sure
        if not n_maybe:
            return f"legal {n_sure}"
        if n_sure:
            return f"legal {n_sure} + {n_maybe} possible"
        if self.surely_one:
            return f"legal ≥1 of {n_maybe}"
        return f"legal 0 + {n_maybe} possible"


def moves_with(variant: Variant, hand: HandState, player: str, tiles: Iterable[Tile]) -> list[tuple[Tile, str]]:
    """The plays ``player`` would have with ``tiles`` in hand (``hand`` otherwise as it is): each tile
    asked alone, the hand's size kept, and Double Draw's pairs (their two tiles, ``left`` and ``right``)."""
    probe = hand.clone()
    h = probe.holdings[player]
    size = h.count
    out: list[tuple[Tile, str]] = []
    candidates = sorted(set(tiles))
    try:
        for t in candidates:
            h.known, h.unknown = {t}, max(0, size - 1)
            out.extend(variant.legal_placements(probe, player))
        if variant.has_pair_plays:
            h.known, h.unknown = set(candidates), 0
            for a, b in variant.pair_plays(probe, player):
                out += [(a, "left"), (b, "right")]
    except Exception:  # a half-read log may leave a state the rules cannot judge: show none
        return []
    return list(dict.fromkeys(out))


class Knowing:
    """The audit of one match, and the lookups the viewer makes in it (see the module's docstring)."""

    def __init__(self, log: MatchLog, min_likelihood: float | None = None) -> None:
        self.log = log
        #: the audit document leaves out the possible violations less likely than this
        self.min_likelihood = min_likelihood
        self.audit: MatchAudit | None
        try:
            self.audit = audit_match(log)
        except Exception:  # a log the audit cannot fold: the viewer shows what was known then
            self.audit = None
        self._by_seq: dict[int, HandAudit] = {}
        self._by_number: dict[int, HandAudit] = {}
        for ha in self.audit.hands if self.audit is not None else []:
            self._by_number[ha.number] = ha
            for v in ha.events:
                self._by_seq.setdefault(v.record.seq, ha)
        self._document: dict[str, Any] | None = None
        self._findings: dict[int, list[dict[str, Any]]] | None = None

    # -- hands ----------------------------------------------------------------------------
    def hand(self, seq: int, number: int | None = None) -> HandAudit | None:
        """The hand the event ``seq`` belongs to (else hand ``number``: an event after it closed)."""
        ha = self._by_seq.get(seq)
        if ha is None and number is not None:
            ha = self._by_number.get(number)
        return ha

    def hands_at(self, seq: int, number: int | None = None) -> dict[str, Known] | None:
        """Each player's :class:`Known` after the event ``seq``, for a hand recorded with hidden tiles
        (None for a full-information hand, or no hand)."""
        ha = self.hand(seq, number)
        if ha is None or not ha.start.hidden:
            return None
        at = seq if seq in self._by_seq else (ha.end_seq or seq)
        out: dict[str, Known] = {}
        for p in ha.players:
            holds, may, count = ha.knowledge(p, at)
            out[p] = Known(holds, may, count)
        return out

    def held(self, ha: HandAudit, player: str, seq: int, before: bool) -> tuple[frozenset[Tile], frozenset[Tile]]:
        """(certainly held, possibly held) by ``player``: just before the event ``seq`` (``before``),
        by the hand's facts alone, as a rule about that pass or draw is judged (never by taking
        other passes as honest); after it, what the hands show (:meth:`hands_at`)."""
        facts = ha.facts
        if before and facts.feasible:
            b = ha.before(player, seq)
            possible = b.possible(facts.tiles)
            return b.certain(possible), possible
        holds, may, _ = ha.knowledge(player, seq - 1 if before else seq)
        return holds, holds | may

    def plays(
        self, variant: Variant, hand: HandState, player: str, seq: int, before: bool, number: int | None = None
    ) -> Plays | None:
        """The plays ``player`` had or may have had, ``hand`` being the table then (None: the hand is
        not hidden to the audit, or the player's tiles were all known then)."""
        ha = self.hand(seq, number)
        if ha is None or not ha.start.hidden or player not in ha.players:
            return None
        h = hand.holdings.get(player)
        if h is None or not h.unknown:
            return None
        certain, possible = self.held(ha, player, seq, before)
        moves = moves_with(variant, hand, player, possible)
        maybe = frozenset(t for t, _ in moves if t not in certain)
        surely = any(t not in maybe for t, _ in moves)
        if not surely and before:
            surely = any(
                j.check.seq == seq and j.check.player == player and j.decision is not None and j.decision[0] is True
                for j in ha.judged
            )
        return Plays(player, moves, before, maybe, True, surely)

    # -- findings ----------------------------------------------------------------------------
    def certainty(self, issue: Issue, violation: bool) -> str:
        """``certain`` for a violation; for an unverified rule ``possible`` when the worlds of the log
        split on it, else ``unverifiable`` (as the audit document says)."""
        if violation:
            return CERTAIN
        ha = self._by_seq.get(issue.seq)
        judged = ha.decision_of(issue) if ha is not None else None
        if judged is not None and judged.decision is not None and judged.decision[0] is None:
            return POSSIBLE
        return UNVERIFIABLE

    def document(self) -> dict[str, Any] | None:
        """The audit document of the match (None when it cannot be built)."""
        if self._document is None:
            try:
                from dominolog.audit.document import build_audit

                self._document = build_audit(self.log, audit=self.audit, min_likelihood=self.min_likelihood)
            except Exception:
                return None
        return self._document

    def fair_play(self) -> list[str]:
        """Each player's evidence of reneging over the match, in words (the audit document's), and the
        model it rests on last; empty when there is no document."""
        doc = self.document()
        fp = doc.get("fairplay") if doc is not None else None
        if not fp:
            return []
        return [str(p["words"]) for p in fp["players"]] + [f"model: {fp['model']}"]

    def findings_at(self, seq: int, report_issues: Iterable[tuple[Issue, bool]] = ()) -> list[dict[str, Any]]:
        """The findings at the event ``seq`` (FINDING dicts of the audit document: certainty, code,
        message, rules, proof, tiles); without a document, made from ``report_issues`` (issue,
        is-a-violation) and the audit."""
        if self._findings is None:
            doc = self.document()
            if doc is not None:
                found: dict[int, list[dict[str, Any]]] = {}
                for f in [*doc.get("findings", []), *(f for h in doc.get("hands", []) for f in h.get("findings", []))]:
                    found.setdefault(f["seq"], []).append(f)
                self._findings = found
        if self._findings is not None:
            return list(self._findings.get(seq, []))
        return [self._plain_finding(issue, violation) for issue, violation in report_issues if issue.seq == seq]

    def _plain_finding(self, issue: Issue, violation: bool) -> dict[str, Any]:
        """A finding as the report gives it, when the audit document could not be made (a bug)."""
        return {
            "seq": issue.seq,
            "line": issue.line,
            "code": issue.code,
            "certainty": self.certainty(issue, violation),
            "message": issue.message,
            "rules": [],
            "proof": ["(the audit of this match could not be worked out: dominolog audit says why)"],
            "tiles": [],
        }
