"""The club season (``replays/club-season/``): three evenings, nine matches, one disputed. What
``build.py`` writes, what ``verify`` says of it, and (below) every number of its standings."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

from dominolog.recording.notation import iter_matches_any
from dominolog.reducer import verify_match
from tests.conftest import clean_env

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


# -- the season's standings -----------------------------------------------------------------------------------

GOLDEN = Path(__file__).resolve().parent / "data" / "club-season-standings.txt"


def _season_reports():
    """variant -> [(report, hand_end claims)] of the season's matches, read straight from the files."""
    out: dict[str, list] = {}
    for name in FILES:
        for log in iter_matches_any(SEASON / name):
            r = verify_match(log)
            out.setdefault(r.variant, []).append(r)
    return out


def _sides(r):
    if r.variant == "double-draw" and len(r.players) == 4:  # partners (the season's Double Draw is played so)
        p = r.players
        return [(p[0], p[2]), (p[1], p[3])]
    return [(p,) for p in r.players]


def test_import_then_standings_prints_the_table_a_test_checks(cli, tmp_path):
    """The two commands of docs/guides/club-results.md, as a user runs them from any folder: every number of
    the printed table is the golden file's (``DOMINOLOG_UPDATE_GOLDEN=1`` writes it again, to review in the diff)."""
    work = tmp_path / "club"
    work.mkdir()
    imported = cli("import", SEASON, cwd=work)
    assert imported.code == 0, imported.err
    assert "\n9 stored (1 invalid), 0 already there; 1,838 events" in imported.out
    shown = cli("standings", cwd=work, env={**clean_env(), "COLUMNS": "100"})
    assert shown.code == 0, shown.err
    if os.environ.get("DOMINOLOG_UPDATE_GOLDEN"):
        GOLDEN.write_text(shown.out, encoding="utf-8")
    assert shown.out == GOLDEN.read_text(encoding="utf-8")
    as_json = json.loads(cli("standings", "--format", "json", cwd=work).out)
    _check_against_the_logs(as_json)
    # who tops each game: Ana won both her Ghost 13 matches, Dev the Double Bergen; the disputed
    # Brettspielnetz match is not rated, so Gus, who beat Hana, is first there and Eli and Fay unrated
    order = {t["variant"]: [(p["name"], p["place"]) for p in t["players"]] for t in as_json["variants"]}
    assert order["ghost13"] == [("Ana", 1), ("Cleo", 2), ("Ben", 3), ("Gus", 4)]
    assert order["double-bergen"] == [("Dev", 1), ("Ben", 2), ("Gus", 3), ("Hana", 4)]
    assert order["brettspielnetz"] == [("Gus", 1), ("Hana", 2), ("Eli", None), ("Fay", None)]
    assert order["39"] == [("Eli", 1), ("Dev", 2)]
    assert [p["name"] for p in as_json["variants"][3]["players"]][:3] == ["Ana", "Hana", "Dev"]


def _check_against_the_logs(doc):
    """Every count and sum of the standings, worked out again here from the verify reports (not by the
    standings' own code): matches, won, lost, hands, hands won, points for and against, invalid."""
    reports = _season_reports()
    assert [v["variant"] for v in doc["variants"]] == sorted(reports)
    for table in doc["variants"]:
        rs = reports[table["variant"]]
        counted = [r for r in rs if r.valid]
        expected = {}
        for r in rs:
            for side in _sides(r):
                for p in side:
                    e = expected.setdefault(
                        p,
                        dict.fromkeys(("played", "won", "lost", "invalid", "hands", "for", "against", "hands_won"), 0),
                    )
                    if r not in counted:
                        e["invalid"] += 1
                        continue
                    winners = r.winner if isinstance(r.winner, list) else [r.winner]
                    e["played"] += 1
                    e["won"] += p in winners
                    e["lost"] += p not in winners
                    for h in r.hands:
                        e["hands"] += 1
                        e["for"] += h.points[p]
                        e["against"] += sum(h.points[s[0]] for s in _sides(r) if p not in s)
                        hw = h.winner if isinstance(h.winner, list) else [h.winner]
                        e["hands_won"] += p in hw
        got = {
            row["name"]: {
                "played": row["record"]["played"],
                "won": row["record"]["won"],
                "lost": row["record"]["lost"],
                "invalid": row["record"]["invalid"],
                "hands": row["hands"]["played"],
                "for": row["points"]["for"],
                "against": row["points"]["against"],
                "hands_won": row["hands"]["won_domino"] + row["hands"]["won_block"] + row["hands"]["won_other"],
            }
            for row in table["players"]
        }
        assert got == expected, table["variant"]
