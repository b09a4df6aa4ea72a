"""``verify``'s work scheduled: the files in this process, in a pool of processes (``--jobs``: a big file
in parts of whole matches, :func:`dominolog.verify.file_parts`), or on a Dask cluster (``--dask``,
:mod:`dominolog.distributed`); and the matches of a store. Whichever way, the reports come in the
files' order, each with its ``--expect-head`` check; the command line only prints them.

Beside :mod:`dominolog.verify` (the work of one task) rather than in it: :mod:`dominolog.distributed`
runs that work on the cluster, and imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dominolog.log.reader import expand_paths
from dominolog.reducer.notation import iter_matches_any
from dominolog.verify import expect_check, file_parts, file_reports, match_report, task_bytes

if TYPE_CHECKING:
    from dominolog.reducer import MatchReport
    from dominolog.store import Store

Checked = tuple["MatchReport", dict[str, Any] | None]
#: told how many bytes and events were checked (the progress bar's ``advance``)
Advance = Callable[[int, int], None]


def _ignore(nbytes: int, events: int) -> None:
    pass


def files_and_sizes(paths: Iterable[Path | str]) -> tuple[list[Path], list[int]]:
    """The files the paths name (folders expanded; PathError for a missing one), and their sizes (0 for
    what is not a regular file: a pipe is read as it comes)."""
    files = expand_paths(paths)
    return files, [f.stat().st_size if f.is_file() else 0 for f in files]


def file_reports_all(
    files: list[Path],
    sizes: list[int],
    expect: str | None = None,
    jobs: int = 1,
    dask: str | None = None,
    advance: Advance = _ignore,
    likelihoods: bool = True,
) -> Iterator[Checked]:
    """The report of every match of the files, in the files' order, as each is checked; ``advance`` is
    told the bytes and events of each piece done. ``jobs`` > 1: in that many processes (a big file in
    parts); ``dask``: on that cluster (ClusterError when it cannot be used). ``likelihoods`` False: the
    unverified rules without their likelihood (:attr:`dominolog.reducer.MatchReducer.likelihoods`)."""
    if dask is not None:
        yield from _dask_reports(dask, files, sizes, expect, advance, likelihoods)
        return
    tasks = file_parts(files, jobs) if jobs > 1 else []
    if len(tasks) > 1:
        from concurrent.futures import ProcessPoolExecutor

        n = len(tasks)
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            paths_, parts = [f for f, _ in tasks], [p for _, p in tasks]
            done_all = pool.map(file_reports, paths_, [expect] * n, [None] * n, parts, [likelihoods] * n)
            for (f, part), done in zip(tasks, done_all, strict=True):
                advance(task_bytes(f, part), sum(r.events for r, _ in done))
                yield from done
        return
    for f in files:
        for log in iter_matches_any(f):
            advance(sum(len(r.data) + 1 for r in log.records), len(log.records))
            yield match_report(log, expect, likelihoods)


def _dask_reports(
    target: str, files: list[Path], sizes: list[int], expect: str | None, advance: Advance, likelihoods: bool
) -> Iterator[Checked]:
    """The files checked on the cluster (``verify --dask``), in the files' order. A cluster that cannot
    be used (Dask not installed, no scheduler at the address, no worker) is a ClusterError."""
    from dominolog.distributed import dask_client, verify_files

    with dask_client(target, quiet=True) as client:
        for size, (_, done) in zip(sizes, verify_files(client, files, expect, likelihoods=likelihoods), strict=True):
            advance(size, sum(r.events for r, _ in done))
            yield from done


def stored_reports(
    store: Store, match_ids: Iterable[str], expect: str | None = None, likelihoods: bool = True
) -> Iterator[Checked]:
    """The report of each stored match (``verify --db``), with its ``--expect-head`` check (``likelihoods``
    False: the unverified rules without their likelihood)."""
    from dominolog.store import verify_stored

    for m in match_ids:
        r = verify_stored(store, m, likelihoods)
        if expect is None:
            yield r, None
        else:
            yield r, expect_check([rec for rec, _ in store.records(m)], r.head, expect)
