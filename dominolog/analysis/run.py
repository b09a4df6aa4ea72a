"""Running an analysis: one function for every face (``dominolog analyze``, the server's analyser).

:func:`review_match` analyses a match (Ghost 13 by the exact solver, the other variants by sampling),
in this process or spread over ``jobs`` processes, telling ``progress`` how far it is;
:func:`kept_or_made` takes the analysis the store keeps of a match as it stands, or makes and keeps it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from dominolog.analysis.luck import review_document

if TYPE_CHECKING:
    from dominolog.analysis.results import HandReview, MatchReview
    from dominolog.analysis.sampling import SampledPlan
    from dominolog.log.reader import MatchLog

#: ``progress(total, unit)``: a context (open while the analysis runs) giving a function told each step done
Progress = Callable[[int, str], AbstractContextManager[Callable[[int], None]]]


class NoSuchHand(ValueError):
    """The hand asked for is not in the match."""


def _quiet(total: int, unit: str) -> AbstractContextManager[Callable[[int], None]]:
    return nullcontext(lambda n: None)


def _run_solved(
    log: MatchLog, hands: list[int], jobs: int, from_seq: int, last: int | None, advance: Callable[[int], None]
) -> list[HandReview]:
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


def review_match(
    log: MatchLog,
    hand: int | None = None,
    jobs: int = 1,
    from_seq: int = 0,
    last: int | None = None,
    samples: int = 20,
    seed: int = 0,
    progress: Progress | None = None,
) -> MatchReview:
    """The review of one match (only ``hand`` when given: :class:`NoSuchHand` when the match has no
    such hand), its ``head`` the head of ``log``."""
    from dominolog.analysis.results import Sampling
    from dominolog.analysis.review import assemble, decisions_to_solve, not_solved, plan_match
    from dominolog.analysis.sampling import SAMPLED, moves_to_sample, plan_sampled

    progress = progress or _quiet
    plan = plan_match(log)
    review = not_solved(plan)
    if review is None and plan.variant in SAMPLED:
        sampled = plan_sampled(log)
        chosen_s = [h for h in sampled.hands if hand is None or h.number == hand]
        if hand is not None and not chosen_s:
            raise NoSuchHand(f"no hand {hand}")
        sizes = {h.number: moves_to_sample(sampled, h, from_seq, last) for h in chosen_s}
        with progress(sum(sizes.values()), "moves") as advance:
            hands = _run_sampled(
                log, sampled, [h.number for h in chosen_s], jobs, samples, seed, from_seq, last, sizes, advance
            )
        review = assemble(sampled, hands, Sampling(samples, seed))
    elif review is None:
        chosen = [h for h in plan.hands if hand is None or h.number == hand]
        if hand is not None and not chosen:
            raise NoSuchHand(f"no hand {hand}")
        total = sum(decisions_to_solve(h, from_seq, last) for h in chosen)
        with progress(total, "decisions") as advance:
            hands = _run_solved(log, [h.number for h in chosen], jobs, from_seq, last, advance)
        review = assemble(plan, hands)
    review.head = plan.head
    return review


def log_of(store: Any, match_id: str) -> MatchLog:
    """The stored match as a log (what ``dominolog analyze ID --db DB`` reads)."""
    from dominolog.log.reader import MatchLog

    return MatchLog(f"{store.path}#{match_id}", 1, [rec for rec, _ in store.records(match_id)])


def kept_or_made(
    store: Any, row: dict[str, Any], settings: dict[str, Any], make: Callable[[MatchLog], MatchReview]
) -> tuple[MatchReview, bool | None]:
    """The review of the match of ``row`` (a ``matches`` row) as it stands with ``settings``: the one the
    store keeps (then ``None``), else ``make(log)`` kept by the head it was made at (then ``True``, or
    ``False`` when the store is read-only here). A kept review damaged behind the store's back is made again."""
    from dominolog.analysis.cache import VERSION
    from dominolog.analysis.results import review_from_dict
    from dominolog.store import ReadOnlyError

    mid = row["id"]
    kept = store.analysis(mid, row["head"], VERSION, settings)
    if kept is not None:
        try:
            return review_from_dict(kept), None
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # damaged behind the store's back: analysed again
    review = make(log_of(store, mid))
    saved = True
    if review.head == row["head"]:
        try:
            store.save_analysis(mid, row["head"], VERSION, settings, review_document(review))
        except ReadOnlyError:
            saved = False
    return review, saved


def newest_kept(store: Any, match_id: str, variant: str | None) -> tuple[str, int, MatchReview] | None:
    """The newest analysis of the match the store keeps with ``dominolog analyze``'s default settings
    (made at its latest head), as ``(head, seq of that head, review)``; None when none is kept (or the
    kept ones were damaged behind the store's back)."""
    from dominolog.analysis.cache import VERSION, settings_for
    from dominolog.analysis.results import review_from_dict

    found = store.newest_analysis(match_id, VERSION, settings_for(variant))
    if found is None:
        return None
    head, seq, kept = found
    try:
        return head, seq, review_from_dict(kept)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def review_in_child(target: str, match_id: str, events: int) -> tuple[str, dict[str, Any]] | None:
    """In a process of its own: the default analysis of the stored match's first ``events`` events, as
    ``(head, review as JSON)``; None when it is not a match (no match_start)."""
    from dominolog.log.reader import MatchLog
    from dominolog.store import open_store

    store = open_store(target, create=False, write=False)
    try:
        records = [rec for rec, _ in store.records(match_id)][:events]
        log = MatchLog(f"{store.path}#{match_id}", 1, records)
    finally:
        store.close()
    if log.orphan or not records:
        return None
    review = review_match(log)
    return review.head or "", review_document(review)
