"""``verify --dask``: every file checked as one task on a Dask cluster, the reports handed back in the
files' order, as :func:`dominolog.verify.file_reports` gives them in a single process."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import CancelledError
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dominolog.distributed.cluster import ClusterError
from dominolog.verify import file_reports

if TYPE_CHECKING:
    from distributed import Client, Future

    from dominolog.reducer import MatchReport

Reports = list[tuple["MatchReport", dict[str, Any] | None]]


def verify_files(
    client: Client,
    files: Sequence[Path],
    expect: str | None = None,
    window: int | None = None,
    likelihoods: bool = True,
) -> Iterator[tuple[Path, Reports]]:
    """Each file with the reports of its matches (and ``--expect-head``'s check), in the files' order.

    One task a file: a worker reads the file at its absolute path (the same path must reach the same
    file on every worker: shared storage), and the reports name it as given. A file that is not a
    regular file (a pipe, ``/dev/stdin``) is read here, at its place in the order. At most ``window``
    files are on the cluster or waiting to be handed back (default: twice the workers' threads, at
    least 4): the reports of a huge archive are never all held, and the cluster stays busy while the
    first file in the order is still being checked. A single huge file is a single task. ``likelihoods``
    False: the unverified rules without their likelihood (:func:`dominolog.verify.file_reports`).
    """
    if window is None:
        window = max(4, 2 * sum(client.nthreads().values()))
    pending: deque[tuple[Path, Future | None]] = deque()
    queue = iter(files)

    def send() -> None:
        for path in queue:
            if path.is_file():
                future = client.submit(
                    file_reports, str(path.absolute()), expect, str(path), likelihoods=likelihoods, pure=False
                )
                pending.append((path, future))
            else:
                pending.append((path, None))
            if len(pending) >= window:
                return

    send()
    while pending:
        path, future = pending.popleft()
        send()  # the window stays full while the first file in the order is awaited
        yield path, file_reports(path, expect, likelihoods=likelihoods) if future is None else _result(future, path)


def _result(future: Future, path: Path) -> Reports:
    """The task's reports; its own error (a file it cannot read: PathError) as it was raised, the
    cluster's failures as a ClusterError."""
    from distributed import KilledWorker, TimeoutError

    try:
        result: Reports = future.result()
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("dominolog"):
            raise
        raise ClusterError(f"a Dask worker cannot import {exc.name}: pip install 'dominolog[dask]' there") from None
    except (KilledWorker, CancelledError, TimeoutError, OSError) as exc:
        raise ClusterError(f"the Dask cluster failed while checking {path} ({type(exc).__name__}: {exc})") from None
    finally:
        future.release()
    return result
