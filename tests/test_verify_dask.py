"""``verify --dask``: the files checked on a Dask cluster, one task a file, give the output a single process
gives, byte for byte, with the same exit status (issue 17): on a LocalCluster the command starts
(``--dask local:2``) and on one started apart and reached by its scheduler's address, on the bundled
replays and on a simulated archive (several files and variants, hidden hands, a ``.dn`` file). The
console script runs from a temp folder with relative paths, while the workers run elsewhere: they read
each file at its absolute path and the reports name it as given."""

from __future__ import annotations

import json
import logging
import pickle
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import distributed
import pytest

from dominolog.distributed import dask_client, verify_files
from dominolog.log.reader import PathError, expand_paths
from dominolog.verify import file_reports
from tests.conftest import ROOT, Ran, clean_env, run_cli

Cli = Callable[..., Ran]

#: the simulated archive: (file, simulate's arguments); 190 matches of the five variants
ARCHIVE = [
    ("a-ghost13.jsonl", ["--variant", "ghost13", "--matches", "50", "--seed", "1"]),
    ("b-brettspielnetz-hidden.jsonl", ["--variant", "brettspielnetz", "--matches", "40", "--seed", "2", "--hide"]),
    (
        "c-double-draw.jsonl",
        ["--variant", "double-draw", "--players", "4", "--option", "partners=true", "--matches", "20", "--seed", "3"],
    ),
    ("d-39.jsonl", ["--variant", "39", "--matches", "25", "--seed", "4"]),
    ("e-double-bergen-hidden.jsonl", ["--variant", "double-bergen", "--players", "3", "--matches", "25", "--hide"]),
    ("f-ghost13-viewer.jsonl", ["--matches", "30", "--seed", "6", "--hide", "--viewer", "Ana"]),
]

#: a LocalCluster without a dashboard, its scheduler's HTTP routes on a free port, logging errors only
QUIET = {
    "scheduler_kwargs": {"dashboard": False, "dashboard_address": "127.0.0.1:0"},
    "silence_logs": logging.ERROR,
}

#: Dask's own setting, read by ``--dask``: an unreachable scheduler is given up after 2 s here (10 s by default)
FAST = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}


@pytest.fixture(scope="module")
def here(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temp folder holding ``replays/`` (a copy of the bundled replays) and ``archive/`` (simulated)."""
    folder = tmp_path_factory.mktemp("dask")
    shutil.copytree(ROOT / "replays", folder / "replays", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (folder / "archive").mkdir()
    for name, args in ARCHIVE:
        done = run_cli("simulate", *args, "--out", Path("archive") / name, cwd=folder)
        assert done.code == 0, done.err
    done = run_cli("export", "replays/ghost13-disputed.jsonl", "--format", "dn", "--out", "archive/g.dn", cwd=folder)
    assert done.code == 0, done.err
    return folder


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.LocalCluster]:
    """A cluster started apart from the command (2 worker processes), reached by its address."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        **QUIET,
    ) as started:
        yield started


@pytest.fixture(scope="module")
def single(here: Path) -> Callable[..., Ran]:
    """``dominolog verify ARGS`` in one process (``--jobs 1``), each run once for the module."""
    seen: dict[tuple[str, ...], Ran] = {}

    def run(*args: str, input: bytes | None = None) -> Ran:
        key = (*args, repr(input))
        if key not in seen:
            seen[key] = run_cli("verify", *args, "--jobs", "1", cwd=here, input=input).no_traceback()
        return seen[key]

    return run


def on_dask(here: Path, target: str, *args: str, input: bytes | None = None) -> Ran:
    return run_cli("verify", *args, "--dask", target, cwd=here, input=input).no_traceback()


def same(one: Ran, other: Ran, code: int) -> None:
    assert (one.code, other.code) == (code, code), other.err
    assert other.stdout == one.stdout and one.stdout
    assert other.stderr == one.stderr == b""


def test_a_local_cluster_gives_the_json_of_one_process(here: Path, single: Cli) -> None:
    for paths, code in ((("replays",), 1), (("archive",), 1)):
        one, dask = single(*paths, "--json"), on_dask(here, "local:2", *paths, "--json")
        same(one, dask, code)
    document = json.loads(dask.stdout)["matches"]
    assert len(document) == 192  # 190 simulated, and the 2 matches of the disputed replay written as .dn
    assert {m["variant"] for m in document} == {"ghost13", "brettspielnetz", "double-draw", "39", "double-bergen"}
    assert {m["source"].split("/")[0] for m in document} == {"archive"}  # as given, not where the workers read


def test_a_local_cluster_gives_the_text_and_the_fingerprints_of_one_process(here: Path, single: Cli) -> None:
    head = json.loads(single("replays/39-simulated.jsonl", "--json").stdout)["matches"][0]["head"]
    args = ("replays", "archive/d-39.jsonl", "--expect-head", head[:10])
    one, dask = single(*args), on_dask(here, "local:2", *args)
    same(one, dask, 1)
    assert dask.out.count("fingerprint OK") == 1 and "fingerprint MISMATCH" in dask.out
    assert dask.out.endswith("47 matches: 41 valid, 6 invalid; 145 rules unverified (hidden tiles)\n")


def test_a_cluster_started_apart_is_reached_by_its_address(
    here: Path, single: Cli, cluster: distributed.LocalCluster
) -> None:
    address = cluster.scheduler_address
    assert address.startswith("tcp://")
    for args, code in (
        (("replays",), 1),
        (("archive", "--json"), 1),  # the disputed match written as .dn
        (("replays", "-q"), 1),
        (("replays", "-v"), 1),
        (("replays", "--json", "--expect-head", "0123456789"), 1),
        (("archive/a-ghost13.jsonl",), 0),
    ):
        same(single(*args), on_dask(here, address, *args), code)


