"""A store that fails under a command (issue 25): the PostgreSQL server stopped while ``import`` or
``append`` writes, a SQLite file that can grow no more. Every such failure is exit 2 with one line on
standard error naming the store, "the database failed (what the driver said)", never a traceback nor
the driver's own log (psycopg's ``error ignored terminating <psycopg.Pipeline [BAD]>``); what was
committed before stays, whole matches only, and running the command again goes on from there.

The PostgreSQL tests stop a server of their own (``pg_ctl stop -m immediate``, as a crash would), not
the session's."""

from __future__ import annotations

import re
import resource
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dominolog.store import DamagedStoreError, DatabaseFailedError
from dominolog.store.errors import database_failure, is_database_error
from tests.conftest import ROOT, Ran, clean_env, console_script

Cli = Callable[..., Ran]
START = b'{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"m"}'
#: the last words of import's message (what a person does next)
IMPORT_TAIL = "; the matches committed before stay stored, importing again stores the rest"


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A log of 400 Ghost 13 matches (about 56,000 events; simulated once, then copied under other
    ids, without hashes), long enough for the server to be stopped while it is imported; and how
    many matches it holds."""
    work = tmp_path_factory.mktemp("big")
    one = work / "one.jsonl"
    done = subprocess.run(
        [console_script(), "simulate", "--variant", "ghost13", "--matches", "100", "--seed", "3", "--out", one],
        capture_output=True,
        env=clean_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = re.sub(r',"hash":"[0-9a-f]{64}"', "", one.read_text(encoding="utf-8"))
    big = work / "big.jsonl"
    big.write_text("".join(text.replace('"id":"sim-', f'"id":"copy{k}-sim-') for k in range(4)), encoding="utf-8")
    return big, 400


@pytest.fixture
def own_server() -> Iterator[Any]:
    """A PostgreSQL server of this test's own, which it may stop."""
    from tests.pgserver import Cluster, find_bin, required

    bin_dir = find_bin()
    if bin_dir is None:
        if required():
            pytest.fail("PostgreSQL is not installed (CI and DOMINOLOG_REQUIRE_POSTGRES=1 need it)")
        pytest.skip("PostgreSQL is not installed")
    cluster = Cluster(bin_dir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def _count(url: str, sql: str) -> int:
    import psycopg

    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute(sql).fetchone()  # type: ignore[arg-type]
    except psycopg.Error:  # (no tables yet)
        return 0
    return int(row[0]) if row and row[0] is not None else 0


def _stop_when(cluster: Any, url: str, sql: str, proc: subprocess.Popen[bytes], least: int) -> int:
    """Stop the server at once when ``sql`` counts ``least`` rows, the command still running: the count then."""
    deadline = time.monotonic() + 120
    while (n := _count(url, sql)) < least:
        assert proc.poll() is None, "the command ended before the server could be stopped under it"
        assert time.monotonic() < deadline, "the command wrote nothing in 2 minutes"
        time.sleep(0.05)
    assert proc.poll() is None, "the command ended before the server could be stopped under it"
    cluster.stop_now()
    return n


def _ended(proc: subprocess.Popen[bytes], out: Path, err: Path) -> tuple[int, str, str]:
    code = proc.wait(timeout=120)
    return code, out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")


def _one_clean_line(err: str) -> None:
    assert err.endswith("\n") and err.count("\n") == 1, err
    for noise in ("Traceback", "Pipeline", "error ignored", "psycopg", "Exception"):
        assert noise not in err, err


# -- PostgreSQL: the server stopped under the command -------------------------------------------------------------


def test_the_server_stopped_under_an_import_is_exit_2_in_one_line(
    own_server: Any, big_log: tuple[Path, int], tmp_path: Path, cli: Cli
) -> None:
    """Proves that ``import`` of a big file, its server stopped (``-m immediate``) once a batch is
    committed, exits 2 with exactly one line on stderr (``URL: the database failed (...)`` and what
    to do) and nothing on stdout; that every match stored then is whole; and that importing again,
    the server back, stores the rest."""
    from dominolog.store import redacted

    big, matches = big_log
    url = own_server.new_database()
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen([console_script(), "import", big, "--db", url], stdout=o, stderr=e, env=clean_env())
    committed = _stop_when(own_server, url, "SELECT count(*) FROM events", proc, 1)
    code, said, told = _ended(proc, out, err)
    assert (code, said) == (2, ""), told
    _one_clean_line(told)
    pattern = rf"dominolog: {re.escape(redacted(url))}: the database failed \(.+\){re.escape(IMPORT_TAIL)}\n"
    assert re.fullmatch(pattern, told), told
    own_server.start_again()
    stored = _count(url, "SELECT count(*) FROM matches")
    assert 0 < stored < matches and _count(url, "SELECT count(*) FROM events") >= committed
    assert _count(url, "SELECT sum(events) FROM matches") == _count(url, "SELECT count(*) FROM events")
    assert _count(url, "SELECT count(*) FROM matches WHERE status <> 'complete'") == 0  # whole matches only
    again = cli("import", big, "--db", url)
    assert again.code == 0, again.err
    assert again.out.startswith(f"{matches - stored} stored, {stored} already there;"), again.out


def test_the_server_stopped_under_an_append_from_a_pipe_is_exit_2_in_one_line(own_server: Any, tmp_path: Path) -> None:
    """Proves that ``append m -`` reading a pipe, its server stopped after some events were stored,
    exits 2 with exactly one line on stderr (``URL#m: the database failed (...)``), and that the events
    stored before are the match's first ones, in sequence, each whole."""
    from dominolog.store import open_store, redacted, verify_stored

    url = own_server.new_database()
    lines = b"\n".join([START, *(b'{"type":"note","text":"note %d"}' % i for i in range(20_000))]) + b"\n"
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen(
            [console_script(), "append", "m", "-", "--db", url],
            stdin=subprocess.PIPE,
            stdout=o,
            stderr=e,
            env=clean_env(),
        )

    def feed() -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(lines)
            proc.stdin.close()
        except OSError:  # (the command ended first)
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    before = _stop_when(own_server, url, "SELECT count(*) FROM events", proc, 20)
    code, said, told = _ended(proc, out, err)
    feeder.join(10)
    # what was stored before is said on stdout (the summary), the failure in one line on stderr
    assert code == 2 and re.fullmatch(r"m: \d+ events stored \(seq 1-\d+\), 0 refused; head [0-9a-f]{10}\n", said), said
    _one_clean_line(told)
    # append names the input line it was storing when the store failed
    assert re.fullmatch(rf"dominolog: line \d+: {re.escape(redacted(url))}#m: the database failed \(.+\)\n", told), told
    own_server.start_again()
    with open_store(url, create=False) as store:
        seqs = [rec.seq for rec, _ in store.records("m")]
        assert len(seqs) >= before and seqs == list(range(1, len(seqs) + 1)) and len(seqs) < 20_001
        assert list(store.lines("m")) == lines.split(b"\n")[: len(seqs)]
        assert verify_stored(store, "m").valid


def test_what_psycopg_logs_while_it_fails_never_reaches_stderr(pg_url: str, tmp_path: Path) -> None:
    """Proves, without waiting for the race that makes psycopg log it, that once a PostgreSQL store is
    open the driver's own warnings (``error ignored terminating <psycopg.Pipeline [BAD]>: ...``, logged
    while a pipeline dies with its server) go nowhere, where Python would print them on stderr; a
    program that configures logging itself still gets them."""
    import sys

    code = (
        "import logging, sys\n"
        "from dominolog.store import open_store\n"
        "with open_store(sys.argv[1]):\n"
        "    logging.getLogger('psycopg').warning('error ignored terminating <psycopg.Pipeline [BAD]>: lost')\n"
        "logging.basicConfig()\n"
        "logging.getLogger('psycopg').warning('told once logging is configured')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, pg_url], cwd=tmp_path, capture_output=True, text=True, check=False
    )  # (from a temp folder: the installed package, not the checkout)
    assert (done.returncode, done.stderr) == (0, "WARNING:psycopg:told once logging is configured\n")


# -- SQLite: a file that can grow no more -------------------------------------------------------------------------


def _limited(size: int) -> Callable[[], None]:
    def limit() -> None:  # (Python ignores SIGXFSZ: a write past the limit fails with EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def _run_limited(cwd: Path, size: int, *args: object, input: bytes | None = None) -> Ran:
    done = subprocess.run(
        [console_script(), *map(str, args)],
        cwd=cwd,
        input=input,
        capture_output=True,
        env=clean_env(),
        preexec_fn=_limited(size),
        timeout=300,
        check=False,
    )
    return Ran(done.returncode, done.stdout.decode(), done.stderr.decode(), done.stdout, done.stderr)


#: what SQLite says when a write fails for want of room (EFBIG from the limit: an I/O error; ENOSPC: full)
SQLITE_NO_ROOM = r"\((disk I/O error|database or disk is full)\)"


def test_a_sqlite_file_that_cannot_grow_under_an_import_or_an_append_is_exit_2_in_one_line(
    big_log: tuple[Path, int], tmp_path: Path, cli: Cli
) -> None:
    """Proves the same of SQLite: ``import`` and ``append`` from a pipe into a file that may grow by no
    more than 1 MB (a full disk) exit 2, one line each, "the database failed (disk I/O error)", where
    ``import`` said "the store is damaged (no such savepoint: import_match)", exit 1; and that the store
    is whole after, and takes the import once there is room."""
    big, matches = big_log
    db = tmp_path / "club.db"
    assert cli("import", ROOT / "replays" / "ghost13-simulated.jsonl", "--db", db, "-q").code == 0
    room = db.stat().st_size + 1_000_000
    done = _run_limited(tmp_path, room, "import", big, "--db", db)
    assert (done.code, done.out) == (2, ""), done.err
    _one_clean_line(done.err)
    assert re.fullmatch(
        rf"dominolog: {re.escape(str(db))}: the database failed {SQLITE_NO_ROOM}{IMPORT_TAIL}\n", done.err
    )
    lines = b"\n".join([START, *(b'{"type":"note","text":"note %d"}' % i for i in range(5_000))]) + b"\n"
    done = _run_limited(tmp_path, room, "append", "m", "-", "--db", db, input=lines)
    assert done.code == 2, done.err
    assert re.fullmatch(r"m: \d+ events stored \(seq 1-\d+\), 0 refused; head [0-9a-f]{10}\n", done.out), done.out
    _one_clean_line(done.err)
    assert re.fullmatch(
        rf"dominolog: line \d+: {re.escape(str(db))}#m: the database failed {SQLITE_NO_ROOM}\n", done.err
    )
    verified = cli("verify", "--db", db)
    assert verified.code == 0, verified.out + verified.err
    again = cli("import", big, "--db", db)
    assert again.code == 0 and again.out.startswith(f"{matches} stored, 0 already there;"), again.err


# -- the errors as told -------------------------------------------------------------------------------------------


def test_what_the_drivers_raise_is_told_as_damaged_or_failed() -> None:
    """Proves the mapping every command shares: SQLite's SQLITE_CORRUPT and SQLITE_NOTADB and
    PostgreSQL's data_corrupted and index_corrupted are a damaged store (exit 1), anything else a
    driver raises is a database that failed (exit 2), on one line; other errors are not the driver's."""
    import psycopg

    corrupt = sqlite3.DatabaseError("database disk image is malformed")
    corrupt.sqlite_errorcode = 11  # type: ignore[attr-defined]
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13  # type: ignore[attr-defined]
    gone = psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly\n\tThis")
    said = "consuming input failed: server closed the connection unexpectedly This"
    cases = [
        (corrupt, DamagedStoreError, "s.db: the store is damaged (database disk image is malformed)"),
        (full, DatabaseFailedError, "s.db: the database failed (database or disk is full)"),
        (gone, DatabaseFailedError, f"s.db: the database failed ({said})"),
        (psycopg.errors.DataCorrupted("bad page"), DamagedStoreError, "s.db: the store is damaged (bad page)"),
        (psycopg.errors.AdminShutdown("stop"), DatabaseFailedError, "s.db: the database failed (stop)"),
    ]
    for exc, kind, message in cases:
        assert is_database_error(exc)
        told = database_failure(exc, "s.db")
        assert (type(told), str(told)) == (kind, message)
    assert not is_database_error(ValueError("x")) and not is_database_error(OSError(28, "No space left"))
