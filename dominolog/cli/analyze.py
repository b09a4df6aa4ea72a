"""``dominolog analyze``: every decision of a match ranked, Ghost 13 by the exact solver, the other
variants by sampling the deals the player on move could have faced (``--samples``, ``--seed``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dominolog.cli.common import (
    EveryMatch,
    MatchStore,
    MatchTargets,
    ReportFormat,
    ReportHand,
    fail,
    file_name_of,
    output_folder,
    read_matches,
    to_one_place,
    write_report,
)
from dominolog.jsontext import dumps
from dominolog.textsafe import shown

if TYPE_CHECKING:  # the analysis is imported when the command runs
    from collections.abc import Callable

    from dominolog.analysis.results import Decision, HandReview, MatchReview
    from dominolog.analysis.sampling import SampledPlan
    from dominolog.log.reader import MatchLog


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
    if sampling is None:
        lines.append(f"Values are exact points for the player on move (theirs minus the opponent's); {ACCURACY}.")
    else:
        lines.append(
            f"Values are points for the player on move (their side's for the rest of the hand minus the others' "
            f"mean; penalties turned round), each the mean over {sampling.samples} deals consistent with what "
            f"they knew, with {POLICY}; ± is the standard deviation over the deals; {ACCURACY}."
        )
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


def _run_sampled(
    log: MatchLog,
    plan: SampledPlan,
    hands: list[int],
    jobs: int,
    samples: int,
    seed: int,
    from_seq: int,
    last: int | None,
    sizes: dict[int, int],
    advance: Callable[[int], None],
) -> list[HandReview]:
    """The sampled review of ``hands`` (in this process, or spread over ``jobs`` processes: the same
    result, each decision seeding its own generator)."""
    from dominolog.analysis.sampling import review_sampled_hand, review_sampled_hand_of

    if jobs <= 1 or len(hands) <= 1:
        by_number = {h.number: h for h in plan.hands}
        return [
            review_sampled_hand(plan, by_number[n], samples, seed, lambda: advance(1), from_seq, last) for n in hands
        ]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(review_sampled_hand_of, log, n, samples, seed, from_seq, last) for n in hands]
        out = []
        for n, f in zip(hands, futures, strict=True):
            out.append(f.result())
            advance(sizes[n])
    return out


def _review_of(
    log: MatchLog,
    where: str,
    hand: int | None,
    jobs: int,
    from_seq: int,
    last: int | None,
    samples: int,
    seed: int,
) -> MatchReview:
    """Analyse one match (a progress bar when it takes a while)."""
    from dominolog.analysis.results import Sampling
    from dominolog.analysis.review import assemble, decisions_to_solve, not_solved, plan_match
    from dominolog.analysis.sampling import SAMPLED, moves_to_sample, plan_sampled
    from dominolog.cli.progress import LateProgress

    plan = plan_match(log)
    review = not_solved(plan)
    if review is None and plan.variant in SAMPLED:
        sampled = plan_sampled(log)
        chosen_s = [h for h in sampled.hands if hand is None or h.number == hand]
        if hand is not None and not chosen_s:
            fail(f"{where} has no hand {hand}")
        sizes = {h.number: moves_to_sample(sampled, h, from_seq, last) for h in chosen_s}
        with LateProgress(sum(sizes.values()), "analysing", unit="moves", rate_unit=None) as bar:
            hands = _run_sampled(
                log,
                sampled,
                [h.number for h in chosen_s],
                jobs,
                samples,
                seed,
                from_seq,
                last,
                sizes,
                lambda n: bar.advance(n, n, n),
            )
        review = assemble(sampled, hands, Sampling(samples, seed))
    elif review is None:
        chosen = [h for h in plan.hands if hand is None or h.number == hand]
        if hand is not None and not chosen:
            fail(f"{where} has no hand {hand}")
        total = sum(decisions_to_solve(h, from_seq, last) for h in chosen)
        with LateProgress(total, "analysing", unit="decisions", rate_unit=None) as bar:
            hands = _run(log, [h.number for h in chosen], jobs, from_seq, last, lambda n: bar.advance(n, n, n))
        review = assemble(plan, hands)
    review.head = plan.head
    return review


def _settings(variant: str | None, hand: int | None, from_seq: int, last: int | None, samples: int, seed: int):  # type: ignore[no-untyped-def]
    from dominolog.analysis.cache import settings_for

    return settings_for(variant, hand, from_seq, last, samples, seed)


def _stored_reviews(
    db: str, ids: list[str], every: bool, analyse: Callable[[MatchLog, str], MatchReview], options: tuple[Any, ...]
) -> list[MatchReview]:
    """The reviews of the store's matches ``ids`` (or all): each kept one taken as it is, the others
    analysed and kept (unless the store is read-only here: then said once, on stderr)."""
    from dominolog.analysis.cache import VERSION
    from dominolog.analysis.results import review_from_dict
    from dominolog.cli.common import db_name, match_id_or_fail, store_or_fail
    from dominolog.log.reader import MatchLog
    from dominolog.store import ReadOnlyError

    out = []
    with store_or_fail(db, create=False, write=False) as store:
        rows = {r["id"]: r for r in store.list_matches()}
        if every:
            ids = sorted(rows)
            if not ids:
                fail(f"{db_name(db)}: the store holds no match")
        told = False
        for mid in ids:
            match_id_or_fail(store, db, mid)
            row = rows[mid]
            settings = _settings(row["variant"], *options)
            kept = store.analysis(mid, row["head"], VERSION, settings)
            if kept is not None:
                try:
                    out.append(review_from_dict(kept))
                    continue
                except (KeyError, TypeError, ValueError, IndexError):
                    pass  # damaged behind the store's back: analysed again
            log = MatchLog(f"{store.path}#{mid}", 1, [rec for rec, _ in store.records(mid)])
            review = analyse(log, f"{db_name(db)}: match {shown(mid, 100)}")
            if review.head == row["head"]:
                try:
                    store.save_analysis(mid, row["head"], VERSION, settings, review.as_dict())
                except ReadOnlyError:
                    if not told:
                        sys.stderr.write(f"dominolog: {db_name(db)} is read-only here: the analyses are not kept\n")
                        told = True
            out.append(review)
    return out


def analyze(
    targets: MatchTargets = None,
    every: EveryMatch = False,
    match: Annotated[
        int | None, typer.Option("--match", min=1, help="Only this match of each file (1 = the first).")
    ] = None,
    db: MatchStore = None,
    hand: ReportHand = None,
    format: ReportFormat = "text",
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the report to this file (html of several matches: one page each into this folder).",
            show_default=False,
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Analyse this many hands at once (processes).")] = 1,
    from_seq: Annotated[
        int, typer.Option("--from-seq", min=0, help="Only the decisions from this seq on (earlier moves are replayed).")
    ] = 0,
    last: Annotated[
        int | None, typer.Option("--last", min=0, help="Only each hand's last N decisions (the end game).")
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            min=1,
            max=10_000,
            help="Deals sampled at each decision (every variant but Ghost 13, which is solved exactly).",
        ),
    ] = 20,
    seed: Annotated[
        int, typer.Option("--seed", help="The seed of the sampling: the same seed gives the same review.")
    ] = 0,
) -> None:
    """Rank every decision of a match: each option's value in points, the move played, its rank and the
    points lost, then each player's figures. Ghost 13 is solved exactly (both hands known: dealt open,
    or made known by the reveals); the other variants are valued by sampling deals consistent with what
    the player on move knew (--samples, --seed) and playing each out. With --db the analyses are kept
    in the store (by the match's head, the analysis version and these settings): asked again, or shown
    by replay, audit and standings, they are not recomputed."""
    from dominolog.cli.common import match_of_file

    targets = targets or []
    if format not in ("text", "json", "html"):
        fail(f"--format {shown(format, 40)!r}: choose text, json or html")
    if not targets and not every:
        fail("give log files, or with --db match ids or --all")
    if every and db is None:
        fail("--all analyses every match of a store: give --db")
    if every and targets:
        fail("give match ids or --all, not both")
    options = (hand, from_seq, last, samples, seed)

    def analyse(log: MatchLog, where: str) -> MatchReview:
        if log.orphan:
            fail(f"{shown(log.source)}: not a match: no match_start line", 1)
        return _review_of(log, where, hand, jobs, from_seq, last, samples, seed)

    if db is not None:
        if match is not None:
            fail("--match picks a match of a file: with --db, name the match by its id")
        reviews = _stored_reviews(db, targets, every, analyse, options)
    else:
        reviews = []
        for target in targets:
            logs = read_matches(Path(target))
            if not logs:
                fail(f"{shown(target)}: no events in the file")
            if match is not None:
                logs = [match_of_file(Path(target), match)[0]]
            for k, log in enumerate(logs, start=match or 1):
                reviews.append(analyse(log, f"{shown(target)}: match {k}"))
    _report(reviews, format, out)


def _report(reviews: list[MatchReview], format: str, out: Path | None) -> None:
    said = "analysed" if any(r.note is None for r in reviews) else reviews[0].note or "analysed"
    if format == "json":
        doc = reviews[0].as_dict() if len(reviews) == 1 else {"reviews": [r.as_dict() for r in reviews]}
        write_report(dumps(doc, indent=1) + "\n", out, said)
    elif format == "html":
        from dominolog.analysis.review_html import render_html

        if to_one_place(len(reviews), out):
            write_report(render_html(reviews[0]), out, said)
            return
        out = output_folder(out, f"{len(reviews)} matches analysed", "page", f"{len(reviews)} pages")
        names: set[str] = set()
        for r in reviews:
            name = page_name(r.match_id or Path(r.source).stem, names)
            write_report(render_html(r), out / name, "analysed")
    else:
        write_report("\n".join(render_text(r) for r in reviews), out, said)


def page_name(match_id: str, taken: set[str]) -> str:
    """A file name for a match's page: its id with only safe characters, made unique."""
    base = file_name_of(match_id)
    name, n = f"{base}.analysis.html", 1
    while name in taken:
        n += 1
        name = f"{base}-{n}.analysis.html"
    taken.add(name)
    return name
