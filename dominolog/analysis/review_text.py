"""A review as text: what ``dominolog analyze --format text`` writes and the server serves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.analysis.results import Decision, MatchReview


def _num(x: float, sign: bool = False) -> str:
    """An exact value as an integer, a sampled one with 2 decimals."""
    if isinstance(x, int):
        return f"{x:+d}" if sign else str(x)
    return f"{x:+.2f}" if sign else f"{x:.2f}"


def _line(d: Decision, width: int) -> str:
    mark = "!" if d.loss > 0 else " "
    played = d.played
    best = f"best {d.best_move} {_num(d.best, True)}"
    if d.samples is not None:
        best += f", played {_num(d.value, True)} ±{d.spread:.2f}"
    return (
        f"{mark} seq {d.seq:<4} {shown(d.player, 40):<{width}}  played {played:<11} "
        f"#{d.rank} of {d.count:<3} lost {_num(d.loss):<3} ({best})"
    )


def render_text(review: MatchReview) -> str:
    """The review as text: a line a decision (mistakes marked ``!``), then each player's figures."""
    from dominolog.analysis.playout import POLICY
    from dominolog.analysis.review import ACCURACY

    head = f"{shown(review.match_id or review.source)} ({shown(review.variant or '?')})"
    if review.note:
        return f"{head}: {review.note}\n"
    width = max((len(shown(p, 40)) for p in review.players), default=4)
    lines = [head]
    sampling = review.sampling
    if sampling is not None:
        lines.append(f"Sampled: {sampling.samples} deals a decision (seed {sampling.seed})")
    for h in review.hands:
        lines.append("")
        known = "deal made known by the reveals" if sampling is None else "recorded with hidden hands"
        lines.append(f"Hand {h.number}" + (f" ({known})" if h.hidden else ""))
        for d in h.decisions:
            lines.append(_line(d, width))
        if h.note:
            lines.append(f"  {shown(h.note, 2000)}")
    lines.append("")
    lines.append("Per player (choices: decisions whose options do not all have the same value)")
    for p in review.summary:
        lines.append(
            f"  {shown(p.name, 40):<{width}}  {p.choices} choices of {p.decisions} decisions, lost "
            f"{_num(p.total_loss)} (avg {p.average_loss:.2f}), best move {p.match_rate:.1f}%, accuracy {p.accuracy:.1f}"
        )
        for d in p.mistakes:
            lines.append(
                f"    hand {d.hand} seq {d.seq}: played {d.played}, lost {_num(d.loss)} "
                f"(best {d.best_move} {_num(d.best, True)})"
            )
    from dominolog.analysis.luck import luck_lines

    luck = luck_lines(review)
    if luck:
        lines.append("Luck and skill")
        lines += [f"  {shown(line, 2000)}" for line in luck]
    if sampling is None:
        lines.append(f"Values are exact points for the player on move (theirs minus the opponent's); {ACCURACY}.")
    else:
        lines.append(
            f"Values are points for the player on move (their side's for the rest of the hand minus the others' "
            f"mean; penalties turned round), each the mean over {sampling.samples} deals consistent with what "
            f"they knew, with {POLICY}; ± is the standard deviation over the deals; {ACCURACY}."
        )
    return "\n".join(lines) + "\n"
