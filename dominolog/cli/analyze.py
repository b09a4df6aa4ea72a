"""``dominolog analyze``: every decision of a Ghost 13 match ranked by the exact solver."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from dominolog.cli.common import (
    MatchNumber,
    MatchStore,
    MatchTarget,
    ReportFormat,
    ReportHand,
    ReportOut,
    fail,
    match_of,
    write_report,
)
from dominolog.textsafe import shown

if TYPE_CHECKING:  # the analysis is imported when the command runs
    from dominolog.analysis.review import HandReview, MatchReview


def render_text(review: MatchReview) -> str:
    """The review as text: a line a decision (mistakes marked ``!``), then each player's figures."""
    from dominolog.analysis.review import ACCURACY

    head = f"{shown(review.match_id or review.source)} ({shown(review.variant or '?')})"
    if review.note:
        return f"{head}: {review.note}\n"
    width = max((len(shown(p, 40)) for p in review.players), default=4)
    lines = [head]
    for h in review.hands:
        lines.append("")
        lines.append(f"Hand {h.number}" + (" (deal made known by the reveals)" if h.hidden else ""))
        for d in h.decisions:
            mark = "!" if d.loss > 0 else " "
            lines.append(
                f"{mark} seq {d.seq:<4} {shown(d.player, 40):<{width}}  played {d.played:<11} "
                f"#{d.rank} of {d.count:<3} lost {d.loss:<3} (best {d.best_move} {d.best:+d})"
            )
        if h.note:
            lines.append(f"  {h.note}")
    lines.append("")
    lines.append("Per player (choices: decisions whose options do not all have the same value)")
    for p in review.summary:
        lines.append(
            f"  {shown(p.name, 40):<{width}}  {p.choices} choices of {p.decisions} decisions, lost {p.total_loss} "
            f"(avg {p.average_loss:.2f}), best move {p.match_rate:.1f}%, accuracy {p.accuracy:.1f}"
        )
        for d in p.mistakes:
            lines.append(
                f"    hand {d.hand} seq {d.seq}: played {d.played}, lost {d.loss} (best {d.best_move} {d.best:+d})"
            )
    lines.append(f"Values are exact points for the player on move (theirs minus the opponent's); {ACCURACY}.")
    return "\n".join(lines) + "\n"


def _run(log, hands: list[int], jobs: int, from_seq: int, last: int | None, advance) -> list[HandReview]:  # type: ignore[no-untyped-def]
    from dominolog.analysis.review import plan_match, review_hand, review_hand_of

    if jobs <= 1 or len(hands) <= 1:
        plans = {h.number: h for h in plan_match(log).hands}
        return [review_hand(plans[n], None, lambda: advance(1), from_seq, last) for n in hands]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(review_hand_of, log, n, from_seq, last) for n in hands]
        out = []
        for f in futures:
            done = f.result()
            advance(len(done.decisions))
            out.append(done)
    return out


def analyze(
    target: MatchTarget,
    match: MatchNumber = 1,
    db: MatchStore = None,
    hand: ReportHand = None,
    format: ReportFormat = "text",
    out: ReportOut = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Solve this many hands at once (processes).")] = 1,
    from_seq: Annotated[
        int, typer.Option("--from-seq", min=0, help="Only the decisions from this seq on (earlier moves are replayed).")
    ] = 0,
    last: Annotated[
        int | None, typer.Option("--last", min=0, help="Only each hand's last N decisions (the end game).")
    ] = None,
) -> None:
    """Rank every decision of a Ghost 13 match with the exact solver (both hands known: dealt open, or
    made known by the reveals): each option's value, the move played, its rank and the points lost,
    then each player's figures. Another variant is not analysed (exit 0)."""
    from dominolog.analysis.review import assemble, decisions_to_solve, not_solved, plan_match
    from dominolog.cli.progress import LateProgress

    if format not in ("text", "json", "html"):
        fail(f"--format {shown(format, 40)!r}: choose text, json or html")
    log, _, where = match_of(target, match, db)
    if log.orphan:
        fail(f"{shown(log.source)}: not a match: no match_start line", 1)
    plan = plan_match(log)
    review = not_solved(plan)
    if review is None:
        chosen = [h for h in plan.hands if hand is None or h.number == hand]
        if hand is not None and not chosen:
            fail(f"{where} has no hand {hand}")
        total = sum(decisions_to_solve(h, from_seq, last) for h in chosen)
        with LateProgress(total, "analysing") as bar:
            hands = _run(log, [h.number for h in chosen], jobs, from_seq, last, lambda n: bar.advance(n, n))
        review = assemble(plan, hands)
    if format == "json":
        text = json.dumps(review.as_dict(), ensure_ascii=False, indent=1) + "\n"
    elif format == "html":
        from dominolog.analysis.review_html import render_html

        text = render_html(review)
    else:
        text = render_text(review)
    write_report(text, out, review.note or "analysed")
