"""CSV for spreadsheets and pandas (issue 14, section 3): per hand with the match's date, event, table
and validity, the aggressor and pips left, a final row per match; ``--long``: one row per hand and
player. Opened with Python's ``csv`` and loaded with ``sqlite-utils insert --csv``."""

from __future__ import annotations

import csv
import io
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

REPLAYS = ROOT / "replays"
DISPUTED = REPLAYS / "ghost13-disputed.jsonl"


def test_a_row_per_hand_with_when_where_validity_aggressor_and_pips_then_a_final_row(cli: Any) -> None:
    rows = list(csv.DictReader(io.StringIO(cli("export", DISPUTED, "--format", "csv").out)))
    first = [r for r in rows if r["match"].endswith(":1")]
    assert [(r["hand"], r["end"], r["winner"], r["aggressor"]) for r in first] == [
        ("1", "block", "Ben", "Ben"),
        ("2", "block", "Ben", "Ben"),
        ("final", "complete", "", ""),
    ]
    hand1 = first[0]
    assert (hand1["date"], hand1["event"], hand1["table"], hand1["variant"], hand1["valid"]) == (
        "2026-11-20T21:05:25Z",
        "Thursday club night",
        "1",
        "ghost13",
        "false",
    )
    assert (hand1["points_2"], hand1["total_2"], hand1["pips_1"], hand1["pips_2"]) == ("124", "124", "62", "28")
    assert (first[-1]["total_1"], first[-1]["total_2"], first[-1]["points_1"]) == ("0", "272", "")


def test_long_is_one_row_per_hand_and_player(cli: Any) -> None:
    rows = list(csv.DictReader(io.StringIO(cli("export", DISPUTED, "--format", "csv", "--long").out)))
    first = [r for r in rows if r["match"].endswith(":1")]
    assert [(r["hand"], r["player"], r["seat"], r["points"], r["total"], r["pips"], r["won"]) for r in first] == [
        ("1", "Ana", "1", "0", "0", "62", "false"),
        ("1", "Ben", "2", "124", "124", "28", "true"),
        ("2", "Ana", "1", "0", "0", "74", "false"),
        ("2", "Ben", "2", "148", "272", "28", "true"),
    ]
    assert cli("export", DISPUTED, "--format", "json", "--long").code == 2


def test_the_csv_loads_into_sqlite_with_sqlite_utils(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "hands.csv"
    assert cli("export", *sorted(REPLAYS.glob("*.jsonl")), "--out", out, "--long").code == 0
    tool = shutil.which("sqlite-utils", path=str(Path(sys.executable).parent))
    assert tool is not None, "sqlite-utils (a dependency) installs its command beside Python"
    db = tmp_path / "sheet.db"
    done = subprocess.run([tool, "insert", str(db), "rows", str(out), "--csv"], capture_output=True)
    assert done.returncode == 0, done.stderr
    conn = sqlite3.connect(db)
    total = conn.execute(
        "SELECT SUM(CAST(points AS INTEGER)) FROM rows WHERE match LIKE '%ghost13-disputed.jsonl:1' AND player = 'Ben'"
    ).fetchone()[0]
    assert total == 272
    assert conn.execute("SELECT COUNT(*) FROM rows").fetchone()[0] == len(out.read_text().splitlines()) - 1
