"""``dominolog standings`` (issue 14): every figure of a small hand-built season, worked out here from the
logs' own events (deals, plays, passes, hand_end, match_end), never by the code under test; the ratings
against OpenSkill called directly; CSV, JSON (against its schema) and text through the console script."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from dominolog.cli import app
from dominolog.club.schema import StandingsDocument
from dominolog.club.standings import Filters, PlayerRow, Standings, match_summary, standings
from dominolog.log.hashchain import add_hashes
from dominolog.log.writer import dump_line
from dominolog.recording.notation import iter_matches_any
from dominolog.simulate import simulate_match
from dominolog.store import match_id_of
from dominolog.tiles import Tile
from tests.conftest import ROOT, Ran

Cli = Callable[..., Ran]
Events = list[dict[str, Any]]

#: id, variant, players, seed, options, date (meta), table, what is done to the log
SPRING: list[tuple[str, str, list[str], int, dict[str, Any] | None, str | None, str, str]] = [
    ("spring-1", "ghost13", ["Ana", "Ben"], 0, {"target": 50}, "2026-03-05", "1", ""),  # Ana wins
    ("spring-2", "ghost13", ["Cleo", "Ana"], 2, {"target": 50}, "2026-03-12", "2", ""),  # Ana wins
    ("spring-3", "ghost13", ["Ben", "Cleo"], 5, {"target": 50}, "2026-03-19", "1", ""),  # Ben wins
    ("spring-4", "ghost13", ["Ben", "Cleo"], 1, {"target": 50}, "2026-03-26", "2", "abandon"),
    ("spring-5", "ghost13", ["Ana", "Ben"], 3, {"target": 50}, "2026-04-02", "1", "tamper"),  # Ben wins
    ("spring-6", "39", ["Dev", "Eli"], 4, {"hands": 1}, "2026-03-05", "3", ""),  # a draw, 2-2
    (
        "spring-7",
        "double-draw",
        ["Ana", "Ben", "Cleo", "Dev"],
        2,
        {"partners": True, "target": 50},
        "2026-03-12",
        "3",
        "",
    ),
    ("spring-8", "brettspielnetz", ["Eli", "Fay"], 1, None, None, "4", "undated"),  # penalties; no date at all
]
#: what a hand that nobody went out of is called, by variant
NOT_DOMINO = {"ghost13": "block", "brettspielnetz": "block", "39": "other", "double-draw": "other"}
SIDES = {"double-draw": [("Ana", "Cleo"), ("Ben", "Dev")]}
#: the events a player makes on their turn (what the seconds per move are measured on)
MOVES = ("play", "pass", "draw", "declare", "block_call")
ZERO_ZERO = Tile(0, 0)


def _build(spec: tuple[Any, ...]) -> tuple[Events, Events]:
    """(what was played, as the rules score it; the log as written)."""
    mid, variant, players, seed, options, day, table, how = spec
    events = [{k: v for k, v in e.items() if k != "hash"} for e in simulate_match(variant, seed, 0, players, options)]
    meta = {"event": "spring league", "table": table, **({"date": day} if day else {})}
    events[0] = {**events[0], "id": mid, "meta": meta}
    if how == "abandon":
        events = events[:-1]
    if how == "undated":
        events = [{k: v for k, v in e.items() if k != "at"} for e in events]
    truth = [dict(e) for e in events]
    if how == "tamper":  # the table claims the first hand for the loser: a score-mismatch, the match invalid
        first = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
        events[first] = {**events[first], "points": {p: 0 for p in players} | {"Ana": 30}, "winner": "Ana"}
    return truth, add_hashes(events)


@pytest.fixture(scope="module")
def spring(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Events]]:
    """The season in one file (several matches), and each match's true events by id."""
    folder = tmp_path_factory.mktemp("spring")
    truths, lines = {}, []
    for spec in SPRING:
        truth, written = _build(spec)
        truths[spec[0]] = truth
        lines += [dump_line(e) for e in written]
    path = folder / "spring.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path, truths


def _standings(path: Path, filters: Filters | None = None, include_invalid: bool = False) -> Standings:
    summaries = []
    for log in iter_matches_any(path):
        s = match_summary(str(path), log.records)
        s.match_id = match_id_of(log, s.head)
        summaries.append(s)
    return standings(summaries, filters, include_invalid)


# -- the expected figures, from the events ---------------------------------------------------------


