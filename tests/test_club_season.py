"""The club season (``replays/club-season/``): three evenings, nine matches, one disputed. What
``build.py`` writes, what ``verify`` says of it, and (below) every number of its standings."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from dominolog.recording.notation import iter_matches_any
from dominolog.reducer import verify_match

SEASON = Path(__file__).resolve().parent.parent / "replays" / "club-season"
FILES = ["2026-09-03.jsonl", "2026-09-17.jsonl", "2026-10-01.jsonl"]


def _build():
    spec = importlib.util.spec_from_file_location("club_season_build", SEASON / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_files_are_what_build_py_writes(tmp_path, monkeypatch):
    build = _build()
    monkeypatch.setattr(build, "OUT", tmp_path)
    build.main()
    assert sorted(p.name for p in tmp_path.iterdir()) == FILES
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (SEASON / name).read_bytes(), name


def test_nine_matches_one_disputed_renege():
    reports = {}
    for name in FILES:
        for log in iter_matches_any(SEASON / name):
            r = verify_match(log)
            reports[log.records[0].obj["id"]] = r
    assert len(reports) == 9
    invalid = {mid: r for mid, r in reports.items() if not r.valid}
    assert list(invalid) == ["club-2026-10-01-table-3"]
    (renege,) = invalid["club-2026-10-01-table-3"].violations
    assert (renege.seq, renege.code) == (22, "renege")
    assert renege.message == "Eli draws while holding a legal play (1-4, 1-6, 2-3 fit)"
    assert all(r.complete for r in reports.values())
    assert {mid: (r.variant, r.totals, r.winner) for mid, r in reports.items()} == {
        "club-2026-09-03-table-1": ("ghost13", {"Ana": 192, "Ben": 38}, "Ana"),
        "club-2026-09-03-table-2": ("double-draw", {"Cleo": 94, "Dev": 115, "Eli": 94, "Fay": 115}, ["Dev", "Fay"]),
        "club-2026-09-03-table-3": ("brettspielnetz", {"Gus": 65, "Hana": 75}, "Gus"),
        "club-2026-09-17-table-1": ("ghost13", {"Cleo": 132, "Gus": 28}, "Cleo"),
        "club-2026-09-17-table-2": ("double-draw", {"Ana": 106, "Ben": 59, "Hana": 106, "Fay": 59}, ["Ana", "Hana"]),
        "club-2026-09-17-table-3": ("39", {"Dev": 4, "Eli": 6}, "Eli"),
        "club-2026-10-01-table-1": ("ghost13", {"Ana": 102, "Cleo": 81}, "Ana"),
        "club-2026-10-01-table-2": ("double-bergen", {"Ben": 97, "Dev": 101, "Gus": 85, "Hana": 83}, "Dev"),
        "club-2026-10-01-table-3": ("brettspielnetz", {"Eli": 76, "Fay": 38}, "Fay"),
    }
