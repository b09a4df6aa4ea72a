"""Test configuration.

The tests exercise what a user installs: ``pytest`` runs with ``--import-mode=importlib``
(pyproject.toml), which leaves the checkout off ``sys.path``, so ``import dominolog`` finds the
package ``pip install .`` put in the virtual environment, and the console script is run as a
subprocess from a temp folder (the ``cli`` fixture). ``tests/test_installed.py`` fails if the
checkout's ``dominolog/`` is what got imported. (``python -m pytest`` would put the working folder
on ``sys.path``; the README's test command and ``.ci/run`` call the ``pytest`` script.)

The scripts of ``replays/`` are not part of the package: they are made importable as the
namespace ``replays`` without putting the checkout on ``sys.path``.

Under CI, hypothesis runs derandomized so a run is repeatable.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def statements_of(store: Any) -> Iterator[list[str]]:
    """Every statement ``store`` executes inside the block (read or not), listed as it is given
    (``store.conn`` wrapped for the block, put back after)."""
    sent: list[str] = []
    conn = store.conn

    class Counting:
        def execute(self, query: str, *args: object) -> object:
            sent.append(query)
            return conn.execute(query, *args)

        def __getattr__(self, name: str) -> object:
            return getattr(conn, name)

    store.conn = Counting()
    try:
        yield sent
    finally:
        store.conn = conn


settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("deep", max_examples=2000, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
elif os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml): a worker more than the machine's cores (at most 4, with
    ``--maxprocesses``). Much of the suite waits (a browser's page, a server's start, a stream paced at
    a message a second, schemathesis's bounded minute): a third worker on CI's 2 cores runs tests
    meanwhile (bench/RESULTS.md, "The time of .ci/run")."""
    return (os.cpu_count() or 1) + 1


#: the files holding the suite's longest tests (a minute or more each, on CI's 2 cores: bench/RESULTS.md,
#: "The time of .ci/run"), longest first. They run first: the workers share out the short tests at the
#: end instead of two of them waiting on a last long one. (Each file's tests stay together, in their order.)
LONGEST_FIRST = (
    "test_builds.py",
    "test_web_club_events.py",
    "test_knowledge_fresh.py",
    "test_openapi_fuzz.py",
    "test_web_lighthouse.py",
    "test_club_events.py",
    "test_web_results.py",
    "test_likelihood.py",
    "test_store_reliability.py",
    "test_garbage.py",
    "test_pg_cli.py",
    "test_web_recorder_taps.py",
    "test_web_recorder_app.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of :data:`LONGEST_FIRST` first, in its order; every other test after them, as collected."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


if "replays" not in sys.modules:
    _replays = types.ModuleType("replays")
    _replays.__path__ = [str(ROOT / "replays")]
    sys.modules["replays"] = _replays


def console_script() -> str:
    """The installed ``dominolog`` console script (beside this Python), or a clear failure."""
    found = shutil.which("dominolog", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail(f"the dominolog console script is not installed beside {sys.executable}: run pip install '.[test]'")
    return found


@dataclass
class Ran:
    """A finished run of the console script: exit code, and its output as text (bad bytes as U+FFFD)."""

    code: int
    out: str
    err: str
    stdout: bytes
    stderr: bytes

    def no_traceback(self) -> Ran:
        assert "Traceback" not in self.out and "Traceback" not in self.err, self.err[-3000:]
        return self


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a run of the console script: no DOMINOLOG_* from the developer's shell."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINOLOG_")}
    env.update(extra)
    return env


def run_cli(
    *args: object,
    cwd: Path,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> Ran:
    """``dominolog ARGS`` run as a user runs it: the installed script, a subprocess, in ``cwd``.
    Arguments may be bytes (to pass bytes that are not UTF-8)."""
    argv: list[str | bytes] = [console_script(), *(a if isinstance(a, bytes) else str(a) for a in args)]
    done = subprocess.run(
        argv,
        cwd=cwd,
        input=input,
        capture_output=True,
        env=env if env is not None else clean_env(),
        timeout=timeout,
        check=False,
    )
    return Ran(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
        done.stdout,
        done.stderr,
    )


@pytest.fixture
def cli(tmp_path: Path) -> Callable[..., Ran]:
    """Run the installed console script with a temp folder as the working directory; every run is
    checked for a traceback."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)

    def run(*args: object, input: bytes | None = None, cwd: Path | None = None, **kw: object) -> Ran:
        return run_cli(*args, cwd=cwd or work, input=input, **kw).no_traceback()  # type: ignore[arg-type]

    return run


__all__: Sequence[str] = ("ROOT", "Ran", "clean_env", "console_script", "run_cli")


# -- PostgreSQL (tests/pgserver.py): one throwaway server per test session (per xdist worker) ---------------


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    """A PostgreSQL server of this session's own, started from Debian's ``postgresql`` package. Without
    it a developer gets a skip saying what to install; under CI (or DOMINOLOG_REQUIRE_POSTGRES=1) the
    test fails instead: CI never skips these tests."""
    from tests.pgserver import INSTALL, Cluster, find_bin, required

    def missing(message: str) -> NoReturn:
        if required():
            pytest.fail(f"{message} (CI and DOMINOLOG_REQUIRE_POSTGRES=1 need it)")
        pytest.skip(message)

    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg is not installed: pip install '.[test]' (or '.[postgres]')")
    bin_dir = find_bin()
    if bin_dir is None:
        missing(f"PostgreSQL is not installed (no initdb): {INSTALL}")
    cluster = Cluster(bin_dir)
    try:
        cluster.start()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        cluster.stop()
        pytest.fail(f"could not start a throwaway PostgreSQL server from {bin_dir}: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: Any) -> str:
    """The URL of a new, empty database on the session's PostgreSQL server."""
    return str(pg_cluster.new_database())


@pytest.fixture
def pg_linguistic_url(pg_cluster: Any) -> str:
    """The URL of a new, empty database whose collation orders text as a person does (ICU ``en-US``:
    ``alpha-2`` before ``Zeta-1``); the test fails saying why when the server cannot make one."""
    try:
        return str(pg_cluster.linguistic_database())
    except RuntimeError as exc:
        pytest.fail(str(exc))