def _time(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def _expected(truths: dict[str, Events], variant: str, include_invalid: bool = False) -> dict[str, dict[str, Any]]:
    """Every player's figures over the season's matches of ``variant``, from the events alone."""
    out: dict[str, dict[str, Any]] = {}
    for spec in SPRING:
        mid, v, players, how = spec[0], spec[1], spec[2], spec[7]
        if v != variant:
            continue
        events = truths[mid]
        valid = how != "tamper"
        sides = SIDES.get(v, [(p,) for p in players])
        end = next((e for e in events if e["type"] == "match_end"), None)
        counted = (valid or include_invalid) and end is not None  # (no match_end: in progress, not counted)
        for p in players:
            x = out.setdefault(p, dict.fromkeys(FIGURES, 0))
            x["invalid"] += not valid
            x["in_progress"] += end is None
            if not counted:
                continue
            x["played"] += 1
            mine = next(s for s in sides if p in s)
            winners = (
                set()
                if end is None
                else set(end["winner"] if isinstance(end["winner"], list) else [end["winner"]] if end["winner"] else [])
            )
            abandoned = end is not None and end.get("reason") == "abandoned"
            x["abandoned" if abandoned else "drawn" if not winners else "won" if winners & set(mine) else "lost"] += 1
        held: dict[str, set[Tile]] = {}
        last: datetime | None = None
        for e in events:
            who = e.get("player")
            if e["type"] == "deal":
                held = {q: {Tile.parse(t) for t in ts} for q, ts in e["hands"].items()}
                board: set[Tile] = set()
            elif e["type"] == "play":  # (Double Draw plays two tiles at once at times)
                for t in e.get("tiles") or [e["tile"]]:
                    held[who].discard(Tile.parse(t))
                    board.add(Tile.parse(t))
            elif e["type"] == "draw":
                held[who].add(Tile.parse(e["tile"]))
            if not counted:
                continue
            if who is not None and e["type"] in MOVES:
                x = out[who]
                x["passes"] += e["type"] == "pass"
                x["draws"] += e["type"] == "draw"
                if "at" in e and last is not None and 0 <= (_time(e["at"]) - last).total_seconds() <= 900:
                    x["timed"] += 1
                    x["seconds"] += (_time(e["at"]) - last).total_seconds()
            if "at" in e:
                last = _time(e["at"])
            if e["type"] != "hand_end":
                continue
            won = set(e["winner"] if isinstance(e["winner"], list) else [e["winner"]] if e["winner"] else [])
            out_of_tiles = any(not held[w] for w in won)
            for p in players:
                x = out[p]
                mine = next(s for s in sides if p in s)
                x["hands"] += 1
                x["for"] += e["points"][p]
                x["against"] += sum(e["points"][s[0]] for s in sides if s != mine)
                if won & set(mine):
                    x["won_" + ("domino" if out_of_tiles else NOT_DOMINO[v])] += 1
                if not out_of_tiles and NOT_DOMINO[v] == "block":
                    x["block_hands"] += 1
                    x["block_pips"] += sum(t.pips for t in held[p])
                    # Ghost 13: a 0-0 left counts 13 when the other six 0s are on the table (at a block no
                    # end shows a 0, or its holder could play it)
                    if v == "ghost13" and ZERO_ZERO in held[p] and all(Tile(0, k) in board for k in range(1, 7)):
                        x["block_pips"] += 13
    return out


FIGURES = [
    "played", "won", "lost", "drawn", "abandoned", "invalid", "in_progress", "hands", "won_domino", "won_block",
    "won_other", "for", "against", "passes", "draws", "timed", "seconds", "block_hands", "block_pips",
]  # fmt: skip


def _figures(r: PlayerRow) -> dict[str, Any]:
    t, f = r.tally, r.figures
    return {
        "played": t.played, "won": t.won, "lost": t.lost, "drawn": t.drawn, "abandoned": t.abandoned,
        "invalid": t.invalid, "in_progress": t.in_progress, "hands": t.hands, "won_domino": t.won_domino,
        "won_block": t.won_block, "won_other": t.won_other, "for": t.points_for, "against": t.points_against,
        "passes": f.passes, "draws": f.draws, "timed": f.timed_moves, "seconds": f.move_seconds,
        "block_hands": f.block_hands, "block_pips": f.block_pips,
    }  # fmt: skip


def _by_variant(st: Standings) -> dict[str, dict[str, dict[str, Any]]]:
    return {t.variant: {r.name: _figures(r) for r in t.players} for t in st.tables}


# -- the figures -------------------------------------------------------------------------------------


def test_every_figure_is_what_the_events_give(spring: tuple[Path, dict[str, Events]]) -> None:
    path, truths = spring
    got = _by_variant(_standings(path))
    assert list(got) == ["39", "brettspielnetz", "double-draw", "ghost13"]  # one table per variant
    for variant, players in got.items():
        assert players == _expected(truths, variant), variant
    g = got["ghost13"]
    # the record, spelled out: Ana won both her counted matches; spring-4 is in progress (no match_end:
    # neither played nor abandoned); spring-5 invalid
    record = ("played", "won", "lost", "drawn", "abandoned", "invalid", "in_progress")
    assert {p: tuple(x[k] for k in record) for p, x in g.items()} == {
        "Ana": (2, 2, 0, 0, 0, 1, 0),
        "Ben": (2, 1, 1, 0, 0, 1, 1),
        "Cleo": (2, 0, 2, 0, 0, 0, 1),
    }
    assert (g["Ana"]["for"], g["Ana"]["against"]) == (66 + 74, 44 + 6)  # the two match_end totals
    assert {p: (x["drawn"], x["for"], x["against"]) for p, x in got["39"].items()} == {
        "Dev": (1, 2, 2),
        "Eli": (1, 2, 2),
    }
    assert got["ghost13"]["Ana"]["won_block"] + got["ghost13"]["Ana"]["won_domino"] > 0


def test_an_invalid_match_is_counted_apart_unless_asked(spring: tuple[Path, dict[str, Events]]) -> None:
    path, truths = spring
    st = _standings(path, include_invalid=True)
    got = _by_variant(st)
    assert got["ghost13"] == _expected(truths, "ghost13", include_invalid=True)
    ana, ben = got["ghost13"]["Ana"], got["ghost13"]["Ben"]
    assert (ana["played"], ana["won"], ana["lost"], ana["invalid"]) == (3, 2, 1, 1)
    assert (ben["played"], ben["won"], ben["lost"], ben["invalid"]) == (3, 2, 1, 1)
    # the scores of the invalid match are the rules' (Ben 58), not the table's claim (Ana 30)
    assert (ben["for"] - _expected(truths, "ghost13")["Ben"]["for"], ana["for"] - 140) == (58, 0)
    table = next(t for t in st.tables if t.variant == "ghost13")
    assert [s.match_id for s in table.rated] == ["spring-1", "spring-2", "spring-3", "spring-5"]


def test_a_partnership_has_its_own_row(spring: tuple[Path, dict[str, Events]]) -> None:
    path, truths = spring
    table = next(t for t in _standings(path).tables if t.variant == "double-draw")
    rows = {p.name: p.tally for p in table.partnerships}
    assert list(rows) == ["Ana & Cleo", "Ben & Dev"]  # the winners first
    ends = [e for e in truths["spring-7"] if e["type"] == "hand_end"]
    ac, bd = rows["Ana & Cleo"], rows["Ben & Dev"]
    assert (ac.played, ac.won, ac.lost, bd.won, bd.lost) == (1, 1, 0, 0, 1)
    assert (ac.points_for, ac.points_against) == (82, 0) == (sum(e["points"]["Ana"] for e in ends), 0)
    assert ac.hands == bd.hands == len(ends) == 3
    assert ac.hands_won == sum(bool({"Ana", "Cleo"} & set(e["winner"] or [])) for e in ends)
    players = {r.name: r for r in table.players}
    assert players["Cleo"].tally.points_for == players["Ana"].tally.points_for == 82  # partners score together


def test_filters(spring: tuple[Path, dict[str, Events]]) -> None:
    path, _ = spring
    from datetime import date

    def ids(st: Standings) -> list[str]:
        return sorted(s.match_id for t in st.tables for s in t.matches)

    assert ids(_standings(path, Filters(variant="ghost13"))) == [f"spring-{k}" for k in range(1, 6)]
    assert ids(_standings(path, Filters(meta={"table": "2"}))) == ["spring-2", "spring-4"]
    assert ids(_standings(path, Filters(meta={"table": "2", "event": "spring league"}))) == ["spring-2", "spring-4"]
    assert ids(_standings(path, Filters(meta={"table": "2", "event": "x"}))) == []
    since = Filters(since=date(2026, 3, 12), until=date(2026, 3, 19))
    assert ids(_standings(path, since)) == ["spring-2", "spring-3", "spring-7"]  # inclusive; undated left out
    assert "spring-8" in ids(_standings(path, Filters(variant="brettspielnetz")))
    assert ids(_standings(path, Filters(since=date(2026, 1, 1)))) == [f"spring-{k}" for k in range(1, 8)]


def test_ratings_are_openskill_in_date_order(spring: tuple[Path, dict[str, Events]]) -> None:
    path, truths = spring
    table = next(t for t in _standings(path).tables if t.variant == "ghost13")
    # by hand: the complete valid matches in date order; the winner's side ranked 1
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    history: dict[str, list[tuple[str, float, float]]] = {}
    for mid in ["spring-1", "spring-2", "spring-3"]:
        start, end = truths[mid][0], truths[mid][-1]
        teams = [[ratings.get(p) or model.rating(name=p)] for p in start["players"]]
        new = model.rate(teams, ranks=[1 if p == end["winner"] else 2 for p in start["players"]])
        for p, (r,) in zip(start["players"], new, strict=True):
            ratings[p] = r
            history.setdefault(p, []).append((mid, r.mu, r.sigma))
    assert [r.name for r in table.players] == sorted(ratings, key=lambda p: -ratings[p].ordinal())
    assert table.players[0].name == "Ana" and table.players[0].place == 1  # she won every match she played
    for row in table.players:
        assert row.rating is not None
        assert (row.rating.mu, row.rating.sigma) == pytest.approx((ratings[row.name].mu, ratings[row.name].sigma))
        assert row.rating.ordinal == pytest.approx(ratings[row.name].ordinal())
        got = [(h.match_id, h.mu, h.sigma) for h in row.rating.history]
        assert [g[0] for g in got] == [h[0] for h in history[row.name]]
        assert [(g[1], g[2]) for g in got] == pytest.approx([(h[1], h[2]) for h in history[row.name]])
    draw = next(t for t in _standings(path).tables if t.variant == "39")
    assert [(r.rating.mu, r.rating.matches) for r in draw.players if r.rating] == [(25.0, 1), (25.0, 1)]


# -- the command ------------------------------------------------------------------------------------

runner = CliRunner()


def _invoke(*args: object) -> Any:
    """``dominolog ARGS`` in this process (the installed package's Typer app)."""
    done = runner.invoke(app, [str(a) for a in args])
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    return done


def test_csv(spring: tuple[Path, dict[str, Events]]) -> None:
    path, truths = spring
    done = _invoke("standings", path, "--format", "csv")
    assert done.exit_code == 0, done.stderr
    rows = list(csv.reader(io.StringIO(done.stdout)))
    header, body = rows[0], [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
    assert header[:6] == ["variant", "title", "higher_wins", "kind", "name", "place"]
    assert len(body) == 2 + 2 + 4 + 2 + 3  # players per variant, then the two partnerships
    ana = next(r for r in body if r["variant"] == "ghost13" and r["name"] == "Ana")
    want = _expected(truths, "ghost13")["Ana"]
    assert ana["kind"] == "player" and ana["place"] == "1" and ana["higher_wins"] == "true"
    assert [ana[k] for k in ("played", "won", "lost", "drawn", "abandoned", "invalid", "invalid_counted")] == [
        "2", "2", "0", "0", "0", "1", "false",
    ]  # fmt: skip
    assert (ana["points_for"], ana["points_against"]) == (str(want["for"]), str(want["against"]))
    assert ana["points_for_per_hand"] == f"{want['for'] / want['hands']:.2f}"
    assert ana["seconds_per_move"] == f"{want['seconds'] / want['timed']:.1f}"
    brett = {r["name"]: r for r in body if r["variant"] == "brettspielnetz"}
    assert brett["Eli"]["higher_wins"] == "false"
    assert brett["Eli"]["seconds_per_move"] == "" and brett["Eli"]["timed_moves"] == "0"  # no times in that log
    pair = next(r for r in body if r["kind"] == "partnership" and r["name"] == "Ana & Cleo")
    assert (pair["won"], pair["points_for"], pair["ordinal"], pair["seconds_per_move"]) == ("1", "82", "", "")


def test_json_fits_its_schema(spring: tuple[Path, dict[str, Events]]) -> None:
    path, truths = spring
    done = _invoke("standings", path, "--format", "json", "--include-invalid")
    assert done.exit_code == 0, done.stderr
    doc = json.loads(done.stdout)
    schema = json.loads((ROOT / "schemas" / "standings.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(doc)
    g13 = next(v for v in doc["variants"] if v["variant"] == "ghost13")
    assert g13["counts"] == {"matches": 5, "counted": 4, "invalid": 1, "in_progress": 1, "rated": 4}
    ben = next(p for p in g13["players"] if p["name"] == "Ben")
    assert [h["match_id"] for h in ben["history"]] == ["spring-1", "spring-3", "spring-5"]
    assert ben["record"] == {
        "played": 3,
        "won": 2,
        "lost": 1,
        "drawn": 0,
        "abandoned": 0,
        "invalid": 1,
        "in_progress": 1,
    }
    spring4 = next(m for m in g13["matches"] if m["id"] == "spring-4")
    assert (spring4["status"], spring4["counted"]) == ("in_progress", False)
    assert ben["points"]["for"] == _expected(truths, "ghost13", include_invalid=True)["Ben"]["for"]
    assert doc["filters"]["include_invalid"] is True


def test_a_match_the_table_abandoned_is_abandoned_not_drawn(
    spring: tuple[Path, dict[str, Events]], tmp_path: Path
) -> None:
    _, truths = spring
    events = truths["spring-1"]
    first = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    path = tmp_path / "left.jsonl"
    ended = [*events[: first + 1], {"type": "match_end", "reason": "abandoned"}]
    path.write_text("".join(dump_line(e) + "\n" for e in add_hashes(ended)), encoding="utf-8")
    (table,) = _standings(path).tables
    assert [(r.name, r.tally.abandoned, r.tally.drawn, r.tally.hands, r.rating) for r in table.players] == [
        ("Ana", 1, 0, 1, None),
        ("Ben", 1, 0, 1, None),
    ]


def test_text_escapes_what_the_logs_hold(tmp_path: Path) -> None:
    """A player's name may hold Rich markup; meta (shown as the filter) a terminal escape. A name with a
    control character is refused by the log format: that match cannot be read, and is counted apart."""
    events = [
        {k: v for k, v in e.items() if k != "hash"} for e in simulate_match("ghost13", 0, 0, ["[bold]x[/bold]", "Ben"])
    ]
    events[0]["meta"] = {"event": "\x1b[31mred"}
    path = tmp_path / "hostile.jsonl"
    unreadable = [{**events[0], "players": ["\x1b[31mred", "Ben"]}, *events[1:]]
    lines = [dump_line(e) for e in add_hashes(events)] + [json.dumps(e) for e in unreadable]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    done = _invoke("standings", path, "--meta", "event=\x1b[31mred")
    assert done.exit_code == 0, done.stderr
    assert "[bold]x[/bold]" in done.stdout and "event=\\x1b[31mred" in done.stdout
    assert "\x1b" not in done.stdout
    assert "Standings: 1 match (event=" in done.stdout
    every = _invoke("standings", path).stdout
    assert every.startswith("Standings: 2 matches\n") and "\x1b" not in every and "[bold]x[/bold]" in every
    assert "Unknown variant (unknown)\n1 match that could not be read (dominolog verify tells why)\n" in every
    assert all(len(line) <= 100 for line in done.stdout.splitlines())


def test_usage_errors_and_no_match(spring: tuple[Path, dict[str, Events]], tmp_path: Path) -> None:
    path, _ = spring
    bad = _invoke("standings", path, "--meta", "table")
    assert (bad.exit_code, bad.stderr) == (2, "dominolog: 'table' is not key=value\n")
    assert _invoke("standings", path, "--variant", "chess").exit_code == 2
    assert _invoke("standings", path, "--db", tmp_path / "x.db").exit_code == 2  # files or the store
    assert _invoke("standings", "--db", tmp_path / "missing.db").exit_code == 2
    # nothing left after the filters: a valid (empty) answer, exit 0
    empty = _invoke("standings", path, "--until", "2000-01-01")
    assert (empty.exit_code, empty.stdout) == (0, "Standings: 0 matches (until 2000-01-01)\nno matches (of 8 read)\n")
    doc = json.loads(_invoke("standings", path, "--until", "2000-01-01", "--format", "json").stdout)
    assert (doc["variants"], doc["matches"]) == ([], {"read": 8, "selected": 0})


def test_the_console_script_reads_the_store(cli: Cli, spring: tuple[Path, dict[str, Events]]) -> None:
    path, _ = spring
    assert cli("import", path, "--db", "x.db").code == 0
    done = cli("standings", "--db", "x.db")
    assert done.code == 0, done.err
    assert done.out.startswith("Standings: 8 matches\n")
    assert (
        "Ghost 13 (ghost13)\n5 matches, 1 invalid (not counted), 1 in progress (not counted), 3 rated; "
        "the highest total wins" in done.out
    )
    assert "points are penalties: the lowest total wins" in done.out
    assert all(len(line) <= 100 for line in done.out.splitlines())
    bad = cli("standings", "--db", "x.db", "--since", "2026-13-01")
    assert (bad.code, bad.err) == (2, "dominolog: '2026-13-01' is not an ISO date (YYYY-MM-DD)\n")


# -- --loss: the points lost, by the analyses the store keeps (issue 15) ------------------------------------

#: the analyses kept in the store: match id -> (review_match's arguments, the settings they are kept under)
ANALYSED: dict[str, dict[str, int]] = {
    "spring-1": {"last": 3},  # Ghost 13 is solved exactly: each hand's end game only (fast), kept as a part
    "spring-2": {"last": 3},
    "spring-5": {"last": 3},  # the invalid match: counted only with --include-invalid
    "spring-6": {"samples": 3},  # the sampled variants: whole matches, few deals
    "spring-7": {"samples": 3},
    "spring-8": {"samples": 3},
}


@pytest.fixture(scope="module")
def analysed_store(
    spring: tuple[Path, dict[str, Events]], tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, dict[str, Any]], dict[str, str]]:
    """The season in a store, six of its matches analysed (the reviews kept as ``analyze --db`` keeps
    them), and what ``standings`` printed (text, csv, json, html) before any analysis was kept."""
    from dominolog.analysis.cache import VERSION, settings_of
    from dominolog.analysis.luck import review_document
    from dominolog.analysis.review import review_match
    from dominolog.store import open_store

    path, _ = spring
    db = tmp_path_factory.mktemp("analysed") / "spring.db"
    logs = {log.records[0].obj["id"]: log for log in iter_matches_any(path)}
    with open_store(db) as store:
        list(store.import_matches(logs.values()))
        heads = {r["id"]: r["head"] for r in store.list_matches()}
    before = {fmt: _invoke("standings", "--db", db, "--format", fmt).stdout for fmt in ("text", "csv", "json", "html")}
    reviews = {}
    with open_store(db, create=False) as store:
        for mid, how in ANALYSED.items():
            reviews[mid] = review_document(review_match(logs[mid], **how))
            settings = (
                settings_of(samples=how["samples"], seed=0) if "samples" in how else settings_of(last=how["last"])
            )
            store.save_analysis(mid, heads[mid], VERSION, settings, reviews[mid])
    return db, reviews, before


def _lost(reviews: dict[str, dict[str, Any]], ids: list[str]) -> dict[str, dict[str, Any]]:
    """Each player's points lost over the reviews of ``ids``, worked out here from their decisions."""
    out: dict[str, dict[str, Any]] = {}
    for mid in ids:
        review = reviews[mid]
        for p in review["players"]:
            out.setdefault(
                p,
                {
                    "matches": 0,
                    "decisions": 0,
                    "choices": 0,
                    "lost": 0,
                    "best": 0,
                    "kept": 0.0,
                    "unforced": 0,
                    "ulost": 0,
                    "lucky": 0,
                    "luck": 0.0,
                    "adjusted": 0.0,
                    "squares": 0.0,
                },
            )
            out[p]["matches"] += 1
            luck = review.get("luck_and_skill", {})
            if p in luck.get("luck", {}):  # luck and the luck-adjusted result (issue 38)
                out[p]["lucky"] += 1
                out[p]["luck"] += luck["luck"][p]
                out[p]["adjusted"] += luck["adjusted"][p]
                out[p]["squares"] += luck.get("margin", {}).get(p, 0.0) ** 2  # sampled: its 95% margin
        for h in review["hands"]:
            for d in h["decisions"]:
                x = out[d["player"]]
                x["decisions"] += 1
                if len(d["options"]) > 1:  # skill: the non-forced decisions (issue 38)
                    x["unforced"] += 1
                    x["ulost"] += d["loss"]
                if d["best"] == d["worst"]:
                    continue
                x["choices"] += 1
                x["lost"] += d["loss"]
                x["best"] += d["loss"] == 0
                x["kept"] += 1 - d["loss"] / max(1, d["best"] - d["worst"])
    return out


def _text_cells(x: dict[str, Any] | None) -> list[str]:
    u = x["unforced"] if x else 0
    rating = [str(u), f"{100 * x['ulost'] / u:.1f}" if x and u else "-"]  # the play rating (issue 38)
    lucky = bool(x and x["lucky"])
    pm = f"±{x['squares'] ** 0.5:.1f}" if x and x["squares"] else ""
    rating += [f"{x['luck']:+.1f}{pm}" if x and lucky else "-", f"{x['adjusted']:+.1f}{pm}" if x and lucky else "-"]
    if x is None or not x["choices"]:
        return [str(x["matches"] if x else 0), "0", "-", "-", "-", *rating]
    n = x["choices"]
    return [
        str(x["matches"]),
        str(n),
        f"{x['lost'] / n:.2f}",
        f"{100 * x['best'] / n:.1f}%",
        f"{100 * x['kept'] / n:.1f}",
        *rating,
    ]


def _group(text: str, heading: str) -> list[str]:
    """The lines of one variant's group of the text output (up to the next group's heading and counts)."""
    lines = text.splitlines()
    start = lines.index(heading)
    end = next(
        (i for i in range(start + 1, len(lines) - 1) if re.match(r"^\d+ match(es)? ", lines[i + 1])),
        len(lines),
    )
    while not lines[end - 1]:
        end -= 1
    return lines[start:end]


def _loss_table(group: list[str]) -> tuple[dict[str, list[str]], str]:
    """The rows of a group's points lost table (name -> cells), and the line under it."""
    at = group.index("Points lost (analysis)") + 4  # the title, two heading lines, the rule
    rows = {}
    while group[at].strip() and not group[at].startswith("analysed "):
        name, *cells = group[at].split()
        rows[name] = cells
        at += 1
    return rows, group[at]


def test_loss_adds_each_players_points_lost_from_the_kept_analyses(
    analysed_store: tuple[Path, dict[str, dict[str, Any]], dict[str, str]],
) -> None:
    db, reviews, _ = analysed_store
    done = _invoke("standings", "--db", db, "--loss")
    assert done.exit_code == 0, done.stderr
    ghost = _group(done.stdout, "Ghost 13 (ghost13)")
    want = _lost(reviews, ["spring-1", "spring-2"])  # spring-3 and -4 have none, spring-5 is not counted
    table, under = _loss_table(ghost)
    assert list(table) == ["Ana", "Ben", "Cleo"]
    for name, cells in table.items():
        assert cells == _text_cells(want.get(name)), name
    assert under == "analysed 2 of 3 counted matches (2 in part only: some hands or decisions)"
    brett = _group(done.stdout, "Brettspielnetz Domino (brettspielnetz)")
    table, under = _loss_table(brett)
    assert list(table) == ["Eli", "Fay"]
    for name, cells in table.items():
        assert cells == _text_cells(_lost(reviews, ["spring-8"])[name]), name
        assert "±" in cells[-2] and "±" in cells[-1]  # the hidden games' luck is sampled: with its 95% margin
    assert under == "analysed 1 of 1 counted match"
    assert done.stdout.endswith(
        "points lost: analysed 5 of 6 counted matches (2 in part only: some hands or decisions).\n"
    )
    # the figures spelled out for one player, from the reviews' own summaries (one match each)
    eli = _lost(reviews, ["spring-8"])["Eli"]
    (summary,) = [p for p in reviews["spring-8"]["summary"] if p["name"] == "Eli"]
    assert (eli["choices"], round(eli["lost"], 2), round(100 * eli["kept"] / eli["choices"], 1)) == (
        summary["choices"],
        summary["total_loss"],
        summary["accuracy"],
    )
    # invalid matches counted: spring-5's analysis counts too
    every = _invoke("standings", "--db", db, "--loss", "--include-invalid").stdout
    ghost = _group(every, "Ghost 13 (ghost13)")
    want = _lost(reviews, ["spring-1", "spring-2", "spring-5"])
    table, under = _loss_table(ghost)
    assert table == {n: _text_cells(want.get(n)) for n in ["Ana", "Ben", "Cleo"]}
    assert under == "analysed 3 of 4 counted matches (3 in part only: some hands or decisions)"


def test_loss_in_csv_json_and_html(
    analysed_store: tuple[Path, dict[str, dict[str, Any]], dict[str, str]],
) -> None:
    db, reviews, _ = analysed_store
    want = _lost(reviews, ["spring-1", "spring-2"])
    rows = list(csv.DictReader(io.StringIO(_invoke("standings", "--db", db, "--loss", "--format", "csv").stdout)))
    ana = next(r for r in rows if r["variant"] == "ghost13" and r["name"] == "Ana")
    x = want["Ana"]
    assert [ana[k] for k in ("analysed_matches", "decisions", "choices", "points_lost")] == [
        str(x["matches"]), str(x["decisions"]), str(x["choices"]), str(x["lost"]),
    ]  # fmt: skip
    assert ana["points_lost_per_choice"] == f"{x['lost'] / x['choices']:.2f}"
    assert (ana["best_move_rate"], ana["accuracy"]) == (
        f"{100 * x['best'] / x['choices']:.1f}",
        f"{100 * x['kept'] / x['choices']:.1f}",
    )
    pair = next(r for r in rows if r["kind"] == "partnership")
    assert pair["analysed_matches"] == pair["accuracy"] == ""

    text = _invoke("standings", "--db", db, "--loss", "--format", "json").stdout
    doc = json.loads(text)
    schema = json.loads((ROOT / "schemas" / "standings.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(doc)
    typed = StandingsDocument.model_validate_json(text, strict=True)  # (the model the schema is made from)
    assert typed.analysis is not None and all(m.analysed is not None for v in typed.variants for m in v.matches)
    assert doc["analysis"] == {"counted": 6, "analysed": 5, "partial": 2}
    g13 = next(v for v in doc["variants"] if v["variant"] == "ghost13")
    assert g13["analysis"] == {"counted": 3, "analysed": 2, "partial": 2}
    assert {m["id"]: m["analysed"] for m in g13["matches"]} == {
        "spring-1": True, "spring-2": True, "spring-3": False, "spring-4": False, "spring-5": False,
    }  # fmt: skip
    loss = next(p for p in g13["players"] if p["name"] == "Ana")["loss"]
    assert loss == {
        "matches": x["matches"],
        "decisions": x["decisions"],
        "choices": x["choices"],
        "points_lost": x["lost"],
        "per_choice": round(x["lost"] / x["choices"], 4),
        "best_move_rate": round(100 * x["best"] / x["choices"], 2),
        "accuracy": round(100 * x["kept"] / x["choices"], 2),
        "unforced": x["unforced"],
        "error_rate": round(x["ulost"] / x["unforced"], 4),
        "play_rating": round(100 * x["ulost"] / x["unforced"], 2),
        "luck": {  # each kept analysis's luck for Ana, summed (issue 38)
            "matches": sum(1 for m in ("spring-1", "spring-2") if "Ana" in reviews[m]["luck_and_skill"]["luck"]),
            "luck": round(sum(reviews[m]["luck_and_skill"]["luck"].get("Ana", 0) for m in ("spring-1", "spring-2")), 2),
            "adjusted": round(
                sum(reviews[m]["luck_and_skill"]["adjusted"].get("Ana", 0) for m in ("spring-1", "spring-2")), 2
            ),
            "margin": None,  # Ghost 13's luck is exact: no margin
        },
    }
    dd = next(v for v in doc["variants"] if v["variant"] == "double-draw")
    fay = _lost(reviews, ["spring-7"])
    for p in dd["players"]:
        assert p["loss"]["points_lost"] == round(fay[p["name"]]["lost"], 2)  # sampled: 2 decimals

    page = _invoke("standings", "--db", db, "--loss", "--format", "html").stdout
    section = page[page.index('data-variant="ghost13"') :]
    section = section[: section.index("</section>")]
    losses = section[section.index('class="standings losses"') :]
    for name in ["Ana", "Ben", "Cleo"]:
        cells = "".join(f'<td class="num">{c}</td>' for c in _text_cells(want.get(name)))
        assert f"<tr><td>{name}</td>{cells}</tr>" in losses, name
    assert (
        '<p class="analysed">analysed 2 of 3 counted matches (2 in part only: some hands or decisions)</p>' in section
    )


def test_without_loss_nothing_changes_and_loss_needs_a_store(
    spring: tuple[Path, dict[str, Events]], analysed_store: tuple[Path, dict[str, dict[str, Any]], dict[str, str]]
) -> None:
    db, _, before = analysed_store
    for fmt, text in before.items():  # the analyses kept change nothing unless --loss is given
        assert _invoke("standings", "--db", db, "--format", fmt).stdout == text, fmt
    assert "Points lost" not in before["text"] and "points lost" not in before["text"]
    path, _ = spring
    done = _invoke("standings", path, "--loss")
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == "dominolog: --loss: analyses are kept in a store: dominolog analyze ID --db DB\n"
