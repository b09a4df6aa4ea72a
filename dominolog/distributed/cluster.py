"""Reaching a Dask cluster: a scheduler by its address, or a LocalCluster of worker processes started
here (``local[:N]``), each refusal as a :class:`ClusterError` with a message for a person."""

from __future__ import annotations

import importlib.metadata
import logging
import os
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from distributed import Client

#: seconds to reach the scheduler and to see a worker (less when Dask's own
#: ``distributed.comm.timeouts.connect`` is set lower)
CONNECT_SECONDS = 10.0

_LOCAL = re.compile(r"local(?::(.*))?", re.DOTALL)


class ClusterError(RuntimeError):
    """A cluster that cannot be used: a bad ``--dask`` value, no scheduler at the address, no worker,
    workers without dominolog, or a cluster that failed during the run."""


class DaskUnavailable(ClusterError):
    """Dask (with ``distributed``) is not installed."""


def parse_target(target: str) -> tuple[str, int | None]:
    """``("local", N)`` for ``local:N`` (``N`` None for ``local``: one worker a CPU), else
    ``(address, None)``."""
    text = target.strip()
    m = _LOCAL.fullmatch(text)
    if m is not None:
        if m.group(1) is None:
            return "local", None
        if not m.group(1).isdigit() or int(m.group(1)) < 1:
            raise ClusterError(f"--dask {target!r}: local:N takes N, the number of worker processes (1 or more)")
        return "local", int(m.group(1))
    if not text or any(c.isspace() for c in text):
        raise ClusterError(f"--dask {target!r}: give the scheduler's address (e.g. tcp://scheduler:8786), or local[:N]")
    return text, None


def _seconds() -> float:
    import dask.config
    from dask.utils import parse_timedelta

    try:
        configured = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s")
    except (KeyError, ValueError, TypeError):
        configured = None
    return min(CONNECT_SECONDS, configured) if configured else CONNECT_SECONDS


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:
        raise DaskUnavailable(
            f"--dask needs Dask, which is not installed ({exc}): pip install 'dominolog[dask]'"
        ) from None
    return distributed


def _silence() -> None:
    """No log lines of Dask in this process (the command line: a lost scheduler is logged with tracebacks;
    what matters reaches the user as a :class:`ClusterError`). Every logger of ``distributed`` and
    ``tornado`` that has a level of its own gets one above CRITICAL; the others inherit it."""
    loggers = logging.Logger.manager.loggerDict
    for name in ["distributed", "tornado", *loggers]:
        logger = logging.getLogger(name)
        if name.split(".")[0] in ("distributed", "tornado") and (logger.level or "." not in name):
            logger.setLevel(logging.CRITICAL + 1)


@contextmanager
def dask_client(target: str, quiet: bool = False) -> Iterator[Client]:
    """A Dask client for ``target`` (see :func:`parse_target`), closed on leaving (with the LocalCluster
    it started). Waits for at least one worker and checks that the workers run this dominolog. ``quiet``:
    Dask logs nothing in this process (the workers of a LocalCluster log errors only, always)."""
    address, n = parse_target(target)
    distributed = _import_distributed()
    seconds = _seconds()
    if quiet:
        _silence()
    with ExitStack() as stack:
        if address == "local":
            try:
                cluster = distributed.LocalCluster(
                    n_workers=n or os.cpu_count() or 1,
                    threads_per_worker=1,  # verifying is pure Python: a process a file at a time
                    processes=True,
                    dashboard_address=None,
                    # no dashboard; the scheduler's HTTP routes on a free local port (else 8787, with a
                    # warning on stderr when another cluster holds it)
                    scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.ERROR,
                )
            except (OSError, distributed.TimeoutError) as exc:
                raise ClusterError(f"--dask {target}: the local Dask cluster did not start ({exc})") from None
            stack.callback(cluster.close)
            connect: Any = cluster
            where = "the local Dask cluster"
        else:
            _check_address(target, address)
            connect, where = address, f"the Dask scheduler at {address}"
        try:
            client = distributed.Client(connect, timeout=seconds, set_as_default=False)
        except (OSError, distributed.TimeoutError) as exc:
            raise ClusterError(f"cannot reach {where} within {seconds:g} s ({exc})") from None
        except (ValueError, TypeError) as exc:
            raise ClusterError(f"--dask {target!r}: not a scheduler address ({exc})") from None
        stack.callback(client.close)
        try:
            client.wait_for_workers(1, timeout=seconds)
        except (OSError, distributed.TimeoutError):
            raise ClusterError(f"{where} has no worker (waited {seconds:g} s)") from None
        _same_dominolog(client, where)
        yield client


def _check_address(target: str, address: str) -> None:
    """A scheme Dask knows and, for the network ones, a host and a port: else a ClusterError (a Client
    given a bad address fails half made, and says so on stderr when it is collected)."""
    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, _ = parse_address(address)
        get_backend(scheme)
        if scheme == "inproc":
            raise ValueError("inproc:// addresses reach a scheduler in the same process only")
        if scheme in ("tcp", "tls", "ws", "wss"):
            get_address_host_port(address)
    except ValueError as exc:
        raise ClusterError(f"--dask {target!r}: not a scheduler address ({exc})") from None


def _same_dominolog(client: Client, where: str) -> None:
    """Every worker imports the dominolog this process runs (the same version): else the reports could
    differ from a single process's."""
    mine = importlib.metadata.version("dominolog")
    theirs = client.run(importlib.metadata.version, "dominolog", on_error="return")
    for worker, version in sorted(theirs.items()):
        if isinstance(version, importlib.metadata.PackageNotFoundError):
            raise ClusterError(f"{where}: worker {worker} has no dominolog: pip install 'dominolog[dask]' there")
        if isinstance(version, BaseException):
            raise ClusterError(f"{where}: worker {worker} failed ({type(version).__name__}: {version})")
        if version != mine:
            raise ClusterError(f"{where}: worker {worker} runs dominolog {version}, this machine {mine}")
