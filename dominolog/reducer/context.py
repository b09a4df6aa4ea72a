"""Where a variant's hooks report what they find about the event being applied, and what the
fold tells a listener as it goes."""

from __future__ import annotations

from typing import Protocol

from dominolog.events import HandEnd
from dominolog.state import HandResult, HandState, Issue, PendingCheck


class Findings:
    """The violations and unverified rules of the match's events, as the fold finds them.

    ``pending`` holds the open hand's unverified rules to judge again when the reveals are in.
    """

    __slots__ = ("pending", "unverified", "violations")

    def __init__(self) -> None:
        self.violations: list[Issue] = []
        self.unverified: list[Issue] = []
        self.pending: list[tuple[Issue, PendingCheck]] = []


class Ctx:
    """The event being applied (its seq and line), the match's variant (by name: the rulings a
    finding rests on are the variant's), and where its findings go.

    A finding is given as data: its code, its words, and the rulings, tiles and players it is about
    (and for an unverified rule, why it could not be checked); see :class:`~dominolog.state.Issue`.
    """

    __slots__ = ("findings", "line", "seq", "variant")

    def __init__(self, findings: Findings) -> None:
        self.findings = findings
        self.seq = 0
        self.line = 0
        self.variant = ""

    def violation(
        self,
        code: str,
        message: str,
        rules: tuple[str, ...] = (),
        tiles: tuple[str, ...] = (),
        players: tuple[str, ...] = (),
    ) -> None:
        self.findings.violations.append(Issue(self.seq, self.line, code, message, None, rules, tiles, players))

    def unverified(
        self,
        code: str,
        message: str,
        check: PendingCheck | None = None,
        rules: tuple[str, ...] = (),
        players: tuple[str, ...] = (),
        reason: str = "",
    ) -> None:
        issue = Issue(self.seq, self.line, code, message, None, rules, (), players, reason)
        self.findings.unverified.append(issue)
        if check is not None:
            self.findings.pending.append((issue, check))


class QuietCtx:
    """A context that drops what it is told (rebuilding a state whose violations were already reported)."""

    __slots__ = ("line", "seq", "variant")

    def __init__(self, seq: int, variant: str = "") -> None:
        self.seq = seq
        self.line = 0
        self.variant = variant

    def violation(
        self,
        code: str,
        message: str,
        rules: tuple[str, ...] = (),
        tiles: tuple[str, ...] = (),
        players: tuple[str, ...] = (),
    ) -> None:
        pass

    def unverified(
        self,
        code: str,
        message: str,
        check: PendingCheck | None = None,
        rules: tuple[str, ...] = (),
        players: tuple[str, ...] = (),
        reason: str = "",
    ) -> None:
        pass


class FoldListener(Protocol):
    """What the fold tells a listener as it goes (python-chess's PGN visitors are the model): the
    audit's scoring keeps each hand as it was scored (:func:`dominolog.audit.scoring.fold_scored`)."""

    def hand_closed(self, hand: HandState, result: HandResult, end: HandEnd | None) -> None:
        """A hand is closed with ``result``: ``hand`` is its state as scored (after the reveals),
        ``end`` the ``hand_end`` that closed it (None: a deal, a match_end or an abandonment did)."""