def test_standard_input_is_read_by_the_command_in_its_place(
    here: Path, single: Cli, cluster: distributed.LocalCluster
) -> None:
    """A file that is not a regular file (a pipe) cannot be read by a worker: the command reads it, at its
    place in the order."""
    data = (here / "archive" / "d-39.jsonl").read_bytes()
    args = ("replays/ghost13-disputed.jsonl", "/dev/stdin", "archive/a-ghost13.jsonl", "--json")
    one, dask = single(*args, input=data), on_dask(here, cluster.scheduler_address, *args, input=data)
    same(one, dask, 1)
    sources = ["replays/ghost13-disputed.jsonl"] * 2 + ["/dev/stdin"] * 25 + ["archive/a-ghost13.jsonl"] * 50
    assert [m["source"] for m in json.loads(dask.stdout)["matches"]] == sources


def test_the_files_come_back_in_their_order_whatever_the_window(here: Path, cluster: distributed.LocalCluster) -> None:
    """The library function: each file with the reports ``file_reports`` gives in this process (the
    reports pickle: a worker sends them as they are), with 1, 3 or the default number of files on the
    cluster at once."""
    files = expand_paths([here / "replays", here / "archive" / "g.dn", here / "archive" / "d-39.jsonl"])
    checked = [file_reports(f, "abcd") for f in files]
    expected = [[(r.as_dict(), e) for r, e in reports] for reports in checked]
    assert [[(r.as_dict(), e) for r, e in pickle.loads(pickle.dumps(reports))] for reports in checked] == expected
    with dask_client(cluster.scheduler_address) as client:
        for window in (1, 3, None):
            got = list(verify_files(client, files, "abcd", window=window))
            assert [f for f, _ in got] == files
            assert [[(r.as_dict(), e) for r, e in reports] for _, reports in got] == expected


def test_a_worker_names_the_file_as_given(tmp_path: Path) -> None:
    reports = file_reports(ROOT / "replays" / "39-simulated.jsonl", name="there/39.jsonl")
    assert [r.source for r, _ in reports] == ["there/39.jsonl"] * len(reports) and reports
    with pytest.raises(PathError, match=r"^gone\.jsonl: cannot read: "):
        file_reports(tmp_path / "gone.jsonl", name="gone.jsonl")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_cluster_that_cannot_be_used_is_a_clear_error(here: Path) -> None:
    port = free_port()
    done = run_cli("verify", "replays", "--dask", f"tcp://127.0.0.1:{port}", cwd=here, env=clean_env(**FAST))
    assert (done.no_traceback().code, done.out) == (2, "")
    assert done.err == (
        f"dominolog: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 2 s "
        f"(Timed out trying to connect to tcp://127.0.0.1:{port} after 2 s)\n"
    )
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None, **QUIET) as empty:
        done = run_cli("verify", "replays", "--dask", empty.scheduler_address, cwd=here, env=clean_env(**FAST))
    assert (done.no_traceback().code, done.out) == (2, "")
    assert done.err == f"dominolog: the Dask scheduler at {empty.scheduler_address} has no worker (waited 2 s)\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--db", "club.db", "--dask", "local"],
            "--dask checks log files; a store (--db) is checked on this machine: drop --dask or --db",
        ),
        (
            ["replays", "--dask", "local", "--jobs", "2"],
            "--dask and --jobs: give one (with --dask, the cluster's workers set how many files run at once)",
        ),
        (
            ["replays", "--dask", "local:0"],
            "--dask 'local:0': local:N takes N, the number of worker processes (1 or more)",
        ),
        (["replays", "--dask", "local:two"], "--dask 'local:two': local:N takes N, the number of worker processes"),
        (["replays", "--dask", "tcp://scheduler"], "--dask 'tcp://scheduler': not a scheduler address (missing port"),
        (["replays", "--dask", "foo://x:1"], "--dask 'foo://x:1': not a scheduler address (unknown address scheme"),
        (["replays", "--dask", "inproc://x"], "--dask 'inproc://x': not a scheduler address (inproc:// addresses"),
        (["replays", "--dask", "a b"], "--dask 'a b': give the scheduler's address (e.g. tcp://scheduler:8786)"),
    ],
)
def test_usage_errors_of_dask(here: Path, args: list[str], message: str) -> None:
    done = run_cli("verify", *args, cwd=here, env=clean_env(**FAST)).no_traceback()
    assert (done.code, done.out) == (2, "")
    assert done.err.startswith(f"dominolog: {message}") and done.err.count("\n") == 1, done.err
    assert not (here / "club.db").exists()


def test_without_dask_installed_the_command_says_what_to_install(here: Path, tmp_path: Path) -> None:
    """``distributed`` made unimportable (a package of that name that refuses to load, first on the path)."""
    (tmp_path / "distributed").mkdir()
    (tmp_path / "distributed" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'distributed'\", name='distributed')\n"
    )
    done = run_cli("verify", "replays", "--dask", "local:2", cwd=here, env=clean_env(PYTHONPATH=str(tmp_path)))
    assert (done.no_traceback().code, done.out) == (2, "")
    assert done.err == (
        "dominolog: --dask needs Dask, which is not installed (No module named 'distributed'): "
        "pip install 'dominolog[dask]'\n"
    )
    assert run_cli("verify", "replays", cwd=here, env=clean_env(PYTHONPATH=str(tmp_path))).code == 1


def test_dask_is_imported_only_when_asked_for(tmp_path: Path) -> None:
    loaded = "[m for m in ('dask', 'distributed') if m in sys.modules]"
    code = f"import sys, dominolog.cli, dominolog.distributed; print({loaded})"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=clean_env(), check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
