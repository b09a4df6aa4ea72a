"""The table's claims (``hand_end.points``/``winner``, ``match_end.totals``/``winner``) against the rules."""

from __future__ import annotations

from collections.abc import Callable

from dominolog.events import HandEnd, MatchEnd
from dominolog.reducer.context import Ctx
from dominolog.state import WinnerValue


def same_winner(claim: WinnerValue, actual: WinnerValue) -> bool:
    if isinstance(claim, list) and isinstance(actual, list):
        return sorted(claim) == sorted(actual)
    return claim == actual


def fmt_points(points: dict[str, int]) -> str:
    return ", ".join(f"{p} {v}" for p, v in points.items())


def fmt_winner(w: WinnerValue) -> str:
    if w is None:
        return "no winner"
    return " and ".join(w) if isinstance(w, list) else w


def check_claim_names(ev: HandEnd | MatchEnd, players: list[str], ctx: Ctx) -> None:
    """A claim naming someone who is not a player is ``malformed``."""
    claimed = ev.points if isinstance(ev, HandEnd) else ev.totals
    names = list(claimed or ())
    winner = ev.winner
    names += [winner] if isinstance(winner, str) else list(winner or ())
    unknown = sorted({p for p in names if p not in players})
    if unknown:
        ctx.violation("malformed", f"{ev.type} claim names unknown players: {', '.join(unknown)}")


def check_claim(
    ev: HandEnd | MatchEnd,
    players: list[str],
    points: dict[str, int],
    winner: WinnerValue,
    ctx: Ctx,
    explain: Callable[[], tuple[str, tuple[str, ...], tuple[str, ...]]],
) -> None:
    """A claimed score or winner that is not the rules' is a ``score-mismatch`` (a player left out claims 0).
    ``explain`` gives what was claimed of (``"match"``, ``"hand 2 (...)"``) and the rulings a wrong
    score and a wrong winner rest on: asked only when the claim is wrong (a claim that agrees, as
    nearly every one does, makes no words and looks up no rulings)."""
    claimed = ev.points if isinstance(ev, HandEnd) else ev.totals
    full = None if claimed is None else {p: claimed.get(p, 0) for p in players}
    points_wrong = full is not None and full != points
    winner_wrong = "winner" in ev.given and not same_winner(ev.winner, winner)
    if not (points_wrong or winner_wrong):
        return
    what, points_rules, winner_rules = explain()
    if full is not None and points_wrong:
        ctx.violation(
            "score-mismatch",
            f"{what}: claimed {fmt_points(full)}; the rules give {fmt_points(points)}",
            points_rules,
            (),
            tuple(p for p in players if full[p] != points.get(p)),
        )
    if winner_wrong:
        ctx.violation(
            "score-mismatch",
            f"{what}: claimed winner {fmt_winner(ev.winner)}; the rules give {fmt_winner(winner)}",
            winner_rules,
        )
