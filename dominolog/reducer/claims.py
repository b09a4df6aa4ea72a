"""The table's claims (``hand_end.points``/``winner``, ``match_end.totals``/``winner``) against the rules."""

from __future__ import annotations

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


def claim_agrees(ev: HandEnd | MatchEnd, players: list[str], points: dict[str, int], winner: WinnerValue) -> bool:
    """Whether what ``ev`` claims (its points, or totals, and its winner) is what the rules give: then
    :func:`check_claim` finds nothing, and the words and rulings it would need are not made."""
    claimed = ev.points if isinstance(ev, HandEnd) else ev.totals
    if claimed is not None and {p: claimed.get(p, 0) for p in players} != points:
        return False
    return "winner" not in ev.given or same_winner(ev.winner, winner)


def check_claim(
    ev: HandEnd | MatchEnd,
    players: list[str],
    points: dict[str, int],
    winner: WinnerValue,
    what: str,
    ctx: Ctx,
    points_rules: tuple[str, ...],
    winner_rules: tuple[str, ...],
) -> None:
    """A claimed score or winner that is not the rules' is a ``score-mismatch`` (a player left out claims 0),
    resting on ``points_rules`` or ``winner_rules``."""
    claimed = ev.points if isinstance(ev, HandEnd) else ev.totals
    if claimed is not None:
        full = {p: claimed.get(p, 0) for p in players}
        if full != points:
            ctx.violation(
                "score-mismatch",
                f"{what}: claimed {fmt_points(full)}; the rules give {fmt_points(points)}",
                points_rules,
                (),
                tuple(p for p in players if full[p] != points.get(p)),
            )
    if "winner" in ev.given and not same_winner(ev.winner, winner):
        ctx.violation(
            "score-mismatch",
            f"{what}: claimed winner {fmt_winner(ev.winner)}; the rules give {fmt_winner(winner)}",
            winner_rules,
        )
