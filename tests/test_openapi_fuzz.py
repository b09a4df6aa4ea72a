"""``/openapi.json`` says what the API does (issue 36): schemathesis (``--checks all``) runs against a real
``dominolog serve`` on loopback, with the organiser's token and with a table's, on a small budget
(a few examples an operation, bounded in time), and finds nothing: every status documented, every
media type, the request bodies, a value the schema refuses refused. ``tests/schemathesis.toml`` says
which answers a request the schema allows may get (a value the rules refuse: 400 or 422, as each route
documents)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT
from tests.webserver import Server

#: examples an operation, and seconds a run: a small budget (the test stays within a few minutes). The
#: table's run is the shorter: what a table's token may do is a part of what the organiser's may.
EXAMPLES = "5"
SECONDS = {"organiser": 45, "table": 25}


def _schemathesis() -> str:
    found = Path(sys.executable).parent / "schemathesis"
    if not found.exists():
        pytest.fail("schemathesis is not installed beside this Python: pip install -e '.[test]'")
    return str(found)


def _run(s: Server, token: str, seconds: int, folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            _schemathesis(),
            "--config-file",
            str(ROOT / "tests" / "schemathesis.toml"),
            "run",
            f"{s.url}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            EXAMPLES,
            "--max-time",
            str(seconds),
            "--generation-deterministic",
            "--request-timeout",
            "10",
            "--no-color",
            "--header",
            f"Authorization: Bearer {token}",
            "--report-dir",
            str(folder),
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 180,
        cwd=folder,
        check=False,
    )


@pytest.mark.parametrize("who", ["organiser", "table"])
def test_schemathesis_finds_nothing(who: str, tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    with Server(tmp_path / "f.db", tmp_path / "work", "--no-analyse", "--rate", "100000") as s:
        organiser = s.organiser
        assert organiser is not None
        headers = {**s.auth(organiser), "Content-Type": "application/json"}
        start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": "m1"}
        assert httpx.post(f"{s.url}/api/matches", content=json.dumps(start), headers=headers).status_code == 201
        table = httpx.post(f"{s.url}/api/tokens", content='{"match":"m1"}', headers=headers)
        assert table.status_code == 201, table.text
        ran = _run(s, organiser if who == "organiser" else table.json()["token"], SECONDS[who], tmp_path)
    assert ran.returncode == 0, ran.stdout[-8000:] + ran.stderr[-2000:]
    assert "Tested: " in ran.stdout
