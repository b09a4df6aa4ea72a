"""Every script of bench/ runs on a tiny size, so none can rot: exit 0 and its figures printed. (The
figures themselves are recorded in bench/RESULTS.md; speed is never asserted here.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, clean_env

TINY = {
    "bench_analyser.py": ["--appends", "5"],
    "bench_builds.py": ["--matches", "2", "--rounds", "1", "--repeat", "1"],
    "bench_analyze.py": ["--deals", "1", "--after", "20", "--review", "1"],
    "bench_events_table.py": ["--matches", "3", "--rounds", "1"],
    "bench_import.py": ["--matches", "4", "--files", "2", "--repeat", "1", "--old-ref", "HEAD", "--stages", "--verify"],
    "bench_jobs.py": ["--files", "2", "--matches", "2", "--repeat", "1"],
    "bench_knowledge.py": ["--matches", "1", "--check"],
    "bench_fairplay.py": ["--seasons", "1", "--matches", "2", "--variants", "brettspielnetz"],
    "bench_hidden.py": ["--matches", "2", "--every", "1", "--repeat", "1"],
    "bench_luck.py": ["--deals", "2", "--check", "2", "--hands", "1", "--samples", "2"],
    "bench_likelihood.py": ["--matches", "2", "--repeat", "1"],
    "bench_sampling.py": ["--samples", "2", "--decisions", "2"],
    "bench_verify.py": ["--matches", "5", "--repeat", "1"],
    "bench_store.py": ["--matches", "5", "--repeat", "1"],
    "bench_pg.py": ["--writers", "1,2", "--events", "5"],
    "bench_pg_append.py": ["--old-ref", "HEAD", "--writers", "1", "--events", "5", "--rounds", "1"],
    "bench_phone.py": ["--seeds", "1", "--hands", "1", "--taps", "3"],
    "bench_serve.py": ["--tables", "2", "--events", "3", "--followers", "4", "--rounds", "2"],
    "bench_serve_pg.py": ["--old-ref", "HEAD", "--tables", "2", "--events", "3", "--seconds", "5"],
    "bench_hostile.py": ["--tables", "2", "--followers", "3", "--watchers", "1", "--big", "200", "--seconds", "1"],
    "bench_replay.py": ["--jumps", "5", "--variant", "double-draw"],
    "bench_record.py": [
        "--events",
        "300",
        "--stdin-events",
        "100",
        "--undo-pairs",
        "50",
        "--window",
        "100",
        "--keys",
        "3",
    ],
}

#: the scripts that start a PostgreSQL server of their own
PG_BENCHES = ("bench_pg.py", "bench_pg_append.py", "bench_serve_pg.py")


def test_every_bench_script_has_a_tiny_size() -> None:
    assert sorted(p.name for p in (ROOT / "bench").glob("*.py")) == sorted(TINY)


@pytest.mark.parametrize("name", sorted(TINY))
def test_bench_script_runs_on_a_tiny_size(name: str, tmp_path: Path) -> None:
    if name in PG_BENCHES:  # a PostgreSQL server of its own: skipped off CI only, saying why
        from tests.pgserver import INSTALL, find_bin, required

        if find_bin() is None and not required():
            pytest.skip(f"PostgreSQL is not installed: {INSTALL}")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / name), *TINY[name]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert any(ch.isdigit() for ch in done.stdout) and len(done.stdout.splitlines()) >= 3
    if name == "bench_verify.py":  # python-chess is measured side by side (a test extra: never skipped here)
        assert "python-chess version" in done.stdout and "moves/s" in done.stdout, done.stdout[-2000:]
